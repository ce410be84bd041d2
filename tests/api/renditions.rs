//! The rendition ladder on the live path (issue 32): an AAC push is heard in every
//! rendition of one multivariant playlist, each cut at the same parts, each under the
//! listening session's signature; another instance serves every rendition too.

use std::time::Duration;

use reqwest::StatusCode;

use crate::cluster::two_processes_beside;
use crate::go_live::{encoded, go_live_at, send_chunks};
use crate::helpers::*;
use crate::live::tone;
use crate::media::pcm;
use crate::set_to_keep::{bytes_of, download_link, the_set_from};
use crate::topology::{a_concert_with_a_ticket_holder, probed_codec};

/// Two seconds of a 48 kHz stereo tone as AAC at 192 kbit/s in ADTS: what an encoder
/// sends.
pub(crate) fn aac(dir: &std::path::Path) -> Vec<u8> {
    let path = dir.join("show.aac");
    tone(
        &path,
        2,
        330,
        48_000,
        &["-c:a", "aac", "-b:a", "192k", "-f", "adts"],
    );
    std::fs::read(path).unwrap()
}

/// An encoder PUTs AAC `bytes` to the server at `base` (all at once): the status.
pub(crate) async fn push(
    http: &reqwest::Client,
    base: &str,
    event: &str,
    key: &str,
    bytes: Vec<u8>,
) -> StatusCode {
    push_as(http, base, event, key, "audio/aac", bytes).await
}

/// An encoder PUTs `bytes` of `media_type` to the server at `base` (all at once).
async fn push_as(
    http: &reqwest::Client,
    base: &str,
    event: &str,
    key: &str,
    media_type: &str,
    bytes: Vec<u8>,
) -> StatusCode {
    http.put(format!("{base}/live/{event}"))
        .basic_auth("source", Some(key))
        .header("content-type", media_type)
        .body(bytes)
        .send()
        .await
        .unwrap()
        .status()
}

pub(crate) async fn get(http: &reqwest::Client, url: &str) -> (StatusCode, String) {
    let answer = http.get(url).send().await.unwrap();
    (answer.status(), answer.text().await.unwrap())
}

/// The multivariant playlist's path beside a session's media playlist path.
pub(crate) fn multivariant_of(playlist: &str) -> String {
    playlist.replace("/index.m3u8", "/master.m3u8")
}

/// The multivariant playlist at `url`, as m3u8-rs reads it.
pub(crate) async fn variants(http: &reqwest::Client, url: &str) -> Vec<m3u8_rs::VariantStream> {
    let (status, text) = get(http, url).await;
    assert_eq!(status, StatusCode::OK, "{url}: {text}");
    match m3u8_rs::parse_playlist_res(text.as_bytes()) {
        Ok(m3u8_rs::Playlist::MasterPlaylist(master)) => master.variants,
        other => panic!("not a multivariant playlist: {other:?}\n{text}"),
    }
}

/// The URLs of a media playlist's first parts (relative to the playlist at `url`).
fn first_parts(url: &str, text: &str) -> Vec<String> {
    let base = url.trim_end_matches("index.m3u8");
    (text.lines())
        .filter_map(|l| l.strip_prefix("#EXT-X-PART:"))
        .filter_map(|l| Some(l.split("URI=\"").nth(1)?.split('"').next()?.to_owned()))
        .take(3)
        .map(|name| format!("{base}{name}"))
        .collect()
}

/// A concert whose encoder pushed two seconds of AAC to `app`, and a ticket holder's
/// token.
pub(crate) async fn a_pushed_show(app: &TestApp) -> (String, String) {
    let (event, key, fan) = a_concert_with_a_ticket_holder(app).await;
    let media = tempfile::tempdir().unwrap();
    let pushed = push(&app.http, &app.url, &event, &key, aac(media.path())).await;
    assert_eq!(pushed, StatusCode::OK);
    (event, fan)
}

/// A holder's listening session of [`a_pushed_show`] after it ended: its playlist URL.
pub(crate) async fn an_ended_push_s_playlist(app: &TestApp) -> String {
    let (event, fan) = a_pushed_show(app).await;
    let admin = app.an_admin().await;
    app.end_show(&event, &admin).await;
    format!("{}{}", app.url, app.listen(&event, &fan).await)
}

