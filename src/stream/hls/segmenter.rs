//! The segmenter: AAC frames in, LL-HLS parts and segments out. A part is a fixed number
//! of frames (≈ 250 ms); a segment is a fixed number of parts (≈ 1 s). Decode times are
//! counted in samples, so the timeline never drifts and a reconnecting publisher
//! continues it without a gap. Every finished part is written to disk at once, so the
//! recording survives a restart.

use std::path::{Path, PathBuf};

use crate::stream::codecs::adts::{AacConfig, AacFrame, SAMPLES_PER_FRAME};
use crate::stream::codecs::fmp4;

/// Part and segment sizes, in frames and parts.
#[derive(Debug, Clone, Copy)]
pub struct Layout {
    pub frames_per_part: u32,
    pub parts_per_segment: u32,
}

impl Layout {
    /// ≈ 250 ms parts and 4 parts per segment for the stream's sample rate.
    pub fn for_rate(sample_rate: u32) -> Self {
        let frames = (f64::from(sample_rate) * 0.25 / f64::from(SAMPLES_PER_FRAME)).round() as u32;
        Self {
            frames_per_part: frames.max(1),
            parts_per_segment: 4,
        }
    }
}

#[derive(Debug, Clone)]
pub struct Part {
    pub duration: f64,
    pub size: usize,
}

#[derive(Debug, Clone)]
pub struct Segment {
    pub msn: u64,
    pub parts: Vec<Part>,
    /// All its parts are written.
    pub complete: bool,
    /// The first segment after the publisher reconnected.
    pub discontinuity: bool,
    /// Wall-clock time of the first sample (ms since the epoch).
    pub program_time_ms: i64,
}

impl Segment {
    pub fn duration(&self) -> f64 {
        self.parts.iter().map(|p| p.duration).sum()
    }
}

/// What the caller learns from each push.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Progress {
    /// Part `part` of segment `msn` was written.
    Part { msn: u64, part: u32 },
}

pub struct Segmenter {
    dir: PathBuf,
    config: AacConfig,
    layout: Layout,
    segments: Vec<Segment>,
    pending: Vec<Vec<u8>>,
    /// Decode time of the next sample, in samples.
    next_time: u64,
    fragment_seq: u32,
    discontinuity_next: bool,
    ended: bool,
    /// Files written since the caller last took them, for its in-memory cache.
    fresh: Vec<(MediaFile, bytes::Bytes)>,
    /// The parts of the segment being written (joined into it when it closes).
    open_parts: Vec<(String, bytes::Bytes)>,
    /// Rebuilt from disk after a restart, and nothing taken since: see
    /// [`Segmenter::resume_after_restart`] and [`Segmenter::continue_after_restart`].
    restarted: bool,
}

/// The stream's configuration, and one line per written part: how a restarted server
/// finds the show where it was.
const STREAM_FILE: &str = "stream.conf";
const LOG_FILE: &str = "parts.log";

pub fn part_file(msn: u64, part: u32) -> String {
    format!("seg{msn}.{part}.m4s")
}

/// A media file of a show, as players name it (`init.mp4`, `seg{msn}.m4s`,
/// `seg{msn}.{part}.m4s`): a cache key that costs no allocation to build or hash.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MediaFile {
    Init,
    Segment(u64),
    Part(u64, u32),
}

/// Digits only (no sign, no spaces, no leading zero), so one file has exactly one name.
fn number<T: std::str::FromStr>(digits: &str) -> Option<T> {
    let canonical = digits == "0" || !digits.starts_with('0');
    if canonical && digits.bytes().all(|b| b.is_ascii_digit()) {
        digits.parse().ok()
    } else {
        None
    }
}

impl MediaFile {
    pub fn parse(name: &str) -> Option<Self> {
        if name == "init.mp4" {
            return Some(Self::Init);
        }
        let stem = name.strip_prefix("seg")?.strip_suffix(".m4s")?;
        match stem.split_once('.') {
            Some((msn, part)) => Some(Self::Part(number(msn)?, number(part)?)),
            None => Some(Self::Segment(number(stem)?)),
        }
    }

