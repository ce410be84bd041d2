//! A show across instances (issue 14). The instance an encoder is connected to writes
//! what it does to the show to the show's journal, a Redis stream: the frames with the
//! time they arrived, a discontinuity, the publisher coming and going, the end. Every
//! other instance reads the journal and does the same to its own copy of the show, with
//! the same segmenter: each records the show on its own disk and answers the same
//! playlist, parts and segments, byte for byte, and its parked blocking reloads wake the
//! moment the part exists there.
//!
//! A frames entry is one step of every lane (issue 32), as the writer's
//! `Renditions::fit` made it: the standard rendition's frame in `p` (all an older build
//! reads), each other AAC rendition's in `p.{name}` with its format in `c.{name}`, and the
//! lossless lane's share, when the lane takes one, in `p.lossless` (the FLAC frames that
//! travel with the step, none or more) with the publisher's STREAMINFO in `c.lossless`.
//! The reader hands the same to its own `fit`: a share in a new show's first step starts
//! the lane, one in a later step feeds it, and a step without one ends a lane under way,
//! as on the writer; after a restart the lane recovered from disk goes on from the journal
//! like the AAC ones. Each entry's audio bytes, the FLAC's too, count against the writer's
//! queue ([`Bounds::queued_bytes`]) and, in Redis, the show's [`Bounds::journal_bytes`].
//!
//! One writer at a time: the encoder's instance holds the show's lease (a Redis key with
//! a time to live, renewed while it publishes). An encoder that reconnects through the
//! load balancer to another instance gets the lease once the first let it go, and that
//! instance first applies what the journal holds, then writes on.
//!
//! Entries are applied at most once: by their stream id within a run, and by the frame
//! count they carry after a restart (the recording on disk says how far it got).
//! Without Redis there is no journal and nothing here runs.

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use redis::streams::{StreamId, StreamRangeReply, StreamReadReply};
use tokio::sync::{mpsc, oneshot};
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

pub mod entry;

pub use entry::{Entry, EntryId, Frames, Job, LeaseKey, LosslessFrames, RenditionFrames, Writer};

use crate::bus::{Bus, BusError};
use crate::stream::codecs::adts::AacConfig;
use crate::stream::codecs::flac::StreamInfo;
use crate::stream::codecs::ladder::Rendition;
use crate::stream::hls::renditions::Lane;
use crate::stream::show::hub::{Hub, Show};

/// How far back a show's journal goes: how long an instance may fall behind, or be
/// down, and still catch up from it.
pub const RETENTION: Duration = Duration::from_secs(20 * 60);
/// Entries a show's journal keeps: [`RETENTION`] of the most entries an encoder makes. An
/// entry is what one read from the encoder brought, at least one whole AAC frame, and
/// encoders that send each frame as it is made (`encore push`, `ffmpeg -re`) make one
/// entry per frame: 46.9 a second at 48 kHz (at 96 kHz, twice that, half the time).
pub const RETAINED: usize = 56_250;
/// A journal nobody writes to any more is deleted after this long.
const JOURNAL_TTL: Duration = Duration::from_secs(48 * 3600);
/// How long the show's lease lasts without renewal (an instance that dies lets it go
/// after this), and how often its holder renews it.
pub const LEASE_TTL: Duration = Duration::from_secs(10);
pub const LEASE_RENEW: Duration = Duration::from_secs(3);
/// How long a reader's `XREAD` waits for entries before it looks for new shows.
const READ_BLOCK: Duration = Duration::from_secs(1);
/// How often the writer lists a show it writes again (readers look every [`READ_BLOCK`]).
const ANNOUNCE_EVERY: Duration = READ_BLOCK;

fn journal_key(bus: &Bus, event_id: &str) -> Option<String> {
    bus.shared_key(&format!("journal:{event_id}"))
}

fn shows_key(bus: &Bus) -> Option<String> {
    bus.shared_key("journals")
}

/// How much of Redis and of this instance a show's journal may take.
#[derive(Debug, Clone, Copy)]
pub struct Bounds {
    /// Bytes one show's journal may take in Redis (its oldest entries are trimmed past
    /// it: a dense show keeps less than [`RETENTION`]).
    pub journal_bytes: u64,
    /// Audio bytes waiting to be written, across this instance's shows.
    pub queued_bytes: u64,
}

/// Start the journal's writer and reader when the instances share a Redis.
pub fn spawn(bus: &Bus, hub: &Arc<Hub>, bounds: Bounds) {
    if bus.shared_key("").is_none() {
        return;
    }
    let (jobs_tx, jobs) = mpsc::unbounded_channel();
    let queued = Arc::new(AtomicU64::new(0));
    hub.journal_to(Writer::new(jobs_tx, queued.clone(), bounds.queued_bytes));
    tokio::spawn(write(bus.clone(), jobs, queued, bounds.journal_bytes));
    tokio::spawn(read(bus.clone(), hub.clone()));
}

/// How often the writer weighs a show's journal it writes.
const WEIGH_EVERY: Duration = Duration::from_secs(1);

/// Trim a show's journal to [`Bounds::journal_bytes`] when Redis says it takes more: keep
/// the newest entries, 80 % of the bound's worth, so it is not trimmed at every weighing.
async fn keep_within(bus: &Bus, key: &str, max_bytes: u64) -> Result<(), BusError> {
    let usage = redis::cmd("MEMORY").arg("USAGE").arg(key).to_owned();
    let Some(used) = bus
        .shared_command::<Option<u64>>(&usage)
        .await
        .transpose()?
    else {
        return Ok(());
    };
    let Some(used) = used.filter(|used| *used > max_bytes) else {
        return Ok(());
    };
    let length = redis::cmd("XLEN").arg(key).to_owned();
    let Some(entries) = bus.shared_command::<u64>(&length).await.transpose()? else {
        return Ok(());
    };
    let keep = (entries as f64 * 0.8 * max_bytes as f64 / used as f64) as u64;
    let trim = redis::cmd("XTRIM")
        .arg(key)
        .arg("MAXLEN")
        .arg(keep)
        .to_owned();
    bus.shared_command::<u64>(&trim).await.transpose()?;
    tracing::info!(journal = %key, used, entries, keep, "a show's journal was over its bytes; trimmed");
    Ok(())
}

