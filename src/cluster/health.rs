//! Liveness and readiness. Live: the process answers. Ready: it is not draining, its
//! database answers, and so does its Redis when one is configured — what a load balancer
//! needs to know before it sends a request here.

use std::time::Duration;

use crate::bus::Bus;
use crate::db::Db;

use super::Lifecycle;

/// How long one dependency may take to answer the probe before it counts as down (a
/// probe that hangs would tell the load balancer nothing).
pub const PROBE_TIMEOUT: Duration = Duration::from_secs(2);

/// The first part that keeps this instance from serving.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotReady {
    Draining,
    Database,
    Redis,
}

impl NotReady {
    /// The part's name, as the 503 names it (the same in every language).
    pub fn part(self) -> &'static str {
        match self {
            Self::Draining => "draining",
            Self::Database => "database",
            Self::Redis => "redis",
        }
    }
}

/// Whether this instance can serve: not draining, the database and (if configured) Redis
/// answering within [`PROBE_TIMEOUT`].
pub async fn readiness(lifecycle: &Lifecycle, db: &Db, bus: &Bus) -> Result<(), NotReady> {
    if lifecycle.is_draining() {
        return Err(NotReady::Draining);
    }
    let database = tokio::time::timeout(PROBE_TIMEOUT, crate::db::ping(db)).await;
    if !matches!(database, Ok(Ok(_))) {
        return Err(NotReady::Database);
    }
    let ping = redis::cmd("PING");
    match tokio::time::timeout(PROBE_TIMEOUT, bus.shared_command::<String>(&ping)).await {
        // In process: no Redis to wait for.
        Ok(None) | Ok(Some(Ok(_))) => Ok(()),
        Ok(Some(Err(_))) | Err(_) => Err(NotReady::Redis),
    }
}
