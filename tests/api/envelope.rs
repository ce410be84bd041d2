//! Bad input gets a clear error in the envelope with the right status — never a bare
//! text error or a panic.

use reqwest::StatusCode;
use serde_json::Value;

use crate::helpers::*;

async fn raw(app: &TestApp, path: &str, content_type: &str, body: Vec<u8>) -> (StatusCode, Value) {
    let response = app
        .http
        .post(format!("{}{path}", app.url))
        .header("content-type", content_type)
        .body(body)
        .send()
        .await
        .unwrap();
    let status = response.status();
    let text = response.text().await.unwrap();
    let json = serde_json::from_str(&text).unwrap_or_else(|_| panic!("not JSON: {text}"));
    (status, json)
}

fn assert_failure(body: &Value) {
    assert_eq!(body["success"], false, "{body}");
    assert_eq!(body["payload"], Value::Null);
    assert!(
        body["error"].as_str().is_some_and(|e| !e.is_empty()),
        "{body}"
    );
}

#[tokio::test]
async fn malformed_mistyped_missing_and_oversized_bodies_are_envelope_errors() {
    let app = spawn_app().await;
    let signup = "/api/v1/accounts/signup";
    let (status, body) = raw(&app, signup, "application/json", b"{not json".to_vec()).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_failure(&body);

    let (status, body) = raw(
        &app,
        signup,
        "application/json",
        br#"{"login": 42, "password": "x"}"#.to_vec(),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(body["error"].as_str().unwrap().contains("login"), "{body}");

    let (status, body) = raw(
        &app,
        signup,
        "application/json",
        br#"{"login": "a@b.example"}"#.to_vec(),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        body["error"].as_str().unwrap().contains("password"),
        "{body}"
    );

    let (status, body) = raw(&app, signup, "text/plain", b"hello".to_vec()).await;
    assert_eq!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    assert_failure(&body);

    let huge = format!(r#"{{"login": "{}"}}"#, "a".repeat(200_000)).into_bytes();
    let (status, body) = raw(&app, signup, "application/json", huge).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    assert_failure(&body);

    let (status, body) = raw(
        &app,
        "/api/v1/oauth2/token",
        "application/json",
        b"[]".to_vec(),
    )
    .await;
    assert!(status.is_client_error());
    assert_failure(&body);
}

#[tokio::test]
async fn unknown_api_paths_and_methods_answer_in_the_envelope() {
    let app = spawn_app().await;
    let (status, body) = app.get("/api/v1/no-such-thing", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_failure(&body);
    let (status, body) = app.get("/api/v1/oauth2/nothing-here", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_failure(&body);
    let (status, body) = app.get("/api/v1/oauth2/token", None).await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
    assert_failure(&body);
    let (status, body) = app.get("/api/v1/health", None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["payload"]["status"], "ok");
    let (_, about) = app.get("/api/v1/about", None).await;
    let licenses = about["payload"]["licenses"].as_array().unwrap();
    assert!(
        licenses.iter().any(|l| l["name"] == "axum"),
        "licences come from the build"
    );
}

#[tokio::test]
async fn bad_query_parameters_are_400_in_the_envelope() {
    let app = spawn_app().await;
    app.account("admin@example.com", encore::accounts::model::Role::Admin)
        .await;
    let admin = app.sign_in("admin@example.com").await;
    let (status, body) = app
        .get("/api/v1/accounts?page=first", Some(&admin.access))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_failure(&body);
    let (status, body) = app
        .get("/api/v1/accounts?role=owner", Some(&admin.access))
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_failure(&body);
}

#[tokio::test]
async fn a_whole_number_written_with_a_decimal_point_is_taken_as_an_integer() {
    let app = spawn_app().await;
    let admin = app.an_admin().await;
    let (status, plan) = app
        .post(
            "/api/v1/pricing-plans",
            serde_json::json!({ "name": "Pass", "price": 4900.0, "currency": "EUR", "days": 30.0 }),
            Some(&admin),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{plan}");
    assert_eq!(plan["payload"]["days"], 30);
    let (status, body) = app
        .post(
            "/api/v1/pricing-plans",
            serde_json::json!({ "name": "Half", "price": 4900, "currency": "EUR", "days": 30.5 }),
            Some(&admin),
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
}
