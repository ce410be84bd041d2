//! Ticket tiers: the stored row, the API shapes, the input a concert's managers send, and
//! the rules of selling a tier, as plain functions tested without HTTP.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::commerce::money;
use crate::db::iso8601;
use crate::error::{Error, Result};
use crate::events::model::{EventRow, sale_refusal};
use crate::i18n::{Arg, Msg, Text};

/// The name the one tier of a new (or migrated) concert is given.
pub const DEFAULT_TIER_NAME: &str = "Standard";
/// Tiers one concert may have.
pub const MAX_TIERS: i64 = 20;
const MAX_NAME: usize = 120;
const MAX_DESCRIPTION: usize = 2_000;
const MAX_CAPACITY: i64 = 1_000_000;

/// A tier as stored.
#[derive(Debug, Clone)]
pub struct TierRow {
    pub id: String,
    pub event_id: String,
    pub name: String,
    pub description: String,
    pub price_minor: i64,
    /// Pay what you want: the least a buyer may name (`price_minor` is the suggested
    /// amount); `None`: a fixed price.
    pub min_price_minor: Option<i64>,
    pub capacity: Option<i64>,
    pub seats_taken: i64,
    pub sale_opens_at: Option<i64>,
    pub sale_closes_at: Option<i64>,
    pub hidden: bool,
    pub is_default: bool,
    pub position: i64,
}
impl TierRow {
    /// The tier as one sees it who holds a promo code unlocking `unlocked`: a hidden tier
    /// among them is listed and sold like a visible one.
    pub fn unlocked_by(mut self, unlocked: &[String]) -> Self {
        if self.hidden && unlocked.contains(&self.id) {
            self.hidden = false;
        }
        self
    }
}

crate::db::from_row!(TierRow { id, event_id, name, description, price_minor, min_price_minor, capacity, seats_taken, sale_opens_at, sale_closes_at, hidden as flag, is_default as flag, position });

impl TierRow {
    /// Seats left for this tier: its own capacity's and the concert's, whichever is fewer;
    /// `None` when neither has a capacity.
    pub fn seats_left(&self, event: &EventRow) -> Option<i64> {
        let own = self.capacity.map(|c| (c - self.seats_taken).max(0));
        match (own, event.seats_left()) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }
}

impl TierRow {
    /// What one ticket of this tier costs the buyer who named `amount` (`None`: named
    /// none) in `currency`: a fixed tier's price, else the amount named (the suggested
    /// price when none). Refused below the tier's minimum, above the highest price, or
    /// when named (otherwise) for a fixed price.
    pub fn price_for(&self, amount: Option<i64>, currency: &str) -> std::result::Result<i64, Text> {
        match (self.min_price_minor, amount) {
            (_, None) => Ok(self.price_minor),
            (None, Some(named)) if named == self.price_minor => Ok(named),
            (None, Some(_)) => Err(Msg::TierFixedPrice.into()),
            (Some(min), Some(named)) if named < min => {
                Err(Msg::AmountBelowMinimum
                    .with("minimum", Arg::figure(money::format(min, currency))))
            }
            (Some(_), Some(named)) if named > money::MAX_PRICE => Err(Msg::PriceRange.into()),
            (Some(_), Some(named)) => Ok(named),
        }
    }
}

/// Why this tier of this concert cannot be bought at `now`, if it cannot: the concert's
/// own reason first (cancelled, not on sale, its window closed, sold out), then the tier's.
pub fn tier_refusal(tier: &TierRow, event: &EventRow, now: i64) -> Option<Msg> {
    if let Some(reason) = sale_refusal(event, now) {
        return Some(reason);
    }
    if tier.hidden {
        Some(Msg::TierNotOnSale)
    } else if tier.sale_opens_at.is_some_and(|at| now < at) {
        Some(Msg::TierNotOnSaleYet)
    } else if tier.sale_closes_at.is_some_and(|at| now >= at) {
        Some(Msg::TierSaleClosed)
    } else if tier.seats_left(event) == Some(0) {
        Some(Msg::TierSoldOut)
    } else {
        None
    }
}

