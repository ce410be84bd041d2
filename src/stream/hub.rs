//! The live hub: one show per concert, fed by at most one publisher at a time. Each new
//! part bumps a watch channel, which wakes blocking playlist reloads the moment the part
//! they wait for exists. The rendered playlist is cached per version and shared by every
//! listener (it is the same bytes for all of them: the access token is in the URL path).

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bytes::Bytes;
use tokio::sync::watch;

use super::adts::AacFrame;
use super::playlist::Playlist;
use super::segmenter::{MediaFile, Progress, Segmenter};

/// A publisher that drops may come back within this time and continue the same show.
pub const RECONNECT_GRACE: Duration = Duration::from_secs(30);

/// A listener counts for this long after its last playlist or media request (players
/// ask every part's length, ~1 s; a paused one stops asking).
pub const LISTENER_WINDOW: Duration = Duration::from_secs(30);

struct Rendered {
    version: u64,
    full: Option<Bytes>,
    delta: Option<Bytes>,
}

#[derive(Default)]
struct State {
    segmenter: Option<Segmenter>,
    publisher: Option<u64>,
    next_publisher: u64,
    disconnected_at: Option<Instant>,
    connected_at: Option<Instant>,
    bytes_in: u64,
    /// AAC bytes recorded over the whole show, every publisher together (the quota).
    recorded_bytes: u64,
    /// A publisher was cut off at the size limit: the recording takes no more.
    full: bool,
    /// The rendered playlists of one version: full and delta, each rendered on first use.
    cache: Option<Rendered>,
}

pub struct Show {
    pub event_id: String,
    dir: PathBuf,
    state: Mutex<State>,
    version: watch::Sender<u64>,
    /// Media files as shared bytes: every new part goes in as it is written (all the
    /// live listeners ask for it at once), older ones on their first read from disk.
    media: moka::sync::Cache<MediaFile, Bytes>,
    /// Who listened on this instance lately: each ticket's (or pass's) session key and
    /// its last request. A lock of its own, apart from the recording's.
    listeners: Mutex<HashMap<String, Instant>>,
}

/// Memory for one show's media cache (≈ an hour of 128 kbit/s parts and segments).
const MEDIA_CACHE_BYTES: u64 = 128 << 20;

/// What a publisher sees when it asks to publish.
#[derive(Debug, PartialEq, Eq)]
pub enum Claim {
    Granted(u64),
    Busy,
    Ended,
}

/// Live status for the artist controls.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = LiveStatus)]
pub struct Status {
    /// An encoder or a browser is publishing now.
    pub publisher_connected: bool,
    /// Audio recorded so far.
    pub recorded_seconds: f64,
    /// How long the current publisher has been connected.
    pub connected_seconds: f64,
    /// The incoming audio's bitrate.
    pub bitrate_kbps: f64,
    /// The show was ended: nobody can publish to it again.
    pub ended: bool,
    /// Segments listeners can play.
    pub segments: usize,
    /// People listening now (a request in the last 30 seconds), on every instance.
    pub listeners: u64,
}

impl Show {
    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn claim(&self) -> Claim {
        let mut state = self.lock();
        if state.segmenter.as_ref().is_some_and(Segmenter::ended) {
            return Claim::Ended;
        }
        if state.publisher.is_some() {
            return Claim::Busy;
        }
        state.next_publisher += 1;
        let id = state.next_publisher;
        state.publisher = Some(id);
        state.connected_at = Some(Instant::now());
        state.bytes_in = 0;
        // Coming back within the grace period: same show, a discontinuity, no gap.
        if state.disconnected_at.take().is_some()
            && let Some(segmenter) = state.segmenter.as_mut()
            && let Err(err) = segmenter.mark_discontinuity()
        {
            tracing::error!(event = %self.event_id, error = %err, "closing the part before a reconnect failed");
        }
        self.keep_fresh(&mut state);
        Claim::Granted(id)
    }

