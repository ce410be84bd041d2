//! The set to keep (issue 32): after the show, a ticket holder inside their window
//! downloads the recording as `.m4a` behind their listening session's signed token, with
//! the songs as chapters, tags and the concert's picture as cover; ffprobe reads them
//! and ffmpeg decodes it. Two real `encore serve` processes answer the same bytes.

use std::time::Duration;

use encore::i18n::{Lang, Msg};
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::cluster::two_processes_beside;
use crate::helpers::*;
use crate::media::{decoded_seconds, pcm, probe_json};
use crate::renditions::{a_lossless_show, aac, push};
use crate::topology::a_concert_with_a_ticket_holder;

/// A 64×48 PNG picture uploaded for the concert by `admin`.
async fn a_picture(app: &TestApp, event: &str, admin: &str) {
    let picture = image::RgbImage::from_fn(64, 48, |x, y| {
        image::Rgb([(x * 4) as u8, (y * 5) as u8, 90])
    });
    let mut png = Vec::new();
    picture
        .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .unwrap();
    let (status, body) = app
        .upload(&format!("/api/v1/events/{event}/image"), admin, png)
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
}

async fn a_marker(app: &TestApp, event: &str, admin: &str, title: &str, at_ms: i64) {
    let (status, body) = app
        .post(
            &format!("/api/v1/events/{event}/markers"),
            json!({ "title": title, "atMs": at_ms }),
            Some(admin),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
}

/// A listening session for `fan`: its download link (a path).
pub(crate) async fn download_link(app: &TestApp, base: &str, event: &str, fan: &str) -> String {
    let answer = app
        .http
        .post(format!("{base}/api/v1/stream/{event}/session"))
        .bearer_auth(fan)
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), StatusCode::OK);
    let body: Value = answer.json().await.unwrap();
    body["payload"]["recordingUrl"]
        .as_str()
        .expect("a recording URL")
        .to_owned()
}

