//! Song titles (issue 18): the markers API, Icecast's metadata call on both ports, the
//! markers as `EXT-X-DATERANGE`s in the playlist (read back with m3u8-rs), and the title
//! in the live status.

use std::io::{Read, Write};
use std::time::Duration;

use encore::bus::{Channel, Received};
use encore::live::figures::StatusChanged;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::*;
use crate::live::{a_concert_to_push, a_recorded_show, stream_key};

/// A marker as a player reads it from the playlist.
#[derive(Debug, Clone)]
pub(crate) struct Seen {
    pub title: String,
    pub artist: Option<String>,
    /// START-DATE, ms since the epoch.
    pub start_ms: i64,
}

/// Percent-decoding, as a player's `decodeURIComponent`.
fn decoded(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 3 <= bytes.len() {
            out.push(u8::from_str_radix(&text[i + 1..i + 3], 16).expect("an escape"));
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).expect("UTF-8")
}

fn text_of(value: &m3u8_rs::QuotedOrUnquoted) -> String {
    match value {
        m3u8_rs::QuotedOrUnquoted::Quoted(s) | m3u8_rs::QuotedOrUnquoted::Unquoted(s) => s.clone(),
    }
}

/// The playlist parsed by m3u8-rs: it must parse.
pub(crate) fn parsed(text: &str) -> m3u8_rs::MediaPlaylist {
    m3u8_rs::parse_media_playlist_res(text.as_bytes())
        .unwrap_or_else(|err| panic!("m3u8-rs cannot parse it: {err:?}\n{text}"))
}

/// The markers of a parsed playlist, in order.
pub(crate) fn markers_of(playlist: &m3u8_rs::MediaPlaylist) -> Vec<Seen> {
    playlist
        .segments
        .iter()
        .filter_map(|s| s.daterange.as_ref())
        .filter(|d| d.class.as_deref() == Some("org.encore.marker"))
        .map(|d| {
            let x = d.x_prefixed.clone().unwrap_or_default();
            assert!(d.end_on_next, "{d:?}");
            Seen {
                title: decoded(&text_of(&x["X-TITLE"])),
                artist: x.get("X-ARTIST").map(|a| decoded(&text_of(a))),
                start_ms: d.start_date.timestamp_millis(),
            }
        })
        .collect()
}

/// When the listed audio starts and ends (ms since the epoch), from the first segment's
/// program date-time and the segments' durations.
pub(crate) fn span_of(playlist: &m3u8_rs::MediaPlaylist) -> (i64, i64) {
    let start = playlist.segments[0]
        .program_date_time
        .expect("a program date-time on the first segment")
        .timestamp_millis();
    let seconds: f64 = playlist
        .segments
        .iter()
        .map(|s| f64::from(s.duration))
        .sum();
    (start, start + (seconds * 1000.0).round() as i64)
}

/// A fan with a ticket for `event`, listening: the playlist's URL.
pub(crate) async fn a_listener(app: &TestApp, event: &str) -> (String, String) {
    let fans = app.fans(1).await;
    let (_, fan) = &fans[0];
    assert_eq!(app.buy(fan, event, CARD_OK).await.0, StatusCode::OK);
    let url = format!("{}{}", app.url, app.listen(event, fan).await);
    (fan.clone(), url)
}

pub(crate) async fn playlist_text(app: &TestApp, url: &str) -> String {
    let response = app.http.get(url).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    response.text().await.unwrap()
}

/// The metadata call on the HTTP port, as butt or Mixxx send it.
pub(crate) async fn metadata_http(
    app: &TestApp,
    event: &str,
    key: &str,
    params: &[(&str, &str)],
) -> (StatusCode, Option<String>, String) {
    let mount = format!("/live/{event}");
    let mut query = vec![("mode", "updinfo"), ("mount", mount.as_str())];
    query.extend_from_slice(params);
    let response = app
        .http
        .get(format!("{}/admin/metadata", app.url))
        .basic_auth("source", Some(key))
        .query(&query)
        .send()
        .await
        .unwrap();
    let status = response.status();
    let retry = response
        .headers()
        .get("retry-after")
        .map(|v| v.to_str().unwrap().to_owned());
    (status, retry, response.text().await.unwrap())
}

