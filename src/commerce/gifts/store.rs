//! Every query of ticket gifts: the gift rows, and the ticket's holder moving with them.
//! One function per statement; the transactions are `manage`'s.

use sqlx::AssertSqlSafe;

use super::model::{GiftRow, GiftStatus, TicketRow};
use crate::db::{Db, Exec};
use crate::error::Result;

const GIFT_COLUMNS: &str = "g.id, g.ticket_id, g.giver_id, g.email, g.status, g.claimant_id, \
    g.created_at, g.sent_at, t.event_id";

/// A live ticket (not revoked), whoever holds it.
#[tracing::instrument(skip_all, fields(ticket = ticket_id))]
pub async fn live_ticket(db: &Db, ticket_id: &str) -> Result<Option<TicketRow>> {
    Ok(sqlx::query_as::<_, TicketRow>(
        "SELECT id, account_id, event_id, order_id, given_at FROM tickets \
         WHERE id = $1 AND revoked_at IS NULL",
    )
    .bind(ticket_id)
    .fetch_optional(db)
    .await?)
}

/// Whether a ticket was ever listened with: a listening session was opened with it, or
/// minutes were counted for it.
#[tracing::instrument(skip_all, fields(ticket = ticket_id))]
pub async fn listened_with(db: &Db, ticket_id: &str) -> Result<bool> {
    let (listened,): (i64,) = sqlx::query_as(
        "SELECT CASE WHEN EXISTS (SELECT 1 FROM listening_sessions WHERE ticket_id = $1) \
         OR EXISTS (SELECT 1 FROM listened_minutes WHERE holder = $1) THEN 1 ELSE 0 END",
    )
    .bind(ticket_id)
    .fetch_one(db)
    .await?;
    Ok(listened == 1)
}

/// The giver lets go of their ticket: held by nobody until claimed or taken back. False
/// when it is not theirs to give any more (given, revoked, moved).
#[tracing::instrument(skip_all, fields(ticket = ticket_id))]
pub async fn let_go<'e>(
    db: impl Exec<'e>,
    ticket_id: &str,
    giver_id: &str,
    now: i64,
) -> Result<bool> {
    let done = sqlx::query(
        "UPDATE tickets SET given_at = $3 WHERE id = $1 AND account_id = $2 \
         AND revoked_at IS NULL AND given_at IS NULL",
    )
    .bind(ticket_id)
    .bind(giver_id)
    .bind(now)
    .execute(db)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Who a given ticket goes to.
#[derive(Debug, Clone, Copy)]
pub enum HandTo<'a> {
    /// The claimant: it becomes their own ticket (a spare given stops being one).
    Claimant(&'a str),
    /// The giver taking it back: as it was (their own, or a spare).
    Giver(&'a str),
}

/// The given ticket goes to its new holder. False when it is no longer given or was
/// revoked. A holder with an own live ticket of the same concert breaks
/// `tickets_one_per_account` (unless the ticket comes back to its giver as a spare).
#[tracing::instrument(skip_all, fields(ticket = ticket_id))]
pub async fn hand_to<'e>(
    db: impl Exec<'e>,
    ticket_id: &str,
    to: HandTo<'_>,
) -> Result<bool, sqlx::Error> {
    let (holder, sql) = match to {
        HandTo::Claimant(holder) => (
            holder,
            "UPDATE tickets SET account_id = $2, given_at = NULL, spare = 0 WHERE id = $1 \
             AND revoked_at IS NULL AND given_at IS NOT NULL",
        ),
        HandTo::Giver(holder) => (
            holder,
            "UPDATE tickets SET account_id = $2, given_at = NULL WHERE id = $1 \
             AND revoked_at IS NULL AND given_at IS NOT NULL",
        ),
    };
    let done = sqlx::query(sql)
        .bind(ticket_id)
        .bind(holder)
        .execute(db)
        .await?;
    Ok(done.rows_affected() == 1)
}

pub struct NewGift<'a> {
    pub id: &'a str,
    pub ticket_id: &'a str,
    pub giver_id: &'a str,
    pub email: &'a str,
    pub token_hash: &'a str,
    pub now: i64,
}

#[tracing::instrument(skip_all, fields(gift = gift.id))]
pub async fn insert<'e>(db: impl Exec<'e>, gift: NewGift<'_>) -> Result<()> {
    sqlx::query(
        "INSERT INTO ticket_gifts (id, ticket_id, giver_id, email, token_hash, status, \
         created_at, sent_at) VALUES ($1, $2, $3, $4, $5, 'pending', $6, $6)",
    )
    .bind(gift.id)
    .bind(gift.ticket_id)
    .bind(gift.giver_id)
    .bind(gift.email)
    .bind(gift.token_hash)
    .bind(gift.now)
    .execute(db)
    .await?;
    Ok(())
}

#[tracing::instrument(skip_all, fields(gift = id))]
pub async fn by_id(db: &Db, id: &str) -> Result<Option<GiftRow>> {
    Ok(sqlx::query_as::<_, GiftRow>(AssertSqlSafe(format!(
        "SELECT {GIFT_COLUMNS} FROM ticket_gifts g JOIN tickets t ON t.id = g.ticket_id \
         WHERE g.id = $1"
    )))
    .bind(id)
    .fetch_optional(db)
    .await?)
}

/// The pending gift whose claim token hashes to `token_hash`.
#[tracing::instrument(skip_all)]
pub async fn pending_by_token(db: &Db, token_hash: &str) -> Result<Option<GiftRow>> {
    Ok(sqlx::query_as::<_, GiftRow>(AssertSqlSafe(format!(
        "SELECT {GIFT_COLUMNS} FROM ticket_gifts g JOIN tickets t ON t.id = g.ticket_id \
         WHERE g.token_hash = $1 AND g.status = 'pending' AND t.revoked_at IS NULL"
    )))
    .bind(token_hash)
    .fetch_optional(db)
    .await?)
}

