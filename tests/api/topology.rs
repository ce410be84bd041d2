//! Several instances as they run in production (issue 14), without containers: two
//! `encore serve` processes (the debug binary), nginx in front with `deploy/nginx.conf`
//! (only its addresses changed), a fresh PostgreSQL database and a Redis key prefix of
//! the test's own. Encoders are real (ffmpeg, `encore push`), instances are killed for real.
//!
//! PostgreSQL only: two processes cannot share one SQLite database file (each would take
//! its own write lock, and SQLite is not what several machines share). On SQLite these
//! tests return at once; `make test` runs them in its PostgreSQL pass.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use encore::accounts::model::AccountRow;
use reqwest::StatusCode;
use serde_json::json;
use sqlx::Connection;

use crate::helpers::*;
use crate::live::{a_concert_to_push, adts_file};

const JWT_SECRET: &str = "test-secret-test-secret-test-secret-42";
const DATA_KEY: &str = "test-data-key-test-data-key-test-data-key";

pub(crate) fn on_postgres() -> Option<String> {
    (std::env::var("ENCORE_TEST_DB").as_deref() == Ok("postgres")).then(|| {
        std::env::var("ENCORE_TEST_POSTGRES_URL")
            .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432".to_owned())
    })
}

/// A PostgreSQL database of the test's own, dropped with it.
pub(crate) struct Database {
    base: String,
    name: String,
}

impl Database {
    async fn create(base: &str) -> Self {
        let name = format!("encore_topology_{}", uuid::Uuid::new_v4().simple());
        let mut conn = sqlx::PgConnection::connect(&format!("{base}/postgres"))
            .await
            .expect("PostgreSQL (make test starts it)");
        sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
            .execute(&mut conn)
            .await
            .expect("create database");
        Self {
            base: base.to_owned(),
            name,
        }
    }

    fn url(&self) -> String {
        format!("{}/{}", self.base, self.name)
    }
}

impl Drop for Database {
    fn drop(&mut self) {
        let (base, name) = (self.base.clone(), self.name.clone());
        // Drop runs inside the test's runtime: a thread of its own may block.
        let _ = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            runtime.block_on(async {
                if let Ok(mut conn) = sqlx::PgConnection::connect(&format!("{base}/postgres")).await
                {
                    let drop = format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)");
                    let _ = sqlx::query(sqlx::AssertSqlSafe(drop))
                        .execute(&mut conn)
                        .await;
                }
            });
        })
        .join();
    }
}

/// One `encore serve` process: HTTP and Icecast ports, its own data directory; killed
/// when dropped.
pub(crate) struct Instance {
    pub(crate) name: &'static str,
    child: Option<Child>,
    pub(crate) http_port: u16,
    pub(crate) ingest_port: u16,
    data: tempfile::TempDir,
    /// What it was started with, to start it again.
    env: Vec<(String, String)>,
}

