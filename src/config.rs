//! Command line and environment configuration (`ENCORE_` prefix; flags win over env).

use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use clap::{Args, Parser, Subcommand, ValueEnum};

#[derive(Debug, Parser)]
#[command(
    name = "encore",
    version,
    about = "Ticketed live concerts: tickets, live audio, dashboard"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the server (API, live hub and the web app).
    Serve(Box<ServeArgs>),
    /// Administrative tasks on the database.
    Admin {
        #[command(subcommand)]
        command: AdminCommand,
    },
    /// Push an AAC (ADTS) file to a concert in real time, as an encoder would.
    Push(PushArgs),
    /// Print the API's OpenAPI 3.1 document (what `/api/v1/openapi.json` serves).
    Openapi {
        /// The OAuth endpoints' path prefix, as `serve --oauth-prefix`.
        #[arg(long, env = "ENCORE_OAUTH_PREFIX", default_value = "/api/v1/oauth2")]
        oauth_prefix: String,
    },
}

#[derive(Debug, Clone, Args)]
pub struct PushArgs {
    /// The audio file: AAC in ADTS (`ffmpeg -i song.wav -c:a aac -f adts song.aac`) or MP3.
    pub file: PathBuf,
    /// The concert's id.
    #[arg(long)]
    pub event: String,
    /// The concert's stream key.
    // Keys are URL-safe base64, so one in 64 starts with `-`: still the key, not a flag.
    #[arg(
        long,
        env = "ENCORE_STREAM_KEY",
        hide_env_values = true,
        allow_hyphen_values = true
    )]
    pub key: String,
    /// The Encore server.
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    pub server: String,
    /// Play the file this many times in a row (0 = forever).
    #[arg(long, default_value_t = 1)]
    pub repeat: u32,
}

#[derive(Debug, Subcommand)]
pub enum AdminCommand {
    /// Create an account (or fail if the e-mail is taken).
    Create(CreateAccountArgs),
}

/// Where the data lives; shared by every subcommand.
#[derive(Debug, Clone, Args)]
pub struct StorageArgs {
    /// Directory for the SQLite database, secrets, uploads and the dev outbox.
    #[arg(long, env = "ENCORE_DATA_DIR", default_value = "data")]
    pub data_dir: PathBuf,
    /// `sqlite://…` or `postgres://…`; defaults to `sqlite://<data-dir>/encore.db`.
    #[arg(long, env = "ENCORE_DATABASE_URL")]
    pub database_url: Option<String>,
}

impl StorageArgs {
    pub fn database_url(&self) -> String {
        self.database_url.clone().unwrap_or_else(|| {
            format!(
                "sqlite://{}?mode=rwc",
                self.data_dir.join("encore.db").display()
            )
        })
    }
}

