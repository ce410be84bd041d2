//! A short-lived in-memory cache of live sessions and their accounts, so an
//! authenticated request costs a JWT check and a map lookup instead of a database query.
//!
//! Every revocation and account change on this instance forgets the affected entries at
//! once; the time-to-live bounds how long another instance may keep serving an entry it
//! cached before a change made elsewhere: each instance also follows the bus's cache
//! channel ([`follow_account_changes`]), so a disabled account or an ended session is
//! refused everywhere at once.

use std::sync::Arc;
use std::time::Duration;

use moka::sync::Cache;

use crate::accounts::model::{AccountChanged, AccountRow, ProjectRef};
use crate::bus::{Bus, BusError, Channel, Position, Publication, Received, Recovery};

/// What an authenticated request needs to know about its account.
#[derive(Debug)]
pub struct SessionEntry {
    pub account: AccountRow,
    /// The session passed the SMS second factor when it signed in (fixed for its life).
    pub second_factor: bool,
    /// The artist projects the account is a member of.
    pub projects: Vec<ProjectRef>,
    /// A new login e-mail waiting for its link (the account's writes evict the entry).
    pub pending_login: Option<String>,
}

const TIME_TO_LIVE: Duration = Duration::from_secs(30);
const CAPACITY: u64 = 200_000;

#[derive(Clone)]
pub struct SessionCache {
    sessions: Cache<String, Arc<SessionEntry>>,
}

impl SessionCache {
    pub fn new() -> Self {
        Self {
            sessions: Cache::builder()
                .max_capacity(CAPACITY)
                .time_to_live(TIME_TO_LIVE)
                .support_invalidation_closures()
                .build(),
        }
    }

    pub fn get(&self, session_id: &str) -> Option<Arc<SessionEntry>> {
        self.sessions.get(session_id)
    }

    pub fn insert(&self, session_id: String, entry: SessionEntry) -> Arc<SessionEntry> {
        let entry = Arc::new(entry);
        self.sessions.insert(session_id, entry.clone());
        entry
    }

    /// Forget what a change made stale: one session (it ended), every session of an
    /// account (it changed, was disabled or deleted), or every session whose account is
    /// a member of a project (it was renamed or deleted). Called for this instance's own
    /// writes ([`AppState::publish`](crate::state::AppState::publish)) and for other
    /// instances' (the bus's cache channel).
    pub fn forget(&self, change: &AccountChanged) {
        match change {
            AccountChanged::Session(session_id) => self.sessions.invalidate(session_id),
            AccountChanged::Account(account_id) => {
                let account_id = account_id.clone();
                self.forget_if(move |entry| entry.account.id == account_id);
            }
            AccountChanged::Project(project_id) => {
                let project_id = project_id.clone();
                self.forget_if(move |entry| entry.projects.iter().any(|p| p.id == project_id));
            }
        }
    }

    fn forget_if(&self, stale: impl Fn(&SessionEntry) -> bool + Send + Sync + 'static) {
        if self
            .sessions
            .invalidate_entries_if(move |_, entry| stale(entry))
            .is_err()
        {
            // Only fails when closures are unsupported, which `new` enables; be safe anyway.
            self.sessions.invalidate_all();
        }
    }
}

impl SessionCache {
    /// Forget everything (changes may have been missed, e.g. while the bus was away).
    pub fn forget_all(&self) {
        self.sessions.invalidate_all();
    }
}

impl Default for SessionCache {
    fn default() -> Self {
        Self::new()
    }
}

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

fn apply(bus: &Bus, sessions: &SessionCache, event: &Publication) {
    if let Some((change, origin)) = AccountChanged::from_event(event)
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
