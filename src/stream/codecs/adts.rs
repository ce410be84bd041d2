//! AAC in ADTS: a streaming parser that turns whatever bytes an encoder sends into whole
//! AAC frames. It never panics and never trusts a length it has not checked: garbage is
//! skipped byte by byte until a plausible header is found again.

/// Sampling frequencies by ADTS/AudioSpecificConfig index.
pub const SAMPLE_RATES: [u32; 13] = [
    96_000, 88_200, 64_000, 48_000, 44_100, 32_000, 24_000, 22_050, 16_000, 12_000, 11_025, 8_000,
    7_350,
];

/// Samples in one AAC frame.
pub const SAMPLES_PER_FRAME: u32 = 1024;

/// Keep at most this much unparsed input; beyond it the stream is not ADTS.
const MAX_PENDING: usize = 64 * 1024;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AacConfig {
    /// MPEG-4 audio object type (2 = AAC LC).
    pub object_type: u8,
    pub sample_rate_index: u8,
    pub channels: u8,
}

impl AacConfig {
    pub fn sample_rate(&self) -> u32 {
        SAMPLE_RATES
            .get(usize::from(self.sample_rate_index))
            .copied()
            .unwrap_or(44_100)
    }

    /// The two-byte AudioSpecificConfig that goes into the MP4 `esds` box.
    pub fn audio_specific_config(&self) -> [u8; 2] {
        let ot = self.object_type & 0x1F;
        let sr = self.sample_rate_index & 0x0F;
        let ch = self.channels & 0x0F;
        [(ot << 3) | (sr >> 1), ((sr & 1) << 7) | (ch << 3)]
    }

