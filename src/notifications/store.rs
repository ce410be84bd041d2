//! Every query of notifications: one function per statement.

use super::{Filter, NewNotification, Notification, Recipient};
use crate::db::{Db, Exec};
use crate::error::Result;
use crate::i18n::{Lang, Zone};
use crate::paging::Paging;

const COLUMNS: &str =
    "id, kind, title, body, sender, upload_type, link, texts, read_at, created_at";

/// A notification as stored: what was sent, with its id and times.
#[derive(Debug)]
pub struct Row {
    pub id: String,
    pub sent: NewNotification,
    pub read_at: Option<i64>,
    pub created_at: i64,
}
crate::db::from_row!(Row { id, ..sent, read_at, created_at });

impl Row {
    /// As its reader reads it now: what the server wrote, in the reader's language and on
    /// their clocks, whatever language it was written in for the live push.
    pub fn read_in(mut self, lang: Lang, zone: &Zone) -> Notification {
        if let Some(texts) = self.sent.texts.texts() {
            self.sent.title = texts.title.render_in(lang, zone);
            self.sent.body = texts.body.render_in(lang, zone);
        }
        self.into()
    }
}

/// Store a notification, unpublished (`published_at` NULL until the bus has it): the
/// stored row.
#[tracing::instrument(skip_all)]
pub async fn insert<'e>(
    db: impl Exec<'e>,
    account_id: &str,
    n: &NewNotification,
    now: i64,
) -> Result<Row> {
    Ok(sqlx::query_as::<_, Row>(sqlx::AssertSqlSafe(format!(
        "INSERT INTO notifications \
         (id, account_id, kind, title, body, sender, upload_type, link, texts, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING {COLUMNS}"
    )))
    .bind(uuid::Uuid::new_v4().to_string())
    .bind(account_id)
    .bind(n.kind.as_str())
    .bind(&n.title)
    .bind(&n.body)
    .bind(&n.sender)
    .bind(&n.upload_type)
    .bind(&n.link)
    .bind(n.texts.column())
    .bind(now)
    .fetch_one(db)
    .await?)
}

/// Every enabled admin and super admin: who hears of what concerns staff.
#[tracing::instrument(skip_all)]
pub async fn staff<'e>(db: impl Exec<'e>) -> Result<Vec<Recipient>> {
    Ok(sqlx::query_as(
        "SELECT id, language, time_zone FROM accounts WHERE role IN ('admin', 'sa') AND enabled = 1 ORDER BY id",
    )
    .fetch_all(db)
    .await?)
}

/// One account, if it exists and is enabled.
#[tracing::instrument(skip_all)]
pub async fn account<'e>(db: impl Exec<'e>, account_id: &str) -> Result<Option<Recipient>> {
    Ok(
        sqlx::query_as(
            "SELECT id, language, time_zone FROM accounts WHERE id = $1 AND enabled = 1",
        )
        .bind(account_id)
        .fetch_optional(db)
        .await?,
    )
}

/// The enabled holders of a concert's unrevoked tickets.
#[tracing::instrument(skip_all)]
pub async fn ticket_holders<'e>(db: impl Exec<'e>, event_id: &str) -> Result<Vec<Recipient>> {
    Ok(sqlx::query_as(
        "SELECT DISTINCT a.id, a.language, a.time_zone FROM tickets t JOIN accounts a ON a.id = t.account_id \
         WHERE t.event_id = $1 AND t.revoked_at IS NULL AND t.given_at IS NULL AND t.spare = 0 \
         AND a.enabled = 1 ORDER BY a.id",
    )
    .bind(event_id)
    .fetch_all(db)
    .await?)
}

/// The enabled accounts that asked to be told when a concert's doors open and hold no
/// unrevoked ticket for it (the holders are told anyway, see [`ticket_holders`]).
#[tracing::instrument(skip_all)]
pub async fn reminder_askers<'e>(db: impl Exec<'e>, event_id: &str) -> Result<Vec<Recipient>> {
    Ok(sqlx::query_as(
        "SELECT a.id, a.language, a.time_zone FROM door_reminders r JOIN accounts a ON a.id = r.account_id \
         WHERE r.event_id = $1 AND a.enabled = 1 AND NOT EXISTS (SELECT 1 FROM tickets t \
         WHERE t.event_id = r.event_id AND t.account_id = r.account_id AND t.revoked_at IS NULL \
         AND t.given_at IS NULL AND t.spare = 0) \
         ORDER BY a.id",
    )
    .bind(event_id)
    .fetch_all(db)
    .await?)
}

/// The enabled members of the project a concert belongs to: its artist.
#[tracing::instrument(skip_all)]
pub async fn artists<'e>(db: impl Exec<'e>, event_id: &str) -> Result<Vec<Recipient>> {
    Ok(sqlx::query_as(
        "SELECT a.id, a.language, a.time_zone FROM events e \
         JOIN project_members m ON m.project_id = e.project_id \
         JOIN accounts a ON a.id = m.account_id \
         WHERE e.id = $1 AND a.enabled = 1 ORDER BY a.id",
    )
    .bind(event_id)
    .fetch_all(db)
    .await?)
}

