//! Refunds: an admin refunding an order, and a cancelled concert refunding its tickets and
//! the tips given to its artist.
//! The provider is refunded first; only then are tickets and passes revoked, so a failed
//! provider call leaves everything as it was.

use crate::accounts::model::{AccountChanged, AccountRow};
use crate::db::now_ms;
use crate::error::{Error, Result};
use crate::events::model::EventRow;
use crate::live::activity::Activity;
use crate::messaging::OutboundMessage;
use crate::notifications::{Notice, Outbox};
use crate::state::AppState;

use super::model::{ItemKind, OrderRow, OrderStatus};
use super::money;
use super::providers::Provider;
use super::store;
use crate::i18n::{Arg, Lang, Msg};

async fn pay_back(
    app: &AppState,
    order: &OrderRow,
    amount: i64,
    key: &str,
) -> Result<Option<String>> {
    match (
        &app.payments,
        order.provider.as_str(),
        order.provider_ref.as_deref(),
    ) {
        (Provider::Stripe(stripe), "stripe", Some(payment)) if amount > 0 => {
            let reverse = order.connect_account.is_some();
            Ok(Some(stripe.refund(payment, amount, key, reverse).await?))
        }
        (_, "stripe", _) if amount > 0 => Err(Error::conflict(Msg::RefundInStripe)),
        _ => Ok(None),
    }
}

/// Refund what is left of an order and end its access; `reason` is an admin's own words,
/// recorded and told as they are.
pub async fn refund_order(app: &AppState, order_id: &str, reason: &str) -> Result<OrderRow> {
    refund_whole(app, order_id, reason, Arg::from(reason), None).await
}

/// Refund what is left of an order: `recorded` is kept on the refund, `told` is what its
/// buyer reads (in their language), `event_id` the cancelled concert it is for, if any.
async fn refund_whole(
    app: &AppState,
    order_id: &str,
    recorded: &str,
    told: Arg,
    event_id: Option<&str>,
) -> Result<OrderRow> {
    let order = store::order_by_id(&app.db, order_id)
        .await?
        .ok_or_else(|| Error::not_found(Msg::OrderNotFound))?;
    if order.status != OrderStatus::Fulfilled {
        return Err(Error::conflict(
            Msg::OnlyFulfilledRefund.with("status", order.status.in_words()),
        ));
    }
    let buyer = buyer_of(app, &order).await?;
    let amount = order.total_minor - store::refunded_so_far(&app.db, order_id).await?;
    let provider_ref = pay_back(app, &order, amount, &format!("refund-{order_id}")).await?;
    let now = now_ms();
    let tickets = store::live_access_of_order(&app.db, ItemKind::Event, order_id).await?;
    let passes = store::live_access_of_order(&app.db, ItemKind::Pass, order_id).await?;
    // Tickets given from the order go too, claimed or not.
    let claimants =
        super::gifts::store::other_holders_of_order(&app.db, order_id, &buyer.id).await?;
    let mut tx = app.db.begin().await?;
    if !store::mark_refunded(&mut *tx, order_id, now).await? {
        return Err(Error::conflict(Msg::AlreadyRefunded));
    }
    store::release_seats(&mut tx, order_id, store::SeatsOf::LiveTickets).await?;
    for kind in [ItemKind::Event, ItemKind::Pass] {
        store::revoke_access_of_order(&mut *tx, kind, order_id, now).await?;
    }
    super::gifts::store::revoke_of_order(&mut *tx, order_id, now).await?;
    store::insert_refund(
        &mut *tx,
        order_id,
        amount,
        recorded,
        provider_ref.as_deref(),
        event_id,
        now,
    )
    .await?;
    let reason = told;
    let mut outbox = Outbox::default();
    let issued = Notice::new(
        Msg::NoticeRefundIssuedTitle.with(
            "amount",
            Arg::figure(money::format(amount, &order.currency)),
        ),
        Msg::NoticeRefundIssuedBody.with("reason", reason.clone()),
        format!("/receipts/{}", order.id),
    );
    outbox.tell_account(&mut tx, &buyer, &issued).await?;
    let activity = Activity::refund(&buyer, amount, &order.currency, None);
    activity.record(&mut *tx).await?;
    tx.commit().await?;
    outbox.publish(&app.db, &app.bus).await;
    activity.publish(&app.bus).await;
    // Listening ends now, not at the next token check against the database.
    for ticket in &tickets {
        app.stream_access.revoke(ticket);
    }
    for pass in &passes {
        app.stream_access.revoke_pass(pass);
    }
    // The buyer's open sockets check again what they may follow: a concert's room is for
    // its ticket holders.
    app.publish(AccountChanged::of(&buyer.id));
    for claimant in &claimants {
        app.publish(AccountChanged::of(claimant));
    }
    tell_buyer(app, &buyer, &order, amount, &reason);
    Ok(store::order_by_id(&app.db, order_id)
        .await?
        .unwrap_or(order))
}