    /// The RFC 6381 codec string for playlists, e.g. `mp4a.40.2`.
    pub fn codec(&self) -> String {
        format!("mp4a.40.{}", self.object_type)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AacFrame {
    pub config: AacConfig,
    /// The raw AAC payload, without the ADTS header.
    pub payload: Vec<u8>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Header {
    config: AacConfig,
    header_len: usize,
    frame_len: usize,
}

fn parse_header(b: &[u8]) -> Option<Header> {
    if b.len() < 7 || b[0] != 0xFF || b[1] & 0xF0 != 0xF0 {
        return None;
    }
    let layer = (b[1] >> 1) & 0x03;
    if layer != 0 {
        return None;
    }
    let protection_absent = b[1] & 0x01 == 1;
    let profile = b[2] >> 6;
    let sample_rate_index = (b[2] >> 2) & 0x0F;
    if usize::from(sample_rate_index) >= SAMPLE_RATES.len() {
        return None;
    }
    let channels = ((b[2] & 0x01) << 2) | (b[3] >> 6);
    if channels == 0 {
        // Channel configuration in a program config element: not supported for live input.
        return None;
    }
    let frame_len =
        (usize::from(b[3] & 0x03) << 11) | (usize::from(b[4]) << 3) | usize::from(b[5] >> 5);
    let header_len = if protection_absent { 7 } else { 9 };
    if frame_len <= header_len {
        return None;
    }
    let raw_blocks = b[6] & 0x03;
    if raw_blocks != 0 {
        // Several raw data blocks per ADTS frame: rare and not mappable 1:1 to MP4 samples.
        return None;
    }
    Some(Header {
        config: AacConfig {
            object_type: profile + 1,
            sample_rate_index,
            channels,
        },
        header_len,
        frame_len,
    })
}

#[derive(Debug, Default)]
pub struct AdtsParser {
    pending: Vec<u8>,
    skipped: u64,
}

impl AdtsParser {
    pub fn new() -> Self {
        Self::default()
    }

    /// Bytes thrown away while looking for frame boundaries (for diagnostics).
    pub fn skipped(&self) -> u64 {
        self.skipped
    }

    /// Feed bytes; answers every frame completed by them.
    pub fn push(&mut self, data: &[u8]) -> Vec<AacFrame> {
        self.pending.extend_from_slice(data);
        let mut frames = Vec::new();
        let mut pos = 0;
        while pos < self.pending.len() {
            let rest = &self.pending[pos..];
            match parse_header(rest) {
                Some(header) if rest.len() >= header.frame_len => {
                    // A real frame is followed by another header (or by the end of data
                    // so far); demanding it rejects false syncs inside garbage.
                    let next = &rest[header.frame_len..];
                    let confirmed = next.len() < 2 || (next[0] == 0xFF && next[1] & 0xF6 == 0xF0);
                    if confirmed {
                        frames.push(AacFrame {
                            config: header.config,
                            payload: rest[header.header_len..header.frame_len].to_vec(),
                        });
                        pos += header.frame_len;
                    } else {
                        pos += 1;
                        self.skipped += 1;
                    }
                }
                Some(_) => break,
                None if rest.len() < 7 && rest.first() == Some(&0xFF) => break,
                None => {
                    pos += 1;
                    self.skipped += 1;
                }
            }
        }
        self.pending.drain(..pos);
        if self.pending.len() > MAX_PENDING {
            self.skipped += self.pending.len() as u64;
            self.pending.clear();
        }
        frames
    }
}

/// Wrap a raw AAC frame in an ADTS header (tests, and tools that write ADTS).
pub fn adts_frame(config: &AacConfig, payload: &[u8]) -> Vec<u8> {
    let len = payload.len() + 7;
    let mut out = Vec::with_capacity(len);
    out.push(0xFF);
    out.push(0xF1);
    out.push(
        ((config.object_type - 1) << 6) | (config.sample_rate_index << 2) | (config.channels >> 2),
    );
    out.push(((config.channels & 3) << 6) | ((len >> 11) as u8 & 0x03));
    out.push((len >> 3) as u8);
    out.push((((len & 7) as u8) << 5) | 0x1F);
    out.push(0xFC);
    out.extend_from_slice(payload);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const LC_44K_STEREO: AacConfig = AacConfig {
        object_type: 2,
        sample_rate_index: 4,
        channels: 2,
    };

    fn stream(payloads: &[Vec<u8>]) -> Vec<u8> {
        payloads
            .iter()
            .flat_map(|p| adts_frame(&LC_44K_STEREO, p))
            .collect()
    }

    #[test]
    fn frames_come_out_whole_however_the_bytes_are_split() {
        let payloads: Vec<Vec<u8>> = (1..50u8).map(|n| vec![n; usize::from(n) * 3]).collect();
        let bytes = stream(&payloads);
        for chunk in [1, 2, 7, 100, bytes.len()] {
            let mut parser = AdtsParser::new();
            let frames: Vec<AacFrame> = bytes.chunks(chunk).flat_map(|c| parser.push(c)).collect();
            assert_eq!(frames.len(), payloads.len(), "chunk {chunk}");
            assert!(frames.iter().zip(&payloads).all(|(f, p)| &f.payload == p));
            assert_eq!(frames[0].config.sample_rate(), 44_100);
        }
    }

    #[test]
    fn garbage_before_and_between_frames_is_skipped() {
        let mut bytes = b"ICY 200 OK\r\n\xFF\xFF\x00garbage".to_vec();
        bytes.extend(stream(&[vec![1; 20], vec![2; 30]]));
        bytes.extend_from_slice(b"\xFF\xF1junk");
        bytes.extend(stream(&[vec![3; 25]]));
        let frames = AdtsParser::new().push(&bytes);
        let got: Vec<u8> = frames.iter().map(|f| f.payload[0]).collect();
        assert_eq!(got, vec![1, 2, 3]);
    }

    #[test]
    fn the_audio_specific_config_matches_iso_14496_3() {
        // AAC LC, 44.1 kHz, stereo → 0x12 0x10.
        assert_eq!(LC_44K_STEREO.audio_specific_config(), [0x12, 0x10]);
        assert_eq!(LC_44K_STEREO.codec(), "mp4a.40.2");
    }

    proptest! {
        #[test]
        fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..4096), split in 1usize..512) {
            let mut parser = AdtsParser::new();
            for chunk in bytes.chunks(split) {
                for frame in parser.push(chunk) {
                    prop_assert!(frame.payload.len() < 8192);
                }
            }
        }

        #[test]
        fn mutated_streams_never_panic(
            flips in proptest::collection::vec((0usize..2000, any::<u8>()), 0..40),
            split in 1usize..300,
        ) {
            let payloads: Vec<Vec<u8>> = (0..20u8).map(|n| vec![n; 90]).collect();
            let mut bytes = stream(&payloads);
            for (at, value) in flips {
                let len = bytes.len();
                bytes[at % len] = value;
            }
            let mut parser = AdtsParser::new();
            let frames: usize = bytes.chunks(split).map(|c| parser.push(c).len()).sum();
            prop_assert!(frames <= payloads.len() + 40);
        }
    }
}
