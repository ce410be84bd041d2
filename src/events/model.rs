//! Concerts: stored rows and the rules of sale and access (the API shape is `view`).

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::i18n::Msg;

/// A ticket gives access from 15 minutes before the start until 24 hours after it.
pub const ACCESS_WINDOW_MS: i64 = 24 * 3_600_000;
pub const EARLY_ACCESS_MS: i64 = 15 * 60_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum EventStatus {
    Draft,
    Published,
    Live,
    Ended,
    Cancelled,
}

impl EventStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Draft => "draft",
            Self::Published => "published",
            Self::Live => "live",
            Self::Ended => "ended",
            Self::Cancelled => "cancelled",
        }
    }
}

/// Read from `events.status`: an unknown value is a decoding error (the row is refused),
/// never a silent default.
impl TryFrom<String> for EventStatus {
    type Error = String;
    fn try_from(value: String) -> Result<Self, Self::Error> {
        Ok(match value.as_str() {
            "draft" => Self::Draft,
            "published" => Self::Published,
            "live" => Self::Live,
            "ended" => Self::Ended,
            "cancelled" => Self::Cancelled,
            _ => return Err(format!("unknown event status {value:?}")),
        })
    }
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct EventRow {
    pub id: String,
    pub project_id: String,
    pub title: String,
    pub artist_name: String,
    pub description: String,
    pub starts_at: i64,
    pub duration_minutes: i64,
    pub price_minor: i64,
    pub currency: String,
    pub capacity: Option<i64>,
    pub seats_taken: i64,
    #[sqlx(try_from = "String")]
    pub status: EventStatus,
    /// SHA-256 (hex) of the stream key; `None` until the first rotation makes one.
    pub stream_key_hash: Option<String>,
    /// The key's last four characters.
    pub stream_key_hint: Option<String>,
    pub image_type: Option<String>,
    pub image_version: Option<i64>,
    pub created_at: i64,
}

impl EventRow {
    pub fn access_until(&self) -> i64 {
        self.starts_at + ACCESS_WINDOW_MS
    }
    pub fn seats_left(&self) -> Option<i64> {
        self.capacity.map(|c| (c - self.seats_taken).max(0))
    }
    /// Whether `key` is this concert's stream key (compared as hashes, in constant time).
    pub fn stream_key_matches(&self, key: &str) -> bool {
        self.stream_key_hash.as_deref().is_some_and(|hash| {
            crate::crypto::constant_time_eq(&crate::crypto::token_hash(key), hash)
        })
    }
}

/// Why a concert cannot be bought now, if it cannot.
pub fn sale_refusal(event: &EventRow, now: i64) -> Option<Msg> {
    match event.status {
        EventStatus::Cancelled => Some(Msg::ConcertCancelled),
        EventStatus::Draft => Some(Msg::NotOnSaleYet),
        _ if now >= event.access_until() => Some(Msg::SaleWindowClosed),
        _ if event.seats_left() == Some(0) => Some(Msg::ConcertSoldOut),
        _ => None,
    }
}

/// Where a ticket holder stands with a concert.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum AccessState {
    Upcoming,
    Live,
    Replay,
    Expired,
    Cancelled,
}

pub fn access_state(event: &EventRow, now: i64) -> AccessState {
    let status = event.status;
    if status == EventStatus::Cancelled {
        return AccessState::Cancelled;
    }
    if now >= event.access_until() {
        return AccessState::Expired;
    }
    let scheduled_end = event.starts_at + event.duration_minutes * 60_000;
    match status {
        EventStatus::Live => AccessState::Live,
        EventStatus::Ended => AccessState::Replay,
        _ if now < event.starts_at => AccessState::Upcoming,
        _ if now < scheduled_end => AccessState::Live,
        _ => AccessState::Replay,
    }
}

#[cfg(test)]
impl EventRow {
    /// A concert for unit tests: 90 minutes from t = 0, 10.00 EUR, no cap, no key.
    pub fn sample(status: EventStatus) -> Self {
        Self {
            id: "e1".into(),
            project_id: "p".into(),
            title: "t".into(),
            artist_name: "a".into(),
            description: String::new(),
            starts_at: 0,
            duration_minutes: 90,
            price_minor: 1000,
            currency: "EUR".into(),
            capacity: None,
            seats_taken: 0,
            status,
            stream_key_hash: None,
            stream_key_hint: None,
            image_type: None,
            image_version: None,
            created_at: 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(status: EventStatus, starts_at: i64, capacity: Option<i64>, taken: i64) -> EventRow {
        EventRow {
            starts_at,
            capacity,
            seats_taken: taken,
            ..EventRow::sample(status)
        }
    }

    const HOUR: i64 = 3_600_000;

    #[test]
    fn an_unknown_stored_status_is_an_error_not_a_draft() {
        for status in [
            EventStatus::Draft,
            EventStatus::Published,
            EventStatus::Live,
            EventStatus::Ended,
            EventStatus::Cancelled,
        ] {
            assert_eq!(
                EventStatus::try_from(status.as_str().to_owned()),
                Ok(status)
            );
        }
        assert!(EventStatus::try_from("archived".to_owned()).is_err());
        assert!(EventStatus::try_from(String::new()).is_err());
        assert!(EventStatus::try_from("Draft".to_owned()).is_err());
    }

    #[test]
    fn a_concert_is_on_sale_until_24_hours_after_its_start() {
        let start = 100 * HOUR;
        assert_eq!(
            sale_refusal(&event(EventStatus::Published, start, None, 0), start - HOUR),
            None
        );
        assert_eq!(
            sale_refusal(
                &event(EventStatus::Ended, start, None, 0),
                start + 23 * HOUR
            ),
            None
        );
        assert!(
            sale_refusal(
                &event(EventStatus::Ended, start, None, 0),
                start + 24 * HOUR
            )
            .is_some()
        );
        assert!(sale_refusal(&event(EventStatus::Draft, start, None, 0), 0).is_some());
        assert!(sale_refusal(&event(EventStatus::Cancelled, start, None, 0), 0).is_some());
        assert_eq!(
            sale_refusal(&event(EventStatus::Published, start, Some(2), 2), 0),
            Some(Msg::ConcertSoldOut)
        );
    }

    #[test]
    fn access_moves_from_upcoming_to_live_to_replay_to_expired() {
        let start = 100 * HOUR;
        let e = event(EventStatus::Published, start, None, 0);
        assert_eq!(access_state(&e, start - 1), AccessState::Upcoming);
        assert_eq!(access_state(&e, start + HOUR), AccessState::Live);
        assert_eq!(access_state(&e, start + 2 * HOUR), AccessState::Replay);
        assert_eq!(access_state(&e, start + 24 * HOUR), AccessState::Expired);
        assert_eq!(
            access_state(&event(EventStatus::Cancelled, start, None, 0), start),
            AccessState::Cancelled
        );
    }
}
