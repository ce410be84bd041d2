//! The SMS second factor: E108 → authenticators → associate → code → mfa_code.

use encore::accounts::model::Role;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::*;

const PHONE: &str = "+447700900123";

async fn authenticators(app: &TestApp, p: &Pending, verifier: &str) -> (StatusCode, Value) {
    let response = app
        .http
        .get(format!("{}/api/v1/oauth2/authenticators", app.url))
        .query(&[
            ("code_verifier", verifier),
            ("client_id", WEB),
            ("state", "a-1"),
        ])
        .bearer_auth(&p.mfa_token)
        .send()
        .await
        .unwrap();
    (response.status(), response.json().await.unwrap())
}

fn wrong(code: &str) -> String {
    let last = code.chars().last().unwrap().to_digit(10).unwrap();
    format!("{}{}", &code[..5], (last + 1) % 10)
}

#[tokio::test]
async fn enrolling_a_phone_then_signing_in_with_the_sms_code() {
    let app = spawn_app().await;
    app.an_mfa_account(None).await;
    let pending = e108(&app, "secure@example.com").await;

    let (status, body) = authenticators(&app, &pending, &pending.verifier).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["payload"], json!([]), "no factor enrolled yet");
    assert_eq!(body["state"], "a-1");

    // The password alone does not enrol a phone: the owner is e-mailed a link, and the
    // sign-in that brings it back enrols one.
    let (status, body) = associate(&app, &pending, PHONE, None).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    let link = link_token(&app.outbox_message("secure@example.com", "email").await);
    let (status, body) = associate(&app, &pending, PHONE, Some(&link)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["payload"]["oob_channel"], "sms");
    let sms = app.outbox_message(PHONE, "sms").await;
    let (status, body) = mfa_code(&app, &pending, &code_in(&sms)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["payload"]["status"], "OK");
    let access = access_of(&body);
    let (_, me) = app.me(&access).await;
    assert_eq!(me["payload"][0]["phone"], "+44 •••• ••• 123");

    // Next sign-in: the enrolled phone is listed and its code is sent at once.
    let pending = e108(&app, "secure@example.com").await;
    let (_, body) = authenticators(&app, &pending, &pending.verifier).await;
    assert_eq!(body["payload"][0]["name"], "+44 •••• ••• 123");
    assert_eq!(body["payload"][0]["authenticator_type"], "oob");
    let sms = app.outbox_messages_after(PHONE, "sms", 1).await;
    let (status, _) = mfa_code(&app, &pending, &code_in(&sms)).await;
    assert_eq!(status, StatusCode::OK);
    // The same MFA token cannot be used twice.
    assert_eq!(
        mfa_code(&app, &pending, &code_in(&sms)).await.0,
        StatusCode::UNAUTHORIZED
    );
}

#[tokio::test]
async fn a_wrong_code_is_refused_and_five_tries_exhaust_it() {
    let app = spawn_app().await;
    app.an_mfa_account(Some(PHONE)).await;
    let pending = e108(&app, "secure@example.com").await;
    let code = code_in(&app.outbox_message(PHONE, "sms").await);

    let (status, body) = mfa_code(&app, &pending, &wrong(&code)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["error"], "The code is incorrect. 4 tries left.");
    for _ in 0..4 {
        mfa_code(&app, &pending, &wrong(&code)).await;
    }
    let (status, body) = mfa_code(&app, &pending, &code).await;
    assert_eq!(
        status,
        StatusCode::BAD_REQUEST,
        "even the right code is refused now"
    );
    assert!(
        body["error"].as_str().unwrap().contains("Too many"),
        "{body}"
    );
}

#[tokio::test]
async fn a_wrong_code_then_the_right_one_signs_in() {
    let app = spawn_app().await;
    app.an_mfa_account(Some(PHONE)).await;
    let pending = e108(&app, "secure@example.com").await;
    let code = code_in(&app.outbox_message(PHONE, "sms").await);
    assert_eq!(
        mfa_code(&app, &pending, &wrong(&code)).await.0,
        StatusCode::BAD_REQUEST
    );
    assert_eq!(mfa_code(&app, &pending, &code).await.0, StatusCode::OK);
}

