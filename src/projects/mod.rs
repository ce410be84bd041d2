//! Artist projects: a band, act or tour with members. Concerts belong to a project and
//! its members are its artists: they manage, sell and stream its concerts.

pub mod store;

use std::collections::HashMap;

use axum::Router;
use axum::extract::{Path, State};
use axum::routing::{delete, get, post};
use serde::{Deserialize, Serialize};

use self::store::ProjectRow;
use crate::accounts::model::Email;
use crate::accounts::store as accounts;
use crate::auth::extract::{CurrentUser, Staff};
use crate::db::iso8601;
use crate::envelope::{Api, JsonBody};
use crate::error::{Error, Result};
use crate::i18n::Msg;
use crate::paging::{Page, Paging};
use crate::state::AppState;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ProjectStatus {
    Active,
    Paused,
    Archived,
}

impl TryFrom<String> for ProjectStatus {
    type Error = String;
    fn try_from(value: String) -> Result<Self, Self::Error> {
        Ok(match value.as_str() {
            "active" => Self::Active,
            "paused" => Self::Paused,
            "archived" => Self::Archived,
            _ => return Err(format!("unknown project status {value:?}")),
        })
    }
}

impl ProjectStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Active => "active",
            Self::Paused => "paused",
            Self::Archived => "archived",
        }
    }
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Member {
    id: String,
    login: String,
    fullname: String,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Project {
    id: String,
    name: String,
    description: String,
    status: ProjectStatus,
    created_at: String,
    members: Vec<Member>,
    event_count: i64,
}

/// The answers for a page of projects: their members and concert counts read in one
/// query each, not one per project.
async fn to_projects(app: &AppState, rows: Vec<ProjectRow>) -> Result<Vec<Project>> {
    let ids: Vec<&str> = rows.iter().map(|r| r.id.as_str()).collect();
    let mut members: HashMap<String, Vec<Member>> = HashMap::new();
    for m in store::members_of(&app.db, &ids).await? {
        members.entry(m.project_id).or_default().push(Member {
            fullname: m.account.display_name(),
            id: m.account.id,
            login: m.account.login,
        });
    }
    let counts: HashMap<String, i64> = store::event_counts(&app.db, &ids)
        .await?
        .into_iter()
        .collect();
    Ok(rows
        .into_iter()
        .map(|row| Project {
            members: members.remove(&row.id).unwrap_or_default(),
            event_count: counts.get(&row.id).copied().unwrap_or(0),
            id: row.id,
            name: row.name,
            description: row.description,
            status: row.status,
            created_at: iso8601(row.created_at),
        })
        .collect())
}

async fn to_project(app: &AppState, row: ProjectRow) -> Result<Project> {
    let mut one = to_projects(app, vec![row]).await?;
    one.pop()
        .ok_or_else(|| Error::internal("a project without its answer"))
}

/// Staff see every project; anyone else the projects they belong to.
async fn visible(app: &AppState, user: &CurrentUser, id: &str) -> Result<ProjectRow> {
    let row = store::by_id(&app.db, id)
        .await?
        .ok_or_else(|| Error::not_found(Msg::ProjectNotFound))?;
    if user.account.role().is_staff() || store::is_member(&app.db, id, &user.account.id).await? {
        Ok(row)
    } else {
        Err(Error::forbidden(Msg::NotProjectMember))
    }
}

async fn list(
    State(app): State<AppState>,
    user: CurrentUser,
    paging: Paging,
) -> Result<Api<Page<Project>>> {
    let member_of = (!user.account.role().is_staff()).then_some(user.account.id.as_str());
    let (rows, total) = store::list(&app.db, member_of, paging).await?;
    Ok(Api::ok(Page::new(
        to_projects(&app, rows).await?,
        total,
        paging,
    )))
}

async fn show(
    State(app): State<AppState>,
    user: CurrentUser,
    Path(id): Path<String>,
) -> Result<Api<Project>> {
    let row = visible(&app, &user, &id).await?;
    Ok(Api::ok(to_project(&app, row).await?))
}

#[derive(Debug, Deserialize)]
struct ProjectInput {
    name: Option<String>,
    description: Option<String>,
    status: Option<ProjectStatus>,
}

fn clean_name(name: &str) -> Result<String> {
    let name = name.trim();
    if name.is_empty() || name.chars().count() > 120 {
        return Err(Error::unprocessable(Msg::ProjectNameLength));
    }
    Ok(name.to_owned())
}

async fn create(
    State(app): State<AppState>,
    Staff(_): Staff,
    JsonBody(input): JsonBody<ProjectInput>,
) -> Result<Api<Project>> {
    let name = clean_name(input.name.as_deref().unwrap_or_default())?;
    let row = store::insert(
        &app.db,
        &name,
        input.description.as_deref().unwrap_or_default(),
        input.status.unwrap_or(ProjectStatus::Active),
    )
    .await?;
    Ok(Api::created(to_project(&app, row).await?))
}

async fn update(
    State(app): State<AppState>,
    Staff(_): Staff,
    Path(id): Path<String>,
    JsonBody(input): JsonBody<ProjectInput>,
) -> Result<Api<Project>> {
    let mut row = store::by_id(&app.db, &id)
        .await?
        .ok_or_else(|| Error::not_found(Msg::ProjectNotFound))?;
    if let Some(name) = &input.name {
        row.name = clean_name(name)?;
    }
    if let Some(description) = input.description {
        row.description = description;
    }
    if let Some(status) = input.status {
        row.status = status;
    }
    app.publish(store::save(&app.db, &row).await?);
    Ok(Api::ok(to_project(&app, row).await?))
}

async fn remove(
    State(app): State<AppState>,
    Staff(_): Staff,
    Path(id): Path<String>,
) -> Result<Api<()>> {
    if !store::event_counts(&app.db, &[&id]).await?.is_empty() {
        return Err(Error::conflict(Msg::ProjectHasConcerts));
    }
    let deleted = store::delete(&app.db, &id)
        .await?
        .ok_or_else(|| Error::not_found(Msg::ProjectNotFound))?;
    app.publish(deleted);
    Ok(Api::ok(()))
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct MemberInput {
    account_id: Option<String>,
    #[serde(alias = "email")]
    login: Option<String>,
}

async fn add_member(
    State(app): State<AppState>,
    Staff(_): Staff,
    Path(id): Path<String>,
    JsonBody(input): JsonBody<MemberInput>,
) -> Result<Api<Project>> {
    let row = store::by_id(&app.db, &id)
        .await?
        .ok_or_else(|| Error::not_found(Msg::ProjectNotFound))?;
    let account = match (&input.account_id, &input.login) {
        (Some(account_id), _) => accounts::by_id(&app.db, account_id).await?,
        (None, Some(login)) => accounts::by_login(&app.db, Email::parse(login)?.as_str()).await?,
        (None, None) => {
            return Err(Error::unprocessable(Msg::NameTheAccount));
        }
    }
    .ok_or_else(|| Error::not_found(Msg::AccountNotFound))?;
    app.publish(store::add_member(&app.db, &id, &account.id).await?);
    Ok(Api::ok(to_project(&app, row).await?))
}

async fn remove_member(
    State(app): State<AppState>,
    Staff(_): Staff,
    Path((id, account_id)): Path<(String, String)>,
) -> Result<Api<Project>> {
    let row = store::by_id(&app.db, &id)
        .await?
        .ok_or_else(|| Error::not_found(Msg::ProjectNotFound))?;
    app.publish(store::remove_member(&app.db, &id, &account_id).await?);
    Ok(Api::ok(to_project(&app, row).await?))
}

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/projects", get(list).post(create))
        .route("/projects/{id}", get(show).put(update).delete(remove))
        .route("/projects/{id}/members", post(add_member))
        .route("/projects/{id}/members/{account_id}", delete(remove_member))
}
