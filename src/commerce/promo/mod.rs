//! Promo codes (issue 31): a percentage or an amount off a concert's tickets, or off every
//! concert of a project, or hidden tiers unlocked; with total and per-account uses and
//! validity dates. Managers keep them under `/events/{id}/promo-codes`,
//! `/projects/{id}/promo-codes` and `/promo-codes/{id}`; buyers enter one in the cart
//! (`/cart/promo-code`), and checkout takes its use in the transaction that holds seats.

pub mod apply;
pub mod manage;
pub mod model;
pub mod store;
pub mod unlock;

use axum::extract::State;
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use self::model::{CartPromo, PromoCode, PromoCodeInput};
use crate::auth::extract::{CurrentUser, IdRequest};
use crate::envelope::{Api, Envelope, JsonBody};
use crate::error::Result;
use crate::events::extract::{ManagedEvent, ManagerRefusals};
use crate::events::model::ConcertPath;
use crate::openapi::{Failure, Nothing};
use crate::projects::access::ProjectPath;
use crate::state::AppState;

crate::openapi::failures!(
    /// How a code's own routes refuse.
    CodeRefusals {
        403 => "Not one of its project's managers.",
        404 => "No such code.",
    }
);

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_event_codes, create_event_code))
        .routes(routes!(list_project_codes, create_project_code))
        .routes(routes!(update_code, delete_code))
        .routes(routes!(show_cart_code, enter_cart_code, remove_cart_code))
}

/// A concert's own promo codes, for its managers (staff, its project's members).
#[utoipa::path(get, path = "/events/{id}/promo-codes", tag = "events", security(("bearer" = [])),
    params(ConcertPath),
    responses((status = 200, description = "The concert's codes, newest first.", body = Envelope<Vec<PromoCode>>),
        ManagerRefusals))]
async fn list_event_codes(
    State(app): State<AppState>,
    ManagedEvent { event, .. }: ManagedEvent,
) -> Result<Api<Vec<PromoCode>>> {
    Ok(Api::ok(manage::of_event(&app, &event).await?))
}

/// Adds a promo code for one concert, for its managers (`eventId` is the concert's).
#[utoipa::path(post, path = "/events/{id}/promo-codes", tag = "events", security(("bearer" = [])),
    params(ConcertPath),
    request_body = PromoCodeInput,
    responses((status = 201, description = "The new code.", body = Envelope<PromoCode>),
        (status = 409, description = "Another code is already called that.", body = Failure),
        (status = 422, description = "A field breaks a rule: the code's form, the value for its kind, the limits or the dates.", body = Failure)))]
async fn create_event_code(
    State(app): State<AppState>,
    ManagedEvent { event, .. }: ManagedEvent,
    JsonBody(input): JsonBody<PromoCodeInput>,
) -> Result<Api<PromoCode>> {
    Ok(Api::created(
        manage::create_for_event(&app, &event, input).await?,
    ))
}

/// Every promo code of a project (those for all its concerts and those for one), for its
/// managers.
#[utoipa::path(get, path = "/projects/{id}/promo-codes", tag = "projects", security(("bearer" = [])),
    params(ProjectPath),
    responses((status = 200, description = "The project's codes, newest first.", body = Envelope<Vec<PromoCode>>),
        (status = 403, description = "Not one of the project's managers.", body = Failure),
        (status = 404, description = "No such project.", body = Failure)))]
async fn list_project_codes(IdRequest { app, user, id }: IdRequest) -> Result<Api<Vec<PromoCode>>> {
    Ok(Api::ok(manage::of_project(&app, &user, &id).await?))
}

/// Adds a promo code for every concert of a project (or, naming `eventId`, one of them),
/// for its managers.
#[utoipa::path(post, path = "/projects/{id}/promo-codes", tag = "projects", security(("bearer" = [])),
    params(ProjectPath),
    request_body = PromoCodeInput,
    responses((status = 201, description = "The new code.", body = Envelope<PromoCode>),
        (status = 403, description = "Not one of the project's managers.", body = Failure),
        (status = 404, description = "No such project, or `eventId` is not one of its concerts.", body = Failure),
        (status = 409, description = "Another code is already called that.", body = Failure),
        (status = 422, description = "A field breaks a rule.", body = Failure)))]
