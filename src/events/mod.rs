//! Concerts API: the public list and details, and management for staff and for the
//! members of the concert's project (the manage-events page).

pub mod calendar;
pub mod edit;
pub mod extract;
pub mod image;
pub mod manage;
pub mod model;
pub mod notices;
pub mod page;
pub mod rules;
pub mod store;
pub mod view;

use std::collections::HashMap;

use axum::body::Body;
use axum::extract::{DefaultBodyLimit, Multipart, Path, State};
use axum::http::header;
use axum::response::Response;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouterExt};
use utoipa_axum::routes;

use self::edit::{EventInput, NewEventInput};
use self::extract::ManagedEvent;
pub use self::manage::can_manage;
use self::model::{ConcertPath, EventRow, EventStatus};
use self::view::Event;
use crate::auth::extract::{CurrentUser, IdRequest, MaybeUser};
use crate::commerce::money;
use crate::commerce::promo::unlock;
use crate::commerce::tiers::model::Tier;
use crate::commerce::tiers::store as tiers;
use crate::db::{iso8601, now_ms};
use crate::envelope::{Api, Envelope, JsonBody, QueryParams, file_field};
use crate::error::{Error, Result};
use crate::i18n::Msg;
use crate::paging::{Page, Paging};
use crate::projects::store as projects;
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list, create))
        .routes(routes!(managed))
        .routes(routes!(mine))
        .routes(routes!(show, update, remove))
        .routes(routes!(publish))
        .routes(routes!(cancel))
        .routes(routes!(sales))
        .routes(routes!(calendar_file))
        .routes(routes!(remind, unremind))
        .routes(routes!(stream_key))
        .routes(routes!(rotate_stream_key))
        .routes(
            routes!(image_file, upload_image)
                .layer(DefaultBodyLimit::max(image::MAX_BYTES + 64 * 1024)),
        )
}

/// Pages outside the API: a concert's shareable page.
pub fn pages() -> axum::Router<AppState> {
    axum::Router::new().route("/concerts/{id}", axum::routing::get(page::concert_page))
}

pub async fn load(app: &AppState, id: &str) -> Result<EventRow> {
    store::by_id(&app.db, id)
        .await?
        .ok_or_else(|| Error::not_found(Msg::ConcertNotFound))
}

async fn view(app: &AppState, user: Option<&CurrentUser>, rows: &[EventRow]) -> Result<Vec<Event>> {
    let now = now_ms();
    let (owned, reminded) = match user {
        Some(user) => (
            store::owned_among(&app.db, &user.account.id, rows).await?,
            store::reminded_among(&app.db, &user.account.id, rows).await?,
        ),
        None => (vec![false; rows.len()], vec![false; rows.len()]),
    };
    Ok(rows
        .iter()
        .zip(owned.into_iter().zip(reminded))
        .map(|(row, (owned, reminded))| {
            Event::from_row(row, owned, now, app.hub.on_air(&row.id)).with_reminder(reminded)
        })
        .collect())
}

// ------------------------------------------------------------------------------- reading

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
struct ListQuery {
    /// Words to find in the title or the artist's name.
    search: Option<String>,
    /// Only this project's concerts (an artist's page).
    project: Option<String>,
}

/// Published, live and recently ended concerts, for everyone (the home page lists them);
/// signed in, each says whether the reader owns it.
#[utoipa::path(get, path = "/events", tag = "events", security((), ("bearer" = [])),
    params(Paging, ListQuery),
    responses((status = 200, description = "A page of concerts.", body = Envelope<Page<Event>>)))]
async fn list(
    State(app): State<AppState>,
    MaybeUser(user): MaybeUser,
    paging: Paging,
    QueryParams(q): QueryParams<ListQuery>,
) -> Result<Api<Page<Event>>> {
    let (rows, total) =
        store::list_active(&app.db, q.search.as_deref(), q.project.as_deref(), paging).await?;
    let items = view(&app, user.as_ref(), &rows).await?;
    Ok(Api::ok(Page::new(items, total, paging)))
}

