//! Prometheus metrics (`GET /metrics`, text format, written by `prometheus-client`).
//!
//! Hot paths only touch atomics: a request's latency goes into a histogram found in a map
//! built once at start from the router's own routes (never a raw path, never a lock),
//! and the live hub counts parts and parked blocking reloads in process-wide atomics.
//! Everything that is a level rather than an event (listeners, sessions, bitrate, sockets,
//! the database pool, Redis round trips) is read when Prometheus scrapes, into a
//! [`Snapshot`]. A leaf: it names no domain; `meta` gathers the snapshot.

use std::collections::HashMap;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::time::Duration;

use axum::http::Method;
use prometheus_client::collector::Collector;
use prometheus_client::encoding::{DescriptorEncoder, EncodeMetric, NoLabelSet};
use prometheus_client::metrics::MetricType;
use prometheus_client::metrics::counter::ConstCounter;
use prometheus_client::metrics::gauge::ConstGauge;
use prometheus_client::registry::Registry;

/// Upper bounds of the request latency buckets, in seconds: sub-millisecond API answers up
/// to blocking playlist reloads, which may park for several seconds.
const LATENCY_BOUNDS: [f64; 14] = [
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
];

/// The route class of requests no route of ours matched (the web app's files, 404s).
pub const OTHER_ROUTE: &str = "other";
/// The route class of the signed HLS files, answered before the router.
pub const STREAM_ROUTE: &str = "/stream/{token}/{file}";

/// A latency histogram of atomics: one bucket counter per bound plus `+Inf`, the count,
/// and the sum in microseconds.
struct Histogram {
    buckets: [AtomicU64; LATENCY_BOUNDS.len() + 1],
    count: AtomicU64,
    sum_micros: AtomicU64,
}

impl Histogram {
    fn new() -> Self {
        Self {
            buckets: std::array::from_fn(|_| AtomicU64::new(0)),
            count: AtomicU64::new(0),
            sum_micros: AtomicU64::new(0),
        }
    }

    fn observe(&self, elapsed: Duration) {
        let seconds = elapsed.as_secs_f64();
        let bucket = LATENCY_BOUNDS
            .iter()
            .position(|bound| seconds <= *bound)
            .unwrap_or(LATENCY_BOUNDS.len());
        self.buckets[bucket].fetch_add(1, Ordering::Relaxed);
        self.count.fetch_add(1, Ordering::Relaxed);
        self.sum_micros.fetch_add(
            u64::try_from(elapsed.as_micros()).unwrap_or(u64::MAX),
            Ordering::Relaxed,
        );
    }

    /// (sum in seconds, count, per-bucket counts) as the encoder takes them.
    fn read(&self) -> HistogramRead {
        let buckets = LATENCY_BOUNDS
            .iter()
            .copied()
            .chain([f64::INFINITY])
            .zip(&self.buckets)
            .map(|(bound, n)| (bound, n.load(Ordering::Relaxed)))
            .collect();
        (
            self.sum_micros.load(Ordering::Relaxed) as f64 / 1e6,
            self.count.load(Ordering::Relaxed),
            buckets,
        )
    }
}

/// A histogram as read: sum in seconds, count, (upper bound, count in bucket) pairs.
type HistogramRead = (f64, u64, Vec<(f64, u64)>);
/// A route's (route, method) labels and its histogram as read.
type RouteRead = ((String, String), HistogramRead);

/// One histogram per (route, method) the router has, fixed at start.
struct RouteLatencies {
    /// route template → its methods and their histogram's index.
    index: HashMap<String, Vec<(Method, usize)>>,
    /// (route, method) of each histogram, in index order.
    labels: Vec<(String, String)>,
    histograms: Vec<Histogram>,
}

impl RouteLatencies {
    fn new(routes: impl IntoIterator<Item = (String, Method)>) -> Self {
        let mut latencies = Self {
            index: HashMap::new(),
            labels: Vec::new(),
            histograms: Vec::new(),
        };
        let fixed = [
            (STREAM_ROUTE.to_owned(), Method::GET),
            (OTHER_ROUTE.to_owned(), Method::GET),
        ];
        for (route, method) in routes.into_iter().chain(fixed) {
            let methods = latencies.index.entry(route.clone()).or_default();
            if methods.iter().any(|(m, _)| *m == method) {
                continue;
            }
            methods.push((method.clone(), latencies.histograms.len()));
            latencies.labels.push((route, method.to_string()));
            latencies.histograms.push(Histogram::new());
        }
        latencies
    }

    /// The histogram of a route and method; a route we do not know, or a method the
    /// route does not have (HEAD on a GET route, an OPTIONS probe), counts as "other".
    fn of(&self, route: Option<&str>, method: &Method) -> &Histogram {
        let found = route
            .and_then(|route| self.index.get(route))
            .and_then(|methods| methods.iter().find(|(m, _)| m == method))
            .map(|(_, i)| *i);
        let i = found.unwrap_or_else(|| self.index[OTHER_ROUTE][0].1);
        &self.histograms[i]
    }
}

