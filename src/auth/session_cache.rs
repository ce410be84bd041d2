//! A short-lived in-memory cache of live sessions and their accounts, so an
//! authenticated request costs a JWT check and a map lookup instead of a database query.
//!
//! Every revocation and account change on this instance forgets the affected entries at
//! once; the time-to-live bounds how long another instance may keep serving an entry it
//! cached before a change made elsewhere.

use std::sync::Arc;
use std::time::Duration;

use moka::sync::Cache;

use crate::accounts::model::{AccountChanged, AccountRow, ProjectRef};

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
