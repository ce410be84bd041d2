//! Operating several instances: health probes, metrics, shared secrets, cluster-wide
//! limits and jobs, and draining on SIGTERM.

use std::time::Duration;

use reqwest::StatusCode;

use encore::accounts::model::Role;

use crate::helpers::{
    CARD_OK, METRICS_TOKEN, Options, OwnRedis, PASSWORD, TestApp, concert, http_client, pkce,
    redis_prefix, spawn_app, spawn_app_on_redis, spawn_app_with, two_instances_with,
};

#[tokio::test]
async fn a_fresh_instance_is_live_and_ready() {
    let app = spawn_app().await;
    let (status, body) = app.get("/api/v1/health/live", None).await;
    assert_eq!(
        (status, &body["payload"]["status"]),
        (StatusCode::OK, &"live".into())
    );
    let (status, body) = app.get("/api/v1/health/ready", None).await;
    assert_eq!(
        (status, &body["payload"]["status"]),
        (StatusCode::OK, &"ready".into())
    );
    let (status, _) = app.get("/api/v1/health", None).await;
    assert_eq!(status, StatusCode::OK, "the old probe stays");
}

#[tokio::test]
async fn a_draining_instance_is_live_but_not_ready() {
    let app = spawn_app().await;
    app.state.lifecycle.drain();
    let (status, body) = app.get("/api/v1/health/ready", None).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(body["success"], false);
    assert_eq!(body["error"], "This instance is not ready: draining.");
    let (status, _) = app.get("/api/v1/health/live", None).await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn an_instance_without_its_database_is_not_ready_and_says_so_in_the_readers_language() {
    let app = spawn_app().await;
    app.state.db.close().await;
    let answer = app
        .http
        .get(format!("{}/api/v1/health/ready", app.url))
        .header("Accept-Language", "es")
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), StatusCode::SERVICE_UNAVAILABLE);
    let body: serde_json::Value = answer.json().await.unwrap();
    assert_eq!(body["error"], "Esta instancia no está lista: database.");
}

#[tokio::test]
async fn an_instance_whose_redis_is_down_is_not_ready_until_it_is_back() {
    let mut redis = OwnRedis::start();
    let app = spawn_app_on_redis(Options {
        redis_url: Some(redis.url()),
        ..Options::default()
    })
    .await;
    let (status, _) = app.get("/api/v1/health/ready", None).await;
    assert_eq!(status, StatusCode::OK);
    redis.stop();
    let (status, body) = app.get("/api/v1/health/ready", None).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(body["error"], "This instance is not ready: redis.");
    redis.start_again();
    // The command connection is reopened on the next probe after it broke.
    let mut ready = false;
    for _ in 0..50 {
        if app.get("/api/v1/health/ready", None).await.0 == StatusCode::OK {
            ready = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(ready, "ready again once Redis answers");
}

/// `/metrics` as Prometheus reads it.
async fn scrape(app: &TestApp) -> String {
    let answer = app
        .http
        .get(format!("{}/metrics", app.url))
        .bearer_auth(METRICS_TOKEN)
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), StatusCode::OK);
    assert!(
        answer.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/plain; version=0.0.4")
    );
    answer.text().await.unwrap()
}

/// The value of the sample `name{labels}` (exactly as written), if present.
fn sample(text: &str, series: &str) -> Option<f64> {
    text.lines()
        .find_map(|line| line.strip_prefix(series)?.strip_prefix(' '))
        .map(|value| value.parse().unwrap())
}

#[tokio::test]
async fn metrics_are_for_the_holder_of_the_token_only() {
    let app = spawn_app().await;
    let url = format!("{}/metrics", app.url);
    let none = app.http.get(&url).send().await.unwrap();
    assert_eq!(none.status(), StatusCode::UNAUTHORIZED);
    let body: serde_json::Value = none.json().await.unwrap();
    assert_eq!(body["error"], "Send the metrics token as a bearer token.");
    let wrong = app.http.get(&url).bearer_auth("not it").send().await;
    assert_eq!(wrong.unwrap().status(), StatusCode::UNAUTHORIZED);
    assert!(
        scrape(&app)
            .await
            .contains("# TYPE encore_http_request_duration_seconds histogram")
    );
}