/// The signed-in account's concerts (tickets and passes) with their access state, paged:
/// what my-events shows, in one call.
#[utoipa::path(get, path = "/events/mine", tag = "events", security(("bearer" = [])),
    params(Paging),
    responses((status = 200, description = "A page of the reader's concerts.", body = Envelope<Page<Event>>)))]
async fn mine(
    State(app): State<AppState>,
    user: CurrentUser,
    paging: Paging,
) -> Result<Api<Page<Event>>> {
    let (rows, total) = store::owned_by(&app.db, &user.account.id, paging).await?;
    let reminded = store::reminded_among(&app.db, &user.account.id, &rows).await?;
    let now = now_ms();
    let items = rows
        .iter()
        .zip(reminded)
        .map(|(row, reminded)| {
            Event::from_row(row, true, now, app.hub.on_air(&row.id)).with_reminder(reminded)
        })
        .collect();
    Ok(Api::ok(Page::new(items, total, paging)))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
struct ShowQuery {
    /// A promo code (any case): the hidden tiers it unlocks are listed too, while it may
    /// be used. An unknown code changes nothing.
    code: Option<String>,
}

/// One concert, for everyone, with its ticket tiers the public may see (`tiers`): the
/// visible ones, and the hidden ones unlocked by the promo code in the reader's cart or
/// named as `code`. A draft only for its managers (staff, its project's members), anyone
/// else gets a 404.
#[utoipa::path(get, path = "/events/{id}", tag = "events", security((), ("bearer" = [])),
    params(ConcertPath, ShowQuery),
    responses((status = 200, description = "The concert.", body = Envelope<Event>)))]
async fn show(
    State(app): State<AppState>,
    MaybeUser(user): MaybeUser,
    Path(id): Path<String>,
    QueryParams(query): QueryParams<ShowQuery>,
) -> Result<Api<Event>> {
    let unlocked = unlock::unlocked_tiers(
        &app.db,
        user.as_ref().map(|u| u.account.id.as_str()),
        query.code.as_deref(),
    )
    .await?;
    let row = load(&app, &id).await?;
    if row.status == EventStatus::Draft {
        let manager = match &user {
            Some(user) => can_manage(&app, user.actor(), &row.project_id).await?,
            None => false,
        };
        if !manager {
            return Err(Error::not_found(Msg::ConcertNotFound));
        }
        // Nobody owns a draft; its image is on a signed URL for its managers.
        let event = Event::for_manager(&app.config, &row, now_ms(), app.hub.on_air(&row.id));
        return Ok(Api::ok(
            event.with_tiers(visible_tiers(&app, &row, &unlocked).await?),
        ));
    }
    let mut events = view(&app, user.as_ref(), std::slice::from_ref(&row)).await?;
    let event = events.remove(0);
    Ok(Api::ok(
        event.with_tiers(visible_tiers(&app, &row, &unlocked).await?),
    ))
}

/// A concert's tiers the reader may see (with the hidden ones among `unlocked`), as they
/// stand now.
async fn visible_tiers(app: &AppState, row: &EventRow, unlocked: &[String]) -> Result<Vec<Tier>> {
    let rows = tiers::of_event(&app.db, &row.id).await?;
    Ok(Tier::visible(&rows, row, now_ms(), unlocked))
}

/// A published concert as an iCalendar file (RFC 5545) for "Add to calendar", for
/// everyone; a draft or unknown concert is 404.
#[utoipa::path(get, path = "/events/{id}/calendar.ics", tag = "events",
    params(ConcertPath),
    responses(
        (status = 200, description = "The concert as a calendar event.", content_type = "text/calendar", body = String),
        (status = 404, description = "No such concert.", body = crate::openapi::Failure),
    ))]
async fn calendar_file(State(app): State<AppState>, Path(id): Path<String>) -> Result<Response> {
    let row = load(&app, &id).await?;
    if row.status == EventStatus::Draft {
        return Err(Error::not_found(Msg::ConcertNotFound));
    }
    let body = calendar::ics(&row, &app.config.public_url, now_ms());
    Response::builder()
        .header(header::CONTENT_TYPE, "text/calendar; charset=utf-8")
        .header(
            header::CONTENT_DISPOSITION,
            format!("attachment; filename=\"concert-{}.ics\"", row.id),
        )
        .header(header::CACHE_CONTROL, "no-cache")
        .body(Body::from(body))
        .map_err(Error::internal)
}

