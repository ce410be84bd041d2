//! The cart (spec section 7): one entry per concert per account, of one of its tiers (at
//! the amount the buyer named for a pay-what-you-want tier, per ticket), with a quantity
//! of tickets capped per order; passes beside them.

use serde::Serialize;
use utoipa::ToSchema;

use crate::db::{Db, iso8601, now_ms};
use crate::error::{Error, Result};
use crate::events::model::{EventRow, EventStatus};
use crate::events::store as events;
use crate::events::view::Event;
use crate::state::AppState;

use super::model::ItemKind;
use super::plans::{self, Plan};
use super::promo::unlock;
use super::store;
use super::tiers::model::{Tier, TierRow, tier_refusal};
use super::tiers::store as tiers;
use crate::i18n::{Msg, Text};

/// The most tickets one order holds of one concert.
pub const MAX_TICKETS_PER_ORDER: i64 = 10;

/// One entry of a cart: a concert (`event`) or a pass (`plan`), as `kind` says. A
/// concert's entry is `quantity` tickets of one of its tiers (`tier`): `event.price` is
/// what one costs (the tier's price, or the amount named for a pay-what-you-want tier),
/// `lineTotal` what they all cost, and the cart's total is the sum of the line totals.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CartEntry {
    pub kind: ItemKind,
    #[schema(required = true)]
    pub event: Option<Event>,
    /// The concert's ticket tier in the cart; `null` for a pass.
    #[schema(required = true)]
    pub tier: Option<Tier>,
    #[schema(required = true)]
    pub plan: Option<Plan>,
    /// Tickets of the tier (1 to 10; always 1 for a pass).
    pub quantity: i64,
    /// Minor units: the price times the quantity (before any promo code).
    pub line_total: i64,
    #[schema(format = DateTime)]
    pub added_at: String,
}

/// Why `quantity` tickets may not go in one order when `seats_left` are left (`None`: no
/// capacity), if they may not.
pub fn quantity_refusal(quantity: i64, seats_left: Option<i64>) -> Option<Error> {
    if !(1..=MAX_TICKETS_PER_ORDER).contains(&quantity) {
        return Some(Error::unprocessable(
            Msg::TicketQuantityRange.with("max", MAX_TICKETS_PER_ORDER),
        ));
    }
    match seats_left {
        Some(0) => Some(Error::conflict(Msg::TierSoldOut)),
        Some(left) if left < quantity => {
            Some(Error::conflict(Msg::FewSeatsLeft.with("count", left)))
        }
        _ => None,
    }
}

/// What the account's cart holds, in the order it was added.
pub async fn lines(db: &Db, account_id: &str) -> Result<Vec<store::CartRow>> {
    store::cart_rows(db, account_id).await
}

/// What a cart line of `tier` costs: its price, or for a pay-what-you-want tier the amount
/// named, checked against its minimum now (a manager may have raised it since). An amount
/// kept from when the tier was pay-what-you-want is ignored once its price is fixed.
pub fn line_price(
    tier: &TierRow,
    amount: Option<i64>,
    currency: &str,
) -> std::result::Result<i64, Text> {
    match tier.min_price_minor {
        None => Ok(tier.price_minor),
        Some(_) => tier.price_for(amount, currency),
    }
}

/// The tier a cart line of a concert is of: the one chosen, else (gone, or never chosen)
/// the concert's default.
pub async fn tier_of_line(
    db: &Db,
    event_id: &str,
    tier_id: Option<&str>,
) -> Result<Option<TierRow>> {
    if let Some(id) = tier_id
        && let Some(tier) = tiers::by_id(db, event_id, id).await?
    {
        return Ok(Some(tier));
    }
    tiers::default_of(db, event_id).await
}

pub async fn entries(app: &AppState, account_id: &str) -> Result<Vec<CartEntry>> {
    let rows = store::cart_rows(&app.db, account_id).await?;
    let now = now_ms();
    let unlocked = unlock::unlocked_tiers(&app.db, Some(account_id), None).await?;
    let mut out = Vec::with_capacity(rows.len());
    for row in rows {
        let added_at = iso8601(row.added_at);
        if row.item_kind == ItemKind::Event {
            if let Some(event) = events::by_id(&app.db, &row.item_id).await?
                && let Some(tier) = tier_of_line(&app.db, &event.id, row.tier_id.as_deref()).await?
            {
                let tier = tier.unlocked_by(&unlocked);
                let owned = events::owned_among(&app.db, account_id, std::slice::from_ref(&event))
                    .await?
                    .first()
                    .copied()
                    .unwrap_or(false);
                // A stale amount (below a raised minimum) shows as the minimum: checkout
                // refuses it with the reason.
                let price = line_price(&tier, row.amount_minor, &event.details.currency)
                    .unwrap_or_else(|_| tier.min_price_minor.unwrap_or(tier.price_minor));
                let shown =
                    Event::from_row(&event, owned, now, app.hub.on_air(&event.id)).priced_at(price);
                out.push(CartEntry {
                    kind: ItemKind::Event,
                    event: Some(shown),
                    tier: Some(Tier::for_buyer(&tier, &event, now)),
                    plan: None,
                    quantity: row.quantity,
                    line_total: price * row.quantity,
                    added_at,
                });
            }
        } else if let Some(plan) = plans::by_id(&app.db, &row.item_id).await? {
            out.push(CartEntry {
                kind: ItemKind::Pass,
                event: None,
                tier: None,
                quantity: 1,
                line_total: plan.price_minor,
                plan: Some(Plan::for_buyer(plan)),
                added_at,
            });
        }
    }
    Ok(out)
}

