//! Checkout: the cart becomes a pending order holding its seats, the buyer pays through
//! the configured provider, and the confirmation (the test provider's answer or Stripe's
//! signed webhook) fulfils the order once.

use std::net::IpAddr;

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::auth::extract::{ClientIp, CurrentUser, Staff};
use crate::crypto::{constant_time_eq, token_hash};
use crate::db::now_ms;
use crate::envelope::{Api, Envelope, JsonBody, QueryParams};
use crate::error::{Error, Result};
use crate::events::store as events;
use crate::state::AppState;

use super::cart;
use super::connect;
use super::model::{ItemKind, OrderRow, OrderStatus, event_line_title, pass_line_title};
use super::orders::{self, AfterRefusal, Fulfilment, ItemTier, NewItem, PromoClaim, Unpaid};
use super::pay_page::{self, PayPage};
use super::plans;
use super::promo::apply as promo_codes;
use super::promo::model::Line;
use super::promo::unlock;
use super::providers::{self, CardProblem, CheckoutOrder, LineItem, Provider, TestCard};
use super::store;
use super::tiers::model::tier_refusal;
use crate::i18n::{self, Lang, Msg};
use crate::openapi::Failure;

/// The `provider` of an order with nothing to pay: it is paid at checkout, without one.
pub const FREE: &str = "free";

/// Check out the signed-in account's cart: its concerts' seats are held for 15 minutes in
/// a pending order (replacing the account's earlier one), and the answer is the URL of
/// the payment page (the test checkout or Stripe's), in the request's language. A cart
/// whose total is 0 is paid at once, without a payment provider (even with payments
/// off): the answer is then the URL of the order's success page.
#[utoipa::path(post, path = "/cart/checkout", tag = "commerce", security(("bearer" = [])),
    responses((status = 200, description = "The payment page's URL.", body = Envelope<String>),
        (status = 409, description = "Payments are off (and the cart is not free), the cart is empty, an entry can no longer be bought (sold out, not on sale, already owned), the currencies differ, or another checkout of the account is starting.", body = Failure),
        (status = 502, description = "Stripe did not open a checkout session.", body = Failure)))]
pub async fn checkout(
    State(app): State<AppState>,
    user: CurrentUser,
    ClientIp(ip): ClientIp,
) -> Result<Api<String>> {
    Ok(Api::ok(
        start(&app, &user, Some(ip), i18n::current()).await?,
    ))
}

