//! Many simulated LL-HLS listeners on one Encore instance (issue 5, figure 4).
//!
//! Two processes, so the server's CPU and memory can be measured on their own
//! (`loadtests/listeners.sh` runs both and reads `/proc`):
//!
//! - `listeners serve PORT N FILE [ADTS MINUTES]`: a release Encore on PORT with a
//!   published concert and N listening sessions (one per ticket, opened in-process —
//!   issuing tickets is not what is measured — and recorded as a real one is); with
//!   ADTS and MINUTES, the show already has that many minutes recorded (the file looped,
//!   fed in-process as fast as it goes), as when listeners arrive late in a long
//!   concert. Writes
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
//! - `listeners compare URL_A PID_A URL_B PID_B FILE ADTS SECONDS ROUNDS` (issue 14,
//!   `SPLIT=1 loadtests/cluster-bench.sh`): one publisher on A (A serves FILE's show, B
//!   shares its PostgreSQL and Redis) and the same N listeners, back to back: all on A
//!   with B subscribed and idle, then half on each; every phase measures for SECONDS,
//!   from `/proc`, the CPU time and memory of both Encore processes (and of Redis with
//!   `REDIS_PID`), the 200s each served and the errors (any other status or a transport
//!   error), and reports CPU per listener and the ratio of the two configurations.
//! - `listeners spread URL PID FILE ADTS SECONDS ROUNDS` (issue 32,
//!   `SPREAD=1 loadtests/listeners.sh`): one instance, one publisher (an AAC one, so the
//!   show has the data saver, the standard and the source rendition) and the same N
//!   listeners, back to back: all on the standard rendition, then spread over the three
//!   (listener i on the data saver, the standard, the source in turn); every phase
//!   measures, as `compare` does, the server's CPU time and memory, the 200s and the
//!   errors, and the latencies; the figure is the 200s per CPU-second spread ÷ all on the
//!   standard (the issue's goal: ≥ 0.95).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

#[path = "shared/bench.rs"]
mod bench;
#[path = "shared/holders.rs"]
mod holders;

use encore::state::AppState;
use encore::stream::codecs::adts::{AdtsParser, adts_frame};
use encore::stream::hls::segmenter::Layout;

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
        Some("compare") if args.len() == 10 => {
            compare(
                &args[2],
                args[3].parse()?,
                &args[4],
                args[5].parse()?,
                &args[6],
                &args[7],
                args[8].parse()?,
                args[9].parse()?,
            )
            .await
        }
        Some("spread") if args.len() == 8 => {
            spread(
                &args[2],
                args[3].parse()?,
                &args[4],
                &args[5],
                args[6].parse()?,
                args[7].parse()?,
            )
            .await
        }
        _ => anyhow::bail!(
            "usage: listeners serve PORT N FILE [ADTS MINUTES] | listeners load URL FILE ADTS SECONDS \
             | listeners compare URL_A PID_A URL_B PID_B FILE ADTS SECONDS ROUNDS \
             | listeners spread URL PID FILE ADTS SECONDS ROUNDS"
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
    let encore::stream::show::hub::Claim::Granted(publisher) = show.claim() else {
        anyhow::bail!("the show could not be claimed")
    };
    let started = Instant::now();
    let mut looped = frames.iter().cycle();
    for _ in 0..segments {
        let segment: Vec<_> = looped.by_ref().take(per_segment).cloned().collect();
        show.feed_standard(publisher, segment)?;
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
    let state = bench::built(port, data.path(), SECRET).await?;
    let event = bench::concert_on_sale(
        &state.db,
        "Bench",
        "",
        "Bench",
        encore::db::now_ms(),
        90,
        100,
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
        // As `stream::access::sessions::start` opens one: recorded, then activated on every
        // instance (one that falls behind the bus reloads the recorded sessions).
        let holder = format!("bench-ticket-{i}");
        let expires_at = event.details.starts_at + 86_400_000;
        let (session_id, token) = state.stream_access.issue(&event.id, &holder, expires_at);
        let session = encore::stream::access::store::NewSession {
            holder: &holder,
            event_id: &event.id,
            ticket_id: None,
            pass_id: None,
            session_id: &session_id,
            expires_at,
        };
        encore::stream::access::store::upsert(&state.db, &session, encore::db::now_ms()).await?;
        state.stream_access.activate(&holder, &session_id);
        out.push_str(&format!("{url}/stream/{token}/index.m3u8\n"));
    }
    std::fs::write(file, out)?;
    room_fans(&state, &event.id, file).await?;
    let listener = tokio::net::TcpListener::bind(state.config.bind).await?;
    println!("READY");
    encore::startup::run(listener, None, state, std::future::pending()).await?;
    Ok(())
}

/// With `ROOM_FANS=K`, K ticket holders of the concert signed in, their access tokens
/// written to FILE.tokens (one a line) and the concert's id to FILE.event: the room's
/// sockets and posters of `loadtests/room-bench.sh` beside the listeners (issue 29).
async fn room_fans(state: &AppState, event_id: &str, file: &str) -> anyhow::Result<()> {
    let Some(fans) = std::env::var("ROOM_FANS").ok().and_then(|n| n.parse().ok()) else {
        return Ok(());
    };
    let keys = encore::auth::jwt::TokenKeys::new(&encore::config::Secret::new(SECRET.to_owned()));
    let mut tokens = String::new();
    for (account, session) in holders::holders(&state.db, event_id, fans).await? {
        let token = keys.sign(&account, &session, encore::auth::clients::WEB_CLIENT_ID)?;
        tokens.push_str(&token);
        tokens.push('\n');
    }
    let file = std::path::Path::new(file);
    std::fs::write(file.with_extension("tokens"), tokens)?;
    std::fs::write(file.with_extension("event"), event_id)?;
    Ok(())
}

/// The server's JWT secret (the room's tokens are signed with it).
const SECRET: &str = "bench-secret-bench-secret-bench-secret";

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
    /// (part index, when the blocking reload listing it arrived, µs since the epoch).
    arrivals: Vec<(usize, u64)>,
}

