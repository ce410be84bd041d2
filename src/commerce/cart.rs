//! The cart (spec section 7): one ticket per concert per account, passes beside them.

use serde::Serialize;
use utoipa::ToSchema;

use crate::db::{Db, iso8601, now_ms};
use crate::error::{Error, Result};
use crate::events::model::{EventStatus, sale_refusal};
use crate::events::store as events;
use crate::events::view::Event;
use crate::state::AppState;

use super::model::ItemKind;
use super::plans::{self, Plan};
use super::store;
use crate::i18n::Msg;

/// One entry of a cart: a concert (`event`) or a pass (`plan`), as `kind` says.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CartEntry {
    pub kind: ItemKind,
    #[schema(required = true)]
    pub event: Option<Event>,
    #[schema(required = true)]
    pub plan: Option<Plan>,
    #[schema(format = DateTime)]
    pub added_at: String,
}

/// What the account's cart holds, in the order it was added: (kind, concert or plan id).
pub async fn lines(db: &Db, account_id: &str) -> Result<Vec<(ItemKind, String)>> {
    Ok(store::cart_rows(db, account_id)
        .await?
        .into_iter()
        .map(|row| (row.item_kind, row.item_id))
        .collect())
}

pub async fn entries(app: &AppState, account_id: &str) -> Result<Vec<CartEntry>> {
    let rows = store::cart_rows(&app.db, account_id).await?;
    let now = now_ms();
    let mut out = Vec::with_capacity(rows.len());
    for row in rows {
        let added_at = iso8601(row.added_at);
        if row.item_kind == ItemKind::Event {
            if let Some(event) = events::by_id(&app.db, &row.item_id).await? {
                let owned = events::owned_among(&app.db, account_id, std::slice::from_ref(&event))
                    .await?
                    .first()
                    .copied()
                    .unwrap_or(false);
                out.push(CartEntry {
                    kind: ItemKind::Event,
                    event: Some(Event::from_row(
                        &event,
                        owned,
                        now,
                        app.hub.on_air(&event.id),
                    )),
                    plan: None,
                    added_at,
                });
            }
        } else if let Some(plan) = plans::by_id(&app.db, &row.item_id).await? {
            out.push(CartEntry {
                kind: ItemKind::Pass,
                event: None,
                plan: Some(Plan::for_buyer(plan)),
                added_at,
            });
        }
    }
    Ok(out)
}

/// Put a concert in the cart, if it can be bought by this account now.
pub async fn add_event(app: &AppState, account_id: &str, event_id: &str) -> Result<()> {
    let event = events::by_id(&app.db, event_id)
        .await?
        .filter(|e| e.status != EventStatus::Draft)
        .ok_or_else(|| Error::not_found(Msg::ConcertNotFound))?;
    if let Some(reason) = sale_refusal(&event, now_ms()) {
        return Err(Error::conflict(reason));
    }
    let owned = events::owned_among(&app.db, account_id, std::slice::from_ref(&event)).await?;
    if owned.first() == Some(&true) {
        return Err(Error::conflict(Msg::AlreadyHaveAccess));
    }
    insert(app, account_id, ItemKind::Event, event_id).await
}

pub async fn add_pass(app: &AppState, account_id: &str, plan_id: &str) -> Result<()> {
    plans::by_id(&app.db, plan_id)
        .await?
        .filter(|p| p.active != 0)
        .ok_or_else(|| Error::not_found(Msg::PassNotOnSale))?;
    insert(app, account_id, ItemKind::Pass, plan_id).await
}

async fn insert(app: &AppState, account_id: &str, kind: ItemKind, id: &str) -> Result<()> {
    // Adding twice keeps one entry: a ticket is personal, one per concert.
    store::insert_cart_item(&app.db, account_id, kind, id, now_ms()).await
}

pub async fn remove(app: &AppState, account_id: &str, kind: ItemKind, id: &str) -> Result<()> {
    store::delete_cart_item(&app.db, account_id, kind, id).await
}

pub async fn clear(app: &AppState, account_id: &str) -> Result<()> {
    store::clear_cart(&app.db, account_id).await
}
