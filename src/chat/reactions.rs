//! Reactions (applause, heart, fire): counted here as they come, sent out as counts once
//! per [`WINDOW`] per concert (never one frame per click), and kept per second of the
//! show's media time so the replay shows the room's applause at each song.
//!
//! Each instance counts its own fans' reactions and publishes its window's counts on the
//! concert's `chat:<id>` channel; the room adds up what every instance sends. The cap per
//! fan is counted where the fan's requests land: a fan spreading clicks over N instances
//! could count N times the cap, which is still a few reactions a second.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::model::{Counts, ReactionKind, Reactions as ReactionsMessage};
use super::store;
use crate::bus::{Bus, Channel, Event};
use crate::db::Db;

/// How often counts go out.
pub const WINDOW: Duration = Duration::from_millis(500);
/// Reactions counted per fan and second; more are dropped, not refused.
pub const PER_FAN_PER_SECOND: u64 = 10;

/// One concert's reactions of the current window.
#[derive(Default)]
struct Pending {
    counts: Counts,
    media_time: i64,
    /// Per second of media time, for the replay.
    seconds: HashMap<i64, Counts>,
}

#[derive(Default)]
struct State {
    pending: HashMap<String, Pending>,
    /// Per fan: the wall-clock second and what was counted in it.
    fans: HashMap<String, (i64, u64)>,
}

pub struct Reactions {
    state: Mutex<State>,
    bus: Bus,
    db: Db,
}

impl Reactions {
    pub fn new(bus: Bus, db: Db) -> Self {
        Self {
            state: Mutex::default(),
            bus,
            db,
        }
    }

    /// Count up to `count` reactions of `account_id` at `media_time`, within the cap per
    /// fan and second; answers how many were counted.
    pub fn add(
        &self,
        event_id: &str,
        account_id: &str,
        kind: ReactionKind,
        count: u64,
        media_time: i64,
        now_ms: i64,
    ) -> u64 {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let second = now_ms.div_euclid(1000);
        let used = match state.fans.get(account_id) {
            Some((s, used)) if *s == second => *used,
            _ => 0,
        };
        let accepted = count.min(PER_FAN_PER_SECOND.saturating_sub(used));
        if accepted == 0 {
            return 0;
        }
        state
            .fans
            .insert(account_id.to_owned(), (second, used + accepted));
        let pending = state.pending.entry(event_id.to_owned()).or_default();
        pending.counts.add(kind, accepted);
        pending.media_time = pending.media_time.max(media_time);
        pending
            .seconds
            .entry(media_time.div_euclid(1000))
            .or_default()
            .add(kind, accepted);
        accepted
    }

    /// Send out and store the window's counts.
    pub async fn flush(&self, now_ms: i64) {
        let pending = {
            let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
            let second = now_ms.div_euclid(1000);
            state.fans.retain(|_, (s, _)| *s >= second);
            std::mem::take(&mut state.pending)
        };
        for (event_id, pending) in pending {
            let message = ReactionsMessage {
                event_id: event_id.clone(),
                media_time: pending.media_time,
                counts: pending.counts,
            };
            let channel = Channel::Chat(event_id.clone());
            if let Err(err) = self.bus.publish(&channel, Event::new(&message)).await {
                tracing::warn!(event = %event_id, error = %err, "publishing reactions failed");
            }
            for (second, counts) in pending.seconds {
                for kind in ReactionKind::ALL {
                    let n = counts.get(kind);
                    if n == 0 {
                        continue;
                    }
                    if let Err(err) =
                        store::add_reactions(&self.db, &event_id, second, kind, n).await
                    {
                        tracing::warn!(event = %event_id, error = %err, "storing reactions failed");
                    }
                }
            }
        }
    }

    /// Flush every [`WINDOW`] for as long as the process.
    pub fn spawn(self: Arc<Self>) {
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(WINDOW);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tick.tick().await;
                self.flush(crate::db::now_ms()).await;
            }
        });
    }
}
