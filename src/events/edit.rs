//! What a concert's managers send to write one: the request bodies, and how each field
//! is checked into a concert's [`Details`].

use serde::Deserialize;
use utoipa::ToSchema;

use super::model::Details;
use super::rules;
use crate::commerce::money;
use crate::error::{Error, Result};
use crate::i18n::Msg;

/// Changes to a concert: each field given is checked and set, an absent or `null` one
/// is left as it is (but `capacity`).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EventInput {
    /// Moves the concert to another project the reader manages.
    pub project_id: Option<String>,
    /// 1–200 characters, not only spaces.
    #[schema(min_length = 1, max_length = 200, pattern = r"\S")]
    pub title: Option<String>,
    /// 1–200 characters, not only spaces.
    #[schema(min_length = 1, max_length = 200, pattern = r"\S")]
    pub artist_name: Option<String>,
    #[schema(max_length = 10_000)]
    pub description: Option<String>,
    /// Before 9999-01-01.
    #[schema(format = DateTime)]
    pub starts_at: Option<String>,
    #[schema(minimum = 1, maximum = 1440)]
    pub duration_minutes: Option<i64>,
    /// The ticket price in minor units (cents); frozen once a ticket was sold.
    #[schema(minimum = 0, maximum = 100_000_000)]
    pub price: Option<i64>,
    /// An ISO 4217 code the platform supports (EUR, USD, …); frozen once a ticket was sold.
    pub currency: Option<String>,
    /// Seats for sale; `null` clears the capacity (unlimited); absent leaves it unchanged.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<i64>, minimum = 1, maximum = 1_000_000)]
    pub capacity: Option<Option<i64>>,
}

/// A new concert (a draft): what [`EventInput`] reads, with the fields a concert cannot
/// be without required. Its own type so that the document says which are required; the
/// handler still names a missing one in its own words.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct NewEventInput {
    /// A project the reader manages (staff: any).
    #[schema(value_type = String)]
    pub project_id: Option<String>,
    /// 1–200 characters, not only spaces.
    #[schema(value_type = String, min_length = 1, max_length = 200, pattern = r"\S")]
    pub title: Option<String>,
    /// 1–200 characters, not only spaces.
    #[schema(value_type = String, min_length = 1, max_length = 200, pattern = r"\S")]
    pub artist_name: Option<String>,
    /// Empty when absent.
    #[schema(max_length = 10_000)]
    pub description: Option<String>,
    /// Before 9999-01-01.
    #[schema(value_type = String, format = DateTime)]
    pub starts_at: Option<String>,
    /// 90 when absent.
    #[schema(minimum = 1, maximum = 1440)]
    pub duration_minutes: Option<i64>,
    /// The ticket price in minor units (cents).
    #[schema(value_type = i64, minimum = 0, maximum = 100_000_000)]
    pub price: Option<i64>,
    /// An ISO 4217 code the platform supports; EUR when absent.
    pub currency: Option<String>,
    /// Seats for sale; unlimited when absent or `null`.
    #[schema(minimum = 1, maximum = 1_000_000)]
    pub capacity: Option<i64>,
}

impl From<NewEventInput> for EventInput {
    fn from(new: NewEventInput) -> Self {
        Self {
            project_id: new.project_id,
            title: new.title,
            artist_name: new.artist_name,
            description: new.description,
            starts_at: new.starts_at,
            duration_minutes: new.duration_minutes,
            price: new.price,
            currency: new.currency,
            capacity: Some(new.capacity),
        }
    }
}

impl NewEventInput {
    /// The project the draft goes to (named first: whether the reader may write there is
    /// asked before the form is read).
    pub fn project_id(&self) -> Result<&str> {
        self.project_id
            .as_deref()
            .ok_or_else(|| Error::unprocessable(Msg::ChooseProject))
    }

    /// The new draft's details: a field a concert cannot be without is named when
    /// missing, and each given field is checked as an edit checks it.
    pub fn details(self) -> Result<Details> {
        let input = EventInput::from(self);
        let required = |v: &Option<String>, name: &str| {
            v.clone()
                .ok_or_else(|| Error::unprocessable(Msg::FieldIsRequired.with("field", name)))
        };
        let mut details = Details::draft(
            required(&input.title, "The title")?,
            required(&input.artist_name, "The artist name")?,
            parse_start(&required(&input.starts_at, "The start time")?)?,
            input
                .price
                .ok_or_else(|| Error::unprocessable(Msg::PriceRequired))?,
        );
        input.apply_to(&mut details)?;
        Ok(details)
    }
}

impl EventInput {
    /// Sets each field given on `details`, checking it.
    pub fn apply_to(&self, details: &mut Details) -> Result<()> {
        if let Some(title) = &self.title {
            details.title = text(title, "The title", 200)?;
        }
        if let Some(artist) = &self.artist_name {
            details.artist_name = text(artist, "The artist name", 200)?;
        }
        if let Some(description) = &self.description {
            if description.chars().count() > 10_000 {
                return Err(Error::unprocessable(Msg::DescriptionTooLong));
            }
            details.description = description.clone();
        }
        if let Some(start) = &self.starts_at {
            details.starts_at = parse_start(start)?;
        }
        if let Some(minutes) = self.duration_minutes {
            if !(1..=24 * 60).contains(&minutes) {
                return Err(Error::unprocessable(Msg::DurationRange));
            }
            details.duration_minutes = minutes;
        }
        if let Some(price) = self.price {
            details.price_minor = money::check_price(price)?;
        }
        if let Some(currency) = &self.currency {
            details.currency = money::parse_currency(currency)?;
        }
        if let Some(capacity) = self.capacity {
            if capacity.is_some_and(|c| !(1..=1_000_000).contains(&c)) {
                return Err(Error::unprocessable(Msg::CapacityRange));
            }
            details.capacity = capacity;
        }
        Ok(())
    }
}

/// Tell a JSON `null` (Some(None)) from an absent field (None).
fn present<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> std::result::Result<Option<Option<i64>>, D::Error> {
    <Option<i64> as Deserialize>::deserialize(d).map(Some)
}

fn parse_start(value: &str) -> Result<i64> {
    let ms =
        crate::db::parse_iso8601(value).ok_or_else(|| Error::unprocessable(Msg::StartsAtFormat))?;
    match rules::start_refusal(ms) {
        Some(refusal) => Err(Error::unprocessable(refusal)),
        None => Ok(ms),
    }
}

fn text(value: &str, field: &str, max: usize) -> Result<String> {
    let value = value.trim();
    if value.is_empty() || value.chars().count() > max {
        return Err(Error::unprocessable(
            Msg::FieldLength.with("field", field).with("max", max),
        ));
    }
    Ok(value.to_owned())
}
