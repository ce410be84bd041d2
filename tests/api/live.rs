//! Live audio end to end: a real encoder pushes over the Icecast protocol, a fan with a
//! ticket gets a signed playlist, ffprobe reads it; nobody else gets a byte.

use std::process::Command;
use std::time::Duration;

use reqwest::StatusCode;
use serde_json::json;

use encore::stream::codecs::ladder::Rendition;
use encore::stream::hls::track::MediaFile;

use crate::helpers::*;
use crate::media::ffprobe;

pub(crate) fn adts_file(dir: &std::path::Path, seconds: u32) -> std::path::PathBuf {
    let path = dir.join("show.aac");
    tone(&path, seconds, 330, 48_000, &["-c:a", "aac", "-f", "adts"]);
    path
}

/// A stereo tone of `seconds` at `frequency` Hz and `sample_rate`, written by ffmpeg to
/// `path` with `args` (codec, tags, container).
pub(crate) fn tone(
    path: &std::path::Path,
    seconds: u32,
    frequency: u32,
    sample_rate: u32,
    args: &[&str],
) {
    let status = Command::new("ffmpeg")
        .args([
            "-hide_banner",
            "-loglevel",
            "error",
            "-y",
            "-f",
            "lavfi",
            "-i",
        ])
        .arg(format!(
            "sine=frequency={frequency}:sample_rate={sample_rate}:duration={seconds}"
        ))
        .args(["-ac", "2"])
        .args(args)
        .arg(path)
        .status()
        .expect("ffmpeg");
    assert!(status.success());
}

/// A published concert (no cap, 5.00 EUR) starting in `starts_in_ms`, and a fresh stream
/// key for it: what an encoder needs to push.
pub(crate) async fn a_concert_to_push(app: &TestApp, starts_in_ms: i64) -> (String, String) {
    let event = concert(app, None, 500, starts_in_ms).await;
    let key = stream_key(app, &event).await;
    (event, key)
}

/// A fresh stream key for `event`: keys are stored hashed, so only a rotation tells one.
pub(crate) async fn stream_key(app: &TestApp, event: &str) -> String {
    encore::events::store::rotate_stream_key(app.db(), event)
        .await
        .unwrap()
}

/// Where an ADTS file may be cut in two near its middle: a frame boundary (each frame's
/// length is in its header).
pub(crate) fn middle_frame_boundary(bytes: &[u8]) -> usize {
    let mut cut = 0;
    while cut < bytes.len() / 2 {
        let len = (usize::from(bytes[cut + 3] & 0x03) << 11)
            | (usize::from(bytes[cut + 4]) << 3)
            | usize::from(bytes[cut + 5] >> 5);
        cut += len;
    }
    cut
}

pub(crate) async fn put_live(
    app: &TestApp,
    event: &str,
    key: &str,
    content_type: &str,
    body: Vec<u8>,
) -> StatusCode {
    app.put_live(event, key, content_type, body).await.status()
}

/// A concert five minutes away with a stream key, and two fans: one with a ticket, one
/// without. The concert, the key, the ticket holder's token and the other fan's token.
async fn a_concert_with_a_ticket_holder(app: &TestApp) -> (String, String, String, String) {
    let event = concert(app, None, 500, 5 * 60_000).await;
    let key = stream_key(app, &event).await;
    let mut fans = app.fans(2).await;
    let (_, no_ticket) = fans.pop().unwrap();
    let (_, fan) = fans.pop().unwrap();
    assert_eq!(app.buy(&fan, &event, CARD_OK).await.0, StatusCode::OK);
    (event, key, fan, no_ticket)
}

/// Two seconds of audio recorded for `event` straight into the server's hub, without an
/// encoder or real-time pacing: enough for its playlist to exist.
pub(crate) fn a_recorded_show(app: &TestApp, event: &str) {
    feed_two_seconds(&app.state.hub.show(event));
}

/// Claim `show` as its publisher and feed it two seconds of audio at once.
fn feed_two_seconds(show: &encore::stream::show::hub::Show) {
    let media = tempfile::tempdir().unwrap();
    let bytes = std::fs::read(adts_file(media.path(), 2)).unwrap();
    let encore::stream::show::hub::Claim::Granted(id) = show.claim() else {
        panic!("claim")
    };
    show.feed_standard(
        id,
        encore::stream::codecs::adts::AdtsParser::new().push(&bytes),
    )
    .unwrap();
}

/// The presentation time of each packet ffprobe reads in `source` (a file or a URL), in
/// seconds; ffprobe must succeed. It blocks.
fn packet_times(source: impl AsRef<std::ffi::OsStr>) -> Vec<f64> {
    ffprobe("-v error -show_entries packet=pts_time -of csv=p=0", source)
        .lines()
        .filter_map(|l| l.trim_end_matches(',').parse().ok())
        .collect()
}

/// The status of a GET of `url`.
async fn status_of(app: &TestApp, url: &str) -> StatusCode {
    app.http.get(url).send().await.unwrap().status()
}