/// Weigh a show's journal and trim it when over its bytes (a failure is logged: the next
/// weighing tries again).
async fn weigh(bus: &Bus, event_id: &str, journal_bytes: u64) {
    if let Some(key) = journal_key(bus, event_id)
        && let Err(err) = keep_within(bus, &key, journal_bytes).await
    {
        tracing::warn!(journal = %key, error = %err, "weighing a show's journal failed");
    }
}

/// How much the writer keeps of what Redis took, by the frames' arrival (`now_ms`): written
/// again after a failure, for what a Redis that restarted without its data had taken and
/// lost before every reader read it. Readers follow within milliseconds; one that stood
/// still longer (a stopped process) resumes with a gap.
const REWRITTEN_MS: i64 = 3_000;

/// What the writer wrote in the last [`REWRITTEN_MS`], show by show: frames and
/// discontinuities, in the order written. Both are applied at most once by frame number,
/// so writing them again costs a reader nothing; the publisher's coming and going is not
/// kept: written again after newer news it would turn a reader's state back.
#[derive(Default)]
struct Recent {
    shows: HashMap<String, VecDeque<Entry>>,
}

impl Recent {
    /// Keep an entry just written (a show's end forgets the show).
    fn keep(&mut self, event_id: String, entry: Entry) {
        match entry {
            Entry::Frames(_) | Entry::Discontinuity { .. } => {
                self.shows.entry(event_id).or_default().push_back(entry);
            }
            Entry::Ended { .. } => {
                self.shows.remove(&event_id);
            }
            Entry::Claimed | Entry::Released | Entry::EndAsked { .. } => {}
        }
    }

    /// Let go of what arrived more than [`REWRITTEN_MS`] before `now_ms`: after every
    /// write, and when a write fails (what was written then is kept through the outage).
    fn expire(&mut self, now_ms: i64) {
        let since = now_ms - REWRITTEN_MS;
        for kept in self.shows.values_mut() {
            while let Some(
                Entry::Frames(Frames { now_ms: at, .. }) | Entry::Discontinuity { now_ms: at, .. },
            ) = kept.front()
                && *at < since
            {
                kept.pop_front();
            }
        }
        self.shows.retain(|_, kept| !kept.is_empty());
    }

    /// Every show's kept entries, each show's in the order written.
    fn entries(&self) -> impl Iterator<Item = (&str, &Entry)> {
        (self.shows.iter()).flat_map(|(id, entries)| entries.iter().map(move |e| (id.as_str(), e)))
    }
}

/// Jobs written in one round trip at most. An encoder sends each AAC frame as it is made
/// (≈ 47 entries a second per show): one round trip each would cap a show at 1 / RTT
/// entries a second, and a backlog after a Redis outage would drain only as fast as the
/// round trips beat the encoder. Batched, whatever is queued goes at once.
const BATCH: usize = 256;

/// The writer: appends entries in the order they were made, whatever is queued in one
/// round trip, retrying while Redis is away. A show is announced (listed in
/// `<prefix>journals`, its journal given a time to live if it has none) with its first
/// entry, again after any failure (a Redis that restarted without its data), and again
/// every [`ANNOUNCE_EVERY`] it is written (its keys deleted while the connections stayed
/// up: a flush, an eviction); a show not listed is read by no other instance. After a
/// failure the last [`REWRITTEN_MS`] written ([`Recent`]) go again ahead of the retry:
/// a Redis back without its data had them, and another instance may not have read them
/// (it would go on with frames missing, its recording no longer the writer's).
async fn write(
    bus: Bus,
    mut jobs: mpsc::UnboundedReceiver<Job>,
    queued: Arc<AtomicU64>,
    journal_bytes: u64,
) {
    let mut announced: HashMap<String, Instant> = HashMap::new();
    let mut weighed: HashMap<String, Instant> = HashMap::new();
    // Shows written since they were last weighed, skipped because it was too soon: each is
    // weighed once its time comes even if nothing more is written to it (a publisher's
    // last frames may come out of its ladder alone, after the weighing before them).
    let mut unweighed: Vec<String> = Vec::new();
    let mut batch = Vec::with_capacity(BATCH);
    let mut recent = Recent::default();
    let mut failed = false;
    loop {
        let next_due = unweighed
            .iter()
            .filter_map(|id| weighed.get(id).map(|at| *at + WEIGH_EVERY))
            .min();
        let received = match next_due {
            Some(due) => tokio::select! {
                n = jobs.recv_many(&mut batch, BATCH) => Some(n),
                () = tokio::time::sleep_until(due) => None,
            },
            None => Some(jobs.recv_many(&mut batch, BATCH).await),
        };
        if received == Some(0) {
            return;
        }
        if received.is_none() {
            for event_id in std::mem::take(&mut unweighed) {
                weigh(&bus, &event_id, journal_bytes).await;
                weighed.insert(event_id, Instant::now());
            }
            continue;
        }
        let mut backoff = Duration::from_millis(50);
        loop {
            let mut pipeline = redis::pipe();
            let mut announcing: Vec<&str> = Vec::new();
            // After a failure, what was written last goes again first; then the batch.
            let again = (recent.entries().filter(|_| failed)).map(|(id, e)| Command::Append(id, e));
            for command in again.chain(batch.iter().map(Command::of)) {
                match command {
                    Command::Append(event_id, entry) => {
                        if !appending(
                            &mut pipeline,
                            &bus,
                            &announced,
                            &mut announcing,
                            event_id,
                            entry,
                        ) {
                            return;
                        }
                    }
                    Command::Release(lease) => {
                        pipeline.add_command(lease.release_command()).ignore();
                    }
                }
            }
            // Retried whole after a failure: what of it was done is done again, which
            // readers take in their stride (frames they have are skipped by number).
            match bus.shared_pipeline(&pipeline).await {
                None => return,
                Some(Ok(())) => {
                    let now = Instant::now();
                    for event_id in announcing {
                        announced.insert(event_id.to_owned(), now);
                    }
                    failed = false;
                    break;
                }
                Some(Err(err)) => {
                    tracing::warn!(error = %err, "show journal: writing failed; retrying");
                    announced.clear();
                    if !failed {
                        recent.expire(crate::db::now_ms());
                        failed = true;
                    }
                    tokio::time::sleep(backoff).await;
                    backoff = (backoff * 2).min(Duration::from_secs(1));
                }
            }
        }
        let written: u64 = batch.iter().map(Job::frame_bytes).sum();
        queued.fetch_sub(written, Ordering::AcqRel);
        let mut to_weigh: Vec<String> = Vec::new();
        for job in &batch {
            if let Job::Append {
                event_id,
                entry: Entry::Frames(_),
            } = job
                && !to_weigh.contains(event_id)
            {
                let due = weighed
                    .get(event_id)
                    .is_none_or(|at| at.elapsed() >= WEIGH_EVERY);
                if due {
                    to_weigh.push(event_id.clone());
                } else if !unweighed.contains(event_id) {
                    unweighed.push(event_id.clone());
                }
            }
        }
        for event_id in to_weigh {
            weigh(&bus, &event_id, journal_bytes).await;
            unweighed.retain(|id| *id != event_id);
            weighed.insert(event_id, Instant::now());
        }
        for job in batch.drain(..) {
            match job {
                Job::Append { event_id, entry } => {
                    if matches!(entry, Entry::Ended { .. }) {
                        announced.remove(&event_id);
                        weighed.remove(&event_id);
                        unweighed.retain(|id| *id != event_id);
                    }
                    recent.keep(event_id, entry);
                }
                Job::Release(_, Some(done)) => {
                    let _ = done.send(());
                }
                Job::Release(_, None) => {}
            }
        }
        recent.expire(crate::db::now_ms());
    }
}

