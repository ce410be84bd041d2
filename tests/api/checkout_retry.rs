//! A checkout that keeps its buyer (issue 31): a refused card leaves the checkout open for
//! another card on the same page, My orders tells paid from never paid and offers a
//! receipt only for money taken, and a paid order opens every one of its concerts.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::*;

const CARD_NO_FUNDS: &str = "4000 0000 0000 9995";

/// The order id of a test checkout URL (`…/pay/{order}?token=…`).
fn order_of(url: &str) -> String {
    let (path, _) = url.split_once('?').unwrap();
    path.rsplit('/').next().unwrap().to_owned()
}

async fn order(app: &TestApp, token: &str, id: &str) -> Value {
    app.get_ok(&format!("/api/v1/orders/{id}"), Some(token))
        .await
}

async fn seats_left(app: &TestApp, token: &str, event: &str) -> i64 {
    let (_, shown) = app
        .get(&format!("/api/v1/events/{event}"), Some(token))
        .await;
    shown["payload"]["seatsLeft"].as_i64().unwrap()
}

/// A fan with a checkout of one concert of ten seats: (fan token, concert, checkout URL).
async fn open_checkout(app: &TestApp) -> (String, String, String) {
    let fan = app.fans(1).await.remove(0).1;
    let event = concert(app, Some(10), 2450, HOUR_MS).await;
    let url = app.open_checkout(&fan, &event).await;
    (fan, event, url)
}

#[tokio::test]
async fn a_declined_card_leaves_the_checkout_open_and_the_next_card_on_the_same_page_pays_it() {
    let app = spawn_app().await;
    let (fan, event, url) = open_checkout(&app).await;
    let id = order_of(&url);
    let (status, body) = app.pay(&url, CARD_DECLINED).await;
    assert_eq!(status, StatusCode::PAYMENT_REQUIRED, "{body}");
    assert_eq!(
        body["error"],
        "Your card was declined. Your cart is unchanged: try another card."
    );
    // Still pending, its seat still held, the reason kept; the page still takes a card.
    let pending = order(&app, &fan, &id).await;
    assert_eq!(pending["status"], "pending");
    assert_eq!(pending["failure"], body["error"]);
    assert_eq!(seats_left(&app, &fan, &event).await, 9);
    assert!(app.text_at(&url).await.contains("<form id=pay "));

    let (status, paid) = app.pay(&url, CARD_OK).await;
    assert_eq!(status, StatusCode::OK, "{paid}");
    assert_eq!(paid["payload"]["order"], id.as_str());
    let fulfilled = order(&app, &fan, &id).await;
    assert_eq!(fulfilled["status"], "fulfilled");
    assert_eq!(
        fulfilled["failure"],
        Value::Null,
        "a paid order has no failure"
    );
    assert_eq!(
        seats_left(&app, &fan, &event).await,
        9,
        "one seat, taken once"
    );
    assert_eq!(
        app.count("SELECT COUNT(*) FROM tickets WHERE order_id = $1", &id)
            .await,
        1
    );
    let (_, cart) = app.get("/api/v1/cart/", Some(&fan)).await;
    assert_eq!(cart["payload"], json!([]));
}

#[tokio::test]
async fn insufficient_funds_then_a_good_card_pays_the_same_checkout() {
    let app = spawn_app().await;
    let (fan, _, url) = open_checkout(&app).await;
    let (status, body) = app.pay(&url, CARD_NO_FUNDS).await;
    assert_eq!(status, StatusCode::PAYMENT_REQUIRED, "{body}");
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("insufficient funds"),
        "{body}"
    );
    // Refused twice, then paid: every refusal leaves it open.
    assert_eq!(
        app.pay(&url, CARD_DECLINED).await.0,
        StatusCode::PAYMENT_REQUIRED
    );
    assert_eq!(app.pay(&url, CARD_OK).await.0, StatusCode::OK);
    assert_eq!(
        order(&app, &fan, &order_of(&url)).await["status"],
        "fulfilled"
    );
}