/// A concert fans may follow: published (a draft or unknown one is 404 for everyone).
async fn load_public(app: &AppState, id: &str) -> Result<EventRow> {
    let row = load(app, id).await?;
    if row.status == EventStatus::Draft {
        return Err(Error::not_found(Msg::ConcertNotFound));
    }
    Ok(row)
}

/// "Remind me when doors open": the signed-in reader, ticket or not, is notified when the
/// concert's doors open (15 minutes before its start). Asking again changes nothing; asked
/// once the doors are open, or of an ended or cancelled concert, it is 409.
#[utoipa::path(put, path = "/events/{id}/reminder", tag = "events", security(("bearer" = [])),
    params(ConcertPath),
    responses(
        (status = 200, description = "The concert, `reminder` true.", body = Envelope<Event>),
        (status = 404, description = "No such concert.", body = crate::openapi::Failure),
        (status = 409, description = "Its doors are open already, or it ended or was cancelled.", body = crate::openapi::Failure),
    ))]
async fn remind(IdRequest { app, user, id }: IdRequest) -> Result<Api<Event>> {
    let row = load_public(&app, &id).await?;
    let now = now_ms();
    let phase = model::concert_state(&row, now, app.hub.on_air(&row.id)).phase;
    if let Some(refusal) = rules::reminder_refusal(phase) {
        return Err(Error::conflict(refusal));
    }
    store::add_reminder(&app.db, &user.account.id, &row.id, now).await?;
    let mut events = view(&app, Some(&user), std::slice::from_ref(&row)).await?;
    Ok(Api::ok(events.remove(0)))
}

/// Withdraws the signed-in reader's "Remind me when doors open" (nothing happens if there
/// was none).
#[utoipa::path(delete, path = "/events/{id}/reminder", tag = "events", security(("bearer" = [])),
    params(ConcertPath),
    responses(
        (status = 200, description = "The concert, `reminder` false.", body = Envelope<Event>),
        (status = 404, description = "No such concert.", body = crate::openapi::Failure),
    ))]
async fn unremind(IdRequest { app, user, id }: IdRequest) -> Result<Api<Event>> {
    let row = load_public(&app, &id).await?;
    store::remove_reminder(&app.db, &user.account.id, &row.id).await?;
    let mut events = view(&app, Some(&user), std::slice::from_ref(&row)).await?;
    Ok(Api::ok(events.remove(0)))
}

/// A concert on the manage-events list, with its sales so far.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct ManagedSummary {
    #[serde(flatten)]
    event: Event,
    tickets_sold: i64,
    /// In minor units of the concert's currency.
    revenue: i64,
}

/// The manage-events list: every concert for staff (admin, sa), their projects' concerts
/// for project members; 403 for an account in no project.
#[utoipa::path(get, path = "/events/manage", tag = "events", security(("bearer" = [])),
    responses((status = 200, description = "The concerts the reader manages.", body = Envelope<Vec<ManagedSummary>>)))]
async fn managed(
    State(app): State<AppState>,
    user: CurrentUser,
) -> Result<Api<Vec<ManagedSummary>>> {
    let rows = if user.account.role().is_staff() {
        store::list_managed(&app.db, None).await?
    } else {
        let ids = projects::project_ids_of(&app.db, &user.account.id).await?;
        if ids.is_empty() {
            return Err(Error::forbidden(Msg::OnlyManagersManageConcerts));
        }
        store::list_managed(&app.db, Some(&ids)).await?
    };
    let now = now_ms();
    let ids: Vec<&str> = rows.iter().map(|r| r.id.as_str()).collect();
    let totals: HashMap<String, (i64, i64)> = store::sales_totals(&app.db, &ids)
        .await?
        .into_iter()
        .map(|(id, sold, revenue)| (id, (sold, revenue)))
        .collect();
    let out = rows
        .iter()
        .map(|row| {
            let (tickets_sold, revenue) = totals.get(&row.id).copied().unwrap_or((0, 0));
            ManagedSummary {
                event: Event::for_manager(&app.config, row, now, app.hub.on_air(&row.id)),
                tickets_sold,
                revenue,
            }
        })
        .collect();
    Ok(Api::ok(out))
}