#[derive(Debug, Clone, Args)]
pub struct ServeArgs {
    #[command(flatten)]
    pub storage: StorageArgs,
    /// Address to listen on.
    #[arg(long, env = "ENCORE_BIND", default_value = "127.0.0.1:8080")]
    pub bind: SocketAddr,
    /// The origin people reach Encore at; used in links, e-mails and OAuth redirect URIs.
    #[arg(long, env = "ENCORE_PUBLIC_URL")]
    pub public_url: Option<String>,
    /// Icecast source port for encoders (ffmpeg `icecast://`, butt, Mixxx); empty = off.
    #[arg(long, env = "ENCORE_INGEST_BIND", default_value = "127.0.0.1:8000")]
    pub ingest_bind: String,
    /// Seconds without a byte from a publisher before it is disconnected.
    #[arg(long, env = "ENCORE_INGEST_IDLE_SECONDS", default_value_t = 10)]
    pub ingest_idle_seconds: u64,
    /// Minutes a show waits for its encoder to come back (to any instance) before it
    /// ends by itself; one that comes back within them continues the same show.
    #[arg(long, env = "ENCORE_SHOW_ABANDON_MINUTES", default_value_t = 15.0)]
    pub show_abandon_minutes: f64,
    /// How nice the thread writing the live rooms' frames is, 0 (as the HTTP workers) to
    /// 19: on a machine with no CPU to spare, listeners' parts go before the chat.
    #[arg(long, env = "ENCORE_ROOM_WRITER_NICE", default_value_t = 10,
          value_parser = clap::value_parser!(i32).range(0..=19))]
    pub room_writer_nice: i32,
    /// Hours after a concert's start when its recording is deleted (access ends at 24).
    #[arg(long, env = "ENCORE_RECORDING_RETENTION_HOURS", default_value_t = 24)]
    pub recording_retention_hours: i64,
    /// Disk a show's recording may take, in MB, every rendition together (≈ 24 h at
    /// 256 kbit/s in all by default); the encoder is cut off when it is reached.
    #[arg(long, env = "ENCORE_RECORDING_QUOTA_MB", default_value_t = 3072.0)]
    pub recording_quota_mb: f64,
    /// The built web app to serve at `/`.
    #[arg(long, env = "ENCORE_WEB_DIR", default_value = "web/dist")]
    pub web_dir: PathBuf,
    /// Path prefix of the OAuth2 endpoints.
    #[arg(long, env = "ENCORE_OAUTH_PREFIX", default_value = "/api/v1/oauth2")]
    pub oauth_prefix: String,
    /// HMAC secret for access tokens; generated once into the data dir when unset.
    #[arg(long, env = "ENCORE_JWT_SECRET", hide_env_values = true)]
    pub jwt_secret: Option<String>,
    /// Secret that encrypts personal data at rest (bank account numbers); generated once
    /// into the data dir when unset. Every instance must share it; losing it loses them.
    #[arg(long, env = "ENCORE_DATA_KEY", hide_env_values = true)]
    pub data_key: Option<String>,
    /// Tenant key reported on every account.
    #[arg(long, env = "ENCORE_TENANT_KEY", default_value = "encore")]
    pub tenant_key: String,
    /// Sign-in attempts allowed per client IP per minute (authorize, token, register…).
    #[arg(long, env = "ENCORE_AUTH_RATE_PER_MINUTE", default_value_t = 20)]
    pub auth_rate_per_minute: u32,
    /// Wrong passwords one account takes per hour from devices it never signed in on (all
    /// addresses together) before only its known devices may try; each address is also
    /// slowed down on its own after 5 (1 s, doubling up to 15 min).
    #[arg(long, env = "ENCORE_ACCOUNT_FAILURES_PER_HOUR", default_value_t = 100)]
    pub account_failures_per_hour: u32,
    /// Take the client IP from the last X-Forwarded-For entry (behind one trusted proxy).
    #[arg(long, env = "ENCORE_TRUST_FORWARDED_FOR", default_value_t = false)]
    pub trust_forwarded_for: bool,
    /// SMTP server URL, e.g. `smtps://user:pass@smtp.example.com:465`; unset = dev outbox.
    #[arg(long, env = "ENCORE_SMTP_URL", hide_env_values = true)]
    pub smtp_url: Option<String>,
    /// Sender address for e-mail.
    #[arg(
        long,
        env = "ENCORE_MAIL_FROM",
        default_value = "Encore <no-reply@encore.local>"
    )]
    pub mail_from: String,
    /// HTTP SMS provider endpoint (receives `{"to","body"}` as JSON); unset = dev outbox.
    #[arg(long, env = "ENCORE_SMS_URL")]
    pub sms_url: Option<String>,
    /// Bearer token for the SMS provider.
    #[arg(long, env = "ENCORE_SMS_TOKEN", hide_env_values = true)]
    pub sms_token: Option<String>,
    /// Countries SMS may go to: ISO codes (`GB,BR,ES,US`) or calling codes (`+44`);
    /// empty = every country.
    #[arg(long, env = "ENCORE_SMS_COUNTRIES", default_value = "")]
    pub sms_countries: String,
    /// SMS the whole server may send per hour (each number: 3 an hour, 10 a day).
    #[arg(long, env = "ENCORE_SMS_PER_HOUR", default_value_t = 200)]
    pub sms_per_hour: u32,
    /// The platform's share of every artist's sales, in percent (`7.5`); a project may be
    /// given its own (`PUT /projects/{id}/platform-fee`).
    #[arg(long, env = "ENCORE_PLATFORM_FEE_PERCENT", default_value = "0", value_parser = crate::statements::model::parse_percent)]
    pub platform_fee_percent: crate::statements::model::Percent,
    /// Stripe secret key; with the webhook secret, switches checkout to Stripe.
    #[arg(long, env = "ENCORE_STRIPE_SECRET_KEY", hide_env_values = true)]
    pub stripe_secret_key: Option<String>,
    /// Signing secret of the Stripe webhook endpoint (`whsec_…`).
    #[arg(long, env = "ENCORE_STRIPE_WEBHOOK_SECRET", hide_env_values = true)]
    pub stripe_webhook_secret: Option<String>,
    /// Stripe API origin (for a proxy or a recording server).
    #[arg(
        long,
        env = "ENCORE_STRIPE_API_BASE",
        default_value = "https://api.stripe.com"
    )]
    pub stripe_api_base: String,
    /// Stripe Connect: projects connect an Express account and are paid by destination
    /// charges (needs Stripe payments); off, staff record payouts by hand.
    #[arg(long, env = "ENCORE_STRIPE_CONNECT", default_value_t = false)]
    pub stripe_connect: bool,
    /// Signing secret of the Stripe webhook endpoint that listens to connected accounts
    /// (Stripe gives a Connect endpoint its own), pointed at the same URL.
    #[arg(
        long,
        env = "ENCORE_STRIPE_CONNECT_WEBHOOK_SECRET",
        hide_env_values = true
    )]
    pub stripe_connect_webhook_secret: Option<String>,
    /// Create demo accounts on first start and print their sign-in details.
    #[arg(long, env = "ENCORE_DEMO", default_value_t = false)]
    pub demo: bool,
    /// Payment provider: `stripe` (needs the Stripe keys), `test` (the built-in test
    /// checkout: anyone pays with card 4242…, for demos and tests only) or `off`. Unset:
    /// Stripe when its keys are set, the test checkout with `--demo`, otherwise off.
    #[arg(long, env = "ENCORE_PAYMENTS", value_enum)]
    pub payments: Option<PaymentsArg>,
    /// Open checkouts (held seats) allowed at once from one client address, across its
    /// accounts; each account holds at most one.
    #[arg(long, env = "ENCORE_HOLDS_PER_CLIENT", default_value_t = 20)]
    pub holds_per_client: u32,
    /// Connections one client address may hold open at once on each port (0: no cap;
    /// there is none behind a trusted proxy, which should enforce its own).
    #[arg(long, env = "ENCORE_CONNECTIONS_PER_IP", default_value_t = 512)]
    pub connections_per_ip: u32,
    /// Megabytes one show's journal may take in Redis (several instances): past it the
    /// oldest entries go, so a dense show keeps less than 20 minutes for instances that
    /// fell behind (a lossless one, ≈ 1.2 Mbit/s with its FLAC, about 5 minutes).
    #[arg(long, env = "ENCORE_JOURNAL_MB", default_value_t = 48.0)]
    pub journal_mb: f64,
    /// Megabytes of audio (every rendition's and the FLAC) an instance holds for the
    /// journal while Redis is away; past it the encoder is cut (it reconnects once Redis
    /// is back).
    #[arg(long, env = "ENCORE_JOURNAL_QUEUE_MB", default_value_t = 64.0)]
    pub journal_queue_mb: f64,
    /// WebSockets that may be open at once, across the server, before their first message
    /// (the dashboard's sign-in, a publisher's hello) was accepted; more are answered 503.
    #[arg(long, env = "ENCORE_UNAUTHENTICATED_SOCKETS", default_value_t = 1024)]
    pub unauthenticated_sockets: usize,
    /// Seconds a client has to send a whole request head (and that an idle keep-alive
    /// connection stays open); on the encoder port, to send its request.
    #[arg(long, env = "ENCORE_REQUEST_HEAD_SECONDS", default_value_t = 10)]
    pub request_head_seconds: u64,
    /// `Strict-Transport-Security` max-age in seconds, sent when the public URL is https
    /// (0: not sent; a proxy in front may send its own).
    #[arg(long, env = "ENCORE_HSTS_SECONDS", default_value_t = 0)]
    pub hsts_seconds: u64,
    /// Redis for running several instances as one (`redis://host:6379/0`): the event bus
    /// goes through it. Unset: the bus stays in this process (one instance).
    #[arg(long, env = "ENCORE_REDIS_URL", hide_env_values = true)]
    pub redis_url: Option<String>,
    /// Seconds between SIGTERM and closing the listener, answering as usual meanwhile but
    /// not ready (`/api/v1/health/ready` 503), so a load balancer that probes readiness
    /// stops sending first (0–5; the process exits within 10 s of the signal either way).
    #[arg(long, env = "ENCORE_DRAIN_SECONDS", default_value_t = 0)]
    pub drain_seconds: u64,
    /// Seconds between housekeeping ticks (expiring holds, purges, reminders).
    #[arg(long, env = "ENCORE_HOUSEKEEPING_SECONDS", default_value_t = 30)]
    pub housekeeping_seconds: u64,
    /// Bearer token Prometheus sends to read `/metrics`; unset: `/metrics` is off (404).
    #[arg(long, env = "ENCORE_METRICS_TOKEN", hide_env_values = true)]
    pub metrics_token: Option<String>,
    /// Prefix of every Redis key and pub/sub channel Encore uses (several deployments on
    /// one Redis each take their own).
    #[arg(long, env = "ENCORE_REDIS_PREFIX", default_value = "encore:")]
    pub redis_prefix: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PaymentsArg {
    Stripe,
    Test,
    Off,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RoleArg {
    Sa,
    Admin,
    User,
}

#[derive(Debug, Clone, Args)]
pub struct CreateAccountArgs {
    #[command(flatten)]
    pub storage: StorageArgs,
    #[arg(long)]
    pub email: String,
    #[arg(long, env = "ENCORE_ADMIN_PASSWORD", hide_env_values = true)]
    pub password: String,
    #[arg(long, value_enum)]
    pub role: RoleArg,
    #[arg(long, default_value = "")]
    pub first_name: String,
    #[arg(long, default_value = "")]
    pub last_name: String,
    /// Enrol this phone (E.164) for the SMS second factor.
    #[arg(long)]
    pub phone: Option<String>,
    /// Require the second factor at sign-in.
    #[arg(long, default_value_t = false)]
    pub mfa: bool,
}

/// The longest drain delay: it must leave time for open requests within [`EXIT_WITHIN`].
const MAX_DRAIN_SECONDS: u64 = 5;
/// A process told to stop (SIGTERM) is gone within this (orchestrators kill after 10 s).
pub const EXIT_WITHIN: std::time::Duration = std::time::Duration::from_secs(10);

/// A secret whose `Debug` never prints it.
#[derive(Clone)]
pub struct Secret(String);

impl Secret {
    pub fn new(value: String) -> Self {
        Self(value)
    }
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Secret(***)")
    }
}