async fn create_project_code(
    IdRequest { app, user, id }: IdRequest,
    JsonBody(input): JsonBody<PromoCodeInput>,
) -> Result<Api<PromoCode>> {
    Ok(Api::created(
        manage::create_in_project(&app, &user, &id, input).await?,
    ))
}

/// Replaces a promo code's fields, for its project's managers; the uses it has taken
/// stay, and its total limit may not drop below them.
#[utoipa::path(put, path = "/promo-codes/{id}", tag = "projects", security(("bearer" = [])),
    params(("id" = String, Path, description = "The code's id")),
    request_body = PromoCodeInput,
    responses((status = 200, description = "The code as changed.", body = Envelope<PromoCode>),
        CodeRefusals,
        (status = 409, description = "Another code is called that, or the limit is below the uses taken.", body = Failure),
        (status = 422, description = "A field breaks a rule.", body = Failure)))]
async fn update_code(
    IdRequest { app, user, id }: IdRequest,
    JsonBody(input): JsonBody<PromoCodeInput>,
) -> Result<Api<PromoCode>> {
    Ok(Api::ok(manage::update(&app, &user, &id, input).await?))
}

/// Deletes a promo code, for its project's managers: it leaves every cart, and the
/// orders that carried it keep its text and discount.
#[utoipa::path(delete, path = "/promo-codes/{id}", tag = "projects", security(("bearer" = [])),
    params(("id" = String, Path, description = "The code's id")),
    responses((status = 200, description = "Deleted.", body = Envelope<Nothing>),
        CodeRefusals))]
async fn delete_code(IdRequest { app, user, id }: IdRequest) -> Result<Api<()>> {
    manage::delete(&app, &user, &id).await?;
    Ok(Api::ok(()))
}

/// The promo code in the signed-in account's cart, with the cart's total before it, what
/// it takes off and the total after; `null` without one. (The cart itself, `GET /cart/`,
/// keeps the specification's shape: its entries' prices are before the code.)
#[utoipa::path(get, path = "/cart/promo-code", tag = "commerce", security(("bearer" = [])),
    responses((status = 200, description = "The cart's code and totals, or null.", body = Envelope<Option<CartPromo>>)))]
async fn show_cart_code(
    State(app): State<AppState>,
    user: CurrentUser,
) -> Result<Api<Option<CartPromo>>> {
    Ok(Api::ok(apply::summary(&app, &user.account.id).await?))
}

#[derive(Debug, Deserialize, ToSchema)]
struct CodeEntry {
    /// The code as the buyer typed it (any case).
    code: String,
}

/// Enters a promo code in the signed-in account's cart (in any case), replacing the one
/// there; checkout takes what it gives.
#[utoipa::path(put, path = "/cart/promo-code", tag = "commerce", security(("bearer" = [])),
    request_body = CodeEntry,
    responses((status = 200, description = "The cart's code and totals.", body = Envelope<CartPromo>),
        (status = 404, description = "No such code.", body = Failure),
        (status = 409, description = "The code is not valid yet, has expired, is used up or used as often as one account may, or applies to nothing in the cart.", body = Failure)))]
async fn enter_cart_code(
    State(app): State<AppState>,
    user: CurrentUser,
    JsonBody(input): JsonBody<CodeEntry>,
) -> Result<Api<CartPromo>> {
    Ok(Api::ok(
        apply::enter(&app, &user.account.id, &input.code).await?,
    ))
}

/// Takes the promo code out of the signed-in account's cart (nothing happens without one).
#[utoipa::path(delete, path = "/cart/promo-code", tag = "commerce", security(("bearer" = [])),
    responses((status = 200, description = "Removed.", body = Envelope<Nothing>)))]
async fn remove_cart_code(State(app): State<AppState>, user: CurrentUser) -> Result<Api<()>> {
    apply::remove(&app, &user.account.id).await?;
    Ok(Api::ok(()))
}
