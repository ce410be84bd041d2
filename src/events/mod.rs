//! Concerts API: the public list and details, and management for staff and for the
//! members of the concert's project (the manage-events page).

pub mod extract;
pub mod image;
pub mod model;
pub mod rules;
pub mod store;

use axum::Router;
use axum::body::Body;
use axum::extract::{DefaultBodyLimit, Multipart, Path, State};
use axum::http::header;
use axum::response::Response;
use axum::routing::{get, post};
use serde::{Deserialize, Serialize};

use self::extract::ManagedEvent;
use self::model::{Event, EventRow, EventStatus};
use crate::auth::extract::{CurrentUser, MaybeUser};
use crate::commerce::{money, refunds};
use crate::db::{iso8601, now_ms};
use crate::envelope::{Api, JsonBody, QueryParams, file_field};
use crate::error::{Error, Result};
use crate::i18n::Msg;
use crate::paging::{Page, Paging};
use crate::projects::store as projects;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/events", get(list).post(create))
        .route("/events/manage", get(managed))
        .route("/events/mine", get(mine))
        .route("/events/{id}", get(show).put(update).delete(remove))
        .route("/events/{id}/publish", post(publish))
        .route("/events/{id}/cancel", post(cancel))
        .route("/events/{id}/sales", get(sales))
        .route("/events/{id}/stream-key", get(stream_key))
        .route("/events/{id}/stream-key/rotate", post(rotate_stream_key))
        .route(
            "/events/{id}/image",
            get(image_file)
                .post(upload_image)
                .layer(DefaultBodyLimit::max(image::MAX_BYTES + 64 * 1024)),
        )
}

pub async fn load(app: &AppState, id: &str) -> Result<EventRow> {
    store::by_id(&app.db, id)
        .await?
        .ok_or_else(|| Error::not_found(Msg::ConcertNotFound))
}

/// Staff manage every concert; project members manage their project's concerts.
pub async fn can_manage(app: &AppState, user: &CurrentUser, project_id: &str) -> Result<bool> {
    Ok(user.account.role().is_staff()
        || projects::is_member(&app.db, project_id, &user.account.id).await?)
}

async fn view(app: &AppState, user: Option<&CurrentUser>, rows: &[EventRow]) -> Result<Vec<Event>> {
    let now = now_ms();
    let owned = match user {
        Some(user) => store::owned_among(&app.db, &user.account.id, rows).await?,
        None => vec![false; rows.len()],
    };
    Ok(rows
        .iter()
        .zip(owned)
        .map(|(row, owned)| Event::from_row(row, owned, now))
        .collect())
}

// ------------------------------------------------------------------------------- reading

#[derive(Debug, Deserialize)]
struct ListQuery {
    search: Option<String>,
}

/// Published, live and recently ended concerts; public (the home page lists them).
async fn list(
    State(app): State<AppState>,
    MaybeUser(user): MaybeUser,
    paging: Paging,
    QueryParams(q): QueryParams<ListQuery>,
) -> Result<Api<Page<Event>>> {
    let (rows, total) = store::list_active(&app.db, q.search.as_deref(), paging).await?;
    let items = view(&app, user.as_ref(), &rows).await?;
    Ok(Api::ok(Page::new(items, total, paging)))
}

/// The signed-in account's concerts (tickets and passes) with their access state, paged:
/// what my-events shows, in one call.
async fn mine(
    State(app): State<AppState>,
    user: CurrentUser,
    paging: Paging,
) -> Result<Api<Page<Event>>> {
    let (rows, total) = store::owned_by(&app.db, &user.account.id, paging).await?;
    let now = now_ms();
    let items = rows
        .iter()
        .map(|row| Event::from_row(row, true, now))
        .collect();
    Ok(Api::ok(Page::new(items, total, paging)))
}

