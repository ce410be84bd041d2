//! HTTP faces of the live hub: Icecast-compatible ingest (`PUT`/`SOURCE /live/{event}`),
//! listening sessions (`POST /api/v1/stream/{event}/session`), the signed HLS files
//! (`/stream/{token}/…`), and the artist controls (live status, end show).

use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get, post};
use base64::Engine;
use futures_util::StreamExt;
use serde::{Deserialize, Serialize};

use super::access::Denied;
use super::adts::AdtsParser;
use super::hub::{Claim, RECONNECT_GRACE, Status};
use crate::app::AppState;
use crate::auth::extract::CurrentUser;
use crate::db::{iso8601, now_ms};
use crate::envelope::Api;
use crate::error::{Error, Result};
use crate::events::model::{EARLY_ACCESS_MS, EventStatus};
use crate::events::{self, store as events_store};

/// An encoder silent this long is disconnected.
const IDLE_TIMEOUT: Duration = Duration::from_secs(10);

pub fn api_router() -> Router<AppState> {
    Router::new()
        .route("/stream/{event_id}/session", post(open_session))
        .route("/events/{id}/live", get(live_status))
        .route("/events/{id}/end", post(end_show))
}

pub fn pages() -> Router<AppState> {
    Router::new()
        .route("/live/{event_id}", any(ingest))
        .route("/stream/{token}/{file}", get(serve))
}

fn plain(status: StatusCode, text: &'static str) -> Response {
    (status, [(header::CONTENT_TYPE, "text/plain")], text).into_response()
}

/// `PUT` (or Icecast's legacy `SOURCE`) with `source:<stream key>`; the body is the
/// live audio, as long as the encoder sends it.
async fn ingest(
    State(app): State<AppState>,
    Path(event_id): Path<String>,
    method: Method,
    headers: HeaderMap,
    body: Body,
) -> Response {
    if method != Method::PUT && method.as_str() != "SOURCE" {
        return plain(
            StatusCode::METHOD_NOT_ALLOWED,
            "Publish with PUT or SOURCE.\n",
        );
    }
    let Ok(Some(event)) = events_store::by_id(&app.db, &event_id).await else {
        return plain(StatusCode::NOT_FOUND, "No such concert.\n");
    };
    let key = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Basic "))
        .and_then(|v| {
            base64::engine::general_purpose::STANDARD
                .decode(v.trim())
                .ok()
        })
        .and_then(|v| String::from_utf8(v).ok())
        .and_then(|v| v.split_once(':').map(|(_, key)| key.to_owned()));
    if !key.is_some_and(|k| crate::crypto::constant_time_eq(&k, &event.stream_key)) {
        return (
            StatusCode::UNAUTHORIZED,
            [(header::WWW_AUTHENTICATE, "Basic realm=\"Encore\"")],
            "Wrong stream key.\n",
        )
            .into_response();
    }
    if !matches!(event.status(), EventStatus::Published | EventStatus::Live) {
        return plain(
            StatusCode::CONFLICT,
            "This concert is not open for streaming.\n",
        );
    }
    let content_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_ascii_lowercase();
    if ![
        "audio/aac",
        "audio/aacp",
        "audio/x-aac",
        "audio/x-hx-aac-adts",
    ]
    .iter()
    .any(|t| content_type.starts_with(t))
    {
        return plain(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "Send AAC in ADTS (Content-Type: audio/aac).\n",
        );
    }
    let show = app.hub.show(&event_id);
    let publisher = match show.claim() {
        Claim::Granted(id) => id,
        Claim::Busy => {
            return plain(
                StatusCode::CONFLICT,
                "Another encoder is publishing this concert.\n",
            );
        }
        Claim::Ended => return plain(StatusCode::CONFLICT, "This show has ended.\n"),
    };
    let _ = events_store::set_status(
        &app.db,
        &event_id,
        &[EventStatus::Published],
        EventStatus::Live,
    )
    .await;
    tracing::info!(event = %event_id, "publisher connected");

    let mut parser = AdtsParser::new();
    let mut stream = body.into_data_stream();
    loop {
        match tokio::time::timeout(IDLE_TIMEOUT, stream.next()).await {
            Ok(Some(Ok(chunk))) => {
                let frames = parser.push(&chunk);
                match show.feed(publisher, frames, chunk.len()) {
                    Ok(true) => {}
                    Ok(false) => break,
                    Err(err) => {
                        tracing::error!(event = %event_id, error = %err, "writing the recording failed");
                        break;
                    }
                }
            }
            Ok(Some(Err(_)) | None) => break,
            Err(_) => {
                tracing::info!(event = %event_id, "publisher idle; disconnecting");
                break;
            }
        }
    }
    show.release(publisher);
    tracing::info!(event = %event_id, "publisher disconnected");
    // If nobody comes back within the grace period, the show ends.
    let (app2, show2) = (app.clone(), show.clone());
    tokio::spawn(async move {
        tokio::time::sleep(RECONNECT_GRACE + Duration::from_millis(100)).await;
        if show2.abandoned() {
            finish(&app2, &show2).await;
        }
    });
    plain(StatusCode::OK, "Stream ended.\n")
}