/// A ticket tier as the API shows it (the public sees only the visible ones).
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Tier {
    pub id: String,
    pub event_id: String,
    pub name: String,
    pub description: String,
    /// Minor units of the concert's currency; for a pay-what-you-want tier, the suggested
    /// amount.
    pub price: i64,
    /// Pay what you want: the least a buyer may name (minor units; 0 makes the tier free
    /// unless the buyer gives more); `null`: the price is fixed.
    #[schema(required = true, minimum = 0)]
    pub minimum_price: Option<i64>,
    #[schema(schema_with = crate::commerce::money::stored_currency_schema)]
    pub currency: String,
    /// The tier's own seats; `null`: none of its own (the concert's capacity holds).
    #[schema(required = true)]
    pub capacity: Option<i64>,
    /// Seats left for this tier (its own and the concert's, whichever are fewer); `null`:
    /// unlimited.
    #[schema(required = true)]
    pub seats_left: Option<i64>,
    /// When its sales open; `null`: with the concert's.
    #[schema(required = true, format = DateTime)]
    pub sale_opens_at: Option<String>,
    /// When its sales close; `null`: with the concert's (24 hours after its start).
    #[schema(required = true, format = DateTime)]
    pub sale_closes_at: Option<String>,
    /// The tier `POST /cart/{eventId}` adds when no tier is chosen.
    pub is_default: bool,
    /// It can be put in a cart now.
    pub on_sale: bool,
    /// No seat is left for it (its own capacity or the concert's is reached).
    pub sold_out: bool,
    /// Why it cannot be bought now (null when it can), in the reader's language.
    #[schema(required = true)]
    pub not_on_sale: Option<String>,
}

impl Tier {
    pub fn new(row: &TierRow, event: &EventRow, now: i64) -> Self {
        let refusal = tier_refusal(row, event, now);
        let seats_left = row.seats_left(event);
        Self {
            id: row.id.clone(),
            event_id: row.event_id.clone(),
            name: row.name.clone(),
            description: row.description.clone(),
            price: row.price_minor,
            minimum_price: row.min_price_minor,
            currency: event.details.currency.clone(),
            capacity: row.capacity,
            seats_left,
            sale_opens_at: row.sale_opens_at.map(iso8601),
            sale_closes_at: row.sale_closes_at.map(iso8601),
            is_default: row.is_default,
            on_sale: refusal.is_none(),
            sold_out: seats_left == Some(0),
            not_on_sale: refusal.map(|msg| msg.render(crate::i18n::current())),
        }
    }

    /// The tier as a buyer reads it: the default tier's seeded name ("Standard") in the
    /// reader's language.
    pub fn for_buyer(row: &TierRow, event: &EventRow, now: i64) -> Self {
        let mut tier = Self::new(row, event, now);
        tier.name = crate::i18n::seeded_text(tier.name);
        tier
    }

    /// The tiers the public may see (not hidden), in order, as buyers read them.
    /// Hidden tiers among `unlocked` (a promo code the reader holds) are listed and on
    /// sale like the others.
    pub fn visible(rows: &[TierRow], event: &EventRow, now: i64, unlocked: &[String]) -> Vec<Self> {
        rows.iter()
            .filter(|r| !r.hidden || unlocked.contains(&r.id))
            .map(|r| Self::for_buyer(&r.clone().unlocked_by(unlocked), event, now))
            .collect()
    }
}

/// A tier as its concert's managers see it: hidden ones too, with the seats taken.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ManagedTier {
    #[serde(flatten)]
    pub tier: Tier,
    /// Not listed to the public nor sold, except to holders of a promo code unlocking it.
    pub hidden: bool,
    /// Seats sold or held by open checkouts.
    pub seats_taken: i64,
    /// Where it is listed among the concert's tiers (lowest first).
    pub position: i64,
}

impl ManagedTier {
    pub fn new(row: &TierRow, event: &EventRow, now: i64) -> Self {
        Self {
            tier: Tier::new(row, event, now),
            hidden: row.hidden,
            seats_taken: row.seats_taken,
            position: row.position,
        }
    }
}

