//! Minutes listened: once a minute each instance counts the listeners it heard in that
//! minute, a minute each, by listener, concert and UTC day (`listened_minutes`). A pass's
//! revenue is shared among the artists whose concerts its holder listened to in proportion
//! to these minutes. A listener heard by two instances in the same minute (a balancer
//! moving their requests) is counted once: a row keeps the last minute it counted.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::db::Db;
use crate::error::Result;
use crate::stream::show::hub::Hub;

use super::store::{self, Heard};

/// How often listeners are counted, and what one count is worth.
pub const MINUTE: Duration = Duration::from_secs(60);
const MINUTE_MS: i64 = 60_000;
const DAY_MS: i64 = 86_400_000;

/// Count a minute for every listener this instance heard in the minute before `now`
/// (`now_ms` the same instant, unix ms). Answers how many minutes were counted here
/// (a listener another instance counted this minute is not counted again).
pub async fn count(db: &Db, hub: &Hub, now: Instant, now_ms: i64) -> Result<u64> {
    let since = now.checked_sub(MINUTE).unwrap_or(now);
    let heard: Vec<Heard> = hub
        .all()
        .iter()
        .flat_map(|show| {
            let event_id = show.event_id.clone();
            show.heard_since(since)
                .into_iter()
                .map(move |holder| Heard::new(holder, event_id.clone()))
        })
        .collect();
    if heard.is_empty() {
        return Ok(0);
    }
    store::add_minute(
        db,
        &heard,
        now_ms.div_euclid(DAY_MS) * DAY_MS,
        now_ms.div_euclid(MINUTE_MS),
    )
    .await
}

/// Count every [`MINUTE`] for as long as the server runs.
pub fn spawn(db: Db, hub: Arc<Hub>) {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(MINUTE);
        tick.tick().await; // the first tick is at once: nothing heard yet
        loop {
            tick.tick().await;
            if let Err(err) = count(&db, &hub, Instant::now(), crate::db::now_ms()).await {
                tracing::warn!(error = %err, "counting the minutes listened failed");
            }
        }
    });
}
