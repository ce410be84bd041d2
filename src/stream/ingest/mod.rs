//! Publishing, whatever the transport: check the stream key and the media type, claim
//! the show (one publisher at a time), pump the bytes through the show's rendition
//! ladder (GStreamer decodes once and encodes the data saver and the standard rendition;
//! an AAC publisher's own frames pass through as the source rendition) into a segmenter
//! per rendition, and when the publisher goes, end the show unless one comes back within
//! `ENCORE_SHOW_ABANDON_MINUTES`.

pub mod icecast;
pub mod lossless;
pub mod metadata;
pub mod pacing;
pub mod push;

use std::sync::Arc;
use std::time::Duration;

use base64::Engine;
use futures_util::{Stream, StreamExt};

use self::lossless::{Pass, Tap};
use self::pacing::{Bitrate, frame_seconds};
use crate::error::{Error, Result};
use crate::events::model::{EventRow, EventStatus};
use crate::events::notices;
use crate::events::store as events_store;
use crate::i18n::Msg;
use crate::state::AppState;
use crate::stream::codecs::flac::{FlacFrame, StreamInfo};
use crate::stream::codecs::ladder::{Input, Ladder, Output, Rendition, Step};
use crate::stream::hls::renditions::Flac;
use crate::stream::show::hub::{Claim, Show};
use crate::stream::show::journal::{self, Acquired, Lease};

/// A publisher whose bytes have produced no audio for this long is sending
/// something GStreamer cannot recognise (its type finder would otherwise wait for more).
const FIRST_AUDIO_DEADLINE: Duration = Duration::from_secs(5);

/// After the encoder stops, how long the ladder may go without a step before what it still
/// holds is given up (a stuck pipeline). A bound on the whole drain instead cut the
/// recording's end whenever a busy CPU had left the pipeline further behind than that.
const DRAIN_QUIET: Duration = Duration::from_secs(2);

/// How long an encoder may be away before the staff hear the show lost it.
const STAFF_DROP_DEBOUNCE: Duration = Duration::from_secs(10);

/// Encoder connections one concert may take per window, across
/// instances: a flapping (or hostile) encoder is refused with 429, not admitted hundreds
/// of times a second.
pub const ENCODER_CONNECTS_PER_WINDOW: (u32, Duration) = (30, Duration::from_secs(10 * 60));

/// What a publisher may send, by `Content-Type` (or a MediaRecorder's `mimeType`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// AAC in ADTS: passed through as the source rendition, and re-encoded for the
    /// others.
    Aac,
    /// MP3, or Opus/AAC in WebM, Ogg or MP4 from a browser: decoded and encoded to AAC.
    Transcoded,
}

impl Format {
    pub fn from_content_type(value: &str) -> Option<Self> {
        let essence = value
            .split(';')
            .next()
            .unwrap_or_default()
            .trim()
            .to_ascii_lowercase();
        match essence.as_str() {
            "audio/aac" | "audio/aacp" | "audio/x-aac" | "audio/x-hx-aac-adts" => Some(Self::Aac),
            "audio/mpeg" | "audio/mp3" | "audio/mpeg3" | "audio/x-mpeg" | "audio/webm"
            | "video/webm" | "audio/ogg" | "application/ogg" | "audio/mp4" => {
                Some(Self::Transcoded)
            }
            _ => None,
        }
    }
}

/// Whether a media type is Ogg: its stream may be FLAC, the lossless rendition's input
/// (sniffed from its first page, see [`lossless`]).
pub fn is_ogg(content_type: &str) -> bool {
    let essence = content_type.split(';').next().unwrap_or_default().trim();
    essence.eq_ignore_ascii_case("audio/ogg") || essence.eq_ignore_ascii_case("application/ogg")
}

/// What a refused encoder is asked for on a wrong key (a 401).
pub const BASIC_CHALLENGE: &str = "Basic realm=\"Encore\"";