/// The set at `url` (a download link on either process): polled for ten seconds at
/// most, as the session and the show's end reach another process over Redis.
pub(crate) async fn the_set_from(app: &TestApp, url: &str) -> bytes::Bytes {
    let mut last = (StatusCode::OK, String::new());
    for _ in 0..100 {
        let answer = app.http.get(url).send().await.unwrap();
        if answer.status() == StatusCode::OK {
            return answer.bytes().await.unwrap();
        }
        last = (answer.status(), answer.text().await.unwrap());
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("{url}: {last:?}")
}

/// A listening session for `fan` on `app`: its download link (a whole URL).
async fn download_url(app: &TestApp, event: &str, fan: &str) -> String {
    format!(
        "{}{}",
        app.url,
        download_link(app, &app.url, event, fan).await
    )
}

/// The status and the envelope's error, asked in Persian.
async fn refusal(app: &TestApp, url: &str) -> (StatusCode, String) {
    let answer = app
        .http
        .get(url)
        .header("accept-language", "fa-IR")
        .send()
        .await
        .unwrap();
    let status = answer.status();
    let body: Value = answer.json().await.unwrap_or(Value::Null);
    (
        status,
        body["error"].as_str().unwrap_or_default().to_owned(),
    )
}

fn seconds(value: &Value) -> f64 {
    value.as_str().unwrap().parse().unwrap()
}

#[tokio::test]
async fn the_set_is_for_a_holder_inside_the_window_with_its_songs_tags_and_cover() {
    let app = spawn_app().await;
    let (event, key, fan) = a_concert_with_a_ticket_holder(&app).await;
    let admin = app.an_admin().await;
    a_picture(&app, &event, &admin).await;
    let media = tempfile::tempdir().unwrap();
    assert_eq!(
        push(&app.http, &app.url, &event, &key, aac(media.path())).await,
        StatusCode::OK
    );
    a_marker(&app, &event, &admin, "Opener", 0).await;
    a_marker(&app, &event, &admin, "Ballade für Ö", 1_000).await;
    let url = download_url(&app, &event, &fan).await;

    // Not before the show has ended.
    assert_eq!(
        refusal(&app, &url).await,
        (
            StatusCode::CONFLICT,
            Msg::SetAfterTheShow.render(Lang::Persian).to_string()
        )
    );
    app.end_show(&event, &admin).await;

    // No link, a tampered one, one for another concert: refused in the reader's language.
    let bare = url.split('?').next().unwrap().to_owned();
    assert_eq!(
        refusal(&app, &bare).await,
        (
            StatusCode::UNAUTHORIZED,
            Msg::SetNeedsSession.render(Lang::Persian).to_string()
        )
    );
    let last = url.chars().last().unwrap();
    let tampered = format!(
        "{}{}",
        &url[..url.len() - 1],
        if last == 'A' { 'B' } else { 'A' }
    );
    let invalid = (
        StatusCode::FORBIDDEN,
        Msg::LinkInvalid.render(Lang::Persian).to_string(),
    );
    assert_eq!(refusal(&app, &tampered).await, invalid);
    let (other, _, other_fan) = a_concert_with_a_ticket_holder(&app).await;
    let foreign = download_link(&app, &app.url, &other, &other_fan).await;
    let token = foreign.split("session=").nth(1).unwrap();
    assert_eq!(
        refusal(&app, &format!("{bare}?session={token}")).await,
        invalid,
        "a ticket for another concert"
    );
    // After the window: a session whose 24 hours are over.
    let (_, lapsed) = app
        .state
        .stream_access
        .open(&event, "ticket-x", encore::db::now_ms() + 20);
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert_eq!(
        refusal(&app, &format!("{bare}?session={lapsed}")).await,
        (
            StatusCode::FORBIDDEN,
            Msg::ListeningClosed.render(Lang::Persian).to_string()
        )
    );

    // The holder's link: the whole file, named, its length said, and ranges.
    let answer = app.http.get(&url).send().await.unwrap();
    assert_eq!(answer.status(), StatusCode::OK);
    assert_eq!(answer.headers()["content-type"], "audio/mp4");
    let disposition = answer.headers()["content-disposition"]
        .to_str()
        .unwrap()
        .to_owned();
    assert!(
        disposition.starts_with("attachment;") && disposition.contains(".m4a"),
        "{disposition}"
    );
    let length: usize = answer.headers()["content-length"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    let file = answer.bytes().await.unwrap();
    assert_eq!(file.len(), length);
    let part = app
        .http
        .get(&url)
        .header("range", "bytes=100-199")
        .send()
        .await
        .unwrap();
    assert_eq!(part.status(), StatusCode::PARTIAL_CONTENT);
    assert_eq!(part.bytes().await.unwrap(), file.slice(100..200));
    // An AAC show has no lossless set: 404, said in the reader's language.
    assert_eq!(
        refusal(&app, &url.replace("recording.m4a", "recording.flac")).await,
        (
            StatusCode::NOT_FOUND,
            Msg::SetNotLossless.render(Lang::Persian).to_string()
        )
    );

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("set.m4a");
    std::fs::write(&path, &file).unwrap();
    let probed = probe_json(&path);
    let chapters: Vec<(String, f64)> = probed["chapters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["tags"]["title"].as_str().unwrap().to_owned(),
                seconds(&c["start_time"]),
            )
        })
        .collect();
    assert_eq!(
        chapters,
        [
            ("Opener".to_owned(), 0.0),
            ("Ballade für Ö".to_owned(), 1.0)
        ]
    );
    let tags = &probed["format"]["tags"];
    let (_, concert) = app
        .get(&format!("/api/v1/events/{event}"), Some(&admin))
        .await;
    let concert = &concert["payload"];
    assert_eq!(tags["title"], concert["title"], "{tags}");
    assert_eq!(tags["artist"], concert["artistName"], "{tags}");
    let starts = concert["startsAt"].as_str().unwrap();
    assert_eq!(tags["date"].as_str().unwrap(), &starts[..10], "{tags}");
    let streams = probed["streams"].as_array().unwrap();
    let audio: Vec<&Value> = streams
        .iter()
        .filter(|s| s["codec_type"] == "audio")
        .collect();
    assert_eq!(audio.len(), 1, "{streams:?}");
    assert_eq!(audio[0]["codec_name"], "aac");
    let cover = streams
        .iter()
        .find(|s| s["disposition"]["attached_pic"] == 1)
        .unwrap_or_else(|| panic!("no cover: {streams:?}"));
    assert_eq!(cover["codec_name"], "png");
    assert_eq!(
        (cover["width"].as_i64(), cover["height"].as_i64()),
        (Some(64), Some(48))
    );

    // The audio decodes, as long as the recording.
    let (_, status) = app
        .get(&format!("/api/v1/events/{event}/live"), Some(&admin))
        .await;
    let recorded = status["payload"]["recordedSeconds"].as_f64().unwrap();
    assert!(recorded > 1.5, "{status}");
    let duration = seconds(&probed["format"]["duration"]);
    assert!(
        (duration - recorded).abs() < 0.01,
        "{duration} s against {recorded} s"
    );
    let decoded = decoded_seconds(&path);
    assert!(
        (decoded - recorded).abs() < 0.03,
        "{decoded} s decoded against {recorded} s"
    );

    // Made once: asked again, the same file, not made again.
    let show_dir = app.state.hub.show(&event).dir().to_owned();
    let files = sets_in(&show_dir);
    assert_eq!(files.len(), 1, "{files:?}");
    let modified = std::fs::metadata(&files[0]).unwrap().modified().unwrap();
    let again = bytes_of(&app, &url).await;
    assert_eq!(again, file);
    assert_eq!(
        std::fs::metadata(&files[0]).unwrap().modified().unwrap(),
        modified
    );

    // A newer session replaces the link.
    let newer = download_url(&app, &event, &fan).await;
    assert_eq!(
        refusal(&app, &url).await,
        (
            StatusCode::FORBIDDEN,
            Msg::SetLinkSuperseded.render(Lang::Persian).to_string()
        )
    );
    assert_eq!(
        app.http.get(&newer).send().await.unwrap().status(),
        StatusCode::OK
    );

    // Deleted with the recording.
    app.state.hub.remove(&event).unwrap();
    assert!(!files[0].exists());
}

