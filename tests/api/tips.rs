//! Tips during the show (issue 31): a holder tips the artist through the payment provider;
//! paid, the tip is said in the room (a `chat_message` of kind `tip`) and on the artist's
//! live panel (`tip_paid`), on every instance; refused without a ticket, outside the
//! listening window, below the minimum, for a cancelled concert.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::chat::{Room, a_room, chat, following, following_at, next_of, the_artists_panel};
use crate::cluster::two_processes_beside_with;
use crate::helpers::{
    CARD_DECLINED, CARD_OK, HOUR_MS, Options, TestApp, concert, spawn_app, spawn_app_on_redis,
};

fn tips(event: &str) -> String {
    format!("/api/v1/events/{event}/tips")
}

/// `token` tips `amount` (minor units) with `message` to `event`: the status and body.
async fn tip(
    app: &TestApp,
    event: &str,
    token: &str,
    amount: i64,
    message: &str,
) -> (StatusCode, Value) {
    app.post(
        &tips(event),
        json!({ "amount": amount, "message": message }),
        Some(token),
    )
    .await
}

/// `token` tips and pays with the test card: the payment's answer.
async fn tip_and_pay(app: &TestApp, event: &str, token: &str, amount: i64, message: &str) -> Value {
    let (status, body) = tip(app, event, token, amount, message).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let url = body["payload"].as_str().unwrap();
    assert!(url.contains("/pay/"), "the test checkout: {url}");
    let (status, paid) = app.pay(url, CARD_OK).await;
    assert_eq!(status, StatusCode::OK, "{paid}");
    paid["payload"].clone()
}

/// The room's tip messages as stored: (amount, currency, text).
async fn tips_said(app: &TestApp, event: &str) -> Vec<(i64, String, String)> {
    sqlx::query_as(
        "SELECT tip_minor, tip_currency, body FROM chat_messages \
         WHERE event_id = $1 AND tip_minor IS NOT NULL ORDER BY created_at",
    )
    .bind(event)
    .fetch_all(app.db())
    .await
    .unwrap()
}

