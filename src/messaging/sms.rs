//! The one gate every SMS passes before it is handed to the messenger (security issue 11,
//! finding 9: SMS pumping). A number is refused when its country is not allowed
//! (`ENCORE_SMS_COUNTRIES`, 422), when it has had 3 codes in the last hour or 10 in the
//! last day, whoever asked (429), or when the whole server has sent
//! `ENCORE_SMS_PER_HOUR` in the last hour (429). Only [`SmsGate::permit`] makes an
//! [`SmsPermit`], and only a permit sends an SMS, so no call site can skip the check.
//!
//! The counts live in process memory behind [`SendCounter`]; several instances behind
//! one load balancer each count their own (a shared store, e.g. Redis, implements the
//! same trait).

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::countries::AllowList;
use crate::error::{Error, Result};
use crate::i18n::Msg;

const HOUR: Duration = Duration::from_secs(3600);
const DAY: Duration = Duration::from_secs(24 * 3600);
/// Codes one number may receive: 3 an hour (a resend or two) and 10 a day.
const PER_NUMBER: [Cap; 2] = [Cap::new(3, HOUR), Cap::new(10, DAY)];
const GLOBAL_KEY: &str = "*";

/// At most `max` sends in any `window`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cap {
    pub max: u32,
    pub window: Duration,
}

impl Cap {
    pub const fn new(max: u32, window: Duration) -> Self {
        Self { max, window }
    }
}

/// Which of the asked keys refused, and when it will have room again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Refused {
    pub key: usize,
    pub retry_after: Duration,
}

/// Counts sends per key in sliding windows.
pub trait SendCounter: Send + Sync {
    /// Count one send under every key when none is at one of its caps (all or nothing);
    /// otherwise count nothing and say which key refused first.
    fn admit(&self, keys: &[(&str, &[Cap])], now: Instant) -> Result<(), Refused>;
    /// Forget sends older than every window.
    fn prune(&self, now: Instant);
}

/// [`SendCounter`] in this process's memory: the send times of each key.
#[derive(Default)]
pub struct MemoryCounter {
    sends: Mutex<HashMap<String, VecDeque<Instant>>>,
}

impl SendCounter for MemoryCounter {
    fn admit(&self, keys: &[(&str, &[Cap])], now: Instant) -> Result<(), Refused> {
        let mut sends = self.sends.lock().unwrap_or_else(|e| e.into_inner());
        for (index, (key, caps)) in keys.iter().enumerate() {
            let Some(times) = sends.get(*key) else {
                continue;
            };
            for cap in caps.iter() {
                let within: Vec<&Instant> = times
                    .iter()
                    .filter(|t| now.duration_since(**t) < cap.window)
                    .collect();
                if within.len() >= cap.max as usize {
                    // Room again when the oldest send that still counts leaves the window.
                    let retry_after = within
                        .len()
                        .checked_sub(cap.max as usize)
                        .and_then(|i| within.get(i))
                        .map_or(cap.window, |oldest| {
                            cap.window.saturating_sub(now.duration_since(**oldest))
                        });
                    return Err(Refused {
                        key: index,
                        retry_after,
                    });
                }
            }
        }
        for (key, caps) in keys {
            let longest = caps.iter().map(|c| c.window).max().unwrap_or(HOUR);
            let times = sends.entry((*key).to_owned()).or_default();
            times.retain(|t| now.duration_since(*t) < longest);
            times.push_back(now);
        }
        Ok(())
    }

    fn prune(&self, now: Instant) {
        let mut sends = self.sends.lock().unwrap_or_else(|e| e.into_inner());
        sends.retain(|_, times| {
            times.retain(|t| now.duration_since(*t) < DAY);
            !times.is_empty()
        });
    }
}

/// Leave to send one SMS to one number; only [`SmsGate::permit`] makes one.
#[derive(Debug)]
pub struct SmsPermit {
    to: String,
}

impl SmsPermit {
    pub fn to(&self) -> &str {
        &self.to
    }
}

pub struct SmsGate {
    countries: AllowList,
    global: [Cap; 1],
    counter: Box<dyn SendCounter>,
}

