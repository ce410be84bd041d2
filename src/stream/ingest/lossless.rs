//! The lossless rendition's input (issue 32): an Ogg FLAC publisher's own frames,
//! demuxed beside the ladder that decodes the same bytes for the AAC renditions, and
//! handed out with the ladder's steps by sample position.
//!
//! **Pairing.** The ladder's step N is AAC frame N of every rendition: samples
//! `[N·1024, (N+1)·1024)` of the publisher's audio (a FLAC decoder has no delay, the
//! ladder drops its encoders' priming). The FLAC frames whose first sample lies in that
//! range travel with step N (none, one or more: FLAC blocks are usually 4,096 or 4,608
//! samples), which is `flac::Cutter`'s rule, so the lossless parts are cut at exactly
//! the AAC part boundaries. The ladder decodes the demuxer's frames themselves
//! ([`Tap::fresh`], `Input::Flac`), so when step N comes out every frame starting before
//! `(N+1)·1024` is there.
//!
//! **The show's rate.** The lossless rendition needs the ladder at the FLAC's own rate
//! (else frame N is not the same samples). A new show takes the FLAC's rate when it is
//! 44.1 or 48 kHz ([`LADDER_RATES`]: the rates the AAC renditions are encoded well at and
//! every browser plays); a show under way keeps its rate, and a FLAC at another rate (or
//! a hi-res one, or more than two channels) gets the AAC renditions only (logged).

use std::collections::VecDeque;

use crate::stream::codecs::adts::{AacConfig, SAMPLES_PER_FRAME};
use crate::stream::codecs::flac::{FlacFrame, OggFlac, StreamInfo};
use crate::stream::codecs::ladder::{Arrived, Ladder, lossless_target};
use crate::stream::codecs::transcode::Target;
use crate::stream::hls::segmenter::Layout;

pub use crate::stream::codecs::ladder::LADDER_RATES;

/// Whether the start of an Ogg stream is FLAC, once its first page is complete (`None`
/// until then). Bytes that do not start with a page are not FLAC: an encoder's stream
/// starts with one.
pub fn sniff(head: &[u8]) -> Option<bool> {
    const HEADER: usize = 27;
    if !b"OggS".starts_with(&head[..head.len().min(4)]) {
        return Some(false);
    }
    let segments = usize::from(*head.get(HEADER - 1)?);
    let lacing = head.get(HEADER..HEADER + segments)?;
    let length = HEADER + segments + lacing.iter().map(|&l| usize::from(l)).sum::<usize>();
    (head.len() >= length).then(|| OggFlac::sniff(head))
}

/// Whether a show whose AAC renditions are in `show` (`None`: a new show) can have a
/// lossless rendition of this stream, and at which format its ladder then runs.
pub fn ladder_target(info: &StreamInfo, show: Option<AacConfig>) -> Result<Target, String> {
    let rate = info.sample_rate();
    // A block longer than a part would leave parts without a frame (a hole in the
    // rendition); libFLAC's 4,096 and ffmpeg's 4,608 are a third of one.
    let part = Layout::for_rate(rate).frames_per_part * SAMPLES_PER_FRAME;
    if u32::from(info.max_block()) > part {
        return Err(format!(
            "blocks of {} samples (at most {part})",
            info.max_block()
        ));
    }
    lossless_target(rate, info.channels(), show)
}

/// A lossless publisher's frames on their way to the ladder's steps.
#[derive(Debug)]
pub struct Lossless {
    demux: OggFlac,
    info: StreamInfo,
    /// Frames not yet handed out, with their first sample.
    queue: VecDeque<(u64, FlacFrame)>,
    /// The first sample of the next frame to come.
    at: u64,
    /// Frames arrived since the ladder last took them ([`Tap::fresh`]).
    fresh: Vec<FlacFrame>,
    /// Damaged or foreign packets left out so far.
    pub rejected: usize,
}

impl Lossless {
    /// The demuxer, from the stream's first bytes on (`None` when they are not Ogg FLAC).
    pub fn start(head: &[u8]) -> Option<(Self, Arrived)> {
        let mut demux = OggFlac::new();
        let first = demux.push(head);
        let info = *demux.info()?;
        let mut this = Self {
            demux,
            info,
            queue: VecDeque::new(),
            at: 0,
            fresh: Vec::new(),
            rejected: 0,
        };
        let arrived = this.take_in(first);
        Some((this, arrived))
    }

