//! Every query of promo codes: the codes, the tiers they unlock, the cart's code, and the
//! uses orders take and give back. One function per statement; the transactions are
//! `manage`'s and `orders`'.

use sqlx::AssertSqlSafe;

use super::model::{CodeFields, CodeRow};
use crate::db::Exec;
use crate::error::Result;

const COLUMNS: &str = "id, project_id, event_id, code, kind, value, currency, max_uses, \
    max_per_account, valid_from, valid_until, uses_taken, created_at";

/// A project's codes (`event_id` set: only that concert's), newest first.
#[tracing::instrument(skip_all)]
pub async fn list<'e>(
    db: impl Exec<'e>,
    project_id: &str,
    event_id: Option<&str>,
) -> Result<Vec<CodeRow>> {
    Ok(sqlx::query_as::<_, CodeRow>(AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM promo_codes WHERE project_id = $1 \
         AND ($2 IS NULL OR event_id = $2) ORDER BY created_at DESC, id"
    )))
    .bind(project_id)
    .bind(event_id)
    .fetch_all(db)
    .await?)
}

#[tracing::instrument(skip_all)]
pub async fn by_id<'e>(db: impl Exec<'e>, id: &str) -> Result<Option<CodeRow>> {
    one_where(db, "id = $1", id).await
}

/// A code by its normalised text.
#[tracing::instrument(skip_all)]
pub async fn by_code<'e>(db: impl Exec<'e>, code: &str) -> Result<Option<CodeRow>> {
    one_where(db, "code = $1", code).await
}

/// The one code that `condition` on `$1` (`value`) picks, if any.
async fn one_where<'e>(
    db: impl Exec<'e>,
    condition: &'static str,
    value: &str,
) -> Result<Option<CodeRow>> {
    Ok(sqlx::query_as::<_, CodeRow>(AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM promo_codes WHERE {condition}"
    )))
    .bind(value)
    .fetch_optional(db)
    .await?)
}

type AnyQuery<'q> = sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments>;

/// Bind a code's fields as the next nine parameters (`event_id` … `valid_until`): what
/// `insert` and `update` both write.
fn bind_fields<'q>(query: AnyQuery<'q>, fields: &'q CodeFields) -> AnyQuery<'q> {
    query
        .bind(&fields.event_id)
        .bind(&fields.code)
        .bind(fields.kind.as_str())
        .bind(fields.value)
        .bind(&fields.currency)
        .bind(fields.max_uses)
        .bind(fields.max_per_account)
        .bind(fields.valid_from)
        .bind(fields.valid_until)
}

/// A new code: its id.
#[tracing::instrument(skip_all)]
pub async fn insert<'e>(
    db: impl Exec<'e>,
    project_id: &str,
    fields: &CodeFields,
    now: i64,
) -> std::result::Result<String, sqlx::Error> {
    let id = uuid::Uuid::new_v4().to_string();
    let insert = sqlx::query(
        "INSERT INTO promo_codes (id, project_id, event_id, code, kind, value, currency, \
         max_uses, max_per_account, valid_from, valid_until, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
    );
    bind_fields(insert.bind(&id).bind(project_id), fields)
        .bind(now)
        .execute(db)
        .await?;
    Ok(id)
}

/// Replace a code's fields. False when its new limit is below the uses it has taken. A
/// code that had no limit has its uses counted from its orders first.
#[tracing::instrument(skip_all)]
pub async fn update<'e>(
    db: impl Exec<'e>,
    id: &str,
    fields: &CodeFields,
) -> std::result::Result<bool, sqlx::Error> {
    let uses = format!("(CASE WHEN max_uses IS NULL THEN {USES_OF} ELSE uses_taken END)");
    let update = sqlx::query(AssertSqlSafe(format!(
        "UPDATE promo_codes SET event_id = $2, code = $3, kind = $4, value = $5, \
             currency = $6, max_uses = $7, max_per_account = $8, valid_from = $9, \
             valid_until = $10, uses_taken = {uses} \
             WHERE id = $1 AND ($7 IS NULL OR {uses} <= $7)"
    )));
    let done = bind_fields(update.bind(id), fields).execute(db).await?;
    Ok(done.rows_affected() == 1)
}