#[derive(Debug, Serialize, ToSchema)]
struct DaySales {
    /// The day (UTC).
    #[schema(format = Date)]
    date: String,
    tickets: i64,
    revenue: i64,
}

/// A concert's ticket sales, in total and per day (UTC), revenue in minor units.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct Sales {
    tickets_sold: i64,
    revenue: i64,
    #[schema(schema_with = money::stored_currency_schema)]
    currency: String,
    #[schema(required = true)]
    capacity: Option<i64>,
    per_day: Vec<DaySales>,
}

/// A concert's ticket sales, for its managers (staff, its project's members).
#[utoipa::path(get, path = "/events/{id}/sales", tag = "events", security(("bearer" = [])),
    params(ConcertPath),
    responses((status = 200, description = "The concert's sales.", body = Envelope<Sales>)))]
async fn sales(
    State(app): State<AppState>,
    ManagedEvent { event: row, .. }: ManagedEvent,
) -> Result<Api<Sales>> {
    let sales = store::sales(&app.db, &row.id).await?;
    let mut per_day: Vec<DaySales> = Vec::new();
    for sale in &sales {
        let date = iso8601(sale.created_at)[..10].to_owned();
        match per_day.last_mut() {
            Some(day) if day.date == date => {
                day.tickets += 1;
                day.revenue += sale.price_minor;
            }
            _ => per_day.push(DaySales {
                date,
                tickets: 1,
                revenue: sale.price_minor,
            }),
        }
    }
    Ok(Api::ok(Sales {
        tickets_sold: sales.len() as i64,
        revenue: sales.iter().map(|s| s.price_minor).sum(),
        currency: row.details.currency,
        capacity: row.details.capacity,
        per_day,
    }))
}

// ------------------------------------------------------------------------------- writing

/// Creates a draft concert in a project, for its managers (staff, the project's members).
#[utoipa::path(post, path = "/events", tag = "events", security(("bearer" = [])),
    request_body = NewEventInput,
    responses((status = 201, description = "The new draft.", body = Envelope<Event>)))]
#[tracing::instrument(skip_all)]
async fn create(
    State(app): State<AppState>,
    user: CurrentUser,
    JsonBody(input): JsonBody<NewEventInput>,
) -> Result<Api<Event>> {
    let created = manage::create(&app, user.actor(), input).await?;
    Ok(Api::created(Event::for_manager(
        &app.config,
        &created,
        now_ms(),
        false,
    )))
}

/// Changes a concert, for its managers; a cancelled one is kept as it was (409), and the
/// price and currency are frozen once a ticket was sold (409).
#[utoipa::path(put, path = "/events/{id}", tag = "events", security(("bearer" = [])),
    params(ConcertPath),
    request_body = EventInput,
    responses(
        (status = 200, description = "The concert as changed.", body = Envelope<Event>),
        (status = 409, description = "Cancelled, the price is frozen, or the capacity is below the seats sold.", body = crate::openapi::Failure),
    ))]
async fn update(
    State(app): State<AppState>,
    ManagedEvent { user, event, .. }: ManagedEvent,
    JsonBody(input): JsonBody<EventInput>,
) -> Result<Api<Event>> {
    let id = event.id.clone();
    manage::update(&app, user.actor(), event, &input).await?;
    manager_view(&app, &id).await
}

/// The concert as stored now, as its managers see it.
async fn manager_view(app: &AppState, id: &str) -> Result<Api<Event>> {
    let row = load(app, id).await?;
    Ok(Api::ok(Event::for_manager(
        &app.config,
        &row,
        now_ms(),
        app.hub.on_air(id),
    )))
}