/// One instance's answers: 200s, and errors (any other status, a transport error, an
/// empty part, or a playlist naming no next part).
#[derive(Default)]
struct Counts {
    answered: AtomicU64,
    errors: AtomicU64,
    /// The first error was described on stderr.
    told: AtomicBool,
}

impl Counts {
    fn ok(&self) {
        self.answered.fetch_add(1, Ordering::Relaxed);
    }

    /// Count an error, and describe the instance's first one on stderr.
    fn failed(&self, request: &str, answer: Option<&std::io::Result<(u16, Vec<u8>)>>) {
        self.errors.fetch_add(1, Ordering::Relaxed);
        if !self.told.swap(true, Ordering::Relaxed) {
            let what = match answer {
                Some(Ok((status, body))) => format!(
                    "{status} {}",
                    String::from_utf8_lossy(&body[..body.len().min(200)])
                ),
                Some(Err(e)) => e.to_string(),
                None => "no next part in the playlist".to_owned(),
            };
            eprintln!("first error: {request}: {what}");
        }
    }

    fn answered(&self) -> u64 {
        self.answered.load(Ordering::Relaxed)
    }

    fn errors(&self) -> u64 {
        self.errors.load(Ordering::Relaxed)
    }
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

/// When each part of the show left the publisher, to time the answers against.
#[derive(Clone)]
struct Timeline {
    /// When each part's last frame was sent (µs since the epoch; 0 = not yet).
    sent: Arc<Vec<AtomicU64>>,
    first_live_segment: u64,
    parts_per_segment: u64,
}

impl Timeline {
    /// The part's index in the publisher's file.
    fn index(&self, msn: u64, part: u64) -> usize {
        (msn.saturating_sub(self.first_live_segment) * self.parts_per_segment + part) as usize
    }
}

/// The show of a session file, being published.
struct Show {
    /// Every listener's playlist path (the session file's URL without its instance).
    paths: Vec<String>,
    timeline: Timeline,
    total_parts: usize,
    pacer: tokio::task::JoinHandle<()>,
    publisher: tokio::task::JoinHandle<reqwest::Result<reqwest::Response>>,
}

impl Show {
    /// Read the session file written by `serve` on `url` and publish the ADTS file to
    /// `url` over the real HTTP ingest in real time; answers two seconds in, once
    /// there is a show to listen to.
    async fn publish(url: &str, file: &str, adts: &str) -> anyhow::Result<Self> {
        let text = std::fs::read_to_string(file)?;
        let mut lines = text.lines();
        let header: Vec<&str> = lines.next().unwrap_or_default().split(' ').collect();
        let [_, event, key, first_live_segment] = header[..] else {
            anyhow::bail!("bad session file")
        };
        let paths: Vec<String> = lines
            .map(|playlist| playlist.strip_prefix(url).unwrap_or(playlist).to_owned())
            .collect();
        let frames = AdtsParser::new().push(&std::fs::read(adts)?);
        anyhow::ensure!(!frames.is_empty(), "{adts} is not ADTS");
        let rate = frames[0].config.sample_rate();
        let layout = Layout::for_rate(rate);
        let frame_time = Duration::from_secs_f64(1024.0 / f64::from(rate));
        let per_part = layout.frames_per_part as usize;
        let total_parts = frames.len() / per_part;
        let timeline = Timeline {
            sent: Arc::new((0..total_parts).map(|_| AtomicU64::new(0)).collect()),
            first_live_segment: first_live_segment.parse()?,
            parts_per_segment: u64::from(layout.parts_per_segment),
        };

        // The publisher: the real HTTP ingest, paced by frame durations. A one-frame
        // channel: a frame counts as sent once the body stream has taken the one before
        // it, so no backlog on our side is counted as the server's latency.
        let (tx, rx) = tokio::sync::mpsc::channel::<Result<Vec<u8>, std::io::Error>>(1);
        let marks = timeline.sent.clone();
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
        let publish = encore::net::outgoing::client()
            .build()?
            .put(format!("{url}/live/{event}"))
            .basic_auth("source", Some(key))
            .header("content-type", "audio/aac")
            .body(reqwest::Body::wrap_stream(futures_util::stream::unfold(
                rx,
                |mut rx| async move { rx.recv().await.map(|item| (item, rx)) },
            )))
            .send();
        let publisher = tokio::spawn(publish);
        // Listeners arrive once the show is on air: its playlist answers (2 s at least, up to
        // 30 on a machine busy with something else, e.g. the room of room-bench.sh).
        tokio::time::sleep(Duration::from_secs(2)).await;
        let first: &String = paths
            .first()
            .ok_or_else(|| anyhow::anyhow!("no listener"))?;
        let http = encore::net::outgoing::client().build()?;
        for _ in 0..280 {
            let answer = http.get(format!("{url}{first}")).send().await;
            if answer.is_ok_and(|a| a.status().is_success()) {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        Ok(Self {
            paths,
            timeline,
            total_parts,
            pacer,
            publisher,
        })
    }

    /// Listener `i` on `instances[i % len]`, each on its own connection, arriving over
    /// two seconds as after a "we're live" notification, until `stop`. With renditions
    /// (`saver`, `standard`, `source`), listener `i` plays `renditions[i % len]`'s playlist
    /// (`/stream/{token}/{rendition}/index.m3u8`, as hls.js does from the multivariant);
    /// without, the session's own URL (the standard rendition's, today's URL).
    fn listen(
        &self,
        instances: &[(&str, Arc<Counts>)],
        renditions: &[&str],
        stop: &Arc<AtomicBool>,
    ) -> Vec<tokio::task::JoinHandle<Samples>> {
        let n = self.paths.len();
        (self.paths.iter().enumerate())
            .map(|(i, path)| {
                let (url, counts) = &instances[i % instances.len()];
                let path = match renditions.get(i % renditions.len().max(1)) {
                    Some(rendition) => {
                        path.replace("/index.m3u8", &format!("/{rendition}/index.m3u8"))
                    }
                    None => path.clone(),
                };
                tokio::spawn(listener(
                    Connection::new(url.trim_start_matches("http://")),
                    path,
                    Duration::from_millis((2000 * i / n.max(1)) as u64),
                    self.timeline.clone(),
                    counts.clone(),
                    stop.clone(),
                ))
            })
            .collect()
    }

    fn stop(&self) {
        self.pacer.abort();
        self.publisher.abort();
    }
}

/// One listener looping like an LL-HLS player until `stop`: a blocking reload for the
/// next part (delta), then that part.
async fn listener(
    mut http: Connection,
    path: String,
    delay: Duration,
    timeline: Timeline,
    counts: Arc<Counts>,
    stop: Arc<AtomicBool>,
) -> Samples {
    tokio::time::sleep(delay).await;
    let mut samples = Samples::default();
    let base = path.trim_end_matches("index.m3u8").to_owned();
    let text = |body: Vec<u8>| String::from_utf8(body).unwrap_or_default();
    let mut next = match http.get(&path).await {
        Ok((200, body)) => {
            counts.ok();
            preload_hint(&text(body))
        }
        answer => {
            counts.failed(&path, Some(&answer));
            return samples;
        }
    };
    while !stop.load(Ordering::Relaxed) {
        let Some((msn, part)) = next else {
            counts.failed(&path, None);
            break;
        };
        let request = format!("{path}?_HLS_msn={msn}&_HLS_part={part}&_HLS_skip=YES");
        let reload = http.get(&request).await;
        let arrived = now_us();
        let body = match reload {
            Ok((200, body)) => text(body),
            answer => {
                counts.failed(&request, Some(&answer));
                tokio::time::sleep(Duration::from_millis(250)).await;
                continue;
            }
        };
        counts.ok();
        let index = timeline.index(msn, part);
        if let Some(mark) = timeline.sent.get(index).map(|m| m.load(Ordering::Relaxed))
            && mark > 0
        {
            samples.reload.push(arrived.saturating_sub(mark));
        }
        samples.arrivals.push((index, arrived));
        let asked = Instant::now();
        let request = format!("{base}seg{msn}.{part}.m4s");
        match http.get(&request).await {
            Ok((200, body)) if !body.is_empty() => {
                counts.ok();
                samples.part.push(asked.elapsed().as_micros() as u64);
            }
            answer => counts.failed(&request, Some(&answer)),
        }
        next = preload_hint(&body);
    }
    samples
}

async fn load(url: &str, file: &str, adts: &str, seconds: u64) -> anyhow::Result<()> {
    let show = Show::publish(url, file, adts).await?;
    let urls: Vec<String> = std::env::var("LISTEN_URLS")
        .map(|urls| urls.split_whitespace().map(str::to_owned).collect())
        .unwrap_or_else(|_| vec![url.to_owned()]);
    let instances: Vec<(&str, Arc<Counts>)> =
        urls.iter().map(|u| (u.as_str(), Arc::default())).collect();
    let n = show.paths.len();
    let stop = Arc::new(AtomicBool::new(false));
    let deadline = tokio::time::Instant::now() + Duration::from_secs(seconds);
    let tasks = show.listen(&instances, &[], &stop);
    let timer = tokio::spawn({
        let stop = stop.clone();
        async move {
            tokio::time::sleep_until(deadline).await;
            stop.store(true, Ordering::Relaxed);
        }
    });
    let started = Instant::now();
    let mut all = Samples::default();
    let mut per_instance: Vec<Samples> = urls.iter().map(|_| Samples::default()).collect();
    for (i, task) in tasks.into_iter().enumerate() {
        let s = task.await?;
        all.reload.extend(&s.reload);
        all.part.extend(&s.part);
        let mine = &mut per_instance[i % urls.len()];
        mine.reload.extend(s.reload);
        mine.arrivals.extend(s.arrivals);
    }
    let elapsed = started.elapsed().as_secs_f64();
    timer.abort();
    show.stop();
    let (answered, errors) =
        (instances.iter()).fold((0, 0), |(a, e), (_, c)| (a + c.answered(), e + c.errors()));
    println!(
        "{n} listeners, {:.0} s: {:.0} requests/s, {errors} errors",
        elapsed,
        (answered + errors) as f64 / elapsed,
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
    if urls.len() > 1 {
        // Each part's earliest answer on the publisher's instance.
        let mut first_on_publisher = vec![u64::MAX; show.total_parts];
        for &(index, at) in &per_instance[0].arrivals {
            if let Some(first) = first_on_publisher.get_mut(index) {
                *first = (*first).min(at);
            }
        }
        for (instance, samples) in urls.iter().zip(&mut per_instance) {
            println!(
                "{}",
                summary(
                    &format!("  listeners on {instance}: blocking reload"),
                    &mut samples.reload
                )
            );
        }
        for (instance, samples) in urls.iter().zip(&per_instance).skip(1) {
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

// ------------------------------------------------------------- one instance against two

/// An Encore process (or Redis, or this load generator) whose CPU time and memory are read
/// from `/proc`.
struct Process {
    name: String,
    pid: u32,
}

impl Process {
    /// utime + stime of every thread, in clock ticks.
    fn cpu_ticks(&self) -> anyhow::Result<u64> {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.pid))?;
        // Fields after the command name (which may hold spaces): state is the first,
        // utime the 12th and stime the 13th (fields 14 and 15 of proc(5)).
        let fields: Vec<&str> = (stat.rsplit_once(')').map(|(_, rest)| rest))
            .unwrap_or_default()
            .split_whitespace()
            .collect();
        let field = |i: usize| -> anyhow::Result<u64> {
            Ok(fields
                .get(i)
                .ok_or_else(|| anyhow::anyhow!("short /proc/{}/stat", self.pid))?
                .parse()?)
        };
        Ok(field(11)? + field(12)?)
    }

    fn rss_kib(&self) -> anyhow::Result<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid))?;
        let line = (status.lines())
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .ok_or_else(|| anyhow::anyhow!("no VmRSS for {}", self.pid))?;
        Ok(line.trim().trim_end_matches("kB").trim().parse()?)
    }
}

/// Clock ticks per second of `/proc/PID/stat` times.
fn clock_ticks() -> f64 {
    std::process::Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .ok()
        .and_then(|out| String::from_utf8(out.stdout).ok()?.trim().parse().ok())
        .unwrap_or(100.0)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Placement {
    /// Every listener on A; B subscribed to the show but serving no one.
    Alone,
    /// Listener i on A when i is even, on B when odd.
    Split,
    /// One instance, every listener on the standard rendition (`standard/index.m3u8`).
    Standard,
    /// One instance, listener i on the data saver, the standard and the source rendition
    /// in turn.
    Spread,
}

impl Placement {
    /// The renditions the listeners are spread over (none: the session's own URL).
    fn renditions(self) -> &'static [&'static str] {
        match self {
            Self::Alone | Self::Split => &[],
            Self::Standard => &["standard"],
            Self::Spread => &["saver", "standard", "source"],
        }
    }
}

/// One configuration's measured window.
struct Phase {
    placement: Placement,
    round: u32,
    seconds: f64,
    /// CPU seconds of each process over the window.
    cpu: Vec<f64>,
    /// Each process's resident memory at the window's end.
    rss_kib: Vec<u64>,
    /// 200s each instance (A, B) answered in the window.
    answered: [u64; 2],
    /// Errors over the whole phase (arrival and leaving included), both instances.
    errors: u64,
    reload: Vec<u64>,
    part: Vec<u64>,
}

impl Phase {
    /// The CPU time of the first `with` processes (A, B, Redis) per listener-second, in ms.
    fn ms_per_listener_second(&self, listeners: usize, with: usize) -> f64 {
        let cpu: f64 = self.cpu[..with].iter().sum();
        cpu * 1000.0 / (listeners as f64 * self.seconds)
    }

