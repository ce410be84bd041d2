//! Security findings 6 and 7: enrolling a phone takes the second factor or an e-mailed
//! link; changing the login e-mail, the phone or the second factor, and approving a QR
//! sign-in, take the current password; a new e-mail waits for its own proof; a QR
//! sign-in shows device, place and a number to match.

use encore::accounts::model::{AccountRow, Role};
use encore::i18n::{Lang, Msg};
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::*;

const PHONE: &str = "+447700900123";
const WRONG: &str = "not my password at all";

async fn stored_phone(app: &TestApp, id: &str) -> Option<String> {
    let (phone,): (Option<String>,) = sqlx::query_as("SELECT phone FROM accounts WHERE id = $1")
        .bind(id)
        .fetch_one(app.db())
        .await
        .unwrap();
    phone
}

async fn stored_mfa(app: &TestApp, id: &str) -> i64 {
    app.count("SELECT use_mfa FROM accounts WHERE id = $1", id)
        .await
}

async fn stored_login(app: &TestApp, id: &str) -> String {
    let (login,): (String,) = sqlx::query_as("SELECT login FROM accounts WHERE id = $1")
        .bind(id)
        .fetch_one(app.db())
        .await
        .unwrap();
    login
}

fn error_is(body: &Value, msg: Msg) {
    assert_eq!(body["error"], msg.render(Lang::English), "{body}");
}

/// The answer is a 422 with `msg`.
fn refused_with((status, body): (StatusCode, Value), msg: Msg) {
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    error_is(&body, msg);
}

/// How many phone enrolment links account `id` has.
async fn enrolment_links(app: &TestApp, id: &str) -> i64 {
    app.count(
        "SELECT COUNT(*) FROM account_links WHERE account_id = $1 AND purpose = 'enrol_phone'",
        id,
    )
    .await
}

/// How many of account `id`'s sessions passed the second factor.
async fn second_factor_sessions(app: &TestApp, id: &str) -> i64 {
    app.count(
        "SELECT COUNT(*) FROM sessions WHERE account_id = $1 AND second_factor_at IS NOT NULL",
        id,
    )
    .await
}

async fn delete_with(app: &TestApp, path: &str, body: Value, token: &str) -> (StatusCode, Value) {
    let response = app
        .http
        .delete(format!("{}{path}", app.url))
        .bearer_auth(token)
        .json(&body)
        .send()
        .await
        .unwrap();
    (
        response.status(),
        response.json().await.unwrap_or(Value::Null),
    )
}

// ----------------------------------------------------------------- 6: phone enrolment