pub async fn start(
    app: &AppState,
    user: &CurrentUser,
    client_ip: Option<IpAddr>,
    language: Lang,
) -> Result<String> {
    let account_id = &user.account.id;
    orders::expire_overdue(&app.db).await?;
    // Many accounts from one address may not hold every seat between them.
    let client_ip = client_ip.map(|ip| ip.to_string());
    if let Some(ip) = &client_ip {
        let (held, first_lapse) = store::pending_from_client(&app.db, ip, account_id).await?;
        if held >= i64::from(app.config.holds_per_client) {
            let wait_ms = first_lapse.unwrap_or_default() - now_ms();
            return Err(Error::RateLimited {
                retry_after: u64::try_from(wait_ms / 1000).unwrap_or(0).max(1),
            });
        }
    }
    let rows = cart::lines(&app.db, account_id).await?;
    // A well-formed request the cart's state refuses, like the conflicts below.
    if rows.is_empty() {
        return Err(Error::conflict(Msg::CartEmpty));
    }
    let now = now_ms();
    // Hidden tiers the cart's promo code unlocks sell like visible ones (the code is read
    // once, for them and for what it takes off below).
    let cart_code = promo_codes::in_cart(app, account_id).await?;
    let unlocked = match &cart_code {
        Some(code) => unlock::in_cart(&app.db, account_id, code).await?,
        None => Vec::new(),
    };
    let mut items = Vec::with_capacity(rows.len());
    // Each line's concert's project (`None` for a pass): what a promo code applies to, and
    // where a destination charge would go.
    let mut projects = Vec::with_capacity(rows.len());
    let mut currencies = Vec::new();
    for store::CartRow {
        item_kind: kind,
        item_id: id,
        tier_id,
        amount_minor,
        quantity,
        ..
    } in rows
    {
        if kind == ItemKind::Event {
            let event = events::by_id(&app.db, &id)
                .await?
                .ok_or_else(|| Error::conflict(Msg::CartConcertGone))?;
            let tier = cart::tier_of_line(&app.db, &id, tier_id.as_deref())
                .await?
                .ok_or_else(|| Error::conflict(Msg::CartConcertGone))?
                .unlocked_by(&unlocked);
            if let Some(reason) = tier_refusal(&tier, &event, now) {
                return Err(Error::conflict(
                    Msg::TitledReason
                        .with("title", event.details.title.as_str())
                        .with("reason", reason),
                ));
            }
            let price = cart::line_price(&tier, amount_minor, &event.details.currency).map_err(
                |reason| {
                    Error::conflict(
                        Msg::TitledReason
                            .with("title", event.details.title.as_str())
                            .with("reason", reason),
                    )
                },
            )?;
            // Several tickets are for others (spares); one for someone who has access is not.
            if quantity == 1 && cart::owns(app, account_id, &event).await? {
                return Err(Error::conflict(
                    Msg::AlreadyHaveAccessTitled.with("title", event.details.title.as_str()),
                ));
            }
            currencies.push(event.details.currency.clone());
            projects.push(Some(event.project_id.clone()));
            items.push(NewItem {
                kind: ItemKind::Event,
                id,
                title: event_line_title(&event.details.artist_name, &event.details.title),
                price_minor: price * quantity,
                tier: Some(ItemTier {
                    id: tier.id,
                    name: tier.name,
                }),
                quantity,
            });
        } else {
            let plan = plans::by_id(&app.db, &id)
                .await?
                .filter(|p| p.active != 0)
                .ok_or_else(|| Error::conflict(Msg::CartPassGone))?;
            currencies.push(plan.currency.clone());
            projects.push(None);
            items.push(NewItem {
                kind: ItemKind::Pass,
                id,
                title: pass_line_title(&plan.name, plan.days),
                price_minor: plan.price_minor,
                tier: None,
                quantity: 1,
            });
        }
    }
    currencies.dedup();
    if currencies.len() > 1 {
        return Err(Error::conflict(Msg::MixedCurrencies));
    }
    let currency = currencies.remove(0);
    // The cart's promo code: each line's price becomes what is paid for it after the
    // code's share; `orders` takes the code's use with the seats and checks the shares.
    let promo = {
        let lines: Vec<Line<'_>> = items
            .iter()
            .zip(&projects)
            .map(|(item, project)| Line {
                price_minor: item.price_minor,
                concert: project.as_deref().map(|p| (item.id.as_str(), p)),
                currency: &currency,
            })
            .collect();
        promo_codes::for_checkout(app, account_id, cart_code, &lines).await?
    };
    if let Some((_, discounts)) = &promo {
        for (item, off) in items.iter_mut().zip(discounts) {
            item.price_minor -= off;
        }
    }
    // Nothing to pay (free or pay-what-you-want tickets at 0): no provider is involved,
    // even with payments off; anything else needs one.
    let free = items.iter().all(|i| i.price_minor == 0);
    if !free && matches!(app.payments, Provider::Off) {
        return Err(Error::conflict(Msg::PaymentsOff));
    }
    let provider = if free { FREE } else { app.payments.name() };
    // A new checkout replaces any earlier one of this account (its seats go back, and
    // its Stripe session is expired once the new order exists).
    let replaced_sessions = store::pending_stripe_sessions(&app.db, account_id).await?;
    let (order_id, token) = orders::create_pending(
        &app.db,
        account_id,
        client_ip.as_deref(),
        &items,
        &currency,
        provider,
        promo.as_ref().map(|(code, discounts)| PromoClaim {
            code_id: &code.id,
            projects: &projects,
            discounts,
        }),
    )
    .await?;
    expire_sessions(app, replaced_sessions).await;
    let public = &app.config.public_url;
    if free {
        // Paid at once: tickets, receipt and notices as for any payment.
        orders::fulfil(app, &order_id, None).await?;
        return Ok(format!("{public}/checkout-success?order={order_id}"));
    }
    match &app.payments {
        Provider::Test => Ok(pay_page::url(public, &order_id, &token, language)),
        // Refused above, before any order was made.
        Provider::Off => Err(Error::conflict(Msg::PaymentsOff)),
        Provider::Stripe(stripe) => {
            let lines: Vec<LineItem<'_>> = items
                .iter()
                .map(|i| LineItem {
                    name: &i.title,
                    amount_minor: i.price_minor,
                })
                .collect();
            let success_url = format!("{public}/checkout-success?order={order_id}");
            let order = CheckoutOrder {
                order_id: &order_id,
                currency: &currency,
                items: &lines,
                email: &user.account.login,
                success_url: &success_url,
                cancel_url: &format!("{public}/cart"),
            };
            open_stripe_session(app, stripe, order, &projects, now).await
        }
    }
}

