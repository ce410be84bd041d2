//! Ticket tiers (issue 31): a concert sells through one or more tiers, each with its
//! price, its own capacity inside the concert's, a sale window, and hidden ones. The
//! concert's managers (staff, its project's members) list, create, change and delete them
//! under `/events/{id}/tiers`; the public reads the visible ones on the concert
//! (`GET /events/{id}`), and the cart takes one (`POST /cart/{eventId}?tier=`).

pub mod manage;
pub mod model;
pub mod store;

use axum::extract::{Path, State};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use self::model::{ManagedTier, NewTierInput, TierInput};
use crate::envelope::{Api, Envelope, JsonBody};
use crate::error::Result;
use crate::events::extract::{ManagedEvent, ManagerRefusals};
use crate::events::model::ConcertPath;
use crate::openapi::{Failure, Nothing};
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_tiers, create_tier))
        .routes(routes!(update_tier, delete_tier))
}

/// Every ticket tier of a concert, hidden ones too, for its managers (staff, its
/// project's members).
#[utoipa::path(get, path = "/events/{id}/tiers", tag = "events", security(("bearer" = [])),
    params(ConcertPath),
    responses((status = 200, description = "The concert's tiers, in the order they are listed.", body = Envelope<Vec<ManagedTier>>),
        ManagerRefusals))]
async fn list_tiers(
    State(app): State<AppState>,
    ManagedEvent { event, .. }: ManagedEvent,
) -> Result<Api<Vec<ManagedTier>>> {
    Ok(Api::ok(manage::list(&app.db, &event).await?))
}

/// Adds a ticket tier to a concert, for its managers (at most 20 tiers). Its capacity
/// may not exceed the concert's; made the default, the concert's price becomes its price.
#[utoipa::path(post, path = "/events/{id}/tiers", tag = "events", security(("bearer" = [])),
    params(ConcertPath),
    request_body = NewTierInput,
    responses((status = 201, description = "The new tier.", body = Envelope<ManagedTier>),
        (status = 409, description = "The concert is cancelled, has 20 tiers already, or a hidden tier was to be the default.", body = Failure),
        (status = 422, description = "A field breaks a rule: a name of 1 to 120 characters, a price from 0, a capacity from 1 and at most the concert's, a sale window that opens before it closes.", body = Failure)))]
async fn create_tier(
    State(app): State<AppState>,
    ManagedEvent { event, .. }: ManagedEvent,
    JsonBody(input): JsonBody<NewTierInput>,
) -> Result<Api<ManagedTier>> {
    let id = manage::create(&app.db, &event, input).await?;
    Ok(Api::created(manage::view(&app.db, &event.id, &id).await?))
}

/// Changes a ticket tier, for the concert's managers: each field given is set. Its price
/// is frozen once one of its tickets was sold, its capacity never drops below its seats
/// taken, and the default tier's price is the concert's.
#[utoipa::path(put, path = "/events/{id}/tiers/{tier_id}", tag = "events", security(("bearer" = [])),
    params(ConcertPath,
        ("tier_id" = String, Path, description = "The tier's id")),
    request_body = TierInput,
    responses((status = 200, description = "The tier as changed.", body = Envelope<ManagedTier>),
        (status = 404, description = "No such concert, or no such tier of it.", body = Failure),
        (status = 409, description = "The concert is cancelled, the tier's price is frozen, its capacity is below its seats taken, or the default tier was to be hidden or to stop being the default.", body = Failure),
        (status = 422, description = "A field breaks a rule (as for a new tier).", body = Failure)))]
async fn update_tier(
    State(app): State<AppState>,
    ManagedEvent { event, .. }: ManagedEvent,
    Path((_, tier_id)): Path<(String, String)>,
    JsonBody(input): JsonBody<TierInput>,
) -> Result<Api<ManagedTier>> {
    manage::update(&app.db, &event, &tier_id, &input).await?;
    Ok(Api::ok(manage::view(&app.db, &event.id, &tier_id).await?))
}

/// Deletes a ticket tier that never sold, for the concert's managers; it leaves every
/// cart it was in. The last tier and the default tier stay, and a tier that sold (or is
/// being paid for) is hidden instead.
#[utoipa::path(delete, path = "/events/{id}/tiers/{tier_id}", tag = "events", security(("bearer" = [])),
    params(ConcertPath,
        ("tier_id" = String, Path, description = "The tier's id")),
    responses((status = 200, description = "Deleted.", body = Envelope<Nothing>),
        (status = 404, description = "No such concert, or no such tier of it.", body = Failure),
        (status = 409, description = "The concert's last or default tier, a tier that sold or is being paid for, or a cancelled concert.", body = Failure)))]
async fn delete_tier(
    State(app): State<AppState>,
    ManagedEvent { event, .. }: ManagedEvent,
    Path((_, tier_id)): Path<(String, String)>,
) -> Result<Api<()>> {
    manage::delete(&app.db, &event, &tier_id).await?;
    Ok(Api::ok(()))
}
