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
use axum::routing::get;
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::auth::extract::{CurrentUser, Staff};
use crate::envelope::{Api, Envelope, JsonBody};
use crate::error::{Error, Result};
use crate::i18n::Msg;
use crate::openapi::Failure;
use crate::paging::{Page, Paging};
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(show_cart, clear_cart))
        .routes(routes!(show_cart_unslashed, clear_cart_unslashed))
        .routes(routes!(checkout::checkout))
        .routes(routes!(add_pass, remove_pass))
        .routes(routes!(add_event, remove_event))
        .routes(routes!(my_purchases))
        .routes(routes!(my_purchases_unslashed))
        .routes(routes!(all_orders))
        .routes(routes!(show_order))
        .routes(routes!(refund))
        .routes(routes!(plans::list, plans::create))
        .routes(routes!(plans::update, plans::retire))
        .routes(routes!(checkout::methods))
        .routes(routes!(billing::show, billing::save))
        .routes(routes!(checkout::pay_test))
        .routes(routes!(checkout::stripe_webhook))
}

/// The hosted test checkout page lives outside the API, at `/pay/{order}`.
pub fn pages() -> Router<AppState> {
    Router::new().route("/pay/{order_id}", get(checkout::pay_page))
}

/// The signed-in account's cart (any role): concerts and passes, in the order added.
#[utoipa::path(get, path = "/cart/", tag = "commerce", security(("bearer" = [])),
    responses((status = 200, description = "The cart's entries.", body = Envelope<Vec<cart::CartEntry>>)))]
async fn show_cart(
    State(app): State<AppState>,
    user: CurrentUser,
) -> Result<Api<Vec<cart::CartEntry>>> {
    Ok(Api::ok(cart::entries(&app, &user.account.id).await?))
}

/// The signed-in account's cart: `GET /cart/` without the slash.
#[utoipa::path(get, path = "/cart", tag = "commerce", security(("bearer" = [])),
    responses((status = 200, description = "The cart's entries.", body = Envelope<Vec<cart::CartEntry>>)))]
async fn show_cart_unslashed(
    app: State<AppState>,
    user: CurrentUser,
) -> Result<Api<Vec<cart::CartEntry>>> {
    show_cart(app, user).await
}

/// Put a concert in the signed-in account's cart, if that account may buy it now (one
/// ticket per concert: adding it twice keeps one entry).
#[utoipa::path(post, path = "/cart/{event_id}", tag = "commerce", security(("bearer" = [])),
    params(("event_id" = String, Path, description = "The concert's id")),
    responses((status = 200, description = "The cart with the concert.", body = Envelope<Vec<cart::CartEntry>>),
        (status = 409, description = "Not on sale now, or the account already has access.", body = Failure)))]
async fn add_event(
    State(app): State<AppState>,
    user: CurrentUser,
    Path(event_id): Path<String>,
) -> Result<Api<Vec<cart::CartEntry>>> {
    cart::add_event(&app, &user.account.id, &event_id).await?;
    show_cart(State(app), user).await
}

/// Take a concert out of the signed-in account's cart (nothing happens if it is not there).
#[utoipa::path(delete, path = "/cart/{event_id}", tag = "commerce", security(("bearer" = [])),
    params(("event_id" = String, Path, description = "The concert's id")),
    responses((status = 200, description = "The cart without the concert.", body = Envelope<Vec<cart::CartEntry>>)))]
async fn remove_event(
    State(app): State<AppState>,
    user: CurrentUser,
    Path(event_id): Path<String>,
) -> Result<Api<Vec<cart::CartEntry>>> {
    cart::remove(&app, &user.account.id, model::ItemKind::Event, &event_id).await?;
    show_cart(State(app), user).await
}

/// Put an all-access pass (an active pricing plan) in the signed-in account's cart.
#[utoipa::path(post, path = "/cart/passes/{plan_id}", tag = "commerce", security(("bearer" = [])),
    params(("plan_id" = String, Path, description = "The pricing plan's id")),
    responses((status = 200, description = "The cart with the pass.", body = Envelope<Vec<cart::CartEntry>>)))]
async fn add_pass(
    State(app): State<AppState>,
    user: CurrentUser,
    Path(plan_id): Path<String>,
) -> Result<Api<Vec<cart::CartEntry>>> {
    cart::add_pass(&app, &user.account.id, &plan_id).await?;
    show_cart(State(app), user).await
}

