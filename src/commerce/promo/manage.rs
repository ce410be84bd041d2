//! What a concert's managers (staff, its project's members) do to promo codes: list,
//! create, change and delete them, for one concert or for every concert of a project.

use super::model::{CodeFields, CodeRow, PromoCode, PromoCodeInput};
use super::store;
use crate::auth::extract::CurrentUser;
use crate::db::now_ms;
use crate::error::{Error, Result, conflict_on_unique};
use crate::events::manage::can_manage;
use crate::events::model::EventRow;
use crate::events::store as events;
use crate::i18n::Msg;
use crate::projects::store as projects;
use crate::state::AppState;

async fn with_tiers(app: &AppState, rows: Vec<CodeRow>) -> Result<Vec<PromoCode>> {
    let mut out = Vec::with_capacity(rows.len());
    for mut row in rows {
        let tier_ids = store::tiers_of(&app.db, &row.id).await?;
        if row.max_uses.is_none() {
            row.uses_taken = store::uses_of(&app.db, &row.id).await?;
        }
        out.push(PromoCode::new(row, tier_ids));
    }
    Ok(out)
}

/// One code as its managers see it.
pub async fn view(app: &AppState, id: &str) -> Result<PromoCode> {
    let row = store::by_id(&app.db, id)
        .await?
        .ok_or_else(|| Error::not_found(Msg::PromoCodeNotFound))?;
    Ok(with_tiers(app, vec![row]).await?.remove(0))
}

/// A concert's own codes.
pub async fn of_event(app: &AppState, event: &EventRow) -> Result<Vec<PromoCode>> {
    let rows = store::list(&app.db, &event.project_id, Some(&event.id)).await?;
    with_tiers(app, rows).await
}

/// The project the user manages (404 when it does not exist, 403 when not theirs).
async fn managed_project(app: &AppState, user: &CurrentUser, project_id: &str) -> Result<()> {
    projects::by_id(&app.db, project_id)
        .await?
        .ok_or_else(|| Error::not_found(Msg::ProjectMissing))?;
    if !can_manage(app, user.actor(), project_id).await? {
        return Err(Error::forbidden(Msg::OnlyManagersManageConcert));
    }
    Ok(())
}

/// Every code of a project: those for all its concerts and those for one.
pub async fn of_project(
    app: &AppState,
    user: &CurrentUser,
    project_id: &str,
) -> Result<Vec<PromoCode>> {
    managed_project(app, user, project_id).await?;
    let rows = store::list(&app.db, project_id, None).await?;
    with_tiers(app, rows).await
}

/// The input checked against the project: its concert (if it names one) is the
/// project's, and the tiers it unlocks are hidden tiers of it (or of the project's
/// concerts).
async fn checked(app: &AppState, project_id: &str, input: PromoCodeInput) -> Result<CodeFields> {
    let event = match &input.event_id {
        Some(id) => Some(
            events::by_id(&app.db, id)
                .await?
                .filter(|e| e.project_id == project_id)
                .ok_or_else(|| Error::not_found(Msg::ConcertNotFound))?,
        ),
        None => None,
    };
    let fields = input.fields(event.as_ref().map(|e| e.details.currency.as_str()))?;
    for tier_id in &fields.tier_ids {
        if !store::unlockable_tier(&app.db, tier_id, project_id, fields.event_id.as_deref()).await?
        {
            return Err(Error::unprocessable(Msg::PromoCodeTiers));
        }
    }
    Ok(fields)
}

/// A new code of a project (for all its concerts, or for the one it names). Answers it.
pub async fn create_in_project(
    app: &AppState,
    user: &CurrentUser,
    project_id: &str,
    input: PromoCodeInput,
) -> Result<PromoCode> {
    managed_project(app, user, project_id).await?;
    create(app, project_id, input).await
}

/// A new code of a concert. Answers it.
pub async fn create_for_event(
    app: &AppState,
    event: &EventRow,
    mut input: PromoCodeInput,
) -> Result<PromoCode> {
    input.event_id = Some(event.id.clone());
    create(app, &event.project_id, input).await
}

async fn create(app: &AppState, project_id: &str, input: PromoCodeInput) -> Result<PromoCode> {
    let fields = checked(app, project_id, input).await?;
    let mut tx = app.db.begin().await?;
    let id = store::insert(&mut *tx, project_id, &fields, now_ms())
        .await
        .map_err(|e| conflict_on_unique(e, Msg::PromoCodeTaken))?;
    for tier_id in &fields.tier_ids {
        store::add_tier(&mut *tx, &id, tier_id).await?;
    }
    tx.commit().await?;
    view(app, &id).await
}

/// The code, for one who manages its project (404, 403 otherwise).
async fn managed_code(app: &AppState, user: &CurrentUser, id: &str) -> Result<CodeRow> {
    let row = store::by_id(&app.db, id)
        .await?
        .ok_or_else(|| Error::not_found(Msg::PromoCodeNotFound))?;
    if !can_manage(app, user.actor(), &row.project_id).await? {
        return Err(Error::forbidden(Msg::OnlyManagersManageConcert));
    }
    Ok(row)
}

/// Replace a code's fields; its uses taken stay, and its limit never drops below them.
pub async fn update(
    app: &AppState,
    user: &CurrentUser,
    id: &str,
    input: PromoCodeInput,
) -> Result<PromoCode> {
    let row = managed_code(app, user, id).await?;
    let fields = checked(app, &row.project_id, input).await?;
    let mut tx = app.db.begin().await?;
    let saved = store::update(&mut *tx, id, &fields)
        .await
        .map_err(|e| conflict_on_unique(e, Msg::PromoCodeTaken))?;
    if !saved {
        return Err(Error::conflict(Msg::PromoCodeLimits));
    }
    store::clear_tiers(&mut *tx, id).await?;
    for tier_id in &fields.tier_ids {
        store::add_tier(&mut *tx, id, tier_id).await?;
    }
    tx.commit().await?;
    view(app, id).await
}

/// Delete a code: it leaves every cart; orders that carried it keep its text and discount.
pub async fn delete(app: &AppState, user: &CurrentUser, id: &str) -> Result<()> {
    managed_code(app, user, id).await?;
    store::delete(&app.db, id).await
}
