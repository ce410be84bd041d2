//! One truth about a concert (issue 15): the server's `state` at each boundary (doors,
//! start, on air early, scheduled end, start + 24 h), the listening refusal before the
//! doors, the calendar file and the shared page's Open Graph tags.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::*;

const MINUTE_MS: i64 = 60_000;

/// The concert as a visitor reads it.
async fn state_of(app: &TestApp, event: &str) -> Value {
    let (status, body) = app.get(&format!("/api/v1/events/{event}"), None).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body["payload"]["state"].clone()
}

fn ms(iso: &Value) -> i64 {
    let text = iso.as_str().expect("a time");
    let parsed = time::OffsetDateTime::parse(text, &time::format_description::well_known::Rfc3339)
        .expect("RFC 3339");
    (parsed.unix_timestamp_nanos() / 1_000_000) as i64
}

#[tokio::test]
async fn before_its_doors_a_concert_is_upcoming_and_changes_when_they_open() {
    let app = spawn_app().await;
    let event = concert(&app, None, 500, 16 * MINUTE_MS).await;
    let state = state_of(&app, &event).await;
    assert_eq!(state["phase"], "upcoming");
    assert_eq!(state["reason"], Value::Null);
    assert_eq!(state["onAir"], false);
    let start = ms(&state["startsAt"]);
    assert_eq!(ms(&state["doorsAt"]), start - 15 * MINUTE_MS);
    assert_eq!(ms(&state["nextChangeAt"]), start - 15 * MINUTE_MS);
    assert_eq!(ms(&state["endsAt"]), start + 90 * MINUTE_MS);
    assert_eq!(ms(&state["replayUntil"]), start + 24 * HOUR_MS);
}

