//! Sign-in by QR code: one device asks, a signed-in device approves, the first collects.

use encore::accounts::model::Role;
use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::*;

async fn start(app: &TestApp, challenge: &str) -> serde_json::Value {
    let (status, body) = app
        .oauth(
            "token/qr",
            json!({ "response_type": "code", "scope": "openid profile email",
                    "redirect_uri": app.redirect_uri(), "code_challenge": challenge,
                    "code_challenge_method": "S256", "client_id": WEB, "state": "q-1", "nonce": "n" }),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["state"], "q-1");
    body["payload"].clone()
}

async fn poll(app: &TestApp, poll_token: &str) -> (StatusCode, serde_json::Value) {
    app.oauth(
        "token/qr/poll",
        json!({ "poll_token": poll_token, "client_id": WEB, "state": "p" }),
    )
    .await
}

#[tokio::test]
async fn a_signed_in_device_approves_and_the_new_device_gets_tokens() {
    let app = spawn_app().await;
    // (An account with the second factor on gets E108 instead: see step_up.rs.)
    app.account("fan@example.com", Role::User).await;
    let (verifier, challenge) = pkce();
    let qr = start(&app, &challenge).await;
    let qr_id = qr["qr_id"].as_str().unwrap();
    assert_eq!(qr["approve_url"], format!("{}/auth/qr?id={qr_id}", app.url));
    let poll_token = qr["poll_token"].as_str().unwrap();
    assert_eq!(
        poll(&app, poll_token).await.1["payload"]["status"],
        "pending"
    );

    // Approving needs a signed-in account.
    assert_eq!(
        app.post(
            &format!("/api/v1/oauth2/token/qr/{qr_id}/approve"),
            json!({}),
            None
        )
        .await
        .0,
        StatusCode::UNAUTHORIZED
    );
    let approver = app.sign_in("fan@example.com").await.access;
    let (status, info) = app
        .get(&format!("/api/v1/oauth2/token/qr/{qr_id}"), Some(&approver))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(info["payload"]["client_name"], "Encore web");
    assert_eq!(info["payload"]["status"], "pending");
    let (status, body) = app
        .post(
            &format!("/api/v1/oauth2/token/qr/{qr_id}/approve"),
            json!({ "number": qr["match_number"], "currentPassword": PASSWORD }),
            Some(&approver),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");

    let (status, body) = poll(&app, poll_token).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["payload"]["status"], "approved");
    let code = body["payload"]["code"].as_str().unwrap();
    let (status, body) = app.exchange(code, &verifier).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["payload"]["status"], "OK", "{body}");
    let access = access_of(&body);
    assert_eq!(
        app.me(&access).await.1["payload"][0]["login"],
        "fan@example.com"
    );

    // Collected once only.
    assert_eq!(poll(&app, poll_token).await.0, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn an_expired_qr_cannot_be_approved_or_collected_and_its_code_needs_the_verifier() {
    let app = spawn_app().await;
    app.account("fan@example.com", Role::User).await;
    let approver = app.sign_in("fan@example.com").await;

    let (_, challenge) = pkce();
    let qr = start(&app, &challenge).await;
    let qr_id = qr["qr_id"].as_str().unwrap();
    app.post(
        &format!("/api/v1/oauth2/token/qr/{qr_id}/approve"),
        json!({ "number": qr["match_number"], "currentPassword": PASSWORD }),
        Some(&approver.access),
    )
    .await;
    let (_, body) = poll(&app, qr["poll_token"].as_str().unwrap()).await;
    let code = body["payload"]["code"].as_str().unwrap();
    assert_eq!(
        app.exchange(code, &pkce().0).await.0,
        StatusCode::BAD_REQUEST,
        "someone else's verifier"
    );

    let qr = start(&app, &challenge).await;
    app.execute("UPDATE qr_logins SET expires_at = expires_at - 120001")
        .await;
    let qr_id = qr["qr_id"].as_str().unwrap();
    let (status, _) = app
        .post(
            &format!("/api/v1/oauth2/token/qr/{qr_id}/approve"),
            json!({ "number": qr["match_number"], "currentPassword": PASSWORD }),
            Some(&approver.access),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        poll(&app, qr["poll_token"].as_str().unwrap()).await.0,
        StatusCode::BAD_REQUEST
    );
}

#[tokio::test]
async fn a_poll_without_its_token_names_the_field_and_one_from_another_client_finds_nothing() {
    let app = spawn_app().await;
    let (status, body) = app
        .oauth("token/qr/poll", json!({ "client_id": WEB, "state": "p" }))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert_eq!(body["state"], "p");
    assert_eq!(body["error"], "The field \"poll_token\" is required.");

    // Another client's poll reads as a token found nowhere: it learns nothing.
    let qr = start(&app, &pkce().1).await;
    let (status, nowhere) = poll(&app, "no-such-token").await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{nowhere}");
    let (status, body) = app
        .oauth(
            "token/qr/poll",
            json!({ "poll_token": qr["poll_token"], "client_id": "another", "state": "p" }),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert_eq!(body["error"], nowhere["error"]);
    assert_eq!(
        poll(&app, qr["poll_token"].as_str().unwrap()).await.1["payload"]["status"],
        "pending"
    );
}
