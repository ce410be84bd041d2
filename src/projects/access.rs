//! Who may act on a project as its own: staff on every project, an account on the
//! projects it is a member of. Its pages, statements, payout account and bank details
//! all ask the same question.

use super::store::{self, ProjectRow};
use crate::auth::extract::CurrentUser;
use crate::error::{Error, Result};
use crate::i18n::Msg;
use crate::state::AppState;

/// The `{id}` of a project's routes, for their annotations (`params(ProjectPath)`); the
/// handlers read the segment as a plain `String` ([`IdRequest`](crate::auth::extract::IdRequest)).
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Path)]
#[allow(dead_code)] // a description only
pub struct ProjectPath {
    /// The project's id
    id: String,
}

/// The project of `id` when the user is staff or one of its members: 404 when there is
/// no such project, 403 when it is someone else's.
pub async fn member_project(app: &AppState, user: &CurrentUser, id: &str) -> Result<ProjectRow> {
    let row = store::by_id(&app.db, id)
        .await?
        .ok_or_else(|| Error::not_found(Msg::ProjectNotFound))?;
    if user.account.role().is_staff() || store::is_member(&app.db, id, &user.account.id).await? {
        Ok(row)
    } else {
        Err(Error::forbidden(Msg::NotProjectMember))
    }
}
