//! Publishers that are not AAC encoders — MP3 from ffmpeg over the Icecast protocol, and a
//! browser's Opus in WebM over the go-live WebSocket — are transcoded to AAC by
//! GStreamer and heard like any other show; an encoder that goes silent is disconnected.

use std::process::Command;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use reqwest::StatusCode;
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

use crate::helpers::*;
use crate::live::{a_concert_to_push, adts_file, push_file};
use crate::media::pcm;
use crate::renditions::{get, multivariant_of, probed_format, variants};
use encore::stream::show::hub::{Show, Status};

/// `seconds` of a tone encoded by ffmpeg with `codec` into `format`.
pub(crate) fn encoded(seconds: u32, codec: &[&str], format: &str) -> Vec<u8> {
    let output = Command::new("ffmpeg")
        .args(["-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i"])
        .arg(format!(
            "sine=frequency=440:sample_rate=48000:duration={seconds}"
        ))
        .args(codec)
        .args(["-f", format, "-"])
        .output()
        .expect("ffmpeg");
    assert!(output.status.success());
    output.stdout
}

/// A fan with a ticket listens to the ended show with ffprobe and ffmpeg: the duration
/// of the audio, which must decode without an error.
async fn heard_seconds(app: &TestApp, event: &str) -> f64 {
    let fans = app.fans(1).await;
    let (_, fan) = &fans[0];
    assert_eq!(app.buy(fan, event, CARD_OK).await.0, StatusCode::OK);
    let playlist = format!("{}{}", app.url, app.listen(event, fan).await);
    tokio::task::spawn_blocking(move || {
        let decode = Command::new("ffmpeg")
            .args(["-hide_banner", "-v", "error", "-i", &playlist])
            .args(["-f", "null", "-"])
            .output()
            .unwrap();
        assert!(decode.status.success());
        assert!(
            decode.stderr.is_empty(),
            "{}",
            String::from_utf8_lossy(&decode.stderr)
        );
        let probe = Command::new("ffprobe")
            .args([
                "-v",
                "error",
                "-show_entries",
                "stream=codec_name:format=duration",
            ])
            .args(["-of", "default=nw=1", &playlist])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&probe.stdout).to_string();
        assert!(text.contains("codec_name=aac"), "{text}");
        text.lines()
            .find_map(|l| l.strip_prefix("duration="))
            .and_then(|d| d.parse().ok())
            .unwrap_or(0.0)
    })
    .await
    .unwrap()
}

/// The multivariant playlist's renditions (their folders) for a new ticket holder, and
/// the playlist's URL.
async fn listed_at(app: &TestApp, event: &str) -> (Vec<String>, String) {
    let fans = app.fans(1).await;
    let (_, fan) = &fans[0];
    assert_eq!(app.buy(fan, event, CARD_OK).await.0, StatusCode::OK);
    let master = multivariant_of(&format!("{}{}", app.url, app.listen(event, fan).await));
    let listed = (variants(&app.http, &master).await.into_iter())
        .map(|v| v.uri.trim_end_matches("/index.m3u8").to_owned())
        .collect();
    (listed, master)
}

async fn listed(app: &TestApp, event: &str) -> Vec<String> {
    listed_at(app, event).await.0
}

async fn end_show(app: &TestApp, event: &str) -> Value {
    app.account("admin@example.com", encore::accounts::model::Role::Admin)
        .await;
    let admin = app.sign_in("admin@example.com").await.access;
    app.end_show(event, &admin).await
}

#[tokio::test]
async fn ffmpeg_publishes_mp3_over_the_icecast_protocol_and_fans_hear_it_as_aac() {
    let app = spawn_app().await;
    let (event, key) = a_concert_to_push(&app, 60_000).await;
    let target = format!("icecast://source:{key}@{}/live/{event}", app.ingest);
    let output = tokio::task::spawn_blocking(move || {
        Command::new("ffmpeg")
            .args(["-hide_banner", "-loglevel", "error", "-re", "-f", "lavfi"])
            .args(["-i", "sine=frequency=500:sample_rate=44100:duration=3"])
            .args(["-c:a", "libmp3lame", "-b:a", "128k"])
            .args(["-content_type", "audio/mpeg", "-f", "mp3"])
            .arg(target)
            .output()
            .expect("ffmpeg")
    })
    .await
    .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    end_show(&app, &event).await;
    let seconds = heard_seconds(&app, &event).await;
    assert_eq!(listed(&app, &event).await, ["standard", "saver"]);
    assert!((seconds - 3.0).abs() < 0.35, "heard {seconds} s of 3 s");
}

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