/// Open a pending order's Stripe Checkout session: its URL. The order keeps the session's
/// id (and, for a destination charge, the connected account and the application fee);
/// when Stripe cannot be reached the order is closed as failed, its seats given back.
pub(crate) async fn open_stripe_session(
    app: &AppState,
    stripe: &providers::Stripe,
    order: CheckoutOrder<'_>,
    projects: &[Option<String>],
    now: i64,
) -> Result<String> {
    let total: i64 = order.items.iter().map(|i| i.amount_minor).sum();
    let destination = connect::manage::destination(app, projects, total).await?;
    let session = providers::SessionRequest {
        order,
        // Stripe sessions live at least 30 minutes; a payment after our 15-minute hold
        // is still honoured when the seats are free (see `orders::fulfil`).
        expires_at_secs: now / 1000 + 31 * 60,
        destination: destination.as_ref().map(connect::manage::as_destination),
    };
    match stripe.create_session(&session).await {
        Ok((session_id, url)) => {
            store::set_provider_ref(&app.db, order.order_id, &session_id).await?;
            if let Some((account, fee)) = &destination {
                store::set_destination(&app.db, order.order_id, account, *fee).await?;
            }
            Ok(url)
        }
        Err(err) => {
            let failed = Some("provider unavailable");
            orders::close_unpaid(&app.db, order.order_id, Unpaid::Failed, failed).await?;
            Err(err)
        }
    }
}

async fn payable_order(app: &AppState, order_id: &str, token: &str) -> Result<OrderRow> {
    let order = store::order_by_id(&app.db, order_id)
        .await?
        .filter(|o| constant_time_eq(&o.checkout_token_hash, &token_hash(token)))
        .ok_or_else(|| Error::not_found(Msg::CheckoutNotFound))?;
    Ok(order)
}

#[derive(Debug, Deserialize)]
pub struct PayPageQuery {
    token: Option<String>,
    lang: Option<String>,
}

/// The test provider's hosted checkout page (what Stripe's page is for Stripe).
pub async fn pay_page(
    State(app): State<AppState>,
    Path(order_id): Path<String>,
    QueryParams(q): QueryParams<PayPageQuery>,
) -> Response {
    let lang = q
        .lang
        .as_deref()
        .and_then(Lang::from_code)
        .unwrap_or_default();
    let token = q.token.unwrap_or_default();
    let page = match payable_order(&app, &order_id, &token).await {
        Err(_) => PayPage::not_found(lang),
        Ok(order) if order.status == OrderStatus::Pending => {
            let lines = store::order_items(&app.db, &order.id)
                .await
                .unwrap_or_default();
            PayPage::form(lang, &order, &lines, token)
        }
        Ok(order) => PayPage::closed(lang, order.status),
    };
    page.into_response()
}

/// A card for the test provider, from its hosted page.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TestPayment {
    /// The checkout token of the payment page's URL.
    token: String,
    /// A test card number (`4242 4242 4242 4242` succeeds; others decline or fail).
    card_number: String,
    /// `MM/YY`, not in the past.
    expiry: String,
    /// Three or four digits.
    cvc: String,
    #[allow(dead_code)]
    name: Option<String>,
    /// The page's language (`en`, `de`, `fr`, `es`, `fa`); the answer's messages follow it.
    lang: Option<String>,
}

/// A test payment that went through.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = TestPaymentResult)]
pub struct Paid {
    /// The order's id.
    order: String,
    /// Always `fulfilled`.
    status: &'static str,
    /// Where the page sends the buyer next.
    redirect: String,
}