impl Instance {
    pub(crate) fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.http_port)
    }

    /// `path` (a playlist's or a route's) on this instance.
    pub(crate) fn at(&self, path: &str) -> String {
        format!("{}{path}", self.url())
    }

    fn log(&self) -> PathBuf {
        self.data.path().join("encore.log")
    }

    fn spawn(name: &'static str, env: &[(&str, String)]) -> Self {
        let mut instance = Self {
            name,
            child: None,
            http_port: lasting_port(),
            ingest_port: lasting_port(),
            data: tempfile::tempdir().unwrap(),
            env: env
                .iter()
                .map(|(k, v)| ((*k).to_owned(), v.clone()))
                .collect(),
        };
        instance.start();
        instance
    }

    /// Start the process: on the instance's ports and data directory, its log appended.
    fn start(&mut self) {
        assert!(self.child.is_none(), "{} is running", self.name);
        let data = self.data.path();
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(self.log())
            .unwrap();
        let mut command = Command::new(env!("CARGO_BIN_EXE_encore"));
        command
            .arg("serve")
            .env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("RUST_LOG", "encore=info")
            .env("ENCORE_DATA_DIR", data)
            .env("ENCORE_WEB_DIR", data.join("no-web"))
            .env("ENCORE_BIND", format!("127.0.0.1:{}", self.http_port))
            .env(
                "ENCORE_INGEST_BIND",
                format!("127.0.0.1:{}", self.ingest_port),
            )
            .env("ENCORE_JWT_SECRET", JWT_SECRET)
            .env("ENCORE_DATA_KEY", DATA_KEY)
            .env("ENCORE_PAYMENTS", "test")
            .env("ENCORE_METRICS_TOKEN", METRICS_TOKEN)
            .env("ENCORE_TRUST_FORWARDED_FOR", "true");
        for (key, value) in &self.env {
            command.env(key, value);
        }
        self.child = Some(
            command
                .stdout(log.try_clone().unwrap())
                .stderr(log)
                .spawn()
                .unwrap(),
        );
    }

    /// Start it again after [`Instance::kill`] or an exit: same ports, same data
    /// directory (what it recorded is there), same configuration; ready when it answers.
    pub(crate) async fn start_again(&mut self) {
        self.start();
        self.ready().await;
    }

    pub(crate) async fn ready(&self) {
        let http = http_client();
        for _ in 0..300 {
            let ready = http
                .get(format!("{}/api/v1/health/ready", self.url()))
                .send()
                .await;
            if ready.is_ok_and(|r| r.status() == StatusCode::OK) {
                return;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!(
            "instance {} did not become ready:\n{}",
            self.name,
            std::fs::read_to_string(self.log()).unwrap_or_default()
        );
    }

    /// `kill -9`: no drain, no lease let go, nothing written.
    pub(crate) fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            child.kill().unwrap();
            child.wait().unwrap();
        }
    }

    /// `kill -TERM`: the instance drains.
    pub(crate) fn terminate(&self) {
        self.signal("-TERM");
    }

    /// `kill -STOP`: the process stands still (reads nothing, answers nothing) until
    /// [`Instance::resume`].
    pub(crate) fn pause(&self) {
        self.signal("-STOP");
    }

    /// `kill -CONT` after [`Instance::pause`].
    pub(crate) fn resume(&self) {
        self.signal("-CONT");
    }

    fn signal(&self, signal: &str) {
        let pid = self.child.as_ref().expect("running").id();
        let sent = Command::new("kill")
            .args([signal, &pid.to_string()])
            .status()
            .unwrap();
        assert!(sent.success(), "kill {signal} {}", self.name);
    }

    /// Wait for the process to exit: how long it took from `since`, and whether cleanly.
    pub(crate) async fn exited(&mut self, since: Instant, within: Duration) -> (Duration, bool) {
        let child = self.child.as_mut().expect("running");
        loop {
            if let Some(status) = child.try_wait().unwrap() {
                self.child = None;
                return (since.elapsed(), status.success());
            }
            assert!(since.elapsed() < within, "{} still running", self.name);
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// The encoder's bitrate into this instance, from its metrics (0 when the show is
    /// published elsewhere).
    pub(crate) async fn ingest_kbps(&self, event: &str) -> f64 {
        let Ok(answer) = http_client()
            .get(format!("{}/metrics", self.url()))
            .bearer_auth(METRICS_TOKEN)
            .send()
            .await
        else {
            return 0.0;
        };
        let text = answer.text().await.unwrap_or_default();
        let series = format!("encore_show_ingest_kbps{{event_id=\"{event}\"}} ");
        text.lines()
            .find_map(|line| line.strip_prefix(&series))
            .and_then(|v| v.parse().ok())
            .unwrap_or(0.0)
    }
}

impl Drop for Instance {
    fn drop(&mut self) {
        self.kill();
        if std::thread::panicking() {
            let log = std::fs::read_to_string(self.log()).unwrap_or_default();
            let tail: Vec<&str> = log.lines().rev().take(40).collect();
            eprintln!("--- instance {} log (last lines) ---", self.name);
            for line in tail.iter().rev() {
                eprintln!("{line}");
            }
        }
    }
}

/// nginx with `deploy/nginx.conf`, its upstreams and ports pointed at the test's; stopped
/// (master and workers) when dropped.
pub(crate) struct Nginx {
    child: Option<Child>,
    http_port: u16,
    /// Where it forwards encoders (its `stream {}` block) to the instances' Icecast ports.
    pub(crate) ingest_port: u16,
    _dir: tempfile::TempDir,
}

/// Where Debian keeps nginx's stream (TCP proxy) module (package libnginx-mod-stream).
const STREAM_MODULE: &str = "/usr/lib/nginx/modules/ngx_stream_module.so";

impl Nginx {
    async fn start(a: &Instance, b: &Instance, http_port: u16) -> Self {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let ingest_port = lasting_port();
        let deployed = std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("deploy/nginx.conf"),
        )
        .unwrap();
        let mut config = String::new();
        if Path::new(STREAM_MODULE).exists() {
            config.push_str(&format!("load_module {STREAM_MODULE};\n"));
        }
        // The workers (user nobody when started as root) write their temporary files here.
        for temp in ["body", "proxy", "fastcgi", "uwsgi", "scgi"] {
            let path = dir.path().join(temp);
            std::fs::create_dir(&path).unwrap();
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o777)).unwrap();
        }
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        let temps = format!(
            "http {{\n    access_log off;\n    client_body_temp_path {0}/body;\n    \
             proxy_temp_path {0}/proxy;\n    fastcgi_temp_path {0}/fastcgi;\n    \
             uwsgi_temp_path {0}/uwsgi;\n    scgi_temp_path {0}/scgi;\n",
            dir.path().display()
        );
        let replaced = deployed
            .replace("encore-a:8080", &format!("127.0.0.1:{}", a.http_port))
            .replace("encore-b:8080", &format!("127.0.0.1:{}", b.http_port))
            .replace("encore-a:8000", &format!("127.0.0.1:{}", a.ingest_port))
            .replace("encore-b:8000", &format!("127.0.0.1:{}", b.ingest_port))
            .replace("listen 80;", &format!("listen 127.0.0.1:{http_port};"))
            .replace("listen 8000;", &format!("listen 127.0.0.1:{ingest_port};"))
            .replacen("http {\n", &temps, 1);
        assert!(!replaced.contains("encore-a") && !replaced.contains("encore-b"));
        config.push_str(&replaced);
        let file = dir.path().join("nginx.conf");
        std::fs::write(&file, config).unwrap();
        let child = Command::new("nginx")
            .arg("-p")
            .arg(dir.path())
            .arg("-e")
            .arg(dir.path().join("error.log"))
            .arg("-c")
            .arg(&file)
            .arg("-g")
            .arg(format!(
                "daemon off; pid {};",
                dir.path().join("nginx.pid").display()
            ))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("nginx (make system-deps installs it)");
        let nginx = Self {
            child: Some(child),
            http_port,
            ingest_port,
            _dir: dir,
        };
        for _ in 0..100 {
            if std::net::TcpStream::connect(("127.0.0.1", http_port)).is_ok() {
                return nginx;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!(
            "nginx did not start: {}",
            std::fs::read_to_string(nginx._dir.path().join("error.log")).unwrap_or_default()
        );
    }

    pub(crate) fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.http_port)
    }
}

