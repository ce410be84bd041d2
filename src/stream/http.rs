//! HTTP faces of the live hub: Icecast-compatible ingest (`PUT`/`SOURCE /live/{event}`),
//! browser go-live, listening sessions (`POST /api/v1/stream/{event}/session`) and the
//! artist controls (live status, end show). The signed HLS files are in `files`.

use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get};
use futures_util::{SinkExt, StreamExt};
use serde::{Deserialize, Serialize};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::auth::extract::CurrentUser;
use crate::db::iso8601;
use crate::envelope::{Api, Envelope};
use crate::error::{Error, Result};
use crate::events;
use crate::events::extract::{ManagedEvent, Refusal};
use crate::events::model::{ConcertPath, EventIdPath, EventStatus};
use crate::i18n::Msg;
use crate::net::websocket::{NoHello, Pending, Upgrade};
use crate::state::AppState;
use crate::stream::show::hub::Status;
use crate::stream::{access::sessions, download, ingest};

pub fn api_router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(open_session, session_status))
        .routes(routes!(live_status))
        .routes(routes!(end_show))
}

pub fn pages() -> Router<AppState> {
    Router::new()
        .route("/live/{event_id}", any(ingest))
        .route("/live/{event_id}/ws", get(go_live))
        .route("/admin/metadata", get(metadata))
}

/// Set the song now playing, as encoders do with Icecast (`ezstream`, liquidsoap,
/// butt, Mixxx): the title becomes a marker of the live show at the live position.
///
/// `mount` is `/live/{event_id}`; `song` is the title (or `title` and `artist` apart);
/// `charset` names the titles' encoding (UTF-8 by default, Latin-1 for bytes that are not
/// UTF-8). HTTP Basic with the user `source` and the concert's stream key; accepted only
/// while an encoder publishes the show. Titles are cleaned of control characters and
/// newlines and cut to 255 characters; at most one a second per show is kept. Answers are
/// Icecast's (XML on success, its HTML error page otherwise), never the API's envelope;
/// the Icecast source port answers the same call the same way.
#[utoipa::path(get, path = "/admin/metadata", tag = "stream", security(("basic" = [])),
    params(
        ("mode" = String, Query, description = "`updinfo`"),
        ("mount" = String, Query, description = "`/live/{event_id}`"),
        ("song" = Option<String>, Query, description = "The title now playing"),
        ("title" = Option<String>, Query, description = "The title, when sent apart from the artist (preferred to `song`)"),
        ("artist" = Option<String>, Query, description = "The artist, with `title`"),
        ("charset" = Option<String>, Query, description = "`UTF-8` (default) or `ISO-8859-1`")),
    responses(
        (status = 200, description = "`<iceresponse>`: `Metadata update successful` (return 1), or `No such action` (return 0) for another `mode`.", content_type = "text/xml"),
        (status = 400, description = "`Source does not exist` (nobody publishing the concert), `Missing parameter` (no mount, mode or title), or the show holds its 500 markers.", content_type = "text/html"),
        (status = 401, description = "No stream key, the wrong one, or no such concert (answered alike).", content_type = "text/html"),
        (status = 429, description = "A title was kept less than a second ago: this one is refused, not queued (`Retry-After: 1`).", content_type = "text/html")))]
async fn metadata(
    State(app): State<AppState>,
    uri: axum::http::Uri,
    headers: HeaderMap,
) -> Response {
    let authorization = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok());
    let answer =
        crate::stream::ingest::metadata::answer(&app, uri.query().unwrap_or(""), authorization)
            .await;
    let mut response = (
        answer.status(),
        [(header::CONTENT_TYPE, answer.content_type())],
        answer.body(),
    )
        .into_response();
    for (name, value) in answer.headers() {
        if let Ok(name) = axum::http::HeaderName::from_bytes(name.as_bytes()) {
            response
                .headers_mut()
                .insert(name, HeaderValue::from_static(value));
        }
    }
    response
}

fn plain(status: StatusCode, text: &'static str) -> Response {
    (status, [(header::CONTENT_TYPE, "text/plain")], text).into_response()
}