/// The resolved configuration the server runs with.
#[derive(Debug, Clone)]
pub struct Config {
    pub bind: SocketAddr,
    pub ingest_bind: Option<SocketAddr>,
    pub ingest_idle_timeout: std::time::Duration,
    /// How long a show waits for its encoder to come back before it ends by itself.
    pub show_abandon_after: std::time::Duration,
    /// The niceness of the rooms' writing thread (`live::room_relay`).
    pub room_writer_nice: i32,
    pub recording_retention_hours: i64,
    pub recording_quota_bytes: u64,
    pub data_dir: PathBuf,
    pub database_url: String,
    pub public_url: String,
    pub web_dir: PathBuf,
    pub oauth_prefix: String,
    pub jwt_secret: Secret,
    pub data_key: crate::crypto::DataKey,
    pub tenant_key: String,
    pub auth_rate_per_minute: u32,
    pub account_failures_per_hour: u32,
    pub trust_forwarded_for: bool,
    pub smtp_url: Option<Secret>,
    pub mail_from: String,
    pub sms_url: Option<String>,
    pub sms_token: Option<Secret>,
    pub sms_countries: crate::messaging::countries::AllowList,
    pub sms_per_hour: u32,
    /// The platform fee of a project without one of its own.
    pub platform_fee: crate::statements::model::Percent,
    pub stripe_secret_key: Option<Secret>,
    pub stripe_webhook_secret: Option<Secret>,
    pub stripe_api_base: String,
    pub stripe_connect: bool,
    pub stripe_connect_webhook_secret: Option<Secret>,
    pub payments: PaymentsArg,
    pub holds_per_client: u32,
    pub connections_per_ip: u32,
    pub unauthenticated_sockets: usize,
    pub journal_bytes: u64,
    pub journal_queue_bytes: u64,
    pub request_head_timeout: std::time::Duration,
    pub hsts_seconds: u64,
    pub redis_url: Option<Secret>,
    pub redis_prefix: String,
    pub metrics_token: Option<Secret>,
    pub housekeeping_period: std::time::Duration,
    pub drain_delay: std::time::Duration,
    pub demo: bool,
}

