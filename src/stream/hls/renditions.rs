//! A segmenter per rendition (issue 32): every rendition of a show's ladder cut into
//! parts and segments by its own [`Segmenter`], all of them fed frame N of their
//! rendition in the same call with the same clock, so that a part or segment has the
//! same number, duration and program date time in every rendition and a player switches
//! between them at any part without a gap.
//!
//! The standard rendition records in the show's own folder (where recordings, restarts
//! and today's media playlist find it); every other one in a folder of its own name
//! inside it. A show's renditions are those of its first frame: a rendition that was not
//! there from the start cannot be cut at the same numbers, so a later publisher's extra
//! rendition is dropped, and one its ladder lacks is given the standard rendition's frame
//! (the same samples at the standard quality) while it publishes.

use std::path::{Path, PathBuf};

use bytes::Bytes;

use crate::stream::codecs::adts::AacFrame;
use crate::stream::codecs::flac::{FlacFrame, StreamInfo};
use crate::stream::codecs::ladder::Rendition;
use crate::stream::hls::lossless::LosslessSegmenter;
use crate::stream::hls::segmenter::Segmenter;
use crate::stream::hls::track::{MediaFile, Progress};

/// The lossless rendition's folder inside the show's, and its name in paths.
pub const LOSSLESS_DIR: &str = "lossless";

/// A rendition as listeners are served it: one of the AAC ladder's, or the lossless one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Lane {
    Aac(Rendition),
    Lossless,
}

impl From<Rendition> for Lane {
    fn from(rendition: Rendition) -> Self {
        Self::Aac(rendition)
    }
}

impl Lane {
    /// Every lane, the lossless one last: an index for tables of one entry per lane.
    pub const COUNT: usize = Rendition::ALL.len() + 1;

    pub const fn slot(self) -> usize {
        match self {
            Self::Aac(rendition) => rendition.slot(),
            Self::Lossless => Rendition::ALL.len(),
        }
    }

    /// Its folder in paths (`/stream/{token}/{name}/`).
    pub fn name(self) -> &'static str {
        match self {
            Self::Aac(rendition) => rendition.name(),
            Self::Lossless => LOSSLESS_DIR,
        }
    }

    /// The lane [`Lane::name`] names.
    pub fn named(name: &str) -> Option<Self> {
        match name {
            LOSSLESS_DIR => Some(Self::Lossless),
            other => Rendition::named(other).map(Self::Aac),
        }
    }

    /// Where it records in the show in `show_dir`.
    pub fn dir(self, show_dir: &Path) -> PathBuf {
        match self {
            Self::Aac(rendition) => dir_of(show_dir, rendition),
            Self::Lossless => show_dir.join(LOSSLESS_DIR),
        }
    }
}

/// Where a rendition of the show in `show_dir` records.
pub fn dir_of(show_dir: &Path, rendition: Rendition) -> PathBuf {
    match rendition {
        Rendition::Standard => show_dir.to_owned(),
        other => show_dir.join(other.name()),
    }
}

/// A lossless publisher's part of a step: its STREAMINFO and the FLAC frames that travel
/// with the step (`ingest::lossless::Tap::take`: none, one or more).
#[derive(Debug)]
pub struct Flac<'a> {
    pub info: &'a StreamInfo,
    pub frames: Vec<FlacFrame>,
}

/// What a step does to the show's lossless lane.
#[derive(Debug)]
enum LosslessStep {
    /// The show has none, or it ended.
    Nothing,
    /// A new show from a lossless publisher: the lane starts with the step.
    Start(StreamInfo, Vec<FlacFrame>),
    /// The lane under way takes the step's FLAC (its STREAMINFO is the publisher's, of
    /// the lane's format).
    Push(StreamInfo, Vec<FlacFrame>),
    /// A publisher of a show with a lossless lane sends no FLAC of its format: the lane
    /// ends here (its playlist gets ENDLIST) and takes nothing more, as its parts could
    /// not go on with the AAC renditions' numbers without frames.
    End,
}

/// One frame of every rendition of a show, as [`Renditions::fit`] made it: in
/// [`Rendition::ALL`]'s order, the standard rendition's always there, each in its
/// segmenter's format; and the lossless lane's share of the step.
#[derive(Debug)]
pub struct Fitted(Vec<(Rendition, AacFrame)>, LosslessStep);

impl Fitted {
    pub fn frames(&self) -> &[(Rendition, AacFrame)] {
        &self.0
    }

