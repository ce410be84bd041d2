//! Money is never kept for nothing (security review, findings 3 and 4): a concert
//! cancelled during checkout, a replaced checkout paid anyway, a confirmation that is not
//! the order's own — none is fulfilled, and a payment that arrived is refunded.

use encore::accounts::model::Role;
use encore::commerce::providers::sign;
use reqwest::StatusCode;
use serde_json::json;

use crate::concurrency::{WHSEC, completed, stripe_order, webhook};
use crate::fixtures::stripe_checkout;
use crate::helpers::*;

async fn stripe_app() -> (TestApp, StripeDouble) {
    let stripe = StripeDouble::start().await;
    let app = spawn_app_with(Options {
        stripe_webhook_secret: Some(WHSEC),
        stripe_api: Some(stripe.url),
        ..Options::default()
    })
    .await;
    (app, stripe)
}

async fn deliver(app: &TestApp, body: &serde_json::Value) -> StatusCode {
    let now = encore::db::now_ms() / 1000;
    let signature = sign(WHSEC, &serde_json::to_vec(body).unwrap(), now);
    let (status, answer) = webhook(app, body, &signature).await;
    assert!(status.is_success(), "{status} {answer}");
    status
}

async fn cancel(app: &TestApp, event: &str) {
    app.account("admin@example.com", Role::Admin).await;
    let admin = app.sign_in("admin@example.com").await;
    app.cancel_concert(event, &admin.access).await;
}

async fn tickets_of(app: &TestApp, order: &str) -> i64 {
    app.count("SELECT COUNT(*) FROM tickets WHERE order_id = $1", order)
        .await
}

#[tokio::test]
async fn a_checkout_for_a_concert_cancelled_before_payment_cannot_be_paid() {
    let app = spawn_app().await;
    let (fan, tokens) = app.a_fan().await;
    let event = concert(&app, Some(10), 1500, 48 * HOUR_MS).await;
    let url = app.open_checkout(&tokens.access, &event).await;
    cancel(&app, &event).await;

    let (status, body) = app.pay(&url, CARD_OK).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(
        app.count(
            "SELECT COUNT(*) FROM tickets WHERE account_id = $1",
            &fan.id
        )
        .await,
        0
    );
    assert_eq!(
        app.count(
            "SELECT COUNT(*) FROM orders WHERE account_id = $1 AND status = 'failed'",
            &fan.id
        )
        .await,
        1,
        "cancelling closed the open checkout"
    );
}

#[tokio::test]
async fn a_stripe_payment_for_a_cancelled_concert_is_refunded_never_fulfilled() {
    let (app, stripe) = stripe_app().await;
    let event = concert(&app, Some(10), 1000, 48 * HOUR_MS).await;
    let (order, _) = stripe_order(&app, &event).await;
    cancel(&app, &event).await;
    assert_eq!(
        stripe
            .calls_to(&format!("/v1/checkout/sessions/cs_{order}/expire"))
            .len(),
        1,
        "cancelling expires the open Stripe session"
    );

    // The buyer had already paid on Stripe's page: the confirmation arrives late.
    deliver(&app, &completed("evt_late", &order)).await;
    assert_eq!(tickets_of(&app, &order).await, 0);
    let refunds = stripe.calls_to("/v1/refunds");
    assert_eq!(refunds.len(), 1, "{refunds:?}");
    assert!(
        refunds[0].contains(&format!("payment_intent=pi_{order}")),
        "{}",
        refunds[0]
    );
    assert!(refunds[0].contains("amount=1000"), "{}", refunds[0]);
}

#[tokio::test]
async fn a_new_checkout_expires_the_replaced_stripe_session() {
    let (app, stripe) = stripe_app().await;
    let fan = app.account("fan@example.com", Role::User).await;
    let tokens = app.sign_in(&fan.login).await;
    let event = concert(&app, Some(10), 1000, 48 * HOUR_MS).await;
    app.post(
        &format!("/api/v1/cart/{event}"),
        json!({}),
        Some(&tokens.access),
    )
    .await;
    for _ in 0..2 {
        let (status, body) = app
            .post("/api/v1/cart/checkout", json!({}), Some(&tokens.access))
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }
    assert_eq!(stripe.calls_to("/v1/checkout/sessions").len(), 2);
    assert_eq!(
        stripe
            .calls_to("/v1/checkout/sessions/cs_test_1/expire")
            .len(),
        1,
        "the first session can no longer be paid"
    );
}

#[tokio::test]
async fn a_replaced_checkout_paid_anyway_is_refunded_and_gives_no_second_ticket() {
    let (app, stripe) = stripe_app().await;
    let fan = app.account("fan@example.com", Role::User).await;
    let event = concert(&app, Some(10), 1000, 48 * HOUR_MS).await;
    let first = stripe_checkout(&app, &fan.id, &event).await;
    let second = stripe_checkout(&app, &fan.id, &event).await;
    // The fan pays the newer checkout, then the payment of the first one arrives too.
    deliver(&app, &completed("evt_second", &second)).await;
    assert_eq!(tickets_of(&app, &second).await, 1);
    deliver(&app, &completed("evt_first", &first)).await;
    assert_eq!(tickets_of(&app, &first).await, 0);
    let refunds = stripe.calls_to("/v1/refunds");
    assert_eq!(refunds.len(), 1, "{refunds:?}");
    assert!(
        refunds[0].contains(&format!("payment_intent=pi_{first}")),
        "{}",
        refunds[0]
    );
}

#[tokio::test]
async fn a_confirmation_that_is_not_the_orders_own_session_or_amount_is_refunded() {
    let (app, stripe) = stripe_app().await;
    let event = concert(&app, Some(10), 1000, 48 * HOUR_MS).await;
    let (order, _) = stripe_order(&app, &event).await;
    let mut other_session = completed("evt_other", &order);
    other_session["data"]["object"]["id"] = json!("cs_someone_else");
    deliver(&app, &other_session).await;
    let mut cheaper = completed("evt_cheap", &order);
    cheaper["data"]["object"]["amount_total"] = json!(1);
    deliver(&app, &cheaper).await;
    assert_eq!(tickets_of(&app, &order).await, 0);
    assert_eq!(stripe.calls_to("/v1/refunds").len(), 2);
}