impl Config {
    /// Resolve arguments into a configuration: creates the data dir and the JWT secret
    /// file on first use.
    pub fn from_args(args: ServeArgs) -> anyhow::Result<Self> {
        let redis_url = args.redis_url.filter(|url| !url.is_empty());
        if redis_url.is_some() {
            require_shared_secrets(&args.jwt_secret, &args.data_key)?;
        }
        std::fs::create_dir_all(&args.storage.data_dir)?;
        let jwt_secret = match args.jwt_secret {
            Some(s) if s.len() >= 32 => Secret::new(s),
            Some(_) => anyhow::bail!("ENCORE_JWT_SECRET must be at least 32 characters"),
            None => load_or_create_secret(&args.storage.data_dir.join("jwt-secret"))?,
        };
        // Its own secret, not one derived from the JWT one: rotating the token key after a
        // leak must not make the stored bank details unreadable.
        let data_key = match args.data_key {
            Some(s) if s.len() >= 32 => Secret::new(s),
            Some(_) => anyhow::bail!("ENCORE_DATA_KEY must be at least 32 characters"),
            None => load_or_create_secret(&args.storage.data_dir.join("data-secret"))?,
        };
        let data_key = crate::crypto::DataKey::derive(data_key.expose());
        let public_url = args
            .public_url
            .unwrap_or_else(|| format!("http://{}", args.bind))
            .trim_end_matches('/')
            .to_owned();
        let mut oauth_prefix = args.oauth_prefix.trim_end_matches('/').to_owned();
        if !oauth_prefix.starts_with('/') {
            oauth_prefix.insert(0, '/');
        }
        let ingest_bind = if args.ingest_bind.trim().is_empty() {
            None
        } else {
            Some(args.ingest_bind.parse().map_err(|_| {
                anyhow::anyhow!("ENCORE_INGEST_BIND must be host:port, e.g. 0.0.0.0:8000")
            })?)
        };
        let has_stripe_keys = args.stripe_secret_key.is_some();
        // Never sell for free by accident: the test checkout only when asked for (or demo).
        let payments = match args.payments {
            Some(chosen) => chosen,
            None if has_stripe_keys => PaymentsArg::Stripe,
            None if args.demo => PaymentsArg::Test,
            None => PaymentsArg::Off,
        };
        Ok(Self {
            bind: args.bind,
            ingest_bind,
            ingest_idle_timeout: std::time::Duration::from_secs(args.ingest_idle_seconds.max(1)),
            // At least a second: a show must outlive an encoder's reconnect.
            show_abandon_after: std::time::Duration::from_secs_f64(
                (args.show_abandon_minutes * 60.0).clamp(1.0, 7.0 * 86_400.0),
            ),
            room_writer_nice: args.room_writer_nice,
            recording_retention_hours: args.recording_retention_hours.max(0),
            recording_quota_bytes: (args.recording_quota_mb.max(0.0) * 1_048_576.0) as u64,
            database_url: args.storage.database_url(),
            data_dir: args.storage.data_dir,
            public_url,
            web_dir: args.web_dir,
            oauth_prefix,
            jwt_secret,
            data_key,
            tenant_key: args.tenant_key,
            auth_rate_per_minute: args.auth_rate_per_minute.max(1),
            account_failures_per_hour: args.account_failures_per_hour.max(1),
            trust_forwarded_for: args.trust_forwarded_for,
            smtp_url: args.smtp_url.map(Secret::new),
            mail_from: args.mail_from,
            sms_url: args.sms_url,
            sms_token: args.sms_token.map(Secret::new),
            sms_countries: crate::messaging::countries::AllowList::parse(&args.sms_countries)?,
            sms_per_hour: args.sms_per_hour.max(1),
            platform_fee: args.platform_fee_percent,
            stripe_secret_key: args.stripe_secret_key.map(Secret::new),
            stripe_webhook_secret: args.stripe_webhook_secret.map(Secret::new),
            stripe_api_base: args.stripe_api_base,
            stripe_connect: args.stripe_connect,
            stripe_connect_webhook_secret: args.stripe_connect_webhook_secret.map(Secret::new),
            payments,
            holds_per_client: args.holds_per_client.max(1),
            connections_per_ip: args.connections_per_ip,
            unauthenticated_sockets: args.unauthenticated_sockets.max(1),
            journal_bytes: (args.journal_mb.max(0.01) * 1_048_576.0) as u64,
            journal_queue_bytes: (args.journal_queue_mb.max(0.01) * 1_048_576.0) as u64,
            request_head_timeout: std::time::Duration::from_secs(args.request_head_seconds.max(1)),
            hsts_seconds: args.hsts_seconds,
            redis_url: redis_url.map(Secret::new),
            redis_prefix: args.redis_prefix,
            drain_delay: std::time::Duration::from_secs(args.drain_seconds.min(MAX_DRAIN_SECONDS)),
            housekeeping_period: std::time::Duration::from_secs(args.housekeeping_seconds.max(1)),
            metrics_token: args
                .metrics_token
                .filter(|token| !token.is_empty())
                .map(Secret::new),
            demo: args.demo,
        })
    }

