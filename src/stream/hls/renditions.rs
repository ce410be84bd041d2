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
use crate::stream::codecs::ladder::Rendition;
use crate::stream::hls::segmenter::{MediaFile, Progress, Segmenter};

/// Where a rendition of the show in `show_dir` records.
pub fn dir_of(show_dir: &Path, rendition: Rendition) -> PathBuf {
    match rendition {
        Rendition::Standard => show_dir.to_owned(),
        other => show_dir.join(other.name()),
    }
}

/// One frame of every rendition of a show, as [`Renditions::fit`] made it: in
/// [`Rendition::ALL`]'s order, the standard rendition's always there, each in its
/// segmenter's format.
#[derive(Debug)]
pub struct Fitted(Vec<(Rendition, AacFrame)>);

impl Fitted {
    pub fn frames(&self) -> &[(Rendition, AacFrame)] {
        &self.0
    }

    /// The payload bytes of every rendition's frame: what they add to the show's folder.
    pub fn bytes(&self) -> u64 {
        self.0.iter().map(|(_, f)| f.payload.len() as u64).sum()
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
}

impl Renditions {
    /// A show with nothing recorded yet in `show_dir`.
    pub fn new(show_dir: &Path) -> Self {
        Self {
            show_dir: show_dir.to_owned(),
            lanes: Default::default(),
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
        this.lanes[Rendition::Standard.slot()] = Some(standard);
        Ok(this)
    }

    /// One frame of each of a publisher's renditions (the standard one among them), as
    /// this show takes them: every rendition of a new show; for a show under way, its own
    /// renditions only, one the publisher lacks given the standard frame. `None` when the
    /// show takes none of them (it ended, or the standard frame's format is not the
    /// show's): a step is taken whole or not at all, so that the renditions stay aligned.
    pub fn fit(&self, frames: Vec<(Rendition, AacFrame)>) -> Option<Fitted> {
        let mut by_slot: [Option<AacFrame>; Rendition::ALL.len()] = Default::default();
        for (rendition, frame) in frames {
            by_slot[rendition.slot()] = Some(frame);
        }
        let standard = Rendition::Standard.slot();
        let config = by_slot[standard].as_ref()?.config;
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
        Some(Fitted(fitted))
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
        Ok(standard)
    }

    /// A reconnected publisher: the next segment of every rendition starts with a
    /// discontinuity.
    pub fn mark_discontinuity(&mut self, now_ms: i64) -> std::io::Result<()> {
        self.each_mut(|s| s.mark_discontinuity(now_ms))
    }

    /// The show ended: every rendition's last part is written and its playlist ends.
    pub fn end(&mut self, now_ms: i64) -> std::io::Result<()> {
        self.each_mut(|s| s.end(now_ms))
    }

    /// After a restart, with no copy to continue from: see
    /// [`Segmenter::resume_after_restart`].
    pub fn resume_after_restart(&mut self, now_ms: i64) -> std::io::Result<()> {
        self.each_mut(|s| s.resume_after_restart(now_ms).map(drop))
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
        let out = std::process::Command::new("ffprobe")
            .args(["-v", "error", "-select_streams", "a:0", "-count_packets"])
            .args([
                "-show_entries",
                "stream=codec_name,nb_read_packets",
                "-of",
                "csv=p=0",
            ])
            .arg(file.path())
            .output()
            .expect("ffprobe");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8(out.stdout).unwrap();
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
                .fit(frames)
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
        let fitted = renditions.fit(frames.to_vec())?;
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
        let step = renditions.fit(first.to_vec()).unwrap();
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
}