    pub fn file_name(self) -> String {
        match self {
            Self::Init => "init.mp4".to_owned(),
            Self::Segment(msn) => format!("seg{msn}.m4s"),
            Self::Part(msn, part) => part_file(msn, part),
        }
    }
}

impl Segmenter {
    /// Start a show's recording in `dir` (created if needed; `init.mp4` is written), or
    /// continue the recording already there after a restart.
    pub fn create(dir: &Path, config: AacConfig) -> std::io::Result<Self> {
        if let Some(existing) = Self::recover(dir)?
            && existing.config == config
        {
            return Ok(existing);
        }
        std::fs::create_dir_all(dir)?;
        let init = bytes::Bytes::from(fmp4::init_segment(&config));
        write_file(&dir.join("init.mp4"), &init)?;
        let c = config;
        write_file(
            &dir.join(STREAM_FILE),
            format!("{} {} {}\n", c.object_type, c.sample_rate_index, c.channels).as_bytes(),
        )?;
        let _ = std::fs::remove_file(dir.join(LOG_FILE));
        let mut this = Self::empty(dir, config);
        this.fresh.push((MediaFile::Init, init));
        Ok(this)
    }

    /// A show with nothing recorded yet.
    fn empty(dir: &Path, config: AacConfig) -> Self {
        Self {
            dir: dir.to_owned(),
            layout: Layout::for_rate(config.sample_rate()),
            config,
            segments: Vec::new(),
            pending: Vec::new(),
            next_time: 0,
            fragment_seq: 1,
            discontinuity_next: false,
            ended: false,
            fresh: Vec::new(),
            open_parts: Vec::new(),
            restarted: false,
        }
    }

    /// Rebuild a show from its directory: `stream.conf` plus `parts.log`. A part whose
    /// file is missing (a crash mid-write) ends the recovered timeline.
    pub fn recover(dir: &Path) -> std::io::Result<Option<Self>> {
        let Ok(conf) = std::fs::read_to_string(dir.join(STREAM_FILE)) else {
            return Ok(None);
        };
        let fields: Vec<u8> = conf
            .split_whitespace()
            .filter_map(|f| f.parse().ok())
            .collect();
        let [object_type, sample_rate_index, channels] = fields[..] else {
            return Ok(None);
        };
        let config = AacConfig {
            object_type,
            sample_rate_index,
            channels,
        };
        let mut this = Self::empty(dir, config);
        let log = std::fs::read_to_string(dir.join(LOG_FILE)).unwrap_or_default();
        for line in log.lines() {
            let f: Vec<&str> = line.split_whitespace().collect();
            if f.first() == Some(&"end") {
                this.ended = true;
                continue;
            }
            let (Some(msn), Some(part), Some(samples), Some(size), Some(disc), Some(time)) = (
                f.first().and_then(|v| v.parse::<u64>().ok()),
                f.get(1).and_then(|v| v.parse::<u32>().ok()),
                f.get(2).and_then(|v| v.parse::<u64>().ok()),
                f.get(3).and_then(|v| v.parse::<usize>().ok()),
                f.get(4).map(|v| *v == "1"),
                f.get(5).and_then(|v| v.parse::<i64>().ok()),
            ) else {
                break;
            };
            if !dir.join(part_file(msn, part)).exists() {
                break;
            }
            if this.segments.last().is_none_or(|s| s.msn != msn) {
                if let Some(last) = this.segments.last_mut() {
                    last.complete = dir.join(format!("seg{}.m4s", last.msn)).exists();
                }
                this.segments.push(Segment {
                    msn,
                    parts: Vec::new(),
                    complete: false,
                    discontinuity: disc,
                    program_time_ms: time,
                });
            }
            let duration = samples as f64 / f64::from(config.sample_rate());
            if let Some(segment) = this.segments.last_mut() {
                segment.parts.push(Part { duration, size });
            }
            this.next_time += samples;
            this.fragment_seq += 1;
        }
        if let Some(last) = this.segments.last_mut() {
            last.complete = dir.join(format!("seg{}.m4s", last.msn)).exists();
        }
        // A segment whose parts are all there but not its own file (a crash between the
        // two) is closed now: it takes no more parts.
        if this
            .segments
            .last()
            .is_some_and(|s| s.parts.len() as u32 >= this.layout.parts_per_segment)
        {
            this.close_segment();
        }
        // The segment being written stays open until the caller knows what comes next
        // (`resume_after_restart` or `continue_after_restart`).
        this.restarted = !this.segments.is_empty() && !this.ended;
        Ok(Some(this))
    }

