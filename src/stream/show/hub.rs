//! The live hub: one show per concert, fed by at most one publisher at a time. Each new
//! part bumps a watch channel, which wakes blocking playlist reloads the moment the part
//! they wait for exists. The rendered playlist is cached per version and shared by every
//! listener (it is the same bytes for all of them: the access token is in the URL path).

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use bytes::Bytes;
use tokio::sync::{broadcast, watch};

use crate::stream::codecs::adts::AacFrame;
use crate::stream::codecs::ladder::{HIGH_ABOVE_KBPS, Rendition, Step};
use crate::stream::hls::multivariant::Bandwidth;
use crate::stream::hls::playlist::{Playlist, range_id};
use crate::stream::hls::renditions::{Fitted, Flac, Lane, Renditions};
use crate::stream::hls::segmenter::Segmenter;
use crate::stream::hls::track::{MediaFile, Progress};
use crate::stream::ingest::pacing::{Pace, frame_seconds};
use crate::stream::markers::model::Marker;
use crate::stream::show::journal::entry::{
    Entry, EntryId, Frames, Job, LosslessFrames, RenditionFrames, Writer,
};

/// A publisher that drops may come back within this time (on any instance) and continue
/// the same show, one discontinuity and the gap kept in the recording; after it the show
/// ends by itself. `ENCORE_SHOW_ABANDON_MINUTES` sets it.
pub const DEFAULT_ABANDON_AFTER: Duration = Duration::from_secs(15 * 60);

/// A listener counts for this long after its last playlist or media request (players
/// ask every part's length, ~1 s; a paused one stops asking).
pub const LISTENER_WINDOW: Duration = Duration::from_secs(30);

/// How long a listener is remembered after its last request: past the minute in which it
/// was last heard, which the minutes listened count only once that minute has ended.
const LISTENER_MEMORY: Duration = Duration::from_secs(150);

struct Rendered {
    version: u64,
    full: Option<Bytes>,
    delta: Option<Bytes>,
}

/// Where the show's publisher is, as this instance knows it: one state at a time.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
enum Publisher {
    /// None, and none awaited: nobody has published yet, or the show ended.
    #[default]
    Idle,
    /// Connected here since then (its id tells its frames from a replaced one's).
    Here { id: u64, since: Instant },
    /// Connected to another instance, as the show's journal says.
    Elsewhere,
    /// Gone since then, here or elsewhere: it may come back within the show's
    /// `abandon_after`, after which the show ends by itself.
    Away { since: Instant },
}

impl Publisher {
    /// Connected somewhere: here, or (as the journal says) on another instance.
    fn connected(self) -> bool {
        matches!(self, Self::Here { .. } | Self::Elsewhere)
    }

    fn is(self, publisher: u64) -> bool {
        matches!(self, Self::Here { id, .. } if id == publisher)
    }
}

struct State {
    /// The show's recording: a segmenter per rendition (issue 32), the standard one
    /// where today's playlist, recordings and restarts find it.
    renditions: Renditions,
    publisher: Publisher,
    next_publisher: u64,
    bytes_in: u64,
    /// Audio bytes recorded over the whole show, every rendition and every publisher
    /// together (the quota: what the show's folder holds, bar the containers' headers).
    recorded_bytes: u64,
    /// A publisher was cut off at the size limit: the recording takes no more.
    full: bool,
    /// Per lane (by [`Lane::slot`]), the rendered playlists of one version: full and
    /// delta, each rendered on first use.
    cache: [Option<Rendered>; Lane::COUNT],
    /// When this instance last applied an entry another instance wrote.
    heard_elsewhere_at: Option<Instant>,
    /// The last entry of the show's journal applied or skipped here.
    journal_at: Option<EntryId>,
    /// The show's markers on this instance (`None` until first loaded), and the load
    /// ticket they came from (see [`Show::install_markers`]).
    markers: Option<Arc<[Marker]>>,
    markers_ticket: u64,
    /// Date range ids of markers lately edited or deleted, oldest first (at most
    /// [`REMOVED_RANGES`]), for delta updates.
    removed_ranges: Vec<String>,
    /// How far ahead of the clock the show's audio runs, whoever sends it from where.
    pace: Pace,
}

impl State {
    fn new(renditions: Renditions) -> Self {
        Self {
            renditions,
            publisher: Publisher::default(),
            next_publisher: 0,
            bytes_in: 0,
            recorded_bytes: 0,
            full: false,
            cache: Default::default(),
            heard_elsewhere_at: None,
            journal_at: None,
            markers: None,
            markers_ticket: 0,
            removed_ranges: Vec::new(),
            pace: Pace::default(),
        }
    }

