//! Notifications of the spec's three kinds: a message sent to someone, an upload (with
//! its type), a topic started. Each account reads and marks its own.

pub mod model;
pub mod store;

pub use model::{Kind, NewNotification, Notification};

use axum::extract::{Path, State};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::auth::extract::CurrentUser;
use crate::db::{Db, now_ms};
use crate::envelope::{Api, Envelope, QueryParams};
use crate::error::{Error, Result};
use crate::i18n::Msg;
use crate::paging::{Page, Paging};
use crate::state::AppState;

pub async fn notify(db: &Db, account_id: &str, n: &NewNotification) -> Result<()> {
    store::insert(db, account_id, n, now_ms()).await
}

/// Tell every admin and super admin, all of them or none.
pub async fn notify_staff(db: &Db, n: NewNotification) -> Result<()> {
    let mut tx = db.begin().await?;
    let now = now_ms();
    for id in store::enabled_staff(&mut *tx).await? {
        store::insert(&mut *tx, &id, &n, now).await?;
    }
    tx.commit().await?;
    Ok(())
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
#[utoipa::path(get, path = "/notifications", tag = "notifications", security(("bearer" = [])),
    params(Paging, ListQuery),
    responses((status = 200, description = "A page of notifications.", body = Envelope<NotificationPage>)))]
async fn list(
    State(app): State<AppState>,
    user: CurrentUser,
    paging: Paging,
    QueryParams(q): QueryParams<ListQuery>,
) -> Result<Api<NotificationPage>> {
    let account = &user.account.id;
    let rows = store::page(&app.db, account, q.filter, paging).await?;
    let (total, unread) = store::counts(&app.db, account, q.filter).await?;
    let items = rows.into_iter().map(Notification::from).collect();
    Ok(Api::ok(NotificationPage {
        page: Page::new(items, total, paging),
        unread,
    }))
}

/// Marks one of the signed-in account's notifications read.
#[utoipa::path(post, path = "/notifications/{id}/read", tag = "notifications", security(("bearer" = [])),
    params(("id" = String, Path, description = "The notification's id")),
    responses((status = 200, description = "The notification, read.", body = Envelope<Notification>)))]
async fn mark_read(
    State(app): State<AppState>,
    user: CurrentUser,
    Path(id): Path<String>,
) -> Result<Api<Notification>> {
    let account = &user.account.id;
    store::mark_read(&app.db, &id, account, now_ms()).await?;
    let row = store::by_id(&app.db, &id, account)
        .await?
        .ok_or_else(|| Error::not_found(Msg::NotificationNotFound))?;
    Ok(Api::ok(row.into()))
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