/// Puts a draft on sale, for its managers, while its access window is still open.
#[utoipa::path(post, path = "/events/{id}/publish", tag = "events", security(("bearer" = [])),
    params(ConcertPath),
    responses(
        (status = 200, description = "The published concert.", body = Envelope<Event>),
        (status = 409, description = "Not a draft, or its access window has closed.", body = crate::openapi::Failure),
    ))]
async fn publish(
    State(app): State<AppState>,
    ManagedEvent { event, .. }: ManagedEvent,
) -> Result<Api<Event>> {
    manage::publish(&app, &event).await?;
    manager_view(&app, &event.id).await
}

/// Cancels a concert, for its managers: open checkouts close, every buyer is refunded and
/// loses access.
#[utoipa::path(post, path = "/events/{id}/cancel", tag = "events", security(("bearer" = [])),
    params(ConcertPath),
    responses(
        (status = 200, description = "The cancelled concert.", body = Envelope<Event>),
        (status = 409, description = "Already ended or cancelled.", body = crate::openapi::Failure),
    ))]
async fn cancel(
    State(app): State<AppState>,
    ManagedEvent { event, .. }: ManagedEvent,
) -> Result<Api<Event>> {
    manage::cancel(&app, &event).await?;
    manager_view(&app, &event.id).await
}

/// Deletes a concert that never sold a ticket, for its managers (one that did is
/// cancelled instead: 409).
#[utoipa::path(delete, path = "/events/{id}", tag = "events", security(("bearer" = [])),
    params(ConcertPath),
    responses(
        (status = 200, description = "Deleted.", body = Envelope<crate::openapi::Nothing>),
        (status = 409, description = "Tickets were sold: cancel it instead.", body = crate::openapi::Failure),
    ))]
async fn remove(
    State(app): State<AppState>,
    ManagedEvent { event, .. }: ManagedEvent,
) -> Result<Api<()>> {
    manage::remove(&app, &event).await?;
    Ok(Api::ok(()))
}

/// Where and how an encoder sends a concert's audio.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct StreamKey {
    /// Only in the answer of a rotation: the key is stored hashed and shown this once.
    #[serde(skip_serializing_if = "Option::is_none")]
    stream_key: Option<String>,
    /// The key's last four characters; `None` before the first rotation makes a key.
    #[schema(required = true)]
    key_hint: Option<String>,
    /// Where an Icecast encoder (ffmpeg, butt, Mixxx) connects; `None` when the
    /// Icecast port is disabled.
    #[schema(required = true)]
    encoder_url: Option<String>,
    /// `PUT` ingest on the HTTP port (chunked bodies: `encore push`, curl).
    push_url: String,
    /// The browser "go live" WebSocket.
    websocket_url: String,
    /// Admits this dashboard's "go live" for a few minutes in place of the key it
    /// cannot show; `None` while the concert has no key.
    #[schema(required = true)]
    go_live_ticket: Option<String>,
}

impl StreamKey {
    fn new(config: &crate::config::Config, row: &EventRow, shown_once: Option<String>) -> Self {
        let event_id = &row.id;
        let public = config.public_url.trim_end_matches('/');
        let host = public
            .split_once("://")
            .map_or(public, |(_, rest)| rest)
            .split(['/', ':'])
            .next()
            .unwrap_or("127.0.0.1");
        Self {
            stream_key: shown_once,
            key_hint: row.stream_key_hint.clone(),
            encoder_url: config
                .ingest_bind
                .map(|bind| format!("icecast://{host}:{}/live/{event_id}", bind.port())),
            push_url: format!("{public}/live/{event_id}"),
            websocket_url: format!(
                "{}/live/{event_id}/ws",
                public
                    .replacen("https://", "wss://", 1)
                    .replacen("http://", "ws://", 1)
            ),
            go_live_ticket: crate::stream::ingest::go_live_ticket(config, row, now_ms()),
        }
    }
}

/// A concert's encoder settings, for its managers, without the key (it is stored hashed
/// and shown only by a rotation).
#[utoipa::path(get, path = "/events/{id}/stream-key", tag = "events", security(("bearer" = [])),
    params(ConcertPath),
    responses((status = 200, description = "The encoder settings.", body = Envelope<StreamKey>)))]
