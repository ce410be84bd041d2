//! Every query of the statements: what a period's statements are made of, and the
//! projects' own platform fees. One function per statement.

use super::model::{EndedPass, Ledger, PassMinutes, Percent, Refund, SoldLine};
use crate::db::{Db, Exec};
use crate::error::Result;

crate::db::from_row!(SoldLine {
    order_id,
    currency,
    order_fee,
    connected,
    application_fee,
    project_id,
    event_id,
    price,
    discount,
    kind = "line_kind" as String
});
crate::db::from_row!(Refund {
    order_id,
    currency,
    amount,
    connected,
    order_total,
    application_fee,
    event_id
});
crate::db::from_row!(EndedPass {
    pass_id,
    currency,
    price
});
crate::db::from_row!(PassMinutes {
    pass_id,
    project_id,
    minutes
});

/// Whether an order was a destination charge (paid to a connected account), as 0 or 1.
const CONNECTED: &str = "CAST(CASE WHEN o.connect_account IS NULL THEN 0 ELSE 1 END AS BIGINT)";

/// An order's lines, each with its concert's project (none for a pass): its tickets and
/// passes, and the tip it pays (a tip's order has no other line); with whether the order
/// was a destination charge and the application fee taken from it.
const LINES: &str = "SELECT * FROM (\
     SELECT o.id AS order_id, o.currency, o.fee_minor AS order_fee, o.paid_at, \
     CAST(CASE WHEN o.connect_account IS NULL THEN 0 ELSE 1 END AS BIGINT) AS connected, \
     o.application_fee_minor AS application_fee, \
     e.project_id, CASE WHEN oi.item_kind = 'event' THEN oi.item_id END AS event_id, \
     oi.price_minor AS price, oi.discount_minor AS discount, oi.item_kind AS line_kind, \
     oi.item_id AS line_id \
     FROM orders o JOIN order_items oi ON oi.order_id = o.id \
     LEFT JOIN events e ON oi.item_kind = 'event' AND e.id = oi.item_id \
     UNION ALL \
     SELECT o.id, o.currency, o.fee_minor, o.paid_at, \
     CAST(CASE WHEN o.connect_account IS NULL THEN 0 ELSE 1 END AS BIGINT), \
     o.application_fee_minor, e.project_id, t.event_id, \
     t.amount_minor, CAST(0 AS BIGINT), 'tip', t.event_id \
     FROM orders o JOIN tips t ON t.order_id = o.id JOIN events e ON e.id = t.event_id\
     ) l";

/// The orders that money was given back for from `$1` to `$2`.
const REFUNDED_ORDERS: &str =
    "SELECT order_id FROM refunds WHERE created_at >= $1 AND created_at < $2";

/// Everything the statements of the period from `from` to `until` (unix ms) are made of,
/// read in one transaction (one moment's view of the books).
#[tracing::instrument(skip_all)]
pub async fn ledger(db: &Db, from: i64, until: i64) -> Result<Ledger> {
    let mut tx = db.begin().await?;
    let sold = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "{LINES} WHERE l.paid_at >= $1 AND l.paid_at < $2 ORDER BY l.order_id, l.line_kind, l.line_id"
    )))
    .bind(from)
    .bind(until)
    .fetch_all(&mut *tx)
    .await?;
    let refunds = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT r.order_id, o.currency, r.amount_minor AS amount, r.event_id, \
         {CONNECTED} AS connected, o.total_minor AS order_total, \
         o.application_fee_minor AS application_fee \
         FROM refunds r JOIN orders o ON o.id = r.order_id \
         WHERE r.created_at >= $1 AND r.created_at < $2 ORDER BY r.created_at, r.id"
    )))
    .bind(from)
    .bind(until)
    .fetch_all(&mut *tx)
    .await?;
    let refunded_orders = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "{LINES} WHERE l.order_id IN ({REFUNDED_ORDERS}) ORDER BY l.order_id, l.line_kind, l.line_id"
    )))
    .bind(from)
    .bind(until)
    .fetch_all(&mut *tx)
    .await?;
    let named_refunds = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT order_id, event_id FROM refunds \
         WHERE event_id IS NOT NULL AND order_id IN ({REFUNDED_ORDERS})"
    )))
    .bind(from)
    .bind(until)
    .fetch_all(&mut *tx)
    .await?;
    // Passes that ended in the period, unrevoked, and the minutes their holders listened.
    let ended = "FROM passes p JOIN orders o ON o.id = p.order_id \
         WHERE p.valid_until >= $1 AND p.valid_until < $2 AND p.revoked_at IS NULL \
         AND o.paid_at IS NOT NULL";
    let ended_passes = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT p.id AS pass_id, o.currency, \
         COALESCE((SELECT oi.price_minor FROM order_items oi WHERE oi.order_id = p.order_id \
          AND oi.item_kind = 'pass' AND oi.item_id = p.plan_id), 0) AS price \
         {ended} ORDER BY p.id"
    )))
    .bind(from)
    .bind(until)
    .fetch_all(&mut *tx)
    .await?;
    let minutes = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT m.pass_id, e.project_id, CAST(SUM(m.minutes) AS BIGINT) AS minutes \
         FROM listened_minutes m JOIN events e ON e.id = m.event_id \
         WHERE m.pass_id IN (SELECT p.id {ended}) GROUP BY m.pass_id, e.project_id"
    )))
    .bind(from)
    .bind(until)
    .fetch_all(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(Ledger {
        sold,
        refunds,
        refunded_orders,
        named_refunds,
        ended_passes,
        minutes,
    })
}

