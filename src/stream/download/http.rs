//! `GET /api/v1/events/{id}/recording.m4a?session={token}` (and `recording.flac` for a
//! lossless show): the set to keep, behind the
//! listening session's own signed token (the one in `/stream/{token}/…`), so the same
//! HMAC, the same expiry (the 24-hour window) and the same one-session-per-ticket rule
//! as listening hold; a browser link can carry it where it cannot send a bearer token.

use axum::body::Body;
use axum::extract::{FromRequestParts, Path, Query};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, Request, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use tower::ServiceExt;
use utoipa::IntoParams;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::db::now_ms;
use crate::error::{Error, Result};
use crate::events;
use crate::events::model::{ConcertPath, EventRow, EventStatus};
use crate::i18n::Msg;
use crate::state::AppState;
use crate::stream::access::Denied;
use crate::stream::download::{Kind, recording};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(download_m4a))
        .routes(routes!(download_flac))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
struct Link {
    /// The listening session's token: the `{token}` of its `playlistUrl`
    /// (`/stream/{token}/index.m3u8`).
    session: Option<String>,
}

crate::openapi::failures!(
    /// How a recording link is refused, whichever file it names.
    LinkRefused {
        401 => "No `session`: open the concert's stage for a link.",
        403 => "A tampered or foreign link, the window closed, or a newer session replaced this one.",
        409 => "The show has not ended yet.",
    }
);

/// Download the show's recording after it ended: AAC in MP4 (`.m4a`), the songs
/// (markers) as chapters (Nero `chpl`), the concert's picture as cover art, tags for
/// title, album, artist and date. From the encoder's own AAC when the show has it above
/// the standard rendition, else the standard rendition (128 kbit/s).
///
/// The link is signed: `session` is the token of the holder's listening session
/// (`POST /api/v1/stream/{event_id}/session` answers it inside `playlistUrl`, and
/// `recordingUrl` is this URL whole). It works while that session does: inside the
/// ticket's 24-hour window, and until a newer session on the same ticket replaces it.
/// No `Authorization` header is read. Range requests are answered (`206`); the file is
/// made once per show, on first need, and kept beside the recording until retention
/// deletes both.
#[utoipa::path(get, path = "/events/{id}/recording.m4a", tag = "stream",
    params(ConcertPath, Link),
    responses(
        (status = 200, description = "The file (`Content-Disposition: attachment`).", content_type = "audio/mp4"),
        (status = 206, description = "The requested range of it.", content_type = "audio/mp4"),
        (status = 404, description = "No such concert, or nothing was recorded."),
        LinkRefused))]
async fn download_m4a(link: SignedLink, headers: HeaderMap) -> Result<Response> {
    link.serve(Kind::M4a, &headers).await
}

/// Download a lossless show's recording after it ended: FLAC (`.flac`), the publisher's
/// frames as they were sent (no re-encoding), the songs (markers) as a CUESHEET (a
/// track per song from its first sample) and as `CHAPTERxxx` comments, the concert's
/// picture as the front cover, Vorbis comments for title, album, artist and date.
///
/// The same signed link as `recording.m4a` (the `session` token; `recordingUrl` with
/// `.flac` for `.m4a`), the same window and one-session-per-ticket rule. `404` when the
/// show was not recorded losslessly (the publisher did not send FLAC).
#[utoipa::path(get, path = "/events/{id}/recording.flac", tag = "stream",
    params(ConcertPath, Link),
    responses(
        (status = 200, description = "The file (`Content-Disposition: attachment`).", content_type = "audio/flac"),
        (status = 206, description = "The requested range of it.", content_type = "audio/flac"),
        (status = 404, description = "No such concert, nothing was recorded, or no lossless recording."),
        LinkRefused))]
async fn download_flac(link: SignedLink, headers: HeaderMap) -> Result<Response> {
    link.serve(Kind::Flac, &headers).await
}

