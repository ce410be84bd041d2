//! Abuse limits for the sign-in endpoints: a token bucket per client IP and endpoint
//! (governor), progressive password throttles per account and source
//! ([`SignInThrottle`]), and a counter of messages sent per account.

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
    /// Wrong passwords per account and source.
    pub sign_in: SignInThrottle,
    /// Messages (SMS codes, reset e-mails) sent per account.
    pub messages_sent: FailureCounter,
}

impl RateLimits {
    pub fn new(per_ip_per_minute: u32, account_failures_per_hour: u32) -> Self {
        let per_minute = NonZeroU32::new(per_ip_per_minute).unwrap_or(NonZeroU32::MIN);
        Self {
            per_ip: RateLimiter::keyed(Quota::per_minute(per_minute)),
            qr_polls: RateLimiter::keyed(Quota::per_minute(
                NonZeroU32::new(120).unwrap_or(NonZeroU32::MIN),
            )),
            clock: DefaultClock::default(),
            sign_in: SignInThrottle::new(
                Box::new(MemoryThrottleStore::default()),
                account_failures_per_hour,
            ),
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
        self.sign_in.prune();
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
        let limits = RateLimits::new(2, 100);
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
/// refused, and when the entry may be forgotten (all unix ms, so a shared store can keep
/// them as they are).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ThrottleEntry {
    pub failures: u32,
    pub since_ms: i64,
    pub blocked_until_ms: i64,
    pub expires_ms: i64,
}

/// Where sign-in throttles live. One process keeps them in memory
/// ([`MemoryThrottleStore`]); several instances behind one address need a shared store
/// (Redis: one hash per account, `update` as a script) so a guesser cannot spread over them.
pub trait ThrottleStore: Send + Sync {
    /// Read, change and write back the entry `key` of `account` in one atomic step. An
    /// entry past its `expires_ms` reads as `None`; answering `None` removes it.
    fn update(
        &self,
        account: &str,
        key: &str,
        now_ms: i64,
        change: &mut dyn FnMut(Option<ThrottleEntry>) -> Option<ThrottleEntry>,
    );
    /// Forget every entry of an account (its owner proved themselves by e-mail).
    fn clear_account(&self, account: &str);
    /// Forget expired entries.
    fn prune(&self, now_ms: i64);
}

/// The in-process [`ThrottleStore`]: a map per account behind one mutex.
#[derive(Default)]
pub struct MemoryThrottleStore {
    accounts: Mutex<HashMap<String, HashMap<String, ThrottleEntry>>>,
}

impl MemoryThrottleStore {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, HashMap<String, ThrottleEntry>>> {
        self.accounts.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl ThrottleStore for MemoryThrottleStore {
    fn update(
        &self,
        account: &str,
        key: &str,
        now_ms: i64,
        change: &mut dyn FnMut(Option<ThrottleEntry>) -> Option<ThrottleEntry>,
    ) {
        let mut accounts = self.lock();
        let current = accounts
            .get(account)
            .and_then(|entries| entries.get(key))
            .copied()
            .filter(|e| e.expires_ms > now_ms);
        match change(current) {
            Some(entry) => {
                accounts
                    .entry(account.to_owned())
                    .or_default()
                    .insert(key.to_owned(), entry);
            }
            None => {
                if let Some(entries) = accounts.get_mut(account) {
                    entries.remove(key);
                    if entries.is_empty() {
                        accounts.remove(account);
                    }
                }
            }
        }
    }

    fn clear_account(&self, account: &str) {
        self.lock().remove(account);
    }

    fn prune(&self, now_ms: i64) {
        let mut accounts = self.lock();
        accounts.retain(|_, entries| {
            entries.retain(|_, e| e.expires_ms > now_ms);
            !entries.is_empty()
        });
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
    store: Box<dyn ThrottleStore>,
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
    pub fn new(store: Box<dyn ThrottleStore>, pool_ceiling: u32) -> Self {
        Self {
            store,
            pool_ceiling: pool_ceiling.max(1),
        }
    }

    /// Refuse the attempt (429 with the seconds to wait) or count it as a failure.
    pub fn begin(&self, attempt: &Attempt<'_>) -> Result<()> {
        self.begin_at(attempt, crate::db::now_ms())
    }

    fn begin_at(&self, attempt: &Attempt<'_>, now: i64) -> Result<()> {
        let untrusted = attempt.known_device.is_none();
        if untrusted {
            let mut refused = None;
            self.store
                .update(attempt.login, POOL_KEY, now, &mut |entry| {
                    if let Some(e) = entry
                        && e.failures >= self.pool_ceiling
                    {
                        refused = Some(e.expires_ms);
                    }
                    entry
                });
            if let Some(until) = refused {
                return Err(Error::RateLimited {
                    retry_after: retry_secs(until, now),
                });
            }
        }
        let mut refused = None;
        self.store
            .update(attempt.login, &attempt.key(), now, &mut |entry| {
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
                e.failures += 1;
                let delay = delay_ms(e.failures);
                if delay > 0 {
                    e.blocked_until_ms = now + delay;
                }
                e.expires_ms = e.blocked_until_ms.max(now) + FORGET_AFTER_MS;
                Some(e)
            });
        if let Some(until) = refused {
            return Err(Error::RateLimited {
                retry_after: retry_secs(until, now),
            });
        }
        if untrusted {
            self.store
                .update(attempt.login, POOL_KEY, now, &mut |entry| {
                    let mut e = entry.unwrap_or(ThrottleEntry {
                        failures: 0,
                        since_ms: now,
                        blocked_until_ms: 0,
                        expires_ms: now + POOL_WINDOW_MS,
                    });
                    e.failures += 1;
                    Some(e)
                });
        }
        Ok(())
    }

    /// The password was right: the source starts afresh and the attempt leaves the
    /// account's count of unknown-device failures.
    pub fn succeeded(&self, attempt: &Attempt<'_>) {
        let now = crate::db::now_ms();
        self.store
            .update(attempt.login, &attempt.key(), now, &mut |_| None);
        if attempt.known_device.is_none() {
            self.store
                .update(attempt.login, POOL_KEY, now, &mut |entry| {
                    entry.map(|mut e| {
                        e.failures = e.failures.saturating_sub(1);
                        e
                    })
                });
        }
    }

    /// Forget every throttle of an account: its owner came back through the e-mailed link.
    pub fn clear_account(&self, login: &str) {
        self.store.clear_account(login);
    }

    fn prune(&self) {
        self.store.prune(crate::db::now_ms());
    }
}

#[cfg(test)]
mod sign_in_tests {
    use super::*;

    fn throttle(ceiling: u32) -> SignInThrottle {
        SignInThrottle::new(Box::new(MemoryThrottleStore::default()), ceiling)
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

    #[test]
    fn a_source_gets_free_failures_then_doubling_blocks_up_to_fifteen_minutes() {
        let t = throttle(1000);
        let a = from([10, 0, 0, 1]);
        let mut now = 0;
        for _ in 0..FREE_FAILURES {
            assert!(t.begin_at(&a, now).is_ok());
        }
        let mut waits = Vec::new();
        for _ in 0..14 {
            let wait = retry(t.begin_at(&a, now)).expect("blocked");
            waits.push(wait);
            now += i64::try_from(wait).unwrap() * 1000;
            assert!(t.begin_at(&a, now).is_ok());
        }
        assert_eq!(&waits[..5], &[1, 2, 4, 8, 16]);
        assert_eq!(waits.last(), Some(&900), "capped at 15 minutes");
        assert!(t.begin_at(&from([10, 0, 0, 2]), now).is_ok(), "per source");
    }

    #[test]
    fn the_unknown_device_pool_locks_at_its_ceiling_but_not_a_known_device() {
        let t = throttle(3);
        for octet in 1..=3 {
            assert!(t.begin_at(&from([10, 0, 0, octet]), 0).is_ok());
        }
        assert_eq!(retry(t.begin_at(&from([10, 0, 0, 9]), 1000)), Some(3599));
        let device = Attempt {
            known_device: Some("nonce"),
            ..from([10, 0, 0, 9])
        };
        assert!(t.begin_at(&device, 1000).is_ok());
        assert!(t.begin_at(&from([10, 0, 0, 9]), POOL_WINDOW_MS).is_ok());
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