impl SmsGate {
    pub fn new(countries: AllowList, per_hour: u32) -> Self {
        Self {
            countries,
            global: [Cap::new(per_hour.max(1), HOUR)],
            counter: Box::new(MemoryCounter::default()),
        }
    }

    /// Check the country and the caps for one SMS to `to` (E.164) and count it.
    pub fn permit(&self, to: &str) -> Result<SmsPermit> {
        if !self.countries.allows(to) {
            return Err(Error::unprocessable(Msg::SmsCountryNotAllowed));
        }
        let number_key = format!("to:{to}");
        let keys: [(&str, &[Cap]); 2] = [(&number_key, &PER_NUMBER), (GLOBAL_KEY, &self.global)];
        self.counter
            .admit(&keys, Instant::now())
            .map_err(|refused| {
                let seconds = refused.retry_after.as_secs().max(1);
                let message = if refused.key == 0 {
                    Msg::SmsNumberLimit
                } else {
                    tracing::warn!("the server-wide SMS cap is reached");
                    Msg::SmsServerLimit
                };
                Error::LimitReached {
                    text: message.with("minutes", seconds.div_ceil(60)),
                    retry_after: seconds,
                }
            })?;
        Ok(SmsPermit { to: to.to_owned() })
    }

    pub fn prune(&self) {
        self.counter.prune(Instant::now());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MINUTE: Duration = Duration::from_secs(60);

    #[test]
    fn a_key_at_its_cap_is_refused_until_its_oldest_send_leaves_the_window() {
        let counter = MemoryCounter::default();
        let caps = [Cap::new(2, HOUR)];
        let start = Instant::now();
        assert!(counter.admit(&[("a", &caps)], start).is_ok());
        assert!(counter.admit(&[("a", &caps)], start + 10 * MINUTE).is_ok());
        let refused = counter
            .admit(&[("a", &caps)], start + 20 * MINUTE)
            .unwrap_err();
        assert_eq!(
            refused,
            Refused {
                key: 0,
                retry_after: 40 * MINUTE
            }
        );
        assert!(counter.admit(&[("b", &caps)], start + 20 * MINUTE).is_ok());
        assert!(counter.admit(&[("a", &caps)], start + HOUR).is_ok());
    }

    #[test]
    fn a_refusal_counts_under_no_key() {
        let counter = MemoryCounter::default();
        let open = [Cap::new(10, HOUR)];
        let shut = [Cap::new(1, HOUR)];
        let now = Instant::now();
        assert!(counter.admit(&[("x", &shut)], now).is_ok());
        let refused = counter
            .admit(&[("n", &open), ("x", &shut)], now)
            .unwrap_err();
        assert_eq!(refused.key, 1);
        for _ in 0..10 {
            assert!(
                counter.admit(&[("n", &open)], now).is_ok(),
                "n was not counted"
            );
        }
    }

    #[test]
    fn the_daily_cap_holds_when_the_hourly_one_has_room() {
        let counter = MemoryCounter::default();
        let start = Instant::now();
        for hour in 0..10 {
            assert!(
                counter
                    .admit(&[("n", &PER_NUMBER)], start + hour * HOUR)
                    .is_ok()
            );
        }
        let refused = counter
            .admit(&[("n", &PER_NUMBER)], start + 10 * HOUR)
            .unwrap_err();
        assert_eq!(refused.retry_after, 14 * HOUR);
        counter.prune(start + 34 * HOUR);
        assert!(
            counter.sends.lock().unwrap().is_empty(),
            "memory stays bounded"
        );
    }

    #[test]
    fn a_country_outside_the_list_is_refused_before_anything_is_counted() {
        let gate = SmsGate::new(AllowList::parse("GB").unwrap(), 1);
        assert!(matches!(
            gate.permit("+15550100777"),
            Err(Error::Unprocessable(_))
        ));
        assert!(gate.permit("+447700900123").is_ok());
        assert!(matches!(
            gate.permit("+447700900124"),
            Err(Error::LimitReached { .. })
        ));
    }
}
