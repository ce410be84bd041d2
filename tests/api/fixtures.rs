//! Set-ups the commerce tests share: a tier, concerts gathered in one project, a cart
//! checked out and paid by card, the tickets it gave, a pending Stripe order.

use encore::commerce::orders::{self, NewItem};
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::*;

/// A tier of `event` made by `admin` from `body`: its id (201 asserted).
pub async fn add_tier(app: &TestApp, admin: &str, event: &str, body: Value) -> String {
    let (status, tier) = app
        .post(&format!("/api/v1/events/{event}/tiers"), body, Some(admin))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{tier}");
    tier["payload"]["id"].as_str().unwrap().to_owned()
}

/// Move `event` into `project`, beside the concerts already there.
pub async fn join_project(app: &TestApp, project: &str, event: &str) {
    sqlx::query("UPDATE events SET project_id = $1 WHERE id = $2")
        .bind(project)
        .bind(event)
        .execute(app.db())
        .await
        .unwrap();
}

/// `POST /cart/checkout` as `token`'s holder.
pub async fn checkout(app: &TestApp, token: &str) -> (StatusCode, Value) {
    app.post("/api/v1/cart/checkout", json!({}), Some(token))
        .await
}

/// The order `id` as `GET /orders/{id}` shows it to `token`'s holder (200 asserted).
pub async fn order_of(app: &TestApp, token: &str, id: &str) -> Value {
    app.get_ok(&format!("/api/v1/orders/{id}"), Some(token))
        .await
}

/// Check out `token`'s cart and pay it by card (both 200 asserted): the paid order.
pub async fn pay_cart(app: &TestApp, token: &str) -> Value {
    let (status, body) = checkout(app, token).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, paid) = app.pay(body["payload"].as_str().unwrap(), CARD_OK).await;
    assert_eq!(status, StatusCode::OK, "{paid}");
    order_of(app, token, paid["payload"]["order"].as_str().unwrap()).await
}

/// A pending Stripe order of the account `fan` for one 10.00 EUR concert, its session
/// `cs_<order>`: the order's id.
pub async fn stripe_checkout(app: &TestApp, fan: &str, event: &str) -> String {
    let item = NewItem {
        kind: encore::commerce::model::ItemKind::Event,
        id: event.to_owned(),
        title: "Concert".into(),
        price_minor: 1000,
        // The concert's default tier.
        tier: None,
        quantity: 1,
    };
    let (order, _) = orders::create_pending(app.db(), fan, None, &[item], "EUR", "stripe", None)
        .await
        .unwrap();
    encore::commerce::store::set_provider_ref(app.db(), &order, &format!("cs_{order}"))
        .await
        .unwrap();
    order
}

/// The tickets `GET /tickets/mine` lists to `token`'s holder (200 asserted).
pub async fn mine(app: &TestApp, token: &str) -> Vec<Value> {
    let (status, body) = app.get("/api/v1/tickets/mine", Some(token)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body["payload"].as_array().unwrap().clone()
}
