//! Resource exhaustion (docs/security.md, the second attacker's review): what one address
//! without an account, or one stream key, can make the server hold. Each test replays a
//! finding that held memory or records on the code before its fix.

use std::time::Duration;

use encore::accounts::model::Role;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::helpers::{Options, TestApp, spawn_app, spawn_app_with};
use crate::live::an_encoder_is_connected;
use crate::security::read_until_closed;

/// The process's resident memory, in bytes (nextest runs each test in its own process, so
/// this is the server under test and its client).
fn resident_bytes() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    let kb: u64 = status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmRSS");
    kb * 1024
}

/// A WebSocket handshake on a raw connection: the connection once the server answered
/// 101, or the status line it answered instead.
async fn upgrade(app: &TestApp, path: &str) -> Result<TcpStream, String> {
    let address = app.url.trim_start_matches("http://");
    let mut conn = TcpStream::connect(address)
        .await
        .map_err(|e| e.to_string())?;
    let request = format!(
        "GET {path} HTTP/1.1\r\nHost: {address}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\
         Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
    );
    conn.write_all(request.as_bytes())
        .await
        .map_err(|e| e.to_string())?;
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        match conn.read(&mut byte).await {
            Ok(1) => head.push(byte[0]),
            _ => return Err(format!("closed after {:?}", String::from_utf8_lossy(&head))),
        }
    }
    let head = String::from_utf8_lossy(&head).into_owned();
    if head.starts_with("HTTP/1.1 101") {
        Ok(conn)
    } else {
        Err(head.lines().next().unwrap_or_default().to_owned())
    }
}

/// A masked client frame's header announcing a text payload of `len` bytes.
fn text_header(len: u64) -> Vec<u8> {
    let mut header = vec![0x81, 0x80 | 127];
    header.extend_from_slice(&len.to_be_bytes());
    header.extend_from_slice(&[1, 2, 3, 4]);
    header
}

/// The attacker's replay: sockets opened four at a time, each announcing a frame of
/// 1,000,000 bytes and sending all but the last byte. Answers the growth in memory while
/// they are all open.
async fn announce_megabyte_frames(app: &TestApp, path: &str, sockets: usize) -> u64 {
    let body = vec![b'a'; 999_999];
    let before = resident_bytes();
    let mut held = Vec::new();
    for _ in 0..sockets / 4 {
        let opened = futures_util::future::join_all((0..4).map(|_| async {
            let mut conn = upgrade(app, path).await.ok()?;
            conn.write_all(&text_header(1_000_000)).await.ok()?;
            // The server may close as soon as it reads the header: the rest is refused.
            let _ = tokio::time::timeout(Duration::from_millis(200), conn.write_all(&body)).await;
            Some(conn)
        }))
        .await;
        held.extend(opened.into_iter().flatten());
    }
    // Time for the server to read whatever it would read.
    tokio::time::sleep(Duration::from_secs(1)).await;
    let grown = resident_bytes().saturating_sub(before);
    eprintln!(
        "{path}: {} sockets held, memory grew by {:.1} MB",
        held.len(),
        grown as f64 / MB as f64
    );
    drop(held);
    grown
}

const MB: u64 = 1 << 20;

#[tokio::test]
async fn a_thousand_go_live_sockets_announcing_megabyte_frames_hold_under_64_mb() {
    let app = spawn_app().await;
    let path = format!("/live/{}/ws", uuid::Uuid::new_v4());
    let grown = announce_megabyte_frames(&app, &path, 1_000).await;
    assert!(grown < 64 * MB, "memory grew by {} MB", grown / MB);
}

#[tokio::test]
async fn a_thousand_dashboard_sockets_announcing_megabyte_frames_hold_under_64_mb() {
    let app = spawn_app().await;
    let grown = announce_megabyte_frames(&app, "/api/v1/ws", 1_000).await;
    assert!(grown < 64 * MB, "memory grew by {} MB", grown / MB);
}

