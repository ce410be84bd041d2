//! Notices that name a time say it on the reader's clocks: each account keeps the IANA zone
//! its browser reports (`timeZone`, at sign-up or on the profile), and the ended and
//! reschedule notices write their time in it, naming the zone; an account without one
//! reads UTC.

use encore::accounts::model::AccountRow;
use encore::events::store as events;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::*;

/// Next year: every date the tests pick is in the future, whatever day they run.
fn next_year() -> i32 {
    encore::db::iso8601(encore::db::now_ms())[..4]
        .parse::<i32>()
        .unwrap()
        + 1
}

/// An RFC 3339 time as unix ms.
fn ms(iso: &str) -> i64 {
    let at =
        time::OffsetDateTime::parse(iso, &time::format_description::well_known::Rfc3339).unwrap();
    i64::try_from(at.unix_timestamp_nanos() / 1_000_000).unwrap()
}

/// `PUT /accounts/{id}` by the account itself, read in `language` (an Accept-Language).
async fn update_own(
    app: &TestApp,
    account: &AccountRow,
    token: &str,
    body: Value,
    language: &str,
) -> (StatusCode, Value) {
    let response = app
        .http
        .put(format!("{}/api/v1/accounts/{}", app.url, account.id))
        .bearer_auth(token)
        .header("accept-language", language)
        .json(&body)
        .send()
        .await
        .unwrap();
    let status = response.status();
    (status, response.json().await.unwrap())
}

/// A fan with a paid ticket to `event` whose browser reported `zone` (and, for a Persian
/// reader, whose language is Persian): the fan.
async fn holder_in(app: &TestApp, event: &str, zone: Option<&str>, language: &str) -> AccountRow {
    let (fan, token) = app.fans(1).await.pop().unwrap();
    if let Some(zone) = zone {
        let body = json!({ "timeZone": zone, "language": language });
        let (status, answer) = update_own(app, &fan, &token, body, "en").await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        assert_eq!(answer["payload"]["timeZone"], zone);
    }
    assert_eq!(app.buy(&token, event, CARD_OK).await.0, StatusCode::OK);
    fan
}

/// The bodies of an account's notifications opening `event`'s stage whose title ends so.
async fn bodies(app: &TestApp, account: &AccountRow, event: &str, title_end: &str) -> Vec<String> {
    let rows: Vec<(String, String)> = sqlx::query_as(
        "SELECT title, body FROM notifications WHERE account_id = $1 AND link = $2 \
         ORDER BY created_at, id",
    )
    .bind(&account.id)
    .bind(format!("/stage/{event}"))
    .fetch_all(app.db())
    .await
    .unwrap();
    rows.into_iter()
        .filter(|(title, _)| title.ends_with(title_end))
        .map(|(_, body)| body)
        .collect()
}

async fn stored_zone(app: &TestApp, account_id: &str) -> Option<String> {
    let (zone,): (Option<String>,) = sqlx::query_as("SELECT time_zone FROM accounts WHERE id = $1")
        .bind(account_id)
        .fetch_one(app.db())
        .await
        .unwrap();
    zone
}

#[tokio::test]
async fn a_moved_start_is_told_on_the_holders_clocks_summer_and_winter_time_alike() {
    let app = spawn_app().await;
    let admin = app.an_admin().await;
    let event = concert(&app, None, 500, HOUR_MS).await;
    let new_york = holder_in(&app, &event, Some("America/New_York"), "gb").await;
    let (y, after) = (next_year(), next_year() + 1);

    // New York is UTC-4 in July (daylight saving time), UTC-5 in January.
    app.move_concert(&admin, &event, &format!("{y}-07-10T19:00:00Z"))
        .await;
    app.move_concert(&admin, &event, &format!("{after}-01-15T19:00:00Z"))
        .await;
    assert_eq!(
        bodies(&app, &new_york, &event, "has a new start time").await,
        [
            format!("It now starts on {y}-07-10 15:00 (America/New_York)."),
            format!("It now starts on {after}-01-15 14:00 (America/New_York)."),
        ]
    );
}

#[tokio::test]
async fn a_holder_whose_zone_is_unknown_reads_the_new_start_in_utc() {
    let app = spawn_app().await;
    let admin = app.an_admin().await;
    let event = concert(&app, None, 500, HOUR_MS).await;
    let unknown = holder_in(&app, &event, None, "gb").await;
    let y = next_year();
    app.move_concert(&admin, &event, &format!("{y}-07-10T19:00:00Z"))
        .await;
    assert_eq!(
        bodies(&app, &unknown, &event, "has a new start time").await,
        [format!("It now starts on {y}-07-10 19:00 (UTC).")]
    );
}

