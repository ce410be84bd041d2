//! Every query of ticket tiers: the rows, their seats, and the tier an order line or a
//! ticket is of. One function per statement; the transactions are `manage`'s and
//! `orders`'.

use sqlx::AssertSqlSafe;

use super::model::{TierFields, TierRow};
use crate::db::Exec;
use crate::error::Result;

const COLUMNS: &str = "id, event_id, name, description, price_minor, min_price_minor, capacity, \
    seats_taken, sale_opens_at, sale_closes_at, hidden, is_default, position";

/// A concert's tiers in the order they are listed.
#[tracing::instrument(skip_all, fields(event = event_id))]
pub async fn of_event<'e>(db: impl Exec<'e>, event_id: &str) -> Result<Vec<TierRow>> {
    Ok(sqlx::query_as::<_, TierRow>(AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM ticket_tiers WHERE event_id = $1 \
         ORDER BY position, created_at, id"
    )))
    .bind(event_id)
    .fetch_all(db)
    .await?)
}

/// One tier of a concert (a tier of another concert is not found).
#[tracing::instrument(skip_all, fields(tier = tier_id))]
pub async fn by_id<'e>(
    db: impl Exec<'e>,
    event_id: &str,
    tier_id: &str,
) -> Result<Option<TierRow>> {
    Ok(sqlx::query_as::<_, TierRow>(AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM ticket_tiers WHERE id = $1 AND event_id = $2"
    )))
    .bind(tier_id)
    .bind(event_id)
    .fetch_optional(db)
    .await?)
}

/// A concert's default tier.
#[tracing::instrument(skip_all, fields(event = event_id))]
pub async fn default_of<'e>(db: impl Exec<'e>, event_id: &str) -> Result<Option<TierRow>> {
    Ok(sqlx::query_as::<_, TierRow>(AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM ticket_tiers WHERE event_id = $1 AND is_default = 1"
    )))
    .bind(event_id)
    .fetch_optional(db)
    .await?)
}

/// How many tiers a concert has, and the position after the last one.
#[tracing::instrument(skip_all, fields(event = event_id))]
pub async fn count_and_next_position<'e>(db: impl Exec<'e>, event_id: &str) -> Result<(i64, i64)> {
    Ok(sqlx::query_as(
        "SELECT COUNT(*), CAST(COALESCE(MAX(position) + 1, 0) AS BIGINT) FROM ticket_tiers \
         WHERE event_id = $1",
    )
    .bind(event_id)
    .fetch_one(db)
    .await?)
}

/// Order lines of a tier that were paid (sold, perhaps refunded since) or are being paid
/// for (a pending checkout); lines of checkouts that failed or expired do not count.
#[tracing::instrument(skip_all, fields(tier = tier_id))]
pub async fn sold_or_held<'e>(db: impl Exec<'e>, tier_id: &str) -> Result<i64> {
    let (n,): (i64,) = sqlx::query_as(
        "SELECT COUNT(*) FROM order_items i JOIN orders o ON o.id = i.order_id \
         WHERE i.tier_id = $1 AND o.status IN ('pending', 'paid', 'fulfilled', 'refunded')",
    )
    .bind(tier_id)
    .fetch_one(db)
    .await?;
    Ok(n)
}

/// A tier about to be deleted: the lines of checkouts that failed or expired forget it
/// (they keep its name, `tier_name`).
#[tracing::instrument(skip_all, fields(tier = tier_id))]
pub async fn forget_in_unpaid_lines<'e>(db: impl Exec<'e>, tier_id: &str) -> Result<()> {
    sqlx::query(
        "UPDATE order_items SET tier_id = NULL WHERE tier_id = $1 AND order_id IN \
         (SELECT id FROM orders WHERE status IN ('failed', 'expired'))",
    )
    .bind(tier_id)
    .execute(db)
    .await?;
    Ok(())
}

type AnyQuery<'q> = sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments>;

/// Bind a tier's fields as the next ten parameters (`name` … `position` in `TierFields`'
/// order, then `min_price_minor`): what `insert` and `update` both write.
fn bind_fields<'q>(query: AnyQuery<'q>, fields: &'q TierFields) -> AnyQuery<'q> {
    query
        .bind(&fields.name)
        .bind(&fields.description)
        .bind(fields.price_minor)
        .bind(fields.capacity)
        .bind(fields.sale_opens_at)
        .bind(fields.sale_closes_at)
        .bind(i64::from(fields.hidden))
        .bind(i64::from(fields.is_default))
        .bind(fields.position)
        .bind(fields.min_price_minor)
}

/// A new tier of a concert: its id.
#[tracing::instrument(skip_all, fields(event = event_id))]
pub async fn insert<'e>(
    db: impl Exec<'e>,
    event_id: &str,
    fields: &TierFields,
    now: i64,
) -> Result<String> {
    let id = uuid::Uuid::new_v4().to_string();
    let query = sqlx::query(
        "INSERT INTO ticket_tiers (id, event_id, name, description, price_minor, capacity, \
         sale_opens_at, sale_closes_at, hidden, is_default, position, min_price_minor, created_at, \
         updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $13)",
    )
    .bind(&id)
    .bind(event_id);
    bind_fields(query, fields).bind(now).execute(db).await?;
    Ok(id)
}