/// Refund every live ticket of a concert (it was cancelled), then every tip paid to its
/// artist (a concert may be cancelled while it is live, after tips were given for it).
/// An order left with nothing live becomes `refunded`. The refund records keep `reason`
/// in English; each buyer reads it in their language.
pub async fn refund_event(app: &AppState, event: &EventRow, reason: Msg) -> Result<usize> {
    let mut refunded = refund_tickets_of_event(app, event, reason).await?;
    let recorded = reason.render(Lang::English);
    for order_id in super::tips::store::paid_orders_of_event(&app.db, &event.id).await? {
        let told = Arg::from(
            Msg::TitledReason
                .with("title", event.details.title.as_str())
                .with("reason", reason),
        );
        match refund_whole(app, &order_id, &recorded, told, Some(&event.id)).await {
            Ok(_) => refunded += 1,
            // Refunded meanwhile (by an admin, or by another instance cancelling it too).
            Err(err) if err.status() == axum::http::StatusCode::CONFLICT => {}
            Err(err) => return Err(err),
        }
    }
    Ok(refunded)
}

async fn refund_tickets_of_event(app: &AppState, event: &EventRow, reason: Msg) -> Result<usize> {
    let recorded = reason.render(Lang::English);
    let tickets = store::live_tickets_of_event(&app.db, &event.id).await?;
    let mut refunded = 0;
    for (ticket_id, order_id, price) in tickets {
        let Some(order) = store::order_by_id(&app.db, &order_id).await? else {
            continue;
        };
        let buyer = buyer_of(app, &order).await?;
        let provider_ref = pay_back(app, &order, price, &format!("refund-{ticket_id}")).await?;
        let mut tx = app.db.begin().await?;
        let now = now_ms();
        if !store::revoke_ticket(&mut *tx, &ticket_id, now).await? {
            continue;
        }
        // A pending gift of it ends; a claimed one ended with the ticket.
        super::gifts::store::revoke_of_ticket(&mut *tx, &ticket_id, now).await?;
        store::insert_refund(
            &mut *tx,
            &order_id,
            price,
            &recorded,
            provider_ref.as_deref(),
            Some(&event.id),
            now,
        )
        .await?;
        store::mark_refunded_when_nothing_left(&mut *tx, &order_id, now).await?;
        let why = Arg::from(
            Msg::TitledReason
                .with("title", event.details.title.as_str())
                .with("reason", reason),
        );
        let mut outbox = Outbox::default();
        let cancelled = Notice::new(
            Msg::NoticeCancelledTitle.with("title", event.details.title.as_str()),
            Msg::NoticeCancelledBody
                .with("amount", Arg::figure(money::format(price, &order.currency))),
            // The refund it tells of, on the order's receipt.
            format!("/receipts/{}", order.id),
        );
        outbox.tell_account(&mut tx, &buyer, &cancelled).await?;
        let activity = Activity::refund(&buyer, price, &order.currency, Some(event));
        activity.record(&mut *tx).await?;
        tx.commit().await?;
        outbox.publish(&app.db, &app.bus).await;
        activity.publish(&app.bus).await;
        app.stream_access.revoke(&ticket_id);
        app.publish(AccountChanged::of(&buyer.id));
        tell_buyer(app, &buyer, &order, price, &why);
        refunded += 1;
    }
    Ok(refunded)
}

async fn buyer_of(app: &AppState, order: &OrderRow) -> Result<AccountRow> {
    crate::accounts::store::by_id(&app.db, &order.account_id)
        .await?
        .ok_or_else(|| Error::internal("an order's buyer is gone"))
}

/// The refund by e-mail, in the buyer's language.
fn tell_buyer(app: &AppState, account: &AccountRow, order: &OrderRow, amount: i64, reason: &Arg) {
    let (lang, amount) = (account.language, money::format(amount, &order.currency));
    let reason = reason.render(lang, &account.zone());
    app.messenger.send(OutboundMessage::email(
        &account.login,
        Msg::RefundSubject.render(lang),
        Msg::RefundBody
            .with("name", account.display_name())
            .with("amount", Arg::figure(amount))
            .with("order", order.id.as_str())
            .with("reason", reason.as_str())
            .render(lang),
    ));
}
