//! Markers: one list per show of what is playing when (song titles), fed by the
//! encoder's Icecast metadata call and by the artist's hand (issues 15 and 18). Each sits
//! on the show's media timeline (`at_ms`: the milliseconds of audio recorded when it came),
//! and the playlist carries them as `EXT-X-DATERANGE`s (see `playlist`).
//!
//! Serving never reads the database: each instance keeps a show's markers in its hub
//! (loaded once, on first use), refreshed after a write here and, on the other instances,
//! when the write's `markers_changed` arrives on the bus's `cache` channel.

pub mod api;
pub mod model;
pub mod store;

pub use model::{Marker, Source};

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::bus::{Channel, Publication, Received};
use crate::db::now_ms;
use crate::error::Error;
use crate::i18n::Msg;
use crate::state::AppState;
use crate::stream::show::hub::Show;

/// The longest title or artist, in characters.
pub const MAX_TEXT_CHARS: usize = 255;
/// Markers one show may hold: a playlist carries every one of them.
pub const MAX_PER_SHOW: i64 = 500;
/// The encoder's titles: at most one in this window per show; the others are refused.
pub const ENCODER_WINDOW_MS: i64 = 1_000;

/// Why a marker write was refused.
#[derive(Debug, thiserror::Error)]
pub enum MarkerError {
    #[error("no such marker")]
    NotFound,
    #[error("empty title")]
    EmptyTitle,
    #[error("a title or artist longer than 255 characters")]
    TooLong,
    #[error("at {at_ms} ms, outside the {recorded_ms} ms recorded")]
    OutsideRecording { at_ms: i64, recorded_ms: i64 },
    #[error("nothing recorded yet")]
    NothingRecorded,
    #[error("the show is not on air")]
    NotLive,
    #[error("the show has its maximum of markers")]
    Full,
    #[error("a title already came within the second")]
    TooSoon,
    #[error(transparent)]
    Other(#[from] Error),
}

impl From<sqlx::Error> for MarkerError {
    fn from(err: sqlx::Error) -> Self {
        Self::Other(err.into())
    }
}

impl From<MarkerError> for Error {
    fn from(err: MarkerError) -> Self {
        match err {
            MarkerError::NotFound => Error::not_found(Msg::MarkerNotFound),
            MarkerError::EmptyTitle => Error::unprocessable(Msg::MarkerTitleEmpty),
            MarkerError::TooLong => Error::unprocessable(Msg::MarkerTextTooLong),
            MarkerError::OutsideRecording { recorded_ms, .. } => {
                Error::unprocessable(Msg::MarkerOutsideRecording.with("recorded", recorded_ms))
            }
            MarkerError::NothingRecorded | MarkerError::NotLive => {
                Error::conflict(Msg::MarkerNothingRecorded)
            }
            MarkerError::Full => Error::conflict(Msg::MarkersFull.with("max", MAX_PER_SHOW)),
            MarkerError::TooSoon => Error::LimitReached {
                text: Msg::MarkerTooSoon.into(),
                retry_after: 1,
            },
            MarkerError::Other(err) => err,
        }
    }
}

/// A title or artist as a playlist can carry it: control characters, newlines and runs
/// of white space become one space, the ends are trimmed. `None` when nothing is left.
pub fn clean(raw: &str) -> Option<String> {
    let mut out = String::with_capacity(raw.len().min(4 * MAX_TEXT_CHARS));
    let mut space = false;
    for c in raw.chars() {
        if c.is_control() || c.is_whitespace() {
            space = !out.is_empty();
        } else {
            if space {
                out.push(' ');
                space = false;
            }
            out.push(c);
        }
    }
    (!out.is_empty()).then_some(out)
}

/// An encoder's text, cleaned and cut to [`MAX_TEXT_CHARS`] (an encoder cannot be told
/// to shorten it; a person through the API is, see [`checked`]).
pub fn cut(raw: &str) -> Option<String> {
    let cleaned = clean(raw)?;
    match cleaned.char_indices().nth(MAX_TEXT_CHARS) {
        Some((end, _)) => clean(&cleaned[..end]),
        None => Some(cleaned),
    }
}

/// A person's text, cleaned; longer than [`MAX_TEXT_CHARS`] is refused.
pub fn checked(raw: &str) -> Result<Option<String>, MarkerError> {
    let cleaned = clean(raw);
    if cleaned
        .as_deref()
        .is_some_and(|t| t.chars().count() > MAX_TEXT_CHARS)
    {
        return Err(MarkerError::TooLong);
    }
    Ok(cleaned)
}

/// Where the show stands on this instance or the one holding it: on air, and how much
/// is recorded (ms).
async fn position(app: &AppState, event_id: &str) -> (bool, i64) {
    let status = app.figures.status(event_id).await;
    let on_air = status.publisher_connected && !status.ended;
    (on_air, (status.recorded_seconds * 1000.0).floor() as i64)
}

/// A time a person gives must fall inside what is recorded.
fn check_time(at_ms: i64, recorded_ms: i64) -> Result<(), MarkerError> {
    if at_ms < 0 || at_ms > recorded_ms {
        return Err(MarkerError::OutsideRecording { at_ms, recorded_ms });
    }
    Ok(())
}

/// A show's markers, in timeline order.
pub async fn list(app: &AppState, event_id: &str) -> Result<Vec<Marker>, MarkerError> {
    Ok(store::of_event(&app.db, event_id).await?)
}

/// What a person adds.
#[derive(Debug, Clone)]
pub struct Addition {
    pub title: String,
    pub artist: Option<String>,
    /// `None`: the live position now.
    pub at_ms: Option<i64>,
}

/// Add a marker by hand: at the given time inside the recording, or at the live position.
pub async fn add(app: &AppState, event_id: &str, input: Addition) -> Result<Marker, MarkerError> {
    let title = checked(&input.title)?.ok_or(MarkerError::EmptyTitle)?;
    let artist = match input.artist.as_deref() {
        Some(a) => checked(a)?,
        None => None,
    };
    let (_, recorded_ms) = position(app, event_id).await;
    if recorded_ms <= 0 {
        return Err(MarkerError::NothingRecorded);
    }
    let at_ms = input.at_ms.unwrap_or(recorded_ms);
    check_time(at_ms, recorded_ms)?;
    let new = store::NewMarker {
        event_id,
        at_ms,
        title: &title,
        artist: artist.as_deref(),
        source: Source::Artist,
    };
    let marker = insert_capped(app, &new, None).await?;
    changed(app, event_id).await;
    Ok(marker)
}

/// Insert within the cap (and, for the encoder, its once-a-second claim) in one
/// transaction: a refused title leaves nothing behind. An encoder repeating the title
/// playing now (liquidsoap sends it again when it reconnects) adds nothing: the marker
/// already there is answered.
async fn insert_capped(
    app: &AppState,
    new: &store::NewMarker<'_>,
    claim_window_ms: Option<i64>,
) -> Result<Marker, MarkerError> {
    let now = now_ms();
    let mut tx = app.db.begin().await?;
    if let Some(window) = claim_window_ms
        && !store::claim_title_slot(&mut *tx, new.event_id, now, window).await?
    {
        return Err(MarkerError::TooSoon);
    }
    if new.source == Source::Encoder
        && let Some(last) = store::last(&mut *tx, new.event_id).await?
        && last.title == new.title
        && last.artist.as_deref() == new.artist
    {
        tx.commit().await?;
        return Ok(last);
    }
    if store::count(&mut *tx, new.event_id).await? >= MAX_PER_SHOW {
        return Err(MarkerError::Full);
    }
    let marker = store::insert(&mut *tx, new, now).await?;
    tx.commit().await?;
    Ok(marker)
}

/// What a person changes; `None` leaves a field as it is (`artist: Some(None)` clears it).
#[derive(Debug, Clone, Default)]
pub struct Edit {
    pub title: Option<String>,
    pub artist: Option<Option<String>>,
    pub at_ms: Option<i64>,
}

/// Change a marker's title, artist or time.
pub async fn edit(
    app: &AppState,
    event_id: &str,
    marker_id: &str,
    input: Edit,
) -> Result<Marker, MarkerError> {
    let mut marker = store::by_id(&app.db, event_id, marker_id)
        .await?
        .ok_or(MarkerError::NotFound)?;
    if let Some(title) = &input.title {
        marker.title = checked(title)?.ok_or(MarkerError::EmptyTitle)?;
    }
    if let Some(artist) = &input.artist {
        marker.artist = match artist {
            Some(a) => checked(a)?,
            None => None,
        };
    }
    if let Some(at_ms) = input.at_ms {
        let (_, recorded_ms) = position(app, event_id).await;
        check_time(at_ms, recorded_ms.max(marker.at_ms))?;
        marker.at_ms = at_ms;
    }
    let now = now_ms();
    if !store::save(&app.db, &marker, now).await? {
        return Err(MarkerError::NotFound);
    }
    marker.updated_at = now;
    changed(app, event_id).await;
    Ok(marker)
}

/// Remove a marker.
pub async fn delete(app: &AppState, event_id: &str, marker_id: &str) -> Result<(), MarkerError> {
    if !store::delete(&app.db, event_id, marker_id).await? {
        return Err(MarkerError::NotFound);
    }
    changed(app, event_id).await;
    Ok(())
}

/// What an encoder's metadata call carries, raw.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EncoderTitle {
    pub song: Option<String>,
    pub title: Option<String>,
    pub artist: Option<String>,
}