/// Put a ticket of a concert in the cart, of the tier chosen (`tier_id`) or else of its
/// default tier, if this account can buy it now; `amount` is what the buyer names for a
/// pay-what-you-want tier (at least its minimum; its suggested price when `None`). A
/// hidden tier is not found (it is not listed to the public) unless the cart holds a
/// promo code unlocking it. `quantity` tickets (1 when `None`), at most
/// [`MAX_TICKETS_PER_ORDER`] and the seats left. Adding the concert again changes the
/// tier, amount and quantity of its one entry.
pub async fn add_event(
    app: &AppState,
    account_id: &str,
    event_id: &str,
    tier_id: Option<&str>,
    amount: Option<i64>,
    quantity: Option<i64>,
) -> Result<()> {
    let quantity = quantity.unwrap_or(1);
    let event = events::by_id(&app.db, event_id)
        .await?
        .filter(|e| e.status != EventStatus::Draft)
        .ok_or_else(|| Error::not_found(Msg::ConcertNotFound))?;
    let tier = match tier_id {
        Some(id) => {
            let tier = tiers::by_id(&app.db, event_id, id)
                .await?
                .ok_or_else(|| Error::not_found(Msg::TierNotFound))?;
            // A hidden tier exists only for one whose cart holds a code unlocking it.
            let unlocked = if tier.hidden {
                unlock::unlocked_tiers(&app.db, Some(account_id), None).await?
            } else {
                Vec::new()
            };
            Some(tier.unlocked_by(&unlocked))
                .filter(|t| !t.hidden)
                .ok_or_else(|| Error::not_found(Msg::TierNotFound))?
        }
        None => tiers::default_of(&app.db, event_id)
            .await?
            .ok_or_else(|| Error::internal("a concert without a default tier"))?,
    };
    if let Some(reason) = tier_refusal(&tier, &event, now_ms()) {
        return Err(Error::conflict(reason));
    }
    if let Some(refusal) = quantity_refusal(quantity, tier.seats_left(&event)) {
        return Err(refusal);
    }
    tier.price_for(amount, &event.details.currency)
        .map_err(Error::unprocessable)?;
    // One ticket for someone who can listen already is a mistake; several are for others.
    if quantity == 1 && owns(app, account_id, &event).await? {
        return Err(Error::conflict(Msg::AlreadyHaveAccess));
    }
    let choice = store::CartChoice {
        tier_id: Some(&tier.id),
        amount_minor: amount.filter(|_| tier.min_price_minor.is_some()),
        quantity,
    };
    store::insert_cart_item(
        &app.db,
        account_id,
        ItemKind::Event,
        event_id,
        choice,
        now_ms(),
    )
    .await
}

/// Whether the account can listen to the concert already (a ticket of its own or a pass).
pub async fn owns(app: &AppState, account_id: &str, event: &EventRow) -> Result<bool> {
    let owned = events::owned_among(&app.db, account_id, std::slice::from_ref(event)).await?;
    Ok(owned.first() == Some(&true))
}

/// Change how many tickets the cart's entry of a concert holds (its tier and amount stay).
pub async fn set_quantity(
    app: &AppState,
    account_id: &str,
    event_id: &str,
    quantity: i64,
) -> Result<()> {
    let row = store::cart_rows(&app.db, account_id)
        .await?
        .into_iter()
        .find(|r| r.item_kind == ItemKind::Event && r.item_id == event_id)
        .ok_or_else(|| Error::not_found(Msg::ConcertNotInCart))?;
    add_event(
        app,
        account_id,
        event_id,
        row.tier_id.as_deref(),
        row.amount_minor,
        Some(quantity),
    )
    .await
}

pub async fn add_pass(app: &AppState, account_id: &str, plan_id: &str) -> Result<()> {
    plans::by_id(&app.db, plan_id)
        .await?
        .filter(|p| p.active != 0)
        .ok_or_else(|| Error::not_found(Msg::PassNotOnSale))?;
    // Adding twice keeps one entry.
    let choice = store::CartChoice {
        tier_id: None,
        amount_minor: None,
        quantity: 1,
    };
    store::insert_cart_item(
        &app.db,
        account_id,
        ItemKind::Pass,
        plan_id,
        choice,
        now_ms(),
    )
    .await
}

pub async fn remove(app: &AppState, account_id: &str, kind: ItemKind, id: &str) -> Result<()> {
    store::delete_cart_item(&app.db, account_id, kind, id).await
}

pub async fn clear(app: &AppState, account_id: &str) -> Result<()> {
    store::clear_cart(&app.db, account_id).await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(quantity: i64, left: Option<i64>) -> Option<(u16, Msg)> {
        quantity_refusal(quantity, left).map(|e| match e {
            Error::Unprocessable(t) => (422, t.msg),
            Error::Conflict(t) => (409, t.msg),
            other => panic!("unexpected {other:?}"),
        })
    }

    #[test]
    fn a_quantity_is_between_one_and_the_cap_and_within_the_seats_left() {
        assert_eq!(refused(1, None), None);
        assert_eq!(refused(MAX_TICKETS_PER_ORDER, None), None);
        assert_eq!(refused(3, Some(3)), None);
        let range = Some((422, Msg::TicketQuantityRange));
        assert_eq!(refused(MAX_TICKETS_PER_ORDER + 1, None), range);
        assert_eq!(refused(0, None), range);
        assert_eq!(refused(-2, Some(5)), range);
        assert_eq!(refused(4, Some(3)), Some((409, Msg::FewSeatsLeft)));
        assert_eq!(refused(1, Some(0)), Some((409, Msg::TierSoldOut)));
    }
}
