//! The rendition ladder (issue 32): from one publisher's input, every rendition of the
//! show, frame by frame in lock step, so that a segmenter per rendition cuts them all at
//! the same segment and part boundaries and a player switches between them without a gap.
//!
//! One GStreamer pipeline decodes the input once and `tee`s the PCM into one AAC encoder
//! per re-encoded rendition:
//!
//! ```text
//! appsrc ! decodebin ! audioconvert ! audioresample ! audio/x-raw,rate=R,channels=C ! tee
//!   tee. ! queue ! <aac encoder> bitrate=128000 ! aacparse ! appsink   (Standard)
//!   tee. ! queue ! <aac encoder> bitrate=48000  ! aacparse ! appsink   (DataSaver)
//! ```
//!
//! and an AAC publisher's own frames also go out untouched as [`Rendition::Source`] (what
//! the multivariant playlist lists as "High" when it is above the standard rendition, see
//! [`HIGH_ABOVE_KBPS`]).
//!
//! **Alignment.** Every rendition has the same sample rate, so every frame is 1024 samples
//! of the same duration everywhere, and frame N of every rendition covers the same
//! samples of the publisher's audio:
//! - an AAC publisher's rate is the ladder's rate (its frames are the timeline, so the
//!   pipeline starts on its first frame, at its rate), and the pipeline is fed exactly the
//!   frames the source rendition passes on (re-framed by our ADTS parser), so nothing the
//!   parser skips reaches the decoder alone;
//! - an AAC decoder gives 1024 samples per frame from the first frame on, but an AAC
//!   encoder's first frame is priming (its MDCT's look-behind): its output frame `k + p`
//!   covers input samples `[1024 k, 1024 (k+1))`. The ladder drops the `p` leading frames of
//!   each re-encoded rendition ([`priming_samples`], measured for each encoder by the tests
//!   below: a beep in the input starts at the same sample, within a few, in the decoded
//!   output of every rendition);
//! - frames are handed out only when every rendition has one for that index ([`Step`]),
//!   and at the end only as many as every rendition has.
//!
//! **Why the data saver is AAC-LC at 48 kbit/s, not HE-AAC.** HE-AAC (SBR) would sound
//! better at that rate, but the only encoders for it are Fraunhofer's fdk-aac (the
//! `fdkaacenc` element, ffmpeg's `libfdk_aac`) and Apple's: fdk-aac's licence is not
//! free enough for Debian main (it is in `non-free` as `libfdk-aac2`), so Debian's
//! GStreamer has no `fdkaacenc`, and the encoders that are there (`avenc_aac`,
//! `voaacenc`, ffmpeg's `aac`) write AAC-LC only. AAC-LC at 48 kbit/s stereo keeps the
//! same sample rate as the other renditions (which the alignment needs) at 0.375× the
//! standard rendition's bytes (the issue asks ≤ 0.45×); its encoder low-passes the top
//! of the band. See docs/hifi.md.

use std::collections::VecDeque;

use tokio::sync::mpsc;

use crate::stream::codecs::adts::{AacConfig, AacFrame, AdtsParser, SAMPLES_PER_FRAME};
use crate::stream::codecs::flac::{FlacFrame, StreamInfo, frame_samples};
use crate::stream::codecs::transcode::{Decoder, Event, Pipeline, Target, Unavailable, encoder};
use crate::stream::codecs::webm::{self, Pcm};

/// The sample rates a new show takes from a lossless publisher: the rates the AAC
/// renditions are encoded well at and every browser plays.
pub const LADDER_RATES: [u32; 2] = [44_100, 48_000];

/// The ladder's format for a lossless publisher at this rate, when the show (`None`: a
/// new show) can have its lossless rendition: the ladder must run at the publisher's own
/// rate (else step N is not the same samples as its lossless frames), so a show under
/// way keeps its rate and a new one takes the publisher's when it is in [`LADDER_RATES`].
pub fn lossless_target(rate: u32, channels: u8, show: Option<AacConfig>) -> Result<Target, String> {
    if channels > 2 {
        return Err(format!("{channels} channels (at most 2)"));
    }
    match show {
        Some(config) if config.sample_rate() != rate => Err(format!(
            "{rate} Hz, and the show under way is at {} Hz",
            config.sample_rate()
        )),
        Some(config) => Ok(Target {
            sample_rate: rate,
            channels: config.channels.clamp(1, 2),
        }),
        None if !LADDER_RATES.contains(&rate) => {
            Err(format!("{rate} Hz (a show starts at 44,100 or 48,000)"))
        }
        None => Ok(Target {
            sample_rate: rate,
            channels,
        }),
    }
}

/// The standard rendition's AAC-LC bitrate.
pub const STANDARD_KBPS: u32 = 128;

/// The data saver's AAC-LC bitrate.
pub const DATA_SAVER_KBPS: u32 = 48;

/// A publisher's own AAC is worth listing as "High" above this average bitrate (a little
/// above the standard rendition's, so that a 128 kbit/s encoder is not listed twice).
pub const HIGH_ABOVE_KBPS: u32 = 140;

/// One rendition of the show.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Rendition {
    /// AAC-LC at [`DATA_SAVER_KBPS`].
    DataSaver,
    /// AAC-LC at [`STANDARD_KBPS`].
    Standard,
    /// The AAC publisher's own frames, untouched.
    Source,
}

impl Rendition {
    /// Every rendition a ladder may have.
    pub const ALL: [Rendition; 3] = [Self::DataSaver, Self::Standard, Self::Source];

    /// Its place in [`Rendition::ALL`]: an index for tables of one entry per rendition.
    pub const fn slot(self) -> usize {
        self as usize
    }

    /// A stable name for paths and playlists.
    pub fn name(self) -> &'static str {
        match self {
            Self::DataSaver => "saver",
            Self::Standard => "standard",
            Self::Source => "source",
        }
    }

    /// The rendition [`Rendition::name`] names.
    pub fn named(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|r| r.name() == name)
    }

    /// The bitrate asked of the encoder (`None`: the publisher's own).
    pub fn kbps(self) -> Option<u32> {
        match self {
            Self::DataSaver => Some(DATA_SAVER_KBPS),
            Self::Standard => Some(STANDARD_KBPS),
            Self::Source => None,
        }
    }
}

