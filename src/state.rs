//! The application state: every service a handler may need, shared by every request. It
//! only holds them: `startup` builds them, in order, and starts what runs beside them.
//! Holds only leaves (configuration, the database, keys, caches, the bus): it imports no
//! handler module.

use std::sync::Arc;

use crate::accounts::model::AccountChanged;
use crate::auth::jwt::TokenKeys;
use crate::auth::passwords::Passwords;
use crate::auth::rate_limit::RateLimits;
use crate::auth::session_cache::SessionCache;
use crate::bus::{Bus, Channel};
use crate::cluster::Lifecycle;
use crate::commerce::providers::Provider;
use crate::config::Config;
use crate::db::Db;
use crate::live::figures::Figures;
use crate::live::sockets::Sockets;
use crate::messaging::Messenger;
use crate::net::websocket::Unproven;
use crate::stream::access::StreamAccess;
use crate::stream::show::hub::Hub;

/// Everything a handler may need. Cloned for every request (axum's `State`), so it is
/// one reference count: the services themselves live in [`Services`].
#[derive(Clone)]
pub struct AppState(Arc<Services>);

impl std::ops::Deref for AppState {
    type Target = Services;
    fn deref(&self) -> &Services {
        &self.0
    }
}

pub struct Services {
    pub db: Db,
    pub config: Arc<Config>,
    pub keys: Arc<TokenKeys>,
    pub passwords: Passwords,
    pub limits: Arc<RateLimits>,
    pub messenger: Messenger,
    pub sessions: SessionCache,
    pub payments: Provider,
    pub hub: Arc<Hub>,
    pub stream_access: Arc<StreamAccess>,
    pub bus: Bus,
    /// This instance's open dashboard sockets.
    pub live: Arc<Sockets>,
    /// One relay per room followed by a socket here (`live::room_relay`).
    pub room_relays: Arc<crate::live::room_relay::RoomRelays>,
    /// The live figures of this instance's shows (listeners on every instance).
    pub figures: Arc<Figures>,
    /// Serving or draining (readiness, shutdown).
    pub lifecycle: Arc<Lifecycle>,
    /// Housekeeping ticks run here (metrics, tests).
    pub housekeeping: Arc<crate::cluster::lease::Runs>,
    /// Sockets open that have not proved who they are yet (capped across the server).
    pub unproven: Unproven,
    /// How fast the live rooms take messages (across instances).
    pub chat_limits: crate::chat::limits::Limits,
    /// The live rooms' reactions, counted here and sent out as counts.
    pub reactions: Arc<crate::chat::reactions::Reactions>,
}

impl axum::extract::FromRef<AppState> for Unproven {
    fn from_ref(app: &AppState) -> Self {
        app.unproven.clone()
    }
}

impl AppState {
    /// The state over its services (built by `startup::build`).
    pub fn new(services: Services) -> Self {
        Self(Arc::new(services))
    }
}

impl AppState {
    /// Tell every instance that an account changed: the one place the session cache
    /// forgets an account for a change. Here at once (the write's own answer must not see
    /// a stale session), and on the others through the bus (`auth::session_cache::follow_account_changes`).
    pub fn publish(&self, change: AccountChanged) {
        self.sessions.forget(&change);
        self.bus.publish_detached(
            Channel::Cache,
            change.to_event(self.bus.instance().to_owned()),
        );
    }
}