#[tokio::test]
async fn an_expired_code_or_mfa_token_is_refused() {
    let app = spawn_app().await;
    app.an_mfa_account(Some(PHONE)).await;
    let pending = e108(&app, "secure@example.com").await;
    let code = code_in(&app.outbox_message(PHONE, "sms").await);
    app.execute("UPDATE mfa_challenges SET otp_expires_at = otp_expires_at - 300001")
        .await;
    let (status, body) = mfa_code(&app, &pending, &code).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        body["error"].as_str().unwrap().contains("expired"),
        "{body}"
    );

    app.execute("UPDATE mfa_challenges SET expires_at = expires_at - 300001")
        .await;
    assert_eq!(
        mfa_code(&app, &pending, &code).await.0,
        StatusCode::UNAUTHORIZED
    );
}

#[tokio::test]
async fn associate_is_refused_when_a_phone_is_enrolled_and_checks_the_number() {
    let app = spawn_app().await;
    app.an_mfa_account(Some(PHONE)).await;
    let pending = e108(&app, "secure@example.com").await;
    let (status, body) = associate(&app, &pending, "+15550100999", None).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");

    app.account_with("fresh@example.com", Role::User, None, true)
        .await;
    let pending = e108(&app, "fresh@example.com").await;
    let (status, body) = associate(&app, &pending, "07700 900123", None).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert!(body["error"].as_str().unwrap().contains("international"));
}

#[tokio::test]
async fn authenticators_need_the_flows_verifier_and_a_live_mfa_token() {
    let app = spawn_app().await;
    app.an_mfa_account(Some(PHONE)).await;
    let pending = e108(&app, "secure@example.com").await;
    assert_eq!(
        authenticators(&app, &pending, &pkce().0).await.0,
        StatusCode::BAD_REQUEST
    );
    let bogus = Pending {
        mfa_token: "bogus".into(),
        verifier: pending.verifier.clone(),
    };
    assert_eq!(
        authenticators(&app, &bogus, &pending.verifier).await.0,
        StatusCode::UNAUTHORIZED
    );
    // An MFA token is not an access token.
    assert_eq!(app.me(&pending.mfa_token).await.0, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn an_unverified_account_enrolling_a_phone_at_sign_in_is_403_and_no_sms_goes_out() {
    let app = spawn_app().await;
    app.unverified_account("new@example.com", true).await;
    let pending = e108(&app, "new@example.com").await;
    let (status, body) = associate(&app, &pending, PHONE, None).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    assert_eq!(body["state"], "as-1");
    assert_eq!(
        body["error"],
        encore::i18n::Msg::VerifyEmailFirst.render(Default::default())
    );
    assert!(app.outbox_to(PHONE, "sms").is_empty());
}

#[tokio::test]
async fn the_mfa_code_grant_needs_the_flows_code_verifier() {
    let app = spawn_app().await;
    app.an_mfa_account(Some(PHONE)).await;
    let pending = e108(&app, "secure@example.com").await;
    let code = code_in(&app.outbox_message(PHONE, "sms").await);
    for verifier in [None, Some(String::new()), Some(pkce().0)] {
        let mut body = json!({ "grant_type": "mfa_code", "mfa_token": pending.mfa_token,
                               "binding_code": code, "client_id": WEB, "state": "m-2" });
        if let Some(verifier) = verifier {
            body["code_verifier"] = json!(verifier);
        }
        let (status, answer) = app.oauth("token", body).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
        assert!(answer["payload"].is_null(), "no tokens: {answer}");
        assert_eq!(answer["state"], "m-2");
    }
    // Refusing a missing or wrong verifier spent none of the code's tries.
    let (status, body) = mfa_code(&app, &pending, &code).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["payload"]["status"], "OK");
}

#[tokio::test]
async fn a_form_associate_may_repeat_a_list_field_as_openapi_form_style_sends_arrays() {
    let app = spawn_app().await;
    app.account_with("fresh@example.com", Role::User, None, true)
        .await;
    let pending = e108(&app, "fresh@example.com").await;
    let response = app
        .http
        .post(format!("{}/api/v1/oauth2/associate", app.url))
        .bearer_auth(&pending.mfa_token)
        .form(&[
            ("authenticator_types", "oob"),
            ("oob_channels", "voice"),
            ("oob_channels", "sms"),
            ("phone_number", PHONE),
            ("client_id", WEB),
            ("state", "as-form"),
        ])
        .send()
        .await
        .unwrap();
    let status = response.status();
    let body: Value = response.json().await.unwrap();
    // Read as asking for SMS: without the e-mailed link, that link is sent (403).
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    assert_eq!(
        body["error"],
        encore::i18n::Msg::EnrolmentLinkSent.render(Default::default())
    );
    assert_eq!(body["state"], "as-form");
}