// One test walks a show from its push to its end: pushing takes four seconds of real
// time, so the steps that need a live encoder share one push instead of repeating it.
#[tokio::test]
async fn a_pushed_show_is_heard_through_a_signed_playlist_with_continuous_timestamps() {
    let app = spawn_app().await;
    let media = tempfile::tempdir().unwrap();
    let file = adts_file(media.path(), 4);
    let (event, key, fan, _) = a_concert_with_a_ticket_holder(&app).await;

    let push = push_in_background(&app, &event, &key, &file);
    tokio::time::sleep(Duration::from_millis(800)).await;
    assert_eq!(
        put_live(&app, &event, &key, "audio/aac", vec![0; 10]).await,
        StatusCode::CONFLICT,
        "a second simultaneous publisher"
    );

    let playlist = format!("{}{}", app.url, app.listen(&event, &fan).await);
    // Blocking reload: ask for a part that does not exist yet; the answer lists it.
    let live = app
        .http
        .get(format!("{playlist}?_HLS_msn=2&_HLS_part=1"))
        .send()
        .await
        .unwrap();
    assert_eq!(live.status(), StatusCode::OK);
    let text = live.text().await.unwrap();
    assert!(text.contains("seg2.1.m4s"), "{text}");
    assert!(text.contains("#EXT-X-PRELOAD-HINT"));

    let (_, status) = app
        .get(&format!("/api/v1/events/{event}"), Some(&fan))
        .await;
    assert_eq!(status["payload"]["status"], "live");
    push.await.unwrap().expect("push");
    let admin = app.an_admin().await;
    let ended = app.end_show(&event, &admin).await;
    assert_eq!(ended["payload"]["ended"], true);

    let text = app.text_at(&playlist).await;
    assert!(text.contains("#EXT-X-ENDLIST"), "{text}");
    // ffprobe blocks: run it off the runtime that also serves it.
    let url = playlist.clone();
    let pts = tokio::task::spawn_blocking(move || packet_times(url))
        .await
        .unwrap();
    assert!(pts.len() > 180, "{} packets for 4 s", pts.len());
    assert!(
        pts.windows(2)
            .all(|w| ((w[1] - w[0]) - 1024.0 / 48_000.0).abs() < 1e-4),
        "continuous timestamps"
    );
}

#[tokio::test]
async fn an_encoder_with_a_wrong_key_or_a_video_type_is_refused() {
    let app = spawn_app().await;
    let (event, key, _, _) = a_concert_with_a_ticket_holder(&app).await;
    assert_eq!(
        put_live(&app, &event, "wrong", "audio/aac", vec![0; 10]).await,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        put_live(&app, &event, &key, "video/mp4", vec![0; 10]).await,
        StatusCode::UNSUPPORTED_MEDIA_TYPE
    );
}

#[tokio::test]
async fn fans_cannot_end_a_show() {
    let app = spawn_app().await;
    let (event, _, fan, _) = a_concert_with_a_ticket_holder(&app).await;
    a_recorded_show(&app, &event);
    let (status, _) = app
        .post(
            &format!("/api/v1/events/{event}/end"),
            json!({}),
            Some(&fan),
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "fans cannot end a show");
}

#[tokio::test]
async fn a_tampered_or_made_up_stream_address_gets_403_and_no_byte() {
    let app = spawn_app().await;
    let (event, _, fan, _) = a_concert_with_a_ticket_holder(&app).await;
    a_recorded_show(&app, &event);
    let playlist = format!("{}{}", app.url, app.listen(&event, &fan).await);
    let token_start = playlist.find("/stream/").unwrap() + "/stream/".len();
    let mut tampered = playlist.clone();
    let c = if &playlist[token_start..token_start + 1] == "A" {
        "B"
    } else {
        "A"
    };
    tampered.replace_range(token_start..token_start + 1, c);
    for url in [
        tampered.clone(),
        tampered.replace("index.m3u8", "init.mp4"),
        format!("{}/stream/garbage/seg0.m4s", app.url),
    ] {
        let response = app.http.get(&url).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::FORBIDDEN, "{url}");
        assert!(response.bytes().await.unwrap().is_empty());
    }
}

#[tokio::test]
async fn a_fan_without_a_ticket_gets_no_stream() {
    let app = spawn_app().await;
    let (event, _, _, no_ticket) = a_concert_with_a_ticket_holder(&app).await;
    let (status, _) = app
        .post(
            &format!("/api/v1/stream/{event}/session"),
            json!({}),
            Some(&no_ticket),
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "no ticket, no stream");
}

/// The ticket holder listening to a recorded show: the concert, the fan's token and the
/// full playlist URL.
async fn a_listening_fan(app: &TestApp) -> (String, String, String) {
    let (event, _, fan, _) = a_concert_with_a_ticket_holder(app).await;
    a_recorded_show(app, &event);
    let playlist = format!("{}{}", app.url, app.listen(&event, &fan).await);
    assert_eq!(status_of(app, &playlist).await, StatusCode::OK);
    (event, fan, playlist)
}

#[tokio::test]
async fn a_second_session_on_the_same_ticket_ends_the_first() {
    let app = spawn_app().await;
    let (event, fan, playlist) = a_listening_fan(&app).await;
    let newer = format!("{}{}", app.url, app.listen(&event, &fan).await);
    assert_eq!(status_of(&app, &playlist).await, StatusCode::FORBIDDEN);
    assert_eq!(status_of(&app, &newer).await, StatusCode::OK);
}