/// Publish a concert's live audio from an encoder (the artist's, with the stream key).
///
/// The body is the audio as it is recorded, sent chunked for as long as the show lasts
/// (`encore push`, ffmpeg, Icecast clients). AAC in ADTS is packaged as it is; MP3,
/// Opus or AAC in WebM, Ogg or MP4 are transcoded to AAC. The concert must be published
/// or live, and one publisher at a time holds it. Icecast's legacy `SOURCE` method is
/// accepted like `PUT`; `POST` and other methods are refused (405). Encoders that
/// speak raw Icecast use the separate Icecast port instead.
///
/// Every answer is one line of plain text, not the API's envelope; a wrong key is
/// answered with the Basic challenge (`WWW-Authenticate: Basic realm="Encore"`).
///
/// **Browser go-live, `GET /live/{event_id}/ws`** (a WebSocket; OpenAPI cannot type its
/// messages). The client's first message is text, JSON
/// `{"ticket": "<go-live ticket from the live panel>", "mimeType": "audio/webm;codecs=opus"}`
/// (or `"key": "<stream key>"` instead of `ticket`), within 10 seconds. The server
/// answers `{"type": "live", "takesLossless": true}` (`false` for a show under way that
/// began without a lossless rendition: lossless audio is heard in its AAC renditions only)
/// and the client then sends the MediaRecorder's chunks as
/// binary messages (at most 1 MiB each) until it closes the socket. The server ends the
/// conversation with `{"type": "ended"}` when the artist ends the show, or
/// `{"type": "error", "status": <HTTP-like status>, "message": "<why>"}` (the same
/// refusals as here: 400 no hello, 401, 404, 409, 413, 415; 422 undecodable audio; 408
/// no audio for a while), then closes.
#[utoipa::path(put, path = "/live/{event_id}", tag = "stream", security(("basic" = [])),
    params(EventIdPath),
    request_body(description = "The live audio, streamed.", content(
        ("audio/aac"), ("audio/mpeg"), ("audio/webm"), ("audio/ogg"), ("audio/mp4"))),
    responses(
        (status = 200, description = "The encoder stopped (`Stream ended.`) or the artist ended the show (`The show has ended.`).", content_type = "text/plain"),
        (status = 401, description = "No stream key, the wrong one, or no such concert (answered alike, so that an id tells nothing without its key).", content_type = "text/plain"),
        (status = 409, description = "The concert is not published, another publisher holds it, or the show has ended.", content_type = "text/plain"),
        (status = 413, description = "The show's recording quota is used up.", content_type = "text/plain"),
        (status = 415, description = "A `Content-Type` that is not audio Encore reads, or audio it cannot decode.", content_type = "text/plain"),
        (status = 429, description = "The concert took its share of encoder connections (30 per 10 minutes, across instances): retry after `Retry-After` seconds.", content_type = "text/plain"),
        (status = 422, description = "The audio could not be decoded or recorded.", content_type = "text/plain"),
        (status = 500, description = "An unexpected failure (logged).", content_type = "text/plain")))]
async fn ingest(
    State(app): State<AppState>,
    Path(event_id): Path<String>,
    method: Method,
    headers: HeaderMap,
    body: Body,
) -> Response {
    if method != Method::PUT && method.as_str() != "SOURCE" {
        return refused(Error::MethodNotAllowed(Msg::IngestUseSourceOrPut.into()));
    }
    let header = |name| headers.get(name).and_then(|v| v.to_str().ok());
    match ingest::admit(
        &app,
        &event_id,
        ingest::Credential::StreamKey(
            header(header::AUTHORIZATION)
                .and_then(ingest::basic_password)
                .as_deref(),
        ),
        header(header::CONTENT_TYPE),
    )
    .await
    {
        Ok(publisher) => match ingest::pump(&app, publisher, body.into_data_stream()).await {
            ingest::Outcome::Failed(message) => (
                StatusCode::UNPROCESSABLE_ENTITY,
                [(header::CONTENT_TYPE, "text/plain")],
                format!("{message}\n"),
            )
                .into_response(),
            ingest::Outcome::Ended => plain(StatusCode::OK, "The show has ended.\n"),
            ingest::Outcome::Stopped | ingest::Outcome::Idle => {
                plain(StatusCode::OK, "Stream ended.\n")
            }
            // The encoder reconnects (through the load balancer) to another instance.
            ingest::Outcome::Reconnect => {
                let mut response = plain(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "This server lets the show go: reconnect.\n",
                );
                response
                    .headers_mut()
                    .insert(header::RETRY_AFTER, header::HeaderValue::from_static("0"));
                response
            }
        },
        Err(refusal) => refused(refusal),
    }
}

