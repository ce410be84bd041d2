//! Health, version and licences, and the dev outbox for admins.

use axum::extract::State;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::accounts::model::Role;
use crate::auth::extract::{MaybeUser, Staff};
use crate::envelope::{Api, Envelope, QueryParams};
use crate::error::{Error, Result};
use crate::i18n::Msg;
use crate::messaging::Channel;
use crate::state::AppState;

pub const VERSION: &str = env!("CARGO_PKG_VERSION");
pub const BUILD: &str = env!("ENCORE_BUILD");
/// `[{name, version, license}]` of every crate in the binary, made by build.rs.
const LICENSES_JSON: &str = include_str!(concat!(env!("OUT_DIR"), "/licenses.json"));

#[derive(Serialize, ToSchema)]
struct Health {
    status: &'static str,
    version: &'static str,
}

/// Whether this instance answers, and its version: for load balancers and probes.
#[utoipa::path(get, path = "/health", tag = "meta",
    responses((status = 200, description = "The instance is up.", body = Envelope<Health>)))]
async fn health() -> Api<Health> {
    Api::ok(Health {
        status: "ok",
        version: VERSION,
    })
}

#[derive(Serialize, ToSchema)]
struct Probe {
    status: &'static str,
}

/// Liveness: the process answers. Nothing else is checked, so a restart is never
/// triggered by a database or Redis outage that a restart would not fix.
#[utoipa::path(get, path = "/health/live", tag = "meta",
    responses((status = 200, description = "The process answers.", body = Envelope<Probe>)))]
async fn live() -> Api<Probe> {
    Api::ok(Probe { status: "live" })
}

/// Readiness, for a load balancer: not draining, the database answers, and so does Redis
/// when one is configured. Otherwise 503, naming the first part that failed (`draining`,
/// `database` or `redis`).
#[utoipa::path(get, path = "/health/ready", tag = "meta",
    responses(
        (status = 200, description = "Ready to serve.", body = Envelope<Probe>),
        (status = 503, description = "Not ready: the message names `draining`, `database` or `redis`.",
            body = crate::openapi::Failure)))]
async fn ready(State(app): State<AppState>) -> Result<Api<Probe>> {
    crate::cluster::health::readiness(&app.lifecycle, &app.db, &app.bus)
        .await
        .map_err(|part| Error::Unavailable(Msg::NotReady.with("part", part.part())))?;
    Ok(Api::ok(Probe { status: "ready" }))
}

/// Prometheus metrics in the text format (`docs/operations.md` lists the families), for
/// the holder of the metrics token (`ENCORE_METRICS_TOKEN`) only: figures per concert and
/// the instance's load are not for the internet. Without a token configured it is off.
#[utoipa::path(get, path = "/metrics", tag = "meta", security(("bearer" = [])),
    responses(
        (status = 200, description = "Prometheus text format 0.0.4.", body = String,
            content_type = "text/plain; version=0.0.4"),
        (status = 404, description = "No metrics token is configured: metrics are off.",
            body = crate::openapi::Failure)))]
pub async fn metrics(
    State(app): State<AppState>,
    axum::Extension(metrics): axum::Extension<std::sync::Arc<crate::metrics::Metrics>>,
    headers: axum::http::HeaderMap,
) -> Result<axum::response::Response> {
    use axum::response::IntoResponse;
    let Some(expected) = &app.config.metrics_token else {
        return Err(Error::not_found(Msg::NoSuchEndpoint));
    };
    let sent = headers
        .get(axum::http::header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split_once(' '))
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .map(|(_, token)| token.trim());
    if !sent.is_some_and(|token| crate::crypto::constant_time_eq(token, expected.expose())) {
        return Err(Error::unauthorized(Msg::MetricsToken));
    }
    let text = metrics.render(snapshot(&app).await?);
    Ok((
        [(
            axum::http::header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        text,
    )
        .into_response())
}

/// The levels `/metrics` reports, read now.
async fn snapshot(app: &AppState) -> Result<crate::metrics::Snapshot> {
    use crate::metrics::ShowFigures;
    let mut sessions: std::collections::HashMap<String, i64> =
        crate::stream::access::store::live_per_event(&app.db, crate::db::now_ms())
            .await?
            .into_iter()
            .collect();
    let mut shows: Vec<ShowFigures> = app
        .hub
        .all()
        .iter()
        .map(|show| {
            let status = show.status();
            ShowFigures {
                event_id: show.event_id.clone(),
                listeners: status.listeners,
                sessions: sessions.remove(&show.event_id).unwrap_or(0) as u64,
                ingest_kbps: status.bitrate_kbps,
            }
        })
        .collect();
    shows.extend(sessions.into_iter().map(|(event_id, n)| ShowFigures {
        event_id,
        sessions: n as u64,
        ..ShowFigures::default()
    }));
    shows.sort_by(|a, b| a.event_id.cmp(&b.event_id));
    Ok(crate::metrics::Snapshot {
        shows,
        websocket_clients: app.live.open() as u64,
        db_pool_size: u64::from(app.db.size()),
        db_pool_idle: app.db.num_idle() as u64,
        redis_round_trips: app.bus.redis_round_trips(),
        housekeeping_ticks: app.housekeeping.counts().0,
        housekeeping_shared_runs: app.housekeeping.counts().1,
        listening_reloads: app.stream_access.reloads(),
    })
}

#[derive(Serialize, Deserialize, ToSchema)]
struct License {
    name: String,
    #[schema(required = true)]
    version: Option<String>,
    license: String,
}

#[derive(Serialize, ToSchema)]
struct About {
    name: &'static str,
    #[schema(required = true)]
    version: Option<&'static str>,
    #[schema(required = true)]
    build: Option<&'static str>,
    licenses: Vec<License>,
}

/// What Encore is and the licences of what it ships, for everyone; the versions (of
/// Encore and of each crate) only for staff: to anyone else they are a map of which
/// known vulnerabilities to try.
#[utoipa::path(get, path = "/about", tag = "meta", security((), ("bearer" = [])),
    responses((status = 200, description = "Name, licences; versions for staff.", body = Envelope<About>)))]
