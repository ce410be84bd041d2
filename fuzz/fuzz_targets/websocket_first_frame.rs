//! The first frame of a WebSocket before the socket has proved who it is (the dashboard's
//! `auth`, a publisher's hello), from arbitrary bytes: a frame announcing more than the
//! limit is refused at its header; a frame read whole took no more bytes than were there
//! and its text fits the limit; a prefix of a frame never reads as another frame; bytes
//! still waiting for more never exceed a header and the limit.
#![no_main]

use encore::fuzzing::{Frame, FrameError, parse_frame};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let limit = 64;
    match parse_frame(data, limit) {
        Ok(Some((frame, used))) => {
            assert!(used <= data.len());
            assert!(used <= 14 + limit, "{used} bytes for one frame");
            if let Frame::Text(text) = &frame {
                assert!(text.len() <= limit);
            }
            // The same bytes, and only those, make the same frame.
            assert_eq!(parse_frame(&data[..used], limit), Ok(Some((frame, used))));
            for cut in 0..used {
                assert!(
                    !matches!(parse_frame(&data[..cut], limit), Ok(Some(_))),
                    "a prefix of {cut} bytes read as a frame"
                );
            }
        }
        Ok(None) => {
            // Waiting for more: never more than one frame's header and the limit held.
            assert!(data.len() < 14 + limit, "{} bytes held", data.len());
        }
        Err(_) => {}
    }
});
