//! Every query of listening sessions (`listening_sessions`): one function per statement.

use crate::db::{Db, Exec};
use crate::error::Result;

/// A session as recorded when it opens.
pub struct NewSession<'a> {
    /// The holder key: its primary key, one live session per ticket or pass and concert.
    pub holder: &'a str,
    pub event_id: &'a str,
    pub ticket_id: Option<&'a str>,
    pub pass_id: Option<&'a str>,
    pub session_id: &'a str,
    pub expires_at: i64,
}

/// Record the holder's session, replacing the one it had.
#[tracing::instrument(skip_all)]
pub async fn upsert(db: &Db, new: &NewSession<'_>, now: i64) -> Result<()> {
    sqlx::query(
        "INSERT INTO listening_sessions \
         (holder, event_id, ticket_id, pass_id, session_id, expires_at, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7) \
         ON CONFLICT (holder) DO UPDATE SET session_id = excluded.session_id, \
         expires_at = excluded.expires_at, created_at = excluded.created_at",
    )
    .bind(new.holder)
    .bind(new.event_id)
    .bind(new.ticket_id)
    .bind(new.pass_id)
    .bind(new.session_id)
    .bind(new.expires_at)
    .bind(now)
    .execute(db)
    .await?;
    Ok(())
}

/// The sessions that still grant access: unexpired, their ticket or pass not revoked,
/// their concert not cancelled. (holder key, session id) pairs.
#[tracing::instrument(skip_all)]
pub async fn live(db: &Db, now: i64) -> Result<Vec<(String, String)>> {
    Ok(sqlx::query_as(
        "SELECT s.holder, s.session_id FROM listening_sessions s \
         JOIN events e ON e.id = s.event_id AND e.status <> 'cancelled' \
         LEFT JOIN tickets t ON t.id = s.ticket_id \
         LEFT JOIN passes p ON p.id = s.pass_id \
         WHERE s.expires_at > $1 \
         AND (s.ticket_id IS NULL OR (t.revoked_at IS NULL AND t.given_at IS NULL AND t.spare = 0)) \
         AND (s.pass_id IS NULL OR p.revoked_at IS NULL)",
    )
    .bind(now)
    .fetch_all(db)
    .await?)
}

/// The holder keys of the sessions paid for by an account's tickets and passes.
#[tracing::instrument(skip_all)]
pub async fn holders_of_account<'e>(db: impl Exec<'e>, account_id: &str) -> Result<Vec<String>> {
    let rows: Vec<(String,)> = sqlx::query_as(
        "SELECT s.holder FROM listening_sessions s \
         LEFT JOIN tickets t ON t.id = s.ticket_id \
         LEFT JOIN passes p ON p.id = s.pass_id \
         WHERE t.account_id = $1 OR p.account_id = $1",
    )
    .bind(account_id)
    .fetch_all(db)
    .await?;
    Ok(rows.into_iter().map(|(holder,)| holder).collect())
}

#[tracing::instrument(skip_all)]
pub async fn delete_of_account<'e>(db: impl Exec<'e>, account_id: &str) -> Result<()> {
    sqlx::query(
        "DELETE FROM listening_sessions \
         WHERE ticket_id IN (SELECT id FROM tickets WHERE account_id = $1) \
         OR pass_id IN (SELECT id FROM passes WHERE account_id = $1)",
    )
    .bind(account_id)
    .execute(db)
    .await?;
    Ok(())
}

/// Forget sessions whose window has closed; how many went.
#[tracing::instrument(skip_all)]
pub async fn delete_expired(db: &Db, now: i64) -> Result<u64> {
    Ok(
        sqlx::query("DELETE FROM listening_sessions WHERE expires_at <= $1")
            .bind(now)
            .execute(db)
            .await?
            .rows_affected(),
    )
}

/// Listening sessions that grant access now, per concert: (event id, count).
#[tracing::instrument(skip_all)]
pub async fn live_per_event(db: &Db, now: i64) -> Result<Vec<(String, i64)>> {
    Ok(sqlx::query_as(
        "SELECT event_id, COUNT(*) FROM listening_sessions WHERE expires_at > $1 \
         GROUP BY event_id",
    )
    .bind(now)
    .fetch_all(db)
    .await?)
}

/// A listener heard in a minute: their session key and the concert.
pub struct Heard {
    holder: String,
    event_id: String,
}

impl Heard {
    pub fn new(holder: String, event_id: String) -> Self {
        Self { holder, event_id }
    }
}

/// Count `minute` (unix minutes) for each listener heard, on their row of `day` (the UTC
/// day's start, unix ms), unless it was counted already (by another instance). Answers how
/// many were counted.
#[tracing::instrument(skip_all, fields(heard = heard.len()))]
pub async fn add_minute(db: &Db, heard: &[Heard], day: i64, minute: i64) -> Result<u64> {
    // Bounded statements: a sold-out show is thousands of listeners.
    let mut tx = db.begin().await?;
    let mut counted = 0;
    for chunk in heard.chunks(200) {
        let rows = (0..chunk.len())
            .map(|i| {
                let at = 3 * i + 3;
                format!("(${}, $1, ${}, ${}, 1, $2)", at, at + 1, at + 2)
            })
            .collect::<Vec<_>>()
            .join(", ");
        let mut query = sqlx::query(sqlx::AssertSqlSafe(format!(
            "INSERT INTO listened_minutes (holder, day, event_id, pass_id, minutes, last_minute) \
             VALUES {rows} ON CONFLICT (holder, day) DO UPDATE \
             SET minutes = listened_minutes.minutes + 1, last_minute = excluded.last_minute \
             WHERE listened_minutes.last_minute < excluded.last_minute"
        )))
        .bind(day)
        .bind(minute);
        for one in chunk {
            query = query
                .bind(&one.holder)
                .bind(&one.event_id)
                .bind(super::pass_of(&one.holder));
        }
        counted += query.execute(&mut *tx).await?.rows_affected();
    }
    tx.commit().await?;
    Ok(counted)
}

/// The minutes listened to each concert from `from` to `until` (unix ms, whole UTC days)
/// with one pass: (concert id, minutes), most first.
#[tracing::instrument(skip_all)]
pub async fn minutes_of_pass<'e>(
    db: impl Exec<'e>,
    pass_id: &str,
    from: i64,
    until: i64,
) -> Result<Vec<(String, i64)>> {
    Ok(sqlx::query_as(
        "SELECT event_id, CAST(SUM(minutes) AS BIGINT) AS minutes FROM listened_minutes \
         WHERE pass_id = $1 AND day >= $2 AND day < $3 GROUP BY event_id ORDER BY minutes DESC, event_id",
    )
    .bind(pass_id)
    .bind(from)
    .bind(until)
    .fetch_all(db)
    .await?)
}
