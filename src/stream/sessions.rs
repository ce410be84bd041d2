//! Listening sessions: who may open one (a ticket, or a pass covering the concert,
//! inside [start − 15 min, start + 24 h]), and keeping each ticket's one live session
//! across restarts. Serving never reads the database: the sessions live in
//! `StreamAccess`'s memory, loaded from `listening_sessions` at start and written here
//! when one opens.

use super::access::pass_key;
use crate::app::AppState;
use crate::db::{Db, now_ms};
use crate::error::{Error, Result};
use crate::events::model::{EARLY_ACCESS_MS, EventRow, EventStatus};
use crate::i18n::Msg;

/// What pays for listening to a concert.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Holder {
    Ticket(String),
    /// A pass covers many concerts: one session per pass and concert.
    Pass {
        pass_id: String,
        event_id: String,
    },
}

impl Holder {
    /// The key of its one live session (`StreamAccess` and the table's primary key).
    pub fn key(&self) -> String {
        match self {
            Self::Ticket(id) => id.clone(),
            Self::Pass { pass_id, event_id } => pass_key(pass_id, event_id),
        }
    }
}

/// A started session: the playlist path to hand to the player, and when it stops working.
#[derive(Debug, Clone)]
pub struct Started {
    pub playlist_path: String,
    pub expires_at: i64,
}

/// Whether the window is open for `event` at `now`; the refusal says why not.
pub fn check_window(event: &EventRow, now: i64) -> Result<()> {
    if event.status == EventStatus::Cancelled {
        return Err(Error::forbidden(Msg::ConcertCancelled));
    }
    if now < event.starts_at - EARLY_ACCESS_MS {
        return Err(Error::forbidden(Msg::ListeningNotOpen));
    }
    if now >= event.access_until() {
        return Err(Error::forbidden(Msg::ListeningClosed));
    }
    Ok(())
}

/// The account's ticket for the concert, else a live pass valid at its start.
pub async fn holder(db: &Db, account_id: &str, event: &EventRow) -> Result<Option<Holder>> {
    let ticket: Option<(String,)> = sqlx::query_as(
        "SELECT id FROM tickets WHERE account_id = $1 AND event_id = $2 AND revoked_at IS NULL",
    )
    .bind(account_id)
    .bind(&event.id)
    .fetch_optional(db)
    .await?;
    if let Some((id,)) = ticket {
        return Ok(Some(Holder::Ticket(id)));
    }
    let pass: Option<(String,)> = sqlx::query_as(
        "SELECT id FROM passes WHERE account_id = $1 AND revoked_at IS NULL \
         AND valid_from <= $2 AND valid_until > $2",
    )
    .bind(account_id)
    .bind(event.starts_at)
    .fetch_optional(db)
    .await?;
    Ok(pass.map(|(pass_id,)| Holder::Pass {
        pass_id,
        event_id: event.id.clone(),
    }))
}

/// Start listening: check the window and the ticket, record the new session (ending the
/// holder's previous one, on every device, within one request) and answer its playlist.
pub async fn start(app: &AppState, account_id: &str, event: &EventRow) -> Result<Started> {
    check_window(event, now_ms())?;
    let holder = holder(&app.db, account_id, event)
        .await?
        .ok_or_else(|| Error::forbidden(Msg::NeedTicket))?;
    let key = holder.key();
    let expires_at = event.access_until();
    let (session_id, token) = app.stream_access.issue(&event.id, &key, expires_at);
    let (ticket_id, pass_id) = match &holder {
        Holder::Ticket(id) => (Some(id.as_str()), None),
        Holder::Pass { pass_id, .. } => (None, Some(pass_id.as_str())),
    };
    // Stored first: a session the client never learns of must not end the one it has.
    sqlx::query(
        "INSERT INTO listening_sessions \
         (holder, event_id, ticket_id, pass_id, session_id, expires_at, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7) \
         ON CONFLICT (holder) DO UPDATE SET session_id = excluded.session_id, \
         expires_at = excluded.expires_at, created_at = excluded.created_at",
    )
    .bind(&key)
    .bind(&event.id)
    .bind(ticket_id)
    .bind(pass_id)
    .bind(&session_id)
    .bind(expires_at)
    .bind(now_ms())
    .execute(&app.db)
    .await?;
    app.stream_access.activate(&key, &session_id);
    Ok(Started {
        playlist_path: format!("/stream/{token}/index.m3u8"),
        expires_at,
    })
}

/// The sessions that still grant access: unexpired, their ticket or pass not revoked,
/// their concert not cancelled. (holder key, session id) pairs.
pub async fn live(db: &Db, now: i64) -> Result<Vec<(String, String)>> {
    Ok(sqlx::query_as(
        "SELECT s.holder, s.session_id FROM listening_sessions s \
         JOIN events e ON e.id = s.event_id AND e.status <> 'cancelled' \
         LEFT JOIN tickets t ON t.id = s.ticket_id \
         LEFT JOIN passes p ON p.id = s.pass_id \
         WHERE s.expires_at > $1 \
         AND (s.ticket_id IS NULL OR t.revoked_at IS NULL) \
         AND (s.pass_id IS NULL OR p.revoked_at IS NULL)",
    )
    .bind(now)
    .fetch_all(db)
    .await?)
}

/// Load the stored sessions into memory (at start).
pub async fn restore(app: &AppState) -> Result<usize> {
    let sessions = live(&app.db, now_ms()).await?;
    let count = sessions.len();
    for (holder, session_id) in sessions {
        app.stream_access.activate(&holder, &session_id);
    }
    Ok(count)
}

/// End every listening session paid for by an account's tickets and passes (it was
/// disabled, or is about to be deleted: call this before the delete cascades).
pub async fn end_for_account(app: &AppState, account_id: &str) -> Result<()> {
    let holders: Vec<(String,)> = sqlx::query_as(
        "SELECT s.holder FROM listening_sessions s \
         LEFT JOIN tickets t ON t.id = s.ticket_id \
         LEFT JOIN passes p ON p.id = s.pass_id \
         WHERE t.account_id = $1 OR p.account_id = $1",
    )
    .bind(account_id)
    .fetch_all(&app.db)
    .await?;
    sqlx::query(
        "DELETE FROM listening_sessions \
         WHERE ticket_id IN (SELECT id FROM tickets WHERE account_id = $1) \
         OR pass_id IN (SELECT id FROM passes WHERE account_id = $1)",
    )
    .bind(account_id)
    .execute(&app.db)
    .await?;
    for (holder,) in holders {
        app.stream_access.revoke(&holder);
    }
    Ok(())
}

/// Forget sessions whose window has closed.
pub async fn purge_expired(db: &Db, now: i64) -> Result<u64> {
    Ok(
        sqlx::query("DELETE FROM listening_sessions WHERE expires_at <= $1")
            .bind(now)
            .execute(db)
            .await?
            .rows_affected(),
    )
}