#[tokio::test]
async fn a_first_frame_over_the_limit_is_refused_at_its_header_with_bad_message() {
    let app = spawn_app().await;
    let mut conn = upgrade(&app, "/api/v1/ws").await.expect("101");
    // Only the header: the server does not wait for 9 KB it would not keep.
    conn.write_all(&text_header(9 * 1024)).await.unwrap();
    let seen = read_until_closed(&mut conn).await;
    // A close frame (0x88) with code 4400 and the reason word.
    assert_eq!(seen.first(), Some(&0x88), "{seen:?}");
    assert_eq!(&seen[2..4], &4400u16.to_be_bytes(), "{seen:?}");
    assert!(String::from_utf8_lossy(&seen).contains("bad_message"));
}

#[tokio::test]
async fn a_go_live_hello_over_the_limit_is_refused_as_no_hello() {
    let app = spawn_app().await;
    let path = format!("/live/{}/ws", uuid::Uuid::new_v4());
    let mut conn = upgrade(&app, &path).await.expect("101");
    conn.write_all(&text_header(5 * 1024)).await.unwrap();
    let seen = String::from_utf8_lossy(&read_until_closed(&mut conn).await).into_owned();
    assert!(seen.contains(r#""status":400"#), "{seen}");
}

#[tokio::test]
async fn an_upgraded_socket_keeps_its_addresss_connection_slot_until_it_closes() {
    let app = spawn_app_with(Options {
        connections_per_ip: 3,
        ..Options::default()
    })
    .await;
    let mut sockets = Vec::new();
    for _ in 0..3 {
        sockets.push(upgrade(&app, "/api/v1/ws").await.expect("101"));
    }
    // Three upgraded sockets are the address's three connections: a fourth is closed
    // without an answer.
    assert!(upgrade(&app, "/api/v1/ws").await.is_err());
    sockets.pop();
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(
        upgrade(&app, "/api/v1/ws").await.is_ok(),
        "a closed socket frees its slot"
    );
}

/// A socket's `auth` message as a masked text frame.
fn auth_frame(token: &str) -> Vec<u8> {
    let payload = serde_json::json!({ "type": "auth", "token": token }).to_string();
    let mut frame = vec![0x81, 0x80 | 126];
    frame.extend_from_slice(&(payload.len() as u16).to_be_bytes());
    let mask = [9, 8, 7, 6];
    frame.extend_from_slice(&mask);
    frame.extend(payload.bytes().enumerate().map(|(i, b)| b ^ mask[i % 4]));
    frame
}

#[tokio::test]
async fn sockets_not_yet_signed_in_are_capped_across_the_server_and_signing_in_frees_a_place() {
    let app = spawn_app_with(Options {
        unauthenticated_sockets: 4,
        ..Options::default()
    })
    .await;
    let mut waiting = Vec::new();
    for _ in 0..4 {
        waiting.push(upgrade(&app, "/api/v1/ws").await.expect("101"));
    }
    let refused = upgrade(&app, "/api/v1/ws").await.expect_err("a fifth");
    assert!(refused.starts_with("HTTP/1.1 503"), "{refused}");
    // One signs in: it is no longer unproven, and another may open.
    let (_, tokens) = app.signed_in("fan@example.com", Role::User).await;
    let first = &mut waiting[0];
    first.write_all(&auth_frame(&tokens.access)).await.unwrap();
    let mut ready = [0u8; 64];
    let read = tokio::time::timeout(Duration::from_secs(10), first.read(&mut ready))
        .await
        .expect("ready in time")
        .unwrap();
    assert!(String::from_utf8_lossy(&ready[..read]).contains("ready"));
    assert!(upgrade(&app, "/api/v1/ws").await.is_ok(), "a place freed");
}

/// The first two ADTS frames of a second of ffmpeg's AAC: a tiny but real publish.
fn two_frames() -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let bytes = std::fs::read(crate::live::adts_file(dir.path(), 1)).unwrap();
    let frame_len = |at: usize| {
        let h = &bytes[at..at + 6];
        ((usize::from(h[3]) & 0x03) << 11) | (usize::from(h[4]) << 3) | (usize::from(h[5]) >> 5)
    };
    let first = frame_len(0);
    let second = frame_len(first);
    bytes[..first + second].to_vec()
}

async fn notifications_of(app: &TestApp, account: &str) -> i64 {
    sqlx::query_scalar("SELECT COUNT(*) FROM notifications WHERE account_id = $1")
        .bind(account)
        .fetch_one(app.db())
        .await
        .unwrap()
}

#[tokio::test]
async fn a_flapping_encoder_tells_the_staff_at_most_twice_and_is_refused_past_its_share() {
    // Finding 3 of the second review: 200 reconnects in 0.6 s, two small frames each, gave
    // every admin 400 notifications ("is live now", "encoder disconnected" per connect).
    let app = spawn_app().await;
    let admin = app.account("admin@example.com", Role::Admin).await;
    let event = crate::helpers::concert(&app, None, 500, 0).await;
    let key = crate::live::stream_key(&app, &event).await;
    let body = two_frames();
    let before = notifications_of(&app, &admin.id).await;
    let mut admitted = 0;
    let mut refused = 0;
    for _ in 0..200 {
        let response = put_aac(&app, &event, &key, body.clone()).await;
        match response.status().as_u16() {
            200 => admitted += 1,
            429 => {
                assert!(response.headers().contains_key("retry-after"));
                refused += 1;
            }
            other => panic!("unexpected {other}: {}", response.text().await.unwrap()),
        }
    }
    assert_eq!(admitted, 30, "a concert's share of encoder connections");
    assert_eq!(refused, 170);
    // Past the debounce, the one drop that lasted is news too: two feed lines at most,
    // stored once for all staff, and nothing in the admin's own notifications.
    tokio::time::sleep(Duration::from_secs(12)).await;
    let lines = app
        .count(
            "SELECT COUNT(*) FROM staff_activity WHERE event_id = $1",
            &event,
        )
        .await;
    assert!(
        (1..=2).contains(&lines),
        "the staff were told {lines} times"
    );
    assert_eq!(notifications_of(&app, &admin.id).await, before);
}

/// `PUT /live/{event}` of AAC with the whole body at once (no pacing on the client's
/// side): the answer.
async fn put_aac(app: &TestApp, event: &str, key: &str, body: Vec<u8>) -> reqwest::Response {
    app.put_live(event, key, "audio/aac", body).await
}

/// [`put_aac`]'s status.
async fn push_at_once(app: &TestApp, event: &str, key: &str, body: &[u8]) -> u16 {
    put_aac(app, event, key, body.to_vec())
        .await
        .status()
        .as_u16()
}

/// Ten seconds of ffmpeg's AAC (48 kHz, 128 kbit/s), less its last frames: 9.5 s.
fn nine_and_a_half_seconds() -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let bytes = std::fs::read(crate::live::adts_file(dir.path(), 10)).unwrap();
    let cut = bytes.len() * 95 / 100;
    let mut at = 0;
    while at < cut {
        let h = &bytes[at..at + 6];
        at += ((usize::from(h[3]) & 0x03) << 11)
            | (usize::from(h[4]) << 3)
            | (usize::from(h[5]) >> 5);
    }
    bytes[..at].to_vec()
}

