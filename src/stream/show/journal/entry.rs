//! What the journal carries and how a show hands it over: the entries, the writer's jobs
//! and queue, the ids of the journal's stream, the lease key. The hub holds these; the
//! journal's reader and writer (`journal`) hold the hub.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use tokio::sync::{mpsc, oneshot};

use bytes::Bytes;

use crate::stream::codecs::adts::AacConfig;
use crate::stream::codecs::flac::{FlacFrame, StreamInfo, frame_samples};
use crate::stream::codecs::ladder::Rendition;

/// Something that happened to a show on the instance holding its lease.
#[derive(Debug, Clone, PartialEq)]
pub enum Entry {
    /// A publisher connected.
    Claimed,
    /// Frames arrived.
    Frames(Frames),
    /// A reconnected publisher: the next segment starts with a discontinuity, after
    /// `at` frames.
    Discontinuity { now_ms: i64, at: u64 },
    /// The publisher went away (it may come back until the show is abandoned).
    Released,
    /// The show ended.
    Ended { now_ms: i64 },
    /// Its managers asked another instance than the publisher's to end the show: the
    /// publisher's instance ends it after its last frames and writes [`Entry::Ended`],
    /// so every copy ends at the same frame. Only that instance acts on it.
    EndAsked { now_ms: i64 },
}

/// Frames that arrived at `now_ms`; `first` is how many frames the show had before them.
#[derive(Debug, Clone, PartialEq)]
pub struct Frames {
    pub now_ms: i64,
    pub first: u64,
    pub config: AacConfig,
    pub payloads: Vec<Vec<u8>>,
    /// The ladder's other renditions' frames at the same indexes, as many as `payloads`
    /// (issue 32): another instance cannot re-encode them (its encoder may differ), so the
    /// journal carries them; empty for a show of one rendition. `payloads` is the
    /// standard rendition, so an instance of an older build, which reads only it, still
    /// serves the show as before.
    pub renditions: Vec<RenditionFrames>,
    /// The lossless lane's share of the same steps (issue 32), when the lane takes them;
    /// `None` when the show has no lane or it ends here, and in an entry of an older
    /// build.
    pub lossless: Option<LosslessFrames>,
}

/// The lossless lane's share of a [`Frames`] entry: what the writer's lane took with
/// each step (`Fitted::flac`). Another instance hands the same to its own
/// `Renditions::fit`, which starts, feeds or ends its lane as the writer's did.
#[derive(Debug, Clone, PartialEq)]
pub struct LosslessFrames {
    /// The publisher's STREAMINFO (the lane's init segment when the lane starts here).
    pub info: StreamInfo,
    /// The FLAC frames that travel with each step, as many steps as the entry's
    /// `payloads` (most steps have none: a block is four steps or so).
    pub steps: Vec<Vec<FlacFrame>>,
}

/// One more rendition's frames in a [`Frames`] entry.
#[derive(Debug, Clone, PartialEq)]
pub struct RenditionFrames {
    pub rendition: Rendition,
    /// Its format (an AAC publisher's own may differ from the standard rendition's).
    pub config: AacConfig,
    pub payloads: Vec<Vec<u8>>,
}

impl Frames {
    /// The payloads as the journal stores them: each after its length (two bytes, big
    /// endian; an AAC frame is at most 8 KiB, ADTS's 13-bit length).
    pub fn joined(&self) -> Vec<u8> {
        Self::join(&self.payloads)
    }

    /// Any rendition's payloads as [`Frames::joined`] stores them.
    pub fn join(payloads: &[Vec<u8>]) -> Vec<u8> {
        let mut joined = Vec::with_capacity(payloads.iter().map(|p| p.len() + 2).sum());
        for payload in payloads {
            joined.extend_from_slice(&(payload.len() as u16).to_be_bytes());
            joined.extend_from_slice(payload);
        }
        joined
    }

    /// The payloads of [`Frames::joined`]'s bytes; `None` when they are cut short.
    pub fn split(joined: &[u8]) -> Option<Vec<Vec<u8>>> {
        let mut payloads = Vec::new();
        let mut rest = joined;
        while let [high, low, after @ ..] = rest {
            let len = usize::from(u16::from_be_bytes([*high, *low]));
            if after.len() < len {
                return None;
            }
            payloads.push(after[..len].to_vec());
            rest = &after[len..];
        }
        Some(payloads)
    }
}

impl LosslessFrames {
    /// The steps as the journal stores them: each step's frame count, then each frame
    /// after its length (four bytes each, big endian: a verbatim FLAC block of a part's
    /// length at 32 bits is more than 64 KiB).
    pub fn joined(&self) -> Vec<u8> {
        let frames = self.steps.iter().flatten();
        let size = frames.map(|f| f.data.len() + 4).sum::<usize>() + 4 * self.steps.len();
        let mut joined = Vec::with_capacity(size);
        for frames in &self.steps {
            joined.extend_from_slice(&(frames.len() as u32).to_be_bytes());
            for frame in frames {
                joined.extend_from_slice(&(frame.data.len() as u32).to_be_bytes());
                joined.extend_from_slice(&frame.data);
            }
        }
        joined
    }