/// The test provider charging a card for a pending order, from its hosted page (no
/// account: the checkout token authorises it). It answers in the language of the page
/// (its `lang`), else in the request's. Only while the test provider is configured.
#[utoipa::path(post, path = "/payments/test/{order_id}", tag = "commerce",
    params(("order_id" = String, Path, description = "The pending order's id")),
    request_body = TestPayment,
    responses((status = 200, description = "Paid: the order is fulfilled.", body = Envelope<Paid>),
        (status = 402, description = "The card was declined, lacked funds, or had a processing error: nothing was charged, and the checkout stays open for another card until it is paid or expires.", body = Failure),
        (status = 409, description = "The checkout expired, is no longer pending, or was paid meanwhile (nothing more is charged).", body = Failure)))]
pub async fn pay_test(
    State(app): State<AppState>,
    Path(order_id): Path<String>,
    JsonBody(input): JsonBody<TestPayment>,
) -> Response {
    let lang = input
        .lang
        .as_deref()
        .and_then(Lang::from_code)
        .unwrap_or_else(i18n::current);
    i18n::scope(lang, async move {
        charge_test_card(&app, &order_id, input)
            .await
            .into_response()
    })
    .await
}

async fn charge_test_card(app: &AppState, order_id: &str, input: TestPayment) -> Result<Api<Paid>> {
    if !matches!(app.payments, Provider::Test) {
        return Err(Error::not_found(Msg::TestProviderOff));
    }
    let order = payable_order(app, order_id, &input.token).await?;
    if order.status != OrderStatus::Pending || order.expires_at <= now_ms() {
        if order.status == OrderStatus::Pending {
            orders::close_unpaid(&app.db, &order.id, Unpaid::Expired, None).await?;
        }
        return Err(Error::conflict(Msg::CheckoutExpired));
    }
    let today = time::OffsetDateTime::now_utc();
    let outcome = providers::test_card(
        &input.card_number,
        &input.expiry,
        &input.cvc,
        today.year(),
        u8::from(today.month()),
    )
    .map_err(|problem| {
        Error::unprocessable(match problem {
            CardProblem::InvalidNumber => Msg::CardInvalidNumber,
            CardProblem::BadExpiry => Msg::CardBadExpiry,
            CardProblem::Expired => Msg::CardExpired,
            CardProblem::BadCvc => Msg::CardBadCvc,
            CardProblem::NotATestCard => Msg::UseTestCard,
        })
    })?;
    let decline = |message: Msg| Error::PaymentRequired(message.into());
    match outcome {
        TestCard::Succeeds => {
            let reference = format!("test_{}", crate::crypto::random_token(12));
            // Two cards racing on one page: the order is paid once, and the second is
            // told so (its charge is never taken).
            if orders::fulfil(app, &order.id, Some(&reference)).await? == Fulfilment::AlreadyDone {
                return Err(Error::conflict(Msg::CheckoutAlreadyPaid));
            }
            // A tipper goes back to the concert's room; a buyer to the order's success page.
            let redirect = match super::tips::store::of_order(&app.db, &order.id).await? {
                Some(tip) => super::tips::model::back_to_room(&tip.event_id, &order.id),
                None => format!("/checkout-success?order={}", order.id),
            };
            Ok(Api::ok(Paid {
                redirect,
                order: order.id,
                status: "fulfilled",
            }))
        }
        TestCard::ProcessingError => Err(decline(Msg::CardProcessingError)),
        TestCard::Declined | TestCard::InsufficientFunds => {
            // The buyer reads the card's message; the staff, why it failed.
            let (message, why) = if outcome == TestCard::Declined {
                (Msg::CardDeclined, Msg::NoticeWhyDeclined)
            } else {
                (Msg::CardInsufficientFunds, Msg::NoticeWhyInsufficientFunds)
            };
            // The checkout stays open for another card, its seats held until it lapses;
            // the order keeps the reason as the buyer read it.
            let reason = message.render(i18n::current());
            orders::decline(app, &order.id, &reason, why, AfterRefusal::StaysOpen).await?;
            Err(decline(message))
        }
    }
}

/// Stripe's event was taken (`duplicate` when it had been already).
#[derive(Debug, Serialize, ToSchema)]
pub struct WebhookAnswer {
    received: bool,
    duplicate: bool,
}