impl EncoderTitle {
    /// The title and artist to keep: `title` (with `artist`) when the encoder sends them
    /// apart, as liquidsoap does; otherwise `song`, Icecast's "Artist - Title" line.
    pub fn resolve(&self) -> Option<(String, Option<String>)> {
        if let Some(title) = self.title.as_deref().and_then(cut) {
            return Some((title, self.artist.as_deref().and_then(cut)));
        }
        self.song.as_deref().and_then(cut).map(|song| (song, None))
    }
}

/// A title from the encoder, while the show is on air: at the live position, at most one
/// a second per show.
pub async fn from_encoder(
    app: &AppState,
    event_id: &str,
    title: String,
    artist: Option<String>,
) -> Result<Marker, MarkerError> {
    let (on_air, recorded_ms) = position(app, event_id).await;
    if !on_air {
        return Err(MarkerError::NotLive);
    }
    let new = store::NewMarker {
        event_id,
        at_ms: recorded_ms.max(0),
        title: &title,
        artist: artist.as_deref(),
        source: Source::Encoder,
    };
    let marker = insert_capped(app, &new, Some(ENCODER_WINDOW_MS)).await?;
    changed(app, event_id).await;
    Ok(marker)
}

/// Load a show's markers into this instance's hub and install them, unless a load that
/// began later already did (see [`Show::install_markers`]).
pub async fn refresh(app: &AppState, show: &Show) {
    let ticket = show.next_marker_ticket();
    match store::of_event(&app.db, &show.event_id).await {
        Ok(markers) => show.install_markers(ticket, Arc::from(markers)),
        Err(err) => {
            tracing::warn!(event = %show.event_id, error = %err, "loading markers failed")
        }
    }
}