    /// The standard rendition's segmenter, once the show has a frame.
    fn standard(&self) -> Option<&Segmenter> {
        self.renditions.standard()
    }

    fn ended(&self) -> bool {
        self.standard().is_some_and(Segmenter::ended)
    }

    /// Record one fitted step in every lane, alike on the instance the encoder sends to
    /// and from its journal; whether a part was written.
    fn record(&mut self, step: Fitted, now_ms: i64) -> std::io::Result<bool> {
        self.recorded_bytes += step.bytes();
        let part = self.renditions.push(step, now_ms)?;
        if let Some(Progress::Part { .. }) = part {
            crate::metrics::part_produced();
            return Ok(true);
        }
        Ok(false)
    }

    /// Something changed: every rendition's playlist is rendered anew.
    fn stale(&mut self) {
        self.cache = Default::default();
    }
}

/// How many removed date range ids delta updates name: far more than a player can have
/// missed between two reloads.
const REMOVED_RANGES: usize = 100;

pub struct Show {
    pub event_id: String,
    dir: PathBuf,
    state: Mutex<State>,
    version: watch::Sender<u64>,
    /// Media files of every rendition as shared bytes: every new part goes in as it is
    /// written (all the live listeners ask for it at once), older ones on their first
    /// read from disk. The key is `Copy`: a lookup hashes it and allocates nothing.
    media: moka::sync::Cache<(Lane, MediaFile), Bytes>,
    /// Who listened on this instance lately: each ticket's (or pass's) session key and
    /// its last request. A lock of its own, apart from the recording's.
    listeners: Mutex<HashMap<String, Instant>>,
    /// The journal other instances follow (with Redis; set once for the hub).
    journal: Arc<OnceLock<Writer>>,
    /// How long it waits for its encoder to come back before it ends by itself.
    abandon_after: Duration,
    /// Tickets handed to marker loads, in the order they began.
    marker_tickets: std::sync::atomic::AtomicU64,
    /// Held while the markers are first loaded, so many listeners asking at once make
    /// one query.
    pub markers_loading: tokio::sync::Mutex<()>,
    /// Where the hub hears that a show ended ([`Hub::ended_shows`]).
    ended: broadcast::Sender<String>,
}

/// Shows ended at once that [`Hub::ended_shows`] keeps for a slow receiver.
const ENDED_BACKLOG: usize = 256;

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
    /// What is playing at the live edge: the last marker at or before it.
    pub now_playing: Option<NowPlaying>,
    /// The show aired and its encoder is away (here and, as far as the journal says,
    /// everywhere), not ended: how long it has been away.
    #[serde(default)]
    pub away_seconds: Option<f64>,
    /// While away: seconds left before the show ends by itself unless an encoder comes
    /// back (`ENCORE_SHOW_ABANDON_MINUTES` after it went away).
    #[serde(default)]
    pub ends_in_seconds: Option<f64>,
}

/// The marker playing at the live edge.
#[derive(
    Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize, utoipa::ToSchema,
)]
#[serde(rename_all = "camelCase")]
pub struct NowPlaying {
    pub marker_id: String,
    pub title: String,
    pub artist: Option<String>,
    /// Its position, in ms from the show's first sample.
    pub at_ms: i64,
}

impl Show {
    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn claim(&self) -> Claim {
        let mut state = self.lock();
        if state.ended() {
            return Claim::Ended;
        }
        if matches!(state.publisher, Publisher::Here { .. }) {
            return Claim::Busy;
        }
        state.next_publisher += 1;
        let id = state.next_publisher;
        // Coming back before the show is abandoned (here, or after the instance it published
        // to went away without a word), or taking it over from another instance: same show,
        // a discontinuity, no gap.
        let before = std::mem::replace(
            &mut state.publisher,
            Publisher::Here {
                id,
                since: Instant::now(),
            },
        );
        state.bytes_in = 0;
        let returning = matches!(before, Publisher::Away { .. } | Publisher::Elsewhere);
        // Or to this instance after it restarted: its copy stops where its disk did.
        let restarted = state.standard().is_some_and(Segmenter::restarted);
        let frames = state.standard().map_or(0, Segmenter::frames);
        if (returning || restarted) && frames > 0 {
            let (now_ms, at) = (crate::db::now_ms(), frames);
            match state.renditions.mark_discontinuity(now_ms) {
                Ok(()) => {
                    self.journal(Entry::Discontinuity { now_ms, at });
                }
                Err(err) => {
                    tracing::error!(event = %self.event_id, error = %err, "closing the part before a reconnect failed");
                }
            }
        }
        self.journal(Entry::Claimed);
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
        self.let_go(publisher, true);
    }

    /// The publisher stops here because another instance took the show's lease: that
    /// instance writes the journal now, so nothing is written to it from here.
    pub fn release_unannounced(&self, publisher: u64) {
        self.let_go(publisher, false);
    }

