//! This instance's open dashboard sockets: how many each account holds (a handful at
//! most) and the signal that tells them all the server is going away.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio_util::sync::CancellationToken;

/// Sockets one account may hold open on one instance (a few tabs and devices).
pub const PER_ACCOUNT: usize = 8;

#[derive(Default)]
pub struct Sockets {
    per_account: Mutex<HashMap<String, usize>>,
    shutdown: CancellationToken,
}

impl Sockets {
    pub fn new() -> Self {
        Self::default()
    }

    /// A place for one more socket of `account_id`, or `None` when it holds
    /// [`PER_ACCOUNT`] already. The place is given back when the guard drops.
    pub fn admit(self: &Arc<Self>, account_id: &str) -> Option<Admitted> {
        let mut counts = self.per_account.lock().unwrap_or_else(|e| e.into_inner());
        let count = counts.entry(account_id.to_owned()).or_default();
        if *count >= PER_ACCOUNT {
            return None;
        }
        *count += 1;
        Some(Admitted {
            sockets: self.clone(),
            account_id: account_id.to_owned(),
        })
    }

    /// How many sockets are open on this instance.
    pub fn open(&self) -> usize {
        let counts = self.per_account.lock().unwrap_or_else(|e| e.into_inner());
        counts.values().sum()
    }

    /// Resolves when the server starts shutting down.
    pub fn shutting_down(&self) -> tokio_util::sync::WaitForCancellationFuture<'_> {
        self.shutdown.cancelled()
    }

    /// Tell every socket the server is going away (they close with 1001).
    pub fn shut_down(&self) {
        self.shutdown.cancel();
    }
}

/// One socket's place in its account's count.
pub struct Admitted {
    sockets: Arc<Sockets>,
    account_id: String,
}

impl Drop for Admitted {
    fn drop(&mut self) {
        let mut counts = self
            .sockets
            .per_account
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        if let Some(count) = counts.get_mut(&self.account_id) {
            *count -= 1;
            if *count == 0 {
                counts.remove(&self.account_id);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_account_holds_at_most_a_handful_and_gets_them_back() {
        let sockets = Arc::new(Sockets::new());
        let held: Vec<_> = (0..PER_ACCOUNT)
            .map(|_| sockets.admit("a").unwrap())
            .collect();
        assert!(sockets.admit("a").is_none());
        assert!(
            sockets.admit("b").is_some(),
            "another account is counted apart"
        );
        drop(held);
        assert!(sockets.admit("a").is_some());
        assert_eq!(
            sockets.open(),
            0,
            "every guard dropped gives its place back"
        );
    }
}
