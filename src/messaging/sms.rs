//! The one gate every SMS passes before it is handed to the messenger (security issue 11,
//! finding 9: SMS pumping). A number is refused when its country is not allowed
//! (`ENCORE_SMS_COUNTRIES`, 422), when it has had 3 codes in the last hour or 10 in the
//! last day, whoever asked (429), or when the whole server has sent
//! `ENCORE_SMS_PER_HOUR` in the last hour (429). Only [`SmsGate::permit`] makes an
//! [`SmsPermit`], and only a permit sends an SMS, so no call site can skip the check.
//!
//! The counts live in [`Shared`]: with Redis, every instance counts the same sends, so
//! a pump spread over N instances gets no more through than one.

use std::time::Duration;

use super::countries::AllowList;
use crate::cluster::shared::Shared;
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

fn ms(duration: Duration) -> i64 {
    i64::try_from(duration.as_millis()).unwrap_or(i64::MAX)
}

/// Whether one more send fits every cap, given a key's send times (unix ms, oldest
/// first); when not, how long until it would.
fn room(times: &[i64], caps: &[Cap], now: i64) -> Result<(), Duration> {
    for cap in caps {
        let window = ms(cap.window);
        let within: Vec<i64> = times.iter().copied().filter(|t| now - t < window).collect();
        if within.len() >= cap.max as usize {
            // Room again when the oldest send that still counts leaves the window.
            let oldest = within[within.len() - cap.max as usize];
            let wait = u64::try_from(window - (now - oldest)).unwrap_or(0);
            return Err(Duration::from_millis(wait));
        }
    }
    Ok(())
}

fn parse_times(value: Option<&str>) -> Vec<i64> {
    value
        .unwrap_or("")
        .split(',')
        .filter_map(|t| t.parse().ok())
        .collect()
}

fn write_times(times: &[i64]) -> Option<String> {
    (!times.is_empty()).then(|| {
        times
            .iter()
            .map(i64::to_string)
            .collect::<Vec<_>>()
            .join(",")
    })
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
    shared: Shared,
}

impl SmsGate {
    pub fn new(countries: AllowList, per_hour: u32, shared: Shared) -> Self {
        Self {
            countries,
            global: [Cap::new(per_hour.max(1), HOUR)],
            shared,
        }
    }

    /// Check the country and the caps for one SMS to `to` (E.164) and count it.
    pub async fn permit(&self, to: &str) -> Result<SmsPermit> {
        self.permit_at(to, crate::db::now_ms()).await
    }

    async fn permit_at(&self, to: &str, now: i64) -> Result<SmsPermit> {
        if !self.countries.allows(to) {
            return Err(Error::unprocessable(Msg::SmsCountryNotAllowed));
        }
        let number_key = format!("to:{to}");
        let refusal = |wait: Duration, message: Msg| {
            let seconds = wait.as_secs().max(1);
            Error::LimitReached {
                text: message.with("minutes", seconds.div_ceil(60)),
                retry_after: seconds,
            }
        };
        self.admit(&number_key, &PER_NUMBER, now)
            .await
            .map_err(|wait| refusal(wait, Msg::SmsNumberLimit))?;
        if let Err(wait) = self.admit(GLOBAL_KEY, &self.global, now).await {
            // All or nothing: the number's count is given back.
            self.take_back(&number_key, now).await;
            tracing::warn!("the server-wide SMS cap is reached");
            return Err(refusal(wait, Msg::SmsServerLimit));
        }
        Ok(SmsPermit { to: to.to_owned() })
    }

    /// Count one send under `key` if every cap has room; else count nothing.
    async fn admit(&self, key: &str, caps: &[Cap], now: i64) -> Result<(), Duration> {
        let longest = ms(caps.iter().map(|c| c.window).max().unwrap_or(HOUR));
        let mut refused = None;
        self.shared
            .update(&format!("sms:{key}"), "t", longest, now, |value| {
                let mut times = parse_times(value);
                times.retain(|t| now - t < longest);
                refused = room(&times, caps, now).err();
                if refused.is_none() {
                    times.push(now);
                }
                write_times(&times)
            })
            .await;
        refused.map_or(Ok(()), Err)
    }

    async fn take_back(&self, key: &str, now: i64) {
        self.shared
            .update(&format!("sms:{key}"), "t", ms(DAY), now, |value| {
                let mut times = parse_times(value);
                if let Some(i) = times.iter().rposition(|t| *t == now) {
                    times.remove(i);
                }
                write_times(&times)
            })
            .await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MINUTE: i64 = 60_000;
    const HOUR_MS: i64 = 60 * MINUTE;

    fn gate(per_hour: u32) -> SmsGate {
        SmsGate::new(
            AllowList::parse("").unwrap(),
            per_hour,
            Shared::in_process(),
        )
    }

    fn wait(result: Result<SmsPermit>) -> Option<u64> {
        match result {
            Err(Error::LimitReached { retry_after, .. }) => Some(retry_after),
            _ => None,
        }
    }

    #[test]
    fn a_key_at_its_cap_is_refused_until_its_oldest_send_leaves_the_window() {
        let caps = [Cap::new(2, HOUR)];
        let times = [0, 10 * MINUTE];
        assert_eq!(
            room(&times, &caps, 20 * MINUTE),
            Err(Duration::from_millis(40 * MINUTE as u64))
        );
        assert!(room(&times, &caps, HOUR_MS).is_ok());
        assert!(room(&[], &caps, 0).is_ok());
    }

    #[tokio::test]
    async fn a_number_gets_three_an_hour_and_ten_a_day() {
        let gate = gate(1000);
        for hour in 0..10 {
            assert!(
                gate.permit_at("+447700900123", hour * HOUR_MS)
                    .await
                    .is_ok()
            );
        }
        assert_eq!(
            wait(gate.permit_at("+447700900123", 10 * HOUR_MS).await),
            Some(14 * 3600),
            "the daily cap holds when the hourly one has room"
        );
        for _ in 0..3 {
            assert!(gate.permit_at("+447700900999", 0).await.is_ok());
        }
        assert_eq!(
            wait(gate.permit_at("+447700900999", MINUTE).await),
            Some(3540)
        );
    }

    #[tokio::test]
    async fn a_refusal_by_the_server_cap_counts_under_no_number() {
        let gate = gate(1);
        assert!(gate.permit_at("+447700900001", 0).await.is_ok());
        assert!(wait(gate.permit_at("+447700900002", 0).await).is_some());
        // With room on the server, the number still has all three of its hour.
        let roomy = SmsGate::new(AllowList::parse("").unwrap(), 100, gate.shared.clone());
        for minute in 1..=3 {
            assert!(
                roomy
                    .permit_at("+447700900002", minute * MINUTE)
                    .await
                    .is_ok(),
                "the refused send was not counted against the number"
            );
        }
    }

    #[tokio::test]
    async fn a_country_outside_the_list_is_refused_before_anything_is_counted() {
        let gate = SmsGate::new(AllowList::parse("GB").unwrap(), 1, Shared::in_process());
        assert!(matches!(
            gate.permit("+15550100777").await,
            Err(Error::Unprocessable(_))
        ));
        assert!(gate.permit("+447700900123").await.is_ok());
        assert!(matches!(
            gate.permit("+447700900124").await,
            Err(Error::LimitReached { .. })
        ));
    }
}
