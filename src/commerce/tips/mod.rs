//! Tips during the show (issue 31): a ticket or pass holder tips the concert's artist,
//! inside its listening window, through the same payment provider as a checkout.
//!
//! A tip is an order of its own with no lines (no seat, no ticket) and a `tips` row naming
//! its concert. So the provider's pages and webhook, the one-pending-order rule, receipts,
//! refunds (`POST /orders/{id}/refund`) and the provider's fee are the orders' own, and the
//! statements read a tip as one more line of money taken for the concert's project, shared
//! in refunds and fees as a ticket's line is. Paid, it is said in the room and on the
//! artist's live panel (`announce`).

pub mod announce;
pub mod model;
pub mod store;

use axum::extract::{Path, State};
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use self::model::{Tip, TipList, TipOptions, TipSettings, back_to_room, check_message, totals};
use crate::auth::extract::{ClientIp, CurrentUser, IdRequest};
use crate::chat::model::display_name;
use crate::commerce::checkout::{expire_sessions, open_stripe_session};
use crate::commerce::orders::{self, RESERVATION_MS};
use crate::commerce::pay_page;
use crate::commerce::providers::{CheckoutOrder, LineItem, Provider};
use crate::commerce::store as orders_store;
use crate::crypto::{random_token, token_hash};
use crate::db::{iso8601, now_ms};
use crate::envelope::{Api, Envelope, JsonBody};
use crate::error::{Error, Result};
use crate::events::extract::{ManagedEvent, ManagerRefusals};
use crate::events::model::{ConcertPath, EventRow, EventStatus};
use crate::i18n::{self, Lang, Msg};
use crate::openapi::Failure;
use crate::state::AppState;
use crate::stream::access::sessions;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(tip_options))
        .routes(routes!(set_tip_settings))
        .routes(routes!(give_tip, tips_of_concert))
}

/// The most tips the artist's panel lists.
const LIST_LIMIT: i64 = 200;

/// What the tip form of a concert offers: its currency, the presets, the minimum and the
/// maximum (minor units), the longest message. For any signed-in account.
#[utoipa::path(get, path = "/events/{id}/tips/options", tag = "commerce", security(("bearer" = [])),
    params(ConcertPath),
    responses((status = 200, description = "The tip form's options.", body = Envelope<TipOptions>),
        (status = 404, description = "No such concert.", body = Failure)))]
async fn tip_options(IdRequest { app, id, .. }: IdRequest) -> Result<Api<TipOptions>> {
    let event = crate::events::load(&app, &id).await?;
    if event.status == EventStatus::Draft {
        return Err(Error::not_found(Msg::ConcertNotFound));
    }
    Ok(Api::ok(options_of(&app, &event).await?))
}

/// A concert's tip options: the defaults in its currency, or what its artist or staff set.
async fn options_of(app: &AppState, event: &EventRow) -> Result<TipOptions> {
    let settings = store::settings_of(&app.db, &event.id).await?;
    Ok(TipOptions::with(&event.details.currency, settings.as_ref()))
}

/// Sets a concert's tips: on or off, the presets offered and the smallest tip (minor units
/// of its currency), for its managers (staff, its project's members). Answers the tip
/// form's options as they now are.
#[utoipa::path(put, path = "/events/{id}/tips/settings", tag = "events", security(("bearer" = [])),
    params(ConcertPath),
    request_body = TipSettings,
    responses((status = 200, description = "The tip form's options as set.", body = Envelope<TipOptions>),
        ManagerRefusals,
        (status = 422, description = "The minimum is not above 0 and at most the maximum, or the presets are not 1 to 6 amounts from the minimum to the maximum.", body = Failure)))]
async fn set_tip_settings(
    State(app): State<AppState>,
    ManagedEvent { event, .. }: ManagedEvent,
    JsonBody(input): JsonBody<TipSettings>,
) -> Result<Api<TipOptions>> {
    let settings = input.checked(&event.details.currency)?;
    store::set_settings(&app.db, &event.id, &settings, now_ms()).await?;
    Ok(Api::ok(TipOptions::with(
        &event.details.currency,
        Some(&settings),
    )))
}

/// A tip to give.
#[derive(Debug, Deserialize, ToSchema)]
pub struct NewTip {
    /// Minor units of the concert's currency: a preset or one's own, from the minimum to
    /// the maximum of `GET /events/{id}/tips/options`.
    pub amount: i64,
    /// Shown with the tip in the room and on the artist's panel; at most 140 characters.
    pub message: Option<String>,
}

/// Tip the concert's artist: a pending order of the tip (replacing the account's earlier
/// checkout, as a new checkout does) and the URL of its payment page (the test checkout or
/// Stripe's), which sends the tipper back to the concert's stage once paid. Only a holder
/// of a ticket (or of a pass that may listen) inside the listening window.
#[utoipa::path(post, path = "/events/{id}/tips", tag = "commerce", security(("bearer" = [])),
    params(ConcertPath),
    request_body = NewTip,
    responses((status = 200, description = "The payment page's URL.", body = Envelope<String>),
        (status = 403, description = "No ticket or pass for the concert, outside its listening window, or the concert was cancelled.", body = Failure),
        (status = 404, description = "No such concert.", body = Failure),
        (status = 409, description = "Payments are off, or another checkout of the account is starting.", body = Failure),
        (status = 422, description = "Tips are off for the concert, the amount is below its minimum or above the maximum, or the message is too long.", body = Failure),
        (status = 502, description = "Stripe did not open a checkout session.", body = Failure)))]