/// The most audio a show may record in `wall` seconds: the burst plus 1.5× the clock, and
/// a frame's worth of rounding.
fn allowed(wall: f64) -> f64 {
    encore::stream::ingest::pacing::BURST_SECONDS
        + encore::stream::ingest::pacing::MAX_SPEED * wall
        + 0.05
}

#[tokio::test]
async fn twenty_reconnects_pushing_at_once_record_at_most_the_burst_and_one_and_a_half_times_the_clock()
 {
    // Finding 2 of the second review: 20 connections in 8.1 s, each with a fresh burst,
    // recorded 190 s of audio.
    let app = spawn_app().await;
    let event = crate::helpers::concert(&app, None, 500, 0).await;
    let key = crate::live::stream_key(&app, &event).await;
    let body = nine_and_a_half_seconds();
    let started = std::time::Instant::now();
    let mut cut = 0;
    for _ in 0..20 {
        if push_at_once(&app, &event, &key, &body).await == 422 {
            cut += 1;
        }
        tokio::time::sleep(Duration::from_millis(400)).await;
    }
    let wall = started.elapsed().as_secs_f64();
    let recorded = app.state.hub.show(&event).status().recorded_seconds;
    assert!(cut >= 15, "{cut} connections cut for running ahead");
    assert!(
        recorded <= allowed(wall),
        "{recorded:.1} s recorded in {wall:.1} s"
    );
}

