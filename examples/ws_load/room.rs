//! Issue 29's room figures (`loadtests/room-bench.sh` runs them): one concert's room with
//! every socket a ticket holder following `chat:<id>`, messages and reactions posted at a
//! rate, and what reaches each socket: every message (none lost, each socket's offsets in
//! order), how long after it was posted, in how many frames a second, and the server's
//! CPU per delivered message. The baseline (`ws_baseline` on the same channel) gets the
//! same messages through the bus and sends each as its own frame.
//!
//! - `ws_load prepare-room DATABASE_URL FANS FILE`: before the server starts, store a
//!   published concert (doors open) and FANS accounts, each with a session, a paid order
//!   and a ticket, through Encore's own stores; FILE gets `account session` lines (the
//!   `--accounts` of every command), FILE.event the concert's id.
//! - `ws_load room …`: open the sockets (one per fan), then for `--seconds` post messages
//!   (`POST /events/{id}/chat`, each text `b<seq> <µs sent>`, from `--posters` fans in
//!   turn: a fan may post 5 in 10 s) and reactions (`POST …/chat/reactions`, 10 at a time
//!   from fans each sending every 2 s: a fan may send 10 a second) at their rates. Without
//!   `--http`, the messages are published on the bus as Encore publishes them, and the
//!   reaction counts twice a second (the baseline's input).
//!
//! Each socket counts the messages and reaction counts in its frames (no JSON parse; a
//! `batch` frame holds messages as they would have gone alone) and keeps its frames per
//! second; one in ten also checks that its offsets follow one another and times each
//! message from the µs in its text.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use clap::Args;
use encore::bus::{Bus, Channel, Publication};
use encore::chat::model::{ChatMessage, Counts, Posted, Reactions};
use futures_util::StreamExt;

use super::{
    Follow, Round, Socket, Tally, bench, cpu_seconds, field, holders, max_ms, next_text, now_us,
    open_following, p50_ms, p99_ms, print_ends, summary, tokens, wait_for,
};

/// Messages and reaction requests in flight at once.
const IN_FLIGHT: usize = 64;
/// Reactions per request, and how often each reacting fan sends (a fan may send 10 a
/// second: 5 a second on average, 10 in one request at most).
const REACTIONS_PER_REQUEST: u64 = 10;
const REACT_EVERY: Duration = Duration::from_secs(2);
/// One socket in CHECKED checks the order of its offsets and times each message.
const CHECKED: usize = 10;
/// How each of the room's messages begins, a lone frame or inside a batch.
const ROOM_DELIVERY: &str = r#"{"channel":"chat:"#;

#[derive(Args)]
pub struct RoomArgs {
    #[command(flatten)]
    round: Round,
    /// The concert (`prepare-room` wrote it to FILE.event).
    #[arg(long)]
    event: String,
    /// Encore's HTTP base URL: holders post there. Without, the bus carries them.
    #[arg(long)]
    http: Option<String>,
    #[arg(long, default_value_t = 100.0)]
    messages_per_second: f64,
    #[arg(long, default_value_t = 2000.0)]
    reactions_per_second: f64,
    #[arg(long, default_value_t = 20)]
    seconds: u64,
    /// Fans who post, in turn.
    #[arg(long, default_value_t = 400)]
    posters: usize,
}

