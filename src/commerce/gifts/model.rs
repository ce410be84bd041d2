//! Gifts of tickets: their states, the rows they are read from, what the API shows, and
//! the rules of when a gift may be given, taken back or claimed (plain functions, tested
//! without HTTP).

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::error::{Error, Result};
use crate::events::model::{EventRow, EventStatus};
use crate::i18n::Msg;

/// Where a gift stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub enum GiftStatus {
    /// Sent, not claimed yet: the ticket is held by nobody.
    Pending,
    /// The claimant holds the ticket now.
    Claimed,
    /// The giver took it back before the show; the ticket is theirs again.
    TakenBack,
    /// Its order was refunded or its concert cancelled: the ticket is no more.
    Revoked,
}

impl GiftStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Pending => "pending",
            Self::Claimed => "claimed",
            Self::TakenBack => "taken_back",
            Self::Revoked => "revoked",
        }
    }
}

impl TryFrom<String> for GiftStatus {
    type Error = String;
    fn try_from(value: String) -> Result<Self, Self::Error> {
        Ok(match value.as_str() {
            "pending" => Self::Pending,
            "claimed" => Self::Claimed,
            "taken_back" => Self::TakenBack,
            "revoked" => Self::Revoked,
            _ => return Err(format!("unknown gift status {value:?}")),
        })
    }
}

/// A gift as stored, with its ticket's concert.
#[derive(Debug, Clone)]
pub struct GiftRow {
    pub id: String,
    pub ticket_id: String,
    pub giver_id: String,
    pub email: String,
    pub status: GiftStatus,
    pub claimant_id: Option<String>,
    pub created_at: i64,
    pub sent_at: i64,
    pub event_id: String,
}
crate::db::from_row!(GiftRow {
    id,
    ticket_id,
    giver_id,
    email,
    status as String,
    claimant_id,
    created_at,
    sent_at,
    event_id
});

crate::db::row! {
    /// A live ticket with what deciding about a gift of it needs.
    #[derive(Debug, Clone)]
    pub struct TicketRow {
        pub id: String,
        pub account_id: String,
        pub event_id: String,
        pub order_id: String,
        pub given_at: Option<i64>,
    }
}

/// A pending gift, as its giver sees it.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PendingGift {
    pub id: String,
    /// The address it was sent to.
    pub email: String,
    #[schema(format = DateTime)]
    pub sent_at: String,
    /// Whether the giver may still take it back (until the show starts).
    pub can_take_back: bool,
}

/// One of the signed-in account's tickets: held by them, or given by them and not
/// claimed yet (`gift` set).
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MyTicket {
    pub id: String,
    pub event_id: String,
    pub title: String,
    pub artist_name: String,
    #[schema(format = DateTime)]
    pub starts_at: String,
    /// The tier's name at the time of sale, if the ticket is of a tier.
    pub tier_name: Option<String>,
    pub order_id: String,
    /// It was listened with: it can no longer be given.
    pub listened: bool,
    /// Whether it may be given now (held, not listened with, the concert's window open).
    pub can_give: bool,
    /// A spare: bought beside the buyer's own ticket, held to keep or give, but not to
    /// listen with.
    pub spare: bool,
    /// Whether it may be kept now (a spare, the concert's window open, and the account
    /// holds no ticket of its own for the concert).
    pub can_keep: bool,
    pub gift: Option<PendingGift>,
}

/// The `{id}` of `POST /tickets/{id}/gift` and `/keep`, for their annotations (the
/// handlers read the segment as a plain `String`).
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Path)]
#[allow(dead_code)] // a description only
pub struct TicketPath {
    /// The ticket's id
    id: String,
}

/// `POST /tickets/{id}/gift`: who to give it to.
#[derive(Debug, Deserialize, ToSchema)]
pub struct GiveInput {
    /// The recipient's e-mail address; they need not have an account yet.
    pub email: String,
}

/// `POST /gifts/look` and `POST /gifts/claim`: the token of the claim link.
#[derive(Debug, Deserialize, ToSchema)]
pub struct TokenInput {
    pub token: String,
}