/// What the writer sends Redis for a job, or for an entry it writes again.
enum Command<'a> {
    Append(&'a str, &'a Entry),
    Release(&'a LeaseKey),
}

impl<'a> Command<'a> {
    fn of(job: &'a Job) -> Self {
        match job {
            Job::Append { event_id, entry } => Self::Append(event_id, entry),
            Job::Release(lease, _) => Self::Release(lease),
        }
    }
}

/// Add an entry of `event_id`'s journal to `pipeline`, and the show's announcement when it
/// is due (`announced`) and not in the pipeline yet (`announcing`); false without Redis.
fn appending<'a>(
    pipeline: &mut redis::Pipeline,
    bus: &Bus,
    announced: &HashMap<String, Instant>,
    announcing: &mut Vec<&'a str>,
    event_id: &'a str,
    entry: &Entry,
) -> bool {
    let Some(key) = journal_key(bus, event_id) else {
        return false;
    };
    pipeline
        .add_command(append(&key, bus.instance(), entry))
        .ignore();
    let due = announced
        .get(event_id)
        .is_none_or(|at| at.elapsed() >= ANNOUNCE_EVERY);
    if due && !announcing.contains(&event_id) {
        let shows = shows_key(bus).expect("with Redis");
        pipeline.cmd("SADD").arg(shows).arg(event_id).ignore();
        // After the show's first XADD here: EXPIRE does nothing to a key not there yet.
        // NX: 48 h from the journal's first entry.
        pipeline
            .cmd("EXPIRE")
            .arg(&key)
            .arg(JOURNAL_TTL.as_secs())
            .arg("NX")
            .ignore();
        announcing.push(event_id);
    }
    true
}

fn append(key: &str, origin: &str, entry: &Entry) -> redis::Cmd {
    let mut command = redis::cmd("XADD");
    command
        .arg(key)
        .arg("MAXLEN")
        .arg("~")
        .arg(RETAINED)
        .arg("*")
        .arg("o")
        .arg(origin);
    match entry {
        Entry::Claimed => command.arg("k").arg("claimed"),
        Entry::Released => command.arg("k").arg("released"),
        Entry::Ended { now_ms } => command.arg("k").arg("ended").arg("t").arg(now_ms),
        Entry::EndAsked { now_ms } => command.arg("k").arg("end-asked").arg("t").arg(now_ms),
        Entry::Discontinuity { now_ms, at } => command
            .arg("k")
            .arg("discontinuity")
            .arg("t")
            .arg(now_ms)
            .arg("n")
            .arg(at),
        Entry::Frames(frames) => {
            let config = frames.config;
            command
                .arg("k")
                .arg("frames")
                .arg("t")
                .arg(frames.now_ms)
                .arg("n")
                .arg(frames.first)
                .arg("c")
                .arg(config_bytes(config).as_slice())
                .arg("p")
                .arg(frames.joined());
            for other in &frames.renditions {
                let name = other.rendition.name();
                command
                    .arg(format!("c.{name}"))
                    .arg(config_bytes(other.config).as_slice())
                    .arg(format!("p.{name}"))
                    .arg(Frames::join(&other.payloads));
            }
            if let Some(lossless) = &frames.lossless {
                let name = Lane::Lossless.name();
                command
                    .arg(format!("c.{name}"))
                    .arg(lossless.info.raw.as_slice())
                    .arg(format!("p.{name}"))
                    .arg(lossless.joined());
            }
            &mut command
        }
    };
    command
}

/// An AAC format as the journal stores it: object type, sample rate index, channels.
fn config_bytes(config: AacConfig) -> [u8; 3] {
    [
        config.object_type,
        config.sample_rate_index,
        config.channels,
    ]
}

fn config_of(bytes: &[u8]) -> Option<AacConfig> {
    let [object_type, sample_rate_index, channels] = bytes[..] else {
        return None;
    };
    Some(AacConfig {
        object_type,
        sample_rate_index,
        channels,
    })
}