    /// AAC bytes recorded so far, every publisher together.
    pub fn recorded_bytes(&self) -> u64 {
        self.lock().recorded_bytes
    }

    /// The recording reached its size limit: no publisher is admitted again.
    pub fn mark_full(&self) {
        self.lock().full = true;
    }

    pub fn is_full(&self) -> bool {
        self.lock().full
    }

    pub fn release(&self, publisher: u64) {
        let mut state = self.lock();
        if state.publisher == Some(publisher) {
            state.publisher = None;
            state.disconnected_at = Some(Instant::now());
        }
    }

    /// Frames from the current publisher; false when it is no longer the publisher.
    pub fn feed(
        &self,
        publisher: u64,
        frames: Vec<AacFrame>,
        bytes: usize,
    ) -> std::io::Result<bool> {
        let now = crate::db::now_ms();
        let mut bumped = false;
        {
            let mut state = self.lock();
            if state.publisher != Some(publisher) {
                return Ok(false);
            }
            state.bytes_in += bytes as u64;
            state.recorded_bytes += frames.iter().map(|f| f.payload.len() as u64).sum::<u64>();
            for frame in frames {
                if state.segmenter.is_none() {
                    state.segmenter = Some(Segmenter::create(&self.dir, frame.config)?);
                }
                if let Some(segmenter) = state.segmenter.as_mut()
                    && let Some(Progress::Part { .. }) = segmenter.push(frame, now)?
                {
                    bumped = true;
                    crate::metrics::part_produced();
                }
            }
            if bumped {
                state.cache = None;
                self.keep_fresh(&mut state);
            }
        }
        if bumped {
            self.version.send_modify(|v| *v += 1);
        }
        Ok(true)
    }

    /// End the show: the playlist gets ENDLIST and plays as on-demand.
    pub fn end(&self) -> std::io::Result<()> {
        {
            let mut state = self.lock();
            state.publisher = None;
            if let Some(segmenter) = state.segmenter.as_mut()
                && !segmenter.ended()
            {
                segmenter.end(crate::db::now_ms())?;
            }
            state.cache = None;
            self.keep_fresh(&mut state);
        }
        self.version.send_modify(|v| *v += 1);
        Ok(())
    }

    /// Whether the publisher has been away past the grace period.
    pub fn abandoned(&self) -> bool {
        let state = self.lock();
        state.publisher.is_none()
            && state
                .disconnected_at
                .is_some_and(|t| t.elapsed() >= RECONNECT_GRACE)
            && !state.segmenter.as_ref().is_some_and(Segmenter::ended)
    }

    fn keep_fresh(&self, state: &mut State) {
        if let Some(segmenter) = state.segmenter.as_mut() {
            for (file, bytes) in segmenter.take_fresh() {
                self.media.insert(file, bytes);
            }
        }
    }

    /// A media file from memory.
    pub fn cached(&self, file: MediaFile) -> Option<Bytes> {
        self.media.get(&file)
    }

    /// A media file from memory, else from the recording on disk (then kept).
    pub async fn media(&self, file: MediaFile) -> Option<Bytes> {
        if let Some(bytes) = self.media.get(&file) {
            return Some(bytes);
        }
        let bytes = Bytes::from(
            tokio::fs::read(self.dir.join(file.file_name()))
                .await
                .ok()?,
        );
        self.media.insert(file, bytes.clone());
        Some(bytes)
    }

    /// The show's AAC format, once the first frame has set it.
    pub fn config(&self) -> Option<super::adts::AacConfig> {
        self.lock().segmenter.as_ref().map(|s| *s.config())
    }