#[tracing::instrument(skip_all)]
pub async fn delete<'e>(db: impl Exec<'e>, id: &str) -> Result<()> {
    sqlx::query("DELETE FROM promo_codes WHERE id = $1")
        .bind(id)
        .execute(db)
        .await?;
    Ok(())
}

/// The tiers a code unlocks.
#[tracing::instrument(skip_all)]
pub async fn tiers_of<'e>(db: impl Exec<'e>, code_id: &str) -> Result<Vec<String>> {
    let rows: Vec<(String,)> =
        sqlx::query_as("SELECT tier_id FROM promo_code_tiers WHERE code_id = $1 ORDER BY tier_id")
            .bind(code_id)
            .fetch_all(db)
            .await?;
    Ok(rows.into_iter().map(|(id,)| id).collect())
}

#[tracing::instrument(skip_all)]
pub async fn clear_tiers<'e>(db: impl Exec<'e>, code_id: &str) -> Result<()> {
    sqlx::query("DELETE FROM promo_code_tiers WHERE code_id = $1")
        .bind(code_id)
        .execute(db)
        .await?;
    Ok(())
}

#[tracing::instrument(skip_all)]
pub async fn add_tier<'e>(db: impl Exec<'e>, code_id: &str, tier_id: &str) -> Result<()> {
    sqlx::query("INSERT INTO promo_code_tiers (code_id, tier_id) VALUES ($1, $2)")
        .bind(code_id)
        .bind(tier_id)
        .execute(db)
        .await?;
    Ok(())
}

/// Whether a tier may be unlocked by a code of the project: it is hidden, and its concert
/// is the project's (and `event_id` when the code names one).
#[tracing::instrument(skip_all)]
pub async fn unlockable_tier<'e>(
    db: impl Exec<'e>,
    tier_id: &str,
    project_id: &str,
    event_id: Option<&str>,
) -> Result<bool> {
    let found: Option<(String,)> = sqlx::query_as(
        "SELECT t.id FROM ticket_tiers t JOIN events e ON e.id = t.event_id \
         WHERE t.id = $1 AND t.hidden = 1 AND e.project_id = $2 AND ($3 IS NULL OR e.id = $3)",
    )
    .bind(tier_id)
    .bind(project_id)
    .bind(event_id)
    .fetch_optional(db)
    .await?;
    Ok(found.is_some())
}

// ------------------------------------------------------------------------------ the cart

/// The code in an account's cart.
#[tracing::instrument(skip_all)]
pub async fn of_cart<'e>(db: impl Exec<'e>, account_id: &str) -> Result<Option<CodeRow>> {
    let in_cart = "id = (SELECT code_id FROM cart_promo_codes WHERE account_id = $1)";
    one_where(db, in_cart, account_id).await
}

/// Put a code in an account's cart, replacing the one there.
#[tracing::instrument(skip_all)]
pub async fn set_cart<'e>(
    db: impl Exec<'e>,
    account_id: &str,
    code_id: &str,
    now: i64,
) -> Result<()> {
    sqlx::query(
        "INSERT INTO cart_promo_codes (account_id, code_id, added_at) VALUES ($1, $2, $3) \
         ON CONFLICT (account_id) DO UPDATE SET code_id = excluded.code_id, \
         added_at = excluded.added_at",
    )
    .bind(account_id)
    .bind(code_id)
    .bind(now)
    .execute(db)
    .await?;
    Ok(())
}

#[tracing::instrument(skip_all)]
pub async fn clear_cart<'e>(db: impl Exec<'e>, account_id: &str) -> Result<()> {
    sqlx::query("DELETE FROM cart_promo_codes WHERE account_id = $1")
        .bind(account_id)
        .execute(db)
        .await?;
    Ok(())
}

