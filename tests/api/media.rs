//! ffmpeg and ffprobe on what the server serves and writes: the integration tests' one
//! place for them (the unit tests have `stream::test_media`).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

/// `command` (ffmpeg, ffprobe) run to its end; its failure fails the test. It blocks.
pub fn run(command: &mut Command) -> Output {
    let out = command.output().expect("ffmpeg/ffprobe");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// What ffprobe prints with `args` (split at white space) for `source` (a file or a URL);
/// it must succeed. It blocks.
pub fn ffprobe(args: &str, source: impl AsRef<std::ffi::OsStr>) -> String {
    let out = run(Command::new("ffprobe")
        .args(args.split_whitespace())
        .arg(source));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// ffprobe's JSON of a file: format, streams and chapters.
pub fn probe_json(path: &Path) -> Value {
    let out = ffprobe(
        "-v error -of json -show_format -show_streams -show_chapters",
        path,
    );
    serde_json::from_str(&out).unwrap()
}

/// ffmpeg's PCM (32-bit, interleaved) of a file.
pub async fn pcm(path: PathBuf) -> Vec<u8> {
    tokio::task::spawn_blocking(move || {
        run(Command::new("ffmpeg")
            .args(["-hide_banner", "-loglevel", "error", "-i"])
            .arg(&path)
            .args(["-f", "s32le", "-"]))
        .stdout
    })
    .await
    .unwrap()
}

/// Seconds of audio ffmpeg decodes from the file (errors, even ones it goes past, fail
/// the test).
pub fn decoded_seconds(path: &Path) -> f64 {
    let out = run(Command::new("ffmpeg")
        .args(["-v", "error", "-xerror", "-i"])
        .arg(path)
        .args(["-map", "0:a", "-f", "s16le", "-ac", "1", "-"]));
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (out.stdout.len() / 2) as f64 / 48_000.0
}