/// The metadata call on the Icecast source port, raw: the whole answer.
async fn metadata_source_port(app: &TestApp, query: &str, key: &str) -> String {
    let (ingest, query, key) = (app.ingest.clone(), query.to_owned(), key.to_owned());
    tokio::task::spawn_blocking(move || raw_call(&ingest, &query, &key))
        .await
        .unwrap()
}

fn raw_call(ingest: &str, query: &str, key: &str) -> String {
    use base64::Engine;
    let auth = base64::engine::general_purpose::STANDARD.encode(format!("source:{key}"));
    let mut conn = std::net::TcpStream::connect(ingest).unwrap();
    conn.set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    write!(
        conn,
        "GET /admin/metadata?{query} HTTP/1.0\r\nAuthorization: Basic {auth}\r\nUser-Agent: libshout/2.4.6\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    conn.read_to_string(&mut answer).unwrap();
    answer
}

const SUCCESS: &str = "<?xml version=\"1.0\"?>\n<iceresponse><message>Metadata update successful</message><return>1</return></iceresponse>\n";

#[tokio::test]
async fn a_manager_adds_edits_and_deletes_markers_and_a_ticket_holder_reads_them() {
    let app = spawn_app().await;
    let admin = app.an_admin().await;
    let event = concert(&app, None, 500, 0).await;
    a_recorded_show(&app, &event);
    let path = format!("/api/v1/events/{event}/markers");

    let (status, live) = app
        .post(&path, json!({ "title": "  Intro\n" }), Some(&admin))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{live}");
    let intro = &live["payload"];
    assert_eq!(intro["title"], "Intro");
    assert_eq!(intro["source"], "artist");
    // At the live position: the ~2 s recorded.
    let at = intro["atMs"].as_i64().unwrap();
    assert!((1_900..=2_100).contains(&at), "{intro}");
    let (status, opener) = app
        .post(
            &path,
            json!({ "title": "Opener", "artist": "The Testers", "atMs": 0 }),
            Some(&admin),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{opener}");

    let (fan, playlist) = a_listener(&app, &event).await;
    let (status, listed) = app.get(&path, Some(&fan)).await;
    assert_eq!(status, StatusCode::OK, "{listed}");
    let titles: Vec<&str> = listed["payload"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["title"].as_str().unwrap())
        .collect();
    assert_eq!(titles, ["Opener", "Intro"], "timeline order");

    let intro_path = format!("{path}/{}", intro["id"].as_str().unwrap());
    let (status, edited) = app
        .put(
            &intro_path,
            json!({ "title": "Second song", "atMs": 1000 }),
            &admin,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{edited}");
    assert_eq!(
        (
            edited["payload"]["title"].as_str(),
            edited["payload"]["atMs"].as_i64()
        ),
        (Some("Second song"), Some(1000))
    );
    let opener_path = format!("{path}/{}", opener["payload"]["id"].as_str().unwrap());
    assert_eq!(app.delete(&opener_path, &admin).await.0, StatusCode::OK);
    let (status, gone) = app.delete(&opener_path, &admin).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{gone}");

    // The next playlist shows the edit and not the deleted marker.
    let playlist = parsed(&playlist_text(&app, &playlist).await);
    let seen = markers_of(&playlist);
    assert_eq!(seen.len(), 1, "{seen:?}");
    assert_eq!(seen[0].title, "Second song");
    let (start, _) = span_of(&playlist);
    assert_eq!(seen[0].start_ms, start + 1000, "1 s into the show");
    assert_eq!(
        app.count("SELECT COUNT(*) FROM markers WHERE event_id = $1", &event)
            .await,
        1
    );
}

#[tokio::test]
async fn only_managers_change_markers_and_only_ticket_holders_read_them() {
    let app = spawn_app().await;
    let admin = app.an_admin().await;
    let event = concert(&app, None, 500, 0).await;
    a_recorded_show(&app, &event);
    let path = format!("/api/v1/events/{event}/markers");
    let (status, marker) = app
        .post(&path, json!({ "title": "Song" }), Some(&admin))
        .await;
    assert_eq!(status, StatusCode::CREATED);
    let fans = app.fans(1).await;
    let (_, stranger) = &fans[0];
    let (status, body) = app.get(&path, Some(stranger)).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    let (status, body) = app
        .post(&path, json!({ "title": "Mine" }), Some(stranger))
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    assert_eq!(
        body["error"],
        "Only administrators and the project's artists change a show's markers."
    );
    let marker_path = format!("{path}/{}", marker["payload"]["id"].as_str().unwrap());
    assert_eq!(
        app.delete(&marker_path, stranger).await.0,
        StatusCode::FORBIDDEN
    );
    assert_eq!(app.get(&path, None).await.0, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn a_bad_marker_is_refused_in_the_readers_language_and_nothing_is_stored() {
    let app = spawn_app().await;
    let admin = app.an_admin().await;
    let event = concert(&app, None, 500, 0).await;
    let path = format!("/api/v1/events/{event}/markers");
    let (status, body) = app
        .post(&path, json!({ "title": "Too early" }), Some(&admin))
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "nothing recorded: {body}");
    a_recorded_show(&app, &event);
    for (input, status) in [
        (
            json!({ "title": " \n\t" }),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            json!({ "title": "x".repeat(256) }),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            json!({ "title": "Late", "atMs": 60_000 }),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            json!({ "title": "Early", "atMs": -1 }),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            json!({ "title": "Song", "extra": 1 }),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
    ] {
        let (got, body) = app.post(&path, input.clone(), Some(&admin)).await;
        assert_eq!(got, status, "{input}: {body}");
        assert_eq!(body["success"], false);
    }
    let spanish = app
        .http
        .post(format!("{}{path}", app.url))
        .bearer_auth(&admin)
        .header("accept-language", "es")
        .json(&json!({ "title": "" }))
        .send()
        .await
        .unwrap();
    assert_eq!(spanish.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let body: Value = spanish.json().await.unwrap();
    assert_eq!(body["error"], "Un marcador necesita un título.");
    let (status, body) = app
        .put(
            &format!("{path}/no-such-marker"),
            json!({ "title": "x" }),
            &admin,
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    assert_eq!(
        app.count("SELECT COUNT(*) FROM markers WHERE event_id = $1", &event)
            .await,
        0
    );
}

#[tokio::test]
async fn markers_go_with_the_recording_when_its_retention_is_over() {
    let app = spawn_app().await;
    let admin = app.an_admin().await;
    // Started 25 hours ago: the 24-hour retention is over.
    let event = concert(&app, None, 500, -25 * 3_600_000).await;
    a_recorded_show(&app, &event);
    let path = format!("/api/v1/events/{event}/markers");
    let (status, body) = app
        .post(&path, json!({ "title": "Song" }), Some(&admin))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    encore::stream::ingest::purge_recordings(&app.state).await;
    assert_eq!(
        app.count("SELECT COUNT(*) FROM markers WHERE event_id = $1", &event)
            .await,
        0
    );
}

#[tokio::test]
async fn the_icecast_metadata_call_is_answered_as_icecast_does_on_both_ports() {
    let app = spawn_app().await;
    let (event, key) = a_concert_to_push(&app, 0).await;
    // Live: a publisher holds the show and ~2 s are recorded.
    a_recorded_show(&app, &event);
    let mut statuses = app.state.bus.subscribe(&Channel::Event(event.clone()));

    let (status, _, body) = metadata_http(&app, &event, &key, &[("song", "First song")]).await;
    assert_eq!((status, body.as_str()), (StatusCode::OK, SUCCESS));
    // A second title within the second: refused, not queued.
    let (status, retry, body) = metadata_http(&app, &event, &key, &[("song", "Too soon")]).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
    assert_eq!(retry.as_deref(), Some("1"));
    tokio::time::sleep(Duration::from_millis(1_100)).await;

    // The source port, as libshout calls it: liquidsoap's title and artist apart.
    let query = format!(
        "mode=updinfo&mount=%2Flive%2F{event}&charset=UTF-8&song=The%20Band%20-%20Caf%C3%A9&title=Caf%C3%A9&artist=The%20Band"
    );
    let answer = metadata_source_port(&app, &query, &key).await;
    assert!(answer.starts_with("HTTP/1.0 200 OK\r\n"), "{answer}");
    assert!(answer.contains("Content-Type: text/xml\r\n"), "{answer}");
    assert!(answer.ends_with(SUCCESS), "{answer}");
    // The same title again (an encoder reconnecting): accepted, and no second marker.
    tokio::time::sleep(Duration::from_millis(1_100)).await;
    let answer = metadata_source_port(&app, &query, &key).await;
    assert!(answer.ends_with(SUCCESS), "{answer}");

    // The wrong key: 401 with the challenge, on both ports.
    let (status, _, _) = metadata_http(&app, &event, "wrong", &[("song", "x")]).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let answer = metadata_source_port(&app, &query, "wrong").await;
    assert!(
        answer.starts_with("HTTP/1.0 401 Unauthorized\r\n"),
        "{answer}"
    );
    assert!(answer.contains("WWW-Authenticate: Basic realm=\"Encore\"\r\n"));

    // A mount nobody publishes: Icecast's "Source does not exist". No concert at all is
    // answered as a wrong key, so that an id tells nothing without its key.
    let idle = concert(&app, None, 500, 0).await;
    let idle_key = stream_key(&app, &idle).await;
    let (status, _, body) = metadata_http(&app, &idle, &idle_key, &[("song", "x")]).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        body.contains("<b>400 - Source does not exist</b>"),
        "{body}"
    );
    let (status, _, _) = metadata_http(&app, "no-such-concert", "k", &[("song", "x")]).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    // No credentials at all: 401 before the mount is looked at, as Icecast does.
    let bare = app
        .http
        .get(format!(
            "{}/admin/metadata?mode=updinfo&mount=/live/nothing&song=x",
            app.url
        ))
        .send()
        .await
        .unwrap();
    assert_eq!(bare.status(), StatusCode::UNAUTHORIZED);
    // Another mode: Icecast's answer with return 0.
    let other = app
        .http
        .get(format!(
            "{}/admin/metadata?mode=other&mount=/live/{event}&song=x",
            app.url
        ))
        .basic_auth("source", Some(&key))
        .send()
        .await
        .unwrap();
    assert_eq!(other.status(), StatusCode::OK);
    let body = other.text().await.unwrap();
    assert!(
        body.contains("<message>No such action</message><return>0</return>"),
        "{body}"
    );

    // Two markers, from the encoder, at the live position.
    let admin = app.an_admin().await;
    let (_, listed) = app
        .get(&format!("/api/v1/events/{event}/markers"), Some(&admin))
        .await;
    let listed = listed["payload"].as_array().unwrap().clone();
    assert_eq!(listed.len(), 2, "{listed:?}");
    assert_eq!(listed[0]["title"], "First song");
    assert_eq!(listed[1]["title"], "Café");
    assert_eq!(listed[1]["artist"], "The Band");
    assert!(listed.iter().all(|m| m["source"] == "encoder"));

    // The artist's panel hears the title on the concert's channel.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let received = tokio::time::timeout_at(deadline, statuses.recv())
            .await
            .expect("a live status naming the title within 10 s");
        if let Some(Received::Message(delivery)) = received
            && let Some(StatusChanged { status, .. }) = delivery.event.read()
            && let Some(playing) = &status.now_playing
            && playing.title == "Café"
        {
            assert_eq!(playing.artist.as_deref(), Some("The Band"));
            break;
        }
    }
    let (_, live) = app
        .get(&format!("/api/v1/events/{event}/live"), Some(&admin))
        .await;
    assert_eq!(live["payload"]["nowPlaying"]["title"], "Café", "{live}");
}

/// A tone of `seconds` at 44.1 kHz written by ffmpeg to `path` with `args` (codec, tags,
/// container).
fn tone(path: &std::path::Path, seconds: u32, frequency: u32, args: &[&str]) {
    crate::live::tone(path, seconds, frequency, 44_100, args);
}

/// Run an encoder to its end (a blocking child process), checking it succeeded.
async fn run(mut command: std::process::Command) -> String {
    let output = tokio::task::spawn_blocking(move || command.output().expect("the encoder runs"))
        .await
        .unwrap();
    let log = format!(
        "{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(output.status.success(), "{log}");
    log
}

/// End the show as its artist would, then read it back as a fan: the playlist's markers
/// (each must start inside the show) and what ffprobe hears (codec, seconds).
async fn read_back(app: &TestApp, event: &str) -> (Vec<Seen>, String, f64) {
    let admin = app.an_admin().await;
    app.end_show(event, &admin).await;
    let (_, url) = a_listener(app, event).await;
    let playlist = parsed(&playlist_text(app, &url).await);
    assert!(playlist.end_list, "ended: the replay");
    let (start, end) = span_of(&playlist);
    let seen = markers_of(&playlist);
    for marker in &seen {
        assert!(
            (start..=end).contains(&marker.start_ms),
            "{marker:?} outside the show {start}..{end}"
        );
    }
    let probe = tokio::task::spawn_blocking(move || {
        std::process::Command::new("ffprobe")
            .args([
                "-v",
                "error",
                "-show_entries",
                "stream=codec_name:format=duration",
            ])
            .args(["-of", "default=nw=1", &url])
            .output()
            .expect("ffprobe")
    })
    .await
    .unwrap();
    let text = String::from_utf8_lossy(&probe.stdout).to_string();
    let codec = text
        .lines()
        .find_map(|l| l.strip_prefix("codec_name="))
        .unwrap_or_default()
        .to_owned();
    let seconds = text
        .lines()
        .find_map(|l| l.strip_prefix("duration="))
        .and_then(|d| d.parse().ok())
        .unwrap_or(0.0);
    (seen, codec, seconds)
}

/// ffmpeg pushing `seconds` of a tone as AAC to `event`'s mount over the Icecast
/// protocol, paced in real time (`-re`), as an artist's encoder would.
fn ffmpeg_pushing_aac(
    app: &TestApp,
    event: &str,
    key: &str,
    seconds: u32,
) -> std::process::Command {
    let target = format!("icecast://source:{key}@{}/live/{event}", app.ingest);
    let mut ffmpeg = std::process::Command::new("ffmpeg");
    ffmpeg
        .args(["-hide_banner", "-loglevel", "error", "-re", "-f", "lavfi"])
        .arg("-i")
        .arg(format!(
            "sine=frequency=500:sample_rate=48000:duration={seconds}"
        ))
        .args([
            "-c:a",
            "aac",
            "-b:a",
            "128k",
            "-content_type",
            "audio/aac",
            "-f",
            "adts",
        ])
        .arg(target);
    ffmpeg
}

fn titles(seen: &[Seen]) -> Vec<&str> {
    seen.iter().map(|m| m.title.as_str()).collect()
}

/// The host and port of the Icecast source port.
fn host_port(app: &TestApp) -> (String, String) {
    let (host, port) = app.ingest.rsplit_once(':').unwrap();
    (host.to_owned(), port.to_owned())
}

#[tokio::test]
async fn ezstream_pushes_tagged_mp3_files_and_each_title_becomes_a_chapter() {
    let app = spawn_app().await;
    let (event, key) = a_concert_to_push(&app, 0).await;
    let dir = tempfile::tempdir().unwrap();
    let mut list = String::new();
    for (name, title, frequency) in [
        ("one", "Opening Night", 440),
        ("two", "Encore \"Two\"", 660),
    ] {
        let path = dir.path().join(format!("{name}.mp3"));
        tone(
            &path,
            3,
            frequency,
            &[
                "-c:a",
                "libmp3lame",
                "-b:a",
                "128k",
                "-id3v2_version",
                "3",
                "-metadata",
                &format!("title={title}"),
                "-metadata",
                "artist=The Testers",
            ],
        );
        list.push_str(&format!("{}\n", path.display()));
    }
    std::fs::write(dir.path().join("playlist.m3u"), list).unwrap();
    let (host, port) = host_port(&app);
    let config = dir.path().join("ezstream.xml");
    std::fs::write(
        &config,
        format!(
            r#"<?xml version="1.0" encoding="UTF-8"?>
<ezstream>
  <servers><server>
    <protocol>HTTP</protocol><hostname>{host}</hostname><port>{port}</port>
    <user>source</user><password>{key}</password><tls>None</tls>
  </server></servers>
  <streams><stream>
    <mountpoint>/live/{event}</mountpoint><format>MP3</format>
  </stream></streams>
  <intakes><intake>
    <type>playlist</type><filename>{}</filename><stream_once>Yes</stream_once>
  </intake></intakes>
</ezstream>
"#,
            dir.path().join("playlist.m3u").display()
        ),
    )
    .unwrap();
    // ezstream refuses a configuration others may read: it holds the password.
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&config, std::fs::Permissions::from_mode(0o600)).unwrap();
    let mut ezstream = std::process::Command::new("ezstream");
    ezstream.arg("-c").arg(&config);
    run(ezstream).await;

    let (seen, codec, seconds) = read_back(&app, &event).await;
    assert_eq!(codec, "aac");
    assert!((seconds - 6.0).abs() < 0.8, "heard {seconds} s of 6 s");
    // libshout sends the tags' title and artist apart.
    assert_eq!(
        titles(&seen),
        ["Opening Night", "Encore \"Two\""],
        "{seen:?}"
    );
    assert!(
        seen.iter()
            .all(|m| m.artist.as_deref() == Some("The Testers"))
    );
    assert!(seen[1].start_ms - seen[0].start_ms >= 2_500, "{seen:?}");
}

/// A liquidsoap script pushing two tagged tracks to the source port with `encoder`
/// (`content_type` on the wire), then stopping.
fn liquidsoap(
    app: &TestApp,
    event: &str,
    key: &str,
    dir: &std::path::Path,
    encoder: &str,
    content_type: &str,
) -> std::process::Command {
    let mut tracks = Vec::new();
    for (name, title, frequency) in [("a", "Night Drive", 440), ("b", "Dawn, Slowly", 550)] {
        let path = dir.join(format!("{name}.wav"));
        tone(&path, 3, frequency, &[]);
        tracks.push(format!(
            "once(single(\"annotate:title=\\\"{title}\\\",artist=\\\"Liquid Band\\\":{}\"))",
            path.display()
        ));
    }
    let (host, port) = host_port(app);
    let script = dir.join("show.liq");
    std::fs::write(
        &script,
        format!(
            r#"settings.init.allow_root.set(true)
settings.log.stdout.set(true)
s = sequence([{}])
output.icecast({encoder}, host="{host}", port={port}, user="source", password="{key}",
  mount="/live/{event}", format="{content_type}", icy_metadata="true",
  fallible=true, on_stop=shutdown, s)
"#,
            tracks.join(", ")
        ),
    )
    .unwrap();
    let mut command = std::process::Command::new("liquidsoap");
    command.arg(&script);
    command
}

/// A show pushed by [`liquidsoap`] with `encoder`, ended and read back: heard as about
/// 6 s of AAC, with the second track's title among its markers. The markers.
async fn a_liquidsoap_show(encoder: &str, content_type: &str) -> Vec<Seen> {
    let app = spawn_app().await;
    let (event, key) = a_concert_to_push(&app, 0).await;
    let dir = tempfile::tempdir().unwrap();
    let log = run(liquidsoap(
        &app,
        &event,
        &key,
        dir.path(),
        encoder,
        content_type,
    ))
    .await;
    let (seen, codec, seconds) = read_back(&app, &event).await;
    assert_eq!(codec, "aac");
    assert!(
        (seconds - 6.0).abs() < 0.8,
        "heard {seconds} s of 6 s; liquidsoap said:\n{log}"
    );
    assert!(titles(&seen).contains(&"Dawn, Slowly"), "{seen:?}");
    seen
}

#[tokio::test]
async fn liquidsoap_pushes_aac_through_its_ffmpeg_encoder_and_sends_each_title() {
    let seen = a_liquidsoap_show(
        "%ffmpeg(format=\"adts\", %audio(codec=\"aac\", b=\"128k\"))",
        "audio/aac",
    )
    .await;
    assert!(
        seen.iter()
            .all(|m| m.artist.as_deref() == Some("Liquid Band")),
        "{seen:?}"
    );
}

#[tokio::test]
async fn liquidsoap_pushes_mp3_and_sends_each_title() {
    a_liquidsoap_show("%mp3(bitrate=128)", "audio/mpeg").await;
}

#[tokio::test]
async fn ffmpeg_pushes_and_a_title_sent_as_butt_sends_it_becomes_a_chapter() {
    let app = spawn_app().await;
    let (event, key) = a_concert_to_push(&app, 0).await;
    let push = tokio::spawn(run(ffmpeg_pushing_aac(&app, &event, &key, 5)));
    tokio::time::sleep(Duration::from_millis(2_500)).await;
    let (status, _, body) =
        metadata_http(&app, &event, &key, &[("song", "Live & Direct <3")]).await;
    assert_eq!((status, body.as_str()), (StatusCode::OK, SUCCESS));
    push.await.unwrap();
    let (seen, codec, seconds) = read_back(&app, &event).await;
    assert_eq!(codec, "aac");
    assert!((seconds - 5.0).abs() < 0.6, "heard {seconds} s of 5 s");
    assert_eq!(titles(&seen), ["Live & Direct <3"]);
}

#[tokio::test]
async fn hostile_titles_leave_the_playlist_valid_and_the_show_live() {
    let app = spawn_app().await;
    let (event, key) = a_concert_to_push(&app, 0).await;
    let (_, url) = a_listener(&app, &event).await;
    let push = tokio::spawn(run(ffmpeg_pushing_aac(&app, &event, &key, 10)));
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    let long = "ab\"c".repeat(2_560);
    let hostile = [
        "She said \"stop\",X-EVIL=1",
        "Last song\n#EXT-X-ENDLIST\n#EXTINF:1,\nevil.m4s",
        long.as_str(),
    ];
    for title in hostile {
        let (status, _, body) = metadata_http(&app, &event, &key, &[("song", title)]).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        tokio::time::sleep(Duration::from_millis(1_200)).await;
    }
    // The last title's segment completes.
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    let before = parsed(&playlist_text(&app, &url).await);
    assert!(!before.end_list, "still live");
    let seen = markers_of(&before);
    let expected_long: String = long.chars().take(255).collect();
    assert_eq!(
        titles(&seen),
        [
            "She said \"stop\",X-EVIL=1",
            "Last song #EXT-X-ENDLIST #EXTINF:1, evil.m4s",
            expected_long.as_str()
        ],
        "{seen:?}"
    );
    assert!(before.segments.iter().all(|s| s.uri.starts_with("seg")));
    // And the show goes on: later segments arrive in the next playlists.
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    let after = parsed(&playlist_text(&app, &url).await);
    assert!(!after.end_list);
    assert!(after.segments.len() > before.segments.len());
    push.await.unwrap();
}

#[tokio::test]
async fn a_marker_written_on_one_instance_is_in_the_next_playlists_of_the_other() {
    let (a, b) = two_instances().await;
    let event = concert(&a, None, 500, 0).await;
    // A holds the show; a fan listens there, so A has the show's (empty) markers loaded.
    a_recorded_show(&a, &event);
    let (_, url) = a_listener(&a, &event).await;
    assert!(markers_of(&parsed(&playlist_text(&a, &url).await)).is_empty());
    let admin = a.an_admin().await;

    // B knows the recording's length from the figures A leaves in Redis (within a tick).
    let path = format!("/api/v1/events/{event}/markers");
    let mut created = None;
    for _ in 0..50 {
        let (status, body) = b
            .post(
                &path,
                json!({ "title": "From B", "atMs": 500 }),
                Some(&admin),
            )
            .await;
        if status == StatusCode::CREATED {
            created = Some(body);
            break;
        }
        assert_eq!(status, StatusCode::CONFLICT, "{body}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(created.is_some(), "B never knew what A recorded");

    // A reloads its markers on B's markers_changed: its next playlists carry it.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
    loop {
        let seen = markers_of(&parsed(&playlist_text(&a, &url).await));
        if titles(&seen) == ["From B"] {
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "A's playlist still has {seen:?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}
