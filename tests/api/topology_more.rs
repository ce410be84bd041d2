//! More of several instances as they run in production (issue 14), with the scaffolding of
//! `topology.rs` (two `encore serve` processes, nginx with `deploy/nginx.conf`, a database
//! and a Redis prefix of the test's own): an encoder through nginx's Icecast port, a show
//! whose instance died and whose encoder never came back, Redis back empty, an instance
//! restarted mid-show, and the access rules between two processes. PostgreSQL only, as
//! there.

use std::time::{Duration, Instant};

use encore::stream::show::journal::{LEASE_RENEW, LEASE_TTL};
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::*;
use crate::topology::*;

/// The concert as a visitor reads it on `server`: its `state`.
async fn state_on(http: &reqwest::Client, server: &str, event: &str) -> Value {
    let answer = http
        .get(format!("{server}/api/v1/events/{event}"))
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), StatusCode::OK);
    let body: Value = answer.json().await.unwrap();
    body["payload"]["state"].clone()
}

/// The media URIs of a playlist (parts, segments, the init segment), once each.
fn media_of(playlist: &str) -> Vec<String> {
    let mut uris = Vec::new();
    for line in playlist.lines() {
        let uri = if let Some(quoted) = line.split("URI=\"").nth(1) {
            quoted[..quoted.find('"').unwrap()].to_owned()
        } else if !line.starts_with('#') && !line.is_empty() {
            line.to_owned()
        } else {
            continue;
        };
        if !uris.contains(&uri) {
            uris.push(uri);
        }
    }
    uris
}

/// Every media file `playlist` names is the same bytes on both servers (`url_*` are the
/// playlist's URLs there); how many were compared.
async fn same_media(http: &reqwest::Client, url_a: &str, url_b: &str, playlist: &str) -> usize {
    let (base_a, base_b) = (
        url_a.trim_end_matches("index.m3u8"),
        url_b.trim_end_matches("index.m3u8"),
    );
    let uris = media_of(playlist);
    for uri in &uris {
        let a = http.get(format!("{base_a}{uri}")).send().await.unwrap();
        let b = http.get(format!("{base_b}{uri}")).send().await.unwrap();
        assert_eq!(a.status(), StatusCode::OK, "{uri} on the first");
        assert_eq!(b.status(), StatusCode::OK, "{uri} on the second");
        let (a, b) = (a.bytes().await.unwrap(), b.bytes().await.unwrap());
        assert!(!a.is_empty(), "{uri}");
        assert!(a == b, "{uri} differs: {} and {} bytes", a.len(), b.len());
    }
    uris.len()
}

