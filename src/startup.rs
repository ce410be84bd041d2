//! Startup in one place: everything Encore builds and starts, in order. `AppState` only
//! holds what is built here; `app` only routes and serves. `encore serve`, the tests and
//! the benchmarks start the same way: [`build`], then [`run`].
//!
//! 1. The database: connect (running migrations), the data steps SQL cannot do portably,
//!    the data directory's permissions, the dashboard's OAuth client.
//! 2. The bus: in process, or Redis with `ENCORE_REDIS_URL`.
//! 3. The services every handler may use.
//! 4. What keeps caches in step with other instances, started before anything is served:
//!    cached sessions, stream access (and the sessions handed out before a restart),
//!    markers.
//! 5. With [`run`]: the background work (housekeeping, live figures, sockets following
//!    account changes, the show journal, the orphaned-show watch, the notification relay,
//!    the minutes listened, the set to keep made as each show ends), then serving.

use std::sync::Arc;

use tokio::net::TcpListener;

use crate::auth::jwt::TokenKeys;
use crate::auth::passwords::Passwords;
use crate::auth::rate_limit::RateLimits;
use crate::auth::session_cache::SessionCache;
use crate::bus::Bus;
use crate::cluster::Lifecycle;
use crate::commerce::providers::Provider;
use crate::config::Config;
use crate::live::figures::Figures;
use crate::live::sockets::Sockets;
use crate::messaging::Messenger;
use crate::net::websocket::Unproven;
use crate::state::{AppState, Services};
use crate::stream::access::StreamAccess;
use crate::stream::show::hub::Hub;

/// Build everything a request may need, and start what keeps it in step (steps 1–4).
pub async fn build(config: Config) -> anyhow::Result<AppState> {
    if let Some(why) = config.ingest_unreachable() {
        tracing::warn!("{why}");
    }
    // 1. The database.
    let db = crate::db::connect(&config.database_url).await?;
    // The data step of migration 0007 that SQL cannot do portably; the events domain
    // owns it, so the database layer stays below every domain.
    crate::events::store::hash_legacy_stream_keys(&db).await?;
    crate::config::secure_data_dir(&config.data_dir)?;
    crate::auth::clients::seed_web_client(&db, &config.web_redirect_uri()).await?;

    // 2. The bus.
    let bus = match &config.redis_url {
        Some(url) => Bus::redis(url.expose(), &config.redis_prefix).await?,
        None => Bus::in_process(),
    };

    // 3. The services.
    let sessions = SessionCache::new();
    let stream_access = Arc::new(
        StreamAccess::new(config.jwt_secret.expose().as_bytes()).shared_through(bus.clone()),
    );
    let hub = Arc::new(
        Hub::new(config.data_dir.join("shows")).abandoning_after(config.show_abandon_after),
    );
    let figures = Arc::new(Figures::new(hub.clone(), bus.clone()));
    let shared = crate::cluster::shared::Shared::new(&bus);
    let state = AppState::new(Services {
        keys: Arc::new(TokenKeys::new(&config.jwt_secret)),
        passwords: Passwords::new(),
        limits: Arc::new(RateLimits::new(
            config.auth_rate_per_minute,
            config.account_failures_per_hour,
            crate::stream::ingest::ENCODER_CONNECTS_PER_WINDOW,
            shared.clone(),
        )),
        messenger: Messenger::from_config(&config, shared.clone())?,
        sessions: sessions.clone(),
        bus: bus.clone(),
        live: Arc::new(Sockets::new()),
        room_relays: Arc::new(crate::live::room_relay::RoomRelays::new(
            bus.clone(),
            config.room_writer_nice,
        )),
        figures,
        lifecycle: Arc::new(Lifecycle::new()),
        housekeeping: Arc::default(),
        unproven: Unproven::new(config.unauthenticated_sockets),
        chat_limits: crate::chat::limits::Limits::new(shared.clone()),
        reactions: Arc::new(crate::chat::reactions::Reactions::new(
            bus.clone(),
            db.clone(),
        )),
        hub,
        stream_access,
        payments: Provider::from_config(
            config.payments,
            config.stripe_secret_key.as_ref(),
            config.stripe_webhook_secret.as_ref(),
            &config.stripe_api_base,
            config.stripe_connect,
            config.stripe_connect_webhook_secret.as_ref(),
        )?,
        config: Arc::new(config),
        db,
    });

    // 4. Followers that keep caches in step, before anything is served.
    crate::auth::session_cache::follow_account_changes(bus, sessions).await?;
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

/// Start the background work (step 5), then serve on already-bound listeners (HTTP, and
/// the Icecast source port when given) until `shutdown` resolves.
pub async fn run(
    listener: TcpListener,
    ingest: Option<TcpListener>,
    state: AppState,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    spawn_housekeeping(&state);
    crate::live::figures::spawn(state.figures.clone());
    state.reactions.clone().spawn();
    tokio::spawn(state.live.clone().follow_changes(state.bus.clone()));
    crate::stream::show::journal::spawn(
        &state.bus,
        &state.hub,
        crate::stream::show::journal::Bounds {
            journal_bytes: state.config.journal_bytes,
            queued_bytes: state.config.journal_queue_bytes,
        },
    );
    crate::stream::ingest::spawn_orphan_watch(&state);
    crate::notifications::spawn_relay(state.db.clone(), state.bus.clone());
    crate::stream::access::minutes::spawn(state.db.clone(), state.hub.clone());
    crate::stream::download::spawn_maker(state.clone());
    crate::app::serve(listener, ingest, state, shutdown).await
}

/// Every tick, on every instance: prune this instance's rate-limit and SMS counters from
/// memory and delete its own copies of recordings past retention. Once per tick across
/// the instances (a lease, `cluster::lease`): purge expired one-time secrets and listening
/// sessions, expire unpaid checkouts, remind ticket holders of concerts about to start.
fn spawn_housekeeping(state: &AppState) {
    let state = state.clone();
    tokio::spawn(async move {
        let period = state.config.housekeeping_period;
        let mut tick = tokio::time::interval(period);
        loop {
            tick.tick().await;
            // The limits' and the SMS gate's counts share one store.
            state.limits.prune();
            crate::stream::ingest::purge_recordings(&state).await;
            let shared = crate::cluster::lease::take_window(
                &state.bus,
                "housekeeping",
                period,
                crate::db::now_ms(),
            )
            .await;
            state.housekeeping.ran(shared);
            if !shared {
                continue;
            }
            if let Err(err) = crate::auth::store::purge_expired(&state.db).await {
                tracing::warn!(error = %err, "purging expired secrets failed");
            }
            if let Err(err) =
                crate::stream::access::sessions::purge_expired(&state.db, crate::db::now_ms()).await
            {
                tracing::warn!(error = %err, "purging expired listening sessions failed");
            }
            // Give back the seats of checkouts nobody paid for.
            if let Err(err) = crate::commerce::orders::expire_overdue(&state.db).await {
                tracing::warn!(error = %err, "expiring unpaid orders failed");
            }
            if let Err(err) = crate::events::notices::remind_starting_soon(&state).await {
                tracing::warn!(error = %err, "reminding ticket holders failed");
            }
        }
    });
}
