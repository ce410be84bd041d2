//! Every query of tips: one function per statement.

use super::model::TipSettings;
use crate::db::Exec;
use crate::error::Result;

crate::db::row! {
    /// A tip as stored, with its order's state.
    #[derive(Debug, Clone)]
    pub struct TipRow {
        pub order_id: String,
        pub event_id: String,
        pub account_id: String,
        pub amount_minor: i64,
        pub currency: String,
        pub message: String,
        pub created_at: i64,
    }
}

#[tracing::instrument(skip_all)]
pub async fn insert<'e>(db: impl Exec<'e>, tip: &TipRow) -> Result<()> {
    sqlx::query(
        "INSERT INTO tips (order_id, event_id, account_id, amount_minor, currency, message, \
         created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(&tip.order_id)
    .bind(&tip.event_id)
    .bind(&tip.account_id)
    .bind(tip.amount_minor)
    .bind(&tip.currency)
    .bind(&tip.message)
    .bind(tip.created_at)
    .execute(db)
    .await?;
    Ok(())
}

/// The tip an order pays, if it pays one.
#[tracing::instrument(skip_all)]
pub async fn of_order<'e>(db: impl Exec<'e>, order_id: &str) -> Result<Option<TipRow>> {
    Ok(sqlx::query_as(
        "SELECT order_id, event_id, account_id, amount_minor, currency, message, created_at \
         FROM tips WHERE order_id = $1",
    )
    .bind(order_id)
    .fetch_optional(db)
    .await?)
}

crate::db::row! {
    /// What a tip's order pays for: the concert and its artist, as the order names them.
    #[derive(Debug, Clone)]
    pub struct TipOfOrderRow {
        pub order_id: String,
        pub event_id: String,
        pub title: String,
        pub artist_name: String,
    }
}

/// The tips among `order_ids` (the orders that pay one), with their concerts.
#[tracing::instrument(skip_all, fields(orders = order_ids.len()))]
pub async fn of_orders<'e>(db: impl Exec<'e>, order_ids: &[&str]) -> Result<Vec<TipOfOrderRow>> {
    if order_ids.is_empty() {
        return Ok(Vec::new());
    }
    let placeholders: Vec<String> = (1..=order_ids.len()).map(|i| format!("${i}")).collect();
    let mut query = sqlx::query_as::<_, TipOfOrderRow>(sqlx::AssertSqlSafe(format!(
        "SELECT t.order_id, t.event_id, e.title, e.artist_name FROM tips t \
         JOIN events e ON e.id = t.event_id WHERE t.order_id IN ({})",
        placeholders.join(", ")
    )));
    for id in order_ids {
        query = query.bind(*id);
    }
    Ok(query.fetch_all(db).await?)
}

crate::db::row! {
    /// A paid tip with its tipper's names and when it was paid.
    #[derive(Debug, Clone)]
    pub struct PaidTipRow {
        pub order_id: String,
        pub event_id: String,
        pub first_name: String,
        pub last_name: String,
        pub amount_minor: i64,
        pub currency: String,
        pub message: String,
        pub paid_at: i64,
    }
}

/// A concert's tips paid and not refunded, newest first, at most `limit`.
#[tracing::instrument(skip_all)]
pub async fn paid_of_event<'e>(
    db: impl Exec<'e>,
    event_id: &str,
    limit: i64,
) -> Result<Vec<PaidTipRow>> {
    Ok(sqlx::query_as(
        "SELECT t.order_id, t.event_id, a.first_name, a.last_name, t.amount_minor, t.currency, \
         t.message, o.paid_at \
         FROM tips t JOIN orders o ON o.id = t.order_id JOIN accounts a ON a.id = t.account_id \
         WHERE t.event_id = $1 AND o.status IN ('paid', 'fulfilled') \
         ORDER BY o.paid_at DESC, t.order_id DESC LIMIT $2",
    )
    .bind(event_id)
    .bind(limit)
    .fetch_all(db)
    .await?)
}

/// Every tip of a concert paid and not refunded: (currency, amount), for its totals.
#[tracing::instrument(skip_all)]
pub async fn amounts_of_event<'e>(db: impl Exec<'e>, event_id: &str) -> Result<Vec<(String, i64)>> {
    Ok(sqlx::query_as(
        "SELECT t.currency, t.amount_minor FROM tips t JOIN orders o ON o.id = t.order_id \
         WHERE t.event_id = $1 AND o.status IN ('paid', 'fulfilled')",
    )
    .bind(event_id)
    .fetch_all(db)
    .await?)
}

/// The orders of a concert's tips paid and not refunded, oldest first: what cancelling it
/// gives back.
#[tracing::instrument(skip_all)]
pub async fn paid_orders_of_event<'e>(db: impl Exec<'e>, event_id: &str) -> Result<Vec<String>> {
    let rows: Vec<(String,)> = sqlx::query_as(
        "SELECT t.order_id FROM tips t JOIN orders o ON o.id = t.order_id \
         WHERE t.event_id = $1 AND o.status = 'fulfilled' ORDER BY o.paid_at, t.order_id",
    )
    .bind(event_id)
    .fetch_all(db)
    .await?;
    Ok(rows.into_iter().map(|(id,)| id).collect())
}

/// A concert's own tip settings, if its artist or staff set them.
#[tracing::instrument(skip_all)]
pub async fn settings_of<'e>(db: impl Exec<'e>, event_id: &str) -> Result<Option<TipSettings>> {
    let row: Option<(i64, String, i64)> = sqlx::query_as(
        "SELECT enabled, presets, minimum_minor FROM tip_settings WHERE event_id = $1",
    )
    .bind(event_id)
    .fetch_optional(db)
    .await?;
    Ok(row.map(|(enabled, presets, minimum)| TipSettings {
        enabled: enabled != 0,
        presets: presets
            .split(',')
            .filter_map(|p| p.trim().parse().ok())
            .collect(),
        minimum,
    }))
}

/// Keep a concert's tip settings (checked), replacing any before.
#[tracing::instrument(skip_all)]
pub async fn set_settings<'e>(
    db: impl Exec<'e>,
    event_id: &str,
    settings: &TipSettings,
    now: i64,
) -> Result<()> {
    let presets: Vec<String> = settings.presets.iter().map(i64::to_string).collect();
    sqlx::query(
        "INSERT INTO tip_settings (event_id, enabled, presets, minimum_minor, updated_at) \
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT (event_id) DO UPDATE SET \
         enabled = excluded.enabled, presets = excluded.presets, \
         minimum_minor = excluded.minimum_minor, updated_at = excluded.updated_at",
    )
    .bind(event_id)
    .bind(i64::from(settings.enabled))
    .bind(presets.join(","))
    .bind(settings.minimum)
    .bind(now)
    .execute(db)
    .await?;
    Ok(())
}