    /// The share of [`LosslessFrames::joined`]'s bytes, each frame's samples read from
    /// its header; `None` when they are cut short or a frame is not one of the stream's
    /// (its CRCs are checked, as at the ingest).
    pub fn split(info: StreamInfo, joined: &[u8]) -> Option<Self> {
        fn number(rest: &mut &[u8]) -> Option<usize> {
            let (bytes, after) = rest.split_first_chunk::<4>()?;
            *rest = after;
            usize::try_from(u32::from_be_bytes(*bytes)).ok()
        }
        let mut steps = Vec::new();
        let mut rest = joined;
        while !rest.is_empty() {
            let count = number(&mut rest)?;
            let mut frames = Vec::with_capacity(count.min(rest.len() / 4));
            for _ in 0..count {
                let len = number(&mut rest)?;
                let data = rest.get(..len)?;
                rest = &rest[len..];
                frames.push(FlacFrame {
                    samples: frame_samples(data, &info)?,
                    data: Bytes::copy_from_slice(data),
                });
            }
            steps.push(frames);
        }
        Some(Self { info, steps })
    }

    /// The FLAC bytes the share carries.
    fn bytes(&self) -> u64 {
        self.steps
            .iter()
            .flatten()
            .map(|f| f.data.len() as u64)
            .sum()
    }
}

/// What the journal's writer is asked to do, in order.
pub enum Job {
    Append {
        event_id: String,
        entry: Entry,
    },
    /// Let the show's lease go, after every entry queued before; then say so.
    Release(LeaseKey, Option<oneshot::Sender<()>>),
}

/// Where a show's [`Show`] hands its entries, in order. The frames waiting to be written
/// are bounded in bytes across the instance's shows: while Redis is away entries wait (a
/// show of 128 kbit/s makes 16 KB a second), and past the bound a new frame entry is
/// refused and its encoder cut, never the instance's memory grown (docs/security.md,
/// second review, finding 2). The publisher, release and end entries are a few bytes and
/// always wait.
#[derive(Clone)]
pub struct Writer {
    jobs: mpsc::UnboundedSender<Job>,
    queued: Arc<AtomicU64>,
    max_queued: u64,
}

impl Writer {
    /// A writer handing its jobs to `jobs`, with `queued` audio bytes waiting at most
    /// `max_queued`.
    pub(super) fn new(
        jobs: mpsc::UnboundedSender<Job>,
        queued: Arc<AtomicU64>,
        max_queued: u64,
    ) -> Self {
        Self {
            jobs,
            queued,
            max_queued,
        }
    }

    /// Audio bytes waiting to be written.
    pub fn queued_bytes(&self) -> u64 {
        self.queued.load(Ordering::Acquire)
    }

    /// Queue a job; false (nothing queued) when it is frames and the frames waiting
    /// already hold the bound.
    pub fn send(&self, job: Job) -> bool {
        let bytes = job.frame_bytes();
        if bytes > 0 {
            let queued = self.queued.fetch_add(bytes, Ordering::AcqRel);
            if queued + bytes > self.max_queued {
                self.queued.fetch_sub(bytes, Ordering::AcqRel);
                return false;
            }
        }
        if self.jobs.send(job).is_err() {
            self.queued.fetch_sub(bytes, Ordering::AcqRel);
        }
        true
    }
}

impl Job {
    /// The audio bytes a job carries, every rendition's and the FLAC (what the writer's
    /// queue is bounded by).
    pub(super) fn frame_bytes(&self) -> u64 {
        match self {
            Job::Append {
                entry: Entry::Frames(frames),
                ..
            } => {
                let aac: u64 = (frames.renditions.iter().map(|r| &r.payloads))
                    .chain([&frames.payloads])
                    .flatten()
                    .map(|p| p.len() as u64)
                    .sum();
                aac + frames.lossless.as_ref().map_or(0, LosslessFrames::bytes)
            }
            _ => 0,
        }
    }
}

/// A stream id, ordered as Redis orders them (`<ms>-<seq>`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct EntryId(u64, u64);

impl EntryId {
    pub(super) fn parse(id: &str) -> Option<Self> {
        let (ms, seq) = id.split_once('-')?;
        Some(Self(ms.parse().ok()?, seq.parse().ok()?))
    }
}

impl std::fmt::Display for EntryId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}-{}", self.0, self.1)
    }
}

/// Who may publish a show cluster-wide: the key and this holder's token.
#[derive(Debug, Clone)]
pub struct LeaseKey {
    pub(super) key: String,
    pub(super) token: String,
}

const RELEASE: &str = r"
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
";

impl LeaseKey {
    pub(super) fn release_command(&self) -> redis::Cmd {
        redis::cmd("EVAL")
            .arg(RELEASE)
            .arg(1)
            .arg(&self.key)
            .arg(&self.token)
            .to_owned()
    }
}