/// The projects given a platform fee of their own: (project id, fee).
#[tracing::instrument(skip_all)]
pub async fn own_fees(db: &Db) -> Result<Vec<(String, Percent)>> {
    let rows: Vec<(String, i64)> = sqlx::query_as(
        "SELECT id, platform_fee_bp FROM projects WHERE platform_fee_bp IS NOT NULL",
    )
    .fetch_all(db)
    .await?;
    Ok(rows.into_iter().map(|(id, bp)| (id, Percent(bp))).collect())
}

/// Give a project its own platform fee, or `None` for the operator's; false when there is
/// no such project.
#[tracing::instrument(skip_all)]
pub async fn set_own_fee<'e>(
    db: impl Exec<'e>,
    project_id: &str,
    fee: Option<Percent>,
) -> Result<bool> {
    let done = sqlx::query("UPDATE projects SET platform_fee_bp = $1 WHERE id = $2")
        .bind(fee.map(|f| f.0))
        .bind(project_id)
        .execute(db)
        .await?;
    Ok(done.rows_affected() == 1)
}

crate::db::row! {
    /// A payout as recorded.
    #[derive(Debug, Clone)]
    pub struct PayoutRow {
        pub id: String,
        pub project_id: String,
        pub period: String,
        pub currency: String,
        pub amount_minor: i64,
        pub reference: String,
        pub created_at: i64,
    }
}

const PAYOUT_COLUMNS: &str =
    "id, project_id, period, currency, amount_minor, reference, created_at";

/// Every payout recorded against a month, oldest first.
#[tracing::instrument(skip_all)]
pub async fn payouts<'e>(db: impl Exec<'e>, period: &str) -> Result<Vec<PayoutRow>> {
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {PAYOUT_COLUMNS} FROM payouts WHERE period = $1 ORDER BY created_at, id"
    )))
    .bind(period)
    .fetch_all(db)
    .await?)
}

/// Take the project's row lock for the rest of the transaction: payouts recorded for one
/// project at once are checked against what is owed one after the other. False when
/// there is no such project.
#[tracing::instrument(skip_all)]
pub async fn lock_project<'e>(db: impl Exec<'e>, project_id: &str) -> Result<bool> {
    let done = sqlx::query("UPDATE projects SET updated_at = updated_at WHERE id = $1")
        .bind(project_id)
        .execute(db)
        .await?;
    Ok(done.rows_affected() == 1)
}

/// What was paid out to a project against a month in a currency.
#[tracing::instrument(skip_all)]
pub async fn paid_out<'e>(
    db: impl Exec<'e>,
    project_id: &str,
    period: &str,
    currency: &str,
) -> Result<i64> {
    let (sum,): (i64,) = sqlx::query_as(
        "SELECT CAST(COALESCE(SUM(amount_minor), 0) AS BIGINT) FROM payouts \
         WHERE project_id = $1 AND period = $2 AND currency = $3",
    )
    .bind(project_id)
    .bind(period)
    .bind(currency)
    .fetch_one(db)
    .await?;
    Ok(sum)
}

#[tracing::instrument(skip_all)]
pub async fn insert_payout<'e>(
    db: impl Exec<'e>,
    row: &PayoutRow,
    recorded_by: &str,
) -> Result<()> {
    sqlx::query(
        "INSERT INTO payouts (id, project_id, period, currency, amount_minor, reference, \
         recorded_by, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(&row.id)
    .bind(&row.project_id)
    .bind(&row.period)
    .bind(&row.currency)
    .bind(row.amount_minor)
    .bind(&row.reference)
    .bind(recorded_by)
    .bind(row.created_at)
    .execute(db)
    .await?;
    Ok(())
}