    fn let_go(&self, publisher: u64, announce: bool) {
        let mut state = self.lock();
        if state.publisher.is(publisher) {
            state.publisher = Publisher::Away {
                since: Instant::now(),
            };
            if announce {
                self.journal(Entry::Released);
            }
        }
    }

    /// Take `seconds` of a publisher's audio arriving at `now_ms` against the show's pace:
    /// false when it runs too far ahead of the clock (nothing is taken).
    pub fn pace(&self, seconds: f64, now_ms: i64) -> bool {
        self.lock().pace.take(seconds, now_ms)
    }

    /// Bytes arrived from the current publisher (its bitrate, for the live status);
    /// false when it is no longer the publisher.
    pub fn received(&self, publisher: u64, bytes: usize) -> bool {
        let mut state = self.lock();
        if !state.publisher.is(publisher) {
            return false;
        }
        state.bytes_in += bytes as u64;
        true
    }

    /// One step of the current publisher's ladder: frame `step.index` of each of its
    /// `renditions` (in the ladder's order). False when it is no longer the publisher.
    pub fn feed(
        &self,
        publisher: u64,
        renditions: &[Rendition],
        step: Step,
        flac: Option<Flac<'_>>,
    ) -> std::io::Result<bool> {
        let now = crate::db::now_ms();
        let bumped = {
            let mut state = self.lock();
            if !state.publisher.is(publisher) {
                return Ok(false);
            }
            let frames = renditions.iter().copied().zip(step.frames).collect();
            // A frame in another format than the show's is not recorded (as a player
            // cannot switch codecs mid-stream), in no rendition.
            let Some(fitted) = state.renditions.fit(frames, flac) else {
                return Ok(true);
            };
            if self.journal.get().is_some() {
                let first = state.standard().map_or(0, Segmenter::frames);
                if !self.journal(Entry::Frames(journal_frames(now, first, &fitted))) {
                    // Nothing recorded here either: every copy of the show stays the same.
                    return Err(std::io::Error::new(
                        std::io::ErrorKind::StorageFull,
                        "the show's journal is full: Redis does not take it",
                    ));
                }
            }
            let bumped = state.record(fitted, now)?;
            if bumped {
                state.stale();
                self.keep_fresh(&mut state);
            }
            bumped
        };
        if bumped {
            self.version.send_modify(|v| *v += 1);
        }
        Ok(true)
    }

