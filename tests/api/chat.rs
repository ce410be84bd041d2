//! The live room (issue 29): who may read and post, media time, limits, moderation across
//! instances, replays without deleted messages, reports, hostile text, reactions as
//! counts.

use std::time::Duration;

use encore::accounts::model::{AccountRow, Role};
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::cluster::two_processes_beside;
use crate::helpers::{
    CARD_OK, HOUR_MS, Options, TestApp, concert, spawn_app, spawn_app_on_redis, two_instances,
};
use crate::live::a_recorded_show;
use crate::ws::{Ws, next, send, signed_in, signed_in_at};

/// A concert whose doors are open (it starts in five minutes), its artist (a member of
/// its project), and fans with tickets.
pub(crate) struct Room {
    pub(crate) event: String,
    pub(crate) artist: String,
    pub(crate) fans: Vec<(AccountRow, String)>,
    /// Each fan's order.
    pub(crate) orders: Vec<String>,
}

pub(crate) async fn a_room(app: &TestApp, fans: usize) -> Room {
    let event = concert(app, None, 500, 5 * 60_000).await;
    let project = app.project_of(&event).await;
    let (artist_row, artist) = app.signed_in("artist@example.com", Role::User).await;
    let _ = encore::projects::store::add_member(app.db(), &project, &artist_row.id)
        .await
        .unwrap();
    let fans = app.fans(fans).await;
    let mut orders = Vec::new();
    for (_, token) in &fans {
        let (status, paid) = app.buy(token, &event, CARD_OK).await;
        assert_eq!(status, StatusCode::OK, "{paid}");
        orders.push(paid["payload"]["order"].as_str().unwrap().to_owned());
    }
    Room {
        event,
        artist: artist.access,
        fans,
        orders,
    }
}

pub(crate) fn chat(event: &str) -> String {
    format!("/api/v1/events/{event}/chat")
}

/// The artist's live panel, its socket subscribed to the room's concert channel.
pub(crate) async fn the_artists_panel(app: &TestApp, room: &Room) -> Ws {
    let (mut panel, _) = signed_in(app, &room.artist, json!({})).await;
    send(
        &mut panel,
        json!({ "type": "subscribe", "channel": format!("event:{}", room.event) }),
    )
    .await;
    assert_eq!(next(&mut panel).await["type"], "subscribed");
    panel
}

/// The path of `message` (a posted message) in `event`'s room.
fn message_path(event: &str, message: &Value) -> String {
    format!(
        "{}/messages/{}",
        chat(event),
        message["id"].as_str().unwrap()
    )
}

/// The room's second fan follows it, hears the first fan say `text`, and goes away: where
/// they were (the offset and epoch a reconnect sends).
async fn the_second_fan_hears_the_first_say(app: &TestApp, room: &Room, text: &str) -> Value {
    let (first, second) = (&room.fans[0].1, &room.fans[1].1);
    let (mut follows, _) = following(app, second, &room.event, None).await;
    say(app, &room.event, first, text).await;
    let seen = next_of(&mut follows, "chat_message").await;
    json!({ "offset": seen["offset"], "epoch": seen["epoch"] })
}

async fn post(app: &TestApp, event: &str, token: &str, body: Value) -> (StatusCode, Value) {
    app.post(&chat(event), body, Some(token)).await
}

async fn say(app: &TestApp, event: &str, token: &str, text: &str) -> Value {
    let (status, body) = post(app, event, token, json!({ "text": text })).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    body["payload"].clone()
}

