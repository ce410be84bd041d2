//! This instance's open dashboard sockets: how many each account holds (a handful at
//! most), the signal that tells an account's sockets to check their session again, and the
//! one that tells them all the server is going away.
//!
//! The bus's cache channel is followed here once for the instance, not by every socket: a
//! sign-in or sign-out anywhere then wakes only the sockets of the account it concerns,
//! not all 20,000.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

use crate::accounts::model::AccountChanged;
use crate::bus::{Bus, Channel, Received};

/// Sockets one account may hold open on one instance (a few tabs and devices).
pub const PER_ACCOUNT: usize = 8;

#[derive(Default)]
pub struct Sockets {
    registry: Mutex<Registry>,
    shutdown: CancellationToken,
}

#[derive(Default)]
struct Registry {
    accounts: HashMap<Arc<str>, Account>,
    /// Which account each open socket's session belongs to (a session ending names only
    /// itself), with how many sockets hold it.
    sessions: HashMap<Arc<str>, (Arc<str>, usize)>,
}

/// One account's sockets on this instance.
struct Account {
    open: usize,
    /// Bumped when the account or one of its sessions may have changed.
    changed: watch::Sender<()>,
}

impl Sockets {
    pub fn new() -> Self {
        Self::default()
    }

    /// A place for one more socket of `account_id` signed in with `session_id`, or `None`
    /// when the account holds [`PER_ACCOUNT`] already. The place is given back when the
    /// guard drops.
    pub fn admit(self: &Arc<Self>, account_id: &str, session_id: &str) -> Option<Admitted> {
        let mut registry = self.lock();
        let Registry { accounts, sessions } = &mut *registry;
        // The registry's keys are shared with the guards: one copy of an id per account.
        let account_id = shared(
            accounts.get_key_value(account_id).map(|(id, _)| id),
            account_id,
        );
        let account = accounts
            .entry(account_id.clone())
            .or_insert_with(|| Account {
                open: 0,
                changed: watch::Sender::new(()),
            });
        if account.open >= PER_ACCOUNT {
            return None;
        }
        account.open += 1;
        let changes = account.changed.subscribe();
        let session_id = shared(
            sessions.get_key_value(session_id).map(|(id, _)| id),
            session_id,
        );
        sessions
            .entry(session_id.clone())
            .or_insert_with(|| (account_id.clone(), 0))
            .1 += 1;
        Some(Admitted {
            sockets: self.clone(),
            account_id,
            session_id,
            changes,
        })
    }

    /// How many sockets are open on this instance.
    pub fn open(&self) -> usize {
        self.lock()
            .accounts
            .values()
            .map(|account| account.open)
            .sum()
    }