pub(crate) async fn go_live(app: &TestApp, event: &str, hello: Value) -> (Socket, Value) {
    go_live_at(&app.url, event, hello).await
}

/// A go-live socket to the process at `base`, its hello sent: the socket and the reply.
pub(crate) async fn go_live_at(base: &str, event: &str, hello: Value) -> (Socket, Value) {
    let url = format!("{}/live/{event}/ws", base.replacen("http", "ws", 1));
    let (mut socket, _) = tokio_tungstenite::connect_async(url)
        .await
        .expect("websocket");
    socket
        .send(Message::Text(hello.to_string().into()))
        .await
        .unwrap();
    let reply = next_text(&mut socket).await;
    (socket, reply)
}

/// `bytes` sent as binary messages of `size` bytes, `pause` apart: a browser's
/// MediaRecorder chunks.
pub(crate) async fn send_chunks(socket: &mut Socket, bytes: &[u8], size: usize, pause: Duration) {
    for chunk in bytes.chunks(size) {
        socket
            .send(Message::Binary(chunk.to_vec().into()))
            .await
            .unwrap();
        tokio::time::sleep(pause).await;
    }
}

async fn next_text<S>(socket: &mut S) -> Value
where
    S: futures_util::Stream<Item = Result<Message, tokio_tungstenite::tungstenite::Error>> + Unpin,
{
    loop {
        match tokio::time::timeout(Duration::from_secs(10), socket.next()).await {
            Ok(Some(Ok(Message::Text(text)))) => return serde_json::from_str(&text).unwrap(),
            Ok(Some(Ok(_))) => continue,
            other => panic!("no reply: {other:?}"),
        }
    }
}

#[tokio::test]
async fn a_browser_goes_live_over_the_websocket_with_opus_in_webm() {
    let app = spawn_app().await;
    let (event, key) = a_concert_to_push(&app, 60_000).await;
    let webm = encoded(3, &["-c:a", "libopus", "-b:a", "64k"], "webm");

    let (_, wrong_key) = go_live(
        &app,
        &event,
        json!({ "key": "nope", "mimeType": "audio/webm;codecs=opus" }),
    )
    .await;
    assert_eq!(wrong_key["type"], "error");
    assert_eq!(wrong_key["status"], 401);
    let (_, wrong_type) = go_live(
        &app,
        &event,
        json!({ "key": key, "mimeType": "video/x-flv" }),
    )
    .await;
    assert_eq!(wrong_type["status"], 415, "{wrong_type}");

    let (mut socket, reply) = go_live(
        &app,
        &event,
        json!({ "key": key, "mimeType": "audio/webm;codecs=opus" }),
    )
    .await;
    assert_eq!(reply, json!({ "type": "live", "takesLossless": true }));
    let (_, busy) = go_live(
        &app,
        &event,
        json!({ "key": key, "mimeType": "audio/webm;codecs=opus" }),
    )
    .await;
    assert_eq!(busy["status"], 409, "one publisher at a time: {busy}");

    // MediaRecorder-sized chunks.
    send_chunks(&mut socket, &webm, 2_000, Duration::from_millis(5)).await;
    let show = app.state.hub.show(&event);
    recorded_at_least(&show, 2.5).await;
    assert!(show.status().publisher_connected);

    // The artist ends the show from the dashboard: the browser is told.
    end_show(&app, &event).await;
    socket
        .send(Message::Binary(vec![0u8; 64].into()))
        .await
        .unwrap();
    assert_eq!(next_text(&mut socket).await, json!({ "type": "ended" }));

    let seconds = heard_seconds(&app, &event).await;
    assert_eq!(listed(&app, &event).await, ["standard", "saver"]);
    assert!(seconds > 2.4 && seconds < 3.3, "heard {seconds} s of 3 s");
}