async fn show(
    State(app): State<AppState>,
    MaybeUser(user): MaybeUser,
    Path(id): Path<String>,
) -> Result<Api<Event>> {
    let row = load(&app, &id).await?;
    if row.status == EventStatus::Draft {
        let manager = match &user {
            Some(user) => can_manage(&app, user, &row.project_id).await?,
            None => false,
        };
        if !manager {
            return Err(Error::not_found(Msg::ConcertNotFound));
        }
        // Nobody owns a draft; its image is on a signed URL for its managers.
        return Ok(Api::ok(Event::for_manager(&app.config, &row, now_ms())));
    }
    let mut events = view(&app, user.as_ref(), std::slice::from_ref(&row)).await?;
    Ok(Api::ok(events.remove(0)))
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct ManagedSummary {
    #[serde(flatten)]
    event: Event,
    tickets_sold: i64,
    revenue: i64,
}

/// The manage-events list: every concert for staff, a member's projects' concerts.
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
    let mut out = Vec::with_capacity(rows.len());
    for row in &rows {
        let sales = store::sales(&app.db, &row.id).await?;
        out.push(ManagedSummary {
            event: Event::for_manager(&app.config, row, now),
            tickets_sold: sales.len() as i64,
            revenue: sales.iter().map(|s| s.price_minor).sum(),
        });
    }
    Ok(Api::ok(out))
}

#[derive(Debug, Serialize)]
struct DaySales {
    date: String,
    tickets: i64,
    revenue: i64,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Sales {
    tickets_sold: i64,
    revenue: i64,
    currency: String,
    capacity: Option<i64>,
    per_day: Vec<DaySales>,
}

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
        currency: row.currency,
        capacity: row.capacity,
        per_day,
    }))
}

// ------------------------------------------------------------------------------- writing

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct EventInput {
    project_id: Option<String>,
    title: Option<String>,
    artist_name: Option<String>,
    description: Option<String>,
    starts_at: Option<String>,
    duration_minutes: Option<i64>,
    price: Option<i64>,
    currency: Option<String>,
    /// `null` clears the capacity (unlimited); absent leaves it unchanged.
    #[serde(default, deserialize_with = "present")]
    capacity: Option<Option<i64>>,
}

/// Tell a JSON `null` (Some(None)) from an absent field (None).
fn present<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> std::result::Result<Option<Option<i64>>, D::Error> {
    Option::<i64>::deserialize(d).map(Some)
}

fn parse_start(value: &str) -> Result<i64> {
    use time::format_description::well_known::Rfc3339;
    let parsed = time::OffsetDateTime::parse(value, &Rfc3339)
        .map_err(|_| Error::unprocessable(Msg::StartsAtFormat))?;
    Ok((parsed.unix_timestamp_nanos() / 1_000_000) as i64)
}

fn text(value: &str, field: &str, max: usize) -> Result<String> {
    let value = value.trim();
    if value.is_empty() || value.chars().count() > max {
        return Err(Error::unprocessable(
            Msg::FieldLength.with("field", field).with("max", max),
        ));
    }
    Ok(value.to_owned())
}

/// Apply the input's fields to a row, checking each.
fn apply(row: &mut EventRow, input: &EventInput) -> Result<()> {
    if let Some(title) = &input.title {
        row.title = text(title, "The title", 200)?;
    }
    if let Some(artist) = &input.artist_name {
        row.artist_name = text(artist, "The artist name", 200)?;
    }
    if let Some(description) = &input.description {
        if description.chars().count() > 10_000 {
            return Err(Error::unprocessable(Msg::DescriptionTooLong));
        }
        row.description = description.clone();
    }
    if let Some(start) = &input.starts_at {
        row.starts_at = parse_start(start)?;
    }
    if let Some(minutes) = input.duration_minutes {
        if !(1..=24 * 60).contains(&minutes) {
            return Err(Error::unprocessable(Msg::DurationRange));
        }
        row.duration_minutes = minutes;
    }
    if let Some(price) = input.price {
        row.price_minor = money::check_price(price)?;
    }
    if let Some(currency) = &input.currency {
        row.currency = money::parse_currency(currency)?;
    }
    if let Some(capacity) = input.capacity {
        if capacity.is_some_and(|c| !(1..=1_000_000).contains(&c)) {
            return Err(Error::unprocessable(Msg::CapacityRange));
        }
        row.capacity = capacity;
    }
    Ok(())
}