    /// After a restart, the show goes on from a new source (an encoder reconnecting, or
    /// no copy to continue from): a discontinuity for players, though the timeline goes
    /// on. Whether it was still to be done.
    pub fn resume_after_restart(&mut self, now_ms: i64) -> std::io::Result<bool> {
        if !std::mem::take(&mut self.restarted) {
            return Ok(false);
        }
        self.mark_discontinuity(now_ms)?;
        Ok(true)
    }

    /// After a restart, the show goes on from the frames right after the last part on
    /// disk (the journal of the instance that kept recording): no discontinuity, the
    /// open segment continues, and this copy stays the same bytes as the others.
    pub fn continue_after_restart(&mut self) {
        self.restarted = false;
    }

    /// Rebuilt from disk and nothing taken since.
    pub fn restarted(&self) -> bool {
        self.restarted
    }

    pub fn config(&self) -> &AacConfig {
        &self.config
    }
    pub fn layout(&self) -> Layout {
        self.layout
    }
    pub fn segments(&self) -> &[Segment] {
        &self.segments
    }
    pub fn ended(&self) -> bool {
        self.ended
    }
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The files written since the last call, with their bytes.
    pub fn take_fresh(&mut self) -> Vec<(MediaFile, bytes::Bytes)> {
        std::mem::take(&mut self.fresh)
    }

    /// Seconds of one full part (the playlist's PART-TARGET).
    pub fn part_target(&self) -> f64 {
        f64::from(self.layout.frames_per_part * SAMPLES_PER_FRAME)
            / f64::from(self.config.sample_rate())
    }

    /// Seconds recorded so far.
    pub fn recorded_seconds(&self) -> f64 {
        self.next_time as f64 / f64::from(self.config.sample_rate())
            + self.pending.len() as f64 * f64::from(SAMPLES_PER_FRAME)
                / f64::from(self.config.sample_rate())
    }

    /// Frames taken so far (written or pending): where the next frame goes.
    pub fn frames(&self) -> u64 {
        self.next_time / u64::from(SAMPLES_PER_FRAME) + self.pending.len() as u64
    }

    /// The publisher reconnected (at `now_ms`): the next segment starts with a
    /// discontinuity; the timeline itself continues.
    pub fn mark_discontinuity(&mut self, now_ms: i64) -> std::io::Result<()> {
        self.restarted = false;
        self.flush_part(now_ms)?;
        self.close_segment();
        self.discontinuity_next = true;
        Ok(())
    }

    /// Add frames; frames whose configuration differs from the show's are refused
    /// (false), as a player cannot switch codecs mid-stream.
    pub fn push(&mut self, frame: AacFrame, now_ms: i64) -> std::io::Result<Option<Progress>> {
        if self.ended || frame.config != self.config {
            return Ok(None);
        }
        // Nobody said the show continues seamlessly after a restart: it resumes.
        self.resume_after_restart(now_ms)?;
        self.pending.push(frame.payload);
        if self.pending.len() as u32 >= self.layout.frames_per_part {
            return self.flush_part(now_ms).map(Some);
        }
        Ok(None)
    }

