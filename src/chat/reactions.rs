//! Reactions (applause, heart, fire): counted here as they come, sent out as counts once
//! per [`WINDOW`] per concert (never one frame per click), and kept per second of the
//! show's media time so the replay shows the room's applause at each song.
//!
//! Each instance counts its own fans' reactions and publishes its window's counts on the
//! concert's `chat:<id>` channel; the room adds up what every instance sends. The cap per
//! fan is taken before, across instances ([`super::limits::Limits::reactions`]).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::model::{Counts, ReactionKind, Reactions as ReactionsMessage};
use super::store;
use crate::bus::{Bus, Channel, Publication};
use crate::db::Db;

/// How often counts go out.
pub const WINDOW: Duration = Duration::from_millis(500);

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

    /// Count `count` reactions (already within the fan's cap) at `media_time`.
    pub fn add(&self, event_id: &str, kind: ReactionKind, count: u64, media_time: i64) {
        if count == 0 {
            return;
        }
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let pending = state.pending.entry(event_id.to_owned()).or_default();
        pending.counts.add(kind, count);
        pending.media_time = pending.media_time.max(media_time);
        pending
            .seconds
            .entry(media_time.div_euclid(1000))
            .or_default()
            .add(kind, count);
    }

    /// Store the window's counts, then send them out: a fan who sees the room's applause
    /// rise finds it in the replay's seconds too.
    pub async fn flush(&self) {
        let pending = {
            let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
            std::mem::take(&mut state.pending)
        };
        for (event_id, pending) in pending {
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
            let message = ReactionsMessage {
                event_id: event_id.clone(),
                media_time: pending.media_time,
                counts: pending.counts,
            };
            let channel = Channel::Chat(event_id.clone());
            if let Err(err) = self.bus.publish(&channel, Publication::new(&message)).await {
                tracing::warn!(event = %event_id, error = %err, "publishing reactions failed");
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
                self.flush().await;
            }
        });
    }
}