    /// A+B CPU time per 200 answered, in µs.
    fn us_per_answer(&self) -> f64 {
        (self.cpu[0] + self.cpu[1]) * 1e6 / (self.answered[0] + self.answered[1]).max(1) as f64
    }
}

/// A ramp of listeners arriving (2 s) and settling (1 s) before a window opens.
const RAMP: Duration = Duration::from_secs(3);

/// One configuration: the listeners arrive, then for `seconds` the CPU time of every
/// process and the answers are counted; then the listeners leave.
async fn phase(
    show: &Show,
    (placement, round): (Placement, u32),
    instances: &[(&str, Arc<Counts>)],
    processes: &[Process],
    seconds: u64,
) -> anyhow::Result<Phase> {
    let stop = Arc::new(AtomicBool::new(false));
    let errors_before: u64 = instances.iter().map(|(_, c)| c.errors()).sum();
    let tasks = show.listen(instances, placement.renditions(), &stop);
    tokio::time::sleep(RAMP).await;
    let answered = || {
        let mut on = [0; 2];
        for (slot, (_, counts)) in on.iter_mut().zip(instances) {
            *slot = counts.answered();
        }
        on
    };
    let ticks =
        || -> anyhow::Result<Vec<u64>> { processes.iter().map(Process::cpu_ticks).collect() };
    let (cpu_before, answered_before, opened) = (ticks()?, answered(), Instant::now());
    tokio::time::sleep(Duration::from_secs(seconds)).await;
    let (cpu_after, answered_after, window) = (ticks()?, answered(), opened.elapsed());
    let rss = processes
        .iter()
        .map(Process::rss_kib)
        .collect::<anyhow::Result<_>>()?;
    stop.store(true, Ordering::Relaxed);
    let (mut reload, mut part) = (Vec::new(), Vec::new());
    for task in tasks {
        let samples = task.await?;
        reload.extend(samples.reload);
        part.extend(samples.part);
    }
    let errors = instances.iter().map(|(_, c)| c.errors()).sum::<u64>() - errors_before;
    let hz = clock_ticks();
    let cpu = (cpu_before.iter().zip(&cpu_after))
        .map(|(before, after)| (after - before) as f64 / hz)
        .collect();
    let mut served = [0; 2];
    for (i, slot) in served.iter_mut().enumerate() {
        *slot = answered_after[i] - answered_before[i];
    }
    Ok(Phase {
        placement,
        round,
        seconds: window.as_secs_f64(),
        cpu,
        rss_kib: rss,
        answered: served,
        errors,
        reload,
        part,
    })
}

/// `listeners compare URL_A PID_A URL_B PID_B FILE ADTS SECONDS ROUNDS`: with the same
/// publisher (on A) and the same listeners, back to back, all listeners on A with B
/// subscribed and idle, then half on A and half on B; ROUNDS times, in the order
/// alone, split, split, alone, alone, split … so a drift of the machine's load weighs on
/// both alike. Prints each phase and a Markdown table of them all. `REDIS_PID`: Redis's
/// CPU time is reported too.
#[allow(clippy::too_many_arguments)]
async fn compare(
    a: &str,
    pid_a: u32,
    b: &str,
    pid_b: u32,
    file: &str,
    adts: &str,
    seconds: u64,
    rounds: u32,
) -> anyhow::Result<()> {
    let show = Show::publish(a, file, adts).await?;
    let n = show.paths.len();
    let mut processes = vec![
        Process {
            name: "A".into(),
            pid: pid_a,
        },
        Process {
            name: "B".into(),
            pid: pid_b,
        },
    ];
    if let Some(pid) = std::env::var("REDIS_PID").ok().and_then(|p| p.parse().ok()) {
        processes.push(Process {
            name: "Redis".into(),
            pid,
        });
    }
    processes.push(Process {
        name: "load generator".into(),
        pid: std::process::id(),
    });
    let redis = processes.len() == 4;
    let (on_a, on_b): (Arc<Counts>, Arc<Counts>) = Default::default();
    let mut phases = Vec::new();
    for round in 1..=rounds {
        let order = if round % 2 == 1 {
            [Placement::Alone, Placement::Split]
        } else {
            [Placement::Split, Placement::Alone]
        };
        for placement in order {
            let instances: Vec<(&str, Arc<Counts>)> = match placement {
                Placement::Split => vec![(a, on_a.clone()), (b, on_b.clone())],
                _ => vec![(a, on_a.clone())],
            };
            let p = phase(&show, (placement, round), &instances, &processes, seconds).await?;
            println!(
                "{:?} (round {round}): {}; {:.3} ms CPU (A+B) per listener-second; {} errors; {}",
                p.placement,
                (processes.iter().zip(&p.cpu).zip(&p.rss_kib))
                    .map(|((proc, cpu), rss)| format!(
                        "{} {cpu:.2} CPU-s, {} MiB",
                        proc.name,
                        rss / 1024
                    ))
                    .collect::<Vec<_>>()
                    .join(", "),
                p.ms_per_listener_second(n, 2),
                p.errors,
                summary("blocking reload", &mut p.reload.clone()),
            );
            phases.push(p);
            // The listeners' connections close; let both instances settle.
            tokio::time::sleep(Duration::from_secs(2)).await;
        }
    }
    show.stop();
    report(&phases, n, redis);
    let errors: u64 = phases.iter().map(|p| p.errors).sum();
    anyhow::ensure!(errors == 0, "{errors} requests failed");
    Ok(())
}

/// The phases as a Markdown table, and the ratio split/alone of CPU per listener.
fn report(phases: &[Phase], n: usize, redis: bool) {
    println!();
    println!(
        "| Phase | window | A CPU-s | B CPU-s |{} A+B: ms CPU per listener-second | A+B: % of a core per 1,000 listeners | A+B: µs CPU per 200 | A RSS | B RSS | 200s from A | 200s from B | errors | blocking reload p50 / p99 | load generator CPU-s |",
        if redis { " Redis CPU-s |" } else { "" }
    );
    println!(
        "|---|---|---|---|{}---|---|---|---|---|---|---|---|---|---|",
        if redis { "---|" } else { "" }
    );
    for p in phases {
        let mut reload = p.reload.clone();
        reload.sort_unstable();
        let at = |q: f64| {
            reload
                .get(((reload.len().max(1) - 1) as f64 * q).round() as usize)
                .map_or(0.0, |us| *us as f64 / 1000.0)
        };
        let per = p.ms_per_listener_second(n, 2);
        println!(
            "| {} #{} | {:.1} s | {:.2} | {:.2} |{} {per:.4} | {:.1} % | {:.1} | {} MiB | {} MiB | {} | {} | {} | {:.0} / {:.0} ms | {:.2} |",
            match p.placement {
                Placement::Alone => "all on A",
                _ => "half on each",
            },
            p.round,
            p.seconds,
            p.cpu[0],
            p.cpu[1],
            if redis {
                format!(" {:.2} |", p.cpu[2])
            } else {
                String::new()
            },
            // ms per listener-second × 1,000 listeners = ms per second = % of a core × 10.
            per * 100.0,
            p.us_per_answer(),
            p.rss_kib[0] / 1024,
            p.rss_kib[1] / 1024,
            p.answered[0],
            p.answered[1],
            p.errors,
            at(0.5),
            at(0.99),
            p.cpu[p.cpu.len() - 1],
        );
    }
    let mean = |placement: Placement, with: usize| {
        let of: Vec<f64> = (phases.iter())
            .filter(|p| p.placement == placement)
            .map(|p| p.ms_per_listener_second(n, with))
            .collect();
        of.iter().sum::<f64>() / of.len().max(1) as f64
    };
    let ratio = |with: usize| mean(Placement::Split, with) / mean(Placement::Alone, with);
    println!();
    println!(
        "CPU per listener, half on each / all on A (means of {} phases each): A+B {:.2}{}; errors in all {}",
        phases.len() / 2,
        ratio(2),
        if redis {
            format!(", A+B+Redis {:.2}", ratio(3))
        } else {
            String::new()
        },
        phases.iter().map(|p| p.errors).sum::<u64>(),
    );
    for round in 1..=phases.last().map_or(0, |p| p.round) {
        let of = |placement| {
            phases
                .iter()
                .find(|p| p.round == round && p.placement == placement)
                .map(|p| p.ms_per_listener_second(n, 2))
        };
        if let (Some(split), Some(alone)) = (of(Placement::Split), of(Placement::Alone)) {
            println!("  round {round}: A+B {:.2}", split / alone);
        }
    }
}

// ------------------------------------------------------ one rendition against the ladder

/// `listeners spread URL PID FILE ADTS SECONDS ROUNDS`: with the same publisher and the
/// same listeners on one instance, back to back, all on the standard rendition, then
/// spread over the data saver, the standard and the source; ROUNDS times, in the order
/// standard, spread, spread, standard … so a drift of the machine's load weighs on both
/// alike. Prints each phase, a Markdown table of them all and the ratio.
async fn spread(
    url: &str,
    pid: u32,
    file: &str,
    adts: &str,
    seconds: u64,
    rounds: u32,
) -> anyhow::Result<()> {
    let show = Show::publish(url, file, adts).await?;
    let n = show.paths.len();
    let processes = [
        Process {
            name: "Encore".into(),
            pid,
        },
        Process {
            name: "load generator".into(),
            pid: std::process::id(),
        },
    ];
    let instances = [(url, Arc::<Counts>::default())];
    let mut phases = Vec::new();
    for round in 1..=rounds {
        let order = if round % 2 == 1 {
            [Placement::Standard, Placement::Spread]
        } else {
            [Placement::Spread, Placement::Standard]
        };
        for placement in order {
            let p = phase(&show, (placement, round), &instances, &processes, seconds).await?;
            println!(
                "{:?} (round {round}): Encore {:.2} CPU-s, {} MiB; {} answers; {:.1} µs CPU per 200; {} errors; {}; {}",
                p.placement,
                p.cpu[0],
                p.rss_kib[0] / 1024,
                p.answered[0],
                per_answer(&p),
                p.errors,
                summary("blocking reload", &mut p.reload.clone()),
                summary("part", &mut p.part.clone()),
            );
            phases.push(p);
            tokio::time::sleep(Duration::from_secs(2)).await;
        }
    }
    show.stop();
    report_spread(&phases, n);
    let errors: u64 = phases.iter().map(|p| p.errors).sum();
    anyhow::ensure!(errors == 0, "{errors} requests failed");
    Ok(())
}

/// The one instance's CPU time per 200 answered, in µs.
fn per_answer(p: &Phase) -> f64 {
    p.cpu[0] * 1e6 / p.answered[0].max(1) as f64
}

/// The phases as a Markdown table, and spread ÷ standard of the 200s per CPU-second.
fn report_spread(phases: &[Phase], n: usize) {
    let at = |values: &[u64], q: f64| {
        let mut sorted = values.to_vec();
        sorted.sort_unstable();
        sorted
            .get(((sorted.len().max(1) - 1) as f64 * q).round() as usize)
            .map_or(0.0, |us| *us as f64 / 1000.0)
    };
    println!();
    println!(
        "| Phase | window | Encore CPU-s | % of a core per 1,000 listeners | 200s | 200s per second | µs CPU per 200 | RSS | errors | blocking reload p50 / p99 | part p50 / p99 | load generator CPU-s |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|");
    for p in phases {
        println!(
            "| {} #{} | {:.1} s | {:.2} | {:.1} % | {} | {:.0} | {:.1} | {} MiB | {} | {:.0} / {:.0} ms | {:.1} / {:.1} ms | {:.2} |",
            match p.placement {
                Placement::Standard => "all on the standard",
                _ => "spread over three",
            },
            p.round,
            p.seconds,
            p.cpu[0],
            p.ms_per_listener_second(n, 1) * 100.0,
            p.answered[0],
            p.answered[0] as f64 / p.seconds,
            per_answer(p),
            p.rss_kib[0] / 1024,
            p.errors,
            at(&p.reload, 0.5),
            at(&p.reload, 0.99),
            at(&p.part, 0.5),
            at(&p.part, 0.99),
            p.cpu[1],
        );
    }
    // Serving speed: 200s per CPU-second of the server (the listeners ask for the same
    // requests per second either way, so the speed is what each answer costs).
    let speed = |placement: Placement| {
        let of: Vec<&Phase> = phases.iter().filter(|p| p.placement == placement).collect();
        let answered: u64 = of.iter().map(|p| p.answered[0]).sum();
        let cpu: f64 = of.iter().map(|p| p.cpu[0]).sum();
        answered as f64 / cpu.max(f64::MIN_POSITIVE)
    };
    let p99 = |placement: Placement| {
        let reloads: Vec<u64> = (phases.iter())
            .filter(|p| p.placement == placement)
            .flat_map(|p| p.reload.iter().copied())
            .collect();
        at(&reloads, 0.99)
    };
    println!();
    println!(
        "{n} listeners: 200s per CPU-second, spread over three ÷ all on the standard: {:.3} \
         (goal ≥ 0.95); blocking reload p99 {:.0} ms spread, {:.0} ms standard; errors in all {}",
        speed(Placement::Spread) / speed(Placement::Standard),
        p99(Placement::Spread),
        p99(Placement::Standard),
        phases.iter().map(|p| p.errors).sum::<u64>(),
    );
    for round in 1..=phases.last().map_or(0, |p| p.round) {
        let of = |placement| {
            (phases.iter())
                .find(|p| p.round == round && p.placement == placement)
                .map(per_answer)
        };
        if let (Some(spread), Some(standard)) = (of(Placement::Spread), of(Placement::Standard)) {
            println!("  round {round}: {:.3}", standard / spread);
        }
    }
}