#[tokio::test]
async fn without_a_metrics_token_there_are_no_metrics() {
    let app = spawn_app_with(Options {
        metrics_token: None,
        ..Options::default()
    })
    .await;
    let answer = app
        .http
        .get(format!("{}/metrics", app.url))
        .bearer_auth("anything");
    assert_eq!(answer.send().await.unwrap().status(), StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn request_latency_is_counted_by_matched_route_never_by_raw_path() {
    let app = spawn_app().await;
    let count = |text: &str, route: &str| {
        sample(
            text,
            &format!(
                "encore_http_request_duration_seconds_count{{route=\"{route}\",method=\"GET\"}}"
            ),
        )
        .unwrap_or_else(|| panic!("no histogram for {route}:\n{text}"))
    };
    let before = scrape(&app).await;
    let id = uuid::Uuid::new_v4();
    app.get("/api/v1/health/ready", None).await;
    app.get("/api/v1/health/ready", None).await;
    app.get(&format!("/api/v1/events/{id}"), None).await;
    app.get("/api/v1/no/such/path", None).await;
    let after = scrape(&app).await;
    assert_eq!(
        count(&after, "/api/v1/health/ready") - count(&before, "/api/v1/health/ready"),
        2.0
    );
    assert_eq!(
        count(&after, "/api/v1/events/{id}") - count(&before, "/api/v1/events/{id}"),
        1.0
    );
    assert!(count(&after, "other") > count(&before, "other"));
    assert!(
        !after.contains(&id.to_string()),
        "no raw path becomes a label"
    );
    assert!(!after.contains("no/such/path"));
}

#[tokio::test]
async fn show_socket_pool_and_redis_families_move_with_what_happens() {
    let app = spawn_app_on_redis(Options::default()).await;
    let before = scrape(&app).await;
    let parts = |text: &str| sample(text, "encore_stream_parts_produced_total").unwrap();
    let trips = |text: &str| sample(text, "encore_redis_round_trips_total").unwrap();
    assert_eq!(sample(&before, "encore_stream_parked_reloads"), Some(0.0));
    assert!(sample(&before, "encore_db_pool_connections").unwrap() >= 1.0);
    assert!(sample(&before, "encore_db_pool_idle_connections").is_some());

    // A fan with a ticket listens to a show being recorded here.
    let event = concert(&app, None, 500, 5 * 60_000).await;
    let (_, token) = app.fans(1).await.pop().unwrap();
    assert_eq!(app.buy(&token, &event, CARD_OK).await.0, StatusCode::OK);
    let media = tempfile::tempdir().unwrap();
    let bytes = std::fs::read(crate::live::adts_file(media.path(), 2)).unwrap();
    let show = app.state.hub.show(&event);
    let encore::stream::show::hub::Claim::Granted(publisher) = show.claim() else {
        panic!("claim")
    };
    let frames = encore::stream::codecs::adts::AdtsParser::new().push(&bytes);
    assert!(show.received(publisher, bytes.len()));
    show.feed_standard(publisher, frames).unwrap();
    let playlist = format!("{}{}", app.url, app.listen(&event, &token).await);
    assert_eq!(
        app.http.get(&playlist).send().await.unwrap().status(),
        StatusCode::OK
    );
    // A blocking reload for a part far ahead parks until its timeout.
    let parked = tokio::spawn(
        app.http
            .get(format!("{playlist}?_HLS_msn=1000&_HLS_part=0"))
            .send(),
    );
    let (mut ws, _) = tokio_tungstenite::connect_async(format!(
        "{}/api/v1/ws",
        app.url.replace("http://", "ws://")
    ))
    .await
    .unwrap();
    use futures_util::SinkExt;
    ws.send(tokio_tungstenite::tungstenite::Message::text(
        serde_json::json!({"type": "auth", "token": token}).to_string(),
    ))
    .await
    .unwrap();
    // The bitrate needs half a second of connection; the socket its `auth`.
    tokio::time::sleep(Duration::from_millis(700)).await;

    let after = scrape(&app).await;
    let show_sample = |family: &str| {
        sample(&after, &format!("encore_{family}{{event_id=\"{event}\"}}"))
            .unwrap_or_else(|| panic!("no {family} for the show:\n{after}"))
    };
    assert!(parts(&after) > parts(&before), "parts were produced");
    assert_eq!(show_sample("show_listeners"), 1.0);
    assert_eq!(show_sample("show_listening_sessions"), 1.0);
    assert!(show_sample("show_ingest_kbps") > 0.0);
    assert_eq!(sample(&after, "encore_stream_parked_reloads"), Some(1.0));
    assert_eq!(sample(&after, "encore_websocket_clients"), Some(1.0));
    assert!(trips(&after) > trips(&before), "the bus used Redis");
    parked.abort();
}

/// `encore serve` as an operator runs it: the real binary, only `ENCORE_` variables.
fn encore_serve(data: &std::path::Path, env: &[(&str, &str)]) -> std::process::Command {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_encore"));
    command.arg("serve");
    command.env_clear();
    command.env("PATH", std::env::var("PATH").unwrap_or_default());
    command.env("ENCORE_DATA_DIR", data);
    command.env("ENCORE_WEB_DIR", data.join("no-web"));
    for (name, value) in env {
        command.env(name, value);
    }
    command
}

#[tokio::test]
async fn with_redis_and_no_shared_secrets_serve_refuses_to_start_naming_the_variables() {
    let data = tempfile::tempdir().unwrap();
    let output = encore_serve(
        data.path(),
        &[
            ("ENCORE_REDIS_URL", &crate::helpers::redis_url()),
            ("ENCORE_BIND", "127.0.0.1:0"),
            ("ENCORE_INGEST_BIND", ""),
        ],
    )
    .output()
    .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("set ENCORE_JWT_SECRET and ENCORE_DATA_KEY"),
        "{stderr}"
    );
    assert!(
        !data.path().join("jwt-secret").exists(),
        "no secret of its own is made"
    );
}

/// An `authorize` with `password` for fan@example.com on `app`, from 127.0.0.`octet`,
/// redirecting to the instances' shared public URL (`first`'s).
async fn authorize_from(first: &TestApp, app: &TestApp, octet: u8, password: &str) -> StatusCode {
    let (_, challenge) = pkce();
    app.oauth_from(
        &app.client_from(octet),
        "authorize",
        first.authorize_body("fan@example.com", password, &challenge),
        None,
    )
    .await
    .status
}

#[tokio::test]
async fn wrong_passwords_spread_over_two_instances_lock_the_account_as_on_one() {
    let (a, b) = two_instances_with(Options {
        account_failures_per_hour: 4,
        ..Options::default()
    })
    .await;
    a.account("fan@example.com", Role::User).await;
    for (i, app) in [&a, &b, &a, &b].into_iter().enumerate() {
        let status = authorize_from(&a, app, 10 + i as u8, "not my password").await;
        assert!(
            status != StatusCode::OK && status != StatusCode::TOO_MANY_REQUESTS,
            "{status}"
        );
    }
    // Two failures on each, four together: the account's ceiling holds on both.
    for app in [&a, &b] {
        assert_eq!(
            authorize_from(&a, app, 20, PASSWORD).await,
            StatusCode::TOO_MANY_REQUESTS
        );
    }
}

#[tokio::test]
async fn an_addresss_sign_in_quota_is_one_across_instances() {
    let (a, b) = two_instances_with(Options {
        auth_rate_per_minute: 3,
        ..Options::default()
    })
    .await;
    a.account("fan@example.com", Role::User).await;
    for app in [&a, &b, &a] {
        assert_eq!(authorize_from(&a, app, 7, PASSWORD).await, StatusCode::OK);
    }
    assert_eq!(
        authorize_from(&a, &b, 7, PASSWORD).await,
        StatusCode::TOO_MANY_REQUESTS
    );
    assert_eq!(
        authorize_from(&a, &b, 8, PASSWORD).await,
        StatusCode::OK,
        "another address has its own"
    );
}

#[tokio::test]
async fn sms_caps_count_the_sends_of_every_instance() {
    use encore::messaging::countries::AllowList;
    use encore::messaging::sms::SmsGate;
    let prefix = redis_prefix();
    let gate = || async {
        let bus = encore::bus::Bus::redis(&crate::helpers::redis_url(), prefix)
            .await
            .unwrap();
        SmsGate::new(
            AllowList::parse("").unwrap(),
            4,
            encore::cluster::shared::Shared::new(&bus),
        )
    };
    let (a, b) = (gate().await, gate().await);
    // Three an hour per number, whichever instance sends.
    assert!(a.permit("+447700900001").await.is_ok());
    assert!(b.permit("+447700900001").await.is_ok());
    assert!(a.permit("+447700900001").await.is_ok());
    assert!(b.permit("+447700900001").await.is_err());
    // Four an hour for the whole server: one more on A, then none on B.
    assert!(a.permit("+447700900002").await.is_ok());
    assert!(b.permit("+447700900003").await.is_err());
}

#[tokio::test]
async fn a_housekeeping_window_has_one_taker_among_instances() {
    let prefix = redis_prefix();
    let url = crate::helpers::redis_url();
    let bus = || encore::bus::Bus::redis(&url, prefix);
    let (a, b) = (bus().await.unwrap(), bus().await.unwrap());
    let period = Duration::from_secs(30);
    let take = |bus, at| encore::cluster::lease::take_window(bus, "job", period, at);
    let window = 1_000 * 30_000;
    assert!(
        take(&a, window + 5).await,
        "the first instance of a window takes it"
    );
    assert!(!take(&b, window + 10_000).await, "the other skips it");
    assert!(
        !take(&a, window + 29_999).await,
        "once per window, even for its taker"
    );
    assert!(
        take(&b, window + 30_000).await,
        "the next window is anyone's"
    );
    assert!(
        encore::cluster::lease::take_window(&encore::bus::Bus::in_process(), "job", period, window)
            .await,
        "one instance alone runs every tick"
    );
}

#[tokio::test]
async fn two_servers_run_the_cluster_wide_housekeeping_once_a_tick_between_them() {
    let (a, b) = two_instances_with(Options {
        housekeeping_seconds: 1,
        ..Options::default()
    })
    .await;
    tokio::time::sleep(Duration::from_millis(3_500)).await;
    let (ticks_a, shared_a) = a.state.housekeeping.counts();
    let (ticks_b, shared_b) = b.state.housekeeping.counts();
    // Each ticked every second (its own upkeep)…
    assert!(ticks_a >= 3 && ticks_b >= 3, "{ticks_a} {ticks_b}");
    // …but the shared jobs ran once per one-second window: at most the 5 windows the run
    // touched, where every tick would have been 8.
    let shared = shared_a + shared_b;
    assert!((3..=5).contains(&shared), "{shared_a} + {shared_b}");
    let text = scrape(&a).await;
    assert_eq!(
        sample(&text, "encore_housekeeping_shared_runs_total"),
        Some(a.state.housekeeping.counts().1 as f64)
    );
}

#[tokio::test]
async fn a_burst_of_sessions_opened_at_once_is_followed_without_reading_them_all_again() {
    let app = spawn_app().await;
    // Read once at start.
    assert_eq!(app.state.stream_access.reloads(), 1);
    let mut watcher = app.state.bus.subscribe(&encore::bus::Channel::Cache);
    // A popular show's start: a thousand sessions opened here at once, each told on the
    // cache channel, which the instance's own follower reads too.
    let burst = 1_000;
    for n in 0..burst {
        app.state
            .stream_access
            .open("event-1", &format!("ticket-{n}"), i64::MAX);
    }
    // Publishing is detached: once a subscriber of our own has read all thousand, each
    // was delivered, and the follower had them in its queue (or fell behind).
    for n in 0..burst {
        let received = tokio::time::timeout(Duration::from_secs(10), watcher.recv())
            .await
            .expect("within 10 s")
            .expect("the bus lives");
        assert!(
            matches!(received, encore::bus::Received::Message(_)),
            "message {n}: {received:?}"
        );
    }
    // A follower that fell behind reads every session again: a database read away (with
    // the queue of 256 it had, this failed here with 2 or more).
    tokio::time::sleep(Duration::from_millis(300)).await;
    let text = scrape(&app).await;
    assert_eq!(
        sample(&text, "encore_listening_session_reloads_total"),
        Some(1.0),
        "only the start's"
    );
}

/// `encore serve` in a process of its own on a free port; killed when dropped.
/// A real `encore serve` process (killed when dropped).
pub(crate) struct Process {
    pub(crate) child: std::process::Child,
    pub(crate) url: String,
}

/// Two real `encore serve` processes beside `app` (started with a Redis prefix): the same
/// database, Redis, secrets and public URL, each on a data directory of its own (kept as
/// long as the process).
pub(crate) async fn two_processes_beside(app: &TestApp) -> [(tempfile::TempDir, Process); 2] {
    two_processes_beside_with(app, &[]).await
}

/// [`two_processes_beside`] with `extra` variables (`ENCORE_PAYMENTS`, say).
pub(crate) async fn two_processes_beside_with(
    app: &TestApp,
    extra: &[(&str, &str)],
) -> [(tempfile::TempDir, Process); 2] {
    let redis = crate::helpers::redis_url();
    let mut env = vec![
        ("ENCORE_DATABASE_URL", app.database_url()),
        ("ENCORE_REDIS_URL", redis.as_str()),
        (
            "ENCORE_REDIS_PREFIX",
            app.redis_prefix().expect("an app with Redis"),
        ),
        ("ENCORE_JWT_SECRET", crate::helpers::JWT_SECRET),
        ("ENCORE_DATA_KEY", crate::helpers::DATA_KEY),
        ("ENCORE_PUBLIC_URL", app.url.as_str()),
    ];
    env.extend_from_slice(extra);
    let (one, two) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let p = Process::start(one.path(), &env).await;
    let q = Process::start(two.path(), &env).await;
    [(one, p), (two, q)]
}

#[tokio::test]
async fn a_sign_up_on_one_process_reaches_a_staff_socket_on_the_other_and_both_feeds() {
    use futures_util::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::Message;

    let a = spawn_app_on_redis(Options::default()).await;
    let (_, admin) = a.signed_in("staff@example.com", Role::Admin).await;
    let [(_one, p), (_two, q)] = two_processes_beside(&a).await;
    let (mut ws, _) =
        tokio_tungstenite::connect_async(format!("{}/api/v1/ws", q.url.replace("http", "ws")))
            .await
            .unwrap();
    ws.send(Message::text(
        serde_json::json!({ "type": "auth", "token": admin.access }).to_string(),
    ))
    .await
    .unwrap();
    // Followed once the socket says the staff channel is subscribed.
    let next = async |ws: &mut tokio_tungstenite::WebSocketStream<_>| -> serde_json::Value {
        loop {
            match tokio::time::timeout(Duration::from_secs(5), ws.next()).await {
                Ok(Some(Ok(Message::Text(text)))) => return serde_json::from_str(&text).unwrap(),
                Ok(Some(Ok(_))) => continue,
                other => panic!("no message: {other:?}"),
            }
        }
    };
    loop {
        let message = next(&mut ws).await;
        if message["type"] == "subscribed" && message["channel"] == "staff" {
            break;
        }
    }
    let signed_up = a
        .http
        .post(format!("{}/api/v1/accounts/signup", p.url))
        .json(&serde_json::json!({ "login": "joy@example.com", "password": PASSWORD }))
        .send()
        .await
        .unwrap();
    assert_eq!(signed_up.status(), StatusCode::CREATED);
    let heard = loop {
        let message = next(&mut ws).await;
        if message["type"] == "activity" {
            break message;
        }
    };
    assert_eq!(heard["channel"], "staff");
    assert_eq!(heard["activity"]["kind"], "signup");
    assert_eq!(heard["activity"]["accountName"], "joy@example.com");
    // One row for all staff: each process's feed reads the same line.
    for url in [&p.url, &q.url] {
        let live = a
            .json_at(&format!("{url}/api/v1/live"), &admin.access)
            .await;
        assert_eq!(
            live["payload"]["recentActivity"][0]["id"],
            heard["activity"]["id"]
        );
    }
    assert_eq!(
        a.count(
            "SELECT COUNT(*) FROM staff_activity WHERE kind = $1",
            "signup"
        )
        .await,
        1
    );
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Process {
    /// Start it on `data` with `env` (`ENCORE_` variables), on a free port, without the
    /// Icecast port; answers once it is ready.
    pub(crate) async fn start(data: &std::path::Path, env: &[(&str, &str)]) -> Self {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let bind = format!("127.0.0.1:{port}");
        let mut all = vec![("ENCORE_BIND", bind.as_str()), ("ENCORE_INGEST_BIND", "")];
        all.extend_from_slice(env);
        let child = encore_serve(data, &all)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let process = Self {
            child,
            url: format!("http://{bind}"),
        };
        let http = http_client();
        for _ in 0..200 {
            let ready = http
                .get(format!("{}/api/v1/health/ready", process.url))
                .send()
                .await;
            if ready.is_ok_and(|r| r.status() == StatusCode::OK) {
                return process;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("encore serve did not become ready");
    }

    /// Sign in with the password grant's code flow: the access token.
    async fn sign_in(&self, email: &str) -> String {
        let http = http_client();
        let (verifier, challenge) = pkce();
        let redirect = format!("{}/auth/callback", self.url);
        let oauth = |endpoint: &str, body: serde_json::Value| {
            http.post(format!("{}/api/v1/oauth2/{endpoint}", self.url))
                .header("authorization", crate::helpers::basic_web())
                .json(&body)
                .send()
        };
        let code: serde_json::Value = oauth(
            "authorize",
            serde_json::json!({
                "email": email, "password": PASSWORD, "response_type": "code",
                "redirect_uri": redirect, "code_challenge": challenge,
                "code_challenge_method": "S256", "client_id": crate::helpers::WEB,
                "state": "s",
            }),
        )
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
        let tokens: serde_json::Value = oauth(
            "token",
            serde_json::json!({
                "grant_type": "authorization_code", "code": code["payload"]["code"],
                "redirect_uri": redirect, "code_verifier": verifier,
                "client_id": crate::helpers::WEB,
            }),
        )
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
        tokens["payload"]["access_token"]
            .as_str()
            .unwrap_or_else(|| panic!("{code} {tokens}"))
            .to_owned()
    }
}

#[tokio::test]
async fn sigterm_drains_not_ready_then_closed_requests_finish_sockets_told_and_exits_in_time() {
    use futures_util::{SinkExt, StreamExt};
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio_tungstenite::tungstenite::Message;

    let data = tempfile::tempdir().unwrap();
    let created = std::process::Command::new(env!("CARGO_BIN_EXE_encore"))
        .args([
            "admin",
            "create",
            "--email",
            "admin@example.com",
            "--role",
            "admin",
        ])
        .args(["--password", PASSWORD])
        .arg("--data-dir")
        .arg(data.path())
        .output()
        .unwrap();
    assert!(created.status.success(), "{created:?}");
    let mut server = Process::start(data.path(), &[("ENCORE_DRAIN_SECONDS", "2")]).await;
    let access = server.sign_in("admin@example.com").await;
    let (mut ws, _) =
        tokio_tungstenite::connect_async(format!("{}/api/v1/ws", server.url.replace("http", "ws")))
            .await
            .unwrap();
    ws.send(Message::text(
        serde_json::json!({"type": "auth", "token": access}).to_string(),
    ))
    .await
    .unwrap();
    // A request in flight: its head and half its body sent.
    let body = br#"{"email": "x@example.com", "password": "short", "client_id": "encore-web"}"#;
    let address = server.url.trim_start_matches("http://").to_owned();
    let mut in_flight = tokio::net::TcpStream::connect(&address).await.unwrap();
    let head = format!(
        "POST /api/v1/oauth2/register HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n",
        body.len()
    );
    in_flight.write_all(head.as_bytes()).await.unwrap();
    in_flight.write_all(&body[..20]).await.unwrap();

    let signalled = std::time::Instant::now();
    let kill = std::process::Command::new("kill")
        .args(["-TERM", &server.child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    // Not ready at once, still answering during the drain delay.
    let http = http_client();
    let mut draining = false;
    for _ in 0..20 {
        let answer = http
            .get(format!("{}/api/v1/health/ready", server.url))
            .send()
            .await
            .unwrap();
        if answer.status() == StatusCode::SERVICE_UNAVAILABLE {
            let body: serde_json::Value = answer.json().await.unwrap();
            assert_eq!(body["error"], "This instance is not ready: draining.");
            draining = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(draining, "readiness went false");
    // The socket is told to reconnect elsewhere when the listener closes.
    let close = loop {
        match tokio::time::timeout(Duration::from_secs(5), ws.next()).await {
            Ok(Some(Ok(Message::Close(frame)))) => break frame.expect("a close frame"),
            Ok(Some(Ok(_))) => continue,
            other => panic!("no close frame: {other:?}"),
        }
    };
    assert_eq!(u16::from(close.code), 1001);
    assert!(
        signalled.elapsed() >= Duration::from_secs(2),
        "after the delay"
    );
    // New connections are refused now…
    assert!(
        tokio::net::TcpStream::connect(&address).await.is_err(),
        "the listener is closed"
    );
    // …but the request in flight is answered in full.
    in_flight.write_all(&body[20..]).await.unwrap();
    let mut answer = String::new();
    in_flight.read_to_string(&mut answer).await.unwrap();
    assert!(answer.starts_with("HTTP/1.1 4"), "{answer}");
    assert!(answer.contains("\"success\":false"), "{answer}");
    // And the process is gone within ten seconds of the signal, cleanly.
    let status = loop {
        if let Some(status) = server.child.try_wait().unwrap() {
            break status;
        }
        assert!(
            signalled.elapsed() < Duration::from_secs(10),
            "still running"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert!(status.success(), "{status:?}");
}

#[tokio::test]
async fn while_redis_is_down_each_instance_still_limits_sign_in_on_its_own() {
    let mut redis = OwnRedis::start();
    let a = spawn_app_on_redis(Options {
        redis_url: Some(redis.url()),
        auth_rate_per_minute: 2,
        ..Options::default()
    })
    .await;
    a.account("fan@example.com", Role::User).await;
    redis.stop();
    for _ in 0..2 {
        assert_eq!(authorize_from(&a, &a, 9, PASSWORD).await, StatusCode::OK);
    }
    assert_eq!(
        authorize_from(&a, &a, 9, PASSWORD).await,
        StatusCode::TOO_MANY_REQUESTS,
        "counted in memory meanwhile, neither refused nor unlimited"
    );
}

/// Instances starting at once on a new database take turns migrating it: each starts, and
/// every migration is applied once. On PostgreSQL the turn is per schema, so this one's
/// does not wait for the other tests' schemas of `encore_test`.
#[tokio::test]
async fn instances_starting_at_once_apply_each_migration_once() {
    let dir = tempfile::tempdir().unwrap();
    let url = crate::helpers::test_database_url(dir.path()).await;
    let (a, b, c) = tokio::join!(
        encore::db::connect(&url),
        encore::db::connect(&url),
        encore::db::connect(&url)
    );
    let (a, _b, _c) = (a.unwrap(), b.unwrap(), c.unwrap());
    let (applied, versions): (i64, i64) =
        sqlx::query_as("SELECT COUNT(*), COUNT(DISTINCT version) FROM _sqlx_migrations")
            .fetch_one(&a)
            .await
            .unwrap();
    let files = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/migrations"))
        .unwrap()
        .filter(|entry| {
            entry
                .as_ref()
                .is_ok_and(|e| e.path().extension().is_some_and(|x| x == "sql"))
        })
        .count();
    assert_eq!((applied, versions), (files as i64, files as i64));
}
