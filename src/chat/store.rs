//! Every query of the live room: one function per statement.

use super::model::{Badge, ChatKind, ChatMessage, ChatTip, Counts, ReactionKind};
use crate::db::{Exec, iso8601};
use crate::error::Result;

crate::db::row! {
    /// A message as stored.
    #[derive(Debug, Clone)]
    pub struct MessageRow {
        pub id: String,
        pub event_id: String,
        pub account_id: String,
        pub author: String,
        pub badge: Option<String>,
        pub body: String,
        pub media_time: i64,
        pub created_at: i64,
        pub deleted_at: Option<i64>,
        /// A tip's amount and currency: the message says it was paid.
        pub tip_minor: Option<i64>,
        pub tip_currency: Option<String>,
    }
}

impl MessageRow {
    pub fn view(self) -> ChatMessage {
        ChatMessage {
            id: self.id,
            event_id: self.event_id,
            account_id: self.account_id,
            author: self.author,
            badge: self.badge.and_then(|b| Badge::try_from(b).ok()),
            kind: if self.tip_minor.is_some() {
                ChatKind::Tip
            } else {
                ChatKind::Message
            },
            tip: self
                .tip_minor
                .zip(self.tip_currency)
                .map(|(amount, currency)| ChatTip { amount, currency }),
            text: self.body,
            media_time: self.media_time,
            posted_at: iso8601(self.created_at),
        }
    }
}

const MESSAGE_COLUMNS: &str = "id, event_id, account_id, author, badge, body, media_time, \
     created_at, deleted_at, tip_minor, tip_currency";

#[tracing::instrument(skip_all)]
pub async fn insert_message<'e>(db: impl Exec<'e>, row: &MessageRow) -> Result<()> {
    sqlx::query(
        "INSERT INTO chat_messages \
         (id, event_id, account_id, author, badge, body, media_time, created_at, tip_minor, \
         tip_currency) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
    )
    .bind(&row.id)
    .bind(&row.event_id)
    .bind(&row.account_id)
    .bind(&row.author)
    .bind(&row.badge)
    .bind(&row.body)
    .bind(row.media_time)
    .bind(row.created_at)
    .bind(row.tip_minor)
    .bind(&row.tip_currency)
    .execute(db)
    .await?;
    Ok(())
}

/// Where a page starts: at a media time, or after a message (its place in the order).
pub struct PageStart {
    pub from_ms: i64,
    pub after: Option<(i64, i64, String)>,
}

/// Up to `limit` messages not deleted, in timeline order: by media time, then when they
/// were written, then by id.
#[tracing::instrument(skip_all)]
pub async fn page<'e>(
    db: impl Exec<'e>,
    event_id: &str,
    start: &PageStart,
    limit: i64,
) -> Result<Vec<MessageRow>> {
    let (media, created, id) =
        start
            .after
            .clone()
            .unwrap_or((start.from_ms, i64::MIN, String::new()));
    let rows = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {MESSAGE_COLUMNS} FROM chat_messages \
         WHERE event_id = $1 AND deleted_at IS NULL AND media_time >= $2 \
         AND (media_time > $3 OR (media_time = $3 AND (created_at > $4 \
              OR (created_at = $4 AND id > $5)))) \
         ORDER BY media_time, created_at, id LIMIT $6"
    )))
    .bind(event_id)
    .bind(start.from_ms)
    .bind(media)
    .bind(created)
    .bind(id)
    .bind(limit)
    .fetch_all(db)
    .await?;
    Ok(rows)
}

/// One message of a room, deleted or not.
#[tracing::instrument(skip_all)]
pub async fn message<'e>(
    db: impl Exec<'e>,
    event_id: &str,
    id: &str,
) -> Result<Option<MessageRow>> {
    let row = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {MESSAGE_COLUMNS} FROM chat_messages WHERE event_id = $1 AND id = $2"
    )))
    .bind(event_id)
    .bind(id)
    .fetch_optional(db)
    .await?;
    Ok(row)
}

/// The author's last message in the room: when, and what it said.
#[tracing::instrument(skip_all)]
pub async fn last_of_author<'e>(
    db: impl Exec<'e>,
    event_id: &str,
    account_id: &str,
) -> Result<Option<(i64, String)>> {
    let row = sqlx::query_as(
        "SELECT created_at, body FROM chat_messages WHERE event_id = $1 AND account_id = $2 \
         AND tip_minor IS NULL ORDER BY created_at DESC LIMIT 1",
    )
    .bind(event_id)
    .bind(account_id)
    .fetch_optional(db)
    .await?;
    Ok(row)
}

