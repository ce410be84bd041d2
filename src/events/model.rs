//! Concerts: stored rows and the rules of sale and access (the API shape is `view`).

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::i18n::Msg;

/// A ticket gives access from 15 minutes before the start until 24 hours after it.
pub const ACCESS_WINDOW_MS: i64 = 24 * 3_600_000;
pub const EARLY_ACCESS_MS: i64 = 15 * 60_000;
/// How long before its start a concert's holders are reminded: when its doors open.
pub const REMINDER_LEAD_MS: i64 = 15 * 60_000;

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

#[derive(Debug, Clone)]
pub struct EventRow {
    pub id: String,
    pub project_id: String,
    /// What its managers write on its form.
    pub details: Details,
    pub seats_taken: i64,
    pub status: EventStatus,
    /// SHA-256 (hex) of the stream key; `None` until the first rotation makes one.
    pub stream_key_hash: Option<String>,
    /// The key's last four characters.
    pub stream_key_hint: Option<String>,
    pub image_type: Option<String>,
    pub image_version: Option<i64>,
    pub created_at: i64,
}
crate::db::from_row!(EventRow { id, project_id, seats_taken, status as String, stream_key_hash, stream_key_hint, image_type, image_version, created_at, ..details });

crate::db::row! {
    /// What a concert's managers write on its form, each field checked
    /// (`edit::EventInput::apply_to`); the rest of a row is the platform's to keep.
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct Details {
        pub title: String,
        pub artist_name: String,
        pub description: String,
        pub starts_at: i64,
        pub duration_minutes: i64,
        pub price_minor: i64,
        pub currency: String,
        pub capacity: Option<i64>,
    }
}

impl Details {
    /// A new draft's details before its form is applied: 90 minutes, in euros, unlimited.
    pub fn draft(title: String, artist_name: String, starts_at: i64, price_minor: i64) -> Self {
        Self {
            title,
            artist_name,
            description: String::new(),
            starts_at,
            duration_minutes: 90,
            price_minor,
            currency: "EUR".to_owned(),
            capacity: None,
        }
    }
}

impl EventRow {
    pub fn access_until(&self) -> i64 {
        self.details.starts_at + ACCESS_WINDOW_MS
    }
    pub fn seats_left(&self) -> Option<i64> {
        self.details.capacity.map(|c| (c - self.seats_taken).max(0))
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

/// Where a ticket holder stands with a concert: the older, coarser word for
/// [`Phase`] (doors read as upcoming, a draft as upcoming), kept for the clients that
/// still read `access`. Derived from [`concert_state`], never computed on its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum AccessState {
    Upcoming,
    Live,
    Replay,
    Expired,
    Cancelled,
}

/// Where a concert stands now, for everyone who shows it (cards, lists, the player).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    /// Not published: only its managers see it.
    Draft,
    /// Before the doors open: listening is refused.
    Upcoming,
    /// From 15 minutes before the start: ticket holders may open the player and wait.
    Doors,
    /// On air, or inside its scheduled time.
    Live,
    /// Ended: the recording plays back until 24 hours after the start.
    Replay,
    /// Past 24 hours after the start: nothing to listen to any more.
    Expired,
    Cancelled,
}

/// Why a concert is in its phase, where the phase alone does not say it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum PhaseReason {
    /// Live because an encoder is on air before the scheduled start.
    OnAirEarly,
    /// Live because an encoder is on air.
    OnAir,
    /// Live and aired, its encoder away: the same show goes on when it comes back (within
    /// `ENCORE_SHOW_ABANDON_MINUTES`), else it ends by itself.
    Reconnecting,
    /// Live by its schedule, with no encoder on air yet.
    AwaitingEncoder,
    /// Ended by its artist (or when its encoder stayed away).
    Ended,
    /// Past its scheduled end without having been ended.
    ScheduledEnd,
    /// 24 hours after the start passed.
    ReplayOver,
    Cancelled,
}

