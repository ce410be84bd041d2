//! The lossless rendition's segmenter (issue 32): a lossless publisher's FLAC frames in,
//! as the ladder's steps carry them (`ingest::lossless`: the frames whose first sample
//! lies in step N's 1,024 samples travel with step N), LL-HLS parts and segments of FLAC
//! in fMP4 out. A part is the frames of `frames_per_part` steps, so it has the AAC
//! renditions' number and opens its segment at the same call (the same program date
//! time); its `tfdt` is its first frame's first sample and its duration its frames' (see
//! `flac::Cutter`: the same boundaries when the block size divides the AAC part, else at
//! most one block later). Fed with the AAC segmenters in the same call, with the same
//! clock, it cuts the same segments and parts with the same numbers.
//!
//! On disk like the AAC renditions: `init.mp4` (the `fLaC` sample entry), `stream.conf`
//! (`flac` and the STREAMINFO in hex), one `parts.log` line per part (with the steps it
//! covers, so a restarted server knows where the ladder's timeline stands).

use std::path::Path;

use bytes::Bytes;

use crate::stream::codecs::adts::SAMPLES_PER_FRAME;
use crate::stream::codecs::flac::{Cutter, FlacFrame, StreamInfo};
use crate::stream::codecs::fmp4;
use crate::stream::hls::segmenter::Layout;
use crate::stream::hls::track::{Log, MediaFile, Progress, Segment, Track};

pub struct LosslessSegmenter {
    track: Track,
    info: StreamInfo,
    layout: Layout,
    /// The frames of the part being gathered, and how many steps it has taken.
    pending: Vec<FlacFrame>,
    pending_steps: u32,
    /// Ladder steps written so far.
    steps: u64,
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(text: &str) -> Option<Vec<u8>> {
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(text.get(i..i + 2)?, 16).ok())
        .collect()
}

impl LosslessSegmenter {
    /// Start the lossless rendition in `dir` (created; `init.mp4` written) for a show at
    /// the STREAMINFO's rate.
    pub fn create(dir: &Path, info: StreamInfo) -> std::io::Result<Self> {
        let layout = Layout::for_rate(info.sample_rate());
        let track = Track::create(
            dir,
            info.sample_rate(),
            layout.parts_per_segment,
            Log::SamplesAndSteps,
            fmp4::flac_init_segment(&info),
            &format!("flac {}", hex(&info.raw)),
        )?;
        Ok(Self::with(track, info, layout, 0))
    }

    fn with(track: Track, info: StreamInfo, layout: Layout, steps: u64) -> Self {
        Self {
            track,
            info,
            layout,
            pending: Vec::new(),
            pending_steps: 0,
            steps,
        }
    }

    /// Rebuild the rendition from its directory after a restart (`None` without one). A
    /// part whose file is missing ends the recovered timeline.
    pub fn recover(dir: &Path) -> std::io::Result<Option<Self>> {
        let info = (Track::conf(dir))
            .and_then(|conf| unhex(conf.trim().strip_prefix("flac ")?))
            .and_then(|raw| StreamInfo::parse(&raw));
        let Some(info) = info else {
            return Ok(None);
        };
        let layout = Layout::for_rate(info.sample_rate());
        let (track, steps) = Track::recover(
            dir,
            info.sample_rate(),
            layout.parts_per_segment,
            Log::SamplesAndSteps,
        );
        Ok(Some(Self::with(track, info, layout, steps)))
    }

    pub fn info(&self) -> &StreamInfo {
        &self.info
    }
    pub fn segments(&self) -> &[Segment] {
        self.track.segments()
    }
    pub fn ended(&self) -> bool {
        self.track.ended()
    }
    /// Ladder steps taken so far (written or pending): the AAC renditions' `frames()`.
    pub fn frames(&self) -> u64 {
        self.steps + u64::from(self.pending_steps)
    }

    /// Seconds of the longest part (the playlist's PART-TARGET): the AAC part when the
    /// stream's one block size divides it, else one block less a sample more.
    pub fn part_target(&self) -> f64 {
        let part = self.layout.frames_per_part * SAMPLES_PER_FRAME;
        Cutter::new(part).longest_part(&self.info) as f64 / f64::from(self.info.sample_rate())
    }

    pub fn take_fresh(&mut self) -> Vec<(MediaFile, Bytes)> {
        self.track.take_fresh()
    }

    /// The FLAC frames of one ladder step (none, one or more). Answers the part written
    /// when this step completed one.
    pub fn push(
        &mut self,
        frames: Vec<FlacFrame>,
        now_ms: i64,
    ) -> std::io::Result<Option<Progress>> {
        if self.track.ended() {
            return Ok(None);
        }
        self.pending.extend(frames);
        self.pending_steps += 1;
        if self.pending_steps >= self.layout.frames_per_part {
            return self.flush_part(now_ms);
        }
        Ok(None)
    }

    /// The publisher reconnected: the next segment starts with a discontinuity.
    pub fn mark_discontinuity(&mut self, now_ms: i64) -> std::io::Result<()> {
        self.flush_part(now_ms)?;
        self.track.discontinue();
        Ok(())
    }

    /// The show ended: the last part and segment are closed.
    pub fn end(&mut self, now_ms: i64) -> std::io::Result<()> {
        self.flush_part(now_ms)?;
        self.track.end()
    }