    /// Frames of a publisher without a ladder (tests and benches that write a show
    /// straight from an AAC file): each is a step of the standard rendition alone.
    pub fn feed_standard(&self, publisher: u64, frames: Vec<AacFrame>) -> std::io::Result<bool> {
        for (index, frame) in (0..).zip(frames) {
            let step = Step {
                index,
                frames: vec![frame],
            };
            if !self.feed(publisher, &[Rendition::Standard], step, None)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// End the show: the playlist gets ENDLIST and plays as on-demand. While its
    /// publisher sends to another instance, that instance ends it after its last frames
    /// (which this copy then has too, as every other does): this one asks it to through
    /// the journal. True when the show has ended here; false when it was asked.
    pub fn end(&self) -> std::io::Result<bool> {
        {
            let state = self.lock();
            if matches!(state.publisher, Publisher::Elsewhere) && self.journal.get().is_some() {
                self.journal(Entry::EndAsked {
                    now_ms: crate::db::now_ms(),
                });
                return Ok(false);
            }
        }
        self.end_here()?;
        Ok(true)
    }

    /// End the show on this instance's word, wherever its publisher is: after
    /// [`Show::end`] asked in vain (the publisher's instance is gone).
    pub fn end_here(&self) -> std::io::Result<()> {
        {
            let mut state = self.lock();
            state.publisher = Publisher::Idle;
            let now_ms = crate::db::now_ms();
            if self.end_recording(&mut state, now_ms)? {
                self.journal(Entry::Ended { now_ms });
            }
            state.stale();
            self.keep_fresh(&mut state);
        }
        self.version.send_modify(|v| *v += 1);
        Ok(())
    }

    /// End every rendition's recording unless it has ended: true when it ends now, and
    /// then the hub hears of it (the set to keep is made from it).
    fn end_recording(&self, state: &mut State, now_ms: i64) -> std::io::Result<bool> {
        if state.standard().is_none_or(Segmenter::ended) {
            return Ok(false);
        }
        state.renditions.end(now_ms)?;
        // Nobody listening (no maker started): nothing to tell.
        let _ = self.ended.send(self.event_id.clone());
        Ok(true)
    }

    /// How many frames a rendition of the show has recorded; `None` without it.
    pub fn frames_of(&self, rendition: Rendition) -> Option<u64> {
        self.lock().renditions.get(rendition).map(Segmenter::frames)
    }

    /// How long this show waits for an encoder to come back before it ends by itself.
    pub fn abandon_after(&self) -> Duration {
        self.abandon_after
    }

    /// Whether the publisher has been away past [`Show::abandon_after`] (not connected
    /// here, nor, as far as the journal says, anywhere else).
    pub fn abandoned(&self) -> bool {
        let state = self.lock();
        matches!(state.publisher, Publisher::Away { since } if since.elapsed() >= self.abandon_after)
            && !state.ended()
    }

    /// Whether no encoder publishes the show now, here or (as far as the journal says)
    /// elsewhere, and it has not ended.
    pub fn off_air(&self) -> bool {
        let state = self.lock();
        !state.publisher.connected() && !state.ended()
    }

    /// Whether another instance's publisher is believed connected but nothing came from
    /// it for `quiet`: the instance may be gone (its lease says).
    pub fn silent_elsewhere(&self, quiet: Duration) -> bool {
        let state = self.lock();
        state.publisher == Publisher::Elsewhere
            && !state.ended()
            && state
                .heard_elsewhere_at
                .is_none_or(|t| t.elapsed() >= quiet)
    }

    /// The instance publishing the show went away without releasing it (its lease
    /// expired): its publisher counts as disconnected from now, so the wait for an encoder
    /// starts and the show ends unless one comes back.
    pub fn lost_elsewhere(&self) {
        let mut state = self.lock();
        if state.publisher == Publisher::Elsewhere {
            state.publisher = Publisher::Away {
                since: Instant::now(),
            };
        }
    }

    /// Hand an entry to the journal, when there is one. Called under the show's lock, so
    /// entries are written in the order they happened.
    fn journal(&self, entry: Entry) -> bool {
        self.journal.get().is_none_or(|writer| {
            writer.send(Job::Append {
                event_id: self.event_id.clone(),
                entry,
            })
        })
    }

    /// The last journal entry applied or skipped here.
    pub fn journal_at(&self) -> Option<EntryId> {
        self.lock().journal_at
    }

    /// A journal entry this instance has nothing to do for (its own, or one it does not
    /// understand): remembered as read.
    pub fn skip_journal(&self, id: EntryId) {
        let mut state = self.lock();
        if state.journal_at.is_none_or(|at| at < id) {
            state.journal_at = Some(id);
        }
    }

    /// Do what another instance did to the show, as its journal says (once per entry).
    pub fn apply(&self, id: EntryId, entry: Entry) -> std::io::Result<()> {
        let bumped;
        {
            let mut state = self.lock();
            if state.journal_at.is_some_and(|at| at >= id) {
                return Ok(());
            }
            state.journal_at = Some(id);
            state.heard_elsewhere_at = Some(Instant::now());
            if matches!(state.publisher, Publisher::Here { .. }) {
                let (Entry::EndAsked { .. } | Entry::Ended { .. }) = entry else {
                    // A publisher here writes the journal: another writer means the
                    // lease was lost. This instance keeps its own copy.
                    tracing::error!(event = %self.event_id, "a show is written on two instances");
                    return Ok(());
                };
                // Its managers asked another instance to end it (`Ended`: one of an older
                // build, which ended its own copy) while the encoder sends here: the show
                // ends here after the frames this instance wrote, the journal says so
                // after them, and the encoder is let go.
                state.publisher = Publisher::Idle;
                let now_ms = crate::db::now_ms();
                if self.end_recording(&mut state, now_ms)? {
                    self.journal(Entry::Ended { now_ms });
                }
                bumped = true;
            } else {
                bumped = self.apply_elsewhere(&mut state, entry)?;
            }
            if bumped {
                state.stale();
                self.keep_fresh(&mut state);
            }
        }
        if bumped {
            self.version.send_modify(|v| *v += 1);
        }
        Ok(())
    }

    /// Apply frames written by the publisher's instance (those this copy lacks), every
    /// rendition of them and the lossless lane's share; whether a part was written.
    fn apply_frames(&self, state: &mut State, frames: Frames) -> std::io::Result<bool> {
        let Frames {
            now_ms,
            first,
            config,
            payloads,
            renditions,
            lossless,
        } = frames;
        let mut bumped = false;
        let had = state.standard().map_or(0, Segmenter::frames);
        if first > had {
            tracing::warn!(event = %self.event_id, missing = first - had,
                "frames missing from this instance's copy of the show");
        } else {
            // Restarted, and the journal has the frames right after its disk's:
            // this copy goes on as if it never stopped (the same bytes as the
            // others'). Missing frames resume it with a discontinuity instead.
            state.renditions.continue_after_restart();
        }
        let skip = had.saturating_sub(first) as usize;
        let new = payloads.len().saturating_sub(skip);
        // The writer admitted these against the show's pace: this copy's pace
        // stands where the writer's does, for an encoder that moves here.
        state.pace.took(new as f64 * frame_seconds(&config), now_ms);
        // Frame by frame, every rendition's at the same index together.
        let mut lanes: Vec<_> = (renditions.into_iter())
            .map(|r| (r.rendition, r.config, r.payloads.into_iter().skip(skip)))
            .collect();
        let (info, flac) = match lossless {
            Some(LosslessFrames { info, steps }) => (Some(info), steps),
            None => (None, Vec::new()),
        };
        let mut flac = flac.into_iter().skip(skip);
        for payload in payloads.into_iter().skip(skip) {
            let mut step = Vec::with_capacity(lanes.len() + 1);
            step.push((Rendition::Standard, AacFrame { config, payload }));
            for (rendition, config, payloads) in &mut lanes {
                if let Some(payload) = payloads.next() {
                    step.push((
                        *rendition,
                        AacFrame {
                            config: *config,
                            payload,
                        },
                    ));
                }
            }
            // The lossless lane's share as the writer's `fit` made it: the same `fit`
            // here starts, feeds or (given none) ends this copy's lane alike.
            let flac = (info.as_ref()).map(|info| Flac {
                info,
                frames: flac.next().unwrap_or_default(),
            });
            let Some(fitted) = state.renditions.fit(step, flac) else {
                continue;
            };
            bumped |= state.record(fitted, now_ms)?;
        }
        Ok(bumped)
    }

    /// Apply an entry written by the publisher's instance; whether a part was written.
    fn apply_elsewhere(&self, state: &mut State, entry: Entry) -> std::io::Result<bool> {
        let mut bumped = false;
        match entry {
            Entry::Claimed => state.publisher = Publisher::Elsewhere,
            Entry::Released => {
                state.publisher = Publisher::Away {
                    since: Instant::now(),
                };
            }
            Entry::Frames(frames) => bumped = self.apply_frames(state, frames)?,
            Entry::Discontinuity { now_ms, at } => {
                if state.standard().is_some_and(|s| s.frames() == at) {
                    state.renditions.mark_discontinuity(now_ms)?;
                    bumped = true;
                }
            }
            Entry::Ended { now_ms } => {
                state.publisher = Publisher::Idle;
                if self.end_recording(state, now_ms)? {
                    bumped = true;
                }
            }
            // The publisher's instance ends the show and says so.
            Entry::EndAsked { .. } => {}
        }
        Ok(bumped)
    }

    fn keep_fresh(&self, state: &mut State) {
        for (rendition, file, bytes) in state.renditions.take_fresh() {
            self.media.insert((Lane::Aac(rendition), file), bytes);
        }
        for (file, bytes) in state.renditions.take_fresh_lossless() {
            self.media.insert((Lane::Lossless, file), bytes);
        }
    }

    /// A media file of a rendition from memory.
    pub fn cached(&self, lane: impl Into<Lane>, file: MediaFile) -> Option<Bytes> {
        self.media.get(&(lane.into(), file))
    }

    /// A media file of a rendition from memory, else from the recording on disk (then
    /// kept).
    pub async fn media(&self, lane: impl Into<Lane>, file: MediaFile) -> Option<Bytes> {
        let lane = lane.into();
        let key = (lane, file);
        if let Some(bytes) = self.media.get(&key) {
            return Some(bytes);
        }
        let path = lane.dir(&self.dir).join(file.file_name());
        let bytes = Bytes::from(tokio::fs::read(path).await.ok()?);
        self.media.insert(key, bytes.clone());
        Some(bytes)
    }

    /// The lossless rendition's bit rates, when players are offered it: the show has
    /// one and it has every step the standard rendition has (a lane ended early by a
    /// publisher without FLAC is not offered). Before its first segment, the PCM's rate
    /// (what FLAC of its format weighs at most, bar verbatim blocks' few bytes).
    pub fn lossless(&self) -> Option<Bandwidth> {
        let state = self.lock();
        let lane = state.renditions.lossless()?;
        if state.standard()?.frames() != lane.frames() {
            return None;
        }
        let info = lane.info();
        let pcm_kbps = info.sample_rate() / 1000
            * u32::from(info.channels())
            * u32::from(info.bits_per_sample());
        Some(Bandwidth::of(lane.segments(), pcm_kbps))
    }

    /// The show's renditions (none before its first frame), in [`Rendition::ALL`]'s
    /// order, each with the bit rates of its segments so far.
    pub fn renditions(&self) -> Vec<Listed> {
        let state = self.lock();
        (state.renditions.iter())
            .map(|(rendition, s)| Listed {
                rendition,
                // The encoder's own rate is known from its first segment on.
                bandwidth: Bandwidth::of(s.segments(), rendition.kbps().unwrap_or(0)),
                object_type: s.config().object_type,
            })
            .collect()
    }

    /// The show's AAC format, once the first frame has set it.
    pub fn config(&self) -> Option<crate::stream::codecs::adts::AacConfig> {
        self.lock().standard().map(|s| *s.config())
    }

    /// Whether this instance has loaded the show's markers.
    pub fn markers_loaded(&self) -> bool {
        self.lock().markers.is_some()
    }

    /// A ticket for a marker load about to begin: later loads get higher tickets.
    pub fn next_marker_ticket(&self) -> u64 {
        self.marker_tickets
            .fetch_add(1, std::sync::atomic::Ordering::SeqCst)
            + 1
    }

    /// Install the markers a load read, unless a load that began later (and so read
    /// the database no earlier) installed its own already. The next playlist shows them.
    pub fn install_markers(&self, ticket: u64, markers: Arc<[Marker]>) {
        let mut state = self.lock();
        if state.markers.is_some() && ticket <= state.markers_ticket {
            return;
        }
        if let Some(old) = state.markers.take() {
            let kept: std::collections::HashSet<String> = markers.iter().map(range_id).collect();
            let gone = old.iter().map(range_id).filter(|id| !kept.contains(id));
            state.removed_ranges.extend(gone);
            let excess = state.removed_ranges.len().saturating_sub(REMOVED_RANGES);
            state.removed_ranges.drain(..excess);
        }
        state.markers = Some(markers);
        state.markers_ticket = ticket;
        state.stale();
    }

    pub fn status(&self) -> Status {
        let state = self.lock();
        // Seconds connected here (a publisher elsewhere is timed by its own instance).
        let connected = match state.publisher {
            Publisher::Here { since, .. } => since.elapsed().as_secs_f64(),
            _ => 0.0,
        };
        let recorded_seconds = state.standard().map_or(0.0, Segmenter::recorded_seconds);
        let ended = state.ended();
        let away = match state.publisher {
            Publisher::Away { since } if !ended => Some(since.elapsed()),
            _ => None,
        };
        Status {
            publisher_connected: state.publisher.connected(),
            recorded_seconds,
            connected_seconds: connected,
            bitrate_kbps: if connected > 0.5 {
                state.bytes_in as f64 * 8.0 / 1000.0 / connected
            } else {
                0.0
            },
            ended,
            segments: state.standard().map_or(0, |s| s.segments().len()),
            // This instance's; `live::figures` adds the other instances'.
            listeners: self.listeners_at(Instant::now()),
            now_playing: state
                .markers
                .as_deref()
                .and_then(|m| playing_at(m, (recorded_seconds * 1000.0) as i64)),
            away_seconds: away.map(|d| d.as_secs_f64()),
            ends_in_seconds: away.map(|d| self.abandon_after.saturating_sub(d).as_secs_f64()),
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

    /// The listeners (session keys) heard on this instance since `since`.
    pub fn heard_since(&self, since: Instant) -> Vec<String> {
        let listeners = self.listeners.lock().unwrap_or_else(|e| e.into_inner());
        listeners
            .iter()
            .filter(|(_, at)| **at >= since)
            .map(|(holder, _)| holder.clone())
            .collect()
    }

    /// Listeners heard on this instance within [`LISTENER_WINDOW`] before `now`; those
    /// quiet for longer than [`LISTENER_MEMORY`] are forgotten.
    pub fn listeners_at(&self, now: Instant) -> u64 {
        let mut listeners = self.listeners.lock().unwrap_or_else(|e| e.into_inner());
        listeners.retain(|_, at| now.saturating_duration_since(*at) < LISTENER_MEMORY);
        listeners
            .values()
            .filter(|at| now.saturating_duration_since(**at) < LISTENER_WINDOW)
            .count() as u64
    }

    /// Whether this instance holds the show: its publisher is connected here, or its
    /// recording is here. Such an instance publishes the show's figures.
    pub fn held_here(&self) -> bool {
        let state = self.lock();
        matches!(state.publisher, Publisher::Here { .. }) || state.standard().is_some()
    }

    /// Is part `part` of segment `msn` (or the whole segment, without a part) there?
    /// Runs for every waiting listener at every new part: a binary search, as a show
    /// three hours in has over ten thousand segments.
    fn has(&self, msn: u64, part: Option<u32>) -> bool {
        let state = self.lock();
        // Every rendition is cut at the same parts: the standard one answers for all.
        let Some(segmenter) = state.standard() else {
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

    /// Wait (up to `timeout`) until the show has ended: whether it has.
    pub async fn wait_for_end(&self, timeout: Duration) -> bool {
        self.wait_until(timeout, |show| show.lock().ended()).await
    }

    /// Wait (up to `timeout`) until the requested part exists: blocking playlist reload.
    pub async fn wait_for(&self, msn: u64, part: Option<u32>, timeout: Duration) -> bool {
        let _parked = crate::metrics::parked_reload();
        self.wait_until(timeout, |show| show.has(msn, part)).await
    }

    /// Wait (up to `timeout`) until `ready` holds, looking again at every change of the
    /// show: whether it holds.
    async fn wait_until(&self, timeout: Duration, ready: impl Fn(&Self) -> bool) -> bool {
        let mut changes = self.version.subscribe();
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            if ready(self) {
                return true;
            }
            match tokio::time::timeout_at(deadline, changes.changed()).await {
                Ok(Ok(())) => continue,
                _ => return ready(self),
            }
        }
    }

    /// A rendition's playlist text (full or delta), rendered once per change and shared.
    pub fn playlist(&self, lane: impl Into<Lane>, skip: bool) -> Option<Bytes> {
        let lane = lane.into();
        let version = *self.version.borrow();
        let mut state = self.lock();
        let State {
            renditions,
            cache,
            markers,
            removed_ranges,
            ..
        } = &mut *state;
        let (segments, part_target, ended) = match lane {
            Lane::Aac(rendition) => {
                let s = renditions.get(rendition)?;
                (s.segments(), s.part_target(), s.ended())
            }
            // Its own PART-TARGET (and so PART-HOLD-BACK): see `flac::Cutter`.
            Lane::Lossless => {
                let s = renditions.lossless()?;
                (s.segments(), s.part_target(), s.ended())
            }
        };
        let cache = &mut cache[lane.slot()];
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
                    segments,
                    part_target,
                    ended,
                    skip,
                    markers: markers.as_deref().unwrap_or_default(),
                    removed: removed_ranges,
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
        state.standard().map_or(1, |s| {
            let layout = s.layout();
            (f64::from(layout.parts_per_segment) * s.part_target())
                .round()
                .max(1.0) as u64
        })
    }
}

/// A rendition of a show as the multivariant playlist may list it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Listed {
    pub rendition: Rendition,
    pub bandwidth: Bandwidth,
    /// Its AAC object type (2: AAC-LC, what [`multivariant::AAC_LC`] names).
    ///
    /// [`multivariant::AAC_LC`]: crate::stream::hls::multivariant::AAC_LC
    pub object_type: u8,
}

impl Listed {
    /// Whether players are offered it: every re-encoded rendition; the encoder's own AAC
    /// when it is AAC-LC above the standard rendition ([`HIGH_ABOVE_KBPS`], on average).
    pub fn listed(&self) -> bool {
        match self.rendition {
            Rendition::Source => {
                self.object_type == 2 && self.bandwidth.average > u64::from(HIGH_ABOVE_KBPS) * 1000
            }
            _ => true,
        }
    }
}

/// The journal's entry for one step: the standard rendition's frame in `payloads` (what
/// an instance of an older build reads), every other rendition's beside it, and the
/// lossless lane's share.
fn journal_frames(now_ms: i64, first: u64, step: &Fitted) -> Frames {
    let standard = step.standard();
    Frames {
        now_ms,
        first,
        config: standard.config,
        payloads: vec![standard.payload.clone()],
        renditions: (step.frames().iter())
            .filter(|(r, _)| *r != Rendition::Standard)
            .map(|(rendition, frame)| RenditionFrames {
                rendition: *rendition,
                config: frame.config,
                payloads: vec![frame.payload.clone()],
            })
            .collect(),
        lossless: step.flac().map(|(info, frames)| LosslessFrames {
            info: *info,
            steps: vec![frames.to_vec()],
        }),
    }
}

/// The last marker at or before `at_ms` (markers in timeline order).
fn playing_at(markers: &[Marker], at_ms: i64) -> Option<NowPlaying> {
    let next = markers.partition_point(|m| m.at_ms <= at_ms);
    markers[..next].last().map(|m| NowPlaying {
        marker_id: m.id.clone(),
        title: m.title.clone(),
        artist: m.artist.clone(),
        at_ms: m.at_ms,
    })
}

/// All shows of this instance.
pub struct Hub {
    root: PathBuf,
    shows: Mutex<HashMap<String, Arc<Show>>>,
    journal: Arc<OnceLock<Writer>>,
    abandon_after: Duration,
    /// The shows whose recording ends, here or told by another instance.
    ended: broadcast::Sender<String>,
}

impl Hub {
    /// Shows recorded under `root`, each ending by itself when no encoder came back for
    /// [`DEFAULT_ABANDON_AFTER`] (see [`Hub::abandoning_after`]).
    pub fn new(root: PathBuf) -> Self {
        Self {
            root,
            shows: Mutex::new(HashMap::new()),
            journal: Arc::default(),
            abandon_after: DEFAULT_ABANDON_AFTER,
            ended: broadcast::channel(ENDED_BACKLOG).0,
        }
    }

    /// The event ids of shows as their recording ends, from now on (a receiver that
    /// falls more than [`ENDED_BACKLOG`] behind misses the oldest).
    pub fn ended_shows(&self) -> broadcast::Receiver<String> {
        self.ended.subscribe()
    }

    /// Shows end by themselves when no encoder came back for `after`.
    pub fn abandoning_after(mut self, after: Duration) -> Self {
        self.abandon_after = after;
        self
    }

    /// Write what happens to every show to this journal (several instances share Redis).
    pub fn journal_to(&self, writer: Writer) {
        let _ = self.journal.set(writer);
    }

    pub fn journal_writer(&self) -> Option<Writer> {
        self.journal.get().cloned()
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
                let mut renditions = Renditions::recover(&dir).unwrap_or_else(|err| {
                    tracing::error!(event = event_id, error = %err, "recovering a show failed");
                    Renditions::new(&dir)
                });
                // Without a journal nothing can continue this copy seamlessly: a restart
                // is a discontinuity (the part being written is closed now). With one,
                // the next entry decides (`Show::apply`, `Show::claim`).
                if self.journal.get().is_none()
                    && let Err(err) = renditions.resume_after_restart(crate::db::now_ms())
                {
                    tracing::error!(event = event_id, error = %err, "closing a recovered show failed");
                }
                Arc::new(Show {
                    event_id: event_id.to_owned(),
                    dir,
                    state: Mutex::new(State::new(renditions)),
                    version: watch::channel(0).0,
                    media: moka::sync::Cache::builder()
                        .weigher(|_, bytes: &Bytes| u32::try_from(bytes.len()).unwrap_or(u32::MAX))
                        .max_capacity(MEDIA_CACHE_BYTES)
                        .build(),
                    listeners: Mutex::new(HashMap::new()),
                    journal: self.journal.clone(),
                    abandon_after: self.abandon_after,
                    marker_tickets: std::sync::atomic::AtomicU64::new(0),
                    markers_loading: tokio::sync::Mutex::new(()),
                    ended: self.ended.clone(),
                })
            })
            .clone()
    }

    /// Whether an encoder publishes the show now, here or on another instance (as far as
    /// this instance knows it); a show this instance never heard of is not on air here.
    pub fn on_air(&self, event_id: &str) -> bool {
        self.existing(event_id)
            .is_some_and(|show| show.lock().publisher.connected())
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
        let mut remembered = show.heard_since(start);
        remembered.sort();
        assert_eq!(
            remembered,
            ["ticket-1", "ticket-2"],
            "but remembered until the minutes listened have counted their minute"
        );
        assert_eq!(
            show.listeners_at(start + LISTENER_MEMORY + Duration::from_secs(1)),
            0
        );
        assert!(show.heard_since(start).is_empty(), "then forgotten");
        show.heard("ticket-2");
        assert_eq!(
            show.listeners_at(Instant::now()),
            1,
            "and back when it asks again"
        );
        assert!(!show.held_here(), "no publisher, no recording here");
    }

    fn marker(id: &str, updated_at: i64) -> Marker {
        Marker {
            id: id.into(),
            event_id: "event-1".into(),
            at_ms: 0,
            title: "t".into(),
            artist: None,
            source: crate::stream::markers::Source::Artist,
            created_at: 0,
            updated_at,
        }
    }

    #[test]
    fn markers_edited_or_deleted_are_named_as_removed_and_an_older_load_never_wins() {
        let root = tempfile::tempdir().unwrap();
        let show = Hub::new(root.path().to_owned()).show("event-1");
        assert!(!show.markers_loaded());
        let first = show.next_marker_ticket();
        show.install_markers(first, Arc::from(vec![marker("a", 1), marker("b", 1)]));
        let (older, newer) = (show.next_marker_ticket(), show.next_marker_ticket());
        // "a" edited, "b" deleted.
        show.install_markers(newer, Arc::from(vec![marker("a", 2)]));
        show.install_markers(older, Arc::from(vec![marker("a", 1), marker("b", 1)]));
        let state = show.lock();
        assert_eq!(state.markers.as_deref().map(<[Marker]>::len), Some(1));
        assert_eq!(state.removed_ranges, ["a.1", "b.1"]);
    }
}
