//! Abuse limits for the sign-in endpoints: a token bucket per client IP and endpoint
//! (governor; a one-minute window in Redis when instances share one), progressive
//! password throttles per account and source ([`SignInThrottle`]), and a counter of
//! messages sent per account. Throttles and counters live in [`Shared`]: with Redis they
//! count across every instance, so an attacker gains nothing from N of them.

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::time::Duration;

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

use crate::cluster::shared::Shared;
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

/// QR sign-in polls one address may make per minute.
const QR_POLLS_PER_MINUTE: u32 = 120;
const MINUTE_MS: i64 = 60_000;

pub struct RateLimits {
    per_ip: DefaultKeyedRateLimiter<(IpAddr, Endpoint)>,
    qr_polls: DefaultKeyedRateLimiter<IpAddr>,
    clock: DefaultClock,
    per_minute: u32,
    shared: Shared,
    /// Wrong passwords per account and source.
    pub sign_in: SignInThrottle,
    /// Messages (SMS codes, reset e-mails) sent per account.
    pub messages_sent: FailureCounter,
    /// Encoder connections per concert (the stream domain sets the numbers).
    pub encoder_connects: FailureCounter,
}

impl RateLimits {
    pub fn new(
        per_ip_per_minute: u32,
        account_failures_per_hour: u32,
        encoder_connects: (u32, Duration),
        shared: Shared,
    ) -> Self {
        let per_minute = NonZeroU32::new(per_ip_per_minute).unwrap_or(NonZeroU32::MIN);
        Self {
            per_ip: RateLimiter::keyed(Quota::per_minute(per_minute)),
            qr_polls: RateLimiter::keyed(Quota::per_minute(
                NonZeroU32::new(QR_POLLS_PER_MINUTE).unwrap_or(NonZeroU32::MIN),
            )),
            clock: DefaultClock::default(),
            per_minute: per_minute.get(),
            sign_in: SignInThrottle::new(shared.clone(), account_failures_per_hour),
            messages_sent: FailureCounter::new(shared.clone(), 5, Duration::from_secs(15 * 60)),
            encoder_connects: FailureCounter::new(
                shared.clone(),
                encoder_connects.0,
                encoder_connects.1,
            ),
            shared,
        }
    }

    pub async fn check_ip(&self, ip: IpAddr, endpoint: Endpoint) -> Result<()> {
        if self.shared.is_shared() {
            return self.check_ip_shared(ip, endpoint).await;
        }
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

    /// Across instances: a fixed one-minute window per address and endpoint (a token
    /// bucket would need a clock shared to the millisecond; a window needs none).
    async fn check_ip_shared(&self, ip: IpAddr, endpoint: Endpoint) -> Result<()> {
        let quota = if endpoint == Endpoint::QrPoll {
            QR_POLLS_PER_MINUTE
        } else {
            self.per_minute
        };
        let now = crate::db::now_ms();
        let mut refused = None;
        let group = format!("ip:{endpoint:?}:{}", ip.to_canonical());
        self.shared
            .update(&group, "w", MINUTE_MS, now, |value| {
                let (count, start) = parse_pair(value)
                    .filter(|(_, start)| now - start < MINUTE_MS)
                    .unwrap_or((0, now));
                refused = (count >= u64::from(quota)).then_some(start + MINUTE_MS);
                Some(format!("{}:{start}", count + u64::from(refused.is_none())))
            })
            .await;
        match refused {
            Some(until) => Err(Error::RateLimited {
                retry_after: retry_secs(until, now),
            }),
            None => Ok(()),
        }
    }

    /// Forget idle buckets; called periodically so memory stays bounded.
    pub fn prune(&self) {
        self.per_ip.retain_recent();
        self.qr_polls.retain_recent();
        self.shared.prune(crate::db::now_ms());
    }
}

/// `a:b` as two numbers.
fn parse_pair(value: Option<&str>) -> Option<(u64, i64)> {
    let (a, b) = value?.split_once(':')?;
    Some((a.parse().ok()?, b.parse().ok()?))
}

/// Counts events per key in a fixed window; at `max` the key is refused until the
/// window that started with its first event ends.
pub struct FailureCounter {
    shared: Shared,
    max: u32,
    window_ms: i64,
}

impl FailureCounter {
    pub fn new(shared: Shared, max: u32, window: Duration) -> Self {
        Self {
            shared,
            max,
            window_ms: i64::try_from(window.as_millis()).unwrap_or(i64::MAX),
        }
    }