#[tokio::test]
async fn holders_of_one_concert_each_read_the_end_of_the_replay_on_their_own_clocks() {
    let app = spawn_app().await;
    let (_, admin) = app
        .signed_in("admin@example.com", encore::accounts::model::Role::Admin)
        .await;
    let event = concert(&app, None, 500, HOUR_MS).await;
    let new_york = holder_in(&app, &event, Some("America/New_York"), "gb").await;
    let tehran = holder_in(&app, &event, Some("Asia/Tehran"), "ir").await;
    let unknown = holder_in(&app, &event, None, "gb").await;
    // The show started on a July evening (UTC); its replay is theirs for 24 hours.
    let y = next_year();
    sqlx::query("UPDATE events SET starts_at = $1, status = 'live' WHERE id = $2")
        .bind(ms(&format!("{y}-07-10T19:00:00Z")))
        .bind(&event)
        .execute(app.db())
        .await
        .unwrap();
    app.end_show(&event, &admin.access).await;
    assert_eq!(
        events::by_id(app.db(), &event)
            .await
            .unwrap()
            .unwrap()
            .access_until(),
        ms(&format!("{y}-07-11T19:00:00Z"))
    );

    assert_eq!(
        bodies(&app, &new_york, &event, "has ended").await,
        [format!(
            "You can listen to the replay until {y}-07-11 15:00 (America/New_York)."
        )]
    );
    // Tehran is UTC+03:30 all year; a Persian reader reads Persian digits.
    let persian_year: String = y
        .to_string()
        .chars()
        .map(|c| char::from_u32('۰' as u32 + c.to_digit(10).unwrap()).unwrap())
        .collect();
    assert_eq!(
        bodies(&app, &tehran, &event, "به پایان رسید").await,
        [format!(
            "تا {persian_year}-۰۷-۱۱ ۲۲:۳۰ (به وقت Asia/Tehran) می‌توانید بازپخش آن را بشنوید."
        )]
    );
    assert_eq!(
        bodies(&app, &unknown, &event, "has ended").await,
        [format!(
            "You can listen to the replay until {y}-07-11 19:00 (UTC)."
        )]
    );
}

#[tokio::test]
async fn the_profile_takes_a_zone_in_any_case_and_the_account_shows_its_canonical_name() {
    let app = spawn_app().await;
    let (fan, token) = app.fans(1).await.pop().unwrap();
    let (_, me) = app.me(&token).await;
    assert_eq!(me["payload"][0]["timeZone"], Value::Null, "{me}");

    let (status, body) = update_own(
        &app,
        &fan,
        &token,
        json!({ "timeZone": "america/sao_paulo" }),
        "en",
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["payload"]["timeZone"], "America/Sao_Paulo");
    assert_eq!(
        stored_zone(&app, &fan.id).await.as_deref(),
        Some("America/Sao_Paulo")
    );
    let (_, me) = app.me(&token).await;
    assert_eq!(me["payload"][0]["timeZone"], "America/Sao_Paulo");
}

#[tokio::test]
async fn an_unknown_zone_is_400_in_the_readers_language_and_changes_nothing() {
    let app = spawn_app().await;
    let (fan, token) = app.fans(1).await.pop().unwrap();
    let (status, _) = update_own(
        &app,
        &fan,
        &token,
        json!({ "timeZone": "Europe/Lisbon" }),
        "en",
    )
    .await;
    assert_eq!(status, StatusCode::OK);

    let body = json!({
        "person": { "firstName": "Nuevo" }, "notes": "nuevas", "language": "es",
        "timeZone": "Mars/Olympus_Mons",
    });
    let (status, answer) = update_own(&app, &fan, &token, body, "es-ES").await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
    assert_eq!(answer["success"], false);
    assert_eq!(
        answer["error"],
        "Zona horaria desconocida \"Mars/Olympus_Mons\": envía un nombre IANA como Europe/Madrid."
    );
    let row = encore::accounts::store::by_id(app.db(), &fan.id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(row.first_name, "Fan");
    assert_eq!(row.notes, "");
    assert_eq!(row.language.code(), "gb");
    assert_eq!(row.time_zone.as_deref(), Some("Europe/Lisbon"));
}

#[tokio::test]
async fn a_fixed_offset_is_not_a_zone() {
    let app = spawn_app().await;
    let (fan, token) = app.fans(1).await.pop().unwrap();
    for offset in ["+03:30", "UTC+3", "EST5EDT,M3.2.0,M11.1.0"] {
        let (status, answer) =
            update_own(&app, &fan, &token, json!({ "timeZone": offset }), "en").await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{offset}: {answer}");
    }
    assert_eq!(stored_zone(&app, &fan.id).await, None);
}

#[tokio::test]
async fn sign_up_keeps_the_browsers_zone() {
    let app = spawn_app().await;
    let (status, body) = app
        .post(
            "/api/v1/accounts/signup",
            json!({ "login": "lua@example.com", "password": PASSWORD,
                    "timeZone": "America/Sao_Paulo" }),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    assert_eq!(body["payload"]["timeZone"], "America/Sao_Paulo");
    let row = encore::accounts::store::by_login(app.db(), "lua@example.com")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(row.time_zone.as_deref(), Some("America/Sao_Paulo"));
}

#[tokio::test]
async fn the_oauth_register_keeps_the_browsers_zone_too() {
    let app = spawn_app().await;
    let (status, body) = app
        .oauth(
            "register",
            json!({ "email": "pari@example.com", "password": PASSWORD, "client_id": WEB,
                    "time_zone": "Asia/Tehran", "state": "s" }),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    assert_eq!(body["payload"]["timeZone"], "Asia/Tehran");
    let row = encore::accounts::store::by_login(app.db(), "pari@example.com")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(row.time_zone.as_deref(), Some("Asia/Tehran"));
}

#[tokio::test]
async fn a_sign_up_with_an_unknown_zone_is_400_and_makes_no_account() {
    let app = spawn_app().await;
    let (status, body) = app
        .post(
            "/api/v1/accounts/signup",
            json!({ "login": "lua@example.com", "password": PASSWORD, "timeZone": "Atlantis/Capital" }),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    let (status, body) = app
        .oauth(
            "register",
            json!({ "email": "lua@example.com", "password": PASSWORD, "client_id": WEB,
                    "time_zone": "Atlantis/Capital" }),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert_eq!(
        app.count(
            "SELECT COUNT(*) FROM accounts WHERE login = $1",
            "lua@example.com"
        )
        .await,
        0
    );
}