impl Drop for Nginx {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            // TERM to the master: it stops its workers, then exits.
            let _ = Command::new("kill")
                .args(["-TERM", &child.id().to_string()])
                .status();
            for _ in 0..100 {
                if child.try_wait().ok().flatten().is_some() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(50));
            }
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// Two instances behind nginx on one database and one Redis; `fixtures` is a server of
/// the test's own on the same database, used only to make rows (concerts, fans, tickets)
/// as the other tests do.
pub(crate) struct Cluster {
    pub(crate) a: Instance,
    pub(crate) b: Instance,
    pub(crate) nginx: Nginx,
    pub(crate) fixtures: TestApp,
    /// The instances' Redis key prefix.
    pub(crate) redis_prefix: &'static str,
    pub(crate) _database: Database,
}

impl Cluster {
    pub(crate) async fn start(base: &str, redis: &str, extra: &[(&str, String)]) -> Self {
        let database = Database::create(base).await;
        let lb_port = lasting_port();
        let public: &'static str =
            Box::leak(format!("http://127.0.0.1:{lb_port}").into_boxed_str());
        // The fixtures' server migrates the database first, and signs the same tokens.
        let fixtures = spawn_app_on(
            database.url(),
            Options {
                public_url: Some(public),
                ..Options::default()
            },
        )
        .await;
        let prefix = redis_prefix();
        let mut env = vec![
            ("ENCORE_DATABASE_URL", database.url()),
            ("ENCORE_PUBLIC_URL", public.to_owned()),
            ("ENCORE_REDIS_URL", redis.to_owned()),
            ("ENCORE_REDIS_PREFIX", prefix.to_owned()),
        ];
        env.extend(extra.iter().map(|(k, v)| (*k, v.clone())));
        let a = Instance::spawn("A", &env);
        let b = Instance::spawn("B", &env);
        a.ready().await;
        b.ready().await;
        // The load balancer listens where the public URL says.
        let nginx = Nginx::start(&a, &b, lb_port).await;
        Self {
            a,
            b,
            nginx,
            fixtures,
            redis_prefix: prefix,
            _database: database,
        }
    }

    /// An administrator's access token, minted straight in the store.
    pub(crate) async fn admin(&self) -> String {
        let admin = self
            .fixtures
            .account("admin@example.com", encore::accounts::model::Role::Admin)
            .await;
        self.fixtures.session(&admin).await
    }
}

pub(crate) async fn status_of(http: &reqwest::Client, url: &str) -> StatusCode {
    status_as(http, url, None).await
}

/// The status of a GET of `url`, with `token` as the bearer when there is one.
pub(crate) async fn status_as(
    http: &reqwest::Client,
    url: &str,
    token: Option<&str>,
) -> StatusCode {
    let mut request = http.get(url);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    request.send().await.unwrap().status()
}