async fn give_tip(
    State(app): State<AppState>,
    user: CurrentUser,
    ClientIp(ip): ClientIp,
    Path(id): Path<String>,
    JsonBody(input): JsonBody<NewTip>,
) -> Result<Api<String>> {
    let event = crate::events::load(&app, &id).await?;
    Ok(Api::ok(
        start(&app, &user, &event, input, Some(ip), i18n::current()).await?,
    ))
}

/// Begin a tip of `user` to `event`: checked, written as a pending order, and answered as
/// the URL of its payment page.
pub async fn start(
    app: &AppState,
    user: &CurrentUser,
    event: &EventRow,
    input: NewTip,
    client_ip: Option<std::net::IpAddr>,
    language: Lang,
) -> Result<String> {
    if event.status == EventStatus::Draft {
        return Err(Error::not_found(Msg::ConcertNotFound));
    }
    let account_id = &user.account.id;
    // Cancelled, outside the window, or no ticket nor pass: refused as listening is.
    sessions::admit(&app.db, account_id, event, app.hub.on_air(&event.id)).await?;
    let currency = event.details.currency.as_str();
    let amount = options_of(app, event).await?.check_amount(input.amount)?;
    let message = check_message(input.message.as_deref())?;
    if matches!(app.payments, Provider::Off) {
        return Err(Error::conflict(Msg::PaymentsOff));
    }
    let order_id = uuid::Uuid::new_v4().to_string();
    let token = random_token(32);
    let now = now_ms();
    let replaced_sessions = orders_store::pending_stripe_sessions(&app.db, account_id).await?;
    let client_ip = client_ip.map(|ip| ip.to_string());
    let mut tx = orders::begin_checkout(&app.db, account_id).await?;
    orders_store::insert_pending_order(
        &mut *tx,
        &orders_store::NewOrder {
            id: &order_id,
            account_id,
            total_minor: amount,
            currency,
            provider: app.payments.name(),
            checkout_token_hash: &token_hash(&token),
            created_at: now,
            expires_at: now + RESERVATION_MS,
            client_ip: client_ip.as_deref(),
            promo: None,
        },
    )
    .await
    .map_err(|e| crate::error::conflict_on_unique(e, Msg::CheckoutInProgress))?;
    store::insert(
        &mut *tx,
        &store::TipRow {
            order_id: order_id.clone(),
            event_id: event.id.clone(),
            account_id: account_id.clone(),
            amount_minor: amount,
            currency: currency.to_owned(),
            message,
            created_at: now,
        },
    )
    .await?;
    tx.commit().await?;
    expire_sessions(app, replaced_sessions).await;
    let public = &app.config.public_url;
    match &app.payments {
        Provider::Test => Ok(pay_page::url(public, &order_id, &token, language)),
        Provider::Off => Err(Error::conflict(Msg::PaymentsOff)),
        Provider::Stripe(stripe) => {
            let name = Msg::TipLineTitle
                .with("artist", event.details.artist_name.as_str())
                .render(language);
            let lines = [LineItem {
                name: &name,
                amount_minor: amount,
            }];
            // A destination charge when the concert's project takes charges through
            // Connect, with the platform fee as the application fee, as its tickets are.
            let success_url = format!("{public}{}", back_to_room(&event.id, &order_id));
            let order = CheckoutOrder {
                order_id: &order_id,
                currency,
                items: &lines,
                email: &user.account.login,
                success_url: &success_url,
                cancel_url: &format!("{public}/stage/{}", event.id),
            };
            let project = [Some(event.project_id.clone())];
            open_stripe_session(app, stripe, order, &project, now).await
        }
    }
}

/// The concert's paid tips (refunded ones left out), newest first (at most 200), and
/// their totals per currency: the artist's live panel. For the concert's managers (its
/// project's members, staff); new ones arrive as `tip_paid` on `event:<id>`.
#[utoipa::path(get, path = "/events/{id}/tips", tag = "commerce", security(("bearer" = [])),
    params(ConcertPath),
    responses((status = 200, description = "The concert's tips.", body = Envelope<TipList>),
        ManagerRefusals))]
async fn tips_of_concert(
    State(app): State<AppState>,
    ManagedEvent { event, .. }: ManagedEvent,
) -> Result<Api<TipList>> {
    let rows = store::paid_of_event(&app.db, &event.id, LIST_LIMIT).await?;
    let amounts = store::amounts_of_event(&app.db, &event.id).await?;
    let tips = rows
        .into_iter()
        .map(|row| Tip {
            id: row.order_id,
            event_id: row.event_id,
            author: display_name(&row.first_name, &row.last_name),
            amount: row.amount_minor,
            currency: row.currency,
            message: row.message,
            paid_at: iso8601(row.paid_at),
        })
        .collect();
    Ok(Api::ok(TipList {
        tips,
        totals: totals(&amounts),
    }))
}
