//! Many simulated LL-HLS listeners on one Encore instance (issue 5, figure 4).
//!
//! Two processes, so the server's CPU and memory can be measured on their own
//! (`loadtests/listeners.sh` runs both and reads `/proc`):
//!
//! - `listeners serve PORT N FILE [ADTS MINUTES]`: a release Encore on PORT with a
//!   published concert and N listening sessions (one per ticket, opened in-process —
//!   issuing tickets is not what is measured); with ADTS and MINUTES, the show already
//!   has that many minutes recorded (the file looped, fed in-process as fast as it
//!   goes), as when listeners arrive late in a long concert. Writes
//!   `EVENT <id> <stream key> <first live segment>` and the N playlist URLs to FILE,
//!   then serves until killed.
//! - `listeners load URL FILE ADTS SECONDS`: publishes ADTS over the real HTTP ingest in
//!   real time, recording when each part's last frame is sent; then N listeners, each on
//!   its own connection, loop like an LL-HLS player: a blocking playlist reload for the
//!   next part (`_HLS_msn`/`_HLS_part`, delta with `_HLS_skip=YES`), then that part.
//!   Reports, over all listeners: blocking reload latency from the part's last frame
//!   sent to the answer arriving, and part request latency, p50/p99/max, and errors.
//!   With `LISTEN_URLS="URL_A URL_B"` (several instances sharing PostgreSQL and Redis;
//!   `loadtests/cluster-bench.sh`), listeners alternate between the instances, each is
//!   reported apart, and each part's answers on the other instances are timed against the
//!   earliest answer on the publisher's instance (URL, the first of the list).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use clap::Parser;
use encore::config::{Cli, Command, Config};
use encore::events::model::EventStatus;
use encore::state::AppState;
use encore::stream::adts::{AdtsParser, adts_frame};
use encore::stream::segmenter::Layout;

fn now_us() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_micros() as u64)
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("serve") if args.len() == 5 || args.len() == 7 => {
            let prerecord = match args.get(5..7) {
                Some([adts, minutes]) => Some((adts.as_str(), minutes.parse()?)),
                _ => None,
            };
            serve(&args[2], args[3].parse()?, &args[4], prerecord).await
        }
        Some("load") if args.len() == 6 => {
            load(&args[2], &args[3], &args[4], args[5].parse()?).await
        }
        _ => anyhow::bail!(
            "usage: listeners serve PORT N FILE [ADTS MINUTES] | listeners load URL FILE ADTS SECONDS"
        ),
    }
}