/// Stripe's webhook (called by Stripe, not by people): checkout sessions completed,
/// paid later, failed or expired fulfil or close their order. Each event is handled
/// once; a payment that can no longer buy anything is refunded. Only while Stripe is
/// configured.
#[utoipa::path(post, path = "/payments/stripe/webhook", tag = "commerce",
    params(("Stripe-Signature" = String, Header,
        description = "Stripe's signature of the raw body: `t=<unix seconds>,v1=<hex HMAC-SHA256 of \"<t>.<body>\" with the webhook's signing secret>` (other schemes ignored). Refused when missing, wrong, or more than 300 seconds old.")),
    request_body(content = Object, content_type = "application/json",
        description = "A Stripe event, as Stripe sends it (`id`, `type`, `data.object`)."),
    responses((status = 200, description = "Received.", body = Envelope<WebhookAnswer>),
        (status = 404, description = "Stripe is not configured.", body = Failure),
        (status = 502, description = "Stripe could not be reached to refund a payment that buys nothing; Stripe delivers the event again.", body = Failure)))]
pub async fn stripe_webhook(
    State(app): State<AppState>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Api<WebhookAnswer>> {
    // An unsigned request is malformed whether or not Stripe is configured.
    let signature = headers
        .get("stripe-signature")
        .and_then(|v| v.to_str().ok())
        .ok_or_else(|| Error::bad_request(Msg::MissingStripeSignature))?;
    let stripe = app
        .payments
        .stripe()
        .ok_or_else(|| Error::not_found(Msg::StripeNotConfigured))?;
    stripe.verify_signature(signature, &body, now_ms() / 1000)?;
    let event: serde_json::Value =
        serde_json::from_slice(&body).map_err(|_| Error::bad_request(Msg::WebhookNotJson))?;
    let (Some(id), Some(kind)) = (event["id"].as_str(), event["type"].as_str()) else {
        return Err(Error::bad_request(Msg::WebhookNoIdOrType));
    };
    let first_time = store::record_payment_event(&app.db, id, kind, now_ms()).await?;
    if !first_time {
        return Ok(Api::ok(WebhookAnswer {
            received: true,
            duplicate: true,
        }));
    }
    let session = &event["data"]["object"];
    let order_id = session["client_reference_id"]
        .as_str()
        .or_else(|| session["metadata"]["order_id"].as_str());
    let handled = match (kind, order_id) {
        ("checkout.session.completed", Some(order)) if session["payment_status"] == "paid" => {
            fulfil_from_webhook(&app, order, session).await
        }
        ("checkout.session.async_payment_succeeded", Some(order)) => {
            fulfil_from_webhook(&app, order, session).await
        }
        ("checkout.session.async_payment_failed", Some(order)) => orders::decline(
            &app,
            order,
            "The payment failed.",
            Msg::NoticeWhyFailedLater,
            AfterRefusal::Fails,
        )
        .await
        .map(|_| ()),
        ("checkout.session.expired", Some(order)) => {
            orders::close_unpaid(&app.db, order, Unpaid::Expired, None)
                .await
                .map(|_| ())
        }
        ("account.updated", _) => connect::manage::account_updated(&app.db, &event).await,
        _ => Ok(()),
    };
    if let Err(err) = handled {
        // Let Stripe retry: forget that we saw this event.
        store::forget_payment_event(&app.db, id).await?;
        return Err(err);
    }
    Ok(Api::ok(WebhookAnswer {
        received: true,
        duplicate: false,
    }))
}

/// A payment Stripe confirmed: fulfil the order it is for, or give the money back. Money
/// is never kept for nothing: a session that is not the order's own (another session, or
/// another amount), a concert sold out or cancelled meanwhile, a checkout replaced by a
/// newer one that was paid too — each is refunded, and the webhook answers 2xx so Stripe
/// stops retrying. Only a failure on our side (the database, Stripe unreachable) answers
/// an error, so Stripe delivers the event again.
async fn fulfil_from_webhook(
    app: &AppState,
    order_id: &str,
    session: &serde_json::Value,
) -> Result<()> {
    let payment = session["payment_intent"].as_str();
    let order = store::order_by_id(&app.db, order_id).await?;
    let refusal = match &order {
        None => Some("no such order"),
        Some(order) if !session_matches(order, session) => Some("session does not match the order"),
        Some(_) => match orders::fulfil(app, order_id, payment).await {
            Ok(Fulfilment::Done | Fulfilment::AlreadyDone) => None,
            Err(err) if err.status().is_client_error() => Some("the order cannot be fulfilled"),
            Err(err) => return Err(err),
        },
    };
    let Some(reason) = refusal else {
        return record_fee(app, order_id, payment).await;
    };
    let amount = session["amount_total"]
        .as_i64()
        .or(order.as_ref().map(|o| o.total_minor))
        .unwrap_or_default();
    tracing::warn!(
        order = order_id,
        reason,
        "refunding a payment that buys nothing"
    );
    if let (Some(stripe), Some(payment)) = (app.payments.stripe(), payment)
        && amount > 0
    {
        // Only the order's own session was a destination charge to its connected account.
        let reverse = order
            .as_ref()
            .is_some_and(|o| o.connect_account.is_some() && session_matches(o, session));
        stripe
            .refund(
                payment,
                amount,
                &format!("unfulfillable-{payment}"),
                reverse,
            )
            .await?;
    }
    if order.is_some() {
        orders::close_unpaid(
            &app.db,
            order_id,
            Unpaid::Failed,
            Some("refunded: it could not be fulfilled"),
        )
        .await?;
    }
    Ok(())
}

/// Keep the fee Stripe took on a fulfilled order (its payment's balance transaction), for
/// the statements. A failure answers an error, so Stripe delivers the event again (the
/// order, already fulfilled, is not fulfilled twice).
async fn record_fee(app: &AppState, order_id: &str, payment: Option<&str>) -> Result<()> {
    let (Some(stripe), Some(payment)) = (app.payments.stripe(), payment) else {
        return Ok(());
    };
    let fee = stripe.fee_of(payment).await?;
    store::set_fee(&app.db, order_id, fee).await
}

/// Whether a confirmed session is this order's own: its session (or, once paid, its
/// payment), its amount and its currency.
fn session_matches(order: &OrderRow, session: &serde_json::Value) -> bool {
    let reference = match order.status {
        status if status.is_settled() => session["payment_intent"].as_str(),
        _ => session["id"].as_str(),
    };
    order.provider == "stripe"
        && reference.is_some()
        && order.provider_ref.as_deref() == reference
        && session["amount_total"].as_i64() == Some(order.total_minor)
        && session["currency"]
            .as_str()
            .is_some_and(|c| c.eq_ignore_ascii_case(&order.currency))
}

/// Expire Stripe sessions that must no longer be paid. Best effort: a session paid anyway
/// is refunded when its webhook arrives (`fulfil_from_webhook`).
pub async fn expire_sessions(app: &AppState, sessions: Vec<String>) {
    let Some(stripe) = app.payments.stripe() else {
        return;
    };
    for session in sessions {
        if let Err(err) = stripe.expire_session(&session).await {
            tracing::warn!(session, error = %err, "could not expire a Stripe session");
        }
    }
}

/// A payment provider and its state.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = PaymentMethod)]
pub struct Method {
    /// `test` or `stripe`.
    #[schema(schema_with = provider_id)]
    id: &'static str,
    name: &'static str,
    enabled: bool,
    configured: bool,
    /// Whether Stripe accepts the secret key (`null` for the test provider, or Stripe
    /// not configured).
    #[schema(required = true)]
    keys_valid: Option<bool>,
    /// When the last Stripe webhook arrived.
    #[schema(format = DateTime, required = true)]
    last_webhook_at: Option<String>,
}

fn provider_id() -> utoipa::openapi::Object {
    crate::openapi::one_of(&["test", "stripe"])
}

/// Which payment providers are enabled and configured, and for Stripe whether its keys
/// work and when its webhook last called, for staff (admin, sa).
#[utoipa::path(get, path = "/payments/methods", tag = "commerce", security(("bearer" = [])),
    responses((status = 200, description = "The providers.", body = Envelope<Vec<Method>>)))]
pub async fn methods(State(app): State<AppState>, Staff(_): Staff) -> Result<Api<Vec<Method>>> {
    let stripe = app.payments.stripe();
    let last = store::last_payment_event_at(&app.db).await?;
    let keys_valid = match stripe {
        Some(stripe) => Some(stripe.keys_work().await),
        None => None,
    };
    Ok(Api::ok(vec![
        Method {
            id: "test",
            name: "Encore test checkout",
            enabled: matches!(app.payments, Provider::Test),
            configured: matches!(app.payments, Provider::Test),
            keys_valid: None,
            last_webhook_at: None,
        },
        Method {
            id: "stripe",
            name: "Stripe Checkout",
            enabled: stripe.is_some(),
            configured: stripe.is_some(),
            keys_valid,
            last_webhook_at: last.map(crate::db::iso8601),
        },
    ]))
}
