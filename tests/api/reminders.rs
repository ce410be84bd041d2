//! "Remind me when doors open" (issue 15): a signed-in fan, ticket or not, asks to be told
//! when a concert's doors open (`PUT`/`DELETE /events/{id}/reminder`); the once-per-concert
//! reminder tells the holders and the fans who asked, each account once.

use encore::accounts::model::{AccountRow, Role};
use encore::events::notices;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::*;

const MINUTE_MS: i64 = 60_000;

fn reminder(event: &str) -> String {
    format!("/api/v1/events/{event}/reminder")
}

/// A ticketless fan: the account and its access token.
async fn fan(app: &TestApp) -> (AccountRow, String) {
    app.fans(1).await.pop().unwrap()
}

/// Ask for the doors reminder, expecting it granted: the concert as answered.
async fn ask(app: &TestApp, token: &str, event: &str) -> Value {
    let (status, body) = app.put(&reminder(event), json!({}), token).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body["payload"].clone()
}

/// The concert's doors open now: it starts in ten minutes (as the hours pass).
async fn doors_open(app: &TestApp, event: &str) {
    sqlx::query("UPDATE events SET starts_at = $1 WHERE id = $2")
        .bind(encore::db::now_ms() + 10 * MINUTE_MS)
        .bind(event)
        .execute(app.db())
        .await
        .unwrap();
}

/// Run the doors reminder twice, as two instances would (the server's own housekeeping may
/// run it too).
async fn remind(app: &TestApp) {
    for _ in 0..2 {
        notices::remind_starting_soon(&app.state).await.unwrap();
    }
}

/// The doors notifications stored for an account (they open the concert's stage).
async fn told(app: &TestApp, account: &AccountRow, event: &str) -> Vec<(String, String)> {
    sqlx::query_as(
        "SELECT title, body FROM notifications WHERE account_id = $1 AND link = $2 \
         ORDER BY created_at",
    )
    .bind(&account.id)
    .bind(format!("/stage/{event}"))
    .fetch_all(app.db())
    .await
    .unwrap()
}

async fn stored_reminders(app: &TestApp, event: &str) -> i64 {
    app.count(
        "SELECT COUNT(*) FROM door_reminders WHERE event_id = $1",
        event,
    )
    .await
}

#[tokio::test]
async fn asking_twice_keeps_one_reminder_and_withdrawing_twice_leaves_none() {
    let app = spawn_app().await;
    let event = concert(&app, None, 500, HOUR_MS).await;
    let (_, token) = fan(&app).await;

    for _ in 0..2 {
        let answered = ask(&app, &token, &event).await;
        assert_eq!(answered["id"], event.as_str());
        assert_eq!(answered["reminder"], true, "{answered}");
    }
    assert_eq!(stored_reminders(&app, &event).await, 1);
    let (_, shown) = app
        .get(&format!("/api/v1/events/{event}"), Some(&token))
        .await;
    assert_eq!(shown["payload"]["reminder"], true);
    let (_, listed) = app.get("/api/v1/events", Some(&token)).await;
    assert_eq!(listed["payload"]["items"][0]["reminder"], true, "{listed}");
    let (_, anonymous) = app.get(&format!("/api/v1/events/{event}"), None).await;
    assert_eq!(anonymous["payload"]["reminder"], false);

    for _ in 0..2 {
        let (status, body) = app.delete(&reminder(&event), &token).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(body["payload"]["reminder"], false, "{body}");
    }
    assert_eq!(stored_reminders(&app, &event).await, 0);
    let (_, shown) = app
        .get(&format!("/api/v1/events/{event}"), Some(&token))
        .await;
    assert_eq!(shown["payload"]["reminder"], false);
}

#[tokio::test]
async fn a_visitor_without_an_account_cannot_ask_for_a_reminder() {
    let app = spawn_app().await;
    let event = concert(&app, None, 500, HOUR_MS).await;
    for request in [
        app.http.put(format!("{}{}", app.url, reminder(&event))),
        app.http.delete(format!("{}{}", app.url, reminder(&event))),
    ] {
        let response = request.send().await.unwrap();
        assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["success"], false, "{body}");
    }
    assert_eq!(stored_reminders(&app, &event).await, 0);
}

#[tokio::test]
async fn a_reminder_of_a_concert_whose_doors_are_open_is_409_in_the_readers_language() {
    let app = spawn_app().await;
    let event = concert(&app, None, 500, 10 * MINUTE_MS).await;
    let (_, token) = fan(&app).await;
    let (status, body) = app.put(&reminder(&event), json!({}), &token).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(
        body["error"],
        "This concert's doors are already open: there is nothing left to remind you of."
    );
    let (status, body) = app
        .put_in("fa-IR", &reminder(&event), json!({}), &token)
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(
        body["error"],
        "درهای این کنسرت پیش‌تر باز شده است: دیگر چیزی برای یادآوری نمانده است."
    );
    assert_eq!(stored_reminders(&app, &event).await, 0);
}

