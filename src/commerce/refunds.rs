//! Refunds: an admin refunding an order, and a cancelled concert refunding its tickets.
//! The provider is refunded first; only then are tickets and passes revoked, so a failed
//! provider call leaves everything as it was.

use crate::app::AppState;
use crate::db::now_ms;
use crate::error::{Error, Result};
use crate::events::model::EventRow;
use crate::messaging::OutboundMessage;
use crate::notifications::{self, NewNotification};

use super::model::OrderStatus;
use super::money;
use super::orders::{self, OrderRow};
use super::providers::Provider;
use crate::i18n::{Arg, Lang, Msg};

async fn refunded_so_far(app: &AppState, order_id: &str) -> Result<i64> {
    let (sum,): (i64,) = sqlx::query_as(
        "SELECT CAST(COALESCE(SUM(amount_minor), 0) AS BIGINT) FROM refunds WHERE order_id = $1",
    )
    .bind(order_id)
    .fetch_one(&app.db)
    .await?;
    Ok(sum)
}

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
            Ok(Some(stripe.refund(payment, amount, key).await?))
        }
        (_, "stripe", _) if amount > 0 => Err(Error::conflict(Msg::RefundInStripe)),
        _ => Ok(None),
    }
}

/// Refund what is left of an order and end its access.
pub async fn refund_order(app: &AppState, order_id: &str, reason: &str) -> Result<OrderRow> {
    let order = orders::by_id(&app.db, order_id)
        .await?
        .ok_or_else(|| Error::not_found(Msg::OrderNotFound))?;
    if order.status != OrderStatus::Fulfilled {
        return Err(Error::conflict(
            Msg::OnlyFulfilledRefund.with("status", order.status.as_str()),
        ));
    }
    let amount = order.total_minor - refunded_so_far(app, order_id).await?;
    let provider_ref = pay_back(app, &order, amount, &format!("refund-{order_id}")).await?;
    let now = now_ms();
    let tickets: Vec<(String,)> =
        sqlx::query_as("SELECT id FROM tickets WHERE order_id = $1 AND revoked_at IS NULL")
            .bind(order_id)
            .fetch_all(&app.db)
            .await?;
    let passes: Vec<(String,)> =
        sqlx::query_as("SELECT id FROM passes WHERE order_id = $1 AND revoked_at IS NULL")
            .bind(order_id)
            .fetch_all(&app.db)
            .await?;
    let mut tx = app.db.begin().await?;
    let changed = sqlx::query(
        "UPDATE orders SET status = 'refunded', refunded_at = $2 WHERE id = $1 AND status = 'fulfilled'",
    )
    .bind(order_id)
    .bind(now)
    .execute(&mut *tx)
    .await?
    .rows_affected();
    if changed != 1 {
        return Err(Error::conflict(Msg::AlreadyRefunded));
    }
    sqlx::query(
        "UPDATE events SET seats_taken = seats_taken - 1 WHERE seats_taken > 0 AND id IN \
         (SELECT event_id FROM tickets WHERE order_id = $1 AND revoked_at IS NULL)",
    )
    .bind(order_id)
    .execute(&mut *tx)
    .await?;
    for table in ["tickets", "passes"] {
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "UPDATE {table} SET revoked_at = $2 WHERE order_id = $1 AND revoked_at IS NULL"
        )))
        .bind(order_id)
        .bind(now)
        .execute(&mut *tx)
        .await?;
    }
    record(&mut tx, order_id, amount, reason, provider_ref.as_deref()).await?;
    tx.commit().await?;
    // Listening ends now, not at the next token check against the database.
    for (ticket,) in &tickets {
        app.stream_access.revoke(ticket);
    }
    for (pass,) in &passes {
        app.stream_access.revoke_pass(pass);
    }
    tell_buyer(app, &order, amount, reason.into()).await;
    Ok(orders::by_id(&app.db, order_id).await?.unwrap_or(order))
}

async fn record(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    order_id: &str,
    amount: i64,
    reason: &str,
    provider_ref: Option<&str>,
) -> Result<()> {
    sqlx::query(
        "INSERT INTO refunds (id, order_id, amount_minor, reason, provider_ref, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(uuid::Uuid::new_v4().to_string())
    .bind(order_id)
    .bind(amount)
    .bind(reason)
    .bind(provider_ref)
    .bind(now_ms())
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Refund every live ticket of a concert (it was cancelled). An order left with nothing
/// live becomes `refunded`.
/// The refund records keep `reason` in English; each buyer reads it in their language.
pub async fn refund_event(app: &AppState, event: &EventRow, reason: Msg) -> Result<usize> {
    let recorded = reason.render(Lang::Gb);
    let tickets: Vec<(String, String, i64)> = sqlx::query_as(
        "SELECT t.id, t.order_id, i.price_minor FROM tickets t \
         JOIN order_items i ON i.order_id = t.order_id AND i.item_kind = 'event' AND i.item_id = t.event_id \
         WHERE t.event_id = $1 AND t.revoked_at IS NULL",
    )
    .bind(&event.id)
    .fetch_all(&app.db)
    .await?;
    let mut refunded = 0;
    for (ticket_id, order_id, price) in tickets {
        let Some(order) = orders::by_id(&app.db, &order_id).await? else {
            continue;
        };
        let provider_ref = pay_back(app, &order, price, &format!("refund-{ticket_id}")).await?;
        let mut tx = app.db.begin().await?;
        let revoked =
            sqlx::query("UPDATE tickets SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL")
                .bind(&ticket_id)
                .bind(now_ms())
                .execute(&mut *tx)
                .await?
                .rows_affected();
        if revoked != 1 {
            continue;
        }
        record(
            &mut tx,
            &order_id,
            price,
            &recorded,
            provider_ref.as_deref(),
        )
        .await?;
        sqlx::query(
            "UPDATE orders SET status = 'refunded', refunded_at = $2 WHERE id = $1 AND status = 'fulfilled' \
             AND NOT EXISTS (SELECT 1 FROM tickets WHERE order_id = $1 AND revoked_at IS NULL) \
             AND NOT EXISTS (SELECT 1 FROM passes WHERE order_id = $1 AND revoked_at IS NULL)",
        )
        .bind(&order_id)
        .bind(now_ms())
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        app.stream_access.revoke(&ticket_id);
        let reason = Msg::TitledReason
            .with("title", event.title.as_str())
            .with("reason", reason);
        tell_buyer(app, &order, price, reason.into()).await;
        refunded += 1;
    }
    Ok(refunded)
}

async fn tell_buyer(app: &AppState, order: &OrderRow, amount: i64, reason: Arg) {
    let Ok(Some(account)) = crate::accounts::store::by_id(&app.db, &order.account_id).await else {
        return;
    };
    let (lang, amount) = (account.language, money::format(amount, &order.currency));
    let reason = reason.render(lang);
    app.messenger.send(OutboundMessage::email(
        &account.login,
        Msg::RefundSubject.render(lang),
        Msg::RefundBody
            .with("name", account.display_name())
            .with("amount", amount.as_str())
            .with("order", order.id.as_str())
            .with("reason", reason.as_str())
            .render(lang),
    ));
    let _ = notifications::notify(
        &app.db,
        &order.account_id,
        &NewNotification::topic(
            Msg::RefundIssuedTitle.render(lang),
            format!("{amount} — {reason}"),
        ),
    )
    .await;
}
