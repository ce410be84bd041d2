//! Listening sessions: who may open one (a ticket, or a pass covering the concert, from
//! its doors — start − 15 min, or going on air if earlier — to start + 24 h), and keeping
//! each ticket's one live session across restarts. Serving never reads the database: the
//! sessions live in `StreamAccess`'s memory, loaded from `listening_sessions` at start
//! (`StreamAccess::restore`) and written here when one opens.

use crate::commerce::store as commerce;
use crate::db::{Db, now_ms};
use crate::error::{Error, Result};
use crate::events::model::{EventRow, Phase, concert_state};
use crate::i18n::Msg;
use crate::state::AppState;
use crate::stream::access::pass_key;
use crate::stream::access::store;

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
    /// The session's signed token (in the playlist's path; the download link takes it).
    pub token: String,
    /// The multivariant playlist of the same session: every rendition of the show.
    pub master_path: String,
    pub expires_at: i64,
}

/// Whether the window is open for `event` at `now` (`on_air`: an encoder publishes it),
/// by the concert's one state: from the doors (or from going on air, if earlier) until 24
/// hours after the start. The refusal says why not.
pub fn check_window(event: &EventRow, now: i64, on_air: bool) -> Result<()> {
    match concert_state(event, now, on_air).phase {
        Phase::Cancelled => Err(Error::forbidden(Msg::ConcertCancelled)),
        // A draft is refused as not open yet, as before it was published.
        Phase::Draft | Phase::Upcoming => Err(Error::forbidden(Msg::ListeningNotOpen)),
        Phase::Expired => Err(Error::forbidden(Msg::ListeningClosed)),
        Phase::Doors | Phase::Live | Phase::Replay => Ok(()),
    }
}

/// The account's ticket for the concert, else a live pass valid at its start.
pub async fn holder(db: &Db, account_id: &str, event: &EventRow) -> Result<Option<Holder>> {
    if let Some(id) = commerce::live_ticket_for(db, account_id, &event.id).await? {
        return Ok(Some(Holder::Ticket(id)));
    }
    let pass = commerce::live_pass_at(db, account_id, event.details.starts_at).await?;
    Ok(pass.map(|pass_id| Holder::Pass {
        pass_id,
        event_id: event.id.clone(),
    }))
}

crate::openapi::failures!(
    /// How a fan's listening calls are refused, as their annotations list it: a draft is
    /// no concert to fans, and [`admit`] says the rest.
    pub ListenerRefusals {
        403 => "No ticket, or outside the listening window.",
        404 => "No such concert.",
    }
);

/// Whether the account may listen to `event` now (the window open, a ticket or a pass):
/// what a session needs, without opening one. `on_air`: an encoder publishes it now.
pub async fn admit(db: &Db, account_id: &str, event: &EventRow, on_air: bool) -> Result<Holder> {
    check_window(event, now_ms(), on_air)?;
    holder(db, account_id, event)
        .await?
        .ok_or_else(|| Error::forbidden(Msg::NeedTicket))
}

/// Start listening: check the window and the ticket, record the new session (ending the
/// holder's previous one, on every device, within one request) and answer its playlist.
pub async fn start(app: &AppState, account_id: &str, event: &EventRow) -> Result<Started> {
    let holder = admit(&app.db, account_id, event, app.hub.on_air(&event.id)).await?;
    let key = holder.key();
    let expires_at = event.access_until();
    let (session_id, token) = app.stream_access.issue(&event.id, &key, expires_at);
    let (ticket_id, pass_id) = match &holder {
        Holder::Ticket(id) => (Some(id.as_str()), None),
        Holder::Pass { pass_id, .. } => (None, Some(pass_id.as_str())),
    };
    // Stored first: a session the client never learns of must not end the one it has.
    let session = store::NewSession {
        holder: &key,
        event_id: &event.id,
        ticket_id,
        pass_id,
        session_id: &session_id,
        expires_at,
    };
    store::upsert(&app.db, &session, now_ms()).await?;
    app.stream_access.activate(&key, &session_id);
    Ok(Started {
        playlist_path: format!("/stream/{token}/index.m3u8"),
        master_path: format!("/stream/{token}/master.m3u8"),
        token,
        expires_at,
    })
}

/// End every listening session paid for by an account's tickets and passes (it was
/// disabled, or is about to be deleted: call this before the delete cascades).
pub async fn end_for_account(app: &AppState, account_id: &str) -> Result<()> {
    // One transaction: a failure leaves the stored sessions (and memory) as they were.
    let mut tx = app.db.begin().await?;
    let holders = store::holders_of_account(&mut *tx, account_id).await?;
    store::delete_of_account(&mut *tx, account_id).await?;
    tx.commit().await?;
    for holder in holders {
        app.stream_access.revoke(&holder);
    }
    Ok(())
}

/// Forget sessions whose window has closed.
pub async fn purge_expired(db: &Db, now: i64) -> Result<u64> {
    store::delete_expired(db, now).await
}
