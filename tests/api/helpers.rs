//! `spawn_app()`: the real server on a free port with its own database — a new SQLite
//! file, or a new schema in the `encore_test` PostgreSQL database when
//! `ENCORE_TEST_DB=postgres` — and a client that speaks the envelope.

use std::time::Duration;

use clap::Parser;
use encore::accounts::model::{AccountRow, Password, PhoneNumber, Role};
use encore::accounts::store;
use encore::config::{Cli, Command, Config};
use encore::crypto::{pkce_challenge, random_token};
use encore::state::AppState;
use reqwest::StatusCode;
use serde_json::{Value, json};
use sqlx::Connection;

pub const WEB: &str = "encore-web";
pub const PASSWORD: &str = "a fine long passphrase";

pub struct TestApp {
    pub url: String,
    /// The Icecast source port, `host:port`.
    pub ingest: String,
    pub state: AppState,
    pub http: reqwest::Client,
    data: tempfile::TempDir,
    database_url: String,
    options: Options,
    server: tokio::task::JoinHandle<anyhow::Result<()>>,
    /// The hash of [`PASSWORD`], made once per server: argon2 is most of a test's setup.
    password_hash: tokio::sync::OnceCell<String>,
}

#[derive(Clone, Copy)]
pub struct Options {
    pub auth_rate_per_minute: u32,
    /// Configure Stripe with this webhook secret (its API base points nowhere unless
    /// `stripe_api` is set).
    pub stripe_webhook_secret: Option<&'static str>,
    /// Where Stripe's API is: a [`StripeDouble`].
    pub stripe_api: Option<&'static str>,
    /// `ENCORE_STRIPE_CONNECT` (with `stripe_webhook_secret`).
    pub stripe_connect: bool,
    /// `ENCORE_STRIPE_CONNECT_WEBHOOK_SECRET`.
    pub stripe_connect_webhook_secret: Option<&'static str>,
    /// Seconds of publisher silence before ingest disconnects it.
    pub ingest_idle_seconds: u64,
    /// No payment provider at all (the suite otherwise asks for the test checkout).
    pub payments_off: bool,
    /// Open checkouts allowed from one address (every test client is 127.0.0.1).
    pub holds_per_client: u32,
    /// Connections one address may hold open (0: no cap).
    pub connections_per_ip: u32,
    /// Seconds to send a whole request head.
    pub request_head_seconds: u64,
    /// WebSockets the server holds before their first message is accepted.
    pub unauthenticated_sockets: usize,
    /// `ENCORE_JOURNAL_MB` and `ENCORE_JOURNAL_QUEUE_MB` (unset: the defaults).
    pub journal_mb: Option<f64>,
    pub journal_queue_mb: Option<f64>,
    /// Minutes a show waits for its encoder (the server's default: 15).
    pub show_abandon_minutes: Option<f64>,
    /// The public URL people use (default: the test server's own address).
    pub public_url: Option<&'static str>,
    /// `Strict-Transport-Security` max-age (sent on an https public URL).
    pub hsts_seconds: u64,
    /// Disk a show's recording may take, in MB.
    pub recording_quota_mb: f64,
    /// `ENCORE_SMS_COUNTRIES`: the countries SMS may go to (unset: all).
    pub sms_countries: Option<&'static str>,
    /// `ENCORE_SMS_PER_HOUR`: SMS the whole server may send per hour.
    /// `ENCORE_PLATFORM_FEE_PERCENT` (unset: 0).
    pub platform_fee_percent: Option<&'static str>,
    pub sms_per_hour: Option<u32>,
    /// Wrong passwords an account takes per hour from unknown devices.
    pub account_failures_per_hour: u32,
    /// Run the bus through the test Redis under this key prefix (unset: in process).
    pub redis_prefix: Option<&'static str>,
    /// A Redis of the test's own (default: the suite's, [`redis_url`]).
    pub redis_url: Option<&'static str>,
    /// Seconds between housekeeping ticks.
    pub housekeeping_seconds: u64,
    /// `ENCORE_METRICS_TOKEN` (unset: `/metrics` is off).
    pub metrics_token: Option<&'static str>,
    /// `ENCORE_WEB_DIR` (unset: the default, `web/dist`, which may not be built).
    pub web_dir: Option<&'static str>,
}

/// The metrics token test servers have unless told otherwise.
pub const METRICS_TOKEN: &str = "a metrics token for the tests";

impl Default for Options {
    fn default() -> Self {
        Self {
            auth_rate_per_minute: 1000,
            stripe_webhook_secret: None,
            stripe_api: None,
            stripe_connect: false,
            stripe_connect_webhook_secret: None,
            ingest_idle_seconds: 10,
            payments_off: false,
            holds_per_client: 100_000,
            connections_per_ip: 0,
            request_head_seconds: 10,
            unauthenticated_sockets: 1024,
            journal_mb: None,
            journal_queue_mb: None,
            show_abandon_minutes: None,
            public_url: None,
            hsts_seconds: 0,
            recording_quota_mb: 3072.0,
            sms_countries: None,
            platform_fee_percent: None,
            sms_per_hour: None,
            account_failures_per_hour: 100,
            redis_prefix: None,
            redis_url: None,
            metrics_token: Some(METRICS_TOKEN),
            housekeeping_seconds: 30,
            web_dir: None,
        }
    }
}

pub async fn spawn_app() -> TestApp {
    spawn_app_with(Options::default()).await
}

pub async fn spawn_app_with(options: Options) -> TestApp {
    // Server errors (logged, never sent to clients) show up in a failing test's output.
    let _ = tracing_subscriber::fmt()
        .with_test_writer()
        .with_env_filter("encore=warn")
        .try_init();
    let data = tempfile::tempdir().expect("temp dir");
    let database_url = test_database_url(data.path()).await;
    start(data, database_url, options).await
}

/// A server on a database that exists already (`database_url`), with its own data
/// directory: e.g. to make a test's rows where other processes serve.
pub async fn spawn_app_on(database_url: String, options: Options) -> TestApp {
    let data = tempfile::tempdir().expect("temp dir");
    start(data, database_url, options).await
}

impl TestApp {
    /// The database every instance of this server shares.
    pub fn database_url(&self) -> &str {
        &self.database_url
    }

    /// The Redis prefix its instances share, when it has Redis.
    pub fn redis_prefix(&self) -> Option<&'static str> {
        self.options.redis_prefix
    }

    /// A second instance beside this one: its own data directory and ports, the same
    /// database (and the same Redis when `redis_prefix` is set), as behind a load balancer.
    /// They share the public URL too (the load balancer's): this one's.
    pub async fn beside(&self) -> TestApp {
        let data = tempfile::tempdir().expect("temp dir");
        let public_url: &'static str = Box::leak(self.url.clone().into_boxed_str());
        let options = Options {
            public_url: Some(self.options.public_url.unwrap_or(public_url)),
            ..self.options
        };
        start(data, self.database_url.clone(), options).await
    }

    /// Stop this server and start a new one (new ports) on the same data directory and
    /// database: what a restart of the process keeps, and what it loses.
    pub async fn restart(self) -> TestApp {
        let Self {
            data,
            database_url,
            options,
            server,
            state,
            ..
        } = self;
        server.abort();
        let _ = server.await;
        drop(state);
        start(data, database_url, options).await
    }
}