#[tokio::test]
async fn a_reminder_of_an_ended_or_cancelled_concert_is_409_and_of_a_draft_or_unknown_one_404() {
    let app = spawn_app().await;
    let (_, token) = fan(&app).await;
    let ended = concert(&app, None, 500, HOUR_MS).await;
    let cancelled = concert(&app, None, 500, HOUR_MS).await;
    let draft = concert(&app, None, 500, HOUR_MS).await;
    for (event, status) in [
        (&ended, "ended"),
        (&cancelled, "cancelled"),
        (&draft, "draft"),
    ] {
        app.set_event_status(event, status).await;
    }
    let (status, body) = app.put(&reminder(&ended), json!({}), &token).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(
        body["error"],
        "This concert has already ended or was cancelled."
    );
    let (status, body) = app.put(&reminder(&cancelled), json!({}), &token).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(body["error"], "This concert was cancelled.");
    for event in [draft.as_str(), "no-such-concert"] {
        let (status, body) = app.put(&reminder(event), json!({}), &token).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
        assert_eq!(body["error"], "Concert not found.");
        let (status, _) = app.delete(&reminder(event), &token).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
    }
}

#[tokio::test]
async fn a_ticketless_fan_who_asked_is_told_once_when_the_doors_open() {
    let app = spawn_app().await;
    let event = concert(&app, None, 500, HOUR_MS).await;
    let (asker, token) = fan(&app).await;
    let (bystander, _) = fan(&app).await;
    ask(&app, &token, &event).await;
    remind(&app).await;
    assert!(told(&app, &asker, &event).await.is_empty(), "an hour away");

    doors_open(&app, &event).await;
    remind(&app).await;
    let notes = told(&app, &asker, &event).await;
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert_eq!(notes[0].0, "Live at the Roundhouse starts in 15 minutes");
    assert_eq!(
        notes[0].1,
        "The doors are open: The Testers goes on stage soon. A ticket lets you listen."
    );
    assert!(told(&app, &bystander, &event).await.is_empty());
}

#[tokio::test]
async fn a_holder_who_also_asked_is_told_once_not_twice() {
    let app = spawn_app().await;
    let event = concert(&app, None, 500, HOUR_MS).await;
    let (holder, token) = fan(&app).await;
    assert_eq!(app.buy(&token, &event, CARD_OK).await.0, StatusCode::OK);
    let answered = ask(&app, &token, &event).await;
    assert_eq!(answered["owned"], true);

    doors_open(&app, &event).await;
    remind(&app).await;
    let notes = told(&app, &holder, &event).await;
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert_eq!(
        notes[0].1,
        "Doors are open: The Testers goes on stage soon."
    );
}

#[tokio::test]
async fn a_fan_who_withdrew_the_reminder_is_not_told() {
    let app = spawn_app().await;
    let event = concert(&app, None, 500, HOUR_MS).await;
    let (changed_mind, token) = fan(&app).await;
    ask(&app, &token, &event).await;
    let (status, _) = app.delete(&reminder(&event), &token).await;
    assert_eq!(status, StatusCode::OK);

    doors_open(&app, &event).await;
    remind(&app).await;
    assert!(told(&app, &changed_mind, &event).await.is_empty());
}

#[tokio::test]
async fn a_cancelled_concert_drops_its_reminders_and_reminds_nobody() {
    let app = spawn_app().await;
    let event = concert(&app, None, 500, HOUR_MS).await;
    let (asker, token) = fan(&app).await;
    ask(&app, &token, &event).await;
    let admin = app.account("admin@example.com", Role::Admin).await;
    let admin = app.session(&admin).await;
    app.cancel_concert(&event, &admin).await;
    assert_eq!(stored_reminders(&app, &event).await, 0);

    doors_open(&app, &event).await;
    remind(&app).await;
    assert!(told(&app, &asker, &event).await.is_empty());
}

#[tokio::test]
async fn a_deleted_concert_takes_its_reminders_with_it() {
    let app = spawn_app().await;
    let event = concert(&app, None, 500, HOUR_MS).await;
    let (_, token) = fan(&app).await;
    ask(&app, &token, &event).await;
    let admin = app.account("admin@example.com", Role::Admin).await;
    let admin = app.session(&admin).await;
    let (status, body) = app.delete(&format!("/api/v1/events/{event}"), &admin).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(stored_reminders(&app, &event).await, 0);
}