/// Record `minutes` of the show before anyone listens: whole segments of the file's
/// frames, looped, through the hub as a publisher that then leaves. Answers the number
/// of segments recorded (the live publisher's first segment).
fn prerecord(state: &AppState, event_id: &str, adts: &str, minutes: u64) -> anyhow::Result<u64> {
    let frames = AdtsParser::new().push(&std::fs::read(adts)?);
    anyhow::ensure!(!frames.is_empty(), "{adts} is not ADTS");
    let rate = frames[0].config.sample_rate();
    let layout = Layout::for_rate(rate);
    let per_segment = (layout.frames_per_part * layout.parts_per_segment) as usize;
    let segment_seconds = (per_segment * 1024) as f64 / f64::from(rate);
    let segments = (minutes as f64 * 60.0 / segment_seconds).round() as usize;
    let show = state.hub.show(event_id);
    let encore::stream::hub::Claim::Granted(publisher) = show.claim() else {
        anyhow::bail!("the show could not be claimed")
    };
    let started = Instant::now();
    let mut looped = frames.iter().cycle();
    for _ in 0..segments {
        let segment: Vec<_> = looped.by_ref().take(per_segment).cloned().collect();
        show.feed(publisher, segment, 0)?;
    }
    show.release(publisher);
    eprintln!(
        "prerecorded {minutes} min ({segments} segments) in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    Ok(segments as u64)
}

async fn serve(
    port: &str,
    listeners: usize,
    file: &str,
    prerecorded: Option<(&str, u64)>,
) -> anyhow::Result<()> {
    let data = tempfile::tempdir()?;
    let url = format!("http://127.0.0.1:{port}");
    let cli = Cli::try_parse_from([
        "encore",
        "serve",
        "--bind",
        &format!("127.0.0.1:{port}"),
        "--public-url",
        &url,
        "--data-dir",
        data.path().to_str().unwrap_or("."),
        "--ingest-bind",
        "",
        "--jwt-secret",
        "bench-secret-bench-secret-bench-secret",
        // Every simulated listener comes from 127.0.0.1.
        "--connections-per-ip",
        "0",
    ])?;
    let Command::Serve(serve) = cli.command else {
        unreachable!()
    };
    let state = AppState::new(Config::from_args(*serve)?).await?;
    let project = encore::projects::store::insert(
        &state.db,
        "Bench",
        "",
        encore::projects::ProjectStatus::Active,
    )
    .await?;
    let event = encore::events::store::insert(
        &state.db,
        encore::events::store::NewEvent {
            project_id: &project.id,
            title: "Bench",
            artist_name: "Bench",
            description: "",
            starts_at: encore::db::now_ms(),
            duration_minutes: 90,
            price_minor: 100,
            currency: "EUR",
            capacity: None,
        },
    )
    .await?;
    encore::events::store::set_status(
        &state.db,
        &event.id,
        &[EventStatus::Draft],
        EventStatus::Published,
    )
    .await?;
    let first_live_segment = match prerecorded {
        Some((adts, minutes)) => prerecord(&state, &event.id, adts, minutes)?,
        None => 0,
    };
    // Keys are stored hashed: a rotation is the one moment a key is known.
    let key = encore::events::store::rotate_stream_key(&state.db, &event.id).await?;
    let mut out = format!("EVENT {} {key} {first_live_segment}\n", event.id);
    for i in 0..listeners {
        let (_, token) = state.stream_access.open(
            &event.id,
            &format!("bench-ticket-{i}"),
            event.starts_at + 86_400_000,
        );
        out.push_str(&format!("{url}/stream/{token}/index.m3u8\n"));
    }
    std::fs::write(file, out)?;
    let listener = tokio::net::TcpListener::bind(state.config.bind).await?;
    println!("READY");
    encore::app::serve(listener, None, state, std::future::pending()).await?;
    Ok(())
}

/// One listener's keep-alive HTTP/1.1 connection. A bare request writer and response
/// reader (status, Content-Length body) keeps the load generator cheap enough that the
/// server, not the client, is what gets measured on a 2-core machine.
struct Connection {
    addr: String,
    stream: Option<tokio::io::BufReader<tokio::net::TcpStream>>,
}

impl Connection {
    fn new(addr: &str) -> Self {
        Self {
            addr: addr.to_owned(),
            stream: None,
        }
    }

    async fn get(&mut self, path: &str) -> std::io::Result<(u16, Vec<u8>)> {
        use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt};
        if self.stream.is_none() {
            let tcp = tokio::net::TcpStream::connect(&self.addr).await?;
            tcp.set_nodelay(true)?;
            self.stream = Some(tokio::io::BufReader::new(tcp));
        }
        let stream = self.stream.as_mut().expect("connected");
        let request = format!("GET {path} HTTP/1.1\r\nHost: {}\r\n\r\n", self.addr);
        let result = async {
            stream.get_mut().write_all(request.as_bytes()).await?;
            let mut line = String::new();
            stream.read_line(&mut line).await?;
            let status: u16 = line
                .split(' ')
                .nth(1)
                .and_then(|s| s.parse().ok())
                .ok_or(std::io::ErrorKind::InvalidData)?;
            let mut length = 0usize;
            loop {
                line.clear();
                if stream.read_line(&mut line).await? == 0 {
                    return Err(std::io::ErrorKind::UnexpectedEof.into());
                }
                let header = line.trim_end();
                if header.is_empty() {
                    break;
                }
                if let Some((name, value)) = header.split_once(':')
                    && name.eq_ignore_ascii_case("content-length")
                {
                    length = value.trim().parse().unwrap_or(0);
                }
            }
            let mut body = vec![0; length];
            stream.read_exact(&mut body).await?;
            Ok((status, body))
        }
        .await;
        if result.is_err() {
            self.stream = None;
        }
        result
    }
}

/// Latencies in microseconds, one vector per listener, merged at the end.
#[derive(Default)]
struct Samples {
    reload: Vec<u64>,
    part: Vec<u64>,
    errors: u64,
    /// (part index, when the blocking reload listing it arrived, µs since the epoch).
    arrivals: Vec<(usize, u64)>,
}

