//! The packager checked by real clients: ffmpeg encodes AAC (ADTS), our parser and
//! segmenter turn it into LL-HLS fMP4, then ffprobe and ffmpeg read the playlist back and
//! decode the whole audio with continuous timestamps.

use std::process::Command;

use encore::stream::codecs::adts::AdtsParser;
use encore::stream::hls::playlist::Playlist;
use encore::stream::hls::segmenter::Segmenter;

use crate::media::ffprobe;

fn ffmpeg_adts(seconds: u32, rate: u32) -> Vec<u8> {
    let output = Command::new("ffmpeg")
        .args(["-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i"])
        .arg(format!(
            "sine=frequency=440:sample_rate={rate}:duration={seconds}"
        ))
        .args(["-ac", "2", "-c:a", "aac", "-b:a", "128k", "-f", "adts", "-"])
        .output()
        .expect("ffmpeg is installed (make test installs it)");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    output.stdout
}

fn package(adts: &[u8], dir: &std::path::Path, chunk: usize) -> Segmenter {
    let mut parser = AdtsParser::new();
    let mut segmenter = None::<Segmenter>;
    let mut now = 1_700_000_000_000i64;
    for piece in adts.chunks(chunk) {
        for frame in parser.push(piece) {
            let seg = segmenter
                .get_or_insert_with(|| Segmenter::create(dir, frame.config).expect("segmenter"));
            now += 21;
            seg.push(frame, now).expect("push");
        }
    }
    let mut segmenter = segmenter.expect("frames");
    segmenter.end(now).expect("end");
    let playlist = Playlist {
        segments: segmenter.segments(),
        part_target: segmenter.part_target(),
        ended: true,
        skip: false,
        markers: &[],
        removed: &[],
    };
    std::fs::write(dir.join("index.m3u8"), playlist.render()).unwrap();
    segmenter
}

#[test]
fn ffprobe_and_ffmpeg_read_our_hls_and_decode_it_all_with_continuous_timestamps() {
    let dir = tempfile::tempdir().unwrap();
    let adts = ffmpeg_adts(6, 48_000);
    let segmenter = package(&adts, dir.path(), 1000);
    let segments = segmenter.segments();
    assert!(segments.iter().all(|s| s.complete));
    assert!(
        (5.9..6.2).contains(&segmenter.recorded_seconds()),
        "{}",
        segmenter.recorded_seconds()
    );
    assert!(
        segments.iter().all(|s| s.duration() <= 1.1),
        "≈ 1 s segments"
    );
    assert!(
        (0.2..=0.5).contains(&segmenter.part_target()),
        "parts of 200–500 ms"
    );

    let playlist = dir.path().join("index.m3u8");
    let packets: Vec<(f64, f64)> = ffprobe(
        "-v error -select_streams a:0 -show_entries packet=pts_time,duration_time -of csv=p=0",
        &playlist,
    )
    .lines()
    .filter_map(|l| {
        let (pts, dur) = l.split_once(',')?;
        Some((pts.parse().ok()?, dur.parse().ok()?))
    })
    .collect();
    let frame = 1024.0 / 48_000.0;
    assert!(packets.len() > 270, "{} packets", packets.len());
    for pair in packets.windows(2) {
        let step = pair[1].0 - pair[0].0;
        assert!(
            (step - frame).abs() < 1e-4,
            "timestamps jump by {step} at {}",
            pair[0].0
        );
    }

    let decode = Command::new("ffmpeg")
        .args(["-v", "error", "-i"])
        .arg(&playlist)
        .args(["-f", "null", "-"])
        .output()
        .unwrap();
    assert!(
        decode.status.success() && decode.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&decode.stderr)
    );

    let text = std::fs::read_to_string(&playlist).unwrap();
    assert!(text.contains("#EXT-X-ENDLIST"));
    assert!(text.contains("#EXT-X-MAP:URI=\"init.mp4\""));
}

#[test]
fn a_live_playlist_lists_parts_near_the_edge_hints_the_next_part_and_can_skip() {
    let dir = tempfile::tempdir().unwrap();
    let adts = ffmpeg_adts(20, 44_100);
    let mut parser = AdtsParser::new();
    let frames = parser.push(&adts);
    let mut segmenter = Segmenter::create(dir.path(), frames[0].config).unwrap();
    for frame in frames.into_iter().take(400) {
        segmenter.push(frame, 0).unwrap();
    }
    let live = Playlist {
        segments: segmenter.segments(),
        part_target: segmenter.part_target(),
        ended: false,
        skip: false,
        markers: &[],
        removed: &[],
    };
    let text = live.render();
    assert!(text.contains("CAN-BLOCK-RELOAD=YES"));
    let hold_back: f64 = text
        .split("PART-HOLD-BACK=")
        .nth(1)
        .and_then(|s| s.split(',').next())
        .and_then(|s| s.parse().ok())
        .unwrap();
    assert!(
        hold_back >= 3.0 * segmenter.part_target(),
        "PART-HOLD-BACK ≥ 3 × part target"
    );
    assert!(text.contains("#EXT-X-PART:DURATION="));
    assert!(text.contains("#EXT-X-PRELOAD-HINT:TYPE=PART"));
    assert!(!text.contains("#EXT-X-ENDLIST"));
    let parts_listed = text.matches("#EXT-X-PART:").count();
    assert!(
        parts_listed <= 3 * 4,
        "parts only near the live edge ({parts_listed})"
    );

    let delta = Playlist { skip: true, ..live }.render();
    assert!(delta.contains("#EXT-X-SKIP:SKIPPED-SEGMENTS="), "{delta}");
    assert!(delta.len() < text.len());
}