/// A new claim token for a pending gift (the old one no longer claims). False when the
/// gift is no longer pending.
#[tracing::instrument(skip_all, fields(gift = id))]
pub async fn renew_token(db: &Db, id: &str, token_hash: &str, now: i64) -> Result<bool> {
    let done = sqlx::query(
        "UPDATE ticket_gifts SET token_hash = $2, sent_at = $3 WHERE id = $1 AND status = 'pending'",
    )
    .bind(id)
    .bind(token_hash)
    .bind(now)
    .execute(db)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Pending → `status`, once: false when another claim or take-back ended it first. The
/// first statement of its transaction, so that on SQLite it takes the write lock before
/// anything is read.
#[tracing::instrument(skip_all, fields(gift = id))]
pub async fn end<'e>(
    db: impl Exec<'e>,
    id: &str,
    status: GiftStatus,
    claimant_id: Option<&str>,
    now: i64,
) -> Result<bool> {
    let done = sqlx::query(
        "UPDATE ticket_gifts SET status = $2, claimant_id = $3, ended_at = $4 \
         WHERE id = $1 AND status = 'pending'",
    )
    .bind(id)
    .bind(status.as_str())
    .bind(claimant_id)
    .bind(now)
    .execute(db)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// The pending gifts of an order's tickets end with it (a refund).
#[tracing::instrument(skip_all)]
pub async fn revoke_of_order<'e>(db: impl Exec<'e>, order_id: &str, now: i64) -> Result<()> {
    sqlx::query(
        "UPDATE ticket_gifts SET status = 'revoked', ended_at = $2 WHERE status = 'pending' \
         AND ticket_id IN (SELECT id FROM tickets WHERE order_id = $1)",
    )
    .bind(order_id)
    .bind(now)
    .execute(db)
    .await?;
    Ok(())
}

/// The pending gift of one ticket ends with it (its concert cancelled).
#[tracing::instrument(skip_all)]
pub async fn revoke_of_ticket<'e>(db: impl Exec<'e>, ticket_id: &str, now: i64) -> Result<()> {
    sqlx::query(
        "UPDATE ticket_gifts SET status = 'revoked', ended_at = $2 \
         WHERE status = 'pending' AND ticket_id = $1",
    )
    .bind(ticket_id)
    .bind(now)
    .execute(db)
    .await?;
    Ok(())
}

/// The current holders of an order's live tickets other than its buyer (claimants).
#[tracing::instrument(skip_all)]
pub async fn other_holders_of_order(db: &Db, order_id: &str, buyer: &str) -> Result<Vec<String>> {
    let rows: Vec<(String,)> = sqlx::query_as(
        "SELECT DISTINCT account_id FROM tickets WHERE order_id = $1 AND revoked_at IS NULL \
         AND account_id <> $2",
    )
    .bind(order_id)
    .bind(buyer)
    .fetch_all(db)
    .await?;
    Ok(rows.into_iter().map(|(id,)| id).collect())
}

/// One row of "my tickets", as read.
#[derive(Debug)]
pub struct MyTicketRow {
    pub id: String,
    pub event_id: String,
    pub title: String,
    pub artist_name: String,
    pub starts_at: i64,
    pub access_ends_at: i64,
    pub status: crate::events::model::EventStatus,
    pub tier_name: Option<String>,
    pub order_id: String,
    pub listened: i64,
    pub gift_id: Option<String>,
    pub gift_email: Option<String>,
    pub gift_sent_at: Option<i64>,
    pub spare: i64,
}
crate::db::from_row!(MyTicketRow {
    id,
    event_id,
    title,
    artist_name,
    starts_at,
    access_ends_at,
    status as String,
    tier_name,
    order_id,
    listened,
    gift_id,
    gift_email,
    gift_sent_at,
    spare
});

/// The account's live tickets, those it holds and those it gave that are not claimed yet,
/// soonest concert first.
#[tracing::instrument(skip_all)]
pub async fn tickets_of(db: &Db, account_id: &str) -> Result<Vec<MyTicketRow>> {
    Ok(sqlx::query_as::<_, MyTicketRow>(AssertSqlSafe(format!(
        "SELECT t.id, t.event_id, e.title, e.artist_name, e.starts_at, \
         e.starts_at + {window} AS access_ends_at, e.status, i.tier_name, t.order_id, \
         CASE WHEN EXISTS (SELECT 1 FROM listening_sessions s WHERE s.ticket_id = t.id) \
           OR EXISTS (SELECT 1 FROM listened_minutes m WHERE m.holder = t.id) THEN 1 ELSE 0 END \
           AS listened, \
         g.id AS gift_id, g.email AS gift_email, g.sent_at AS gift_sent_at, t.spare \
         FROM tickets t JOIN events e ON e.id = t.event_id \
         LEFT JOIN order_items i ON i.order_id = t.order_id AND i.item_kind = 'event' \
           AND i.item_id = t.event_id \
         LEFT JOIN ticket_gifts g ON g.ticket_id = t.id AND g.status = 'pending' \
         WHERE t.account_id = $1 AND t.revoked_at IS NULL \
           AND (t.given_at IS NULL OR g.giver_id = $1) \
         ORDER BY e.starts_at, t.created_at, t.id",
        window = crate::events::model::ACCESS_WINDOW_MS
    )))
    .bind(account_id)
    .fetch_all(db)
    .await?)
}
