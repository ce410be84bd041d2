//! Everyday pages in one call each: the fan's concerts, the notifications page, and the
//! dev outbox an admin reads (without the secrets of accounts above them).

use encore::accounts::model::Role;
use encore::notifications::{NewNotification, notify};
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::*;

async fn set_event(app: &TestApp, id: &str, status: &str, starts_in_ms: i64) {
    sqlx::query("UPDATE events SET status = $2, starts_at = $3 WHERE id = $1")
        .bind(id)
        .bind(status)
        .bind(encore::db::now_ms() + starts_in_ms)
        .execute(app.db())
        .await
        .unwrap();
}

fn ids_of(body: &Value) -> Vec<String> {
    body["payload"]["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["id"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn my_concerts_come_in_one_paged_call_live_first_then_upcoming_then_the_past() {
    let app = spawn_app().await;
    let fan = app.account("fan@example.com", Role::User).await;
    let tokens = app.sign_in(&fan.login).await;
    let mut ids = Vec::new();
    for _ in 0..6 {
        let id = concert(&app, None, 1500, 48 * HOUR_MS).await;
        let (status, body) = app.buy(&tokens.access, &id, CARD_OK).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        ids.push(id);
    }
    // Someone else's concert is never listed.
    concert(&app, None, 1500, HOUR_MS).await;
    let [live, soon, later, replay, expired, cancelled] = ids.as_slice() else {
        unreachable!()
    };
    set_event(&app, live, "live", -10 * 60_000).await;
    set_event(&app, soon, "published", HOUR_MS).await;
    set_event(&app, later, "published", 5 * HOUR_MS).await;
    set_event(&app, replay, "ended", -3 * HOUR_MS).await;
    set_event(&app, expired, "ended", -30 * HOUR_MS).await;
    set_event(&app, cancelled, "cancelled", -2 * HOUR_MS).await;

    let (status, first) = app
        .get(
            "/api/v1/events/mine?page=1&pageSize=4",
            Some(&tokens.access),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{first}");
    assert_eq!(first["payload"]["total"], 6);
    assert_eq!(first["payload"]["pageSize"], 4);
    assert_eq!(ids_of(&first), [live.as_str(), soon, later, replay]);
    let states: Vec<&str> = first["payload"]["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["access"].as_str().unwrap())
        .collect();
    assert_eq!(states, ["live", "upcoming", "upcoming", "replay"]);
    assert!(
        first["payload"]["items"]
            .as_array()
            .unwrap()
            .iter()
            .all(|e| e["owned"] == true)
    );
    let (_, second) = app
        .get(
            "/api/v1/events/mine?page=2&pageSize=4",
            Some(&tokens.access),
        )
        .await;
    assert_eq!(ids_of(&second), [cancelled.as_str(), expired]);
}

#[tokio::test]
async fn my_concerts_need_a_signed_in_account() {
    let app = spawn_app().await;
    let (status, body) = app.get("/api/v1/events/mine", None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");
}

#[tokio::test]
async fn the_notifications_page_filters_read_and_unread_and_counts_all_unread() {
    let app = spawn_app().await;
    let fan = app.account("fan@example.com", Role::User).await;
    let tokens = app.sign_in(&fan.login).await;
    for i in 0..25 {
        notify(
            &app.state,
            &fan.id,
            &NewNotification::plain_topic(format!("Note {i}"), "body"),
        )
        .await
        .unwrap();
    }
    let (_, page) = app
        .get("/api/v1/notifications?pageSize=10", Some(&tokens.access))
        .await;
    let first_id = page["payload"]["items"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    for item in page["payload"]["items"].as_array().unwrap().iter().take(3) {
        let id = item["id"].as_str().unwrap();
        let path = format!("/api/v1/notifications/{id}/read");
        app.post(&path, json!({}), Some(&tokens.access)).await;
    }
    let (status, read) = app
        .get("/api/v1/notifications?filter=read", Some(&tokens.access))
        .await;
    assert_eq!(status, StatusCode::OK, "{read}");
    assert_eq!(read["payload"]["total"], 3);
    assert_eq!(read["payload"]["unread"], 22);
    assert_eq!(read["payload"]["items"][0]["id"], first_id.as_str());
    assert!(
        read["payload"]["items"]
            .as_array()
            .unwrap()
            .iter()
            .all(|n| n["read"] == true)
    );
    let (_, unread) = app
        .get(
            "/api/v1/notifications?filter=unread&page=3&pageSize=10",
            Some(&tokens.access),
        )
        .await;
    assert_eq!(unread["payload"]["total"], 22);
    assert_eq!(unread["payload"]["items"].as_array().unwrap().len(), 2);
    let (_, all) = app
        .get("/api/v1/notifications?filter=all", Some(&tokens.access))
        .await;
    assert_eq!(all["payload"]["total"], 25);
    let (status, bad) = app
        .get("/api/v1/notifications?filter=starred", Some(&tokens.access))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}");
    assert_eq!(bad["success"], false);
}

async fn forgot(app: &TestApp, email: &str) {
    let (status, body) = app
        .oauth(
            "forgot",
            json!({ "email": email, "code_verifier": pkce().0, "client_id": WEB, "state": "f" }),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    app.outbox_message(email, "email").await;
}

async fn outbox_for(app: &TestApp, reader: &str) -> Value {
    let tokens = app.sign_in(reader).await;
    let (status, body) = app.get("/api/v1/outbox", Some(&tokens.access)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["payload"]["enabled"], true);
    body["payload"]["items"].clone()
}

fn message_to<'a>(items: &'a Value, to: &str) -> &'a Value {
    items
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["to"] == to)
        .unwrap_or_else(|| panic!("no message to {to} in {items}"))
}

/// A super admin, two admins and a fan, each sent a reset link.
async fn reset_links_sent_to_every_role(app: &TestApp) {
    for (email, role) in [
        ("boss@example.com", Role::Sa),
        ("admin@example.com", Role::Admin),
        ("other-admin@example.com", Role::Admin),
        ("fan@example.com", Role::User),
    ] {
        app.account(email, role).await;
        forgot(app, email).await;
    }
}

#[tokio::test]
async fn an_admin_cannot_read_a_super_admins_or_another_admins_reset_link_in_the_outbox() {
    let app = spawn_app().await;
    reset_links_sent_to_every_role(&app).await;
    let items = outbox_for(&app, "admin@example.com").await;
    for above in ["boss@example.com", "other-admin@example.com"] {
        let message = message_to(&items, above);
        assert_eq!(message["redacted"], true, "{message}");
        let body = message["body"].as_str().unwrap();
        assert!(!body.contains("token="), "{body}");
        assert!(body.contains("•••"), "{body}");
    }
}

#[tokio::test]
async fn a_redacted_outbox_message_holds_nothing_to_reset_with() {
    let app = spawn_app().await;
    reset_links_sent_to_every_role(&app).await;
    let items = outbox_for(&app, "admin@example.com").await;
    let stored = app.outbox_message("boss@example.com", "email").await;
    let token = link_token(&stored);
    assert!(
        !message_to(&items, "boss@example.com")["body"]
            .as_str()
            .unwrap()
            .contains(&token)
    );
}

#[tokio::test]
async fn an_admin_reads_a_fans_reset_link_and_their_own_whole() {
    let app = spawn_app().await;
    reset_links_sent_to_every_role(&app).await;
    let items = outbox_for(&app, "admin@example.com").await;
    let fan = message_to(&items, "fan@example.com");
    assert_eq!(fan["redacted"], false);
    assert!(fan["body"].as_str().unwrap().contains("token="));
    assert_eq!(message_to(&items, "admin@example.com")["redacted"], false);
}

#[tokio::test]
async fn a_super_admin_reads_every_outbox_message_whole() {
    let app = spawn_app().await;
    reset_links_sent_to_every_role(&app).await;
    let items = outbox_for(&app, "boss@example.com").await;
    for to in ["admin@example.com", "boss@example.com"] {
        let message = message_to(&items, to);
        assert_eq!(message["redacted"], false);
        assert!(message["body"].as_str().unwrap().contains("token="));
    }
}

#[tokio::test]
async fn a_fan_cannot_read_the_outbox() {
    let app = spawn_app().await;
    let (_, fan) = app.a_fan().await;
    let (status, body) = app.get("/api/v1/outbox", Some(&fan.access)).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
}

/// A public read of `path` in `language` (an Accept-Language value).
async fn read_in(app: &TestApp, path: &str, language: &str) -> Value {
    let response = app
        .http
        .get(format!("{}{path}", app.url))
        .header("accept-language", language)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    response.json().await.unwrap()
}

#[tokio::test]
async fn the_demos_own_concerts_and_pass_read_in_the_readers_language_and_staff_edit_them_as_stored()
 {
    let app = spawn_app().await;
    encore::demo::seed(&app.state).await.unwrap();
    let titles = |body: &Value| -> Vec<String> {
        body["payload"]["items"]
            .as_array()
            .expect("a page")
            .iter()
            .map(|e| e["title"].as_str().unwrap().to_owned())
            .collect()
    };
    let persian = read_in(&app, "/api/v1/events", "fa-IR").await;
    assert!(
        titles(&persian).contains(&"شب افتتاحیه (کنسرت نمایشی)".to_owned()),
        "{persian}"
    );
    let spanish = read_in(&app, "/api/v1/events", "es").await;
    assert!(
        titles(&spanish).contains(&"Sesión nocturna (concierto de demostración)".to_owned()),
        "{spanish}"
    );
    let english = read_in(&app, "/api/v1/events", "en-GB").await;
    assert!(
        titles(&english).contains(&"Opening Night (demo concert)".to_owned()),
        "{english}"
    );

    let plans = read_in(&app, "/api/v1/pricing-plans", "fa-IR").await;
    assert_eq!(plans["payload"][0]["name"], "یک ماه دسترسی کامل", "{plans}");
    assert_eq!(
        plans["payload"][0]["description"], "همهٔ کنسرت‌هایی که در ۳۰ روز آینده شروع می‌شوند.",
        "{plans}"
    );
    // Staff read (and so edit) the stored text, whatever their language.
    let admin = app.an_admin().await;
    let response = app
        .http
        .get(format!("{}/api/v1/pricing-plans", app.url))
        .bearer_auth(&admin)
        .header("accept-language", "fa-IR")
        .send()
        .await
        .unwrap();
    let staff: Value = response.json().await.unwrap();
    assert_eq!(staff["payload"][0]["name"], "All-access month", "{staff}");

    // An order of the demo's concert and pass: its lines were stored in English at
    // checkout, and read in the reader's language (a pass's days too).
    let (_, fan) = app.a_fan().await;
    let events = read_in(&app, "/api/v1/events", "en-GB").await;
    let opening = events["payload"]["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["title"] == "Opening Night (demo concert)")
        .expect("the demo's concert")["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let plan = plans["payload"][0]["id"].as_str().unwrap();
    let (status, body) = app
        .post(
            &format!("/api/v1/cart/passes/{plan}"),
            json!({}),
            Some(&fan.access),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, paid) = app.buy(&fan.access, &opening, CARD_OK).await;
    assert_eq!(status, StatusCode::OK, "{paid}");
    let order = paid["payload"]["order"].as_str().unwrap();
    let read = |language: &'static str| {
        app.send(
            app.http
                .get(format!("{}/api/v1/orders/{order}", app.url))
                .bearer_auth(&fan.access)
                .header("accept-language", language),
        )
    };
    let lines = |body: &Value| -> Vec<String> {
        let mut titles: Vec<String> = body["payload"]["items"]
            .as_array()
            .expect("lines")
            .iter()
            .map(|i| i["title"].as_str().unwrap().to_owned())
            .collect();
        titles.sort();
        titles
    };
    let (_, persian) = read("fa-IR").await;
    assert_eq!(
        lines(&persian),
        [
            "The Encore House Band — شب افتتاحیه (کنسرت نمایشی)",
            "یک ماه دسترسی کامل (۳۰ روز)"
        ],
        "{persian}"
    );
    let (_, english) = read("en-GB").await;
    assert_eq!(
        lines(&english),
        [
            "All-access month (30 days)",
            "The Encore House Band — Opening Night (demo concert)"
        ],
        "{english}"
    );
}

#[tokio::test]
async fn the_demo_seeds_a_concert_on_now_and_one_to_come_each_with_its_picture() {
    let app = spawn_app().await;
    encore::demo::seed(&app.state).await.unwrap();
    let (status, body) = app.get("/api/v1/events", None).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let events = body["payload"]["items"].as_array().expect("a page");
    let phases: Vec<(&str, &str)> = events
        .iter()
        .map(|e| {
            (
                e["title"].as_str().unwrap(),
                e["state"]["phase"].as_str().unwrap(),
            )
        })
        .collect();
    assert!(
        phases.contains(&("Opening Night (demo concert)", "doors")),
        "{phases:?}"
    );
    assert!(
        phases.contains(&("Late Set (demo concert)", "upcoming")),
        "{phases:?}"
    );
    for event in events {
        let image = event["image"].as_str().expect("a picture of ours");
        let response = app.get_raw(image).await;
        assert_eq!(response.status(), StatusCode::OK);
        assert_eq!(response.headers()["content-type"], "image/jpeg");
    }
}