async fn stream_key(
    State(app): State<AppState>,
    ManagedEvent { event, .. }: ManagedEvent,
) -> Result<Api<StreamKey>> {
    Ok(Api::ok(StreamKey::new(&app.config, &event, None)))
}

/// A new stream key for a concert's managers, answered this once; the old one stops
/// working for encoders.
#[utoipa::path(post, path = "/events/{id}/stream-key/rotate", tag = "events", security(("bearer" = [])),
    params(ConcertPath),
    responses((status = 200, description = "The encoder settings with the new key.", body = Envelope<StreamKey>)))]
async fn rotate_stream_key(
    State(app): State<AppState>,
    ManagedEvent { event, .. }: ManagedEvent,
) -> Result<Api<StreamKey>> {
    let key = store::rotate_stream_key(&app.db, &event.id).await?;
    let row = load(&app, &event.id).await?;
    Ok(Api::ok(StreamKey::new(&app.config, &row, Some(key))))
}

// -------------------------------------------------------------------------------- images

/// The multipart form of an image upload.
#[derive(ToSchema)]
#[allow(dead_code)] // a description only: the handler reads the field with `file_field`
struct ImageUpload {
    /// A PNG, JPEG or WebP image of at most 5 MiB.
    #[schema(format = Binary, value_type = String)]
    file: Vec<u8>,
}

/// Sets a concert's image, for its managers: checked, re-encoded, with a thumbnail.
#[utoipa::path(post, path = "/events/{id}/image", tag = "events", security(("bearer" = [])),
    params(ConcertPath),
    request_body(content = inline(ImageUpload), content_type = "multipart/form-data"),
    responses((status = 200, description = "The concert with its new image.", body = Envelope<Event>)))]
async fn upload_image(
    State(app): State<AppState>,
    ManagedEvent { event, .. }: ManagedEvent,
    mut multipart: Multipart,
) -> Result<Api<Event>> {
    let id = &event.id;
    let bytes = file_field(
        &mut multipart,
        image::MAX_BYTES,
        Msg::ImageTooLarge.with("size", 5u32),
    )
    .await?;
    let media_type = image::store(&app.config.data_dir, id, bytes).await?;
    store::set_image(&app.db, id, media_type).await?;
    manager_view(&app, id).await
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
struct ImageQuery {
    /// `thumb` for the thumbnail (a JPEG); anything else or absent: the image.
    size: Option<String>,
    /// The image's version, as in the concert's `image` URL.
    v: Option<String>,
    /// A draft's signed URL: its expiry.
    exp: Option<String>,
    /// A draft's signed URL: its signature.
    sig: Option<String>,
}

/// A concert's image, public like the concert it illustrates and cached by version in
/// the URL; a draft's only on the signed URL its managers get (anyone else: 404, as for a
/// missing concert).
#[utoipa::path(get, path = "/events/{id}/image", tag = "events",
    params(ConcertPath, ImageQuery),
    responses((status = 200, description = "The image (or its thumbnail).", content(
        ("image/png"), ("image/jpeg")))))]
async fn image_file(
    State(app): State<AppState>,
    Path(id): Path<String>,
    QueryParams(q): QueryParams<ImageQuery>,
) -> Result<Response> {
    let row = load(&app, &id).await?;
    let signature = image::Signature {
        v: q.v,
        exp: q.exp,
        sig: q.sig,
    };
    if !image::admits(&app.config, &row, &signature, now_ms()) {
        return Err(Error::not_found(Msg::ConcertNotFound));
    }
    let cache = if image::is_public(&row) {
        "public, max-age=31536000, immutable"
    } else {
        "private, max-age=300"
    };
    let media_type = row
        .image_type
        .clone()
        .ok_or_else(|| Error::not_found(Msg::NoConcertImage))?;
    crate::images::serve(
        &image::dir(&app.config.data_dir, &id),
        &media_type,
        q.size.as_deref() == Some("thumb"),
        cache,
        || Error::not_found(Msg::NoConcertImage),
    )
    .await
}
