//! The rules of changing a concert, as plain functions of its row (and the clock), so
//! they are tested without HTTP: the handlers call them and the store writes.

use super::model::{EventRow, EventStatus, Phase};
use crate::i18n::Msg;

/// The states a concert may be cancelled from (an ended or cancelled one cannot be).
pub const CANCELLABLE_FROM: [EventStatus; 3] = [
    EventStatus::Draft,
    EventStatus::Published,
    EventStatus::Live,
];

/// 9999-01-01T00:00:00Z: a later start would end its access window past year 9999, which
/// RFC 3339 (the API's times) cannot write.
pub const LATEST_START_MS: i64 = 253_370_764_800_000;

/// Why a start time is refused, if it is.
pub fn start_refusal(starts_at: i64) -> Option<Msg> {
    (starts_at >= LATEST_START_MS).then_some(Msg::StartTooLate)
}

/// A cancelled concert is kept as it was: why an edit is refused, if it is.
pub fn edit_refusal(event: &EventRow) -> Option<Msg> {
    (event.status == EventStatus::Cancelled).then_some(Msg::CancelledUnchangeable)
}

/// Once a ticket was sold (`sold`), the price and currency are frozen: a different price,
/// or a currency other than the current one (in any case), is refused. Sending the same
/// values again is allowed.
pub fn price_change_refusal(
    event: &EventRow,
    sold: bool,
    price: Option<i64>,
    currency: Option<&str>,
) -> Option<Msg> {
    let changes = price.is_some_and(|p| p != event.details.price_minor)
        || currency.is_some_and(|c| !c.eq_ignore_ascii_case(&event.details.currency));
    (sold && changes).then_some(Msg::PriceLocked)
}

/// A concert is published only while its access window is still open at `now`.
pub fn publish_refusal(event: &EventRow, now: i64) -> Option<Msg> {
    (event.access_until() <= now).then_some(Msg::StartTooOld)
}

/// A concert that ever sold a ticket is cancelled (and refunded), never deleted.
pub fn delete_refusal(tickets_ever_sold: i64) -> Option<Msg> {
    (tickets_ever_sold > 0).then_some(Msg::TicketsSoldCancelInstead)
}

/// "Remind me when doors open" rings when the doors open, so it is asked for only before
/// then: why it is refused in a phase, if it is (a draft is not found: handlers answer 404
/// before asking).
pub fn reminder_refusal(phase: Phase) -> Option<Msg> {
    match phase {
        Phase::Upcoming => None,
        Phase::Draft => Some(Msg::ConcertNotFound),
        Phase::Doors | Phase::Live => Some(Msg::DoorsAlreadyOpen),
        Phase::Replay | Phase::Expired => Some(Msg::EndedOrCancelled),
        Phase::Cancelled => Some(Msg::ConcertCancelled),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::events::model::ACCESS_WINDOW_MS;

    fn event(status: EventStatus) -> EventRow {
        let mut event = EventRow::sample(status);
        event.details.starts_at = 1_000_000;
        event
    }

    #[test]
    fn a_start_is_refused_from_year_9999_so_that_its_access_end_can_be_written() {
        assert_eq!(start_refusal(LATEST_START_MS - 1), None);
        assert_eq!(start_refusal(LATEST_START_MS), Some(Msg::StartTooLate));
        let mut last = EventRow::sample(EventStatus::Draft);
        last.details.starts_at = LATEST_START_MS - 1;
        assert!(crate::db::iso8601(last.access_until()).starts_with("9999-01-01T23:59:59"));
    }

    #[test]
    fn a_cancelled_concert_cannot_be_edited_and_the_others_can() {
        assert_eq!(
            edit_refusal(&event(EventStatus::Cancelled)),
            Some(Msg::CancelledUnchangeable)
        );
        for status in [
            EventStatus::Draft,
            EventStatus::Published,
            EventStatus::Live,
            EventStatus::Ended,
        ] {
            assert_eq!(edit_refusal(&event(status)), None);
        }
    }

    #[test]
    fn the_price_and_currency_are_frozen_after_a_sale_but_may_be_resent_unchanged() {
        let e = event(EventStatus::Published);
        assert_eq!(
            price_change_refusal(&e, false, Some(2000), Some("USD")),
            None
        );
        assert_eq!(
            price_change_refusal(&e, true, Some(2000), None),
            Some(Msg::PriceLocked)
        );
        assert_eq!(
            price_change_refusal(&e, true, None, Some("USD")),
            Some(Msg::PriceLocked)
        );
        assert_eq!(
            price_change_refusal(&e, true, Some(1000), Some("eur")),
            None
        );
        assert_eq!(price_change_refusal(&e, true, None, None), None);
    }

    #[test]
    fn a_concert_is_published_only_before_its_access_window_closes() {
        let e = event(EventStatus::Draft);
        let closes = e.details.starts_at + ACCESS_WINDOW_MS;
        assert_eq!(publish_refusal(&e, closes - 1), None);
        assert_eq!(publish_refusal(&e, closes), Some(Msg::StartTooOld));
    }

    #[test]
    fn only_a_concert_that_never_sold_a_ticket_is_deleted() {
        assert_eq!(delete_refusal(0), None);
        assert_eq!(delete_refusal(1), Some(Msg::TicketsSoldCancelInstead));
    }

    #[test]
    fn ended_and_cancelled_concerts_are_not_cancellable() {
        assert!(!CANCELLABLE_FROM.contains(&EventStatus::Ended));
        assert!(!CANCELLABLE_FROM.contains(&EventStatus::Cancelled));
    }

    #[test]
    fn a_doors_reminder_is_asked_for_only_before_the_doors_open() {
        assert_eq!(reminder_refusal(Phase::Upcoming), None);
        for phase in [Phase::Doors, Phase::Live] {
            assert_eq!(reminder_refusal(phase), Some(Msg::DoorsAlreadyOpen));
        }
        for phase in [Phase::Replay, Phase::Expired] {
            assert_eq!(reminder_refusal(phase), Some(Msg::EndedOrCancelled));
        }
        assert_eq!(
            reminder_refusal(Phase::Cancelled),
            Some(Msg::ConcertCancelled)
        );
        assert_eq!(reminder_refusal(Phase::Draft), Some(Msg::ConcertNotFound));
    }
}
