//! Jobs that must run once per tick across every instance (expiring unpaid checkouts,
//! purging expired sessions, reminders), not once per instance.
//!
//! Time is cut into windows of one period; the first instance to `SET <prefix>lease:<job>:
//! <window> NX` runs the window's job, the others skip it. Each instance ticks once a
//! period, so every window has one taker at most; a lost instance's share goes to the
//! next window's first taker. In process (no Redis) this instance is all there is.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use crate::bus::Bus;

/// Whether this instance takes `job`'s window that `now_ms` falls in. Without an answer
/// from Redis nobody is sure to have it: skip (the jobs are catch-up work, the next window
/// does it).
pub async fn take_window(bus: &Bus, job: &str, period: Duration, now_ms: i64) -> bool {
    let period_ms = i64::try_from(period.as_millis()).unwrap_or(i64::MAX).max(1);
    let Some(key) = bus.shared_key(&format!("lease:{job}:{}", now_ms / period_ms)) else {
        return true;
    };
    let mut set = redis::cmd("SET");
    set.arg(key)
        .arg(bus.instance())
        .arg("NX")
        .arg("PX")
        .arg(period_ms * 2);
    match bus.shared_command::<Option<String>>(&set).await {
        Some(Ok(taken)) => taken.is_some(),
        Some(Err(err)) => {
            tracing::warn!(job, error = %err, "lease: Redis unavailable, skipping this window");
            false
        }
        None => true,
    }
}

/// How often this instance ran the upkeep of its own and the cluster-wide jobs.
#[derive(Default)]
pub struct Runs {
    local: AtomicU64,
    shared: AtomicU64,
}

impl Runs {
    pub fn ran(&self, shared: bool) {
        self.local.fetch_add(1, Ordering::Relaxed);
        if shared {
            self.shared.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// (ticks of its own upkeep, windows of cluster-wide jobs it took).
    pub fn counts(&self) -> (u64, u64) {
        (
            self.local.load(Ordering::Relaxed),
            self.shared.load(Ordering::Relaxed),
        )
    }
}