#[tracing::instrument(skip_all)]
async fn create(
    State(app): State<AppState>,
    user: CurrentUser,
    JsonBody(input): JsonBody<EventInput>,
) -> Result<Api<Event>> {
    let project_id = input
        .project_id
        .clone()
        .ok_or_else(|| Error::unprocessable(Msg::ChooseProject))?;
    projects::by_id(&app.db, &project_id)
        .await?
        .ok_or_else(|| Error::unprocessable(Msg::ProjectMissing))?;
    if !can_manage(&app, &user, &project_id).await? {
        return Err(Error::forbidden(Msg::OnlyManagersCreateConcerts));
    }
    let required = |v: &Option<String>, name: &str| {
        v.clone()
            .ok_or_else(|| Error::unprocessable(Msg::FieldIsRequired.with("field", name)))
    };
    let mut row = EventRow {
        id: String::new(),
        project_id: project_id.clone(),
        title: required(&input.title, "The title")?,
        artist_name: required(&input.artist_name, "The artist name")?,
        description: String::new(),
        starts_at: parse_start(&required(&input.starts_at, "The start time")?)?,
        duration_minutes: 90,
        price_minor: input
            .price
            .ok_or_else(|| Error::unprocessable(Msg::PriceRequired))?,
        currency: "EUR".to_owned(),
        capacity: None,
        seats_taken: 0,
        status: EventStatus::Draft,
        stream_key_hash: None,
        stream_key_hint: None,
        image_type: None,
        image_version: None,
        created_at: 0,
    };
    apply(&mut row, &input)?;
    let created = store::insert(
        &app.db,
        store::NewEvent {
            project_id: &row.project_id,
            title: &row.title,
            artist_name: &row.artist_name,
            description: &row.description,
            starts_at: row.starts_at,
            duration_minutes: row.duration_minutes,
            price_minor: row.price_minor,
            currency: &row.currency,
            capacity: row.capacity,
        },
    )
    .await?;
    Ok(Api::created(Event::for_manager(
        &app.config,
        &created,
        now_ms(),
    )))
}

async fn update(
    State(app): State<AppState>,
    ManagedEvent { user, event, .. }: ManagedEvent,
    JsonBody(input): JsonBody<EventInput>,
) -> Result<Api<Event>> {
    let mut row = event;
    if let Some(refusal) = rules::edit_refusal(&row) {
        return Err(Error::conflict(refusal));
    }
    if let Some(project_id) = &input.project_id
        && *project_id != row.project_id
    {
        if !can_manage(&app, &user, project_id).await? {
            return Err(Error::forbidden(Msg::CannotMoveConcert));
        }
        row.project_id = project_id.clone();
    }
    let sold = store::ticket_count_ever(&app.db, &row.id).await? > 0;
    if let Some(refusal) =
        rules::price_change_refusal(&row, sold, input.price, input.currency.as_deref())
    {
        return Err(Error::conflict(refusal));
    }
    apply(&mut row, &input)?;
    if !store::save(&app.db, &row).await? {
        return Err(Error::conflict(Msg::CapacityBelowSold));
    }
    manager_view(&app, &row.id).await
}

/// The concert as stored now, as its managers see it.
async fn manager_view(app: &AppState, id: &str) -> Result<Api<Event>> {
    let row = load(app, id).await?;
    Ok(Api::ok(Event::for_manager(&app.config, &row, now_ms())))
}

async fn publish(
    State(app): State<AppState>,
    ManagedEvent { event, .. }: ManagedEvent,
) -> Result<Api<Event>> {
    if let Some(refusal) = rules::publish_refusal(&event, now_ms()) {
        return Err(Error::conflict(refusal));
    }
    if !store::set_status(
        &app.db,
        &event.id,
        &[EventStatus::Draft],
        EventStatus::Published,
    )
    .await?
    {
        return Err(Error::conflict(Msg::OnlyDraftPublished));
    }
    manager_view(&app, &event.id).await
}