#[tokio::test]
async fn a_refund_ends_the_listening_session() {
    let app = spawn_app().await;
    let (event, _, playlist) = a_listening_fan(&app).await;
    let admin = app.an_admin().await;
    let order: (String,) = sqlx::query_as("SELECT order_id FROM tickets WHERE event_id = $1")
        .bind(&event)
        .fetch_one(app.db())
        .await
        .unwrap();
    app.post(
        &format!("/api/v1/orders/{}/refund", order.0),
        json!({}),
        Some(&admin),
    )
    .await;
    assert_eq!(status_of(&app, &playlist).await, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn a_restart_mid_show_keeps_the_recording_and_the_playlist_continues() {
    let dir = tempfile::tempdir().unwrap();
    let media = tempfile::tempdir().unwrap();
    let bytes = std::fs::read(adts_file(media.path(), 3)).unwrap();
    let frames = encore::stream::codecs::adts::AdtsParser::new().push(&bytes);
    let half = frames.len() / 2;
    let before = {
        let hub = encore::stream::show::hub::Hub::new(dir.path().to_owned());
        let show = hub.show("event-1");
        let encore::stream::show::hub::Claim::Granted(id) = show.claim() else {
            panic!("claim")
        };
        show.feed_standard(id, frames[..half].to_vec()).unwrap();
        show.status().recorded_seconds
    };
    // A new process: the show is found on disk and continues from where it stopped.
    let hub = encore::stream::show::hub::Hub::new(dir.path().to_owned());
    let show = hub.show("event-1");
    let recovered = show.status().recorded_seconds;
    assert!(
        recovered > 0.0 && recovered <= before + 0.01,
        "{recovered} vs {before}"
    );
    let encore::stream::show::hub::Claim::Granted(id) = show.claim() else {
        panic!("claim")
    };
    show.feed_standard(id, frames[half..].to_vec()).unwrap();
    show.end().unwrap();
    let text =
        String::from_utf8(show.playlist(Rendition::Standard, false).unwrap().to_vec()).unwrap();
    assert!(
        text.contains("#EXT-X-DISCONTINUITY"),
        "the restart is marked for players"
    );
    std::fs::write(dir.path().join("event-1/index.m3u8"), text.as_bytes()).unwrap();
    let probe = Command::new("ffprobe")
        .args([
            "-v",
            "error",
            "-show_entries",
            "format=duration",
            "-of",
            "csv=p=0",
        ])
        .arg(dir.path().join("event-1/index.m3u8"))
        .output()
        .unwrap();
    let duration: f64 = String::from_utf8_lossy(&probe.stdout)
        .trim()
        .parse()
        .unwrap_or(0.0);
    assert!(
        duration > 2.5,
        "the whole show is there after the restart: {duration}"
    );
}

/// Push `file` once with `encore push`, paced in real time, until it ends.
pub(crate) async fn push_file(app: &TestApp, event: &str, key: &str, file: &std::path::Path) {
    encore::stream::ingest::push::run(push_once(app, event, key, file))
        .await
        .unwrap();
}

/// [`push_file`] in the background: the push's task.
pub(crate) fn push_in_background(
    app: &TestApp,
    event: &str,
    key: &str,
    file: &std::path::Path,
) -> tokio::task::JoinHandle<anyhow::Result<()>> {
    tokio::spawn(encore::stream::ingest::push::run(push_once(
        app, event, key, file,
    )))
}

/// Wait (up to 5 s) until `app` sees an encoder connected to `event`'s show: whether it
/// does.
pub(crate) async fn an_encoder_is_connected(app: &TestApp, event: &str) -> bool {
    let show = app.state.hub.show(event);
    for _ in 0..100 {
        if show.status().publisher_connected {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    show.status().publisher_connected
}

/// `encore push`'s arguments for one pass of `file` to `event` on `app`.
fn push_once(
    app: &TestApp,
    event: &str,
    key: &str,
    file: &std::path::Path,
) -> encore::config::PushArgs {
    encore::config::PushArgs {
        file: file.to_owned(),
        event: event.to_owned(),
        key: key.to_owned(),
        server: app.url.clone(),
        repeat: 1,
    }
}

#[tokio::test]
async fn a_listener_keeps_listening_across_a_server_restart_and_the_show_goes_on() {
    let app = spawn_app().await;
    app.account("admin@example.com", encore::accounts::model::Role::Admin)
        .await;
    let admin = app.sign_in("admin@example.com").await;
    let media = tempfile::tempdir().unwrap();
    let file = adts_file(media.path(), 3);
    let (event, key) = a_concert_to_push(&app, 0).await;
    let fans = app.fans(2).await;
    let mut orders = Vec::new();
    for (_, fan) in &fans {
        let (status, paid) = app.buy(fan, &event, CARD_OK).await;
        assert_eq!(status, StatusCode::OK);
        orders.push(paid["payload"]["order"].as_str().unwrap().to_owned());
    }
    let listening = app.listen(&event, &fans[0].1).await;
    let refunded = app.listen(&event, &fans[1].1).await;
    push_file(&app, &event, &key, &file).await;
    let (status, _) = app
        .post(
            &format!("/api/v1/orders/{}/refund", orders[1]),
            json!({ "reason": "changed their mind" }),
            Some(&admin.access),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let before = app.text_at(&format!("{}{listening}", app.url)).await;
    assert!(before.contains("seg1.m4s"), "{before}");

    let app = app.restart().await;
    let get = |path: String| app.http.get(format!("{}{path}", app.url)).send();
    // The playlist URL handed out before the restart still plays: same show, same files.
    let after = get(listening.clone()).await.unwrap();
    assert_eq!(after.status(), StatusCode::OK);
    let after = after.text().await.unwrap();
    assert!(after.contains("seg1.m4s"), "{after}");
    let base = listening.trim_end_matches("index.m3u8");
    let part = get(format!("{base}seg0.0.m4s")).await.unwrap();
    assert_eq!(part.status(), StatusCode::OK);
    assert!(!part.bytes().await.unwrap().is_empty());
    // A refund before the restart stays a refund after it.
    let denied = get(refunded).await.unwrap();
    assert_eq!(denied.status(), StatusCode::FORBIDDEN);
    assert_eq!(denied.headers()["encore-denied"], "superseded");
    assert!(denied.bytes().await.unwrap().is_empty());

    // The encoder comes back: the same playlist continues past a discontinuity.
    let recorded = app.state.hub.show(&event).status().recorded_seconds;
    push_file(&app, &event, &key, &file).await;
    let grown = get(listening).await.unwrap().text().await.unwrap();
    assert!(grown.contains("#EXT-X-DISCONTINUITY"), "{grown}");
    assert!(
        app.state.hub.show(&event).status().recorded_seconds > recorded + 2.5,
        "the recording goes on after the restart"
    );
}

#[tokio::test]
async fn disabling_or_deleting_an_account_ends_its_listening_at_once() {
    let app = spawn_app().await;
    app.account("admin@example.com", encore::accounts::model::Role::Admin)
        .await;
    let admin = app.sign_in("admin@example.com").await;
    let event = concert(&app, None, 500, 0).await;
    let fans = app.fans(3).await;
    for (_, fan) in &fans {
        assert_eq!(app.buy(fan, &event, CARD_OK).await.0, StatusCode::OK);
    }
    let playlists = [
        app.listen(&event, &fans[0].1).await,
        app.listen(&event, &fans[1].1).await,
        app.listen(&event, &fans[2].1).await,
    ];
    let reason = |path: String| {
        let http = app.http.clone();
        let url = format!("{}{path}", app.url);
        async move {
            let response = http.get(url).send().await.unwrap();
            response
                .headers()
                .get("encore-denied")
                .map(|v| v.to_str().unwrap().to_owned())
        }
    };
    // Before the artist starts, a valid session gets 404 (not yet), not 403.
    assert_eq!(reason(playlists[0].clone()).await, None);

    let (status, _) = app
        .put(
            &format!("/api/v1/accounts/{}", fans[0].0.id),
            json!({ "enablement": { "enabled": false } }),
            &admin.access,
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = app
        .delete(&format!("/api/v1/accounts/{}", fans[1].0.id), &admin.access)
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        reason(playlists[0].clone()).await.as_deref(),
        Some("superseded")
    );
    assert_eq!(
        reason(playlists[1].clone()).await.as_deref(),
        Some("superseded")
    );
    assert_eq!(
        reason(playlists[2].clone()).await,
        None,
        "other fans listen on"
    );

    // And it stays so after a restart.
    let app = app.restart().await;
    let after = app
        .http
        .get(format!("{}{}", app.url, playlists[0]))
        .send()
        .await
        .unwrap();
    assert_eq!(after.status(), StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn ffmpeg_publishes_over_the_icecast_protocol() {
    let app = spawn_app().await;
    let (event, key) = a_concert_to_push(&app, 60_000).await;
    let target = format!("icecast://source:{key}@{}/live/{event}", app.ingest);
    let encoder = tokio::task::spawn_blocking(move || {
        Command::new("ffmpeg")
            .args([
                "-hide_banner",
                "-loglevel",
                "error",
                "-re",
                "-f",
                "lavfi",
                "-i",
            ])
            .arg("sine=frequency=500:sample_rate=44100:duration=3")
            .args([
                "-ac",
                "2",
                "-c:a",
                "aac",
                "-b:a",
                "96k",
                "-content_type",
                "audio/aac",
                "-f",
                "adts",
            ])
            .arg(target)
            .output()
            .expect("ffmpeg")
    });
    let output = encoder.await.unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    // A wrong key is refused on the Icecast port too.
    let wrong = format!("icecast://source:nope@{}/live/{event}", app.ingest);
    let refused = tokio::task::spawn_blocking(move || {
        Command::new("ffmpeg")
            .args([
                "-hide_banner",
                "-loglevel",
                "error",
                "-f",
                "lavfi",
                "-i",
                "sine=duration=1",
            ])
            .args(["-c:a", "aac", "-content_type", "audio/aac", "-f", "adts"])
            .arg(wrong)
            .output()
            .expect("ffmpeg")
    })
    .await
    .unwrap();
    assert!(!refused.status.success());
    let show = app.state.hub.show(&event);
    let status = show.status();
    assert!(status.recorded_seconds > 2.5, "{status:?}");
    assert!(status.segments >= 2);
    let text =
        String::from_utf8(show.playlist(Rendition::Standard, false).unwrap().to_vec()).unwrap();
    assert!(text.contains("seg1.m4s"), "{text}");
}

#[tokio::test]
async fn a_recording_is_deleted_when_its_retention_is_over() {
    let app = spawn_app().await;
    let event = concert(&app, None, 500, 60_000).await;
    let show = app.state.hub.show(&event);
    let encore::stream::show::hub::Claim::Granted(id) = show.claim() else {
        panic!("claim")
    };
    let media = tempfile::tempdir().unwrap();
    let bytes = std::fs::read(adts_file(media.path(), 2)).unwrap();
    show.feed_standard(
        id,
        encore::stream::codecs::adts::AdtsParser::new().push(&bytes),
    )
    .unwrap();
    let dir = show.dir().to_owned();
    assert!(dir.join("init.mp4").exists());
    encore::stream::ingest::purge_recordings(&app.state).await;
    assert!(dir.exists(), "kept while the window is open");
    sqlx::query("UPDATE events SET starts_at = starts_at - 25 * 3600000 WHERE id = $1")
        .bind(&event)
        .execute(app.db())
        .await
        .unwrap();
    encore::stream::ingest::purge_recordings(&app.state).await;
    assert!(!dir.exists(), "deleted at start + 24 h");
}

/// Four seconds of AAC split at a frame boundary near the middle: an encoder's two
/// connections.
fn four_seconds_in_halves() -> (Vec<u8>, Vec<u8>) {
    let media = tempfile::tempdir().unwrap();
    let mut first = std::fs::read(adts_file(media.path(), 4)).unwrap();
    let second = first.split_off(middle_frame_boundary(&first));
    (first, second)
}

#[tokio::test]
async fn a_publisher_that_reconnects_continues_the_same_show_without_a_gap() {
    let app = spawn_app().await;
    let (event, key) = a_concert_to_push(&app, 60_000).await;
    let (first, second) = four_seconds_in_halves();
    assert_eq!(
        put_live(&app, &event, &key, "audio/aac", first).await,
        StatusCode::OK
    );
    assert_eq!(
        put_live(&app, &event, &key, "audio/aac", second).await,
        StatusCode::OK
    );
    let show = app.state.hub.show(&event);
    show.end().unwrap();
    let text =
        String::from_utf8(show.playlist(Rendition::Standard, false).unwrap().to_vec()).unwrap();
    assert_eq!(text.matches("#EXT-X-DISCONTINUITY").count(), 1, "{text}");
    let path = show.dir().join("index.m3u8");
    std::fs::write(&path, text.as_bytes()).unwrap();
    let pts = packet_times(&path);
    assert!(pts.len() > 180, "{} packets", pts.len());
    let step = 1024.0 / 48_000.0;
    assert!(
        pts.windows(2).all(|w| ((w[1] - w[0]) - step).abs() < 1e-4),
        "the timeline continues across the reconnect"
    );
}

#[tokio::test]
async fn new_parts_and_segments_are_kept_in_memory_with_the_same_bytes_as_on_disk() {
    let dir = tempfile::tempdir().unwrap();
    let hub = encore::stream::show::hub::Hub::new(dir.path().to_owned());
    let show = hub.show("event-1");
    feed_two_seconds(&show);
    for name in [
        "init.mp4",
        "seg0.0.m4s",
        "seg0.3.m4s",
        "seg0.m4s",
        "seg1.0.m4s",
    ] {
        let on_disk = std::fs::read(dir.path().join("event-1").join(name)).unwrap();
        let in_memory = show
            .cached(Rendition::Standard, MediaFile::parse(name).unwrap())
            .unwrap_or_else(|| panic!("{name} not cached"));
        assert_eq!(in_memory.as_ref(), on_disk.as_slice(), "{name}");
    }
    // Older files (after a restart, or evicted) come from disk once, then from memory.
    let again = encore::stream::show::hub::Hub::new(dir.path().to_owned());
    let recovered = again.show("event-1");
    let segment = MediaFile::Segment(0);
    assert!(recovered.cached(Rendition::Standard, segment).is_none());
    assert!(
        recovered
            .media(Rendition::Standard, segment)
            .await
            .is_some()
    );
    assert!(recovered.cached(Rendition::Standard, segment).is_some());
}

#[tokio::test]
async fn denied_stream_requests_get_no_bytes_and_say_why() {
    let app = spawn_app().await;
    let event = concert(&app, None, 500, 60_000).await;
    let other = concert(&app, None, 500, 60_000).await;
    let fans = app.fans(1).await;
    let (_, fan) = &fans[0];
    assert_eq!(app.buy(fan, &other, CARD_OK).await.0, StatusCode::OK);
    let (status, body) = app
        .post(
            &format!("/api/v1/stream/{event}/session"),
            json!({}),
            Some(fan),
        )
        .await;
    assert_eq!(
        status,
        StatusCode::FORBIDDEN,
        "a ticket for another concert: {body}"
    );

    let denied = |url: String| {
        let http = app.http.clone();
        async move {
            let response = http.get(&url).send().await.unwrap();
            let status = response.status();
            let reason = response
                .headers()
                .get("encore-denied")
                .map(|v| v.to_str().unwrap().to_owned());
            assert!(response.bytes().await.unwrap().is_empty(), "{url}");
            (status, reason)
        }
    };
    // Expired: a session whose window has just closed.
    let (_, token) = app
        .state
        .stream_access
        .open(&event, "ticket-1", encore::db::now_ms() + 20);
    tokio::time::sleep(Duration::from_millis(50)).await;
    for file in ["index.m3u8", "init.mp4", "seg0.0.m4s"] {
        assert_eq!(
            denied(format!("{}/stream/{token}/{file}", app.url)).await,
            (StatusCode::FORBIDDEN, Some("expired".to_owned()))
        );
    }
    // Superseded: the same ticket opened again.
    let (_, first) = app.state.stream_access.open(&event, "ticket-2", i64::MAX);
    let (_, second) = app.state.stream_access.open(&event, "ticket-2", i64::MAX);
    assert_eq!(
        denied(format!("{}/stream/{first}/index.m3u8", app.url)).await,
        (StatusCode::FORBIDDEN, Some("superseded".to_owned()))
    );
    // Tampered: the signature no longer matches.
    let flip = |c: &str| if c == "A" { "B" } else { "A" };
    let mut forged = second.clone();
    forged.replace_range(..1, flip(&second[..1]));
    let mut tampered = second.clone();
    let last = if tampered.ends_with('A') { "B" } else { "A" };
    tampered.replace_range(tampered.len() - 1.., last);
    for token in [forged, tampered, "garbage".to_owned()] {
        assert_eq!(
            denied(format!("{}/stream/{token}/index.m3u8", app.url)).await,
            (StatusCode::FORBIDDEN, Some("invalid".to_owned()))
        );
    }
    // Only GET and HEAD, even with a valid token; answers are never sniffed as HTML.
    let post = app
        .http
        .post(format!("{}/stream/{second}/index.m3u8", app.url))
        .send()
        .await
        .unwrap();
    assert_eq!(post.status(), StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(post.headers()["allow"], "GET, HEAD");
    assert_eq!(post.headers()["x-content-type-options"], "nosniff");
    assert!(post.bytes().await.unwrap().is_empty());
}

/// Whether the encoder port-equivalent (HTTP `PUT`) takes `key`: a wrong media type is
/// checked after the key, so 415 means admitted without streaming a byte.
async fn key_admitted(app: &TestApp, event: &str, key: &str) -> StatusCode {
    put_live(app, event, key, "video/x-flv", vec![0; 10]).await
}

async fn stored_key_columns(app: &TestApp, event: &str) -> (String, Option<String>) {
    sqlx::query_as("SELECT stream_key, stream_key_hash FROM events WHERE id = $1")
        .bind(event)
        .fetch_one(app.db())
        .await
        .unwrap()
}

#[tokio::test]
async fn a_stream_key_is_shown_once_at_rotation_stored_hashed_and_the_old_one_stops_working() {
    let app = spawn_app().await;
    app.account("admin@example.com", encore::accounts::model::Role::Admin)
        .await;
    let admin = app.sign_in("admin@example.com").await;
    let event = concert(&app, None, 500, 5 * 60_000).await;
    let rotate = format!("/api/v1/events/{event}/stream-key/rotate");
    let show = format!("/api/v1/events/{event}/stream-key");

    let (_, before) = app.get(&show, Some(&admin.access)).await;
    assert!(before["payload"].get("streamKey").is_none(), "{before}");
    assert_eq!(
        before["payload"]["keyHint"],
        serde_json::Value::Null,
        "no key yet"
    );

    let (status, first) = app.post(&rotate, json!({}), Some(&admin.access)).await;
    assert_eq!(status, StatusCode::OK, "{first}");
    let first_key = first["payload"]["streamKey"].as_str().unwrap().to_owned();
    assert!(first_key.len() >= 32);
    let (status, second) = app.post(&rotate, json!({}), Some(&admin.access)).await;
    assert_eq!(status, StatusCode::OK, "{second}");
    let key = second["payload"]["streamKey"].as_str().unwrap().to_owned();
    assert_ne!(key, first_key);

    let (status, shown) = app.get(&show, Some(&admin.access)).await;
    assert_eq!(status, StatusCode::OK, "{shown}");
    assert!(shown["payload"].get("streamKey").is_none(), "{shown}");
    assert!(
        !shown.to_string().contains(&key),
        "GET never answers the key"
    );
    assert_eq!(shown["payload"]["keyHint"], key[key.len() - 4..]);
    assert!(
        shown["payload"]["pushUrl"]
            .as_str()
            .unwrap()
            .ends_with(&event)
    );

    let (plain, hash) = stored_key_columns(&app, &event).await;
    assert_eq!(plain, "");
    assert!(
        hash.as_deref()
            .is_some_and(|h| h.len() == 64 && !h.contains(&key))
    );

    assert_eq!(
        key_admitted(&app, &event, &first_key).await,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        key_admitted(&app, &event, &key).await,
        StatusCode::UNSUPPORTED_MEDIA_TYPE
    );
}

#[tokio::test]
async fn a_plain_key_stored_before_hashing_is_hashed_on_start_and_keeps_working() {
    let app = spawn_app().await;
    let event = concert(&app, None, 500, 5 * 60_000).await;
    let legacy = "a-legacy-plain-stream-key-000000";
    sqlx::query("UPDATE events SET stream_key = $2, stream_key_hash = NULL WHERE id = $1")
        .bind(&event)
        .bind(legacy)
        .execute(app.db())
        .await
        .unwrap();

    let app = app.restart().await;
    let (plain, hash) = stored_key_columns(&app, &event).await;
    assert_eq!(plain, "", "the plain key is gone");
    assert_eq!(
        hash.as_deref(),
        Some(encore::crypto::token_hash(legacy).as_str())
    );
    assert_eq!(
        key_admitted(&app, &event, legacy).await,
        StatusCode::UNSUPPORTED_MEDIA_TYPE
    );
}

#[tokio::test]
async fn the_live_panel_goes_live_with_its_ticket_and_a_rotation_voids_it() {
    let app = spawn_app().await;
    app.account("admin@example.com", encore::accounts::model::Role::Admin)
        .await;
    let admin = app.sign_in("admin@example.com").await;
    let event = concert(&app, None, 500, 5 * 60_000).await;
    let (_, none) = app
        .get(
            &format!("/api/v1/events/{event}/stream-key"),
            Some(&admin.access),
        )
        .await;
    assert_eq!(none["payload"]["goLiveTicket"], serde_json::Value::Null);
    stream_key(&app, &event).await;
    let (_, shown) = app
        .get(
            &format!("/api/v1/events/{event}/stream-key"),
            Some(&admin.access),
        )
        .await;
    let ticket = shown["payload"]["goLiveTicket"]
        .as_str()
        .unwrap()
        .to_owned();
    let (_, reply) = crate::go_live::go_live(
        &app,
        &event,
        json!({ "ticket": ticket, "mimeType": "video/x-flv" }),
    )
    .await;
    assert_eq!(
        reply["status"], 415,
        "admitted, then the type refused: {reply}"
    );
    stream_key(&app, &event).await;
    let (_, reply) = crate::go_live::go_live(
        &app,
        &event,
        json!({ "ticket": ticket, "mimeType": "video/x-flv" }),
    )
    .await;
    assert_eq!(reply["status"], 401, "{reply}");
}

/// One raw request to the Icecast port; its whole answer.
async fn icecast_answer(app: &TestApp, request: String) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut conn = tokio::net::TcpStream::connect(&app.ingest).await.unwrap();
    conn.write_all(request.as_bytes()).await.unwrap();
    let mut answer = String::new();
    conn.read_to_string(&mut answer).await.unwrap();
    answer
}

#[tokio::test]
async fn a_refused_encoder_reads_the_status_and_one_line_why_on_either_port() {
    let app = spawn_app().await;
    let (event, key) = a_concert_to_push(&app, 60_000).await;
    // HTTP port: a wrong key is 401 with the Basic challenge and the reason as one line.
    let wrong = app
        .http
        .put(format!("{}/live/{event}", app.url))
        .basic_auth("source", Some("nope"))
        .header("content-type", "audio/aac")
        .send()
        .await
        .unwrap();
    assert_eq!(wrong.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(
        wrong.headers()["www-authenticate"],
        "Basic realm=\"Encore\""
    );
    assert_eq!(wrong.text().await.unwrap(), "Wrong stream key.\n");
    // No such concert is answered as a wrong key (a draft's id likewise, below).
    assert_eq!(
        key_admitted(&app, "no-such-concert", &key).await,
        StatusCode::UNAUTHORIZED
    );
    let method = app
        .http
        .post(format!("{}/live/{event}", app.url))
        .send()
        .await
        .unwrap();
    assert_eq!(method.status(), StatusCode::METHOD_NOT_ALLOWED);
    // Found by schemathesis: a 405 must say which methods are allowed (RFC 9110).
    assert_eq!(method.headers()["allow"], "PUT, SOURCE");
    assert_eq!(
        method.text().await.unwrap(),
        "Publish with PUT or SOURCE.\n"
    );
    // Icecast port: the same refusals in a plain HTTP/1.1 answer.
    let answer = icecast_answer(
        &app,
        format!("SOURCE /live/{event} HTTP/1.0\r\nAuthorization: Basic c291cmNlOm5vcGU=\r\nContent-Type: audio/aac\r\n\r\n"),
    )
    .await;
    assert!(
        answer.starts_with("HTTP/1.1 401 Unauthorized\r\n"),
        "{answer}"
    );
    assert!(
        answer.contains("\r\nWWW-Authenticate: Basic realm=\"Encore\"\r\n"),
        "{answer}"
    );
    assert!(answer.ends_with("\r\n\r\nWrong stream key.\n"), "{answer}");
    let answer = icecast_answer(&app, "GET /live/x HTTP/1.0\r\n\r\n".to_owned()).await;
    assert!(
        answer.starts_with("HTTP/1.1 405 Method Not Allowed\r\n"),
        "{answer}"
    );
    assert!(
        answer.ends_with("\r\n\r\nPublish with PUT or SOURCE.\n"),
        "{answer}"
    );
    let answer = icecast_answer(&app, "PUT /elsewhere HTTP/1.0\r\n\r\n".to_owned()).await;
    assert!(answer.starts_with("HTTP/1.1 404 Not Found\r\n"), "{answer}");
}

#[tokio::test]
async fn an_encoder_away_is_counted_down_and_past_the_wait_the_show_ends_and_holders_are_told_once()
{
    let app = spawn_app_with(Options {
        show_abandon_minutes: Some(0.05), // 3 s
        ..Options::default()
    })
    .await;
    let (event, key) = a_concert_to_push(&app, 60_000).await;
    let (fan, token) = app.fans(1).await.pop().unwrap();
    assert_eq!(app.buy(&token, &event, CARD_OK).await.0, StatusCode::OK);
    let media = tempfile::tempdir().unwrap();
    let bytes = std::fs::read(adts_file(media.path(), 1)).unwrap();
    assert_eq!(
        put_live(&app, &event, &key, "audio/aac", bytes).await,
        StatusCode::OK
    );
    // Away: the panel's figures say since when, and how long until the show ends by itself.
    let (_, admin) = app
        .signed_in("staff@example.com", encore::accounts::model::Role::Admin)
        .await;
    let (status, live) = app
        .get(&format!("/api/v1/events/{event}/live"), Some(&admin.access))
        .await;
    assert_eq!(status, StatusCode::OK, "{live}");
    let figures = &live["payload"];
    assert_eq!(figures["publisherConnected"], false, "{figures}");
    assert_eq!(figures["ended"], false, "{figures}");
    let away = figures["awaySeconds"].as_f64().expect("awaySeconds");
    let left = figures["endsInSeconds"].as_f64().expect("endsInSeconds");
    assert!(away < 3.0 && left > 0.0 && left <= 3.0, "{figures}");
    assert!((away + left - 3.0).abs() < 0.1, "{figures}");
    // Nobody came back: the show ends by itself, and its holders hear it once.
    let show = app.state.hub.show(&event);
    let waited = std::time::Instant::now();
    while !show.status().ended {
        assert!(
            waited.elapsed() < Duration::from_secs(10),
            "the show did not end"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(show.status().away_seconds.is_none(), "ended, not away");
    let told = || async {
        app.count(
            "SELECT COUNT(*) FROM notifications WHERE account_id = $1 AND title LIKE '%has ended'",
            &fan.id,
        )
        .await
    };
    let mut n = told().await;
    for _ in 0..20 {
        if n > 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
        n = told().await;
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!((n, told().await), (1, 1), "told once");
    // And an encoder coming back later is refused: the show is over.
    assert_eq!(
        put_live(&app, &event, &key, "audio/aac", vec![0xff, 0xf1]).await,
        StatusCode::CONFLICT
    );
}

#[tokio::test]
async fn an_encoder_back_before_the_wait_runs_out_continues_the_same_show() {
    let app = spawn_app_with(Options {
        show_abandon_minutes: Some(0.1), // 6 s
        ..Options::default()
    })
    .await;
    let (event, key) = a_concert_to_push(&app, 60_000).await;
    let (first, second) = four_seconds_in_halves();
    assert_eq!(
        put_live(&app, &event, &key, "audio/aac", first).await,
        StatusCode::OK
    );
    // Away for 4 s of the 6: still the show.
    tokio::time::sleep(Duration::from_secs(4)).await;
    let show = app.state.hub.show(&event);
    let away = show.status();
    assert!(!away.ended);
    assert!(away.away_seconds.is_some_and(|s| s >= 4.0), "{away:?}");
    // Pages and players say "reconnecting", not live (issue 29).
    let (_, fan) = app.fans(1).await.pop().unwrap();
    assert_eq!(app.buy(&fan, &event, CARD_OK).await.0, StatusCode::OK);
    let (_, shown) = app
        .get(&format!("/api/v1/events/{event}"), Some(&fan))
        .await;
    assert_eq!(
        shown["payload"]["state"]["reason"], "reconnecting",
        "{shown}"
    );
    let session = format!("/api/v1/stream/{event}/session");
    let (_, listening) = app.get(&session, Some(&fan)).await;
    assert_eq!(listening["payload"]["aired"], true, "{listening}");
    assert_eq!(listening["payload"]["reconnecting"], true, "{listening}");
    assert_eq!(
        put_live(&app, &event, &key, "audio/aac", second).await,
        StatusCode::OK
    );
    let back = show.status();
    assert!(!back.ended, "the same show goes on");
    assert!(back.recorded_seconds > 3.5, "{back:?}");
    show.end().unwrap();
    let text =
        String::from_utf8(show.playlist(Rendition::Standard, false).unwrap().to_vec()).unwrap();
    assert_eq!(text.matches("#EXT-X-DISCONTINUITY").count(), 1, "{text}");
}
