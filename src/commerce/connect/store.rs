//! Every query of payouts to artists: a project's Stripe connected account and its state,
//! and a project's bank details. Bank details are never traced (`skip_all`).

use crate::db::{Db, Exec};
use crate::error::Result;

crate::db::row! {
    /// A project's connected account, as Stripe last told of it.
    #[derive(Debug, Clone)]
    pub struct AccountRow {
        pub project_id: String,
        pub stripe_account: String,
        pub charges_enabled: i64,
        pub payouts_enabled: i64,
        pub details_submitted: i64,
        pub updated_at: i64,
    }
}

const ACCOUNT_COLUMNS: &str = "project_id, stripe_account, charges_enabled, payouts_enabled, \
     details_submitted, updated_at";

#[tracing::instrument(skip_all)]
pub async fn account_of<'e>(db: impl Exec<'e>, project_id: &str) -> Result<Option<AccountRow>> {
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {ACCOUNT_COLUMNS} FROM payout_accounts WHERE project_id = $1"
    )))
    .bind(project_id)
    .fetch_optional(db)
    .await?)
}

/// Keep a project's new connected account; an onboarding started at the same time that
/// kept one first wins (the caller reads back which).
#[tracing::instrument(skip_all)]
pub async fn insert_account(db: &Db, project_id: &str, account: &str, now: i64) -> Result<()> {
    sqlx::query(
        "INSERT INTO payout_accounts (project_id, stripe_account, created_at, updated_at) \
         VALUES ($1, $2, $3, 0) ON CONFLICT (project_id) DO NOTHING",
    )
    .bind(project_id)
    .bind(account)
    .bind(now)
    .execute(db)
    .await?;
    Ok(())
}

/// A connected account's state as of `at` (unix ms of Stripe's event): an older event
/// arriving late changes nothing. False when the account is no project's, or the event
/// was older.
#[tracing::instrument(skip_all)]
pub async fn update_state(
    db: &Db,
    account: &str,
    (charges, payouts, submitted): (bool, bool, bool),
    at: i64,
) -> Result<bool> {
    let done = sqlx::query(
        "UPDATE payout_accounts SET charges_enabled = $2, payouts_enabled = $3, \
         details_submitted = $4, updated_at = $5 WHERE stripe_account = $1 AND updated_at <= $5",
    )
    .bind(account)
    .bind(i64::from(charges))
    .bind(i64::from(payouts))
    .bind(i64::from(submitted))
    .bind(at)
    .execute(db)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// A project's own platform fee in basis points (none: the operator's).
#[tracing::instrument(skip_all)]
pub async fn own_fee(db: &Db, project_id: &str) -> Result<Option<i64>> {
    let row: Option<(Option<i64>,)> =
        sqlx::query_as("SELECT platform_fee_bp FROM projects WHERE id = $1")
            .bind(project_id)
            .fetch_optional(db)
            .await?;
    Ok(row.and_then(|(bp,)| bp))
}

crate::db::row! {
    /// A project's bank details (the account number sealed at rest).
    #[derive(Debug, Clone, Default)]
    pub struct BankRow {
        pub account_holder: String,
        pub account_number: String,
        pub note: String,
        pub updated_at: i64,
    }
}

#[tracing::instrument(skip_all)]
pub async fn bank_details(db: &Db, project_id: &str) -> Result<Option<BankRow>> {
    Ok(sqlx::query_as(
        "SELECT account_holder, account_number, note, updated_at FROM project_bank_details \
         WHERE project_id = $1",
    )
    .bind(project_id)
    .fetch_optional(db)
    .await?)
}

#[tracing::instrument(skip_all)]
pub async fn save_bank_details(
    db: &Db,
    project_id: &str,
    row: &BankRow,
    updated_by: &str,
) -> Result<()> {
    sqlx::query(
        "INSERT INTO project_bank_details (project_id, account_holder, account_number, note, \
         updated_by, updated_at) VALUES ($1, $2, $3, $4, $5, $6) \
         ON CONFLICT (project_id) DO UPDATE SET account_holder = excluded.account_holder, \
         account_number = excluded.account_number, note = excluded.note, \
         updated_by = excluded.updated_by, updated_at = excluded.updated_at",
    )
    .bind(project_id)
    .bind(&row.account_holder)
    .bind(&row.account_number)
    .bind(&row.note)
    .bind(updated_by)
    .bind(row.updated_at)
    .execute(db)
    .await?;
    Ok(())
}