/// Changes to a tier: each field given is checked and set; an absent one is left as it
/// is (`null` clears `capacity`, `saleOpensAt` and `saleClosesAt`).
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TierInput {
    /// 1–120 characters, not only spaces.
    #[schema(min_length = 1, max_length = 120, pattern = r"\S")]
    pub name: Option<String>,
    #[schema(max_length = 2_000)]
    pub description: Option<String>,
    /// Minor units of the concert's currency; frozen once a ticket of the tier was sold.
    #[schema(minimum = 0, maximum = 100_000_000)]
    pub price: Option<i64>,
    /// Pay what you want: the least a buyer may name, at most `price` (then the suggested
    /// amount); `null`: a fixed price.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<i64>, minimum = 0, maximum = 100_000_000)]
    pub minimum_price: Option<Option<i64>>,
    /// The tier's own seats, at most the concert's capacity; `null`: none of its own.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<i64>, minimum = 1, maximum = 1_000_000)]
    pub capacity: Option<Option<i64>>,
    /// When its sales open (RFC 3339); `null`: with the concert's.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub sale_opens_at: Option<Option<String>>,
    /// When its sales close (RFC 3339), after they open; `null`: with the concert's.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub sale_closes_at: Option<Option<String>>,
    /// Not listed to the public and not sold (the default tier cannot be hidden).
    pub hidden: Option<bool>,
    /// `true` makes it the concert's default tier (the one before stops being it);
    /// `false` on the default tier is refused: make another tier the default instead.
    pub is_default: Option<bool>,
    /// Where it is listed among the concert's tiers (lowest first).
    #[schema(minimum = 0, maximum = 1_000)]
    pub position: Option<i64>,
}

/// A new tier: [`TierInput`] with its name and price required.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct NewTierInput {
    /// 1–120 characters, not only spaces.
    #[schema(value_type = String, min_length = 1, max_length = 120, pattern = r"\S")]
    pub name: Option<String>,
    /// Empty when absent.
    #[schema(max_length = 2_000)]
    pub description: Option<String>,
    /// Minor units of the concert's currency.
    #[schema(value_type = i64, minimum = 0, maximum = 100_000_000)]
    pub price: Option<i64>,
    /// Pay what you want: the least a buyer may name, at most `price` (then the suggested
    /// amount); a fixed price when absent.
    #[schema(minimum = 0, maximum = 100_000_000)]
    pub minimum_price: Option<i64>,
    /// The tier's own seats, at most the concert's capacity; none of its own when absent.
    #[schema(minimum = 1, maximum = 1_000_000)]
    pub capacity: Option<i64>,
    /// When its sales open (RFC 3339); with the concert's when absent.
    #[schema(format = DateTime)]
    pub sale_opens_at: Option<String>,
    /// When its sales close (RFC 3339); with the concert's when absent.
    #[schema(format = DateTime)]
    pub sale_closes_at: Option<String>,
    /// Not listed to the public and not sold; false when absent.
    pub hidden: Option<bool>,
    /// Make it the concert's default tier; false when absent.
    pub is_default: Option<bool>,
    /// Where it is listed (lowest first); after the others when absent.
    #[schema(minimum = 0, maximum = 1_000)]
    pub position: Option<i64>,
}

impl From<NewTierInput> for TierInput {
    fn from(new: NewTierInput) -> Self {
        Self {
            name: new.name,
            description: new.description,
            price: new.price,
            minimum_price: Some(new.minimum_price),
            capacity: Some(new.capacity),
            sale_opens_at: Some(new.sale_opens_at),
            sale_closes_at: Some(new.sale_closes_at),
            hidden: new.hidden,
            is_default: new.is_default,
            position: new.position,
        }
    }
}

/// Tell a JSON `null` (`Some(None)`) from an absent field (`None`).
fn present<'de, D, T>(d: D) -> std::result::Result<Option<Option<T>>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    <Option<T> as Deserialize>::deserialize(d).map(Some)
}

/// What a tier's managers set, checked; the rest of the row is the platform's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TierFields {
    pub name: String,
    pub description: String,
    pub price_minor: i64,
    pub min_price_minor: Option<i64>,
    pub capacity: Option<i64>,
    pub sale_opens_at: Option<i64>,
    pub sale_closes_at: Option<i64>,
    pub hidden: bool,
    pub is_default: bool,
    pub position: i64,
}

