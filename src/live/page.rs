//! The staff Live page's data, `GET /api/v1/live`: the concerts live now with their
//! figures, and the latest staff activity with the position the page then follows on the
//! WebSocket.

use axum::extract::State;
use serde::Serialize;
use utoipa::ToSchema;

use super::activity::Activity;
use super::figures::Sample;
use crate::auth::extract::Staff;
use crate::bus::Channel;
use crate::db::iso8601;
use crate::envelope::{Api, Envelope};
use crate::error::{Error, Result};
use crate::state::AppState;
use crate::stream::show::hub::Status;

/// A concert live now.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct LiveConcert {
    event_id: String,
    title: String,
    artist_name: String,
    project_id: String,
    project_name: String,
    #[schema(format = DateTime)]
    starts_at: String,
    /// Its figures, listeners from every instance; `publisherConnected` says whether an
    /// encoder or a browser is publishing.
    status: Status,
    /// Listeners every 10 seconds over the last 30 minutes, oldest first.
    listeners_over_time: Vec<Sample>,
}

/// Activities the page starts with.
pub const RECENT_ACTIVITY: i64 = 50;

/// Where the page follows the `staff` channel from (a `since` for the WebSocket).
#[derive(Debug, Serialize, ToSchema)]
pub(super) struct ChannelPosition {
    offset: u64,
    epoch: String,
}

/// What the Live page starts from.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct LiveNow {
    /// Earliest start first.
    concerts: Vec<LiveConcert>,
    /// The latest staff activity (at most 50), oldest first. An activity published after
    /// `position` may be here too: the page tells them apart by id.
    recent_activity: Vec<Activity>,
    /// The `staff` channel's position when `recentActivity` was read.
    position: ChannelPosition,
}

/// The concerts live now with their figures, and the recent staff activity, for admins
/// and super admins. The page then follows the `staff` channel on the WebSocket with
/// `since` = `position`, and each concert's `event:<id>` channel.
#[utoipa::path(get, path = "/live", tag = "live", security(("bearer" = [])),
    responses((status = 200, description = "What is live now.", body = Envelope<LiveNow>)))]
pub(super) async fn live_now(State(app): State<AppState>, Staff(_): Staff) -> Result<Api<LiveNow>> {
    let rows = crate::events::store::live_now(&app.db).await?;
    let mut concerts = Vec::with_capacity(rows.len());
    for row in rows {
        let view = app.figures.view(&row.event.id).await;
        concerts.push(LiveConcert {
            event_id: row.event.id,
            title: row.event.details.title,
            artist_name: row.event.details.artist_name,
            project_id: row.event.project_id,
            project_name: row.project_name,
            starts_at: iso8601(row.event.details.starts_at),
            status: view.status,
            listeners_over_time: view.series,
        });
    }
    // The position first, the store second: what commits in between is in both (one id),
    // never in neither.
    let (_, position) = app
        .bus
        .recent(&Channel::Staff)
        .await
        .map_err(|err| Error::internal(format!("reading the staff channel: {err}")))?;
    let recent_activity: Vec<Activity> = super::store::latest(&app.db, RECENT_ACTIVITY)
        .await?
        .into_iter()
        .filter_map(|row| Activity::try_from(row).ok())
        .collect();
    Ok(Api::ok(LiveNow {
        concerts,
        recent_activity,
        position: ChannelPosition {
            offset: position.offset,
            epoch: position.epoch,
        },
    }))
}