/// What the publisher sends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Input {
    /// AAC in ADTS: passed through as [`Rendition::Source`] and re-encoded for the others.
    Aac,
    /// Anything GStreamer decodes (MP3, Opus in WebM or Ogg): re-encoded only.
    Transcoded,
    /// An Ogg FLAC publisher's frames, whole (demuxed by `ingest::lossless`, whose
    /// lossless rendition they also are), given with [`Ladder::push_flac`]: re-encoded.
    Flac(StreamInfo),
}

/// Frame `index` of every rendition, in the order of [`Ladder::renditions`]; each frame
/// is 1024 samples at the ladder's one sample rate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    pub index: u64,
    pub frames: Vec<AacFrame>,
}

/// The encoded frames one push took: an AAC publisher's into [`Ladder::push`], an Ogg
/// FLAC publisher's into the lossless lane (`ingest::lossless`).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Arrived {
    pub frames: u64,
    /// Their payloads' bytes.
    pub bytes: u64,
    /// Their audio.
    pub seconds: f64,
}

/// What the ladder hands back.
#[derive(Debug)]
pub enum Output {
    Step(Step),
    /// Every frame pushed in has come out in every rendition (after `finish`).
    Done,
    /// The input could not be decoded; the message is for the publisher.
    Failed(String),
}

/// Samples an encoder's output starts with before its first sample of input (its
/// priming), as measured by `an_aac_publisher_is_passed_through_and_every_rendition_aligns_with_it`
/// (the beep's onset in the decoded rendition against the decoded source): libav's
/// `avenc_aac` delays by exactly one frame; `voaacenc` by 1,600 samples, which is not a
/// whole number of frames.
pub fn priming_samples(encoder: &str) -> u32 {
    match encoder {
        "voaacenc" => 1_600,
        _ => 1_024,
    }
}

/// Whether an AAC publisher's own frames can be a rendition beside this encoder's: only
/// when dropping whole frames of the re-encodes lines them up with the source sample
/// for sample. With `voaacenc` (where gstreamer1.0-libav is missing) they cannot, and an
/// AAC publisher gets the re-encoded renditions only.
pub fn passes_through_with(encoder: &str) -> bool {
    priming_samples(encoder).is_multiple_of(SAMPLES_PER_FRAME)
}

/// One rendition's frames on their way to a [`Step`].
struct Lane {
    rendition: Rendition,
    parser: AdtsParser,
    /// Leading frames still to drop (the encoder's priming).
    skip: usize,
    queue: VecDeque<AacFrame>,
}

/// The FLAC branch of a lossless PCM publisher's ladder: `flacenc`'s STREAMINFO (from
/// its header buffers) and its 1,024-sample frames, frame k going with step k.
struct FlacLane {
    bits: u8,
    /// `flacenc`'s header buffers so far, until the STREAMINFO is whole.
    header: Vec<u8>,
    info: Option<StreamInfo>,
    queue: VecDeque<FlacFrame>,
    /// Frames handed out with a step, until [`Ladder::take_flac`] takes them.
    stepped: VecDeque<(u64, FlacFrame)>,
}

impl FlacLane {
    fn take_in(&mut self, header: bool, bytes: Vec<u8>) {
        let Some(info) = self.info else {
            if header || bytes.starts_with(b"fLaC") {
                self.header.extend_from_slice(&bytes);
                self.info = streaminfo_of(&self.header);
            }
            return;
        };
        // A header rewritten at the end (flacenc's totals) or anything not a whole frame
        // of this stream is not audio.
        if header {
            return;
        }
        match frame_samples(&bytes, &info) {
            Some(samples) => self.queue.push_back(FlacFrame {
                data: bytes.into(),
                samples,
            }),
            None => tracing::warn!(
                bytes = bytes.len(),
                "flacenc gave a buffer that is not a frame"
            ),
        }
    }
}

/// The STREAMINFO of a native FLAC stream's start (`fLaC`, then metadata blocks, the
/// STREAMINFO first), once its bytes are here.
fn streaminfo_of(header: &[u8]) -> Option<StreamInfo> {
    let at = header.windows(4).position(|w| w == b"fLaC")? + 4;
    let block = header.get(at..at + 4)?;
    let length = usize::from(block[2]) << 8 | usize::from(block[3]);
    (block[0] & 0x7F == 0 && block[1] == 0 && length == 34)
        .then(|| StreamInfo::parse(header.get(at + 4..at + 4 + length)?))
        .flatten()
}

/// One publisher's ladder. Dropping it tears the pipeline down.
pub struct Ladder {
    input: Input,
    encoder: &'static str,
    target: Target,
    /// Every rendition; the re-encoded ones first, in the pipeline's order.
    lanes: Vec<Lane>,
    pipeline: Option<Pipeline>,
    /// An AAC publisher's bytes, cut into frames for the source rendition.
    source: AdtsParser,
    tx: mpsc::UnboundedSender<Event>,
    rx: mpsc::UnboundedReceiver<Event>,
    next_index: u64,
    finished: bool,
    /// The source rendition's ADTS bytes and frames so far (for [`Ladder::source_kbps`]).
    source_bytes: u64,
    source_frames: u64,
    /// An AAC publisher's format, from its first frame on.
    source_config: Option<AacConfig>,
    /// A transcoded publisher's first bytes, held until [`webm::sniff`] says whether they
    /// are lossless PCM (the pipeline's rate and its FLAC branch depend on it); with the
    /// show's format (`None`: a new show), for [`lossless_target`]. `None`: decided.
    sniffing: Option<(Vec<u8>, Option<AacConfig>)>,
    flac: Option<FlacLane>,
}

impl Ladder {
    /// A ladder in the show's format (`target`, see [`Target::for_show`]). An AAC
    /// publisher's own rate and channels override it: its frames are the timeline.
    pub fn start(input: Input, target: Target) -> Result<Self, Unavailable> {
        Self::start_with(input, target, encoder()?)
    }

    fn start_with(
        input: Input,
        target: Target,
        encoder: &'static str,
    ) -> Result<Self, Unavailable> {
        Self::build(input, target, encoder, None)
    }

