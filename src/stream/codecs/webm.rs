//! Whether a WebM (Matroska) stream's audio is lossless PCM, read from its header: the
//! one track's `CodecID` (`A_PCM/FLOAT/IEEE`, what Chromium's MediaRecorder writes for
//! `audio/webm;codecs=pcm`, or `A_PCM/INT/LIT`), rate, channels and bit depth. The ladder
//! then adds a FLAC branch (issue 32's browser go-live in lossless): the stream itself
//! says it is lossless, not the media type the browser claims.

/// A Matroska stream's PCM track.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pcm {
    pub sample_rate: u32,
    pub channels: u8,
    /// Bits per sample as stored (32 or 64 for float).
    pub bits: u8,
    pub float: bool,
}

impl Pcm {
    /// The FLAC depth that keeps every sample: the integer depth itself, 24 bits for
    /// float (FLAC has no float; 24 bits is what a float microphone signal carries).
    pub fn flac_bits(&self) -> u8 {
        if !self.float && self.bits <= 16 {
            16
        } else {
            24
        }
    }
}

const EBML: u32 = 0x1A45_DFA3;
const SEGMENT: u32 = 0x1853_8067;
const TRACKS: u32 = 0x1654_AE6B;
const TRACK_ENTRY: u32 = 0xAE;
const AUDIO: u32 = 0xE1;
const CODEC_ID: u32 = 0x86;
const SAMPLING_FREQUENCY: u32 = 0xB5;
const CHANNELS: u32 = 0x9F;
const BIT_DEPTH: u32 = 0x6264;
const CLUSTER: u32 = 0x1F43_B675;

/// A header longer than this without a cluster is not a live WebM worth waiting for.
const MAX_HEAD: usize = 64 * 1024;

/// A variable-length integer at `at`: its value (without the length marker unless
/// `keep_marker`, as element IDs are written), its length, and whether it is the
/// "unknown size" value. `None` until its bytes are here; `Some(Err)` when malformed.
fn vint(bytes: &[u8], at: usize, keep_marker: bool) -> Option<Result<(u64, usize, bool), ()>> {
    let first = *bytes.get(at)?;
    let len = first.leading_zeros() as usize + 1;
    if len > 8 {
        return Some(Err(()));
    }
    let raw = bytes.get(at..at + len)?;
    let mut value = raw.iter().fold(0u64, |v, &b| (v << 8) | u64::from(b));
    let marker = 1u64 << (7 * len);
    // Every value bit set: "unknown size" (a live stream's Segment and Cluster).
    let unknown = value & (marker - 1) == marker - 1;
    if !keep_marker {
        value &= marker - 1;
    }
    Some(Ok((value, len, unknown)))
}

/// Reads a Matroska stream's header: `None` until it has been decided (the first
/// cluster reached), then the PCM track, or `Some(None)` when the stream is not Matroska
/// or its one track is not PCM.
pub fn sniff(head: &[u8]) -> Option<Option<Pcm>> {
    if !EBML.to_be_bytes().starts_with(&head[..head.len().min(4)]) {
        return Some(None);
    }
    let (mut codec, mut rate, mut channels, mut bits, mut tracks) = (None, 8_000.0, 1u64, 0, 0);
    let mut at = 0;
    loop {
        if at > MAX_HEAD {
            return Some(None);
        }
        let Ok((id, id_len, _)) = vint(head, at, true)? else {
            return Some(None);
        };
        let Ok((size, size_len, unknown)) = vint(head, at + id_len, false)? else {
            return Some(None);
        };
        let body = at + id_len + size_len;
        match id as u32 {
            CLUSTER => break,
            // Containers: their children follow at once.
            SEGMENT | TRACKS | AUDIO => at = body,
            TRACK_ENTRY => {
                tracks += 1;
                at = body;
            }
            _ if unknown => return Some(None),
            leaf => {
                let end = body + usize::try_from(size).ok()?;
                let value = head.get(body..end)?;
                let uint = || value.iter().fold(0u64, |v, &b| (v << 8) | u64::from(b));
                match leaf {
                    EBML => {}
                    CODEC_ID => codec = Some(value.to_vec()),
                    SAMPLING_FREQUENCY => {
                        rate = match value.len() {
                            4 => f64::from(f32::from_be_bytes(value.try_into().ok()?)),
                            8 => f64::from_be_bytes(value.try_into().ok()?),
                            _ => return Some(None),
                        }
                    }
                    CHANNELS => channels = uint(),
                    BIT_DEPTH => bits = uint(),
                    _ => {}
                }
                at = end;
            }
        }
    }
    let float = match codec.as_deref() {
        Some(b"A_PCM/FLOAT/IEEE") => true,
        Some(b"A_PCM/INT/LIT") => false,
        _ => return Some(None),
    };
    let bits = if bits == 0 && float { 32 } else { bits };
    let whole_rate = rate.fract() == 0.0 && (1.0..=655_350.0).contains(&rate);
    let usable = tracks == 1
        && whole_rate
        && (1..=8).contains(&channels)
        && if float {
            bits == 32 || bits == 64
        } else {
            bits == 16 || bits == 24
        };
    Some(usable.then_some(Pcm {
        sample_rate: rate as u32,
        channels: channels as u8,
        bits: bits as u8,
        float,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stream::codecs::transcode::tests::ffmpeg;

    fn sine(args: &[&str], format: &str) -> Vec<u8> {
        ffmpeg("sine=frequency=440:sample_rate=44100:d=1", args, format)
    }

    #[test]
    fn pcm_in_matroska_is_read_from_its_header_and_anything_else_is_not() {
        let float = sine(&["-ac", "2", "-c:a", "pcm_f32le", "-f", "matroska"], "mkv");
        let int16 = sine(&["-ac", "1", "-c:a", "pcm_s16le", "-f", "matroska"], "mkv");
        let opus = sine(&["-c:a", "libopus", "-f", "webm"], "webm");
        let float_pcm = Pcm {
            sample_rate: 44_100,
            channels: 2,
            bits: 32,
            float: true,
        };
        assert_eq!(sniff(&float), Some(Some(float_pcm)));
        assert_eq!(float_pcm.flac_bits(), 24);
        let int_pcm = sniff(&int16).unwrap().unwrap();
        assert_eq!(
            (int_pcm.channels, int_pcm.bits, int_pcm.float),
            (1, 16, false)
        );
        assert_eq!(int_pcm.flac_bits(), 16);
        assert_eq!(sniff(&opus), Some(None));
        assert_eq!(sniff(b"ID3\x04 an mp3"), Some(None));
        // Undecided until the first cluster: a header cut short waits for more.
        let cluster = (float.windows(4))
            .position(|w| w == CLUSTER.to_be_bytes())
            .unwrap();
        assert_eq!(sniff(&float[..cluster]), None);
        assert_eq!(sniff(&float[..3]), None);
    }
}
