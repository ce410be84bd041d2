//! The WebSocket load tool of issue 13 (`loadtests/ws-bench.sh` runs it): many
//! authenticated dashboard sockets on `/api/v1/ws`, the memory they cost the server,
//! staff broadcasts' delivery latency and rate, and a notification's trip from one instance
//! to another through Redis. The same client measures the baseline (`ws_baseline`).
//!
//! - `ws_load prepare DATABASE_URL ACCOUNTS FILE`: before the server starts, store ACCOUNTS
//!   admin accounts with one session each through Encore's own stores (no password: argon2
//!   for thousands of accounts would take minutes) and write their ids to FILE.
//! - `ws_load broadcast …`: open `--sockets` sockets (8 per account, the most the server
//!   allows; tokens signed here with the server's JWT secret), each waiting for its
//!   `subscribed` on `staff`; read the server's RSS before and after (memory per idle
//!   socket); then publish staff activity through Encore's own bus (the same Redis script
//!   and keys as the server), each carrying its send time in `at`: first one at a time
//!   (latency of each delivery), then in bursts (delivered messages per second). With
//!   `--signups URL` each one is instead a real sign-up on that server (`POST
//!   /accounts/signup`: the password hashed, the account and its one staff activity row in
//!   a transaction, then the staff channel), `at` being the activity's time on the server.
//! - `ws_load cross …`: sockets on instance B; this process is instance A's write path:
//!   it commits a notification (its own transaction, as the notifying code does), then
//!   publishes it on the account's channel; the time from the commit to each of the
//!   account's sockets on B receiving it.
//!
//! The client side of each socket is kept cheap because it shares the machine's two cores
//! with the server it measures: it reads only what it checks (the channel, the offset, the
//! type and the send time, at fixed places of the message, no JSON parse), its counters are
//! sharded by socket (no cache line shared by every delivery), and its read buffer is as
//! small as the server's (the library zeroes it before each read). It still counts every
//! delivery and checks that each socket sees the staff channel's offsets in order, each
//! once; the baseline is measured by the same client.

#[path = "../shared/bench.rs"]
mod bench;
#[path = "../shared/holders.rs"]
mod holders;
mod room;

use std::collections::HashMap;
use std::net::{Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use clap::{Args, Parser, Subcommand};
use encore::accounts::model::Role;
use encore::auth::clients::WEB_CLIENT_ID;
use encore::auth::jwt::TokenKeys;
use encore::bus::{Bus, Channel, Publication};
use encore::config::Secret;
use encore::live::activity::{Activity, ActivityKind, Recorded};
use encore::live::store::Subject;
use encore::notifications::model::Published;
use futures_util::{SinkExt, StreamExt};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;
use tokio::sync::Semaphore;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

/// Handshakes in flight at once (the server's accept backlog is finite).
const CONNECTING: usize = 256;
/// Source addresses the client sockets are spread over (ephemeral ports per address).
const SOURCES: u8 = 8;
/// How long a stalled delivery phase waits for progress before giving up.
const STALL: Duration = Duration::from_secs(10);
const SHARDS: usize = 64;

#[derive(Parser)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Store staff accounts with a session each; write their ids, one a line.
    Prepare {
        database_url: String,
        accounts: usize,
        file: PathBuf,
    },
    /// Sockets, their memory, staff broadcasts' latency and rate.
    Broadcast(BroadcastArgs),
    /// A notification committed here (instance A) reaching sockets on instance B.
    Cross(CrossArgs),
    /// Store a concert and FANS ticket holders with a session each (issue 29's room).
    PrepareRoom {
        database_url: String,
        fans: usize,
        file: PathBuf,
    },
    /// One concert's room: every socket a holder following `chat:<id>`, messages and
    /// reactions posted at a rate, what reaches each socket and how often.
    Room(room::RoomArgs),
}

#[derive(Args)]
struct Target {
    /// The socket's URL, `ws://host:port/api/v1/ws`.
    #[arg(long)]
    url: String,
    #[arg(long)]
    sockets: usize,
    /// Sockets per account (the server allows 8).
    #[arg(long, default_value_t = 8)]
    per_account: usize,
    /// The prepared accounts (`prepare`'s file) and their database: sockets authenticate as
    /// them. Without, every socket sends the same dummy `auth` (the baseline reads it only).
    #[arg(long, requires = "database_url")]
    accounts: Option<PathBuf>,
    #[arg(long)]
    database_url: Option<String>,
    /// Access tokens, one a line, instead of accounts (`listeners serve` with `ROOM_FANS`
    /// writes them: its database is its own).
    #[arg(long, conflicts_with = "accounts")]
    tokens: Option<PathBuf>,
    /// The server's secret, to sign access tokens as the server does.
    #[arg(long, env = "ENCORE_JWT_SECRET", hide_env_values = true)]
    jwt_secret: Option<String>,
    /// Client sockets come from 127.0.NET.1 to 127.0.NET.8 (a fresh NET per run leaves the
    /// previous run's TIME_WAIT ports alone).
    #[arg(long, default_value_t = 1)]
    source_net: u8,
    #[arg(long)]
    redis_url: String,
    #[arg(long)]
    redis_prefix: String,
}