impl TierFields {
    /// A listed tier named `name` at `price_minor`, neither the default nor with a capacity
    /// or a sale window of its own.
    pub fn new(name: String, price_minor: i64, position: i64) -> Self {
        Self {
            name,
            description: String::new(),
            price_minor,
            min_price_minor: None,
            capacity: None,
            sale_opens_at: None,
            sale_closes_at: None,
            hidden: false,
            is_default: false,
            position,
        }
    }

    /// A new concert's one tier: the default, at its price, with no capacity of its own.
    pub fn standard(price_minor: i64) -> Self {
        Self {
            is_default: true,
            ..Self::new(DEFAULT_TIER_NAME.to_owned(), price_minor, 0)
        }
    }

    pub fn of(row: &TierRow) -> Self {
        Self {
            name: row.name.clone(),
            description: row.description.clone(),
            price_minor: row.price_minor,
            min_price_minor: row.min_price_minor,
            capacity: row.capacity,
            sale_opens_at: row.sale_opens_at,
            sale_closes_at: row.sale_closes_at,
            hidden: row.hidden,
            is_default: row.is_default,
            position: row.position,
        }
    }
}

impl NewTierInput {
    /// A new tier's fields at `position` (unless it names its own): its name and price
    /// named when missing, every field checked as an edit checks it.
    pub fn fields(self, event: &EventRow, position: i64) -> Result<TierFields> {
        let name = self
            .name
            .clone()
            .ok_or_else(|| Error::unprocessable(Msg::TierNameLength))?;
        let price = self
            .price
            .ok_or_else(|| Error::unprocessable(Msg::PriceRequired))?;
        let mut fields = TierFields::new(name, price, position);
        TierInput::from(self).apply_to(&mut fields, event, false)?;
        Ok(fields)
    }
}

impl TierInput {
    /// Sets each field given on `fields`, checking it against the concert (`event`);
    /// `was_default`: the tier is its concert's default now.
    pub fn apply_to(
        &self,
        fields: &mut TierFields,
        event: &EventRow,
        was_default: bool,
    ) -> Result<()> {
        if let Some(name) = &self.name {
            let name = name.trim();
            if name.is_empty() || name.chars().count() > MAX_NAME {
                return Err(Error::unprocessable(Msg::TierNameLength));
            }
            fields.name = name.to_owned();
        }
        if let Some(description) = &self.description {
            if description.chars().count() > MAX_DESCRIPTION {
                return Err(Error::unprocessable(Msg::TierDescriptionTooLong));
            }
            description.clone_into(&mut fields.description);
        }
        if let Some(price) = self.price {
            fields.price_minor = money::check_price(price)?;
        }
        if let Some(minimum) = self.minimum_price {
            fields.min_price_minor = minimum.map(money::check_price).transpose()?;
        }
        if let Some(capacity) = self.capacity {
            fields.capacity = capacity;
        }
        if let Some(opens) = &self.sale_opens_at {
            fields.sale_opens_at = opens.as_deref().map(parse_time).transpose()?;
        }
        if let Some(closes) = &self.sale_closes_at {
            fields.sale_closes_at = closes.as_deref().map(parse_time).transpose()?;
        }
        if let Some(hidden) = self.hidden {
            fields.hidden = hidden;
        }
        match self.is_default {
            Some(true) => fields.is_default = true,
            Some(false) if was_default => return Err(Error::conflict(Msg::DefaultTierStays)),
            _ => {}
        }
        if let Some(position) = self.position {
            if !(0..=1_000).contains(&position) {
                return Err(Error::unprocessable(Msg::TierPositionRange));
            }
            fields.position = position;
        }
        check(fields, event)
    }
}