#[tokio::test]
async fn a_disabled_or_deleted_accounts_reminder_does_not_fire() {
    let app = spawn_app().await;
    let event = concert(&app, None, 500, HOUR_MS).await;
    let mut fans = app.fans(2).await;
    let (gone, gone_token) = fans.pop().unwrap();
    let (disabled, disabled_token) = fans.pop().unwrap();
    ask(&app, &gone_token, &event).await;
    ask(&app, &disabled_token, &event).await;
    let admin = app.account("admin@example.com", Role::Admin).await;
    let admin = app.session(&admin).await;
    let (status, body) = app.disable(&disabled.id, &admin).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let change = encore::accounts::store::delete(app.db(), &gone.id)
        .await
        .unwrap();
    app.state.publish(change);
    assert_eq!(
        stored_reminders(&app, &event).await,
        1,
        "the deleted one's went"
    );

    doors_open(&app, &event).await;
    remind(&app).await;
    assert!(told(&app, &disabled, &event).await.is_empty());
    assert_eq!(
        app.count(
            "SELECT COUNT(*) FROM notifications WHERE account_id = $1",
            &gone.id
        )
        .await,
        0
    );
}

/// The concert moved by its managers to start `starts_in_ms` from now (as the API does).
async fn reschedule(app: &TestApp, admin: &str, event: &str, starts_in_ms: i64) {
    let starts_at = encore::db::iso8601(encore::db::now_ms() + starts_in_ms);
    app.move_concert(admin, event, &starts_at).await;
}

#[tokio::test]
async fn a_concert_moved_later_after_its_doors_notice_is_announced_again_at_its_new_doors() {
    let app = spawn_app().await;
    let admin = app.an_admin().await;
    let event = concert(&app, None, 500, HOUR_MS).await;
    let (asker, token) = fan(&app).await;
    let (holder, holder_token) = fan(&app).await;
    let (bystander, _) = fan(&app).await;
    assert_eq!(
        app.buy(&holder_token, &event, CARD_OK).await.0,
        StatusCode::OK
    );
    ask(&app, &token, &event).await;
    doors_open(&app, &event).await;
    remind(&app).await;
    assert_eq!(doors_notices(&app, &asker, &event).await, 1);

    // Moved by a few minutes inside the doors: the doors notice stands; the move is told.
    reschedule(&app, &admin, &event, 12 * MINUTE_MS).await;
    remind(&app).await;
    assert_eq!(
        doors_notices(&app, &asker, &event).await,
        1,
        "no second doors notice"
    );

    // Moved two hours later: its doors are to open again, and the fans are told then.
    reschedule(&app, &admin, &event, 2 * HOUR_MS).await;
    remind(&app).await;
    assert_eq!(
        doors_notices(&app, &asker, &event).await,
        1,
        "not before the new doors"
    );
    doors_open(&app, &event).await;
    remind(&app).await;
    assert_eq!(
        doors_notices(&app, &asker, &event).await,
        2,
        "told at the new doors"
    );
    assert_eq!(doors_notices(&app, &holder, &event).await, 2);

    // Each move was told to the holder and to the fan who asked, nobody else.
    for account in [&asker, &holder] {
        let moves: Vec<_> = told(&app, account, &event)
            .await
            .into_iter()
            .filter(|(title, _)| title == "Live at the Roundhouse has a new start time")
            .collect();
        assert_eq!(moves.len(), 2, "{moves:?}");
        assert!(
            moves[1].1.starts_with("It now starts on 20"),
            "{:?}",
            moves[1]
        );
        assert!(moves[1].1.ends_with("(UTC)."), "{:?}", moves[1]);
    }
    assert!(told(&app, &bystander, &event).await.is_empty());
}

/// How many doors notices an account got for a concert.
async fn doors_notices(app: &TestApp, account: &AccountRow, event: &str) -> usize {
    told(app, account, event)
        .await
        .iter()
        .filter(|(title, _)| title.ends_with("starts in 15 minutes"))
        .count()
}

#[tokio::test]
async fn a_change_that_keeps_the_start_tells_nobody() {
    let app = spawn_app().await;
    let admin = app.an_admin().await;
    let event = concert(&app, None, 500, HOUR_MS).await;
    let (holder, holder_token) = fan(&app).await;
    assert_eq!(
        app.buy(&holder_token, &event, CARD_OK).await.0,
        StatusCode::OK
    );
    let (_, shown) = app.get(&format!("/api/v1/events/{event}"), None).await;
    let shown = &shown["payload"];
    let input = json!({
        "title": "A new title", "artistName": shown["artistName"],
        "description": "More words", "startsAt": shown["startsAt"],
        "durationMinutes": shown["durationMinutes"], "price": shown["price"],
        "currency": shown["currency"], "capacity": shown["capacity"],
    });
    let (status, body) = app
        .put(&format!("/api/v1/events/{event}"), input, &admin)
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert!(told(&app, &holder, &event).await.is_empty());
}
