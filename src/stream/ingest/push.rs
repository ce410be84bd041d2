//! `encore push`: send an AAC (ADTS) or MP3 file to a concert's ingest in real time, paced by frame
//! durations, exactly as a live encoder would (HTTP `PUT` with `source:<key>`). Like a live
//! encoder it reconnects when the connection is lost or the server lets the show go (an
//! instance stopping, or gone behind the load balancer), for up to the server's default
//! wait for an encoder (15 minutes), and goes on from the audio due then.

use std::time::Duration;

use anyhow::Context;
use reqwest::StatusCode;

use crate::config::PushArgs;
use crate::stream::codecs::adts::{AdtsParser, SAMPLES_PER_FRAME, adts_frame};
use crate::stream::codecs::mp3::Mp3Parser;

/// A file cut into frames, each sent when its time comes.
struct Paced {
    packets: Vec<Vec<u8>>,
    /// Seconds of audio per packet.
    frame_time: Duration,
    sample_rate: u32,
    content_type: &'static str,
}

/// AAC in ADTS is sent as it is; MP3 too (the server transcodes it to AAC).
fn frames_of(bytes: &[u8]) -> Option<Paced> {
    let aac = AdtsParser::new().push(bytes);
    if aac.len() > 1 {
        let rate = aac[0].config.sample_rate();
        return Some(Paced {
            frame_time: Duration::from_secs_f64(f64::from(SAMPLES_PER_FRAME) / f64::from(rate)),
            packets: aac
                .iter()
                .map(|f| adts_frame(&f.config, &f.payload))
                .collect(),
            sample_rate: rate,
            content_type: "audio/aac",
        });
    }
    let mp3 = Mp3Parser::new().push(bytes);
    let first = mp3.first()?.config;
    Some(Paced {
        frame_time: Duration::from_secs_f64(
            f64::from(first.samples_per_frame) / f64::from(first.sample_rate),
        ),
        packets: mp3.into_iter().map(|f| f.data).collect(),
        sample_rate: first.sample_rate,
        content_type: "audio/mpeg",
    })
}

pub async fn run(args: PushArgs) -> anyhow::Result<()> {
    let bytes =
        std::fs::read(&args.file).with_context(|| format!("reading {}", args.file.display()))?;
    let Paced {
        packets,
        frame_time,
        sample_rate: rate,
        content_type,
    } = frames_of(&bytes).with_context(|| {
        format!(
            "{} is neither AAC in ADTS nor MP3; convert it first: ffmpeg -i IN -c:a aac -b:a 128k -f adts OUT.aac",
            args.file.display()
        )
    })?;
    let seconds = packets.len() as f64 * frame_time.as_secs_f64();
    println!(
        "pushing {} ({seconds:.1} s, {rate} Hz, {content_type}){} to {}/live/{}",
        args.file.display(),
        match args.repeat {
            0 => " on a loop".to_owned(),
            1 => String::new(),
            n => format!(" x{n}"),
        },
        args.server,
        args.event
    );

    let packets = std::sync::Arc::new(packets);
    let total = (args.repeat != 0).then(|| packets.len() as u64 * u64::from(args.repeat));
    let url = format!("{}/live/{}", args.server.trim_end_matches('/'), args.event);
    let client = crate::net::outgoing::client().build()?;
    let started = tokio::time::Instant::now();
    let mut down_since = None::<tokio::time::Instant>;
    let mut backoff = RETRY_FIRST;
    loop {
        // Live: the audio goes on from the frame due now, whatever a lost connection
        // missed (a live source cannot send the past again).
        let due = (started.elapsed().as_secs_f64() / frame_time.as_secs_f64()) as u64;
        if total.is_some_and(|total| due >= total) {
            anyhow::bail!("the connection was lost and the file's time is over");
        }
        let sent = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
        let (tx, rx) = tokio::sync::mpsc::channel::<Result<Vec<u8>, std::io::Error>>(8);
        let pacer = tokio::spawn(pace(
            packets.clone(),
            frame_time,
            started,
            due,
            total,
            tx,
            sent.clone(),
        ));
        let body =
            reqwest::Body::wrap_stream(futures_util::stream::unfold(rx, |mut rx| async move {
                rx.recv().await.map(|item| (item, rx))
            }));
        let answer = client
            .put(&url)
            .basic_auth("source", Some(&args.key))
            .header("content-type", content_type)
            .header("ice-name", "encore push")
            .body(body)
            .send()
            .await;
        pacer.abort();
        // A connection that took a second of audio was up: the outage starts again from
        // zero next time.
        let rate = f64::from(rate) / f64::from(crate::stream::codecs::adts::SAMPLES_PER_FRAME);
        if sent.load(std::sync::atomic::Ordering::Relaxed) as f64 > rate.max(8.0) {
            down_since = None;
            backoff = RETRY_FIRST;
        }
        let why = match answer {
            Ok(response) => {
                let status = response.status();
                let text = response.text().await.unwrap_or_default();
                if status.is_success() {
                    println!("done: {}", text.trim());
                    return Ok(());
                }
                // Another instance's lease not yet expired (409), an instance stopping
                // (503) or gone behind the load balancer (502, 504): try again.
                let retry = matches!(
                    status,
                    StatusCode::CONFLICT
                        | StatusCode::BAD_GATEWAY
                        | StatusCode::SERVICE_UNAVAILABLE
                        | StatusCode::GATEWAY_TIMEOUT
                );
                anyhow::ensure!(
                    retry,
                    "the server refused the stream: {status} {}",
                    text.trim()
                );
                format!("{status} {}", text.trim())
            }
            Err(err) => format!("connection lost: {err}"),
        };
        let since = *down_since.get_or_insert_with(tokio::time::Instant::now);
        anyhow::ensure!(
            since.elapsed() < RECONNECT_FOR,
            "gave up reconnecting after {} s: {why}",
            RECONNECT_FOR.as_secs()
        );
        eprintln!("{why}; reconnecting in {} ms", backoff.as_millis());
        tokio::time::sleep(backoff).await;
        backoff = (backoff * 2).min(RETRY_MAX);
    }
}

/// How long `encore push` keeps reconnecting: the server's default wait for an encoder,
/// after which the show has ended anyway.
const RECONNECT_FOR: Duration = crate::stream::show::hub::DEFAULT_ABANDON_AFTER;
const RETRY_FIRST: Duration = Duration::from_millis(200);
const RETRY_MAX: Duration = Duration::from_secs(2);

/// Send frame `from` onwards, each at its time from `started`, until `total` (or
/// forever); counts what it sent.
async fn pace(
    packets: std::sync::Arc<Vec<Vec<u8>>>,
    frame_time: Duration,
    started: tokio::time::Instant,
    from: u64,
    total: Option<u64>,
    tx: tokio::sync::mpsc::Sender<Result<Vec<u8>, std::io::Error>>,
    sent: std::sync::Arc<std::sync::atomic::AtomicU64>,
) {
    let mut index = from;
    while total.is_none_or(|total| index < total) {
        let at = frame_time.mul_f64(index as f64);
        tokio::time::sleep_until(started + at).await;
        let packet = packets[(index % packets.len() as u64) as usize].clone();
        if tx.send(Ok(packet)).await.is_err() {
            return;
        }
        sent.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        index += 1;
    }
}
