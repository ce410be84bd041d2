//! Test support for the stream's unit tests: ffmpeg and ffprobe run on what the codecs,
//! the segmenters and the set to keep write (the integration tests have theirs in
//! `tests/api/media.rs`).

use std::path::Path;
use std::process::Command;

/// What `command` (ffmpeg, ffprobe) prints; its errors fail the test.
pub(crate) fn run(command: &mut Command) -> Vec<u8> {
    let out = command.output().expect("ffmpeg/ffprobe");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// ffmpeg's PCM of `path` as `format` (`s16le`, `s32le`), raw and interleaved.
pub(crate) fn pcm(path: &Path, format: &str) -> Vec<u8> {
    run(Command::new("ffmpeg")
        .args(["-v", "error", "-i"])
        .arg(path)
        .args(["-f", format, "-"]))
}