async fn cancel(
    State(app): State<AppState>,
    ManagedEvent { event, .. }: ManagedEvent,
) -> Result<Api<Event>> {
    let id = &event.id;
    if !store::set_status(
        &app.db,
        id,
        &rules::CANCELLABLE_FROM,
        EventStatus::Cancelled,
    )
    .await?
    {
        return Err(Error::conflict(Msg::EndedOrCancelled));
    }
    // Nobody can pay for it any more; everyone who bought it gets their money back and
    // their access ends.
    crate::commerce::checkout::close_for_cancelled_event(&app, id).await?;
    refunds::refund_event(&app, &event, Msg::ConcertCancelledRefund).await?;
    app.stream_access.revoke_event(id);
    manager_view(&app, id).await
}

async fn remove(
    State(app): State<AppState>,
    ManagedEvent { event, .. }: ManagedEvent,
) -> Result<Api<()>> {
    let sold = store::ticket_count_ever(&app.db, &event.id).await?;
    if let Some(refusal) = rules::delete_refusal(sold) {
        return Err(Error::conflict(refusal));
    }
    store::delete(&app.db, &event.id).await?;
    let _ = tokio::fs::remove_dir_all(image::dir(&app.config.data_dir, &event.id)).await;
    Ok(Api::ok(()))
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct StreamKey {
    /// Only in the answer of a rotation: the key is stored hashed and shown this once.
    #[serde(skip_serializing_if = "Option::is_none")]
    stream_key: Option<String>,
    /// The key's last four characters; `None` before the first rotation makes a key.
    key_hint: Option<String>,
    /// Where an Icecast encoder (ffmpeg, butt, Mixxx) connects; `None` when the
    /// Icecast port is disabled.
    encoder_url: Option<String>,
    /// `PUT` ingest on the HTTP port (chunked bodies: `encore push`, curl).
    push_url: String,
    /// The browser "go live" WebSocket.
    websocket_url: String,
    /// Admits this dashboard's "go live" for a few minutes in place of the key it
    /// cannot show; `None` while the concert has no key.
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

/// The encoder settings, without the key (stored hashed: see `rotate_stream_key`).
async fn stream_key(
    State(app): State<AppState>,
    ManagedEvent { event, .. }: ManagedEvent,
) -> Result<Api<StreamKey>> {
    Ok(Api::ok(StreamKey::new(&app.config, &event, None)))
}

/// A new key, answered this once; the old one stops working for encoders.
async fn rotate_stream_key(
    State(app): State<AppState>,
    ManagedEvent { event, .. }: ManagedEvent,
) -> Result<Api<StreamKey>> {
    let key = store::rotate_stream_key(&app.db, &event.id).await?;
    let row = load(&app, &event.id).await?;
    Ok(Api::ok(StreamKey::new(&app.config, &row, Some(key))))
}

// -------------------------------------------------------------------------------- images

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

#[derive(Debug, Deserialize)]
struct ImageQuery {
    size: Option<String>,
    v: Option<String>,
    exp: Option<String>,
    sig: Option<String>,
}

/// Public, like the concert it illustrates, and cached by version in the URL; a draft's
/// only on the signed URL its managers get (anyone else: 404, as for a missing concert).
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
    let thumb = q.size.as_deref() == Some("thumb");
    let dir = image::dir(&app.config.data_dir, &id);
    let (path, media_type) = if thumb {
        (dir.join("thumb.jpg"), "image/jpeg".to_owned())
    } else {
        (dir.join("image"), media_type)
    };
    let bytes = tokio::fs::read(path)
        .await
        .map_err(|_| Error::not_found(Msg::NoConcertImage))?;
    Response::builder()
        .header(header::CONTENT_TYPE, media_type)
        .header(header::CACHE_CONTROL, cache)
        .header("x-content-type-options", "nosniff")
        .body(Body::from(bytes))
        .map_err(Error::internal)
}