    fn build(
        input: Input,
        target: Target,
        encoder: &'static str,
        sniffing: Option<(Vec<u8>, Option<AacConfig>)>,
    ) -> Result<Self, Unavailable> {
        let mut renditions = vec![Rendition::DataSaver, Rendition::Standard];
        if input == Input::Aac && passes_through_with(encoder) {
            renditions.push(Rendition::Source);
        }
        let lanes = renditions
            .into_iter()
            .map(|rendition| Lane {
                rendition,
                parser: AdtsParser::new(),
                skip: match rendition {
                    Rendition::Source => 0,
                    // The re-encodes among themselves always align (one encoder, the
                    // same PCM); dropping the priming lines them up with the source too.
                    _ => (priming_samples(encoder) / SAMPLES_PER_FRAME) as usize,
                },
                queue: VecDeque::new(),
            })
            .collect();
        let (tx, rx) = mpsc::unbounded_channel();
        let mut ladder = Self {
            input,
            encoder,
            target,
            lanes,
            pipeline: None,
            source: AdtsParser::new(),
            tx,
            rx,
            next_index: 0,
            finished: false,
            source_bytes: 0,
            source_frames: 0,
            source_config: None,
            sniffing,
            flac: None,
        };
        if input != Input::Aac && ladder.sniffing.is_none() {
            ladder.pipeline = Some(ladder.pipeline_for(target)?);
        }
        Ok(ladder)
    }

    /// A ladder for a publisher of this show (`show`: its format, `None` for a new show).
    /// A transcoded publisher's stream that is lossless PCM (WebM with `A_PCM`, what the
    /// browser sends in lossless) also gets the show's lossless rendition: a FLAC branch
    /// beside the AAC encoders ([`Ladder::lossless`], [`Ladder::take_flac`]).
    pub fn for_show(input: Input, show: Option<AacConfig>) -> Result<Self, Unavailable> {
        let sniffing = (input == Input::Transcoded).then(|| (Vec::new(), show));
        Self::build(input, Target::for_show(show), encoder()?, sniffing)
    }

    /// Starts the pipeline of a transcoded publisher whose stream is (or is not) `pcm`.
    fn decided(&mut self, pcm: Option<Pcm>, show: Option<AacConfig>) -> Result<(), Unavailable> {
        if let Some(pcm) = pcm {
            match lossless_target(pcm.sample_rate, pcm.channels, show) {
                Ok(target) => {
                    self.target = target;
                    self.flac = Some(FlacLane {
                        bits: pcm.flac_bits(),
                        header: Vec::new(),
                        info: None,
                        queue: VecDeque::new(),
                        stepped: VecDeque::new(),
                    });
                }
                Err(why) => {
                    tracing::info!(%why, "a lossless PCM publisher gets the AAC renditions only")
                }
            }
        }
        self.pipeline = Some(self.pipeline_for(self.target)?);
        Ok(())
    }

    /// The lossless rendition's STREAMINFO (a lossless PCM publisher's, once `flacenc`
    /// has written it; `None` for any other).
    pub fn lossless(&self) -> Option<StreamInfo> {
        self.flac.as_ref().and_then(|f| f.info)
    }

    /// The FLAC frames that travel with step `index` (the one handed out last): one
    /// 1,024-sample frame per step, so frame k is step k's samples exactly.
    pub fn take_flac(&mut self, index: u64) -> Vec<FlacFrame> {
        let Some(lane) = &mut self.flac else {
            return Vec::new();
        };
        let mut frames = Vec::new();
        while let Some((at, _)) = lane.stepped.front()
            && *at <= index
        {
            frames.extend(lane.stepped.pop_front().map(|(_, f)| f));
        }
        frames
    }

    fn pipeline_for(&self, target: Target) -> Result<Pipeline, Unavailable> {
        // The re-encoded lanes come first, so a sink's index is its lane's.
        let bitrates: Vec<u32> = (self.lanes.iter())
            .filter_map(|l| l.rendition.kbps())
            .collect();
        let decoder = match self.input {
            Input::Flac(info) => Decoder::Flac(info),
            Input::Aac | Input::Transcoded => Decoder::Any,
        };
        let flac_bits = self.flac.as_ref().map(|f| f.bits);
        Pipeline::start(
            decoder,
            self.encoder,
            target,
            &bitrates,
            flac_bits,
            self.tx.clone(),
        )
    }

    /// The renditions of every [`Step`], in its order.
    pub fn renditions(&self) -> Vec<Rendition> {
        self.lanes.iter().map(|l| l.rendition).collect()
    }

    /// The ladder's format: every rendition's sample rate and channels (for an AAC
    /// publisher, known from its first frame on).
    pub fn target(&self) -> Target {
        self.target
    }

    /// The source rendition's average bitrate so far (`None` without one, or before its
    /// first frame): the multivariant playlist lists it as "High" above
    /// [`HIGH_ABOVE_KBPS`].
    pub fn source_kbps(&self) -> Option<u32> {
        (self.source_frames > 0).then(|| {
            let seconds = self.source_frames as f64 * f64::from(SAMPLES_PER_FRAME)
                / f64::from(self.target.sample_rate);
            (self.source_bytes as f64 * 8.0 / seconds / 1000.0).round() as u32
        })
    }

    /// What the ladder's input is.
    pub fn input(&self) -> Input {
        self.input
    }

    /// Bytes from the publisher, as they come (any chunking). For an AAC publisher, the
    /// frames they completed (which the caller checks against the show's pace and the
    /// bitrate as they arrive, before any codec spends time on them); nothing for other
    /// input, known only once decoded. `Err` once the pipeline cannot start (the first
    /// AAC frame starts it).
    pub fn push(&mut self, bytes: &[u8]) -> Result<Arrived, Unavailable> {
        let mut arrived = Arrived::default();
        let data = match self.input {
            Input::Transcoded => match &mut self.sniffing {
                None => bytes.to_vec(),
                Some((head, show)) => {
                    head.extend_from_slice(bytes);
                    let Some(pcm) = webm::sniff(head) else {
                        return Ok(arrived);
                    };
                    let (head, show) = (std::mem::take(head), *show);
                    self.sniffing = None;
                    self.decided(pcm, show)?;
                    head
                }
            },
            // Whole frames only (see `push_flac`): bytes are not what this ladder takes.
            Input::Flac(_) => {
                return Err(Unavailable::Pipeline("FLAC is taken frame by frame".into()));
            }
            Input::Aac => {
                let frames = self.source.push(bytes);
                let Some(first) = frames.first() else {
                    return Ok(arrived);
                };
                let config = match self.source_config {
                    Some(config) => config,
                    None => {
                        self.target = Target {
                            sample_rate: first.config.sample_rate(),
                            channels: first.config.channels.clamp(1, 2),
                        };
                        let pipeline = self.pipeline_for(self.target)?;
                        pipeline.take_raw_aac(&first.config);
                        self.pipeline = Some(pipeline);
                        *self.source_config.insert(first.config)
                    }
                };
                let pipeline = self.pipeline.as_ref();
                // One format per ladder (as per show): frames in another one are dropped
                // here, before the decoder sees them, so the source stays the timeline.
                for frame in frames.into_iter().filter(|f| f.config == config) {
                    arrived.frames += 1;
                    arrived.bytes += frame.payload.len() as u64;
                    arrived.seconds +=
                        f64::from(SAMPLES_PER_FRAME) / f64::from(frame.config.sample_rate());
                    // One frame per buffer, the moment it is whole (see `take_raw_aac`).
                    if let Some(pipeline) = pipeline {
                        pipeline.push(frame.payload.clone());
                    }
                    self.source_bytes += 7 + frame.payload.len() as u64;
                    self.source_frames += 1;
                    if let Some(lane) = self
                        .lanes
                        .iter_mut()
                        .find(|l| l.rendition == Rendition::Source)
                    {
                        lane.queue.push_back(frame);
                    }
                }
                return Ok(arrived);
            }
        };
        if let Some(pipeline) = &self.pipeline {
            pipeline.push(data);
        }
        Ok(arrived)
    }