#[tokio::test]
async fn mfa_cannot_be_turned_on_without_a_verified_phone() {
    let app = spawn_app().await;
    let fan = app.account("fan@example.com", Role::User).await;
    let tokens = app.sign_in("fan@example.com").await;
    refused_with(
        app.post(
            &format!("/api/v1/accounts/{}/changemfa", fan.id),
            json!({ "useMFA": true, "currentPassword": PASSWORD }),
            Some(&tokens.access),
        )
        .await,
        Msg::MfaNeedsPhone,
    );
    refused_with(
        app.put(
            &format!("/api/v1/accounts/{}", fan.id),
            json!({ "enablement": { "useMFA": true }, "currentPassword": PASSWORD }),
            &tokens.access,
        )
        .await,
        Msg::MfaNeedsPhone,
    );
    assert_eq!(stored_mfa(&app, &fan.id).await, 0);

    // An admin cannot either.
    app.account("admin@example.com", Role::Admin).await;
    let admin = app.sign_in("admin@example.com").await;
    let (status, _) = app
        .post(
            &format!("/api/v1/accounts/{}/changemfa", fan.id),
            json!({ "useMFA": true, "currentPassword": PASSWORD }),
            Some(&admin.access),
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(stored_mfa(&app, &fan.id).await, 0);
}

#[tokio::test]
async fn associate_with_only_the_password_cannot_enrol_a_phone_and_emails_the_owner_a_link() {
    let app = spawn_app().await;
    let owner = app.an_mfa_account(None).await;
    let thief = e108(&app, "secure@example.com").await;
    let (status, body) = associate(&app, &thief, PHONE, None).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    assert_eq!(body["state"], "as-1");
    error_is(&body, Msg::EnrolmentLinkSent);
    assert!(
        app.outbox_to(PHONE, "sms").is_empty(),
        "no code to the thief"
    );
    assert_eq!(stored_phone(&app, &owner.id).await, None);

    let mail = app.outbox_message("secure@example.com", "email").await;
    assert_eq!(mail["subject"], Msg::EnrolSubject.render(Lang::English));
    let body = mail["body"].as_str().unwrap();
    assert!(
        body.contains(&format!("{}/auth/login?enrol_token=", app.url)),
        "{body}"
    );
    // Stored hashed, like the reset links.
    let token = link_token(&mail);
    assert_eq!(
        app.count(
            "SELECT COUNT(*) FROM account_links WHERE token_hash = $1",
            &token
        )
        .await,
        0
    );
    assert_eq!(enrolment_links(&app, &owner.id).await, 1);
}

#[tokio::test]
async fn the_emailed_enrolment_link_enrols_a_phone_once() {
    let app = spawn_app().await;
    let owner = app.an_mfa_account(None).await;
    let first = e108(&app, "secure@example.com").await;
    associate(&app, &first, PHONE, None).await;
    let token = link_token(&app.outbox_message("secure@example.com", "email").await);

    // A made-up link does nothing.
    let pending = e108(&app, "secure@example.com").await;
    let (status, body) = associate(&app, &pending, PHONE, Some("made-up")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    error_is(&body, Msg::EnrolmentLinkInvalid);

    let (status, body) = associate(&app, &pending, PHONE, Some(&token)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let sms = app.outbox_message(PHONE, "sms").await;

    // The link is spent: another sign-in cannot use it again.
    let again = e108(&app, "secure@example.com").await;
    let (status, body) = associate(&app, &again, "+15550100999", Some(&token)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert!(app.outbox_to("+15550100999", "sms").is_empty());

    let (status, body) = mfa_code(&app, &pending, &code_in(&sms)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(stored_phone(&app, &owner.id).await.as_deref(), Some(PHONE));
    // The session remembers it passed the second factor.
    assert_eq!(second_factor_sessions(&app, &owner.id).await, 1);
}

#[tokio::test]
async fn a_session_without_the_second_factor_cannot_change_the_phone_of_an_mfa_account() {
    let app = spawn_app().await;
    let owner = app.an_mfa_account(Some(PHONE)).await;
    // A session that predates the rule (or any other way around the second factor).
    let tokens = {
        let p = e108(&app, "secure@example.com").await;
        let sms = app.outbox_message(PHONE, "sms").await;
        let (_, body) = mfa_code(&app, &p, &code_in(&sms)).await;
        access_of(&body)
    };
    app.execute("UPDATE sessions SET second_factor_at = NULL")
        .await;
    app.state
        .sessions
        .forget(&encore::accounts::model::AccountChanged::of(&owner.id));
    let (status, body) = app
        .post(
            &format!("/api/v1/accounts/{}/phone", owner.id),
            json!({ "phone": "+15550100999", "currentPassword": PASSWORD }),
            Some(&tokens),
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    error_is(&body, Msg::SecondFactorSessionRequired);
    assert!(app.outbox_to("+15550100999", "sms").is_empty());
}

// ------------------------------------------------------------ 7: step-up on changes

/// A fan with a verified phone and no second factor, signed in.
async fn a_fan_with_a_phone(app: &TestApp) -> (AccountRow, Tokens) {
    let fan = app
        .account_with("fan@example.com", Role::User, Some(PHONE), false)
        .await;
    let tokens = app.sign_in("fan@example.com").await;
    (fan, tokens)
}

/// Each of the five changes (login, MFA by update and by changemfa, a new phone, removing
/// the phone) with `password` is refused with `msg`, and nothing is stored or sent.
async fn every_change_is_refused(app: &TestApp, password: Option<&str>, msg: Msg) {
    let (fan, tokens) = a_fan_with_a_phone(app).await;
    let me = format!("/api/v1/accounts/{}", fan.id);
    let with = |mut body: Value| {
        if let Some(p) = password {
            body["currentPassword"] = json!(p);
        }
        body
    };
    refused_with(
        app.put(
            &me,
            with(json!({ "login": "thief@example.com" })),
            &tokens.access,
        )
        .await,
        msg,
    );
    refused_with(
        app.put(
            &me,
            with(json!({ "enablement": { "useMFA": true } })),
            &tokens.access,
        )
        .await,
        msg,
    );
    refused_with(
        app.post(
            &format!("{me}/changemfa"),
            with(json!({ "useMFA": true })),
            Some(&tokens.access),
        )
        .await,
        msg,
    );
    refused_with(
        app.post(
            &format!("{me}/phone"),
            with(json!({ "phone": "+15550100999" })),
            Some(&tokens.access),
        )
        .await,
        msg,
    );
    refused_with(
        delete_with(app, &format!("{me}/phone"), with(json!({})), &tokens.access).await,
        msg,
    );

    assert_eq!(stored_login(app, &fan.id).await, "fan@example.com");
    assert_eq!(stored_mfa(app, &fan.id).await, 0);
    assert_eq!(stored_phone(app, &fan.id).await.as_deref(), Some(PHONE));
    assert!(app.outbox_to("thief@example.com", "email").is_empty());
    assert!(app.outbox_to("+15550100999", "sms").is_empty());
}

#[tokio::test]
async fn email_phone_and_mfa_changes_without_the_current_password_are_refused_and_nothing_is_stored()
 {
    let app = spawn_app().await;
    every_change_is_refused(&app, None, Msg::CurrentPasswordRequired).await;
}

#[tokio::test]
async fn email_phone_and_mfa_changes_with_a_wrong_password_are_refused_and_nothing_is_stored() {
    let app = spawn_app().await;
    every_change_is_refused(&app, Some(WRONG), Msg::CurrentPasswordIncorrect).await;
}

#[tokio::test]
async fn confirming_a_new_phone_takes_the_current_password() {
    let app = spawn_app().await;
    let (fan, tokens) = a_fan_with_a_phone(&app).await;
    let me = format!("/api/v1/accounts/{}", fan.id);
    let (status, body) = app
        .post(
            &format!("{me}/phone"),
            json!({ "phone": "+15550100999", "currentPassword": PASSWORD }),
            Some(&tokens.access),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let code = code_in(&app.outbox_message("+15550100999", "sms").await);
    for body in [
        json!({ "code": code }),
        json!({ "code": code, "currentPassword": WRONG }),
    ] {
        let (status, body) = app
            .post(&format!("{me}/phone/verify"), body, Some(&tokens.access))
            .await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    }
    assert_eq!(stored_phone(&app, &fan.id).await.as_deref(), Some(PHONE));
    let (status, body) = app
        .post(
            &format!("{me}/phone/verify"),
            json!({ "code": code, "currentPassword": PASSWORD }),
            Some(&tokens.access),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(
        stored_phone(&app, &fan.id).await.as_deref(),
        Some("+15550100999")
    );
}

#[tokio::test]
async fn with_the_current_password_mfa_goes_on_for_an_account_with_a_phone() {
    let app = spawn_app().await;
    let (fan, tokens) = a_fan_with_a_phone(&app).await;
    let (status, body) = app
        .post(
            &format!("/api/v1/accounts/{}/changemfa", fan.id),
            json!({ "useMFA": true, "currentPassword": PASSWORD }),
            Some(&tokens.access),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(stored_mfa(&app, &fan.id).await, 1);
}

#[tokio::test]
async fn an_admin_changing_another_account_gives_their_own_password() {
    let app = spawn_app().await;
    let fan = app
        .account_with("fan@example.com", Role::User, Some(PHONE), false)
        .await;
    app.account("admin@example.com", Role::Admin).await;
    let admin = app.sign_in("admin@example.com").await;
    let path = format!("/api/v1/accounts/{}", fan.id);
    let (status, body) = app
        .post(
            &format!("{path}/changemfa"),
            json!({ "useMFA": true }),
            Some(&admin.access),
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    let (status, _) = delete_with(
        &app,
        &format!("{path}/phone"),
        json!({ "currentPassword": WRONG }),
        &admin.access,
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(stored_phone(&app, &fan.id).await.as_deref(), Some(PHONE));
    let (status, body) = app
        .post(
            &format!("{path}/changemfa"),
            json!({ "useMFA": true, "currentPassword": PASSWORD }),
            Some(&admin.access),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(stored_mfa(&app, &fan.id).await, 1);
}

/// A fan, signed in, who asked to change their login to `new` (with the password): the
/// account, the session and the answer.
async fn a_login_change_to(app: &TestApp, new: &str) -> (AccountRow, Tokens, Value) {
    let (fan, tokens) = app.a_fan().await;
    let (status, body) = app
        .put(
            &format!("/api/v1/accounts/{}", fan.id),
            json!({ "login": new, "currentPassword": PASSWORD }),
            &tokens.access,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    (fan, tokens, body)
}

/// The confirmation link's token e-mailed to `to`.
async fn confirm_token_sent_to(app: &TestApp, to: &str) -> String {
    link_token(&app.outbox_message(to, "email").await)
}

async fn confirm_email(app: &TestApp, token: &str) -> (StatusCode, Value) {
    app.oauth(
        "confirm-email",
        json!({ "token": token, "client_id": WEB, "state": "c-1" }),
    )
    .await
}

#[tokio::test]
async fn a_new_login_email_waits_for_the_new_address_to_verify() {
    let app = spawn_app().await;
    let (fan, tokens, body) = a_login_change_to(&app, "New@Example.com").await;
    assert_eq!(body["payload"]["login"], "fan@example.com");
    assert_eq!(body["payload"]["pendingLogin"], "new@example.com");
    assert_eq!(stored_login(&app, &fan.id).await, "fan@example.com");
    let (_, me) = app.me(&tokens.access).await;
    assert_eq!(me["payload"][0]["pendingLogin"], "new@example.com");
}

#[tokio::test]
async fn the_old_address_is_told_of_a_new_login_email_without_a_link() {
    let app = spawn_app().await;
    a_login_change_to(&app, "New@Example.com").await;
    let notice = app.outbox_message("fan@example.com", "email").await;
    assert_eq!(
        notice["subject"],
        Msg::EmailChangeNoticeSubject.render(Lang::English)
    );
    assert!(notice["body"].as_str().unwrap().contains("new@example.com"));
    assert!(
        !notice["body"].as_str().unwrap().contains("token="),
        "the old address gets no link"
    );
}

#[tokio::test]
async fn the_new_address_is_sent_a_link_to_confirm_it() {
    let app = spawn_app().await;
    a_login_change_to(&app, "New@Example.com").await;
    let mail = app.outbox_message("new@example.com", "email").await;
    assert_eq!(
        mail["subject"],
        Msg::EmailChangeSubject.render(Lang::English)
    );
    assert!(
        mail["body"]
            .as_str()
            .unwrap()
            .contains(&format!("{}/auth/confirm-email?token=", app.url))
    );
}

#[tokio::test]
async fn a_made_up_email_confirmation_token_is_refused() {
    let app = spawn_app().await;
    a_login_change_to(&app, "New@Example.com").await;
    let (status, body) = confirm_email(&app, "made-up").await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
}

#[tokio::test]
async fn confirming_the_new_address_makes_it_the_login_once_only() {
    let app = spawn_app().await;
    let (fan, tokens, _) = a_login_change_to(&app, "New@Example.com").await;
    let token = confirm_token_sent_to(&app, "new@example.com").await;
    let (status, body) = confirm_email(&app, &token).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["state"], "c-1");
    assert_eq!(stored_login(&app, &fan.id).await, "new@example.com");
    let (_, me) = app.me(&tokens.access).await;
    assert_eq!(me["payload"][0]["login"], "new@example.com");
    assert!(
        me["payload"][0]
            .get("pendingLogin")
            .is_none_or(Value::is_null)
    );
    app.sign_in("new@example.com").await;
    assert_eq!(
        confirm_email(&app, &token).await.0,
        StatusCode::BAD_REQUEST,
        "once only"
    );
}

#[tokio::test]
async fn a_new_login_email_taken_before_it_is_confirmed_is_409_and_the_login_stays() {
    let app = spawn_app().await;
    let (fan, _, _) = a_login_change_to(&app, "late@example.com").await;
    let token = confirm_token_sent_to(&app, "late@example.com").await;
    app.account("late@example.com", Role::User).await;
    let (status, body) = confirm_email(&app, &token).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(stored_login(&app, &fan.id).await, "fan@example.com");
}

// ---------------------------------------------------------------------- 7: QR approval

async fn qr_start(app: &TestApp, challenge: &str) -> Value {
    let response = app
        .http
        .post(format!("{}/api/v1/oauth2/token/qr", app.url))
        .header("authorization", basic_web())
        .header("user-agent", "Mozilla/5.0 (X11; Linux) TestBrowser/1.0")
        .json(
            &json!({ "response_type": "code", "scope": "openid profile email",
                       "redirect_uri": app.redirect_uri(), "code_challenge": challenge,
                       "code_challenge_method": "S256", "client_id": WEB, "state": "q-1" }),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let body: Value = response.json().await.unwrap();
    body["payload"].clone()
}

async fn qr_poll(app: &TestApp, qr: &Value) -> (StatusCode, Value) {
    app.oauth(
        "token/qr/poll",
        json!({ "poll_token": qr["poll_token"], "client_id": WEB }),
    )
    .await
}

async fn qr_approve(app: &TestApp, qr: &Value, body: Value, token: &str) -> (StatusCode, Value) {
    let id = qr["qr_id"].as_str().unwrap();
    app.post(
        &format!("/api/v1/oauth2/token/qr/{id}/approve"),
        body,
        Some(token),
    )
    .await
}

#[tokio::test]
async fn approving_a_qr_needs_the_number_shown_and_the_current_password() {
    let app = spawn_app().await;
    app.account("fan@example.com", Role::User).await;
    let approver = app.sign_in("fan@example.com").await;
    let (verifier, challenge) = pkce();
    let qr = qr_start(&app, &challenge).await;
    let number = qr["match_number"].as_u64().expect("a number to show");
    assert!((10..=99).contains(&number), "{qr}");

    let (status, info) = app
        .get(
            &format!("/api/v1/oauth2/token/qr/{}", qr["qr_id"].as_str().unwrap()),
            Some(&approver.access),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{info}");
    assert_eq!(
        info["payload"]["device"],
        "Mozilla/5.0 (X11; Linux) TestBrowser/1.0"
    );
    assert_eq!(info["payload"]["place"], "127.0.0.1");
    let numbers: Vec<u64> = info["payload"]["numbers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_u64().unwrap())
        .collect();
    assert_eq!(numbers.len(), 3, "{info}");
    assert!(numbers.contains(&number));
    assert!(info["payload"].get("match_number").is_none());

    for (body, msg) in [
        (json!({}), None),
        (json!({ "currentPassword": PASSWORD }), None),
        (
            json!({ "number": number }),
            Some(Msg::CurrentPasswordRequired),
        ),
        (
            json!({ "number": number, "currentPassword": WRONG }),
            Some(Msg::CurrentPasswordIncorrect),
        ),
    ] {
        let (status, body) = qr_approve(&app, &qr, body, &approver.access).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
        if let Some(msg) = msg {
            error_is(&body, msg);
        }
        assert_eq!(qr_poll(&app, &qr).await.1["payload"]["status"], "pending");
    }

    // A wrong number burns the QR code.
    let wrong = numbers.iter().find(|n| **n != number).copied().unwrap();
    refused_with(
        qr_approve(
            &app,
            &qr,
            json!({ "number": wrong, "currentPassword": PASSWORD }),
            &approver.access,
        )
        .await,
        Msg::QrWrongNumber,
    );
    let (status, _) = qr_approve(
        &app,
        &qr,
        json!({ "number": number, "currentPassword": PASSWORD }),
        &approver.access,
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "burnt");
    assert_eq!(qr_poll(&app, &qr).await.0, StatusCode::BAD_REQUEST);

    // The right number and the password approve it.
    let qr = qr_start(&app, &challenge).await;
    let (status, body) = qr_approve(
        &app,
        &qr,
        json!({ "number": qr["match_number"], "currentPassword": PASSWORD }),
        &approver.access,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (_, body) = qr_poll(&app, &qr).await;
    let code = body["payload"]["code"].as_str().unwrap();
    let (status, body) = app.exchange(code, &verifier).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["payload"]["status"], "OK", "{body}");
}

#[tokio::test]
async fn a_qr_sign_in_of_an_mfa_account_answers_e108_at_the_token_step() {
    let app = spawn_app().await;
    app.account_with("fan@example.com", Role::User, Some(PHONE), true)
        .await;
    let approver = {
        let p = e108(&app, "fan@example.com").await;
        let sms = app.outbox_message(PHONE, "sms").await;
        let (_, body) = mfa_code(&app, &p, &code_in(&sms)).await;
        access_of(&body)
    };
    let (verifier, challenge) = pkce();
    let qr = qr_start(&app, &challenge).await;
    let (status, body) = qr_approve(
        &app,
        &qr,
        json!({ "number": qr["match_number"], "currentPassword": PASSWORD }),
        &approver,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (_, body) = qr_poll(&app, &qr).await;
    let code = body["payload"]["code"].as_str().unwrap();
    let (status, body) = app.exchange(code, &verifier).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["payload"]["status"], "E108", "{body}");
    assert!(body["payload"].get("access_token").is_none());
    // The new device does its own SMS step, and its session then counts as second-factor.
    let pending = Pending {
        mfa_token: body["payload"]["mfa_token"].as_str().unwrap().to_owned(),
        verifier,
    };
    let sms = app.outbox_messages_after(PHONE, "sms", 1).await;
    let (status, body) = mfa_code(&app, &pending, &code_in(&sms)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
}
