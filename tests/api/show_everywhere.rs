//! One show served from any instance (issue 14): two real servers sharing the database
//! and Redis, an encoder on one, listeners on either. What each answers must be the same
//! bytes: the playlist, the init segment, every part and segment.

use std::time::Duration;

use reqwest::StatusCode;

use encore::stream::codecs::ladder::Rendition;
use encore::stream::hls::track::MediaFile;

use crate::helpers::*;
use crate::live::{a_concert_to_push, adts_file, an_encoder_is_connected, push_in_background};
use crate::topology::{a_concert_with_a_ticket_holder, answers_within_a_second};

async fn get(app: &TestApp, url: &str) -> (StatusCode, Vec<u8>) {
    let answer = app.http.get(url).send().await.unwrap();
    let status = answer.status();
    (status, answer.bytes().await.unwrap().to_vec())
}

/// `path` (a playlist or media path, as the page gets it: on the load balancer's host)
/// on `app`.
fn on(app: &TestApp, path: &str) -> String {
    format!("{}{path}", app.url)
}

/// Wait until `b` answers a fan (whose session is there) the playlist `a` holds; it, as
/// text.
async fn same_playlist(a: &TestApp, b: &TestApp, event: &str, playlist: &str) -> String {
    let show = a.state.hub.show(event);
    let mut last = String::new();
    for _ in 0..100 {
        let held = show
            .playlist(Rendition::Standard, false)
            .expect("a playlist on the encoder's instance");
        let (status, served) = get(b, &on(b, playlist)).await;
        if status == StatusCode::OK && served == held {
            return String::from_utf8(served).unwrap();
        }
        last = format!(
            "held by A:\n{}\nserved by B ({status}):\n{}",
            String::from_utf8_lossy(&held),
            String::from_utf8_lossy(&served)
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the instances disagree:\n{last}");
}

/// Every file the playlist names (init, parts, segments): what `b` serves is what `a`
/// recorded, byte for byte. How many there were.
async fn same_files(a: &TestApp, b: &TestApp, event: &str, playlist: &str, text: &str) -> usize {
    let show = a.state.hub.show(event);
    let base = playlist.trim_end_matches("index.m3u8");
    let mut names: Vec<&str> = vec!["init.mp4"];
    for line in text.lines() {
        if let Some(start) = line.find("URI=\"") {
            let rest = &line[start + 5..];
            names.push(&rest[..rest.find('"').unwrap()]);
        } else if !line.starts_with('#') && !line.is_empty() {
            names.push(line);
        }
    }
    names.sort_unstable();
    names.dedup();
    for name in &names {
        let Some(held) = show
            .media(Rendition::Standard, MediaFile::parse(name).unwrap())
            .await
        else {
            continue; // the hinted next part, not written yet
        };
        let (status, served) = get(b, &on(b, &format!("{base}{name}"))).await;
        assert_eq!(status, StatusCode::OK, "{name}");
        assert!(!held.is_empty(), "{name}");
        assert!(served == held, "{name} differs between the instances");
    }
    names.len()
}

/// An encoder sends `bytes` to `app` with an HTTP PUT: the answer's status.
async fn put_live(app: &TestApp, event: &str, key: &str, bytes: Vec<u8>) -> StatusCode {
    crate::live::put_live(app, event, key, "audio/aac", bytes).await
}

/// The bytes of an ADTS file cut in two at a frame boundary near its middle.
fn halves(bytes: &[u8]) -> (Vec<u8>, Vec<u8>) {
    let cut = crate::live::middle_frame_boundary(bytes);
    (bytes[..cut].to_vec(), bytes[cut..].to_vec())
}

#[tokio::test]
async fn a_show_pushed_to_one_instance_is_heard_the_same_byte_for_byte_from_another() {
    let (a, b) = two_instances().await;
    let (event, key, fan) = a_concert_with_a_ticket_holder(&a).await;
    let media = tempfile::tempdir().unwrap();
    let bytes = std::fs::read(adts_file(media.path(), 2)).unwrap();
    assert_eq!(put_live(&a, &event, &key, bytes).await, StatusCode::OK);

    // The fan listens through the other instance.
    let playlist = b.listen(&event, &fan).await;
    let text = same_playlist(&a, &b, &event, &playlist).await;
    assert!(text.contains("#EXT-X-PART:"), "{text}");
    assert!(same_files(&a, &b, &event, &playlist, &text).await > 4);
    // The session opened on B is good on A too (the load balancer may send any request
    // anywhere).
    let (status, on_a) = get(&a, &on(&a, &playlist)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(String::from_utf8(on_a).unwrap(), text);

    // Ended where the encoder is not: ended on both.
    let admin = a.an_admin().await;
    b.end_show(&event, &admin).await;
    let text = same_playlist(&a, &b, &event, &playlist).await;
    assert!(text.contains("#EXT-X-ENDLIST"), "{text}");
    same_files(&a, &b, &event, &playlist, &text).await;
}

#[tokio::test]
async fn an_encoder_that_reconnects_through_another_instance_continues_the_same_show() {
    let (a, b) = two_instances().await;
    let (event, key, fan) = a_concert_with_a_ticket_holder(&a).await;
    let media = tempfile::tempdir().unwrap();
    let (first, second) = halves(&std::fs::read(adts_file(media.path(), 4)).unwrap());
    assert_eq!(put_live(&a, &event, &key, first).await, StatusCode::OK);
    assert_eq!(put_live(&b, &event, &key, second).await, StatusCode::OK);
    let admin = a.an_admin().await;
    b.end_show(&event, &admin).await;

    // The fan listens through the instance the encoder started on.
    let playlist = a.listen(&event, &fan).await;
    let text = same_playlist(&b, &a, &event, &playlist).await;
    assert_eq!(text.matches("#EXT-X-DISCONTINUITY").count(), 1, "{text}");
    assert!(text.contains("#EXT-X-ENDLIST"), "{text}");
    same_files(&b, &a, &event, &playlist, &text).await;
    let seconds: f64 = text
        .lines()
        .filter_map(|l| l.strip_prefix("#EXTINF:"))
        .filter_map(|l| l.trim_end_matches(',').parse::<f64>().ok())
        .sum();
    assert!(seconds > 3.8, "both halves recorded, no gap: {seconds} s");
}

#[tokio::test]
async fn a_second_encoder_is_refused_on_any_instance_while_the_first_sends() {
    let (a, b) = two_instances().await;
    let (event, key) = a_concert_to_push(&a, 60_000).await;
    let media = tempfile::tempdir().unwrap();
    let file = adts_file(media.path(), 6);
    let pushing = push_in_background(&a, &event, &key, &file);
    assert!(an_encoder_is_connected(&a, &event).await);
    assert_eq!(
        put_live(&b, &event, &key, vec![0xff, 0xf1]).await,
        StatusCode::CONFLICT,
        "another instance's encoder holds the show"
    );
    assert!(
        an_encoder_is_connected(&b, &event).await,
        "the other instance knows an encoder is connected"
    );
    pushing.await.unwrap().unwrap();
}

#[tokio::test]
async fn listening_rules_hold_on_every_instance_within_a_second() {
    let (a, b) = two_instances().await;
    let event = concert(&a, None, 500, 60_000).await;
    let (_, fan) = a.fans(1).await.pop().unwrap();
    assert_eq!(a.buy(&fan, &event, CARD_OK).await.0, StatusCode::OK);
    crate::live::a_recorded_show(&a, &event);

    // A session opened on A works on B (once B has its copy of the show).
    let first = a.listen(&event, &fan).await;
    same_playlist(&a, &b, &event, &first).await;
    // A new session on B ends the first everywhere.
    let second = b.listen(&event, &fan).await;
    answers_within_a_second(&a.http, &on(&a, &first), StatusCode::FORBIDDEN).await;
    answers_within_a_second(&a.http, &on(&a, &second), StatusCode::OK).await;
    assert_eq!(get(&b, &on(&b, &first)).await.0, StatusCode::FORBIDDEN);

    // A refund on A ends listening on B.
    let admin = a.an_admin().await;
    let order: (String,) = sqlx::query_as("SELECT order_id FROM tickets WHERE event_id = $1")
        .bind(&event)
        .fetch_one(a.db())
        .await
        .unwrap();
    let (status, _) = a
        .post(
            &format!("/api/v1/orders/{}/refund", order.0),
            serde_json::json!({}),
            Some(&admin),
        )
        .await;
    assert!(status.is_success());
    answers_within_a_second(&b.http, &on(&b, &second), StatusCode::FORBIDDEN).await;
}

#[tokio::test]
async fn an_instance_whose_show_lease_another_took_stops_publishing() {
    let (a, _b) = two_instances().await;
    let (event, key) = a_concert_to_push(&a, 60_000).await;
    let media = tempfile::tempdir().unwrap();
    let file = adts_file(media.path(), 20);
    let pushing = push_in_background(&a, &event, &key, &file);
    let show = a.state.hub.show(&event);
    assert!(an_encoder_is_connected(&a, &event).await);
    // Another holder has the show's lease now (as after a partition that outlived it).
    let lease = a
        .state
        .bus
        .shared_key(&format!("lease:show:{event}"))
        .unwrap();
    let taken: Option<Result<redis::Value, _>> = a
        .state
        .bus
        .shared_command(
            redis::cmd("SET")
                .arg(&lease)
                .arg("elsewhere:token")
                .arg("PX")
                .arg(60_000),
        )
        .await;
    assert!(matches!(taken, Some(Ok(_))));
    // At its next renewal this instance cuts its publisher (two writers would fork the
    // show), and the encoder's reconnection is refused while the other holds it.
    let taken_at = std::time::Instant::now();
    while show.status().publisher_connected {
        assert!(
            taken_at.elapsed()
                < encore::stream::show::journal::LEASE_RENEW + Duration::from_secs(1),
            "still publishing"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let recorded = show.status().recorded_seconds;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(
        show.status().recorded_seconds,
        recorded,
        "nothing more recorded here"
    );
    pushing.abort();
}