#[tokio::test]
async fn a_holder_tips_during_the_show_and_the_room_and_the_artists_panel_hear_it() {
    let app = spawn_app().await;
    let room = a_room(&app, 2).await;
    let (ann, bob) = (&room.fans[0].1, &room.fans[1].1);
    let mut panel = the_artists_panel(&app, &room).await;
    let (mut bobs, _) = following(&app, bob, &room.event, None).await;

    // The form's presets and limits, in the concert's currency.
    let (status, options) = app
        .get(&format!("{}/options", tips(&room.event)), Some(ann))
        .await;
    assert_eq!(status, StatusCode::OK, "{options}");
    assert_eq!(
        options["payload"],
        json!({ "enabled": true, "currency": "EUR", "presets": [200, 500, 1000, 2000],
                "minimum": 100, "maximum": 100_000, "maxMessageChars": 140 })
    );

    let paid = tip_and_pay(&app, &room.event, ann, 750, "  What a night!\n").await;
    let order = paid["order"].as_str().unwrap();
    assert_eq!(
        paid["redirect"],
        format!("/stage/{}?tipped={order}", room.event),
        "the tipper goes back to the room"
    );

    // The artist's panel hears who, how much and what they wrote.
    let heard = next_of(&mut panel, "tip_paid").await;
    let author = format!("Fan {}.", &room.fans[0].0.last_name[..1]);
    assert_eq!(heard["tip"]["id"], order);
    assert_eq!(heard["tip"]["author"], author.as_str());
    assert_eq!(heard["tip"]["amount"], 750);
    assert_eq!(heard["tip"]["currency"], "EUR");
    assert_eq!(heard["tip"]["message"], "What a night!");
    // Another listener's room shows it as a tip.
    let said = next_of(&mut bobs, "chat_message").await;
    assert_eq!(said["message"]["kind"], "tip", "{said}");
    assert_eq!(
        said["message"]["tip"],
        json!({ "amount": 750, "currency": "EUR" })
    );
    assert_eq!(said["message"]["text"], "What a night!");
    assert_eq!(said["message"]["author"], author.as_str());
    // …and its page keeps it for whoever comes later, an ordinary message being `message`.
    let (status, page) = app.get(&chat(&room.event), Some(bob)).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert_eq!(page["payload"]["messages"][0]["kind"], "tip");

    // The panel's list and total; the order is the tip's, with no ticket in it.
    let (status, list) = app.get(&tips(&room.event), Some(&room.artist)).await;
    assert_eq!(status, StatusCode::OK, "{list}");
    assert_eq!(list["payload"]["tips"][0]["amount"], 750);
    assert_eq!(
        list["payload"]["totals"],
        json!([{ "currency": "EUR", "amount": 750, "count": 1 }])
    );
    let (status, mine) = app.get(&format!("/api/v1/orders/{order}"), Some(ann)).await;
    assert_eq!(status, StatusCode::OK, "{mine}");
    assert_eq!(mine["payload"]["status"], "fulfilled");
    assert_eq!(mine["payload"]["total"], 750);
    assert_eq!(mine["payload"]["items"], json!([]));
    // A fan does not read the artist's list.
    let (status, _) = app.get(&tips(&room.event), Some(bob)).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn a_paid_tip_tells_its_tipper_what_it_was_in_their_orders_a_notification_and_an_email() {
    let app = spawn_app().await;
    let room = a_room(&app, 1).await;
    let (fan, ann) = &room.fans[0];
    let paid = tip_and_pay(&app, &room.event, ann, 500, "").await;
    let order = paid["order"].as_str().unwrap();

    // The order and the list of the tipper's orders name the concert and its artist; a
    // ticket's order has no tip.
    let tip = json!({ "eventId": room.event, "title": "Live at the Roundhouse",
                      "artistName": "The Testers" });
    let (status, one) = app.get(&format!("/api/v1/orders/{order}"), Some(ann)).await;
    assert_eq!(status, StatusCode::OK, "{one}");
    assert_eq!(one["payload"]["tip"], tip);
    let (status, mine) = app.get("/api/v1/purchases/my/", Some(ann)).await;
    assert_eq!(status, StatusCode::OK, "{mine}");
    let listed = |id: &str| {
        mine["payload"]["items"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["id"] == id)
            .cloned()
            .unwrap_or_else(|| panic!("{id} is not listed: {mine}"))
    };
    assert_eq!(listed(order)["tip"], tip);
    assert_eq!(listed(&room.orders[0])["tip"], Value::Null);

    // A notification opening its receipt, and the receipt by e-mail, say what it was.
    let total = encore::commerce::money::format(500, "EUR");
    let (status, notes) = app.get("/api/v1/notifications", Some(ann)).await;
    assert_eq!(status, StatusCode::OK, "{notes}");
    let thanks = notes["payload"]["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["link"] == format!("/receipts/{order}"))
        .cloned()
        .unwrap_or_else(|| panic!("no notification of the tip: {notes}"));
    assert_eq!(thanks["title"], "Thank you for your tip");
    assert_eq!(
        thanks["body"],
        format!("You paid {total} for Tip to The Testers for Live at the Roundhouse.")
    );
    let mail = app.outbox_message(&fan.login, "email").await;
    assert_eq!(mail["subject"], "Your Encore tip");
    let body = mail["body"].as_str().unwrap();
    assert!(
        body.contains(&format!(
            "Tip to The Testers for Live at the Roundhouse — {total}"
        )),
        "{body}"
    );
    assert!(body.contains(&format!("/receipts/{order}")), "{body}");

    // Staff's orders CSV says what the tip was in its items cell (it has no lines), in the
    // reader's language.
    let admin = app.an_admin().await;
    for (lang, said) in [
        ("en-GB", "Tip to The Testers for Live at the Roundhouse"),
        ("fa-IR", "انعام به The Testers برای Live at the Roundhouse"),
    ] {
        let csv = app
            .http
            .get(format!("{}/api/v1/orders/export.csv", app.url))
            .bearer_auth(&admin)
            .header("accept-language", lang)
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        let row = csv
            .lines()
            .find(|row| row.starts_with(order))
            .unwrap_or_else(|| panic!("no row for the tip: {csv}"));
        let cells: Vec<&str> = row.split(',').collect();
        assert_eq!(cells[6], said, "{row}");
    }
}

#[tokio::test]
async fn a_tip_is_refused_without_a_ticket_outside_the_window_below_the_minimum_and_when_cancelled()
{
    let app = spawn_app().await;
    let room = a_room(&app, 2).await;
    let ann = &room.fans[0].1;
    let refused = |(status, body): (StatusCode, Value), expected: StatusCode, text: &str| {
        assert_eq!(status, expected, "{body}");
        let message = body["error"].as_str().unwrap_or_default();
        assert!(message.contains(text), "{text:?} in {body}");
    };

    // No ticket.
    let (_, outsider) = app.fans(1).await.pop().unwrap();
    refused(
        tip(&app, &room.event, &outsider, 500, "").await,
        StatusCode::FORBIDDEN,
        "You need a ticket",
    );
    // Below the minimum, above the maximum, a message too long.
    refused(
        tip(&app, &room.event, ann, 99, "").await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "A tip is at least 1.00 EUR",
    );
    refused(
        tip(&app, &room.event, ann, 100_001, "").await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "at most 1000.00 EUR",
    );
    refused(
        tip(&app, &room.event, ann, 500, &"x".repeat(141)).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "at most 140 characters",
    );
    // In the reader's language.
    let body = tip_refused_in_persian(&app, &room.event, ann, 50).await;
    assert!(
        body["error"].as_str().unwrap().contains("انعام دست‌کم"),
        "{body}"
    );

    // Outside the window: listening has not opened yet (the start is two hours away).
    let later = concert(&app, None, 500, 2 * HOUR_MS).await;
    let (status, body) = app.buy(ann, &later, CARD_OK).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    refused(
        tip(&app, &later, ann, 500, "").await,
        StatusCode::FORBIDDEN,
        "Listening opens",
    );
    // …or has closed (the start was more than 24 hours ago).
    sqlx::query("UPDATE events SET starts_at = $1 WHERE id = $2")
        .bind(encore::db::now_ms() - 25 * HOUR_MS)
        .bind(&later)
        .execute(app.db())
        .await
        .unwrap();
    refused(
        tip(&app, &later, ann, 500, "").await,
        StatusCode::FORBIDDEN,
        "has closed",
    );

    // A cancelled concert.
    app.cancel_concert(&room.event, &app.an_admin().await).await;
    refused(
        tip(&app, &room.event, &room.fans[1].1, 500, "").await,
        StatusCode::FORBIDDEN,
        "was cancelled",
    );
    assert_eq!(
        app.count(
            "SELECT COUNT(*) FROM tips WHERE account_id = $1",
            &room.fans[1].0.id
        )
        .await,
        0
    );
}

#[tokio::test]
async fn a_tip_whose_concert_was_cancelled_before_it_was_paid_is_not_kept_nor_said() {
    let app = spawn_app().await;
    let room = a_room(&app, 1).await;
    let (status, body) = tip(&app, &room.event, &room.fans[0].1, 500, "bravo").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let url = body["payload"].as_str().unwrap().to_owned();
    app.cancel_concert(&room.event, &app.an_admin().await).await;
    let (status, body) = app.pay(&url, CARD_OK).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert!(tips_said(&app, &room.event).await.is_empty());
}

#[tokio::test]
async fn a_declined_card_says_nothing_and_the_tip_is_paid_with_the_next() {
    let app = spawn_app().await;
    let room = a_room(&app, 1).await;
    let (status, body) = tip(&app, &room.event, &room.fans[0].1, 1000, "").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let url = body["payload"].as_str().unwrap().to_owned();
    let (status, _) = app.pay(&url, CARD_DECLINED).await;
    assert_eq!(status, StatusCode::PAYMENT_REQUIRED);
    assert!(tips_said(&app, &room.event).await.is_empty());
    let (status, body) = app.pay(&url, CARD_OK).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(
        tips_said(&app, &room.event).await,
        [(1000, "EUR".to_owned(), String::new())]
    );
}

/// Two cards paying one tip at once: it is paid once, said once.
#[tokio::test]
async fn one_tip_paid_by_two_cards_at_once_is_charged_and_said_once() {
    let app = spawn_app().await;
    let room = a_room(&app, 1).await;
    let (status, body) = tip(&app, &room.event, &room.fans[0].1, 300, "twice?").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let url = body["payload"].as_str().unwrap().to_owned();
    let (first, second) = tokio::join!(app.pay(&url, CARD_OK), app.pay(&url, CARD_OK));
    let mut statuses = [first.0, second.0];
    statuses.sort();
    assert_eq!(
        statuses,
        [StatusCode::OK, StatusCode::CONFLICT],
        "{first:?} {second:?}"
    );
    assert_eq!(tips_said(&app, &room.event).await.len(), 1);
    let (_, list) = app.get(&tips(&room.event), Some(&room.artist)).await;
    assert_eq!(list["payload"]["totals"][0]["amount"], 300);
}

#[tokio::test]
async fn a_refunded_tip_leaves_the_artists_list_and_its_total() {
    let app = spawn_app().await;
    let room = a_room(&app, 1).await;
    let ann = &room.fans[0].1;
    let kept = tip_and_pay(&app, &room.event, ann, 500, "one").await;
    let given_back = tip_and_pay(&app, &room.event, ann, 200, "two").await;
    let admin = app.an_admin().await;
    let (status, body) = app
        .refund(given_back["order"].as_str().unwrap(), &admin)
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (_, list) = app.get(&tips(&room.event), Some(&room.artist)).await;
    let listed: Vec<&str> = list["payload"]["tips"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_str().unwrap())
        .collect();
    assert_eq!(listed, [kept["order"].as_str().unwrap()]);
    assert_eq!(
        list["payload"]["totals"],
        json!([{ "currency": "EUR", "amount": 500, "count": 1 }])
    );
    // The ticket holder still listens: giving back a tip takes no access.
    let (status, body) = app.get(&chat(&room.event), Some(ann)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
}

/// A tip paid through one `encore serve` process reaches a listener following the room on
/// the other, and the artist's panel there.
#[tokio::test]
async fn a_tip_paid_through_one_encore_serve_process_reaches_a_listener_on_the_other() {
    let app = spawn_app_on_redis(Options::default()).await;
    let room: Room = a_room(&app, 2).await;
    let (ann, bob) = (&room.fans[0].1, &room.fans[1].1);
    let [(_one, p), (_two, q)] =
        two_processes_beside_with(&app, &[("ENCORE_PAYMENTS", "test")]).await;
    let (mut on_q, subscribed) = following_at(&q.url, bob, &room.event, None).await;
    assert_eq!(subscribed["type"], "subscribed", "{subscribed}");
    let (mut panel_on_q, _) = crate::ws::signed_in_at(&q.url, &room.artist, json!({})).await;
    crate::ws::send(
        &mut panel_on_q,
        json!({ "type": "subscribe", "channel": format!("event:{}", room.event) }),
    )
    .await;
    assert_eq!(crate::ws::next(&mut panel_on_q).await["type"], "subscribed");

    // Tipped and paid through P.
    let started = app
        .http
        .post(format!("{}{}", p.url, tips(&room.event)))
        .bearer_auth(ann)
        .json(&json!({ "amount": 2000, "message": "from P" }))
        .send()
        .await
        .unwrap();
    assert_eq!(started.status(), StatusCode::OK);
    let url = started.json::<Value>().await.unwrap()["payload"]
        .as_str()
        .unwrap()
        .to_owned();
    let (path, query) = url.split_once("?token=").unwrap();
    let order = path.rsplit('/').next().unwrap();
    let token = query.split('&').next().unwrap();
    let paid = app
        .http
        .post(format!("{}/api/v1/payments/test/{order}", p.url))
        .json(&json!({ "token": token, "cardNumber": CARD_OK, "expiry": "12/40", "cvc": "123" }))
        .send()
        .await
        .unwrap();
    assert_eq!(paid.status(), StatusCode::OK);

    let said = next_of(&mut on_q, "chat_message").await;
    assert_eq!(said["message"]["kind"], "tip", "{said}");
    assert_eq!(said["message"]["tip"]["amount"], 2000);
    assert_eq!(said["message"]["text"], "from P");
    let heard = next_of(&mut panel_on_q, "tip_paid").await;
    assert_eq!(heard["tip"]["id"], order);
}

/// Through Stripe Checkout: the tip's session names it and its amount; Stripe's signed
/// confirmation pays it, and the room hears it once however often Stripe delivers it.
#[tokio::test]
async fn a_tip_through_stripe_checkout_is_paid_by_its_webhook_and_said_once() {
    use crate::concurrency::{WHSEC, stripe_order, webhook};
    let stripe = crate::helpers::StripeDouble::start().await;
    let app = crate::helpers::spawn_app_with(Options {
        stripe_webhook_secret: Some(WHSEC),
        stripe_api: Some(stripe.url),
        ..Options::default()
    })
    .await;
    let event = concert(&app, None, 1000, 5 * 60_000).await;
    // A ticket bought through Stripe.
    let (ticket, _) = stripe_order(&app, &event).await;
    let deliver = async |body: Value| {
        let now = encore::db::now_ms() / 1000;
        let signature =
            encore::commerce::providers::sign(WHSEC, &serde_json::to_vec(&body).unwrap(), now);
        let (status, answer) = webhook(&app, &body, &signature).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
    };
    deliver(crate::concurrency::completed("evt_ticket", &ticket)).await;
    let (fan_id,): (String,) = sqlx::query_as("SELECT account_id FROM orders WHERE id = $1")
        .bind(&ticket)
        .fetch_one(app.db())
        .await
        .unwrap();
    let fan = encore::accounts::store::by_id(app.db(), &fan_id)
        .await
        .unwrap()
        .unwrap();
    let token = app.session(&fan).await;

    let (status, body) = tip(&app, &event, &token, 700, "via Stripe").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let sessions = stripe.calls_to("/v1/checkout/sessions");
    let made = sessions.last().unwrap();
    assert!(
        made.contains("unit_amount%5D=700") || made.contains("unit_amount]=700"),
        "{made}"
    );
    assert!(made.contains("tip"), "the line names the tip: {made}");
    let (order, session): (String, String) = sqlx::query_as(
        "SELECT o.id, o.provider_ref FROM orders o JOIN tips t ON t.order_id = o.id \
         WHERE t.event_id = $1",
    )
    .bind(&event)
    .fetch_one(app.db())
    .await
    .unwrap();
    let paid = |id: &str| {
        json!({ "id": id, "type": "checkout.session.completed",
                "data": { "object": { "id": session, "client_reference_id": order,
                                      "payment_status": "paid", "payment_intent": format!("pi_{order}"),
                                      "amount_total": 700, "currency": "eur" } } })
    };
    deliver(paid("evt_tip")).await;
    deliver(paid("evt_tip_again")).await;
    assert_eq!(
        tips_said(&app, &event).await,
        [(700, "EUR".to_owned(), "via Stripe".to_owned())]
    );
    assert!(
        stripe.calls_to("/v1/refunds").is_empty(),
        "nothing given back"
    );
}

/// A concert cancelled while it is live gives back the tips given for it too: each tip's
/// order is refunded whole, its refund names the concert, the tipper is told why in their
/// language, and the artist's list and total empty. The ticket is refunded as before.
#[tokio::test]
async fn cancelling_a_live_concert_gives_back_its_tips() {
    let app = spawn_app().await;
    let room = a_room(&app, 1).await;
    let (ann, ann_token) = (&room.fans[0].0, &room.fans[0].1);
    let first = tip_and_pay(&app, &room.event, ann_token, 500, "one").await;
    let second = tip_and_pay(&app, &room.event, ann_token, 1200, "two").await;
    let admin = app.an_admin().await;
    let (status, body) = app
        .post(
            &format!("/api/v1/events/{}/cancel", room.event),
            json!({}),
            Some(&admin),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");

    for (paid, amount) in [(&first, 500), (&second, 1200)] {
        let order = paid["order"].as_str().unwrap();
        let (status, mine) = app
            .get(&format!("/api/v1/orders/{order}"), Some(ann_token))
            .await;
        assert_eq!(status, StatusCode::OK, "{mine}");
        assert_eq!(mine["payload"]["status"], "refunded", "{mine}");
        let refunds: Vec<(i64, Option<String>)> =
            sqlx::query_as("SELECT amount_minor, event_id FROM refunds WHERE order_id = $1")
                .bind(order)
                .fetch_all(app.db())
                .await
                .unwrap();
        assert_eq!(refunds, [(amount, Some(room.event.clone()))]);
    }
    // The ticket's order too, once.
    assert_eq!(
        app.count(
            "SELECT COUNT(*) FROM refunds WHERE order_id = $1",
            &room.orders[0]
        )
        .await,
        1
    );
    let (_, list) = app.get(&tips(&room.event), Some(&room.artist)).await;
    assert_eq!(list["payload"], json!({ "tips": [], "totals": [] }));

    // Told in the reader's language, with the concert's title and why.
    let token = app.session(ann).await;
    let (status, page) = app
        .send(
            app.http
                .get(format!("{}/api/v1/notifications", app.url))
                .bearer_auth(&token)
                .header("Accept-Language", "fa"),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{page}");
    let title = encore::events::store::by_id(app.db(), &room.event)
        .await
        .unwrap()
        .unwrap()
        .details
        .title;
    let why = format!("{title}: کنسرت لغو شد");
    let told = page["payload"]["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["body"].as_str().unwrap_or_default().contains(&why))
        .count();
    assert_eq!(told, 2, "one notice a tip: {page}");
}

/// The concert's tip form's options, as `token` reads them.
async fn tip_options(app: &TestApp, event: &str, token: &str) -> Value {
    app.get_ok(&format!("{}/options", tips(event)), Some(token))
        .await
}

/// `token` sets the concert's tip settings: the status and body.
async fn set_tip_settings(
    app: &TestApp,
    event: &str,
    token: &str,
    body: Value,
) -> (StatusCode, Value) {
    app.put(&format!("{}/settings", tips(event)), body, token)
        .await
}

#[tokio::test]
async fn the_artist_sets_a_concerts_tips_presets_and_minimum_or_turns_them_off() {
    let app = spawn_app().await;
    let room = a_room(&app, 1).await;
    let ann = &room.fans[0].1;
    // The defaults: on, 2, 5, 10 and 20 euros, at least 1.
    let before = tip_options(&app, &room.event, ann).await;
    assert_eq!(before["enabled"], true, "{before}");
    assert_eq!(before["presets"], json!([200, 500, 1000, 2000]));
    assert_eq!(before["minimum"], 100);

    // A fan may not change them; the artist (a member of the concert's project) may.
    let mine = json!({ "enabled": true, "presets": [700, 300], "minimum": 300 });
    let (status, body) = set_tip_settings(&app, &room.event, ann, mine.clone()).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    let (status, body) = set_tip_settings(&app, &room.event, &room.artist, mine).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(
        body["payload"]["presets"],
        json!([300, 700]),
        "smallest first"
    );
    let after = tip_options(&app, &room.event, ann).await;
    assert_eq!(
        (&after["presets"], &after["minimum"]),
        (&json!([300, 700]), &json!(300))
    );

    // Under the new minimum: refused in the reader's language; at it, taken.
    let (status, body) = tip(&app, &room.event, ann, 200, "").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("A tip is at least 3.00 EUR"),
        "{body}"
    );
    tip_and_pay(&app, &room.event, ann, 300, "").await;

    // A preset under the minimum, or no preset, is refused; so is a minimum under one cent.
    for wrong in [
        json!({ "enabled": true, "presets": [200], "minimum": 300 }),
        json!({ "enabled": true, "presets": [], "minimum": 300 }),
        json!({ "enabled": true, "presets": [500], "minimum": 0 }),
        json!({ "enabled": true, "presets": [200_000], "minimum": 100 }),
    ] {
        let (status, body) = set_tip_settings(&app, &room.event, &room.artist, wrong.clone()).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{wrong}: {body}");
    }

    // Off: the form says so, and a tip is refused, in Persian for a Persian reader.
    let off = json!({ "enabled": false, "presets": [300, 700], "minimum": 300 });
    let (status, body) = set_tip_settings(&app, &room.event, &room.artist, off).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(tip_options(&app, &room.event, ann).await["enabled"], false);
    let (status, body) = tip(&app, &room.event, ann, 500, "").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("turned tips off"),
        "{body}"
    );
    let body = tip_refused_in_persian(&app, &room.event, ann, 500).await;
    assert!(
        body["error"].as_str().unwrap().contains("انعام را"),
        "{body}"
    );
}

/// A tip of `amount` asked for in Persian and refused with 422: the answer's body.
async fn tip_refused_in_persian(app: &TestApp, event: &str, access: &str, amount: i64) -> Value {
    let response = app
        .http
        .post(format!("{}{}", app.url, tips(event)))
        .bearer_auth(access)
        .header("accept-language", "fa-IR")
        .json(&json!({ "amount": amount }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::UNPROCESSABLE_ENTITY);
    response.json().await.unwrap()
}
