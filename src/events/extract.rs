//! The `ManagedEvent` extractor: the concert named by the `{id}` path parameter, for one
//! who may manage it (staff, or a member of its project).

use std::marker::PhantomData;

use axum::extract::{FromRequestParts, Path};
use axum::http::request::Parts;

use super::model::{ConcertPath, EventRow};
use crate::auth::extract::CurrentUser;
use crate::envelope::rejection_message;
use crate::error::Error;
use crate::i18n::Msg;
use crate::state::AppState;

/// The words of the 403 a non-manager gets; each face of the rule keeps its own.
pub trait Refusal {
    const MSG: Msg;
}

/// "Only … manage this concert": the default, for the concert management routes.
#[derive(Debug)]
pub struct ManageConcert;

impl Refusal for ManageConcert {
    const MSG: Msg = Msg::OnlyManagersManageConcert;
}

crate::openapi::failures!(
    /// How [`ManagedEvent`] refuses, for the annotations of the routes that take it.
    pub ManagerRefusals {
        403 => "Not one of the concert's managers.",
        404 => "No such concert.",
    }
);

/// A signed-in account (401 otherwise) and the concert of the route's `{id}` (404
/// "Concert not found." when there is none), which the account manages (403 with `R`'s
/// words otherwise). A draft is loaded like any concert: only its managers get past.
#[derive(Debug)]
pub struct ManagedEvent<R: Refusal = ManageConcert> {
    pub user: CurrentUser,
    pub event: EventRow,
    refusal: PhantomData<R>,
}

impl<R: Refusal> FromRequestParts<AppState> for ManagedEvent<R> {
    type Rejection = Error;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Error> {
        let user = CurrentUser::from_request_parts(parts, state).await?;
        let Path(ConcertPath { id }) = Path::<ConcertPath>::from_request_parts(parts, state)
            .await
            .map_err(|rejection| rejection_message(rejection.status(), rejection.body_text()))?;
        let event = super::load(state, &id).await?;
        if !super::manage::can_manage(state, user.actor(), &event.project_id).await? {
            return Err(Error::forbidden(R::MSG));
        }
        Ok(Self {
            user,
            event,
            refusal: PhantomData,
        })
    }
}