async fn finish(app: &AppState, show: &super::hub::Show) {
    if let Err(err) = show.end() {
        tracing::error!(event = %show.event_id, error = %err, "ending the show failed");
    }
    let _ = events_store::set_status(
        &app.db,
        &show.event_id,
        &[EventStatus::Published, EventStatus::Live],
        EventStatus::Ended,
    )
    .await;
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Session {
    playlist_url: String,
    expires_at: String,
}

/// Start listening: a ticket (or covering pass) holder inside [start − 15 min, start + 24 h].
async fn open_session(
    State(app): State<AppState>,
    user: CurrentUser,
    Path(event_id): Path<String>,
) -> Result<Api<Session>> {
    let event = events::load(&app, &event_id).await?;
    let now = now_ms();
    if event.status() == EventStatus::Cancelled {
        return Err(Error::forbidden("This concert was cancelled."));
    }
    if now < event.starts_at - EARLY_ACCESS_MS {
        return Err(Error::forbidden(
            "Listening opens 15 minutes before the concert starts.",
        ));
    }
    if now >= event.access_until() {
        return Err(Error::forbidden(
            "The 24-hour listening window of this concert has closed.",
        ));
    }
    let ticket: Option<(String,)> = sqlx::query_as(
        "SELECT id FROM tickets WHERE account_id = $1 AND event_id = $2 AND revoked_at IS NULL",
    )
    .bind(&user.account.id)
    .bind(&event_id)
    .fetch_optional(&app.db)
    .await?;
    let holder = match ticket {
        Some((id,)) => id,
        None => {
            let pass: Option<(String,)> = sqlx::query_as(
                "SELECT id FROM passes WHERE account_id = $1 AND revoked_at IS NULL \
                 AND valid_from <= $2 AND valid_until > $2",
            )
            .bind(&user.account.id)
            .bind(event.starts_at)
            .fetch_optional(&app.db)
            .await?;
            let (pass,) =
                pass.ok_or_else(|| Error::forbidden("You need a ticket for this concert."))?;
            format!("pass:{pass}:{event_id}")
        }
    };
    let (_, token) = app
        .stream_access
        .open(&event_id, &holder, event.access_until());
    Ok(Api::ok(Session {
        playlist_url: format!("/stream/{token}/index.m3u8"),
        expires_at: iso8601(event.access_until()),
    }))
}

#[derive(Debug, Deserialize)]
struct HlsQuery {
    #[serde(rename = "_HLS_msn")]
    msn: Option<u64>,
    #[serde(rename = "_HLS_part")]
    part: Option<u32>,
    #[serde(rename = "_HLS_skip")]
    skip: Option<String>,
}

/// What a file name under `/stream/{token}/` may be.
enum Asset {
    Playlist,
    Init,
    Segment(u64),
    Part(u64, u32),
}

fn asset(name: &str) -> Option<Asset> {
    match name {
        "index.m3u8" => return Some(Asset::Playlist),
        "init.mp4" => return Some(Asset::Init),
        _ => {}
    }
    let stem = name.strip_prefix("seg")?.strip_suffix(".m4s")?;
    match stem.split_once('.') {
        Some((msn, part)) => Some(Asset::Part(msn.parse().ok()?, part.parse().ok()?)),
        None => Some(Asset::Segment(stem.parse().ok()?)),
    }
}

fn forbidden() -> Response {
    // No bytes at all for anyone without a valid, current session.
    StatusCode::FORBIDDEN.into_response()
}

async fn serve(
    State(app): State<AppState>,
    Path((token, file)): Path<(String, String)>,
    Query(q): Query<HlsQuery>,
) -> Response {
    let grant = match app.stream_access.verify(&token, now_ms()) {
        Ok(grant) => grant,
        Err(Denied::Invalid | Denied::Expired | Denied::Superseded) => return forbidden(),
    };
    let Some(asset) = asset(&file) else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let show = app.hub.show(&grant.event_id);
    match asset {
        Asset::Playlist => {
            if let Some(msn) = q.msn {
                let timeout = Duration::from_secs(3 * show.target_duration().max(1));
                if !show.wait_for(msn, q.part, timeout).await {
                    return StatusCode::SERVICE_UNAVAILABLE.into_response();
                }
            }
            let skip = q.skip.as_deref() == Some("YES") || q.skip.as_deref() == Some("v2");
            match show.playlist(skip) {
                Some(text) => (
                    [
                        (header::CONTENT_TYPE, "application/vnd.apple.mpegurl"),
                        (header::CACHE_CONTROL, "no-cache"),
                    ],
                    text.to_string(),
                )
                    .into_response(),
                // The artist has not started yet: players retry until the stream appears.
                None => StatusCode::NOT_FOUND.into_response(),
            }
        }
        Asset::Init => media(&show, "init.mp4").await,
        Asset::Segment(msn) => media(&show, &format!("seg{msn}.m4s")).await,
        Asset::Part(msn, part) => {
            // A hinted part is answered as soon as it exists (blocking preload).
            let timeout = Duration::from_secs(3 * show.target_duration().max(1));
            show.wait_for(msn, Some(part), timeout).await;
            media(&show, &super::segmenter::part_file(msn, part)).await
        }
    }
}

async fn media(show: &super::hub::Show, name: &str) -> Response {
    match tokio::fs::read(show.dir().join(name)).await {
        Ok(bytes) => (
            [
                (header::CONTENT_TYPE, "audio/mp4"),
                (header::CACHE_CONTROL, "private, max-age=86400"),
            ],
            bytes,
        )
            .into_response(),
        Err(_) => StatusCode::NOT_FOUND.into_response(),
    }
}

async fn live_status(
    State(app): State<AppState>,
    user: CurrentUser,
    Path(id): Path<String>,
) -> Result<Api<Status>> {
    let event = events::load(&app, &id).await?;
    if !events::can_manage(&app, &user, &event.project_id).await? {
        return Err(Error::forbidden(
            "Only administrators and the project's artists see this.",
        ));
    }
    Ok(Api::ok(app.hub.show(&id).status()))
}

async fn end_show(
    State(app): State<AppState>,
    user: CurrentUser,
    Path(id): Path<String>,
) -> Result<Api<Status>> {
    let event = events::load(&app, &id).await?;
    if !events::can_manage(&app, &user, &event.project_id).await? {
        return Err(Error::forbidden(
            "Only administrators and the project's artists end a show.",
        ));
    }
    let show = app.hub.show(&id);
    finish(&app, &show).await;
    Ok(Api::ok(show.status()))
}
