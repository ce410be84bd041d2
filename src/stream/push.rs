//! `encore push`: send an AAC (ADTS) or MP3 file to a concert's ingest in real time, paced by frame
//! durations, exactly as a live encoder would (HTTP `PUT` with `source:<key>`).

use std::time::Duration;

use anyhow::Context;

use super::adts::{AdtsParser, SAMPLES_PER_FRAME, adts_frame};
use super::mp3::Mp3Parser;
use crate::config::PushArgs;

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

    let (tx, rx) = tokio::sync::mpsc::channel::<Result<Vec<u8>, std::io::Error>>(8);
    let repeat = args.repeat;
    let pacer = tokio::spawn(async move {
        let start = tokio::time::Instant::now();
        let mut sent: u32 = 0;
        let mut round = 0;
        while repeat == 0 || round < repeat {
            for packet in &packets {
                tokio::time::sleep_until(start + frame_time * sent).await;
                if tx.send(Ok(packet.clone())).await.is_err() {
                    return;
                }
                sent += 1;
            }
            round += 1;
        }
    });
    let body = reqwest::Body::wrap_stream(futures_util::stream::unfold(rx, |mut rx| async move {
        rx.recv().await.map(|item| (item, rx))
    }));
    let response = reqwest::Client::new()
        .put(format!(
            "{}/live/{}",
            args.server.trim_end_matches('/'),
            args.event
        ))
        .basic_auth("source", Some(&args.key))
        .header("content-type", content_type)
        .header("ice-name", "encore push")
        .body(body)
        .send()
        .await
        .context("connecting to the server")?;
    pacer.abort();
    let status = response.status();
    let text = response.text().await.unwrap_or_default();
    anyhow::ensure!(
        status.is_success(),
        "the server refused the stream: {status} {}",
        text.trim()
    );
    println!("done: {}", text.trim());
    Ok(())
}
