//! ADTS (AAC) frames from arbitrary bytes, in arbitrary chunks: every frame the parser
//! answers is a real ADTS frame of the input — a header whose length field is exactly
//! header + payload, found in order within the bytes fed — and a stream written with
//! `adts_frame` comes back whole, however it is split.
#![no_main]

use encore::fuzzing::{AacFrame, AdtsParser, adts_frame};
use encore::stream::adts::AacConfig;
use libfuzzer_sys::fuzz_target;

/// Frame length and header length of an ADTS header at the start of `b`, as ISO 14496-3
/// defines them (an independent reading, not the parser's).
fn header(b: &[u8]) -> Option<(usize, usize)> {
    if b.len() < 7 || b[0] != 0xFF || b[1] & 0xF6 != 0xF0 {
        return None;
    }
    let header_len = if b[1] & 1 == 1 { 7 } else { 9 };
    let frame_len =
        (usize::from(b[3] & 0x03) << 11) | (usize::from(b[4]) << 3) | usize::from(b[5] >> 5);
    Some((frame_len, header_len))
}

fn matches(input: &[u8], at: usize, frame: &AacFrame) -> Option<usize> {
    let b = &input[at..];
    let (frame_len, header_len) = header(b)?;
    let c = frame.config;
    let same_config = c.object_type == (b[2] >> 6) + 1
        && c.sample_rate_index == (b[2] >> 2) & 0x0F
        && c.channels == ((b[2] & 1) << 2) | (b[3] >> 6);
    (same_config
        && frame_len == header_len + frame.payload.len()
        && frame_len <= b.len()
        && b[header_len..frame_len] == frame.payload[..])
        .then_some(frame_len)
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, data)) = data.split_first() else {
        return;
    };
    let split = usize::from(mode & 0x7F).max(1);
    if mode & 0x80 == 0 {
        // Arbitrary bytes.
        let mut parser = AdtsParser::new();
        let mut cursor = 0;
        for chunk in data.chunks(split) {
            for frame in parser.push(chunk) {
                assert!(frame.config.channels != 0 && frame.config.sample_rate_index < 13);
                let found = (cursor..data.len())
                    .find_map(|at| matches(data, at, &frame).map(|len| at + len));
                cursor = found.unwrap_or_else(|| {
                    panic!("frame {frame:?} is not an ADTS frame of the input after {cursor}")
                });
            }
        }
    } else {
        // A valid stream whose payload sizes come from the input: nothing lost or added.
        let config = AacConfig {
            object_type: 2,
            sample_rate_index: 4,
            channels: 2,
        };
        let payloads: Vec<&[u8]> = data.chunks(split * 7).filter(|p| !p.is_empty()).collect();
        let bytes: Vec<u8> = payloads
            .iter()
            .flat_map(|p| adts_frame(&config, p))
            .collect();
        let mut parser = AdtsParser::new();
        let got: Vec<AacFrame> = bytes.chunks(split).flat_map(|c| parser.push(c)).collect();
        assert_eq!(got.len(), payloads.len());
        for (frame, payload) in got.iter().zip(&payloads) {
            assert_eq!(frame.payload, *payload);
            assert_eq!(frame.config, config);
        }
        assert_eq!(parser.skipped(), 0);
    }
});