async fn start(data: tempfile::TempDir, database_url: String, options: Options) -> TestApp {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let url = format!("http://{}", listener.local_addr().expect("addr"));
    let ingest = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind ingest");
    let ingest_addr = ingest.local_addr().expect("addr").to_string();
    let mut args: Vec<String> = [
        "encore",
        "serve",
        "--data-dir",
        data.path().to_str().expect("utf-8 path"),
        "--database-url",
        &database_url,
        "--public-url",
        options.public_url.unwrap_or(&url),
        "--jwt-secret",
        JWT_SECRET,
        "--data-key",
        DATA_KEY,
        "--auth-rate-per-minute",
        &options.auth_rate_per_minute.to_string(),
        "--ingest-idle-seconds",
        &options.ingest_idle_seconds.to_string(),
        "--holds-per-client",
        &options.holds_per_client.to_string(),
        "--connections-per-ip",
        &options.connections_per_ip.to_string(),
        "--request-head-seconds",
        &options.request_head_seconds.to_string(),
        "--unauthenticated-sockets",
        &options.unauthenticated_sockets.to_string(),
        "--hsts-seconds",
        &options.hsts_seconds.to_string(),
        "--recording-quota-mb",
        &options.recording_quota_mb.to_string(),
        "--account-failures-per-hour",
        &options.account_failures_per_hour.to_string(),
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let payments = match (options.payments_off, options.stripe_webhook_secret) {
        (true, _) => "off",
        (false, Some(_)) => "stripe",
        (false, None) => "test",
    };
    args.extend(["--payments".to_owned(), payments.to_owned()]);
    if let Some(secret) = options.stripe_webhook_secret {
        args.extend(
            [
                "--stripe-secret-key",
                "sk_test_unused",
                "--stripe-webhook-secret",
                secret,
                "--stripe-api-base",
                options.stripe_api.unwrap_or("http://127.0.0.1:9"),
            ]
            .map(String::from),
        );
        if options.stripe_connect {
            args.push("--stripe-connect".to_owned());
        }
        if let Some(secret) = options.stripe_connect_webhook_secret {
            args.extend([
                "--stripe-connect-webhook-secret".to_owned(),
                secret.to_owned(),
            ]);
        }
    }
    if let Some(mb) = options.journal_mb {
        args.extend(["--journal-mb".to_owned(), mb.to_string()]);
    }
    if let Some(minutes) = options.show_abandon_minutes {
        args.extend(["--show-abandon-minutes".to_owned(), minutes.to_string()]);
    }
    if let Some(mb) = options.journal_queue_mb {
        args.extend(["--journal-queue-mb".to_owned(), mb.to_string()]);
    }
    if let Some(countries) = options.sms_countries {
        args.extend(["--sms-countries".to_owned(), countries.to_owned()]);
    }
    if let Some(prefix) = options.redis_prefix {
        args.extend([
            "--redis-url".to_owned(),
            options.redis_url.map_or_else(redis_url, str::to_owned),
            "--redis-prefix".to_owned(),
            prefix.to_owned(),
        ]);
    }
    args.extend([
        "--housekeeping-seconds".to_owned(),
        options.housekeeping_seconds.to_string(),
    ]);
    if let Some(token) = options.metrics_token {
        args.extend(["--metrics-token".to_owned(), token.to_owned()]);
    }
    if let Some(dir) = options.web_dir {
        args.extend(["--web-dir".to_owned(), dir.to_owned()]);
    }
    if let Some(percent) = options.platform_fee_percent {
        args.extend(["--platform-fee-percent".to_owned(), percent.to_owned()]);
    }
    if let Some(per_hour) = options.sms_per_hour {
        args.extend(["--sms-per-hour".to_owned(), per_hour.to_string()]);
    }
    let cli = Cli::try_parse_from(args).expect("arguments");
    let Command::Serve(args) = cli.command else {
        unreachable!()
    };
    let config = Config::from_args(*args).expect("config");
    let state = encore::startup::build(config).await.expect("state");
    let server = tokio::spawn(encore::startup::run(
        listener,
        Some(ingest),
        state.clone(),
        std::future::pending(),
    ));
    TestApp {
        url,
        ingest: ingest_addr,
        state,
        http: encore::net::outgoing::client()
            .timeout(Duration::from_secs(30))
            .build()
            .expect("client"),
        data,
        database_url,
        options,
        server,
        password_hash: tokio::sync::OnceCell::new(),
    }
}

/// A free port below the kernel's ephemeral range (32768–60999 here), for a server a test
/// stops and starts again or kills: while it is down, `bind(0)` must not hand its port to a
/// server of another test running beside it (nginx, or the restarted server, would then
/// reach that one).
pub fn lasting_port() -> u16 {
    use std::hash::{BuildHasher, Hasher};
    loop {
        let random = std::hash::RandomState::new().build_hasher().finish();
        let port = 20_000 + (random % 12_000) as u16;
        if std::net::TcpListener::bind(("127.0.0.1", port)).is_ok() {
            return port;
        }
    }
}

/// A Redis of one test's own, which it may stop and start again (its data kept in an
/// append-only file, as a production Redis keeps it).
pub struct OwnRedis {
    port: u16,
    dir: tempfile::TempDir,
    process: std::process::Child,
}

impl OwnRedis {
    pub fn start() -> Self {
        let port = lasting_port();
        let dir = tempfile::tempdir().unwrap();
        let process = Self::spawn(port, dir.path());
        Self { port, dir, process }
    }

    fn spawn(port: u16, dir: &std::path::Path) -> std::process::Child {
        let mut child = std::process::Command::new("redis-server")
            .args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
            .args([
                "--save",
                "",
                "--appendonly",
                "yes",
                "--appendfsync",
                "always",
            ])
            .arg("--dir")
            .arg(dir)
            .stdout(std::process::Stdio::null())
            .spawn()
            .expect("redis-server (make test installs it)");
        for _ in 0..100 {
            if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
                return child;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = child.kill();
        let _ = child.wait();
        panic!("redis-server did not start on {port}");
    }

    pub fn url(&self) -> &'static str {
        Box::leak(format!("redis://127.0.0.1:{}", self.port).into_boxed_str())
    }

    /// Stop it: every connection drops and nothing answers on its port.
    pub fn stop(&mut self) {
        let _ = self.process.kill();
        let _ = self.process.wait();
    }

    /// Start it again after [`OwnRedis::stop`], on the same port and data.
    pub fn start_again(&mut self) {
        self.process = Self::spawn(self.port, self.dir.path());
    }

    /// Start it again after [`OwnRedis::stop`] on the same port, its data gone (as a Redis
    /// without persistence comes back).
    pub fn start_again_empty(&mut self) {
        for entry in std::fs::read_dir(self.dir.path()).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                std::fs::remove_dir_all(path).unwrap();
            } else {
                std::fs::remove_file(path).unwrap();
            }
        }
        self.process = Self::spawn(self.port, self.dir.path());
    }

    /// Stop it (every connection drops) and start it again on the same port and data.
    pub fn restart(&mut self) {
        self.process.kill().unwrap();
        self.process.wait().unwrap();
        self.process = Self::spawn(self.port, self.dir.path());
    }
}