/// An entry as read back, with the instance that wrote it; `None` when it is not one
/// this build understands (a newer instance's), which is skipped.
fn parse(entry: &StreamId) -> Option<(String, Entry)> {
    let text = |field: &str| -> Option<String> { entry.get(field) };
    let number = |field: &str| -> Option<i64> { text(field)?.parse().ok() };
    let origin = text("o")?;
    let parsed = match text("k")?.as_str() {
        "claimed" => Entry::Claimed,
        "released" => Entry::Released,
        "ended" => Entry::Ended {
            now_ms: number("t")?,
        },
        "end-asked" => Entry::EndAsked {
            now_ms: number("t")?,
        },
        "discontinuity" => Entry::Discontinuity {
            now_ms: number("t")?,
            at: u64::try_from(number("n")?).ok()?,
        },
        "frames" => {
            let config = config_of(&entry.get::<Vec<u8>>("c")?)?;
            let joined: Vec<u8> = entry.get("p")?;
            let payloads = Frames::split(&joined)?;
            let mut renditions = Vec::new();
            // `p` is the standard rendition's; the others have their own fields.
            for rendition in Rendition::ALL
                .into_iter()
                .filter(|r| *r != Rendition::Standard)
            {
                let name = rendition.name();
                if let Some(joined) = entry.get::<Vec<u8>>(&format!("p.{name}")) {
                    let theirs = Frames::split(&joined)?;
                    // The ladder hands out steps: every rendition has each frame.
                    if theirs.len() != payloads.len() {
                        return None;
                    }
                    renditions.push(RenditionFrames {
                        rendition,
                        config: config_of(&entry.get::<Vec<u8>>(&format!("c.{name}"))?)?,
                        payloads: theirs,
                    });
                }
            }
            // The lossless lane's share: its STREAMINFO says it is there.
            let name = Lane::Lossless.name();
            let lossless = match entry.get::<Vec<u8>>(&format!("c.{name}")) {
                Some(info) => {
                    let joined: Vec<u8> = entry.get(&format!("p.{name}"))?;
                    let share = LosslessFrames::split(StreamInfo::parse(&info)?, &joined)?;
                    if share.steps.len() != payloads.len() {
                        return None;
                    }
                    Some(share)
                }
                None => None,
            };
            Entry::Frames(Frames {
                now_ms: number("t")?,
                first: u64::try_from(number("n")?).ok()?,
                config,
                payloads,
                renditions,
                lossless,
            })
        }
        _ => return None,
    };
    Some((origin, parsed))
}

/// Apply one read entry to this instance's copy of its show, unless this instance wrote
/// it (it did the same already).
fn apply_read(bus: &Bus, show: &Show, entry: &StreamId) {
    let Some(id) = EntryId::parse(&entry.id) else {
        return;
    };
    let Some((origin, parsed)) = parse(entry) else {
        show.skip_journal(id);
        return;
    };
    if origin == bus.instance() {
        show.skip_journal(id);
        return;
    }
    if let Err(err) = show.apply(id, parsed) {
        tracing::error!(event = %show.event_id, error = %err, "applying the show's journal failed");
    }
}

/// The reader: follows every show's journal and applies what other instances wrote.
async fn read(bus: Bus, hub: Arc<Hub>) {
    let mut backoff = Duration::from_millis(50);
    loop {
        let connection = match bus.blocking_connection(READ_BLOCK * 5).await {
            Some(Ok(connection)) => connection,
            Some(Err(err)) => {
                tracing::warn!(error = %err, "show journal: cannot connect; retrying");
                tokio::time::sleep(backoff).await;
                backoff = (backoff * 2).min(Duration::from_secs(5));
                continue;
            }
            None => return,
        };
        backoff = Duration::from_millis(50);
        if let Err(err) = follow(&bus, &hub, connection).await {
            tracing::warn!(error = %err, "show journal: reading failed; reconnecting");
            tokio::time::sleep(backoff).await;
        }
    }
}

async fn follow(
    bus: &Bus,
    hub: &Hub,
    mut connection: redis::aio::MultiplexedConnection,
) -> Result<(), BusError> {
    let shows_key = shows_key(bus).expect("with Redis");
    // Where this reader is in each journal (its key → the last id read).
    let mut at: HashMap<String, String> = HashMap::new();
    let mut looked = None::<Instant>;
    loop {
        if looked.is_none_or(|t| t.elapsed() >= READ_BLOCK) {
            let shows: Vec<String> = redis::cmd("SMEMBERS")
                .arg(&shows_key)
                .query_async(&mut connection)
                .await?;
            let keys: HashSet<String> = shows
                .iter()
                .filter_map(|event| journal_key(bus, event))
                .collect();
            at.retain(|key, _| keys.contains(key));
            for key in keys {
                // A show seen for the first time is read from the start of what the
                // journal keeps; what this instance has already is skipped on apply.
                at.entry(key).or_insert_with(|| "0".to_owned());
            }
            looked = Some(Instant::now());
        }
        if at.is_empty() {
            tokio::time::sleep(READ_BLOCK).await;
            continue;
        }
        let (keys, ids): (Vec<&String>, Vec<&String>) = at.iter().unzip();
        let reply: Option<StreamReadReply> = redis::cmd("XREAD")
            .arg("COUNT")
            .arg(512)
            .arg("BLOCK")
            .arg(READ_BLOCK.as_millis() as u64)
            .arg("STREAMS")
            .arg(keys)
            .arg(ids)
            .query_async(&mut connection)
            .await?;
        for stream in reply.map(|r| r.keys).unwrap_or_default() {
            let Some(event_id) = event_of(bus, &stream.key) else {
                continue;
            };
            let show = hub.show(&event_id);
            for entry in &stream.ids {
                apply_read(bus, &show, entry);
            }
            if let Some(last) = stream.ids.last() {
                at.insert(stream.key.clone(), last.id.clone());
            }
        }
    }
}

fn event_of(bus: &Bus, key: &str) -> Option<String> {
    let prefix = journal_key(bus, "")?;
    key.strip_prefix(&prefix).map(str::to_owned)
}

/// Apply what the show's journal holds beyond what this instance has applied: before
/// this instance starts writing to it (it now holds the lease).
pub async fn catch_up(bus: &Bus, show: &Show) -> Result<(), BusError> {
    let Some(key) = journal_key(bus, &show.event_id) else {
        return Ok(());
    };
    let from = show
        .journal_at()
        .map_or_else(|| "-".to_owned(), |id| format!("({id}"));
    let command = redis::cmd("XRANGE").arg(&key).arg(from).arg("+").to_owned();
    let reply: StreamRangeReply = match bus.shared_command(&command).await {
        Some(reply) => reply?,
        None => return Ok(()),
    };
    for entry in &reply.ids {
        apply_read(bus, show, entry);
    }
    Ok(())
}

