//! Concert persistence.

use sqlx::AssertSqlSafe;

use super::model::{ACCESS_WINDOW_MS, Details, EventRow, EventStatus};
use crate::db::{Db, Exec, now_ms, placeholders};
use crate::error::Result;
use crate::paging::Paging;

const COLUMNS: &str = "id, project_id, title, artist_name, description, starts_at, \
    duration_minutes, price_minor, currency, capacity, seats_taken, status, stream_key_hash, \
    stream_key_hint, image_type, image_version, created_at";

pub struct NewEvent<'a> {
    pub project_id: &'a str,
    pub title: &'a str,
    pub artist_name: &'a str,
    pub description: &'a str,
    pub starts_at: i64,
    pub duration_minutes: i64,
    pub price_minor: i64,
    pub currency: &'a str,
    pub capacity: Option<i64>,
}

/// A concert starts without a stream key: the first rotation makes one and shows it once.
fn new_stream_key() -> String {
    crate::crypto::random_token(24)
}

/// What is kept of a stream key: its last four characters, to tell keys apart.
fn stream_key_hint(key: &str) -> String {
    let start = key.char_indices().rev().nth(3).map_or(0, |(i, _)| i);
    key[start..].to_owned()
}

/// A new draft in a project, with its checked details.
pub async fn insert_draft(db: &Db, project_id: &str, details: &Details) -> Result<EventRow> {
    insert(
        db,
        NewEvent {
            project_id,
            title: &details.title,
            artist_name: &details.artist_name,
            description: &details.description,
            starts_at: details.starts_at,
            duration_minutes: details.duration_minutes,
            price_minor: details.price_minor,
            currency: &details.currency,
            capacity: details.capacity,
        },
    )
    .await
}

/// A new draft concert with its one ticket tier (the default, at its price), in one
/// transaction.
pub async fn insert(db: &Db, new: NewEvent<'_>) -> Result<EventRow> {
    let id = uuid::Uuid::new_v4().to_string();
    let now = now_ms();
    let mut tx = db.begin().await?;
    sqlx::query(
        "INSERT INTO events (id, project_id, title, artist_name, description, starts_at, \
         duration_minutes, price_minor, currency, capacity, status, stream_key, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'draft', '', $11, $11)",
    )
    .bind(&id)
    .bind(new.project_id)
    .bind(new.title)
    .bind(new.artist_name)
    .bind(new.description)
    .bind(new.starts_at)
    .bind(new.duration_minutes)
    .bind(new.price_minor)
    .bind(new.currency)
    .bind(new.capacity)
    .bind(now)
    .execute(&mut *tx)
    .await?;
    let standard = crate::commerce::tiers::model::TierFields::standard(new.price_minor);
    crate::commerce::tiers::store::insert(&mut *tx, &id, &standard, now).await?;
    tx.commit().await?;
    by_id(db, &id)
        .await?
        .ok_or_else(|| crate::error::Error::internal("inserted event vanished"))
}

pub async fn by_id(db: &Db, id: &str) -> Result<Option<EventRow>> {
    Ok(sqlx::query_as::<_, EventRow>(AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM events WHERE id = $1"
    )))
    .bind(id)
    .fetch_optional(db)
    .await?)
}

/// The latest published or live concert of that title starting after `after` and no
/// later than `until`.
#[tracing::instrument(skip_all)]
pub async fn latest_on_sale_titled(
    db: &Db,
    title: &str,
    after: i64,
    until: i64,
) -> Result<Option<EventRow>> {
    Ok(sqlx::query_as::<_, EventRow>(AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM events WHERE title = $1 AND status IN ('published', 'live') \
         AND starts_at <= $2 AND starts_at > $3 ORDER BY starts_at DESC LIMIT 1"
    )))
    .bind(title)
    .bind(until)
    .bind(after)
    .fetch_optional(db)
    .await?)
}