    /// The payload bytes of every rendition's frame (the FLAC frames too): what they add
    /// to the show's folder.
    pub fn bytes(&self) -> u64 {
        let flac = match &self.1 {
            LosslessStep::Start(_, frames) | LosslessStep::Push(_, frames) => {
                frames.iter().map(|f| f.data.len() as u64).sum()
            }
            LosslessStep::Nothing | LosslessStep::End => 0,
        };
        self.0
            .iter()
            .map(|(_, f)| f.payload.len() as u64)
            .sum::<u64>()
            + flac
    }

    /// The FLAC the lossless lane takes with the step, and its STREAMINFO: what the
    /// journal carries, so that `fit` on another instance, given the same, does the same
    /// to its lane. `None` when the lane takes nothing: the show has none, or it ends here
    /// (given none, `fit` ends a lane under way).
    pub fn flac(&self) -> Option<(&StreamInfo, &[FlacFrame])> {
        match &self.1 {
            LosslessStep::Start(info, frames) | LosslessStep::Push(info, frames) => {
                Some((info, frames))
            }
            LosslessStep::Nothing | LosslessStep::End => None,
        }
    }

    /// The standard rendition's frame.
    pub fn standard(&self) -> &AacFrame {
        (self.0.iter())
            .find(|(r, _)| *r == Rendition::Standard)
            .map(|(_, f)| f)
            .expect("fitted frames hold the standard rendition's")
    }
}

pub struct Renditions {
    show_dir: PathBuf,
    /// By [`Rendition::slot`]: a segmenter per rendition the show has, each from the
    /// show's first frame on.
    lanes: [Option<Segmenter>; Rendition::ALL.len()],
    /// The lossless rendition (FLAC in fMP4), from the show's first frame on when its
    /// first publisher sent Ogg FLAC the show could take (`ingest::lossless`).
    lossless: Option<LosslessSegmenter>,
}

/// Whether a later publisher's FLAC can go on in a lane started with `lane`'s: the same
/// init segment describes it, and its parts stay within the playlist's PART-TARGET.
fn same_format(lane: &StreamInfo, theirs: &StreamInfo) -> bool {
    lane.sample_rate() == theirs.sample_rate()
        && lane.channels() == theirs.channels()
        && lane.bits_per_sample() == theirs.bits_per_sample()
        && lane.min_block() == theirs.min_block()
        && lane.max_block() == theirs.max_block()
}

impl Renditions {
    /// A show with nothing recorded yet in `show_dir`.
    pub fn new(show_dir: &Path) -> Self {
        Self {
            show_dir: show_dir.to_owned(),
            lanes: Default::default(),
            lossless: None,
        }
    }

    /// The show recorded in `show_dir` after a restart (see [`Segmenter::recover`]), one
    /// rendition per folder. A rendition whose frames do not end where the standard's do
    /// (the instance died between writing their parts) could not be cut at the same
    /// numbers any more: it is left out, the show keeps the others.
    pub fn recover(show_dir: &Path) -> std::io::Result<Self> {
        let mut this = Self::new(show_dir);
        let Some(standard) = Segmenter::recover(show_dir)? else {
            return Ok(this);
        };
        for rendition in Rendition::ALL {
            if rendition == Rendition::Standard {
                continue;
            }
            match Segmenter::recover(&dir_of(show_dir, rendition)) {
                Ok(Some(other))
                    if other.frames() == standard.frames() && other.ended() == standard.ended() =>
                {
                    this.lanes[rendition.slot()] = Some(other);
                }
                Ok(Some(_)) => {
                    tracing::warn!(dir = %show_dir.display(), rendition = rendition.name(),
                        "a recovered rendition is out of step with the standard one: left out");
                }
                Ok(None) => {}
                Err(err) => {
                    tracing::warn!(dir = %show_dir.display(), rendition = rendition.name(), error = %err,
                        "recovering a rendition failed: left out");
                }
            }
        }
        // The lossless lane: with the standard's frames, or ended before them (a later
        // publisher sent no FLAC of its format).
        match LosslessSegmenter::recover(&show_dir.join(LOSSLESS_DIR)) {
            Ok(Some(lossless)) if lossless.ended() || lossless.frames() == standard.frames() => {
                this.lossless = Some(lossless);
            }
            Ok(Some(_)) => {
                tracing::warn!(dir = %show_dir.display(),
                    "the recovered lossless rendition is out of step with the standard one: left out");
            }
            Ok(None) => {}
            Err(err) => {
                tracing::warn!(dir = %show_dir.display(), error = %err,
                    "recovering the lossless rendition failed: left out");
            }
        }
        this.lanes[Rendition::Standard.slot()] = Some(standard);
        Ok(this)
    }

