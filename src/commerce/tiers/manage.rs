//! What a concert's managers do to its tiers — list, create, change, delete — with the
//! rules each step keeps and the transaction it runs in. Every transaction here takes the
//! concert's row before its tiers' rows, as checkouts do, so none can deadlock another.

use super::model::{self, ManagedTier, NewTierInput, TierFields, TierInput, TierRow};
use super::store;
use crate::db::{Db, now_ms};
use crate::error::{Error, Result};
use crate::events::model::EventRow;
use crate::events::rules;
use crate::events::store as events;
use crate::i18n::Msg;

/// Every tier of a concert, hidden ones too, in the order they are listed.
pub async fn list(db: &Db, event: &EventRow) -> Result<Vec<ManagedTier>> {
    let now = now_ms();
    Ok(store::of_event(db, &event.id)
        .await?
        .iter()
        .map(|row| ManagedTier::new(row, event, now))
        .collect())
}

/// One tier of a concert, as its managers see it.
pub async fn view(db: &Db, event_id: &str, tier_id: &str) -> Result<ManagedTier> {
    let event = events::by_id(db, event_id)
        .await?
        .ok_or_else(|| Error::not_found(Msg::ConcertNotFound))?;
    let row = load(db, event_id, tier_id).await?;
    Ok(ManagedTier::new(&row, &event, now_ms()))
}

async fn load(db: &Db, event_id: &str, tier_id: &str) -> Result<TierRow> {
    store::by_id(db, event_id, tier_id)
        .await?
        .ok_or_else(|| Error::not_found(Msg::TierNotFound))
}

/// A cancelled concert is kept as it was, its tiers too.
fn editable(event: &EventRow) -> Result<()> {
    match rules::edit_refusal(event) {
        Some(refusal) => Err(Error::conflict(refusal)),
        None => Ok(()),
    }
}

/// A new tier of a concert (at most [`model::MAX_TIERS`]); made the default, it takes
/// over from the one before and the concert's price follows it. Answers its id.
pub async fn create(db: &Db, event: &EventRow, input: NewTierInput) -> Result<String> {
    editable(event)?;
    let (count, next_position) = store::count_and_next_position(db, &event.id).await?;
    if count >= model::MAX_TIERS {
        return Err(Error::conflict(
            Msg::TooManyTiers.with("max", model::MAX_TIERS),
        ));
    }
    let fields = input.fields(event, next_position.min(1_000))?;
    let now = now_ms();
    let mut tx = db.begin().await?;
    events::lock_for_tiers(&mut *tx, &event.id).await?;
    if fields.is_default {
        store::clear_default(&mut *tx, &event.id).await?;
        events::set_price(&mut *tx, &event.id, fields.price_minor).await?;
    }
    let id = store::insert(&mut *tx, &event.id, &fields, now).await?;
    tx.commit().await?;
    Ok(id)
}

/// Changes a tier: its price is frozen once one of its tickets was sold, its capacity
/// never drops below the seats it has taken, and the default tier's price is the
/// concert's.
pub async fn update(db: &Db, event: &EventRow, tier_id: &str, input: &TierInput) -> Result<()> {
    editable(event)?;
    let row = load(db, &event.id, tier_id).await?;
    let sold = store::sold_or_held(db, tier_id).await? > 0;
    if let Some(refusal) = model::price_change_refusal(&row, sold, input.price) {
        return Err(Error::conflict(refusal));
    }
    let mut fields = TierFields::of(&row);
    input.apply_to(&mut fields, event, row.is_default)?;
    let mut tx = db.begin().await?;
    events::lock_for_tiers(&mut *tx, &event.id).await?;
    if fields.is_default && !row.is_default {
        store::clear_default(&mut *tx, &event.id).await?;
    }
    if !store::update(&mut *tx, tier_id, &fields, now_ms()).await? {
        return Err(Error::conflict(Msg::CapacityBelowSold));
    }
    if fields.is_default {
        events::set_price(&mut *tx, &event.id, fields.price_minor).await?;
    }
    tx.commit().await?;
    Ok(())
}

/// Deletes a tier that never sold (nor is being paid for), unless it is the concert's last
/// or its default; it leaves every cart it was in.
pub async fn delete(db: &Db, event: &EventRow, tier_id: &str) -> Result<()> {
    editable(event)?;
    let row = load(db, &event.id, tier_id).await?;
    let (count, _) = store::count_and_next_position(db, &event.id).await?;
    let lines = store::sold_or_held(db, tier_id).await?;
    if let Some(refusal) = model::delete_refusal(&row, count, lines) {
        return Err(Error::conflict(refusal));
    }
    let mut tx = db.begin().await?;
    events::lock_for_tiers(&mut *tx, &event.id).await?;
    store::delete_from_carts(&mut *tx, tier_id).await?;
    store::forget_in_unpaid_lines(&mut *tx, tier_id).await?;
    // A checkout that took one of its seats meanwhile keeps it.
    if !store::delete(&mut *tx, tier_id).await? {
        return Err(Error::conflict(Msg::TierHasSales));
    }
    tx.commit().await?;
    Ok(())
}