/// Mark notifications published (the bus has them); one already marked keeps its time.
#[tracing::instrument(skip_all)]
pub async fn mark_published(db: &Db, ids: &[String], now: i64) -> Result<()> {
    // Bounded statements: a group-send to a sold-out concert's holders is thousands.
    for chunk in ids.chunks(500) {
        let list = crate::db::placeholders(chunk.len());
        let at = chunk.len() + 1;
        let mut query = sqlx::query(sqlx::AssertSqlSafe(format!(
            "UPDATE notifications SET published_at = ${at} \
             WHERE id IN ({list}) AND (published_at IS NULL OR published_at < 0)"
        )));
        for id in chunk {
            query = query.bind(id);
        }
        query.bind(now).execute(db).await?;
    }
    Ok(())
}

/// Unpublished notifications created at or before `before`, oldest first, with their
/// accounts.
#[tracing::instrument(skip_all)]
pub async fn unpublished(db: &Db, before: i64, now: i64, limit: i64) -> Result<Vec<(String, Row)>> {
    struct WithAccount {
        account_id: String,
        row: Row,
    }
    crate::db::from_row!(WithAccount { account_id, ..row });
    let rows: Vec<WithAccount> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT account_id, {COLUMNS} FROM notifications \
         WHERE (published_at IS NULL OR (published_at < 0 AND published_at > $2)) \
         AND created_at <= $1 ORDER BY created_at, id LIMIT $3"
    )))
    .bind(before)
    .bind(-now)
    .bind(limit)
    .fetch_all(db)
    .await?;
    Ok(rows.into_iter().map(|r| (r.account_id, r.row)).collect())
}

/// Claim a notification for publishing until `until`: it is unpublished and not claimed, or
/// its claim ran out before `now` (a relay that died between claim and publish). Stored as
/// `-until`; of several relays at once, one wins.
#[tracing::instrument(skip_all)]
pub async fn claim(db: &Db, id: &str, now: i64, until: i64) -> Result<bool> {
    let done = sqlx::query(
        "UPDATE notifications SET published_at = $3 \
         WHERE id = $1 AND (published_at IS NULL OR (published_at < 0 AND published_at > $2))",
    )
    .bind(id)
    .bind(-now)
    .bind(-until)
    .execute(db)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// The claim until `until` was published (at `now`).
#[tracing::instrument(skip_all)]
pub async fn confirm(db: &Db, id: &str, until: i64, now: i64) -> Result<()> {
    sqlx::query("UPDATE notifications SET published_at = $3 WHERE id = $1 AND published_at = $2")
        .bind(id)
        .bind(-until)
        .bind(now)
        .execute(db)
        .await?;
    Ok(())
}

/// Give back a claim whose publishing failed, so a later round retries it.
#[tracing::instrument(skip_all)]
pub async fn unclaim(db: &Db, id: &str, until: i64) -> Result<()> {
    sqlx::query("UPDATE notifications SET published_at = NULL WHERE id = $1 AND published_at = $2")
        .bind(id)
        .bind(-until)
        .execute(db)
        .await?;
    Ok(())
}

/// One page of an account's notifications, newest first.
#[tracing::instrument(skip_all)]
pub async fn page(db: &Db, account_id: &str, filter: Filter, paging: Paging) -> Result<Vec<Row>> {
    let condition = filter.condition();
    let tail = paging.limit_offset();
    Ok(sqlx::query_as::<_, Row>(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM notifications WHERE account_id = $1{condition} \
         ORDER BY created_at DESC, id {tail}"
    )))
    .bind(account_id)
    .fetch_all(db)
    .await?)
}

/// How many the filter lists, and how many are unread in all: `(total, unread)`.
#[tracing::instrument(skip_all)]
pub async fn counts(db: &Db, account_id: &str, filter: Filter) -> Result<(i64, i64)> {
    let condition = filter.condition();
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT CAST(COALESCE(SUM(CASE WHEN account_id = $1{condition} THEN 1 ELSE 0 END), 0) AS BIGINT), \
         CAST(COALESCE(SUM(CASE WHEN read_at IS NULL THEN 1 ELSE 0 END), 0) AS BIGINT) \
         FROM notifications WHERE account_id = $1"
    )))
    .bind(account_id)
    .fetch_one(db)
    .await?)
}

#[tracing::instrument(skip_all)]
pub async fn by_id(db: &Db, id: &str, account_id: &str) -> Result<Option<Row>> {
    Ok(sqlx::query_as::<_, Row>(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM notifications WHERE id = $1 AND account_id = $2"
    )))
    .bind(id)
    .bind(account_id)
    .fetch_optional(db)
    .await?)
}

/// Mark one read (once: a second call keeps the first time).
#[tracing::instrument(skip_all)]
pub async fn mark_read(db: &Db, id: &str, account_id: &str, now: i64) -> Result<()> {
    sqlx::query(
        "UPDATE notifications SET read_at = $3 WHERE id = $1 AND account_id = $2 AND read_at IS NULL",
    )
    .bind(id)
    .bind(account_id)
    .bind(now)
    .execute(db)
    .await?;
    Ok(())
}

#[tracing::instrument(skip_all)]
pub async fn mark_all_read(db: &Db, account_id: &str, now: i64) -> Result<()> {
    sqlx::query("UPDATE notifications SET read_at = $2 WHERE account_id = $1 AND read_at IS NULL")
        .bind(account_id)
        .bind(now)
        .execute(db)
        .await?;
    Ok(())
}
