//! Issue 32's CPU figure: what making the rendition ladder costs per show, against the
//! single-rendition ingest of today, side by side in the same run, for an AAC publisher
//! (today: its frames parsed and passed on; ladder: decoded once, encoded at 48 and
//! 128 kbit/s, passed on) and an MP3 one (today: decoded and encoded at 128 kbit/s;
//! ladder: decoded once, encoded twice); and a browser's lossless go-live (float PCM in
//! WebM: today encoded at 128 kbit/s; the ladder's AAC renditions; the same ladder with
//! its lossless rendition, `flacenc` beside the AAC encoders).
//!
//! Each run feeds SECONDS of audio as fast as the pipeline takes it and reads the
//! process's CPU time (GStreamer's threads included) before and after: CPU seconds per
//! second of audio is the share of one core a live show of that kind keeps busy. The
//! rounds alternate which of the two goes first; the medians are printed.
//!
//! Usage: ladder_bench SECONDS ROUNDS

use std::time::Duration;

use encore::stream::codecs::adts::AdtsParser;
use encore::stream::codecs::ladder::{self, Input, Ladder, Rendition};
use encore::stream::codecs::transcode::{self, Target, Transcoder};

/// An encoder's network writes: the size of each push.
const CHUNK: usize = 4096;

fn cpu_seconds() -> f64 {
    // SAFETY: getrusage only writes the struct it is given.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) };
    let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// SECONDS of music-like audio (a chord over quiet noise, so the encoders spend their
/// bits), encoded by ffmpeg as `args` say.
fn input(seconds: u32, args: &[&str]) -> anyhow::Result<Vec<u8>> {
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("in");
    let source = format!(
        "aevalsrc=exprs='0.05*(2*random(0)-1)+0.2*sin(2*PI*220*t)+0.15*sin(2*PI*277*t)+0.1*sin(2*PI*330*t)*sin(2*PI*0.5*t)':s=48000:d={seconds}"
    );
    let status = std::process::Command::new("ffmpeg")
        .args([
            "-v", "error", "-y", "-f", "lavfi", "-i", &source, "-ac", "2",
        ])
        .args(args)
        .arg(&path)
        .status()?;
    anyhow::ensure!(status.success(), "ffmpeg failed");
    Ok(std::fs::read(path)?)
}

/// Today's ingest of the bytes: CPU seconds used.
async fn today(input: Input, bytes: &[u8]) -> anyhow::Result<f64> {
    let start = cpu_seconds();
    match input {
        Input::Aac => {
            let mut parser = AdtsParser::new();
            let frames: usize = bytes.chunks(CHUNK).map(|c| parser.push(c).len()).sum();
            anyhow::ensure!(frames > 0, "no frames");
        }
        Input::Transcoded => {
            let mut t = Transcoder::start(Target::for_show(None), 128)?;
            for chunk in bytes.chunks(CHUNK) {
                t.push(chunk);
            }
            t.finish();
            loop {
                match tokio::time::timeout(Duration::from_secs(120), t.next()).await? {
                    Some(transcode::Output::Adts(_)) => {}
                    Some(transcode::Output::Done) => break,
                    other => anyhow::bail!("transcoder: {other:?}"),
                }
            }
        }
        Input::Flac(_) => anyhow::bail!("this benchmark's publishers send AAC or MP3"),
    }
    Ok(cpu_seconds() - start)
}

/// What one run of the ladder made: CPU seconds used, bytes per AAC rendition, and the
/// lossless rendition's FLAC bytes.
struct Made {
    cpu: f64,
    sizes: Vec<(Rendition, usize)>,
    flac: usize,
}

/// The ladder's making of every rendition; `lossless`: as for a show (`for_show`), which
/// gives lossless PCM its FLAC rendition too.
async fn ladder(input: Input, bytes: &[u8], lossless: bool) -> anyhow::Result<Made> {
    let start = cpu_seconds();
    let mut ladder = if lossless {
        Ladder::for_show(input, None)?
    } else {
        Ladder::start(input, Target::for_show(None))?
    };
    let mut sizes: Vec<(Rendition, usize)> = Vec::new();
    let mut flac = 0;
    for chunk in bytes.chunks(CHUNK) {
        ladder.push(chunk)?;
    }
    ladder.finish();
    loop {
        match tokio::time::timeout(Duration::from_secs(120), ladder.next()).await? {
            Some(ladder::Output::Step(step)) => {
                // A sniffing ladder knows its renditions once it has decided.
                if sizes.is_empty() {
                    sizes = ladder.renditions().into_iter().map(|r| (r, 0)).collect();
                }
                for ((_, size), frame) in sizes.iter_mut().zip(&step.frames) {
                    *size += 7 + frame.payload.len();
                }
                flac += (ladder.take_flac(step.index).iter())
                    .map(|f| f.data.len())
                    .sum::<usize>();
            }
            Some(ladder::Output::Done) => break,
            other => anyhow::bail!("ladder: {other:?}"),
        }
    }
    Ok(Made {
        cpu: cpu_seconds() - start,
        sizes,
        flac,
    })
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    anyhow::ensure!(args.len() == 3, "usage: ladder_bench SECONDS ROUNDS");
    let seconds: u32 = args[1].parse()?;
    let rounds: usize = args[2].parse()?;
    let mp3 = [
        "-ar",
        "44100",
        "-c:a",
        "libmp3lame",
        "-b:a",
        "192k",
        "-f",
        "mp3",
    ];
    // (name, kind, bytes, whether the ladder also runs as for a show, lossless included)
    let inputs = [
        (
            "AAC 192 kbit/s 48 kHz",
            Input::Aac,
            input(seconds, &["-c:a", "aac", "-b:a", "192k", "-f", "adts"])?,
            false,
        ),
        (
            "MP3 192 kbit/s 44.1 kHz",
            Input::Transcoded,
            input(seconds, &mp3)?,
            false,
        ),
        (
            "browser lossless: float PCM 48 kHz in WebM",
            Input::Transcoded,
            input(seconds, &["-c:a", "pcm_f32le", "-f", "matroska"])?,
            true,
        ),
    ];
    println!(
        "ladder bench: {seconds} s of audio per run, {rounds} rounds, encoder {}",
        transcode::encoder()?
    );
    for (name, kind, bytes, lossless) in &inputs {
        let (mut base, mut made, mut with_flac) = (Vec::new(), Vec::new(), Vec::new());
        let (mut sizes, mut flac) = (Vec::new(), 0);
        for round in 0..rounds {
            // Rotate the order so that drift weighs on each alike.
            for run in (0..3).map(|i| (i + round) % 3) {
                match run {
                    0 => base.push(today(*kind, bytes).await?),
                    1 => {
                        let m = ladder(*kind, bytes, false).await?;
                        made.push(m.cpu);
                        sizes = m.sizes;
                    }
                    _ if *lossless => {
                        let m = ladder(*kind, bytes, true).await?;
                        with_flac.push(m.cpu);
                        flac = m.flac;
                    }
                    _ => {}
                }
            }
        }
        let share = |cpu: f64| 100.0 * cpu / f64::from(seconds);
        let (base, made) = (share(median(base)), share(median(made)));
        println!(
            "{name}: today {base:.2} % of a core, ladder {made:.2} %, the ladder's extra {:.2} % (goal ≤ 15 %)",
            made - base
        );
        if *lossless {
            let with_flac = share(median(with_flac));
            println!(
                "  with its lossless rendition: {with_flac:.2} % of a core, the FLAC branch {:.2} %, the ladder's extra {:.2} %",
                with_flac - made,
                with_flac - base
            );
        }
        let kbps = |bytes: usize| bytes as f64 * 8.0 / f64::from(seconds) / 1000.0;
        let standard = sizes.iter().find(|(r, _)| *r == Rendition::Standard);
        let saver = sizes.iter().find(|(r, _)| *r == Rendition::DataSaver);
        for (rendition, size) in &sizes {
            println!("  {}: {:.1} kbit/s", rendition.name(), kbps(*size));
        }
        if flac > 0 {
            println!("  lossless: {:.1} kbit/s", kbps(flac));
        }
        if let (Some((_, standard)), Some((_, saver))) = (standard, saver) {
            println!(
                "  data saver ÷ standard bytes: {:.3} (goal ≤ 0.45)",
                *saver as f64 / *standard as f64
            );
        }
    }
    Ok(())
}