/// A refused encoder gets the status and one line of text (and, on a wrong key, the
/// Basic challenge; on a wrong method, the methods it may use), as on the Icecast port.
fn refused(refusal: Error) -> Response {
    let line = format!("{}\n", ingest::refusal_text(&refusal));
    let mut response = (refusal.status(), line).into_response();
    let headers = response.headers_mut();
    if let Error::RateLimited { retry_after } = &refusal {
        headers.insert(header::RETRY_AFTER, HeaderValue::from(*retry_after));
    }
    match refusal.status() {
        StatusCode::UNAUTHORIZED => {
            headers.insert(
                header::WWW_AUTHENTICATE,
                HeaderValue::from_static(ingest::BASIC_CHALLENGE),
            );
        }
        StatusCode::METHOD_NOT_ALLOWED => {
            headers.insert(header::ALLOW, HeaderValue::from_static("PUT, SOURCE"));
        }
        _ => {}
    }
    response
}

/// The first message of a browser publisher: the live panel sends its go-live
/// ticket (it cannot know the key, stored hashed); any other client the stream key.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct GoLiveHello {
    #[serde(default)]
    key: Option<String>,
    #[serde(default)]
    ticket: Option<String>,
    mime_type: String,
}

impl GoLiveHello {
    fn credential(&self) -> ingest::Credential<'_> {
        match &self.ticket {
            Some(ticket) => ingest::Credential::GoLiveTicket(ticket),
            None => ingest::Credential::StreamKey(self.key.as_deref()),
        }
    }
}

/// What the server tells a browser publisher.
#[derive(Debug, Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
enum GoLiveReply {
    Live {
        /// Whether listeners get a lossless publisher's audio as Lossless: false for a
        /// show under way that began without it (the live panel says so).
        #[serde(rename = "takesLossless")]
        takes_lossless: bool,
    },
    Ended,
    Error {
        status: u16,
        message: String,
    },
}

impl GoLiveReply {
    fn refused(refusal: Error) -> Self {
        Self::Error {
            status: refusal.status().as_u16(),
            message: ingest::refusal_text(&refusal),
        }
    }

    fn message(&self) -> Message {
        Message::Text(serde_json::to_string(self).unwrap_or_default().into())
    }
}

/// The largest hello a browser publisher may send before it is admitted (a ticket or a
/// key and a MIME type are a few hundred bytes): docs/security.md, finding 1.
const GO_LIVE_HELLO_LIMIT: usize = 4 * 1024;
/// How long a browser publisher has to send its hello.
const GO_LIVE_HELLO_WAIT: Duration = Duration::from_secs(10);
/// The largest chunk an admitted browser publisher may send.
const GO_LIVE_CHUNK_LIMIT: usize = 1 << 20;

/// Browser "go live": a WebSocket carrying MediaRecorder chunks (Opus in WebM, …),
/// decoded and encoded to AAC by GStreamer into the same segmenter as an encoder's.
async fn go_live(
    State(app): State<AppState>,
    Path(event_id): Path<String>,
    upgrade: Upgrade,
) -> Response {
    upgrade.on_upgrade(move |pending| publish_from_browser(app, event_id, pending))
}