impl Drop for OwnRedis {
    fn drop(&mut self) {
        let _ = self.process.kill();
        let _ = self.process.wait();
    }
}

/// The Redis the suite uses (`scripts/ensure-services.sh` starts it).
pub fn redis_url() -> String {
    std::env::var("ENCORE_TEST_REDIS_URL").unwrap_or_else(|_| "redis://127.0.0.1:6379".to_owned())
}

/// The secrets every test server is started with (instances sharing Redis share them).
pub const JWT_SECRET: &str = "test-secret-test-secret-test-secret-42";
pub const DATA_KEY: &str = "test-data-key-test-data-key-test-data-key";

/// A key prefix no other test uses.
pub fn redis_prefix() -> &'static str {
    Box::leak(format!("encore-test:{}:", uuid::Uuid::new_v4().simple()).into_boxed_str())
}

pub async fn test_database_url(dir: &std::path::Path) -> String {
    match std::env::var("ENCORE_TEST_DB").as_deref() {
        Ok("postgres") => {
            let base = std::env::var("ENCORE_TEST_POSTGRES_URL")
                .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432".to_owned());
            let schema = format!("t_{}", uuid::Uuid::new_v4().simple());
            let mut conn = sqlx::PgConnection::connect(&format!("{base}/encore_test"))
                .await
                .expect("PostgreSQL test database encore_test (make test creates it)");
            sqlx::query(sqlx::AssertSqlSafe(format!("CREATE SCHEMA {schema}")))
                .execute(&mut conn)
                .await
                .expect("create schema");
            format!("{base}/encore_test?options=-c%20search_path%3D{schema}")
        }
        _ => format!("sqlite://{}?mode=rwc", dir.join("encore.db").display()),
    }
}

/// A PKCE pair: (verifier, challenge).
pub fn pkce() -> (String, String) {
    let verifier = random_token(32); // 43 characters
    let challenge = pkce_challenge(&verifier);
    (verifier, challenge)
}

pub fn basic_web() -> String {
    use base64::Engine;
    format!(
        "Basic {}",
        base64::engine::general_purpose::STANDARD.encode(format!("{WEB}:"))
    )
}

/// A whole answer: status, envelope and the cookies it sets (`name` → the whole
/// `Set-Cookie` value, attributes included).
#[derive(Debug)]
pub struct Answer {
    pub status: StatusCode,
    pub body: Value,
    pub set_cookies: Vec<String>,
}

impl Answer {
    pub async fn of(response: reqwest::Response) -> Self {
        let status = response.status();
        let set_cookies = response
            .headers()
            .get_all(reqwest::header::SET_COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok().map(str::to_owned))
            .collect();
        let body = response.json().await.unwrap_or(Value::Null);
        Self {
            status,
            body,
            set_cookies,
        }
    }

    /// The whole `Set-Cookie` header that sets `name`, if any.
    pub fn set_cookie(&self, name: &str) -> Option<&str> {
        let prefix = format!("{name}=");
        self.set_cookies
            .iter()
            .find(|c| c.starts_with(&prefix))
            .map(String::as_str)
    }

    /// The value `name` is set to (empty when it is cleared).
    pub fn cookie(&self, name: &str) -> Option<String> {
        let header = self.set_cookie(name)?;
        let value = header[name.len() + 1..]
            .split(';')
            .next()
            .unwrap_or_default();
        Some(value.to_owned())
    }

    /// The tokens of a sign-in or refresh: the access token from the body, the refresh
    /// token from the body (other clients) or the refresh cookie (the web client).
    pub fn tokens(&self) -> Tokens {
        let refresh = self.body["payload"]["refresh_token"]
            .as_str()
            .map(str::to_owned)
            .or_else(|| self.cookie("encore_refresh").filter(|v| !v.is_empty()))
            .expect("a refresh token, in the body or the cookie");
        Tokens {
            access: access_of(&self.body),
            refresh,
        }
    }

    /// Seconds to wait, from `Retry-After`-like 429 answers (`None` otherwise).
    pub fn retry_after(&self) -> Option<u64> {
        (self.status == StatusCode::TOO_MANY_REQUESTS)
            .then(|| self.body["retry_after"].as_u64())
            .flatten()
    }
}

/// Tokens of a signed-in test account.
#[derive(Debug, Clone)]
pub struct Tokens {
    pub access: String,
    pub refresh: String,
}

impl TestApp {
    pub fn redirect_uri(&self) -> String {
        format!("{}/auth/callback", self.url)
    }

    pub fn db(&self) -> &encore::db::Db {
        &self.state.db
    }

    pub async fn send(&self, request: reqwest::RequestBuilder) -> (StatusCode, Value) {
        let response = request.send().await.expect("request");
        let status = response.status();
        let body: Value = response.json().await.unwrap_or(Value::Null);
        (status, body)
    }

    pub async fn post(&self, path: &str, body: Value, token: Option<&str>) -> (StatusCode, Value) {
        let mut request = self.http.post(format!("{}{path}", self.url)).json(&body);
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        self.send(request).await
    }

    /// Run `sql`, a statement without arguments, straight on the test database.
    pub async fn execute(&self, sql: &'static str) {
        sqlx::query(sql).execute(self.db()).await.unwrap();
    }

    /// Set a concert's stored status straight in the database (as the hub and the artist
    /// do), whatever the rules of the API.
    pub async fn set_event_status(&self, event: &str, status: &str) {
        sqlx::query("UPDATE events SET status = $2 WHERE id = $1")
            .bind(event)
            .bind(status)
            .execute(self.db())
            .await
            .unwrap();
    }

    /// The concert moved by `token`'s holder (a manager), through the API, to start at
    /// `starts_at` (RFC 3339), everything else as it was.
    pub async fn move_concert(&self, token: &str, event: &str, starts_at: &str) {
        let (_, shown) = self.get(&format!("/api/v1/events/{event}"), None).await;
        let shown = &shown["payload"];
        let input = json!({
            "title": shown["title"], "artistName": shown["artistName"],
            "description": shown["description"], "startsAt": starts_at,
            "durationMinutes": shown["durationMinutes"], "price": shown["price"],
            "currency": shown["currency"], "capacity": shown["capacity"],
        });
        let (status, body) = self
            .put(&format!("/api/v1/events/{event}"), input, token)
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }

    pub async fn put(&self, path: &str, body: Value, token: &str) -> (StatusCode, Value) {
        self.send(
            self.http
                .put(format!("{}{path}", self.url))
                .json(&body)
                .bearer_auth(token),
        )
        .await
    }

    /// [`TestApp::put`] asked in `language` (an Accept-Language value).
    pub async fn put_in(
        &self,
        language: &str,
        path: &str,
        body: Value,
        token: &str,
    ) -> (StatusCode, Value) {
        self.send(
            self.http
                .put(format!("{}{path}", self.url))
                .header("Accept-Language", language)
                .json(&body)
                .bearer_auth(token),
        )
        .await
    }