    /// An [`Input::Flac`] publisher's frames, each whole, in order.
    pub fn push_flac(&mut self, frames: &[FlacFrame]) {
        if let Some(pipeline) = &self.pipeline {
            for frame in frames {
                pipeline.push(frame.data.clone());
            }
        }
    }

    /// No more input: what is still inside comes out, then [`Output::Done`].
    pub fn finish(&mut self) {
        self.finished = true;
        // A stream that ended before its header was whole: decoded as it is.
        if let Some((head, show)) = self.sniffing.take()
            && !head.is_empty()
        {
            let pcm = webm::sniff(&head).flatten();
            if self.decided(pcm, show).is_ok()
                && let Some(pipeline) = &self.pipeline
            {
                pipeline.push(head);
            }
        }
        if let Some(pipeline) = &self.pipeline {
            pipeline.finish();
        }
    }

    /// The next step of every rendition, or the end ([`Output::Done`] or
    /// [`Output::Failed`]).
    pub async fn next(&mut self) -> Option<Output> {
        loop {
            if let Some(step) = self.ready() {
                return Some(Output::Step(step));
            }
            if self.pipeline.is_none() {
                // An AAC publisher that sent no frame: nothing started, nothing to wait for.
                return if self.finished {
                    Some(Output::Done)
                } else {
                    std::future::pending().await
                };
            }
            match self.rx.recv().await? {
                Event::Adts(at, bytes) => {
                    let lane = &mut self.lanes[at];
                    for frame in lane.parser.push(&bytes) {
                        if lane.skip > 0 {
                            lane.skip -= 1;
                        } else {
                            lane.queue.push_back(frame);
                        }
                    }
                }
                Event::Flac { header, bytes } => {
                    if let Some(lane) = &mut self.flac {
                        lane.take_in(header, bytes);
                    }
                }
                // What one rendition has beyond the others has no partner: it is dropped.
                Event::Done => return Some(Output::Done),
                Event::Failed(message) => return Some(Output::Failed(message)),
            }
        }
    }