fn summary(name: &str, values: &mut [u64]) -> String {
    if values.is_empty() {
        return format!("{name}: none");
    }
    values.sort_unstable();
    let at = |q: f64| values[((values.len() - 1) as f64 * q).round() as usize] as f64 / 1000.0;
    format!(
        "{name}: n={} p50={:.1} ms p99={:.1} ms max={:.1} ms",
        values.len(),
        at(0.5),
        at(0.99),
        at(1.0)
    )
}

/// `seg{msn}.{part}.m4s` of the playlist's preload hint.
fn preload_hint(playlist: &str) -> Option<(u64, u64)> {
    let line = playlist
        .lines()
        .rev()
        .find(|l| l.starts_with("#EXT-X-PRELOAD-HINT"))?;
    let uri = line.split("URI=\"").nth(1)?.split('"').next()?;
    let (msn, part) = uri
        .strip_prefix("seg")?
        .strip_suffix(".m4s")?
        .split_once('.')?;
    Some((msn.parse().ok()?, part.parse().ok()?))
}

async fn load(url: &str, file: &str, adts: &str, seconds: u64) -> anyhow::Result<()> {
    let text = std::fs::read_to_string(file)?;
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap_or_default().split(' ').collect();
    let [_, event, key, first_live_segment] = header[..] else {
        anyhow::bail!("bad session file")
    };
    let first_live_segment: u64 = first_live_segment.parse()?;
    let playlists: Vec<String> = lines.map(str::to_owned).collect();
    let frames = AdtsParser::new().push(&std::fs::read(adts)?);
    anyhow::ensure!(!frames.is_empty(), "{adts} is not ADTS");
    let rate = frames[0].config.sample_rate();
    let layout = Layout::for_rate(rate);
    let frame_time = Duration::from_secs_f64(1024.0 / f64::from(rate));
    let parts_per_segment = u64::from(layout.parts_per_segment);
    let per_part = layout.frames_per_part as usize;
    let total_parts = frames.len() / per_part;
    // When each part's last frame left the publisher (µs since the epoch; 0 = not yet).
    let sent: Arc<Vec<AtomicU64>> = Arc::new((0..total_parts).map(|_| AtomicU64::new(0)).collect());

    // The publisher: the real HTTP ingest, paced by frame durations. A one-frame channel:
    // a frame counts as sent once the body stream has taken the one before it, so no
    // backlog on our side is counted as the server's latency.
    let (tx, rx) = tokio::sync::mpsc::channel::<Result<Vec<u8>, std::io::Error>>(1);
    let marks = sent.clone();
    let pacer = tokio::spawn(async move {
        let start = tokio::time::Instant::now();
        for (i, frame) in frames.iter().enumerate() {
            tokio::time::sleep_until(start + frame_time * i as u32).await;
            if tx
                .send(Ok(adts_frame(&frame.config, &frame.payload)))
                .await
                .is_err()
            {
                return;
            }
            if (i + 1) % per_part == 0
                && let Some(mark) = marks.get(i / per_part)
            {
                mark.store(now_us(), Ordering::Relaxed);
            }
        }
    });
    let publish = reqwest::Client::new()
        .put(format!("{url}/live/{event}"))
        .basic_auth("source", Some(key))
        .header("content-type", "audio/aac")
        .body(reqwest::Body::wrap_stream(futures_util::stream::unfold(
            rx,
            |mut rx| async move { rx.recv().await.map(|item| (item, rx)) },
        )))
        .send();
    let publisher = tokio::spawn(publish);
    tokio::time::sleep(Duration::from_secs(2)).await;

    let instances: Vec<String> = std::env::var("LISTEN_URLS")
        .map(|urls| urls.split_whitespace().map(str::to_owned).collect())
        .unwrap_or_else(|_| vec![url.to_owned()]);
    let n = playlists.len();
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let mut tasks = Vec::with_capacity(n);
    let requests = Arc::new(AtomicU64::new(0));
    for (i, playlist) in playlists.into_iter().enumerate() {
        let instance = &instances[i % instances.len()];
        let mut http = Connection::new(instance.trim_start_matches("http://"));
        let sent = sent.clone();
        let requests = requests.clone();
        // Listeners arrive over two seconds, as after a "we're live" notification.
        let delay = Duration::from_millis((2000 * i / n.max(1)) as u64);
        let path = playlist.strip_prefix(url).unwrap_or(&playlist).to_owned();
        tasks.push(tokio::spawn(async move {
            tokio::time::sleep(delay).await;
            let mut samples = Samples::default();
            let base = path.trim_end_matches("index.m3u8").to_owned();
            let text = |body: Vec<u8>| String::from_utf8(body).unwrap_or_default();
            let mut next = match http.get(&path).await {
                Ok((200, body)) => preload_hint(&text(body)),
                _ => None,
            };
            requests.fetch_add(1, Ordering::Relaxed);
            while Instant::now() < deadline {
                let Some((msn, part)) = next else {
                    samples.errors += 1;
                    break;
                };
                let reload = http
                    .get(&format!(
                        "{path}?_HLS_msn={msn}&_HLS_part={part}&_HLS_skip=YES"
                    ))
                    .await;
                let arrived = now_us();
                requests.fetch_add(1, Ordering::Relaxed);
                let body = match reload {
                    Ok((200, body)) => text(body),
                    _ => {
                        samples.errors += 1;
                        tokio::time::sleep(Duration::from_millis(250)).await;
                        continue;
                    }
                };
                let index =
                    (msn.saturating_sub(first_live_segment) * parts_per_segment + part) as usize;
                if let Some(mark) = sent.get(index).map(|m| m.load(Ordering::Relaxed))
                    && mark > 0
                {
                    samples.reload.push(arrived.saturating_sub(mark));
                }
                samples.arrivals.push((index, arrived));
                let asked = Instant::now();
                match http.get(&format!("{base}seg{msn}.{part}.m4s")).await {
                    Ok((200, body)) if !body.is_empty() => {
                        samples.part.push(asked.elapsed().as_micros() as u64);
                    }
                    _ => samples.errors += 1,
                }
                requests.fetch_add(1, Ordering::Relaxed);
                next = preload_hint(&body);
            }
            samples
        }));
    }
    let started = Instant::now();
    let mut all = Samples::default();
    let mut per_instance: Vec<Samples> = instances.iter().map(|_| Samples::default()).collect();
    for (i, task) in tasks.into_iter().enumerate() {
        let s = task.await?;
        all.reload.extend(&s.reload);
        all.part.extend(&s.part);
        all.errors += s.errors;
        let mine = &mut per_instance[i % instances.len()];
        mine.reload.extend(s.reload);
        mine.arrivals.extend(s.arrivals);
    }
    let elapsed = started.elapsed().as_secs_f64();
    pacer.abort();
    publisher.abort();
    println!(
        "{n} listeners, {:.0} s: {:.0} requests/s, {} errors",
        elapsed,
        requests.load(Ordering::Relaxed) as f64 / elapsed,
        all.errors
    );
    println!(
        "{}",
        summary(
            "blocking reload (part's last frame sent → playlist listing it received)",
            &mut all.reload
        )
    );
    println!(
        "{}",
        summary("part request (asked → received)", &mut all.part)
    );
    if instances.len() > 1 {
        // Each part's earliest answer on the publisher's instance.
        let mut first_on_publisher = vec![u64::MAX; total_parts];
        for &(index, at) in &per_instance[0].arrivals {
            if let Some(first) = first_on_publisher.get_mut(index) {
                *first = (*first).min(at);
            }
        }
        for (instance, samples) in instances.iter().zip(&mut per_instance) {
            println!(
                "{}",
                summary(
                    &format!("  listeners on {instance}: blocking reload"),
                    &mut samples.reload
                )
            );
        }
        for (instance, samples) in instances.iter().zip(&per_instance).skip(1) {
            let mut behind: Vec<u64> = (samples.arrivals.iter())
                .filter_map(|&(index, at)| {
                    let first = *first_on_publisher.get(index)?;
                    (first != u64::MAX).then(|| at.saturating_sub(first))
                })
                .collect();
            println!(
                "{}",
                summary(
                    &format!("  a part's answer on {instance} after its first answer on {url}"),
                    &mut behind
                )
            );
        }
    }
    Ok(())
}