/// The rules a tier's fields keep together, and with its concert's.
pub fn check(fields: &TierFields, event: &EventRow) -> Result<()> {
    if let Some(capacity) = fields.capacity {
        if !(1..=MAX_CAPACITY).contains(&capacity) {
            return Err(Error::unprocessable(Msg::CapacityRange));
        }
        if let Some(concert) = event.details.capacity
            && capacity > concert
        {
            return Err(Error::unprocessable(
                Msg::TierCapacityAboveConcert.with("capacity", concert),
            ));
        }
    }
    if let (Some(opens), Some(closes)) = (fields.sale_opens_at, fields.sale_closes_at)
        && opens >= closes
    {
        return Err(Error::unprocessable(Msg::TierWindowOrder));
    }
    if fields
        .min_price_minor
        .is_some_and(|min| min > fields.price_minor)
    {
        return Err(Error::unprocessable(Msg::MinimumAboveSuggested));
    }
    if fields.hidden && fields.is_default {
        return Err(Error::conflict(Msg::DefaultTierHidden));
    }
    Ok(())
}

/// Why a tier's price may not change, if it may not: once one of its tickets was sold
/// (`sold`), its price is frozen (sending the same price again is allowed).
pub fn price_change_refusal(row: &TierRow, sold: bool, price: Option<i64>) -> Option<Msg> {
    (sold && price.is_some_and(|p| p != row.price_minor)).then_some(Msg::TierPriceLocked)
}

/// Why a tier may not be deleted, if it may not: the last tier of a concert stays, the
/// default stays (another must be made the default first), and one that sold (or is being
/// paid for: `sold_or_held` order lines) is hidden instead.
pub fn delete_refusal(row: &TierRow, tiers_of_concert: i64, sold_or_held: i64) -> Option<Msg> {
    if tiers_of_concert <= 1 {
        Some(Msg::LastTierStays)
    } else if row.is_default {
        Some(Msg::DefaultTierStays)
    } else if sold_or_held > 0 {
        Some(Msg::TierHasSales)
    } else {
        None
    }
}