    pub fn status(&self) -> Status {
        let state = self.lock();
        let connected = state
            .connected_at
            .map_or(0.0, |t| t.elapsed().as_secs_f64());
        Status {
            publisher_connected: state.publisher.is_some(),
            recorded_seconds: state
                .segmenter
                .as_ref()
                .map_or(0.0, Segmenter::recorded_seconds),
            connected_seconds: if state.publisher.is_some() {
                connected
            } else {
                0.0
            },
            bitrate_kbps: if connected > 0.5 && state.publisher.is_some() {
                state.bytes_in as f64 * 8.0 / 1000.0 / connected
            } else {
                0.0
            },
            ended: state.segmenter.as_ref().is_some_and(Segmenter::ended),
            segments: state.segmenter.as_ref().map_or(0, |s| s.segments().len()),
            // This instance's; `live::figures` adds the other instances'.
            listeners: self.listeners_at(Instant::now()),
        }
    }

    /// A listener (its ticket's or pass's session key) asked for the playlist or a piece:
    /// it counts for [`LISTENER_WINDOW`]. On every request, so it allocates only for a
    /// listener not seen yet.
    pub fn heard(&self, holder: &str) {
        let now = Instant::now();
        let mut listeners = self.listeners.lock().unwrap_or_else(|e| e.into_inner());
        match listeners.get_mut(holder) {
            Some(at) => *at = now,
            None => {
                listeners.insert(holder.to_owned(), now);
            }
        }
    }

    /// Listeners heard on this instance within [`LISTENER_WINDOW`] before `now`; the
    /// others are forgotten.
    pub fn listeners_at(&self, now: Instant) -> u64 {
        let mut listeners = self.listeners.lock().unwrap_or_else(|e| e.into_inner());
        listeners.retain(|_, at| now.saturating_duration_since(*at) < LISTENER_WINDOW);
        listeners.len() as u64
    }

    /// Whether this instance holds the show: its publisher is connected here, or its
    /// recording is here. Such an instance publishes the show's figures.
    pub fn held_here(&self) -> bool {
        let state = self.lock();
        state.publisher.is_some() || state.segmenter.is_some()
    }

    /// Is part `part` of segment `msn` (or the whole segment, without a part) there?
    /// Runs for every waiting listener at every new part: a binary search, as a show
    /// three hours in has over ten thousand segments.
    fn has(&self, msn: u64, part: Option<u32>) -> bool {
        let state = self.lock();
        let Some(segmenter) = state.segmenter.as_ref() else {
            return false;
        };
        if segmenter.ended() {
            return true;
        }
        let segments = segmenter.segments();
        match segments.binary_search_by_key(&msn, |s| s.msn) {
            Ok(i) => {
                let s = &segments[i];
                match part {
                    Some(p) => (p as usize) < s.parts.len() || s.complete,
                    None => s.complete,
                }
            }
            Err(_) => segments.last().is_some_and(|s| s.msn > msn),
        }
    }

    /// Wait (up to `timeout`) until the requested part exists: blocking playlist reload.
    pub async fn wait_for(&self, msn: u64, part: Option<u32>, timeout: Duration) -> bool {
        let mut changes = self.version.subscribe();
        let _parked = crate::metrics::parked_reload();
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            if self.has(msn, part) {
                return true;
            }
            match tokio::time::timeout_at(deadline, changes.changed()).await {
                Ok(Ok(())) => continue,
                _ => return self.has(msn, part),
            }
        }
    }

    /// The playlist text (full or delta), rendered once per change and shared.
    pub fn playlist(&self, skip: bool) -> Option<Bytes> {
        let version = *self.version.borrow();
        let mut state = self.lock();
        let State {
            segmenter, cache, ..
        } = &mut *state;
        let segmenter = segmenter.as_ref()?;
        let rendered = match cache {
            Some(r) if r.version == version => r,
            _ => cache.insert(Rendered {
                version,
                full: None,
                delta: None,
            }),
        };
        let slot = if skip {
            &mut rendered.delta
        } else {
            &mut rendered.full
        };
        let text = slot.get_or_insert_with(|| {
            Bytes::from(
                Playlist {
                    segments: segmenter.segments(),
                    part_target: segmenter.part_target(),
                    ended: segmenter.ended(),
                    skip,
                }
                .render(),
            )
        });
        Some(text.clone())
    }

    pub fn dir(&self) -> &std::path::Path {
        &self.dir
    }

    /// Target duration in seconds (for the blocking-reload timeout): the nominal segment
    /// length, which no segment exceeds.
    pub fn target_duration(&self) -> u64 {
        let state = self.lock();
        state.segmenter.as_ref().map_or(1, |s| {
            let layout = s.layout();
            (f64::from(layout.parts_per_segment) * s.part_target())
                .round()
                .max(1.0) as u64
        })
    }
}

