//! Selling access: the cart, checkout through a payment provider, orders, tickets,
//! all-access passes, refunds and the organiser's billing details.

pub mod bank;
pub mod billing;
pub mod cart;
pub mod checkout;
pub mod connect;
pub mod export;
pub mod figures;
pub mod gifts;
pub mod model;
pub mod money;
pub mod orders;
mod pay_page;
pub mod plans;
pub mod promo;
pub mod providers;
pub mod refunds;
pub mod store;
pub mod tiers;
pub mod tips;

use axum::Router;
use axum::extract::State;
use axum::routing::get;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::auth::extract::{CurrentUser, IdRequest, Staff};
use crate::envelope::{Api, Envelope, JsonBody, QueryParams};
use crate::error::{Error, Result};
use crate::events::model::EventIdPath;
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
        .routes(routes!(add_event, remove_event, set_quantity))
        .routes(routes!(my_purchases))
        .routes(routes!(my_purchases_unslashed))
        .routes(routes!(all_orders))
        .routes(routes!(export_orders))
        .routes(routes!(show_order))
        .routes(routes!(show_receipt))
        .routes(routes!(figures::sales))
        .routes(routes!(refund))
        .routes(routes!(plans::list, plans::create))
        .routes(routes!(plans::update, plans::retire))
        .routes(routes!(checkout::methods))
        .routes(routes!(billing::show, billing::save))
        .routes(routes!(checkout::pay_test))
        .routes(routes!(checkout::stripe_webhook))
        .merge(tiers::router())
        .merge(connect::router())
        .merge(gifts::router())
        .merge(promo::router())
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

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
struct AddEventQuery {
    /// The ticket tier to buy (one of the concert's visible tiers, `GET /events/{id}`'s
    /// `tiers`); absent: the concert's default tier.
    tier: Option<String>,
    /// Pay what you want: the amount (minor units of the concert's currency) the buyer
    /// pays for the tier, at least its `minimumPrice`; absent: its suggested `price`.
    /// Refused for a fixed-price tier unless it is that price.
    #[param(minimum = 0, maximum = 100_000_000)]
    amount: Option<i64>,
    /// How many tickets of the tier (1 to 10, and no more than are left); absent: 1. The
    /// amount is per ticket.
    #[param(minimum = 1, maximum = 10)]
    quantity: Option<i64>,
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
struct QuantityQuery {
    /// How many tickets (1 to 10, and no more than are left).
    #[param(minimum = 1, maximum = 10)]
    quantity: i64,
}

/// Put a ticket of a concert in the signed-in account's cart, of its default tier or of
/// the tier chosen with `?tier=`, if that account may buy it now, at the amount named with
/// `?amount=` for a pay-what-you-want tier (per ticket), `?quantity=` tickets of it. One
/// entry per concert: adding it again keeps one entry, of the tier, amount and quantity
/// chosen last. Several tickets may be bought by an account that can listen already (they
/// are spares, to give); one may not.
#[utoipa::path(post, path = "/cart/{event_id}", tag = "commerce", security(("bearer" = [])),
    params(EventIdPath, AddEventQuery),
    responses((status = 200, description = "The cart with the concert.", body = Envelope<Vec<cart::CartEntry>>),
        (status = 404, description = "No such concert, or no such tier of it the public may buy (hidden tiers are not found).", body = Failure),
        (status = 409, description = "The concert or the tier is not on sale now (not open yet, closed, sold out), fewer tickets are left than asked for, or the account already has access (buying one).", body = Failure),
        (status = 422, description = "The amount is below the tier's minimum, above 1,000,000.00, or named for a fixed-price tier at another price; or the quantity is not 1 to 10.", body = Failure)))]
async fn add_event(
    IdRequest { app, user, id }: IdRequest,
    QueryParams(q): QueryParams<AddEventQuery>,
) -> Result<Api<Vec<cart::CartEntry>>> {
    cart::add_event(
        &app,
        &user.account.id,
        &id,
        q.tier.as_deref(),
        q.amount,
        q.quantity,
    )
    .await?;
    show_cart(State(app), user).await
}

