//! The accounts API: CRUD as an admin, self-service changes, avatars, figures.

use encore::accounts::model::Role;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::*;

/// Grace, created by `admin` through the API (which e-mails her an invitation): her id.
async fn grace(app: &TestApp, admin: &str) -> String {
    let (status, created) = app
        .post(
            "/api/v1/accounts",
            json!({ "login": "grace@example.com", "person": { "firstName": "Grace", "lastName": "Hopper" },
                    "roles": ["user"], "notes": "VIP" }),
            Some(admin),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    assert_eq!(
        created["payload"]["person"],
        json!({ "firstName": "Grace", "lastName": "Hopper" })
    );
    created["payload"]["id"].as_str().unwrap().to_owned()
}

#[tokio::test]
async fn the_account_list_is_paged_ten_per_page_by_default() {
    let app = spawn_app().await;
    let admin = app.an_admin().await;
    for i in 0..12 {
        app.account(&format!("fan{i:02}@example.com"), Role::User)
            .await;
    }
    let (status, page) = app.get("/api/v1/accounts", Some(&admin)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(page["payload"]["total"], 13);
    assert_eq!(
        page["payload"]["items"].as_array().unwrap().len(),
        10,
        "10 per page by default"
    );
    assert_eq!(page["payload"]["page"], 1);
    let (_, page2) = app
        .get("/api/v1/accounts?page=2&pageSize=10", Some(&admin))
        .await;
    assert_eq!(page2["payload"]["items"].as_array().unwrap().len(), 3);
}

#[tokio::test]
async fn an_account_an_admin_creates_is_invited_by_e_mail() {
    let app = spawn_app().await;
    let admin = app.an_admin().await;
    grace(&app, &admin).await;
    app.outbox_message("grace@example.com", "email").await;
}

#[tokio::test]
async fn the_account_search_finds_a_name_by_part_and_treats_wildcards_literally() {
    let app = spawn_app().await;
    let admin = app.an_admin().await;
    let id = grace(&app, &admin).await;
    let (_, found) = app.get("/api/v1/accounts?search=hopp", Some(&admin)).await;
    assert_eq!(found["payload"]["total"], 1);
    assert_eq!(found["payload"]["items"][0]["id"], id.as_str());
    let (_, found) = app
        .get("/api/v1/accounts?search=100%25", Some(&admin))
        .await;
    assert_eq!(
        found["payload"]["total"], 0,
        "LIKE wildcards in a search are literal"
    );
}

#[tokio::test]
async fn an_admin_edits_a_name_and_notes_and_the_rest_stays() {
    let app = spawn_app().await;
    let admin = app.an_admin().await;
    let id = grace(&app, &admin).await;
    let (status, updated) = app
        .put(
            &format!("/api/v1/accounts/{id}"),
            json!({ "person": { "firstName": "Grace B." }, "notes": "VIP, front row" }),
            &admin,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{updated}");
    assert_eq!(updated["payload"]["person"]["firstName"], "Grace B.");
    assert_eq!(updated["payload"]["person"]["lastName"], "Hopper");
    assert_eq!(updated["payload"]["notes"], "VIP, front row");
}

#[tokio::test]
async fn a_disabled_account_is_listed_as_inactive() {
    let app = spawn_app().await;
    let admin = app.an_admin().await;
    let id = grace(&app, &admin).await;
    app.put(
        &format!("/api/v1/accounts/{id}"),
        json!({ "enablement": { "enabled": false } }),
        &admin,
    )
    .await;
    let (_, inactive) = app.get("/api/v1/accounts?active=false", Some(&admin)).await;
    assert_eq!(inactive["payload"]["total"], 1);
}

#[tokio::test]
async fn an_admin_turns_on_the_second_factor_only_for_an_account_with_a_phone() {
    let app = spawn_app().await;
    let admin = app.an_admin().await;
    let id = grace(&app, &admin).await;
    // It takes the admin's own password.
    let change = json!({ "useMFA": true, "currentPassword": PASSWORD });
    let path = format!("/api/v1/accounts/{id}/changemfa");
    let (status, _) = app.post(&path, change.clone(), Some(&admin)).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    sqlx::query("UPDATE accounts SET phone = '+447700900123' WHERE id = $1")
        .bind(&id)
        .execute(app.db())
        .await
        .unwrap();
    let (status, mfa) = app.post(&path, change, Some(&admin)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(mfa["payload"]["enablement"]["useMFA"], true);
}

#[tokio::test]
async fn a_reinvite_sends_the_invitation_again() {
    let app = spawn_app().await;
    let admin = app.an_admin().await;
    let id = grace(&app, &admin).await;
    app.outbox_message("grace@example.com", "email").await;
    let (status, _) = app
        .post(
            &format!("/api/v1/accounts/{id}/reinvite"),
            json!({}),
            Some(&admin),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    app.outbox_messages_after("grace@example.com", "email", 1)
        .await;
}

#[tokio::test]
async fn a_deleted_account_is_not_found_and_its_row_is_gone() {
    let app = spawn_app().await;
    let admin = app.an_admin().await;
    let id = grace(&app, &admin).await;
    let (status, _) = app.delete(&format!("/api/v1/accounts/{id}"), &admin).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        app.get(&format!("/api/v1/accounts/{id}"), Some(&admin))
            .await
            .0,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        app.count("SELECT COUNT(*) FROM accounts WHERE id = $1", &id)
            .await,
        0
    );
}

/// Joy signs up (as `Joy@Example.com`): the answer.
async fn joy_signs_up(app: &TestApp) -> (StatusCode, serde_json::Value) {
    let body = json!({ "login": "Joy@Example.com", "password": PASSWORD,
                       "person": { "firstName": "Joy", "lastName": "Division" } });
    app.post("/api/v1/accounts/signup", body, None).await
}

#[tokio::test]
async fn signup_creates_a_user_with_the_login_lower_cased() {
    let app = spawn_app().await;
    let (status, created) = joy_signs_up(&app).await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    assert_eq!(created["payload"]["login"], "joy@example.com");
    assert_eq!(created["payload"]["roles"], json!(["user"]));
}

#[tokio::test]
async fn a_second_signup_with_the_same_login_is_409_user_already_exists() {
    let app = spawn_app().await;
    assert_eq!(joy_signs_up(&app).await.0, StatusCode::CREATED);
    let (status, dup) = joy_signs_up(&app).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(dup["error"], "User already exists");
}

#[tokio::test]
async fn a_signup_is_the_staffs_activity_not_their_notification_and_reading_one_clears_the_count() {
    let app = spawn_app().await;
    let (admin, tokens) = app.signed_in("staff@example.com", Role::Admin).await;
    let admin_token = tokens.access;
    assert_eq!(joy_signs_up(&app).await.0, StatusCode::CREATED);
    let (_, notes) = app.get("/api/v1/notifications", Some(&admin_token)).await;
    assert_eq!(notes["payload"]["unread"], 0, "{notes}");
    let (_, live) = app.get("/api/v1/live", Some(&admin_token)).await;
    assert_eq!(live["payload"]["recentActivity"][0]["kind"], "signup");
    // A notification of the admin's own is counted until read.
    let own = encore::notifications::NewNotification::plain_topic("Payout due", "");
    encore::notifications::notify(&app.state, &admin.id, &own)
        .await
        .unwrap();
    let (_, notes) = app.get("/api/v1/notifications", Some(&admin_token)).await;
    assert_eq!(notes["payload"]["unread"], 1);
    let note = &notes["payload"]["items"][0];
    assert_eq!(note["type"], "topic");
    let id = note["id"].as_str().unwrap();
    let (_, read) = app
        .post(
            &format!("/api/v1/notifications/{id}/read"),
            json!({}),
            Some(&admin_token),
        )
        .await;
    assert_eq!(read["payload"]["read"], true);
    let (_, notes) = app.get("/api/v1/notifications", Some(&admin_token)).await;
    assert_eq!(notes["payload"]["unread"], 0);
}

/// The fan asks to change their password from `current`: the answer.
async fn change_password(
    app: &TestApp,
    fan: &encore::accounts::model::AccountRow,
    token: &str,
    current: &str,
) -> (StatusCode, serde_json::Value) {
    app.post(
        &format!("/api/v1/accounts/{}/password", fan.id),
        json!({ "currentPassword": current, "newPassword": "another passphrase" }),
        Some(token),
    )
    .await
}

#[tokio::test]
async fn a_password_change_with_a_wrong_current_password_is_422() {
    let app = spawn_app().await;
    let (fan, here) = app.a_fan().await;
    let (status, body) = change_password(&app, &fan, &here.access, "wrong one").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
}

#[tokio::test]
async fn a_user_changes_their_password_and_other_sessions_end() {
    let app = spawn_app().await;
    let (fan, here) = app.a_fan().await;
    let elsewhere = app.sign_in("fan@example.com").await;
    let (status, body) = change_password(&app, &fan, &here.access, PASSWORD).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(app.me(&here.access).await.0, StatusCode::OK);
    assert_eq!(app.me(&elsewhere.access).await.0, StatusCode::UNAUTHORIZED);
    app.sign_in_with("fan@example.com", "another passphrase")
        .await;
}

/// The fan asks for +15550100777 as their phone: the phone path and the SMS code.
async fn ask_for_a_new_phone(
    app: &TestApp,
    fan: &encore::accounts::model::AccountRow,
    token: &str,
) -> (String, String) {
    let base = format!("/api/v1/accounts/{}/phone", fan.id);
    let (status, _) = app
        .post(
            &base,
            json!({ "phone": "+15550100777", "currentPassword": PASSWORD }),
            Some(token),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let code = code_in(&app.outbox_message("+15550100777", "sms").await);
    (base, code)
}

/// Confirm the phone with `code`: the answer.
async fn confirm_phone(
    app: &TestApp,
    base: &str,
    code: &str,
    token: &str,
) -> (StatusCode, serde_json::Value) {
    app.post(
        &format!("{base}/verify"),
        json!({ "code": code, "currentPassword": PASSWORD }),
        Some(token),
    )
    .await
}

#[tokio::test]
async fn a_phone_code_sent_as_a_number_not_a_string_is_422() {
    let app = spawn_app().await;
    let (fan, tokens) = app.a_fan().await;
    let (base, _) = ask_for_a_new_phone(&app, &fan, &tokens.access).await;
    let (status, _) = app
        .post(
            &format!("{base}/verify"),
            json!({ "code": 123456 }),
            Some(&tokens.access),
        )
        .await;
    assert_eq!(
        status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "a number is not a code string"
    );
}

#[tokio::test]
async fn a_user_confirms_a_new_phone_with_the_sms_code_and_sees_it_masked() {
    let app = spawn_app().await;
    let (fan, tokens) = app.a_fan().await;
    let (base, code) = ask_for_a_new_phone(&app, &fan, &tokens.access).await;
    let (status, body) = confirm_phone(&app, &base, &code, &tokens.access).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["payload"]["phone"], "+15 •••• ••• 777");
}

#[tokio::test]
async fn removing_a_phone_takes_the_current_password_in_the_delete_body() {
    let app = spawn_app().await;
    let (fan, tokens) = app.a_fan().await;
    let (base, code) = ask_for_a_new_phone(&app, &fan, &tokens.access).await;
    assert_eq!(
        confirm_phone(&app, &base, &code, &tokens.access).await.0,
        StatusCode::OK
    );
    assert_eq!(
        app.delete(&base, &tokens.access).await.0,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    let response = app
        .http
        .delete(format!("{}{base}", app.url))
        .bearer_auth(&tokens.access)
        .json(&json!({ "currentPassword": PASSWORD }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let body: serde_json::Value = response.json().await.unwrap();
    assert_eq!(body["payload"]["phone"], serde_json::Value::Null);
}

/// A valid 1×1 RGBA PNG (the same as the e2e suite uploads).
const PNG_1X1: &[u8] = &[
    0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D, 0x49, 0x48, 0x44, 0x52, 0, 0, 0,
    0x01, 0, 0, 0, 0x01, 0x08, 0x06, 0, 0, 0, 0x1F, 0x15, 0xC4, 0x89, 0, 0, 0, 0x0D, 0x49, 0x44,
    0x41, 0x54, 0x78, 0xDA, 0x63, 0x64, 0x60, 0xF8, 0x5F, 0x0F, 0, 0x02, 0x87, 0x01, 0x80, 0xEB,
    0x47, 0xBA, 0x92, 0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
];

/// Upload `bytes` as the fan's avatar, named `name` of type `mime`.
async fn upload_avatar(
    app: &TestApp,
    fan: &encore::accounts::model::AccountRow,
    token: &str,
    (bytes, name, mime): (&'static [u8], &'static str, &'static str),
) -> reqwest::Response {
    let part = reqwest::multipart::Part::bytes(bytes)
        .file_name(name)
        .mime_str(mime)
        .unwrap();
    app.http
        .post(format!("{}/api/v1/accounts/{}/avatar", app.url, fan.id))
        .bearer_auth(token)
        .multipart(reqwest::multipart::Form::new().part("file", part))
        .send()
        .await
        .unwrap()
}

#[tokio::test]
async fn an_avatar_that_is_not_an_image_is_415_whatever_its_name() {
    let app = spawn_app().await;
    let (fan, tokens) = app.a_fan().await;
    let script = (
        b"<script>alert(1)</script>".as_slice(),
        "photo.png",
        "image/png",
    );
    let response = upload_avatar(&app, &fan, &tokens.access, script).await;
    assert_eq!(response.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE);
    let body: serde_json::Value = response.json().await.unwrap();
    assert_eq!(body["error"], "File type is incorrect");
}

#[tokio::test]
async fn an_image_avatar_is_kept_whatever_its_name_and_served_re_encoded() {
    let app = spawn_app().await;
    let (fan, tokens) = app.a_fan().await;
    let png = (PNG_1X1, "notes.txt", "text/plain");
    let response = upload_avatar(&app, &fan, &tokens.access, png).await;
    assert_eq!(response.status(), StatusCode::OK);
    let body: serde_json::Value = response.json().await.unwrap();
    let avatar = body["payload"]["avatar"].as_str().unwrap();
    let image = app
        .http
        .get(format!("{}{avatar}", app.url))
        .bearer_auth(&tokens.access)
        .send()
        .await
        .unwrap();
    assert_eq!(image.headers()["content-type"], "image/png");
    // Re-encoded on upload: the same pixels, not the same bytes.
    let stored = image::load_from_memory(&image.bytes().await.unwrap()).unwrap();
    assert_eq!(
        stored.to_rgba8(),
        image::load_from_memory(PNG_1X1).unwrap().to_rgba8()
    );
}

/// The newest notification of an account, straight from the table: (title, body).
async fn newest_notice(app: &TestApp, account: &str) -> (String, String) {
    sqlx::query_as(
        "SELECT title, body FROM notifications WHERE account_id = $1 ORDER BY created_at DESC LIMIT 1",
    )
    .bind(account)
    .fetch_one(app.db())
    .await
    .unwrap()
}

#[tokio::test]
async fn a_new_avatar_is_told_to_its_owner_in_their_words_and_language() {
    let app = spawn_app().await;
    let (fan, tokens) = app.a_fan().await;
    sqlx::query("UPDATE accounts SET language = 'ir' WHERE id = $1")
        .bind(&fan.id)
        .execute(app.db())
        .await
        .unwrap();
    let png = (PNG_1X1, "me.png", "image/png");
    assert_eq!(
        upload_avatar(&app, &fan, &tokens.access, png)
            .await
            .status(),
        StatusCode::OK
    );
    assert_eq!(
        newest_notice(&app, &fan.id).await,
        (
            "تصویر نمایه به‌روز شد".to_owned(),
            "تصویر تازهٔ شما جایگزین شد.".to_owned()
        )
    );
}

#[tokio::test]
async fn an_avatar_changed_by_staff_names_who_changed_it() {
    let app = spawn_app().await;
    let (fan, _) = app.a_fan().await;
    let (admin, admin_tokens) = app.signed_in("admin@example.com", Role::Admin).await;
    let png = (PNG_1X1, "them.png", "image/png");
    assert_eq!(
        upload_avatar(&app, &fan, &admin_tokens.access, png)
            .await
            .status(),
        StatusCode::OK
    );
    let (title, body) = newest_notice(&app, &fan.id).await;
    assert_eq!(title, "Profile picture updated");
    assert_eq!(
        body,
        format!("{} changed your profile picture.", admin.display_name())
    );
}

#[tokio::test]
async fn an_invited_account_is_welcomed_in_the_language_it_was_invited_in() {
    let app = spawn_app().await;
    let admin = app.an_admin().await;
    let response = app
        .http
        .post(format!("{}/api/v1/accounts", app.url))
        .bearer_auth(&admin)
        .header("accept-language", "es")
        .json(&json!({ "login": "ada@example.com", "person": { "firstName": "Ada", "lastName": "L" } }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::CREATED);
    let created: serde_json::Value = response.json().await.unwrap();
    let (title, body) = newest_notice(&app, created["payload"]["id"].as_str().unwrap()).await;
    assert_eq!(title, "Te damos la bienvenida a Encore");
    assert!(
        body.ends_with(" ha creado tu cuenta. ¡Disfruta de los conciertos!"),
        "{body}"
    );
}

#[tokio::test]
async fn staff_see_account_figures_for_the_last_thirty_days() {
    let app = spawn_app().await;
    app.account("sa@example.com", Role::Sa).await;
    app.account("fan@example.com", Role::User).await;
    let admin = app.an_admin().await;
    let (status, stats) = app.get("/api/v1/accounts/stats", Some(&admin)).await;
    assert_eq!(status, StatusCode::OK);
    let p = &stats["payload"];
    assert_eq!(p["byRole"], json!({ "user": 1, "admin": 1, "sa": 1 }));
    assert_eq!(p["enabled"], 3);
    let days = p["signups"].as_array().unwrap();
    assert_eq!(days.len(), 30);
    assert_eq!(
        days.last().unwrap()["count"],
        3,
        "all three signed up today"
    );
}

#[tokio::test]
async fn a_fan_may_not_see_account_figures() {
    let app = spawn_app().await;
    let (_, fan) = app.a_fan().await;
    assert_eq!(
        app.get("/api/v1/accounts/stats", Some(&fan.access)).await.0,
        StatusCode::FORBIDDEN
    );
}

/// A super admin's token, an admin and the admin's token, the admin's session already
/// cached as staff; and the admin's path.
async fn a_cached_admin_session(
    app: &TestApp,
) -> (String, encore::accounts::model::AccountRow, String, String) {
    let (_, sa) = app.signed_in("sa-cache@example.com", Role::Sa).await;
    let (admin, admin_tokens) = app.signed_in("admin-cache@example.com", Role::Admin).await;
    let (status, _) = app
        .get("/api/v1/accounts", Some(&admin_tokens.access))
        .await;
    assert_eq!(status, StatusCode::OK);
    let (status, body) = app.me(&admin_tokens.access).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        body["payload"][0]["person"]["firstName"],
        admin.first_name.as_str()
    );
    let path = format!("/api/v1/accounts/{}", admin.id);
    (sa.access, admin, admin_tokens.access, path)
}

#[tokio::test]
async fn a_profile_edit_shows_in_the_cached_session_at_once() {
    let app = spawn_app().await;
    let (sa, _, admin, path) = a_cached_admin_session(&app).await;
    let (status, _) = app
        .put(&path, json!({ "person": { "firstName": "Renamed" } }), &sa)
        .await;
    assert_eq!(status, StatusCode::OK);
    let (_, body) = app.me(&admin).await;
    assert_eq!(body["payload"][0]["person"]["firstName"], "Renamed");
}

#[tokio::test]
async fn a_demotion_takes_the_staff_pages_away_at_once_not_when_the_cache_lapses() {
    let app = spawn_app().await;
    let (sa, _, admin, path) = a_cached_admin_session(&app).await;
    let (status, _) = app.put(&path, json!({ "roles": ["user"] }), &sa).await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = app.get("/api/v1/accounts", Some(&admin)).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn a_disabled_accounts_cached_token_is_refused_at_once() {
    let app = spawn_app().await;
    let (sa, _, admin, path) = a_cached_admin_session(&app).await;
    let (status, _) = app
        .put(&path, json!({ "enablement": { "enabled": false } }), &sa)
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(app.me(&admin).await.0, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn the_theme_and_language_an_account_chose_are_kept_for_its_other_devices() {
    let app = spawn_app().await;
    let (fan, tokens) = app.a_fan().await;
    let (_, me) = app.me(&tokens.access).await;
    assert_eq!(me["payload"][0]["theme"], Value::Null, "never chosen: {me}");
    assert_eq!(me["payload"][0]["language"], "gb");

    let path = format!("/api/v1/accounts/{}", fan.id);
    let (status, body) = app
        .put(
            &path,
            json!({ "theme": "light", "language": "ir" }),
            &tokens.access,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["payload"]["theme"], "light");
    // Another device signing in reads them.
    let other = app.sign_in("fan@example.com").await;
    let (_, me) = app.me(&other.access).await;
    assert_eq!(me["payload"][0]["theme"], "light", "{me}");
    assert_eq!(me["payload"][0]["language"], "ir", "{me}");

    // An unknown theme is refused in the reader's language, and nothing of the request
    // applies.
    let refused = refused_update(
        &app,
        &path,
        &tokens.access,
        "es",
        json!({ "theme": "sepia", "language": "br" }),
    )
    .await;
    assert_eq!(refused, "Tema desconocido \"sepia\": usa light o dark.");
    let (_, me) = app.me(&other.access).await;
    assert_eq!(me["payload"][0]["theme"], "light");
    assert_eq!(me["payload"][0]["language"], "ir");
}

#[tokio::test]
async fn the_listening_quality_an_account_chose_is_kept_for_its_other_devices() {
    let app = spawn_app().await;
    let (fan, tokens) = app.a_fan().await;
    let (_, me) = app.me(&tokens.access).await;
    assert_eq!(
        me["payload"][0]["streamQuality"],
        Value::Null,
        "never chosen: {me}"
    );

    let path = format!("/api/v1/accounts/{}", fan.id);
    for quality in ["saver", "standard", "high", "lossless", "auto"] {
        let (status, body) = app
            .put(&path, json!({ "streamQuality": quality }), &tokens.access)
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(body["payload"]["streamQuality"], quality);
    }
    let (status, body) = app
        .put(
            &path,
            json!({ "streamQuality": "lossless" }),
            &tokens.access,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    // Another device signing in reads it.
    let other = app.sign_in("fan@example.com").await;
    let (_, me) = app.me(&other.access).await;
    assert_eq!(me["payload"][0]["streamQuality"], "lossless", "{me}");

    // An unknown quality is refused in the reader's language; nothing of the request applies.
    let refused = refused_update(
        &app,
        &path,
        &tokens.access,
        "fa",
        json!({ "streamQuality": "8k", "theme": "light" }),
    )
    .await;
    assert_eq!(
        refused,
        "کیفیت پخش ناشناخته \"8k\": از auto، saver، standard، high یا lossless استفاده کنید."
    );
    let (_, me) = app.me(&other.access).await;
    assert_eq!(me["payload"][0]["streamQuality"], "lossless");
    assert_eq!(me["payload"][0]["theme"], Value::Null);
}

/// `PUT {path}` refused with 422: its error, in `lang`.
async fn refused_update(app: &TestApp, path: &str, access: &str, lang: &str, body: Value) -> Value {
    let response = app
        .http
        .put(format!("{}{path}", app.url))
        .bearer_auth(access)
        .header("accept-language", lang)
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let refused: Value = response.json().await.unwrap();
    refused["error"].clone()
}