/// What every measured round names (`loadtests/lib.sh`'s `ws_load_round`): the sockets to
/// open, the run's name and the server's process.
#[derive(Args)]
struct Round {
    #[command(flatten)]
    target: Target,
    /// Names the run in the RESULT line.
    #[arg(long)]
    label: String,
    /// The server's process, for its CPU time (and for `broadcast`, its memory).
    #[arg(long)]
    pid: u32,
}

#[derive(Args)]
struct BroadcastArgs {
    #[command(flatten)]
    round: Round,
    /// Broadcasts sent one at a time, each after the previous reached every socket.
    #[arg(long, default_value_t = 20)]
    latency_broadcasts: usize,
    /// Broadcasts per burst (below the server's queue of 256 per socket).
    #[arg(long, default_value_t = 100)]
    burst: usize,
    #[arg(long, default_value_t = 3)]
    rounds: usize,
    /// The server's HTTP base URL: each broadcast is a real sign-up there, not a publish.
    #[arg(long)]
    signups: Option<String>,
    /// Sign-ups in flight at most.
    #[arg(long, default_value_t = 8)]
    signups_in_flight: usize,
    /// Messages a second in a burst (0: as fast as they go). Sign-ups are bounded by the
    /// password hash, so the comparison with a publish is made at one offered rate.
    #[arg(long, default_value_t = 0.0)]
    rate: f64,
}

/// Where the staff messages come from: a publish on the bus, or a sign-up on the server.
enum Source {
    Bus(Bus),
    Signups {
        http: reqwest::Client,
        base: String,
        next: AtomicU64,
        in_flight: usize,
    },
}

impl Source {
    /// One staff message: a sale published, or a new account signed up.
    async fn one(&self, n: usize) -> anyhow::Result<()> {
        match self {
            Self::Bus(bus) => {
                bus.publish(&Channel::Staff, activity(n)?).await?;
            }
            Self::Signups {
                http, base, next, ..
            } => {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let login = format!("bench-fan-{}-{i}@example.com", std::process::id());
                let response = http
                    .post(format!("{base}/api/v1/accounts/signup"))
                    .json(&serde_json::json!({ "login": login, "password": "a bench passphrase" }))
                    .send()
                    .await?;
                anyhow::ensure!(
                    response.status() == reqwest::StatusCode::CREATED,
                    "sign-up: {} {}",
                    response.status(),
                    response.text().await.unwrap_or_default()
                );
            }
        }
        Ok(())
    }

    /// `count` staff messages, the n-th sent n ÷ `rate` seconds after the first (at most
    /// `in_flight` sign-ups waiting at once); a rate of 0 is [`Source::burst`].
    async fn paced(&self, count: usize, rate: f64, in_flight: usize) -> anyhow::Result<()> {
        if rate <= 0.0 {
            return self.burst(count).await;
        }
        let start = tokio::time::Instant::now();
        let mut pending = futures_util::stream::FuturesUnordered::new();
        for n in 0..count {
            let due = start + Duration::from_secs_f64(n as f64 / rate);
            loop {
                tokio::select! {
                    () = tokio::time::sleep_until(due), if pending.len() < in_flight => break,
                    Some(done) = pending.next(), if !pending.is_empty() => done?,
                }
            }
            pending.push(self.one(n));
        }
        while let Some(done) = pending.next().await {
            done?;
        }
        Ok(())
    }

    /// `count` staff messages as fast as they go: published one after another, or signed up
    /// `in_flight` at a time.
    async fn burst(&self, count: usize) -> anyhow::Result<()> {
        match self {
            Self::Bus(_) => {
                for n in 0..count {
                    self.one(n).await?;
                }
            }
            Self::Signups { in_flight, .. } => {
                futures_util::stream::iter(0..count)
                    .map(|n| self.one(n))
                    .buffer_unordered(*in_flight)
                    .collect::<Vec<_>>()
                    .await
                    .into_iter()
                    .collect::<anyhow::Result<Vec<()>>>()?;
            }
        }
        Ok(())
    }
}