    fn ready(&mut self) -> Option<Step> {
        if self.lanes.iter().any(|l| l.queue.is_empty())
            || self.flac.as_ref().is_some_and(|f| f.queue.is_empty())
        {
            return None;
        }
        let frames = (self.lanes.iter_mut())
            .filter_map(|l| l.queue.pop_front())
            .collect();
        let index = self.next_index;
        if let Some(lane) = &mut self.flac
            && let Some(frame) = lane.queue.pop_front()
        {
            lane.stepped.push_back((index, frame));
        }
        self.next_index += 1;
        Some(Step { index, frames })
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::stream::codecs::adts::adts_frame;
    use crate::stream::codecs::transcode::ENCODERS;
    use crate::stream::codecs::transcode::tests::ffmpeg;
    use gstreamer as gst;

    const RATE: u32 = 48_000;
    /// The beep starts half way through frame 70 of the input.
    const BEEP_AT: u32 = 70 * 1024 + 512;

    /// Four seconds of quiet noise (so every encoder spends its bits) with a loud 1 kHz
    /// beep at [`BEEP_AT`], encoded by ffmpeg as `args` say.
    pub(crate) fn input(rate: u32, args: &[&str], ext: &str) -> Vec<u8> {
        let beep = f64::from(BEEP_AT) / f64::from(RATE);
        let source = format!(
            "aevalsrc=exprs='0.1*(2*random(0)-1)+if(between(t\\,{beep}\\,{end})\\,0.8*sin(2*PI*1000*(t-{beep}))\\,0)':s={rate}:d=4",
            end = beep + 0.03,
        );
        let args: Vec<&str> = ["-ac", "2"]
            .into_iter()
            .chain(args.iter().copied())
            .collect();
        ffmpeg(&source, &args, ext)
    }

    pub(crate) async fn run(mut ladder: Ladder, input: &[u8], chunk: usize) -> Vec<Step> {
        for piece in input.chunks(chunk) {
            ladder.push(piece).unwrap();
        }
        ladder.finish();
        drain(&mut ladder, |_, _| ()).await.0
    }

    /// Every step of a finished ladder, to its end, with what `take` keeps beside each
    /// (it is handed the ladder and the step's index).
    pub(crate) async fn drain<T>(
        ladder: &mut Ladder,
        mut take: impl FnMut(&mut Ladder, u64) -> T,
    ) -> (Vec<Step>, Vec<T>) {
        let (mut steps, mut taken) = (Vec::new(), Vec::new());
        loop {
            // A guard against a hung pipeline, not a measurement.
            match tokio::time::timeout(std::time::Duration::from_secs(30), ladder.next()).await {
                Ok(Some(Output::Step(step))) => {
                    taken.push(take(ladder, step.index));
                    steps.push(step);
                }
                Ok(Some(Output::Done)) => return (steps, taken),
                Ok(Some(Output::Failed(message))) => panic!("{message}"),
                Ok(None) | Err(_) => panic!("no end of stream"),
            }
        }
    }

    /// One rendition's frames as an ADTS file.
    fn adts(steps: &[Step], at: usize) -> Vec<u8> {
        (steps.iter())
            .flat_map(|s| adts_frame(&s.frames[at].config, &s.frames[at].payload))
            .collect()
    }

    fn file(bytes: &[u8]) -> tempfile::NamedTempFile {
        let file = tempfile::Builder::new().suffix(".aac").tempfile().unwrap();
        std::fs::write(file.path(), bytes).unwrap();
        file
    }

    /// What ffprobe reads: codec, sample rate, packets.
    fn probe(bytes: &[u8]) -> String {
        let file = file(bytes);
        let out = std::process::Command::new("ffprobe")
            .args(["-v", "error", "-count_packets", "-select_streams", "a:0"])
            .args([
                "-show_entries",
                "stream=codec_name,sample_rate,nb_read_packets",
            ])
            .args(["-of", "csv=p=0"])
            .arg(file.path())
            .output()
            .expect("ffprobe");
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap().trim().to_owned()
    }

    /// The first sample of the decoded rendition (by ffmpeg, left channel) louder than
    /// the noise and the codec's error can be: the beep's onset.
    fn onset(bytes: &[u8]) -> usize {
        let file = file(bytes);
        let out = std::process::Command::new("ffmpeg")
            .args(["-v", "error", "-i"])
            .arg(file.path())
            .args(["-af", "pan=mono|c0=c0", "-f", "f32le", "-"])
            .output()
            .expect("ffmpeg");
        assert!(out.status.success());
        let samples: Vec<f32> = (out.stdout.chunks_exact(4))
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        samples
            .iter()
            .position(|x| x.abs() > 0.45)
            .expect("the beep")
    }

    /// Bytes per rendition over the same frames.
    fn bytes_of(steps: &[Step], at: usize) -> usize {
        steps.iter().map(|s| 7 + s.frames[at].payload.len()).sum()
    }

    fn kbps(bytes: usize, frames: usize) -> f64 {
        bytes as f64 * 8.0 / (frames as f64 * 1024.0 / f64::from(RATE)) / 1000.0
    }

    /// Every step holds one frame per rendition with consecutive indexes; every rendition
    /// is AAC-LC at 48 kHz that ffprobe reads, with as many frames as there are steps; the
    /// data saver costs ≤ 0.45× the standard's bytes; and the beep starts at the same
    /// sample (within a few: the codecs smear it a little) in every rendition, so in the
    /// same frame. Answers the onsets.
    fn check(steps: &[Step], renditions: &[Rendition]) -> Vec<usize> {
        assert!(steps.len() > 150, "{}", steps.len());
        for (i, step) in steps.iter().enumerate() {
            assert_eq!(step.index, i as u64);
            assert_eq!(step.frames.len(), renditions.len());
            for frame in &step.frames {
                assert_eq!(frame.config.sample_rate(), RATE);
                assert_eq!(frame.config.object_type, 2);
                assert_eq!(frame.config.channels, 2);
            }
        }
        let saver = renditions
            .iter()
            .position(|r| *r == Rendition::DataSaver)
            .unwrap();
        let standard = renditions
            .iter()
            .position(|r| *r == Rendition::Standard)
            .unwrap();
        let (saver_bytes, standard_bytes) = (bytes_of(steps, saver), bytes_of(steps, standard));
        assert!(
            saver_bytes as f64 <= 0.45 * standard_bytes as f64,
            "{saver_bytes} > 0.45 × {standard_bytes}"
        );
        let standard_kbps = kbps(standard_bytes, steps.len());
        assert!((100.0..=150.0).contains(&standard_kbps), "{standard_kbps}");
        let onsets: Vec<usize> = (0..renditions.len())
            .map(|at| {
                let bytes = adts(steps, at);
                assert_eq!(probe(&bytes), format!("aac,{RATE},{}", steps.len()));
                onset(&bytes)
            })
            .collect();
        for onset in &onsets {
            assert!(onset.abs_diff(onsets[0]) <= 48, "{onsets:?}");
            assert_eq!(onset / 1024, onsets[0] / 1024, "{onsets:?}");
        }
        onsets
    }

    fn encoders() -> Vec<&'static str> {
        encoder().expect("gstreamer");
        let found: Vec<&'static str> = (ENCODERS.into_iter())
            .filter(|e| gst::ElementFactory::find(e).is_some())
            .collect();
        assert!(!found.is_empty());
        found
    }

    #[tokio::test]
    async fn an_aac_publisher_is_passed_through_and_every_rendition_aligns_with_it() {
        let aac = input(RATE, &["-c:a", "aac", "-b:a", "192k", "-f", "adts"], "aac");
        let sent = AdtsParser::new().push(&aac).len();
        for encoder in encoders() {
            let ladder = Ladder::start_with(Input::Aac, Target::for_show(None), encoder).unwrap();
            let renditions = ladder.renditions();
            let steps = run(ladder, &aac, 1000).await;
            let onsets = check(&steps, &renditions);
            if !passes_through_with(encoder) {
                assert_eq!(renditions, [Rendition::DataSaver, Rendition::Standard]);
                assert!(
                    steps.len() + 1 >= sent,
                    "{encoder}: {} of {sent}",
                    steps.len()
                );
                continue;
            }
            assert_eq!(
                renditions,
                [Rendition::DataSaver, Rendition::Standard, Rendition::Source]
            );
            // Every frame the publisher sent, untouched, in every rendition, none more.
            assert_eq!(steps.len(), sent, "{encoder}");
            let sent_frames = AdtsParser::new().push(&aac);
            assert!((steps.iter().zip(&sent_frames)).all(|(s, f)| s.frames[2] == *f));
            // ffmpeg's AAC encoder primes with one frame: the beep is that much later in
            // the decoded source, and (checked above) in every rendition.
            assert!(
                onsets[2].abs_diff((BEEP_AT + 1024) as usize) <= 16,
                "{encoder}: {onsets:?}"
            );
        }
    }