/// Counters the live hub bumps where it has no handle on the application state; one set
/// per process (one process is one instance).
struct Stream {
    parts_produced: AtomicU64,
    parked_reloads: AtomicI64,
    room_frames_shared: AtomicU64,
    room_frames_own: AtomicU64,
}

static STREAM: Stream = Stream {
    parts_produced: AtomicU64::new(0),
    parked_reloads: AtomicI64::new(0),
    room_frames_shared: AtomicU64::new(0),
    room_frames_own: AtomicU64::new(0),
};

/// A socket sent its room's shared frame as it was (`true`), or took the frame's
/// messages one by one (after a join or catch-up, or a hole).
pub fn room_frame(shared: bool) {
    let counter = if shared {
        &STREAM.room_frames_shared
    } else {
        &STREAM.room_frames_own
    };
    counter.fetch_add(1, Ordering::Relaxed);
}

/// The segmenter closed a part on this instance.
pub fn part_produced() {
    STREAM.parts_produced.fetch_add(1, Ordering::Relaxed);
}

/// A blocking playlist reload (or preload hint) waits until the guard is dropped.
pub fn parked_reload() -> ParkedReload {
    STREAM.parked_reloads.fetch_add(1, Ordering::Relaxed);
    ParkedReload(())
}

pub struct ParkedReload(());

impl Drop for ParkedReload {
    fn drop(&mut self) {
        STREAM.parked_reloads.fetch_sub(1, Ordering::Relaxed);
    }
}

/// One show's figures on this instance, read at scrape time.
#[derive(Debug, Clone, Default)]
pub struct ShowFigures {
    pub event_id: String,
    /// Listeners heard here within the listener window.
    pub listeners: u64,
    /// Listening sessions that grant access now (every instance: they are in the database).
    pub sessions: u64,
    /// The encoder's bitrate into this instance (0 when it publishes elsewhere).
    pub ingest_kbps: f64,
}

/// Levels read when Prometheus scrapes.
#[derive(Debug, Clone, Default)]
pub struct Snapshot {
    pub shows: Vec<ShowFigures>,
    pub websocket_clients: u64,
    pub db_pool_size: u64,
    pub db_pool_idle: u64,
    /// Commands sent to Redis by this instance (`None` without Redis).
    pub redis_round_trips: Option<u64>,
    /// Housekeeping ticks here, and the cluster-wide windows this instance took.
    pub housekeeping_ticks: u64,
    pub housekeeping_shared_runs: u64,
    /// Times every listening session was read again from the database (at start, and
    /// whenever changes from the other instances may have been missed).
    pub listening_reloads: u64,
}

/// This instance's metrics.
pub struct Metrics {
    requests: RouteLatencies,
}

impl Metrics {
    /// `routes`: every (route template, method) the router serves, as its matched path.
    pub fn new(routes: impl IntoIterator<Item = (String, Method)>) -> Self {
        Self {
            requests: RouteLatencies::new(routes),
        }
    }

    /// A request answered: `route` is its matched route (`None` when none matched).
    pub fn observe_request(&self, route: Option<&str>, method: &Method, elapsed: Duration) {
        self.requests.of(route, method).observe(elapsed);
    }

    /// The text exposition of every family, with `snapshot`'s levels.
    pub fn render(&self, snapshot: Snapshot) -> String {
        let mut registry = Registry::with_prefix("encore");
        registry.register_collector(Box::new(Scrape {
            requests: self.requests_read(),
            snapshot,
            parts_produced: STREAM.parts_produced.load(Ordering::Relaxed),
            parked_reloads: STREAM.parked_reloads.load(Ordering::Relaxed),
            room_frames: (
                STREAM.room_frames_shared.load(Ordering::Relaxed),
                STREAM.room_frames_own.load(Ordering::Relaxed),
            ),
        }));
        let mut text = String::new();
        prometheus_client::encoding::text::encode(&mut text, &registry)
            .expect("writing to a String cannot fail");
        text
    }

    fn requests_read(&self) -> Vec<RouteRead> {
        self.requests
            .labels
            .iter()
            .cloned()
            .zip(self.requests.histograms.iter().map(Histogram::read))
            .collect()
    }
}

/// One scrape's values, encoded by the registry.
#[derive(Debug)]
struct Scrape {
    requests: Vec<RouteRead>,
    snapshot: Snapshot,
    parts_produced: u64,
    parked_reloads: i64,
    /// Room frames sent shared and taken apart.
    room_frames: (u64, u64),
}