/// A concert's phase with its times (unix ms), computed once on the server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConcertState {
    pub phase: Phase,
    pub reason: Option<PhaseReason>,
    pub doors_at: i64,
    pub starts_at: i64,
    /// The scheduled end: start + duration.
    pub ends_at: i64,
    pub replay_until: i64,
    pub on_air: bool,
    /// When the phase changes next by the clock alone (no encoder, no artist acting).
    pub next_change_at: Option<i64>,
}

impl ConcertState {
    /// The coarser [`AccessState`] of the same moment.
    pub fn access(&self) -> AccessState {
        match self.phase {
            Phase::Draft | Phase::Upcoming | Phase::Doors => AccessState::Upcoming,
            Phase::Live => AccessState::Live,
            Phase::Replay => AccessState::Replay,
            Phase::Expired => AccessState::Expired,
            Phase::Cancelled => AccessState::Cancelled,
        }
    }
}

/// The one rule of a concert's phase at `now`; `on_air`: an encoder publishes it now
/// (the hub's word). Being on air makes a show live even before its start time; the
/// stored status says whether the artist started or ended it.
pub fn concert_state(event: &EventRow, now: i64, on_air: bool) -> ConcertState {
    let starts_at = event.details.starts_at;
    let doors_at = starts_at - EARLY_ACCESS_MS;
    let ends_at = starts_at + event.details.duration_minutes * 60_000;
    let replay_until = event.access_until();
    let (phase, reason, next_change_at) = match event.status {
        EventStatus::Cancelled => (Phase::Cancelled, Some(PhaseReason::Cancelled), None),
        EventStatus::Draft => (Phase::Draft, None, None),
        _ if now >= replay_until => (Phase::Expired, Some(PhaseReason::ReplayOver), None),
        EventStatus::Ended => (Phase::Replay, Some(PhaseReason::Ended), Some(replay_until)),
        EventStatus::Live | EventStatus::Published
            if on_air || event.status == EventStatus::Live =>
        {
            let reason = if !on_air {
                PhaseReason::Reconnecting
            } else if now < starts_at {
                PhaseReason::OnAirEarly
            } else {
                PhaseReason::OnAir
            };
            (Phase::Live, Some(reason), Some(replay_until))
        }
        _ if now < doors_at => (Phase::Upcoming, None, Some(doors_at)),
        _ if now < starts_at => (Phase::Doors, None, Some(starts_at)),
        _ if now < ends_at => (
            Phase::Live,
            Some(PhaseReason::AwaitingEncoder),
            Some(ends_at),
        ),
        _ => (
            Phase::Replay,
            Some(PhaseReason::ScheduledEnd),
            Some(replay_until),
        ),
    };
    ConcertState {
        phase,
        reason,
        doors_at,
        starts_at,
        ends_at,
        replay_until,
        on_air,
        next_change_at,
    }
}

/// The `{id}` of a concert's routes: what [`ManagedEvent`](super::extract::ManagedEvent)
/// reads, and how the annotation of every route naming a concert describes it
/// (`params(ConcertPath)`).
#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Path)]
pub struct ConcertPath {
    /// The concert's id
    pub id: String,
}

/// The `{event_id}` of the routes that name a concert beside the cart or the stream, for
/// their annotations (the handlers read the segment as a plain `String`).
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Path)]
#[allow(dead_code)] // a description only
pub struct EventIdPath {
    /// The concert's id
    event_id: String,
}