#[tokio::test]
async fn a_persian_checkout_refused_once_is_paid_with_the_next_card_in_persian() {
    let app = spawn_app().await;
    let (fan, event, _) = open_checkout(&app).await;
    // The same cart checked out from a Persian page: the payment page speaks Persian.
    let response = app
        .http
        .post(format!("{}/api/v1/cart/checkout", app.url))
        .bearer_auth(&fan)
        .header("accept-language", "fa-IR")
        .send()
        .await
        .unwrap();
    let url = response.json::<Value>().await.unwrap()["payload"]
        .as_str()
        .unwrap()
        .to_owned();
    let (path, query) = url.split_once("?token=").unwrap();
    let token = query.split('&').next().unwrap();
    let id = order_of(&url);
    let pay_path = format!("/api/v1/payments/test/{id}");
    let pay = |card: &'static str| {
        app.post(
            &pay_path,
            json!({ "token": token, "cardNumber": card, "expiry": "12/40", "cvc": "123", "lang": "ir" }),
            None,
        )
    };
    let (status, body) = pay(CARD_DECLINED).await;
    assert_eq!(status, StatusCode::PAYMENT_REQUIRED);
    assert_eq!(
        body["error"],
        "کارت شما رد شد. سبد خرید شما تغییری نکرده است: کارت دیگری را امتحان کنید."
    );
    let page = app.text_at(&url).await;
    assert!(
        page.contains("dir=\"rtl\"") && page.contains("<form id=pay "),
        "{path}"
    );
    let (status, paid) = pay(CARD_OK).await;
    assert_eq!(status, StatusCode::OK, "{paid}");
    // A second good card on the same page is told it was paid, and charged nothing.
    let (status, again) = pay(CARD_OK).await;
    assert_eq!(status, StatusCode::CONFLICT, "{again}");
    assert_eq!(seats_left(&app, &fan, &event).await, 9);
}

#[tokio::test]
async fn two_good_cards_racing_on_one_checkout_pay_it_once() {
    let app = spawn_app().await;
    let (fan, event, url) = open_checkout(&app).await;
    assert_eq!(
        app.pay(&url, CARD_DECLINED).await.0,
        StatusCode::PAYMENT_REQUIRED
    );
    let (one, two) = tokio::join!(app.pay(&url, CARD_OK), app.pay(&url, CARD_OK));
    let mut statuses = [one.0, two.0];
    statuses.sort();
    assert_eq!(
        statuses,
        [StatusCode::OK, StatusCode::CONFLICT],
        "{one:?} {two:?}"
    );
    let id = order_of(&url);
    assert_eq!(
        app.count("SELECT COUNT(*) FROM tickets WHERE order_id = $1", &id)
            .await,
        1
    );
    assert_eq!(
        app.count(
            "SELECT COUNT(*) FROM orders WHERE id = $1 AND provider_ref IS NOT NULL",
            &id
        )
        .await,
        1
    );
    assert_eq!(seats_left(&app, &fan, &event).await, 9);
}

#[tokio::test]
async fn a_refused_checkout_that_lapses_expires_and_gives_its_seat_back() {
    let app = spawn_app().await;
    let (fan, event, url) = open_checkout(&app).await;
    assert_eq!(
        app.pay(&url, CARD_DECLINED).await.0,
        StatusCode::PAYMENT_REQUIRED
    );
    let id = order_of(&url);
    sqlx::query("UPDATE orders SET expires_at = $2 WHERE id = $1")
        .bind(&id)
        .bind(encore::db::now_ms() - 1)
        .execute(app.db())
        .await
        .unwrap();
    let (status, body) = app.pay(&url, CARD_OK).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(
        body["error"],
        "This checkout has expired or is closed. Go back to your cart to start again."
    );
    assert_eq!(order(&app, &fan, &id).await["status"], "expired");
    assert_eq!(seats_left(&app, &fan, &event).await, 10);
    assert_eq!(
        app.count("SELECT COUNT(*) FROM tickets WHERE order_id = $1", &id)
            .await,
        0
    );
}