    /// POST `bytes` as the multipart field `file` (an image upload).
    pub async fn upload(&self, path: &str, token: &str, bytes: Vec<u8>) -> (StatusCode, Value) {
        let part = reqwest::multipart::Part::bytes(bytes).file_name("upload");
        let response = self
            .http
            .post(format!("{}{path}", self.url))
            .bearer_auth(token)
            .multipart(reqwest::multipart::Form::new().part("file", part))
            .send()
            .await
            .unwrap();
        (response.status(), response.json().await.unwrap())
    }

    /// `GET path` answered 200 (asserted): the envelope's payload.
    pub async fn get_ok(&self, path: &str, token: Option<&str>) -> Value {
        let (status, body) = self.get(path, token).await;
        assert_eq!(status, StatusCode::OK, "GET {path}: {body}");
        body["payload"].clone()
    }

    pub async fn get(&self, path: &str, token: Option<&str>) -> (StatusCode, Value) {
        let mut request = self.http.get(format!("{}{path}", self.url));
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        self.send(request).await
    }

    pub async fn delete(&self, path: &str, token: &str) -> (StatusCode, Value) {
        self.send(
            self.http
                .delete(format!("{}{path}", self.url))
                .bearer_auth(token),
        )
        .await
    }

    /// A client that connects from another loopback address (`127.0.0.x`): another source.
    pub fn client_from(&self, last_octet: u8) -> reqwest::Client {
        encore::net::outgoing::client()
            .timeout(Duration::from_secs(30))
            .local_address(std::net::IpAddr::from([127, 0, 0, last_octet]))
            .build()
            .expect("client")
    }