/// All shows of this instance.
pub struct Hub {
    root: PathBuf,
    shows: Mutex<HashMap<String, Arc<Show>>>,
}

impl Hub {
    pub fn new(root: PathBuf) -> Self {
        Self {
            root,
            shows: Mutex::new(HashMap::new()),
        }
    }

    pub fn show(&self, event_id: &str) -> Arc<Show> {
        let mut shows = self.shows.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(show) = shows.get(event_id) {
            return show.clone();
        }
        shows
            .entry(event_id.to_owned())
            .or_insert_with(|| {
                let safe: String = event_id
                    .chars()
                    .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
                    .collect();
                let dir = self.root.join(safe);
                // After a restart the recording on disk is picked up where it stopped.
                let segmenter = Segmenter::recover(&dir).unwrap_or_else(|err| {
                    tracing::error!(event = event_id, error = %err, "recovering a show failed");
                    None
                });
                Arc::new(Show {
                    event_id: event_id.to_owned(),
                    dir,
                    state: Mutex::new(State {
                        segmenter,
                        ..State::default()
                    }),
                    version: watch::channel(0).0,
                    media: moka::sync::Cache::builder()
                        .weigher(|_, bytes: &Bytes| u32::try_from(bytes.len()).unwrap_or(u32::MAX))
                        .max_capacity(MEDIA_CACHE_BYTES)
                        .build(),
                    listeners: Mutex::new(HashMap::new()),
                })
            })
            .clone()
    }

    pub fn existing(&self, event_id: &str) -> Option<Arc<Show>> {
        self.shows
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(event_id)
            .cloned()
    }

    /// Forget a show and delete its recording.
    pub fn remove(&self, event_id: &str) -> std::io::Result<()> {
        let show = self
            .shows
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(event_id);
        let dir = show.map_or_else(|| self.root.join(event_id), |s| s.dir.clone());
        match std::fs::remove_dir_all(dir) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
            _ => Ok(()),
        }
    }

    /// The concerts with a recording on disk (directory names are event ids).
    pub fn recorded(&self) -> Vec<String> {
        std::fs::read_dir(&self.root)
            .map(|entries| {
                entries
                    .filter_map(|e| e.ok())
                    .filter(|e| e.path().is_dir())
                    .filter_map(|e| e.file_name().into_string().ok())
                    .collect()
            })
            .unwrap_or_default()
    }

    pub fn all(&self) -> Vec<Arc<Show>> {
        self.shows
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .values()
            .cloned()
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_listener_counts_once_until_it_has_been_quiet_for_the_window() {
        let root = tempfile::tempdir().unwrap();
        let show = Hub::new(root.path().to_owned()).show("event-1");
        let start = Instant::now();
        show.heard("ticket-1");
        show.heard("ticket-2");
        show.heard("ticket-1");
        assert_eq!(show.listeners_at(start), 2, "one per ticket, however often");
        assert_eq!(show.listeners_at(start + LISTENER_WINDOW / 2), 2);
        assert_eq!(
            show.listeners_at(start + LISTENER_WINDOW + Duration::from_secs(1)),
            0,
            "quiet for the window: gone"
        );
        show.heard("ticket-2");
        assert_eq!(
            show.listeners_at(Instant::now()),
            1,
            "and back when it asks again"
        );
        assert!(!show.held_here(), "no publisher, no recording here");
    }
}