    /// Count one event under `key` (`count: false` only looks) and refuse when the key had
    /// reached its limit in the current window.
    async fn step(&self, key: &str, count: bool) -> Result<()> {
        let now = crate::db::now_ms();
        let mut refused = None;
        let window = self.window_ms;
        self.shared
            .update(&format!("sent:{key}"), "n", window, now, |value| {
                let (n, start) = parse_pair(value)
                    .filter(|(_, start)| now - start < window)
                    .unwrap_or((0, now));
                refused = (n >= u64::from(self.max)).then_some(start + window);
                let n = n + u64::from(count && refused.is_none());
                (n > 0).then(|| format!("{n}:{start}"))
            })
            .await;
        match refused {
            Some(until) => Err(Error::RateLimited {
                retry_after: retry_secs(until, now),
            }),
            None => Ok(()),
        }
    }

    /// Refuse when the key has reached its limit in the current window.
    pub async fn check(&self, key: &str) -> Result<()> {
        self.step(key, false).await
    }

    pub async fn record(&self, key: &str) {
        let _ = self.step(key, true).await;
    }

    /// Check and count in one step (for sends, where every attempt counts).
    pub async fn take(&self, key: &str) -> Result<()> {
        self.step(key, true).await
    }

    pub async fn clear(&self, key: &str) {
        self.shared.clear(&format!("sent:{key}")).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_counter_refuses_at_its_limit_and_clears_on_success() {
        let counter = FailureCounter::new(Shared::in_process(), 3, Duration::from_secs(60));
        for _ in 0..3 {
            assert!(counter.check("a").await.is_ok());
            counter.record("a").await;
        }
        assert!(matches!(
            counter.check("a").await,
            Err(Error::RateLimited { .. })
        ));
        assert!(counter.check("b").await.is_ok(), "keys are independent");
        counter.clear("a").await;
        assert!(counter.check("a").await.is_ok());
    }

    #[tokio::test]
    async fn the_ip_bucket_refuses_past_its_quota() {
        let limits = RateLimits::new(2, 100, (30, Duration::from_secs(600)), Shared::in_process());
        let ip: IpAddr = [127, 0, 0, 1].into();
        assert!(limits.check_ip(ip, Endpoint::Authorize).await.is_ok());
        assert!(limits.check_ip(ip, Endpoint::Authorize).await.is_ok());
        assert!(limits.check_ip(ip, Endpoint::Authorize).await.is_err());
        assert!(
            limits.check_ip(ip, Endpoint::Forgot).await.is_ok(),
            "endpoints are separate"
        );
    }
}

// ------------------------------------------------------------------ sign-in throttling

/// Wrong passwords a source may make on an account before it is slowed down.
pub const FREE_FAILURES: u32 = 5;
/// The first delay after the free failures; it doubles with every further one.
const FIRST_DELAY_MS: i64 = 1_000;
/// The longest delay (OWASP's "15 minutes").
const MAX_DELAY_MS: i64 = 15 * 60_000;
/// A source's failures are forgotten this long after its last block ends.
const FORGET_AFTER_MS: i64 = 15 * 60_000;
/// The window of the per-account ceiling for unknown devices.
const POOL_WINDOW_MS: i64 = 60 * 60_000;

/// One throttle entry: failures counted, when counting started, until when attempts are
/// refused, and when the entry may be forgotten (all unix ms, so a shared store keeps
/// them as they are).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ThrottleEntry {
    pub failures: u32,
    pub since_ms: i64,
    pub blocked_until_ms: i64,
    pub expires_ms: i64,
}

impl ThrottleEntry {
    fn encode(&self) -> String {
        format!(
            "{}:{}:{}:{}",
            self.failures, self.since_ms, self.blocked_until_ms, self.expires_ms
        )
    }

    fn decode(value: &str) -> Option<Self> {
        let mut parts = value.split(':');
        let mut next = || parts.next()?.parse::<i64>().ok();
        Some(Self {
            failures: u32::try_from(next()?).ok()?,
            since_ms: next()?,
            blocked_until_ms: next()?,
            expires_ms: next()?,
        })
    }
}

/// Who makes a sign-in attempt: the account's login, the client address, and the nonce
/// of a valid device cookie of that account when one came with it.
#[derive(Debug, Clone)]
pub struct Attempt<'a> {
    pub login: &'a str,
    pub ip: IpAddr,
    pub known_device: Option<&'a str>,
}