/// What a claim link leads to, shown to anyone holding the link (signed in or not).
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GiftPreview {
    /// The giver's name.
    pub from: String,
    /// The address the gift was sent to.
    pub email: String,
    pub event_id: String,
    pub title: String,
    pub artist_name: String,
    #[schema(format = DateTime)]
    pub starts_at: String,
}

/// A gift as its giver's actions answer it.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Gift {
    pub id: String,
    pub ticket_id: String,
    pub event_id: String,
    pub email: String,
    pub status: GiftStatus,
    #[schema(format = DateTime)]
    pub sent_at: String,
}

impl From<&GiftRow> for Gift {
    fn from(row: &GiftRow) -> Self {
        Self {
            id: row.id.clone(),
            ticket_id: row.ticket_id.clone(),
            event_id: row.event_id.clone(),
            email: row.email.clone(),
            status: row.status,
            sent_at: crate::db::iso8601(row.sent_at),
        }
    }
}

/// Whether a gift can still be claimed (or re-sent) at `now`: the concert not cancelled,
/// its listening window (24 hours from the start) not over. A gift still pending when the
/// show starts stays claimable until then; after it, the ticket stays sold, held by nobody.
pub fn check_claimable(event: &EventRow, now: i64) -> Result<()> {
    if event.status == EventStatus::Cancelled {
        return Err(Error::conflict(Msg::ConcertCancelled));
    }
    if now >= event.access_until() {
        return Err(Error::conflict(Msg::GiftWindowOver));
    }
    Ok(())
}

/// Whether a ticket may be given at `now`: claimable by then, and never listened with
/// (one listening session per ticket still holds).
pub fn check_givable(event: &EventRow, listened: bool, now: i64) -> Result<()> {
    if listened {
        return Err(Error::conflict(Msg::GiftListenedWith));
    }
    check_claimable(event, now)
}

/// Whether the giver may take a pending gift back at `now`: only before the show starts.
pub fn check_take_back(event: &EventRow, now: i64) -> Result<()> {
    if now >= event.details.starts_at {
        return Err(Error::conflict(Msg::GiftShowStarted));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::events::model::ACCESS_WINDOW_MS;

    use crate::i18n::Text;

    fn concert(starts_at: i64, status: EventStatus) -> EventRow {
        let mut event = EventRow::sample(status);
        event.details.starts_at = starts_at;
        event
    }

    /// The message a 409 refusal carries, if it is one.
    fn refusal(result: Result<()>) -> Option<Text> {
        match result {
            Err(Error::Conflict(text)) => Some(text),
            _ => None,
        }
    }

    #[test]
    fn a_gift_is_taken_back_only_before_the_show_starts() {
        let start = 1_000_000;
        let event = concert(start, EventStatus::Published);
        assert!(check_take_back(&event, start - 1).is_ok());
        assert!(refusal(check_take_back(&event, start)) == Some(Msg::GiftShowStarted.into()));
    }

    #[test]
    fn a_pending_gift_stays_claimable_until_the_listening_window_ends() {
        let start = 1_000_000;
        let event = concert(start, EventStatus::Live);
        assert!(check_claimable(&event, start + 1).is_ok());
        assert!(check_claimable(&event, start + ACCESS_WINDOW_MS - 1).is_ok());
        assert!(
            refusal(check_claimable(&event, start + ACCESS_WINDOW_MS))
                == Some(Msg::GiftWindowOver.into())
        );
    }

    #[test]
    fn a_cancelled_concert_s_ticket_is_neither_given_nor_claimed() {
        let event = concert(1_000_000, EventStatus::Cancelled);
        assert!(refusal(check_claimable(&event, 0)) == Some(Msg::ConcertCancelled.into()));
        assert!(refusal(check_givable(&event, false, 0)) == Some(Msg::ConcertCancelled.into()));
    }

    #[test]
    fn a_ticket_listened_with_is_not_given() {
        let event = concert(1_000_000, EventStatus::Published);
        assert!(check_givable(&event, false, 0).is_ok());
        assert!(refusal(check_givable(&event, true, 0)) == Some(Msg::GiftListenedWith.into()));
    }
}