/// What a refused encoder reads (a server failure is logged here, never shown).
pub fn refusal_text(refusal: &Error) -> String {
    if refusal.status().is_server_error() {
        tracing::error!(error = %refusal, "ingest failed");
    }
    refusal.public_message()
}

pub struct Publisher {
    pub show: Arc<Show>,
    pub id: u64,
    /// The show's renditions made from this publisher's input.
    ladder: Ladder,
    /// The show's lease across instances (with Redis), held while publishing.
    lease: Option<Lease>,
    /// An Ogg publisher's stream may be FLAC: see [`lossless`].
    ogg: bool,
}

impl Publisher {
    /// Whether the show takes a lossless publisher's audio as its Lossless rendition: a
    /// new show does (from its first step); a show under way only when it has had one
    /// from its start (`Renditions::fit`: a lane cannot start mid-show), for FLAC of the
    /// format it began with.
    pub fn takes_lossless(&self) -> bool {
        self.show.config().is_none() || self.show.lossless().is_some()
    }
}

/// How a publishing session ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The publisher closed the connection.
    Stopped,
    /// Nothing arrived for the idle timeout.
    Idle,
    /// The show ended (the artist ended it) or another publisher holds it.
    Ended,
    /// The audio could not be decoded, or the recording could not be written.
    Failed(String),
    /// The encoder is to reconnect, through the load balancer, to another instance: this
    /// one is stopping (SIGTERM), or another instance took the show's lease.
    Reconnect,
}

/// The password of an HTTP Basic `Authorization` value (Icecast's `source:<key>`).
pub fn basic_password(authorization: &str) -> Option<String> {
    let encoded = authorization.strip_prefix("Basic ")?;
    let decoded = base64::engine::general_purpose::STANDARD
        .decode(encoded.trim())
        .ok()?;
    let text = String::from_utf8(decoded).ok()?;
    text.split_once(':').map(|(_, key)| key.to_owned())
}