#[derive(Args)]
struct CrossArgs {
    #[command(flatten)]
    target: Target,
    #[arg(long, default_value_t = 500)]
    notifications: usize,
    /// Pause between two notifications.
    #[arg(long, default_value_t = 20)]
    interval_ms: u64,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    match Cli::parse().command {
        Command::Prepare {
            database_url,
            accounts,
            file,
        } => prepare(&database_url, accounts, &file).await,
        Command::Broadcast(args) => broadcast(args).await,
        Command::Cross(args) => cross(args).await,
        Command::PrepareRoom {
            database_url,
            fans,
            file,
        } => room::prepare(&database_url, fans, &file).await,
        Command::Room(args) => room::run(args).await,
    }
}

async fn prepare(database_url: &str, accounts: usize, file: &PathBuf) -> anyhow::Result<()> {
    let db = encore::db::connect(database_url).await?;
    encore::auth::clients::seed_web_client(&db, "http://127.0.0.1/auth/callback").await?;
    let started = Instant::now();
    let mut out = String::new();
    for i in 0..accounts {
        let login = format!("ws-bench-{i}@example.com");
        let last_name = format!("Staff {i}");
        let account = holders::account(&db, &login, "Bench", &last_name, Role::Admin).await?;
        let session = uuid::Uuid::new_v4().to_string();
        let now = encore::db::now_ms();
        encore::auth::store::insert_session(&db, &session, &account.id, WEB_CLIENT_ID, false, now)
            .await?;
        out.push_str(&format!("{} {session}\n", account.id));
    }
    std::fs::write(file, out)?;
    eprintln!(
        "prepared {accounts} staff accounts with a session each in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// What every socket task reports to the controller.
struct Tally {
    /// Sockets that got their `subscribed` on `staff`, and those that never will.
    ready: AtomicU64,
    failed: AtomicU64,
    open: AtomicU64,
    notifications: AtomicU64,
    /// Messages that did not follow the socket's previous one on its channel (offset not +1).
    out_of_order: AtomicU64,
    /// Per delivery figures, sharded by socket to keep locks and cache lines uncontended.
    shards: Vec<Shard>,
    /// Why sockets ended (close code and reason, or the error), and how many.
    ends: Mutex<HashMap<String, u64>>,
    /// Notifications committed by `cross`, by id, and when.
    committed: Mutex<HashMap<String, Instant>>,
}

impl Tally {
    fn new() -> Self {
        Self {
            ready: AtomicU64::new(0),
            failed: AtomicU64::new(0),
            open: AtomicU64::new(0),
            notifications: AtomicU64::new(0),
            out_of_order: AtomicU64::new(0),
            shards: (0..SHARDS).map(|_| Shard::default()).collect(),
            ends: Mutex::new(HashMap::new()),
            committed: Mutex::new(HashMap::new()),
        }
    }

    fn ended(&self, why: String) {
        *self.ends.lock().unwrap().entry(why).or_default() += 1;
    }

    /// Reads the channel offset `text` begins with into `last`, counting it out of order
    /// unless it follows the previous one; returns the text after its digits.
    fn next_offset<'a>(&self, text: &'a str, last: &mut Option<u64>) -> &'a str {
        let digits = text.bytes().take_while(u8::is_ascii_digit).count();
        let offset: Option<u64> = text[..digits].parse().ok();
        if offset.is_none() || last.is_some_and(|last| offset != Some(last + 1)) {
            self.out_of_order.fetch_add(1, Ordering::Relaxed);
        }
        *last = offset;
        &text[digits..]
    }

    fn sample(&self, socket: usize, us: u64) {
        self.shards[socket % SHARDS]
            .samples
            .lock()
            .unwrap()
            .push(us.min(u64::from(u32::MAX)) as u32);
    }

    /// An activity received by `socket` at `received` (µs since the epoch).
    fn activity(&self, socket: usize, received: u64) {
        let shard = &self.shards[socket % SHARDS];
        shard.activities.fetch_add(1, Ordering::Relaxed);
        shard.last_us.fetch_max(received, Ordering::Relaxed);
    }

    /// Activities received by every socket so far.
    fn activities(&self) -> u64 {
        self.shards
            .iter()
            .map(|shard| shard.activities.load(Ordering::Relaxed))
            .sum()
    }

    /// When the latest activity was received (µs since the epoch).
    fn last_us(&self) -> u64 {
        self.shards
            .iter()
            .map(|shard| shard.last_us.load(Ordering::Relaxed))
            .max()
            .unwrap_or(0)
    }

    /// `messages` received by `socket` at `received` (µs since the epoch), and their
    /// latencies (taken from `samples`).
    fn received(&self, socket: usize, messages: u64, received: u64, samples: &mut Vec<u32>) {
        let shard = &self.shards[socket % SHARDS];
        shard.activities.fetch_add(messages, Ordering::Relaxed);
        shard.last_us.fetch_max(received, Ordering::Relaxed);
        shard.samples.lock().unwrap().append(samples);
    }

    fn take_samples(&self) -> Vec<u32> {
        let mut all = Vec::new();
        for shard in &self.shards {
            all.append(&mut shard.samples.lock().unwrap());
        }
        all.sort_unstable();
        all
    }
}