    /// Resolves when the server starts shutting down.
    pub fn shutting_down(&self) -> tokio_util::sync::WaitForCancellationFuture<'_> {
        self.shutdown.cancelled()
    }

    /// Tell every socket the server is going away (they close with 1001).
    pub fn shut_down(&self) {
        self.shutdown.cancel();
    }

    /// Follow the bus's cache channel for this instance's sockets, until the bus goes.
    pub async fn follow_changes(self: Arc<Self>, bus: Bus) {
        let mut changes = bus.subscribe(&Channel::Cache);
        while let Some(received) = changes.recv().await {
            self.changed(&received);
        }
    }

    /// Signal the sockets a cache message may concern: the account's, the session's
    /// account's, or every socket when messages may have been missed.
    fn changed(&self, received: &Received) {
        let registry = self.lock();
        let account = match received {
            Received::Message(delivery) => match AccountChanged::from_event(&delivery.event) {
                Some((AccountChanged::Account(id), _)) => Some(id),
                Some((AccountChanged::Session(id), _)) => registry
                    .sessions
                    .get(id.as_str())
                    .map(|(account, _)| account.to_string()),
                // A project's change does not touch a socket's session or role.
                Some((AccountChanged::Project(_), _)) | None => return,
            },
            Received::Lagged { .. } | Received::Reconnected => {
                for account in registry.accounts.values() {
                    account.changed.send_replace(());
                }
                return;
            }
        };
        if let Some(account) = account.and_then(|id| registry.accounts.get(id.as_str())) {
            account.changed.send_replace(());
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Registry> {
        self.registry.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The registry's copy of an id when it has one, else a new one.
fn shared(known: Option<&Arc<str>>, id: &str) -> Arc<str> {
    known.cloned().unwrap_or_else(|| id.into())
}

/// One socket's place in its account's count, who it is, and its signal to check the
/// session again.
pub struct Admitted {
    sockets: Arc<Sockets>,
    pub account_id: Arc<str>,
    pub session_id: Arc<str>,
    changes: watch::Receiver<()>,
}

impl Admitted {
    /// Resolves when the account or one of its sessions may have changed since the last
    /// time it resolved (cancel-safe: a change while the socket was busy is not lost).
    pub async fn changed(&mut self) {
        if self.changes.changed().await.is_err() {
            // The sender lives as long as this guard's account entry: never here.
            std::future::pending::<()>().await;
        }
    }

    /// The socket re-authenticated with a token of another session of the same account.
    pub fn move_to_session(&mut self, session_id: &str) {
        let mut registry = self.sockets.lock();
        release_session(&mut registry, &self.session_id);
        let session_id = shared(
            registry
                .sessions
                .get_key_value(session_id)
                .map(|(id, _)| id),
            session_id,
        );
        registry
            .sessions
            .entry(session_id.clone())
            .or_insert_with(|| (self.account_id.clone(), 0))
            .1 += 1;
        self.session_id = session_id;
    }
}

fn release_session(registry: &mut Registry, session_id: &str) {
    if let Some((_, held)) = registry.sessions.get_mut(session_id) {
        *held -= 1;
        if *held == 0 {
            registry.sessions.remove(session_id);
        }
    }
}

impl Drop for Admitted {
    fn drop(&mut self) {
        let mut registry = self.sockets.lock();
        if let Some(account) = registry.accounts.get_mut(&self.account_id) {
            account.open -= 1;
            if account.open == 0 {
                registry.accounts.remove(&self.account_id);
            }
        }
        release_session(&mut registry, &self.session_id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_account_holds_at_most_a_handful_and_gets_them_back() {
        let sockets = Arc::new(Sockets::new());
        let held: Vec<_> = (0..PER_ACCOUNT)
            .map(|_| sockets.admit("a", "s").unwrap())
            .collect();
        assert!(sockets.admit("a", "s2").is_none());
        assert!(
            sockets.admit("b", "s3").is_some(),
            "another account is counted apart"
        );
        drop(held);
        assert!(sockets.admit("a", "s").is_some());
        assert_eq!(
            sockets.open(),
            0,
            "every guard dropped gives its place back"
        );
        assert!(sockets.lock().sessions.is_empty(), "and its session");
    }

    async fn cache_change(bus: &Bus, change: AccountChanged) {
        bus.publish(&Channel::Cache, change.to_event("elsewhere".into()))
            .await
            .unwrap();
    }

    /// Whether the socket's signal fired (without waiting for it).
    fn fired(admitted: &mut Admitted) -> bool {
        let fired = admitted.changes.has_changed().unwrap();
        admitted.changes.mark_unchanged();
        fired
    }

    #[tokio::test]
    async fn a_change_wakes_only_the_sockets_it_concerns() {
        let bus = Bus::in_process();
        let sockets = Arc::new(Sockets::new());
        let follower = tokio::spawn(sockets.clone().follow_changes(bus.clone()));
        tokio::task::yield_now().await;
        let mut ann = sockets.admit("ann", "ann-phone").unwrap();
        let mut ann_laptop = sockets.admit("ann", "ann-laptop").unwrap();
        let mut bob = sockets.admit("bob", "bob-phone").unwrap();

        cache_change(&bus, AccountChanged::Session("ann-laptop".into())).await;
        cache_change(&bus, AccountChanged::Project("p".into())).await;
        cache_change(&bus, AccountChanged::Account("nobody-here".into())).await;
        // The follower has handled everything once a marker published after it arrives.
        cache_change(&bus, AccountChanged::Account("bob".into())).await;
        tokio::time::timeout(std::time::Duration::from_secs(5), bob.changed())
            .await
            .expect("bob's account change reaches bob's socket");

        assert!(
            fired(&mut ann),
            "a session's end wakes its account's sockets"
        );
        assert!(fired(&mut ann_laptop));
        assert!(
            !fired(&mut bob),
            "only once for bob: its own change, read above"
        );
        follower.abort();
    }
}
