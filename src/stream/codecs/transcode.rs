//! The codec layer: anything GStreamer can decode (MP3 from an encoder, Opus in WebM or
//! Ogg from a browser's MediaRecorder) in, AAC in ADTS out, for the same segmenter an
//! AAC encoder feeds. GStreamer runs the pipeline on its own streaming threads; bytes go
//! in through `appsrc` without blocking, and ADTS frames come back over a channel, so
//! the async ingest loop never waits on the codec. [`Pipeline`] is the one set-up of it,
//! for the single rendition here and for every rendition of the ladder (`ladder.rs`).

use std::sync::OnceLock;

use gstreamer as gst;
use gstreamer::prelude::*;
use gstreamer_app as gst_app;
use tokio::sync::mpsc;

use crate::stream::codecs::adts::AacConfig;
use crate::stream::codecs::flac::StreamInfo;

/// What the pipeline hands back.
#[derive(Debug)]
pub enum Output {
    /// One or more whole ADTS frames.
    Adts(Vec<u8>),
    /// Every byte pushed in has come out (after `finish`).
    Done,
    /// The input could not be decoded; the message is for the publisher.
    Failed(String),
}

#[derive(Debug, thiserror::Error)]
pub enum Unavailable {
    #[error("GStreamer is not available on this server: {0}")]
    Init(String),
    #[error(
        "this server lacks the GStreamer element {0} (install gstreamer1.0-libav and gstreamer1.0-plugins-good)"
    )]
    Missing(&'static str),
    #[error("starting the transcoder failed: {0}")]
    Pipeline(String),
}

/// The output format: the show's own (a reconnecting publisher must match it, as a
/// player cannot switch formats mid-show), or 48 kHz stereo for a new show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Target {
    pub sample_rate: u32,
    pub channels: u8,
}

impl Target {
    pub fn for_show(existing: Option<AacConfig>) -> Self {
        existing.map_or(
            Self {
                sample_rate: 48_000,
                channels: 2,
            },
            |c| Self {
                sample_rate: c.sample_rate(),
                channels: c.channels.clamp(1, 2),
            },
        )
    }
}

pub(crate) const ENCODERS: [&str; 2] = ["avenc_aac", "voaacenc"];

/// Initialise GStreamer once and pick the AAC encoder; the answer is kept.
pub fn encoder() -> Result<&'static str, Unavailable> {
    static READY: OnceLock<Result<&'static str, String>> = OnceLock::new();
    READY
        .get_or_init(|| {
            gst::init().map_err(|e| format!("init: {e}"))?;
            for needed in ["appsrc", "appsink", "decodebin", "audioconvert", "aacparse"] {
                if gst::ElementFactory::find(needed).is_none() {
                    return Err(format!("missing:{needed}"));
                }
            }
            ENCODERS
                .into_iter()
                .find(|name| gst::ElementFactory::find(name).is_some())
                .ok_or_else(|| "missing:avenc_aac".to_owned())
        })
        .clone()
        .map_err(|e| match e.strip_prefix("missing:") {
            Some("appsrc") => Unavailable::Missing("appsrc"),
            Some("appsink") => Unavailable::Missing("appsink"),
            Some("decodebin") => Unavailable::Missing("decodebin"),
            Some("audioconvert") => Unavailable::Missing("audioconvert"),
            Some("aacparse") => Unavailable::Missing("aacparse"),
            Some(_) => Unavailable::Missing("avenc_aac"),
            None => Unavailable::Init(e),
        })
}

/// What a [`Pipeline`]'s streaming threads send back.
#[derive(Debug)]
pub(crate) enum Event {
    /// Whole ADTS frames from the encoder at this index of `bitrates_kbps`.
    Adts(usize, Vec<u8>),
    /// One buffer of the FLAC branch's `flacenc`: a stream header (`fLaC`, the metadata
    /// blocks) when flagged so, else one frame.
    Flac { header: bool, bytes: Vec<u8> },
    /// Every sink had its end of stream (after `finish`), after its last frame.
    Done,
    /// The input could not be decoded; the message is for the publisher.
    Failed(String),
}

/// A sink's next buffer: its bytes, and whether it is a stream header (`flacenc` flags its
/// `fLaC` marker and metadata blocks so).
fn pulled(sink: &gst_app::AppSink) -> Result<(Vec<u8>, bool), gst::FlowError> {
    let sample = sink.pull_sample().map_err(|_| gst::FlowError::Eos)?;
    let buffer = sample.buffer().ok_or(gst::FlowError::Error)?;
    let header = buffer.flags().contains(gst::BufferFlags::HEADER);
    let map = buffer.map_readable().map_err(|_| gst::FlowError::Error)?;
    Ok((map.as_slice().to_vec(), header))
}