    pub fn info(&self) -> &StreamInfo {
        &self.info
    }

    /// The highest bitrate a FLAC stream of this format can have: FLAC stores a block it
    /// cannot compress verbatim, so a frame is the PCM plus a header and a CRC.
    pub fn max_kbps(&self) -> f64 {
        let pcm = f64::from(self.info.sample_rate())
            * f64::from(self.info.channels())
            * f64::from(self.info.bits_per_sample());
        pcm * 1.05 / 1000.0
    }

    /// More of the publisher's bytes.
    pub fn push(&mut self, bytes: &[u8]) -> Arrived {
        let demuxed = self.demux.push(bytes);
        self.take_in(demuxed)
    }

    fn take_in(&mut self, demuxed: crate::stream::codecs::flac::Demuxed) -> Arrived {
        self.rejected += demuxed.rejected;
        let mut arrived = Arrived::default();
        let rate = f64::from(self.info.sample_rate());
        for frame in demuxed.frames {
            arrived.frames += 1;
            arrived.bytes += frame.data.len() as u64;
            arrived.seconds += f64::from(frame.samples) / rate;
            let start = self.at;
            self.at += u64::from(frame.samples);
            self.fresh.push(frame.clone());
            self.queue.push_back((start, frame));
        }
        arrived
    }

    /// The frames that travel with the ladder's step `index`: those whose first sample
    /// is before the step's end (the steps come in order from 0, so the earlier ones went
    /// with earlier steps).
    pub fn take(&mut self, index: u64) -> Vec<FlacFrame> {
        let end = (index + 1) * u64::from(SAMPLES_PER_FRAME);
        let mut frames = Vec::new();
        while let Some((start, _)) = self.queue.front()
            && *start < end
        {
            frames.extend(self.queue.pop_front().map(|(_, f)| f));
        }
        frames
    }
}

/// The lossless lane's share of the ladder's step `index`: its STREAMINFO and the FLAC
/// frames that travel with the step, from wherever the show's lossless audio comes: an
/// Ogg FLAC publisher's own frames (the tap) or the ladder's `flacenc` (a lossless PCM
/// publisher). `None`: this publisher has no lossless rendition.
pub fn share(
    tap: &mut Tap,
    ladder: &mut Ladder,
    index: u64,
) -> Option<(StreamInfo, Vec<FlacFrame>)> {
    if let Some(lossless) = tap.lossless() {
        let info = *lossless.info();
        return Some((info, tap.take(index)));
    }
    let info = ladder.lossless()?;
    Some((info, ladder.take_flac(index)))
}

/// What the ladder takes of a push (see [`Tap::push`]).
#[derive(Debug)]
pub enum Pass {
    /// Nothing yet: the first page is not whole.
    Hold,
    /// The push itself.
    Chunk,
    /// Everything held so far: the stream's kind is decided with this push.
    Head(Vec<u8>),
}

/// An Ogg publisher's bytes on their way to the ladder: held until the first page says
/// whether they are FLAC (the ladder's rate depends on it), then demuxed beside it.
#[derive(Debug)]
pub enum Tap {
    Sniffing(Vec<u8>),
    On(Box<Lossless>),
    /// Not FLAC, not Ogg, or a FLAC the show cannot have lossless.
    Off,
}

impl Tap {
    /// A tap for a publisher whose media type is Ogg (sniffed), or one that is off.
    pub fn new(ogg: bool) -> Self {
        if ogg {
            Self::Sniffing(Vec::new())
        } else {
            Self::Off
        }
    }