    /// POST an OAuth endpoint from `client`, with a `Cookie` header when given; the whole
    /// answer (with `retry-after` copied into the body as `retry_after` on a 429).
    pub async fn oauth_from(
        &self,
        client: &reqwest::Client,
        endpoint: &str,
        body: Value,
        cookie: Option<&str>,
    ) -> Answer {
        let mut request = client
            .post(format!("{}/api/v1/oauth2/{endpoint}", self.url))
            .header("authorization", basic_web())
            .json(&body);
        if let Some(cookie) = cookie {
            request = request.header("cookie", cookie);
        }
        let response = request.send().await.expect("request");
        let retry = response
            .headers()
            .get("retry-after")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<u64>().ok());
        let mut answer = Answer::of(response).await;
        if let (Some(retry), Some(map)) = (retry, answer.body.as_object_mut()) {
            map.insert("retry_after".into(), json!(retry));
        }
        answer
    }

    pub async fn oauth(&self, endpoint: &str, body: Value) -> (StatusCode, Value) {
        self.send(
            self.http
                .post(format!("{}/api/v1/oauth2/{endpoint}", self.url))
                .header("authorization", basic_web())
                .json(&body),
        )
        .await
    }

    /// Create an account straight in the store (no HTTP), with a password.
    pub async fn account(&self, email: &str, role: Role) -> AccountRow {
        self.account_with(email, role, None, false).await
    }

    pub async fn account_with(
        &self,
        email: &str,
        role: Role,
        phone: Option<&str>,
        mfa: bool,
    ) -> AccountRow {
        self.insert_account(email, role, phone, mfa, true).await
    }

    /// A `user` account that has not proved its e-mail address yet, as a sign-up is.
    pub async fn unverified_account(&self, email: &str, mfa: bool) -> AccountRow {
        self.insert_account(email, Role::User, None, mfa, false)
            .await
    }

    async fn insert_account(
        &self,
        email: &str,
        role: Role,
        phone: Option<&str>,
        mfa: bool,
        email_verified: bool,
    ) -> AccountRow {
        let hash = self.password_hash().await;
        let phone = phone.map(|p| PhoneNumber::parse(p).expect("phone"));
        store::insert(
            self.db(),
            store::NewAccount {
                first_name: "Test",
                last_name: role.as_str(),
                phone: phone.as_ref().map(PhoneNumber::as_str),
                use_mfa: mfa,
                email_verified,
                ..store::NewAccount::verified(email, role, Some(hash))
            },
        )
        .await
        .expect("insert account")
    }

    /// The argon2 hash of [`PASSWORD`], made on first use.
    async fn password_hash(&self) -> String {
        self.password_hash
            .get_or_init(|| async {
                self.state
                    .passwords
                    .hash(&Password::parse(PASSWORD).expect("policy"))
                    .await
                    .expect("hash")
            })
            .await
            .clone()
    }

    /// An account of `role` at `email`, signed in through the whole OAuth flow.
    pub async fn signed_in(&self, email: &str, role: Role) -> (AccountRow, Tokens) {
        let row = self.account(email, role).await;
        let tokens = self.sign_in(email).await;
        (row, tokens)
    }

    /// `admin@example.com`, an admin, signed in: its access token.
    pub async fn an_admin(&self) -> String {
        self.signed_in("admin@example.com", Role::Admin)
            .await
            .1
            .access
    }

    /// `fan@example.com`, a user, signed in.
    pub async fn a_fan(&self) -> (AccountRow, Tokens) {
        self.signed_in("fan@example.com", Role::User).await
    }

    pub fn authorize_body(&self, email: &str, password: &str, challenge: &str) -> Value {
        json!({
            "email": email, "password": password,
            "response_type": "code", "response_mode": "query",
            "scope": "openid profile email", "redirect_uri": self.redirect_uri(),
            "code_challenge": challenge, "code_challenge_method": "S256",
            "client_id": WEB, "state": "s-123", "nonce": "n-456",
        })
    }

    /// authorize → code.
    pub async fn code_for(&self, email: &str, password: &str) -> (String, String) {
        let (verifier, challenge) = pkce();
        let (status, body) = self
            .oauth(
                "authorize",
                self.authorize_body(email, password, &challenge),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "authorize: {body}");
        assert_eq!(body["state"], "s-123");
        (
            body["payload"]["code"].as_str().expect("code").to_owned(),
            verifier,
        )
    }

    pub async fn exchange(&self, code: &str, verifier: &str) -> (StatusCode, Value) {
        self.oauth(
            "token",
            json!({
                "grant_type": "authorization_code", "code": code,
                "redirect_uri": self.redirect_uri(), "code_verifier": verifier,
                "client_id": WEB, "state": "s-789",
            }),
        )
        .await
    }

    /// The whole sign-in without a second factor.
    pub async fn sign_in(&self, email: &str) -> Tokens {
        self.sign_in_with(email, PASSWORD).await
    }

    pub async fn sign_in_with(&self, email: &str, password: &str) -> Tokens {
        let (code, verifier) = self.code_for(email, password).await;
        let answer = self.exchange_answer(&code, &verifier).await;
        assert_eq!(answer.status, StatusCode::OK, "token: {}", answer.body);
        assert_eq!(answer.body["payload"]["status"], "OK", "{}", answer.body);
        answer.tokens()
    }

    /// The token step with the whole answer (cookies included).
    pub async fn exchange_answer(&self, code: &str, verifier: &str) -> Answer {
        self.oauth_from(
            &self.http,
            "token",
            json!({
                "grant_type": "authorization_code", "code": code,
                "redirect_uri": self.redirect_uri(), "code_verifier": verifier,
                "client_id": WEB, "state": "s-789",
            }),
            None,
        )
        .await
    }

    /// Open a listening session for the signed-in `fan`: the playlist's path.
    pub async fn listen(&self, event: &str, fan: &str) -> String {
        let (status, session) = self
            .post(
                &format!("/api/v1/stream/{event}/session"),
                json!({}),
                Some(fan),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{session}");
        let playlist = session["payload"]["playlistUrl"]
            .as_str()
            .expect("a playlist URL");
        // The multivariant playlist of the same session, beside it.
        assert_eq!(
            session["payload"]["masterUrl"].as_str(),
            Some(playlist.replace("/index.m3u8", "/master.m3u8").as_str()),
            "{session}"
        );
        playlist.to_owned()
    }

    /// An admin turns an account off (`PUT /accounts/{id}` with `enablement`).
    pub async fn disable(&self, account_id: &str, admin_access: &str) -> (StatusCode, Value) {
        let path = format!("/api/v1/accounts/{account_id}");
        let body = json!({ "enablement": { "enabled": false } });
        self.put(&path, body, admin_access).await
    }

    /// Ask for a password reset link for `email` from the web client; the answer is 200.
    pub async fn forgot(&self, email: &str) {
        let (status, body) = self
            .oauth("forgot", json!({ "email": email, "client_id": WEB }))
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }

    pub async fn me(&self, token: &str) -> (StatusCode, Value) {
        self.get("/api/v1/accounts/userinfo/me", Some(token)).await
    }

    /// Wait for the newest dev-outbox message to `to` on `channel` (sending is async).
    pub async fn outbox_message(&self, to: &str, channel: &str) -> Value {
        self.outbox_messages_after(to, channel, 0).await
    }

    /// Wait until at least `seen + 1` messages went to `to`, and answer the newest.
    pub async fn outbox_messages_after(&self, to: &str, channel: &str, seen: usize) -> Value {
        for _ in 0..100 {
            let matching = self.outbox_to(to, channel);
            if matching.len() > seen {
                return matching.last().cloned().expect("message");
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("no {channel} message to {to} in the outbox");
    }

    pub fn outbox_to(&self, to: &str, channel: &str) -> Vec<Value> {
        let path = self.state.config.data_dir.join("outbox.jsonl");
        std::fs::read_to_string(path)
            .unwrap_or_default()
            .lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .filter(|m| m["to"] == to && m["channel"] == channel)
            .collect()
    }

    pub async fn count(&self, sql: &'static str, arg: &str) -> i64 {
        let (n,): (i64,) = sqlx::query_as(sql)
            .bind(arg)
            .fetch_one(self.db())
            .await
            .expect("count");
        n
    }
}

/// The access token of a token answer.
pub fn access_of(body: &Value) -> String {
    body["payload"]["access_token"]
        .as_str()
        .expect("access_token")
        .to_owned()
}

/// The 6-digit code in an SMS body.
pub fn code_in(message: &Value) -> String {
    let body = message["body"].as_str().expect("body");
    body.split(|c: char| !c.is_ascii_digit())
        .find(|part| part.len() == 6)
        .expect("a 6-digit code")
        .to_owned()
}

/// The `token=` parameter of the link in an e-mail body.
pub fn link_token(message: &Value) -> String {
    let body = message["body"].as_str().expect("body");
    let start = body.find("token=").expect("a link with a token") + "token=".len();
    body[start..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
        .collect()
}

/// A published concert of a new project, starting in `starts_in_ms`.
pub async fn concert(
    app: &TestApp,
    capacity: Option<i64>,
    price: i64,
    starts_in_ms: i64,
) -> String {
    use encore::events::model::EventStatus;
    use encore::events::store as events;
    let project = encore::projects::store::insert(
        app.db(),
        &format!("Band {}", uuid::Uuid::new_v4().simple()),
        "",
        encore::projects::ProjectStatus::Active,
    )
    .await
    .expect("project");
    let event = events::insert(
        app.db(),
        events::NewEvent {
            project_id: &project.id,
            title: "Live at the Roundhouse",
            artist_name: "The Testers",
            description: "",
            starts_at: encore::db::now_ms() + starts_in_ms,
            duration_minutes: 90,
            price_minor: price,
            currency: "EUR",
            capacity,
        },
    )
    .await
    .expect("event");
    events::set_status(
        app.db(),
        &event.id,
        &[EventStatus::Draft],
        EventStatus::Published,
    )
    .await
    .expect("publish");
    event.id
}

impl TestApp {
    /// Many fans at once: one shared password hash, sessions minted directly.
    pub async fn fans(&self, n: usize) -> Vec<(AccountRow, String)> {
        let hash = self.password_hash().await;
        let mut out = Vec::with_capacity(n);
        for i in 0..n {
            let row = store::insert(
                self.db(),
                store::NewAccount {
                    first_name: "Fan",
                    last_name: &i.to_string(),
                    ..store::NewAccount::verified(
                        &format!("fan{i}-{}@example.com", uuid::Uuid::new_v4().simple()),
                        Role::User,
                        Some(hash.clone()),
                    )
                },
            )
            .await
            .expect("fan");
            let access = self.session(&row).await;
            out.push((row, access));
        }
        out
    }

    /// A web session for `account` minted straight in the store (no password check,
    /// no argon2): its access token. For tests whose subject is not signing in.
    pub async fn session(&self, account: &AccountRow) -> String {
        let (_, tokens) = encore::auth::tokens::start_session(
            self.db(),
            &self.state.keys,
            account,
            WEB,
            "openid",
            false,
        )
        .await
        .expect("session");
        tokens.access_token
    }

    /// Put `event` in the cart of `token` and check out: the hosted checkout's URL.
    pub async fn open_checkout(&self, token: &str, event_id: &str) -> String {
        let (status, body) = self
            .post(&format!("/api/v1/cart/{event_id}"), json!({}), Some(token))
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let (status, body) = self
            .post("/api/v1/cart/checkout", json!({}), Some(token))
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        body["payload"].as_str().expect("checkout url").to_owned()
    }

    /// Add to cart, check out, pay with `card`: answers the payment's status and body.
    pub async fn buy(&self, token: &str, event_id: &str, card: &str) -> (StatusCode, Value) {
        let (status, body) = self
            .post(&format!("/api/v1/cart/{event_id}"), json!({}), Some(token))
            .await;
        if status != StatusCode::OK {
            return (status, body);
        }
        let (status, body) = self
            .post("/api/v1/cart/checkout", json!({}), Some(token))
            .await;
        if status != StatusCode::OK {
            return (status, body);
        }
        let url = body["payload"].as_str().expect("checkout url").to_owned();
        self.pay(&url, card).await
    }

    /// The project a concert belongs to.
    pub async fn project_of(&self, event: &str) -> String {
        let (project,): (String,) = sqlx::query_as("SELECT project_id FROM events WHERE id = $1")
            .bind(event)
            .fetch_one(self.db())
            .await
            .unwrap();
        project
    }

    /// Staff refund an order whole (`POST /orders/{id}/refund`).
    pub async fn refund(&self, order: &str, token: &str) -> (StatusCode, Value) {
        self.post(
            &format!("/api/v1/orders/{order}/refund"),
            json!({ "reason": "asked nicely" }),
            Some(token),
        )
        .await
    }

    /// Cancel a concert (`POST /events/{id}/cancel`) as one who may, and see it cancelled.
    pub async fn cancel_concert(&self, event: &str, token: &str) {
        let (status, body) = self
            .post(
                &format!("/api/v1/events/{event}/cancel"),
                json!({}),
                Some(token),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }

    /// Pay a test checkout URL (`…/pay/{order}?token=…`) with a card.
    pub async fn pay(&self, checkout_url: &str, card: &str) -> (StatusCode, Value) {
        let (path, token) = checkout_url.split_once("?token=").expect("checkout url");
        let token = token.split('&').next().unwrap_or_default();
        let order = path.rsplit('/').next().expect("order id");
        self.post(
            &format!("/api/v1/payments/test/{order}"),
            json!({ "token": token, "cardNumber": card, "expiry": "12/40", "cvc": "123", "name": "A Fan" }),
            None,
        )
        .await
    }
}

/// A fan holding a paid 30-day pass: the fan's token and the pass's id.
pub async fn a_pass_holder(app: &TestApp) -> (String, String) {
    let admin = app.an_admin().await;
    a_pass_holder_made_by(app, &admin).await
}

/// The same, the pass made by the signed-in admin `admin`.
pub async fn a_pass_holder_made_by(app: &TestApp, admin: &str) -> (String, String) {
    let (status, plan) = app
        .post(
            "/api/v1/pricing-plans",
            json!({ "name": "Winter pass", "price": 4900, "currency": "EUR", "days": 30 }),
            Some(admin),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{plan}");
    let plan_id = plan["payload"]["id"].as_str().unwrap();
    let fan = app.fans(1).await.remove(0).1;
    let path = format!("/api/v1/cart/passes/{plan_id}");
    assert_eq!(
        app.post(&path, json!({}), Some(&fan)).await.0,
        StatusCode::OK
    );
    let (status, checkout) = app
        .post("/api/v1/cart/checkout", json!({}), Some(&fan))
        .await;
    assert_eq!(status, StatusCode::OK, "{checkout}");
    let url = checkout["payload"].as_str().unwrap();
    assert_eq!(app.pay(url, CARD_OK).await.0, StatusCode::OK);
    let (pass_id,): (String,) = sqlx::query_as("SELECT id FROM passes")
        .fetch_one(app.db())
        .await
        .unwrap();
    (fan, pass_id)
}

/// Add `event` (of `tier`) to `token`'s cart, check out and pay, all over HTTP: the
/// answer of the step that stopped.
pub async fn race_buy(
    http: reqwest::Client,
    url: String,
    token: String,
    event: String,
    tier: Option<String>,
) -> (StatusCode, Value) {
    let post = |path: String, body: Value, bearer: Option<String>| {
        let (http, url) = (http.clone(), format!("{url}{path}"));
        async move {
            let mut request = http.post(url).json(&body);
            if let Some(bearer) = bearer {
                request = request.bearer_auth(bearer);
            }
            let response = request.send().await.expect("request");
            (
                response.status(),
                response.json::<Value>().await.unwrap_or_default(),
            )
        }
    };
    let query = tier.map(|t| format!("?tier={t}")).unwrap_or_default();
    let (status, body) = post(
        format!("/api/v1/cart/{event}{query}"),
        json!({}),
        Some(token.clone()),
    )
    .await;
    if status != StatusCode::OK {
        return (status, body);
    }
    let (status, body) = post("/api/v1/cart/checkout".into(), json!({}), Some(token)).await;
    if status != StatusCode::OK {
        return (status, body);
    }
    let checkout = body["payload"].as_str().unwrap().to_owned();
    let (path, pay_token) = checkout.split_once("?token=").unwrap();
    let pay_token = pay_token.split('&').next().unwrap_or_default();
    let order = path.rsplit('/').next().unwrap().to_owned();
    post(
        format!("/api/v1/payments/test/{order}"),
        json!({ "token": pay_token, "cardNumber": CARD_OK, "expiry": "12/40", "cvc": "123" }),
        None,
    )
    .await
}

/// Run every buyer (token, concert, tier) at once, each buying as [`race_buy`] does:
/// (paid, told sold out). Any other answer fails the test.
pub async fn race(app: &TestApp, buyers: Vec<(String, String, Option<String>)>) -> (usize, usize) {
    let mut racers = tokio::task::JoinSet::new();
    for (token, event, tier) in buyers {
        racers.spawn(race_buy(
            app.http.clone(),
            app.url.clone(),
            token,
            event,
            tier,
        ));
    }
    let (mut paid, mut sold_out, mut other) = (0, 0, Vec::new());
    while let Some(result) = racers.join_next().await {
        let (status, body) = result.expect("racer");
        let error = body["error"].as_str().unwrap_or_default().to_lowercase();
        match status {
            StatusCode::OK => paid += 1,
            StatusCode::CONFLICT if error.contains("sold out") => sold_out += 1,
            _ => other.push(format!("{status} {body}")),
        }
    }
    assert!(other.is_empty(), "unexpected answers: {other:?}");
    (paid, sold_out)
}

/// `fans` new fans racing to buy `event` (of `tier`, else its default): (paid, told sold
/// out).
pub async fn race_for(
    app: &TestApp,
    fans: usize,
    event: &str,
    tier: Option<&str>,
) -> (usize, usize) {
    let buyers = app
        .fans(fans)
        .await
        .into_iter()
        .map(|(_, token)| (token, event.to_owned(), tier.map(str::to_owned)))
        .collect();
    race(app, buyers).await
}

/// The seats a concert (`table` "events") or a tier ("tiers") has taken, as stored.
pub async fn seats_taken(app: &TestApp, table: &'static str, id: &str) -> i64 {
    let sql = match table {
        "events" => "SELECT seats_taken FROM events WHERE id = $1",
        _ => "SELECT seats_taken FROM ticket_tiers WHERE id = $1",
    };
    let (n,): (i64,) = sqlx::query_as(sql)
        .bind(id)
        .fetch_one(app.db())
        .await
        .unwrap();
    n
}

impl TestApp {
    /// Every pending checkout's reservation lapses now, as the sweeper finds it.
    pub async fn lapse_pending_checkouts(&self) {
        self.execute("UPDATE orders SET expires_at = 0 WHERE status = 'pending'")
            .await;
        encore::commerce::orders::expire_overdue(self.db())
            .await
            .unwrap();
    }
}

pub const HOUR_MS: i64 = 3_600_000;
pub const CARD_OK: &str = "4242 4242 4242 4242";
pub const CARD_DECLINED: &str = "4000 0000 0000 0002";

/// The fee the Stripe double says it took on every payment.
pub const STRIPE_FEE: i64 = 59;

/// A field of a form body.
pub fn form_value(body: &str, name: &str) -> String {
    serde_urlencoded::from_str::<Vec<(String, String)>>(body)
        .unwrap_or_default()
        .into_iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v)
        .unwrap_or_default()
}

/// Stripe's API as far as Encore calls it, on a local port: creates Checkout Sessions
/// (with a destination charge's transfer data, as sent), expires them, makes refunds
/// (reversing transfers when asked), Connect's Express accounts (one per idempotency key)
/// and onboarding links, and answers a payment's fee through its balance transaction;
/// it remembers every call (path, form body or query).
#[derive(Clone)]
pub struct StripeDouble {
    pub url: &'static str,
    calls: std::sync::Arc<std::sync::Mutex<Vec<(String, String)>>>,
}

impl StripeDouble {
    pub async fn start() -> Self {
        use axum::extract::{Path, State};
        type Calls = std::sync::Arc<std::sync::Mutex<Vec<(String, String)>>>;
        // The accounts made, by idempotency key.
        type Keys = std::sync::Arc<std::sync::Mutex<std::collections::HashMap<String, String>>>;
        async fn record(calls: &Calls, path: String, body: String) -> usize {
            let mut calls = calls.lock().unwrap();
            calls.push((path, body));
            calls.len()
        }
        let calls = Calls::default();
        let app = axum::Router::new()
            .route(
                "/v1/checkout/sessions",
                axum::routing::post(|State(calls): State<Calls>, body: String| async move {
                    let n = record(&calls, "/v1/checkout/sessions".into(), body).await;
                    axum::Json(json!({ "id": format!("cs_test_{n}"),
                                       "url": format!("https://checkout.stripe.test/{n}") }))
                }),
            )
            .route(
                "/v1/checkout/sessions/{id}/expire",
                axum::routing::post(
                    |State(calls): State<Calls>, Path(id): Path<String>, body: String| async move {
                        record(&calls, format!("/v1/checkout/sessions/{id}/expire"), body).await;
                        axum::Json(json!({ "id": id, "status": "expired" }))
                    },
                ),
            )
            .route(
                "/v1/refunds",
                axum::routing::post(|State(calls): State<Calls>, body: String| async move {
                    let n = record(&calls, "/v1/refunds".into(), body).await;
                    axum::Json(json!({ "id": format!("re_{n}"), "status": "succeeded" }))
                }),
            )
            // Connect: one Express account per idempotency key, as Stripe keeps keys.
            .route(
                "/v1/accounts",
                axum::routing::post(
                    |State(calls): State<Calls>,
                     axum::Extension(keys): axum::Extension<Keys>,
                     headers: axum::http::HeaderMap,
                     body: String| async move {
                        let key = headers
                            .get("idempotency-key")
                            .and_then(|v| v.to_str().ok())
                            .unwrap_or_default()
                            .to_owned();
                        let n = record(&calls, "/v1/accounts".into(), body).await;
                        let id = keys
                            .lock()
                            .unwrap()
                            .entry(key)
                            .or_insert_with(|| format!("acct_test_{n}"))
                            .clone();
                        axum::Json(json!({ "id": id, "type": "express", "charges_enabled": false,
                                           "payouts_enabled": false, "details_submitted": false }))
                    },
                ),
            )
            .route(
                "/v1/account_links",
                axum::routing::post(|State(calls): State<Calls>, body: String| async move {
                    let account = form_value(&body, "account");
                    record(&calls, "/v1/account_links".into(), body).await;
                    axum::Json(json!({ "object": "account_link",
                                       "url": format!("https://connect.stripe.test/setup/{account}") }))
                }),
            )
            // A payment's fee, through its latest charge's balance transaction.
            .route(
                "/v1/payment_intents/{id}",
                axum::routing::get(
                    |State(calls): State<Calls>,
                     Path(id): Path<String>,
                     axum::extract::RawQuery(query): axum::extract::RawQuery| async move {
                        let query = query.unwrap_or_default();
                        let n = record(&calls, format!("/v1/payment_intents/{id}"), query.clone()).await;
                        let charge = if query.contains("latest_charge.balance_transaction") {
                            json!({ "id": format!("ch_{n}"),
                                    "balance_transaction": { "id": format!("txn_{n}"),
                                                             "fee": STRIPE_FEE } })
                        } else {
                            json!(format!("ch_{n}"))
                        };
                        axum::Json(json!({ "id": id, "latest_charge": charge }))
                    },
                ),
            )
            .layer(axum::Extension(Keys::default()))
            .with_state(calls.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, app).await });
        Self {
            url: Box::leak(url.into_boxed_str()),
            calls,
        }
    }

    /// The form bodies of the calls made to `path`.
    pub fn calls_to(&self, path: &str) -> Vec<String> {
        self.calls
            .lock()
            .unwrap()
            .iter()
            .filter(|(p, _)| p == path)
            .map(|(_, body)| body.clone())
            .collect()
    }
}

/// A sign-in stopped at the second factor (E108): its MFA token and the flow's verifier.
pub struct Pending {
    pub mfa_token: String,
    pub verifier: String,
}

/// authorize → token for an account with the second factor on: the E108 answer.
pub async fn e108(app: &TestApp, email: &str) -> Pending {
    let (code, verifier) = app.code_for(email, PASSWORD).await;
    let (status, body) = app.exchange(&code, &verifier).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["payload"]["status"], "E108", "{body}");
    assert!(body["payload"].get("access_token").is_none());
    Pending {
        mfa_token: body["payload"]["mfa_token"].as_str().unwrap().to_owned(),
        verifier,
    }
}

/// Ask to enrol `phone` as the SMS factor of a pending sign-in (with the e-mailed
/// enrolment link's token, when given).
pub async fn associate(
    app: &TestApp,
    p: &Pending,
    phone: &str,
    enrolment_token: Option<&str>,
) -> (StatusCode, Value) {
    let response = associate_request(app, p, phone, enrolment_token)
        .send()
        .await
        .unwrap();
    (response.status(), response.json().await.unwrap())
}

/// [`associate`] asked in `language` (an Accept-Language value).
pub async fn associate_in(
    app: &TestApp,
    p: &Pending,
    phone: &str,
    enrolment_token: Option<&str>,
    language: &str,
) -> (StatusCode, Value) {
    let response = associate_request(app, p, phone, enrolment_token)
        .header("accept-language", language)
        .send()
        .await
        .unwrap();
    (response.status(), response.json().await.unwrap())
}

fn associate_request(
    app: &TestApp,
    p: &Pending,
    phone: &str,
    enrolment_token: Option<&str>,
) -> reqwest::RequestBuilder {
    let mut body = json!({ "authenticator_types": ["oob"], "oob_channels": ["sms"],
                           "phone_number": phone, "client_id": WEB, "state": "as-1" });
    if let Some(token) = enrolment_token {
        body["enrolment_token"] = json!(token);
    }
    app.http
        .post(format!("{}/api/v1/oauth2/associate", app.url))
        .bearer_auth(&p.mfa_token)
        .json(&body)
}

/// Finish a pending sign-in with the SMS `code`.
pub async fn mfa_code(app: &TestApp, p: &Pending, code: &str) -> (StatusCode, Value) {
    app.oauth(
        "token",
        json!({ "grant_type": "mfa_code", "mfa_token": p.mfa_token, "binding_code": code,
                "client_id": WEB, "state": "m-1", "code_verifier": p.verifier }),
    )
    .await
}

/// An iCalendar UTC DATE-TIME (`20250601T190000Z`) of a unix time in ms.
pub fn ical_utc(ms: i64) -> String {
    let t = time::OffsetDateTime::from_unix_timestamp(ms.div_euclid(1000)).expect("time");
    format!(
        "{:04}{:02}{:02}T{:02}{:02}{:02}Z",
        t.year(),
        u8::from(t.month()),
        t.day(),
        t.hour(),
        t.minute(),
        t.second()
    )
}

/// A plain HTTP client (the TLS provider installed, as every client of the process needs).
pub fn http_client() -> reqwest::Client {
    encore::net::outgoing::client().build().expect("client")
}

/// An app serving a small `index.html` as its web app (the shareable pages inject into it).
pub async fn app_with_web() -> TestApp {
    let dir = tempfile::tempdir().unwrap().keep();
    std::fs::write(
        dir.join("index.html"),
        "<!doctype html><html><head>\n<title>Encore</title>\n</head><body><div id=\"root\"></div></body></html>",
    )
    .unwrap();
    let dir: &'static str = Box::leak(dir.to_str().unwrap().to_owned().into_boxed_str());
    spawn_app_with(Options {
        web_dir: Some(dir),
        ..Options::default()
    })
    .await
}

/// The `content` of `<meta property|name="key" content="…">`, HTML entities decoded.
pub fn meta(html: &str, key: &str) -> Option<String> {
    let at = html
        .find(&format!("property=\"{key}\""))
        .or_else(|| html.find(&format!("name=\"{key}\"")))?;
    let rest = &html[at..];
    let start = rest.find("content=\"")? + "content=\"".len();
    let end = rest[start..].find('"')?;
    Some(
        rest[start..start + end]
            .replace("&#x2f;", "/")
            .replace("&quot;", "\"")
            .replace("&#x27;", "'")
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&amp;", "&"),
    )
}

// ------------------------------------------------------------------------ fixtures

/// Two instances sharing the database and the suite's Redis (under a prefix of their
/// own), as behind a load balancer.
pub async fn two_instances() -> (TestApp, TestApp) {
    two_instances_with(Options::default()).await
}

/// [`two_instances`] started with `options` (the Redis prefix is set here).
pub async fn two_instances_with(options: Options) -> (TestApp, TestApp) {
    let a = spawn_app_on_redis(options).await;
    let b = a.beside().await;
    (a, b)
}

/// One instance started with `options`, its bus running through Redis under a prefix of
/// its own.
pub async fn spawn_app_on_redis(options: Options) -> TestApp {
    spawn_app_with(Options {
        redis_prefix: Some(redis_prefix()),
        ..options
    })
    .await
}

impl TestApp {
    /// End `event`'s show as `token`'s holder (a manager): the answer, which must be 200.
    pub async fn end_show(&self, event: &str, token: &str) -> Value {
        let (status, body) = self
            .post(
                &format!("/api/v1/events/{event}/end"),
                json!({}),
                Some(token),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        body
    }

    /// A GET of `path` on this instance, with no token: the answer as it came (a page, a
    /// picture, a redirect), whatever its status.
    pub async fn get_raw(&self, path: &str) -> reqwest::Response {
        self.http
            .get(format!("{}{path}", self.url))
            .send()
            .await
            .unwrap()
    }

    /// The body of a GET of `url` (a whole URL), as text, whatever its status.
    pub async fn text_at(&self, url: &str) -> String {
        self.http
            .get(url)
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap()
    }

    /// The envelope of a GET of `url` (a whole URL: this or any other instance's) as
    /// `token`'s holder.
    pub async fn json_at(&self, url: &str, token: &str) -> Value {
        self.http
            .get(url)
            .bearer_auth(token)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap()
    }

    /// The `authorize` step with `email` and `password`: its status (nothing exchanged).
    pub async fn authorize_status(&self, email: &str, password: &str) -> StatusCode {
        let (_, challenge) = pkce();
        let (status, _) = self
            .oauth(
                "authorize",
                self.authorize_body(email, password, &challenge),
            )
            .await;
        status
    }

    /// `PUT /live/{event}` of `body` (sent all at once, no pacing) as the encoder holding
    /// `key`: the answer.
    pub async fn put_live(
        &self,
        event: &str,
        key: &str,
        content_type: &str,
        body: Vec<u8>,
    ) -> reqwest::Response {
        self.http
            .put(format!("{}/live/{event}", self.url))
            .basic_auth("source", Some(key))
            .header("content-type", content_type)
            .body(body)
            .send()
            .await
            .unwrap()
    }

    /// `secure@example.com`, a user with the second factor on (and `phone` as its
    /// verified phone, when given).
    pub async fn an_mfa_account(&self, phone: Option<&str>) -> AccountRow {
        self.account_with("secure@example.com", Role::User, phone, true)
            .await
    }

    /// "The Testers", a project made through the API by `token`'s holder (an admin): its
    /// id.
    pub async fn the_testers(&self, token: &str) -> String {
        let (status, project) = self
            .post(
                "/api/v1/projects",
                json!({ "name": "The Testers", "description": "A band" }),
                Some(token),
            )
            .await;
        assert_eq!(status, StatusCode::CREATED, "{project}");
        project["payload"]["id"].as_str().unwrap().to_owned()
    }

    /// Register the confidential client `partner` (secret `s3cret`, redirecting to
    /// `https://partner.example/cb`).
    pub async fn register_partner(&self) {
        encore::auth::clients::register_confidential(
            self.db(),
            "partner",
            "Partner",
            "s3cret",
            &["https://partner.example/cb"],
        )
        .await
        .unwrap();
    }

    /// An admin (`admin@example.com`, signed in here) creates `account` through the API,
    /// which invites it by e-mail: the answer, after a 201.
    pub async fn invite(&self, account: Value) -> Value {
        let admin = self.an_admin().await;
        let (status, body) = self.post("/api/v1/accounts", account, Some(&admin)).await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
        body
    }

    /// How many unspent refresh tokens are stored with the hash `token_hash` (0 or 1).
    pub async fn unspent_refresh_tokens(&self, token_hash: &str) -> i64 {
        self.count(
            "SELECT COUNT(*) FROM refresh_tokens WHERE token_hash = $1 AND used_at IS NULL",
            token_hash,
        )
        .await
    }

    /// How many refresh tokens are stored with the hash `token_hash`.
    pub async fn refresh_tokens_hashed(&self, token_hash: &str) -> i64 {
        self.count(
            "SELECT COUNT(*) FROM refresh_tokens WHERE token_hash = $1",
            token_hash,
        )
        .await
    }
}
