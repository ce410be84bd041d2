//! A segmenter per rendition (issue 32): every rendition of a show's ladder cut into
//! parts and segments by its own [`Segmenter`], all of them fed frame `index` of their
//! rendition in the same call with the same clock, so that a part or segment has the
//! same number, duration and program date time in every rendition and a player switches
//! between them at any part without a gap.
//!
//! The standard rendition records in the show's own folder (where recordings, restarts
//! and today's media playlist find it); every other one in a folder of its own name
//! inside it.

use std::path::{Path, PathBuf};

use crate::stream::codecs::ladder::{Rendition, Step};
use crate::stream::hls::segmenter::{Progress, Segmenter};

/// Where a rendition of the show in `show_dir` records.
pub fn dir_of(show_dir: &Path, rendition: Rendition) -> PathBuf {
    match rendition {
        Rendition::Standard => show_dir.to_owned(),
        other => show_dir.join(other.name()),
    }
}

pub struct Renditions {
    show_dir: PathBuf,
    /// In the ladder's order (that of every [`Step`]); a segmenter from the first step on.
    lanes: Vec<(Rendition, Option<Segmenter>)>,
}

impl Renditions {
    /// The segmenters of a ladder of `renditions` (in [`Ladder::renditions`]' order) for
    /// the show in `show_dir`.
    ///
    /// [`Ladder::renditions`]: crate::stream::codecs::ladder::Ladder::renditions
    pub fn new(show_dir: &Path, renditions: &[Rendition]) -> Self {
        Self {
            show_dir: show_dir.to_owned(),
            lanes: renditions.iter().map(|r| (*r, None)).collect(),
        }
    }

    /// One step of the ladder: frame `step.index` of every rendition. Answers the part
    /// written, if one was; it is the same part in every rendition.
    pub fn push(&mut self, step: Step, now_ms: i64) -> std::io::Result<Option<Progress>> {
        debug_assert_eq!(step.frames.len(), self.lanes.len(), "a frame per rendition");
        let mut written = Vec::with_capacity(self.lanes.len());
        for ((rendition, segmenter), frame) in self.lanes.iter_mut().zip(step.frames) {
            let segmenter = match segmenter {
                Some(segmenter) => segmenter,
                None => segmenter.insert(Segmenter::create(
                    &dir_of(&self.show_dir, *rendition),
                    frame.config,
                )?),
            };
            written.push(segmenter.push(frame, now_ms)?);
        }
        // One layout, one format and the same frame count: the same part everywhere.
        debug_assert!(written.windows(2).all(|w| w[0] == w[1]), "{written:?}");
        Ok(written.into_iter().next().flatten())
    }

    /// A reconnected publisher: the next segment of every rendition starts with a
    /// discontinuity.
    pub fn mark_discontinuity(&mut self, now_ms: i64) -> std::io::Result<()> {
        for segmenter in self.lanes.iter_mut().filter_map(|(_, s)| s.as_mut()) {
            segmenter.mark_discontinuity(now_ms)?;
        }
        Ok(())
    }

    /// The show ended: every rendition's last part is written and its playlist ends.
    pub fn end(&mut self, now_ms: i64) -> std::io::Result<()> {
        for segmenter in self.lanes.iter_mut().filter_map(|(_, s)| s.as_mut()) {
            segmenter.end(now_ms)?;
        }
        Ok(())
    }

    /// A rendition's segmenter (`None` before the first step, or not in the ladder).
    pub fn get(&self, rendition: Rendition) -> Option<&Segmenter> {
        (self.lanes.iter())
            .find(|(r, _)| *r == rendition)
            .and_then(|(_, s)| s.as_ref())
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
        let mut segmenters = Renditions::new(show.path(), &renditions);
        let (mut now, mut parts) = (1_800_000_000_000, 0);
        for (at, step) in steps.into_iter().enumerate() {
            if at == 100 {
                segmenters.mark_discontinuity(now).unwrap();
            }
            parts += usize::from(segmenters.push(step, now).unwrap().is_some());
            now += 21;
        }
        segmenters.end(now).unwrap();
        assert!(parts >= 12, "{parts} parts in four seconds");

        let standard = segmenters.get(Rendition::Standard).unwrap();
        assert_eq!(standard.dir(), show.path());
        let expected = layout(standard);
        assert!(expected.iter().any(|s| s.1), "the discontinuity is marked");
        let mut packets = Vec::new();
        for rendition in renditions {
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
    }
}