/// Change how many tickets of a concert the signed-in account's cart holds (its tier and
/// amount stay).
#[utoipa::path(put, path = "/cart/{event_id}", tag = "commerce", security(("bearer" = [])),
    params(EventIdPath, QuantityQuery),
    responses((status = 200, description = "The cart with the new quantity.", body = Envelope<Vec<cart::CartEntry>>),
        (status = 404, description = "The concert is not in the cart.", body = Failure),
        (status = 409, description = "The tier is no longer on sale, or fewer tickets are left than asked for.", body = Failure),
        (status = 422, description = "The quantity is not 1 to 10.", body = Failure)))]
async fn set_quantity(
    IdRequest { app, user, id }: IdRequest,
    QueryParams(q): QueryParams<QuantityQuery>,
) -> Result<Api<Vec<cart::CartEntry>>> {
    cart::set_quantity(&app, &user.account.id, &id, q.quantity).await?;
    show_cart(State(app), user).await
}

/// Take a concert out of the signed-in account's cart (nothing happens if it is not there).
#[utoipa::path(delete, path = "/cart/{event_id}", tag = "commerce", security(("bearer" = [])),
    params(EventIdPath),
    responses((status = 200, description = "The cart without the concert.", body = Envelope<Vec<cart::CartEntry>>)))]
async fn remove_event(IdRequest { app, user, id }: IdRequest) -> Result<Api<Vec<cart::CartEntry>>> {
    cart::remove(&app, &user.account.id, model::ItemKind::Event, &id).await?;
    show_cart(State(app), user).await
}

/// Put an all-access pass (an active pricing plan) in the signed-in account's cart.
#[utoipa::path(post, path = "/cart/passes/{plan_id}", tag = "commerce", security(("bearer" = [])),
    params(("plan_id" = String, Path, description = "The pricing plan's id")),
    responses((status = 200, description = "The cart with the pass.", body = Envelope<Vec<cart::CartEntry>>)))]
async fn add_pass(IdRequest { app, user, id }: IdRequest) -> Result<Api<Vec<cart::CartEntry>>> {
    cart::add_pass(&app, &user.account.id, &id).await?;
    show_cart(State(app), user).await
}

/// Take a pass out of the signed-in account's cart (nothing happens if it is not there).
#[utoipa::path(delete, path = "/cart/passes/{plan_id}", tag = "commerce", security(("bearer" = [])),
    params(("plan_id" = String, Path, description = "The pricing plan's id")),
    responses((status = 200, description = "The cart without the pass.", body = Envelope<Vec<cart::CartEntry>>)))]
async fn remove_pass(IdRequest { app, user, id }: IdRequest) -> Result<Api<Vec<cart::CartEntry>>> {
    cart::remove(&app, &user.account.id, model::ItemKind::Pass, &id).await?;
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
        orders::page(
            &app.db,
            store::OrderFilter {
                account_id: Some(&user.account.id),
                ..Default::default()
            },
            paging,
        )
        .await?,
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

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
struct OrdersQuery {
    /// Part of the buyer's e-mail or name, of the order's id, or of a line's title.
    search: Option<String>,
    /// Only orders in this state.
    status: Option<model::OrderStatus>,
}

impl OrdersQuery {
    fn filter(&self) -> store::OrderFilter<'_> {
        store::OrderFilter {
            account_id: None,
            status: self.status,
            search: self.search.as_deref(),
        }
    }
}

/// Every account's orders, newest first, with their buyers, for staff (admin, sa);
/// narrowed by a search and a state.
#[utoipa::path(get, path = "/orders", tag = "commerce", security(("bearer" = [])),
    params(Paging, OrdersQuery),
    responses((status = 200, description = "A page of the matching orders.", body = Envelope<Page<orders::Order>>)))]
async fn all_orders(
    State(app): State<AppState>,
    Staff(_): Staff,
    paging: Paging,
    QueryParams(q): QueryParams<OrdersQuery>,
) -> Result<Api<Page<orders::Order>>> {
    Ok(Api::ok(orders::page(&app.db, q.filter(), paging).await?))
}

/// Every order matching the same search and state as `GET /orders`, as a CSV file
/// (RFC 4180, UTF-8, newest first, at most 10,000 orders), for staff (admin, sa).
/// Cells a spreadsheet would run as formulas are prefixed with `'`. `X-Encore-Truncated:
/// true` says orders were left out.
#[utoipa::path(get, path = "/orders/export.csv", tag = "commerce", security(("bearer" = [])),
    params(OrdersQuery),
    responses((status = 200, description = "The orders as CSV.", body = String, content_type = "text/csv")))]
