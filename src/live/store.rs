//! Every query of the staff activity feed: one function per statement.

use super::activity::{Activity, ActivityKind};
use crate::db::{Db, Exec, iso8601};
use crate::error::Result;

/// An activity as stored.
#[derive(Debug, sqlx::FromRow)]
struct Row {
    id: String,
    #[sqlx(try_from = "String")]
    kind: ActivityKind,
    at: i64,
    event_id: Option<String>,
    event_title: Option<String>,
    account_id: Option<String>,
    account_name: Option<String>,
    amount: Option<i64>,
    currency: Option<String>,
}

impl From<Row> for Activity {
    fn from(row: Row) -> Self {
        Self {
            id: row.id,
            kind: row.kind,
            at: iso8601(row.at),
            event_id: row.event_id,
            event_title: row.event_title,
            account_id: row.account_id,
            account_name: row.account_name,
            amount: row.amount,
            currency: row.currency,
        }
    }
}

/// Store one activity (in its cause's transaction).
#[tracing::instrument(skip_all)]
pub async fn insert<'e>(db: impl Exec<'e>, activity: &Activity) -> Result<()> {
    let at =
        time::OffsetDateTime::parse(&activity.at, &time::format_description::well_known::Rfc3339)
            .map(|t| (t.unix_timestamp_nanos() / 1_000_000) as i64)
            .unwrap_or_else(|_| crate::db::now_ms());
    sqlx::query(
        "INSERT INTO staff_activity \
         (id, kind, at, event_id, event_title, account_id, account_name, amount, currency) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
    )
    .bind(&activity.id)
    .bind(activity.kind.as_str())
    .bind(at)
    .bind(&activity.event_id)
    .bind(&activity.event_title)
    .bind(&activity.account_id)
    .bind(&activity.account_name)
    .bind(activity.amount)
    .bind(&activity.currency)
    .execute(db)
    .await?;
    Ok(())
}

/// The newest `limit` activities, oldest first (the order the feed receives them).
#[tracing::instrument(skip_all)]
pub async fn latest(db: &Db, limit: i64) -> Result<Vec<Activity>> {
    let mut rows: Vec<Row> = sqlx::query_as(
        "SELECT id, kind, at, event_id, event_title, account_id, account_name, amount, currency \
         FROM staff_activity ORDER BY at DESC, id DESC LIMIT $1",
    )
    .bind(limit)
    .fetch_all(db)
    .await?;
    rows.reverse();
    Ok(rows.into_iter().map(Activity::from).collect())
}