impl Attempt<'_> {
    /// The throttle key: the device for a known one, otherwise the source address (an
    /// IPv6 address by its /64, which one subscriber usually holds whole).
    fn key(&self) -> String {
        // A dual-stack listener sees IPv4 clients as ::ffff:a.b.c.d: key them as IPv4.
        match (self.known_device, self.ip.to_canonical()) {
            (Some(nonce), _) => format!("device:{nonce}"),
            (None, IpAddr::V4(ip)) => format!("ip:{ip}"),
            (None, IpAddr::V6(ip)) => {
                let s = ip.segments();
                format!("ip:{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
            }
        }
    }
}

const POOL_KEY: &str = "unknown-devices";

/// Progressive throttling of wrong passwords (OWASP's device-cookie scheme, ASVS 5 6.3.1):
///
/// - per account and source (the address, or a known device): [`FREE_FAILURES`] free,
///   then each further failure blocks that source for 1 s, 2 s, 4 s … up to 15 min;
/// - per account across all unknown devices: at most `pool_ceiling` failures an hour,
///   then only known devices (a valid device cookie) may try until the hour ends.
///
/// An attempt counts as a failure when it starts ([`Self::begin`]), so parallel guesses
/// cannot slip past the check; a success gives it back ([`Self::succeeded`]).
pub struct SignInThrottle {
    shared: Shared,
    pool_ceiling: u32,
}

fn retry_secs(until_ms: i64, now_ms: i64) -> u64 {
    u64::try_from((until_ms - now_ms + 999) / 1000)
        .unwrap_or(1)
        .max(1)
}

/// The block after `failures` failures of one source.
fn delay_ms(failures: u32) -> i64 {
    if failures < FREE_FAILURES {
        return 0;
    }
    let doublings = (failures - FREE_FAILURES).min(20);
    (FIRST_DELAY_MS << doublings).min(MAX_DELAY_MS)
}

impl SignInThrottle {
    pub fn new(shared: Shared, pool_ceiling: u32) -> Self {
        Self {
            shared,
            pool_ceiling: pool_ceiling.max(1),
        }
    }

    /// Read, change and write back the entry `key` of `login` in one atomic step; an
    /// entry past its `expires_ms` reads as `None`, answering `None` removes it.
    async fn update(
        &self,
        login: &str,
        key: &str,
        now: i64,
        mut change: impl FnMut(Option<ThrottleEntry>) -> Option<ThrottleEntry> + Send,
    ) {
        self.shared
            .update(
                &format!("signin:{login}"),
                key,
                POOL_WINDOW_MS.max(MAX_DELAY_MS + FORGET_AFTER_MS),
                now,
                |value| {
                    let current = value
                        .and_then(ThrottleEntry::decode)
                        .filter(|e| e.expires_ms > now);
                    change(current).map(|e| e.encode())
                },
            )
            .await;
    }

    /// Refuse the attempt (429 with the seconds to wait) or count it as a failure.
    pub async fn begin(&self, attempt: &Attempt<'_>) -> Result<()> {
        self.begin_at(attempt, crate::db::now_ms()).await
    }

    async fn begin_at(&self, attempt: &Attempt<'_>, now: i64) -> Result<()> {
        let untrusted = attempt.known_device.is_none();
        if untrusted {
            let mut refused = None;
            self.update(attempt.login, POOL_KEY, now, |entry| {
                refused = entry
                    .filter(|e| e.failures >= self.pool_ceiling)
                    .map(|e| e.expires_ms);
                entry
            })
            .await;
            if let Some(until) = refused {
                return Err(Error::RateLimited {
                    retry_after: retry_secs(until, now),
                });
            }
        }
        let mut refused = None;
        self.update(attempt.login, &attempt.key(), now, |entry| {
            let mut e = entry.unwrap_or(ThrottleEntry {
                failures: 0,
                since_ms: now,
                blocked_until_ms: 0,
                expires_ms: 0,
            });
            if e.blocked_until_ms > now {
                refused = Some(e.blocked_until_ms);
                return Some(e);
            }
            refused = None;
            e.failures += 1;
            let delay = delay_ms(e.failures);
            if delay > 0 {
                e.blocked_until_ms = now + delay;
            }
            e.expires_ms = e.blocked_until_ms.max(now) + FORGET_AFTER_MS;
            Some(e)
        })
        .await;
        if let Some(until) = refused {
            return Err(Error::RateLimited {
                retry_after: retry_secs(until, now),
            });
        }
        if untrusted {
            self.update(attempt.login, POOL_KEY, now, |entry| {
                let mut e = entry.unwrap_or(ThrottleEntry {
                    failures: 0,
                    since_ms: now,
                    blocked_until_ms: 0,
                    expires_ms: now + POOL_WINDOW_MS,
                });
                e.failures += 1;
                Some(e)
            })
            .await;
        }
        Ok(())
    }

