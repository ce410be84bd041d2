//! MPEG audio (MP3) frames: a streaming parser in the same spirit as the ADTS one —
//! ID3v2 tags and garbage are skipped, lengths are checked, nothing panics.

const MAX_PENDING: usize = 64 * 1024;

/// kbit/s by [version-group][layer][index]; version group 0 = MPEG-1, 1 = MPEG-2/2.5.
const BITRATES: [[[u16; 15]; 3]; 2] = [
    [
        [
            0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448,
        ],
        [
            0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384,
        ],
        [
            0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320,
        ],
    ],
    [
        [
            0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256,
        ],
        [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
        [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
    ],
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mp3Config {
    pub sample_rate: u32,
    pub channels: u8,
    /// Samples per frame (1152 or 576 for layer III, 384 for layer I).
    pub samples_per_frame: u32,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mp3Frame {
    pub config: Mp3Config,
    pub bitrate_kbps: u16,
    /// The whole frame, header included (MP3 in MP4 keeps it).
    pub data: Vec<u8>,
}

fn parse_header(b: &[u8]) -> Option<(Mp3Config, u16, usize)> {
    if b.len() < 4 || b[0] != 0xFF || b[1] & 0xE0 != 0xE0 {
        return None;
    }
    let version = (b[1] >> 3) & 0x03; // 0 = 2.5, 1 = reserved, 2 = 2, 3 = 1
    let layer = (b[1] >> 1) & 0x03; // 1 = III, 2 = II, 3 = I
    if version == 1 || layer == 0 {
        return None;
    }
    let bitrate_index = usize::from(b[2] >> 4);
    let rate_index = usize::from((b[2] >> 2) & 0x03);
    if bitrate_index == 0 || bitrate_index == 15 || rate_index == 3 {
        return None;
    }
    let padding = usize::from((b[2] >> 1) & 0x01);
    let base_rate = [44_100u32, 48_000, 32_000][rate_index];
    let sample_rate = match version {
        3 => base_rate,
        2 => base_rate / 2,
        _ => base_rate / 4,
    };
    let group = usize::from(version != 3);
    let layer_index = usize::from(3 - layer); // 0 = I, 1 = II, 2 = III
    let bitrate = BITRATES[group][layer_index][bitrate_index];
    let bits_per_second = u32::from(bitrate) * 1000;
    let (samples, len) = match layer {
        3 => (
            384,
            (12 * bits_per_second / sample_rate) as usize * 4 + padding * 4,
        ),
        2 => (
            1152,
            (144 * bits_per_second / sample_rate) as usize + padding,
        ),
        _ if version == 3 => (
            1152,
            (144 * bits_per_second / sample_rate) as usize + padding,
        ),
        _ => (576, (72 * bits_per_second / sample_rate) as usize + padding),
    };
    if len < 4 {
        return None;
    }
    let channels = if (b[3] >> 6) == 3 { 1 } else { 2 };
    Some((
        Mp3Config {
            sample_rate,
            channels,
            samples_per_frame: samples,
        },
        bitrate,
        len,
    ))
}

#[derive(Debug, Default)]
pub struct Mp3Parser {
    pending: Vec<u8>,
    id3_left: usize,
}

impl Mp3Parser {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn push(&mut self, data: &[u8]) -> Vec<Mp3Frame> {
        self.pending.extend_from_slice(data);
        let mut frames = Vec::new();
        let mut pos = 0;
        loop {
            if self.id3_left > 0 {
                let skip = self.id3_left.min(self.pending.len() - pos);
                pos += skip;
                self.id3_left -= skip;
                if self.id3_left > 0 {
                    break;
                }
            }
            let rest = &self.pending[pos..];
            if rest.is_empty() {
                break;
            }
            if rest.starts_with(b"ID3") {
                if rest.len() < 10 {
                    break;
                }
                // Syncsafe size: 4 × 7 bits; plus the 10-byte header (and footer flag).
                let size = rest[6..10]
                    .iter()
                    .fold(0usize, |acc, b| (acc << 7) | usize::from(b & 0x7F));
                let footer = if rest[5] & 0x10 != 0 { 10 } else { 0 };
                self.id3_left = 10 + size + footer;
                continue;
            }
            match parse_header(rest) {
                Some((config, bitrate, len)) if rest.len() >= len => {
                    let next = &rest[len..];
                    let confirmed = next.len() < 2 || (next[0] == 0xFF && next[1] & 0xE0 == 0xE0);
                    if confirmed {
                        frames.push(Mp3Frame {
                            config,
                            bitrate_kbps: bitrate,
                            data: rest[..len].to_vec(),
                        });
                        pos += len;
                    } else {
                        pos += 1;
                    }
                }
                Some(_) => break,
                None if rest.len() < 4 && rest[0] == 0xFF => break,
                None => pos += 1,
            }
        }
        self.pending.drain(..pos);
        if self.pending.len() > MAX_PENDING {
            self.pending.clear();
        }
        frames
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A 128 kbit/s, 44.1 kHz, stereo MPEG-1 layer III frame (417 bytes, no padding).
    fn frame(fill: u8) -> Vec<u8> {
        let mut f = vec![0xFF, 0xFB, 0x90, 0x00];
        f.resize(417, fill);
        f
    }

    #[test]
    fn frames_are_found_after_an_id3_tag_and_across_splits() {
        let mut bytes = b"ID3\x04\x00\x00\x00\x00\x00\x05hello".to_vec();
        for n in 0..10 {
            bytes.extend(frame(n));
        }
        for split in [1, 3, 100, bytes.len()] {
            let mut parser = Mp3Parser::new();
            let frames: Vec<Mp3Frame> = bytes.chunks(split).flat_map(|c| parser.push(c)).collect();
            assert_eq!(frames.len(), 10, "split {split}");
            assert_eq!(frames[3].data.len(), 417);
            assert_eq!(frames[0].config.sample_rate, 44_100);
            assert_eq!(frames[0].config.samples_per_frame, 1152);
            assert_eq!(frames[0].bitrate_kbps, 128);
        }
    }

    proptest! {
        #[test]
        fn random_and_mutated_input_never_panics(
            bytes in proptest::collection::vec(any::<u8>(), 0..4096),
            flips in proptest::collection::vec((0usize..4170, any::<u8>()), 0..30),
            split in 1usize..600,
        ) {
            let mut parser = Mp3Parser::new();
            for chunk in bytes.chunks(split) {
                parser.push(chunk);
            }
            let mut valid: Vec<u8> = (0..10).flat_map(frame).collect();
            for (at, value) in flips {
                let len = valid.len();
                valid[at % len] = value;
            }
            let mut parser = Mp3Parser::new();
            for chunk in valid.chunks(split) {
                for f in parser.push(chunk) {
                    prop_assert!(f.data.len() <= 2881);
                }
            }
        }
    }
}
