//! Streaming benchmarks, in-process server (release build):
//! 1. server-added latency: a blocking playlist reload waits for the next part; we feed
//!    that part's last frame and time until the response arrives (p50/p99);
//! 2. then it keeps serving, prints a signed part URL and the show directory, and waits,
//!    so `loadtests/stream-bench.sh` can run wrk against it and against nginx serving
//!    the same files.
//!
//! Usage: stream_bench ADTS_FILE PORT

use std::time::{Duration, Instant};

use encore::accounts::model::{Password, Role};
use encore::commerce::model::ItemKind;
use encore::commerce::orders::{self, NewItem};
use encore::stream::codecs::adts::AdtsParser;
use encore::stream::show::hub::Claim;

#[path = "shared/bench.rs"]
mod bench;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    anyhow::ensure!(args.len() == 3, "usage: stream_bench ADTS_FILE PORT");
    let frames = AdtsParser::new().push(&std::fs::read(&args[1])?);
    anyhow::ensure!(frames.len() > 2000, "need at least ~45 s of audio");
    let data = tempfile::tempdir()?;
    let url = format!("http://127.0.0.1:{}", args[2]);
    let state = bench::built(
        &args[2],
        data.path(),
        "bench-secret-bench-secret-bench-secret",
    )
    .await?;
    let listener = tokio::net::TcpListener::bind(state.config.bind).await?;
    tokio::spawn(encore::startup::run(
        listener,
        None,
        state.clone(),
        std::future::pending(),
    ));

    // A concert, a fan, a paid ticket and a listening session.
    let event = bench::concert_on_sale(
        &state.db,
        "Bench",
        "",
        "Bench",
        encore::db::now_ms() + 60_000,
        90,
        100,
    )
    .await?;
    let hash = state
        .passwords
        .hash(&Password::parse("a fine long passphrase")?)
        .await?;
    let fan = encore::accounts::store::insert(
        &state.db,
        encore::accounts::store::NewAccount::verified("bench@example.com", Role::User, Some(hash)),
    )
    .await?;
    let item = NewItem {
        kind: ItemKind::Event,
        id: event.id.clone(),
        title: "Bench".into(),
        price_minor: 100,
        // The concert's default tier.
        tier: None,
        quantity: 1,
    };
    let (order, _) =
        orders::create_pending(&state.db, &fan.id, None, &[item], "EUR", "test", None).await?;
    orders::fulfil(&state, &order, Some("bench")).await?;
    let (ticket,): (String,) = sqlx::query_as("SELECT id FROM tickets WHERE order_id = $1")
        .bind(&order)
        .fetch_one(&state.db)
        .await?;
    let (_, token) =
        state
            .stream_access
            .open(&event.id, &ticket, event.details.starts_at + 86_400_000);

    // 1. Server-added latency of blocking playlist reload.
    let show = state.hub.show(&event.id);
    let Claim::Granted(publisher) = show.claim() else {
        anyhow::bail!("claim")
    };
    let per_part = encore::stream::hls::segmenter::Layout::for_rate(frames[0].config.sample_rate())
        .frames_per_part as usize;
    let parts_per_segment = 4u64;
    let client = encore::net::outgoing::client().build()?;
    let mut latencies = Vec::new();
    let mut chunks = frames.chunks(per_part).enumerate();
    let (_, first) = chunks.next().expect("frames");
    show.feed_standard(publisher, first.to_vec())?;
    for (index, chunk) in chunks {
        if chunk.len() < per_part {
            break;
        }
        let (msn, part) = (
            index as u64 / parts_per_segment,
            index as u64 % parts_per_segment,
        );
        let request = client
            .get(format!(
                "{url}/stream/{token}/index.m3u8?_HLS_msn={msn}&_HLS_part={part}"
            ))
            .send();
        let waiting = tokio::spawn(async move {
            let response = request.await;
            (Instant::now(), response.map(|r| r.status()))
        });
        tokio::time::sleep(Duration::from_millis(30)).await; // the request is parked
        let (head, last) = chunk.split_at(per_part - 1);
        show.feed_standard(publisher, head.to_vec())?;
        let fed = Instant::now();
        show.feed_standard(publisher, last.to_vec())?; // the part's last byte arrives
        let (answered, status) = waiting.await?;
        anyhow::ensure!(status? == reqwest::StatusCode::OK, "blocking reload failed");
        latencies.push(answered.saturating_duration_since(fed));
    }
    latencies.sort();
    let pct = |q: f64| {
        latencies[((latencies.len() - 1) as f64 * q).round() as usize].as_secs_f64() * 1000.0
    };
    println!(
        "server-added latency (part complete → blocking reload answered), {} parts: p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        latencies.len(),
        pct(0.5),
        pct(0.99),
        pct(1.0)
    );

    // 2. Serve for wrk: a full part in the middle of the show.
    println!(
        "READY {url}/stream/{token}/seg3.1.m4s {}",
        show.dir().display()
    );
    std::future::pending::<()>().await;
    Ok(())
}
