//! The notifications people expect (issue 13): stored in the transaction of their cause,
//! in the recipient's language, with the page they open, then published on the bus
//! (`account:<id>`; staff activity on `staff`); the relay publishes what was left behind.

use std::time::Duration;

use encore::accounts::model::{AccountRow, Role};
use encore::bus::{Channel, Received, Subscription};
use encore::events::model::EventRow;
use encore::events::notices;
use encore::events::store as events;
use encore::notifications::model::Published;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{CARD_DECLINED, CARD_OK, HOUR_MS, TestApp, concert, spawn_app};

/// The next message on a subscription, as JSON (`type`, and the event's fields).
async fn next(subscription: &mut Subscription) -> Value {
    let received = tokio::time::timeout(Duration::from_secs(10), subscription.recv())
        .await
        .expect("a message within 10 s")
        .expect("the bus is there");
    let Received::Message(delivery) = received else {
        panic!("a message, not {received:?}")
    };
    serde_json::to_value(&delivery.event).unwrap()
}

// Concerts in these tests start an hour away, out of reach of the server's own
// 15-minute reminders (which would otherwise slip in between), except where listening
// needs the window open.

/// Nothing more arrives on a subscription for a moment.
async fn nothing_more(subscription: &mut Subscription) {
    let more = tokio::time::timeout(Duration::from_millis(300), subscription.recv()).await;
    assert!(more.is_err(), "unexpected {more:?}");
}

/// The next notification published for an account.
async fn next_notification(subscription: &mut Subscription) -> Value {
    let message = next(subscription).await;
    assert_eq!(message["type"], "notification", "{message}");
    message["notification"].clone()
}

fn follow(app: &TestApp, account: &AccountRow) -> Subscription {
    app.state
        .bus
        .subscribe(&Channel::Account(account.id.clone()))
}

async fn set_language(app: &TestApp, account: &AccountRow, code: &str) {
    sqlx::query("UPDATE accounts SET language = $1 WHERE id = $2")
        .bind(code)
        .bind(&account.id)
        .execute(app.db())
        .await
        .unwrap();
}

/// The stored notifications of an account, newest first, over HTTP.
async fn listed(app: &TestApp, account: &AccountRow) -> Vec<Value> {
    let token = app.session(account).await;
    let (status, page) = app.get("/api/v1/notifications", Some(&token)).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    page["payload"]["items"].as_array().unwrap().clone()
}

/// How many stored notifications are not published yet.
async fn unpublished(app: &TestApp) -> i64 {
    let (n,): (i64,) =
        // Not published: never claimed, or claimed (negative: the claim's end) and not done.
        sqlx::query_as(
            "SELECT COUNT(*) FROM notifications WHERE published_at IS NULL OR published_at < 0",
        )
            .fetch_one(app.db())
            .await
            .unwrap();
    n
}