async fn about(MaybeUser(user): MaybeUser) -> Result<Api<About>> {
    let staff = user.is_some_and(|u| u.account.role().is_staff());
    let mut licenses: Vec<License> =
        serde_json::from_str(LICENSES_JSON).map_err(Error::internal)?;
    if !staff {
        for license in &mut licenses {
            license.version = None;
        }
    }
    Ok(Api::ok(About {
        name: "Encore",
        version: staff.then_some(VERSION),
        build: staff.then_some(BUILD),
        licenses,
    }))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
struct OutboxQuery {
    /// How many messages, newest first: default 50, brought into 1–500.
    limit: Option<usize>,
}

#[derive(Serialize, ToSchema)]
struct Outbox {
    /// Whether e-mail or SMS goes to the dev outbox (no real provider configured).
    enabled: bool,
    items: Vec<OutboxItem>,
}

#[derive(Serialize, ToSchema)]
struct OutboxItem {
    channel: Channel,
    to: String,
    subject: String,
    body: String,
    created_at: String,
    /// Its links and codes were hidden: it went to an account above the reader.
    redacted: bool,
}

/// The dev outbox, newest first. A reader sees the codes and links of messages to
/// accounts below their own role and their own; those to an equal or higher account are
/// redacted, so an admin cannot take over another admin or a super admin with their reset
/// link. A super admin sees everything.
#[utoipa::path(get, path = "/outbox", tag = "meta", security(("bearer" = [])), params(OutboxQuery),
    responses((status = 200, description = "The dev outbox (admin, sa).", body = Envelope<Outbox>)))]
async fn outbox(
    State(app): State<AppState>,
    Staff(reader): Staff,
    QueryParams(q): QueryParams<OutboxQuery>,
) -> Result<Api<Outbox>> {
    if !app.messenger.uses_outbox() {
        return Ok(Api::ok(Outbox {
            enabled: false,
            items: Vec::new(),
        }));
    }
    let limit = q.limit.unwrap_or(50).clamp(1, 500);
    let staff = crate::accounts::store::staff_contacts(&app.db).await?;
    let reader_role = reader.account.role();
    let items = app
        .messenger
        .read_outbox(limit)
        .await?
        .into_iter()
        .map(|message| {
            let recipient = staff.iter().find(|(_, login, phone, _)| {
                *login == message.to || phone.as_deref() == Some(message.to.as_str())
            });
            let visible = match recipient {
                _ if reader_role == Role::Sa => true,
                Some((id, ..)) if *id == reader.account.id => true,
                Some((.., role)) => Role::parse(role).unwrap_or(Role::Sa) < reader_role,
                None => true,
            };
            let redacted = !visible && !message.secrets.is_empty();
            OutboxItem {
                body: if redacted {
                    message.redacted_body()
                } else {
                    message.body
                },
                channel: message.channel,
                to: message.to,
                subject: message.subject,
                created_at: message.created_at,
                redacted,
            }
        })
        .collect();
    Ok(Api::ok(Outbox {
        enabled: true,
        items,
    }))
}

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(health))
        .routes(routes!(live))
        .routes(routes!(ready))
        .routes(routes!(about))
        .routes(routes!(outbox))
}