/// Chromium records the microphone losslessly as 32-bit float PCM in WebM
/// (`audio/webm;codecs=pcm`, Matroska's `A_PCM/FLOAT/IEEE`): what the web app sends when
/// the artist goes live in lossless. Stereo at 48 kHz is 384 KB a second, so each
/// MediaRecorder chunk (250 ms) is about 96 KB: it is taken and heard like Opus, and the
/// show has a lossless rendition (FLAC made by the ladder from the same PCM).
#[tokio::test]
async fn a_browser_goes_live_with_float_pcm_in_webm() {
    a_browser_goes_live_losslessly("pcm_f32le").await;
}

/// The same with 16-bit integer PCM (`A_PCM/INT/LIT`): its FLAC is 16-bit, bit for bit.
#[tokio::test]
async fn a_browser_goes_live_with_16_bit_pcm_in_webm() {
    a_browser_goes_live_losslessly("pcm_s16le").await;
}

/// A go-live with PCM in WebM of this codec: heard as AAC, and listed with a `fLaC`
/// rendition last that ffprobe reads as FLAC at 48 kHz, whose decoded PCM is what was
/// sent: to 24-bit precision from float, bit for bit from 16-bit integers.
async fn a_browser_goes_live_losslessly(codec: &str) {
    let app = spawn_app().await;
    let (event, key) = a_concert_to_push(&app, 60_000).await;
    let pcm_webm = encoded(3, &["-c:a", codec, "-ac", "2"], "matroska");
    let (mut socket, reply) = go_live(
        &app,
        &event,
        json!({ "key": key, "mimeType": "audio/webm;codecs=pcm" }),
    )
    .await;
    assert_eq!(reply, json!({ "type": "live", "takesLossless": true }));
    send_chunks(&mut socket, &pcm_webm, 96_000, Duration::from_millis(20)).await;
    let show = app.state.hub.show(&event);
    recorded_at_least(&show, 2.5).await;
    end_show(&app, &event).await;
    let seconds = heard_seconds(&app, &event).await;
    assert!(seconds > 2.4 && seconds < 3.3, "heard {seconds} s of 3 s");

    let (listed, master) = listed_at(&app, &event).await;
    assert_eq!(listed, ["standard", "saver", "lossless"]);
    let codecs = variants(&app.http, &master).await.pop().unwrap().codecs;
    assert_eq!(codecs.as_deref(), Some("fLaC"));
    let base = master.trim_end_matches("master.m3u8").to_owned();
    let url = format!("{base}lossless/index.m3u8");
    assert_eq!(probed_format(url.clone()).await, "flac,48000");

    // Its init segment and every segment, decoded, against what was sent.
    let (status, text) = get(&app.http, &url).await;
    assert_eq!(status, StatusCode::OK);
    assert!(text.contains("#EXT-X-ENDLIST"), "{text}");
    let mut joined = (app
        .http
        .get(format!("{base}lossless/init.mp4"))
        .send()
        .await)
        .unwrap()
        .bytes()
        .await
        .unwrap()
        .to_vec();
    for segment in (text.lines()).filter(|l| !l.starts_with('#') && !l.is_empty()) {
        let answer = (app
            .http
            .get(format!("{base}lossless/{segment}"))
            .send()
            .await)
            .unwrap();
        assert_eq!(answer.status(), StatusCode::OK, "{segment}");
        joined.extend(answer.bytes().await.unwrap());
    }
    let media = tempfile::tempdir().unwrap();
    let (served, sent) = (
        media.path().join("served.mp4"),
        media.path().join("sent.mkv"),
    );
    std::fs::write(&served, joined).unwrap();
    std::fs::write(&sent, &pcm_webm).unwrap();
    let samples = |bytes: Vec<u8>| -> Vec<i32> {
        (bytes.chunks_exact(4))
            .map(|b| i32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect()
    };
    let (heard, sent) = (samples(pcm(served).await), samples(pcm(sent).await));
    // The ladder's last steps (the codecs' delay) may leave the end out, never more.
    assert!(heard.len() >= 48_000 * 2 * 5 / 2, "{} samples", heard.len());
    assert!(heard.len() <= sent.len());
    // 32-bit samples: one step of 24 bits is 256.
    let worst = (heard.iter().zip(&sent))
        .map(|(a, b)| a.abs_diff(*b))
        .max()
        .unwrap();
    let within = if codec == "pcm_s16le" { 0 } else { 256 };
    assert!(
        worst <= within,
        "{codec}: {worst} over {} samples",
        heard.len()
    );
}

/// The artist goes live in the browser, stops, and goes live again in the same show (back
/// within the wait) with Lossless switched on: a show takes a lossless lane only from its
/// start, so the reply says whether this one does, and the live panel tells the artist.
/// Begun in Opus: `takesLossless` false, the PCM heard in the AAC renditions only. Begun
/// in PCM: true, and the show keeps its lossless rendition.
#[tokio::test]
async fn going_live_again_says_whether_the_show_takes_lossless() {
    let pcm = encoded(2, &["-c:a", "pcm_s16le", "-ac", "2"], "matroska");
    let opus = encoded(2, &["-c:a", "libopus", "-b:a", "64k"], "webm");
    for (began, first, takes, renditions) in [
        ("opus", &opus, false, &["standard", "saver"][..]),
        ("pcm", &pcm, true, &["standard", "saver", "lossless"][..]),
    ] {
        let app = spawn_app().await;
        let (event, key) = a_concert_to_push(&app, 60_000).await;
        let show = app.state.hub.show(&event);
        let hello =
            |codec: &str| json!({ "key": key, "mimeType": format!("audio/webm;codecs={codec}") });
        let (mut socket, reply) = go_live(&app, &event, hello(began)).await;
        assert_eq!(
            reply,
            json!({ "type": "live", "takesLossless": true }),
            "{began}"
        );
        send_chunks(&mut socket, first, 24_000, Duration::from_millis(10)).await;
        recorded_at_least(&show, 1.5).await;
        socket.close(None).await.unwrap();
        status_until(&show, |s| !s.publisher_connected).await;

        let (mut socket, reply) = go_live(&app, &event, hello("pcm")).await;
        assert_eq!(
            reply,
            json!({ "type": "live", "takesLossless": takes }),
            "{began}"
        );
        send_chunks(&mut socket, &pcm, 96_000, Duration::from_millis(20)).await;
        recorded_at_least(&show, 3.5).await;
        end_show(&app, &event).await;
        assert_eq!(listed(&app, &event).await, renditions, "begun in {began}");
    }
}

/// Waits (up to 10 s) until the show has recorded `seconds`.
async fn recorded_at_least(show: &Show, seconds: f64) {
    status_until(show, |s| s.recorded_seconds >= seconds).await;
}

/// Waits (up to 10 s) until the show's status is `ready`; fails with the status if not.
pub(crate) async fn status_until(show: &Show, ready: impl Fn(&Status) -> bool) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while !ready(&show.status()) && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let status = show.status();
    assert!(ready(&status), "{status:?}");
}

