//! Artist projects: a band, act or tour with members. Concerts belong to a project and
//! its members are its artists: they manage, sell and stream its concerts.

pub mod access;
pub mod artist;
pub mod store;

use std::collections::HashMap;

use axum::extract::{DefaultBodyLimit, Multipart, Path, State};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouterExt};
use utoipa_axum::routes;

use self::access::{ProjectPath, member_project};
use self::store::ProjectRow;
use crate::accounts::model::Email;
use crate::accounts::store as accounts;
use crate::auth::extract::{CurrentUser, IdRequest, Staff};
use crate::db::iso8601;
use crate::envelope::{Api, Envelope, JsonBody, file_field};
use crate::error::{Error, Result};
use crate::i18n::Msg;
use crate::paging::{Page, Paging};
use crate::state::AppState;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
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

/// A member of a project: an account that manages its concerts.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Member {
    /// The account's id.
    id: String,
    login: String,
    fullname: String,
}

/// A project (a band, act or tour) with its members.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Project {
    id: String,
    name: String,
    description: String,
    status: ProjectStatus,
    #[schema(format = DateTime)]
    created_at: String,
    members: Vec<Member>,
    event_count: i64,
    /// The artist's picture (public, on the artist's page); `null` without one.
    #[schema(required = true)]
    image: Option<String>,
    /// The picture's thumbnail (a JPEG, 480 pixels wide); `null` without one.
    #[schema(required = true)]
    thumbnail: Option<String>,
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
        .map(|row| {
            let (image, thumbnail) = artist::picture_urls(&row);
            Project {
                members: members.remove(&row.id).unwrap_or_default(),
                event_count: counts.get(&row.id).copied().unwrap_or(0),
                id: row.id,
                name: row.name,
                description: row.description,
                status: row.status,
                created_at: iso8601(row.created_at),
                image,
                thumbnail,
            }
        })
        .collect())
}

async fn to_project(app: &AppState, row: ProjectRow) -> Result<Project> {
    let mut one = to_projects(app, vec![row]).await?;
    one.pop()
        .ok_or_else(|| Error::internal("a project without its answer"))
}

/// Every project for staff (admin, sa); the projects they belong to for anyone else.
#[utoipa::path(get, path = "/projects", tag = "projects", security(("bearer" = [])),
    params(Paging),
    responses((status = 200, description = "A page of projects.", body = Envelope<Page<Project>>)))]
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

/// One project, for staff and for its members.
#[utoipa::path(get, path = "/projects/{id}", tag = "projects", security(("bearer" = [])),
    params(ProjectPath),
    responses((status = 200, description = "The project.", body = Envelope<Project>)))]
async fn show(IdRequest { app, user, id }: IdRequest) -> Result<Api<Project>> {
    let row = member_project(&app, &user, &id).await?;
    Ok(Api::ok(to_project(&app, row).await?))
}

/// Changes to a project: an absent or `null` field is left as it is.
#[derive(Debug, Deserialize, ToSchema)]
struct ProjectInput {
    /// 1–120 characters, not only spaces; unique among projects.
    #[schema(min_length = 1, max_length = 120, pattern = r"\S")]
    name: Option<String>,
    description: Option<String>,
    status: Option<ProjectStatus>,
}

/// A new project: what [`ProjectInput`] reads, with the name required (its own type so
/// that the document says so; the handler still refuses a missing name in its words).
#[derive(Debug, Deserialize, ToSchema)]
struct NewProjectInput {
    /// 1–120 characters, not only spaces; unique among projects.
    #[schema(value_type = String, min_length = 1, max_length = 120, pattern = r"\S")]
    name: Option<String>,
    /// Empty when absent.
    description: Option<String>,
    /// `active` when absent.
    status: Option<ProjectStatus>,
}

fn clean_name(name: &str) -> Result<String> {
    let name = name.trim();
    if name.is_empty() || name.chars().count() > 120 {
        return Err(Error::unprocessable(Msg::ProjectNameLength));
    }
    Ok(name.to_owned())
}

/// Creates a project, for staff (admin, sa).
#[utoipa::path(post, path = "/projects", tag = "projects", security(("bearer" = [])),
    request_body = NewProjectInput,
    responses(
        (status = 201, description = "The new project.", body = Envelope<Project>),
        (status = 409, description = "Another project has this name.", body = crate::openapi::Failure),
    ))]
async fn create(
    State(app): State<AppState>,
    Staff(_): Staff,
    JsonBody(input): JsonBody<NewProjectInput>,
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

/// Changes a project's name, description or status, for staff (admin, sa).
#[utoipa::path(put, path = "/projects/{id}", tag = "projects", security(("bearer" = [])),
    params(ProjectPath),
    request_body = ProjectInput,
    responses(
        (status = 200, description = "The project as changed.", body = Envelope<Project>),
        (status = 409, description = "Another project has this name.", body = crate::openapi::Failure),
    ))]
async fn update(
    IdRequest { app, id, .. }: IdRequest<Staff>,
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

/// Deletes a project without concerts, for staff (admin, sa).
#[utoipa::path(delete, path = "/projects/{id}", tag = "projects", security(("bearer" = [])),
    params(ProjectPath),
    responses(
        (status = 200, description = "Deleted.", body = Envelope<crate::openapi::Nothing>),
        (status = 409, description = "The project still has concerts.", body = crate::openapi::Failure),
    ))]