/// Delete a show's journal (its recording is deleted).
pub async fn forget(bus: &Bus, event_id: &str) -> Result<(), BusError> {
    let (Some(key), Some(shows)) = (journal_key(bus, event_id), shows_key(bus)) else {
        return Ok(());
    };
    let _: Option<Result<redis::Value, _>> = bus.shared_command(redis::cmd("DEL").arg(key)).await;
    if let Some(answer) = bus
        .shared_command::<redis::Value>(redis::cmd("SREM").arg(shows).arg(event_id))
        .await
    {
        answer?;
    }
    Ok(())
}

/// The show's lease while this instance publishes it: renewed in the background, let go
/// (after the journal's last entry) when dropped.
pub struct Lease {
    key: LeaseKey,
    renewing: tokio::task::JoinHandle<()>,
    writer: Option<Writer>,
    lost: CancellationToken,
}

/// The answer to [`Lease::acquire`].
pub enum Acquired {
    /// This instance holds the lease (no lease without Redis: `None`).
    Held(Option<Lease>),
    /// Another instance publishes the show.
    Elsewhere,
}

impl Lease {
    pub async fn acquire(bus: &Bus, hub: &Hub, event_id: &str) -> Result<Acquired, BusError> {
        let Some(key) = bus.shared_key(&format!("lease:show:{event_id}")) else {
            return Ok(Acquired::Held(None));
        };
        let token = format!("{}:{}", bus.instance(), uuid::Uuid::new_v4().simple());
        let command = redis::cmd("SET")
            .arg(&key)
            .arg(&token)
            .arg("NX")
            .arg("PX")
            .arg(LEASE_TTL.as_millis() as u64)
            .to_owned();
        let Some(set) = bus.shared_command::<Option<String>>(&command).await else {
            return Ok(Acquired::Held(None));
        };
        let set = set?;
        if set.is_none() {
            return Ok(Acquired::Elsewhere);
        }
        let key = LeaseKey { key, token };
        let lost = CancellationToken::new();
        let renewing = tokio::spawn(renew(bus.clone(), key.clone(), lost.clone()));
        Ok(Acquired::Held(Some(Self {
            key,
            renewing,
            writer: hub.journal_writer(),
            lost,
        })))
    }

    /// Resolves when another instance holds the show's lease: this one must stop
    /// publishing at once (two writers would fork the show).
    pub fn lost(&self) -> tokio_util::sync::WaitForCancellationFuture<'_> {
        self.lost.cancelled()
    }
}

/// KEYS: the lease. ARGV: this holder's token, time to live in ms. Renews the lease if
/// this holder has it, takes it again if it is gone (Redis restarted without its data,
/// or an outage outlived it), and answers 0 only when someone else holds it.
const RENEW_OR_RETAKE: &str = r"
local holder = redis.call('GET', KEYS[1])
if holder == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
if not holder then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 2
end
return 0
";

async fn renew(bus: Bus, lease: LeaseKey, lost: CancellationToken) {
    let mut tick = tokio::time::interval(LEASE_RENEW);
    tick.tick().await;
    loop {
        tick.tick().await;
        let command = redis::cmd("EVAL")
            .arg(RENEW_OR_RETAKE)
            .arg(1)
            .arg(&lease.key)
            .arg(&lease.token)
            .arg(LEASE_TTL.as_millis() as u64)
            .to_owned();
        match bus.shared_command::<i64>(&command).await {
            Some(Ok(1)) => {}
            Some(Ok(2)) => {
                tracing::warn!(lease = %lease.key, "a show's lease had gone (Redis lost it); taken again");
            }
            Some(Ok(_)) => {
                tracing::error!(lease = %lease.key, "a show's lease is held elsewhere; this instance stops publishing");
                lost.cancel();
                return;
            }
            // Redis away: keep publishing (entries wait in the writer); the lease is
            // renewed or taken again once it answers.
            Some(Err(err)) => tracing::warn!(error = %err, "renewing a show's lease failed"),
            None => return,
        }
    }
}

/// Whether someone holds the show's lease (`None`: no Redis, or it did not answer).
pub async fn lease_held(bus: &Bus, event_id: &str) -> Option<bool> {
    let key = bus.shared_key(&format!("lease:show:{event_id}"))?;
    match bus
        .shared_command::<i64>(redis::cmd("EXISTS").arg(key))
        .await?
    {
        Ok(n) => Some(n > 0),
        Err(err) => {
            tracing::warn!(error = %err, "reading a show's lease failed");
            None
        }
    }
}