#[tokio::test]
async fn undecodable_browser_audio_is_refused_with_a_message() {
    let app = spawn_app().await;
    let (event, key) = a_concert_to_push(&app, 60_000).await;
    let (socket, reply) = go_live(
        &app,
        &event,
        json!({ "key": key, "mimeType": "audio/webm" }),
    )
    .await;
    assert_eq!(reply["type"], "live");
    // Noise at a MediaRecorder's pace: refused once nothing decodes within 5 seconds.
    let noise: Vec<u8> = (0..2_000u32).map(|i| (i * 7919 % 251) as u8).collect();
    let (mut tx, mut rx) = socket.split();
    let sender = tokio::spawn(async move {
        for _ in 0..100 {
            if tx
                .send(Message::Binary(noise.clone().into()))
                .await
                .is_err()
            {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    });
    let error = next_text(&mut rx).await;
    sender.abort();
    assert_eq!(error["type"], "error", "{error}");
    assert_eq!(error["status"], 422);
    assert!(
        error["message"].as_str().unwrap().contains("decode"),
        "{error}"
    );
    assert!(!app.state.hub.show(&event).status().publisher_connected);
}

#[tokio::test]
async fn an_encoder_that_goes_silent_is_disconnected_after_the_idle_timeout() {
    let app = spawn_app_with(Options {
        ingest_idle_seconds: 1,
        ..Options::default()
    })
    .await;
    let (event, key) = a_concert_to_push(&app, 60_000).await;
    let media = tempfile::tempdir().unwrap();
    let aac = std::fs::read(adts_file(media.path(), 1)).unwrap();
    // One second of audio, then the connection stays open with nothing on it.
    let (tx, rx) = tokio::sync::mpsc::channel::<Result<Vec<u8>, std::io::Error>>(1);
    tx.send(Ok(aac)).await.unwrap();
    let body = reqwest::Body::wrap_stream(futures_util::stream::unfold(rx, |mut rx| async move {
        rx.recv().await.map(|item| (item, rx))
    }));
    let started = std::time::Instant::now();
    let response = app
        .http
        .put(format!("{}/live/{event}", app.url))
        .basic_auth("source", Some(&key))
        .header("content-type", "audio/aac")
        .body(body)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert!(
        started.elapsed() < Duration::from_secs(8),
        "disconnected by the idle timeout, not by the client"
    );
    let status = app.state.hub.show(&event).status();
    assert!(!status.publisher_connected, "{status:?}");
    assert!(!status.ended, "the reconnect grace period still runs");
    assert!(status.recorded_seconds > 0.5, "{status:?}");
    drop(tx);
}

#[tokio::test]
async fn encore_push_sends_mp3_paced_by_its_frames() {
    let app = spawn_app().await;
    let (event, key) = a_concert_to_push(&app, 60_000).await;
    let media = tempfile::tempdir().unwrap();
    let file = media.path().join("song.mp3");
    std::fs::write(
        &file,
        encoded(2, &["-c:a", "libmp3lame", "-b:a", "128k"], "mp3"),
    )
    .unwrap();
    let started = std::time::Instant::now();
    push_file(&app, &event, &key, &file).await;
    assert!(
        started.elapsed() >= Duration::from_millis(1_900),
        "real time, not as fast as possible"
    );
    end_show(&app, &event).await;
    let seconds = heard_seconds(&app, &event).await;
    assert!((seconds - 2.0).abs() < 0.3, "heard {seconds} s of 2 s");
}

/// The file `make run` broadcasts, pushed by `encore push` and read back over HTTP by
/// ffprobe: every packet follows the previous one with no gap or overlap.
#[tokio::test]
async fn the_demo_file_in_media_is_pushed_then_decoded_whole_with_continuous_timestamps() {
    let app = spawn_app().await;
    let (event, key) = a_concert_to_push(&app, 60_000).await;
    let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("media/demo.aac");
    let frames =
        encore::stream::codecs::adts::AdtsParser::new().push(&std::fs::read(&file).unwrap());
    let expected = frames.len() as f64 * 1024.0 / 48_000.0;
    push_file(&app, &event, &key, &file).await;
    end_show(&app, &event).await;
    let seconds = heard_seconds(&app, &event).await;
    assert!((seconds - expected).abs() < 0.1, "{seconds} vs {expected}");

    let (_, fan) = &app.fans(1).await[0];
    assert_eq!(app.buy(fan, &event, CARD_OK).await.0, StatusCode::OK);
    let playlist = format!("{}{}", app.url, app.listen(&event, fan).await);
    let packets = tokio::task::spawn_blocking(move || {
        Command::new("ffprobe")
            .args(["-v", "error", "-select_streams", "a:0", "-show_entries"])
            .args(["packet=pts_time", "-of", "csv=p=0", &playlist])
            .output()
            .unwrap()
    })
    .await
    .unwrap();
    let times: Vec<f64> = String::from_utf8_lossy(&packets.stdout)
        .lines()
        .map(|l| l.trim_end_matches(',').parse().expect("pts_time"))
        .collect();
    let frame = 1024.0 / 48_000.0;
    for (i, pair) in times.windows(2).enumerate() {
        assert!(
            (pair[1] - pair[0] - frame).abs() < 1e-4,
            "packet {} starts at {} but the one before ended at {}",
            i + 1,
            pair[1],
            pair[0] + frame
        );
    }
    let count = times.len();
    assert_eq!(count, frames.len(), "every frame is there");
}