/// What decodes a pipeline's input.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Decoder {
    /// Whatever `decodebin` finds for the bytes, chunked any way.
    Any,
    /// Whole FLAC frames of this stream, one per [`Pipeline::push`], straight into
    /// `flacdec`. Fed the Ogg stream instead, `decodebin`'s `flacparse` held every frame
    /// until the next one's header had arrived: a block (85 ms at 48 kHz) on every live
    /// frame's way.
    Flac(StreamInfo),
}

impl Decoder {
    fn element(self) -> &'static str {
        match self {
            Self::Any => "decodebin",
            Self::Flac(_) => "flacdec",
        }
    }
}

/// Caps for whole FLAC frames: `flacdec` reads the stream's header (the `fLaC` marker and
/// the STREAMINFO, as the last metadata block) from `streamheader`.
fn framed_flac_caps(info: &StreamInfo) -> gst::Caps {
    let mut header = b"fLaC\x80\x00\x00\x22".to_vec();
    header.extend_from_slice(&info.raw);
    let header = gst::Buffer::from_mut_slice(header);
    gst::Caps::builder("audio/x-flac")
        .field("framed", true)
        .field(
            "rate",
            i32::try_from(info.sample_rate()).unwrap_or(i32::MAX),
        )
        .field("channels", i32::from(info.channels()))
        .field("streamheader", gst::Array::new([header.to_send_value()]))
        .build()
}

/// The one GStreamer set-up of the codec layer: `appsrc ! decodebin ! audioconvert !
/// audioresample` to the target's raw format, then one AAC encoder per bitrate (behind a
/// `tee` and a `queue` each when there are several, so every encoder has its thread and
/// every sink prerolls), each into its own `appsink`. The single-rendition
/// [`Transcoder`] and the rendition ladder both start theirs here. Dropping it tears the
/// pipeline down.
pub(crate) struct Pipeline {
    pipeline: gst::Pipeline,
    src: gst_app::AppSrc,
}

impl Pipeline {
    pub(crate) fn start(
        decoder: Decoder,
        encoder: &str,
        target: Target,
        bitrates_kbps: &[u32],
        flac_bits: Option<u8>,
        tx: mpsc::UnboundedSender<Event>,
    ) -> Result<Self, Unavailable> {
        let failed = |e: &dyn std::fmt::Display| Unavailable::Pipeline(e.to_string());
        let branch = |at: usize, kbps: u32| {
            format!(
                "{encoder} bitrate={bits} ! aacparse ! audio/mpeg,stream-format=adts ! \
                 appsink name=sink{at} sync=false emit-signals=false",
                bits = kbps * 1000,
            )
        };
        let mut description = format!(
            "appsrc name=src stream-type=stream format=bytes ! {decoder} ! audioconvert ! \
             audioresample ! audio/x-raw,rate={rate},channels={channels}",
            decoder = decoder.element(),
            rate = target.sample_rate,
            channels = target.channels,
        );
        match (bitrates_kbps, flac_bits) {
            ([], _) => return Err(failed(&"no encoder asked for")),
            ([kbps], None) => description.push_str(&format!(" ! {}", branch(0, *kbps))),
            (several, _) => {
                description.push_str(" ! tee name=t");
                for (at, kbps) in several.iter().enumerate() {
                    description.push_str(&format!(" t. ! queue ! {}", branch(at, *kbps)));
                }
            }
        }
        if let Some(bits) = flac_bits {
            // Lossless PCM in: the same samples the AAC encoders take, as FLAC of the
            // input's depth (never dithered: float to 24 bits is rounded, and 16-bit
            // input stays bit for bit). 1,024-sample blocks: frame k is step k.
            let format = if bits <= 16 { "S16LE" } else { "S24_32LE" };
            description.push_str(&format!(
                " t. ! queue ! audioconvert dithering=none noise-shaping=none ! \
                 audio/x-raw,format={format} ! flacenc blocksize=1024 ! \
                 appsink name=flac sync=false emit-signals=false"
            ));
        }
        let pipeline = gst::parse::launch(&description)
            .map_err(|e| failed(&e))?
            .downcast::<gst::Pipeline>()
            .map_err(|_| failed(&"not a pipeline"))?;
        let src = (pipeline.by_name("src"))
            .and_then(|e| e.downcast::<gst_app::AppSrc>().ok())
            .ok_or_else(|| failed(&"no appsrc"))?;
        // A live publisher must never be slowed by the codec: queue whatever arrives.
        src.set_max_bytes(0);
        for at in 0..bitrates_kbps.len() {
            let sink = (pipeline.by_name(&format!("sink{at}")))
                .and_then(|e| e.downcast::<gst_app::AppSink>().ok())
                .ok_or_else(|| failed(&"no appsink"))?;
            let frames = tx.clone();
            sink.set_callbacks(
                gst_app::AppSinkCallbacks::builder()
                    .new_sample(move |sink| {
                        let (bytes, _) = pulled(sink)?;
                        frames
                            .send(Event::Adts(at, bytes))
                            .map_err(|_| gst::FlowError::Flushing)?;
                        Ok(gst::FlowSuccess::Ok)
                    })
                    .build(),
            );
        }
        if let Some(sink) =
            (pipeline.by_name("flac")).and_then(|e| e.downcast::<gst_app::AppSink>().ok())
        {
            let frames = tx.clone();
            sink.set_callbacks(
                gst_app::AppSinkCallbacks::builder()
                    .new_sample(move |sink| {
                        let (bytes, header) = pulled(sink)?;
                        frames
                            .send(Event::Flac { header, bytes })
                            .map_err(|_| gst::FlowError::Flushing)?;
                        Ok(gst::FlowSuccess::Ok)
                    })
                    .build(),
            );
        }
        let bus = pipeline.bus().ok_or_else(|| failed(&"no bus"))?;
        bus.set_sync_handler(move |_, message| {
            match message.view() {
                // The pipeline's EOS comes once every sink had its own.
                gst::MessageView::Eos(_) => {
                    let _ = tx.send(Event::Done);
                }
                gst::MessageView::Error(err) => {
                    tracing::info!(error = %err.error(), debug = ?err.debug(), "codec pipeline error");
                    let _ = tx.send(Event::Failed(describe(&err.error())));
                }
                _ => {}
            }
            gst::BusSyncReply::Drop
        });
        if let Decoder::Flac(info) = decoder {
            src.set_caps(Some(&framed_flac_caps(&info)));
            // A decoder takes a stream in time (a parser made one of bytes before).
            src.set_format(gst::Format::Time);
        }
        (pipeline.set_state(gst::State::Playing)).map_err(|e| failed(&e))?;
        Ok(Self { pipeline, src })
    }