// ------------------------------------------------------------------------------- uses
//
// Only a code with a total limit counts its uses in its own row (`uses_taken`): the
// conditional increment is what keeps 30 racing buyers to its 10 uses, and it locks the
// row, so every checkout carrying the code queues there. A code without a limit has no
// use to refuse, so its checkouts write nothing to it; its uses are counted from the
// orders that carry it when someone asks (`uses_of`), and written into its row when a
// limit is set (`update`).

/// The orders that used a code: every one that carries it and did not end unpaid (a
/// refund keeps the use, as a limited code's counter does).
const USES_OF: &str = "(SELECT COUNT(*) FROM orders WHERE promo_code_id = promo_codes.id \
    AND status NOT IN ('failed', 'expired'))";

/// How many orders have used a code (what `uses_taken` holds for a code with a limit).
#[tracing::instrument(skip_all)]
pub async fn uses_of<'e>(db: impl Exec<'e>, code_id: &str) -> Result<i64> {
    let (n,): (i64,) = sqlx::query_as(AssertSqlSafe(format!(
        "SELECT {USES_OF} FROM promo_codes WHERE id = $1"
    )))
    .bind(code_id)
    .fetch_optional(db)
    .await?
    .unwrap_or((0,));
    Ok(n)
}

/// Take one use of a code with a limit, never above it nor outside its dates at `now`.
/// The conditional increment locks the code's row, so racing checkouts queue here.
#[tracing::instrument(skip_all)]
pub async fn take_use<'e>(db: impl Exec<'e>, code_id: &str, now: i64) -> Result<bool> {
    let done = sqlx::query(
        "UPDATE promo_codes SET uses_taken = uses_taken + 1 WHERE id = $1 \
         AND max_uses IS NOT NULL AND uses_taken < max_uses \
         AND (valid_from IS NULL OR valid_from <= $2) \
         AND (valid_until IS NULL OR valid_until > $2)",
    )
    .bind(code_id)
    .bind(now)
    .execute(db)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Take a use again for a payment that arrived after its hold lapsed (its dates no longer
/// matter: the buyer was inside them), never above the limit. A code without one takes
/// nothing (the row is rewritten as it was: a rare path, kept to one statement).
#[tracing::instrument(skip_all)]
pub async fn retake_use<'e>(db: impl Exec<'e>, code_id: &str) -> Result<bool> {
    let done = sqlx::query(
        "UPDATE promo_codes SET uses_taken = \
         CASE WHEN max_uses IS NULL THEN uses_taken ELSE uses_taken + 1 END \
         WHERE id = $1 AND (max_uses IS NULL OR uses_taken < max_uses)",
    )
    .bind(code_id)
    .execute(db)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Give back the use an order took (its checkout expired, failed or was replaced); a code
/// without a limit counts from the orders, whose status says it.
#[tracing::instrument(skip_all)]
pub async fn release_order_use<'e>(db: impl Exec<'e>, order_id: &str) -> Result<()> {
    sqlx::query(
        "UPDATE promo_codes SET uses_taken = uses_taken - 1 \
         WHERE uses_taken > 0 AND max_uses IS NOT NULL AND id = \
         (SELECT promo_code_id FROM orders WHERE id = $1)",
    )
    .bind(order_id)
    .execute(db)
    .await?;
    Ok(())
}

/// An account's live orders (being paid for, or paid) carrying a code.
#[tracing::instrument(skip_all)]
pub async fn live_orders_of_account<'e>(
    db: impl Exec<'e>,
    code_id: &str,
    account_id: &str,
) -> Result<i64> {
    let (n,): (i64,) = sqlx::query_as(
        "SELECT COUNT(*) FROM orders WHERE promo_code_id = $1 AND account_id = $2 \
         AND status IN ('pending', 'paid', 'fulfilled')",
    )
    .bind(code_id)
    .bind(account_id)
    .fetch_one(db)
    .await?;
    Ok(n)
}