async fn remove(IdRequest { app, id, .. }: IdRequest<Staff>) -> Result<Api<()>> {
    if !store::event_counts(&app.db, &[&id]).await?.is_empty() {
        return Err(Error::conflict(Msg::ProjectHasConcerts));
    }
    let deleted = store::delete(&app.db, &id)
        .await?
        .ok_or_else(|| Error::not_found(Msg::ProjectNotFound))?;
    app.publish(deleted);
    // Its picture goes with it (a missing folder is nothing to undo).
    let _ = tokio::fs::remove_dir_all(artist::picture_dir(&app.config.data_dir, &id)).await;
    Ok(Api::ok(()))
}

/// The account to add, by id or by login (e-mail); the id wins when both are given.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct MemberInput {
    account_id: Option<String>,
    #[serde(alias = "email")]
    login: Option<String>,
}

/// Written by hand: one of the two fields is required, which a derive cannot say.
impl utoipa::PartialSchema for MemberInput {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{
            AnyOfBuilder, KnownFormat, ObjectBuilder, SchemaFormat, SchemaType, Type,
        };
        let field = |required: bool, format: Option<KnownFormat>, description: &str| {
            let types = if required {
                SchemaType::new(Type::String)
            } else {
                SchemaType::from_iter([Type::String, Type::Null])
            };
            ObjectBuilder::new()
                .schema_type(types)
                .format(format.map(SchemaFormat::KnownFormat))
                .description(Some(description))
        };
        let naming = |by_id: bool| {
            ObjectBuilder::new()
                .property(
                    "accountId",
                    field(by_id, None, "The account's id; wins over `login`."),
                )
                .property(
                    "login",
                    field(
                        !by_id,
                        Some(KnownFormat::Email),
                        "The account's login, an e-mail address (also read as `email`).",
                    ),
                )
                .required(if by_id { "accountId" } else { "login" })
        };
        AnyOfBuilder::new()
            .item(naming(true))
            .item(naming(false))
            .description(Some(
                "The account to add, by id or by login (e-mail); the id wins when both are given.",
            ))
            .into()
    }
}

impl ToSchema for MemberInput {}

/// Adds an account to a project's members, for staff (admin, sa).
#[utoipa::path(post, path = "/projects/{id}/members", tag = "projects", security(("bearer" = [])),
    params(ProjectPath),
    request_body = MemberInput,
    responses((status = 200, description = "The project with its members.", body = Envelope<Project>)))]
async fn add_member(
    IdRequest { app, id, .. }: IdRequest<Staff>,
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

/// Removes an account from a project's members, for staff (admin, sa).
#[utoipa::path(delete, path = "/projects/{id}/members/{account_id}", tag = "projects", security(("bearer" = [])),
    params(ProjectPath,
        ("account_id" = String, Path, description = "The member's account id")),
    responses((status = 200, description = "The project with its members.", body = Envelope<Project>)))]
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

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list, create))
        .routes(routes!(show, update, remove))
        .routes(routes!(add_member))
        .routes(routes!(remove_member))
        .routes(routes!(upload_image).layer(DefaultBodyLimit::max(PICTURE_MAX_BYTES + 64 * 1024)))
        .routes(routes!(artist::artist))
        .routes(routes!(artist::artist_picture))
}

/// Pages outside the API: an artist's shareable page.
pub fn pages() -> axum::Router<AppState> {
    axum::Router::new().route("/artists/{id}", axum::routing::get(artist::page))
}

// ------------------------------------------------------------------------------ picture

const PICTURE_MAX_BYTES: usize = 5 * 1024 * 1024;

/// The multipart form of a picture upload.
#[derive(ToSchema)]
#[allow(dead_code)] // a description only: the handler reads the field with `file_field`
struct PictureUpload {
    /// A PNG, JPEG or WebP image of at most 5 MiB and 4096×4096 pixels; re-encoded.
    #[schema(format = Binary, value_type = String)]
    file: Vec<u8>,
}

/// Sets the artist's picture (shown on its public page), for its members and staff:
/// checked, re-encoded, with a thumbnail.
#[utoipa::path(post, path = "/projects/{id}/image", tag = "projects", security(("bearer" = [])),
    params(ProjectPath),
    request_body(content = inline(PictureUpload), content_type = "multipart/form-data"),
    responses((status = 200, description = "The project with its new picture.", body = Envelope<Project>)))]
async fn upload_image(
    IdRequest { app, user, id }: IdRequest,
    mut multipart: Multipart,
) -> Result<Api<Project>> {
    member_project(&app, &user, &id).await?;
    let bytes = file_field(
        &mut multipart,
        PICTURE_MAX_BYTES,
        Msg::ImageTooLarge.with("size", 5u32),
    )
    .await?;
    let folder = artist::picture_dir(&app.config.data_dir, &id);
    let media_type = crate::images::store_with_thumbnail(folder, bytes).await?;
    store::set_image(&app.db, &id, media_type).await?;
    let row = member_project(&app, &user, &id).await?;
    Ok(Api::ok(to_project(&app, row).await?))
}