/// One shard of the per-delivery figures, on cache lines of its own.
#[derive(Default)]
#[repr(align(128))]
struct Shard {
    activities: AtomicU64,
    /// Microseconds since the epoch of the latest activity received.
    last_us: AtomicU64,
    /// Delivery latencies in µs.
    samples: Mutex<Vec<u32>>,
}

fn now_us() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_micros() as u64)
}

/// An access token for each prepared account (each used by `per_account` sockets), signed
/// here with the server's secret, and the accounts' ids; without accounts, one dummy
/// token (the baseline reads the `auth` only).
async fn tokens(target: &Target) -> anyhow::Result<(Vec<String>, Vec<String>)> {
    if let Some(file) = &target.tokens {
        let tokens: Vec<String> = std::fs::read_to_string(file)?
            .lines()
            .map(str::to_owned)
            .collect();
        return Ok((tokens, Vec::new()));
    }
    let (Some(file), Some(database_url)) = (&target.accounts, &target.database_url) else {
        return Ok((vec!["baseline".to_owned()], Vec::new()));
    };
    let secret = target
        .jwt_secret
        .clone()
        .ok_or_else(|| anyhow::anyhow!("--jwt-secret (or ENCORE_JWT_SECRET) is needed"))?;
    let keys = TokenKeys::new(&Secret::new(secret));
    let db = encore::db::connect(database_url).await?;
    let lines = std::fs::read_to_string(file)?;
    let mut tokens = Vec::new();
    let mut ids = Vec::new();
    for line in lines.lines() {
        let (account_id, session_id) = line
            .split_once(' ')
            .ok_or_else(|| anyhow::anyhow!("{}: not `account session`", file.display()))?;
        let account = encore::accounts::store::by_id(&db, account_id)
            .await?
            .ok_or_else(|| anyhow::anyhow!("account {account_id} is not in the database"))?;
        tokens.push(keys.sign(&account, session_id, WEB_CLIENT_ID)?);
        ids.push(account_id.to_owned());
    }
    let needed = target.sockets.div_ceil(target.per_account);
    anyhow::ensure!(
        tokens.len() >= needed,
        "{} holds {} accounts, {needed} needed",
        file.display(),
        tokens.len()
    );
    db.close().await;
    Ok((tokens, ids))
}

/// Open `target.sockets` sockets, each following the staff channel in its own task until
/// the process ends; answers once every socket is ready or has failed.
async fn open_sockets(target: &Target, tally: &Arc<Tally>) -> anyhow::Result<Vec<String>> {
    let staff = Follow {
        subscribe: None,
        subscribed: r#""type":"subscribed","channel":"staff""#.to_owned(),
        read_buffer: 1024,
    };
    let reader = {
        let tally = tally.clone();
        move |i, socket| {
            let tally = tally.clone();
            async move { follow(i, socket, &tally).await }
        }
    };
    open_following(target, tally, &staff, reader).await
}

/// What a socket follows once authenticated: a channel it subscribes to (none: the staff
/// channel, joined on its own), and the text of the answer that says it follows.
#[derive(Clone)]
struct Follow {
    subscribe: Option<String>,
    subscribed: String,
    /// The client's read buffer: as small as the server's for single messages, larger for
    /// a room's frames of many (a frame read in one call, not eight).
    read_buffer: usize,
}