#[tokio::test]
async fn listening_before_the_doors_is_refused_with_a_clear_error_and_allowed_once_they_open() {
    let app = spawn_app().await;
    let early = concert(&app, None, 500, 16 * MINUTE_MS).await;
    let doors = concert(&app, None, 500, 14 * MINUTE_MS).await;
    let (_, fan) = app.fans(1).await.pop().unwrap();
    for event in [&early, &doors] {
        assert_eq!(app.buy(&fan, event, CARD_OK).await.0, StatusCode::OK);
    }
    let (status, body) = app
        .post(
            &format!("/api/v1/stream/{early}/session"),
            json!({}),
            Some(&fan),
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(body["success"], false);
    assert!(body["error"].as_str().unwrap().len() > 10, "{body}");
    let state = state_of(&app, &doors).await;
    assert_eq!(state["phase"], "doors");
    assert_eq!(ms(&state["nextChangeAt"]), ms(&state["startsAt"]));
    let (status, body) = app
        .post(
            &format!("/api/v1/stream/{doors}/session"),
            json!({}),
            Some(&fan),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
}

#[tokio::test]
async fn from_its_start_a_concert_is_live_until_its_scheduled_end() {
    let app = spawn_app().await;
    let event = concert(&app, None, 500, -MINUTE_MS).await;
    let state = state_of(&app, &event).await;
    assert_eq!(state["phase"], "live");
    assert_eq!(state["reason"], "awaiting_encoder");
    assert_eq!(ms(&state["nextChangeAt"]), ms(&state["endsAt"]));
    let (_, body) = app.get(&format!("/api/v1/events/{event}"), None).await;
    assert_eq!(body["payload"]["access"], "live");
}

#[tokio::test]
async fn a_show_on_air_before_its_start_is_live_everywhere_it_is_listed() {
    let app = spawn_app().await;
    let event = concert(&app, None, 500, 2 * HOUR_MS).await;
    let show = app.state.hub.show(&event);
    let encore::stream::show::hub::Claim::Granted(_publisher) = show.claim() else {
        panic!("claim")
    };
    app.set_event_status(&event, "live").await;
    let state = state_of(&app, &event).await;
    assert_eq!(state["phase"], "live");
    assert_eq!(state["reason"], "on_air_early");
    assert_eq!(state["onAir"], true);
    assert_eq!(ms(&state["nextChangeAt"]), ms(&state["replayUntil"]));
    let (_, list) = app.get("/api/v1/events", None).await;
    let listed = list["payload"]["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["id"] == event.as_str())
        .expect("listed")
        .clone();
    assert_eq!(listed["state"]["phase"], "live");
    assert_eq!(listed["access"], "live");
    // A ticket holder may listen at once, doors or not.
    let (_, fan) = app.fans(1).await.pop().unwrap();
    assert_eq!(app.buy(&fan, &event, CARD_OK).await.0, StatusCode::OK);
    app.listen(&event, &fan).await;
}

#[tokio::test]
async fn after_its_scheduled_end_or_its_artists_end_a_concert_is_a_replay_until_start_plus_24_hours()
 {
    let app = spawn_app().await;
    let past_end = concert(&app, None, 500, -91 * MINUTE_MS).await;
    let state = state_of(&app, &past_end).await;
    assert_eq!(state["phase"], "replay");
    assert_eq!(state["reason"], "scheduled_end");
    assert_eq!(ms(&state["nextChangeAt"]), ms(&state["replayUntil"]));

    let ended = concert(&app, None, 500, -10 * MINUTE_MS).await;
    app.set_event_status(&ended, "ended").await;
    let state = state_of(&app, &ended).await;
    assert_eq!(state["phase"], "replay");
    assert_eq!(state["reason"], "ended");
}

#[tokio::test]
async fn from_start_plus_24_hours_a_concert_is_expired_and_never_changes_again() {
    let app = spawn_app().await;
    let event = concert(&app, None, 500, -24 * HOUR_MS - MINUTE_MS).await;
    app.set_event_status(&event, "ended").await;
    let state = state_of(&app, &event).await;
    assert_eq!(state["phase"], "expired");
    assert_eq!(state["reason"], "replay_over");
    assert_eq!(state["nextChangeAt"], Value::Null);
}

#[tokio::test]
async fn a_cancelled_concert_says_so_and_a_draft_is_a_draft_for_its_managers() {
    let app = spawn_app().await;
    let event = concert(&app, None, 500, HOUR_MS).await;
    app.set_event_status(&event, "cancelled").await;
    let state = state_of(&app, &event).await;
    assert_eq!(state["phase"], "cancelled");
    assert_eq!(state["reason"], "cancelled");
    let admin = app.an_admin().await;
    app.set_event_status(&event, "draft").await;
    let (_, body) = app
        .get(&format!("/api/v1/events/{event}"), Some(&admin))
        .await;
    assert_eq!(body["payload"]["state"]["phase"], "draft");
}

// ---------------------------------------------------------------------------- calendar

#[tokio::test]
async fn a_concert_downloads_as_an_rfc_5545_calendar_event() {
    let app = spawn_app().await;
    let event = concert(&app, None, 500, 3 * HOUR_MS).await;
    sqlx::query("UPDATE events SET title = $2 WHERE id = $1")
        .bind(&event)
        .bind("Songs, Tales; and \\ more")
        .execute(app.db())
        .await
        .unwrap();
    let response = app
        .get_raw(&format!("/api/v1/events/{event}/calendar.ics"))
        .await;
    assert_eq!(response.status(), StatusCode::OK);
    let headers = response.headers().clone();
    assert!(
        headers["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/calendar")
    );
    assert!(
        headers["content-disposition"]
            .to_str()
            .unwrap()
            .contains(".ics")
    );
    let body = response.text().await.unwrap();
    let (_, shown) = app.get(&format!("/api/v1/events/{event}"), None).await;
    let start = ms(&shown["payload"]["startsAt"]);
    let start_utc = crate::helpers::ical_utc(start);
    let end_utc = crate::helpers::ical_utc(start + 90 * MINUTE_MS);
    assert!(
        body.starts_with("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"),
        "{body}"
    );
    assert!(body.ends_with("END:VCALENDAR\r\n"));
    assert!(
        body.contains(&format!("\r\nDTSTART:{start_utc}\r\n")),
        "{body}"
    );
    assert!(body.contains(&format!("\r\nDTEND:{end_utc}\r\n")));
    assert!(body.contains(&format!("\r\nUID:{event}@127.0.0.1")));
    assert!(body.contains("\r\nDTSTAMP:"));
    assert!(body.contains("\r\nSUMMARY:Songs\\, Tales\\; and \\\\ more — The Testers\r\n"));
    assert!(body.contains(&format!("\r\nURL:{}/concerts/{event}\r\n", app.url)));
    assert!(body.split("\r\n").all(|line| line.len() <= 75));
}

#[tokio::test]
async fn a_drafts_or_an_unknown_concerts_calendar_is_404() {
    let app = spawn_app().await;
    let event = concert(&app, None, 500, 3 * HOUR_MS).await;
    app.set_event_status(&event, "draft").await;
    for id in [event.as_str(), "no-such-concert"] {
        let (status, body) = app
            .get(&format!("/api/v1/events/{id}/calendar.ics"), None)
            .await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
        assert_eq!(body["success"], false);
    }
}

// ------------------------------------------------------------------------- shared page

/// A server whose web app is a tiny `index.html` (the real one may not be built).
async fn page(app: &TestApp, id: &str) -> (StatusCode, String) {
    let response = app
        .http
        .get(format!("{}/concerts/{id}", app.url))
        .header("user-agent", "facebookexternalhit/1.1")
        .send()
        .await
        .unwrap();
    let status = response.status();
    (status, response.text().await.unwrap())
}

#[tokio::test]
async fn a_shared_concert_page_has_its_open_graph_and_twitter_tags_with_an_absolute_picture() {
    let app = app_with_web().await;
    let event = concert(&app, None, 500, 3 * HOUR_MS).await;
    encore::events::store::set_image(app.db(), &event, "image/png")
        .await
        .unwrap();
    let (status, html) = page(&app, &event).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        html.contains("<div id=\"root\"></div>"),
        "the app still loads"
    );
    assert_eq!(
        meta(&html, "og:title").as_deref(),
        Some("Live at the Roundhouse — The Testers")
    );
    let image = meta(&html, "og:image").expect("og:image");
    assert!(
        image.starts_with(&format!("{}/api/v1/events/{event}/image?v=", app.url)),
        "{image}"
    );
    assert_eq!(
        meta(&html, "og:url"),
        Some(format!("{}/concerts/{event}", app.url))
    );
    assert_eq!(
        meta(&html, "twitter:card").as_deref(),
        Some("summary_large_image")
    );
    assert!(
        meta(&html, "og:description")
            .unwrap()
            .starts_with("The Testers · ")
    );
    assert!(html.contains("<title>Live at the Roundhouse · Encore</title>"));
}

#[tokio::test]
async fn a_hostile_title_is_escaped_in_the_shared_page() {
    let app = app_with_web().await;
    let event = concert(&app, None, 500, 3 * HOUR_MS).await;
    let hostile = "\"/><script>alert('x')</script>";
    sqlx::query("UPDATE events SET title = $2, artist_name = $2 WHERE id = $1")
        .bind(&event)
        .bind(hostile)
        .execute(app.db())
        .await
        .unwrap();
    let (status, html) = page(&app, &event).await;
    assert_eq!(status, StatusCode::OK);
    assert!(!html.contains("<script>"), "{html}");
    assert_eq!(
        meta(&html, "og:title"),
        Some(format!("{hostile} — {hostile}"))
    );
}

#[tokio::test]
async fn a_draft_or_unknown_concerts_page_is_the_plain_app_with_no_tags() {
    let app = app_with_web().await;
    let event = concert(&app, None, 500, 3 * HOUR_MS).await;
    sqlx::query("UPDATE events SET title = 'Secret draft' WHERE id = $1")
        .bind(&event)
        .execute(app.db())
        .await
        .unwrap();
    app.set_event_status(&event, "draft").await;
    for id in [event.as_str(), "no-such-concert"] {
        let (status, html) = page(&app, id).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        assert!(
            html.contains("<div id=\"root\"></div>"),
            "the app loads its 404"
        );
        assert!(!html.contains("og:"), "{html}");
        assert!(!html.contains("Secret draft"));
    }
}