    /// How long open requests may take to finish once the listener is closed: what is
    /// left of [`EXIT_WITHIN`] after the drain delay, less a second to exit.
    pub fn finish_requests_within(&self) -> std::time::Duration {
        EXIT_WITHIN
            .saturating_sub(self.drain_delay)
            .saturating_sub(std::time::Duration::from_secs(1))
    }

    /// The per-address connection cap, if any.
    pub fn connections_per_ip(&self) -> Option<u32> {
        (self.connections_per_ip > 0 && !self.trust_forwarded_for)
            .then_some(self.connections_per_ip)
    }

    /// Whether the sign-in cookies carry `Secure`: on an https public URL, and on a
    /// loopback one (browsers keep Secure cookies for http://localhost and 127.0.0.1, as
    /// Debian's chromium does). A plain-http address elsewhere would have them dropped.
    pub fn secure_cookies(&self) -> bool {
        let Ok(url) = url::Url::parse(&self.public_url) else {
            return false;
        };
        url.scheme() == "https"
            || match url.host() {
                Some(url::Host::Domain(name)) => name.eq_ignore_ascii_case("localhost"),
                Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
                Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
                None => false,
            }
    }

    /// The redirect URI of the built-in web client.
    pub fn web_redirect_uri(&self) -> String {
        format!("{}/auth/callback", self.public_url)
    }

