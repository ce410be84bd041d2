//! A promo code in the buyer's hands: entered in the cart (checked there, so a refusal
//! comes at once, in the reader's language), shown with what it takes off, and claimed at
//! checkout, where `orders` takes its use in the sale's transaction.

use super::model::{self, CartPromo, CodeRow, Line};
use super::store;
use super::unlock;
use crate::commerce::cart;
use crate::commerce::money::MAX_PRICE;
use crate::commerce::store as commerce_store;
use crate::db::now_ms;
use crate::error::{Error, Result};
use crate::i18n::Msg;
use crate::state::AppState;

/// A cart line as a code sees it: its total (all its tickets), its concert and project
/// (`None` for a pass), its currency.
type CartLine = (i64, Option<(String, String)>, String);

/// The cart's lines priced as the cart shows them (`cart::entries`), read in one query: a
/// pay-what-you-want line at the amount named, or at its minimum when the amount no
/// longer holds (checkout refuses it with the reason).
async fn cart_lines(app: &AppState, account_id: &str) -> Result<Vec<CartLine>> {
    Ok(commerce_store::priced_cart_rows(&app.db, account_id)
        .await?
        .into_iter()
        .map(|row| {
            let each = match (row.min_price_minor, row.amount_minor) {
                (None, _) | (Some(_), None) => row.price_minor,
                (Some(min), Some(named)) if named < min || named > MAX_PRICE => min,
                (Some(_), Some(named)) => named,
            };
            let concert = row.event_id.zip(row.project_id);
            let quantity = if concert.is_some() { row.quantity } else { 1 };
            (each * quantity, concert, row.currency)
        })
        .collect())
}

fn as_lines(rows: &[CartLine]) -> Vec<Line<'_>> {
    rows.iter()
        .map(|(price, concert, currency)| Line {
            price_minor: *price,
            concert: concert.as_ref().map(|(e, p)| (e.as_str(), p.as_str())),
            currency,
        })
        .collect()
}

/// The code in the account's cart with what it takes off the cart now; `None` without one.
pub async fn summary(app: &AppState, account_id: &str) -> Result<Option<CartPromo>> {
    let Some(code) = store::of_cart(&app.db, account_id).await? else {
        return Ok(None);
    };
    let rows = cart_lines(app, account_id).await?;
    Ok(Some(summarise(code, &rows)))
}

/// What `code` takes off the cart's lines.
fn summarise(code: CodeRow, rows: &[CartLine]) -> CartPromo {
    let lines = as_lines(rows);
    let subtotal: i64 = lines.iter().map(|l| l.price_minor).sum();
    let discount: i64 = code.discounts(&lines).iter().sum();
    CartPromo {
        code: code.code,
        kind: code.kind,
        subtotal,
        discount,
        total: subtotal - discount,
        currency: rows.first().map(|(_, _, c)| c.clone()),
    }
}

/// Enter a code in the cart (in any case), replacing the one there. A code that takes
/// something off must apply to something in the cart; one that unlocks tiers may come
/// first, to list them.
pub async fn enter(app: &AppState, account_id: &str, text: &str) -> Result<CartPromo> {
    let code = store::by_code(&app.db, &model::normalise(text))
        .await?
        .ok_or_else(|| Error::not_found(Msg::PromoCodeNotFound))?;
    unlock::usable(&app.db, account_id, &code).await?;
    let rows = cart_lines(app, account_id).await?;
    if code.kind != model::Kind::Unlock && !as_lines(&rows).iter().any(|l| code.applies_to(l)) {
        return Err(Error::conflict(Msg::PromoCodeNotApplicable));
    }
    store::set_cart(&app.db, account_id, &code.id, now_ms()).await?;
    Ok(summarise(code, &rows))
}

/// Take the code out of the cart (nothing happens without one).
pub async fn remove(app: &AppState, account_id: &str) -> Result<()> {
    store::clear_cart(&app.db, account_id).await
}

/// The code in the account's cart, if any (checkout reads it once, for the tiers it
/// unlocks and for what it takes off).
pub async fn in_cart(app: &AppState, account_id: &str) -> Result<Option<CodeRow>> {
    store::of_cart(&app.db, account_id).await
}

/// The code a checkout claims (`code`: the cart's, from [`in_cart`]), with what it takes
/// off each of its lines (in order): `None` when the cart has none, or one that applies to
/// none of the lines. A code outside its dates is refused with the reason.
pub async fn for_checkout(
    app: &AppState,
    account_id: &str,
    code: Option<CodeRow>,
    lines: &[Line<'_>],
) -> Result<Option<(CodeRow, Vec<i64>)>> {
    let Some(code) = code else {
        return Ok(None);
    };
    if code.kind == model::Kind::Unlock {
        // An order uses it only when it sells one of the hidden tiers it unlocks.
        let unlocks = store::tiers_of(&app.db, &code.id).await?;
        let sells_one = cart::entries(app, account_id)
            .await?
            .into_iter()
            .filter_map(|entry| entry.tier)
            .any(|tier| unlocks.contains(&tier.id));
        if !sells_one {
            return Ok(None);
        }
    } else if !lines.iter().any(|l| code.applies_to(l)) {
        return Ok(None);
    }
    // Its uses are counted in the sale's transaction, after the account's earlier
    // checkout (which may hold one of them) is replaced.
    if let Some(msg) = model::date_refusal(&code, now_ms()) {
        return Err(Error::conflict(msg));
    }
    let discounts = code.discounts(lines);
    Ok(Some((code, discounts)))
}