/// Wait until every notification is marked published. Publishing comes before the mark
/// (a relay confirms once the bus took the message), so a subscriber can hold a
/// notification a moment before its row says so, whichever relay or writer sent it.
async fn all_marked_published(app: &TestApp) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
    loop {
        let left = unpublished(app).await;
        if left == 0 {
            return;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "{left} notification(s) still unpublished after 5 s"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// A member of the concert's project: its artist.
async fn artist_of(app: &TestApp, event: &str) -> AccountRow {
    let project = events::by_id(app.db(), event)
        .await
        .unwrap()
        .unwrap()
        .project_id;
    let artist = app.account("artist@example.com", Role::User).await;
    let change = encore::projects::store::add_member(app.db(), &project, &artist.id)
        .await
        .unwrap();
    app.state.publish(change);
    artist
}

/// A fan with a paid ticket to `event`: the fan.
async fn holder(app: &TestApp, event: &str) -> AccountRow {
    let (fan, token) = app.fans(1).await.pop().unwrap();
    assert_eq!(app.buy(&token, event, CARD_OK).await.0, StatusCode::OK);
    fan
}

/// The staff activity stored, oldest first, as the Live page reads it (`GET /live`).
async fn staff_feed(app: &TestApp) -> Vec<Value> {
    let reader = format!("reader-{}@example.com", uuid::Uuid::new_v4());
    let (_, admin) = app.signed_in(&reader, Role::Admin).await;
    let (status, live) = app.get("/api/v1/live", Some(&admin.access)).await;
    assert_eq!(status, StatusCode::OK, "{live}");
    live["payload"]["recentActivity"]
        .as_array()
        .unwrap()
        .clone()
}

/// Notification rows of every admin and super admin.
async fn staff_notifications(app: &TestApp) -> i64 {
    sqlx::query_scalar(
        "SELECT COUNT(*) FROM notifications n JOIN accounts a ON a.id = n.account_id \
         WHERE a.role IN ('admin', 'sa')",
    )
    .fetch_one(app.db())
    .await
    .unwrap()
}

#[tokio::test]
async fn a_sale_stores_and_publishes_the_buyers_and_the_artists_notifications_and_one_staff_line() {
    let app = spawn_app().await;
    let admin = app.account("admin@example.com", Role::Admin).await;
    let event = concert(&app, None, 2000, HOUR_MS).await;
    let artist = artist_of(&app, &event).await;
    let (fan, token) = app.fans(1).await.pop().unwrap();
    let (mut to_fan, mut to_artist, mut to_admin) = (
        follow(&app, &fan),
        follow(&app, &artist),
        follow(&app, &admin),
    );
    let (status, paid) = app.buy(&token, &event, CARD_OK).await;
    assert_eq!(status, StatusCode::OK, "{paid}");
    let order = paid["payload"]["order"].as_str().unwrap();

    let mine = next_notification(&mut to_fan).await;
    let total = encore::commerce::money::format(2000, "EUR");
    assert_eq!(mine["title"], "Order confirmed");
    assert_eq!(
        mine["body"],
        format!("You paid {total} for The Testers — Live at the Roundhouse.")
    );
    assert_eq!(mine["link"], format!("/receipts/{order}"));
    let sold = next_notification(&mut to_artist).await;
    assert_eq!(
        sold["title"],
        "Ticket sold: The Testers — Live at the Roundhouse"
    );
    assert_eq!(sold["body"], format!("A fan bought a ticket for {total}."));
    assert_eq!(sold["link"], "/manage-events");
    // The staff read the sale in their feed, stored once: no row of their own.
    nothing_more(&mut to_admin).await;
    assert_eq!(staff_notifications(&app).await, 0);
    let feed = staff_feed(&app).await;
    assert_eq!(feed.len(), 1, "{feed:?}");
    assert_eq!(feed[0]["kind"], "sale");
    // What was published is what is stored, and it is marked published.
    assert_eq!(listed(&app, &fan).await[0], mine);
    all_marked_published(&app).await;
}

#[tokio::test]
async fn a_sale_is_staff_activity_with_its_concert_and_amount() {
    let app = spawn_app().await;
    let event = concert(&app, None, 2000, HOUR_MS).await;
    let mut staff = app.state.bus.subscribe(&Channel::Staff);
    let (fan, token) = app.fans(1).await.pop().unwrap();
    assert_eq!(app.buy(&token, &event, CARD_OK).await.0, StatusCode::OK);
    let message = next(&mut staff).await;
    assert_eq!(message["type"], "activity");
    let activity = &message["activity"];
    assert_eq!(activity["kind"], "sale");
    assert_eq!(activity["eventId"], event.as_str());
    assert_eq!(activity["accountId"], fan.id.as_str());
    assert_eq!(activity["amount"], 2000);
    assert_eq!(activity["currency"], "EUR");
    // The page opened later reads the same line (one id) from the store.
    let feed = staff_feed(&app).await;
    assert_eq!(&feed[0], activity, "{feed:?}");
}

#[tokio::test]
async fn each_notification_is_written_in_its_recipients_saved_language() {
    let app = spawn_app().await;
    let spanish = app.account("admin@example.com", Role::Admin).await;
    let persian = app.account("sa@example.com", Role::Sa).await;
    set_language(&app, &spanish, "es").await;
    set_language(&app, &persian, "ir").await;
    let event = concert(&app, None, 2000, HOUR_MS).await;
    let (mut es, mut ir) = (follow(&app, &spanish), follow(&app, &persian));
    let (_, token) = app.fans(1).await.pop().unwrap();
    assert_eq!(
        app.buy(&token, &event, CARD_DECLINED).await.0,
        StatusCode::PAYMENT_REQUIRED
    );
    assert_eq!(next_notification(&mut es).await["title"], "Pago fallido");
    let note = next_notification(&mut ir).await;
    assert_eq!(note["title"], "پرداخت ناموفق بود");
    // In Persian digits, as the Persian text around them.
    assert!(
        note["body"].as_str().unwrap().contains("۲۰٫۰۰ EUR"),
        "{note}"
    );
}

/// Sign up at `path` (`accounts/signup`, or the OAuth `register`) from a page in Persian
/// (the web sends the page's language as Accept-Language), sign in, buy: what the account
/// says and the order's notification.
async fn signed_up_in_persian(path: &str, body: Value) -> (Value, Value) {
    let app = spawn_app().await;
    let event = concert(&app, None, 2000, HOUR_MS).await;
    let response = app
        .http
        .post(format!("{}{path}", app.url))
        .header("authorization", crate::helpers::basic_web())
        .header("accept-language", "fa-IR")
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::CREATED);
    let tokens = app.sign_in("pari@example.com").await;
    let (_, me) = app.me(&tokens.access).await;
    assert_eq!(
        app.buy(&tokens.access, &event, CARD_OK).await.0,
        StatusCode::OK
    );
    let (status, page) = app.get("/api/v1/notifications", Some(&tokens.access)).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    (
        me["payload"][0].clone(),
        page["payload"]["items"][0].clone(),
    )
}

#[tokio::test]
async fn a_visitor_who_signs_up_from_a_persian_page_reads_their_notifications_in_persian() {
    let body = json!({ "login": "pari@example.com", "password": crate::helpers::PASSWORD });
    let (me, note) = signed_up_in_persian("/api/v1/accounts/signup", body).await;
    assert_eq!(me["language"], "ir");
    assert_eq!(note["title"], "سفارش شما تأیید شد");
}

#[tokio::test]
async fn the_oauth_register_keeps_the_pages_language_too() {
    let body = json!({ "email": "pari@example.com", "password": crate::helpers::PASSWORD,
                       "code_verifier": crate::helpers::pkce().0, "client_id": crate::helpers::WEB,
                       "state": "reg-fa" });
    let (me, note) = signed_up_in_persian("/api/v1/oauth2/register", body).await;
    assert_eq!(me["language"], "ir");
    assert_eq!(note["title"], "سفارش شما تأیید شد");
}

#[tokio::test]
async fn a_sign_up_is_one_staff_line_whatever_the_number_of_staff() {
    let app = spawn_app().await;
    let mut admins = Vec::new();
    for i in 0..3 {
        admins.push(follow(
            &app,
            &app.account(&format!("admin{i}@example.com"), Role::Admin)
                .await,
        ));
    }
    let mut staff = app.state.bus.subscribe(&Channel::Staff);
    let body = json!({ "login": "joy@example.com", "password": crate::helpers::PASSWORD,
                       "person": { "firstName": "Joy", "lastName": "Division" } });
    let (status, created) = app.post("/api/v1/accounts/signup", body, None).await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let activity = next(&mut staff).await;
    assert_eq!(activity["activity"]["kind"], "signup");
    assert_eq!(activity["activity"]["accountName"], "Joy Division");
    // Stored once (not per admin), and no admin's own notifications hear of it.
    assert_eq!(
        app.count(
            "SELECT COUNT(*) FROM staff_activity WHERE kind = $1",
            "signup"
        )
        .await,
        1
    );
    assert_eq!(staff_notifications(&app).await, 0);
    for to_admin in &mut admins {
        nothing_more(to_admin).await;
    }
    assert_eq!(staff_feed(&app).await, [activity["activity"].clone()]);
}

#[tokio::test]
async fn a_declined_payment_tells_the_staff_why_and_is_activity() {
    let app = spawn_app().await;
    let admin = app.account("admin@example.com", Role::Admin).await;
    let event = concert(&app, None, 2000, HOUR_MS).await;
    let (_, token) = app.fans(1).await.pop().unwrap();
    let mut to_admin = follow(&app, &admin);
    let mut staff = app.state.bus.subscribe(&Channel::Staff);
    let (status, _) = app.buy(&token, &event, CARD_DECLINED).await;
    assert_eq!(status, StatusCode::PAYMENT_REQUIRED);
    let note = next_notification(&mut to_admin).await;
    assert_eq!(note["title"], "Payment failed");
    // Why, as the staff read it: not the card's message to the buyer ("Your card …").
    let body = note["body"].as_str().unwrap();
    assert!(body.ends_with(": the card was declined."), "{note}");
    assert!(!body.contains("Your card"), "{note}");
    assert_eq!(next(&mut staff).await["activity"]["kind"], "payment_failed");
}

#[tokio::test]
async fn a_refund_tells_the_buyer_and_is_staff_activity() {
    let app = spawn_app().await;
    let (admin, admin_token) = app.signed_in("admin@example.com", Role::Admin).await;
    let event = concert(&app, None, 2000, HOUR_MS).await;
    let (fan, token) = app.fans(1).await.pop().unwrap();
    let (_, paid) = app.buy(&token, &event, CARD_OK).await;
    let order = paid["payload"]["order"].as_str().unwrap();
    let (mut to_fan, mut to_admin) = (follow(&app, &fan), follow(&app, &admin));
    let mut staff = app.state.bus.subscribe(&Channel::Staff);
    let (status, body) = app
        .post(
            &format!("/api/v1/orders/{order}/refund"),
            json!({ "reason": "asked nicely" }),
            Some(&admin_token.access),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let total = encore::commerce::money::format(2000, "EUR");
    let refunded = next_notification(&mut to_fan).await;
    assert_eq!(refunded["title"], format!("You were refunded {total}"));
    assert_eq!(refunded["body"], "Reason: asked nicely");
    assert_eq!(refunded["link"], format!("/receipts/{order}"));
    let activity = next(&mut staff).await;
    assert_eq!(activity["activity"]["kind"], "refund");
    assert_eq!(activity["activity"]["amount"], 2000);
    // The admin who refunded reads it in the feed, not in a notification of their own.
    nothing_more(&mut to_admin).await;
    assert_eq!(staff_feed(&app).await.last(), Some(&activity["activity"]));
}

#[tokio::test]
async fn cancelling_a_concert_tells_its_holders_it_is_cancelled_and_refunded() {
    let app = spawn_app().await;
    let (_, admin_token) = app.signed_in("admin@example.com", Role::Admin).await;
    let event = concert(&app, None, 2000, HOUR_MS).await;
    let fan = holder(&app, &event).await;
    set_language(&app, &fan, "br").await;
    let mut to_fan = follow(&app, &fan);
    app.cancel_concert(&event, &admin_token.access).await;
    let note = next_notification(&mut to_fan).await;
    assert_eq!(note["title"], "Live at the Roundhouse foi cancelado");
    assert!(
        note["body"]
            .as_str()
            .unwrap()
            .starts_with("Seu ingresso foi reembolsado"),
        "{note}"
    );
    assert!(
        note["link"].as_str().unwrap().starts_with("/receipts/"),
        "{note}"
    );
}

#[tokio::test]
async fn holders_are_reminded_once_fifteen_minutes_before_the_start() {
    let app = spawn_app().await;
    let soon = concert(&app, None, 500, HOUR_MS).await;
    let later = concert(&app, None, 500, HOUR_MS).await;
    let fan = holder(&app, &soon).await;
    let other = holder(&app, &later).await;
    // Bought an hour ahead; now it is ten minutes away.
    sqlx::query("UPDATE events SET starts_at = $1 WHERE id = $2")
        .bind(encore::db::now_ms() + 10 * 60_000)
        .bind(&soon)
        .execute(app.db())
        .await
        .unwrap();
    // Twice, as two instances would (the server's housekeeping may run it too).
    for _ in 0..2 {
        notices::remind_starting_soon(&app.state).await.unwrap();
    }
    let reminders = |notes: Vec<Value>| -> Vec<Value> {
        notes
            .into_iter()
            .filter(|n| {
                n["title"]
                    .as_str()
                    .unwrap()
                    .ends_with("starts in 15 minutes")
            })
            .collect()
    };
    let mine = reminders(listed(&app, &fan).await);
    assert_eq!(mine.len(), 1, "once per concert: {mine:?}");
    assert_eq!(
        mine[0]["title"],
        "Live at the Roundhouse starts in 15 minutes"
    );
    assert_eq!(mine[0]["link"], format!("/stage/{soon}"));
    assert!(
        reminders(listed(&app, &other).await).is_empty(),
        "an hour away: not yet"
    );
    all_marked_published(&app).await;
}

#[tokio::test]
async fn a_publisher_connecting_tells_holders_once_and_the_staff_once_per_change_on_air() {
    let app = spawn_app().await;
    let admin = app.account("admin@example.com", Role::Admin).await;
    let event = concert(&app, None, 500, HOUR_MS).await;
    let fan = holder(&app, &event).await;
    mark_live(&app, &event).await;
    let row = events::by_id(app.db(), &event).await.unwrap().unwrap();
    let (mut to_fan, mut to_admin) = (follow(&app, &fan), follow(&app, &admin));
    let mut staff = app.state.bus.subscribe(&Channel::Staff);
    notices::went_live(&app.state, &row).await.unwrap();
    notices::went_live(&app.state, &row).await.unwrap();
    let live = next_notification(&mut to_fan).await;
    assert_eq!(live["title"], "Live at the Roundhouse is live now");
    assert_eq!(live["link"], format!("/stage/{event}"));
    nothing_more(&mut to_fan).await;
    // On air twice in a row is one piece of news for the staff.
    assert_eq!(next(&mut staff).await["activity"]["kind"], "show_live");
    nothing_more(&mut staff).await;
    // Off air, then on air again: each is news once.
    notices::dropped(&app.state, &event).await.unwrap();
    notices::dropped(&app.state, &event).await.unwrap();
    notices::went_live(&app.state, &row).await.unwrap();
    let kinds = [
        next(&mut staff).await["activity"]["kind"].clone(),
        next(&mut staff).await["activity"]["kind"].clone(),
    ];
    assert_eq!(kinds, ["show_dropped", "show_live"]);
    nothing_more(&mut staff).await;
    let stored: Vec<Value> = staff_feed(&app)
        .await
        .iter()
        .map(|a| a["kind"].clone())
        .collect();
    // The holder's ticket, then each change on air once.
    assert_eq!(stored, ["sale", "show_live", "show_dropped", "show_live"]);
    // Shows are the staff's feed, not their notifications.
    nothing_more(&mut to_admin).await;
    nothing_more(&mut to_fan).await;
}

/// `notice` says, in Persian, that `event` is live now, naming it and its artist.
fn is_live_now_in_persian(notice: &Value, event: &EventRow) {
    let details = &event.details;
    assert_eq!(
        notice["title"],
        format!("پخش زندهٔ {} شروع شد", details.title)
    );
    assert_eq!(
        notice["body"],
        format!("{} روی صحنه است؛ همین حالا گوش کنید.", details.artist_name)
    );
}

#[tokio::test]
async fn a_persian_holder_is_told_live_now_in_persian_naming_the_concert_and_artist() {
    let app = spawn_app().await;
    let event = concert(&app, None, 500, HOUR_MS).await;
    let fan = holder(&app, &event).await;
    set_language(&app, &fan, "ir").await;
    let row = events::by_id(app.db(), &event).await.unwrap().unwrap();
    let mut to_fan = follow(&app, &fan);
    notices::went_live(&app.state, &row).await.unwrap();
    let live = next_notification(&mut to_fan).await;
    is_live_now_in_persian(&live, &row);
    assert_eq!(live["link"], format!("/stage/{event}"));
}

/// The notifications of an account as a page in `language` (Accept-Language) lists them.
async fn listed_in(app: &TestApp, account: &AccountRow, language: &str) -> Vec<Value> {
    let token = app.session(account).await;
    let (status, page) = app
        .send(
            app.http
                .get(format!("{}/api/v1/notifications", app.url))
                .bearer_auth(&token)
                .header("Accept-Language", language),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{page}");
    page["payload"]["items"].as_array().unwrap().clone()
}

#[tokio::test]
async fn a_notice_reads_in_the_language_of_the_page_that_lists_it_not_the_one_it_was_written_in() {
    let app = spawn_app().await;
    let event = concert(&app, None, 500, HOUR_MS).await;
    let fan = holder(&app, &event).await;
    let row = events::by_id(app.db(), &event).await.unwrap().unwrap();
    let mut to_fan = follow(&app, &fan);
    notices::went_live(&app.state, &row).await.unwrap();
    // Pushed as written for the account's language then (English)...
    let pushed = next_notification(&mut to_fan).await;
    assert_eq!(
        pushed["title"],
        format!("{} is live now", row.details.title)
    );
    // ...and read in Persian once its reader reads Persian, the concert's name as it is.
    set_language(&app, &fan, "ir").await;
    let persian = listed_in(&app, &fan, "fa-IR").await;
    let live = persian.iter().find(|n| n["id"] == pushed["id"]).unwrap();
    is_live_now_in_persian(live, &row);
    // The same line, one id, in the language of the page (Spanish here).
    let spanish = listed_in(&app, &fan, "es").await;
    let live = spanish.iter().find(|n| n["id"] == pushed["id"]).unwrap();
    assert_ne!(live["title"], pushed["title"]);
    assert!(
        live["title"].as_str().unwrap().contains(&row.details.title),
        "{live}"
    );
    // Marking it read answers in the page's language too.
    let token = app.session(&fan).await;
    let id = pushed["id"].as_str().unwrap();
    let (status, read) = app
        .send(
            app.http
                .post(format!("{}/api/v1/notifications/{id}/read", app.url))
                .bearer_auth(&token)
                .header("Accept-Language", "fa"),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{read}");
    assert_eq!(
        read["payload"]["title"],
        format!("پخش زندهٔ {} شروع شد", row.details.title)
    );

    // One stored before its texts were kept, or naming a message this version does not
    // have, reads as it was written.
    sqlx::query("UPDATE notifications SET texts = $1 WHERE id = $2")
        .bind(r#"{"title":{"msg":"NoSuchMessage"},"body":{"msg":"NoSuchMessage"}}"#)
        .bind(id)
        .execute(app.db())
        .await
        .unwrap();
    let kept = listed_in(&app, &fan, "fa-IR").await;
    let live = kept.iter().find(|n| n["id"] == pushed["id"]).unwrap();
    assert_eq!(live["title"], pushed["title"]);
    assert_eq!(live["body"], pushed["body"]);
}

#[tokio::test]
async fn an_encoder_connecting_over_http_makes_the_show_live_for_its_holders() {
    let app = spawn_app().await;
    let event = concert(&app, None, 500, HOUR_MS).await;
    let key = crate::live::stream_key(&app, &event).await;
    let fan = holder(&app, &event).await;
    let mut to_fan = follow(&app, &fan);
    let media = tempfile::tempdir().unwrap();
    let file = crate::live::adts_file(media.path(), 1);
    crate::live::push_file(&app, &event, &key, &file).await;
    let live = next_notification(&mut to_fan).await;
    assert_eq!(live["title"], "Live at the Roundhouse is live now");
}

#[tokio::test]
async fn a_show_losing_its_encoder_is_staff_activity() {
    let app = spawn_app().await;
    let admin = app.account("admin@example.com", Role::Admin).await;
    let event = concert(&app, None, 500, HOUR_MS).await;
    mark_live(&app, &event).await;
    let row = events::by_id(app.db(), &event).await.unwrap().unwrap();
    notices::went_live(&app.state, &row).await.unwrap();
    let mut to_admin = follow(&app, &admin);
    let mut staff = app.state.bus.subscribe(&Channel::Staff);
    notices::dropped(&app.state, &event).await.unwrap();
    let dropped = next(&mut staff).await;
    assert_eq!(dropped["activity"]["kind"], "show_dropped");
    assert_eq!(dropped["activity"]["eventTitle"], "Live at the Roundhouse");
    nothing_more(&mut to_admin).await;
}

#[tokio::test]
async fn a_publisher_leaving_a_show_that_is_not_live_tells_nobody() {
    let app = spawn_app().await;
    let admin = app.account("admin@example.com", Role::Admin).await;
    let event = concert(&app, None, 500, HOUR_MS).await;
    let mut to_admin = follow(&app, &admin);
    notices::dropped(&app.state, &event).await.unwrap();
    nothing_more(&mut to_admin).await;
}

async fn mark_live(app: &TestApp, event: &str) {
    use encore::events::model::EventStatus;
    assert!(
        events::set_status(
            app.db(),
            event,
            &[EventStatus::Published],
            EventStatus::Live
        )
        .await
        .unwrap()
    );
}

#[tokio::test]
async fn ending_a_live_show_tells_its_holders_until_when_the_replay_is_theirs() {
    let app = spawn_app().await;
    let (_, admin_token) = app.signed_in("admin@example.com", Role::Admin).await;
    let event = concert(&app, None, 500, HOUR_MS).await;
    let fan = holder(&app, &event).await;
    mark_live(&app, &event).await;
    let mut to_fan = follow(&app, &fan);
    let mut staff = app.state.bus.subscribe(&Channel::Staff);
    app.end_show(&event, &admin_token.access).await;
    let row = events::by_id(app.db(), &event).await.unwrap().unwrap();
    let until = encore::db::iso8601(row.access_until());
    let note = next_notification(&mut to_fan).await;
    assert_eq!(note["title"], "Live at the Roundhouse has ended");
    assert_eq!(
        note["body"],
        format!(
            "You can listen to the replay until {} {} (UTC).",
            &until[..10],
            &until[11..16]
        )
    );
    assert_eq!(next(&mut staff).await["activity"]["kind"], "show_ended");
}

#[tokio::test]
async fn the_first_listener_tells_the_artist_once() {
    let app = spawn_app().await;
    let event = concert(&app, None, 500, 5 * 60_000).await;
    let artist = artist_of(&app, &event).await;
    let mut to_artist = follow(&app, &artist);
    let fans = app.fans(2).await;
    for (_, token) in &fans {
        assert_eq!(app.buy(token, &event, CARD_OK).await.0, StatusCode::OK);
        assert_eq!(
            next_notification(&mut to_artist).await["link"],
            "/manage-events"
        );
    }
    for (_, token) in &fans {
        app.listen(&event, token).await;
    }
    let first = next_notification(&mut to_artist).await;
    assert_eq!(
        first["title"],
        "Live at the Roundhouse: your first listener"
    );
    assert_eq!(first["link"], "/manage-events");
    nothing_more(&mut to_artist).await;
}

/// A notification stored as a crash would leave it: unpublished, `age_ms` old.
async fn left_unpublished(app: &TestApp, account: &AccountRow, age_ms: i64) -> String {
    left_behind(app, account, age_ms, None).await
}

/// A notification stored `age_ms` ago, unpublished, or claimed by a relay until `claim`
/// (`published_at = -until`) in the same insert: the server's own relay, which runs
/// beside the test, never sees it unclaimed.
async fn left_behind(
    app: &TestApp,
    account: &AccountRow,
    age_ms: i64,
    claim: Option<i64>,
) -> String {
    let id = uuid::Uuid::new_v4().to_string();
    sqlx::query(
        "INSERT INTO notifications (id, account_id, kind, title, body, link, created_at, \
         published_at) VALUES ($1, $2, 'topic', 'Left behind', 'by a crash', '/my-events', $3, $4)",
    )
    .bind(&id)
    .bind(&account.id)
    .bind(encore::db::now_ms() - age_ms)
    .bind(claim.map(|until| -until))
    .execute(app.db())
    .await
    .unwrap();
    id
}

#[tokio::test]
async fn the_relay_publishes_a_notification_left_unpublished_and_marks_it() {
    let app = spawn_app().await;
    let fan = app.account("fan@example.com", Role::User).await;
    let mut to_fan = follow(&app, &fan);
    let id = left_unpublished(&app, &fan, 60_000).await;
    // (The server's own relay may get there first: either way it is published once.)
    encore::notifications::relay(&app.state.db, &app.state.bus)
        .await
        .unwrap();
    let note = next_notification(&mut to_fan).await;
    assert_eq!(note["id"], id.as_str());
    assert_eq!(note["title"], "Left behind");
    all_marked_published(&app).await;
    nothing_more(&mut to_fan).await;
}

#[tokio::test]
async fn a_claim_whose_relay_died_runs_out_and_the_next_relay_publishes_it() {
    let app = spawn_app().await;
    let fan = app.account("fan@example.com", Role::User).await;
    let mut to_fan = follow(&app, &fan);
    let id = left_behind(&app, &fan, 60_000, Some(encore::db::now_ms() - 1)).await;
    // (The server's own relay may get there first: either way it is published once.)
    encore::notifications::relay(&app.state.db, &app.state.bus)
        .await
        .unwrap();
    let note = next_notification(&mut to_fan).await;
    assert_eq!(note["id"], id.as_str());
    all_marked_published(&app).await;
    nothing_more(&mut to_fan).await;
}

#[tokio::test]
async fn a_claim_still_running_is_left_to_its_relay() {
    let app = spawn_app().await;
    let fan = app.account("fan@example.com", Role::User).await;
    let mut to_fan = follow(&app, &fan);
    let until = encore::db::now_ms() + encore::notifications::CLAIM_LEASE_MS;
    left_behind(&app, &fan, 60_000, Some(until)).await;
    let relayed = encore::notifications::relay(&app.state.db, &app.state.bus)
        .await
        .unwrap();
    assert_eq!(relayed, 0);
    assert_eq!(unpublished(&app).await, 1);
    nothing_more(&mut to_fan).await;
}

#[tokio::test]
async fn the_relay_leaves_a_fresh_notification_to_its_writer() {
    let app = spawn_app().await;
    let fan = app.account("fan@example.com", Role::User).await;
    left_unpublished(&app, &fan, 0).await;
    let relayed = encore::notifications::relay(&app.state.db, &app.state.bus)
        .await
        .unwrap();
    assert_eq!(relayed, 0);
    assert_eq!(unpublished(&app).await, 1);
}

#[tokio::test]
async fn two_relays_racing_publish_a_notification_once() {
    let app = spawn_app().await;
    let other = app.beside().await;
    let fan = app.account("fan@example.com", Role::User).await;
    // Two instances, each with its own in-process bus: whatever either publishes is
    // seen on exactly one of them (their own relay tasks may join the race too).
    let (mut here, mut there) = (follow(&app, &fan), follow(&other, &fan));
    for _ in 0..20 {
        left_unpublished(&app, &fan, 60_000).await;
    }
    let (a, b) = tokio::join!(
        encore::notifications::relay(&app.state.db, &app.state.bus),
        encore::notifications::relay(&other.state.db, &other.state.bus),
    );
    assert!(a.unwrap() + b.unwrap() <= 20);
    let mut ids = std::collections::BTreeSet::new();
    for subscription in [&mut here, &mut there] {
        while let Ok(Some(Received::Message(delivery))) =
            tokio::time::timeout(Duration::from_millis(300), subscription.recv()).await
        {
            let Some(Published { notification }) = delivery.event.read() else {
                panic!("a notification")
            };
            assert!(ids.insert(notification.id().to_owned()), "published twice");
        }
    }
    assert_eq!(ids.len(), 20);
    all_marked_published(&app).await;
}
