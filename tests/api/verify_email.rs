//! E-mail verification: the welcome e-mail of a sign-up, its single-use link, re-sending
//! it, and no SMS to an account before its address is proven (SMS pumping).

use encore::accounts::model::Role;
use encore::i18n::{Lang, Msg};
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::*;

const PHONE: &str = "+15550100777";

/// Sign up over HTTP (in `language`, an Accept-Language value): the account's JSON.
async fn sign_up(app: &TestApp, email: &str, language: &str) -> Value {
    let response = app
        .http
        .post(format!("{}/api/v1/accounts/signup", app.url))
        .header("accept-language", language)
        .json(&json!({ "login": email, "password": PASSWORD }))
        .send()
        .await
        .expect("request");
    assert_eq!(response.status(), StatusCode::CREATED);
    let body: Value = response.json().await.expect("json");
    body["payload"].clone()
}

async fn verify(app: &TestApp, token: &str) -> (StatusCode, Value) {
    app.oauth(
        "verify-email",
        json!({ "token": token, "client_id": WEB, "state": "v-1" }),
    )
    .await
}

/// The token of the newest verification e-mail to `email`.
async fn verification_token(app: &TestApp, email: &str) -> String {
    link_token(&app.outbox_message(email, "email").await)
}

/// Ask for the verification e-mail again, signed in as `access`'s holder.
async fn resend(app: &TestApp, access: &str) -> (StatusCode, Value) {
    app.post("/api/v1/accounts/me/verification", json!({}), Some(access))
        .await
}

async fn email_verified(app: &TestApp, token: &str) -> Value {
    let (status, me) = app.me(token).await;
    assert_eq!(status, StatusCode::OK, "{me}");
    me["payload"][0]["emailVerified"].clone()
}

#[tokio::test]
async fn a_sign_up_sends_a_welcome_email_with_a_verification_link_in_the_accounts_language() {
    let app = spawn_app().await;
    let account = sign_up(&app, "nueva@example.com", "es-ES,es;q=0.9").await;
    assert_eq!(account["emailVerified"], false);

    let mail = app.outbox_message("nueva@example.com", "email").await;
    assert_eq!(mail["subject"], Msg::WelcomeSubject.render(Lang::Spanish));
    let body = mail["body"].as_str().unwrap();
    let link = format!("{}/auth/verify-email?token=", app.url);
    assert!(body.contains(&link), "{body}");
    assert!(body.starts_with("Hola, nueva@example.com:"), "{body}");
    assert!(
        mail["secrets"][0].as_str().unwrap().starts_with(&link),
        "the link is marked secret: {mail}"
    );
    // Stored hashed, never as sent.
    let token = link_token(&mail);
    assert_eq!(
        app.count(
            "SELECT COUNT(*) FROM one_time_tokens WHERE token_hash = $1",
            &token
        )
        .await,
        0
    );
    assert_eq!(
        app.count(
            "SELECT COUNT(*) FROM one_time_tokens WHERE purpose = $1",
            "verify"
        )
        .await,
        1
    );
}

#[tokio::test]
async fn a_verification_link_verifies_the_account_once_and_a_second_use_is_400() {
    let app = spawn_app().await;
    sign_up(&app, "fan@example.com", "en").await;
    let token = verification_token(&app, "fan@example.com").await;

    let (status, body) = verify(&app, &token).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["success"], true);
    assert_eq!(body["state"], "v-1");
    let session = app.sign_in("fan@example.com").await;
    assert_eq!(email_verified(&app, &session.access).await, true);

    let (status, body) = verify(&app, &token).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert_eq!(body["success"], false);
    assert_eq!(body["state"], "v-1");
    assert_eq!(body["error"], Msg::VerifyLinkInvalid.render(Lang::English));
}

