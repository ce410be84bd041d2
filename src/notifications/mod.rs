//! Notifications of the spec's three kinds: a message sent to someone, an upload (with
//! its type), a topic started. Each account reads and marks its own.

use axum::Router;
use axum::extract::{Path, State};
use axum::routing::{get, post};
use serde::{Deserialize, Serialize};

use crate::app::AppState;
use crate::auth::extract::CurrentUser;
use crate::db::{Db, iso8601, now_ms};
use crate::envelope::{Api, QueryParams};
use crate::error::{Error, Result};
use crate::i18n::Msg;
use crate::paging::Paging;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Message,
    Upload,
    Topic,
}

impl Kind {
    fn as_str(self) -> &'static str {
        match self {
            Self::Message => "message",
            Self::Upload => "upload",
            Self::Topic => "topic",
        }
    }
}

pub struct NewNotification {
    pub kind: Kind,
    pub title: String,
    pub body: String,
    pub sender: Option<String>,
    pub upload_type: Option<String>,
}

impl NewNotification {
    pub fn message(sender: &str, title: impl Into<String>, body: impl Into<String>) -> Self {
        Self {
            kind: Kind::Message,
            title: title.into(),
            body: body.into(),
            sender: Some(sender.to_owned()),
            upload_type: None,
        }
    }
    pub fn upload(upload_type: &str, title: impl Into<String>, body: impl Into<String>) -> Self {
        Self {
            kind: Kind::Upload,
            title: title.into(),
            body: body.into(),
            sender: None,
            upload_type: Some(upload_type.to_owned()),
        }
    }
    pub fn topic(title: impl Into<String>, body: impl Into<String>) -> Self {
        Self {
            kind: Kind::Topic,
            title: title.into(),
            body: body.into(),
            sender: None,
            upload_type: None,
        }
    }
}

pub async fn notify(db: &Db, account_id: &str, n: &NewNotification) -> Result<()> {
    sqlx::query(
        "INSERT INTO notifications (id, account_id, kind, title, body, sender, upload_type, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(uuid::Uuid::new_v4().to_string())
    .bind(account_id)
    .bind(n.kind.as_str())
    .bind(&n.title)
    .bind(&n.body)
    .bind(&n.sender)
    .bind(&n.upload_type)
    .bind(now_ms())
    .execute(db)
    .await?;
    Ok(())
}

/// Tell every admin and super admin.
pub async fn notify_staff(db: &Db, n: NewNotification) -> Result<()> {
    let staff: Vec<(String,)> =
        sqlx::query_as("SELECT id FROM accounts WHERE role IN ('admin', 'sa') AND enabled = 1")
            .fetch_all(db)
            .await?;
    for (id,) in staff {
        notify(db, &id, &n).await?;
    }
    Ok(())
}

#[derive(Debug, sqlx::FromRow)]
struct Row {
    id: String,
    kind: String,
    title: String,
    body: String,
    sender: Option<String>,
    upload_type: Option<String>,
    read_at: Option<i64>,
    created_at: i64,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Notification {
    id: String,
    #[serde(rename = "type")]
    kind: String,
    title: String,
    body: String,
    sender: Option<String>,
    upload_type: Option<String>,
    read: bool,
    created_at: String,
}

impl From<Row> for Notification {
    fn from(r: Row) -> Self {
        Self {
            id: r.id,
            kind: r.kind,
            title: r.title,
            body: r.body,
            sender: r.sender,
            upload_type: r.upload_type,
            read: r.read_at.is_some(),
            created_at: iso8601(r.created_at),
        }
    }
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PageQuery {
    page: Option<i64>,
    page_size: Option<i64>,
    #[serde(default)]
    filter: Filter,
}

/// Which notifications a page lists; `unread` in the answer always counts all unread.
#[derive(Debug, Clone, Copy, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Filter {
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

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NotificationPage {
    items: Vec<Notification>,
    total: i64,
    unread: i64,
    page: i64,
    page_size: i64,
}

const COLUMNS: &str = "id, kind, title, body, sender, upload_type, read_at, created_at";

async fn list(
    State(app): State<AppState>,
    user: CurrentUser,
    QueryParams(q): QueryParams<PageQuery>,
) -> Result<Api<NotificationPage>> {
    let paging = Paging::parse(q.page, q.page_size, 20)?;
    let Paging { page, page_size } = paging;
    let filter = q.filter.condition();
    let offset = paging.offset();
    let sql = format!(
        "SELECT {COLUMNS} FROM notifications WHERE account_id = $1{filter} \
         ORDER BY created_at DESC, id LIMIT {page_size} OFFSET {offset}"
    );
    let rows = sqlx::query_as::<_, Row>(sqlx::AssertSqlSafe(sql))
        .bind(&user.account.id)
        .fetch_all(&app.db)
        .await?;
    let (total, unread): (i64, i64) = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT CAST(COALESCE(SUM(CASE WHEN account_id = $1{filter} THEN 1 ELSE 0 END), 0) AS BIGINT), \
         CAST(COALESCE(SUM(CASE WHEN read_at IS NULL THEN 1 ELSE 0 END), 0) AS BIGINT) \
         FROM notifications WHERE account_id = $1"
    )))
    .bind(&user.account.id)
    .fetch_one(&app.db)
    .await?;
    Ok(Api::ok(NotificationPage {
        items: rows.into_iter().map(Notification::from).collect(),
        total,
        unread,
        page,
        page_size,
    }))
}

async fn mark_read(
    State(app): State<AppState>,
    user: CurrentUser,
    Path(id): Path<String>,
) -> Result<Api<Notification>> {
    sqlx::query(
        "UPDATE notifications SET read_at = $3 WHERE id = $1 AND account_id = $2 AND read_at IS NULL",
    )
    .bind(&id)
    .bind(&user.account.id)
    .bind(now_ms())
    .execute(&app.db)
    .await?;
    let sql = format!("SELECT {COLUMNS} FROM notifications WHERE id = $1 AND account_id = $2");
    let row = sqlx::query_as::<_, Row>(sqlx::AssertSqlSafe(sql))
        .bind(&id)
        .bind(&user.account.id)
        .fetch_optional(&app.db)
        .await?
        .ok_or_else(|| Error::not_found(Msg::NotificationNotFound))?;
    Ok(Api::ok(row.into()))
}

async fn mark_all_read(State(app): State<AppState>, user: CurrentUser) -> Result<Api<()>> {
    sqlx::query("UPDATE notifications SET read_at = $2 WHERE account_id = $1 AND read_at IS NULL")
        .bind(&user.account.id)
        .bind(now_ms())
        .execute(&app.db)
        .await?;
    Ok(Api::ok(()))
}

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/notifications", get(list))
        .route("/notifications/read-all", post(mark_all_read))
        .route("/notifications/{id}/read", post(mark_read))
}
