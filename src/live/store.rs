//! Every query of the staff activity feed: one function per statement, on rows of its
//! own that carry the activity's [`Subject`] as it is (the activity itself, and what a
//! row means, are `activity`'s).

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::db::{Db, Exec};
use crate::error::Result;

crate::db::row! {
    /// What an activity is about, each part where it applies.
    // Stored in the columns of these names, carried as it is: `Activity` flattens it.
    #[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
    #[serde(rename_all = "camelCase")]
    #[schema(as = ActivitySubject)]
    pub struct Subject {
        /// The concert concerned (a sale, a concert's refund, a show).
        pub event_id: Option<String>,
        /// The concert's title; for a pass bought (no concert), the pass's.
        pub event_title: Option<String>,
        /// The account concerned (who signed up, bought or was refunded).
        pub account_id: Option<String>,
        pub account_name: Option<String>,
        /// In minor units of `currency` (a sale, a refund, a failed payment).
        pub amount: Option<i64>,
        pub currency: Option<String>,
    }
}

/// An activity as stored (`kind` as its name, `at` in unix ms).
#[derive(Debug, Clone)]
pub struct Row {
    pub id: String,
    pub kind: String,
    pub at: i64,
    pub subject: Subject,
}
crate::db::from_row!(Row {
    id,
    kind,
    at,
    ..subject
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
    .bind(&row.subject.event_id)
    .bind(&row.subject.event_title)
    .bind(&row.subject.account_id)
    .bind(&row.subject.account_name)
    .bind(row.subject.amount)
    .bind(&row.subject.currency)
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
