//! Tickets as gifts (issue 31): a fan gives a ticket they hold and have not listened with
//! to an e-mail address (the same for passing it on); its owner opens the e-mailed claim
//! link, signs up or in, and claims it. Until the show starts the giver may re-send or
//! take back an unclaimed gift; after the start it can no longer be taken back and stays
//! claimable until the listening window ends (24 hours from the start). A refunded order or
//! a cancelled concert revokes the ticket, claimed or not.

pub mod manage;
pub mod model;
pub mod store;

use axum::extract::State;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use self::model::{Gift, GiftPreview, GiveInput, MyTicket, TicketPath, TokenInput};
use crate::auth::extract::{CurrentUser, IdRequest};
use crate::envelope::{Api, Envelope, JsonBody};
use crate::error::Result;
use crate::openapi::Failure;
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(my_tickets))
        .routes(routes!(give))
        .routes(routes!(keep))
        .routes(routes!(resend))
        .routes(routes!(take_back))
        .routes(routes!(look))
        .routes(routes!(claim))
}

/// The signed-in account's live tickets, soonest concert first: those it holds, and those
/// it gave whose gift is not claimed yet (with the pending gift).
#[utoipa::path(get, path = "/tickets/mine", tag = "commerce", security(("bearer" = [])),
    responses((status = 200, description = "The account's tickets.", body = Envelope<Vec<MyTicket>>)))]
async fn my_tickets(State(app): State<AppState>, user: CurrentUser) -> Result<Api<Vec<MyTicket>>> {
    Ok(Api::ok(manage::mine(&app, &user.account).await?))
}

/// Give (or pass on) a ticket the signed-in account holds and has not listened with to an
/// e-mail address, which is sent a single-use claim link (in its account's language if it
/// has one, else the giver's). Until claimed or taken back the ticket gives nobody access
/// and is no longer the giver's ticket of the concert (they may buy another).
#[utoipa::path(post, path = "/tickets/{id}/gift", tag = "commerce", security(("bearer" = [])),
    params(TicketPath),
    request_body = GiveInput,
    responses((status = 201, description = "The pending gift.", body = Envelope<Gift>),
        (status = 404, description = "No such ticket held by the account (given already, refunded, or someone else's).", body = Failure),
        (status = 409, description = "The ticket was listened with, its concert is cancelled, or its listening window is over.", body = Failure),
        (status = 422, description = "Not an e-mail address.", body = Failure)))]
async fn give(
    IdRequest { app, user, id }: IdRequest,
    JsonBody(input): JsonBody<GiveInput>,
) -> Result<Api<Gift>> {
    Ok(Api::created(
        manage::give(&app, &user.account, &id, &input.email).await?,
    ))
}

/// Keep a spare ticket (one bought beside the buyer's own): it becomes the signed-in
/// account's own ticket, to listen with. Possible while the account holds no ticket of
/// its own for the concert; otherwise a spare can only be given.
#[utoipa::path(post, path = "/tickets/{id}/keep", tag = "commerce", security(("bearer" = [])),
    params(TicketPath),
    responses((status = 200, description = "The account's tickets, the kept one its own now.", body = Envelope<Vec<MyTicket>>),
        (status = 404, description = "No such spare ticket held by the account (kept already, given, refunded, or someone else's).", body = Failure),
        (status = 409, description = "The account already holds a ticket of its own for the concert.", body = Failure)))]
async fn keep(IdRequest { app, user, id }: IdRequest) -> Result<Api<Vec<MyTicket>>> {
    manage::keep(&app, &user.account, &id).await?;
    Ok(Api::ok(manage::mine(&app, &user.account).await?))
}

/// Send a pending gift's claim link again, with a new token (the old link stops
/// claiming), for its giver; possible until the listening window ends.
#[utoipa::path(post, path = "/gifts/{id}/resend", tag = "commerce", security(("bearer" = [])),
    params(("id" = String, Path, description = "The gift's id")),
    responses((status = 200, description = "The gift, sent again.", body = Envelope<Gift>),
        (status = 404, description = "No pending gift of the account's with this id.", body = Failure),
        (status = 409, description = "The concert is cancelled or its listening window is over, or the gift was claimed meanwhile.", body = Failure)))]
async fn resend(IdRequest { app, user, id }: IdRequest) -> Result<Api<Gift>> {
    Ok(Api::ok(manage::resend(&app, &user.account, &id).await?))
}

/// Take a pending gift back, for its giver, before the show starts: the ticket is theirs
/// again and its claim link stops claiming.
#[utoipa::path(delete, path = "/gifts/{id}", tag = "commerce", security(("bearer" = [])),
    params(("id" = String, Path, description = "The gift's id")),
    responses((status = 200, description = "The gift, taken back.", body = Envelope<Gift>),
        (status = 404, description = "No pending gift of the account's with this id.", body = Failure),
        (status = 409, description = "The show has started, the gift was claimed meanwhile, or the giver holds another ticket to the concert now.", body = Failure)))]
async fn take_back(IdRequest { app, user, id }: IdRequest) -> Result<Api<Gift>> {
    Ok(Api::ok(manage::take_back(&app, &user.account, &id).await?))
}

/// What a claim link offers (the giver's name, the concert), for whoever holds the link,
/// signed in or not. The token travels in the body, never in an API URL.
#[utoipa::path(post, path = "/gifts/look", tag = "commerce",
    request_body = TokenInput,
    responses((status = 200, description = "The gift the link claims.", body = Envelope<GiftPreview>),
        (status = 404, description = "The link does not claim (claimed, taken back, re-sent, refunded, or never was).", body = Failure),
        (status = 409, description = "The concert is cancelled or its listening window is over.", body = Failure)))]
async fn look(
    State(app): State<AppState>,
    JsonBody(input): JsonBody<TokenInput>,
) -> Result<Api<GiftPreview>> {
    Ok(Api::ok(manage::look(&app, &input.token).await?))
}

/// Claim the gift a link's token names, for the signed-in account: the ticket becomes
/// theirs (once: the link is single-use) and the giver is notified.
#[utoipa::path(post, path = "/gifts/claim", tag = "commerce", security(("bearer" = [])),
    request_body = TokenInput,
    responses((status = 200, description = "The claimed gift.", body = Envelope<Gift>),
        (status = 404, description = "The link does not claim (claimed, taken back, re-sent, refunded, or never was).", body = Failure),
        (status = 409, description = "The account already holds a ticket to the concert, the gift is its own, the link was used meanwhile, or the concert is cancelled or its listening window over.", body = Failure)))]
async fn claim(
    State(app): State<AppState>,
    user: CurrentUser,
    JsonBody(input): JsonBody<TokenInput>,
) -> Result<Api<Gift>> {
    Ok(Api::ok(
        manage::claim(&app, &user.account, &input.token).await?,
    ))
}