    /// One frame of each of a publisher's renditions (the standard one among them), as
    /// this show takes them: every rendition of a new show; for a show under way, its own
    /// renditions only, one the publisher lacks given the standard frame. `None` when the
    /// show takes none of them (it ended, or the standard frame's format is not the
    /// show's): a step is taken whole or not at all, so that the renditions stay aligned.
    /// The lossless lane is the first publisher's too: a new show from a lossless
    /// publisher (`flac`) gets one; a show with one takes a later publisher's FLAC of the
    /// same format, and ends the lane at the first step without it.
    pub fn fit(
        &self,
        frames: Vec<(Rendition, AacFrame)>,
        flac: Option<Flac<'_>>,
    ) -> Option<Fitted> {
        let mut by_slot: [Option<AacFrame>; Rendition::ALL.len()] = Default::default();
        for (rendition, frame) in frames {
            by_slot[rendition.slot()] = Some(frame);
        }
        let standard = Rendition::Standard.slot();
        let config = by_slot[standard].as_ref()?.config;
        let lossless = match (self.standard(), &self.lossless, flac) {
            (None, _, Some(flac)) => LosslessStep::Start(*flac.info, flac.frames),
            (Some(_), Some(lane), Some(flac))
                if !lane.ended() && same_format(lane.info(), flac.info) =>
            {
                LosslessStep::Push(*flac.info, flac.frames)
            }
            (Some(_), Some(lane), _) if !lane.ended() => LosslessStep::End,
            _ => LosslessStep::Nothing,
        };
        let fitted = match self.standard() {
            None => (Rendition::ALL.into_iter())
                .filter_map(|r| Some((r, by_slot[r.slot()].take()?)))
                .collect(),
            Some(show) if show.ended() || config != *show.config() => return None,
            Some(_) => {
                let mut fitted = Vec::with_capacity(by_slot.len());
                for (rendition, segmenter) in self.iter() {
                    let slot = rendition.slot();
                    let theirs = by_slot[slot].as_ref();
                    if theirs.is_none_or(|f| f.config != *segmenter.config()) {
                        by_slot[slot] = by_slot[standard].clone();
                    }
                    let frame = by_slot[slot].take()?;
                    if frame.config != *segmenter.config() {
                        return None;
                    }
                    fitted.push((rendition, frame));
                }
                fitted
            }
        };
        Some(Fitted(fitted, lossless))
    }

    /// Take one step of every rendition (see [`Renditions::fit`]). Answers the part
    /// written, if one was; it is the same part in every rendition.
    pub fn push(&mut self, step: Fitted, now_ms: i64) -> std::io::Result<Option<Progress>> {
        let mut standard = None;
        for (rendition, frame) in step.0 {
            let segmenter = match &mut self.lanes[rendition.slot()] {
                Some(segmenter) => segmenter,
                empty => empty.insert(Segmenter::create(
                    &dir_of(&self.show_dir, rendition),
                    frame.config,
                )?),
            };
            let written = segmenter.push(frame, now_ms)?;
            if rendition == Rendition::Standard {
                standard = written;
            }
        }
        // After the AAC lanes, with the same clock: a part here is the same part.
        match step.1 {
            LosslessStep::Nothing => {}
            LosslessStep::Start(info, frames) => {
                let dir = self.show_dir.join(LOSSLESS_DIR);
                let lane = self.lossless.insert(LosslessSegmenter::create(&dir, info)?);
                lane.push(frames, now_ms)?;
            }
            LosslessStep::Push(_, frames) => {
                if let Some(lane) = &mut self.lossless {
                    lane.push(frames, now_ms)?;
                }
            }
            LosslessStep::End => {
                if let Some(lane) = &mut self.lossless {
                    lane.end(now_ms)?;
                }
            }
        }
        Ok(standard)
    }

    /// A reconnected publisher: the next segment of every rendition starts with a
    /// discontinuity.
    pub fn mark_discontinuity(&mut self, now_ms: i64) -> std::io::Result<()> {
        self.each_mut(|s| s.mark_discontinuity(now_ms))?;
        match &mut self.lossless {
            Some(lane) if !lane.ended() => lane.mark_discontinuity(now_ms),
            _ => Ok(()),
        }
    }