/// Save the editable fields. Capacity may not drop below the seats already taken. A
/// concert moved to a start whose doors are still to open is reminded again at the new
/// doors (the reminder already sent named the old time).
pub async fn save<'e>(db: impl Exec<'e>, row: &EventRow) -> Result<bool> {
    let done = sqlx::query(
        "UPDATE events SET project_id = $2, title = $3, artist_name = $4, description = $5, \
         starts_at = $6, duration_minutes = $7, price_minor = $8, currency = $9, capacity = $10, \
         updated_at = $11, \
         reminded_at = CASE WHEN starts_at <> $6 AND $6 > $11 + $12 THEN NULL ELSE reminded_at END \
         WHERE id = $1 AND ($10 IS NULL OR seats_taken <= $10)",
    )
    .bind(&row.id)
    .bind(&row.project_id)
    .bind(&row.details.title)
    .bind(&row.details.artist_name)
    .bind(&row.details.description)
    .bind(row.details.starts_at)
    .bind(row.details.duration_minutes)
    .bind(row.details.price_minor)
    .bind(&row.details.currency)
    .bind(row.details.capacity)
    .bind(now_ms())
    .bind(super::model::REMINDER_LEAD_MS)
    .execute(db)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// A concert's price follows its default tier's (a tier edit changed it).
#[tracing::instrument(skip_all, fields(event = id))]
pub async fn set_price<'e>(db: impl Exec<'e>, id: &str, price_minor: i64) -> Result<()> {
    sqlx::query("UPDATE events SET price_minor = $2, updated_at = $3 WHERE id = $1")
        .bind(id)
        .bind(price_minor)
        .bind(now_ms())
        .execute(db)
        .await?;
    Ok(())
}

/// Take the concert's row first in a transaction that changes its tiers: every writer of
/// seats locks the concert's row before its tiers', so they cannot deadlock.
#[tracing::instrument(skip_all, fields(event = id))]
pub async fn lock_for_tiers<'e>(db: impl Exec<'e>, id: &str) -> Result<()> {
    sqlx::query("UPDATE events SET updated_at = $2 WHERE id = $1")
        .bind(id)
        .bind(now_ms())
        .execute(db)
        .await?;
    Ok(())
}

/// Move to `to` only from one of `from` (so two admins cannot race a status).
pub async fn set_status<'e>(
    db: impl Exec<'e>,
    id: &str,
    from: &[EventStatus],
    to: EventStatus,
) -> Result<bool> {
    let allowed = from
        .iter()
        .map(|s| format!("'{}'", s.as_str()))
        .collect::<Vec<_>>()
        .join(", ");
    let done = sqlx::query(AssertSqlSafe(format!(
        "UPDATE events SET status = $2, updated_at = $3 WHERE id = $1 AND status IN ({allowed})"
    )))
    .bind(id)
    .bind(to.as_str())
    .bind(now_ms())
    .execute(db)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Record that the staff are told the concert's encoder is on air (`true`) or off air:
/// true when that is news (it flipped), false when they were told so already.
#[tracing::instrument(skip_all, fields(event = %id, on_air))]
pub async fn tell_staff_on_air<'e>(db: impl Exec<'e>, id: &str, on_air: bool) -> Result<bool> {
    let done = sqlx::query(
        "UPDATE events SET staff_told_on_air = $2 WHERE id = $1 AND staff_told_on_air <> $2",
    )
    .bind(id)
    .bind(i64::from(on_air))
    .execute(db)
    .await?;
    Ok(done.rows_affected() == 1)
}

pub async fn set_image(db: &Db, id: &str, media_type: &str) -> Result<()> {
    crate::images::record_on_row(db, "events", id, media_type).await
}

/// Replace the stream key; the new key is returned (to be shown once) and only its hash
/// is stored, so the old key stops working for encoders at once.
#[tracing::instrument(skip_all, fields(event = id))]
pub async fn rotate_stream_key(db: &Db, id: &str) -> Result<String> {
    let key = new_stream_key();
    sqlx::query(
        "UPDATE events SET stream_key = '', stream_key_hash = $2, stream_key_hint = $3, \
         updated_at = $4 WHERE id = $1",
    )
    .bind(id)
    .bind(crate::crypto::token_hash(&key))
    .bind(stream_key_hint(&key))
    .bind(now_ms())
    .execute(db)
    .await?;
    Ok(key)
}

/// Hash the keys stored in plain text before migration 0007 and blank them; run at every
/// start (a no-op once done), since SQL cannot hash portably. Encoders keep their key.
#[tracing::instrument(skip_all)]
pub async fn hash_legacy_stream_keys(db: &Db) -> Result<usize> {
    let legacy: Vec<(String, String)> =
        sqlx::query_as("SELECT id, stream_key FROM events WHERE stream_key <> ''")
            .fetch_all(db)
            .await?;
    for (id, key) in &legacy {
        sqlx::query(
            "UPDATE events SET stream_key = '', stream_key_hash = $2, stream_key_hint = $3 \
             WHERE id = $1 AND stream_key = $4",
        )
        .bind(id)
        .bind(crate::crypto::token_hash(key))
        .bind(stream_key_hint(key))
        .bind(key)
        .execute(db)
        .await?;
    }
    Ok(legacy.len())
}