impl Lease {
    /// Let the lease go once the journal has every entry made before, and wait until it
    /// is gone (an encoder reconnecting through another instance finds it free).
    pub async fn release(mut self) {
        // The renewal stops first, for good: one landing after the release would find the
        // lease gone and take it again for [`LEASE_TTL`], refusing the encoder's reconnect
        // everywhere (Drop's abort comes too late for that).
        self.renewing.abort();
        let _ = (&mut self.renewing).await;
        let (done, released) = oneshot::channel();
        if let Some(writer) = self.writer.take() {
            let _ = writer.send(Job::Release(self.key.clone(), Some(done)));
            let _ = tokio::time::timeout(Duration::from_secs(2), released).await;
        }
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        self.renewing.abort();
        if let Some(writer) = &self.writer {
            let _ = writer.send(Job::Release(self.key.clone(), None));
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;
    use std::path::PathBuf;

    use super::*;
    use crate::stream::codecs::adts::AacFrame;
    use crate::stream::codecs::flac::{FlacFrame, OggFlac};
    use crate::stream::codecs::ladder::Step;
    use crate::stream::codecs::transcode::tests::ffmpeg;
    use crate::stream::hls::renditions::{Flac, LOSSLESS_DIR};
    use crate::stream::show::hub::Claim;

    /// The stream entry Redis keeps for `entry` as this instance appends it.
    fn stored(entry: &Entry) -> StreamId {
        let command = append("k", "me", entry);
        // The command's arguments after `XADD k MAXLEN ~ N *`, as a stream entry's fields.
        let args: Vec<Vec<u8>> = command
            .args_iter()
            .filter_map(|arg| match arg {
                redis::Arg::Simple(bytes) => Some(bytes.to_vec()),
                _ => None,
            })
            .collect();
        let mut map = HashMap::new();
        for pair in args[6..].chunks(2) {
            map.insert(
                String::from_utf8(pair[0].clone()).unwrap(),
                redis::Value::BulkString(pair[1].clone()),
            );
        }
        StreamId {
            id: "1-0".into(),
            map,
            milliseconds_elapsed_from_delivery: None,
            delivered_count: None,
        }
    }

    fn read_back(entry: &Entry) -> Entry {
        let (origin, parsed) = parse(&stored(entry)).expect("parses");
        assert_eq!(origin, "me");
        parsed
    }

    #[test]
    fn every_entry_reads_back_as_written() {
        let frames = Entry::Frames(Frames {
            now_ms: 1_764_000_000_123,
            first: 4_321,
            config: AacConfig {
                object_type: 2,
                sample_rate_index: 3,
                channels: 2,
            },
            payloads: vec![vec![1, 2, 3], vec![], vec![0xff; 1500]],
            renditions: Vec::new(),
            lossless: None,
        });
        let ladder = Entry::Frames(Frames {
            now_ms: 1_764_000_000_456,
            first: 4_324,
            config: AacConfig {
                object_type: 2,
                sample_rate_index: 3,
                channels: 2,
            },
            payloads: vec![vec![4; 300], vec![5; 310]],
            renditions: vec![
                RenditionFrames {
                    rendition: Rendition::DataSaver,
                    config: AacConfig {
                        object_type: 2,
                        sample_rate_index: 3,
                        channels: 2,
                    },
                    payloads: vec![vec![6; 110], vec![7; 120]],
                },
                RenditionFrames {
                    rendition: Rendition::Source,
                    config: AacConfig {
                        object_type: 2,
                        sample_rate_index: 3,
                        channels: 6,
                    },
                    payloads: vec![vec![8; 500], vec![9; 510]],
                },
            ],
            lossless: None,
        });
        for entry in [
            Entry::Claimed,
            Entry::Released,
            Entry::Ended { now_ms: 42 },
            Entry::EndAsked { now_ms: 43 },
            Entry::Discontinuity { now_ms: 7, at: 99 },
            frames,
            ladder,
        ] {
            assert_eq!(read_back(&entry), entry);
        }
    }

    fn aac_config() -> AacConfig {
        AacConfig {
            object_type: 2,
            sample_rate_index: 3,
            channels: 2,
        }
    }

    /// ffmpeg's Ogg FLAC of three seconds of a 48 kHz stereo tone in 4,096-sample blocks:
    /// its STREAMINFO and frames.
    fn flac() -> (StreamInfo, Vec<FlacFrame>) {
        let ogg = ffmpeg(
            "sine=frequency=440:sample_rate=48000:duration=3,aformat=channel_layouts=stereo",
            &["-c:a", "flac", "-frame_size", "4096", "-f", "ogg"],
            "oga",
        );
        let mut demux = OggFlac::new();
        let frames = demux.push(&ogg).frames;
        (*demux.info().expect("a STREAMINFO"), frames)
    }

    #[test]
    fn the_lossless_share_reads_back_step_by_step_and_weighs_on_the_writers_queue() {
        let (info, flac) = flac();
        let entry = Entry::Frames(Frames {
            now_ms: 1_764_000_000_789,
            first: 12,
            config: aac_config(),
            payloads: vec![vec![4; 300], vec![5; 310], vec![6; 320]],
            renditions: vec![RenditionFrames {
                rendition: Rendition::DataSaver,
                config: aac_config(),
                payloads: vec![vec![7; 100], vec![8; 110], vec![9; 120]],
            }],
            lossless: Some(LosslessFrames {
                info,
                steps: vec![vec![flac[0].clone()], vec![], flac[1..3].to_vec()],
            }),
        });
        assert_eq!(read_back(&entry), entry);
        let flac_bytes: u64 = flac[..3].iter().map(|f| f.data.len() as u64).sum();
        assert!(flac_bytes > 1000, "{flac_bytes}");
        let job = Job::Append {
            event_id: "event-1".into(),
            entry: entry.clone(),
        };
        assert_eq!(job.frame_bytes(), 930 + 330 + flac_bytes);

        // Without the share (a show without a lane, an older build's entry): none.
        let mut older = stored(&entry);
        older.map.retain(|field, _| !field.ends_with(".lossless"));
        let Some((_, Entry::Frames(frames))) = parse(&older) else {
            panic!("an entry without the share parses");
        };
        assert_eq!(frames.lossless, None);
        assert_eq!(frames.payloads.len(), 3);

        // A share that is not the steps' makes the entry one to skip, as a cut `p` does,
        // never a lane fed something else: a damaged frame (its CRC), a step missing.
        let mut damaged = stored(&entry);
        let Some(redis::Value::BulkString(joined)) = damaged.map.get_mut("p.lossless") else {
            panic!("p.lossless is written");
        };
        let last = joined.len() - 1;
        joined[last] ^= 1;
        assert!(parse(&damaged).is_none());
        let Entry::Frames(mut short) = entry else {
            unreachable!()
        };
        short.lossless.as_mut().unwrap().steps.pop();
        assert!(parse(&stored(&Entry::Frames(short))).is_none());
    }

    /// Every file in `dir` and its folders, with its bytes, by its path inside `dir`.
    fn files(dir: &std::path::Path) -> BTreeMap<PathBuf, Vec<u8>> {
        let mut found = BTreeMap::new();
        let mut folders = vec![dir.to_owned()];
        while let Some(folder) = folders.pop() {
            for entry in std::fs::read_dir(folder).unwrap().flatten() {
                let path = entry.path();
                if path.is_dir() {
                    folders.push(path);
                } else {
                    let inside = path.strip_prefix(dir).unwrap().to_owned();
                    found.insert(inside, std::fs::read(&path).unwrap());
                }
            }
        }
        found
    }

    /// Step `index` of a publisher's standard rendition alone (its payload says the index).
    fn step(index: u64) -> Step {
        Step {
            index,
            frames: vec![AacFrame {
                config: aac_config(),
                payload: vec![index as u8; 8],
            }],
        }
    }

    /// The entries a hub has handed its journal writer so far, as the journal reads them
    /// back.
    fn appended(jobs: &mut mpsc::UnboundedReceiver<Job>) -> Vec<Entry> {
        let mut entries = Vec::new();
        while let Ok(job) = jobs.try_recv() {
            if let Job::Append { entry, .. } = job {
                entries.push(read_back(&entry));
            }
        }
        entries
    }

    /// An instance's hub of shows under `root`, writing its journal to `jobs`.
    fn hub(root: &std::path::Path, jobs: mpsc::UnboundedSender<Job>) -> Hub {
        let hub = Hub::new(root.to_owned());
        hub.journal_to(Writer::new(jobs, Arc::default(), u64::MAX));
        hub
    }

    /// The journal's way from the lossless publisher's instance to another: every entry
    /// appended and read back, then applied there; the other instance restarts halfway
    /// (its copy recovered from its disk) and reads the journal again from its start, as
    /// an instance that sees the show first does. Its recording is the writer's, file for
    /// file and byte for byte: the lossless lane's parts, segments and `parts.log`, the
    /// lane's end when the encoder comes back without FLAC, and the show's end.
    #[test]
    fn another_instance_records_the_writers_lossless_lane_from_the_journal_byte_for_byte() {
        let (info, flac) = flac();
        let (here, there) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let (jobs_tx, mut jobs) = mpsc::unbounded_channel();
        let writer = hub(here.path(), jobs_tx);
        let show = writer.show("event-1");
        let Claim::Granted(id) = show.claim() else {
            panic!("a first publisher is admitted");
        };
        // Block k (4,096 samples) starts in step 4k: it travels with it (`Tap::take`).
        for index in 0..flac.len() as u64 * 4 {
            let frames = (flac.get(index as usize / 4).filter(|_| index % 4 == 0))
                .cloned()
                .into_iter()
                .collect();
            let flac = Some(Flac {
                info: &info,
                frames,
            });
            assert!(
                show.feed(id, &[Rendition::Standard], step(index), flac)
                    .unwrap()
            );
        }
        // The encoder comes back without FLAC: the lane ends, the show goes on, then ends.
        show.release(id);
        let Claim::Granted(id) = show.claim() else {
            panic!("the publisher comes back");
        };
        for index in 0..30 {
            assert!(
                show.feed(id, &[Rendition::Standard], step(index), None)
                    .unwrap()
            );
        }
        show.end().unwrap();
        let entries = appended(&mut jobs);
        let shares = (entries.iter())
            .filter(|e| matches!(e, Entry::Frames(f) if f.lossless.is_some()))
            .count();
        assert_eq!(shares, flac.len() * 4, "every FLAC step carries its share");

        let apply = |hub: &Hub, entries: &[Entry]| {
            let copy = hub.show("event-1");
            for (n, entry) in (1..).zip(entries) {
                let id = EntryId::parse(&format!("{n}-0")).unwrap();
                copy.apply(id, entry.clone()).unwrap();
            }
            copy
        };
        let half = entries.len() / 2;
        let copy = apply(
            &hub(there.path(), mpsc::unbounded_channel().0),
            &entries[..half],
        );
        assert!(copy.lossless().is_some(), "listed there while it is live");
        drop(copy);
        apply(&hub(there.path(), mpsc::unbounded_channel().0), &entries);

        let (written, applied) = (
            files(&here.path().join("event-1")),
            files(&there.path().join("event-1")),
        );
        let lane = std::path::Path::new(LOSSLESS_DIR);
        let segments = (written.keys())
            .filter(|p| p.starts_with(lane) && p.to_string_lossy().ends_with(".m4s"))
            .count();
        assert!(segments >= 12, "{:?}", written.keys());
        assert!(
            String::from_utf8_lossy(&written[&lane.join("parts.log")]).ends_with("end\n"),
            "the lane ended"
        );
        assert_eq!(
            written.keys().collect::<Vec<_>>(),
            applied.keys().collect::<Vec<_>>()
        );
        for (path, bytes) in &written {
            assert!(applied[path] == *bytes, "{} differs", path.display());
        }
    }

    /// A show ended by its managers on an instance that hears the encoder elsewhere: that
    /// instance asks (`EndAsked`) and ends nothing itself; the encoder's instance, which
    /// wrote frames the asker had not applied yet and more after the request, ends after
    /// them, lets the encoder go and says so (`Ended`, after its last frames); the asker,
    /// applying the journal in its order, ends at the same frame: the two recordings are
    /// the same files, byte for byte.
    #[test]
    fn a_show_ended_away_from_its_encoder_ends_after_the_encoders_last_frames_everywhere() {
        let (here, there) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let (writer_jobs, mut written) = mpsc::unbounded_channel();
        let (asker_jobs, mut asked) = mpsc::unbounded_channel();
        let (writer, asker) = (hub(here.path(), writer_jobs), hub(there.path(), asker_jobs));
        let (show, copy) = (writer.show("event-1"), asker.show("event-1"));
        let Claim::Granted(id) = show.claim() else {
            panic!("a first publisher is admitted");
        };
        for index in 0..40 {
            assert!(
                show.feed(id, &[Rendition::Standard], step(index), None)
                    .unwrap()
            );
        }
        // The journal in its order: the asker has applied half of what the writer wrote.
        let mut journal = appended(&mut written);
        let mut applied = 0;
        let mut apply_to_copy = |journal: &[Entry]| {
            for entry in journal {
                applied += 1;
                let id = EntryId::parse(&format!("{applied}-0")).unwrap();
                copy.apply(id, entry.clone()).unwrap();
            }
        };
        let half = journal.len() / 2;
        apply_to_copy(&journal[..half]);
        assert!(
            copy.status().publisher_connected,
            "the encoder is heard elsewhere"
        );

        assert!(!copy.end().unwrap(), "asked, not ended");
        assert!(!copy.status().ended);
        let request = appended(&mut asked);
        assert!(
            matches!(request[..], [Entry::EndAsked { .. }]),
            "{request:?}"
        );
        // The writer goes on until it reads the request.
        for index in 40..60 {
            assert!(
                show.feed(id, &[Rendition::Standard], step(index), None)
                    .unwrap()
            );
        }
        journal.extend(request.iter().cloned());
        show.apply(EntryId::parse("1000-0").unwrap(), request[0].clone())
            .unwrap();
        assert!(show.status().ended);
        assert!(
            !show
                .feed(id, &[Rendition::Standard], step(60), None)
                .unwrap(),
            "the encoder is let go"
        );
        let after = appended(&mut written);
        assert!(
            matches!(after.last(), Some(Entry::Ended { .. })),
            "{after:?}"
        );
        journal.extend(after);

        apply_to_copy(&journal[half..]);
        assert!(copy.status().ended);
        let (recorded, copied) = (
            files(&here.path().join("event-1")),
            files(&there.path().join("event-1")),
        );
        assert_eq!(
            recorded.keys().collect::<Vec<_>>(),
            copied.keys().collect::<Vec<_>>()
        );
        for (path, bytes) in &recorded {
            assert!(copied[path] == *bytes, "{} differs", path.display());
        }
    }

    #[test]
    fn the_journal_keeps_its_retention_of_one_entry_per_frame_at_48_khz() {
        use crate::stream::codecs::adts::SAMPLES_PER_FRAME;
        let entries_per_second = 48_000.0 / f64::from(SAMPLES_PER_FRAME);
        let kept = RETAINED as f64 / entries_per_second;
        assert!(
            kept >= RETENTION.as_secs_f64(),
            "{RETAINED} entries are {kept:.0} s of a 48 kHz encoder, not {:?}",
            RETENTION
        );
        assert!(
            RETENTION >= Duration::from_secs(20 * 60),
            "the documented 20 minutes"
        );
        // And the command trims to that many.
        let command = append("k", "me", &Entry::Claimed);
        let args: Vec<String> = command
            .args_iter()
            .filter_map(|arg| match arg {
                redis::Arg::Simple(bytes) => Some(String::from_utf8_lossy(bytes).into_owned()),
                _ => None,
            })
            .collect();
        assert_eq!(args[2..5], ["MAXLEN", "~", &RETAINED.to_string()]);
    }

    /// The writer keeps the last [`REWRITTEN_MS`] of each show's frames and discontinuities
    /// to write again after a failure, in their order; not the publisher's coming and
    /// going, nothing of a show that ended, nothing of one gone quiet.
    #[test]
    fn the_writer_keeps_each_shows_last_seconds_to_write_again() {
        let frames = |now_ms: i64, first: u64| {
            Entry::Frames(Frames {
                now_ms,
                first,
                config: aac_config(),
                payloads: vec![vec![1; 4]],
                renditions: Vec::new(),
                lossless: None,
            })
        };
        let mut recent = Recent::default();
        recent.keep("a".into(), Entry::Claimed);
        for n in 0..200 {
            recent.keep("a".into(), frames(10_000 + n * 21, n as u64));
        }
        recent.keep(
            "a".into(),
            Entry::Discontinuity {
                now_ms: 14_200,
                at: 200,
            },
        );
        recent.keep("a".into(), Entry::Released);
        recent.keep("b".into(), frames(9_000, 0));
        recent.keep("c".into(), frames(14_000, 0));
        recent.expire(14_200);
        assert!(
            recent.entries().all(|(id, _)| id != "b"),
            "a show written to last more than 3 s ago is let go"
        );
        let kept = |recent: &Recent, show: &str| -> Vec<Entry> {
            (recent.entries())
                .filter(|(id, _)| *id == show)
                .map(|(_, e)| e.clone())
                .collect()
        };
        let a = kept(&recent, "a");
        // 14,200 less 3 s: the frames from 11,200 ms on (n = 58 is at 11,218 ms).
        assert_eq!(a.first(), Some(&frames(11_218, 58)));
        assert_eq!(a.len(), 200 - 58 + 1);
        assert_eq!(
            a.last(),
            Some(&Entry::Discontinuity {
                now_ms: 14_200,
                at: 200
            })
        );
        assert_eq!(kept(&recent, "c"), [frames(14_000, 0)]);
        recent.keep("c".into(), Entry::Ended { now_ms: 14_100 });
        assert!(kept(&recent, "c").is_empty(), "an ended show is forgotten");
        assert_eq!(kept(&recent, "a").len(), 143);
    }

    #[test]
    fn entry_ids_order_as_redis_orders_them() {
        let id = |s| EntryId::parse(s).unwrap();
        assert!(id("9-5") < id("10-0"));
        assert!(id("10-0") < id("10-1"));
        assert_eq!(id("10-2").to_string(), "10-2");
        assert!(EntryId::parse("nope").is_none());
    }

    /// A lease let go stays gone: a renewal falling due while the release waits for the
    /// journal's writer does not take it again. It did once, and an encoder reconnecting
    /// through another instance was refused for the lease's whole life (`LEASE_TTL`).
    #[tokio::test]
    async fn a_released_lease_is_not_taken_again_by_its_own_renewal() {
        let url = std::env::var("ENCORE_TEST_REDIS_URL")
            .unwrap_or_else(|_| "redis://127.0.0.1:6379".to_owned());
        let prefix = format!("encore-test:{}:", uuid::Uuid::new_v4().simple());
        let bus = Bus::redis(&url, &prefix).await.expect("the suite's Redis");
        let dir = tempfile::tempdir().unwrap();
        let (jobs_tx, mut jobs) = mpsc::unbounded_channel();
        let hub = hub(dir.path(), jobs_tx);
        let Ok(Acquired::Held(Some(lease))) = Lease::acquire(&bus, &hub, "event-1").await else {
            panic!("a free lease is taken");
        };
        // Let go half a second before the next renewal. The writer deletes the lease at
        // once but confirms only at the release's timeout, past the renewal.
        tokio::time::sleep(LEASE_RENEW - Duration::from_millis(500)).await;
        let releasing = tokio::spawn(lease.release());
        let job = tokio::time::timeout(Duration::from_secs(2), jobs.recv()).await;
        let Ok(Some(Job::Release(key, Some(done)))) = job else {
            panic!("the release reaches the writer");
        };
        let deleted = bus.shared_command::<i64>(&key.release_command()).await;
        assert!(matches!(deleted, Some(Ok(1))), "{deleted:?}");
        releasing.await.unwrap();
        drop(done);
        assert_eq!(lease_held(&bus, "event-1").await, Some(false));
    }
}