async fn export_orders(
    State(app): State<AppState>,
    Staff(_): Staff,
    QueryParams(q): QueryParams<OrdersQuery>,
) -> Result<axum::response::Response> {
    use axum::http::header;
    use axum::response::IntoResponse;
    let (csv, cut) = export::orders_csv(&app.db, q.filter()).await?;
    let name = format!(
        "attachment; filename=\"encore-orders-{}.csv\"",
        &crate::db::iso8601(crate::db::now_ms())[..10]
    );
    Ok((
        [
            (header::CONTENT_TYPE, "text/csv; charset=utf-8".to_owned()),
            (header::CONTENT_DISPOSITION, name),
            (header::CACHE_CONTROL, "no-store".to_owned()),
            (
                header::HeaderName::from_static("x-encore-truncated"),
                cut.to_string(),
            ),
        ],
        csv,
    )
        .into_response())
}

/// The signed-in reader's order, or any order for staff; else not found.
async fn readable_order(app: &AppState, user: &CurrentUser, id: &str) -> Result<model::OrderRow> {
    store::order_by_id(&app.db, id)
        .await?
        .filter(|o| o.account_id == user.account.id || user.account.role().is_staff())
        .ok_or_else(|| Error::not_found(Msg::OrderNotFound))
}

/// One order with its lines and buyer: the buyer's own, or any for staff.
#[utoipa::path(get, path = "/orders/{id}", tag = "commerce", security(("bearer" = [])),
    params(("id" = String, Path, description = "The order's id")),
    responses((status = 200, description = "The order.", body = Envelope<orders::Order>)))]
async fn show_order(IdRequest { app, user, id }: IdRequest) -> Result<Api<orders::Order>> {
    let order = readable_order(&app, &user, &id).await?;
    Ok(Api::ok(orders::view(&app.db, order).await?))
}

/// One refund on a receipt.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct ReceiptRefund {
    /// Minor units, in the order's currency.
    amount: i64,
    reason: String,
    #[schema(format = DateTime)]
    created_at: String,
}

/// What a receipt shows: the order (lines, buyer, dates, state), who sold it and the
/// money given back. Encore charges no tax of its own: prices are what the buyer paid.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct Receipt {
    order: orders::Order,
    /// The organiser's billing address (Payments → Billing); fields are empty until set.
    seller: billing::Address,
    refunds: Vec<ReceiptRefund>,
    /// Minor units refunded in all.
    refunded: i64,
}

/// An order's receipt: the buyer's own, or any for staff.
///
/// Only an order that was paid (and perhaps refunded since) has one: a receipt is for
/// money taken.
#[utoipa::path(get, path = "/orders/{id}/receipt", tag = "commerce", security(("bearer" = [])),
    params(("id" = String, Path, description = "The order's id")),
    responses((status = 200, description = "The receipt.", body = Envelope<Receipt>),
        (status = 409, description = "The order was never paid (pending, failed or expired): it has no receipt.", body = Failure)))]
async fn show_receipt(IdRequest { app, user, id }: IdRequest) -> Result<Api<Receipt>> {
    let order = readable_order(&app, &user, &id).await?;
    if !order.status.is_settled() {
        return Err(Error::conflict(Msg::NoReceiptUnpaid));
    }
    let refunds: Vec<ReceiptRefund> = store::refunds_of_order(&app.db, &order.id)
        .await?
        .into_iter()
        .map(|r| ReceiptRefund {
            amount: r.amount_minor,
            reason: r.reason,
            created_at: crate::db::iso8601(r.created_at),
        })
        .collect();
    Ok(Api::ok(Receipt {
        refunded: refunds.iter().map(|r| r.amount).sum(),
        order: orders::view(&app.db, order).await?,
        seller: billing::seller(&app).await?,
        refunds,
    }))
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
    IdRequest { app, id, .. }: IdRequest<Staff>,
    JsonBody(input): JsonBody<RefundInput>,
) -> Result<Api<orders::Order>> {
    let reason = input
        .reason
        .filter(|r| !r.trim().is_empty())
        .unwrap_or_else(|| "refunded by the organiser".to_owned());
    let order = refunds::refund_order(&app, &id, &reason).await?;
    Ok(Api::ok(orders::view(&app.db, order).await?))
}
