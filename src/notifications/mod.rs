//! Notifications of the spec's three kinds: a message sent to someone, an upload (with
//! its type), a topic started. Each account reads and marks its own.
//!
//! The table is its own outbox: a notification is stored in the transaction of the change
//! that caused it ([`Outbox`]), published on the account's bus channel after the commit,
//! then marked published; [`relay`] publishes what a crash or a bus outage left behind.

pub mod model;
pub mod store;

pub use model::{Kind, NewNotification, Notification, Texts};

use axum::extract::State;
use axum::http::HeaderMap;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::accounts::model::AccountRow;
use crate::auth::extract::{CurrentUser, IdRequest};
use crate::bus::{Bus, Channel, Publication};
use crate::db::{Db, Exec, now_ms};
use crate::envelope::{Api, Envelope, QueryParams};
use crate::error::{Error, Result};
use crate::i18n::{Lang, Msg, Text, Zone};
use crate::paging::{Page, Paging};
use crate::state::AppState;

/// How long a stored notification may stay unpublished before the relay publishes it: the
/// writer publishes right after its commit, so one older than this was left behind (a
/// crash, or the bus down, between the commit and the publish).
pub const RELAY_AFTER_MS: i64 = 5_000;
/// How often the relay looks.
pub const RELAY_EVERY: std::time::Duration = std::time::Duration::from_secs(5);
/// Notifications the relay publishes per round.
const RELAY_BATCH: i64 = 200;
/// How long a relay's claim on a notification holds before another relay may take it.
pub const CLAIM_LEASE_MS: i64 = 30_000;

/// Who a notification goes to, and the language and time zone to write it in for them.
#[derive(Debug, Clone)]
pub struct Recipient {
    pub id: String,
    pub language: Lang,
    /// Where times are written for them: their account's zone, UTC when unknown.
    pub zone: Zone,
}
crate::db::from_row!(Recipient { id, language as String, zone = "time_zone" as Option<String> });

/// A notification not yet written in anyone's language: each recipient reads it in their
/// own, with any time in it on their own clocks.
#[derive(Debug, Clone)]
pub struct Notice {
    texts: Texts,
    link: String,
}

impl Notice {
    pub fn new(title: impl Into<Text>, body: impl Into<Text>, link: impl Into<String>) -> Self {
        Self {
            texts: Texts::new(title, body),
            link: link.into(),
        }
    }

    pub fn written_for(&self, lang: Lang, zone: &Zone) -> NewNotification {
        NewNotification::topic(self.texts.clone(), lang, zone).linked(&self.link)
    }
}

/// Notifications stored in a transaction that has not committed yet: stored with their
/// cause, published once it commits ([`Outbox::publish`]). Dropped unpublished (an
/// error, a rollback), the relay publishes whatever did commit.
#[must_use = "publish the notifications once the transaction commits"]
#[derive(Debug, Default)]
pub struct Outbox {
    stored: Vec<(String, Notification)>,
}

impl Outbox {
    /// Store one notification for an account.
    pub async fn add<'e>(
        &mut self,
        db: impl Exec<'e>,
        account_id: &str,
        n: &NewNotification,
    ) -> Result<()> {
        let row = store::insert(db, account_id, n, now_ms()).await?;
        self.stored.push((account_id.to_owned(), row.into()));
        Ok(())
    }

    /// Store a notice for one account, in its language and time zone.
    pub async fn tell_account(
        &mut self,
        conn: &mut sqlx::AnyConnection,
        account: &AccountRow,
        notice: &Notice,
    ) -> Result<()> {
        let written = notice.written_for(account.language, &account.zone());
        self.add(conn, &account.id, &written).await
    }

    /// Store a notice for each recipient, in their language and time zone.
    pub async fn tell(
        &mut self,
        conn: &mut sqlx::AnyConnection,
        recipients: &[Recipient],
        notice: &Notice,
    ) -> Result<()> {
        for recipient in recipients {
            self.add(
                &mut *conn,
                &recipient.id,
                &notice.written_for(recipient.language, &recipient.zone),
            )
            .await?;
        }
        Ok(())
    }

    /// Store a notice for every enabled admin and super admin.
    pub async fn tell_staff(
        &mut self,
        conn: &mut sqlx::AnyConnection,
        notice: &Notice,
    ) -> Result<()> {
        let staff = store::staff(&mut *conn).await?;
        self.tell(conn, &staff, notice).await
    }

    /// Once the transaction committed: put each on its account's channel, then mark the
    /// ones the bus took. A failure is logged and left to the relay.
    pub async fn publish(self, db: &Db, bus: &Bus) {
        let mut published = Vec::with_capacity(self.stored.len());
        for (account_id, notification) in self.stored {
            let id = notification.id().to_owned();
            match bus
                .publish(
                    &Channel::Account(account_id),
                    Publication::new(&model::Published { notification }),
                )
                .await
            {
                Ok(_) => published.push(id),
                Err(err) => {
                    tracing::warn!(notification = %id, error = %err, "publishing a notification failed; the relay will");
                }
            }
        }
        if let Err(err) = store::mark_published(db, &published, now_ms()).await {
            tracing::warn!(error = %err, "marking notifications published failed");
        }
    }
}

/// Store one notification and publish it: for what has no other write to go with.
pub async fn notify(app: &AppState, account_id: &str, n: &NewNotification) -> Result<()> {
    let mut outbox = Outbox::default();
    outbox.add(&app.db, account_id, n).await?;
    outbox.publish(&app.db, &app.bus).await;
    Ok(())
}

