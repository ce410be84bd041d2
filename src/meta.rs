//! Health, version and licences, and the dev outbox for admins.

use axum::Router;
use axum::extract::State;
use axum::routing::get;
use serde::{Deserialize, Serialize};

use crate::app::AppState;
use crate::auth::extract::Staff;
use crate::envelope::{Api, QueryParams};
use crate::error::{Error, Result};
use crate::i18n::Msg;
use crate::messaging::OutboundMessage;

pub const VERSION: &str = env!("CARGO_PKG_VERSION");
pub const BUILD: &str = env!("ENCORE_BUILD");
/// `[{name, version, license}]` of every crate in the binary, made by build.rs.
const LICENSES_JSON: &str = include_str!(concat!(env!("OUT_DIR"), "/licenses.json"));

#[derive(Serialize)]
struct Health {
    status: &'static str,
    version: &'static str,
}

async fn health() -> Api<Health> {
    Api::ok(Health {
        status: "ok",
        version: VERSION,
    })
}

#[derive(Serialize, Deserialize)]
struct License {
    name: String,
    version: String,
    license: String,
}

#[derive(Serialize)]
struct About {
    name: &'static str,
    version: &'static str,
    build: &'static str,
    licenses: Vec<License>,
}

async fn about() -> Result<Api<About>> {
    let licenses = serde_json::from_str(LICENSES_JSON).map_err(Error::internal)?;
    Ok(Api::ok(About {
        name: "Encore",
        version: VERSION,
        build: BUILD,
        licenses,
    }))
}

#[derive(Deserialize)]
struct OutboxQuery {
    limit: Option<usize>,
}

async fn outbox(
    State(app): State<AppState>,
    Staff(_): Staff,
    QueryParams(q): QueryParams<OutboxQuery>,
) -> Result<Api<Vec<OutboundMessage>>> {
    if !app.messenger.uses_outbox() {
        return Err(Error::not_found(Msg::DevOutboxOff));
    }
    let limit = q.limit.unwrap_or(50).clamp(1, 500);
    Ok(Api::ok(app.messenger.read_outbox(limit).await?))
}

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/health", get(health))
        .route("/about", get(about))
        .route("/outbox", get(outbox))
}