/// How a publisher proves it may publish.
#[derive(Debug, Clone, Copy)]
pub enum Credential<'a> {
    /// The stream key (an encoder's Basic password, `encore push`, a go-live hello).
    StreamKey(Option<&'a str>),
    /// A go-live ticket from the live panel (see [`go_live_ticket`]).
    GoLiveTicket(&'a str),
}

/// How long a go-live ticket admits the browser publisher.
const GO_LIVE_TICKET_MS: i64 = 10 * 60_000;

/// The stream key is stored hashed and shown once, so the dashboard cannot hand it to
/// its own "go live" button later: the panel gets this ticket instead, an HMAC over the
/// event, the current key's hash and an expiry. Rotating the key voids it. `None` while
/// the concert has no key.
pub fn go_live_ticket(
    config: &crate::config::Config,
    event: &EventRow,
    now: i64,
) -> Option<String> {
    let expires = now + GO_LIVE_TICKET_MS;
    let mac = ticket_mac(config, event, expires)?;
    Some(format!("{expires}.{mac}"))
}

fn ticket_mac(config: &crate::config::Config, event: &EventRow, expires: i64) -> Option<String> {
    use hmac::{Hmac, Mac};
    let hash = event.stream_key_hash.as_deref()?;
    let mut mac = Hmac::<sha2::Sha256>::new_from_slice(config.jwt_secret.expose().as_bytes())
        .expect("HMAC takes a key of any length");
    mac.update(format!("encore go-live v1\n{}\n{hash}\n{expires}", event.id).as_bytes());
    Some(base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(mac.finalize().into_bytes()))
}

fn ticket_admits(config: &crate::config::Config, event: &EventRow, ticket: &str, now: i64) -> bool {
    let Some((expires, mac)) = ticket.split_once('.') else {
        return false;
    };
    let Ok(expires) = expires.parse::<i64>() else {
        return false;
    };
    now < expires
        && ticket_mac(config, event, expires)
            .is_some_and(|expected| crate::crypto::constant_time_eq(&expected, mac))
}

/// Admit a publisher for `/live/{event_id}` with its credential and media type. A
/// refusal is an [`Error`] whose status and text every ingest path hands the encoder.
pub async fn admit(
    app: &AppState,
    event_id: &str,
    credential: Credential<'_>,
    content_type: Option<&str>,
) -> Result<Publisher> {
    // A concert that does not exist is answered as one whose key is wrong: the ingest path
    // tells nobody without the key whether an id is a concert, a draft or nothing.
    let Some(event) = events_store::by_id(&app.db, event_id).await? else {
        return Err(Error::unauthorized(Msg::IngestWrongKey));
    };
    let admitted = match credential {
        Credential::StreamKey(key) => key.is_some_and(|k| event.stream_key_matches(k)),
        Credential::GoLiveTicket(ticket) => {
            ticket_admits(&app.config, &event, ticket, crate::db::now_ms())
        }
    };
    if !admitted {
        return Err(Error::unauthorized(Msg::IngestWrongKey));
    }
    // Counted once the key is known good: nobody without it can lock the artist out.
    app.limits
        .encoder_connects
        .take(&format!("encoder:{event_id}"))
        .await?;
    if !matches!(event.status, EventStatus::Published | EventStatus::Live) {
        return Err(Error::conflict(Msg::IngestNotOpen));
    }
    // A stopping instance takes no new publisher: the encoder retries elsewhere.
    if app.lifecycle.is_draining() {
        return Err(Error::Busy);
    }
    let unsupported = |msg: Msg| Error::UnsupportedMediaType(msg.into());
    let format = Format::from_content_type(content_type.unwrap_or_default())
        .ok_or_else(|| unsupported(Msg::IngestUnsupportedFormat))?;
    let show = app.hub.show(event_id);
    if show.is_full() || show.recorded_bytes() >= app.config.recording_quota_bytes {
        return Err(Error::PayloadTooLarge(Msg::IngestQuotaReached.into()));
    }
    let input = match format {
        Format::Aac => Input::Aac,
        Format::Transcoded => Input::Transcoded,
    };
    let ladder = Ladder::for_show(input, show.config()).map_err(|err| {
        tracing::error!(error = %err, "no rendition ladder");
        unsupported(Msg::IngestCannotDecode)
    })?;
    // One publisher per show across instances: this one needs the show's lease, then
    // applies what the show's journal holds before writing to it.
    let lease = match Lease::acquire(&app.bus, &app.hub, event_id).await {
        Ok(Acquired::Held(lease)) => lease,
        Ok(Acquired::Elsewhere) => return Err(Error::conflict(Msg::IngestAnotherPublisher)),
        Err(err) => {
            tracing::error!(event = %event_id, error = %err, "the show's lease is out of reach");
            return Err(Error::Busy);
        }
    };
    if lease.is_some()
        && let Err(err) = journal::catch_up(&app.bus, &show).await
    {
        tracing::error!(event = %event_id, error = %err, "catching up with the show's journal failed");
        return Err(Error::Busy);
    }
    let id = match show.claim() {
        Claim::Granted(id) => id,
        Claim::Busy => return Err(Error::conflict(Msg::IngestAnotherPublisher)),
        Claim::Ended => return Err(Error::conflict(Msg::IngestShowEnded)),
    };
    let _ = events_store::set_status(
        &app.db,
        event_id,
        &[EventStatus::Published],
        EventStatus::Live,
    )
    .await;
    // The live status names the title playing: this instance needs the show's markers.
    crate::stream::markers::ensure_loaded(app, &show).await;
    tracing::info!(event = %event_id, ?format, "publisher connected");
    if let Err(err) = notices::went_live(app, &event).await {
        tracing::warn!(event = %event_id, error = %err, "telling that a show went live failed");
    }
    Ok(Publisher {
        show,
        id,
        ladder,
        lease,
        ogg: is_ogg(content_type.unwrap_or_default()),
    })
}

/// Resolves when another instance took the show's lease (never without one).
async fn lease_lost(lease: &Option<Lease>) {
    match lease {
        Some(lease) => lease.lost().await,
        None => std::future::pending().await,
    }
}

/// Feed the publisher's bytes until it stops, goes idle, fails or loses the show.
pub async fn pump<S, B, E>(app: &AppState, publisher: Publisher, mut bytes: S) -> Outcome
where
    S: Stream<Item = Result<B, E>> + Unpin,
    B: AsRef<[u8]>,
{
    let Publisher {
        show,
        id,
        mut ladder,
        lease,
        ogg,
    } = publisher;
    let mut tap = Tap::new(ogg);
    // A lossless publisher's FLAC frames are checked as they arrive, against what FLAC
    // of their format can weigh (about 1 Mbit/s for 16-bit stereo at 48 kHz).
    let mut lossless_bitrate = Bitrate::default();
    let renditions = ladder.renditions();
    // The publisher's own audio is checked against the bitrate and the show's pace: an
    // AAC publisher's frames as they arrive (before any codec spends time on them, and
    // so that frames the decoder cannot use never pile up), anything else's once
    // transcoded, on the standard rendition. The quota counts what is recorded: every
    // rendition's frames (the data saver adds about 0.4× the standard, the source 1–1.5×).
    let checked_on_arrival = ladder.input() == Input::Aac;
    let standard = (renditions.iter())
        .position(|r| *r == Rendition::Standard)
        .expect("every ladder has the standard rendition");
    let started = tokio::time::Instant::now();
    let mut bitrate = Bitrate::default();
    let quota = app.config.recording_quota_bytes;
    let mut check = |incoming: u64, seconds: f64| -> Option<Outcome> {
        if !bitrate.admit(incoming, seconds) {
            tracing::warn!(event = %show.event_id, "publisher's audio too dense; disconnecting");
            return Some(Outcome::Failed(format!(
                "The audio's bitrate is above {} kbit/s.",
                pacing::MAX_KBPS
            )));
        }
        // The show's pace, not this connection's: a reconnect gets no fresh burst.
        if !show.pace(seconds, crate::db::now_ms()) {
            tracing::warn!(event = %show.event_id, "publisher faster than real time; disconnecting");
            return Some(Outcome::Failed(
                "The audio arrives faster than real time: send it live (ffmpeg -re).".into(),
            ));
        }
        None
    };
    let feed = |step: Step,
                flac: Option<(StreamInfo, Vec<FlacFrame>)>,
                check: &mut dyn FnMut(u64, f64) -> Option<Outcome>| {
        let (info, flac) = flac.map_or((None, Vec::new()), |(i, f)| (Some(i), f));
        let frame = &step.frames[standard];
        let incoming = frame.payload.len() as u64;
        if !checked_on_arrival && let Some(outcome) = check(incoming, frame_seconds(&frame.config))
        {
            return Some(outcome);
        }
        let recorded: u64 = step
            .frames
            .iter()
            .map(|f| f.payload.len() as u64)
            .sum::<u64>()
            + flac.iter().map(|f| f.data.len() as u64).sum::<u64>();
        if show.recorded_bytes() + recorded > quota {
            tracing::warn!(event = %show.event_id, "recording quota reached; disconnecting");
            show.mark_full();
            return Some(Outcome::Failed(
                Msg::IngestQuotaReached.render(crate::i18n::current()),
            ));
        }
        let flac = info.as_ref().map(|info| Flac { info, frames: flac });
        match show.feed(id, &renditions, step, flac) {
            Ok(true) => None,
            Ok(false) => Some(Outcome::Ended),
            Err(err) if err.kind() == std::io::ErrorKind::StorageFull => {
                tracing::warn!(event = %show.event_id, error = %err, "the show's journal is full; disconnecting");
                Some(Outcome::Failed(
                    "The servers cannot share the show right now: reconnect in a minute.".into(),
                ))
            }
            Err(err) => {
                tracing::error!(event = %show.event_id, error = %err, "writing the recording failed");
                Some(Outcome::Failed(
                    "The recording could not be written.".into(),
                ))
            }
        }
    };
    let idle = app.config.ingest_idle_timeout;
    let mut heard = false;
    let mut lost = false;
    let outcome = loop {
        tokio::select! {
            // Stopping: the encoder is let go at once, the lease handed over below (after
            // the journal's last entry), and the encoder reconnects to another instance.
            () = app.lifecycle.draining() => {
                tracing::info!(event = %show.event_id, "draining: handing the show over");
                break Outcome::Reconnect;
            }
            () = lease_lost(&lease) => {
                lost = true;
                break Outcome::Reconnect;
            }
            input = tokio::time::timeout(idle, bytes.next()) => match input {
                Ok(Some(Ok(chunk))) => {
                    let chunk = chunk.as_ref();
                    if !heard && started.elapsed() > FIRST_AUDIO_DEADLINE {
                        break Outcome::Failed("No audio could be decoded from this stream.".into());
                    }
                    let (pass, flac) = tap.push(chunk);
                    let head;
                    let chunk = match pass {
                        Pass::Hold => &[][..],
                        Pass::Chunk => chunk,
                        Pass::Head(held) => {
                            if let Some(lossless) = tap.lossless() {
                                let info = *lossless.info();
                                match lossless::ladder_target(&info, show.config()) {
                                    // At the FLAC's rate, decoding its frames (nothing was
                                    // pushed into the first ladder yet).
                                    Ok(target) => match Ladder::start(Input::Flac(info), target) {
                                        Ok(lossless_ladder) => ladder = lossless_ladder,
                                        Err(err) => {
                                            tracing::error!(event = %show.event_id, error = %err, "no rendition ladder");
                                            break Outcome::Failed("No audio could be decoded from this stream.".into());
                                        }
                                    },
                                    Err(why) => {
                                        tracing::info!(event = %show.event_id, %why, "a lossless publisher gets the AAC renditions only");
                                        tap = Tap::Off;
                                    }
                                }
                            }
                            head = held;
                            &head[..]
                        }
                    };
                    if let Some(lossless) = tap.lossless()
                        && flac.frames > 0
                        && !lossless_bitrate.admit_within(flac.bytes, flac.seconds, lossless.max_kbps())
                    {
                        tracing::warn!(event = %show.event_id, "publisher's FLAC too dense; disconnecting");
                        break Outcome::Failed("The FLAC's bitrate is above what its format can carry.".into());
                    }
                    let pushed = match tap.fresh() {
                        Some(frames) => {
                            ladder.push_flac(&frames);
                            Ok(Default::default())
                        }
                        None if chunk.is_empty() => Ok(Default::default()),
                        None => ladder.push(chunk),
                    };
                    let arrived = match pushed {
                        Ok(arrived) => arrived,
                        Err(err) => {
                            tracing::error!(event = %show.event_id, error = %err, "the rendition ladder did not start");
                            break Outcome::Failed("No audio could be decoded from this stream.".into());
                        }
                    };
                    if !show.received(id, chunk.len()) {
                        break Outcome::Ended;
                    }
                    if arrived.frames > 0
                        && let Some(outcome) = check(arrived.bytes, arrived.seconds)
                    {
                        break outcome;
                    }
                }
                Ok(Some(Err(_)) | None) => break Outcome::Stopped,
                Err(_) => {
                    tracing::info!(event = %show.event_id, "publisher idle; disconnecting");
                    break Outcome::Idle;
                }
            },
            output = ladder.next() => match output {
                Some(Output::Step(step)) => {
                    heard = true;
                    // A lossless publisher's FLAC frames go with their step (the show
                    // takes them when it has a lossless lane, `Renditions::fit`).
                    let flac = lossless::share(&mut tap, &mut ladder, step.index);
                    if let Some(outcome) = feed(step, flac, &mut check) {
                        break outcome;
                    }
                }
                Some(Output::Failed(message)) => break Outcome::Failed(message),
                Some(Output::Done) | None => break Outcome::Stopped,
            },
        }
    };
    // What the codecs still hold belongs to the recording, and is checked as the rest
    // was: the quota may end it (an encoder that sent its audio at once and stopped).
    let outcome = match outcome {
        Outcome::Stopped | Outcome::Idle => {
            ladder.finish();
            let mut stop = None;
            while let Ok(Some(Output::Step(step))) =
                tokio::time::timeout(DRAIN_QUIET, ladder.next()).await
            {
                let flac = lossless::share(&mut tap, &mut ladder, step.index);
                stop = feed(step, flac, &mut check);
                if stop.is_some() {
                    break;
                }
            }
            stop.unwrap_or(outcome)
        }
        other => other,
    };
    drop(ladder);
    if lost {
        show.release_unannounced(id);
    } else {
        show.release(id);
    }
    if let Some(lease) = lease {
        lease.release().await;
    }
    tracing::info!(event = %show.event_id, ?outcome, "publisher disconnected");
    if outcome != Outcome::Ended {
        tell_dropped_unless_back(app, show.clone());
    }
    end_unless_back(app, show);
    outcome
}

/// The staff hear that a show lost its encoder only when none came back, here or
/// elsewhere, within [`STAFF_DROP_DEBOUNCE`]: an encoder reconnecting at once (or
/// flapping) is no news.
fn tell_dropped_unless_back(app: &AppState, show: Arc<Show>) {
    let app = app.clone();
    tokio::spawn(async move {
        tokio::time::sleep(STAFF_DROP_DEBOUNCE).await;
        if !show.off_air() {
            return;
        }
        if let Err(err) = notices::dropped(&app, &show.event_id).await {
            tracing::warn!(event = %show.event_id, error = %err, "telling that a show dropped failed");
        }
    });
}

/// If no publisher comes back within [`Show::abandon_after`], on any instance, the show
/// ends.
fn end_unless_back(app: &AppState, show: Arc<Show>) {
    let app = app.clone();
    tokio::spawn(async move {
        tokio::time::sleep(show.abandon_after() + Duration::from_millis(100)).await;
        if !show.abandoned() {
            return;
        }
        // Ending writes to the show's journal, which only the lease's holder does: an
        // encoder that came back through another instance holds it, and then the show
        // goes on. Several instances may try; each applies what the journal holds first.
        let lease = match Lease::acquire(&app.bus, &app.hub, &show.event_id).await {
            Ok(Acquired::Held(lease)) => lease,
            Ok(Acquired::Elsewhere) => return,
            Err(err) => {
                tracing::warn!(event = %show.event_id, error = %err, "the show's lease is out of reach; not ending it now");
                return;
            }
        };
        if lease.is_some()
            && let Err(err) = journal::catch_up(&app.bus, &show).await
        {
            tracing::warn!(event = %show.event_id, error = %err, "catching up before ending the show failed");
        }
        if show.abandoned() {
            finish(&app, &show).await;
        }
        if let Some(lease) = lease {
            lease.release().await;
        }
    });
}

/// With several instances: every [`journal::LEASE_RENEW`], find the shows whose
/// publisher was on an instance that went away without a word (killed, its machine lost):
/// its journal silent and its lease expired. The publisher counts as gone from then; an
/// encoder may come back to any instance until the show is abandoned, else it ends.
pub fn spawn_orphan_watch(app: &AppState) {
    if app.bus.shared_key("").is_none() {
        return;
    }
    let app = app.clone();
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(journal::LEASE_RENEW);
        loop {
            tick.tick().await;
            for show in app.hub.all() {
                if !show.silent_elsewhere(journal::LEASE_TTL) {
                    continue;
                }
                if journal::lease_held(&app.bus, &show.event_id).await == Some(false) {
                    tracing::warn!(event = %show.event_id, "the instance publishing this show is gone; waiting for its encoder");
                    show.lost_elsewhere();
                    end_unless_back(&app, show);
                }
            }
        }
    });
}

