//! The session cache's consumer: an account, session or project changed on another
//! instance is forgotten here too, so a disabled account or an ended session is refused
//! everywhere at once, not after the cache's time-to-live.

use crate::auth::session_cache::SessionCache;

use super::{Bus, BusError, Channel, Event, Position, Received, Recovery};

/// Follow the cache channel for as long as the bus lives.
pub async fn follow_account_changes(bus: Bus, sessions: SessionCache) -> Result<(), BusError> {
    let mut subscription = bus.subscribe(&Channel::Cache);
    let mut seen = bus.position(&Channel::Cache).await?;
    tokio::spawn(async move {
        while let Some(received) = subscription.recv().await {
            match received {
                Received::Message(delivery) => {
                    if delivery.epoch == seen.epoch && delivery.offset <= seen.offset {
                        continue;
                    }
                    apply(&bus, &sessions, &delivery.event);
                    seen = delivery.position();
                }
                Received::Lagged { .. } | Received::Reconnected => {
                    seen = catch_up(&bus, &sessions, seen).await;
                }
            }
        }
    });
    Ok(())
}

fn apply(bus: &Bus, sessions: &SessionCache, event: &Event) {
    if let Some((change, origin)) = event.as_cache_change()
        && origin != bus.instance()
    {
        sessions.forget(&change);
    }
}

/// Replay what was missed; when that is not possible, forget every cached session.
async fn catch_up(bus: &Bus, sessions: &SessionCache, seen: Position) -> Position {
    match bus.history(&Channel::Cache, &seen).await {
        Ok(Recovery::Complete { messages, position }) => {
            for delivery in &messages {
                apply(bus, sessions, &delivery.event);
            }
            position
        }
        Ok(Recovery::Gone { position }) => {
            sessions.forget_all();
            position
        }
        Err(err) => {
            tracing::warn!(error = %err, "bus: session cache could not catch up");
            sessions.forget_all();
            seen
        }
    }
}