    #[tokio::test]
    async fn the_source_bitrate_says_whether_it_is_worth_listing_as_high() {
        let aac = input(RATE, &["-c:a", "aac", "-b:a", "192k", "-f", "adts"], "aac");
        let mut ladder = Ladder::start(Input::Aac, Target::for_show(None)).unwrap();
        assert_eq!(ladder.source_kbps(), None);
        ladder.push(&aac).unwrap();
        let kbps = ladder.source_kbps().unwrap();
        assert!(kbps > HIGH_ABOVE_KBPS && kbps < 220, "{kbps}");
        let mp3 = input(
            RATE,
            &["-c:a", "libmp3lame", "-b:a", "192k", "-f", "mp3"],
            "mp3",
        );
        let mut ladder = Ladder::start(Input::Transcoded, Target::for_show(None)).unwrap();
        ladder.push(&mp3).unwrap();
        assert_eq!(ladder.source_kbps(), None);
    }

    #[tokio::test]
    async fn an_mp3_publisher_at_44_1_khz_gets_two_aligned_renditions_at_48_khz() {
        let mp3 = input(
            44_100,
            &["-c:a", "libmp3lame", "-b:a", "128k", "-f", "mp3"],
            "mp3",
        );
        for encoder in encoders() {
            let ladder =
                Ladder::start_with(Input::Transcoded, Target::for_show(None), encoder).unwrap();
            let renditions = ladder.renditions();
            assert_eq!(renditions, [Rendition::DataSaver, Rendition::Standard]);
            let steps = run(ladder, &mp3, 417).await;
            let seconds = steps.len() as f64 * 1024.0 / f64::from(RATE);
            assert!((seconds - 4.0).abs() < 0.15, "{encoder}: {seconds}");
            check(&steps, &renditions);
        }
    }

    #[tokio::test]
    async fn a_browsers_opus_in_webm_gets_two_aligned_renditions() {
        let webm = input(
            RATE,
            &["-c:a", "libopus", "-b:a", "96k", "-f", "webm"],
            "webm",
        );
        let ladder = Ladder::start(Input::Transcoded, Target::for_show(None)).unwrap();
        let renditions = ladder.renditions();
        let steps = run(ladder, &webm, 1000).await;
        let seconds = steps.len() as f64 * 1024.0 / f64::from(RATE);
        assert!((seconds - 4.0).abs() < 0.15, "{seconds}");
        check(&steps, &renditions);
    }

    /// Every sample of a decoded file (ffmpeg, 32-bit float, interleaved).
    fn pcm_of(bytes: &[u8], ext: &str) -> Vec<f32> {
        crate::stream::test_media::floats(bytes, ext, &[])
    }

    /// A lossless PCM publisher's ladder, run to its end: the steps, the FLAC frames
    /// each step took, and the STREAMINFO.
    async fn run_lossless(
        input: &[u8],
        show: Option<AacConfig>,
    ) -> (Vec<Step>, Vec<Vec<FlacFrame>>, Option<StreamInfo>) {
        let mut ladder = Ladder::for_show(Input::Transcoded, show).unwrap();
        for piece in input.chunks(4_000) {
            ladder.push(piece).unwrap();
        }
        ladder.finish();
        let (steps, flac) = drain(&mut ladder, |ladder, index| ladder.take_flac(index)).await;
        (steps, flac, ladder.lossless())
    }

    #[tokio::test]
    async fn lossless_pcm_in_webm_gets_a_flac_frame_per_step_with_its_samples() {
        for (rate, codec, bits) in [
            (RATE, "pcm_f32le", 24),
            (44_100, "pcm_f32le", 24),
            (RATE, "pcm_s16le", 16),
        ] {
            let mkv = input(rate, &["-c:a", codec, "-f", "matroska"], "mkv");
            let (steps, flac, info) = run_lossless(&mkv, None).await;
            let info = info.expect("flacenc's STREAMINFO");
            assert_eq!(
                (info.sample_rate(), info.channels(), info.bits_per_sample()),
                (rate, 2, bits)
            );
            assert_eq!((info.min_block(), info.max_block()), (1024, 1024));
            // The ladder runs at the publisher's rate: one FLAC frame of 1,024 samples
            // with every step, frame k with step k.
            assert!(steps.len() > 150, "{}", steps.len());
            for (step, frames) in steps.iter().zip(&flac) {
                assert_eq!(step.frames[0].config.sample_rate(), rate);
                assert_eq!(frames.len(), 1, "step {}", step.index);
                // The last block holds what is left of the input.
                let last = step.index + 1 == steps.len() as u64;
                assert!(frames[0].samples == 1024 || last && frames[0].samples < 1024);
            }
            // The FLAC decodes to what was sent: to 24-bit precision from float (rounded,
            // not dithered), bit for bit from 16-bit integers.
            let mut file = b"fLaC\x80\x00\x00\x22".to_vec();
            file.extend_from_slice(&info.raw);
            file.extend(flac.iter().flatten().flat_map(|f| f.data.to_vec()));
            let (sent, got) = (pcm_of(&mkv, "mkv"), pcm_of(&file, "flac"));
            // Every sample sent, none more.
            assert_eq!(got.len(), sent.len(), "{rate} {codec}");
            // Within one step of 24 bits (half a step of rounding, plus the float
            // input's own precision near full scale).
            let step = if bits == 16 { 0.0 } else { 1.0 / 8_388_608.0 };
            let worst = (sent.iter().zip(&got))
                .map(|(a, b)| (a - b).abs())
                .fold(0.0f32, f32::max);
            assert!(worst <= step, "{rate} {codec}: {worst}");
            // The beep starts at the same sample in the FLAC as in the standard rendition.
            let standard = adts(&steps, 1);
            let beep = |pcm: &[f32]| pcm.iter().step_by(2).position(|x| x.abs() > 0.45);
            let (flac_onset, aac_onset) = (beep(&got).unwrap(), onset(&standard));
            assert!(
                flac_onset.abs_diff(aac_onset) <= 48,
                "{flac_onset} {aac_onset}"
            );
        }
    }

    #[tokio::test]
    async fn lossy_or_unfitting_input_gets_no_flac_branch() {
        let opus = input(RATE, &["-c:a", "libopus", "-f", "webm"], "webm");
        let (steps, flac, info) = run_lossless(&opus, None).await;
        assert!(steps.len() > 150 && info.is_none());
        assert!(flac.iter().all(Vec::is_empty));
        // PCM at a rate a new show does not start at, or not the show's rate: the AAC
        // renditions only, at the show's rate.
        let at_32k = input(32_000, &["-c:a", "pcm_f32le", "-f", "matroska"], "mkv");
        let (steps, _, info) = run_lossless(&at_32k, None).await;
        assert!(info.is_none());
        assert_eq!(steps[0].frames[0].config.sample_rate(), RATE);
        let mkv = input(44_100, &["-c:a", "pcm_f32le", "-f", "matroska"], "mkv");
        let show = steps[0].frames[0].config;
        let (steps, _, info) = run_lossless(&mkv, Some(show)).await;
        assert!(info.is_none());
        assert_eq!(steps[0].frames[0].config.sample_rate(), RATE);
    }

