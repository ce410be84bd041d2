//! Abuse limits for the sign-in endpoints: a token bucket per client IP and endpoint
//! (governor), and a failure counter per account that locks it out for a while after
//! repeated wrong passwords or codes, wherever they come from.

use std::collections::HashMap;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

use crate::error::{Error, Result};

/// The endpoint groups limited per IP.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Endpoint {
    Authorize,
    Token,
    Forgot,
    Register,
    CodeCheck,
    QrPoll,
}

pub struct RateLimits {
    per_ip: DefaultKeyedRateLimiter<(IpAddr, Endpoint)>,
    qr_polls: DefaultKeyedRateLimiter<IpAddr>,
    clock: DefaultClock,
    /// Wrong passwords per account.
    pub password_failures: FailureCounter,
    /// Messages (SMS codes, reset e-mails) sent per account.
    pub messages_sent: FailureCounter,
}

impl RateLimits {
    pub fn new(per_ip_per_minute: u32) -> Self {
        let per_minute = NonZeroU32::new(per_ip_per_minute).unwrap_or(NonZeroU32::MIN);
        Self {
            per_ip: RateLimiter::keyed(Quota::per_minute(per_minute)),
            qr_polls: RateLimiter::keyed(Quota::per_minute(
                NonZeroU32::new(120).unwrap_or(NonZeroU32::MIN),
            )),
            clock: DefaultClock::default(),
            password_failures: FailureCounter::new(10, Duration::from_secs(15 * 60)),
            messages_sent: FailureCounter::new(5, Duration::from_secs(15 * 60)),
        }
    }

    pub fn check_ip(&self, ip: IpAddr, endpoint: Endpoint) -> Result<()> {
        let outcome = if endpoint == Endpoint::QrPoll {
            self.qr_polls.check_key(&ip)
        } else {
            self.per_ip.check_key(&(ip, endpoint))
        };
        outcome.map_err(|not_until| {
            let wait = not_until.wait_time_from(self.clock.now());
            Error::RateLimited {
                retry_after: wait.as_secs().max(1),
            }
        })
    }

    /// Forget idle buckets; called periodically so memory stays bounded.
    pub fn prune(&self) {
        self.per_ip.retain_recent();
        self.qr_polls.retain_recent();
        self.password_failures.prune();
        self.messages_sent.prune();
    }
}

/// Counts events per key in a fixed window; at `max` the key is refused until the
/// window that started with its first event ends.
pub struct FailureCounter {
    max: u32,
    window: Duration,
    entries: Mutex<HashMap<String, (u32, Instant)>>,
}

impl FailureCounter {
    pub fn new(max: u32, window: Duration) -> Self {
        Self {
            max,
            window,
            entries: Mutex::new(HashMap::new()),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, (u32, Instant)>> {
        self.entries.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Refuse when the key has reached its limit in the current window.
    pub fn check(&self, key: &str) -> Result<()> {
        let entries = self.lock();
        if let Some((count, started)) = entries.get(key) {
            let elapsed = started.elapsed();
            if *count >= self.max && elapsed < self.window {
                return Err(Error::RateLimited {
                    retry_after: (self.window - elapsed).as_secs().max(1),
                });
            }
        }
        Ok(())
    }

    pub fn record(&self, key: &str) {
        let mut entries = self.lock();
        let entry = entries.entry(key.to_owned()).or_insert((0, Instant::now()));
        if entry.1.elapsed() >= self.window {
            *entry = (0, Instant::now());
        }
        entry.0 += 1;
    }

    /// Check and count in one step (for sends, where every attempt counts).
    pub fn take(&self, key: &str) -> Result<()> {
        self.check(key)?;
        self.record(key);
        Ok(())
    }

    pub fn clear(&self, key: &str) {
        self.lock().remove(key);
    }

    fn prune(&self) {
        let window = self.window;
        self.lock()
            .retain(|_, (_, started)| started.elapsed() < window);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_counter_refuses_at_its_limit_and_clears_on_success() {
        let counter = FailureCounter::new(3, Duration::from_secs(60));
        for _ in 0..3 {
            assert!(counter.check("a").is_ok());
            counter.record("a");
        }
        assert!(matches!(counter.check("a"), Err(Error::RateLimited { .. })));
        assert!(counter.check("b").is_ok(), "keys are independent");
        counter.clear("a");
        assert!(counter.check("a").is_ok());
    }

    #[test]
    fn the_ip_bucket_refuses_past_its_quota() {
        let limits = RateLimits::new(2);
        let ip: IpAddr = [127, 0, 0, 1].into();
        assert!(limits.check_ip(ip, Endpoint::Authorize).is_ok());
        assert!(limits.check_ip(ip, Endpoint::Authorize).is_ok());
        assert!(limits.check_ip(ip, Endpoint::Authorize).is_err());
        assert!(
            limits.check_ip(ip, Endpoint::Forgot).is_ok(),
            "endpoints are separate"
        );
    }
}