/// Save a tier's fields. False when its new capacity is below the seats it has taken.
#[tracing::instrument(skip_all, fields(tier = tier_id))]
pub async fn update<'e>(
    db: impl Exec<'e>,
    tier_id: &str,
    fields: &TierFields,
    now: i64,
) -> Result<bool> {
    let query = sqlx::query(
        "UPDATE ticket_tiers SET name = $2, description = $3, price_minor = $4, capacity = $5, \
         sale_opens_at = $6, sale_closes_at = $7, hidden = $8, is_default = $9, position = $10, \
         min_price_minor = $11, updated_at = $12 WHERE id = $1 AND ($5 IS NULL OR seats_taken <= $5)",
    )
    .bind(tier_id);
    let done = bind_fields(query, fields).bind(now).execute(db).await?;
    Ok(done.rows_affected() == 1)
}

/// The concert's default tier stops being it (another tier is about to become it).
#[tracing::instrument(skip_all, fields(event = event_id))]
pub async fn clear_default<'e>(db: impl Exec<'e>, event_id: &str) -> Result<()> {
    sqlx::query("UPDATE ticket_tiers SET is_default = 0 WHERE event_id = $1 AND is_default = 1")
        .bind(event_id)
        .execute(db)
        .await?;
    Ok(())
}

/// The concert's price changed on its form: its default tier follows (a pay-what-you-want
/// default's minimum never stays above it).
#[tracing::instrument(skip_all, fields(event = event_id))]
pub async fn set_default_price<'e>(
    db: impl Exec<'e>,
    event_id: &str,
    price_minor: i64,
) -> Result<()> {
    sqlx::query(
        "UPDATE ticket_tiers SET price_minor = $2, min_price_minor = CASE \
         WHEN min_price_minor > $2 THEN $2 ELSE min_price_minor END \
         WHERE event_id = $1 AND is_default = 1",
    )
    .bind(event_id)
    .bind(price_minor)
    .execute(db)
    .await?;
    Ok(())
}

/// Delete a tier no order line names and no seat is held of. False when one is.
#[tracing::instrument(skip_all, fields(tier = tier_id))]
pub async fn delete<'e>(db: impl Exec<'e>, tier_id: &str) -> Result<bool> {
    let done = sqlx::query(
        "DELETE FROM ticket_tiers WHERE id = $1 AND seats_taken = 0 AND is_default = 0 \
         AND NOT EXISTS (SELECT 1 FROM order_items WHERE tier_id = $1)",
    )
    .bind(tier_id)
    .execute(db)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// A deleted tier leaves every cart.
#[tracing::instrument(skip_all, fields(tier = tier_id))]
pub async fn delete_from_carts<'e>(db: impl Exec<'e>, tier_id: &str) -> Result<()> {
    sqlx::query("DELETE FROM cart_items WHERE item_kind = 'event' AND tier_id = $1")
        .bind(tier_id)
        .execute(db)
        .await?;
    Ok(())
}

/// Take `seats` seats of a tier at once, never above its capacity; `on_sale_at` also
/// requires it to be listed (or unlocked by the promo code `unlocking`) and inside its sale
/// window at that time. Run after the concert's seats were taken
/// (its row first, then the tier's: every writer locks in that order).
#[tracing::instrument(skip_all, fields(tier = tier_id))]
pub async fn take_seats<'e>(
    db: impl Exec<'e>,
    tier_id: &str,
    seats: i64,
    on_sale_at: Option<i64>,
    unlocking: Option<&str>,
) -> Result<bool> {
    let held = match on_sale_at {
        Some(now) => {
            sqlx::query(
                "UPDATE ticket_tiers SET seats_taken = seats_taken + $3 WHERE id = $1 \
                 AND (hidden = 0 OR id IN \
                   (SELECT tier_id FROM promo_code_tiers WHERE code_id = $4)) \
                 AND (sale_opens_at IS NULL OR sale_opens_at <= $2) \
                 AND (sale_closes_at IS NULL OR sale_closes_at > $2) \
                 AND (capacity IS NULL OR seats_taken + $3 <= capacity)",
            )
            .bind(tier_id)
            .bind(now)
            .bind(seats)
            .bind(unlocking)
            .execute(db)
            .await?
        }
        None => {
            sqlx::query(
                "UPDATE ticket_tiers SET seats_taken = seats_taken + $2 WHERE id = $1 \
                 AND (capacity IS NULL OR seats_taken + $2 <= capacity)",
            )
            .bind(tier_id)
            .bind(seats)
            .execute(db)
            .await?
        }
    };
    Ok(held.rows_affected() == 1)
}