/// A fan's orders in every state: one failed (its concert cancelled while it was open),
/// one expired (replaced by a newer checkout), one paid then refunded, one paid, one
/// pending. Answers the fan's token and the order ids in that order.
async fn orders_in_every_state(app: &TestApp) -> (String, [String; 5]) {
    let fan = app.fans(1).await.remove(0).1;
    let admin = app.an_admin().await;
    let cancelled = concert(app, Some(10), 900, HOUR_MS).await;
    let failed = order_of(&app.open_checkout(&fan, &cancelled).await);
    app.cancel_concert(&cancelled, &admin).await;
    app.delete(&format!("/api/v1/cart/{cancelled}"), &fan).await;

    let refunded_concert = concert(app, Some(10), 700, HOUR_MS).await;
    let expired = order_of(&app.open_checkout(&fan, &refunded_concert).await);
    let (status, paid) = app.buy(&fan, &refunded_concert, CARD_OK).await;
    assert_eq!(status, StatusCode::OK, "{paid}");
    let refunded = paid["payload"]["order"].as_str().unwrap().to_owned();
    let (status, body) = app
        .post(
            &format!("/api/v1/orders/{refunded}/refund"),
            json!({ "reason": "the fan asked" }),
            Some(&admin),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");

    let kept = concert(app, Some(10), 2450, HOUR_MS).await;
    let (status, paid) = app.buy(&fan, &kept, CARD_OK).await;
    assert_eq!(status, StatusCode::OK, "{paid}");
    let fulfilled = paid["payload"]["order"].as_str().unwrap().to_owned();

    let later = concert(app, Some(10), 1100, HOUR_MS).await;
    let pending = order_of(&app.open_checkout(&fan, &later).await);
    (fan, [failed, expired, refunded, fulfilled, pending])
}

#[tokio::test]
async fn my_orders_tell_each_orders_state_and_whether_it_was_paid() {
    let app = spawn_app().await;
    let (fan, [failed, expired, refunded, fulfilled, pending]) = orders_in_every_state(&app).await;
    let (status, mine) = app.get("/api/v1/purchases/my/", Some(&fan)).await;
    assert_eq!(status, StatusCode::OK, "{mine}");
    let items = mine["payload"]["items"].as_array().unwrap();
    let of = |id: &str| items.iter().find(|o| o["id"] == id).unwrap().clone();
    for (id, state, paid) in [
        (&failed, "failed", false),
        (&expired, "expired", false),
        (&refunded, "refunded", true),
        (&fulfilled, "fulfilled", true),
        (&pending, "pending", false),
    ] {
        let order = of(id);
        assert_eq!(order["status"], state, "{order}");
        assert_eq!(order["paidAt"].is_string(), paid, "{order}");
    }
    assert_eq!(of(&failed)["failure"], "the concert was cancelled");
    assert_eq!(of(&expired)["failure"], "replaced by a newer checkout");
}

#[tokio::test]
async fn a_receipt_is_only_for_money_taken() {
    let app = spawn_app().await;
    let (fan, [failed, expired, refunded, fulfilled, pending]) = orders_in_every_state(&app).await;
    for unpaid in [&failed, &expired, &pending] {
        let (status, body) = app
            .get(&format!("/api/v1/orders/{unpaid}/receipt"), Some(&fan))
            .await;
        assert_eq!(status, StatusCode::CONFLICT, "{body}");
        assert_eq!(
            body["error"],
            "This order was never paid, so it has no receipt: nothing was charged."
        );
    }
    for paid in [&refunded, &fulfilled] {
        let (status, body) = app
            .get(&format!("/api/v1/orders/{paid}/receipt"), Some(&fan))
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert!(body["payload"]["order"]["paidAt"].is_string(), "{body}");
    }
    // Staff read the same rule.
    let admin = app.sign_in("admin@example.com").await.access;
    let (status, _) = app
        .get(&format!("/api/v1/orders/{failed}/receipt"), Some(&admin))
        .await;
    assert_eq!(status, StatusCode::CONFLICT);
    // In the reader's language.
    let persian = app
        .http
        .get(format!("{}/api/v1/orders/{expired}/receipt", app.url))
        .bearer_auth(&fan)
        .header("accept-language", "fa-IR")
        .send()
        .await
        .unwrap();
    assert_eq!(persian.status(), StatusCode::CONFLICT);
    assert_eq!(
        persian.json::<Value>().await.unwrap()["error"],
        "این سفارش هرگز پرداخت نشد، پس رسیدی ندارد: مبلغی کسر نشده است."
    );
}

#[tokio::test]
async fn a_paid_order_of_two_live_concerts_opens_both_for_listening() {
    let app = spawn_app().await;
    let fan = app.fans(1).await.remove(0).1;
    let first = concert(&app, Some(10), 900, -60_000).await;
    let second = concert(&app, Some(10), 1100, -60_000).await;
    for event in [&first, &second] {
        let (status, body) = app
            .post(&format!("/api/v1/cart/{event}"), json!({}), Some(&fan))
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }
    let (status, checkout) = app
        .post("/api/v1/cart/checkout", json!({}), Some(&fan))
        .await;
    assert_eq!(status, StatusCode::OK, "{checkout}");
    let url = checkout["payload"].as_str().unwrap().to_owned();
    assert_eq!(
        app.pay(&url, CARD_DECLINED).await.0,
        StatusCode::PAYMENT_REQUIRED
    );
    let (status, paid) = app.pay(&url, CARD_OK).await;
    assert_eq!(status, StatusCode::OK, "{paid}");
    let shown = order(&app, &fan, &order_of(&url)).await;
    let lines: Vec<&str> = shown["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|line| line["itemKind"] == "event")
        .map(|line| line["itemId"].as_str().unwrap())
        .collect();
    assert_eq!(lines.len(), 2, "{shown}");
    // Every concert of the order is the fan's and open now: each opens a session.
    for event in [&first, &second] {
        assert!(lines.contains(&event.as_str()));
        let (_, concert) = app
            .get(&format!("/api/v1/events/{event}"), Some(&fan))
            .await;
        assert_eq!(concert["payload"]["owned"], true, "{concert}");
        assert_eq!(concert["payload"]["state"]["phase"], "live", "{concert}");
        let (status, session) = app
            .post(
                &format!("/api/v1/stream/{event}/session"),
                json!({}),
                Some(&fan),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{session}");
    }
}
