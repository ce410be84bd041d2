//! Every query of notifications: one function per statement.

use super::{Filter, Kind, NewNotification};
use crate::db::{Db, Exec};
use crate::error::Result;
use crate::paging::Paging;

const COLUMNS: &str = "id, kind, title, body, sender, upload_type, link, read_at, created_at";

/// A notification as stored.
#[derive(Debug, sqlx::FromRow)]
pub struct Row {
    pub id: String,
    #[sqlx(try_from = "String")]
    pub kind: Kind,
    pub title: String,
    pub body: String,
    pub sender: Option<String>,
    pub upload_type: Option<String>,
    pub link: Option<String>,
    pub read_at: Option<i64>,
    pub created_at: i64,
}

#[tracing::instrument(skip_all)]
pub async fn insert<'e>(
    db: impl Exec<'e>,
    account_id: &str,
    n: &NewNotification,
    now: i64,
) -> Result<()> {
    sqlx::query(
        "INSERT INTO notifications (id, account_id, kind, title, body, sender, upload_type, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(uuid::Uuid::new_v4().to_string())
    .bind(account_id)
    .bind(n.kind.as_str())
    .bind(&n.title)
    .bind(&n.body)
    .bind(&n.sender)
    .bind(&n.upload_type)
    .bind(now)
    .execute(db)
    .await?;
    Ok(())
}

/// Who hears of what concerns staff: every enabled admin and super admin.
#[tracing::instrument(skip_all)]
pub async fn enabled_staff<'e>(db: impl Exec<'e>) -> Result<Vec<String>> {
    let rows: Vec<(String,)> =
        sqlx::query_as("SELECT id FROM accounts WHERE role IN ('admin', 'sa') AND enabled = 1")
            .fetch_all(db)
            .await?;
    Ok(rows.into_iter().map(|(id,)| id).collect())
}

/// One page of an account's notifications, newest first.
#[tracing::instrument(skip_all)]
pub async fn page(db: &Db, account_id: &str, filter: Filter, paging: Paging) -> Result<Vec<Row>> {
    let condition = filter.condition();
    let tail = paging.limit_offset();
    Ok(sqlx::query_as::<_, Row>(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM notifications WHERE account_id = $1{condition} \
         ORDER BY created_at DESC, id {tail}"
    )))
    .bind(account_id)
    .fetch_all(db)
    .await?)
}

/// How many the filter lists, and how many are unread in all: `(total, unread)`.
#[tracing::instrument(skip_all)]
pub async fn counts(db: &Db, account_id: &str, filter: Filter) -> Result<(i64, i64)> {
    let condition = filter.condition();
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT CAST(COALESCE(SUM(CASE WHEN account_id = $1{condition} THEN 1 ELSE 0 END), 0) AS BIGINT), \
         CAST(COALESCE(SUM(CASE WHEN read_at IS NULL THEN 1 ELSE 0 END), 0) AS BIGINT) \
         FROM notifications WHERE account_id = $1"
    )))
    .bind(account_id)
    .fetch_one(db)
    .await?)
}

#[tracing::instrument(skip_all)]
pub async fn by_id(db: &Db, id: &str, account_id: &str) -> Result<Option<Row>> {
    Ok(sqlx::query_as::<_, Row>(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM notifications WHERE id = $1 AND account_id = $2"
    )))
    .bind(id)
    .bind(account_id)
    .fetch_optional(db)
    .await?)
}

/// Mark one read (once: a second call keeps the first time).
#[tracing::instrument(skip_all)]
pub async fn mark_read(db: &Db, id: &str, account_id: &str, now: i64) -> Result<()> {
    sqlx::query(
        "UPDATE notifications SET read_at = $3 WHERE id = $1 AND account_id = $2 AND read_at IS NULL",
    )
    .bind(id)
    .bind(account_id)
    .bind(now)
    .execute(db)
    .await?;
    Ok(())
}

#[tracing::instrument(skip_all)]
pub async fn mark_all_read(db: &Db, account_id: &str, now: i64) -> Result<()> {
    sqlx::query("UPDATE notifications SET read_at = $2 WHERE account_id = $1 AND read_at IS NULL")
        .bind(account_id)
        .bind(now)
        .execute(db)
        .await?;
    Ok(())
}