/// Poll until both URLs answer the same playlist (a part may land between the two reads);
/// the playlist, or a panic with both after `within`.
async fn until_same_playlist(
    http: &reqwest::Client,
    url_a: &str,
    url_b: &str,
    within: Duration,
) -> String {
    let started = Instant::now();
    loop {
        let (status_a, text_a) = text_of(http, url_a).await;
        let (status_b, text_b) = text_of(http, url_b).await;
        if status_a == StatusCode::OK && status_b == StatusCode::OK && text_a == text_b {
            return text_a;
        }
        assert!(
            started.elapsed() < within,
            "the playlists disagree:\n{status_a}\n{text_a}\n---\n{status_b}\n{text_b}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn ffmpeg_through_nginxs_icecast_port_plays_on_the_other_instance() {
    let Some(base) = on_postgres() else { return };
    let cluster = Cluster::start(&base, &redis_url(), &[]).await;
    let (a, b) = (&cluster.a, &cluster.b);
    let (event, key, fan) = a_concert_with_a_ticket_holder(&cluster.fixtures).await;

    // ffmpeg's Icecast output, to nginx's stream port (deploy/nginx.conf's `stream {}`).
    let encoder = Ffmpeg::icecast(cluster.nginx.ingest_port, &event, &key, 7);
    // Its output comes when it exits: no log to show meanwhile.
    let (holder, other) = if holder_is_a(a, b, &event, String::new).await {
        (a, b)
    } else {
        (b, a)
    };
    assert_eq!(other.ingest_kbps(&event).await, 0.0, "one holder");

    // A listener on the instance ffmpeg is not connected to plays the show.
    let http = http_client();
    let playlist = listen(&http, &other.url(), &event, &fan).await;
    let (url, on_holder) = (other.at(&playlist), holder.at(&playlist));
    until_segments(&http, &url, 2).await;
    assert_eq!(probed_codec(url.clone()).await, "aac", "ffprobe reads AAC");
    let text = until_same_playlist(&http, &url, &on_holder, Duration::from_secs(5)).await;
    assert!(same_media(&http, &url, &on_holder, &text).await > 2);

    encoder.finished().await;
}

#[tokio::test]
async fn a_show_whose_encoders_instance_died_ends_after_the_wait_on_the_survivor() {
    let Some(base) = on_postgres() else { return };
    // Waiting 15 s for an encoder (the default is 15 minutes).
    const ABANDON: Duration = Duration::from_secs(15);
    let minutes = (ABANDON.as_secs_f64() / 60.0).to_string();
    let mut pushing = Pushing::start_with(&base, &[("ENCORE_SHOW_ABANDON_MINUTES", minutes)]).await;
    let event = pushing.event.clone();
    let http = http_client();
    let survivor = pushing.other.url();
    let url = format!(
        "{survivor}{}",
        listen(&http, &survivor, &event, &pushing.fan).await
    );
    until_segments(&http, &url, 2).await;
    let live = Instant::now();
    while state_on(&http, &survivor, &event).await["phase"] != "live" {
        assert!(live.elapsed() < Duration::from_secs(5), "the show is live");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    // The encoder's instance dies, and the encoder with it: nobody comes back.
    let killed = Instant::now();
    pushing.holder.kill();
    pushing.push.stop();

    // The survivor sees the lease expire (≤ LEASE_TTL, checked every LEASE_RENEW), waits
    // out the wait for an encoder, then ends the show.
    let within = LEASE_TTL + LEASE_RENEW + ABANDON + Duration::from_secs(5);
    let ended_after = loop {
        let (status, text) = text_of(&http, &url).await;
        assert_eq!(status, StatusCode::OK, "the listener is never refused");
        if text.contains("#EXT-X-ENDLIST") {
            break killed.elapsed();
        }
        assert!(
            killed.elapsed() < within,
            "the survivor did not end the show:\n{text}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    eprintln!(
        "orphaned show: ended {:.1} s after its instance was killed",
        ended_after.as_secs_f64()
    );
    assert!(
        ended_after >= ABANDON,
        "ended {ended_after:?} after the kill, before the wait ran out"
    );
    let state = state_on(&http, &survivor, &event).await;
    assert_eq!(state["phase"], "replay", "{state}");
    assert_eq!(state["reason"], "ended", "{state}");

    // The ticket holder is told once, and no later round of the survivor's watch tells
    // them again.
    let (fan_id,): (String,) = sqlx::query_as("SELECT account_id FROM tickets WHERE event_id = $1")
        .bind(&event)
        .fetch_one(pushing.fixtures.db())
        .await
        .unwrap();
    let told = || async {
        let (n,): (i64,) = sqlx::query_as(
            "SELECT COUNT(*) FROM notifications WHERE account_id = $1 AND link = $2 \
             AND title LIKE '% has ended'",
        )
        .bind(&fan_id)
        .bind(format!("/stage/{event}"))
        .fetch_one(pushing.fixtures.db())
        .await
        .unwrap();
        n
    };
    assert_eq!(told().await, 1, "the holder is told the show ended");
    let watched = Instant::now();
    while watched.elapsed() < LEASE_RENEW + Duration::from_secs(1) {
        assert_eq!(told().await, 1, "told once, not twice");
        tokio::time::sleep(Duration::from_millis(250)).await;
    }

    // The replay plays from the start on the survivor.
    assert_eq!(probed_codec(url.clone()).await, "aac");
}

#[tokio::test]
async fn redis_back_empty_mid_show_the_show_goes_on_and_access_follows_the_database() {
    let Some(base) = on_postgres() else { return };
    let mut redis = OwnRedis::start();
    let show = Show::pushed_to_a(Cluster::start(&base, redis.url(), &[]).await, 2).await;
    let (a, b, http, event) = (&show.cluster.a, &show.cluster.b, &show.http, &show.event);
    let fixtures = &show.cluster.fixtures;
    let fan = show.fan(0);
    let (refunded_fan, refunded) = &show.fans[1];
    let first = show.listen(b, fan).await;
    let other = show.listen(b, refunded).await;
    until_segments(http, &b.at(&first), 2).await;
    assert_eq!(status_of(http, &b.at(&other)).await, StatusCode::OK);

    // B stands still for a second: what A writes meanwhile, Redis takes and B has not read
    // when Redis goes away with it. A writes it again once Redis is back.
    b.pause();
    tokio::time::sleep(Duration::from_secs(1)).await;
    // Redis goes away. Meanwhile the fan opens a session on A (superseding the first) and
    // the other fan's ticket is refunded on A: neither can reach B yet.
    redis.stop();
    b.resume();
    let second = show.listen(a, fan).await;
    let admin = show.cluster.admin().await;
    let (order,): (String,) =
        sqlx::query_as("SELECT order_id FROM tickets WHERE event_id = $1 AND account_id = $2")
            .bind(event)
            .bind(&refunded_fan.id)
            .fetch_one(fixtures.db())
            .await
            .unwrap();
    let refund = post_as(
        http,
        format!("{}/api/v1/orders/{order}/refund", a.url()),
        &admin,
    )
    .await;
    assert!(refund.status().is_success(), "{}", refund.status());
    assert_eq!(
        status_of(http, &a.at(&other)).await,
        StatusCode::FORBIDDEN,
        "refused where it was refunded"
    );
    let recorded = timeline(&text_of(http, &a.at(&second)).await.1).len();
    until_segments(http, &a.at(&second), recorded + 1).await;

    // Redis comes back with nothing: no journal, no list of shows, no lease, no history.
    redis.start_again_empty();
    let returned = Instant::now();
    let text = until_same_playlist(
        http,
        &a.at(&second),
        &b.at(&second),
        Duration::from_secs(10),
    )
    .await;
    eprintln!(
        "redis back empty: B caught up {:.2} s after it returned",
        returned.elapsed().as_secs_f64()
    );
    // New parts still reach B, and are A's byte for byte.
    let caught = timeline(&text).len();
    until_segments(http, &b.at(&second), caught + 2).await;
    let text =
        until_same_playlist(http, &a.at(&second), &b.at(&second), Duration::from_secs(5)).await;
    same_media(http, &a.at(&second), &b.at(&second), &text).await;
    assert_eq!(text.matches("#EXT-X-DISCONTINUITY").count(), 0, "{text}");
    assert!(
        gaps(&text).iter().all(|g| g.abs() < 0.3),
        "no gap in the recording: {:?}",
        gaps(&text)
    );

    // Nothing wrongly granted: the superseded and the refunded sessions are refused on
    // both, as the database says.
    for url in [a.at(&first), b.at(&first), a.at(&other), b.at(&other)] {
        answers_within_a_second(http, &url, StatusCode::FORBIDDEN).await;
    }
    // Sessions opened after it returned supersede each other across instances again.
    let third = show.listen(b, fan).await;
    answers_within_a_second(http, &a.at(&second), StatusCode::FORBIDDEN).await;
    answers_within_a_second(http, &a.at(&third), StatusCode::OK).await;
    let fourth = show.listen(a, fan).await;
    answers_within_a_second(http, &b.at(&third), StatusCode::FORBIDDEN).await;
    answers_within_a_second(http, &b.at(&fourth), StatusCode::OK).await;
    assert_eq!(status_of(http, &b.at(&first)).await, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn an_instance_restarted_mid_show_recovers_from_its_disk_and_catches_up() {
    let Some(base) = on_postgres() else { return };
    let mut show = Show::pushed_to_a(Cluster::start(&base, &redis_url(), &[]).await, 1).await;
    let playlist = show.listen(&show.cluster.b, show.fan(0)).await;
    let (on_a, on_b) = (show.cluster.a.at(&playlist), show.cluster.b.at(&playlist));
    let http = &show.http;
    until_segments(http, &on_b, 3).await;
    until_same_playlist(http, &on_a, &on_b, Duration::from_secs(5)).await;

    // kill -9 B while A records; A goes on for two more segments; B starts again on the
    // same port and data directory.
    show.cluster.b.kill();
    let recorded = timeline(&text_of(http, &on_a).await.1).len();
    until_segments(http, &on_a, recorded + 2).await;
    show.cluster.b.start_again().await;
    let restarted = Instant::now();

    // B serves A's playlist again, every part and segment the same bytes, and keeps up.
    let text = until_same_playlist(http, &on_a, &on_b, Duration::from_secs(10)).await;
    eprintln!(
        "restart: B serves A's playlist {:.2} s after it was ready again",
        restarted.elapsed().as_secs_f64()
    );
    let after = timeline(&text).len();
    until_segments(http, &on_b, after + 1).await;
    let text = until_same_playlist(http, &on_a, &on_b, Duration::from_secs(5)).await;
    assert!(same_media(http, &on_a, &on_b, &text).await > 10);

    // What the journal's retention counts on: at most one entry per AAC frame (46.9 a
    // second at 48 kHz), here with an encoder sending each frame as it is made.
    let mut redis = redis::Client::open(redis_url())
        .unwrap()
        .get_multiplexed_async_connection()
        .await
        .unwrap();
    let entries: u64 = redis::cmd("XLEN")
        .arg(format!(
            "{}journal:{}",
            show.cluster.redis_prefix, show.event
        ))
        .query_async(&mut redis)
        .await
        .unwrap();
    let seconds: f64 = timeline(&text).iter().map(|(_, d)| d).sum();
    let per_second = entries as f64 / seconds;
    eprintln!("journal: {entries} entries for {seconds:.1} s recorded, {per_second:.1} a second");
    assert!(entries > 0, "the journal is where the test looks");
    assert!(
        (entries as f64) <= (seconds + 1.5) * 48_000.0 / 1024.0 + 10.0,
        "more than an entry per frame: {per_second:.1} a second"
    );
    assert_eq!(text.matches("#EXT-X-DISCONTINUITY").count(), 0, "{text}");
    assert!(
        gaps(&text).iter().all(|g| g.abs() < 0.3),
        "no gap: {:?}",
        gaps(&text)
    );

    // The start of the show replays from B: its first segment is A's, and plays.
    let first = text
        .lines()
        .find(|l| !l.starts_with('#') && !l.is_empty())
        .expect("a segment");
    let base_of = |url: &str| url.trim_end_matches("index.m3u8").to_owned();
    let from_b = http
        .get(format!("{}{first}", base_of(&on_b)))
        .send()
        .await
        .unwrap();
    assert_eq!(from_b.status(), StatusCode::OK);
    let from_a = http
        .get(format!("{}{first}", base_of(&on_a)))
        .send()
        .await
        .unwrap();
    assert_eq!(from_b.bytes().await.unwrap(), from_a.bytes().await.unwrap());
    assert_eq!(probed_codec(on_b.clone()).await, "aac");
}

#[tokio::test]
async fn cancellation_disable_delete_sign_out_and_revocation_on_one_process_hold_on_the_other_within_a_second()
 {
    let Some(base) = on_postgres() else { return };
    let show = Show::pushed_to_a(Cluster::start(&base, &redis_url(), &[]).await, 4).await;
    let (a, b, http, fans) = (&show.cluster.a, &show.cluster.b, &show.http, &show.fans);
    let fixtures = &show.cluster.fixtures;
    let admin = show.cluster.admin().await;
    let me = b.at("/api/v1/accounts/userinfo/me");

    // Four ticket holders, each listening on B.
    let mut playing = Vec::new();
    for (_, token) in fans {
        playing.push(b.at(&show.listen(b, token).await));
    }
    until_segments(http, &playing[0], 1).await;
    for url in &playing {
        assert_eq!(status_of(http, url).await, StatusCode::OK);
    }

    // An account disabled on A: its listening ends on B, and its token is 401 there.
    let (disabled, disabled_token) = &fans[0];
    assert_eq!(
        status_as(http, &me, Some(disabled_token)).await,
        StatusCode::OK,
        "cached on B"
    );
    let answer = http
        .put(format!("{}/api/v1/accounts/{}", a.url(), disabled.id))
        .bearer_auth(&admin)
        .json(&json!({ "enablement": { "enabled": false } }))
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), StatusCode::OK);
    answers_within_a_second(http, &playing[0], StatusCode::FORBIDDEN).await;
    answers_as_within_a_second(http, &me, Some(disabled_token), StatusCode::UNAUTHORIZED).await;
    assert_eq!(status_of(http, &playing[1]).await, StatusCode::OK);

    // An account deleted on A: the same.
    let (deleted, deleted_token) = &fans[1];
    let answer = http
        .delete(format!("{}/api/v1/accounts/{}", a.url(), deleted.id))
        .bearer_auth(&admin)
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), StatusCode::OK);
    answers_within_a_second(http, &playing[1], StatusCode::FORBIDDEN).await;
    answers_as_within_a_second(http, &me, Some(deleted_token), StatusCode::UNAUTHORIZED).await;

    // Signed out on A: the token is 401 on B, where it was just good.
    let (_, signed_out) = &fans[2];
    assert_eq!(status_as(http, &me, Some(signed_out)).await, StatusCode::OK);
    let answer = post_as(
        http,
        format!("{}/api/v1/oauth2/logout", a.url()),
        signed_out,
    )
    .await;
    assert_eq!(answer.status(), StatusCode::OK);
    answers_as_within_a_second(http, &me, Some(signed_out), StatusCode::UNAUTHORIZED).await;

    // A spent refresh token coming back on A revokes its session: its access token is 401 on B.
    let account = fixtures
        .account("revoked@example.com", encore::accounts::model::Role::User)
        .await;
    let (_, tokens) = encore::auth::tokens::start_session(
        fixtures.db(),
        &fixtures.state.keys,
        &account,
        WEB,
        "openid",
        false,
    )
    .await
    .unwrap();
    let spent = tokens.refresh_token.unwrap();
    let refresh = |token: String| {
        http.post(format!("{}/api/v1/oauth2/token", a.url()))
            .header("authorization", basic_web())
            .json(&json!({ "grant_type": "refresh_token", "client_id": WEB,
                           "refresh_token": token, "state": "r" }))
            .send()
    };
    let answer = Answer::of(refresh(spent.clone()).await.unwrap()).await;
    assert_eq!(answer.status, StatusCode::OK);
    let (access, next) = (access_of(&answer.body), answer.tokens().refresh);
    assert_eq!(
        status_as(http, &me, Some(&access)).await,
        StatusCode::OK,
        "cached on B"
    );
    // The holder refreshes on, then the spent token comes back: reuse, not a retry.
    assert_eq!(refresh(next).await.unwrap().status(), StatusCode::OK);
    assert_eq!(
        refresh(spent).await.unwrap().status(),
        StatusCode::BAD_REQUEST,
        "a spent refresh token"
    );
    answers_as_within_a_second(http, &me, Some(&access), StatusCode::UNAUTHORIZED).await;

    // The concert cancelled on A: the last listener's session ends on B.
    assert_eq!(status_of(http, &playing[3]).await, StatusCode::OK);
    let answer = post_as(
        http,
        format!("{}/api/v1/events/{}/cancel", a.url(), show.event),
        &admin,
    )
    .await;
    assert_eq!(answer.status(), StatusCode::OK);
    answers_within_a_second(http, &playing[3], StatusCode::FORBIDDEN).await;
}

/// Delete every key under `prefix` (as `FLUSHDB` would, or an eviction), the connections
/// staying up.
async fn delete_keys(prefix: &str) -> usize {
    let mut redis = redis::Client::open(redis_url())
        .unwrap()
        .get_multiplexed_async_connection()
        .await
        .unwrap();
    let keys: Vec<String> = redis::cmd("KEYS")
        .arg(format!("{prefix}*"))
        .query_async(&mut redis)
        .await
        .unwrap();
    for key in &keys {
        let _: i64 = redis::cmd("DEL")
            .arg(key)
            .query_async(&mut redis)
            .await
            .unwrap();
    }
    keys.len()
}

#[tokio::test]
async fn the_shows_keys_flushed_from_redis_mid_show_the_other_instance_keeps_up() {
    let Some(base) = on_postgres() else { return };
    let show = Show::pushed_to_a(Cluster::start(&base, &redis_url(), &[]).await, 1).await;
    let (a, b, http, fan) = (&show.cluster.a, &show.cluster.b, &show.http, show.fan(0));
    let playlist = show.listen(b, fan).await;
    let (on_a, on_b) = (a.at(&playlist), b.at(&playlist));
    until_segments(http, &on_b, 2).await;

    // The journal, the list of shows and the lease are gone; nothing disconnects.
    assert!(delete_keys(show.cluster.redis_prefix).await >= 2);
    let recorded = timeline(&text_of(http, &on_a).await.1).len();
    until_segments(http, &on_a, recorded + 3).await;
    let text = until_same_playlist(http, &on_a, &on_b, Duration::from_secs(5)).await;
    assert!(timeline(&text).len() >= recorded + 3, "B kept up:\n{text}");
    same_media(http, &on_a, &on_b, &text).await;
    assert_eq!(text.matches("#EXT-X-DISCONTINUITY").count(), 0, "{text}");
    // Listening rules still travel.
    let second = show.listen(a, fan).await;
    answers_within_a_second(http, &on_b, StatusCode::FORBIDDEN).await;
    answers_within_a_second(http, &b.at(&second), StatusCode::OK).await;
}

#[tokio::test]
async fn an_encoder_through_nginx_reaches_the_living_instance_when_the_other_is_gone() {
    let Some(base) = on_postgres() else { return };
    let mut cluster = Cluster::start(&base, &redis_url(), &[]).await;
    let (event, _key, _fan) = a_concert_with_a_ticket_holder(&cluster.fixtures).await;
    cluster.a.kill();
    let http = http_client();
    // Every attempt is answered by B (401: not the key). nginx's own 502 would mean it
    // gave the encoder's PUT to the dead A and did not try B: with two nginx workers and
    // a round robin each, a reconnecting encoder could then miss B several times running
    // and outlast its backoff (the SIGTERM hand-over's rare failure).
    for attempt in 0..12 {
        let answer = http
            .put(format!("{}/live/{event}", cluster.nginx.url()))
            .basic_auth("source", Some("not-the-key"))
            .header("content-type", "audio/aac")
            .body(vec![0u8; 64])
            .send()
            .await
            .unwrap();
        assert_eq!(
            answer.status(),
            StatusCode::UNAUTHORIZED,
            "attempt {attempt}"
        );
    }
}
