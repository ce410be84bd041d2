//! The accounts API: CRUD as an admin, self-service changes, avatars, figures.

use encore::accounts::model::Role;
use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::*;

#[tokio::test]
async fn an_admin_creates_finds_edits_reinvites_and_deletes_an_account() {
    let app = spawn_app().await;
    app.account("admin@example.com", Role::Admin).await;
    for i in 0..12 {
        app.account(&format!("fan{i:02}@example.com"), Role::User)
            .await;
    }
    let admin = app.sign_in("admin@example.com").await;

    let (status, page) = app.get("/api/v1/accounts", Some(&admin.access)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(page["payload"]["total"], 13);
    assert_eq!(
        page["payload"]["items"].as_array().unwrap().len(),
        10,
        "10 per page by default"
    );
    assert_eq!(page["payload"]["page"], 1);
    let (_, page2) = app
        .get("/api/v1/accounts?page=2&pageSize=10", Some(&admin.access))
        .await;
    assert_eq!(page2["payload"]["items"].as_array().unwrap().len(), 3);

    let (status, created) = app
        .post(
            "/api/v1/accounts",
            json!({ "login": "grace@example.com", "person": { "firstName": "Grace", "lastName": "Hopper" },
                    "roles": ["user"], "notes": "VIP" }),
            Some(&admin.access),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let id = created["payload"]["id"].as_str().unwrap().to_owned();
    assert_eq!(
        created["payload"]["person"],
        json!({ "firstName": "Grace", "lastName": "Hopper" })
    );
    app.outbox_message("grace@example.com", "email").await;

    let (_, found) = app
        .get("/api/v1/accounts?search=hopp", Some(&admin.access))
        .await;
    assert_eq!(found["payload"]["total"], 1);
    assert_eq!(found["payload"]["items"][0]["id"], id.as_str());
    let (_, found) = app
        .get("/api/v1/accounts?search=100%25", Some(&admin.access))
        .await;
    assert_eq!(
        found["payload"]["total"], 0,
        "LIKE wildcards in a search are literal"
    );

    let (status, updated) = app
        .put(
            &format!("/api/v1/accounts/{id}"),
            json!({ "person": { "firstName": "Grace B." }, "notes": "VIP, front row" }),
            &admin.access,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{updated}");
    assert_eq!(updated["payload"]["person"]["firstName"], "Grace B.");
    assert_eq!(updated["payload"]["person"]["lastName"], "Hopper");
    assert_eq!(updated["payload"]["notes"], "VIP, front row");

    app.put(
        &format!("/api/v1/accounts/{id}"),
        json!({ "enablement": { "enabled": false } }),
        &admin.access,
    )
    .await;
    let (_, inactive) = app
        .get("/api/v1/accounts?active=false", Some(&admin.access))
        .await;
    assert_eq!(inactive["payload"]["total"], 1);

    // The second factor goes on only with a phone, and takes the admin's own password.
    let (status, _) = app
        .post(
            &format!("/api/v1/accounts/{id}/changemfa"),
            json!({ "useMFA": true, "currentPassword": PASSWORD }),
            Some(&admin.access),
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    sqlx::query("UPDATE accounts SET phone = '+447700900123' WHERE id = $1")
        .bind(&id)
        .execute(app.db())
        .await
        .unwrap();
    let (status, mfa) = app
        .post(
            &format!("/api/v1/accounts/{id}/changemfa"),
            json!({ "useMFA": true, "currentPassword": PASSWORD }),
            Some(&admin.access),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(mfa["payload"]["enablement"]["useMFA"], true);

    let (status, _) = app
        .post(
            &format!("/api/v1/accounts/{id}/reinvite"),
            json!({}),
            Some(&admin.access),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    app.outbox_messages_after("grace@example.com", "email", 1)
        .await;

    let (status, _) = app
        .delete(&format!("/api/v1/accounts/{id}"), &admin.access)
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        app.get(&format!("/api/v1/accounts/{id}"), Some(&admin.access))
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

#[tokio::test]
async fn signup_creates_a_user_and_a_duplicate_is_409() {
    let app = spawn_app().await;
    app.account("admin@example.com", Role::Admin).await;
    let body = json!({ "login": "Joy@Example.com", "password": PASSWORD,
                       "person": { "firstName": "Joy", "lastName": "Division" } });
    let (status, created) = app
        .post("/api/v1/accounts/signup", body.clone(), None)
        .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    assert_eq!(created["payload"]["login"], "joy@example.com");
    assert_eq!(created["payload"]["roles"], json!(["user"]));
    let (status, dup) = app.post("/api/v1/accounts/signup", body, None).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(dup["error"], "User already exists");

    // Staff hear about the sign-up.
    let admin = app.sign_in("admin@example.com").await;
    let (_, notes) = app.get("/api/v1/notifications", Some(&admin.access)).await;
    assert_eq!(notes["payload"]["unread"], 1);
    let note = &notes["payload"]["items"][0];
    assert_eq!(note["type"], "topic");
    let id = note["id"].as_str().unwrap();
    let (_, read) = app
        .post(
            &format!("/api/v1/notifications/{id}/read"),
            json!({}),
            Some(&admin.access),
        )
        .await;
    assert_eq!(read["payload"]["read"], true);
    let (_, notes) = app.get("/api/v1/notifications", Some(&admin.access)).await;
    assert_eq!(notes["payload"]["unread"], 0);
}

#[tokio::test]
async fn a_user_changes_their_password_and_other_sessions_end() {
    let app = spawn_app().await;
    let fan = app.account("fan@example.com", Role::User).await;
    let here = app.sign_in("fan@example.com").await;
    let elsewhere = app.sign_in("fan@example.com").await;
    let path = format!("/api/v1/accounts/{}/password", fan.id);
    let (status, body) = app
        .post(
            &path,
            json!({ "currentPassword": "wrong one", "newPassword": "another passphrase" }),
            Some(&here.access),
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    let (status, body) = app
        .post(
            &path,
            json!({ "currentPassword": PASSWORD, "newPassword": "another passphrase" }),
            Some(&here.access),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(app.me(&here.access).await.0, StatusCode::OK);
    assert_eq!(app.me(&elsewhere.access).await.0, StatusCode::UNAUTHORIZED);
    app.sign_in_with("fan@example.com", "another passphrase")
        .await;
}

#[tokio::test]
async fn a_user_confirms_a_new_phone_with_a_code_then_removes_it() {
    let app = spawn_app().await;
    let fan = app.account("fan@example.com", Role::User).await;
    let tokens = app.sign_in("fan@example.com").await;
    let base = format!("/api/v1/accounts/{}/phone", fan.id);
    let (status, _) = app
        .post(
            &base,
            json!({ "phone": "+15550100777", "currentPassword": PASSWORD }),
            Some(&tokens.access),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let code = code_in(&app.outbox_message("+15550100777", "sms").await);
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
    let (status, body) = app
        .post(
            &format!("{base}/verify"),
            json!({ "code": code, "currentPassword": PASSWORD }),
            Some(&tokens.access),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["payload"]["phone"], "+15 •••• ••• 777");
    // Removing it takes the password too (in the DELETE's body).
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

#[tokio::test]
async fn an_avatar_is_judged_by_its_content_not_its_name() {
    let app = spawn_app().await;
    let fan = app.account("fan@example.com", Role::User).await;
    let tokens = app.sign_in("fan@example.com").await;
    let url = format!("{}/api/v1/accounts/{}/avatar", app.url, fan.id);
    let upload = |bytes: &'static [u8], name: &'static str, mime: &'static str| {
        let part = reqwest::multipart::Part::bytes(bytes)
            .file_name(name)
            .mime_str(mime)
            .unwrap();
        app.http
            .post(&url)
            .bearer_auth(&tokens.access)
            .multipart(reqwest::multipart::Form::new().part("file", part))
            .send()
    };
    let response = upload(b"<script>alert(1)</script>", "photo.png", "image/png")
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE);
    let body: serde_json::Value = response.json().await.unwrap();
    assert_eq!(body["error"], "File type is incorrect");

    let response = upload(PNG_1X1, "notes.txt", "text/plain").await.unwrap();
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

#[tokio::test]
async fn staff_see_account_figures_for_the_last_thirty_days() {
    let app = spawn_app().await;
    app.account("sa@example.com", Role::Sa).await;
    app.account("admin@example.com", Role::Admin).await;
    app.account("fan@example.com", Role::User).await;
    let admin = app.sign_in("admin@example.com").await;
    let (status, stats) = app.get("/api/v1/accounts/stats", Some(&admin.access)).await;
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
    let fan = app.sign_in("fan@example.com").await;
    assert_eq!(
        app.get("/api/v1/accounts/stats", Some(&fan.access)).await.0,
        StatusCode::FORBIDDEN
    );
}

#[tokio::test]
async fn an_account_write_reaches_the_cached_session_at_once() {
    let app = spawn_app().await;
    let sa = app.account("sa-cache@example.com", Role::Sa).await;
    let admin = app.account("admin-cache@example.com", Role::Admin).await;
    let sa_tokens = app.sign_in(&sa.login).await;
    let admin_tokens = app.sign_in(&admin.login).await;

    // The admin's session is cached as staff.
    let (status, _) = app
        .get("/api/v1/accounts", Some(&admin_tokens.access))
        .await;
    assert_eq!(status, StatusCode::OK);
    let (status, body) = app
        .get("/api/v1/accounts/userinfo/me", Some(&admin_tokens.access))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        body["payload"][0]["person"]["firstName"],
        admin.first_name.as_str()
    );

    // A profile edit shows in the admin's own view at once.
    let path = format!("/api/v1/accounts/{}", admin.id);
    let (status, _) = app
        .put(
            &path,
            json!({ "person": { "firstName": "Renamed" } }),
            &sa_tokens.access,
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let (_, body) = app
        .get("/api/v1/accounts/userinfo/me", Some(&admin_tokens.access))
        .await;
    assert_eq!(body["payload"][0]["person"]["firstName"], "Renamed");

    // A demotion takes the staff pages away at once, not when the cache entry lapses.
    let (status, _) = app
        .put(&path, json!({ "roles": ["user"] }), &sa_tokens.access)
        .await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = app
        .get("/api/v1/accounts", Some(&admin_tokens.access))
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);

    // A disabled account's token is refused at once.
    let (status, _) = app
        .put(
            &path,
            json!({ "enablement": { "enabled": false } }),
            &sa_tokens.access,
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = app
        .get("/api/v1/accounts/userinfo/me", Some(&admin_tokens.access))
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
}
