//! A concert as the API shows it: its row (`model`) with its image's URLs (`image`). Kept
//! out of `model` because `image` reads the row, so `model` cannot also read `image`.

use serde::Serialize;
use utoipa::ToSchema;

use super::image;
use super::model::{AccessState, EventRow, EventStatus, access_state, sale_refusal};
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
    /// Minor units (cents); the cart total is the sum of these.
    pub price: i64,
    #[schema(schema_with = crate::commerce::money::stored_currency_schema)]
    pub currency: String,
    /// Seats for sale; `null`: unlimited.
    #[schema(required = true)]
    pub capacity: Option<i64>,
    #[schema(required = true)]
    pub seats_left: Option<i64>,
    pub status: EventStatus,
    pub access: AccessState,
    /// The viewer holds a ticket or a pass covering it.
    pub owned: bool,
    /// Why it cannot be bought now (null when it can), in the reader's language.
    #[schema(required = true)]
    pub not_on_sale: Option<String>,
}

impl Event {
    /// The concert as anyone may see it: a draft's image is left out (see
    /// [`Event::for_manager`]).
    pub fn from_row(row: &EventRow, owned: bool, now: i64) -> Self {
        Self::with_image(row, owned, now, image::public_url(row))
    }

    /// The concert for one who may see it even as a draft (its project's members, staff):
    /// a draft's image comes on a short-lived signed URL.
    pub fn for_manager(config: &Config, row: &EventRow, now: i64) -> Self {
        Self::with_image(row, false, now, image::signed_url(config, row, now))
    }

    fn with_image(row: &EventRow, owned: bool, now: i64, image: Option<String>) -> Self {
        Self {
            id: row.id.clone(),
            project_id: row.project_id.clone(),
            title: row.title.clone(),
            artist_name: row.artist_name.clone(),
            description: row.description.clone(),
            thumbnail: image.as_ref().map(|url| format!("{url}&size=thumb")),
            image,
            starts_at: iso8601(row.starts_at),
            duration_minutes: row.duration_minutes,
            access_until: iso8601(row.access_until()),
            price: row.price_minor,
            currency: row.currency.clone(),
            capacity: row.capacity,
            seats_left: row.seats_left(),
            status: row.status,
            access: access_state(row, now),
            owned,
            not_on_sale: sale_refusal(row, now).map(|msg| msg.render(crate::i18n::current())),
        }
    }
}
