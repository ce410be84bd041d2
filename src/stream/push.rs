//! `encore push`: send an AAC file to a concert's ingest in real time, paced by frame
//! durations, exactly as a live encoder would (HTTP `PUT` with `source:<key>`).

use std::time::Duration;

use anyhow::Context;

use super::adts::{AdtsParser, SAMPLES_PER_FRAME, adts_frame};
use crate::config::PushArgs;

pub async fn run(args: PushArgs) -> anyhow::Result<()> {
    let bytes =
        std::fs::read(&args.file).with_context(|| format!("reading {}", args.file.display()))?;
    let frames = AdtsParser::new().push(&bytes);
    anyhow::ensure!(
        !frames.is_empty(),
        "{} is not AAC in ADTS; convert it first: ffmpeg -i IN -c:a aac -b:a 128k -f adts OUT.aac",
        args.file.display()
    );
    let rate = frames[0].config.sample_rate();
    let frame_time = Duration::from_secs_f64(f64::from(SAMPLES_PER_FRAME) / f64::from(rate));
    let packets: Vec<Vec<u8>> = frames
        .iter()
        .map(|f| adts_frame(&f.config, &f.payload))
        .collect();
    let seconds = packets.len() as f64 * frame_time.as_secs_f64();
    println!(
        "pushing {} ({seconds:.1} s, {rate} Hz){} to {}/live/{}",
        args.file.display(),
        if args.repeat == 1 {
            String::new()
        } else {
            format!(" x{}", args.repeat)
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
        .header("content-type", "audio/aac")
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