/// Make sure this instance has the show's markers: loaded once, by one request of the
/// many that may ask at once.
pub async fn ensure_loaded(app: &AppState, show: &Show) {
    if show.markers_loaded() {
        return;
    }
    let _loading = show.markers_loading.lock().await;
    if !show.markers_loaded() {
        refresh(app, show).await;
    }
}

/// `markers_changed` on the cache channel: instances holding the show's markers reload
/// them (`origin` already did).
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct MarkersChanged {
    event_id: String,
    origin: String,
}

impl crate::bus::Message for MarkersChanged {
    const KIND: &'static str = "markers_changed";
}

/// A show's markers changed: refresh them here at once (the writer's next playlist must
/// show the change) and tell the other instances through the bus.
pub async fn changed(app: &AppState, event_id: &str) {
    if let Some(show) = app.hub.existing(event_id) {
        refresh(app, &show).await;
    }
    app.bus.publish_detached(
        Channel::Cache,
        Publication::new(&MarkersChanged {
            event_id: event_id.to_owned(),
            origin: app.bus.instance().to_owned(),
        }),
    );
}

/// Delete a show's markers with its recording.
pub async fn delete_with_recording(app: &AppState, event_id: &str) {
    if let Err(err) = store::delete_of_event(&app.db, event_id).await {
        tracing::warn!(event = %event_id, error = %err, "deleting markers failed");
    }
}

