//! Every query of markers (`markers`, and the encoder's once-a-second claim on
//! `events.title_accepted_at`): one function per statement.

use super::model::{Marker, Source};
use crate::db::{Db, Exec};
use crate::error::Result;

const COLUMNS: &str = "id, event_id, at_ms, title, artist, source, created_at, updated_at";

/// A marker as stored.
#[derive(Debug)]
struct Row {
    id: String,
    event_id: String,
    at_ms: i64,
    title: String,
    artist: Option<String>,
    source: String,
    created_at: i64,
    updated_at: i64,
}
crate::db::from_row!(Row {
    id,
    event_id,
    at_ms,
    title,
    artist,
    source,
    created_at,
    updated_at
});

impl Row {
    fn into_marker(self) -> Marker {
        Marker {
            id: self.id,
            event_id: self.event_id,
            at_ms: self.at_ms,
            title: self.title,
            artist: self.artist,
            // The CHECK constraint allows these two only.
            source: Source::parse(&self.source).unwrap_or(Source::Artist),
            created_at: self.created_at,
            updated_at: self.updated_at,
        }
    }
}

/// What a new marker holds.
pub struct NewMarker<'a> {
    pub event_id: &'a str,
    pub at_ms: i64,
    pub title: &'a str,
    pub artist: Option<&'a str>,
    pub source: Source,
}

/// A show's markers in timeline order (ties in the order they came).
#[tracing::instrument(skip_all)]
pub async fn of_event<'e>(db: impl Exec<'e>, event_id: &str) -> Result<Vec<Marker>> {
    let rows: Vec<Row> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM markers WHERE event_id = $1 ORDER BY at_ms, created_at, id"
    )))
    .bind(event_id)
    .fetch_all(db)
    .await?;
    Ok(rows.into_iter().map(Row::into_marker).collect())
}

#[tracing::instrument(skip_all)]
pub async fn by_id<'e>(db: impl Exec<'e>, event_id: &str, id: &str) -> Result<Option<Marker>> {
    let row: Option<Row> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM markers WHERE event_id = $1 AND id = $2"
    )))
    .bind(event_id)
    .bind(id)
    .fetch_optional(db)
    .await?;
    Ok(row.map(Row::into_marker))
}

/// The show's last marker on the timeline (the last to come among equals).
#[tracing::instrument(skip_all)]
pub async fn last<'e>(db: impl Exec<'e>, event_id: &str) -> Result<Option<Marker>> {
    let row: Option<Row> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM markers WHERE event_id = $1 \
         ORDER BY at_ms DESC, created_at DESC, id DESC LIMIT 1"
    )))
    .bind(event_id)
    .fetch_optional(db)
    .await?;
    Ok(row.map(Row::into_marker))
}

#[tracing::instrument(skip_all)]
pub async fn count<'e>(db: impl Exec<'e>, event_id: &str) -> Result<i64> {
    let (n,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM markers WHERE event_id = $1")
        .bind(event_id)
        .fetch_one(db)
        .await?;
    Ok(n)
}

#[tracing::instrument(skip_all)]
pub async fn insert<'e>(db: impl Exec<'e>, new: &NewMarker<'_>, now: i64) -> Result<Marker> {
    let row: Row = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "INSERT INTO markers (id, event_id, at_ms, title, artist, source, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $7) RETURNING {COLUMNS}"
    )))
    .bind(uuid::Uuid::new_v4().to_string())
    .bind(new.event_id)
    .bind(new.at_ms)
    .bind(new.title)
    .bind(new.artist)
    .bind(new.source.as_str())
    .bind(now)
    .fetch_one(db)
    .await?;
    Ok(row.into_marker())
}

/// Write a marker's editable fields back; false when it is gone.
#[tracing::instrument(skip_all)]
pub async fn save(db: &Db, marker: &Marker, now: i64) -> Result<bool> {
    Ok(sqlx::query(
        "UPDATE markers SET at_ms = $3, title = $4, artist = $5, updated_at = $6 \
         WHERE event_id = $1 AND id = $2",
    )
    .bind(&marker.event_id)
    .bind(&marker.id)
    .bind(marker.at_ms)
    .bind(&marker.title)
    .bind(&marker.artist)
    .bind(now)
    .execute(db)
    .await?
    .rows_affected()
        == 1)
}

/// Delete one marker; false when there was none.
#[tracing::instrument(skip_all)]
pub async fn delete(db: &Db, event_id: &str, id: &str) -> Result<bool> {
    Ok(
        sqlx::query("DELETE FROM markers WHERE event_id = $1 AND id = $2")
            .bind(event_id)
            .bind(id)
            .execute(db)
            .await?
            .rows_affected()
            == 1,
    )
}

/// Delete a show's markers (its recording is gone).
#[tracing::instrument(skip_all)]
pub async fn delete_of_event(db: &Db, event_id: &str) -> Result<u64> {
    Ok(sqlx::query("DELETE FROM markers WHERE event_id = $1")
        .bind(event_id)
        .execute(db)
        .await?
        .rows_affected())
}

/// Claim this second for the encoder's title: true when no title was accepted in the
/// `window_ms` before `now`. One conditional UPDATE, so two instances never both win.
#[tracing::instrument(skip_all)]
pub async fn claim_title_slot<'e>(
    db: impl Exec<'e>,
    event_id: &str,
    now: i64,
    window_ms: i64,
) -> Result<bool> {
    Ok(sqlx::query(
        "UPDATE events SET title_accepted_at = $2 WHERE id = $1 \
         AND (title_accepted_at IS NULL OR title_accepted_at <= $3)",
    )
    .bind(event_id)
    .bind(now)
    .bind(now - window_ms)
    .execute(db)
    .await?
    .rows_affected()
        == 1)
}