    /// The password was right: the source starts afresh and the attempt leaves the
    /// account's count of unknown-device failures.
    pub async fn succeeded(&self, attempt: &Attempt<'_>) {
        let now = crate::db::now_ms();
        self.update(attempt.login, &attempt.key(), now, |_| None)
            .await;
        if attempt.known_device.is_none() {
            self.update(attempt.login, POOL_KEY, now, |entry| {
                entry.map(|mut e| {
                    e.failures = e.failures.saturating_sub(1);
                    e
                })
            })
            .await;
        }
    }

    /// Forget every throttle of an account: its owner came back through the e-mailed link.
    pub async fn clear_account(&self, login: &str) {
        self.shared.clear(&format!("signin:{login}")).await;
    }
}

#[cfg(test)]
mod sign_in_tests {
    use super::*;

    fn throttle(ceiling: u32) -> SignInThrottle {
        SignInThrottle::new(Shared::in_process(), ceiling)
    }

    fn from(ip: [u8; 4]) -> Attempt<'static> {
        Attempt {
            login: "fan@example.com",
            ip: ip.into(),
            known_device: None,
        }
    }

    fn retry(result: Result<()>) -> Option<u64> {
        match result {
            Err(Error::RateLimited { retry_after }) => Some(retry_after),
            _ => None,
        }
    }

    #[tokio::test]
    async fn a_source_gets_free_failures_then_doubling_blocks_up_to_fifteen_minutes() {
        let t = throttle(1000);
        let a = from([10, 0, 0, 1]);
        let mut now = 0;
        for _ in 0..FREE_FAILURES {
            assert!(t.begin_at(&a, now).await.is_ok());
        }
        let mut waits = Vec::new();
        for _ in 0..14 {
            let wait = retry(t.begin_at(&a, now).await).expect("blocked");
            waits.push(wait);
            now += i64::try_from(wait).unwrap() * 1000;
            assert!(t.begin_at(&a, now).await.is_ok());
        }
        assert_eq!(&waits[..5], &[1, 2, 4, 8, 16]);
        assert_eq!(waits.last(), Some(&900), "capped at 15 minutes");
        assert!(
            t.begin_at(&from([10, 0, 0, 2]), now).await.is_ok(),
            "per source"
        );
    }

    #[tokio::test]
    async fn the_unknown_device_pool_locks_at_its_ceiling_but_not_a_known_device() {
        let t = throttle(3);
        for octet in 1..=3 {
            assert!(t.begin_at(&from([10, 0, 0, octet]), 0).await.is_ok());
        }
        assert_eq!(
            retry(t.begin_at(&from([10, 0, 0, 9]), 1000).await),
            Some(3599)
        );
        let device = Attempt {
            known_device: Some("nonce"),
            ..from([10, 0, 0, 9])
        };
        assert!(t.begin_at(&device, 1000).await.is_ok());
        assert!(
            t.begin_at(&from([10, 0, 0, 9]), POOL_WINDOW_MS)
                .await
                .is_ok()
        );
    }

    #[test]
    fn ipv6_sources_are_their_slash_64_and_mapped_ipv4_is_ipv4() {
        let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:bbbb::2".parse().unwrap();
        let key = |ip| {
            Attempt {
                login: "x",
                ip,
                known_device: None,
            }
            .key()
        };
        assert_eq!(key(a), key(b));
        let mapped: IpAddr = "::ffff:10.0.0.1".parse().unwrap();
        let other: IpAddr = "::ffff:10.0.0.2".parse().unwrap();
        assert_eq!(key(mapped), "ip:10.0.0.1");
        assert_ne!(key(mapped), key(other), "mapped IPv4 clients stay apart");
    }
}
