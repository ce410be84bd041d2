//! Every query of the staff activity feed: one function per statement, on rows of its
//! own (the activity itself, and what a row means, are `activity`'s).

use crate::db::{Db, Exec};
use crate::error::Result;

/// An activity as stored (`kind` as its name, `at` in unix ms).
#[derive(Debug, Clone)]
pub struct Row {
    pub id: String,
    pub kind: String,
    pub at: i64,
    pub event_id: Option<String>,
    pub event_title: Option<String>,
    pub account_id: Option<String>,
    pub account_name: Option<String>,
    pub amount: Option<i64>,
    pub currency: Option<String>,
}
crate::db::from_row!(Row {
    id,
    kind,
    at,
    event_id,
    event_title,
    account_id,
    account_name,
    amount,
    currency
});

/// Store one activity (in its cause's transaction).
#[tracing::instrument(skip_all)]
pub async fn insert<'e>(db: impl Exec<'e>, row: &Row) -> Result<()> {
    sqlx::query(
        "INSERT INTO staff_activity \
         (id, kind, at, event_id, event_title, account_id, account_name, amount, currency) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
    )
    .bind(&row.id)
    .bind(&row.kind)
    .bind(row.at)
    .bind(&row.event_id)
    .bind(&row.event_title)
    .bind(&row.account_id)
    .bind(&row.account_name)
    .bind(row.amount)
    .bind(&row.currency)
    .execute(db)
    .await?;
    Ok(())
}

/// The newest `limit` activities, oldest first (the order the feed receives them).
#[tracing::instrument(skip_all)]
pub async fn latest(db: &Db, limit: i64) -> Result<Vec<Row>> {
    let mut rows: Vec<Row> = sqlx::query_as(
        "SELECT id, kind, at, event_id, event_title, account_id, account_name, amount, currency \
         FROM staff_activity ORDER BY at DESC, id DESC LIMIT $1",
    )
    .bind(limit)
    .fetch_all(db)
    .await?;
    rows.reverse();
    Ok(rows)
}
