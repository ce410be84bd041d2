//! One rendition's timeline on disk, whatever its codec: parts written as they are cut,
//! a segment written as its parts joined once it has them all, and `parts.log` (one line
//! per part) from which a restarted server rebuilds the timeline. The segmenters
//! (`segmenter` for AAC, `lossless` for FLAC) cut the frames into parts and build their
//! fragments; this writes them.
//!
//! Files: `init.mp4`, `stream.conf` (the codec's configuration, as the segmenter words
//! it), `parts.log` and `seg{msn}.m4s`, `seg{msn}.{part}.m4s`.

use std::path::{Path, PathBuf};

use bytes::Bytes;

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

/// How a rendition's `parts.log` lines read: the lossless one adds, after a part's
/// samples, the ladder steps it covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Log {
    Samples,
    SamplesAndSteps,
}

/// The parts and segments of one rendition, in memory and on disk.
pub struct Track {
    dir: PathBuf,
    /// Samples per second: a part's duration from its sample count.
    rate: u32,
    parts_per_segment: u32,
    log: Log,
    segments: Vec<Segment>,
    /// Decode time of the next part, in samples.
    next_time: u64,
    fragment_seq: u32,
    discontinuity_next: bool,
    ended: bool,
    /// Files written since the caller last took them, for its in-memory cache.
    fresh: Vec<(MediaFile, Bytes)>,
    /// The parts of the segment being written (joined into it when it closes).
    open_parts: Vec<(String, Bytes)>,
}

impl Track {
    /// Start a rendition in `dir` (created if needed): `init.mp4` and `stream.conf`
    /// written, any earlier `parts.log` gone.
    pub fn create(
        dir: &Path,
        rate: u32,
        parts_per_segment: u32,
        log: Log,
        init: Vec<u8>,
        conf: &str,
    ) -> std::io::Result<Self> {
        std::fs::create_dir_all(dir)?;
        let init = Bytes::from(init);
        write_file(&dir.join(MediaFile::Init.file_name()), &init)?;
        write_file(&dir.join(STREAM_FILE), format!("{conf}\n").as_bytes())?;
        let _ = std::fs::remove_file(dir.join(LOG_FILE));
        let mut this = Self::empty(dir, rate, parts_per_segment, log);
        this.fresh.push((MediaFile::Init, init));
        Ok(this)
    }

    fn empty(dir: &Path, rate: u32, parts_per_segment: u32, log: Log) -> Self {
        Self {
            dir: dir.to_owned(),
            rate,
            parts_per_segment,
            log,
            segments: Vec::new(),
            next_time: 0,
            fragment_seq: 1,
            discontinuity_next: false,
            ended: false,
            fresh: Vec::new(),
            open_parts: Vec::new(),
        }
    }

    /// The `stream.conf` of a rendition recorded in `dir`, if there is one.
    pub fn conf(dir: &Path) -> Option<String> {
        std::fs::read_to_string(dir.join(STREAM_FILE)).ok()
    }

    /// Rebuild a rendition from its `parts.log` (its `stream.conf` read by the caller),
    /// with the ladder steps its parts cover (0 with [`Log::Samples`]). A part whose file
    /// is missing (a crash mid-write) ends the recovered timeline.
    pub fn recover(dir: &Path, rate: u32, parts_per_segment: u32, log: Log) -> (Self, u64) {
        let mut this = Self::empty(dir, rate, parts_per_segment, log);
        let mut steps_taken = 0;
        let with_steps = usize::from(log == Log::SamplesAndSteps);
        let text = std::fs::read_to_string(dir.join(LOG_FILE)).unwrap_or_default();
        for line in text.lines() {
            let f: Vec<&str> = line.split_whitespace().collect();
            if f.first() == Some(&"end") {
                this.ended = true;
                continue;
            }
            let steps = match log {
                Log::Samples => Some(0),
                Log::SamplesAndSteps => f.get(3).and_then(|v| v.parse::<u64>().ok()),
            };
            let (
                Some(msn),
                Some(part),
                Some(samples),
                Some(steps),
                Some(size),
                Some(disc),
                Some(time),
            ) = (
                f.first().and_then(|v| v.parse::<u64>().ok()),
                f.get(1).and_then(|v| v.parse::<u32>().ok()),
                f.get(2).and_then(|v| v.parse::<u64>().ok()),
                steps,
                f.get(3 + with_steps).and_then(|v| v.parse::<usize>().ok()),
                f.get(4 + with_steps).map(|v| *v == "1"),
                f.get(5 + with_steps).and_then(|v| v.parse::<i64>().ok()),
            )
            else {
                break;
            };
            if !dir.join(part_file(msn, part)).exists() {
                break;
            }
            if this.segments.last().is_none_or(|s| s.msn != msn) {
                this.mark_last_complete();
                this.segments.push(Segment {
                    msn,
                    parts: Vec::new(),
                    complete: false,
                    discontinuity: disc,
                    program_time_ms: time,
                });
            }
            let duration = samples as f64 / f64::from(rate);
            if let Some(segment) = this.segments.last_mut() {
                segment.parts.push(Part { duration, size });
            }
            this.next_time += samples;
            steps_taken += steps;
            this.fragment_seq += 1;
        }
        this.mark_last_complete();
        // A segment whose parts are all there but not its own file (a crash between the
        // two) is closed now: it takes no more parts.
        if (this.segments.last()).is_some_and(|s| s.parts.len() as u32 >= parts_per_segment) {
            this.close_segment();
        }
        (this, steps_taken)
    }