async fn publish_from_browser(app: AppState, event_id: String, mut pending: Pending) {
    let refuse = |status: u16, message: &str| GoLiveReply::Error {
        status,
        message: message.to_owned(),
    };
    let hello = match pending
        .first_text(GO_LIVE_HELLO_LIMIT, GO_LIVE_HELLO_WAIT)
        .await
    {
        Ok(text) => serde_json::from_str::<GoLiveHello>(&text).ok(),
        Err(NoHello::Gone) => return,
        Err(NoHello::Timeout | NoHello::Bad(_)) => None,
    };
    let admitted = match hello {
        None => Err(Error::bad_request(Msg::IngestHelloFirst)),
        Some(hello) => {
            ingest::admit(&app, &event_id, hello.credential(), Some(&hello.mime_type)).await
        }
    };
    // Only an admitted publisher's socket takes chunks of a megabyte; a refused one is
    // told why in a frame of its own size.
    let limit = if admitted.is_ok() {
        GO_LIVE_CHUNK_LIMIT
    } else {
        GO_LIVE_HELLO_LIMIT
    };
    let config = WebSocketConfig::default()
        .read_buffer_size(16 * 1024)
        .max_message_size(Some(limit))
        .max_frame_size(Some(limit));
    let (mut tx, rx) = pending.open(config).await.split();
    let reply = match admitted {
        Err(refusal) => GoLiveReply::refused(refusal),
        Ok(publisher) => {
            let live = GoLiveReply::Live {
                takes_lossless: publisher.takes_lossless(),
            };
            if tx.send(live.message()).await.is_err() {
                // Gone already: let the pump see a closed stream.
            }
            // Binary messages are the recording's chunks; a close ends it.
            let chunks = rx
                .take_while(|m| {
                    std::future::ready(matches!(m, Ok(m) if !matches!(m, Message::Close(_))))
                })
                .filter_map(|m| {
                    std::future::ready(match m {
                        Ok(Message::Binary(bytes)) => {
                            Some(Ok::<_, std::convert::Infallible>(bytes))
                        }
                        _ => None,
                    })
                });
            match ingest::pump(&app, publisher, Box::pin(chunks)).await {
                ingest::Outcome::Ended => GoLiveReply::Ended,
                ingest::Outcome::Failed(message) => refuse(422, &message),
                ingest::Outcome::Idle => {
                    refuse(408, "No audio arrived for a while; the stream was stopped.")
                }
                ingest::Outcome::Reconnect => {
                    refuse(503, "This server lets the show go: go live again.")
                }
                ingest::Outcome::Stopped => return,
            }
        }
    };
    let _ = tx.send(reply.message()).await;
    let _ = tx.send(Message::Close(None)).await;
}

/// A listening session: where the player reads the live (or recorded) concert.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = ListeningSession)]
struct Session {
    /// The signed HLS playlist, `/stream/{token}/index.m3u8` (same origin). Opening a
    /// new session ends the account's earlier one for this concert.
    playlist_url: String,
    /// The set to keep, signed by the same session (`GET
    /// /api/v1/events/{id}/recording.m4a?session=…`): answered once the show has ended.
    /// A lossless show's set is also `recording.flac` with the same `session` (when
    /// `GET /stream/{event_id}/session` says `losslessSet`).
    recording_url: String,
    /// The multivariant playlist of the same session, `/stream/{token}/master.m3u8`:
    /// every rendition of the show (docs/hifi.md), for a player that chooses between them.
    master_url: String,
    #[schema(format = DateTime)]
    expires_at: String,
}

/// Start listening to a concert: for the signed-in holder of a ticket (or a pass
/// covering it), from 15 minutes before its start to 24 hours after.
#[utoipa::path(post, path = "/stream/{event_id}/session", tag = "stream", security(("bearer" = [])),
    params(EventIdPath),
    responses((status = 200, description = "The session.", body = Envelope<Session>)))]
async fn open_session(
    State(app): State<AppState>,
    user: CurrentUser,
    Path(event_id): Path<String>,
) -> Result<Api<Session>> {
    let event = events::load(&app, &event_id).await?;
    // A draft is not there for fans: the same answer as a concert that does not exist.
    if event.status == EventStatus::Draft {
        return Err(Error::not_found(Msg::ConcertNotFound));
    }
    let started = sessions::start(&app, &user.account.id, &event).await?;
    tell_first_listener(&app, &event, &user.account.id).await;
    Ok(Api::ok(Session {
        recording_url: format!(
            "/api/v1/events/{}/recording.m4a?session={}",
            event.id, started.token
        ),
        playlist_url: started.playlist_path,
        master_url: started.master_path,
        expires_at: iso8601(started.expires_at),
    }))
}