/// The page's message texts, in order.
async fn texts(app: &TestApp, event: &str, token: &str) -> Vec<String> {
    let (status, body) = app.get(&chat(event), Some(token)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body["payload"]["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["text"].as_str().unwrap().to_owned())
        .collect()
}

/// A socket following the room: the socket and its `subscribed`.
pub(crate) async fn following(
    app: &TestApp,
    token: &str,
    event: &str,
    since: Option<Value>,
) -> (Ws, Value) {
    following_at(&app.url, token, event, since).await
}

/// [`following`] on the server at `base` (an `encore serve` process).
pub(crate) async fn following_at(
    base: &str,
    token: &str,
    event: &str,
    since: Option<Value>,
) -> (Ws, Value) {
    let (mut ws, _) = signed_in_at(base, token, json!({})).await;
    let mut subscribe = json!({ "type": "subscribe", "channel": format!("chat:{event}") });
    if let Some(since) = since {
        subscribe["since"] = since;
    }
    send(&mut ws, subscribe).await;
    let subscribed = next(&mut ws).await;
    (ws, subscribed)
}

/// The next message of `kind` on the socket, skipping others (and looking inside the
/// batches a room's messages come in).
pub(crate) async fn next_of(ws: &mut Ws, kind: &str) -> Value {
    loop {
        let frame = next(ws).await;
        for message in unbatched(frame) {
            if message["type"] == kind {
                return message;
            }
        }
    }
}

/// A frame's messages: the batch's, or itself.
fn unbatched(frame: Value) -> Vec<Value> {
    match frame["type"].as_str() {
        Some("batch") => frame["messages"].as_array().unwrap().clone(),
        _ => vec![frame],
    }
}

/// Nothing more arrives within `wait` (other than pings).
pub(crate) async fn quiet(ws: &mut Ws, wait: Duration) -> Option<Value> {
    tokio::time::timeout(wait, next(ws)).await.ok()
}

#[tokio::test]
async fn a_holder_posts_and_another_receives_it_at_the_media_time_its_author_heard() {
    let app = spawn_app().await;
    let room = a_room(&app, 2).await;
    a_recorded_show(&app, &room.event);
    let (ann, bob) = (&room.fans[0].1, &room.fans[1].1);
    let (mut bobs, subscribed) = following(&app, bob, &room.event, None).await;
    assert_eq!(subscribed["type"], "subscribed", "{subscribed}");
    assert_eq!(subscribed["channel"], format!("chat:{}", room.event));

    let (status, posted) = post(
        &app,
        &room.event,
        ann,
        json!({ "text": "What a riff!", "mediaTime": 1500 }),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{posted}");
    let posted = &posted["payload"];
    assert_eq!(posted["mediaTime"], 1500);
    assert_eq!(
        posted["author"],
        format!("Fan {}.", &room.fans[0].0.last_name[..1])
    );
    assert_eq!(posted["badge"], Value::Null);

    let received = next_of(&mut bobs, "chat_message").await;
    assert_eq!(received["message"]["text"], "What a riff!");
    assert_eq!(received["message"]["mediaTime"], 1500);
    assert_eq!(received["offset"], 1);

    // A time past what is recorded is the live edge; none at all is the live edge too.
    let (_, ahead) = post(
        &app,
        &room.event,
        ann,
        json!({ "text": "From the future", "mediaTime": 3_600_000 }),
    )
    .await;
    let edge = ahead["payload"]["mediaTime"].as_i64().unwrap();
    assert!(
        (1000..=2100).contains(&edge),
        "the live edge of two seconds recorded: {edge}"
    );

    // The artist writes with a badge; the page is in media-time order.
    let (_, artist) = post(
        &app,
        &room.event,
        &room.artist,
        json!({ "text": "Thank you!", "mediaTime": 10 }),
    )
    .await;
    assert_eq!(artist["payload"]["badge"], "artist");
    assert_eq!(
        texts(&app, &room.event, bob).await,
        ["Thank you!", "What a riff!", "From the future"]
    );
}

#[tokio::test]
async fn no_ticket_a_refunded_or_an_expired_ticket_can_neither_read_nor_post() {
    let app = spawn_app().await;
    let room = a_room(&app, 2).await;
    let (_, outsider) = app.fans(1).await.pop().unwrap();

    let refused = |status: StatusCode, body: &Value| {
        assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    };
    let (status, body) = app.get(&chat(&room.event), Some(&outsider)).await;
    refused(status, &body);
    let (status, body) = post(&app, &room.event, &outsider, json!({ "text": "hi" })).await;
    refused(status, &body);
    let (mut ws, answer) = following(&app, &outsider, &room.event, None).await;
    assert_eq!(answer["type"], "error", "{answer}");
    assert_eq!(answer["code"], "forbidden");
    send(&mut ws, json!({ "type": "ping" })).await;
    assert_eq!(next(&mut ws).await["type"], "pong", "the socket stays open");

    // A refunded ticket.
    let refunded = &room.fans[0].1;
    let order = &room.orders[0];
    let admin = app.an_admin().await;
    let (status, body) = app.refund(order, &admin).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, body) = app.get(&chat(&room.event), Some(refunded)).await;
    refused(status, &body);
    let (status, body) = post(
        &app,
        &room.event,
        refunded,
        json!({ "text": "still here?" }),
    )
    .await;
    refused(status, &body);
    let (_, answer) = following(&app, refunded, &room.event, None).await;
    assert_eq!(answer["code"], "forbidden", "{answer}");

    // An expired ticket: the start was more than 24 hours ago.
    sqlx::query("UPDATE events SET starts_at = $1 WHERE id = $2")
        .bind(encore::db::now_ms() - 25 * HOUR_MS)
        .bind(&room.event)
        .execute(app.db())
        .await
        .unwrap();
    let holder = &room.fans[1].1;
    let (status, body) = app.get(&chat(&room.event), Some(holder)).await;
    refused(status, &body);
    let (_, answer) = following(&app, holder, &room.event, None).await;
    assert_eq!(answer["code"], "forbidden", "{answer}");
}

#[tokio::test]
async fn slow_mode_refuses_a_second_message_within_its_seconds_but_not_the_artists() {
    let app = spawn_app().await;
    let room = a_room(&app, 1).await;
    let fan = &room.fans[0].1;
    let settings = |token: &str| {
        app.http
            .patch(format!("{}{}/room", app.url, chat(&room.event)))
            .bearer_auth(token.to_owned())
            .json(&json!({ "slowModeSeconds": 30 }))
            .send()
    };
    let refused = settings(fan).await.unwrap();
    assert_eq!(
        refused.status(),
        StatusCode::FORBIDDEN,
        "a fan does not moderate"
    );
    assert_eq!(
        settings(&room.artist).await.unwrap().status(),
        StatusCode::OK
    );

    say(&app, &room.event, fan, "first").await;
    let response = app
        .http
        .post(format!("{}{}", app.url, chat(&room.event)))
        .bearer_auth(fan)
        .header("accept-language", "es")
        .json(&json!({ "text": "second" }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
    let wait: u64 = response.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((28..=30).contains(&wait), "{wait}");
    let body: Value = response.json().await.unwrap();
    assert!(
        body["error"].as_str().unwrap().contains("Modo lento"),
        "in the reader's language: {body}"
    );

    say(&app, &room.event, &room.artist, "one").await;
    say(&app, &room.event, &room.artist, "two").await;
    assert_eq!(texts(&app, &room.event, fan).await, ["first", "one", "two"]);
}

#[tokio::test]
async fn the_same_text_again_and_too_many_messages_are_refused() {
    let app = spawn_app().await;
    let room = a_room(&app, 1).await;
    let fan = &room.fans[0].1;
    say(&app, &room.event, fan, "encore!").await;
    let (status, body) = post(&app, &room.event, fan, json!({ "text": "  encore!  " })).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
    for n in 0..4 {
        say(&app, &room.event, fan, &format!("line {n}")).await;
    }
    let (status, body) = post(&app, &room.event, fan, json!({ "text": "one too many" })).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "5 per 10 s: {body}");
}

#[tokio::test]
async fn a_timeout_and_a_ban_hold_across_two_instances() {
    let (a, b) = two_instances().await;
    let room = a_room(&a, 1).await;
    let (fan_row, fan) = (&room.fans[0].0, &room.fans[0].1);
    let restrict = |kind: &'static str| json!({ "accountId": fan_row.id, "kind": kind });
    let restrictions = format!("{}/restrictions", chat(&room.event));

    let (status, body) = a
        .post(&restrictions, restrict("timeout_5m"), Some(&room.artist))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, body) = post(&b, &room.event, fan, json!({ "text": "let me speak" })).await;
    assert_eq!(
        status,
        StatusCode::FORBIDDEN,
        "timed out on the other instance too: {body}"
    );
    let (_, page) = b.get(&chat(&room.event), Some(fan)).await;
    assert_eq!(page["payload"]["room"]["you"]["muted"], true, "{page}");
    assert_eq!(
        texts(&b, &room.event, fan).await,
        Vec::<String>::new(),
        "a timeout still reads"
    );

    let (status, _) = b
        .delete(&format!("{restrictions}/{}", fan_row.id), &room.artist)
        .await;
    assert_eq!(status, StatusCode::OK);
    say(&a, &room.event, fan, "thanks").await;

    let (status, _) = b
        .post(&restrictions, restrict("ban"), Some(&room.artist))
        .await;
    assert_eq!(status, StatusCode::OK);
    let (status, body) = a.get(&chat(&room.event), Some(fan)).await;
    assert_eq!(
        status,
        StatusCode::FORBIDDEN,
        "a ban shuts the room: {body}"
    );
    let (_, answer) = following(&a, fan, &room.event, None).await;
    assert_eq!(answer["code"], "forbidden", "{answer}");

    // A moderator cannot be restricted; every action is in the log.
    let (artist_row,): (String,) =
        sqlx::query_as("SELECT id FROM accounts WHERE login = 'artist@example.com'")
            .fetch_one(a.db())
            .await
            .unwrap();
    let (status, _) = a
        .post(
            &restrictions,
            json!({ "accountId": artist_row, "kind": "ban" }),
            Some(&room.artist),
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, log) = b
        .get(
            &format!("{}/moderation", chat(&room.event)),
            Some(&room.artist),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{log}");
    let actions: Vec<&str> = log["payload"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["action"].as_str().unwrap())
        .collect();
    assert_eq!(actions, ["ban", "lift", "timeout_5m"]);
    let (status, _) = a
        .get(&format!("{}/moderation", chat(&room.event)), Some(fan))
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "fans do not read the log");
}

/// The room across two real `encore serve` processes on one database and Redis: what is
/// posted, deleted and applauded on one reaches a socket on the other, and a timeout given
/// on one holds on the other.
#[tokio::test]
async fn the_room_crosses_two_encore_serve_processes() {
    let app = spawn_app_on_redis(Options::default()).await;
    let room = a_room(&app, 2).await;
    let (ann, bob) = (&room.fans[0].1, &room.fans[1].1);
    let [(_one, p), (_two, q)] = two_processes_beside(&app).await;
    let (mut on_q, subscribed) = following_at(&q.url, bob, &room.event, None).await;
    assert_eq!(subscribed["type"], "subscribed", "{subscribed}");
    // A POST to one of the processes as `token`: the answer's status.
    let post_to =
        async |process: &crate::cluster::Process, path: String, token: &str, body: Value| {
            let sent = app
                .http
                .post(format!("{}{path}", process.url))
                .bearer_auth(token);
            sent.json(&body).send().await.unwrap().status()
        };

    let posted = post_to(
        &p,
        chat(&room.event),
        ann,
        json!({ "text": "hello from the front row" }),
    );
    assert_eq!(posted.await, StatusCode::CREATED);
    let heard = next_of(&mut on_q, "chat_message").await;
    assert_eq!(heard["message"]["text"], "hello from the front row");
    let id = heard["message"]["id"].as_str().unwrap().to_owned();

    let deleted = app
        .http
        .delete(format!("{}{}/messages/{id}", p.url, chat(&room.event)))
        .bearer_auth(&room.artist)
        .send()
        .await
        .unwrap();
    assert_eq!(deleted.status(), StatusCode::OK);
    assert_eq!(
        next_of(&mut on_q, "chat_deleted").await["messageId"],
        id.as_str()
    );

    let reactions = format!("{}/reactions", chat(&room.event));
    let reacted = post_to(
        &p,
        reactions,
        ann,
        json!({ "kind": "applause", "count": 3 }),
    );
    assert_eq!(reacted.await, StatusCode::OK);
    assert_eq!(
        next_of(&mut on_q, "chat_reactions").await["counts"]["applause"],
        3
    );

    // A timeout given on P holds on Q.
    let account = room.fans[0].0.id.clone();
    let restrictions = format!("{}/restrictions", chat(&room.event));
    let timeout = json!({ "accountId": account, "kind": "timeout_5m" });
    assert_eq!(
        post_to(&p, restrictions, &room.artist, timeout).await,
        StatusCode::OK
    );
    let refused = post_to(&q, chat(&room.event), ann, json!({ "text": "still here" }));
    assert_eq!(refused.await, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn a_deleted_message_is_gone_from_the_page_and_from_a_reconnects_replay() {
    let app = spawn_app().await;
    let room = a_room(&app, 2).await;
    let (ann, bob) = (&room.fans[0].1, &room.fans[1].1);
    let since = the_second_fan_hears_the_first_say(&app, &room, "one").await;

    let two = say(&app, &room.event, ann, "two").await;
    say(&app, &room.event, ann, "three").await;
    let (status, body) = app
        .delete(&message_path(&room.event, &two), &room.artist)
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");

    let (mut bobs, subscribed) = following(&app, bob, &room.event, Some(since)).await;
    assert_eq!(subscribed["recovered"], true, "{subscribed}");
    let three = next(&mut bobs).await;
    assert_eq!(three["type"], "chat_message");
    assert_eq!(
        three["message"]["text"], "three",
        "'two' is left out of the replay"
    );
    let deleted = next(&mut bobs).await;
    assert_eq!(deleted["type"], "chat_deleted");
    assert_eq!(deleted["messageId"], two["id"]);
    assert!(quiet(&mut bobs, Duration::from_millis(300)).await.is_none());
    assert_eq!(texts(&app, &room.event, bob).await, ["one", "three"]);

    // A fan deletes their own message, not another's.
    let (status, _) = app
        .delete(&message_path(&room.event, &three["message"]), bob)
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn a_reconnect_with_offsets_replays_exactly_the_missed_messages() {
    let app = spawn_app().await;
    let room = a_room(&app, 2).await;
    let bob = &room.fans[1].1;
    let since = the_second_fan_hears_the_first_say(&app, &room, "before").await;
    for text in ["a", "b", "c"] {
        say(&app, &room.event, &room.artist, text).await;
    }
    let (mut bobs, subscribed) = following(&app, bob, &room.event, Some(since)).await;
    assert_eq!(subscribed["recovered"], true);
    let mut replayed = Vec::new();
    for _ in 0..3 {
        let m = next(&mut bobs).await;
        replayed.push((
            m["offset"].as_u64().unwrap(),
            m["message"]["text"].as_str().unwrap().to_owned(),
        ));
    }
    assert_eq!(
        replayed,
        [(2, "a".into()), (3, "b".into()), (4, "c".into())]
    );
    assert!(quiet(&mut bobs, Duration::from_millis(300)).await.is_none());
}

#[tokio::test]
async fn a_report_reaches_the_moderators_live() {
    let app = spawn_app().await;
    let room = a_room(&app, 2).await;
    let (ann, bob) = (&room.fans[0].1, &room.fans[1].1);
    let mut panel = the_artists_panel(&app, &room).await;
    let rude = say(&app, &room.event, ann, "rude words").await;
    let path = format!("{}/report", message_path(&room.event, &rude));
    let (status, body) = app.post(&path, json!({}), Some(bob)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let report = next_of(&mut panel, "chat_report").await;
    assert_eq!(report["report"]["message"]["text"], "rude words");
    assert!(
        report["report"]["reporterName"]
            .as_str()
            .unwrap()
            .starts_with("Fan ")
    );
    // Once per reader: a second report is taken but not sent again.
    let (status, _) = app.post(&path, json!({}), Some(bob)).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        quiet(&mut panel, Duration::from_millis(300))
            .await
            .is_none_or(|m| m["type"] != "chat_report")
    );
}

#[tokio::test]
async fn a_moderator_opening_the_panel_late_sees_the_open_reports_and_can_dismiss_one() {
    let app = spawn_app().await;
    let room = a_room(&app, 2).await;
    let (ann, bob) = (&room.fans[0].1, &room.fans[1].1);
    let rude = say(&app, &room.event, ann, "rude words").await;
    let gone = say(&app, &room.event, ann, "worse words").await;
    for message in [&rude, &gone] {
        let path = format!("{}/report", message_path(&room.event, message));
        let (status, body) = app.post(&path, json!({}), Some(bob)).await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }
    // A deleted message's report is no longer open.
    let path = message_path(&room.event, &gone);
    assert_eq!(app.delete(&path, &room.artist).await.0, StatusCode::OK);

    let reports = format!("{}/reports", chat(&room.event));
    let (status, body) = app.get(&reports, Some(bob)).await;
    assert_eq!(
        status,
        StatusCode::FORBIDDEN,
        "a fan does not read reports: {body}"
    );
    let (status, body) = app.get(&reports, Some(&room.artist)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let open = body["payload"].as_array().unwrap();
    assert_eq!(open.len(), 1, "{body}");
    assert_eq!(open[0]["message"]["text"], "rude words");
    assert!(
        open[0]["reporterName"]
            .as_str()
            .unwrap()
            .starts_with("Fan ")
    );

    // Dismissed: every moderator hears of it, the list drops it, the log keeps it.
    let mut panel = the_artists_panel(&app, &room).await;
    let report_id = open[0]["id"].as_str().unwrap().to_owned();
    let dismiss = format!("{reports}/{report_id}");
    assert_eq!(app.delete(&dismiss, bob).await.0, StatusCode::FORBIDDEN);
    let (status, body) = app.delete(&dismiss, &room.artist).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let told = next_of(&mut panel, "chat_report_dismissed").await;
    assert_eq!(told["reportId"], report_id.as_str());
    let (_, body) = app.get(&reports, Some(&room.artist)).await;
    assert_eq!(body["payload"], json!([]));
    // Again: nothing changes, nothing is logged twice.
    assert_eq!(app.delete(&dismiss, &room.artist).await.0, StatusCode::OK);
    let (_, log) = app
        .get(
            &format!("{}/moderation", chat(&room.event)),
            Some(&room.artist),
        )
        .await;
    let dismissals: Vec<&Value> = log["payload"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["action"] == "dismiss_report")
        .collect();
    assert_eq!(dismissals.len(), 1, "{log}");
    assert_eq!(dismissals[0]["messageId"], rude["id"]);
    assert_eq!(
        dismissals[0]["accountName"], rude["author"],
        "whom, by name"
    );
    let (status, _) = app
        .delete(&format!("{reports}/no-such-report"), &room.artist)
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn hostile_text_is_neutralised() {
    let app = spawn_app().await;
    let room = a_room(&app, 1).await;
    let fan = &room.fans[0].1;
    let cleaned = say(
        &app,
        &room.event,
        fan,
        "\u{202E}gnp.exe\u{202C} \u{2067}سلام\u{2069}\u{0007}\n\n<b>hi</b>",
    )
    .await;
    assert_eq!(
        cleaned["text"], "gnp.exe سلام <b>hi</b>",
        "HTML stays text, the rest goes"
    );
    let (status, body) = post(
        &app,
        &room.event,
        &room.artist,
        json!({ "text": "x".repeat(10 * 1024) }),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    let (status, _) = post(
        &app,
        &room.event,
        &room.artist,
        json!({ "text": "é".repeat(500) }),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "500 characters, not bytes");
    let (status, _) = post(
        &app,
        &room.event,
        &room.artist,
        json!({ "text": " \u{0}\u{202E} " }),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "nothing left to say");
}

#[tokio::test]
async fn the_reaction_cap_per_fan_holds_across_two_instances() {
    let (a, b) = two_instances().await;
    let room = a_room(&a, 1).await;
    let fan = &room.fans[0].1;
    let reactions = format!("{}/reactions", chat(&room.event));
    let ten = json!({ "kind": "applause", "count": 10 });
    // Ten on each instance within one wall-clock second: ten in all (a try that crossed
    // a second's edge proves nothing and is made again).
    for _ in 0..5 {
        let second = || encore::db::now_ms().div_euclid(1000);
        let before = second();
        let (status, on_a) = a.post(&reactions, ten.clone(), Some(fan)).await;
        assert_eq!(status, StatusCode::OK, "{on_a}");
        let (status, on_b) = b.post(&reactions, ten.clone(), Some(fan)).await;
        assert_eq!(status, StatusCode::OK, "{on_b}");
        if second() != before {
            tokio::time::sleep(Duration::from_millis(1100)).await;
            continue;
        }
        let accepted = on_a["payload"]["accepted"].as_u64().unwrap()
            + on_b["payload"]["accepted"].as_u64().unwrap();
        assert_eq!(accepted, 10, "A {on_a}, B {on_b}");
        return;
    }
    panic!("every try crossed a second's edge");
}

#[tokio::test]
async fn reactions_arrive_as_counts_and_stay_for_the_replay() {
    let app = spawn_app().await;
    let room = a_room(&app, 2).await;
    a_recorded_show(&app, &room.event);
    let (ann, bob) = (&room.fans[0].1, &room.fans[1].1);
    let (mut bobs, _) = following(&app, bob, &room.event, None).await;
    let reactions = format!("{}/reactions", chat(&room.event));
    let mut accepted = 0;
    for _ in 0..3 {
        let (status, body) = app
            .post(
                &reactions,
                json!({ "kind": "applause", "count": 5, "mediaTime": 1200 }),
                Some(ann),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        accepted += body["payload"]["accepted"].as_u64().unwrap();
    }
    assert!(
        (10..=15).contains(&accepted),
        "at most 10 a second: {accepted}"
    );
    let (status, _) = app
        .post(
            &reactions,
            json!({ "kind": "applause", "count": 21 }),
            Some(ann),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);

    // Counts, not one frame per click.
    let mut counted = 0;
    let mut frames = 0;
    while counted < accepted {
        let message = next_of(&mut bobs, "chat_reactions").await;
        assert_eq!(message["mediaTime"], 1200);
        counted += message["counts"]["applause"].as_u64().unwrap();
        frames += 1;
    }
    assert_eq!(counted, accepted);
    assert!(frames <= 3, "{frames} frames for {accepted} reactions");

    let (status, seconds) = app.get(&reactions, Some(bob)).await;
    assert_eq!(status, StatusCode::OK, "{seconds}");
    assert_eq!(
        seconds["payload"],
        json!([{ "second": 1, "applause": accepted, "heart": 0, "fire": 0 }])
    );
}

#[tokio::test]
async fn after_the_show_ended_plus_an_hour_the_room_is_read_only() {
    let app = spawn_app().await;
    let room = a_room(&app, 1).await;
    let fan = &room.fans[0].1;
    say(&app, &room.event, fan, "see you").await;
    encore::events::notices::end(&app.state, &room.event)
        .await
        .unwrap();
    let (_, page) = app.get(&chat(&room.event), Some(fan)).await;
    assert_eq!(
        page["payload"]["room"]["postingOpen"], true,
        "an hour after the end: {page}"
    );
    assert!(page["payload"]["room"]["postingUntil"].is_string());
    sqlx::query("UPDATE staff_activity SET at = at - $1 WHERE event_id = $2")
        .bind(2 * HOUR_MS)
        .bind(&room.event)
        .execute(app.db())
        .await
        .unwrap();
    let (status, body) = post(&app, &room.event, fan, json!({ "text": "too late" })).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    assert_eq!(
        texts(&app, &room.event, fan).await,
        ["see you"],
        "still read, with the replay"
    );
}

#[tokio::test]
async fn a_busy_room_reaches_a_socket_in_a_few_batched_frames_in_order() {
    let app = spawn_app().await;
    let room = a_room(&app, 1).await;
    let (mut fans, _) = following(&app, &room.fans[0].1, &room.event, None).await;
    // The artist is exempt from the limits: forty messages as fast as they go.
    for n in 0..40 {
        say(&app, &room.event, &room.artist, &format!("line {n}")).await;
    }
    let mut received = Vec::new();
    let mut frames = 0;
    while received.len() < 40 {
        frames += 1;
        for message in unbatched(next(&mut fans).await) {
            assert_eq!(message["type"], "chat_message", "{message}");
            received.push((
                message["offset"].as_u64().unwrap(),
                message["message"]["text"].clone(),
            ));
        }
    }
    let expected: Vec<(u64, Value)> = (0..40)
        .map(|n| (n + 1, json!(format!("line {n}"))))
        .collect();
    assert_eq!(
        received, expected,
        "every message, in order, offsets without a gap"
    );
    assert!(
        frames < 40,
        "gathered in batches: {frames} frames for 40 messages"
    );
}

#[tokio::test]
async fn a_refund_stops_the_fans_open_socket_following_the_room() {
    let app = spawn_app().await;
    let room = a_room(&app, 1).await;
    let fan = &room.fans[0].1;
    let (mut ws, subscribed) = following(&app, fan, &room.event, None).await;
    assert_eq!(subscribed["type"], "subscribed");
    let admin = app.an_admin().await;
    let (status, body) = app
        .post(
            &format!("/api/v1/orders/{}/refund", room.orders[0]),
            json!({ "reason": "asked" }),
            Some(&admin),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let refused = next_of(&mut ws, "error").await;
    assert_eq!(refused["code"], "forbidden", "{refused}");
    assert_eq!(refused["channel"], format!("chat:{}", room.event));
    say(&app, &room.event, &room.artist, "after the refund").await;
    let later = quiet(&mut ws, Duration::from_millis(600)).await;
    assert!(
        later
            .as_ref()
            .is_none_or(|m| m["type"] != "chat_message" && m["type"] != "batch"),
        "{later:?}"
    );
}