    /// Why encoders elsewhere could not reach the Icecast port the artists' panel names,
    /// if they could not: it listens on this machine only while the public URL names
    /// another host (issue 30: the panel showed a public `icecast://` address nobody could
    /// connect to).
    pub fn ingest_unreachable(&self) -> Option<String> {
        let bind = self.ingest_bind?;
        let host = self
            .public_url
            .split_once("://")
            .map_or(self.public_url.as_str(), |(_, rest)| rest)
            .split(['/', ':'])
            .next()
            .unwrap_or_default();
        let local_host = matches!(host, "localhost" | "127.0.0.1" | "[::1]" | "");
        (bind.ip().is_loopback() && !local_host).then(|| {
            format!(
                "the Icecast port listens on {bind}, this machine only, but encoders are told \
                 to connect to {host}:{}: set ENCORE_INGEST_BIND=0.0.0.0:{} to take encoders \
                 from other machines",
                bind.port(),
                bind.port()
            )
        })
    }
}

/// With Redis, several instances serve as one: a token signed by one, a stream URL it
/// handed out, a bank account it sealed must be good on every other. A secret generated
/// into one instance's data dir would not be, so both must come from configuration.
fn require_shared_secrets(
    jwt_secret: &Option<String>,
    data_key: &Option<String>,
) -> anyhow::Result<()> {
    let missing: Vec<&str> = [
        ("ENCORE_JWT_SECRET", jwt_secret),
        ("ENCORE_DATA_KEY", data_key),
    ]
    .into_iter()
    .filter(|(_, value)| value.as_deref().is_none_or(str::is_empty))
    .map(|(name, _)| name)
    .collect();
    if !missing.is_empty() {
        anyhow::bail!(
            "ENCORE_REDIS_URL is set, so this instance runs beside others: set {} (each at \
             least 32 characters, the same on every instance). Tokens, stream URLs and sealed \
             data signed or sealed by one instance must be accepted by all of them.",
            missing.join(" and ")
        );
    }
    Ok(())
}

