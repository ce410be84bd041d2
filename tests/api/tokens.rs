//! Refresh-token rotation and re-use detection.

use encore::accounts::model::Role;
use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::*;

async fn refresh(app: &TestApp, token: &str) -> (StatusCode, serde_json::Value) {
    app.oauth(
        "token",
        json!({ "grant_type": "refresh_token", "refresh_token": token, "client_id": WEB, "state": "r" }),
    )
    .await
}

#[tokio::test]
async fn refresh_rotates_and_the_new_tokens_work() {
    let app = spawn_app().await;
    app.account("fan@example.com", Role::User).await;
    let first = app.sign_in("fan@example.com").await;
    let (status, body) = refresh(&app, &first.refresh).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["state"], "r");
    let second = tokens_of(&body);
    assert_ne!(
        second.refresh, first.refresh,
        "a new refresh token every time"
    );
    assert_eq!(app.me(&second.access).await.0, StatusCode::OK);
    let (status, body) = refresh(&app, &second.refresh).await;
    assert_eq!(status, StatusCode::OK, "{body}");
}

#[tokio::test]
async fn reusing_a_spent_refresh_token_revokes_the_whole_family() {
    let app = spawn_app().await;
    app.account("fan@example.com", Role::User).await;
    let first = app.sign_in("fan@example.com").await;
    let (_, body) = refresh(&app, &first.refresh).await;
    let second = tokens_of(&body);
    assert_eq!(app.me(&second.access).await.0, StatusCode::OK);

    // The spent token comes back (someone copied it): the session ends for everyone.
    let (status, body) = refresh(&app, &first.refresh).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        body["error"].as_str().unwrap().contains("already used"),
        "{body}"
    );
    assert_eq!(
        refresh(&app, &second.refresh).await.0,
        StatusCode::BAD_REQUEST
    );
    assert_eq!(app.me(&second.access).await.0, StatusCode::UNAUTHORIZED);

    // Other sessions of the same account are untouched.
    let other = app.sign_in("fan@example.com").await;
    assert_eq!(app.me(&other.access).await.0, StatusCode::OK);
}

#[tokio::test]
async fn racing_refreshes_with_one_token_yield_one_winner() {
    let app = spawn_app().await;
    app.account("fan@example.com", Role::User).await;
    let tokens = app.sign_in("fan@example.com").await;
    let (a, b) = tokio::join!(
        refresh(&app, &tokens.refresh),
        refresh(&app, &tokens.refresh)
    );
    let wins = [a.0, b.0].iter().filter(|s| **s == StatusCode::OK).count();
    assert!(wins <= 1, "at most one refresh succeeds: {a:?} {b:?}");
}

#[tokio::test]
async fn a_garbage_or_tampered_access_token_is_401() {
    let app = spawn_app().await;
    app.account("fan@example.com", Role::User).await;
    let tokens = app.sign_in("fan@example.com").await;
    let mut tampered = tokens.access.clone();
    tampered.pop();
    tampered.push(if tokens.access.ends_with('A') {
        'B'
    } else {
        'A'
    });
    for token in ["garbage", tampered.as_str()] {
        let (status, body) = app.me(token).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
        assert_eq!(body["success"], false);
    }
    assert_eq!(
        app.get("/api/v1/accounts/userinfo/me", None).await.0,
        StatusCode::UNAUTHORIZED
    );
    // The spec's access-token header works as well as the bearer header.
    let response = app
        .http
        .get(format!("{}/api/v1/accounts/userinfo/me", app.url))
        .header("x-access-token", &tokens.access)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
}
