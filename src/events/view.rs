//! A concert as the API shows it: its row (`model`) with its image's URLs (`image`). Kept
//! out of `model` because `image` reads the row, so `model` cannot also read `image`.

use serde::Serialize;
use utoipa::ToSchema;

use super::image;
use super::model::{
    AccessState, ConcertState, EventRow, EventStatus, Phase, PhaseReason, concert_state,
    sale_refusal,
};
use crate::commerce::tiers::model::Tier;
use crate::config::Config;
use crate::db::iso8601;

/// A concert as the API shows it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Event {
    pub id: String,
    pub project_id: String,
    pub title: String,
    pub artist_name: String,
    pub description: String,
    /// The image's URL (signed and short-lived for a draft's managers); `null` without one.
    #[schema(required = true)]
    pub image: Option<String>,
    /// The thumbnail's URL (a JPEG, 480 pixels wide).
    #[schema(required = true)]
    pub thumbnail: Option<String>,
    #[schema(format = DateTime)]
    pub starts_at: String,
    pub duration_minutes: i64,
    /// When a ticket's access ends: 24 hours after the start.
    #[schema(format = DateTime)]
    pub access_until: String,
    /// Minor units (cents): its default tier's price; in a cart entry, the price of the
    /// entry's tier. The cart total is the sum of these.
    pub price: i64,
    #[schema(schema_with = crate::commerce::money::stored_currency_schema)]
    pub currency: String,
    /// Seats for sale; `null`: unlimited.
    #[schema(required = true)]
    pub capacity: Option<i64>,
    #[schema(required = true)]
    pub seats_left: Option<i64>,
    pub status: EventStatus,
    /// Where the concert stands now: what every page shows of it.
    pub state: StateView,
    /// `state.phase` in fewer words (doors and draft read `upcoming`), for older clients.
    pub access: AccessState,
    /// The viewer holds a ticket or a pass covering it.
    pub owned: bool,
    /// The signed-in viewer asked to be notified when the doors open (`PUT
    /// /events/{id}/reminder`), as the concert lists, my concerts and one concert say it;
    /// false for a visitor, and in the cart and the managers' views (not looked up there).
    pub reminder: bool,
    /// Why it cannot be bought now (null when it can), in the reader's language.
    #[schema(required = true)]
    pub not_on_sale: Option<String>,
    /// Its ticket tiers the public may see (not hidden), in the order they are listed,
    /// each with its price and whether it is on sale or sold out. Only in the answer
    /// about one concert (`GET /events/{id}`); absent from lists and the cart.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tiers: Option<Vec<Tier>>,
}

impl Event {
    /// The concert as anyone may see it: a draft's image is left out (see
    /// [`Event::for_manager`]).
    /// The demo's own concerts read in the reader's language (a manager's view keeps the
    /// stored text: it is what their edit form saves back).
    pub fn from_row(row: &EventRow, owned: bool, now: i64, on_air: bool) -> Self {
        let mut event = Self::with_image(row, owned, now, on_air, image::public_url(row));
        event.title = crate::i18n::seeded_text(event.title);
        event.description = crate::i18n::seeded_text(event.description);
        event
    }

    /// The same, with its visible ticket tiers.
    pub fn with_tiers(mut self, tiers: Vec<Tier>) -> Self {
        self.tiers = Some(tiers);
        self
    }

    /// The same at the price of one of its tiers (a cart entry's).
    pub fn priced_at(mut self, price_minor: i64) -> Self {
        self.price = price_minor;
        self
    }

    /// The same, saying whether the viewer asked for the doors reminder.
    pub fn with_reminder(mut self, reminder: bool) -> Self {
        self.reminder = reminder;
        self
    }

    /// The concert for one who may see it even as a draft (its project's members, staff):
    /// a draft's image comes on a short-lived signed URL.
    pub fn for_manager(config: &Config, row: &EventRow, now: i64, on_air: bool) -> Self {
        Self::with_image(row, false, now, on_air, image::signed_url(config, row, now))
    }

    fn with_image(
        row: &EventRow,
        owned: bool,
        now: i64,
        on_air: bool,
        image: Option<String>,
    ) -> Self {
        let state = concert_state(row, now, on_air);
        Self {
            id: row.id.clone(),
            project_id: row.project_id.clone(),
            title: row.details.title.clone(),
            artist_name: row.details.artist_name.clone(),
            description: row.details.description.clone(),
            thumbnail: image.as_ref().map(|url| format!("{url}&size=thumb")),
            image,
            starts_at: iso8601(row.details.starts_at),
            duration_minutes: row.details.duration_minutes,
            access_until: iso8601(row.access_until()),
            price: row.details.price_minor,
            currency: row.details.currency.clone(),
            capacity: row.details.capacity,
            seats_left: row.seats_left(),
            status: row.status,
            access: state.access(),
            state: StateView::from(state),
            owned,
            reminder: false,
            not_on_sale: sale_refusal(row, now).map(|msg| msg.render(crate::i18n::current())),
            tiers: None,
        }
    }
}

/// A concert's state as the API shows it (see [`concert_state`]): clients show the phase
/// and re-render (or refetch) at `nextChangeAt`.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StateView {
    pub phase: Phase,
    /// Why it is in this phase, where the phase alone does not say it.
    #[schema(required = true)]
    pub reason: Option<PhaseReason>,
    /// When ticket holders may open the player: 15 minutes before the start.
    #[schema(format = DateTime)]
    pub doors_at: String,
    #[schema(format = DateTime)]
    pub starts_at: String,
    /// The scheduled end (start + duration); a show on air may run longer.
    #[schema(format = DateTime)]
    pub ends_at: String,
    /// When the replay (and every ticket's access) ends: 24 hours after the start.
    #[schema(format = DateTime)]
    pub replay_until: String,
    /// An encoder is publishing the show now.
    pub on_air: bool,
    /// When the phase changes next by the clock alone; `null` when it never will.
    #[schema(required = true, format = DateTime)]
    pub next_change_at: Option<String>,
}

impl From<ConcertState> for StateView {
    fn from(state: ConcertState) -> Self {
        Self {
            phase: state.phase,
            reason: state.reason,
            doors_at: iso8601(state.doors_at),
            starts_at: iso8601(state.starts_at),
            ends_at: iso8601(state.ends_at),
            replay_until: iso8601(state.replay_until),
            on_air: state.on_air,
            next_change_at: state.next_change_at.map(iso8601),
        }
    }
}