fn load_or_create_secret(path: &Path) -> anyhow::Result<Secret> {
    if let Ok(existing) = std::fs::read_to_string(path) {
        let existing = existing.trim().to_owned();
        if existing.len() >= 32 {
            return Ok(Secret::new(existing));
        }
    }
    let secret = crate::crypto::random_token(48);
    write_private(path, &secret)?;
    Ok(Secret::new(secret))
}

/// Keep the data directory to its owner: the directory 0700, each file directly in it
/// 0600 (the SQLite database and its journals, secrets, the dev outbox). Run at start,
/// after the database is opened, so an older install is tightened too.
pub fn secure_data_dir(dir: &Path) -> anyhow::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))?;
        for entry in std::fs::read_dir(dir)? {
            let entry = entry?;
            if entry.file_type()?.is_file() {
                std::fs::set_permissions(entry.path(), std::fs::Permissions::from_mode(0o600))?;
            }
        }
    }
    Ok(())
}

/// Write a file readable by its owner only (0600).
fn write_private(path: &Path, contents: &str) -> anyhow::Result<()> {
    use std::io::Write;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let mut file = options.open(path)?;
    file.write_all(contents.as_bytes())?;
    Ok(())
}

#[cfg(test)]
impl Config {
    /// `encore serve` with `extra` arguments on a throwaway data dir, for unit tests (the
    /// dir goes again once the secrets it held are read).
    pub fn for_tests(extra: &[&str]) -> Self {
        let data = std::env::temp_dir().join(format!("encore-config-{}", uuid::Uuid::new_v4()));
        let mut args = vec!["encore", "serve", "--data-dir", data.to_str().unwrap()];
        args.extend_from_slice(extra);
        let Command::Serve(serve) = Cli::try_parse_from(args).unwrap().command else {
            unreachable!()
        };
        let config = Config::from_args(*serve).unwrap();
        let _ = std::fs::remove_dir_all(data);
        config
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn payments(extra: &[&str]) -> PaymentsArg {
        Config::for_tests(extra).payments
    }

    fn parse(extra: &[&str]) -> anyhow::Result<Config> {
        let data = std::env::temp_dir().join(format!("encore-config-{}", uuid::Uuid::new_v4()));
        let mut args = vec!["encore", "serve", "--data-dir", data.to_str().unwrap()];
        args.extend_from_slice(extra);
        let Command::Serve(serve) = Cli::try_parse_from(args).unwrap().command else {
            unreachable!()
        };
        let config = Config::from_args(*serve);
        let _ = std::fs::remove_dir_all(data);
        config
    }

    #[test]
    fn an_icecast_port_on_this_machine_only_is_named_when_encoders_are_told_a_public_host() {
        let public = ["--public-url", "https://live.example.org"];
        let why = Config::for_tests(&public).ingest_unreachable().unwrap();
        assert!(why.contains("ENCORE_INGEST_BIND=0.0.0.0:8000"), "{why}");
        let everywhere = [
            "--public-url",
            "https://live.example.org",
            "--ingest-bind",
            "0.0.0.0:8000",
        ];
        assert_eq!(Config::for_tests(&everywhere).ingest_unreachable(), None);
        assert_eq!(
            Config::for_tests(&[]).ingest_unreachable(),
            None,
            "the local default"
        );
        let off = [
            "--public-url",
            "https://live.example.org",
            "--ingest-bind",
            "",
        ];
        assert_eq!(Config::for_tests(&off).ingest_unreachable(), None);
    }

    #[test]
    fn with_redis_both_shared_secrets_must_be_configured() {
        let redis = ["--redis-url", "redis://127.0.0.1:6379"];
        let jwt = [
            "--jwt-secret",
            "a jwt secret of at least thirty-two characters",
        ];
        let data = [
            "--data-key",
            "a data key of at least thirty-two characters!",
        ];
        let message = |extra: &[&str]| parse(extra).unwrap_err().to_string();
        let neither = message(&redis);
        assert!(
            neither.contains("set ENCORE_JWT_SECRET and ENCORE_DATA_KEY"),
            "{neither}"
        );
        let no_data = message(&[&redis[..], &jwt].concat());
        assert!(
            no_data.contains("set ENCORE_DATA_KEY (") && !no_data.contains("JWT"),
            "{no_data}"
        );
        assert!(message(&[&redis[..], &data].concat()).contains("set ENCORE_JWT_SECRET ("));
        assert!(parse(&[&redis[..], &jwt, &data].concat()).is_ok());
        assert!(parse(&[]).is_ok(), "one instance makes its own secrets");
    }

    #[test]
    fn a_stream_key_starting_with_a_hyphen_is_the_key_not_a_flag() {
        let push = |key: &str| {
            let args = [
                "encore", "push", "a.aac", "--event", "e", "--key", key, "--repeat", "0",
            ];
            match Cli::try_parse_from(args).map(|cli| cli.command) {
                Ok(Command::Push(push)) => (push.key, push.repeat),
                other => panic!("{other:?}"),
            }
        };
        assert_eq!(push("-Vx3_q"), ("-Vx3_q".to_owned(), 0));
        assert_eq!(push("--Qm7x"), ("--Qm7x".to_owned(), 0));
    }

    #[test]
    fn the_free_test_checkout_runs_only_when_asked_for() {
        assert_eq!(payments(&[]), PaymentsArg::Off);
        assert_eq!(payments(&["--demo"]), PaymentsArg::Test);
        assert_eq!(payments(&["--payments", "test"]), PaymentsArg::Test);
        let stripe = ["--stripe-secret-key", "sk", "--stripe-webhook-secret", "wh"];
        assert_eq!(payments(&stripe), PaymentsArg::Stripe);
        assert_eq!(
            payments(&[&stripe[..], &["--demo"]].concat()),
            PaymentsArg::Stripe
        );
    }
}
