//! Hidden tiers a promo code unlocks: listed on the concert (`GET /events/{id}`) and
//! sold (`POST /cart/{eventId}?tier=`, checkout) to one whose cart holds the code, and
//! listed to anyone who names it (`GET /events/{id}?code=`). A code unlocks only while it
//! may be used: inside its dates, not used up, and not used as often as the reader may.
//! Kept apart from `apply` (which reads the cart) so the cart can ask it.

use super::model::{self, CodeRow, Kind};
use super::store;
use crate::db::{Db, now_ms};
use crate::error::{Error, Result};
use crate::i18n::Msg;

/// Why the account may not use the code now, if it may not: outside its dates, used up,
/// or used as often as one account may.
pub async fn usable(db: &Db, account_id: &str, code: &CodeRow) -> Result<()> {
    if let Some(msg) = model::refusal(code, now_ms()) {
        return Err(Error::conflict(msg));
    }
    if let Some(max) = code.max_per_account
        && store::live_orders_of_account(db, &code.id, account_id).await? >= max
    {
        return Err(Error::conflict(Msg::PromoCodeAccountLimit));
    }
    Ok(())
}

/// The tiers a code unlocks for the reader now (none for a code that takes money off, or
/// one they may not use).
async fn unlocks(db: &Db, account_id: Option<&str>, code: &CodeRow) -> Result<Vec<String>> {
    if code.kind != Kind::Unlock {
        return Ok(Vec::new());
    }
    let usable = match account_id {
        Some(account) => usable(db, account, code).await.is_ok(),
        None => model::refusal(code, now_ms()).is_none(),
    };
    if !usable {
        return Ok(Vec::new());
    }
    store::tiers_of(db, &code.id).await
}

/// The hidden tiers the code in the account's cart (`code`, read by the caller) unlocks
/// for them now.
pub async fn in_cart(db: &Db, account_id: &str, code: &CodeRow) -> Result<Vec<String>> {
    unlocks(db, Some(account_id), code).await
}

/// The hidden tiers the reader may see and buy: those the code in their cart unlocks, and
/// those of the code they name (`typed`, any case; an unknown one unlocks nothing).
pub async fn unlocked_tiers(
    db: &Db,
    account_id: Option<&str>,
    typed: Option<&str>,
) -> Result<Vec<String>> {
    let mut out = Vec::new();
    if let Some(account) = account_id
        && let Some(code) = store::of_cart(db, account).await?
    {
        out.extend(in_cart(db, account, &code).await?);
    }
    if let Some(text) = typed.map(model::normalise).filter(|t| !t.is_empty())
        && let Some(code) = store::by_code(db, &text).await?
    {
        out.extend(unlocks(db, account_id, &code).await?);
    }
    Ok(out)
}