#[cfg(test)]
impl EventRow {
    /// A concert for unit tests: 90 minutes from t = 0, 10.00 EUR, no cap, no key.
    pub fn sample(status: EventStatus) -> Self {
        Self {
            id: "e1".into(),
            project_id: "p".into(),
            details: Details::draft("t".into(), "a".into(), 0, 1000),
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
        let sample = EventRow::sample(status);
        EventRow {
            details: Details {
                starts_at,
                capacity,
                ..sample.details
            },
            seats_taken: taken,
            ..sample
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

    fn phase(
        event: &EventRow,
        now: i64,
        on_air: bool,
    ) -> (Phase, Option<PhaseReason>, Option<i64>) {
        let state = concert_state(event, now, on_air);
        (state.phase, state.reason, state.next_change_at)
    }

    #[test]
    fn a_published_concert_moves_upcoming_doors_live_replay_expired_at_its_times() {
        let start = 100 * HOUR;
        let e = event(EventStatus::Published, start, None, 0);
        let doors = start - EARLY_ACCESS_MS;
        let end = start + 90 * 60_000;
        let until = start + 24 * HOUR;
        assert_eq!(
            phase(&e, doors - 1, false),
            (Phase::Upcoming, None, Some(doors))
        );
        assert_eq!(phase(&e, doors, false), (Phase::Doors, None, Some(start)));
        assert_eq!(
            phase(&e, start - 1, false),
            (Phase::Doors, None, Some(start))
        );
        assert_eq!(
            phase(&e, start, false),
            (Phase::Live, Some(PhaseReason::AwaitingEncoder), Some(end))
        );
        assert_eq!(
            phase(&e, end, false),
            (Phase::Replay, Some(PhaseReason::ScheduledEnd), Some(until))
        );
        assert_eq!(phase(&e, until - 1, false).0, Phase::Replay);
        assert_eq!(
            phase(&e, until, false),
            (Phase::Expired, Some(PhaseReason::ReplayOver), None)
        );
    }

    #[test]
    fn a_show_on_air_before_its_start_is_live_and_an_ended_one_is_a_replay() {
        let start = 100 * HOUR;
        let until = start + 24 * HOUR;
        let published = event(EventStatus::Published, start, None, 0);
        assert_eq!(
            phase(&published, start - HOUR, true),
            (Phase::Live, Some(PhaseReason::OnAirEarly), Some(until))
        );
        let live = event(EventStatus::Live, start, None, 0);
        assert_eq!(
            phase(&live, start - HOUR, true).1,
            Some(PhaseReason::OnAirEarly)
        );
        // Between two connections of its encoder it stays live, reconnecting.
        assert_eq!(
            phase(&live, start + 3 * HOUR, false),
            (Phase::Live, Some(PhaseReason::Reconnecting), Some(until))
        );
        assert_eq!(
            phase(&live, start + 3 * HOUR, true),
            (Phase::Live, Some(PhaseReason::OnAir), Some(until))
        );
        let ended = event(EventStatus::Ended, start, None, 0);
        assert_eq!(
            phase(&ended, start + 10 * 60_000, false),
            (Phase::Replay, Some(PhaseReason::Ended), Some(until))
        );
        assert_eq!(phase(&live, until, true).0, Phase::Expired);
    }

    #[test]
    fn cancelled_and_draft_concerts_never_change_by_the_clock() {
        let start = 100 * HOUR;
        let cancelled = concert_state(&event(EventStatus::Cancelled, start, None, 0), start, true);
        assert_eq!(cancelled.phase, Phase::Cancelled);
        assert_eq!(cancelled.access(), AccessState::Cancelled);
        assert_eq!(cancelled.next_change_at, None);
        let draft = concert_state(&event(EventStatus::Draft, start, None, 0), start, false);
        assert_eq!((draft.phase, draft.next_change_at), (Phase::Draft, None));
    }

    #[test]
    fn the_access_word_follows_the_phase() {
        let start = 100 * HOUR;
        let e = event(EventStatus::Published, start, None, 0);
        let access = |now| concert_state(&e, now, false).access();
        assert_eq!(access(start - HOUR), AccessState::Upcoming);
        assert_eq!(access(start - 60_000), AccessState::Upcoming);
        assert_eq!(access(start + HOUR), AccessState::Live);
        assert_eq!(access(start + 2 * HOUR), AccessState::Replay);
        assert_eq!(access(start + 24 * HOUR), AccessState::Expired);
    }
}