impl Collector for Scrape {
    fn encode(&self, mut encoder: DescriptorEncoder) -> Result<(), std::fmt::Error> {
        let mut family = encoder.encode_descriptor(
            "http_request_duration_seconds",
            "Time to answer a request, by matched route and method.",
            None,
            MetricType::Histogram,
        )?;
        for ((route, method), (sum, count, buckets)) in &self.requests {
            let labels = [("route", route.as_str()), ("method", method.as_str())];
            family
                .encode_family(&labels)?
                .encode_histogram::<NoLabelSet>(*sum, *count, buckets, None)?;
        }

        let shows = &self.snapshot.shows;
        per_show(
            &mut encoder,
            "show_listeners",
            "Listeners heard on this instance in the last 30 s.",
            shows,
            |s| s.listeners as f64,
        )?;
        per_show(
            &mut encoder,
            "show_listening_sessions",
            "Listening sessions that grant access now.",
            shows,
            |s| s.sessions as f64,
        )?;
        per_show(
            &mut encoder,
            "show_ingest_kbps",
            "The encoder's bitrate into this instance.",
            shows,
            |s| s.ingest_kbps,
        )?;

        counter(
            &mut encoder,
            "stream_parts_produced",
            "Parts the segmenter closed on this instance.",
            self.parts_produced,
        )?;
        counter(
            &mut encoder,
            "room_frames_shared",
            "Room frames a socket sent as its room's relay made them (one encoding for all).",
            self.room_frames.0,
        )?;
        counter(
            &mut encoder,
            "room_frames_taken_apart",
            "Room frames a socket took message by message (after a join or catch-up, a hole).",
            self.room_frames.1,
        )?;
        gauge(
            &mut encoder,
            "stream_parked_reloads",
            "Blocking playlist reloads and preload hints waiting now.",
            self.parked_reloads as f64,
        )?;
        gauge(
            &mut encoder,
            "websocket_clients",
            "Dashboard WebSockets open on this instance.",
            self.snapshot.websocket_clients as f64,
        )?;
        gauge(
            &mut encoder,
            "db_pool_connections",
            "Database connections open in the pool.",
            self.snapshot.db_pool_size as f64,
        )?;
        gauge(
            &mut encoder,
            "db_pool_idle_connections",
            "Database connections idle in the pool.",
            self.snapshot.db_pool_idle as f64,
        )?;
        counter(
            &mut encoder,
            "housekeeping_ticks",
            "Housekeeping ticks of this instance (its own memory and recordings).",
            self.snapshot.housekeeping_ticks,
        )?;
        counter(
            &mut encoder,
            "housekeeping_shared_runs",
            "Cluster-wide housekeeping windows this instance took (one instance a window).",
            self.snapshot.housekeeping_shared_runs,
        )?;
        counter(
            &mut encoder,
            "listening_session_reloads",
            "Times this instance read every listening session again: at start, and when it may have missed changes (its bus subscriber fell behind, or Redis came back).",
            self.snapshot.listening_reloads,
        )?;
        if let Some(trips) = self.snapshot.redis_round_trips {
            counter(
                &mut encoder,
                "redis_round_trips",
                "Commands this instance sent to Redis.",
                trips,
            )?;
        }
        Ok(())
    }
}

fn per_show(
    encoder: &mut DescriptorEncoder,
    name: &str,
    help: &str,
    shows: &[ShowFigures],
    value: impl Fn(&ShowFigures) -> f64,
) -> Result<(), std::fmt::Error> {
    let mut family = encoder.encode_descriptor(name, help, None, MetricType::Gauge)?;
    for show in shows {
        let labels = [("event_id", show.event_id.as_str())];
        ConstGauge::new(value(show)).encode(family.encode_family(&labels)?)?;
    }
    Ok(())
}

fn gauge(
    encoder: &mut DescriptorEncoder,
    name: &str,
    help: &str,
    value: f64,
) -> Result<(), std::fmt::Error> {
    let gauge = ConstGauge::new(value);
    gauge.encode(encoder.encode_descriptor(name, help, None, gauge.metric_type())?)
}

fn counter(
    encoder: &mut DescriptorEncoder,
    name: &str,
    help: &str,
    value: u64,
) -> Result<(), std::fmt::Error> {
    let counter = ConstCounter::new(value);
    counter.encode(encoder.encode_descriptor(name, help, None, counter.metric_type())?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_counts_under_its_route_and_an_unknown_one_under_other() {
        let metrics = Metrics::new([("/api/v1/events/{id}".to_owned(), Method::GET)]);
        let ms = Duration::from_millis(3);
        metrics.observe_request(Some("/api/v1/events/{id}"), &Method::GET, ms);
        metrics.observe_request(Some("/api/v1/events/{id}"), &Method::DELETE, ms);
        metrics.observe_request(None, &Method::GET, Duration::from_secs(30));
        let text = metrics.render(Snapshot::default());
        let line = |route: &str, le: &str| {
            format!(
                "encore_http_request_duration_seconds_bucket{{le=\"{le}\",route=\"{route}\",method=\"GET\"}}"
            )
        };
        assert!(
            text.contains(&format!("{} 0\n", line("/api/v1/events/{id}", "0.0025"))),
            "{text}"
        );
        assert!(
            text.contains(&format!("{} 1\n", line("/api/v1/events/{id}", "0.005"))),
            "{text}"
        );
        // The DELETE (a method the route lacks) took 3 ms; the unmatched one 30 s.
        assert!(
            text.contains(&format!("{} 1\n", line("other", "10.0"))),
            "{text}"
        );
        assert!(
            text.contains(&format!("{} 2\n", line("other", "+Inf"))),
            "{text}"
        );
        assert!(!text.contains("redis_round_trips"), "no Redis, no family");
    }
}
