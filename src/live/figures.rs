//! A concert's live figures (issue 13): listeners counted on every instance, and its
//! `live_status` published on the concert's channel (`event:<id>`) at most once a second
//! while something changes, then nothing until something does.
//!
//! One ticker per instance, once a second, over the shows this instance has. Each
//! instance reports its own listeners of each show; with Redis they go in a hash per show
//! (`<prefix>listeners:<event>`, a field per instance, stamped with Redis's clock) whose
//! fresh fields add up to the figure, so an instance that dies stops counting within
//! seconds. The instance holding a show (its publisher, its recording) publishes the
//! figures with that sum, keeps the listeners-over-time series, and leaves the latest
//! figures in Redis (`<prefix>figures:<event>`) for the other instances' Live page.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::bus::{Bus, BusError, Channel, Publication};
use crate::stream::show::hub::{Hub, Show, Status};

/// How often the ticker looks: the live status is published at most this often.
pub const TICK: Duration = Duration::from_secs(1);
/// One sample of the listeners-over-time series this often…
pub const SAMPLE_EVERY: Duration = Duration::from_secs(10);
/// …for the last 30 minutes.
pub const SERIES_LEN: usize = 180;

/// An instance's report counts while younger than this (it reports every second while
/// it has listeners); older ones are an instance gone and are dropped.
const REPORT_FRESH_MS: u64 = 5_000;
/// The listeners hash goes once nobody reports for this long.
const REPORTS_TTL_MS: u64 = 10_000;
/// The latest figures a holder leaves for the others (refreshed at least every sample).
const VIEW_TTL_MS: u64 = 3 * SAMPLE_EVERY.as_millis() as u64;

/// KEYS: the show's listeners hash. ARGV: this instance, its count ('' to only read),
/// the freshness and the hash's time-to-live in ms. Answers the sum of fresh reports and
/// drops the stale ones.
const REPORT: &str = r"
local now = redis.call('TIME')
local ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
if ARGV[2] ~= '' then
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[2] .. ' ' .. ms)
  redis.call('PEXPIRE', KEYS[1], ARGV[4])
end
local total = 0
local fields = redis.call('HGETALL', KEYS[1])
for i = 1, #fields, 2 do
  local count, at = string.match(fields[i + 1], '^(%d+) (%d+)$')
  if count and ms - tonumber(at) <= tonumber(ARGV[3]) then
    total = total + tonumber(count)
  else
    redis.call('HDEL', KEYS[1], fields[i])
  end
end
return total
";

/// A point of a show's listeners-over-time series.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = ListenersSample)]
pub struct Sample {
    #[schema(format = DateTime)]
    pub at: String,
    pub listeners: u64,
}

/// A show's figures as the Live page shows them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct View {
    pub status: Status,
    /// Oldest first; empty when the show is held by an instance that left no figures.
    pub series: Vec<Sample>,
}

/// What the ticker remembers of one show.
#[derive(Default)]
struct Tracked {
    /// This instance's count as last reported to Redis (0: nothing to withdraw).
    reported: u64,
    /// What was published last.
    published: Option<Signature>,
    series: VecDeque<Sample>,
    sampled: Option<Instant>,
}

/// What counts as a change: everything but the connected time, which moves by itself;
/// the recording in tenths of a second, the bitrate in whole kbit/s.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Signature {
    /// What is playing: a hash of the marker's id, title and artist.
    now_playing: u64,
    publisher: bool,
    ended: bool,
    listeners: u64,
    segments: usize,
    recorded_tenths: i64,
    kbps: i64,
}

impl Signature {
    fn of(status: &Status) -> Self {
        use std::hash::{Hash, Hasher};
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        status.now_playing.hash(&mut hasher);
        Self {
            now_playing: hasher.finish(),
            publisher: status.publisher_connected,
            ended: status.ended,
            listeners: status.listeners,
            segments: status.segments,
            recorded_tenths: (status.recorded_seconds * 10.0).round() as i64,
            kbps: status.bitrate_kbps.round() as i64,
        }
    }
}

/// What the ticker does for a show at one tick.
#[derive(Debug, PartialEq, Eq)]
struct Due {
    publish: bool,
    /// A sample was taken: the figures left for the others are refreshed.
    sampled: bool,
}