/// Follow the other instances' marker changes for as long as the bus lives. After a lag
/// or a reconnection (changes may have been missed) every loaded show is refreshed.
pub fn follow_changes(app: AppState) {
    let mut subscription = app.bus.subscribe(&Channel::Cache);
    tokio::spawn(async move {
        while let Some(received) = subscription.recv().await {
            match received {
                Received::Message(delivery) => {
                    if let Some(MarkersChanged { event_id, origin }) = delivery.event.read()
                        && origin != app.bus.instance()
                        && let Some(show) = app.hub.existing(&event_id)
                        && show.markers_loaded()
                    {
                        refresh(&app, &show).await;
                    }
                }
                Received::Lagged { .. } | Received::Reconnected => {
                    for show in app.hub.all() {
                        if show.markers_loaded() {
                            refresh(&app, &show).await;
                        }
                    }
                }
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_and_newlines_become_one_space_and_the_ends_are_trimmed() {
        assert_eq!(
            clean("  Song\n#EXT-X-ENDLIST\r\t\u{0}x  ").as_deref(),
            Some("Song #EXT-X-ENDLIST x")
        );
        assert_eq!(clean("\u{2028}a\u{85}b").as_deref(), Some("a b"));
        assert_eq!(clean(" \n\t "), None);
        assert_eq!(clean("Say \"hi\"").as_deref(), Some("Say \"hi\""));
    }

    #[test]
    fn an_encoders_title_is_cut_to_255_characters_and_a_persons_is_refused() {
        let long = "é".repeat(10_000);
        let cut_title = cut(&long).unwrap();
        assert_eq!(cut_title.chars().count(), MAX_TEXT_CHARS);
        assert!(matches!(checked(&long), Err(MarkerError::TooLong)));
        assert_eq!(checked(&"a".repeat(255)).unwrap().unwrap().len(), 255);
        // Cut where a space falls: no trailing space is left.
        let spaced = format!("{} b", "a".repeat(254));
        assert_eq!(cut(&spaced).unwrap(), "a".repeat(254));
    }

    #[test]
    fn an_encoder_sending_title_and_artist_apart_is_read_so_else_its_song_line() {
        let both = EncoderTitle {
            song: Some("A - T".into()),
            title: Some("T".into()),
            artist: Some("A".into()),
        };
        assert_eq!(both.resolve(), Some(("T".into(), Some("A".into()))));
        let song = EncoderTitle {
            song: Some("A - T".into()),
            ..Default::default()
        };
        assert_eq!(song.resolve(), Some(("A - T".into(), None)));
        let blank = EncoderTitle {
            song: Some(" \n".into()),
            title: Some("".into()),
            artist: Some("A".into()),
        };
        assert_eq!(blank.resolve(), None);
    }

    #[test]
    fn a_time_must_fall_inside_the_recording() {
        assert!(check_time(0, 0).is_ok());
        assert!(check_time(5_000, 5_000).is_ok());
        assert!(matches!(
            check_time(5_001, 5_000),
            Err(MarkerError::OutsideRecording { .. })
        ));
        assert!(check_time(-1, 5_000).is_err());
    }
}
