//! Selling access: the cart, checkout through a payment provider, orders, tickets,
//! all-access passes, refunds and the organiser's billing details.

pub mod billing;
pub mod cart;
pub mod checkout;
pub mod model;
pub mod money;
pub mod orders;
mod pay_page;
pub mod plans;
pub mod providers;
pub mod refunds;
pub mod store;

use axum::Router;
use axum::extract::{Path, State};
use axum::routing::{get, post, put};
use serde::Deserialize;

use crate::auth::extract::{CurrentUser, Staff};
use crate::envelope::{Api, JsonBody};
use crate::error::{Error, Result};
use crate::i18n::Msg;
use crate::paging::{Page, Paging};
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/cart", get(show_cart).delete(clear_cart))
        .route("/cart/", get(show_cart).delete(clear_cart))
        .route("/cart/checkout", post(checkout::checkout))
        .route("/cart/passes/{plan_id}", post(add_pass).delete(remove_pass))
        .route("/cart/{event_id}", post(add_event).delete(remove_event))
        .route("/purchases/my", get(my_purchases))
        .route("/purchases/my/", get(my_purchases))
        .route("/orders", get(all_orders))
        .route("/orders/{id}", get(show_order))
        .route("/orders/{id}/refund", post(refund))
        .route("/pricing-plans", get(plans::list).post(plans::create))
        .route(
            "/pricing-plans/{id}",
            put(plans::update).delete(plans::retire),
        )
        .route("/payments/methods", get(checkout::methods))
        .route("/payments/billing", get(billing::show).put(billing::save))
        .route("/payments/test/{order_id}", post(checkout::pay_test))
        .route("/payments/stripe/webhook", post(checkout::stripe_webhook))
}

/// The hosted test checkout page lives outside the API, at `/pay/{order}`.
pub fn pages() -> Router<AppState> {
    Router::new().route("/pay/{order_id}", get(checkout::pay_page))
}

async fn show_cart(
    State(app): State<AppState>,
    user: CurrentUser,
) -> Result<Api<Vec<cart::CartEntry>>> {
    Ok(Api::ok(cart::entries(&app, &user.account.id).await?))
}

async fn add_event(
    State(app): State<AppState>,
    user: CurrentUser,
    Path(event_id): Path<String>,
) -> Result<Api<Vec<cart::CartEntry>>> {
    cart::add_event(&app, &user.account.id, &event_id).await?;
    show_cart(State(app), user).await
}

async fn remove_event(
    State(app): State<AppState>,
    user: CurrentUser,
    Path(event_id): Path<String>,
) -> Result<Api<Vec<cart::CartEntry>>> {
    cart::remove(&app, &user.account.id, model::ItemKind::Event, &event_id).await?;
    show_cart(State(app), user).await
}

async fn add_pass(
    State(app): State<AppState>,
    user: CurrentUser,
    Path(plan_id): Path<String>,
) -> Result<Api<Vec<cart::CartEntry>>> {
    cart::add_pass(&app, &user.account.id, &plan_id).await?;
    show_cart(State(app), user).await
}

async fn remove_pass(
    State(app): State<AppState>,
    user: CurrentUser,
    Path(plan_id): Path<String>,
) -> Result<Api<Vec<cart::CartEntry>>> {
    cart::remove(&app, &user.account.id, model::ItemKind::Pass, &plan_id).await?;
    show_cart(State(app), user).await
}

async fn clear_cart(
    State(app): State<AppState>,
    user: CurrentUser,
) -> Result<Api<Vec<cart::CartEntry>>> {
    cart::clear(&app, &user.account.id).await?;
    Ok(Api::ok(Vec::new()))
}

/// The signed-in account's orders, newest first (spec: `GET /api/v1/purchases/my/`).
async fn my_purchases(
    State(app): State<AppState>,
    user: CurrentUser,
    paging: Paging,
) -> Result<Api<Page<orders::Order>>> {
    Ok(Api::ok(
        orders::page(&app.db, Some(&user.account.id), paging).await?,
    ))
}

async fn all_orders(
    State(app): State<AppState>,
    Staff(_): Staff,
    paging: Paging,
) -> Result<Api<Page<orders::Order>>> {
    Ok(Api::ok(orders::page(&app.db, None, paging).await?))
}

async fn show_order(
    State(app): State<AppState>,
    user: CurrentUser,
    Path(id): Path<String>,
) -> Result<Api<orders::Order>> {
    let order = store::order_by_id(&app.db, &id)
        .await?
        .filter(|o| o.account_id == user.account.id || user.account.role().is_staff())
        .ok_or_else(|| Error::not_found(Msg::OrderNotFound))?;
    Ok(Api::ok(orders::view(&app.db, order).await?))
}

#[derive(Debug, Deserialize)]
struct RefundInput {
    reason: Option<String>,
}

async fn refund(
    State(app): State<AppState>,
    Staff(_): Staff,
    Path(id): Path<String>,
    JsonBody(input): JsonBody<RefundInput>,
) -> Result<Api<orders::Order>> {
    let reason = input
        .reason
        .filter(|r| !r.trim().is_empty())
        .unwrap_or_else(|| "refunded by the organiser".to_owned());
    let order = refunds::refund_order(&app, &id, &reason).await?;
    Ok(Api::ok(orders::view(&app.db, order).await?))
}