/// Mark a message deleted; false when it was already (or is not in this room).
#[tracing::instrument(skip_all)]
pub async fn mark_deleted<'e>(
    db: impl Exec<'e>,
    event_id: &str,
    id: &str,
    by: &str,
    at: i64,
) -> Result<bool> {
    let done = sqlx::query(
        "UPDATE chat_messages SET deleted_at = $3, deleted_by = $4 \
         WHERE event_id = $1 AND id = $2 AND deleted_at IS NULL",
    )
    .bind(event_id)
    .bind(id)
    .bind(at)
    .bind(by)
    .execute(db)
    .await?;
    Ok(done.rows_affected() > 0)
}

crate::db::row! {
    /// A room's settings as stored.
    #[derive(Debug, Clone, Default)]
    pub struct RoomRow {
        pub pinned_message_id: Option<String>,
        pub slow_mode_seconds: i64,
        pub closed: i64,
    }
}

#[tracing::instrument(skip_all)]
pub async fn room<'e>(db: impl Exec<'e>, event_id: &str) -> Result<Option<RoomRow>> {
    let row = sqlx::query_as(
        "SELECT pinned_message_id, slow_mode_seconds, closed FROM chat_rooms WHERE event_id = $1",
    )
    .bind(event_id)
    .fetch_optional(db)
    .await?;
    Ok(row)
}

/// Write what the moderators chose.
#[tracing::instrument(skip_all)]
pub async fn save_settings<'e>(db: impl Exec<'e>, event_id: &str, room: &RoomRow) -> Result<()> {
    sqlx::query(
        "INSERT INTO chat_rooms (event_id, pinned_message_id, slow_mode_seconds, closed) \
         VALUES ($1, $2, $3, $4) ON CONFLICT (event_id) DO UPDATE SET \
         pinned_message_id = excluded.pinned_message_id, \
         slow_mode_seconds = excluded.slow_mode_seconds, closed = excluded.closed",
    )
    .bind(event_id)
    .bind(&room.pinned_message_id)
    .bind(room.slow_mode_seconds)
    .bind(room.closed)
    .execute(db)
    .await?;
    Ok(())
}

/// When the show ended (its managers ended it, or its encoder stayed away): its
/// `show_ended` staff activity.
#[tracing::instrument(skip_all)]
pub async fn show_ended_at<'e>(db: impl Exec<'e>, event_id: &str) -> Result<Option<i64>> {
    let row: (Option<i64>,) = sqlx::query_as(
        "SELECT MAX(at) FROM staff_activity WHERE event_id = $1 AND kind = 'show_ended'",
    )
    .bind(event_id)
    .fetch_one(db)
    .await?;
    Ok(row.0)
}

crate::db::row! {
    /// A restriction in force.
    #[derive(Debug, Clone)]
    pub struct RestrictionRow {
        /// `None`: a ban of the whole project.
        pub event_id: Option<String>,
        /// `None`: no end.
        pub until: Option<i64>,
    }
}

/// The account's restrictions in force in this room at `now`: its timeouts here and its
/// bans from the project.
#[tracing::instrument(skip_all)]
pub async fn restrictions<'e>(
    db: impl Exec<'e>,
    project_id: &str,
    event_id: &str,
    account_id: &str,
    now: i64,
) -> Result<Vec<RestrictionRow>> {
    let rows = sqlx::query_as(
        "SELECT event_id, until FROM chat_restrictions \
         WHERE account_id = $1 AND project_id = $2 AND (event_id IS NULL OR event_id = $3) \
         AND (until IS NULL OR until > $4)",
    )
    .bind(account_id)
    .bind(project_id)
    .bind(event_id)
    .bind(now)
    .fetch_all(db)
    .await?;
    Ok(rows)
}

pub struct NewRestriction<'a> {
    pub project_id: &'a str,
    /// `None`: every room of the project.
    pub event_id: Option<&'a str>,
    pub account_id: &'a str,
    pub until: Option<i64>,
    pub created_by: &'a str,
    pub created_at: i64,
}