pub(crate) async fn text_of(http: &reqwest::Client, url: &str) -> (StatusCode, String) {
    let answer = http.get(url).send().await.unwrap();
    (answer.status(), answer.text().await.unwrap())
}

/// Poll `url` until it answers `want`; how long that took (at most a second, as the bus
/// promises).
pub(crate) async fn answers_within_a_second(
    http: &reqwest::Client,
    url: &str,
    want: StatusCode,
) -> Duration {
    answers_as_within_a_second(http, url, None, want).await
}

/// Poll `url` with `token` as the bearer (when there is one) until it answers `want`; how
/// long that took (at most a second).
pub(crate) async fn answers_as_within_a_second(
    http: &reqwest::Client,
    url: &str,
    token: Option<&str>,
    want: StatusCode,
) -> Duration {
    let started = Instant::now();
    loop {
        let status = status_as(http, url, token).await;
        if status == want {
            return started.elapsed();
        }
        assert!(
            started.elapsed() < Duration::from_secs(1),
            "{url} still answers {status}, not {want}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// POST `{}` to `url` as `token`'s holder: the answer.
pub(crate) async fn post_as(http: &reqwest::Client, url: String, token: &str) -> reqwest::Response {
    http.post(url)
        .bearer_auth(token)
        .json(&json!({}))
        .send()
        .await
        .unwrap()
}

/// Open a listening session for `fan` on `server` (an instance or the load balancer): the
/// playlist's path.
pub(crate) async fn listen(http: &reqwest::Client, server: &str, event: &str, fan: &str) -> String {
    let answer = post_as(http, format!("{server}/api/v1/stream/{event}/session"), fan).await;
    assert_eq!(answer.status(), StatusCode::OK);
    let body: serde_json::Value = answer.json().await.unwrap();
    body["payload"]["playlistUrl"].as_str().unwrap().to_owned()
}

/// A concert starting in a minute, its stream key, and a fan with a ticket (their token).
pub(crate) async fn a_concert_with_a_ticket_holder(app: &TestApp) -> (String, String, String) {
    let (event, key) = a_concert_to_push(app, 60_000).await;
    let (_, fan) = app.fans(1).await.pop().unwrap();
    assert_eq!(app.buy(&fan, &event, CARD_OK).await.0, StatusCode::OK);
    (event, key, fan)
}

/// ffprobe reads the playlist at `url`: the codec of its audio (the same for each
/// stream ffprobe lists).
pub(crate) async fn probed_codec(url: String) -> String {
    tokio::task::spawn_blocking(move || {
        let probe = Command::new("ffprobe")
            .args(["-v", "error", "-show_entries", "stream=codec_name"])
            .args(["-of", "default=nw=1:nk=1", &url])
            .output()
            .expect("ffprobe");
        let text = String::from_utf8_lossy(&probe.stdout).trim().to_owned();
        let mut codecs: Vec<&str> = text.lines().collect();
        codecs.dedup();
        codecs.join(",")
    })
    .await
    .unwrap()
}

/// Poll `url` until its playlist has `segments` whole segments; its text.
pub(crate) async fn until_segments(http: &reqwest::Client, url: &str, segments: usize) -> String {
    let mut last = String::new();
    for _ in 0..200 {
        let (status, text) = text_of(http, url).await;
        if status == StatusCode::OK && text.matches("#EXTINF:").count() >= segments {
            return text;
        }
        last = format!("{status}\n{text}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("{url} never had {segments} segments:\n{last}");
}

#[tokio::test]
async fn two_processes_behind_nginx_serve_one_show_and_apply_access_rules_within_a_second() {
    let Some(base) = on_postgres() else { return };
    let cluster = Cluster::start(&base, &redis_url(), &[]).await;
    let (a, b) = (&cluster.a, &cluster.b);
    let (event, key, fan) = a_concert_with_a_ticket_holder(&cluster.fixtures).await;

    // ffmpeg pushes to instance A over the Icecast protocol, in real time.
    let encoder = Ffmpeg::icecast(a.ingest_port, &event, &key, 6);

    // The fan's session is opened through B, and plays there.
    let http = http_client();
    let playlist = listen(&http, &b.url(), &event, &fan).await;
    until_segments(&http, &format!("{}{playlist}", b.url()), 2).await;
    assert_eq!(
        probed_codec(format!("{}{playlist}", b.url())).await,
        "aac",
        "ffprobe reads AAC from B's playlist"
    );
    // A and B answer the same playlist (retried while a part lands between the two reads).
    let mut agreed = false;
    for _ in 0..100 {
        let (status_a, on_a) = text_of(&http, &format!("{}{playlist}", a.url())).await;
        let (status_b, on_b) = text_of(&http, &format!("{}{playlist}", b.url())).await;
        if status_a == StatusCode::OK && status_b == StatusCode::OK && on_a == on_b {
            assert!(on_a.contains("#EXT-X-PART:"), "{on_a}");
            agreed = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(agreed, "the playlists of A and B disagree");

    // A second session through A ends the first on B within a second.
    let second = listen(&http, &a.url(), &event, &fan).await;
    answers_within_a_second(
        &http,
        &format!("{}{playlist}", b.url()),
        StatusCode::FORBIDDEN,
    )
    .await;
    answers_within_a_second(&http, &format!("{}{second}", b.url()), StatusCode::OK).await;

    // A refund on A ends listening on B within a second.
    let admin = cluster.admin().await;
    let order: (String,) = sqlx::query_as("SELECT order_id FROM tickets WHERE event_id = $1")
        .bind(&event)
        .fetch_one(cluster.fixtures.db())
        .await
        .unwrap();
    let refund = http
        .post(format!("{}/api/v1/orders/{}/refund", a.url(), order.0))
        .bearer_auth(&admin)
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert!(refund.status().is_success(), "{}", refund.status());
    answers_within_a_second(
        &http,
        &format!("{}{second}", b.url()),
        StatusCode::FORBIDDEN,
    )
    .await;
    // …and through the load balancer too, whichever instance answers.
    assert_eq!(
        status_of(&http, &format!("{}{second}", cluster.nginx.url())).await,
        StatusCode::FORBIDDEN
    );

    encoder.finished().await;
}

/// `encore push` of a four-second file on a loop, its output in a log of its own; killed
/// when dropped (the file and the log with it).
pub(crate) struct Encoder {
    process: Child,
    log: PathBuf,
    _media: tempfile::TempDir,
}

impl Encoder {
    /// `event`'s encoder, pushing to `server` (an instance or the load balancer).
    pub(crate) fn start(event: &str, key: &str, server: &str) -> Self {
        let media = tempfile::tempdir().unwrap();
        let file = adts_file(media.path(), 4);
        let log = media.path().join("push.log");
        let output = std::fs::File::create(&log).unwrap();
        let process = Command::new(env!("CARGO_BIN_EXE_encore"))
            .arg("push")
            .arg(&file)
            .args(["--event", event, "--key", key, "--server", server])
            .args(["--repeat", "0"])
            .stdout(output.try_clone().unwrap())
            .stderr(output)
            .spawn()
            .unwrap();
        Self {
            process,
            log,
            _media: media,
        }
    }

    /// Kill it now (it reconnects no more).
    pub(crate) fn stop(&mut self) {
        let _ = self.process.kill();
        let _ = self.process.wait();
    }

    /// What it has said so far.
    pub(crate) fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }
}

impl Drop for Encoder {
    fn drop(&mut self) {
        self.stop();
    }
}

/// ffmpeg sending `seconds` of a 440 Hz tone as AAC, in real time, with its Icecast output
/// to `port` (an instance's or nginx's).
pub(crate) struct Ffmpeg(tokio::task::JoinHandle<std::process::Output>);

impl Ffmpeg {
    pub(crate) fn icecast(port: u16, event: &str, key: &str, seconds: u32) -> Self {
        let target = format!("icecast://source:{key}@127.0.0.1:{port}/live/{event}");
        let tone = format!("sine=frequency=440:sample_rate=48000:duration={seconds}");
        Self(tokio::task::spawn_blocking(move || {
            Command::new("ffmpeg")
                .args(["-hide_banner", "-loglevel", "error", "-re", "-f", "lavfi"])
                .args(["-i", &tone])
                .args(["-ac", "2", "-c:a", "aac", "-b:a", "128k"])
                .args(["-content_type", "audio/aac", "-f", "adts", &target])
                .output()
                .expect("ffmpeg")
        }))
    }

    /// Wait for it to end: it sent all of it without an error.
    pub(crate) async fn finished(self) {
        let output = self.0.await.unwrap();
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
}

/// Poll both instances' metrics until one publishes `event` (within 10 s): whether that
/// one is `a`. `encoder_log` is what the encoder said, for a failure.
pub(crate) async fn holder_is_a(
    a: &Instance,
    b: &Instance,
    event: &str,
    encoder_log: impl Fn() -> String,
) -> bool {
    let started = Instant::now();
    loop {
        if a.ingest_kbps(event).await > 0.0 {
            return true;
        }
        if b.ingest_kbps(event).await > 0.0 {
            return false;
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "no instance took the encoder through nginx: {}",
            encoder_log()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Two instances behind nginx and an [`Encoder`] through nginx to whichever instance nginx
/// picks: the one holding the encoder, and the other. Fields drop in order: the encoder
/// first, the database last.
pub(crate) struct Pushing {
    pub(crate) push: Encoder,
    pub(crate) holder: Instance,
    pub(crate) other: Instance,
    _nginx: Nginx,
    pub(crate) fixtures: TestApp,
    pub(crate) event: String,
    /// The ticket holder's access token.
    pub(crate) fan: String,
    _database: Database,
}

impl Pushing {
    pub(crate) async fn start(base: &str) -> Self {
        Self::start_with(base, &[]).await
    }

    /// The fan listening on the other instance (not the encoder's) once its playlist lists
    /// two segments: the client and the playlist's URL.
    pub(crate) async fn listening_on_the_other(&self) -> (reqwest::Client, String) {
        let http = http_client();
        let server = self.other.url();
        let url = format!(
            "{server}{}",
            listen(&http, &server, &self.event, &self.fan).await
        );
        until_segments(&http, &url, 2).await;
        (http, url)
    }

    /// [`Pushing::start`] with `extra` `ENCORE_` variables for both instances.
    pub(crate) async fn start_with(base: &str, extra: &[(&str, String)]) -> Self {
        let Cluster {
            a,
            b,
            nginx,
            fixtures,
            redis_prefix: _,
            _database,
        } = Cluster::start(base, &redis_url(), extra).await;
        let (event, key, fan) = a_concert_with_a_ticket_holder(&fixtures).await;
        let push = Encoder::start(&event, &key, &nginx.url());
        let (holder, other) = if holder_is_a(&a, &b, &event, || push.log()).await {
            (a, b)
        } else {
            (b, a)
        };
        Self {
            push,
            holder,
            other,
            _nginx: nginx,
            fixtures,
            event,
            fan,
            _database,
        }
    }
}

/// A show being recorded on A, as most tests of a cluster begin: on `cluster`, a concert
/// starting in a minute, its ticket holders and an [`Encoder`] straight to A. Fields drop
/// in order: the encoder first, the cluster last.
pub(crate) struct Show {
    _push: Encoder,
    pub(crate) event: String,
    /// The ticket holders' accounts and access tokens.
    pub(crate) fans: Vec<(AccountRow, String)>,
    pub(crate) http: reqwest::Client,
    pub(crate) cluster: Cluster,
}

impl Show {
    /// `fans` fans buy a ticket, then the encoder starts pushing to A.
    pub(crate) async fn pushed_to_a(cluster: Cluster, fans: usize) -> Self {
        let fixtures = &cluster.fixtures;
        let (event, key) = a_concert_to_push(fixtures, 60_000).await;
        let fans = fixtures.fans(fans).await;
        for (_, token) in &fans {
            assert_eq!(fixtures.buy(token, &event, CARD_OK).await.0, StatusCode::OK);
        }
        let push = Encoder::start(&event, &key, &cluster.a.url());
        Self {
            _push: push,
            event,
            fans,
            http: http_client(),
            cluster,
        }
    }

    /// The `i`th ticket holder's access token (from 0, in the order they were made).
    pub(crate) fn fan(&self, i: usize) -> &str {
        &self.fans[i].1
    }

    /// Open a listening session for `fan` on `instance`: the playlist's path, the same on
    /// any instance ([`Instance::at`]).
    pub(crate) async fn listen(&self, instance: &Instance, fan: &str) -> String {
        listen(&self.http, &instance.url(), &self.event, fan).await
    }
}

/// The playlist's whole segments as a player places them on the wall clock: (start in ms
/// since the epoch, duration in s), from the `EXT-X-PROGRAM-DATE-TIME` anchors (the first
/// segment's and each discontinuity's) and the `EXTINF` durations.
pub(crate) fn timeline(playlist: &str) -> Vec<(f64, f64)> {
    let mut segments = Vec::new();
    let mut next = None::<f64>;
    for line in playlist.lines() {
        if let Some(date) = line.strip_prefix("#EXT-X-PROGRAM-DATE-TIME:") {
            let at =
                time::OffsetDateTime::parse(date, &time::format_description::well_known::Rfc3339)
                    .unwrap();
            next = Some((at.unix_timestamp_nanos() / 1_000_000) as f64);
        } else if let Some(duration) = line.strip_prefix("#EXTINF:") {
            let duration: f64 = duration.trim_end_matches(',').parse().unwrap();
            let start = next.expect("a date before the first segment");
            segments.push((start, duration));
            next = Some(start + duration * 1000.0);
        }
    }
    segments
}

/// The silences between consecutive segments, in seconds (0 where one follows the other).
pub(crate) fn gaps(playlist: &str) -> Vec<f64> {
    timeline(playlist)
        .windows(2)
        .map(|w| (w[1].0 - (w[0].0 + w[0].1 * 1000.0)) / 1000.0)
        .collect()
}

#[test]
fn a_playlists_gaps_are_where_its_anchors_say() {
    let playlist = "#EXTM3U\n#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00Z\n#EXTINF:1.0,\ns0\n\
                    #EXTINF:1.0,\ns1\n#EXT-X-DISCONTINUITY\n\
                    #EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:05.5Z\n#EXTINF:1.0,\ns2\n";
    assert_eq!(gaps(playlist), vec![0.0, 3.5]);
}

#[tokio::test]
async fn killing_the_instance_holding_the_encoder_moves_the_show_to_the_other_with_no_longer_gap() {
    let Some(base) = on_postgres() else { return };
    let mut pushing = Pushing::start(&base).await;
    let (event, survivor) = (&pushing.event, &pushing.other);

    // A fan listens on the other instance, polling as a player does.
    let (http, url) = pushing.listening_on_the_other().await;
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let listener = {
        let (http, url, stop) = (http.clone(), url.clone(), stop.clone());
        tokio::spawn(async move {
            let mut refused = Vec::new();
            // The newest part of each poll, before the failover and after it (past the
            // discontinuity the survivor adds when the encoder comes back).
            let (mut heard_before, mut heard_after) = (HashSet::new(), HashSet::new());
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let (status, text) = text_of(&http, &url).await;
                if status != StatusCode::OK {
                    refused.push(status);
                } else if let Some(part) = text
                    .lines()
                    .filter(|l| l.starts_with("#EXT-X-PART:"))
                    .filter_map(|l| l.split("URI=\"").nth(1))
                    .next_back()
                {
                    let part = &part[..part.find('"').unwrap()];
                    let base = url.trim_end_matches("index.m3u8");
                    let status = status_of(&http, &format!("{base}{part}")).await;
                    let resumed = text
                        .split("#EXT-X-DISCONTINUITY")
                        .nth(1)
                        .is_some_and(|after| after.contains(part));
                    if status != StatusCode::OK {
                        refused.push(status);
                    } else if resumed {
                        heard_after.insert(part.to_owned());
                    } else {
                        heard_before.insert(part.to_owned());
                    }
                }
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
            (refused, heard_before.len(), heard_after.len())
        })
    };

    // kill -9 the encoder's instance.
    tokio::time::sleep(Duration::from_secs(1)).await;
    let killed = Instant::now();
    pushing.holder.kill();
    // The encoder reconnects through nginx to the survivor, which takes the show once
    // the dead instance's lease has expired: a discontinuity, then new parts.
    let outage = loop {
        let (status, text) = text_of(&http, &url).await;
        assert_eq!(status, StatusCode::OK);
        if let Some(after) = text.split("#EXT-X-DISCONTINUITY").nth(1)
            && after.contains("#EXT-X-PART:")
        {
            break killed.elapsed();
        }
        assert!(
            killed.elapsed() < Duration::from_secs(30),
            "the show did not resume on the survivor:\n{text}\n{}",
            pushing.push.log()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert!(
        survivor.ingest_kbps(event).await > 0.0 || {
            tokio::time::sleep(Duration::from_secs(1)).await;
            survivor.ingest_kbps(event).await > 0.0
        },
        "the encoder publishes to the survivor"
    );
    // Two more seconds of the show on the survivor.
    let before = timeline(&text_of(&http, &url).await.1).len();
    until_segments(&http, &url, before + 2).await;
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let (refused, heard_before, heard_after) = listener.await.unwrap();
    assert!(refused.is_empty(), "the listener was refused: {refused:?}");
    // New parts after the failover, not just a count of polls (fewer under load).
    assert!(
        heard_before >= 1 && heard_after >= 2,
        "the listener kept hearing new parts: {heard_before} before, {heard_after} after"
    );

    // The survivor's recording: one discontinuity, and no silence longer than the outage.
    let (_, text) = text_of(&http, &url).await;
    assert_eq!(text.matches("#EXT-X-DISCONTINUITY").count(), 1, "{text}");
    let gaps = gaps(&text);
    let longest = gaps.iter().copied().fold(0.0, f64::max);
    eprintln!(
        "failover: outage {:.2} s (kill to the survivor's first part), longest gap {longest:.2} s",
        outage.as_secs_f64()
    );
    assert!(
        longest <= outage.as_secs_f64(),
        "a {longest:.2} s gap, longer than the {:.2} s outage",
        outage.as_secs_f64()
    );
    let others = gaps.iter().filter(|g| g.abs() > 0.3).count();
    assert_eq!(others, 1, "only the failover leaves a gap: {gaps:?}");
    assert_eq!(probed_codec(url.clone()).await, "aac");
}

/// Poll until `instance` publishes the show (its metrics say so); how long that took.
pub(crate) async fn until_publishing(
    instance: &Instance,
    event: &str,
    within: Duration,
    push_log: impl Fn() -> String,
) -> Duration {
    let started = Instant::now();
    loop {
        if instance.ingest_kbps(event).await > 0.0 {
            return started.elapsed();
        }
        assert!(
            started.elapsed() < within,
            "{} does not publish the show; the encoder said:\n{}",
            instance.name,
            push_log()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test]
async fn sigterm_hands_the_show_and_its_encoder_to_the_other_instance_and_exits_in_time() {
    let Some(base) = on_postgres() else { return };
    let mut pushing = Pushing::start(&base).await;
    let (event, survivor) = (&pushing.event, &pushing.other);
    let (http, url) = pushing.listening_on_the_other().await;

    let signalled = Instant::now();
    pushing.holder.terminate();
    // The encoder is let go at once and its lease handed over after the journal's last
    // entry: it publishes to the survivor long before the lease could have expired.
    let moved = until_publishing(survivor, event, Duration::from_secs(8), || {
        pushing.push.log()
    })
    .await;
    assert!(
        moved < encore::stream::show::journal::LEASE_TTL / 2,
        "the encoder moved in {moved:?}: {}",
        pushing.push.log()
    );
    let (took, clean) = pushing
        .holder
        .exited(signalled, Duration::from_secs(10))
        .await;
    assert!(clean, "exited cleanly");
    eprintln!(
        "drain: encoder on the survivor after {:.2} s, process gone after {:.2} s",
        moved.as_secs_f64(),
        took.as_secs_f64()
    );
    let before = timeline(&text_of(&http, &url).await.1).len();
    let text = until_segments(&http, &url, before + 1).await;
    assert_eq!(text.matches("#EXT-X-DISCONTINUITY").count(), 1, "{text}");
    let longest = gaps(&text).into_iter().fold(0.0, f64::max);
    assert!(
        longest < moved.as_secs_f64() + 0.5,
        "a {longest:.2} s gap for a {moved:?} handover"
    );
}

#[tokio::test]
async fn a_redis_restart_mid_show_neither_stops_it_nor_grants_or_refuses_wrongly_after() {
    let Some(base) = on_postgres() else { return };
    let mut redis = OwnRedis::start();
    let show = Show::pushed_to_a(Cluster::start(&base, redis.url(), &[]).await, 1).await;
    let (a, b, http, fan) = (&show.cluster.a, &show.cluster.b, &show.http, show.fan(0));
    let first = show.listen(b, fan).await;
    until_segments(http, &b.at(&first), 2).await;

    redis.stop();
    // Each instance goes on serving what it has: A records, B answers its copy.
    let recorded = timeline(&text_of(http, &a.at(&first)).await.1).len();
    // A new session through A while the bus is down: B cannot hear of it yet.
    let second = show.listen(a, fan).await;
    for _ in 0..10 {
        assert_eq!(status_of(http, &a.at(&second)).await, StatusCode::OK);
        let (status, _) = text_of(http, &b.at(&first)).await;
        assert_ne!(status, StatusCode::INTERNAL_SERVER_ERROR);
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    until_segments(http, &a.at(&second), recorded + 2).await;

    redis.start_again();
    // Back: B catches up with A byte for byte, the superseded session is refused on B
    // and the new one granted there.
    let returned = Instant::now();
    let mut caught_up = false;
    while returned.elapsed() < Duration::from_secs(10) {
        let (status_a, text_a) = text_of(http, &a.at(&second)).await;
        let (status_b, text_b) = text_of(http, &b.at(&second)).await;
        if status_a == StatusCode::OK && status_b == StatusCode::OK && text_a == text_b {
            caught_up = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(caught_up, "B did not catch up with A after Redis returned");
    eprintln!(
        "redis restart: B caught up {:.2} s after Redis returned",
        returned.elapsed().as_secs_f64()
    );
    for url in [a.at(&first), b.at(&first)] {
        assert_eq!(status_of(http, &url).await, StatusCode::FORBIDDEN, "{url}");
    }
    let text = until_segments(http, &b.at(&second), recorded + 4).await;
    assert_eq!(text.matches("#EXT-X-DISCONTINUITY").count(), 0, "{text}");
    assert!(
        gaps(&text).iter().all(|g| g.abs() < 0.3),
        "no gap in the recording: {:?}",
        gaps(&text)
    );
}