/// Take a pass out of the signed-in account's cart (nothing happens if it is not there).
#[utoipa::path(delete, path = "/cart/passes/{plan_id}", tag = "commerce", security(("bearer" = [])),
    params(("plan_id" = String, Path, description = "The pricing plan's id")),
    responses((status = 200, description = "The cart without the pass.", body = Envelope<Vec<cart::CartEntry>>)))]
async fn remove_pass(
    State(app): State<AppState>,
    user: CurrentUser,
    Path(plan_id): Path<String>,
) -> Result<Api<Vec<cart::CartEntry>>> {
    cart::remove(&app, &user.account.id, model::ItemKind::Pass, &plan_id).await?;
    show_cart(State(app), user).await
}

/// Empty the signed-in account's cart.
#[utoipa::path(delete, path = "/cart/", tag = "commerce", security(("bearer" = [])),
    responses((status = 200, description = "The cart, now empty.", body = Envelope<Vec<cart::CartEntry>>)))]
async fn clear_cart(
    State(app): State<AppState>,
    user: CurrentUser,
) -> Result<Api<Vec<cart::CartEntry>>> {
    cart::clear(&app, &user.account.id).await?;
    Ok(Api::ok(Vec::new()))
}

/// Empty the signed-in account's cart: `DELETE /cart/` without the slash.
#[utoipa::path(delete, path = "/cart", tag = "commerce", security(("bearer" = [])),
    responses((status = 200, description = "The cart, now empty.", body = Envelope<Vec<cart::CartEntry>>)))]
async fn clear_cart_unslashed(
    app: State<AppState>,
    user: CurrentUser,
) -> Result<Api<Vec<cart::CartEntry>>> {
    clear_cart(app, user).await
}

/// The signed-in account's orders, newest first, with their lines (spec: `GET
/// /api/v1/purchases/my/`).
#[utoipa::path(get, path = "/purchases/my/", tag = "commerce", security(("bearer" = [])),
    params(Paging),
    responses((status = 200, description = "A page of the account's orders.", body = Envelope<Page<orders::Order>>)))]
async fn my_purchases(
    State(app): State<AppState>,
    user: CurrentUser,
    paging: Paging,
) -> Result<Api<Page<orders::Order>>> {
    Ok(Api::ok(
        orders::page(&app.db, Some(&user.account.id), paging).await?,
    ))
}

/// The signed-in account's orders: `GET /purchases/my/` without the slash.
#[utoipa::path(get, path = "/purchases/my", tag = "commerce", security(("bearer" = [])),
    params(Paging),
    responses((status = 200, description = "A page of the account's orders.", body = Envelope<Page<orders::Order>>)))]
async fn my_purchases_unslashed(
    app: State<AppState>,
    user: CurrentUser,
    paging: Paging,
) -> Result<Api<Page<orders::Order>>> {
    my_purchases(app, user, paging).await
}

/// Every account's orders, newest first, for staff (admin, sa).
#[utoipa::path(get, path = "/orders", tag = "commerce", security(("bearer" = [])),
    params(Paging),
    responses((status = 200, description = "A page of all orders.", body = Envelope<Page<orders::Order>>)))]
async fn all_orders(
    State(app): State<AppState>,
    Staff(_): Staff,
    paging: Paging,
) -> Result<Api<Page<orders::Order>>> {
    Ok(Api::ok(orders::page(&app.db, None, paging).await?))
}

/// One order with its lines: the buyer's own, or any for staff.
#[utoipa::path(get, path = "/orders/{id}", tag = "commerce", security(("bearer" = [])),
    params(("id" = String, Path, description = "The order's id")),
    responses((status = 200, description = "The order.", body = Envelope<orders::Order>)))]
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

#[derive(Debug, Deserialize, ToSchema)]
struct RefundInput {
    /// Told to the buyer; blank means "refunded by the organiser".
    reason: Option<String>,
}

/// Refund what is left of a fulfilled order through its provider and end its tickets
/// and passes, for staff (admin, sa).
#[utoipa::path(post, path = "/orders/{id}/refund", tag = "commerce", security(("bearer" = [])),
    params(("id" = String, Path, description = "The order's id")),
    request_body = RefundInput,
    responses((status = 200, description = "The refunded order.", body = Envelope<orders::Order>),
        (status = 409, description = "The order is not fulfilled, is refunded already, or was paid through Stripe while Stripe is not configured.", body = Failure),
        (status = 502, description = "The payment provider refused the refund or did not answer.", body = Failure)))]
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