impl Tracked {
    /// Decide and record what a tick does with these figures: publish when they differ
    /// from the last published (nothing after the end was told), sample every
    /// [`SAMPLE_EVERY`] until the end.
    fn tick(&mut self, status: &Status, now: Instant, at_ms: i64) -> Due {
        let signature = Signature::of(status);
        // A recording that had ended before this instance saw it is not news.
        if self.published.is_none() && status.ended {
            self.published = Some(signature);
        }
        let told_ended = self.published.is_some_and(|p| p.ended);
        let publish = !told_ended && self.published != Some(signature);
        let sampled = !status.ended
            && self
                .sampled
                .is_none_or(|at| now.saturating_duration_since(at) >= SAMPLE_EVERY);
        if sampled {
            self.sampled = Some(now);
            if self.series.len() == SERIES_LEN {
                self.series.pop_front();
            }
            self.series.push_back(Sample {
                at: crate::db::iso8601(at_ms),
                listeners: status.listeners,
            });
        }
        Due { publish, sampled }
    }
}

/// The figures of this instance's shows.
pub struct Figures {
    hub: Arc<Hub>,
    bus: Bus,
    shows: Mutex<HashMap<String, Tracked>>,
}

impl Figures {
    pub fn new(hub: Arc<Hub>, bus: Bus) -> Self {
        Self {
            hub,
            bus,
            shows: Mutex::new(HashMap::new()),
        }
    }

    fn tracked<T>(&self, event_id: &str, f: impl FnOnce(&mut Tracked) -> T) -> T {
        let mut shows = self.shows.lock().unwrap_or_else(|e| e.into_inner());
        f(shows.entry(event_id.to_owned()).or_default())
    }

    /// Report this instance's `count` of a show's listeners (`None`: only read) and
    /// answer the sum over every instance; without Redis, this instance's.
    async fn listeners(
        &self,
        event_id: &str,
        count: Option<u64>,
        local: u64,
    ) -> Result<u64, BusError> {
        let Some(key) = self.bus.shared_key(&format!("listeners:{event_id}")) else {
            return Ok(local);
        };
        let mut command = ::redis::cmd("EVAL");
        command
            .arg(REPORT)
            .arg(1)
            .arg(key)
            .arg(self.bus.instance())
            .arg(count.map(|c| c.to_string()).unwrap_or_default())
            .arg(REPORT_FRESH_MS)
            .arg(REPORTS_TTL_MS);
        self.bus.shared_command(&command).await.unwrap_or(Ok(local))
    }

    /// One tick: every show's listeners reported, the held ones' figures published when
    /// they changed.
    pub async fn tick(&self) {
        let shows = self.hub.all();
        {
            // Shows the hub forgot (their recording deleted) are forgotten here too.
            let mut tracked = self.shows.lock().unwrap_or_else(|e| e.into_inner());
            tracked.retain(|id, _| shows.iter().any(|s| &s.event_id == id));
        }
        for show in shows {
            self.tick_show(&show).await;
        }
    }

    async fn tick_show(&self, show: &Show) {
        let now = Instant::now();
        let id = &show.event_id;
        let local = show.listeners_at(now);
        let held = show.held_here();
        let reported = self.tracked(id, |t| t.reported);
        // Reported while there are listeners here, and once more at zero to withdraw.
        let report = (local > 0 || reported > 0).then_some(local);
        if !held && report.is_none() {
            return;
        }
        let listeners = match self.listeners(id, report, local).await {
            Ok(sum) => sum,
            Err(err) => {
                tracing::warn!(event = %id, error = %err, "counting listeners failed");
                return;
            }
        };
        self.tracked(id, |t| t.reported = local);
        if !held {
            return;
        }
        let mut status = show.status();
        status.listeners = listeners;
        let due = self.tracked(id, |t| t.tick(&status, now, crate::db::now_ms()));
        if due.publish {
            let event = Publication::new(&StatusChanged {
                event_id: id.clone(),
                status: status.clone(),
            });
            match self.bus.publish(&Channel::Event(id.clone()), event).await {
                // Recorded once published: a failure is tried again at the next tick.
                Ok(_) => self.tracked(id, |t| t.published = Some(Signature::of(&status))),
                Err(err) => {
                    tracing::warn!(event = %id, error = %err, "publishing live figures failed")
                }
            }
        }
        if due.publish || due.sampled {
            self.leave_for_others(id, status).await;
        }
    }

    fn series(&self, event_id: &str) -> Vec<Sample> {
        let shows = self.shows.lock().unwrap_or_else(|e| e.into_inner());
        shows
            .get(event_id)
            .map(|t| t.series.iter().cloned().collect())
            .unwrap_or_default()
    }

    /// The latest figures and series of a held show, for the other instances.
    async fn leave_for_others(&self, event_id: &str, status: Status) {
        let Some(key) = self.bus.shared_key(&format!("figures:{event_id}")) else {
            return;
        };
        let view = View {
            status,
            series: self.series(event_id),
        };
        let Ok(json) = serde_json::to_string(&view) else {
            return;
        };
        let mut command = ::redis::cmd("SET");
        command.arg(key).arg(json).arg("PX").arg(VIEW_TTL_MS);
        if let Some(Err(err)) = self.bus.shared_command::<()>(&command).await {
            tracing::warn!(event = %event_id, error = %err, "leaving live figures failed");
        }
    }

