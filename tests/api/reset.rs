//! Forgotten passwords and invitations: single-use links that set a password.

use encore::accounts::model::Role;
use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::*;

async fn forgot(app: &TestApp, email: &str) -> (StatusCode, serde_json::Value) {
    app.oauth(
        "forgot",
        json!({ "email": email, "code_verifier": pkce().0, "client_id": WEB, "state": "f-1" }),
    )
    .await
}

async fn reset(app: &TestApp, token: &str, password: &str) -> (StatusCode, serde_json::Value) {
    app.oauth(
        "reset",
        json!({ "token": token, "password": password, "client_id": WEB, "state": "r-1" }),
    )
    .await
}

/// Ask for a reset link for fan@example.com: the token of the link it is e-mailed.
async fn a_reset_link(app: &TestApp) -> String {
    let (status, body) = forgot(app, "fan@example.com").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    link_token(&app.outbox_message("fan@example.com", "email").await)
}

#[tokio::test]
async fn forgot_then_reset_then_sign_in_with_the_new_password() {
    let app = spawn_app().await;
    app.account("fan@example.com", Role::User).await;
    let old_session = app.sign_in("fan@example.com").await;

    let (status, body) = forgot(&app, "FAN@example.com").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["state"], "f-1");
    let mail = app.outbox_message("fan@example.com", "email").await;
    assert!(
        mail["body"]
            .as_str()
            .unwrap()
            .contains(&format!("{}/auth/recover-password?token=", app.url))
    );
    let token = link_token(&mail);

    let (status, body) = reset(&app, &token, "a brand new passphrase").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    app.sign_in_with("fan@example.com", "a brand new passphrase")
        .await;
    let status = app.authorize_status("fan@example.com", PASSWORD).await;
    assert_eq!(
        status,
        StatusCode::UNAUTHORIZED,
        "the old password no longer works"
    );
    assert_eq!(
        app.me(&old_session.access).await.0,
        StatusCode::UNAUTHORIZED,
        "old sessions end"
    );

    let (status, body) = reset(&app, &token, "yet another passphrase").await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "a link works once");
    assert_eq!(body["error"], "This link is invalid or has expired.");
}

#[tokio::test]
async fn forgot_answers_the_same_for_unknown_accounts_and_sends_nothing() {
    let app = spawn_app().await;
    let (status, body) = forgot(&app, "nobody@example.com").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["success"], true);
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert!(app.outbox_to("nobody@example.com", "email").is_empty());
}

#[tokio::test]
async fn an_expired_reset_link_is_refused_and_a_weak_password_keeps_the_link() {
    let app = spawn_app().await;
    app.account("fan@example.com", Role::User).await;
    let token = a_reset_link(&app).await;
    let (status, _) = reset(&app, &token, "short").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    app.execute("UPDATE one_time_tokens SET expires_at = expires_at - 1800001")
        .await;
    assert_eq!(
        reset(&app, &token, "a brand new passphrase").await.0,
        StatusCode::BAD_REQUEST
    );
}

#[tokio::test]
async fn an_invited_account_sets_its_password_from_the_invitation() {
    let app = spawn_app().await;
    app.invite(json!({ "login": "Invitee@Example.com", "person": { "firstName": "In", "lastName": "Vitee" }, "roles": ["user"] })).await;
    let mail = app.outbox_message("invitee@example.com", "email").await;
    assert!(mail["body"].as_str().unwrap().contains("&invite=1"));
    // Before accepting, no password signs in.
    let status = app.authorize_status("invitee@example.com", PASSWORD).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        reset(&app, &link_token(&mail), PASSWORD).await.0,
        StatusCode::OK
    );
    app.sign_in("invitee@example.com").await;
}

#[tokio::test]
async fn a_bad_reset_link_is_refused_before_the_new_password_is_checked_or_hashed() {
    let app = spawn_app().await;
    app.account("fan@example.com", Role::User).await;
    let before = app.state.passwords.hashes_made();
    for password in ["a brand new passphrase", "short"] {
        let (status, body) = reset(&app, "not-a-real-link-token", password).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
        assert_eq!(body["error"], "This link is invalid or has expired.");
    }
    // A verification link is the wrong purpose, and a spent reset link is spent.
    let token = a_reset_link(&app).await;
    app.execute("UPDATE one_time_tokens SET purpose = 'verify'")
        .await;
    assert_eq!(
        reset(&app, &token, "a brand new passphrase").await.0,
        StatusCode::BAD_REQUEST
    );
    assert_eq!(
        app.state.passwords.hashes_made(),
        before,
        "no password was hashed for a link that cannot be spent"
    );
}
