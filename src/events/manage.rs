//! What a concert's managers do to it — create, edit, publish, cancel, delete — with the
//! rules each step keeps and the transaction it runs in. The handlers in `mod.rs` read the
//! request, hand over here and answer with the concert as it now is.

use super::edit::{EventInput, NewEventInput};
use super::model::{EventRow, EventStatus};
use super::{image, notices, rules, store};
use crate::accounts::policy::Actor;
use crate::commerce::tiers::store as tiers;
use crate::commerce::{checkout, orders, refunds};
use crate::db::now_ms;
use crate::error::{Error, Result};
use crate::i18n::Msg;
use crate::notifications::Outbox;
use crate::projects::store as projects;
use crate::state::AppState;

/// Staff manage every concert; project members manage their project's concerts.
pub async fn can_manage(app: &AppState, actor: Actor<'_>, project_id: &str) -> Result<bool> {
    Ok(actor.role.is_staff() || projects::is_member(&app.db, project_id, actor.id).await?)
}

/// A concert names its project in the body: one that does not exist is a missing
/// resource (404), like an unknown id in a path.
async fn project_exists(app: &AppState, project_id: &str) -> Result<()> {
    projects::by_id(&app.db, project_id)
        .await?
        .map(|_| ())
        .ok_or_else(|| Error::not_found(Msg::ProjectMissing))
}

/// A new draft in a project the actor manages.
pub async fn create(app: &AppState, actor: Actor<'_>, input: NewEventInput) -> Result<EventRow> {
    let project_id = input.project_id()?.to_owned();
    project_exists(app, &project_id).await?;
    if !can_manage(app, actor, &project_id).await? {
        return Err(Error::forbidden(Msg::OnlyManagersCreateConcerts));
    }
    let details = input.details()?;
    store::insert_draft(&app.db, &project_id, &details).await
}

/// Changes a concert: a cancelled one is kept as it was, it moves only to a project the
/// actor manages too, and its price and currency are frozen once a ticket was sold. The
/// holders of a concert on sale hear of a new start time in the same transaction.
pub async fn update(
    app: &AppState,
    actor: Actor<'_>,
    mut row: EventRow,
    input: &EventInput,
) -> Result<()> {
    if let Some(refusal) = rules::edit_refusal(&row) {
        return Err(Error::conflict(refusal));
    }
    if let Some(project_id) = &input.project_id
        && *project_id != row.project_id
    {
        project_exists(app, project_id).await?;
        if !can_manage(app, actor, project_id).await? {
            return Err(Error::forbidden(Msg::CannotMoveConcert));
        }
        row.project_id = project_id.clone();
    }
    let sold = store::ticket_count_ever(&app.db, &row.id).await? > 0;
    if let Some(refusal) =
        rules::price_change_refusal(&row, sold, input.price, input.currency.as_deref())
    {
        return Err(Error::conflict(refusal));
    }
    let was_starting = row.details.starts_at;
    let mut details = row.details.clone();
    input.apply_to(&mut details)?;
    row.details = details;
    let mut tx = app.db.begin().await?;
    if !store::save(&mut *tx, &row).await? {
        return Err(Error::conflict(Msg::CapacityBelowSold));
    }
    // The concert's price is its default tier's.
    tiers::set_default_price(&mut *tx, &row.id, row.details.price_minor).await?;
    let mut outbox = Outbox::default();
    if row.details.starts_at != was_starting
        && matches!(row.status, EventStatus::Published | EventStatus::Live)
    {
        notices::rescheduled(&mut tx, &mut outbox, &row).await?;
    }
    tx.commit().await?;
    outbox.publish(&app.db, &app.bus).await;
    Ok(())
}

/// Puts a draft on sale while its access window is still open.
pub async fn publish(app: &AppState, event: &EventRow) -> Result<()> {
    if let Some(refusal) = rules::publish_refusal(event, now_ms()) {
        return Err(Error::conflict(refusal));
    }
    let published = store::set_status(
        &app.db,
        &event.id,
        &[EventStatus::Draft],
        EventStatus::Published,
    )
    .await?;
    if !published {
        return Err(Error::conflict(Msg::OnlyDraftPublished));
    }
    Ok(())
}

/// Cancels a concert. One transaction marks it cancelled, closes its open checkouts (their
/// seats go back) and drops its door reminders, so nobody can pay for it or be reminded
/// of it once it is cancelled, and a failure leaves it as it was. What leaves the database
/// follows the commit: the Stripe sessions expire, each buyer is refunded (one
/// transaction a ticket, as each payment goes back through its provider) and every
/// listening session ends.
pub async fn cancel(app: &AppState, event: &EventRow) -> Result<()> {
    let mut tx = app.db.begin().await?;
    let cancelled = store::set_status(
        &mut *tx,
        &event.id,
        &rules::CANCELLABLE_FROM,
        EventStatus::Cancelled,
    )
    .await?;
    if !cancelled {
        return Err(Error::conflict(Msg::EndedOrCancelled));
    }
    let sessions = orders::close_pending_for_event(&mut tx, &event.id).await?;
    store::remove_reminders_of(&mut *tx, &event.id).await?;
    tx.commit().await?;
    checkout::expire_sessions(app, sessions).await;
    refunds::refund_event(app, event, Msg::ConcertCancelledRefund).await?;
    app.stream_access.revoke_event(&event.id);
    Ok(())
}

/// Deletes a concert that never sold a ticket (one that did is cancelled instead), with
/// its picture.
pub async fn remove(app: &AppState, event: &EventRow) -> Result<()> {
    let sold = store::ticket_count_ever(&app.db, &event.id).await?;
    if let Some(refusal) = rules::delete_refusal(sold) {
        return Err(Error::conflict(refusal));
    }
    store::delete(&app.db, &event.id).await?;
    let _ = tokio::fs::remove_dir_all(image::dir(&app.config.data_dir, &event.id)).await;
    Ok(())
}