pub async fn prepare(database_url: &str, fans: usize, file: &Path) -> anyhow::Result<()> {
    let db = encore::db::connect(database_url).await?;
    encore::auth::clients::seed_web_client(&db, "http://127.0.0.1/auth/callback").await?;
    let started = Instant::now();
    let event = bench::concert_on_sale(
        &db,
        "The Bench Band",
        "A room full of fans.",
        "A full room",
        encore::db::now_ms() + 10 * 60_000,
        120,
        500,
    )
    .await?;
    let mut out = String::new();
    for (account, session) in holders::holders(&db, &event.id, fans).await? {
        out.push_str(&format!("{} {session}\n", account.id));
    }
    std::fs::write(file, out)?;
    std::fs::write(file.with_extension("event"), &event.id)?;
    eprintln!(
        "prepared a concert and {fans} holders in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// What the room's sockets report beside the [`Tally`] (messages as its activities).
#[derive(Default)]
struct Frames {
    /// Frames of the room received (pings aside).
    frames: AtomicU64,
    /// Reaction counts received.
    reactions: AtomicU64,
    /// The most frames one socket received within one second.
    busiest_second: AtomicU64,
    /// Socket-seconds with more than 4 frames, and all socket-seconds counted.
    over_four: AtomicU64,
    seconds: AtomicU64,
}

pub async fn run(args: RoomArgs) -> anyhow::Result<()> {
    let (target, pid) = (&args.round.target, args.round.pid);
    let tally = Arc::new(Tally::new());
    let frames = Arc::new(Frames::default());
    let follow = Follow {
        subscribe: Some(
            serde_json::json!({ "type": "subscribe", "channel": format!("chat:{}", args.event) })
                .to_string(),
        ),
        subscribed: format!(r#""type":"subscribed","channel":"chat:{}""#, args.event),
        read_buffer: 64 * 1024,
    };
    let reader = {
        let (tally, frames) = (tally.clone(), frames.clone());
        move |i, socket| {
            let (tally, frames) = (tally.clone(), frames.clone());
            async move { read_room(i, socket, &tally, &frames).await }
        }
    };
    let (tokens, _) = tokens(target).await?;
    open_following(target, &tally, &follow, reader).await?;
    let ready = tally.ready.load(Ordering::Relaxed);
    anyhow::ensure!(ready > 0, "no socket follows the room");
    tokio::time::sleep(Duration::from_secs(2)).await;

    let me = std::process::id();
    let (server_before, client_before) = (cpu_seconds(pid)?, cpu_seconds(me)?);
    let (delivered_before, frames_before) =
        (tally.activities(), frames.frames.load(Ordering::Relaxed));
    let started = Instant::now();
    let sent = match &args.http {
        Some(base) => post_over_http(&args, base, &tokens).await?,
        None => publish_on_bus(&args).await?,
    };
    let posting = started.elapsed().as_secs_f64();
    let expected = delivered_before + sent.messages * ready;
    let complete = wait_for(|| tally.activities(), expected).await;
    let delivered = tally.activities() - delivered_before;
    let (server_cpu, client_cpu) = (
        cpu_seconds(pid)? - server_before,
        cpu_seconds(me)? - client_before,
    );
    let latency = tally.take_samples();
    let room_frames = frames.frames.load(Ordering::Relaxed) - frames_before;
    let out_of_order = tally.out_of_order.load(Ordering::Relaxed);
    let lost = (sent.messages * ready).saturating_sub(delivered);
    let per_socket_second = room_frames as f64 / ready as f64 / posting;
    let (busiest, over_four, socket_seconds) = (
        frames.busiest_second.load(Ordering::Relaxed),
        frames.over_four.load(Ordering::Relaxed),
        frames.seconds.load(Ordering::Relaxed).max(1),
    );
    let server_us = server_cpu * 1e6 / delivered.max(1) as f64;
    println!(
        "{} messages and {} reactions sent ({} refused) in {posting:.1} s to {ready} sockets",
        sent.messages, sent.reactions, sent.refused
    );
    println!(
        "  delivered {delivered} of {} ({lost} lost{}), {} reaction counts; out of order: {out_of_order}",
        sent.messages * ready,
        if complete { "" } else { ", INCOMPLETE" },
        frames.reactions.load(Ordering::Relaxed),
    );
    println!(
        "  posted → received (one socket in {CHECKED}): {}",
        summary(&latency, "deliveries")
    );
    println!(
        "  frames per socket: {per_socket_second:.2} a second on average, at most {busiest} in one second; \
         {over_four} of {socket_seconds} socket-seconds above 4"
    );
    println!(
        "  CPU per delivered message: server {server_us:.3} µs ({server_cpu:.1} s), this client {:.3} µs",
        client_cpu * 1e6 / delivered.max(1) as f64
    );
    print_ends(&tally);
    println!(
        "RESULT {} sockets={ready} sent={} delivered={delivered} lost={lost} p50_ms={:.1} \
         p99_ms={:.1} max_ms={:.1} frames_per_s={per_socket_second:.2} busiest={busiest} \
         over_four={over_four} server_us={server_us:.3} out_of_order={out_of_order}",
        args.round.label,
        sent.messages,
        p50_ms(&latency),
        p99_ms(&latency),
        max_ms(&latency),
    );
    Ok(())
}

/// What was offered to the room.
#[derive(Default)]
struct Sent {
    messages: u64,
    reactions: u64,
    /// Requests the server refused (rate limits, …): a refused message is not expected.
    refused: u64,
}

/// Holders post messages and reactions to Encore at their rates for `--seconds`.
async fn post_over_http(args: &RoomArgs, base: &str, tokens: &[String]) -> anyhow::Result<Sent> {
    let http = encore::net::outgoing::client()
        .pool_max_idle_per_host(IN_FLIGHT * 2)
        .build()?;
    let base = base.trim_end_matches('/');
    let chat = format!("{base}/api/v1/events/{}/chat", args.event);
    let reactions = format!("{chat}/reactions");
    // Reacting fans: after the posters, enough that each sends every REACT_EVERY; the
    // posters are as many as asked for that the other accounts leave.
    let per_fan = REACTIONS_PER_REQUEST as f64 / REACT_EVERY.as_secs_f64();
    let reactors = ((args.reactions_per_second / per_fan).ceil() as usize).max(1);
    let posters = args
        .posters
        .min(tokens.len().saturating_sub(reactors))
        .max(1);
    anyhow::ensure!(
        posters + reactors <= tokens.len(),
        "{posters} posters and {reactors} reacting fans need that many accounts"
    );
    let messages = (args.messages_per_second * args.seconds as f64) as u64;
    let requests =
        (args.reactions_per_second / REACTIONS_PER_REQUEST as f64 * args.seconds as f64) as u64;
    let started = tokio::time::Instant::now();
    let message_due =
        |n: u64| started + Duration::from_secs_f64(n as f64 / args.messages_per_second);
    let reaction_due = |n: u64| {
        started
            + Duration::from_secs_f64(
                n as f64 * REACTIONS_PER_REQUEST as f64 / args.reactions_per_second,
            )
    };
    let mut pending = futures_util::stream::FuturesUnordered::new();
    let (mut next_message, mut next_reaction) = (0u64, 0u64);
    let mut sent = Sent::default();
    loop {
        let message_at = (next_message < messages).then(|| message_due(next_message));
        let reaction_at = (next_reaction < requests).then(|| reaction_due(next_reaction));
        let due = match (message_at, reaction_at) {
            (None, None) => break,
            (Some(m), Some(r)) => m.min(r),
            (Some(at), None) | (None, Some(at)) => at,
        };
        tokio::select! {
            () = tokio::time::sleep_until(due), if pending.len() < IN_FLIGHT * 2 => {
                if message_at == Some(due) {
                    let token = &tokens[next_message as usize % posters];
                    let text = format!("b{next_message} {}", now_us());
                    let request = http.post(&chat).bearer_auth(token)
                        .json(&serde_json::json!({ "text": text }));
                    pending.push(send(request, Kind::Message));
                    next_message += 1;
                } else {
                    let token = &tokens[posters + next_reaction as usize % reactors];
                    let kind = ["applause", "heart", "fire"][next_reaction as usize % 3];
                    let request = http.post(&reactions).bearer_auth(token)
                        .json(&serde_json::json!({ "kind": kind, "count": REACTIONS_PER_REQUEST }));
                    pending.push(send(request, Kind::Reactions));
                    next_reaction += 1;
                }
            }
            Some(done) = pending.next(), if !pending.is_empty() => count(&mut sent, done?),
        }
    }
    while let Some(done) = pending.next().await {
        count(&mut sent, done?);
    }
    Ok(sent)
}

#[derive(Clone, Copy)]
enum Kind {
    Message,
    Reactions,
}

/// What one request did: a message taken, reactions counted, or refused.
enum Outcome {
    Message,
    Reactions(u64),
    Refused,
}

async fn send(request: reqwest::RequestBuilder, kind: Kind) -> anyhow::Result<Outcome> {
    let response = request.send().await?;
    let status = response.status();
    if !status.is_success() {
        if status != reqwest::StatusCode::TOO_MANY_REQUESTS {
            eprintln!(
                "  refused: {status} {}",
                response.text().await.unwrap_or_default()
            );
        }
        return Ok(Outcome::Refused);
    }
    Ok(match kind {
        Kind::Message => Outcome::Message,
        Kind::Reactions => {
            let body: serde_json::Value = response.json().await?;
            Outcome::Reactions(body["payload"]["accepted"].as_u64().unwrap_or(0))
        }
    })
}

fn count(sent: &mut Sent, outcome: Outcome) {
    match outcome {
        Outcome::Message => sent.messages += 1,
        Outcome::Reactions(n) => sent.reactions += n,
        Outcome::Refused => sent.refused += 1,
    }
}

/// The baseline's input: the messages as Encore publishes them on the room's channel, and
/// the reaction counts twice a second, at the same rates.
async fn publish_on_bus(args: &RoomArgs) -> anyhow::Result<Sent> {
    let target = &args.round.target;
    let bus = Bus::redis(&target.redis_url, &target.redis_prefix).await?;
    let channel = Channel::Chat(args.event.clone());
    let messages = (args.messages_per_second * args.seconds as f64) as u64;
    let started = tokio::time::Instant::now();
    let mut next_counts = started;
    let mut sent = Sent::default();
    for n in 0..messages {
        let due = started + Duration::from_secs_f64(n as f64 / args.messages_per_second);
        tokio::time::sleep_until(due).await;
        let message = ChatMessage {
            id: uuid::Uuid::new_v4().to_string(),
            event_id: args.event.clone(),
            account_id: uuid::Uuid::new_v4().to_string(),
            author: "Fan B.".to_owned(),
            badge: None,
            kind: Default::default(),
            tip: None,
            text: format!("b{n} {}", now_us()),
            media_time: 0,
            posted_at: encore::db::iso8601(encore::db::now_ms()),
        };
        bus.publish(&channel, Publication::new(&Posted { message }))
            .await?;
        sent.messages += 1;
        if tokio::time::Instant::now() >= next_counts {
            let each = (args.reactions_per_second / 6.0) as u64;
            let counts = Counts {
                applause: each,
                heart: each,
                fire: each,
            };
            let reactions = Reactions {
                event_id: args.event.clone(),
                media_time: 0,
                counts,
            };
            bus.publish(&channel, Publication::new(&reactions)).await?;
            sent.reactions += 3 * each;
            next_counts += Duration::from_millis(500);
        }
    }
    Ok(sent)
}

/// Read one socket until it ends: answer pings; count the room's frames per second, its
/// messages (timing each from the µs in its text) and reaction counts; check the offsets
/// follow one another.
async fn read_room(index: usize, mut socket: Socket, tally: &Tally, frames: &Frames) {
    let mut last_offset: Option<u64> = None;
    let (mut second, mut in_second) = (0u64, 0u64);
    let mut samples = Vec::new();
    let why = loop {
        let text = match next_text(&mut socket).await {
            Ok(text) => text,
            Err(why) => break why,
        };
        let received = now_us();
        frames.frames.fetch_add(1, Ordering::Relaxed);
        let now_second = received / 1_000_000;
        if now_second != second {
            if in_second > 0 {
                frames.seconds.fetch_add(1, Ordering::Relaxed);
                frames
                    .busiest_second
                    .fetch_max(in_second, Ordering::Relaxed);
                if in_second > 4 {
                    frames.over_four.fetch_add(1, Ordering::Relaxed);
                }
            }
            (second, in_second) = (now_second, 0);
        }
        in_second += 1;
        // One socket in ten checks its offsets and times its messages; the others count
        // them (cheaper: the client shares the machine with the server it measures).
        let checked = index.is_multiple_of(CHECKED);
        let mut messages = 0;
        if !checked {
            messages = text.matches(r#""type":"chat_message""#).count() as u64;
            frames.reactions.fetch_add(
                text.matches(r#""type":"chat_reactions""#).count() as u64,
                Ordering::Relaxed,
            );
        }
        for (at, key) in text.match_indices(ROOM_DELIVERY).filter(|_| checked) {
            // `{"channel":"chat:<id>","offset":<n>,"epoch":"…","type":"…",…`
            let Some(rest) = text[at + key.len()..]
                .split_once(r#""offset":"#)
                .map(|(_, r)| r)
            else {
                continue;
            };
            let rest = tally.next_offset(rest, &mut last_offset);
            match field(rest, r#""type":""#) {
                Some("chat_message") => {
                    let Some(body) = field(rest, r#""text":"b"#) else {
                        continue;
                    };
                    messages += 1;
                    let sent = body
                        .split_once(' ')
                        .and_then(|(_, us)| us.parse::<u64>().ok());
                    if let Some(sent) = sent {
                        samples.push(received.saturating_sub(sent).min(u64::from(u32::MAX)) as u32);
                    }
                }
                Some("chat_reactions") => {
                    frames.reactions.fetch_add(1, Ordering::Relaxed);
                }
                _ => {}
            }
        }
        if messages > 0 {
            tally.received(index, messages, received, &mut samples);
        }
    };
    tally.ended(why);
}