    pub fn push(&mut self, bytes: &[u8]) -> (Pass, Arrived) {
        match self {
            Self::Off => (Pass::Chunk, Arrived::default()),
            Self::On(lossless) => (Pass::Chunk, lossless.push(bytes)),
            Self::Sniffing(head) => {
                head.extend_from_slice(bytes);
                let Some(is_flac) = sniff(head) else {
                    return (Pass::Hold, Arrived::default());
                };
                let head = std::mem::take(head);
                let started = is_flac.then(|| Lossless::start(&head)).flatten();
                let arrived = match started {
                    Some((lossless, arrived)) => {
                        *self = Self::On(Box::new(lossless));
                        arrived
                    }
                    None => {
                        *self = Self::Off;
                        Arrived::default()
                    }
                };
                (Pass::Head(head), arrived)
            }
        }
    }

    pub fn lossless(&self) -> Option<&Lossless> {
        match self {
            Self::On(lossless) => Some(lossless),
            _ => None,
        }
    }

    /// The frames arrived since the last call, for the ladder to decode (`None` when off:
    /// the ladder takes the publisher's bytes).
    pub fn fresh(&mut self) -> Option<Vec<FlacFrame>> {
        match self {
            Self::On(lossless) => Some(std::mem::take(&mut lossless.fresh)),
            _ => None,
        }
    }