    /// The show ended: every rendition's last part is written and its playlist ends.
    pub fn end(&mut self, now_ms: i64) -> std::io::Result<()> {
        self.each_mut(|s| s.end(now_ms))?;
        match &mut self.lossless {
            Some(lane) if !lane.ended() => lane.end(now_ms),
            _ => Ok(()),
        }
    }

    /// After a restart, with no copy to continue from: see
    /// [`Segmenter::resume_after_restart`] (the lossless lane takes the same
    /// discontinuity).
    pub fn resume_after_restart(&mut self, now_ms: i64) -> std::io::Result<()> {
        let mut resumed = false;
        self.each_mut(|s| {
            resumed |= s.resume_after_restart(now_ms)?;
            Ok(())
        })?;
        match &mut self.lossless {
            Some(lane) if resumed && !lane.ended() => lane.mark_discontinuity(now_ms),
            _ => Ok(()),
        }
    }

    /// After a restart, continued seamlessly: see [`Segmenter::continue_after_restart`].
    pub fn continue_after_restart(&mut self) {
        let _ = self.each_mut(|s| {
            s.continue_after_restart();
            Ok(())
        });
    }

    fn each_mut(
        &mut self,
        mut f: impl FnMut(&mut Segmenter) -> std::io::Result<()>,
    ) -> std::io::Result<()> {
        self.lanes.iter_mut().flatten().try_for_each(&mut f)
    }

    /// The lossless rendition's files written since the last call, with their bytes.
    pub fn take_fresh_lossless(&mut self) -> Vec<(MediaFile, Bytes)> {
        self.lossless
            .as_mut()
            .map(LosslessSegmenter::take_fresh)
            .unwrap_or_default()
    }

    /// The lossless rendition (`None` when the show has none).
    pub fn lossless(&self) -> Option<&LosslessSegmenter> {
        self.lossless.as_ref()
    }

