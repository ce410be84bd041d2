//! Abuse limits: per-IP buckets and per-account lockout, both 429 with Retry-After.

use encore::accounts::model::Role;
use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::*;

#[tokio::test]
async fn authorize_is_limited_per_ip_with_retry_after() {
    let app = spawn_app_with(Options {
        auth_rate_per_minute: 3,
        ..Options::default()
    })
    .await;
    app.account("fan@example.com", Role::User).await;
    let (_, challenge) = pkce();
    let body = app.authorize_body("fan@example.com", PASSWORD, &challenge);
    for _ in 0..3 {
        assert_eq!(app.oauth("authorize", body.clone()).await.0, StatusCode::OK);
    }
    let response = app
        .http
        .post(format!("{}/api/v1/oauth2/authorize", app.url))
        .header("authorization", basic_web())
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
    let retry: u64 = response.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=60).contains(&retry), "{retry}");
    let answer: serde_json::Value = response.json().await.unwrap();
    assert_eq!(answer["success"], false);
    assert_eq!(answer["state"], "s-123");
    // Other endpoints have their own buckets.
    let (status, _) = app
        .oauth(
            "forgot",
            json!({ "email": "fan@example.com", "client_id": WEB }),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn register_forgot_and_token_are_limited_per_ip() {
    let app = spawn_app_with(Options {
        auth_rate_per_minute: 2,
        ..Options::default()
    })
    .await;
    for (endpoint, body) in [
        (
            "register",
            json!({ "email": "x@example.com", "password": "short", "client_id": WEB }),
        ),
        (
            "forgot",
            json!({ "email": "x@example.com", "client_id": WEB }),
        ),
        (
            "token",
            json!({ "grant_type": "refresh_token", "refresh_token": "nope", "client_id": WEB }),
        ),
    ] {
        for _ in 0..2 {
            assert_ne!(
                app.oauth(endpoint, body.clone()).await.0,
                StatusCode::TOO_MANY_REQUESTS
            );
        }
        assert_eq!(
            app.oauth(endpoint, body.clone()).await.0,
            StatusCode::TOO_MANY_REQUESTS,
            "{endpoint}"
        );
    }
}

#[tokio::test]
async fn ten_wrong_passwords_lock_the_account_for_a_while() {
    let app = spawn_app().await;
    app.account("fan@example.com", Role::User).await;
    let (_, challenge) = pkce();
    let wrong = app.authorize_body("fan@example.com", "not my password", &challenge);
    for _ in 0..10 {
        assert_eq!(
            app.oauth("authorize", wrong.clone()).await.0,
            StatusCode::UNAUTHORIZED
        );
    }
    let right = app.authorize_body("fan@example.com", PASSWORD, &challenge);
    let (status, body) = app.oauth("authorize", right).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
    // Another account is not affected.
    app.account("other@example.com", Role::User).await;
    app.sign_in("other@example.com").await;
}

#[tokio::test]
async fn both_sign_up_routes_share_one_quota_per_address() {
    let app = spawn_app_with(Options {
        auth_rate_per_minute: 3,
        ..Options::default()
    })
    .await;
    for n in 0..3 {
        let (status, body) = app
            .post(
                "/api/v1/accounts/signup",
                json!({ "login": format!("fan{n}@example.com"), "password": PASSWORD }),
                None,
            )
            .await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
    }
    let response = app
        .http
        .post(format!("{}/api/v1/accounts/signup", app.url))
        .json(&json!({ "login": "one.more@example.com", "password": PASSWORD }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
    assert!(response.headers().contains_key("retry-after"));
    // The OAuth route counts against the same quota: no second allowance there.
    let (status, _) = app
        .oauth(
            "register",
            json!({ "email": "other@example.com", "password": PASSWORD, "client_id": WEB }),
        )
        .await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(
        app.count("SELECT COUNT(*) FROM accounts WHERE login <> $1", "")
            .await,
        3
    );
}