    fn open_segment(&mut self, now_ms: i64) -> &mut Segment {
        let needs_new = self.segments.last().is_none_or(|s| s.complete);
        if needs_new {
            let msn = self.segments.last().map_or(0, |s| s.msn + 1);
            let elapsed_ms = 0;
            self.segments.push(Segment {
                msn,
                parts: Vec::new(),
                complete: false,
                discontinuity: std::mem::take(&mut self.discontinuity_next),
                program_time_ms: now_ms - elapsed_ms,
            });
        }
        self.segments.last_mut().expect("a segment is open")
    }

    fn flush_part(&mut self, now_ms: i64) -> std::io::Result<Progress> {
        if self.pending.is_empty() {
            let last = self
                .segments
                .last()
                .map_or((0, 0), |s| (s.msn, s.parts.len() as u32));
            return Ok(Progress::Part {
                msn: last.0,
                part: last.1.saturating_sub(1),
            });
        }
        let frames = std::mem::take(&mut self.pending);
        let samples: Vec<&[u8]> = frames.iter().map(Vec::as_slice).collect();
        let bytes = bytes::Bytes::from(fmp4::fragment(
            self.fragment_seq,
            self.next_time,
            &samples,
            SAMPLES_PER_FRAME,
        ));
        self.fragment_seq += 1;
        let sample_count = frames.len() as u64 * u64::from(SAMPLES_PER_FRAME);
        let duration = sample_count as f64 / f64::from(self.config.sample_rate());
        self.next_time += sample_count;
        let parts_per_segment = self.layout.parts_per_segment;
        let dir = self.dir.clone();
        let segment = self.open_segment(now_ms);
        let part = segment.parts.len() as u32;
        let name = part_file(segment.msn, part);
        write_file(&dir.join(&name), &bytes)?;
        segment.parts.push(Part {
            duration,
            size: bytes.len(),
        });
        append_line(
            &dir.join(LOG_FILE),
            &format!(
                "{} {part} {sample_count} {} {} {}",
                segment.msn,
                bytes.len(),
                u8::from(segment.discontinuity),
                segment.program_time_ms
            ),
        )?;
        let msn = segment.msn;
        let full = segment.parts.len() as u32 >= parts_per_segment;
        self.open_parts.push((name, bytes.clone()));
        self.fresh.push((MediaFile::Part(msn, part), bytes));
        if full {
            self.close_segment();
        }
        Ok(Progress::Part { msn, part })
    }

    /// A segment is its parts concatenated; write it as one file too.
    fn close_segment(&mut self) {
        let Some(segment) = self
            .segments
            .last_mut()
            .filter(|s| !s.complete && !s.parts.is_empty())
        else {
            return;
        };
        let mut joined = Vec::new();
        for part in 0..segment.parts.len() as u32 {
            let name = part_file(segment.msn, part);
            match self.open_parts.iter().find(|(n, _)| *n == name) {
                Some((_, bytes)) => joined.extend_from_slice(bytes),
                None => {
                    if let Ok(bytes) = std::fs::read(self.dir.join(name)) {
                        joined.extend(bytes);
                    }
                }
            }
        }
        self.open_parts.clear();
        let file = MediaFile::Segment(segment.msn);
        if write_file(&self.dir.join(file.file_name()), &joined).is_ok() {
            segment.complete = true;
            self.fresh.push((file, joined.into()));
        }
    }

    /// The show ended: the last partial part and segment are closed.
    pub fn end(&mut self, now_ms: i64) -> std::io::Result<()> {
        self.flush_part(now_ms)?;
        self.close_segment();
        self.ended = true;
        append_line(&self.dir.join(LOG_FILE), "end")
    }
}

pub(crate) fn append_line(path: &Path, line: &str) -> std::io::Result<()> {
    use std::io::Write;
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)?;
    writeln!(file, "{line}")
}

pub(crate) fn write_file(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let partial = path.with_extension("partial");
    std::fs::write(&partial, bytes)?;
    std::fs::rename(&partial, path)
}