    /// The input is whole raw AAC frames in this format, one per [`Pipeline::push`] (call
    /// it before the first). The decoder then takes each frame as it comes: fed ADTS
    /// bytes, `aacparse` held every frame until the next one's header had arrived (to be
    /// sure of its sync), one frame (21 ms at 48 kHz) on every live frame's way.
    pub(crate) fn take_raw_aac(&self, config: &AacConfig) {
        let codec_data = gst::Buffer::from_slice(config.audio_specific_config());
        let caps = gst::Caps::builder("audio/mpeg")
            .field("mpegversion", 4i32)
            .field("stream-format", "raw")
            .field("framed", true)
            .field(
                "rate",
                i32::try_from(config.sample_rate()).unwrap_or(i32::MAX),
            )
            .field("channels", i32::from(config.channels))
            .field("codec_data", codec_data)
            .build();
        self.src.set_caps(Some(&caps));
    }

    /// Bytes for the decoder, as they come (any chunking; after [`Pipeline::take_raw_aac`],
    /// one whole frame); `false` once it takes no more.
    pub(crate) fn push(&self, bytes: impl AsRef<[u8]> + Send + 'static) -> bool {
        self.src.push_buffer(gst::Buffer::from_slice(bytes)).is_ok()
    }

    /// No more input: what is still inside comes out, then [`Event::Done`].
    pub(crate) fn finish(&self) {
        let _ = self.src.end_of_stream();
    }

    /// The pipeline's element of this name (for the ladder's latency diagnostic).
    #[cfg(test)]
    pub(crate) fn element(&self, name: &str) -> Option<gst::Element> {
        self.pipeline.by_name(name)
    }
}

impl Drop for Pipeline {
    fn drop(&mut self) {
        let _ = self.pipeline.set_state(gst::State::Null);
    }
}

/// One publisher's decode → AAC pipeline at one bitrate (the live path's single
/// rendition). Dropping it tears the pipeline down.
pub struct Transcoder {
    pipeline: Pipeline,
    output: mpsc::UnboundedReceiver<Event>,
}