#[tokio::test]
async fn an_unknown_verification_token_is_400_in_the_readers_language() {
    let app = spawn_app().await;
    let response = app
        .http
        .post(format!("{}/api/v1/oauth2/verify-email", app.url))
        .header("authorization", basic_web())
        .header("accept-language", "pt-BR")
        .json(&json!({ "token": "not-a-token", "client_id": WEB, "state": "v-2" }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    let body: Value = response.json().await.unwrap();
    assert_eq!(
        body["error"],
        Msg::VerifyLinkInvalid.render(Lang::Portuguese)
    );
    assert_eq!(body["state"], "v-2");
}

#[tokio::test]
async fn a_verification_link_cannot_set_a_password() {
    let app = spawn_app().await;
    sign_up(&app, "fan@example.com", "en").await;
    let token = verification_token(&app, "fan@example.com").await;
    let (status, body) = app
        .oauth(
            "reset",
            json!({ "token": token, "password": "another fine passphrase", "client_id": WEB }),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    // Refused without being spent: it still verifies.
    assert_eq!(verify(&app, &token).await.0, StatusCode::OK);
}

#[tokio::test]
async fn an_unverified_account_is_refused_an_sms_code_with_403_and_gets_one_once_verified() {
    let app = spawn_app().await;
    let account = sign_up(&app, "fan@example.com", "en").await;
    let session = app.sign_in("fan@example.com").await;
    let path = format!("/api/v1/accounts/{}/phone", account["id"].as_str().unwrap());

    let body = json!({ "phone": PHONE, "currentPassword": PASSWORD });
    let (status, body) = app.post(&path, body, Some(&session.access)).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    assert_eq!(body["error"], Msg::VerifyEmailFirst.render(Lang::English));
    assert!(app.outbox_to(PHONE, "sms").is_empty());

    let token = verification_token(&app, "fan@example.com").await;
    assert_eq!(verify(&app, &token).await.0, StatusCode::OK);
    let body = json!({ "phone": PHONE, "currentPassword": PASSWORD });
    let (status, body) = app.post(&path, body, Some(&session.access)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    app.outbox_message(PHONE, "sms").await;
}

#[tokio::test]
async fn a_signed_in_unverified_account_gets_a_new_link_and_the_old_one_stops_working() {
    let app = spawn_app().await;
    sign_up(&app, "fan@example.com", "en").await;
    let old = verification_token(&app, "fan@example.com").await;
    let session = app.sign_in("fan@example.com").await;

    let (status, body) = resend(&app, &session.access).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let mail = app
        .outbox_messages_after("fan@example.com", "email", 1)
        .await;
    let new = link_token(&mail);
    assert_ne!(new, old);

    assert_eq!(verify(&app, &old).await.0, StatusCode::BAD_REQUEST);
    assert_eq!(verify(&app, &new).await.0, StatusCode::OK);
    assert_eq!(email_verified(&app, &session.access).await, true);
}

#[tokio::test]
async fn sending_the_verification_email_again_is_rate_limited() {
    let app = spawn_app().await;
    sign_up(&app, "fan@example.com", "en").await;
    let session = app.sign_in("fan@example.com").await;
    // The welcome e-mail was the first of five messages in the window.
    for _ in 0..4 {
        let (status, body) = resend(&app, &session.access).await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }
    let (status, body) = resend(&app, &session.access).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
}

#[tokio::test]
async fn a_verified_account_asking_for_the_link_again_is_409() {
    let app = spawn_app().await;
    app.account("fan@example.com", Role::User).await;
    let session = app.sign_in("fan@example.com").await;
    let (status, body) = resend(&app, &session.access).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(
        body["error"],
        Msg::EmailAlreadyVerified.render(Lang::English)
    );
}

#[tokio::test]
async fn accepting_an_invitation_verifies_the_address() {
    let app = spawn_app().await;
    let body = app.invite(json!({ "login": "invitee@example.com" })).await;
    assert_eq!(body["payload"]["emailVerified"], false);

    let token = link_token(&app.outbox_message("invitee@example.com", "email").await);
    let (status, body) = app
        .oauth(
            "reset",
            json!({ "token": token, "password": PASSWORD, "client_id": WEB }),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let invitee = app.sign_in("invitee@example.com").await;
    assert_eq!(email_verified(&app, &invitee.access).await, true);
}

#[tokio::test]
async fn a_password_reset_verifies_the_address() {
    let app = spawn_app().await;
    sign_up(&app, "fan@example.com", "en").await;
    app.outbox_message("fan@example.com", "email").await;
    app.forgot("fan@example.com").await;
    let mail = app
        .outbox_messages_after("fan@example.com", "email", 1)
        .await;
    assert_eq!(mail["subject"], Msg::ResetSubject.render(Lang::English));
    let (status, body) = app
        .oauth(
            "reset",
            json!({ "token": link_token(&mail), "password": PASSWORD, "client_id": WEB }),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let session = app.sign_in("fan@example.com").await;
    assert_eq!(email_verified(&app, &session.access).await, true);
}

#[tokio::test]
async fn the_accounts_list_shows_whether_each_address_is_verified() {
    let app = spawn_app().await;
    app.account("admin@example.com", Role::Admin).await;
    app.unverified_account("new@example.com", false).await;
    let admin = app.sign_in("admin@example.com").await;
    let (status, body) = app.get("/api/v1/accounts", Some(&admin.access)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let verified_of = |login: &str| {
        body["payload"]["items"]
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["login"] == login)
            .map(|a| a["emailVerified"].clone())
            .unwrap()
    };
    assert_eq!(verified_of("admin@example.com"), true);
    assert_eq!(verified_of("new@example.com"), false);
}