    /// The last recovered segment is complete when its own file is there.
    fn mark_last_complete(&mut self) {
        if let Some(last) = self.segments.last_mut() {
            last.complete = (self.dir)
                .join(MediaFile::Segment(last.msn).file_name())
                .exists();
        }
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
    /// Samples written so far: the next part's decode time.
    pub fn next_time(&self) -> u64 {
        self.next_time
    }

    /// The files written since the last call, with their bytes.
    pub fn take_fresh(&mut self) -> Vec<(MediaFile, Bytes)> {
        std::mem::take(&mut self.fresh)
    }

    /// The last part written (part 0 of segment 0 before any).
    pub fn last_part(&self) -> Progress {
        let (msn, parts) = (self.segments.last()).map_or((0, 0), |s| (s.msn, s.parts.len() as u32));
        Progress::Part {
            msn,
            part: parts.saturating_sub(1),
        }
    }

    /// Write the next part: `fragment` builds its bytes from its sequence number and
    /// decode time; it lasts `samples` and covers `steps` ladder steps (logged with
    /// [`Log::SamplesAndSteps`]). It opens a segment when none is, and closes it when
    /// full.
    pub fn write_part(
        &mut self,
        samples: u64,
        steps: u32,
        now_ms: i64,
        fragment: impl FnOnce(u32, u64) -> Vec<u8>,
    ) -> std::io::Result<Progress> {
        let bytes = Bytes::from(fragment(self.fragment_seq, self.next_time));
        self.fragment_seq += 1;
        let duration = samples as f64 / f64::from(self.rate);
        self.next_time += samples;
        if self.segments.last().is_none_or(|s| s.complete) {
            let msn = self.segments.last().map_or(0, |s| s.msn + 1);
            self.segments.push(Segment {
                msn,
                parts: Vec::new(),
                complete: false,
                discontinuity: std::mem::take(&mut self.discontinuity_next),
                program_time_ms: now_ms,
            });
        }
        let segment = self.segments.last_mut().expect("a segment is open");
        let part = segment.parts.len() as u32;
        let name = part_file(segment.msn, part);
        write_file(&self.dir.join(&name), &bytes)?;
        segment.parts.push(Part {
            duration,
            size: bytes.len(),
        });
        let steps = match self.log {
            Log::Samples => String::new(),
            Log::SamplesAndSteps => format!(" {steps}"),
        };
        append_line(
            &self.dir.join(LOG_FILE),
            &format!(
                "{} {part} {samples}{steps} {} {} {}",
                segment.msn,
                bytes.len(),
                u8::from(segment.discontinuity),
                segment.program_time_ms
            ),
        )?;
        let msn = segment.msn;
        let full = segment.parts.len() as u32 >= self.parts_per_segment;
        self.open_parts.push((name, bytes.clone()));
        self.fresh.push((MediaFile::Part(msn, part), bytes));
        if full {
            self.close_segment();
        }
        Ok(Progress::Part { msn, part })
    }

    /// A segment is its parts concatenated; write it as one file too.
    pub fn close_segment(&mut self) {
        let Some(segment) =
            (self.segments.last_mut()).filter(|s| !s.complete && !s.parts.is_empty())
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

    /// The publisher reconnected (the caller wrote its last part): the open segment
    /// closes and the next one starts with a discontinuity; the timeline continues.
    pub fn discontinue(&mut self) {
        self.close_segment();
        self.discontinuity_next = true;
    }

    /// The show ended (the caller wrote its last part): the open segment closes, and
    /// `parts.log` says so.
    pub fn end(&mut self) -> std::io::Result<()> {
        self.close_segment();
        self.ended = true;
        append_line(&self.dir.join(LOG_FILE), "end")
    }
}

fn append_line(path: &Path, line: &str) -> std::io::Result<()> {
    use std::io::Write;
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)?;
    writeln!(file, "{line}")
}

/// Written beside and renamed into place, so a reader never sees half a file.
pub(crate) fn write_file(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let partial = path.with_extension("partial");
    std::fs::write(&partial, bytes)?;
    std::fs::rename(&partial, path)
}
