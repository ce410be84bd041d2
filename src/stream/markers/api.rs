//! The markers API: a show's list for its managers and its ticket holders (within their
//! listening window); adding, editing and deleting for its managers.

use axum::extract::{Path, State};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{Addition, Edit, Marker, Source};
use crate::auth::extract::IdRequest;
use crate::db::iso8601;
use crate::envelope::{Api, Envelope, JsonBody};
use crate::error::{Error, Result};
use crate::events;
use crate::events::extract::{ManagedEvent, Refusal};
use crate::events::model::{ConcertPath, EventStatus};
use crate::i18n::Msg;
use crate::state::AppState;
use crate::stream::access::sessions;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list, add))
        .routes(routes!(edit, remove))
}

/// The 403 words of changing markers.
#[derive(Debug)]
struct EditMarkers;

impl Refusal for EditMarkers {
    const MSG: Msg = Msg::OnlyManagersEditMarkers;
}

/// A marker: what was playing from when, on the show's timeline.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = Marker)]
struct MarkerView {
    id: String,
    /// Milliseconds from the show's first sample (the replay's position).
    at_ms: i64,
    /// At most 255 characters, no control characters.
    title: String,
    artist: Option<String>,
    source: Source,
    #[schema(format = DateTime)]
    created_at: String,
    #[schema(format = DateTime)]
    updated_at: String,
}

impl From<Marker> for MarkerView {
    fn from(m: Marker) -> Self {
        Self {
            id: m.id,
            at_ms: m.at_ms,
            title: m.title,
            artist: m.artist,
            source: m.source,
            created_at: iso8601(m.created_at),
            updated_at: iso8601(m.updated_at),
        }
    }
}

/// A marker added by hand.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct MarkerInput {
    /// Cleaned of control characters and extra white space; 1 to 255 characters.
    title: String,
    #[serde(default)]
    artist: Option<String>,
    /// Milliseconds from the show's first sample, within what is recorded; by default
    /// the live position now.
    #[serde(default)]
    at_ms: Option<i64>,
}

/// A marker's changes: only the fields given change (`artist: null` removes it).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct MarkerChanges {
    #[serde(default)]
    title: Option<String>,
    #[serde(default, deserialize_with = "present")]
    artist: Option<Option<String>>,
    #[serde(default)]
    at_ms: Option<i64>,
}

/// A field that is present (even as `null`) is `Some`.
fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Option<String>>, D::Error> {
    Option::<String>::deserialize(d).map(Some)
}

#[derive(Deserialize)]
struct MarkerPath {
    id: String,
    marker_id: String,
}

/// A show's markers in timeline order: for its managers, and for a ticket (or pass)
/// holder within the listening window.
#[utoipa::path(get, path = "/events/{id}/markers", tag = "stream", security(("bearer" = [])),
    params(ConcertPath),
    responses(
        (status = 200, description = "The markers, oldest position first.", body = Envelope<Vec<MarkerView>>),
        sessions::ListenerRefusals))]
async fn list(IdRequest { app, user, id }: IdRequest) -> Result<Api<Vec<MarkerView>>> {
    let event = events::load(&app, &id).await?;
    if !events::can_manage(&app, user.actor(), &event.project_id).await? {
        if event.status == EventStatus::Draft {
            return Err(Error::not_found(Msg::ConcertNotFound));
        }
        sessions::admit(&app.db, &user.account.id, &event, app.hub.on_air(&event.id)).await?;
    }
    let markers = super::list(&app, &event.id).await?;
    Ok(Api::ok(markers.into_iter().map(MarkerView::from).collect()))
}

/// Add a marker (a song title), for the concert's managers: at `atMs`, or at the live
/// position now. The show must have audio recorded.
#[utoipa::path(post, path = "/events/{id}/markers", tag = "stream", security(("bearer" = [])),
    params(ConcertPath),
    request_body = MarkerInput,
    responses(
        (status = 201, description = "The marker.", body = Envelope<MarkerView>),
        (status = 409, description = "Nothing recorded yet, or the show has its 500 markers.", body = crate::openapi::Failure),
        (status = 422, description = "An empty or too long title or artist, or a time outside the recording.", body = crate::openapi::Failure)))]
async fn add(
    State(app): State<AppState>,
    ManagedEvent { event, .. }: ManagedEvent<EditMarkers>,
    JsonBody(input): JsonBody<MarkerInput>,
) -> Result<Api<MarkerView>> {
    let marker = super::add(
        &app,
        &event.id,
        Addition {
            title: input.title,
            artist: input.artist,
            at_ms: input.at_ms,
        },
    )
    .await?;
    Ok(Api::created(marker.into()))
}

/// Change a marker's title, artist or time, for the concert's managers. Players see the
/// change in their next playlist.
#[utoipa::path(put, path = "/events/{id}/markers/{marker_id}", tag = "stream", security(("bearer" = [])),
    params(ConcertPath,
        ("marker_id" = String, Path, description = "The marker's id")),
    request_body = MarkerChanges,
    responses(
        (status = 200, description = "The marker as changed.", body = Envelope<MarkerView>),
        (status = 404, description = "No such concert or marker.", body = crate::openapi::Failure),
        (status = 422, description = "An empty or too long title or artist, or a time outside the recording.", body = crate::openapi::Failure)))]
async fn edit(
    State(app): State<AppState>,
    ManagedEvent { event, .. }: ManagedEvent<EditMarkers>,
    Path(path): Path<MarkerPath>,
    JsonBody(input): JsonBody<MarkerChanges>,
) -> Result<Api<MarkerView>> {
    debug_assert_eq!(path.id, event.id);
    let marker = super::edit(
        &app,
        &event.id,
        &path.marker_id,
        Edit {
            title: input.title,
            artist: input.artist,
            at_ms: input.at_ms,
        },
    )
    .await?;
    Ok(Api::ok(marker.into()))
}

/// Delete a marker, for the concert's managers.
#[utoipa::path(delete, path = "/events/{id}/markers/{marker_id}", tag = "stream", security(("bearer" = [])),
    params(ConcertPath,
        ("marker_id" = String, Path, description = "The marker's id")),
    responses(
        (status = 200, description = "Deleted.", body = Envelope<crate::openapi::Nothing>),
        (status = 404, description = "No such concert or marker.", body = crate::openapi::Failure)))]
async fn remove(
    State(app): State<AppState>,
    ManagedEvent { event, .. }: ManagedEvent<EditMarkers>,
    Path(path): Path<MarkerPath>,
) -> Result<Api<()>> {
    super::delete(&app, &event.id, &path.marker_id).await?;
    Ok(Api::ok(()))
}
