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

/// ffmpeg's decode of `bytes` (a file's content, named `.{ext}`) as 32-bit float samples,
/// interleaved, after the `args` it is given (a filter, say).
pub(crate) fn floats(bytes: &[u8], ext: &str, args: &[&str]) -> Vec<f32> {
    let file = tempfile::Builder::new()
        .suffix(&format!(".{ext}"))
        .tempfile()
        .unwrap();
    std::fs::write(file.path(), bytes).unwrap();
    let out = run(Command::new("ffmpeg")
        .args(["-v", "error", "-i"])
        .arg(file.path())
        .args(args)
        .args(["-f", "f32le", "-"]));
    (out.chunks_exact(4))
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect()
}