impl Transcoder {
    pub fn start(target: Target, bitrate_kbps: u32) -> Result<Self, Unavailable> {
        let (tx, output) = mpsc::unbounded_channel();
        let pipeline =
            Pipeline::start(Decoder::Any, encoder()?, target, &[bitrate_kbps], None, tx)?;
        Ok(Self { pipeline, output })
    }

    /// Bytes from the publisher, as they come (any chunking).
    pub fn push(&self, bytes: &[u8]) -> bool {
        self.pipeline.push(bytes.to_vec())
    }

    /// No more input: what is still inside comes out, then `Output::Done`.
    pub fn finish(&self) {
        self.pipeline.finish();
    }

    /// The next output; `None` once the pipeline is gone.
    pub async fn next(&mut self) -> Option<Output> {
        loop {
            return Some(match self.output.recv().await? {
                Event::Adts(_, bytes) => Output::Adts(bytes),
                // Its pipeline has no FLAC branch.
                Event::Flac { .. } => continue,
                Event::Done => Output::Done,
                Event::Failed(message) => Output::Failed(message),
            });
        }
    }
}

pub(crate) fn describe(error: &gst::glib::Error) -> String {
    if error.matches(gst::StreamError::TypeNotFound)
        || error.matches(gst::StreamError::WrongType)
        || error.matches(gst::StreamError::CodecNotFound)
    {
        "This audio format cannot be decoded.".to_owned()
    } else if error.matches(gst::StreamError::Decode) || error.matches(gst::StreamError::Demux) {
        "The audio could not be decoded (corrupt or truncated data).".to_owned()
    } else {
        format!("The audio could not be decoded: {error}")
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::stream::codecs::adts::AdtsParser;

    /// ffmpeg's lavfi `source` encoded as `args` say into a `.ext` file, as bytes (the
    /// ladder's tests make theirs here too).
    pub(crate) fn ffmpeg(source: &str, args: &[&str], ext: &str) -> Vec<u8> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(format!("in.{ext}"));
        let status = std::process::Command::new("ffmpeg")
            .args(["-v", "error", "-y", "-f", "lavfi", "-i", source])
            .args(args)
            .arg(&path)
            .status()
            .expect("ffmpeg");
        assert!(status.success());
        std::fs::read(path).unwrap()
    }

    /// A few seconds of a tone in a container GStreamer must decode.
    fn sample(args: &[&str], ext: &str) -> Vec<u8> {
        ffmpeg("sine=frequency=440:sample_rate=44100:duration=3", args, ext)
    }

    async fn transcode(input: &[u8], chunk: usize) -> Result<Vec<u8>, String> {
        let mut t = Transcoder::start(Target::for_show(None), 128).expect("gstreamer");
        for piece in input.chunks(chunk) {
            assert!(t.push(piece));
        }
        t.finish();
        let mut out = Vec::new();
        loop {
            match tokio::time::timeout(std::time::Duration::from_secs(20), t.next()).await {
                Ok(Some(Output::Adts(bytes))) => out.extend(bytes),
                Ok(Some(Output::Done)) => return Ok(out),
                Ok(Some(Output::Failed(message))) => return Err(message),
                Ok(None) | Err(_) => return Err("no end of stream".into()),
            }
        }
    }

    fn seconds_of(adts: &[u8]) -> f64 {
        let frames = AdtsParser::new().push(adts);
        assert!(!frames.is_empty());
        assert!(frames.iter().all(|f| f.config.sample_rate() == 48_000));
        frames.len() as f64 * 1024.0 / 48_000.0
    }

    #[tokio::test]
    async fn mp3_in_small_chunks_comes_out_as_the_same_length_of_aac() {
        let mp3 = sample(&["-c:a", "libmp3lame", "-b:a", "128k", "-f", "mp3"], "mp3");
        let seconds = seconds_of(&transcode(&mp3, 417).await.unwrap());
        assert!((seconds - 3.0).abs() < 0.15, "{seconds}");
    }

    #[tokio::test]
    async fn opus_in_webm_as_a_browser_records_it_comes_out_as_aac() {
        let webm = sample(&["-c:a", "libopus", "-b:a", "64k", "-f", "webm"], "webm");
        let seconds = seconds_of(&transcode(&webm, 1000).await.unwrap());
        assert!((seconds - 3.0).abs() < 0.15, "{seconds}");
    }

    #[tokio::test]
    async fn garbage_is_refused_with_a_message() {
        let noise: Vec<u8> = (0..20_000u32).map(|i| (i * 7919 % 251) as u8).collect();
        let message = transcode(&noise, 4096).await.unwrap_err();
        assert!(message.contains("decode"), "{message}");
    }
}
