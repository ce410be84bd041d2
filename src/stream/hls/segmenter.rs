//! The segmenter: AAC frames in, LL-HLS parts and segments out. A part is a fixed number
//! of frames (≈ 250 ms); a segment is a fixed number of parts (≈ 1 s). Decode times are
//! counted in samples, so the timeline never drifts and a reconnecting publisher
//! continues it without a gap. Every finished part is written to disk at once, so the
//! recording survives a restart.

use std::path::Path;

use crate::stream::codecs::adts::{AacConfig, AacFrame, SAMPLES_PER_FRAME};
use crate::stream::codecs::fmp4;
use crate::stream::hls::track::{Log, MediaFile, Progress, Segment, Track};

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

pub struct Segmenter {
    track: Track,
    config: AacConfig,
    layout: Layout,
    pending: Vec<Vec<u8>>,
    /// Rebuilt from disk after a restart, and nothing taken since: see
    /// [`Segmenter::resume_after_restart`] and [`Segmenter::continue_after_restart`].
    restarted: bool,
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
        let layout = Layout::for_rate(config.sample_rate());
        let c = config;
        let track = Track::create(
            dir,
            config.sample_rate(),
            layout.parts_per_segment,
            Log::Samples,
            fmp4::init_segment(&config),
            &format!("{} {} {}", c.object_type, c.sample_rate_index, c.channels),
        )?;
        Ok(Self::with(track, config, layout))
    }

    fn with(track: Track, config: AacConfig, layout: Layout) -> Self {
        Self {
            track,
            config,
            layout,
            pending: Vec::new(),
            restarted: false,
        }
    }

    /// Rebuild a show from its directory: `stream.conf` plus `parts.log`. A part whose
    /// file is missing (a crash mid-write) ends the recovered timeline.
    pub fn recover(dir: &Path) -> std::io::Result<Option<Self>> {
        let Some(conf) = Track::conf(dir) else {
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
        let layout = Layout::for_rate(config.sample_rate());
        let (track, _) = Track::recover(
            dir,
            config.sample_rate(),
            layout.parts_per_segment,
            Log::Samples,
        );
        let mut this = Self::with(track, config, layout);
        // The segment being written stays open until the caller knows what comes next
        // (`resume_after_restart` or `continue_after_restart`).
        this.restarted = !this.track.segments().is_empty() && !this.track.ended();
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
        self.track.segments()
    }
    pub fn ended(&self) -> bool {
        self.track.ended()
    }
    pub fn dir(&self) -> &Path {
        self.track.dir()
    }

    /// The files written since the last call, with their bytes.
    pub fn take_fresh(&mut self) -> Vec<(MediaFile, bytes::Bytes)> {
        self.track.take_fresh()
    }

    /// Seconds of one full part (the playlist's PART-TARGET).
    pub fn part_target(&self) -> f64 {
        f64::from(self.layout.frames_per_part * SAMPLES_PER_FRAME)
            / f64::from(self.config.sample_rate())
    }

    /// Seconds recorded so far.
    pub fn recorded_seconds(&self) -> f64 {
        self.track.next_time() as f64 / f64::from(self.config.sample_rate())
            + self.pending.len() as f64 * f64::from(SAMPLES_PER_FRAME)
                / f64::from(self.config.sample_rate())
    }

    /// Frames taken so far (written or pending): where the next frame goes.
    pub fn frames(&self) -> u64 {
        self.track.next_time() / u64::from(SAMPLES_PER_FRAME) + self.pending.len() as u64
    }

    /// The publisher reconnected (at `now_ms`): the next segment starts with a
    /// discontinuity; the timeline itself continues.
    pub fn mark_discontinuity(&mut self, now_ms: i64) -> std::io::Result<()> {
        self.restarted = false;
        self.flush_part(now_ms)?;
        self.track.discontinue();
        Ok(())
    }

    /// Add frames; frames whose configuration differs from the show's are refused
    /// (false), as a player cannot switch codecs mid-stream.
    pub fn push(&mut self, frame: AacFrame, now_ms: i64) -> std::io::Result<Option<Progress>> {
        if self.track.ended() || frame.config != self.config {
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

    fn flush_part(&mut self, now_ms: i64) -> std::io::Result<Progress> {
        if self.pending.is_empty() {
            return Ok(self.track.last_part());
        }
        let frames = std::mem::take(&mut self.pending);
        let samples: Vec<&[u8]> = frames.iter().map(Vec::as_slice).collect();
        let sample_count = frames.len() as u64 * u64::from(SAMPLES_PER_FRAME);
        self.track.write_part(sample_count, 0, now_ms, |seq, time| {
            fmp4::fragment(seq, time, &samples, SAMPLES_PER_FRAME)
        })
    }

    /// The show ended: the last partial part and segment are closed.
    pub fn end(&mut self, now_ms: i64) -> std::io::Result<()> {
        self.flush_part(now_ms)?;
        self.track.end()
    }
}