    fn flush_part(&mut self, now_ms: i64) -> std::io::Result<Option<Progress>> {
        let steps = std::mem::take(&mut self.pending_steps);
        let frames = std::mem::take(&mut self.pending);
        if steps == 0 {
            return Ok(None);
        }
        self.steps += u64::from(steps);
        if frames.is_empty() {
            // Steps with no frame starting in them (a block longer than a part, which the
            // ingest refuses): they count, nothing is written.
            return Ok(None);
        }
        let samples: Vec<(&[u8], u32)> = frames.iter().map(|f| (&f.data[..], f.samples)).collect();
        let sample_count: u64 = frames.iter().map(|f| u64::from(f.samples)).sum();
        (self.track)
            .write_part(sample_count, steps, now_ms, |seq, time| {
                fmp4::timed_fragment(seq, time, &samples)
            })
            .map(Some)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stream::codecs::flac::OggFlac;
    use crate::stream::codecs::transcode::tests::ffmpeg;
    use crate::stream::hls::segmenter::Segmenter;
    use crate::stream::test_media::pcm;
    use sha2::{Digest, Sha256};

    fn layout(segments: &[Segment]) -> Vec<(u64, bool, i64, usize)> {
        (segments.iter())
            .map(|s| (s.msn, s.discontinuity, s.program_time_ms, s.parts.len()))
            .collect()
    }

    /// Fed step by step beside an AAC segmenter (as the show feeds its renditions), the
    /// lossless rendition has the same segments, parts, discontinuities and program date
    /// times; every part is within its PART-TARGET; its segments decode bit-exact to the
    /// publisher's PCM; and a restart finds it where it stopped.
    #[test]
    fn the_lossless_rendition_is_cut_like_the_aac_ones_and_decodes_bit_exact() {
        for frame_size in ["4096", "4608"] {
            let source = "aevalsrc=exprs='0.3*sin(2*PI*440*t)+0.05*(2*random(0)-1)':s=48000:d=5";
            let ogg = ffmpeg(
                source,
                &[
                    "-ac",
                    "2",
                    "-c:a",
                    "flac",
                    "-frame_size",
                    frame_size,
                    "-f",
                    "ogg",
                ],
                "ogg",
            );
            let mut demux = OggFlac::new();
            let frames = demux.push(&ogg).frames;
            let info = *demux.info().unwrap();
            let show = tempfile::tempdir().unwrap();
            let aac_config = crate::stream::codecs::adts::AacConfig {
                object_type: 2,
                sample_rate_index: 3,
                channels: 2,
            };
            let mut aac = Segmenter::create(&show.path().join("aac"), aac_config).unwrap();
            let dir = show.path().join("lossless");
            let mut flac = LosslessSegmenter::create(&dir, info).unwrap();
            // Pair the frames with 1024-sample steps by their first sample.
            let total: u64 = frames.iter().map(|f| u64::from(f.samples)).sum();
            let steps = total / 1024;
            let (mut queue, mut at) = (frames.into_iter().peekable(), 0u64);
            let mut now = 1_800_000_000_000;
            for step in 0..steps {
                if step == 130 {
                    aac.mark_discontinuity(now).unwrap();
                    flac.mark_discontinuity(now).unwrap();
                }
                let mut taken = Vec::new();
                while queue.peek().is_some() && at < (step + 1) * 1024 {
                    let frame = queue.next().unwrap();
                    at += u64::from(frame.samples);
                    taken.push(frame);
                }
                let frame = crate::stream::codecs::adts::AacFrame {
                    config: aac_config,
                    payload: vec![0; 8],
                };
                let a = aac.push(frame, now).unwrap();
                let f = flac.push(taken, now).unwrap();
                assert_eq!(a, f, "{frame_size}: step {step}");
                now += 21;
            }
            aac.end(now).unwrap();
            flac.end(now).unwrap();
            assert_eq!(
                layout(flac.segments()),
                layout(aac.segments()),
                "{frame_size}"
            );
            assert_eq!(flac.frames(), aac.frames());
            let target = flac.part_target();
            let expected_target = if frame_size == "4096" {
                0.256
            } else {
                16_895.0 / 48_000.0
            };
            assert!((target - expected_target).abs() < 1e-9, "{target}");
            assert!(
                (flac.segments().iter().flat_map(|s| &s.parts))
                    .all(|p| p.duration <= target + 1e-9)
            );
            // init + every segment decodes to exactly the PCM of the frames written.
            let mut joined = std::fs::read(dir.join("init.mp4")).unwrap();
            for segment in flac.segments() {
                assert!(segment.complete);
                joined.extend(std::fs::read(dir.join(format!("seg{}.m4s", segment.msn))).unwrap());
            }
            let written: u64 = (flac.segments().iter().flat_map(|s| &s.parts))
                .map(|p| (p.duration * 48_000.0).round() as u64)
                .sum();
            let (source, whole) = (
                show.path().join("source.ogg"),
                show.path().join("whole.mp4"),
            );
            std::fs::write(&source, &ogg).unwrap();
            std::fs::write(&whole, &joined).unwrap();
            let (expected, ours) = (pcm(&source, "s16le"), pcm(&whole, "s16le"));
            assert_eq!(ours.len() as u64, written * 4, "{frame_size}");
            assert_eq!(
                Sha256::digest(&ours),
                Sha256::digest(&expected[..ours.len()]),
                "{frame_size}: bit-exact"
            );
            let recovered = LosslessSegmenter::recover(&dir).unwrap().unwrap();
            assert_eq!(layout(recovered.segments()), layout(flac.segments()));
            assert_eq!(recovered.frames(), flac.frames());
            assert!(recovered.ended());
            assert_eq!(recovered.info(), &info);
        }
    }
}