    /// The frames that travel with the ladder's step `index` (none when off).
    pub fn take(&mut self, index: u64) -> Vec<crate::stream::codecs::flac::FlacFrame> {
        match self {
            Self::On(lossless) => lossless.take(index),
            _ => Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stream::codecs::ladder::tests::{drain, input};
    use crate::stream::codecs::ladder::{Input, Ladder, Rendition, Step};
    use crate::stream::ingest::pacing::Bitrate;

    /// The left channel of a decoded file.
    fn decode_left(bytes: &[u8], ext: &str) -> Vec<f32> {
        crate::stream::test_media::floats(bytes, ext, &["-af", "pan=mono|c0=c0"])
    }

    fn onset(samples: &[f32]) -> usize {
        samples
            .iter()
            .position(|x| x.abs() > 0.45)
            .expect("the beep")
    }

    /// An Ogg FLAC push through a ladder at the FLAC's rate and a [`Lossless`] side by
    /// side, in `chunk`-byte pieces as an encoder sends them: the steps and the frames
    /// each step took.
    async fn run(ogg: &[u8], chunk: usize) -> (Vec<Step>, Vec<Vec<FlacFrame>>, Lossless) {
        let mut tap = Tap::new(true);
        let mut ladder = None;
        for piece in ogg.chunks(chunk) {
            if let Pass::Head(_) = tap.push(piece).0 {
                let info = *tap.lossless().expect("Ogg FLAC").info();
                let target = ladder_target(&info, None).unwrap();
                ladder = Some(Ladder::start(Input::Flac(info), target).expect("gstreamer"));
            }
            if let Some(ladder) = &mut ladder {
                ladder.push_flac(&tap.fresh().expect("Ogg FLAC"));
            }
        }
        let mut ladder = ladder.expect("a first page");
        ladder.finish();
        let (steps, taken) = drain(&mut ladder, |_, index| tap.take(index)).await;
        let Tap::On(lossless) = tap else {
            panic!("lossless")
        };
        (steps, taken, *lossless)
    }

    #[tokio::test]
    async fn flac_frames_travel_with_the_step_their_first_sample_lies_in() {
        for (rate, frame_size) in [(48_000, "4096"), (48_000, "4608"), (44_100, "4608")] {
            let ogg = input(
                rate,
                &["-c:a", "flac", "-frame_size", frame_size, "-f", "ogg"],
                "ogg",
            );
            let (steps, taken, lossless) = run(&ogg, 1_400).await;
            assert_eq!(lossless.rejected, 0);
            // ffmpeg's FLAC passes the bitrate check; more than the PCM's bytes do not.
            let all = OggFlac::new().push(&ogg).frames;
            let bytes: u64 = all.iter().map(|f| f.data.len() as u64).sum();
            let seconds = all.iter().map(|f| f64::from(f.samples)).sum::<f64>() / f64::from(rate);
            let max = lossless.max_kbps();
            assert!(Bitrate::default().admit_within(bytes, seconds, max));
            let above_pcm = (max * 1.1 * seconds * 1000.0 / 8.0) as u64;
            assert!(!Bitrate::default().admit_within(above_pcm, seconds, max));
            assert!(steps.len() > 150, "{}", steps.len());
            // Every frame goes with the step its first sample lies in, in order, none lost.
            let mut at = 0u64;
            for (index, frames) in taken.iter().enumerate() {
                for frame in frames {
                    assert_eq!(at / 1024, index as u64, "{rate} {frame_size}");
                    at += u64::from(frame.samples);
                }
            }
            let handed: usize = taken.iter().map(Vec::len).sum();
            let starting_in_steps = (all.iter())
                .scan(0u64, |at, f| {
                    let start = *at;
                    *at += u64::from(f.samples);
                    Some(start)
                })
                .filter(|start| *start < steps.len() as u64 * 1024)
                .count();
            assert_eq!(handed, starting_in_steps, "{rate} {frame_size}");
            // The ladder runs at the FLAC's rate, and its frame N is the FLAC's samples
            // [N·1024, (N+1)·1024): the beep starts at the same sample in the standard
            // rendition as in the FLAC.
            let standard = Ladder::start(Input::Transcoded, Target::for_show(None))
                .unwrap()
                .renditions()
                .iter()
                .position(|r| *r == Rendition::Standard)
                .unwrap();
            let adts: Vec<u8> = (steps.iter())
                .flat_map(|s| {
                    let f = &s.frames[standard];
                    assert_eq!(f.config.sample_rate(), rate);
                    crate::stream::codecs::adts::adts_frame(&f.config, &f.payload)
                })
                .collect();
            let (aac, flac) = (
                onset(&decode_left(&adts, "aac")),
                onset(&decode_left(&ogg, "ogg")),
            );
            assert!(
                aac.abs_diff(flac) <= 48,
                "{rate} {frame_size}: {aac} {flac}"
            );
            assert_eq!(aac / 1024, flac / 1024, "{rate} {frame_size}");
        }
    }

    #[test]
    fn only_ogg_flac_is_sniffed_as_lossless_once_its_first_page_is_whole() {
        let flac = input(48_000, &["-c:a", "flac", "-f", "ogg"], "ogg");
        let opus = input(48_000, &["-c:a", "libopus", "-f", "ogg"], "ogg");
        let first_page = (1..flac.len())
            .find(|n| sniff(&flac[..*n]).is_some())
            .unwrap();
        assert_eq!(sniff(&flac[..first_page]), Some(true));
        assert!(first_page < 200, "{first_page}");
        assert_eq!(sniff(&flac[..3]), None);
        assert_eq!(sniff(&opus), Some(false));
        assert_eq!(sniff(b"ID3\x04"), Some(false));
    }

    fn info(rate: u32, channels: u8) -> StreamInfo {
        let mut raw = [0u8; 34];
        raw[..4].copy_from_slice(&[0x10, 0, 0x10, 0]);
        raw[10] = (rate >> 12) as u8;
        raw[11] = (rate >> 4) as u8;
        raw[12] = (((rate & 0x0F) as u8) << 4) | ((channels - 1) << 1);
        raw[13] = 0xF0; // 16 bits
        StreamInfo::parse(&raw).unwrap()
    }

    #[test]
    fn a_new_show_takes_the_flac_s_rate_and_one_under_way_keeps_its_own() {
        assert_eq!(info(44_100, 2).sample_rate(), 44_100);
        let at_44 = ladder_target(&info(44_100, 1), None).unwrap();
        assert_eq!((at_44.sample_rate, at_44.channels), (44_100, 1));
        assert!(ladder_target(&info(96_000, 2), None).is_err());
        assert!(ladder_target(&info(48_000, 6), None).is_err());
        let mut long_blocks = info(48_000, 2);
        long_blocks.raw[..4].copy_from_slice(&[0x10, 0, 0xFF, 0xFF]);
        assert!(ladder_target(&long_blocks, None).is_err());
        let show = AacConfig {
            object_type: 2,
            sample_rate_index: 3, // 48 kHz
            channels: 2,
        };
        let kept = ladder_target(&info(48_000, 1), Some(show)).unwrap();
        assert_eq!((kept.sample_rate, kept.channels), (48_000, 2));
        assert!(ladder_target(&info(44_100, 2), Some(show)).is_err());
    }
}
