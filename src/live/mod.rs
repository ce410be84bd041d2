//! Live over WebSocket (issue 13): the dashboard's socket at `/api/v1/ws`, the staff
//! activity it carries, and the Live page's data. The protocol is in
//! docs/api-contract.md ("Live over WebSocket").

pub mod activity;
pub mod figures;
mod page;
pub mod room_relay;
pub mod sockets;
pub mod store;
pub mod ws;

use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(ws::open))
        .routes(routes!(page::live_now))
}