    #[tokio::test]
    async fn an_aac_publisher_keeps_its_first_format_and_a_change_is_dropped() {
        let at_48 = input(RATE, &["-c:a", "aac", "-b:a", "160k", "-f", "adts"], "aac");
        let at_44 = input(
            44_100,
            &["-c:a", "aac", "-b:a", "160k", "-f", "adts"],
            "aac",
        );
        let encoder = encoders().into_iter().find(|e| passes_through_with(e));
        let encoder = encoder.expect("avenc_aac (gstreamer1.0-libav)");
        let mut ladder = Ladder::start_with(Input::Aac, Target::for_show(None), encoder).unwrap();
        // Split so that a push starts with 44.1 kHz frames: they are still dropped.
        ladder.push(&at_48).unwrap();
        let steps = run(ladder, &at_44, 5000).await;
        assert_eq!(steps.len(), AdtsParser::new().push(&at_48).len());
        assert!((steps.iter()).all(|s| s.frames.iter().all(|f| f.config.sample_rate() == RATE)));
    }

    #[tokio::test]
    async fn garbage_is_refused_with_a_message() {
        let noise: Vec<u8> = (0..20_000u32).map(|i| (i * 7919 % 251) as u8).collect();
        let mut ladder = Ladder::start(Input::Transcoded, Target::for_show(None)).unwrap();
        ladder.push(&noise).unwrap();
        ladder.finish();
        match ladder.next().await {
            Some(Output::Failed(message)) => assert!(message.contains("decode"), "{message}"),
            other => panic!("{other:?}"),
        }
    }

    #[tokio::test]
    async fn an_aac_publisher_that_sends_no_frame_ends_with_nothing() {
        let mut ladder = Ladder::start(Input::Aac, Target::for_show(None)).unwrap();
        ladder.push(b"ICY 200 OK\r\nnot audio").unwrap();
        ladder.finish();
        assert!(matches!(ladder.next().await, Some(Output::Done)));
    }
}

/// Where a live frame's time goes inside the ladder (issue 32's glass-to-ear): input
/// paced in real time, each frame pushed when its whole audio exists, and for every
/// step the wait from that moment to when each encoder's sink gives its frame and to
/// when [`Ladder::next`] hands the step out. A diagnostic, not a test: run it with
/// `cargo nextest run --locked --run-ignored only stage_latency --no-capture`.
#[cfg(test)]
mod stage_latency {
    use std::time::{Duration, Instant};

    use gstreamer as gst;
    use gstreamer::prelude::*;

    use super::tests::input;
    use super::*;
    use crate::stream::codecs::adts::adts_frame;

    const RATE: u32 = 48_000;
    const FRAME_S: f64 = 1024.0 / 48_000.0;

    /// Milliseconds at the 50th and 95th percentiles and the largest.
    fn summary(mut ms: Vec<f64>) -> String {
        ms.sort_by(f64::total_cmp);
        let at = |q: f64| ms[((q * ms.len() as f64).ceil() as usize).clamp(1, ms.len()) - 1];
        format!(
            "p50 {:6.1} ms  p95 {:6.1} ms  max {:6.1} ms  (n {})",
            at(0.5),
            at(0.95),
            at(1.0),
            ms.len()
        )
    }

    /// Pushes `chunks` (each `chunk_s` of audio) at their real-time pace and answers the
    /// moment each step came out of `next`, and each sink's frames' arrival (by sink,
    /// before the priming is dropped), seen by a tap on the ladder's own channel.
    async fn paced(
        input: Input,
        chunks: Vec<Vec<u8>>,
        chunk_s: f64,
    ) -> (Instant, Vec<Instant>, Vec<Vec<Instant>>, Vec<Instant>) {
        let mut ladder = Ladder::start(input, Target::for_show(None)).unwrap();
        // A tap between the pipeline and the ladder: stamps each sink's frames.
        let (tap_tx, mut tap_rx) = mpsc::unbounded_channel::<Event>();
        let ladder_tx = std::mem::replace(&mut ladder.tx, tap_tx);
        let arrivals = std::sync::Arc::new(std::sync::Mutex::new(vec![Vec::new(); 3]));
        let stamps = arrivals.clone();
        tokio::spawn(async move {
            while let Some(event) = tap_rx.recv().await {
                if let Event::Adts(at, bytes) = &event {
                    let n = AdtsParser::new().push(bytes).len();
                    let now = Instant::now();
                    stamps.lock().unwrap()[*at].extend(std::iter::repeat_n(now, n));
                }
                if ladder_tx.send(event).is_err() {
                    break;
                }
            }
        });
        if input != Input::Aac {
            // Restart its pipeline on the tap (`start` made it on the ladder's own).
            ladder.pipeline = Some(ladder.pipeline_for(ladder.target).unwrap());
        }
        // The decoded PCM's arrival at the tee: (samples so far, when).
        let pcm = std::sync::Arc::new(std::sync::Mutex::new(Vec::<(u64, Instant)>::new()));
        let stamps = pcm.clone();
        let tee = ladder.pipeline.as_ref().and_then(|p| p.element("t"));
        let channels = u64::from(ladder.target.channels);
        // An AAC publisher's pipeline starts on its first frame: probed then.
        let probe = move |ladder: &Ladder| {
            let Some(tee) = ladder.pipeline.as_ref().and_then(|p| p.element("t")) else {
                return false;
            };
            let stamps = stamps.clone();
            let total = std::sync::atomic::AtomicU64::new(0);
            tee.static_pad("sink")
                .unwrap()
                .add_probe(gst::PadProbeType::BUFFER, move |_, info| {
                    if let Some(buffer) = info.buffer() {
                        let samples = buffer.size() as u64 / (4 * channels);
                        let n = total.fetch_add(samples, std::sync::atomic::Ordering::Relaxed)
                            + samples;
                        stamps.lock().unwrap().push((n, Instant::now()));
                    }
                    gst::PadProbeReturn::Ok
                });
            true
        };
        let mut probed = tee.is_some() && probe(&ladder);
        let t0 = Instant::now();
        let mut out = Vec::new();
        let mut next_chunk = 0;
        let mut chunks = chunks.into_iter();
        loop {
            let due = t0 + Duration::from_secs_f64((next_chunk + 1) as f64 * chunk_s);
            tokio::select! {
                () = tokio::time::sleep_until(due.into()), if !ladder.finished => {
                    match chunks.next() {
                        Some(chunk) => {
                            if let Input::Flac(info) = input {
                                let samples = u32::from(info.max_block());
                                ladder.push_flac(&[FlacFrame { data: chunk.into(), samples }]);
                            } else {
                                ladder.push(&chunk).unwrap();
                            }
                            if !probed {
                                probed = probe(&ladder);
                            }
                        }
                        None => ladder.finish(),
                    }
                    next_chunk += 1;
                }
                step = ladder.next() => match step {
                    Some(Output::Step(_)) => out.push(Instant::now()),
                    Some(Output::Done) | None => break,
                    Some(Output::Failed(message)) => panic!("{message}"),
                },
            }
        }
        let arrivals = arrivals.lock().unwrap().clone();
        // When frame k's PCM (samples up to 1024 (k+1)) had reached the tee.
        let pcm = pcm.lock().unwrap();
        let decoded = (0..out.len() as u64)
            .filter_map(|k| {
                pcm.iter()
                    .find(|(n, _)| *n >= 1024 * (k + 1))
                    .map(|(_, t)| *t)
            })
            .collect();
        (t0, out, arrivals, decoded)
    }