/// `GET url`'s body, whatever its status.
pub(crate) async fn bytes_of(app: &TestApp, url: &str) -> bytes::Bytes {
    app.http
        .get(url)
        .send()
        .await
        .unwrap()
        .bytes()
        .await
        .unwrap()
}

/// The `.m4a` files in a show's folder.
fn sets_in(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "m4a"))
        .collect()
}

#[tokio::test]
async fn the_set_is_made_when_the_show_ends_and_again_for_a_song_renamed_after() {
    let app = spawn_app().await;
    let (event, key, fan) = a_concert_with_a_ticket_holder(&app).await;
    let admin = app.an_admin().await;
    let media = tempfile::tempdir().unwrap();
    assert_eq!(
        push(&app.http, &app.url, &event, &key, aac(media.path())).await,
        StatusCode::OK
    );
    a_marker(&app, &event, &admin, "Opener", 0).await;
    let show_dir = app.state.hub.show(&event).dir().to_owned();
    assert_eq!(sets_in(&show_dir), Vec::<std::path::PathBuf>::new());
    app.end_show(&event, &admin).await;

    // Nobody asked: the file is made in the background as the show ends.
    let mut made = Vec::new();
    for _ in 0..200 {
        made = sets_in(&show_dir);
        if !made.is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(made.len(), 1, "no set made after the end: {made:?}");
    let first = made[0].clone();
    let url = download_url(&app, &event, &fan).await;
    let answer = app.http.get(&url).send().await.unwrap();
    assert_eq!(answer.status(), StatusCode::OK);
    assert_eq!(
        answer.bytes().await.unwrap(),
        std::fs::read(&first).unwrap(),
        "the request is answered with the file made at the end"
    );

    // The song renamed after the show: the next request gets a new file, and the old
    // one is gone.
    let (_, markers) = app
        .get(&format!("/api/v1/events/{event}/markers"), Some(&admin))
        .await;
    let marker = markers["payload"][0]["id"].as_str().unwrap().to_owned();
    let (status, body) = app
        .put(
            &format!("/api/v1/events/{event}/markers/{marker}"),
            json!({ "title": "The Opener" }),
            &admin,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let file = bytes_of(&app, &url).await;
    let now = sets_in(&show_dir);
    assert_eq!(now.len(), 1, "{now:?}");
    assert_ne!(now[0], first);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("set.m4a");
    std::fs::write(&path, &file).unwrap();
    assert_eq!(
        probe_json(&path)["chapters"][0]["tags"]["title"],
        "The Opener"
    );
}

/// Two real `encore serve` processes on one database and Redis: an encoder pushes to
/// one, the show ends there, and each makes the set from its own copy of the recording
/// (the journal's): the same bytes from either.
#[tokio::test]
async fn either_instance_answers_the_same_set() {
    let app = spawn_app_on_redis(Options::default()).await;
    let (event, key, fan) = a_concert_with_a_ticket_holder(&app).await;
    let admin = app.an_admin().await;
    let [(one, p), (two, q)] = two_processes_beside(&app).await;
    let media = tempfile::tempdir().unwrap();
    assert_eq!(
        push(&app.http, &p.url, &event, &key, aac(media.path())).await,
        StatusCode::OK
    );
    // The marker goes to the process holding the publisher: the others learn that the
    // show is on air over Redis a moment later.
    let marked = app
        .http
        .post(format!("{}/api/v1/events/{event}/markers", p.url))
        .bearer_auth(&admin)
        .json(&json!({ "title": "Opener", "atMs": 0 }))
        .send()
        .await
        .unwrap();
    assert_eq!(marked.status(), StatusCode::CREATED);
    let ended = app
        .http
        .post(format!("{}/api/v1/events/{event}/end", p.url))
        .bearer_auth(&admin)
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(ended.status(), StatusCode::OK);
    // Each process makes the file as the show ends there or reaches it over Redis, with no
    // request: it is in each one's own show folder before anyone asks.
    for data in [one.path(), two.path()] {
        let show_dir = data.join("shows").join(&event);
        let mut made = Vec::new();
        for _ in 0..100 {
            made = if show_dir.exists() {
                sets_in(&show_dir)
            } else {
                Vec::new()
            };
            if !made.is_empty() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        assert_eq!(made.len(), 1, "{}: {made:?}", show_dir.display());
    }
    let link = download_link(&app, &app.url, &event, &fan).await;

    let mut answers = Vec::new();
    for base in [&p.url, &q.url] {
        answers.push(the_set_from(&app, &format!("{base}{link}")).await);
    }
    assert!(answers[0].len() > 10_000);
    assert!(answers[0] == answers[1], "the two processes' files differ");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("set.m4a");
    std::fs::write(&path, &answers[1]).unwrap();
    let probed = probe_json(&path);
    assert_eq!(probed["chapters"][0]["tags"]["title"], "Opener");
    assert!(decoded_seconds(&path) > 1.5);
}

/// The listening status of `fan` for `event`: its payload.
async fn listening_status(app: &TestApp, event: &str, fan: &str) -> Value {
    let (status, body) = app
        .get(&format!("/api/v1/stream/{event}/session"), Some(fan))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body["payload"].clone()
}

/// The stage offers `recording.flac` from the listening status: an Ogg FLAC show's says
/// `losslessSet` once it has ended (not while it may go on), and the link then answers
/// the FLAC.
#[tokio::test]
async fn an_ogg_flac_shows_status_says_its_set_is_lossless_once_it_ended() {
    let app = spawn_app().await;
    let (_media, _, event, fan) = a_lossless_show(&app, &["-frame_size", "4096"]).await;
    let before = listening_status(&app, &event, &fan).await;
    assert_eq!(before["ended"], false, "{before}");
    assert_eq!(before["losslessSet"], false, "{before}");

    let admin = app.an_admin().await;
    app.end_show(&event, &admin).await;
    let after = listening_status(&app, &event, &fan).await;
    assert_eq!(after["ended"], true, "{after}");
    assert_eq!(after["losslessSet"], true, "{after}");
    let url = download_url(&app, &event, &fan)
        .await
        .replace("recording.m4a", "recording.flac");
    let answer = app.http.get(&url).send().await.unwrap();
    assert_eq!(answer.status(), StatusCode::OK);
    assert!(answer.bytes().await.unwrap().starts_with(b"fLaC"));
}

/// An AAC show's status never says `losslessSet`: its set is the `.m4a` only (its
/// `recording.flac` is 404).
#[tokio::test]
async fn an_aac_shows_status_says_its_set_is_not_lossless() {
    let app = spawn_app().await;
    let (event, key, fan) = a_concert_with_a_ticket_holder(&app).await;
    let media = tempfile::tempdir().unwrap();
    assert_eq!(
        push(&app.http, &app.url, &event, &key, aac(media.path())).await,
        StatusCode::OK
    );
    let admin = app.an_admin().await;
    app.end_show(&event, &admin).await;
    let after = listening_status(&app, &event, &fan).await;
    assert_eq!(after["ended"], true, "{after}");
    assert_eq!(after["losslessSet"], false, "{after}");
    let url = download_url(&app, &event, &fan)
        .await
        .replace("recording.m4a", "recording.flac");
    assert_eq!(refusal(&app, &url).await.0, StatusCode::NOT_FOUND);
}

/// A lossless show's set: `recording.flac`, the encoder's FLAC frames as they came (its PCM
/// is the encoder's, bit for bit), with the songs as chapters (its cue sheet), the tags and
/// the cover, under the same signed link as the `.m4a`.
#[tokio::test]
async fn a_lossless_shows_set_is_also_flac_with_its_songs_and_the_encoders_samples() {
    let app = spawn_app().await;
    let (media, _, event, fan) = a_lossless_show(&app, &["-frame_size", "4096"]).await;
    let admin = app.an_admin().await;
    a_picture(&app, &event, &admin).await;
    a_marker(&app, &event, &admin, "Opener", 0).await;
    a_marker(&app, &event, &admin, "Ballade für Ö", 1000).await;
    app.end_show(&event, &admin).await;

    let url = download_url(&app, &event, &fan)
        .await
        .replace("recording.m4a", "recording.flac");
    let answer = app.http.get(&url).send().await.unwrap();
    assert_eq!(answer.status(), StatusCode::OK);
    assert_eq!(answer.headers()["content-type"], "audio/flac");
    let disposition = answer.headers()["content-disposition"].to_str().unwrap();
    assert!(disposition.contains(".flac"), "{disposition}");
    let file = answer.bytes().await.unwrap();
    assert!(file.starts_with(b"fLaC"));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("set.flac");
    std::fs::write(&path, &file).unwrap();

    let probed = probe_json(&path);
    let titles: Vec<&str> = (probed["chapters"].as_array().unwrap().iter())
        .map(|c| c["tags"]["title"].as_str().unwrap_or_default())
        .collect();
    assert_eq!(titles, ["Opener", "Ballade für Ö"], "{probed}");
    let tags: std::collections::HashMap<String, &Value> =
        (probed["format"]["tags"].as_object().unwrap().iter())
            .map(|(k, v)| (k.to_lowercase(), v))
            .collect();
    let (_, concert) = app
        .get(&format!("/api/v1/events/{event}"), Some(&admin))
        .await;
    assert_eq!(tags["title"], &concert["payload"]["title"], "{tags:?}");
    assert_eq!(
        tags["artist"], &concert["payload"]["artistName"],
        "{tags:?}"
    );
    let streams = probed["streams"].as_array().unwrap();
    assert!(
        streams.iter().any(|s| s["codec_name"] == "flac"),
        "{streams:?}"
    );
    assert!(
        streams
            .iter()
            .any(|s| s["disposition"]["attached_pic"] == 1),
        "no cover: {streams:?}"
    );
    assert_eq!(
        pcm(path).await,
        pcm(media.path().join("show.ogg")).await,
        "the set's PCM is the encoder's"
    );
}