/// Delete a concert and the cart entries for it, in one transaction.
#[tracing::instrument(skip_all, fields(event = id))]
pub async fn delete(db: &Db, id: &str) -> Result<()> {
    let mut tx = db.begin().await?;
    sqlx::query("DELETE FROM cart_items WHERE item_kind = 'event' AND item_id = $1")
        .bind(id)
        .execute(&mut *tx)
        .await?;
    sqlx::query("DELETE FROM events WHERE id = $1")
        .bind(id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(())
}

/// Concerts people can see and buy: published, live, or ended less than 24 hours after
/// their start; soonest first.
pub async fn list_active(
    db: &Db,
    search: Option<&str>,
    project: Option<&str>,
    paging: Paging,
) -> Result<(Vec<EventRow>, i64)> {
    let cutoff = now_ms() - ACCESS_WINDOW_MS;
    let mut filter = "status IN ('published', 'live', 'ended') AND starts_at > $1".to_owned();
    let pattern = search
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(crate::db::contains_pattern);
    // Placeholders are numbered in the order the values are bound below.
    let mut next = 2;
    if pattern.is_some() {
        filter.push_str(&format!(
            " AND (LOWER(title) LIKE ${next} ESCAPE '\\' OR LOWER(artist_name) LIKE ${next} ESCAPE '\\')"
        ));
        next += 1;
    }
    if project.is_some() {
        filter.push_str(&format!(" AND project_id = ${next}"));
    }
    let tail = paging.limit_offset();
    let mut rows = sqlx::query_as::<_, EventRow>(AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM events WHERE {filter} \
         ORDER BY CASE WHEN status = 'live' THEN 0 ELSE 1 END, starts_at, id {tail}"
    )))
    .bind(cutoff);
    let mut count = sqlx::query_as::<_, (i64,)>(AssertSqlSafe(format!(
        "SELECT COUNT(*) FROM events WHERE {filter}"
    )))
    .bind(cutoff);
    if let Some(pattern) = &pattern {
        rows = rows.bind(pattern);
        count = count.bind(pattern);
    }
    if let Some(project) = project {
        rows = rows.bind(project);
        count = count.bind(project);
    }
    Ok((rows.fetch_all(db).await?, count.fetch_one(db).await?.0))
}

/// The concerts an account holds a ticket for or a pass covers (drafts never), one page:
/// live first, then upcoming (soonest first), then replays and ended or cancelled ones
/// (newest first). One query for the rows and one for the count, whatever the page size.
pub async fn owned_by(db: &Db, account_id: &str, paging: Paging) -> Result<(Vec<EventRow>, i64)> {
    let filter = "status <> 'draft' AND (\
        EXISTS (SELECT 1 FROM tickets t WHERE t.event_id = events.id AND t.account_id = $1 \
                AND t.revoked_at IS NULL AND t.given_at IS NULL AND t.spare = 0) \
        OR EXISTS (SELECT 1 FROM passes p WHERE p.account_id = $1 AND p.revoked_at IS NULL \
                AND p.valid_from <= events.starts_at AND events.starts_at < p.valid_until))";
    // The rank mirrors `model::access_state`: 0 live, 1 upcoming, 2 replay, 3 over.
    let rank = format!(
        "CASE WHEN status = 'cancelled' OR starts_at + {ACCESS_WINDOW_MS} <= $2 THEN 3 \
         WHEN status = 'live' THEN 0 WHEN status = 'ended' THEN 2 \
         WHEN $2 < starts_at THEN 1 \
         WHEN $2 < starts_at + duration_minutes * 60000 THEN 0 ELSE 2 END"
    );
    let tail = paging.limit_offset();
    let rows = sqlx::query_as::<_, EventRow>(AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM events WHERE {filter} \
         ORDER BY {rank}, CASE WHEN {rank} <= 1 THEN starts_at ELSE -starts_at END, id {tail}"
    )))
    .bind(account_id)
    .bind(now_ms())
    .fetch_all(db)
    .await?;
    let (total,) = sqlx::query_as::<_, (i64,)>(AssertSqlSafe(format!(
        "SELECT COUNT(*) FROM events WHERE {filter}"
    )))
    .bind(account_id)
    .fetch_one(db)
    .await?;
    Ok((rows, total))
}