    /// The audio of step `k` exists from `t0 + (k+1)·frame`: its wait is from then.
    fn waits(t0: Instant, at: &[Instant], skip: usize, delay_s: f64) -> Vec<f64> {
        (at.iter().skip(skip).enumerate())
            .skip(25) // start-up (typefinding, the first buffers) is not the steady state
            .map(|(k, t)| {
                let ready = t0 + Duration::from_secs_f64((k + 1) as f64 * FRAME_S + delay_s);
                t.saturating_duration_since(ready).as_secs_f64() * 1000.0
            })
            .collect()
    }

    #[tokio::test]
    #[ignore = "a diagnostic: prints where the time goes, in real time"]
    async fn aac_publisher() {
        let aac = input(RATE, &["-c:a", "aac", "-b:a", "192k", "-f", "adts"], "aac");
        let frames: Vec<Vec<u8>> = (AdtsParser::new().push(&aac).iter())
            .map(|f| adts_frame(&f.config, &f.payload))
            .collect();
        let (t0, out, arrivals, decoded) = paced(Input::Aac, frames, FRAME_S).await;
        println!("AAC publisher, frame pushed → …");
        // Decoded block k is source frame k's: an AAC decoder does not delay.
        println!(
            "  {:14} {}",
            "PCM at the tee",
            summary(waits(t0, &decoded, 0, 0.0))
        );
        for (at, name) in ["saver sink", "standard sink"].iter().enumerate() {
            println!("  {name:14} {}", summary(waits(t0, &arrivals[at], 1, 0.0)));
        }
        println!(
            "  {:14} {}",
            "Ladder::next",
            summary(waits(t0, &out, 0, 0.0))
        );
    }

    #[tokio::test]
    #[ignore = "a diagnostic: prints where the time goes, in real time"]
    async fn ogg_flac_publisher() {
        // As the live panel's example sends it: 4,096-sample blocks, a page per block.
        let ogg = input(
            RATE,
            &["-c:a", "flac", "-frame_size", "4096", "-f", "ogg"],
            "ogg",
        );
        let mut demux = crate::stream::codecs::flac::OggFlac::new();
        let frames = demux.push(&ogg).frames;
        let info = *demux.info().unwrap();
        let block_s = f64::from(info.max_block()) / f64::from(RATE);
        let chunks = frames.iter().map(|f| f.data.to_vec()).collect();
        let (t0, out, arrivals, decoded) = paced(Input::Flac(info), chunks, block_s).await;
        // Step k's audio exists once its block is whole: block k/4 is pushed at
        // t0 + (k/4 + 1)·block.
        let from_block = |at: &[Instant], skip: usize| -> Vec<f64> {
            (at.iter().skip(skip).enumerate())
                .skip(25)
                .map(|(k, t)| {
                    let ready = t0 + Duration::from_secs_f64((k / 4 + 1) as f64 * block_s);
                    t.saturating_duration_since(ready).as_secs_f64() * 1000.0
                })
                .collect()
        };
        println!("Ogg FLAC publisher (4,096-sample blocks), block pushed → …");
        println!(
            "  {:14} {}",
            "PCM at the tee",
            summary(from_block(&decoded, 0))
        );
        for (at, name) in ["saver sink", "standard sink"].iter().enumerate() {
            println!("  {name:14} {}", summary(from_block(&arrivals[at], 1)));
        }
        println!("  {:14} {}", "Ladder::next", summary(from_block(&out, 0)));
    }

    #[tokio::test]
    #[ignore = "a diagnostic: prints where the time goes, in real time"]
    async fn mp3_publisher() {
        // 128 kbit/s at 48 kHz is 384 bytes per 1152-sample frame, without padding.
        let mp3 = input(
            RATE,
            &[
                "-c:a",
                "libmp3lame",
                "-b:a",
                "128k",
                "-id3v2_version",
                "0",
                "-write_xing",
                "0",
                "-f",
                "mp3",
            ],
            "mp3",
        );
        let chunks: Vec<Vec<u8>> = mp3.chunks(384).map(<[u8]>::to_vec).collect();
        let (t0, out, arrivals, decoded) =
            paced(Input::Transcoded, chunks, 1152.0 / 48_000.0).await;
        // LAME's own delay (576 + 529 samples) is in the decoded audio: not ours.
        let lame = 1105.0 / 48_000.0;
        println!("MP3 publisher (net of LAME's delay), frame pushed → …");
        println!(
            "  {:14} {}",
            "PCM at the tee",
            summary(waits(t0, &decoded, 0, lame))
        );
        for (at, name) in ["saver sink", "standard sink"].iter().enumerate() {
            println!("  {name:14} {}", summary(waits(t0, &arrivals[at], 1, lame)));
        }
        println!(
            "  {:14} {}",
            "Ladder::next",
            summary(waits(t0, &out, 0, lame))
        );
    }
}
