//! MPEG audio frames from arbitrary bytes, in arbitrary chunks: every frame the parser
//! answers is a slice of the input, in order, that starts with a frame header whose
//! length (ISO 11172-3 / 13818-3, computed here independently) is the frame's length.
#![no_main]

use encore::fuzzing::{Mp3Frame, Mp3Parser};
use libfuzzer_sys::fuzz_target;

/// The frame length a header announces, given the bitrate the parser read for it.
fn frame_len(frame: &Mp3Frame) -> usize {
    let b = &frame.data;
    let version = (b[1] >> 3) & 3; // 0 = 2.5, 2 = 2, 3 = 1
    let layer = (b[1] >> 1) & 3; // 1 = III, 2 = II, 3 = I
    let base = [44_100u32, 48_000, 32_000][usize::from((b[2] >> 2) & 3)];
    let rate = match version {
        3 => base,
        2 => base / 2,
        _ => base / 4,
    };
    assert_eq!(frame.config.sample_rate, rate);
    let bps = u32::from(frame.bitrate_kbps) * 1000;
    let padding = u32::from((b[2] >> 1) & 1);
    let (samples, len) = match (layer, version) {
        (3, _) => (384, (12 * bps / rate + padding) * 4),
        (2, _) | (1, 3) => (1152, 144 * bps / rate + padding),
        _ => (576, 72 * bps / rate + padding),
    };
    assert_eq!(frame.config.samples_per_frame, samples);
    len as usize
}

fuzz_target!(|data: &[u8]| {
    let Some((&split, data)) = data.split_first() else {
        return;
    };
    let mut parser = Mp3Parser::new();
    let mut cursor = 0;
    for chunk in data.chunks(usize::from(split).max(1)) {
        for frame in parser.push(chunk) {
            let d = &frame.data;
            assert!(
                d.len() >= 4 && d[0] == 0xFF && d[1] & 0xE0 == 0xE0,
                "{d:02x?}"
            );
            assert!((d[1] >> 3) & 3 != 1, "reserved version");
            assert!(frame.bitrate_kbps > 0 && frame.bitrate_kbps <= 448);
            assert_eq!(frame_len(&frame), d.len(), "{:02x?}", &d[..4]);
            assert!(d.len() <= 2881);
            let at = data[cursor..]
                .windows(d.len())
                .position(|w| w == &d[..])
                .unwrap_or_else(|| panic!("frame not in the input after {cursor}"));
            cursor += at + d.len();
        }
    }
});