/// Every concert (staff), or those of the given projects (members), newest start first.
pub async fn list_managed(db: &Db, projects: Option<&[String]>) -> Result<Vec<EventRow>> {
    match projects {
        None => Ok(sqlx::query_as::<_, EventRow>(AssertSqlSafe(format!(
            "SELECT {COLUMNS} FROM events ORDER BY starts_at DESC, id"
        )))
        .fetch_all(db)
        .await?),
        Some([]) => Ok(Vec::new()),
        Some(ids) => {
            let mut query = sqlx::query_as::<_, EventRow>(AssertSqlSafe(format!(
                "SELECT {COLUMNS} FROM events WHERE project_id IN ({}) \
                 ORDER BY starts_at DESC, id",
                placeholders(ids.len())
            )));
            for id in ids {
                query = query.bind(id);
            }
            Ok(query.fetch_all(db).await?)
        }
    }
}

/// A live concert with its project's name (the staff Live page).
#[derive(Debug, Clone)]
pub struct LiveRow {
    pub event: EventRow,
    pub project_name: String,
}
crate::db::from_row!(LiveRow { ..event, project_name });

/// The concerts live now, earliest start first.
pub async fn live_now(db: &Db) -> Result<Vec<LiveRow>> {
    Ok(sqlx::query_as::<_, LiveRow>(AssertSqlSafe(format!(
        "SELECT {COLUMNS}, COALESCE((SELECT name FROM projects WHERE projects.id = events.project_id), '') \
         AS project_name FROM events WHERE status = 'live' ORDER BY starts_at, id"
    )))
    .fetch_all(db)
    .await?)
}

/// Which of these concerts the account may listen to: a live ticket, or a live pass
/// whose validity covers the concert's start.
pub async fn owned_among(db: &Db, account_id: &str, events: &[EventRow]) -> Result<Vec<bool>> {
    if events.is_empty() {
        return Ok(Vec::new());
    }
    let tickets: Vec<(String,)> = sqlx::query_as(
        "SELECT event_id FROM tickets WHERE account_id = $1 AND revoked_at IS NULL \
             AND given_at IS NULL AND spare = 0",
    )
    .bind(account_id)
    .fetch_all(db)
    .await?;
    let passes: Vec<(i64, i64)> = sqlx::query_as(
        "SELECT valid_from, valid_until FROM passes WHERE account_id = $1 AND revoked_at IS NULL",
    )
    .bind(account_id)
    .fetch_all(db)
    .await?;
    Ok(events
        .iter()
        .map(|e| {
            tickets.iter().any(|(id,)| *id == e.id)
                || passes
                    .iter()
                    .any(|(from, until)| (*from..*until).contains(&e.details.starts_at))
        })
        .collect())
}

crate::db::row! {
    #[derive(Debug)]
    pub struct Sale {
        pub created_at: i64,
        pub price_minor: i64,
    }
}

/// Tickets sold for a concert (live ones), with the price paid.
pub async fn sales(db: &Db, event_id: &str) -> Result<Vec<Sale>> {
    Ok(sqlx::query_as::<_, Sale>(
        "SELECT t.created_at, COALESCE(t.price_minor, i.price_minor) AS price_minor FROM tickets t \
         JOIN order_items i ON i.order_id = t.order_id AND i.item_kind = 'event' AND i.item_id = t.event_id \
         WHERE t.event_id = $1 AND t.revoked_at IS NULL ORDER BY t.created_at",
    )
    .bind(event_id)
    .fetch_all(db)
    .await?)
}

/// Live tickets sold and their revenue, per concert, for a whole list of concerts in one
/// query (concerts with no sale are absent).
#[tracing::instrument(skip_all)]
pub async fn sales_totals(db: &Db, event_ids: &[&str]) -> Result<Vec<(String, i64, i64)>> {
    if event_ids.is_empty() {
        return Ok(Vec::new());
    }
    let mut query = sqlx::query_as::<_, (String, i64, i64)>(AssertSqlSafe(format!(
        "SELECT t.event_id, COUNT(*), \
         CAST(COALESCE(SUM(COALESCE(t.price_minor, i.price_minor)), 0) AS BIGINT) FROM tickets t \
         JOIN order_items i ON i.order_id = t.order_id AND i.item_kind = 'event' AND i.item_id = t.event_id \
         WHERE t.event_id IN ({}) AND t.revoked_at IS NULL GROUP BY t.event_id",
        placeholders(event_ids.len())
    )));
    for id in event_ids {
        query = query.bind(*id);
    }
    Ok(query.fetch_all(db).await?)
}