/// What a listener sees of the show they hold a ticket for.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = ListeningStatus)]
struct Listening {
    /// People listening now (a playlist or media request in the last 30 seconds), on
    /// every instance; the same figure the artist's live panel shows.
    listeners: u64,
    /// When listening ends for this concert (its start + 24 hours): the replay's end.
    #[schema(format = DateTime)]
    access_until: String,
    /// Something has aired: the playlist exists (until then the player waits for the
    /// artist without asking for it).
    aired: bool,
    /// Aired and not ended, its encoder away: "The artist is reconnecting…", not LIVE.
    reconnecting: bool,
    /// The show ended: its recording can be downloaded (the session's `recordingUrl`).
    ended: bool,
    /// The show ended with a lossless recording: its set can also be downloaded as FLAC
    /// (`recording.flac`, signed as `recordingUrl` is). False for a show whose encoder
    /// sent no FLAC.
    lossless_set: bool,
}

/// How the show a fan listens to stands: how many listen now. For the holder of a ticket
/// (or a pass covering it) inside the listening window, the same who may open a session;
/// the player asks it every few seconds.
#[utoipa::path(get, path = "/stream/{event_id}/session", tag = "stream", security(("bearer" = [])),
    params(EventIdPath),
    responses(
        (status = 200, description = "The figures.", body = Envelope<Listening>),
        sessions::ListenerRefusals))]
async fn session_status(
    State(app): State<AppState>,
    user: CurrentUser,
    Path(event_id): Path<String>,
) -> Result<Api<Listening>> {
    let event = events::load(&app, &event_id).await?;
    if event.status == EventStatus::Draft {
        return Err(Error::not_found(Msg::ConcertNotFound));
    }
    sessions::admit(&app.db, &user.account.id, &event, app.hub.on_air(&event.id)).await?;
    let status = app.figures.status(&event.id).await;
    let aired = status.segments > 0 || status.recorded_seconds > 0.0;
    let ended = aired && status.ended;
    // Only an ended show has a set: no look at the disk while it is on air.
    let lossless_set = ended && download::has_lossless_set(&app, &event.id).await;
    Ok(Api::ok(Listening {
        listeners: status.listeners,
        access_until: iso8601(event.access_until()),
        aired,
        reconnecting: aired
            && !status.ended
            && !status.publisher_connected
            && event.status == EventStatus::Live,
        ended,
        lossless_set,
    }))
}

/// The artist hears of the show's first listener (once per concert); a failure is logged,
/// never the listener's problem.
async fn tell_first_listener(app: &AppState, event: &events::model::EventRow, listener: &str) {
    if let Err(err) = events::notices::listened(app, event, listener).await {
        tracing::warn!(event = %event.id, error = %err, "telling the first listener failed");
    }
}

/// The 403 words of the live status: "… see this".
#[derive(Debug)]
struct SeeLiveStatus;

impl Refusal for SeeLiveStatus {
    const MSG: Msg = Msg::OnlyManagersSeeThis;
}

/// The 403 words of ending a show: "… end a show".
#[derive(Debug)]
struct EndShow;

impl Refusal for EndShow {
    const MSG: Msg = Msg::OnlyManagersEndShow;
}

/// Whether the concert is being published now and how its recording stands, for those
/// who manage it (its project's members, staff).
#[utoipa::path(get, path = "/events/{id}/live", tag = "stream", security(("bearer" = [])),
    params(ConcertPath),
    responses((status = 200, description = "The live status.", body = Envelope<Status>)))]
async fn live_status(
    State(app): State<AppState>,
    ManagedEvent { event, .. }: ManagedEvent<SeeLiveStatus>,
) -> Result<Api<Status>> {
    Ok(Api::ok(app.figures.status(&event.id).await))
}

/// End the show, for those who manage the concert: the publisher is disconnected, the
/// recording is closed and nobody can publish to it again; listeners keep the replay.
#[utoipa::path(post, path = "/events/{id}/end", tag = "stream", security(("bearer" = [])),
    params(ConcertPath),
    responses((status = 200, description = "The status once ended.", body = Envelope<Status>)))]
async fn end_show(
    State(app): State<AppState>,
    ManagedEvent { event, .. }: ManagedEvent<EndShow>,
) -> Result<Api<Status>> {
    let show = app.hub.show(&event.id);
    ingest::finish(&app, &show).await;
    Ok(Api::ok(show.status()))
}