/// End a show: the concert `ended`, then ENDLIST in the playlist. In that order, so
/// whoever sees the end (a player, or another instance following the journal) and asks
/// for the concert reads it ended, not still live.
pub async fn finish(app: &AppState, show: &Show) {
    if let Err(err) = notices::end(app, &show.event_id).await {
        tracing::error!(event = %show.event_id, error = %err, "marking the concert ended failed");
    }
    let ended = match show.end() {
        // Asked of the publisher's instance: its end reaches this copy through the
        // journal after its last frames, or, should that instance be gone, this one ends
        // the show once its lease would have lapsed.
        Ok(false) if !show.wait_for_end(journal::LEASE_TTL).await => show.end_here(),
        Ok(_) => Ok(()),
        Err(err) => Err(err),
    };
    if let Err(err) = ended {
        tracing::error!(event = %show.event_id, error = %err, "ending the show failed");
    }
}

/// Delete recordings whose retention is over (by default when the 24-hour listening
/// window closes), and end the sessions that listened to them.
pub async fn purge_recordings(app: &AppState) {
    let now = crate::db::now_ms();
    let retention = app.config.recording_retention_hours * 3_600_000;
    for event_id in app.hub.recorded() {
        let expired = match events_store::by_id(&app.db, &event_id).await {
            Ok(Some(event)) => now >= event.details.starts_at + retention.max(0),
            Ok(None) => true,
            Err(_) => false,
        };
        if expired {
            app.stream_access.revoke_event(&event_id);
            if let Err(err) = journal::forget(&app.bus, &event_id).await {
                tracing::warn!(event = %event_id, error = %err, "deleting a show's journal failed");
            }
            match app.hub.remove(&event_id) {
                Ok(()) => {
                    crate::stream::markers::delete_with_recording(app, &event_id).await;
                    tracing::info!(event = %event_id, "recording deleted (retention over)")
                }
                Err(err) => {
                    tracing::warn!(event = %event_id, error = %err, "deleting a recording failed")
                }
            }
        }
    }
}