#[tracing::instrument(skip_all)]
pub async fn insert_restriction<'e>(db: impl Exec<'e>, new: &NewRestriction<'_>) -> Result<()> {
    sqlx::query(
        "INSERT INTO chat_restrictions \
         (id, project_id, event_id, account_id, until, created_by, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(uuid::Uuid::new_v4().to_string())
    .bind(new.project_id)
    .bind(new.event_id)
    .bind(new.account_id)
    .bind(new.until)
    .bind(new.created_by)
    .bind(new.created_at)
    .execute(db)
    .await?;
    Ok(())
}

/// Lift the account's timeouts in this room and its bans from the project.
#[tracing::instrument(skip_all)]
pub async fn lift_restrictions<'e>(
    db: impl Exec<'e>,
    project_id: &str,
    event_id: &str,
    account_id: &str,
) -> Result<u64> {
    let done = sqlx::query(
        "DELETE FROM chat_restrictions WHERE account_id = $1 AND project_id = $2 \
         AND (event_id IS NULL OR event_id = $3)",
    )
    .bind(account_id)
    .bind(project_id)
    .bind(event_id)
    .execute(db)
    .await?;
    Ok(done.rows_affected())
}

/// Add reactions to a second of the show.
#[tracing::instrument(skip_all)]
pub async fn add_reactions<'e>(
    db: impl Exec<'e>,
    event_id: &str,
    second: i64,
    kind: ReactionKind,
    count: u64,
) -> Result<()> {
    sqlx::query(
        "INSERT INTO chat_reactions (event_id, second, kind, count) VALUES ($1, $2, $3, $4) \
         ON CONFLICT (event_id, second, kind) DO UPDATE \
         SET count = chat_reactions.count + excluded.count",
    )
    .bind(event_id)
    .bind(second)
    .bind(kind.as_str())
    .bind(i64::try_from(count).unwrap_or(i64::MAX))
    .execute(db)
    .await?;
    Ok(())
}

/// The room's reactions per second of media time in `[from, to]`, in order.
#[tracing::instrument(skip_all)]
pub async fn reactions_between<'e>(
    db: impl Exec<'e>,
    event_id: &str,
    from_second: i64,
    to_second: i64,
) -> Result<Vec<(i64, Counts)>> {
    let rows: Vec<(i64, String, i64)> = sqlx::query_as(
        "SELECT second, kind, count FROM chat_reactions \
         WHERE event_id = $1 AND second >= $2 AND second <= $3 ORDER BY second",
    )
    .bind(event_id)
    .bind(from_second)
    .bind(to_second)
    .fetch_all(db)
    .await?;
    let mut out: Vec<(i64, Counts)> = Vec::new();
    for (second, kind, count) in rows {
        let Some(kind) = ReactionKind::ALL.into_iter().find(|k| k.as_str() == kind) else {
            continue;
        };
        if out.last().is_none_or(|(s, _)| *s != second) {
            out.push((second, Counts::default()));
        }
        if let Some((_, counts)) = out.last_mut() {
            counts.add(kind, u64::try_from(count).unwrap_or(0));
        }
    }
    Ok(out)
}

/// Record a report; false when this reader had reported the message already.
#[tracing::instrument(skip_all)]
pub async fn insert_report<'e>(
    db: impl Exec<'e>,
    id: &str,
    event_id: &str,
    message_id: &str,
    reporter_id: &str,
    at: i64,
) -> Result<bool> {
    let done = sqlx::query(
        "INSERT INTO chat_reports (id, event_id, message_id, reporter_id, created_at) \
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT (message_id, reporter_id) DO NOTHING",
    )
    .bind(id)
    .bind(event_id)
    .bind(message_id)
    .bind(reporter_id)
    .bind(at)
    .execute(db)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// A report still open (neither dismissed nor of a deleted message), with its message and
/// its reporter's names.
#[derive(Debug, Clone)]
pub struct OpenReportRow {
    pub report_id: String,
    pub reported_at: i64,
    pub first_name: String,
    pub last_name: String,
    pub message: MessageRow,
}
crate::db::from_row!(OpenReportRow {
    report_id,
    reported_at,
    first_name,
    last_name,
    ..message
});

/// The concert's open reports, newest first.
#[tracing::instrument(skip_all)]
pub async fn open_reports<'e>(
    db: impl Exec<'e>,
    event_id: &str,
    limit: i64,
) -> Result<Vec<OpenReportRow>> {
    let rows = sqlx::query_as(
        "SELECT r.id AS report_id, r.created_at AS reported_at, a.first_name, a.last_name, \
         m.id, m.event_id, m.account_id, m.author, m.badge, m.body, m.media_time, m.created_at, \
         m.deleted_at, m.tip_minor, m.tip_currency \
         FROM chat_reports r \
         JOIN chat_messages m ON m.id = r.message_id \
         JOIN accounts a ON a.id = r.reporter_id \
         WHERE r.event_id = $1 AND r.dismissed_at IS NULL AND m.deleted_at IS NULL \
         ORDER BY r.created_at DESC, r.id DESC LIMIT $2",
    )
    .bind(event_id)
    .bind(limit)
    .fetch_all(db)
    .await?;
    Ok(rows)
}