/// Publish what was stored but not published within [`RELAY_AFTER_MS`]. Each row is
/// claimed first (a conditional update), so of several instances relaying at once only
/// one publishes it; a claim whose publish fails is given back, and the claim of a relay
/// that died before publishing runs out after [`CLAIM_LEASE_MS`] (the push may then come
/// twice if it died between publishing and confirming: never not at all). Answers how many
/// it published.
pub async fn relay(db: &Db, bus: &Bus) -> Result<usize> {
    let now = now_ms();
    let mut published = 0;
    for (account_id, row) in store::unpublished(db, now - RELAY_AFTER_MS, now, RELAY_BATCH).await? {
        let claimed_at = now_ms();
        let until = claimed_at + CLAIM_LEASE_MS;
        if !store::claim(db, &row.id, claimed_at, until).await? {
            continue;
        }
        let id = row.id.clone();
        let event = Publication::new(&model::Published {
            notification: row.into(),
        });
        match bus.publish(&Channel::Account(account_id), event).await {
            Ok(_) => {
                store::confirm(db, &id, until, now_ms()).await?;
                published += 1;
            }
            Err(err) => {
                tracing::warn!(notification = %id, error = %err, "relaying a notification failed");
                store::unclaim(db, &id, until).await?;
            }
        }
    }
    Ok(published)
}

/// Run [`relay`] every [`RELAY_EVERY`] for as long as the server runs.
pub fn spawn_relay(db: Db, bus: Bus) {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(RELAY_EVERY);
        loop {
            tick.tick().await;
            if let Err(err) = relay(&db, &bus).await {
                tracing::warn!(error = %err, "relaying notifications failed");
            }
        }
    });
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
struct ListQuery {
    /// `all` (the default), `unread` or `read`.
    #[serde(default)]
    #[param(inline)]
    filter: Filter,
}

/// Which notifications a page lists; `unread` in the answer always counts all unread.
#[derive(Debug, Clone, Copy, Default, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Filter {
    #[default]
    All,
    Unread,
    Read,
}

impl Filter {
    fn condition(self) -> &'static str {
        match self {
            Self::All => "",
            Self::Unread => " AND read_at IS NULL",
            Self::Read => " AND read_at IS NOT NULL",
        }
    }
}

/// A page of notifications and the account's unread count (the bell's badge).
#[derive(Debug, Serialize, ToSchema)]
pub struct NotificationPage {
    #[serde(flatten)]
    page: Page<Notification>,
    /// All the account's unread notifications, whatever the filter.
    unread: i64,
}

/// The signed-in account's own notifications, newest first, with its unread count.
/// What the server wrote reads in the language of the request (`Accept-Language`, the page's),
/// else the account's, whatever language it was written in.
#[utoipa::path(get, path = "/notifications", tag = "notifications", security(("bearer" = [])),
    params(Paging, ListQuery),
    responses((status = 200, description = "A page of notifications.", body = Envelope<NotificationPage>)))]
async fn list(
    State(app): State<AppState>,
    user: CurrentUser,
    headers: HeaderMap,
    paging: Paging,
    QueryParams(q): QueryParams<ListQuery>,
) -> Result<Api<NotificationPage>> {
    let account = &user.account.id;
    let rows = store::page(&app.db, account, q.filter, paging).await?;
    let (total, unread) = store::counts(&app.db, account, q.filter).await?;
    let (lang, zone) = (reading(&headers, &user), user.account.zone());
    let items = rows
        .into_iter()
        .map(|row| row.read_in(lang, &zone))
        .collect();
    Ok(Api::ok(NotificationPage {
        page: Page::new(items, total, paging),
        unread,
    }))
}

/// The language notifications are read in: the page's, else the account's.
fn reading(headers: &HeaderMap, user: &CurrentUser) -> Lang {
    crate::i18n::current_or(headers, user.account.language)
}

/// Marks one of the signed-in account's notifications read.
#[utoipa::path(post, path = "/notifications/{id}/read", tag = "notifications", security(("bearer" = [])),
    params(("id" = String, Path, description = "The notification's id")),
    responses((status = 200, description = "The notification, read.", body = Envelope<Notification>)))]
async fn mark_read(
    IdRequest { app, user, id }: IdRequest,
    headers: HeaderMap,
) -> Result<Api<Notification>> {
    let account = &user.account.id;
    store::mark_read(&app.db, &id, account, now_ms()).await?;
    let row = store::by_id(&app.db, &id, account)
        .await?
        .ok_or_else(|| Error::not_found(Msg::NotificationNotFound))?;
    Ok(Api::ok(
        row.read_in(reading(&headers, &user), &user.account.zone()),
    ))
}

/// Marks all the signed-in account's notifications read.
#[utoipa::path(post, path = "/notifications/read-all", tag = "notifications", security(("bearer" = [])),
    responses((status = 200, description = "All read.", body = Envelope<crate::openapi::Nothing>)))]
async fn mark_all_read(State(app): State<AppState>, user: CurrentUser) -> Result<Api<()>> {
    store::mark_all_read(&app.db, &user.account.id, now_ms()).await?;
    Ok(Api::ok(()))
}

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list))
        .routes(routes!(mark_all_read))
        .routes(routes!(mark_read))
}
