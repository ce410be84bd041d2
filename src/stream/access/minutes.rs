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

/// Count every [`MINUTE`] for as long as the server runs, just after each minute of the
/// wall clock ends. Every instance counts the same minute at about the same moment, so a
/// listener two instances heard in it is counted once: counting on each instance's own
/// rhythm would file the same listening under two minutes whenever the instances' ticks
/// fell on either side of a minute's end.
pub fn spawn(db: Db, hub: Arc<Hub>) {
    tokio::spawn(async move {
        let first = Instant::now() + until_next_minute(crate::db::now_ms());
        let mut tick = tokio::time::interval_at(first.into(), MINUTE);
        loop {
            tick.tick().await;
            // Half a minute back: inside the minute that just ended, however late the tick.
            let ended = crate::db::now_ms() - MINUTE_MS / 2;
            if let Err(err) = count(&db, &hub, Instant::now(), ended).await {
                tracing::warn!(error = %err, "counting the minutes listened failed");
            }
        }
    });
}

/// From `now_ms` (unix ms) to a little after the wall clock's next minute.
fn until_next_minute(now_ms: i64) -> Duration {
    const AFTER: i64 = 250;
    let next = (now_ms.div_euclid(MINUTE_MS) + 1) * MINUTE_MS + AFTER;
    Duration::from_millis((next - now_ms) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_count_waits_for_the_end_of_the_wall_clocks_minute() {
        assert_eq!(until_next_minute(0), Duration::from_millis(60_250));
        assert_eq!(until_next_minute(59_900), Duration::from_millis(350));
        assert_eq!(until_next_minute(60_000), Duration::from_millis(60_250));
        assert_eq!(until_next_minute(61_234), Duration::from_millis(59_016));
    }
}
