//! A paid tip said out loud: a chat message of kind `tip` stored in the payment's
//! transaction (so a paid tip is in the room's history, a refused one never), then
//! published on the bus once that commits: `chat_message` on the concert's `chat:<id>`
//! (every listener, on every instance) and `tip_paid` on its `event:<id>` (the artist's
//! live panel). Kept apart from `tips::mod` so `orders::fulfil` can call it without a
//! circle of imports.

use super::model::{Tip, TipPaid};
use super::store::TipRow;
use crate::accounts::model::AccountRow;
use crate::bus::{Channel, Publication};
use crate::chat::model::{ChatMessage, Posted, display_name};
use crate::chat::store::{self as chat, MessageRow};
use crate::db::iso8601;
use crate::error::Result;
use crate::state::AppState;

/// What a paid tip publishes once its transaction commits.
pub struct Said {
    message: ChatMessage,
    tip: Tip,
}

/// Store the room's message of a tip paid at `now` by `tipper`.
pub async fn record(
    tx: &mut sqlx::AnyConnection,
    app: &AppState,
    tip: &TipRow,
    tipper: &AccountRow,
    now: i64,
) -> Result<Said> {
    // At the live edge, as a message posted without a media time is.
    let recorded = app.figures.status(&tip.event_id).await.recorded_seconds;
    let media_time = ((recorded * 1000.0).floor() as i64).max(0);
    let author = display_name(&tipper.first_name, &tipper.last_name);
    let row = MessageRow {
        id: uuid::Uuid::new_v4().to_string(),
        event_id: tip.event_id.clone(),
        account_id: tipper.id.clone(),
        author: author.clone(),
        badge: None,
        body: tip.message.clone(),
        media_time,
        created_at: now,
        deleted_at: None,
        tip_minor: Some(tip.amount_minor),
        tip_currency: Some(tip.currency.clone()),
    };
    chat::insert_message(&mut *tx, &row).await?;
    Ok(Said {
        message: row.view(),
        tip: Tip {
            id: tip.order_id.clone(),
            event_id: tip.event_id.clone(),
            author,
            amount: tip.amount_minor,
            currency: tip.currency.clone(),
            message: tip.message.clone(),
            paid_at: iso8601(now),
        },
    })
}

impl Said {
    /// Tell the room and the concert's managers (after the commit).
    pub async fn publish(self, app: &AppState) {
        let event_id = self.tip.event_id.clone();
        let room = Publication::new(&Posted {
            message: self.message,
        });
        let panel = Publication::new(&TipPaid { tip: self.tip });
        for (channel, publication) in [
            (Channel::Chat(event_id.clone()), room),
            (Channel::Event(event_id.clone()), panel),
        ] {
            if let Err(err) = app.bus.publish(&channel, publication).await {
                tracing::warn!(event = %event_id, error = %err, "publishing a tip failed");
            }
        }
    }
}