pub async fn ticket_count_ever(db: &Db, event_id: &str) -> Result<i64> {
    let (n,): (i64,) = sqlx::query_as(
        "SELECT CAST(COALESCE(SUM(quantity), 0) AS BIGINT) FROM order_items \
         WHERE item_kind = 'event' AND item_id = $1",
    )
    .bind(event_id)
    .fetch_one(db)
    .await?;
    Ok(n)
}

// Once-per-concert notices.

/// A notice a concert's people get once, whichever instance sends it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Once {
    /// Its ticket holders: it starts in 15 minutes.
    Reminder,
    /// Its ticket holders and the staff: a publisher connected for the first time.
    LiveNow,
    /// Its artist: the first listening session opened.
    FirstListener,
}

impl Once {
    fn column(self) -> &'static str {
        match self {
            Self::Reminder => "reminded_at",
            Self::LiveNow => "live_notified_at",
            Self::FirstListener => "first_listener_at",
        }
    }
}

/// Claim a once-per-concert notice: true for the one caller that set it first.
#[tracing::instrument(skip_all, fields(notice = ?once))]
pub async fn claim_once<'e>(db: impl Exec<'e>, id: &str, once: Once, now: i64) -> Result<bool> {
    let column = once.column();
    let done = sqlx::query(AssertSqlSafe(format!(
        "UPDATE events SET {column} = $2 WHERE id = $1 AND {column} IS NULL"
    )))
    .bind(id)
    .bind(now)
    .execute(db)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Published or live concerts starting within `lead` from `now` (not yet started) whose
/// holders were not reminded yet.
#[tracing::instrument(skip_all)]
pub async fn due_for_reminder(db: &Db, now: i64, lead: i64) -> Result<Vec<EventRow>> {
    Ok(sqlx::query_as::<_, EventRow>(AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM events WHERE status IN ('published', 'live') \
         AND reminded_at IS NULL AND starts_at > $1 AND starts_at <= $2 ORDER BY starts_at"
    )))
    .bind(now)
    .bind(now + lead)
    .fetch_all(db)
    .await?)
}

// "Remind me when doors open".

/// Ask for a concert's doors reminder for an account; asking again changes nothing.
#[tracing::instrument(skip_all, fields(event = event_id))]
pub async fn add_reminder(db: &Db, account_id: &str, event_id: &str, now: i64) -> Result<()> {
    sqlx::query(
        "INSERT INTO door_reminders (account_id, event_id, created_at) VALUES ($1, $2, $3) \
         ON CONFLICT (account_id, event_id) DO NOTHING",
    )
    .bind(account_id)
    .bind(event_id)
    .bind(now)
    .execute(db)
    .await?;
    Ok(())
}

/// Withdraw an account's doors reminder for a concert, if it asked for one.
#[tracing::instrument(skip_all, fields(event = event_id))]
pub async fn remove_reminder(db: &Db, account_id: &str, event_id: &str) -> Result<()> {
    sqlx::query("DELETE FROM door_reminders WHERE account_id = $1 AND event_id = $2")
        .bind(account_id)
        .bind(event_id)
        .execute(db)
        .await?;
    Ok(())
}

/// A cancelled concert's doors reminders: nobody is reminded of it any more.
#[tracing::instrument(skip_all, fields(event = event_id))]
pub async fn remove_reminders_of<'e>(db: impl Exec<'e>, event_id: &str) -> Result<()> {
    sqlx::query("DELETE FROM door_reminders WHERE event_id = $1")
        .bind(event_id)
        .execute(db)
        .await?;
    Ok(())
}

/// Which of these concerts the account asked to be reminded of, in one query.
#[tracing::instrument(skip_all)]
pub async fn reminded_among(db: &Db, account_id: &str, events: &[EventRow]) -> Result<Vec<bool>> {
    if events.is_empty() {
        return Ok(Vec::new());
    }
    let mut query = sqlx::query_as::<_, (String,)>(AssertSqlSafe(format!(
        "SELECT event_id FROM door_reminders WHERE account_id = $1 AND event_id IN ({})",
        // $2 … $n+1: the account is $1.
        (2..events.len() + 2)
            .map(|i| format!("${i}"))
            .collect::<Vec<_>>()
            .join(", ")
    )))
    .bind(account_id);
    for event in events {
        query = query.bind(&event.id);
    }
    let asked = query.fetch_all(db).await?;
    Ok(events
        .iter()
        .map(|e| asked.iter().any(|(id,)| *id == e.id))
        .collect())
}
