//! Nothing oversold, nothing lost: buyers racing for the last seats, replayed
//! confirmations, and Stripe's signed webhooks.

use encore::commerce::providers::sign;
use reqwest::StatusCode;
use serde_json::json;

use crate::fixtures::stripe_checkout;
use crate::helpers::*;

#[tokio::test]
async fn two_hundred_buyers_race_for_fifty_seats_and_exactly_fifty_get_tickets() {
    let app = spawn_app().await;
    let event = concert(&app, Some(50), 1000, HOUR_MS).await;
    let (paid, sold_out) = race_for(&app, 200, &event, None).await;
    assert_eq!(paid, 50);
    assert_eq!(sold_out, 150, "everyone else is told it is sold out");
    assert_eq!(
        app.count("SELECT COUNT(*) FROM tickets WHERE event_id = $1", &event)
            .await,
        50
    );
    assert_eq!(seats_taken(&app, "events", &event).await, 50);
    // Nothing pending is left once reservations lapse.
    app.lapse_pending_checkouts().await;
    assert_eq!(
        app.count("SELECT COUNT(*) FROM orders WHERE status = $1", "pending")
            .await,
        0
    );
}

/// A pending Stripe order of a new fan for one 10.00 EUR concert, its session `cs_<order>`:
/// (order, fan's account id).
pub async fn stripe_order(app: &TestApp, event: &str) -> (String, String) {
    let (fan, _) = app.fans(1).await.remove(0);
    (stripe_checkout(app, &fan.id, event).await, fan.id)
}

pub const WHSEC: &str = "whsec_test_secret";

/// A server taking Stripe webhooks signed with [`WHSEC`], and a [`stripe_order`] for a
/// concert of five seats: the server and the order.
async fn a_stripe_order() -> (TestApp, String) {
    // The double answers the fee Stripe took on a fulfilled payment.
    let app = spawn_app_with(Options {
        stripe_webhook_secret: Some(WHSEC),
        stripe_api: Some(StripeDouble::start().await.url),
        ..Options::default()
    })
    .await;
    let event = concert(&app, Some(5), 1000, HOUR_MS).await;
    let (order, _) = stripe_order(&app, &event).await;
    (app, order)
}

pub async fn webhook(
    app: &TestApp,
    body: &serde_json::Value,
    signature: &str,
) -> (StatusCode, serde_json::Value) {
    let response = app
        .http
        .post(format!("{}/api/v1/payments/stripe/webhook", app.url))
        .header("stripe-signature", signature)
        .header("content-type", "application/json")
        .body(serde_json::to_vec(body).unwrap())
        .send()
        .await
        .unwrap();
    (response.status(), response.json().await.unwrap_or_default())
}

/// Stripe's `checkout.session.completed` for the order made by [`stripe_order`].
pub fn completed(event_id: &str, order: &str) -> serde_json::Value {
    json!({ "id": event_id, "type": "checkout.session.completed",
            "data": { "object": { "id": format!("cs_{order}"), "client_reference_id": order,
                                  "payment_status": "paid", "payment_intent": format!("pi_{order}"),
                                  "amount_total": 1000, "currency": "eur" } } })
}

#[tokio::test]
async fn a_signed_stripe_webhook_fulfils_once_however_often_it_is_replayed() {
    let (app, order) = a_stripe_order().await;
    let now = encore::db::now_ms() / 1000;
    let body = completed("evt_1", &order);
    let signature = sign(WHSEC, &serde_json::to_vec(&body).unwrap(), now);
    for i in 0..10 {
        let (status, answer) = webhook(&app, &body, &signature).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        assert_eq!(answer["payload"]["duplicate"], i > 0);
    }
    // Ten distinct deliveries confirming the same payment: still one set of tickets.
    for i in 2..12 {
        let body = completed(&format!("evt_{i}"), &order);
        let signature = sign(WHSEC, &serde_json::to_vec(&body).unwrap(), now);
        assert_eq!(webhook(&app, &body, &signature).await.0, StatusCode::OK);
    }
    assert_eq!(
        app.count("SELECT COUNT(*) FROM tickets WHERE order_id = $1", &order)
            .await,
        1
    );
    assert_eq!(
        app.count(
            "SELECT COUNT(*) FROM orders WHERE id = $1 AND status = 'fulfilled'",
            &order
        )
        .await,
        1
    );
}

#[tokio::test]
async fn stripe_webhooks_with_a_bad_signature_or_a_stale_timestamp_are_refused() {
    let (app, order) = a_stripe_order().await;
    let body = completed("evt_bad", &order);
    let bytes = serde_json::to_vec(&body).unwrap();
    let now = encore::db::now_ms() / 1000;
    for signature in [
        sign("whsec_wrong", &bytes, now),
        sign(WHSEC, &bytes, now - 301),
        sign(WHSEC, b"{\"other\":true}", now),
        "t=1,v1=deadbeef".to_owned(),
    ] {
        let (status, answer) = webhook(&app, &body, &signature).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{signature}: {answer}");
        assert_eq!(answer["success"], false);
    }
    let missing = app
        .http
        .post(format!("{}/api/v1/payments/stripe/webhook", app.url))
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(missing.status(), StatusCode::BAD_REQUEST);
    assert_eq!(
        app.count("SELECT COUNT(*) FROM tickets WHERE order_id = $1", &order)
            .await,
        0
    );
    // An expiry event gives the seat back.
    let expired = json!({ "id": "evt_exp", "type": "checkout.session.expired",
                          "data": { "object": { "client_reference_id": order } } });
    let signature = sign(WHSEC, &serde_json::to_vec(&expired).unwrap(), now);
    assert_eq!(webhook(&app, &expired, &signature).await.0, StatusCode::OK);
    assert_eq!(
        app.count(
            "SELECT COUNT(*) FROM orders WHERE id = $1 AND status = 'expired'",
            &order
        )
        .await,
        1
    );
}

#[tokio::test]
async fn without_stripe_the_webhook_is_not_there() {
    let app = spawn_app().await;
    let (status, _) = webhook(&app, &json!({}), "t=1,v1=x").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

/// Found by schemathesis: without Stripe, an unsigned call was a 404, not the 400 of a
/// request missing its required `Stripe-Signature` header.
#[tokio::test]
async fn an_unsigned_webhook_is_400_even_without_stripe() {
    let app = spawn_app().await;
    let response = app
        .http
        .post(format!("{}/api/v1/payments/stripe/webhook", app.url))
        .header("Accept-Language", "en")
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    let body: serde_json::Value = response.json().await.unwrap();
    assert_eq!(body["error"], "Missing Stripe-Signature header.");
}