/// The message a report of this concert is about, and whether it was dismissed already.
#[tracing::instrument(skip_all)]
pub async fn report<'e>(
    db: impl Exec<'e>,
    event_id: &str,
    report_id: &str,
) -> Result<Option<(String, bool)>> {
    let row: Option<(String, Option<i64>)> = sqlx::query_as(
        "SELECT message_id, dismissed_at FROM chat_reports WHERE id = $1 AND event_id = $2",
    )
    .bind(report_id)
    .bind(event_id)
    .fetch_optional(db)
    .await?;
    Ok(row.map(|(message, dismissed)| (message, dismissed.is_some())))
}

/// Dismiss an open report; false when it was dismissed already (by another moderator).
#[tracing::instrument(skip_all)]
pub async fn dismiss_report<'e>(
    db: impl Exec<'e>,
    report_id: &str,
    by: &str,
    at: i64,
) -> Result<bool> {
    let done = sqlx::query(
        "UPDATE chat_reports SET dismissed_at = $2, dismissed_by = $3 \
         WHERE id = $1 AND dismissed_at IS NULL",
    )
    .bind(report_id)
    .bind(at)
    .bind(by)
    .execute(db)
    .await?;
    Ok(done.rows_affected() > 0)
}

crate::db::row! {
    /// One moderation action.
    #[derive(Debug, Clone)]
    pub struct LogRow {
        pub id: String,
        pub event_id: String,
        pub actor_id: String,
        pub actor_name: String,
        pub action: String,
        pub account_id: Option<String>,
        pub message_id: Option<String>,
        pub detail: Option<String>,
        pub at: i64,
    }
}

#[tracing::instrument(skip_all)]
pub async fn log<'e>(db: impl Exec<'e>, row: &LogRow) -> Result<()> {
    sqlx::query(
        "INSERT INTO chat_moderation_log \
         (id, event_id, actor_id, actor_name, action, account_id, message_id, detail, at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
    )
    .bind(&row.id)
    .bind(&row.event_id)
    .bind(&row.actor_id)
    .bind(&row.actor_name)
    .bind(&row.action)
    .bind(&row.account_id)
    .bind(&row.message_id)
    .bind(&row.detail)
    .bind(row.at)
    .execute(db)
    .await?;
    Ok(())
}

/// A log line with the first and last name of the account it was about, if any.
#[derive(Debug, Clone)]
pub struct LogLine {
    pub row: LogRow,
    pub first_name: Option<String>,
    pub last_name: Option<String>,
}
crate::db::from_row!(LogLine { ..row, first_name, last_name });

/// The room's moderation log, newest first.
#[tracing::instrument(skip_all)]
pub async fn moderation_log<'e>(
    db: impl Exec<'e>,
    event_id: &str,
    limit: i64,
) -> Result<Vec<LogLine>> {
    let rows = sqlx::query_as(
        "SELECT l.id, l.event_id, l.actor_id, l.actor_name, l.action, l.account_id, \
         l.message_id, l.detail, l.at, a.first_name, a.last_name \
         FROM chat_moderation_log l LEFT JOIN accounts a ON a.id = l.account_id \
         WHERE l.event_id = $1 ORDER BY l.at DESC, l.id DESC LIMIT $2",
    )
    .bind(event_id)
    .bind(limit)
    .fetch_all(db)
    .await?;
    Ok(rows)
}