fn parse_time(value: &str) -> Result<i64> {
    crate::db::parse_iso8601(value)
        .filter(|&ms| ms < crate::events::rules::LATEST_START_MS)
        .ok_or_else(|| Error::unprocessable(Msg::TierTimeFormat))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::events::model::EventStatus;

    #[test]
    fn the_default_tiers_name_is_the_seeded_one_readers_read_in_their_language() {
        use crate::i18n::{Lang, Msg};
        assert_eq!(
            DEFAULT_TIER_NAME,
            Msg::DefaultTierName.template(Lang::English)
        );
        assert_eq!(
            crate::i18n::seeded_text_in(Lang::Persian, DEFAULT_TIER_NAME.to_owned()),
            "عادی"
        );
        assert_eq!(
            crate::i18n::seeded_text_in(Lang::Persian, "VIP".to_owned()),
            "VIP"
        );
    }

    fn tier() -> TierRow {
        TierRow {
            id: "t1".into(),
            event_id: "e1".into(),
            name: "Standard".into(),
            description: String::new(),
            price_minor: 1000,
            min_price_minor: None,
            capacity: None,
            seats_taken: 0,
            sale_opens_at: None,
            sale_closes_at: None,
            hidden: false,
            is_default: true,
            position: 0,
        }
    }

    fn concert(capacity: Option<i64>, taken: i64) -> EventRow {
        let mut event = EventRow {
            seats_taken: taken,
            ..EventRow::sample(EventStatus::Published)
        };
        event.details.starts_at = 10_000_000;
        event.details.capacity = capacity;
        event
    }

    #[test]
    fn a_tier_has_the_fewer_seats_of_its_own_capacity_and_the_concerts() {
        let vip = TierRow {
            capacity: Some(20),
            seats_taken: 5,
            ..tier()
        };
        assert_eq!(vip.seats_left(&concert(None, 0)), Some(15));
        assert_eq!(vip.seats_left(&concert(Some(100), 90)), Some(10));
        assert_eq!(tier().seats_left(&concert(Some(100), 90)), Some(10));
        assert_eq!(tier().seats_left(&concert(None, 90)), None);
    }

    #[test]
    fn a_tier_is_on_sale_inside_its_window_while_seats_are_left() {
        let event = concert(Some(10), 0);
        assert_eq!(tier_refusal(&tier(), &event, 0), None);
        let windowed = TierRow {
            sale_opens_at: Some(100),
            sale_closes_at: Some(200),
            ..tier()
        };
        assert_eq!(
            tier_refusal(&windowed, &event, 99),
            Some(Msg::TierNotOnSaleYet)
        );
        assert_eq!(tier_refusal(&windowed, &event, 100), None);
        assert_eq!(
            tier_refusal(&windowed, &event, 200),
            Some(Msg::TierSaleClosed)
        );
        let full = TierRow {
            capacity: Some(2),
            seats_taken: 2,
            ..tier()
        };
        assert_eq!(tier_refusal(&full, &event, 0), Some(Msg::TierSoldOut));
        let hidden = TierRow {
            hidden: true,
            ..tier()
        };
        assert_eq!(tier_refusal(&hidden, &event, 0), Some(Msg::TierNotOnSale));
        // The concert's own reason comes first.
        assert_eq!(
            tier_refusal(&tier(), &concert(Some(10), 10), 0),
            Some(Msg::ConcertSoldOut)
        );
    }

    #[test]
    fn a_tiers_capacity_stays_inside_the_concerts_and_its_window_opens_before_it_closes() {
        let event = concert(Some(50), 0);
        let mut fields = TierFields::of(&tier());
        fields.capacity = Some(51);
        assert!(check(&fields, &event).is_err());
        fields.capacity = Some(50);
        assert!(check(&fields, &event).is_ok());
        fields.capacity = Some(0);
        assert!(check(&fields, &event).is_err());
        fields.capacity = None;
        fields.sale_opens_at = Some(10);
        fields.sale_closes_at = Some(10);
        assert!(check(&fields, &event).is_err());
        fields.sale_closes_at = Some(11);
        assert!(check(&fields, &event).is_ok());
        fields.hidden = true;
        assert!(
            check(&fields, &event).is_err(),
            "the default is never hidden"
        );
    }

    #[test]
    fn a_tiers_price_is_frozen_once_it_sold_but_may_be_resent_unchanged() {
        assert_eq!(price_change_refusal(&tier(), false, Some(5)), None);
        assert_eq!(
            price_change_refusal(&tier(), true, Some(5)),
            Some(Msg::TierPriceLocked)
        );
        assert_eq!(price_change_refusal(&tier(), true, Some(1000)), None);
        assert_eq!(price_change_refusal(&tier(), true, None), None);
    }

    #[test]
    fn a_pay_what_you_want_tier_costs_the_amount_named_from_its_minimum_a_fixed_one_its_price() {
        let fixed = tier();
        assert_eq!(fixed.price_for(None, "EUR"), Ok(1000));
        assert_eq!(fixed.price_for(Some(1000), "EUR"), Ok(1000));
        assert!(fixed.price_for(Some(999), "EUR").is_err());
        let pwyw = TierRow {
            min_price_minor: Some(300),
            ..tier()
        };
        assert_eq!(pwyw.price_for(None, "EUR"), Ok(1000), "the suggested price");
        assert_eq!(pwyw.price_for(Some(300), "EUR"), Ok(300));
        assert_eq!(pwyw.price_for(Some(5000), "EUR"), Ok(5000));
        assert!(pwyw.price_for(Some(299), "EUR").is_err());
        assert!(pwyw.price_for(Some(money::MAX_PRICE + 1), "EUR").is_err());
        let free = TierRow {
            min_price_minor: Some(0),
            ..tier()
        };
        assert_eq!(free.price_for(Some(0), "EUR"), Ok(0));
    }

    #[test]
    fn the_last_tier_the_default_tier_and_a_tier_that_sold_are_never_deleted() {
        let other = TierRow {
            is_default: false,
            ..tier()
        };
        assert_eq!(delete_refusal(&tier(), 1, 0), Some(Msg::LastTierStays));
        assert_eq!(delete_refusal(&tier(), 2, 0), Some(Msg::DefaultTierStays));
        assert_eq!(delete_refusal(&other, 2, 1), Some(Msg::TierHasSales));
        assert_eq!(delete_refusal(&other, 2, 0), None);
    }
}