    /// What another instance left of a show it holds.
    async fn left_by_others(&self, event_id: &str) -> Option<View> {
        let key = self.bus.shared_key(&format!("figures:{event_id}"))?;
        let json: Option<String> = match self
            .bus
            .shared_command(::redis::cmd("GET").arg(key))
            .await?
        {
            Ok(json) => json,
            Err(err) => {
                tracing::warn!(event = %event_id, error = %err, "reading live figures failed");
                None
            }
        };
        serde_json::from_str(&json?).ok()
    }

    /// A show's figures, on whichever instance is asked: this one's when it holds the
    /// show (with every instance's listeners), else those its holder left.
    pub async fn view(&self, event_id: &str) -> View {
        let show = self.hub.show(event_id);
        if !show.held_here()
            && let Some(view) = self.left_by_others(event_id).await
        {
            return view;
        }
        let mut status = show.status();
        match self.listeners(event_id, None, status.listeners).await {
            Ok(sum) => status.listeners = sum,
            Err(err) => {
                tracing::warn!(event = %event_id, error = %err, "counting listeners failed")
            }
        }
        View {
            status,
            series: self.series(event_id),
        }
    }

    /// A show's live status with every instance's listeners.
    pub async fn status(&self, event_id: &str) -> Status {
        self.view(event_id).await.status
    }
}

/// Run the ticker for as long as the process.
pub fn spawn(figures: Arc<Figures>) {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(TICK);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            figures.tick().await;
        }
    });
}

/// `live_status` on a concert's channel: its live figures, at most once a second while
/// they change.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StatusChanged {
    pub event_id: String,
    pub status: crate::stream::show::hub::Status,
}

impl crate::bus::Message for StatusChanged {
    const KIND: &'static str = "live_status";
}

#[cfg(test)]
mod tests {
    use super::*;

    fn status(publisher: bool, recorded: f64, listeners: u64, ended: bool) -> Status {
        Status {
            publisher_connected: publisher,
            recorded_seconds: recorded,
            connected_seconds: recorded,
            bitrate_kbps: if publisher { 128.0 } else { 0.0 },
            ended,
            segments: (recorded / 4.0) as usize,
            listeners,
            now_playing: None,
            away_seconds: None,
            ends_in_seconds: None,
        }
    }

    #[test]
    fn figures_are_published_when_they_change_and_not_after_the_end_was_told() {
        let mut tracked = Tracked::default();
        let start = Instant::now();
        let mut tick = |status: &Status, s: u64| {
            let due = tracked.tick(status, start + Duration::from_secs(s), 0);
            if due.publish {
                tracked.published = Some(Signature::of(status));
            }
            due.publish
        };
        assert!(
            tick(&status(true, 1.0, 0, false), 0),
            "a publisher connects"
        );
        let mut same = status(true, 1.0, 0, false);
        same.connected_seconds = 9.0;
        assert!(!tick(&same, 1), "only the connected time moved");
        assert!(tick(&status(true, 2.0, 0, false), 2), "the recording grew");
        assert!(tick(&status(true, 2.0, 3, false), 3), "listeners came");
        assert!(
            tick(&status(false, 2.0, 3, false), 4),
            "the publisher dropped"
        );
        assert!(!tick(&status(false, 2.0, 3, false), 5), "nothing changes");
        assert!(tick(&status(false, 2.0, 3, true), 6), "the end, told once");
        assert!(!tick(&status(false, 2.0, 1, true), 7), "nothing after it");
    }

    #[test]
    fn an_old_ended_recording_is_not_news_and_the_series_keeps_half_an_hour() {
        let mut tracked = Tracked::default();
        let start = Instant::now();
        let due = tracked.tick(&status(false, 60.0, 2, true), start, 0);
        assert_eq!(
            due,
            Due {
                publish: false,
                sampled: false
            }
        );

        let mut live = Tracked::default();
        for s in 0..(SERIES_LEN as u64 + 5) * 10 {
            live.tick(
                &status(true, s as f64, s, false),
                start + Duration::from_secs(s),
                0,
            );
        }
        assert_eq!(live.series.len(), SERIES_LEN, "one every 10 s, 30 min");
        assert_eq!(
            live.series.back().map(|s| s.listeners),
            Some((SERIES_LEN as u64 + 4) * 10)
        );
    }
}