#[tokio::test]
async fn reconnecting_through_another_instance_gets_no_fresh_burst() {
    let a = spawn_app_with(Options {
        redis_prefix: Some(crate::helpers::redis_prefix()),
        ..Options::default()
    })
    .await;
    let b = a.beside().await;
    let event = crate::helpers::concert(&a, None, 500, 0).await;
    let key = crate::live::stream_key(&a, &event).await;
    let body = nine_and_a_half_seconds();
    let started = std::time::Instant::now();
    let mut on_b = 0;
    for round in 0..12 {
        let instance = if round % 2 == 0 { &a } else { &b };
        let status = push_at_once(instance, &event, &key, &body).await;
        if round % 2 == 1 && status != 409 {
            on_b += 1; // admitted on B (then cut, or whole)
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    let wall = started.elapsed().as_secs_f64();
    assert!(on_b >= 3, "B took the encoder {on_b} times");
    // Each instance's copy: what was recorded anywhere.
    tokio::time::sleep(Duration::from_secs(1)).await;
    for (name, app) in [("A", &a), ("B", &b)] {
        let recorded = app.state.hub.show(&event).status().recorded_seconds;
        assert!(
            recorded <= allowed(wall),
            "{name}: {recorded:.1} s recorded in {wall:.1} s"
        );
    }
}

#[tokio::test]
async fn reconnecting_through_another_encore_serve_process_gets_no_fresh_burst() {
    // The same replay across two real `encore serve` processes sharing the database and
    // Redis; this test's own server is a third instance, following the show through the
    // journal like any other.
    let a = spawn_app_with(Options {
        redis_prefix: Some(crate::helpers::redis_prefix()),
        ..Options::default()
    })
    .await;
    let event = crate::helpers::concert(&a, None, 500, 0).await;
    let key = crate::live::stream_key(&a, &event).await;
    let [(_one, p), (_two, q)] = crate::cluster::two_processes_beside(&a).await;
    let body = nine_and_a_half_seconds();
    let started = std::time::Instant::now();
    let mut on_q = 0;
    for round in 0..12 {
        let process = if round % 2 == 0 { &p } else { &q };
        let status = a
            .http
            .put(format!("{}/live/{event}", process.url))
            .basic_auth("source", Some(&key))
            .header("content-type", "audio/aac")
            .body(body.clone())
            .send()
            .await
            .unwrap()
            .status()
            .as_u16();
        if round % 2 == 1 && status != 409 {
            on_q += 1; // admitted by the second process (then cut, or whole)
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    let wall = started.elapsed().as_secs_f64();
    assert!(
        on_q >= 3,
        "the second process took the encoder {on_q} times"
    );
    // This instance follows the show through the journal: on a loaded machine its copy
    // may still be catching up a second after the last push (8.0 s of 9+ read once).
    let show = a.state.hub.show(&event);
    crate::go_live::status_until(&show, |s| s.recorded_seconds > 9.0).await;
    // What each process recorded, as its own API says, and this instance's copy.
    let (_, admin) = a.signed_in("staff@example.com", Role::Admin).await;
    for (name, url) in [("P", &p.url), ("Q", &q.url)] {
        let status = a
            .json_at(&format!("{url}/api/v1/events/{event}/live"), &admin.access)
            .await;
        let recorded = status["payload"]["recordedSeconds"].as_f64().unwrap();
        assert!(
            recorded <= allowed(wall),
            "{name}: {recorded:.1} s recorded in {wall:.1} s ({status})"
        );
    }
    let recorded = show.status().recorded_seconds;
    assert!(
        recorded <= allowed(wall),
        "this instance: {recorded:.1} s recorded in {wall:.1} s"
    );
}

#[tokio::test]
async fn eight_kilobyte_frames_at_96_khz_are_refused_for_their_bitrate() {
    let app = spawn_app().await;
    let event = crate::helpers::concert(&app, None, 500, 0).await;
    let key = crate::live::stream_key(&app, &event).await;
    let config = encore::stream::codecs::adts::AacConfig {
        object_type: 2,
        sample_rate_index: 0, // 96 kHz
        channels: 2,
    };
    let frame = encore::stream::codecs::adts::adts_frame(&config, &[0x55; 8_184]);
    assert_eq!(frame.len(), 8_191);
    let body: Vec<u8> = std::iter::repeat_n(frame, 900).flatten().collect();
    let response = put_aac(&app, &event, &key, body).await;
    assert_eq!(response.status().as_u16(), 422);
    assert!(response.text().await.unwrap().contains("kbit/s"));
    let recorded = app.state.hub.show(&event).status().recorded_seconds;
    assert!(recorded < 0.5, "{recorded} s recorded");
}

#[tokio::test]
async fn a_shows_journal_in_redis_is_kept_within_its_bytes() {
    let app = spawn_app_with(Options {
        redis_prefix: Some(crate::helpers::redis_prefix()),
        journal_mb: Some(0.1),
        ..Options::default()
    })
    .await;
    let event = crate::helpers::concert(&app, None, 500, 0).await;
    let key = crate::live::stream_key(&app, &event).await;
    // 9.5 s of 128 kbit/s (≈ 150 KB), more 1.5 s later, and two frames after the next
    // weighing: well past the bound of 100 KB.
    push_at_once(&app, &event, &key, &nine_and_a_half_seconds()).await;
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    push_at_once(&app, &event, &key, &nine_and_a_half_seconds()).await;
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    push_at_once(&app, &event, &key, &two_frames()).await;
    let journal = app
        .state
        .bus
        .shared_key(&format!("journal:{event}"))
        .unwrap();
    let mut used = u64::MAX;
    for _ in 0..40 {
        tokio::time::sleep(Duration::from_millis(100)).await;
        let usage = redis::cmd("MEMORY").arg("USAGE").arg(&journal).to_owned();
        used = app
            .state
            .bus
            .shared_command::<Option<u64>>(&usage)
            .await
            .unwrap()
            .unwrap()
            .expect("the journal");
        if used <= 105 * 1024 {
            break;
        }
    }
    assert!(used <= 105 * 1024, "the journal takes {used} bytes");
}

#[tokio::test]
async fn while_redis_is_away_an_encoder_is_cut_before_its_journal_queue_passes_the_bound() {
    let mut redis = crate::helpers::OwnRedis::start();
    let app = spawn_app_with(Options {
        redis_prefix: Some(crate::helpers::redis_prefix()),
        redis_url: Some(redis.url()),
        journal_queue_mb: Some(0.05),
        ..Options::default()
    })
    .await;
    let event = crate::helpers::concert(&app, None, 500, 0).await;
    let key = crate::live::stream_key(&app, &event).await;
    let audio = nine_and_a_half_seconds();
    // A chunked PUT: two frames while Redis is there (the encoder holds the lease)...
    let address = app.url.trim_start_matches("http://");
    let mut conn = TcpStream::connect(address).await.unwrap();
    use base64::Engine;
    let auth = base64::engine::general_purpose::STANDARD.encode(format!("source:{key}"));
    let head = format!(
        "PUT /live/{event} HTTP/1.1\r\nHost: {address}\r\nAuthorization: Basic {auth}\r\n\
         Content-Type: audio/aac\r\nTransfer-Encoding: chunked\r\n\r\n"
    );
    conn.write_all(head.as_bytes()).await.unwrap();
    let chunk = |bytes: &[u8]| {
        let mut out = format!("{:x}\r\n", bytes.len()).into_bytes();
        out.extend_from_slice(bytes);
        out.extend_from_slice(b"\r\n");
        out
    };
    conn.write_all(&chunk(&two_frames())).await.unwrap();
    assert!(an_encoder_is_connected(&app, &event).await);
    // ...then Redis goes, and 9.5 s of audio (≈ 150 KB) arrives within the burst.
    redis.stop();
    for piece in audio.chunks(4096) {
        if conn.write_all(&chunk(piece)).await.is_err() {
            break;
        }
    }
    let answer = String::from_utf8_lossy(&read_until_closed(&mut conn).await).into_owned();
    assert!(answer.starts_with("HTTP/1.1 422"), "{answer}");
    assert!(answer.contains("cannot share the show"), "{answer}");
    let writer = app.state.hub.journal_writer().expect("a journal");
    assert!(
        writer.queued_bytes() <= 52_429,
        "{} bytes wait for Redis",
        writer.queued_bytes()
    );
}