/// An AAC push, ended: the session's multivariant playlist lists at least two
/// renditions (the standard one first, each AAC-LC with its bit rates, the data saver
/// below the standard one), and every rendition's media playlist is the standard one's
/// text (the same parts, durations, program date times and ENDLIST), which ffprobe
/// reads as AAC.
#[tokio::test]
async fn an_aac_push_is_heard_in_every_rendition_cut_at_the_same_parts() {
    let app = spawn_app().await;
    let playlist = an_ended_push_s_playlist(&app).await;
    let master = multivariant_of(&playlist);
    let listed = variants(&app.http, &master).await;
    assert!(listed.len() >= 2, "{listed:?}");
    assert_eq!(
        listed[0].uri, "standard/index.m3u8",
        "the standard rendition first"
    );
    assert!(
        listed.iter().any(|v| v.uri == "saver/index.m3u8"),
        "{listed:?}"
    );
    for variant in &listed {
        assert_eq!(variant.codecs.as_deref(), Some("mp4a.40.2"));
        assert!(variant.bandwidth > 0 && variant.average_bandwidth.is_some_and(|b| b > 0));
    }
    let saver = listed.iter().find(|v| v.uri.starts_with("saver/")).unwrap();
    assert!(
        saver.average_bandwidth < listed[0].average_bandwidth,
        "{listed:?}"
    );

    let (status, standard) = get(&app.http, &playlist).await;
    assert_eq!(status, StatusCode::OK);
    assert!(standard.contains("#EXT-X-ENDLIST") && standard.matches("#EXTINF:").count() >= 2);
    let base = master.trim_end_matches("master.m3u8");
    for variant in &listed {
        let url = format!("{base}{}", variant.uri);
        let (status, text) = get(&app.http, &url).await;
        assert_eq!(status, StatusCode::OK, "{url}");
        assert_eq!(
            text, standard,
            "{} is cut at the standard rendition's parts",
            variant.uri
        );
        assert_eq!(probed_codec(url).await, "aac", "{}", variant.uri);
    }
}

/// Every rendition's playlist and parts need the session's signature: a tampered one is
/// 403 on each, and a newer session on the same ticket ends the older one's every
/// rendition at once.
#[tokio::test]
async fn every_rendition_needs_the_sessions_signature_and_a_newer_session_ends_them_all() {
    let app = spawn_app().await;
    let (event, fan) = a_pushed_show(&app).await;

    let playlist = format!("{}{}", app.url, app.listen(&event, &fan).await);
    let master = multivariant_of(&playlist);
    let base = master.trim_end_matches("master.m3u8").to_owned();
    let mut urls = vec![master.clone()];
    for variant in variants(&app.http, &master).await {
        let url = format!("{base}{}", variant.uri);
        let (_, text) = get(&app.http, &url).await;
        urls.extend(first_parts(&url, &text));
        urls.push(url.replace("index.m3u8", "init.mp4"));
        urls.push(url);
    }
    assert!(urls.len() >= 11, "{urls:?}");
    let newer = signed_for_the_newest_session(&app, &event, &fan, &base, &urls).await;
    assert_eq!(
        variants(&app.http, &multivariant_of(&newer)).await.len(),
        urls.iter().filter(|u| u.ends_with("index.m3u8")).count()
    );
}

/// Each of `urls` (signed by the session whose base URL is `base`) is served, and `403`
/// once its token's last character changed (the signature no longer matches), then once
/// a newer session on the same ticket replaced it (`superseded`). Answers the newer
/// session's playlist.
async fn signed_for_the_newest_session(
    app: &TestApp,
    event: &str,
    fan: &str,
    base: &str,
    urls: &[String],
) -> String {
    let token = base
        .trim_end_matches('/')
        .rsplit('/')
        .next()
        .unwrap()
        .to_owned();
    let last = token.chars().last().unwrap();
    let tampered = format!(
        "{}{}",
        &token[..token.len() - 1],
        if last == 'A' { 'B' } else { 'A' }
    );
    for url in urls {
        assert_eq!(get(&app.http, url).await.0, StatusCode::OK, "{url}");
        let forged = url.replace(&token, &tampered);
        assert_eq!(
            get(&app.http, &forged).await.0,
            StatusCode::FORBIDDEN,
            "{forged}"
        );
    }
    let newer = format!("{}{}", app.url, app.listen(event, fan).await);
    for url in urls {
        let answer = app.http.get(url).send().await.unwrap();
        assert_eq!(answer.status(), StatusCode::FORBIDDEN, "{url}");
        assert_eq!(answer.headers()["encore-denied"], "superseded");
    }
    newer
}

