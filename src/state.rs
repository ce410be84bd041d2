//! The application state: every service a handler may need, built once at start and
//! shared by every request. Holds only leaves (configuration, the database, keys, caches,
//! the bus): it imports no handler module.

use std::sync::Arc;

use crate::accounts::model::AccountChanged;
use crate::auth::jwt::TokenKeys;
use crate::auth::passwords::Passwords;
use crate::auth::rate_limit::RateLimits;
use crate::auth::session_cache::SessionCache;
use crate::bus::{Bus, Channel, Event};
use crate::cluster::Lifecycle;
use crate::commerce::providers::Provider;
use crate::config::Config;
use crate::db::Db;
use crate::live::figures::Figures;
use crate::live::sockets::Sockets;
use crate::messaging::Messenger;
use crate::net::websocket::Unproven;
use crate::stream::access::StreamAccess;
use crate::stream::hub::Hub;

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
    /// The live figures of this instance's shows (listeners on every instance).
    pub figures: Arc<Figures>,
    /// Serving or draining (readiness, shutdown).
    pub lifecycle: Arc<Lifecycle>,
    /// Housekeeping ticks run here (metrics, tests).
    pub housekeeping: Arc<crate::cluster::lease::Runs>,
    /// Sockets open that have not proved who they are yet (capped across the server).
    pub unproven: Unproven,
}

impl axum::extract::FromRef<AppState> for Unproven {
    fn from_ref(app: &AppState) -> Self {
        app.unproven.clone()
    }
}

impl AppState {
    /// Connect to the database (running migrations) and build the services.
    pub async fn new(config: Config) -> anyhow::Result<Self> {
        let db = crate::db::connect(&config.database_url).await?;
        // The data step of migration 0007 that SQL cannot do portably; the events domain
        // owns it, so the database layer stays below every domain.
        crate::events::store::hash_legacy_stream_keys(&db).await?;
        crate::config::secure_data_dir(&config.data_dir)?;
        crate::auth::clients::seed_web_client(&db, &config.web_redirect_uri()).await?;
        let bus = match &config.redis_url {
            Some(url) => Bus::redis(url.expose(), &config.redis_prefix).await?,
            None => Bus::in_process(),
        };
        let sessions = SessionCache::new();
        let stream_access = Arc::new(
            StreamAccess::new(config.jwt_secret.expose().as_bytes()).shared_through(bus.clone()),
        );
        let hub = Arc::new(Hub::new(config.data_dir.join("shows")));
        let figures = Arc::new(Figures::new(hub.clone(), bus.clone()));
        crate::bus::sessions::follow_account_changes(bus.clone(), sessions.clone()).await?;
        let shared = crate::cluster::shared::Shared::new(&bus);
        let state = Self(Arc::new(Services {
            keys: Arc::new(TokenKeys::new(&config.jwt_secret)),
            passwords: Passwords::new(),
            limits: Arc::new(RateLimits::new(
                config.auth_rate_per_minute,
                config.account_failures_per_hour,
                crate::stream::ingest::ENCODER_CONNECTS_PER_WINDOW,
                shared.clone(),
            )),
            messenger: Messenger::from_config(&config, shared.clone())?,
            sessions,
            bus,
            live: Arc::new(Sockets::new()),
            figures,
            lifecycle: Arc::new(Lifecycle::new()),
            housekeeping: Arc::default(),
            unproven: Unproven::new(config.unauthenticated_sockets),
            hub,
            stream_access,
            payments: Provider::from_config(
                config.payments,
                config.stripe_secret_key.as_ref(),
                config.stripe_webhook_secret.as_ref(),
                &config.stripe_api_base,
            )?,
            config: Arc::new(config),
            db,
        }));
        crate::stream::markers::follow_changes(state.clone());
        // Other instances' changes are followed from before the sessions are read.
        state.stream_access.clone().follow_changes(state.db.clone());
        // Playlist URLs handed out before a restart keep working.
        let restored = state.stream_access.restore(&state.db).await?;
        if restored > 0 {
            tracing::info!(sessions = restored, "listening sessions restored");
        }
        Ok(state)
    }
}

impl AppState {
    /// Tell every instance that an account changed: the one place the session cache
    /// forgets an account for a change. Here at once (the write's own answer must not see
    /// a stale session), and on the others through the bus (`bus::sessions`).
    pub fn publish(&self, change: AccountChanged) {
        self.sessions.forget(&change);
        self.bus.publish_detached(
            Channel::Cache,
            Event::cache_change(change, self.bus.instance().to_owned()),
        );
    }
}