    /// The files written since the last call, with their bytes and rendition.
    pub fn take_fresh(&mut self) -> impl Iterator<Item = (Rendition, MediaFile, Bytes)> + '_ {
        (Rendition::ALL.into_iter().zip(self.lanes.iter_mut()))
            .filter_map(|(r, s)| Some((r, s.as_mut()?.take_fresh())))
            .flat_map(|(r, fresh)| fresh.into_iter().map(move |(file, bytes)| (r, file, bytes)))
    }

    /// The standard rendition's segmenter: what today's playlist, recordings and status
    /// read (`None` before the show's first frame).
    pub fn standard(&self) -> Option<&Segmenter> {
        self.get(Rendition::Standard)
    }

    pub fn standard_mut(&mut self) -> Option<&mut Segmenter> {
        self.lanes[Rendition::Standard.slot()].as_mut()
    }

    /// A rendition's segmenter (`None` before the first frame, or not in the show).
    pub fn get(&self, rendition: Rendition) -> Option<&Segmenter> {
        self.lanes[rendition.slot()].as_ref()
    }

    /// The show's renditions and their segmenters, in [`Rendition::ALL`]'s order.
    pub fn iter(&self) -> impl Iterator<Item = (Rendition, &Segmenter)> {
        (Rendition::ALL.into_iter().zip(self.lanes.iter()))
            .filter_map(|(r, s)| Some((r, s.as_ref()?)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stream::codecs::ladder::tests::{input, run};
    use crate::stream::codecs::ladder::{Input, Ladder};
    use crate::stream::codecs::transcode::Target;
    use crate::stream::test_media;

    /// The layout a player sees: each segment's number, discontinuity, program date time
    /// and its parts' durations.
    fn layout(segmenter: &Segmenter) -> Vec<(u64, bool, i64, Vec<f64>)> {
        (segmenter.segments().iter())
            .map(|s| {
                let durations = s.parts.iter().map(|p| p.duration).collect();
                (s.msn, s.discontinuity, s.program_time_ms, durations)
            })
            .collect()
    }

    /// What ffprobe makes of a rendition's init segment and complete segments, joined.
    fn probe(dir: &Path, segmenter: &Segmenter) -> (String, u64) {
        let mut joined = std::fs::read(dir.join("init.mp4")).unwrap();
        for segment in segmenter.segments().iter().filter(|s| s.complete) {
            joined.extend(std::fs::read(dir.join(format!("seg{}.m4s", segment.msn))).unwrap());
        }
        let file = tempfile::Builder::new().suffix(".mp4").tempfile().unwrap();
        std::fs::write(file.path(), joined).unwrap();
        let out = test_media::run(
            std::process::Command::new("ffprobe")
                .args(["-v", "error", "-select_streams", "a:0", "-count_packets"])
                .args(["-show_entries", "stream=codec_name,nb_read_packets"])
                .args(["-of", "csv=p=0"])
                .arg(file.path()),
        );
        let text = String::from_utf8(out).unwrap();
        let (codec, packets) = text.trim().split_once(',').expect("codec,packets");
        (codec.to_owned(), packets.parse().unwrap())
    }

    #[tokio::test]
    async fn every_rendition_is_cut_into_the_same_parts_and_segments() {
        let aac = input(
            48_000,
            &["-c:a", "aac", "-b:a", "192k", "-f", "adts"],
            "aac",
        );
        let ladder = Ladder::start(Input::Aac, Target::for_show(None)).expect("gstreamer");
        let renditions = ladder.renditions();
        assert!(renditions.len() >= 2, "{renditions:?}");
        let steps = run(ladder, &aac, 1500).await;
        let show = tempfile::tempdir().unwrap();
        let mut segmenters = Renditions::new(show.path());
        let (mut now, mut parts) = (1_800_000_000_000, 0);
        for (at, step) in steps.into_iter().enumerate() {
            if at == 100 {
                segmenters.mark_discontinuity(now).unwrap();
            }
            let frames = renditions.iter().copied().zip(step.frames).collect();
            let fitted = segmenters
                .fit(frames, None)
                .expect("a new show takes every rendition");
            parts += usize::from(segmenters.push(fitted, now).unwrap().is_some());
            now += 21;
        }
        segmenters.end(now).unwrap();
        assert!(parts >= 12, "{parts} parts in four seconds");

        let standard = segmenters.get(Rendition::Standard).unwrap();
        assert_eq!(standard.dir(), show.path());
        let expected = layout(standard);
        assert!(expected.iter().any(|s| s.1), "the discontinuity is marked");
        let mut packets = Vec::new();
        for rendition in renditions.iter().copied() {
            let segmenter = segmenters.get(rendition).unwrap();
            assert_eq!(segmenter.dir(), dir_of(show.path(), rendition));
            assert_eq!(layout(segmenter), expected, "{rendition:?}");
            let (codec, count) = probe(segmenter.dir(), segmenter);
            assert_eq!(codec, "aac", "{rendition:?}");
            packets.push(count);
        }
        assert!(packets.windows(2).all(|w| w[0] == w[1]), "{packets:?}");
        assert_eq!(
            packets[0],
            segmenters.get(Rendition::Standard).unwrap().frames()
        );
        // After a restart, every rendition is found where it stopped.
        let recovered = Renditions::recover(show.path()).unwrap();
        let found: Vec<Rendition> = recovered.iter().map(|(r, _)| r).collect();
        assert_eq!(found, renditions);
        for (rendition, segmenter) in recovered.iter() {
            assert_eq!(layout(segmenter), expected, "{rendition:?} recovered");
        }
    }

    fn frame(rate_index: u8, byte: u8) -> AacFrame {
        AacFrame {
            config: crate::stream::codecs::adts::AacConfig {
                object_type: 2,
                sample_rate_index: rate_index,
                channels: 2,
            },
            payload: vec![byte; 8],
        }
    }

    fn fitted(
        renditions: &Renditions,
        frames: &[(Rendition, AacFrame)],
    ) -> Option<Vec<(Rendition, u8)>> {
        let fitted = renditions.fit(frames.to_vec(), None)?;
        Some(
            fitted
                .frames()
                .iter()
                .map(|(r, f)| (*r, f.payload[0]))
                .collect(),
        )
    }

    #[test]
    fn a_show_keeps_the_renditions_it_started_with() {
        let show = tempfile::tempdir().unwrap();
        let mut renditions = Renditions::new(show.path());
        let (saver, standard) = (Rendition::DataSaver, Rendition::Standard);
        let first = [(standard, frame(3, 2)), (saver, frame(3, 1))];
        assert_eq!(
            fitted(&renditions, &first),
            Some(vec![(saver, 1), (standard, 2)]),
            "a new show takes every rendition, in one order"
        );
        assert_eq!(
            fitted(&renditions, &[(saver, frame(3, 1))]),
            None,
            "never without the standard one"
        );
        let step = renditions.fit(first.to_vec(), None).unwrap();
        renditions.push(step, 0).unwrap();
        assert_eq!(
            fitted(
                &renditions,
                &[(standard, frame(3, 2)), (Rendition::Source, frame(3, 3))]
            ),
            Some(vec![(saver, 2), (standard, 2)]),
            "a rendition the show lacks is dropped; one the publisher lacks gets the standard frame"
        );
        assert_eq!(
            fitted(
                &renditions,
                &[(standard, frame(3, 2)), (saver, frame(4, 1))]
            ),
            Some(vec![(saver, 2), (standard, 2)]),
            "and so does one in another format"
        );
        assert_eq!(
            fitted(
                &renditions,
                &[(standard, frame(4, 2)), (saver, frame(4, 1))]
            ),
            None,
            "a standard frame in another format is refused, with all the others"
        );
    }

    /// A STREAMINFO of 4,096-sample blocks, 48 kHz, stereo, 16 bits.
    fn streaminfo() -> StreamInfo {
        let mut raw = [0u8; 34];
        raw[..4].copy_from_slice(&[0x10, 0x00, 0x10, 0x00]);
        raw[10..14].copy_from_slice(&[0x0B, 0xB8, 0x02, 0xF0]);
        StreamInfo::parse(&raw).unwrap()
    }

    /// Step `index`'s FLAC frames with 4,096-sample blocks: one every fourth step.
    fn flac_of(info: &StreamInfo, index: u64) -> Option<Flac<'_>> {
        let frames = index
            .is_multiple_of(4)
            .then(|| FlacFrame {
                data: Bytes::from(vec![index as u8; 100]),
                samples: 4096,
            })
            .into_iter()
            .collect();
        Some(Flac { info, frames })
    }

    #[test]
    fn the_lossless_lane_is_the_first_publishers_cut_with_the_others_and_recovered() {
        let show = tempfile::tempdir().unwrap();
        let info = streaminfo();
        let mut renditions = Renditions::new(show.path());
        let standard = Rendition::Standard;
        let (mut now, mut bytes) = (1_800_000_000_000, 0);
        for index in 0..200 {
            let fitted = renditions
                .fit(vec![(standard, frame(3, 1))], flac_of(&info, index))
                .unwrap();
            bytes += fitted.bytes();
            renditions.push(fitted, now).unwrap();
            now += 21;
        }
        assert_eq!(bytes, 200 * 8 + 50 * 100, "the quota counts the FLAC bytes");
        let lane = renditions.lossless().expect("a lossless lane");
        assert!(
            (show.path().join(LOSSLESS_DIR).join("seg0.m4s")).exists(),
            "written in its own folder"
        );
        assert_eq!(lane.frames(), 200);
        let aac: Vec<_> = (renditions.standard().unwrap().segments().iter())
            .map(|s| (s.msn, s.program_time_ms, s.parts.len()))
            .collect();
        let flac: Vec<_> = (lane.segments().iter())
            .map(|s| (s.msn, s.program_time_ms, s.parts.len()))
            .collect();
        assert_eq!(flac, aac, "the same segments, parts and program date times");
        assert!(!renditions.take_fresh_lossless().is_empty());

        let mut recovered = Renditions::recover(show.path()).unwrap();
        let lane = recovered.lossless().expect("recovered");
        assert_eq!(lane.frames(), recovered.standard().unwrap().frames());
        assert_eq!(lane.frames(), 192, "where its last part ends");
        // A later publisher without FLAC: the lane ends, the AAC renditions go on.
        let step = recovered.fit(vec![(standard, frame(3, 1))], None).unwrap();
        assert_eq!(step.bytes(), 8);
        recovered.push(step, now).unwrap();
        assert!(recovered.lossless().unwrap().ended());
        assert!(!recovered.standard().unwrap().ended());
        let step = recovered
            .fit(vec![(standard, frame(3, 1))], flac_of(&info, 0))
            .unwrap();
        assert_eq!(step.bytes(), 8, "an ended lane takes no more");
        recovered.push(step, now).unwrap();
        let again = Renditions::recover(show.path()).unwrap();
        assert!(again.lossless().is_some_and(LosslessSegmenter::ended));

        // A show started without FLAC never gets a lane.
        let other = tempfile::tempdir().unwrap();
        let mut plain = Renditions::new(other.path());
        let step = plain.fit(vec![(standard, frame(3, 1))], None).unwrap();
        plain.push(step, 0).unwrap();
        let step = plain
            .fit(vec![(standard, frame(3, 1))], flac_of(&info, 0))
            .unwrap();
        plain.push(step, 0).unwrap();
        assert!(plain.lossless().is_none());
    }
}