/// Two real `encore serve` processes on one database and Redis: an encoder pushes to one,
/// and the other serves the same multivariant playlist and every rendition's playlist and
/// parts, byte for byte (its copy comes from the show's journal, every rendition in it).
#[tokio::test]
async fn another_instance_serves_every_rendition_byte_for_byte() {
    let app = spawn_app_on_redis(Options::default()).await;
    let (event, key, fan) = a_concert_with_a_ticket_holder(&app).await;
    let [(_one, p), (_two, q)] = two_processes_beside(&app).await;
    let media = tempfile::tempdir().unwrap();
    assert_eq!(
        push(&app.http, &p.url, &event, &key, aac(media.path())).await,
        StatusCode::OK
    );
    let path = multivariant_of(&app.listen(&event, &fan).await);
    let listed = both_serve_every_rendition(&app, &p.url, &q.url, &path).await;
    assert!(listed.len() >= 2, "{listed:?}");
}

/// The multivariant playlist at `path` on the processes at `p` and `q`, once `q` serves
/// what `p` does: the same variants, and every rendition's playlist, init segment and
/// first parts byte for byte.
async fn both_serve_every_rendition(
    app: &TestApp,
    p: &str,
    q: &str,
    path: &str,
) -> Vec<m3u8_rs::VariantStream> {
    let (on_p, on_q) = (format!("{p}{path}"), format!("{q}{path}"));
    // The session reaches the other processes over the bus.
    for _ in 0..100 {
        if get(&app.http, &on_p).await.0 == StatusCode::OK {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // A live show's playlist still grows on `p`: what is compared is one moment's, the
    // same on both.
    let mut last = String::new();
    let mut agreed = None;
    for _ in 0..100 {
        let (held, served) = (get(&app.http, &on_p).await, get(&app.http, &on_q).await);
        if held.0 == StatusCode::OK && held == served {
            agreed = Some(held.1);
            break;
        }
        last = served.1;
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let agreed = agreed.unwrap_or_else(|| panic!("the multivariant playlists differ: {last}"));
    let listed = match m3u8_rs::parse_playlist_res(agreed.as_bytes()) {
        Ok(m3u8_rs::Playlist::MasterPlaylist(master)) => master.variants,
        other => panic!("not a multivariant playlist: {other:?}\n{agreed}"),
    };
    for variant in &listed {
        let url = |base: &str| format!("{}{}", base.trim_end_matches("master.m3u8"), variant.uri);
        let (a, b) = (url(&on_p), url(&on_q));
        let mut agreed = None;
        for _ in 0..100 {
            let (held, served) = (get(&app.http, &a).await, get(&app.http, &b).await);
            if held.0 == StatusCode::OK && held == served {
                agreed = Some(held.1);
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let text =
            agreed.unwrap_or_else(|| panic!("{} differs between the instances", variant.uri));
        let files =
            (first_parts(&a, &text).into_iter()).chain([a.replace("index.m3u8", "init.mp4")]);
        for file in files {
            let held = app.http.get(&file).send().await.unwrap();
            assert_eq!(held.status(), StatusCode::OK, "{file}");
            let other = file.replace(p, q);
            let served = app.http.get(&other).send().await.unwrap();
            assert_eq!(served.status(), StatusCode::OK, "{other}");
            assert_eq!(
                held.bytes().await.unwrap(),
                served.bytes().await.unwrap(),
                "{file}"
            );
        }
    }
    listed
}

/// The same with an Ogg FLAC push: the other process lists the lossless rendition too and
/// serves its playlist, init segment and parts byte for byte (the journal carries its FLAC
/// frames), live and ended; and after the show `recording.flac` is the same file from
/// either process, each made from its own copy, the encoder's PCM bit for bit.
#[tokio::test]
async fn another_instance_serves_the_lossless_rendition_and_its_flac_set_byte_for_byte() {
    let app = spawn_app_on_redis(Options::default()).await;
    let (event, key, fan) = a_concert_with_a_ticket_holder(&app).await;
    let [(_one, p), (_two, q)] = two_processes_beside(&app).await;
    let media = tempfile::tempdir().unwrap();
    let flac = ogg_flac(media.path(), &["-frame_size", "4096"]);
    let pushed = push_as(&app.http, &p.url, &event, &key, "audio/ogg", flac).await;
    assert_eq!(pushed, StatusCode::OK);
    let path = multivariant_of(&app.listen(&event, &fan).await);
    lossless_on_both(&app, &p.url, &q.url, &path).await;

    let both = [p.url.as_str(), q.url.as_str()];
    let set_bytes = ended_alike_on_both(&app, both, &p.url, (&path, &event, &fan)).await;
    let set = media.path().join("set.flac");
    std::fs::write(&set, set_bytes).unwrap();
    assert_eq!(
        pcm(set).await,
        pcm(media.path().join("show.ogg")).await,
        "the set's PCM is the encoder's"
    );
}

/// The same with a browser's lossless go-live (16-bit PCM in WebM over the socket, made
/// FLAC by the ladder on the process it reached): the other process lists the `fLaC`
/// rendition and serves its playlist, init segment and parts byte for byte while the
/// artist is live; ended there (the publisher's process ends it after its last frames),
/// both copies end alike, and `recording.flac` is the same file from both.
#[tokio::test]
async fn another_instance_serves_a_browser_s_lossless_go_live_byte_for_byte() {
    let app = spawn_app_on_redis(Options::default()).await;
    let (event, key, fan) = a_concert_with_a_ticket_holder(&app).await;
    let [(_one, p), (_two, q)] = two_processes_beside(&app).await;
    let pcm_webm = encoded(3, &["-c:a", "pcm_s16le", "-ac", "2"], "matroska");
    let hello = serde_json::json!({ "key": key, "mimeType": "audio/webm;codecs=pcm" });
    let (mut socket, reply) = go_live_at(&p.url, &event, hello).await;
    assert_eq!(
        reply,
        serde_json::json!({ "type": "live", "takesLossless": true })
    );
    send_chunks(&mut socket, &pcm_webm, 96_000, Duration::from_millis(20)).await;
    let path = multivariant_of(&app.listen(&event, &fan).await);
    lossless_on_both(&app, &p.url, &q.url, &path).await;

    // Ended on the other process while the artist is live.
    let both = [p.url.as_str(), q.url.as_str()];
    ended_alike_on_both(&app, both, &q.url, (&path, &event, &fan)).await;
    drop(socket);
}

/// Once `p` lists the lossless rendition of the multivariant playlist at `path` (a
/// live ladder's FLAC is listed once it has a segment), `q` serves every rendition as `p`
/// does, the lossless one last, `fLaC`.
async fn lossless_on_both(app: &TestApp, p: &str, q: &str, path: &str) {
    let on_p = format!("{p}{path}");
    for _ in 0..200 {
        let listed = get(&app.http, &on_p).await;
        if listed.0 == StatusCode::OK && listed.1.contains("lossless/index.m3u8") {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let listed = both_serve_every_rendition(app, p, q, path).await;
    let lossless = listed.last().unwrap();
    assert_eq!(lossless.uri, "lossless/index.m3u8", "{listed:?}");
    assert_eq!(lossless.codecs.as_deref(), Some("fLaC"));
}

/// A show begun in Opus from a browser on one process, taken up by the artist on the
/// other with Lossless switched on (the first socket closed, the show under way): the
/// other process, caught up from the journal when it admits the publisher, answers
/// `takesLossless: false`, and neither process lists a lossless rendition.
#[tokio::test]
async fn another_instance_tells_a_lossless_browser_the_show_began_without() {
    let app = spawn_app_on_redis(Options::default()).await;
    let (event, key, fan) = a_concert_with_a_ticket_holder(&app).await;
    let [(_one, p), (_two, q)] = two_processes_beside(&app).await;
    let hello = |codec: &str| serde_json::json!({ "key": key, "mimeType": format!("audio/webm;codecs={codec}") });
    let opus = encoded(2, &["-c:a", "libopus", "-b:a", "64k"], "webm");
    let (mut socket, reply) = go_live_at(&p.url, &event, hello("opus")).await;
    assert_eq!(reply["takesLossless"], true, "a new show: {reply}");
    send_chunks(&mut socket, &opus, 24_000, Duration::from_millis(10)).await;
    let path = multivariant_of(&app.listen(&event, &fan).await);
    both_serve_every_rendition(&app, &p.url, &q.url, &path).await;
    socket.close(None).await.unwrap();

    // `q` takes the show once `p` has let its encoder go (409 until then).
    let mut reply = serde_json::Value::Null;
    let mut socket = None;
    for _ in 0..100 {
        let (taken, answer) = go_live_at(&q.url, &event, hello("pcm")).await;
        (socket, reply) = (Some(taken), answer);
        if reply["type"] == "live" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(
        reply,
        serde_json::json!({ "type": "live", "takesLossless": false })
    );
    let pcm_webm = encoded(2, &["-c:a", "pcm_s16le", "-ac", "2"], "matroska");
    send_chunks(
        socket.as_mut().unwrap(),
        &pcm_webm,
        96_000,
        Duration::from_millis(20),
    )
    .await;
    let listed = both_serve_every_rendition(&app, &q.url, &p.url, &path).await;
    let uris: Vec<_> = listed.iter().map(|v| v.uri.as_str()).collect();
    assert_eq!(
        uris,
        ["standard/index.m3u8", "saver/index.m3u8"],
        "{listed:?}"
    );
}

/// The show (multivariant playlist at `path`) ended by a manager on the process at `on`:
/// the answer says ended; both processes serve every rendition alike, ended, the lossless
/// one last; and `recording.flac` is the same bytes from both (its bytes).
async fn ended_alike_on_both(
    app: &TestApp,
    [p, q]: [&str; 2],
    on: &str,
    (path, event, fan): (&str, &str, &str),
) -> Vec<u8> {
    let admin = app.an_admin().await;
    let ended = app
        .http
        .post(format!("{on}/api/v1/events/{event}/end"))
        .bearer_auth(&admin)
        .json(&serde_json::json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(ended.status(), StatusCode::OK);
    let status: serde_json::Value = ended.json().await.unwrap();
    assert_eq!(status["payload"]["ended"], true, "{status}");
    let listed = both_serve_every_rendition(app, p, q, path).await;
    assert_eq!(listed.last().unwrap().uri, "lossless/index.m3u8");
    for base in [p, q] {
        let url = format!("{base}{path}").replace("master.m3u8", "lossless/index.m3u8");
        let (_, text) = get(&app.http, &url).await;
        assert!(text.contains("#EXT-X-ENDLIST"), "{text}");
    }
    let link = download_link(app, &app.url, event, fan)
        .await
        .replace("recording.m4a", "recording.flac");
    let mut sets = Vec::new();
    for base in [p, q] {
        sets.push(the_set_from(app, &format!("{base}{link}")).await);
    }
    assert!(sets[0].starts_with(b"fLaC"));
    assert!(
        sets[0] == sets[1],
        "the two processes' FLAC sets differ: {} and {} bytes",
        sets[0].len(),
        sets[1].len()
    );
    sets.pop().unwrap().to_vec()
}

/// What ffprobe reads of a rendition's media playlist: codec and sample rate.
pub(crate) async fn probed_format(url: String) -> String {
    tokio::task::spawn_blocking(move || {
        let probe = std::process::Command::new("ffprobe")
            .args(["-v", "error", "-select_streams", "a:0"])
            .args(["-show_entries", "stream=codec_name,sample_rate"])
            .args(["-of", "csv=p=0", &url])
            .output()
            .expect("ffprobe");
        let text = String::from_utf8_lossy(&probe.stdout).into_owned();
        // HLS is read as one program per segment: the same line each time.
        let mut lines: Vec<&str> = text.lines().filter(|l| !l.is_empty()).collect();
        lines.dedup();
        lines.join(";")
    })
    .await
    .unwrap()
}

/// An Ogg FLAC push at 44.1 kHz (ffmpeg's `-c:a flac -f ogg`, its default 4,608-sample
/// blocks) is sniffed as lossless: the new show takes the FLAC's own rate, so every AAC
/// rendition is at 44.1 kHz, frame for frame the FLAC's samples (an MP3 or Opus push at
/// 44.1 kHz gives a 48 kHz show).
#[tokio::test]
async fn an_ogg_flac_push_sets_the_show_s_rate_to_the_flac_s() {
    let app = spawn_app().await;
    let (event, key, fan) = a_concert_with_a_ticket_holder(&app).await;
    let media = tempfile::tempdir().unwrap();
    let path = media.path().join("show.ogg");
    tone(&path, 2, 330, 44_100, &["-c:a", "flac", "-f", "ogg"]);
    let flac = std::fs::read(path).unwrap();
    let pushed = push_as(&app.http, &app.url, &event, &key, "audio/ogg", flac).await;
    assert_eq!(pushed, StatusCode::OK);
    let admin = app.an_admin().await;
    app.end_show(&event, &admin).await;

    let playlist = format!("{}{}", app.url, app.listen(&event, &fan).await);
    let master = multivariant_of(&playlist);
    let listed = variants(&app.http, &master).await;
    assert!(listed.len() >= 2, "{listed:?}");
    let base = master.trim_end_matches("master.m3u8");
    for variant in &listed {
        let url = format!("{base}{}", variant.uri);
        let expected = if variant.uri.starts_with("lossless/") {
            "flac,44100"
        } else {
            "aac,44100"
        };
        assert_eq!(probed_format(url).await, expected, "{}", variant.uri);
    }
    assert_eq!(listed.last().unwrap().uri, "lossless/index.m3u8");
}

/// Two seconds of a 48 kHz stereo tone as Ogg FLAC (`frame_size`: ffmpeg's own options
/// for the block size, none for its default 4,608), kept as `show.ogg` in `dir`: what a
/// lossless encoder sends.
fn ogg_flac(dir: &std::path::Path, frame_size: &[&str]) -> Vec<u8> {
    let path = dir.join("show.ogg");
    let mut args = vec!["-c:a", "flac"];
    args.extend(frame_size);
    args.extend(["-f", "ogg"]);
    tone(&path, 2, 330, 48_000, &args);
    std::fs::read(path).unwrap()
}

/// [`ogg_flac`] pushed to `app`'s concert: the source's folder, the session's
/// multivariant playlist URL, the concert, the ticket holder.
pub(crate) async fn a_lossless_show(
    app: &TestApp,
    frame_size: &[&str],
) -> (tempfile::TempDir, String, String, String) {
    let (event, key, fan) = a_concert_with_a_ticket_holder(app).await;
    let media = tempfile::tempdir().unwrap();
    let flac = ogg_flac(media.path(), frame_size);
    let pushed = push_as(&app.http, &app.url, &event, &key, "audio/ogg", flac).await;
    assert_eq!(pushed, StatusCode::OK);
    let playlist = format!("{}{}", app.url, app.listen(&event, &fan).await);
    (media, multivariant_of(&playlist), event, fan)
}

/// What players switch by in a media playlist: its media sequence, program date times,
/// segment and part URIs.
fn timeline(text: &str) -> Vec<String> {
    (text.lines())
        .filter_map(|l| {
            if let Some(part) = l.strip_prefix("#EXT-X-PART:") {
                return Some(part.split("URI=").nth(1)?.to_owned());
            }
            let kept = l.starts_with("#EXT-X-MEDIA-SEQUENCE")
                || l.starts_with("#EXT-X-PROGRAM-DATE-TIME")
                || l.starts_with("#EXT-X-DISCONTINUITY")
                || l.starts_with("#EXT-X-ENDLIST")
                || (!l.starts_with('#') && !l.is_empty());
            kept.then(|| l.to_owned())
        })
        .collect()
}

/// An Ogg FLAC push at 48 kHz: the multivariant playlist lists a `fLaC` rendition last,
/// which ffprobe reads as FLAC at 48 kHz; its segments, parts and program date times are
/// the standard rendition's, every part within its own PART-TARGET; what ffmpeg decodes
/// from its init segment and segments is the source's PCM, bit for bit; and it needs the
/// session's signature like every rendition.
async fn an_ogg_flac_push_is_heard_lossless(frame_size: &[&str]) {
    let app = spawn_app().await;
    let (media, master, event, fan) = a_lossless_show(&app, frame_size).await;
    let listed = variants(&app.http, &master).await;
    let lossless = listed.last().unwrap();
    assert_eq!(lossless.uri, "lossless/index.m3u8", "{listed:?}");
    assert_eq!(lossless.codecs.as_deref(), Some("fLaC"));
    let average = lossless.average_bandwidth.unwrap();
    assert!(lossless.bandwidth >= average && average > 0, "{lossless:?}");
    // Below 16-bit stereo PCM at 48 kHz (a pure tone compresses well).
    assert!(lossless.bandwidth < 1_536_000, "{lossless:?}");
    let base = master.trim_end_matches("master.m3u8").to_owned();
    let url = format!("{base}lossless/index.m3u8");

    // Live (its parts listed): the standard rendition's timeline, each part within the
    // lossless playlist's own PART-TARGET.
    let (status, text) = get(&app.http, &url).await;
    assert_eq!(status, StatusCode::OK);
    let (_, standard) = get(&app.http, &format!("{base}standard/index.m3u8")).await;
    assert_eq!(timeline(&text), timeline(&standard), "{text}\n{standard}");
    let target: f64 = (text.lines())
        .find_map(|l| l.strip_prefix("#EXT-X-PART-INF:PART-TARGET="))
        .unwrap()
        .parse()
        .unwrap();
    let durations: Vec<f64> = (text.lines())
        .filter_map(|l| l.strip_prefix("#EXT-X-PART:DURATION="))
        .map(|l| l.split(',').next().unwrap().parse().unwrap())
        .collect();
    assert!(durations.len() >= 6, "{text}");
    assert!(
        durations.iter().all(|d| *d <= target),
        "{durations:?} within {target}"
    );
    let parts = first_parts(&url, &text);

    let admin = app.an_admin().await;
    app.end_show(&event, &admin).await;
    let (_, text) = get(&app.http, &url).await;
    let (_, standard) = get(&app.http, &format!("{base}standard/index.m3u8")).await;
    assert!(
        text.contains("#EXT-X-ENDLIST") && text.matches("#EXTINF:").count() >= 2,
        "{text}"
    );
    assert_eq!(timeline(&text), timeline(&standard), "{text}\n{standard}");
    assert_eq!(probed_format(url.clone()).await, "flac,48000");

    // Bit for bit: init + every segment, decoded, against the source's PCM.
    let mut joined = bytes_of(&app, &format!("{base}lossless/init.mp4"))
        .await
        .to_vec();
    for segment in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let answer = app
            .http
            .get(format!("{base}lossless/{segment}"))
            .send()
            .await
            .unwrap();
        assert_eq!(answer.status(), StatusCode::OK, "{segment}");
        joined.extend(answer.bytes().await.unwrap());
    }
    let served = media.path().join("served.mp4");
    std::fs::write(&served, joined).unwrap();
    let heard = pcm(served).await;
    let sent = pcm(media.path().join("show.ogg")).await;
    // The ladder's last steps (the codecs' delay) may leave the end out, never more.
    assert!(heard.len() >= 48_000 * 8 * 3 / 2, "{} bytes", heard.len());
    assert!(heard.len() <= sent.len());
    use sha2::{Digest, Sha256};
    assert_eq!(
        Sha256::digest(&heard),
        Sha256::digest(&sent[..heard.len()]),
        "bit-exact over {} samples",
        heard.len() / 8
    );

    // A tampered token, and then a newer session, are 403 on its playlist and pieces.
    let mut urls = vec![url.clone(), format!("{base}lossless/init.mp4")];
    urls.extend(parts);
    signed_for_the_newest_session(&app, &event, &fan, &base, &urls).await;
}

#[tokio::test]
async fn an_ogg_flac_push_in_4096_sample_blocks_is_heard_lossless() {
    an_ogg_flac_push_is_heard_lossless(&["-frame_size", "4096"]).await;
}

#[tokio::test]
async fn an_ogg_flac_push_in_ffmpeg_s_default_blocks_is_heard_lossless() {
    an_ogg_flac_push_is_heard_lossless(&[]).await;
}