#[cfg(test)]
mod ticket_tests {
    use super::*;
    use crate::config::Config;

    fn config() -> Config {
        Config::for_tests(&[])
    }

    fn event(hash: Option<&str>) -> EventRow {
        let mut event = EventRow {
            stream_key_hash: hash.map(str::to_owned),
            ..EventRow::sample(EventStatus::Published)
        };
        event.details.price_minor = 0;
        event
    }

    #[test]
    fn a_go_live_ticket_admits_its_event_and_key_until_it_expires() {
        let config = config();
        let event = event(Some("hash-1"));
        let ticket = go_live_ticket(&config, &event, 1_000).unwrap();
        assert!(ticket_admits(&config, &event, &ticket, 1_000));
        assert!(!ticket_admits(
            &config,
            &event,
            &ticket,
            1_000 + GO_LIVE_TICKET_MS
        ));
        let rotated = EventRow {
            stream_key_hash: Some("hash-2".into()),
            ..event.clone()
        };
        assert!(
            !ticket_admits(&config, &rotated, &ticket, 1_000),
            "rotation voids it"
        );
        let other = EventRow {
            id: "e2".into(),
            ..event.clone()
        };
        assert!(!ticket_admits(&config, &other, &ticket, 1_000));
        let (expires, mac) = ticket.split_once('.').unwrap();
        let longer = format!("{}.{mac}", expires.parse::<i64>().unwrap() + 1);
        assert!(
            !ticket_admits(&config, &event, &longer, 1_000),
            "the expiry is signed"
        );
        assert!(go_live_ticket(&config, &self::event(None), 1_000).is_none());
    }
}