/// Open `target.sockets` sockets, each authenticated, following `follow`, then read by
/// `reader` in its own task until the process ends; answers once every socket is ready
/// or has failed.
async fn open_following<R, F>(
    target: &Target,
    tally: &Arc<Tally>,
    follow: &Follow,
    reader: R,
) -> anyhow::Result<Vec<String>>
where
    R: Fn(usize, Socket) -> F + Clone + Send + 'static,
    F: std::future::Future<Output = ()> + Send,
{
    let (tokens, mut accounts) = tokens(target).await?;
    let needed = target
        .sockets
        .div_ceil(target.per_account)
        .min(tokens.len());
    accounts.truncate(needed);
    let auths: Vec<String> = tokens[..needed]
        .iter()
        .map(|token| serde_json::json!({ "type": "auth", "token": token }).to_string())
        .collect();
    let url = url::Url::parse(&target.url)?;
    let server: SocketAddr = format!(
        "{}:{}",
        url.host_str().unwrap_or("127.0.0.1"),
        url.port().unwrap_or(80)
    )
    .parse()?;
    let config = WebSocketConfig::default()
        .read_buffer_size(follow.read_buffer)
        .write_buffer_size(0);
    let gate = Arc::new(Semaphore::new(CONNECTING));
    let started = Instant::now();
    for i in 0..target.sockets {
        let source = Ipv4Addr::new(127, 0, target.source_net, 1 + (i % SOURCES as usize) as u8);
        let auth = auths[(i / target.per_account) % auths.len()].clone();
        let (tally, gate, url) = (tally.clone(), gate.clone(), target.url.clone());
        let (follow, reader) = (follow.clone(), reader.clone());
        tokio::spawn(async move {
            let permit = gate.acquire_owned().await.expect("never closed");
            let opened = tokio::time::timeout(
                Duration::from_secs(30),
                open(&url, server, source, config, &auth, &follow),
            )
            .await;
            drop(permit);
            match opened {
                Ok(Ok(socket)) => {
                    tally.open.fetch_add(1, Ordering::Relaxed);
                    tally.ready.fetch_add(1, Ordering::Relaxed);
                    reader(i, socket).await;
                    tally.open.fetch_sub(1, Ordering::Relaxed);
                }
                Ok(Err(err)) => {
                    tally.failed.fetch_add(1, Ordering::Relaxed);
                    tally.ended(format!("not opened: {err}"));
                }
                Err(_) => {
                    tally.failed.fetch_add(1, Ordering::Relaxed);
                    tally.ended("not ready within 30 s".to_owned());
                }
            }
        });
    }
    let want = target.sockets as u64;
    let mut shown = Instant::now();
    loop {
        let (ready, failed) = (
            tally.ready.load(Ordering::Relaxed),
            tally.failed.load(Ordering::Relaxed),
        );
        if ready + failed >= want {
            break;
        }
        if shown.elapsed() >= Duration::from_secs(5) {
            eprintln!("  … {ready} ready, {failed} failed");
            shown = Instant::now();
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    println!(
        "sockets: {} ready, {} failed, in {:.1} s",
        tally.ready.load(Ordering::Relaxed),
        tally.failed.load(Ordering::Relaxed),
        started.elapsed().as_secs_f64()
    );
    print_ends(tally);
    Ok(accounts)
}

type Socket = tokio_tungstenite::WebSocketStream<tokio::net::TcpStream>;

/// Connect from `source`, send the `auth` (and the subscription), and read until the socket
/// follows what it should.
async fn open(
    url: &str,
    server: SocketAddr,
    source: Ipv4Addr,
    config: WebSocketConfig,
    auth: &str,
    follow: &Follow,
) -> anyhow::Result<Socket> {
    let tcp = tokio::net::TcpSocket::new_v4()?;
    tcp.set_reuseaddr(true)?;
    tcp.bind(SocketAddr::from((source, 0)))?;
    let tcp = tcp.connect(server).await?;
    tcp.set_nodelay(true)?;
    let (mut socket, _) =
        tokio_tungstenite::client_async_with_config(url, tcp, Some(config)).await?;
    socket.send(Message::text(auth)).await?;
    if let Some(subscribe) = &follow.subscribe {
        socket.send(Message::text(subscribe.as_str())).await?;
    }
    while let Some(message) = socket.next().await {
        match message? {
            Message::Text(text) if text.contains(follow.subscribed.as_str()) => {
                return Ok(socket);
            }
            Message::Text(text) if text.contains(r#""type":"error""#) => {
                anyhow::bail!("refused: {text}")
            }
            Message::Close(frame) => anyhow::bail!("closed: {frame:?}"),
            _ => {}
        }
    }
    anyhow::bail!("closed before subscribing")
}

/// Read one socket until it ends: answer pings, time every activity and notification,
/// and check that the staff channel's offsets arrive in order, none twice or skipped.
async fn follow(index: usize, mut socket: Socket, tally: &Tally) {
    let mut last_offset = None;
    let why = loop {
        let text = match next_text(&mut socket).await {
            Ok(text) => text,
            Err(why) => break why,
        };
        let received = now_us();
        if let Some(staff) = text.strip_prefix(STAFF) {
            // `<offset>,"epoch":"…","type":"activity","activity":{"kind":"…","at":"…"`
            let rest = tally.next_offset(staff, &mut last_offset);
            let Some(kind) = field(rest, r#""type":""#) else {
                continue;
            };
            if kind == "activity" {
                tally.activity(index, received);
                if let Some(sent) = field(rest, r#""at":""#).and_then(unix_us) {
                    tally.sample(index, received.saturating_sub(sent));
                }
            }
        } else if text.contains(r#""type":"notification""#) {
            tally.notifications.fetch_add(1, Ordering::Relaxed);
            // The bus writes an object's keys in order (`"body"` comes before `"id"`).
            let committed = text
                .split_once(r#""notification":{"#)
                .and_then(|(_, notification)| field(notification, r#""id":""#))
                .and_then(|id| tally.committed.lock().unwrap().get(id).copied());
            if let Some(committed) = committed {
                tally.sample(index, committed.elapsed().as_micros() as u64);
            }
        }
    };
    tally.ended(why);
}

/// The socket's next text message, the server's pings answered on the way; why it ended
/// when it did.
async fn next_text(
    socket: &mut Socket,
) -> Result<tokio_tungstenite::tungstenite::Utf8Bytes, String> {
    loop {
        match socket.next().await {
            Some(Ok(Message::Text(text))) if text.starts_with(r#"{"type":"ping""#) => {
                if socket
                    .send(Message::text(r#"{"type":"pong"}"#))
                    .await
                    .is_err()
                {
                    return Err("could not answer a ping".to_owned());
                }
            }
            Some(Ok(Message::Text(text))) => return Ok(text),
            Some(Ok(Message::Close(Some(frame)))) => {
                return Err(format!("closed {} {}", u16::from(frame.code), frame.reason));
            }
            Some(Ok(Message::Close(None))) => return Err("closed without a code".to_owned()),
            Some(Ok(_)) => {}
            Some(Err(err)) => return Err(format!("error: {err}")),
            None => return Err("connection ended".to_owned()),
        }
    }
}

/// How every message of the staff channel begins (Encore's and the baseline's alike: a
/// bus delivery's fields in their declared order), up to its offset.
const STAFF: &str = r#"{"channel":"staff","offset":"#;

/// The string value after `key` (which ends with the opening quote).
fn field<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    let start = text.find(key)? + key.len();
    let len = text[start..].find('"')?;
    Some(&text[start..start + len])
}

fn unix_us(rfc3339: &str) -> Option<u64> {
    let at = OffsetDateTime::parse(rfc3339, &Rfc3339).ok()?;
    u64::try_from(at.unix_timestamp_nanos() / 1000).ok()
}

fn print_ends(tally: &Tally) {
    let ends = tally.ends.lock().unwrap();
    let mut ends: Vec<_> = ends.iter().collect();
    ends.sort_by(|a, b| b.1.cmp(a.1));
    for (why, count) in ends.iter().take(5) {
        println!("  ended: {count} × {why}");
    }
}

/// Resident memory of a process, in KiB.
fn rss_kib(pid: u32) -> anyhow::Result<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status"))?;
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
        .ok_or_else(|| anyhow::anyhow!("no VmRSS for {pid}"))
}

/// User + system CPU time of a process, in seconds (Linux counts in 1/100 s).
fn cpu_seconds(pid: u32) -> anyhow::Result<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat"))?;
    // Fields after the command name (which may hold spaces): state is field 3, utime 14.
    let after = &stat[stat.rfind(')').map_or(0, |i| i + 2)..];
    let fields: Vec<&str> = after.split(' ').collect();
    let ticks: u64 = fields[11].parse::<u64>()? + fields[12].parse::<u64>()?;
    Ok(ticks as f64 / 100.0)
}

/// Percentiles of sorted µs samples, as text in ms.
fn summary(sorted: &[u32], what: &str) -> String {
    if sorted.is_empty() {
        return "no samples".to_owned();
    }
    let at = |p: usize| f64::from(sorted[(sorted.len() * p / 100).min(sorted.len() - 1)]) / 1000.0;
    format!(
        "p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms over {} {what}",
        at(50),
        at(99),
        f64::from(sorted[sorted.len() - 1]) / 1000.0,
        sorted.len()
    )
}

/// The median, 99th percentile and largest of sorted µs samples, in ms (NaN without).
fn p50_ms(sorted: &[u32]) -> f64 {
    ms(sorted.get(sorted.len() / 2))
}

fn p99_ms(sorted: &[u32]) -> f64 {
    ms(sorted.get(sorted.len() * 99 / 100))
}

fn max_ms(sorted: &[u32]) -> f64 {
    ms(sorted.last())
}

fn ms(us: Option<&u32>) -> f64 {
    us.map_or(f64::NAN, |us| f64::from(*us) / 1000.0)
}

/// A sale on the staff channel, as the Live page receives it, sent now.
fn activity(n: usize) -> anyhow::Result<Publication> {
    Ok(Publication::new(&Recorded {
        activity: Activity {
            id: uuid::Uuid::new_v4().to_string(),
            kind: ActivityKind::Sale,
            at: OffsetDateTime::now_utc().format(&Rfc3339)?,
            subject: Subject {
                event_id: Some("5b0e8a1c-4f7d-4c5e-9d55-0e6c1f1d2b7a".to_owned()),
                event_title: Some("Aurora — live from the Roundhouse".to_owned()),
                account_id: Some(uuid::Uuid::new_v4().to_string()),
                account_name: Some(format!("Bench Fan {n}")),
                amount: Some(1500),
                currency: Some("EUR".to_owned()),
            },
        },
    }))
}

/// Wait until `count` reaches `target`, or makes no progress for [`STALL`].
async fn wait_for(count: impl Fn() -> u64, target: u64) -> bool {
    let mut seen = count();
    let mut moved = Instant::now();
    loop {
        let now = count();
        if now >= target {
            return true;
        }
        if now != seen {
            (seen, moved) = (now, Instant::now());
        } else if moved.elapsed() > STALL {
            return false;
        }
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
}

async fn broadcast(args: BroadcastArgs) -> anyhow::Result<()> {
    let (target, pid) = (&args.round.target, args.round.pid);
    let tally = Arc::new(Tally::new());
    let source = match &args.signups {
        Some(base) => Source::Signups {
            http: encore::net::outgoing::client().build()?,
            base: base.trim_end_matches('/').to_owned(),
            next: AtomicU64::new(0),
            in_flight: args.signups_in_flight.max(1),
        },
        None => Source::Bus(Bus::redis(&target.redis_url, &target.redis_prefix).await?),
    };
    let rss_before = rss_kib(pid)?;
    open_sockets(target, &tally).await?;
    tokio::time::sleep(Duration::from_secs(2)).await;
    let rss_open = rss_kib(pid)?;
    let ready = tally.ready.load(Ordering::Relaxed);
    let per_socket = (rss_open.saturating_sub(rss_before)) as f64 * 1024.0 / ready.max(1) as f64;
    println!(
        "server memory: {:.1} MiB before, {:.1} MiB with {ready} idle sockets: {:.2} KB per socket",
        rss_before as f64 / 1024.0,
        rss_open as f64 / 1024.0,
        per_socket / 1000.0
    );

    // One broadcast at a time: how long each takes to reach every socket.
    let me = std::process::id();
    let (server_before, client_before) = (cpu_seconds(pid)?, cpu_seconds(me)?);
    let delivered_before = tally.activities();
    for n in 0..args.latency_broadcasts {
        let alive = tally.open.load(Ordering::Relaxed);
        let target = tally.activities() + alive;
        source.one(n).await?;
        if !wait_for(|| tally.activities(), target).await {
            println!("  broadcast {n} did not reach every socket");
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let latency = tally.take_samples();
    let delivered = (tally.activities() - delivered_before).max(1) as f64;
    let (server_us, client_us) = (
        (cpu_seconds(pid)? - server_before) * 1e6 / delivered,
        (cpu_seconds(me)? - client_before) * 1e6 / delivered,
    );
    println!(
        "one broadcast to every socket ({} broadcasts): {}; CPU per delivery: server {server_us:.1} µs, \
         this client {client_us:.1} µs",
        args.latency_broadcasts,
        summary(&latency, "deliveries")
    );

    // Bursts: as many messages as the server and this client can move.
    let (mut delivered_all, mut seconds_all, mut cpu_all) = (0u64, 0f64, 0f64);
    let mut rates = Vec::new();
    for round in 0..args.rounds {
        let alive = tally.open.load(Ordering::Relaxed);
        let before = tally.activities();
        let cpu_before = cpu_seconds(pid)?;
        let start = now_us();
        source
            .paced(args.burst, args.rate, args.signups_in_flight.max(1))
            .await?;
        let complete = wait_for(|| tally.activities(), before + alive * args.burst as u64).await;
        let delivered = tally.activities() - before;
        let seconds = tally.last_us().saturating_sub(start) as f64 / 1e6;
        let cpu = cpu_seconds(pid)? - cpu_before;
        let burst_latency = tally.take_samples();
        let rate = delivered as f64 / seconds;
        rates.push(rate);
        println!(
            "burst {}: {} × {alive} sockets: {delivered} delivered{} in {seconds:.2} s = {rate:.0} messages/s, \
             server CPU {:.1} µs per message; last delivery p99 {:.0} ms",
            round + 1,
            args.burst,
            if complete { "" } else { " (INCOMPLETE)" },
            cpu * 1e6 / delivered.max(1) as f64,
            p99_ms(&burst_latency),
        );
        (delivered_all, seconds_all, cpu_all) = (
            delivered_all + delivered,
            seconds_all + seconds,
            cpu_all + cpu,
        );
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
    let rss_after = rss_kib(pid)?;
    let open = tally.open.load(Ordering::Relaxed);
    let out_of_order = tally.out_of_order.load(Ordering::Relaxed);
    println!(
        "server memory after the broadcasts: {:.1} MiB; sockets still open: {open} of {ready}; \
         staff messages out of order (offset not the previous + 1): {out_of_order}",
        rss_after as f64 / 1024.0
    );
    print_ends(&tally);
    let rate = delivered_all as f64 / seconds_all;
    println!(
        "RESULT {} sockets={ready} open={open} kb_per_socket={:.2} p50_ms={:.1} p99_ms={:.1} \
         max_ms={:.1} rate={rate:.0} cpu_us={:.2} one_server_us={server_us:.2} \
         one_client_us={client_us:.2} out_of_order={out_of_order}",
        args.round.label,
        per_socket / 1000.0,
        p50_ms(&latency),
        p99_ms(&latency),
        max_ms(&latency),
        cpu_all * 1e6 / delivered_all.max(1) as f64,
    );
    Ok(())
}

async fn cross(args: CrossArgs) -> anyhow::Result<()> {
    let target = &args.target;
    anyhow::ensure!(
        target.sockets.is_multiple_of(target.per_account),
        "--sockets must be a multiple of --per-account"
    );
    let database_url = target
        .database_url
        .as_deref()
        .ok_or_else(|| anyhow::anyhow!("--database-url and --accounts are needed"))?;
    let tally = Arc::new(Tally::new());
    let accounts = open_sockets(target, &tally).await?;
    anyhow::ensure!(
        tally.failed.load(Ordering::Relaxed) == 0,
        "every socket must be open"
    );
    // Instance A's write path: its own pool on the shared database and its own bus.
    let db = encore::db::connect(database_url).await?;
    let bus = Bus::redis(&target.redis_url, &target.redis_prefix).await?;
    let mut commits = Vec::with_capacity(args.notifications);
    for n in 0..args.notifications {
        let account = &accounts[n % accounts.len()];
        let id = uuid::Uuid::new_v4().to_string();
        let (title, link, created_at) = (format!("Sale #{n}"), "/live", encore::db::now_ms());
        let began = Instant::now();
        // Stored first, in its own transaction (the notifying code stores it with its
        // cause), unpublished until the bus has it: the table is its own outbox.
        let mut tx = db.begin().await?;
        sqlx::query(
            "INSERT INTO notifications (id, account_id, kind, title, body, link, created_at) \
             VALUES ($1, $2, 'topic', $3, $4, $5, $6)",
        )
        .bind(&id)
        .bind(account)
        .bind(&title)
        .bind("A ticket was sold.")
        .bind(link)
        .bind(created_at)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        let committed = Instant::now();
        commits.push((committed - began).as_micros() as u32);
        tally
            .committed
            .lock()
            .unwrap()
            .insert(id.clone(), committed);
        let notification = serde_json::from_value(serde_json::json!({
            "id": id, "type": "topic", "title": title, "body": "A ticket was sold.",
            "sender": null, "uploadType": null, "link": link, "read": false,
            "createdAt": encore::db::iso8601(created_at),
        }))?;
        bus.publish(
            &Channel::Account(account.clone()),
            Publication::new(&Published { notification }),
        )
        .await?;
        sqlx::query("UPDATE notifications SET published_at = $1 WHERE id = $2")
            .bind(encore::db::now_ms())
            .bind(&id)
            .execute(&db)
            .await?;
        tokio::time::sleep(Duration::from_millis(args.interval_ms)).await;
    }
    let want = (args.notifications * target.per_account) as u64;
    if !wait_for(|| tally.notifications.load(Ordering::Relaxed), want).await {
        println!(
            "INCOMPLETE: {} of {want} deliveries",
            tally.notifications.load(Ordering::Relaxed)
        );
    }
    commits.sort_unstable();
    let latency = tally.take_samples();
    println!(
        "{} notifications, each to the {} sockets of its account on instance B",
        args.notifications, target.per_account
    );
    println!(
        "  the commit on instance A: {}",
        summary(&commits, "commits")
    );
    println!(
        "  committed on A → received on B: {}",
        summary(&latency, "deliveries")
    );
    print_ends(&tally);
    // A figure of nothing is a broken tool (the smoke run of `make test` must fail on it).
    anyhow::ensure!(
        !latency.is_empty(),
        "no delivery could be timed: the sockets' notifications were not the ones committed"
    );
    println!(
        "RESULT cross deliveries={} p50_ms={:.1} p99_ms={:.1} max_ms={:.1}",
        latency.len(),
        p50_ms(&latency),
        p99_ms(&latency),
        max_ms(&latency),
    );
    Ok(())
}
