//! Publishing, whatever the transport: check the stream key and the media type, claim
//! the show (one publisher at a time), pump the bytes through the ADTS parser into the
//! segmenter, and when the publisher goes, end the show unless it comes back within the
//! grace period.

use std::sync::Arc;
use std::time::Duration;

use base64::Engine;
use futures_util::{Stream, StreamExt};

use super::adts::AdtsParser;
use super::hub::{Claim, RECONNECT_GRACE, Show};
use crate::app::AppState;
use crate::events::model::EventStatus;
use crate::events::store as events_store;

/// An encoder silent this long is disconnected.
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(10);

const AAC_TYPES: [&str; 4] = [
    "audio/aac",
    "audio/aacp",
    "audio/x-aac",
    "audio/x-hx-aac-adts",
];

/// Why a publisher is turned away: an HTTP status and a line for the encoder's log.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Refusal {
    pub status: u16,
    pub message: &'static str,
}

const fn refuse(status: u16, message: &'static str) -> Refusal {
    Refusal { status, message }
}

pub struct Publisher {
    pub show: Arc<Show>,
    pub id: u64,
}

/// Admit a publisher for `/live/{event_id}` with its `Authorization` and
/// `Content-Type` header values.
pub async fn admit(
    app: &AppState,
    event_id: &str,
    authorization: Option<&str>,
    content_type: Option<&str>,
) -> Result<Publisher, Refusal> {
    let event = events_store::by_id(&app.db, event_id)
        .await
        .ok()
        .flatten()
        .ok_or(refuse(404, "No such concert."))?;
    let key = authorization
        .and_then(|v| v.strip_prefix("Basic "))
        .and_then(|v| {
            base64::engine::general_purpose::STANDARD
                .decode(v.trim())
                .ok()
        })
        .and_then(|v| String::from_utf8(v).ok())
        .and_then(|v| v.split_once(':').map(|(_, key)| key.to_owned()));
    if !key.is_some_and(|k| crate::crypto::constant_time_eq(&k, &event.stream_key)) {
        return Err(refuse(401, "Wrong stream key."));
    }
    if !matches!(event.status(), EventStatus::Published | EventStatus::Live) {
        return Err(refuse(409, "This concert is not open for streaming."));
    }
    let content_type = content_type.unwrap_or_default().to_ascii_lowercase();
    if !AAC_TYPES.iter().any(|t| content_type.starts_with(t)) {
        return Err(refuse(415, "Send AAC in ADTS (Content-Type: audio/aac)."));
    }
    let show = app.hub.show(event_id);
    let id = match show.claim() {
        Claim::Granted(id) => id,
        Claim::Busy => return Err(refuse(409, "Another encoder is publishing this concert.")),
        Claim::Ended => return Err(refuse(409, "This show has ended.")),
    };
    let _ = events_store::set_status(
        &app.db,
        event_id,
        &[EventStatus::Published],
        EventStatus::Live,
    )
    .await;
    tracing::info!(event = %event_id, "publisher connected");
    Ok(Publisher { show, id })
}

/// Feed the publisher's bytes until it stops, goes idle, or loses the show.
pub async fn pump<S, B, E>(app: &AppState, publisher: Publisher, mut bytes: S)
where
    S: Stream<Item = Result<B, E>> + Unpin,
    B: AsRef<[u8]>,
{
    let Publisher { show, id } = publisher;
    let mut parser = AdtsParser::new();
    loop {
        match tokio::time::timeout(IDLE_TIMEOUT, bytes.next()).await {
            Ok(Some(Ok(chunk))) => {
                let chunk = chunk.as_ref();
                let frames = parser.push(chunk);
                match show.feed(id, frames, chunk.len()) {
                    Ok(true) => {}
                    Ok(false) => break,
                    Err(err) => {
                        tracing::error!(event = %show.event_id, error = %err, "writing the recording failed");
                        break;
                    }
                }
            }
            Ok(Some(Err(_)) | None) => break,
            Err(_) => {
                tracing::info!(event = %show.event_id, "publisher idle; disconnecting");
                break;
            }
        }
    }
    show.release(id);
    tracing::info!(event = %show.event_id, "publisher disconnected");
    // If nobody comes back within the grace period, the show ends.
    let app = app.clone();
    tokio::spawn(async move {
        tokio::time::sleep(RECONNECT_GRACE + Duration::from_millis(100)).await;
        if show.abandoned() {
            finish(&app, &show).await;
        }
    });
}

/// End a show: ENDLIST in the playlist, the concert `ended`.
pub async fn finish(app: &AppState, show: &Show) {
    if let Err(err) = show.end() {
        tracing::error!(event = %show.event_id, error = %err, "ending the show failed");
    }
    let _ = events_store::set_status(
        &app.db,
        &show.event_id,
        &[EventStatus::Published, EventStatus::Live],
        EventStatus::Ended,
    )
    .await;
}

/// Delete recordings whose retention is over (by default when the 24-hour listening
/// window closes), and end the sessions that listened to them.
pub async fn purge_recordings(app: &AppState) {
    let now = crate::db::now_ms();
    let retention = app.config.recording_retention_hours * 3_600_000;
    for event_id in app.hub.recorded() {
        let expired = match events_store::by_id(&app.db, &event_id).await {
            Ok(Some(event)) => now >= event.starts_at + retention.max(0),
            Ok(None) => true,
            Err(_) => false,
        };
        if expired {
            app.stream_access.revoke_event(&event_id);
            match app.hub.remove(&event_id) {
                Ok(()) => tracing::info!(event = %event_id, "recording deleted (retention over)"),
                Err(err) => {
                    tracing::warn!(event = %event_id, error = %err, "deleting a recording failed")
                }
            }
        }
    }
}