/// A concert (not a draft) and a current listening session of it, named by the link.
struct SignedLink {
    app: AppState,
    event: EventRow,
}

impl FromRequestParts<AppState> for SignedLink {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, app: &AppState) -> Result<Self, Response> {
        let Path(id) = Path::<String>::from_request_parts(parts, app)
            .await
            .map_err(IntoResponse::into_response)?;
        let Query(link) = Query::<Link>::from_request_parts(parts, app)
            .await
            .map_err(IntoResponse::into_response)?;
        let event = checked(app, &id, link)
            .await
            .map_err(IntoResponse::into_response)?;
        Ok(Self {
            app: app.clone(),
            event,
        })
    }
}

/// The concert, when the link's session is current and of it: a draft is not found, no
/// token is `401`, anything else wrong with it `403`.
async fn checked(app: &AppState, id: &str, link: Link) -> Result<EventRow> {
    let event = events::load(app, id).await?;
    if event.status == EventStatus::Draft {
        return Err(Error::not_found(Msg::ConcertNotFound));
    }
    let token = link
        .session
        .filter(|t| !t.is_empty())
        .ok_or_else(|| Error::unauthorized(Msg::SetNeedsSession))?;
    let grant = app
        .stream_access
        .verify(&token, now_ms())
        .map_err(|denied| match denied {
            Denied::Invalid => Error::forbidden(Msg::LinkInvalid),
            Denied::Expired => Error::forbidden(Msg::ListeningClosed),
            Denied::Superseded => Error::forbidden(Msg::SetLinkSuperseded),
        })?;
    if grant.event_id != event.id {
        return Err(Error::forbidden(Msg::LinkInvalid));
    }
    Ok(event)
}

impl SignedLink {
    /// The file of `kind`, made on first need.
    async fn serve(self, kind: Kind, headers: &HeaderMap) -> Result<Response> {
        let made = recording(&self.app, &self.event, kind).await?;
        serve(&made.path, &made.file_name, kind.content_type(), headers).await
    }
}

/// The file with ranges, lengths and validators as `ServeFile` answers them, named for
/// saving.
async fn serve(
    path: &std::path::Path,
    file_name: &str,
    content_type: &'static str,
    headers: &HeaderMap,
) -> Result<Response> {
    let mut request = Request::new(Body::empty());
    for name in [
        header::RANGE,
        header::IF_RANGE,
        header::IF_MODIFIED_SINCE,
        header::IF_UNMODIFIED_SINCE,
    ] {
        if let Some(value) = headers.get(&name) {
            request.headers_mut().insert(name, value.clone());
        }
    }
    let answer = tower_http::services::ServeFile::new(path)
        .oneshot(request)
        .await
        .map_err(Error::internal)?;
    let mut response = answer.map(Body::new);
    let map = response.headers_mut();
    map.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    map.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("private, no-store"),
    );
    if let Ok(value) = HeaderValue::from_str(&disposition(file_name)) {
        map.insert(header::CONTENT_DISPOSITION, value);
    }
    Ok(response)
}

/// `attachment` with an ASCII `filename` and the real one in `filename*` (RFC 6266).
fn disposition(name: &str) -> String {
    let ascii: String = name
        .chars()
        .map(|c| {
            if (c.is_ascii_graphic() && c != '"' && c != '\\') || c == ' ' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let mut encoded = String::new();
    for byte in name.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~".contains(&byte) {
            encoded.push(byte as char);
        } else {
            use std::fmt::Write;
            let _ = write!(encoded, "%{byte:02X}");
        }
    }
    format!("attachment; filename=\"{ascii}\"; filename*=UTF-8''{encoded}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_disposition_names_the_file_in_ascii_and_in_utf_8() {
        assert_eq!(
            disposition("Sigur Rós – Live.m4a"),
            "attachment; filename=\"Sigur R_s _ Live.m4a\"; filename*=UTF-8''Sigur%20R%C3%B3s%20%E2%80%93%20Live.m4a"
        );
    }
}
