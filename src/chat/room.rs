//! A concert's room: who may read and post, posting with its limits, deleting, reporting,
//! the moderators' settings and restrictions, each action logged. Stored first, then
//! published on the concert's `chat:<id>` channel, so every instance's sockets get it.

use super::model::{
    Badge, ChatMessage, Deleted, MAX_CHARS, Posted, ReactionKind, Report, ReportDismissed,
    Reported, RestrictionKind, RoomChanged, RoomSettings, clean, display_name,
};
use super::store::{self, LogRow, MessageRow, NewRestriction, PageStart, RoomRow};
use crate::accounts::model::Role;
use crate::accounts::policy::Actor;
use crate::auth::extract::CurrentUser;
use crate::bus::{Channel, Publication};
use crate::db::{iso8601, now_ms};
use crate::error::{Error, Result};
use crate::events::model::{EventRow, EventStatus, Phase, PhaseReason, concert_state};
use crate::i18n::{Arg, Msg};
use crate::state::AppState;
use crate::stream::access::sessions;

/// Posting stays open this long after the show ended.
pub const AFTER_SHOW_MS: i64 = 60 * 60 * 1000;
/// The same text from the same author within this long is refused.
pub const REPEAT_WINDOW_MS: i64 = 30_000;
/// The longest slow mode, in seconds.
pub const MAX_SLOW_MODE_SECONDS: i64 = 600;

/// Someone the room lets in.
#[derive(Debug, Clone)]
pub struct Reader {
    pub account_id: String,
    /// `Some` for the artist's team and staff: they moderate.
    pub badge: Option<Badge>,
}

impl Reader {
    pub fn moderator(&self) -> bool {
        self.badge.is_some()
    }
}

/// Whether `actor` may read the concert's room: its project's members (the artist),
/// staff, and its ticket and pass holders inside their listening window who are not
/// banned from the project's chats.
pub async fn reader(app: &AppState, actor: Actor<'_>, event: &EventRow) -> Result<Reader> {
    let reader = |badge| Reader {
        account_id: actor.id.to_owned(),
        badge,
    };
    if crate::projects::store::is_member(&app.db, &event.project_id, actor.id).await? {
        return Ok(reader(Some(Badge::Artist)));
    }
    if actor.role.is_staff() {
        return Ok(reader(Some(Badge::Staff)));
    }
    if event.status == EventStatus::Draft {
        return Err(Error::not_found(Msg::ConcertNotFound));
    }
    sessions::check_window(event, now_ms(), app.hub.on_air(&event.id))?;
    if sessions::holder(&app.db, actor.id, event).await?.is_none() {
        return Err(Error::forbidden(Msg::NeedTicket));
    }
    let restrictions =
        store::restrictions(&app.db, &event.project_id, &event.id, actor.id, now_ms()).await?;
    if restrictions.iter().any(|r| r.event_id.is_none()) {
        return Err(Error::forbidden(Msg::ChatBanned));
    }
    Ok(reader(None))
}

/// For the socket: whether the account may follow the room of `event_id`.
pub async fn may_read(app: &AppState, account_id: &str, role: Role, event_id: &str) -> Result<()> {
    let event = crate::events::load(app, event_id).await?;
    reader(
        app,
        Actor {
            id: account_id,
            role,
        },
        &event,
    )
    .await?;
    Ok(())
}

/// Until when posting is open (`None`: not known yet, the show has not ended), or why
/// it is not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Posting {
    Open { until: Option<i64> },
    NotYet,
    Over,
}

/// From the doors until an hour after the show ended (ended by its managers or its
/// encoder staying away, or its scheduled end passed unended).
pub fn posting(event: &EventRow, show_ended_at: Option<i64>, now: i64, on_air: bool) -> Posting {
    let state = concert_state(event, now, on_air);
    let ended_at = match (state.phase, state.reason) {
        (Phase::Draft | Phase::Upcoming | Phase::Cancelled, _) => return Posting::NotYet,
        (Phase::Expired, _) => return Posting::Over,
        (Phase::Doors | Phase::Live, _) => return Posting::Open { until: None },
        (Phase::Replay, Some(PhaseReason::Ended)) => show_ended_at.unwrap_or(state.ends_at),
        (Phase::Replay, _) => state.ends_at,
    };
    let until = (ended_at + AFTER_SHOW_MS).min(state.replay_until);
    if now < until {
        Posting::Open { until: Some(until) }
    } else {
        Posting::Over
    }
}

/// Whether posting is open now.
async fn posting_now(app: &AppState, event: &EventRow) -> Result<Posting> {
    let show_ended_at = if event.status == EventStatus::Ended {
        store::show_ended_at(&app.db, &event.id).await?
    } else {
        None
    };
    Ok(posting(
        event,
        show_ended_at,
        now_ms(),
        app.hub.on_air(&event.id),
    ))
}

/// The room as one reader sees it.
pub struct RoomView {
    pub settings: RoomSettings,
    pub posting: Posting,
    /// When the reader's timeout ends (`Some(None)`: the rest of the show).
    pub muted: Option<Option<i64>>,
}

pub async fn view(app: &AppState, event: &EventRow, reader: &Reader) -> Result<RoomView> {
    let room = store::room(&app.db, &event.id).await?.unwrap_or_default();
    let settings = settings(app, &event.id, &room).await?;
    let posting = posting_now(app, event).await?;
    let muted = if reader.moderator() {
        None
    } else {
        timeout_of(app, event, &reader.account_id, posting).await?
    };
    Ok(RoomView {
        settings,
        posting,
        muted,
    })
}

async fn settings(app: &AppState, event_id: &str, room: &RoomRow) -> Result<RoomSettings> {
    let pinned = match &room.pinned_message_id {
        Some(id) => store::message(&app.db, event_id, id)
            .await?
            .filter(|m| m.deleted_at.is_none())
            .map(MessageRow::view),
        None => None,
    };
    Ok(RoomSettings {
        pinned,
        slow_mode_seconds: room.slow_mode_seconds,
        closed: room.closed != 0,
    })
}

/// The reader's timeout in this room, if one is in force: its end (`None`: until posting
/// closes).
async fn timeout_of(
    app: &AppState,
    event: &EventRow,
    account_id: &str,
    posting: Posting,
) -> Result<Option<Option<i64>>> {
    let restrictions =
        store::restrictions(&app.db, &event.project_id, &event.id, account_id, now_ms()).await?;
    let ends = restrictions
        .iter()
        .filter(|r| r.event_id.is_some())
        .map(|r| r.until)
        .max_by_key(|until| until.unwrap_or(i64::MAX));
    Ok(ends.map(|until| match (until, posting) {
        // A timeout "for the rest of the show" ends when posting closes.
        (None, Posting::Open { until }) => until,
        (until, _) => until,
    }))
}

/// A page of the room's messages.
pub async fn page(
    app: &AppState,
    event_id: &str,
    from_ms: i64,
    after: Option<&str>,
    limit: i64,
) -> Result<(Vec<ChatMessage>, Option<String>)> {
    let after = match after {
        Some(id) => {
            let Some(m) = store::message(&app.db, event_id, id).await? else {
                return Err(Error::bad_request(Msg::ChatMessageNotFound));
            };
            Some((m.media_time, m.created_at, m.id))
        }
        None => None,
    };
    let start = PageStart { from_ms, after };
    let rows = store::page(&app.db, event_id, &start, limit + 1).await?;
    let more = rows.len() as i64 > limit;
    let messages: Vec<ChatMessage> = rows
        .into_iter()
        .take(limit as usize)
        .map(MessageRow::view)
        .collect();
    let next = more
        .then(|| messages.last().map(|m| m.id.clone()))
        .flatten();
    Ok((messages, next))
}

/// What a reader writes.
pub struct Draft {
    pub text: String,
    pub media_time: Option<i64>,
}

/// Post a message: inside the posting window, within the room's and the author's limits
/// (moderators are exempt), at the media time its author hears (kept within what is
/// recorded; the live edge when not given). Stored, then published.
pub async fn post(
    app: &AppState,
    user: &CurrentUser,
    event: &EventRow,
    draft: Draft,
) -> Result<ChatMessage> {
    let reader = reader(app, user.actor(), event).await?;
    let text = clean(&draft.text);
    if text.is_empty() {
        return Err(Error::bad_request(Msg::ChatEmpty));
    }
    if text.chars().count() > MAX_CHARS {
        return Err(Error::bad_request(
            Msg::ChatTooLong.with("max", Arg::figure(MAX_CHARS.to_string())),
        ));
    }
    let room = store::room(&app.db, &event.id).await?.unwrap_or_default();
    let now = now_ms();
    let posting = posting_now(app, event).await?;
    match posting {
        Posting::NotYet => return Err(Error::forbidden(Msg::ChatNotOpen)),
        Posting::Over => return Err(Error::forbidden(Msg::ChatReadOnly)),
        Posting::Open { .. } => {}
    }
    if !reader.moderator() {
        check_limits(app, event, &reader, &room, &text, posting, now).await?;
    }
    let media_time = media_time_within(app, &event.id, draft.media_time).await;
    let account = &user.account;
    let row = MessageRow {
        id: uuid::Uuid::new_v4().to_string(),
        event_id: event.id.clone(),
        account_id: account.id.clone(),
        author: display_name(&account.first_name, &account.last_name),
        badge: reader.badge.map(|b| b.as_str().to_owned()),
        body: text,
        media_time,
        created_at: now,
        deleted_at: None,
        tip_minor: None,
        tip_currency: None,
    };
    store::insert_message(&app.db, &row).await?;
    let message = row.view();
    publish(
        app,
        &event.id,
        Publication::new(&Posted {
            message: message.clone(),
        }),
    )
    .await;
    Ok(message)
}

/// A fan's limits: closed room, timeout, slow mode, the same text again, their own rate
/// and the room's (across instances).
async fn check_limits(
    app: &AppState,
    event: &EventRow,
    reader: &Reader,
    room: &RoomRow,
    text: &str,
    posting: Posting,
    now: i64,
) -> Result<()> {
    if room.closed != 0 {
        return Err(Error::forbidden(Msg::ChatClosed));
    }
    if let Some(until) = timeout_of(app, event, &reader.account_id, posting).await? {
        return Err(Error::forbidden(match until {
            Some(until) => Msg::ChatTimedOut.with("until", Arg::time(until)),
            None => Msg::ChatTimedOutShow.into(),
        }));
    }
    if let Some((at, body)) = store::last_of_author(&app.db, &event.id, &reader.account_id).await? {
        let since = now - at;
        let slow_ms = room.slow_mode_seconds * 1000;
        if since < slow_ms {
            let wait = ((slow_ms - since) as u64).div_ceil(1000).max(1);
            return Err(Error::LimitReached {
                text: Msg::ChatSlowMode
                    .with("seconds", Arg::figure(room.slow_mode_seconds.to_string()))
                    .with("wait", Arg::figure(wait.to_string())),
                retry_after: wait,
            });
        }
        if since < REPEAT_WINDOW_MS && body == text {
            return Err(Error::LimitReached {
                text: Msg::ChatRepeated.into(),
                retry_after: ((REPEAT_WINDOW_MS - since) as u64).div_ceil(1000).max(1),
            });
        }
    }
    app.chat_limits.check(&event.id, &reader.account_id).await
}

/// Delete a message (its author, or a moderator): gone for everyone, the replay too.
pub async fn delete(
    app: &AppState,
    user: &CurrentUser,
    event: &EventRow,
    message_id: &str,
) -> Result<()> {
    let reader = reader(app, user.actor(), event).await?;
    let Some(message) = store::message(&app.db, &event.id, message_id)
        .await?
        .filter(|m| m.deleted_at.is_none())
    else {
        return Err(Error::not_found(Msg::ChatMessageNotFound));
    };
    let own = message.account_id == user.account.id;
    if !own && !reader.moderator() {
        return Err(Error::forbidden(Msg::ChatNotYours));
    }
    let now = now_ms();
    let mut tx = app.db.begin().await?;
    if !store::mark_deleted(&mut *tx, &event.id, message_id, &user.account.id, now).await? {
        return Err(Error::not_found(Msg::ChatMessageNotFound));
    }
    if !own {
        let entry = LogRow {
            account_id: Some(message.account_id.clone()),
            message_id: Some(message_id.to_owned()),
            detail: Some(message.body.clone()),
            ..logged(user, event, "delete", now)
        };
        store::log(&mut *tx, &entry).await?;
    }
    tx.commit().await?;
    let deleted = Deleted {
        event_id: event.id.clone(),
        message_id: message_id.to_owned(),
    };
    publish(app, &event.id, Publication::new(&deleted)).await;
    Ok(())
}

/// Report a message to the moderators (once per reader and message): they hear of it on
/// the concert's `event:<id>` channel.
pub async fn report(
    app: &AppState,
    user: &CurrentUser,
    event: &EventRow,
    message_id: &str,
) -> Result<()> {
    reader(app, user.actor(), event).await?;
    let Some(message) = store::message(&app.db, &event.id, message_id)
        .await?
        .filter(|m| m.deleted_at.is_none())
    else {
        return Err(Error::not_found(Msg::ChatMessageNotFound));
    };
    let id = uuid::Uuid::new_v4().to_string();
    let now = now_ms();
    if !store::insert_report(&app.db, &id, &event.id, message_id, &user.account.id, now).await? {
        return Ok(()); // reported already: once is enough
    }
    let report = Report {
        id,
        message: message.view(),
        reporter_name: display_name(&user.account.first_name, &user.account.last_name),
        created_at: iso8601(now),
    };
    tell_moderators(app, &event.id, Publication::new(&Reported { report })).await;
    Ok(())
}

/// The reports still open (neither dismissed nor of a deleted message), newest first, for
/// a moderator who opens the panel after they were made (moderators).
pub async fn open_reports(
    app: &AppState,
    user: &CurrentUser,
    event: &EventRow,
) -> Result<Vec<Report>> {
    moderator(app, user, event).await?;
    let rows = store::open_reports(&app.db, &event.id, MAX_OPEN_REPORTS).await?;
    Ok(rows
        .into_iter()
        .map(|row| Report {
            id: row.report_id,
            reporter_name: display_name(&row.first_name, &row.last_name),
            created_at: iso8601(row.reported_at),
            message: row.message.view(),
        })
        .collect())
}

/// The most open reports a moderator is shown at once.
const MAX_OPEN_REPORTS: i64 = 100;

/// Dismiss a report, keeping its message (moderators). Logged; every moderator's list
/// drops it. Dismissing it again changes nothing.
pub async fn dismiss_report(
    app: &AppState,
    user: &CurrentUser,
    event: &EventRow,
    report_id: &str,
) -> Result<()> {
    moderator(app, user, event).await?;
    let Some((message_id, _)) = store::report(&app.db, &event.id, report_id).await? else {
        return Err(Error::not_found(Msg::ChatReportNotFound));
    };
    let now = now_ms();
    let mut tx = app.db.begin().await?;
    if !store::dismiss_report(&mut *tx, report_id, &user.account.id, now).await? {
        return Ok(()); // another moderator was first
    }
    let author = store::message(&mut *tx, &event.id, &message_id)
        .await?
        .map(|m| m.account_id);
    let entry = LogRow {
        account_id: author,
        message_id: Some(message_id),
        ..logged(user, event, "dismiss_report", now)
    };
    store::log(&mut *tx, &entry).await?;
    tx.commit().await?;
    let dismissed = ReportDismissed {
        report_id: report_id.to_owned(),
    };
    tell_moderators(app, &event.id, Publication::new(&dismissed)).await;
    Ok(())
}

/// On the concert's `event:<id>` channel, which only its managers follow; a failure is
/// logged (the report is stored: the open list shows it).
async fn tell_moderators(app: &AppState, event_id: &str, event: Publication) {
    let channel = Channel::Event(event_id.to_owned());
    if let Err(err) = app.bus.publish(&channel, event).await {
        tracing::warn!(event = %event_id, error = %err, "telling the moderators failed");
    }
}

/// What the moderators change of a room (any subset).
#[derive(Debug, Default)]
pub struct Changes {
    /// `Some(None)`: unpin.
    pub pinned: Option<Option<String>>,
    pub slow_mode_seconds: Option<i64>,
    pub closed: Option<bool>,
}

/// Change the room (moderators): pin or unpin, slow mode, close or open; logged, then
/// published.
pub async fn change(
    app: &AppState,
    user: &CurrentUser,
    event: &EventRow,
    changes: Changes,
) -> Result<RoomSettings> {
    moderator(app, user, event).await?;
    if let Some(seconds) = changes.slow_mode_seconds
        && !(0..=MAX_SLOW_MODE_SECONDS).contains(&seconds)
    {
        return Err(Error::bad_request(
            Msg::ChatSlowModeRange.with("max", Arg::figure(MAX_SLOW_MODE_SECONDS.to_string())),
        ));
    }
    if let Some(Some(id)) = &changes.pinned
        && store::message(&app.db, &event.id, id)
            .await?
            .filter(|m| m.deleted_at.is_none())
            .is_none()
    {
        return Err(Error::not_found(Msg::ChatMessageNotFound));
    }
    let now = now_ms();
    let mut tx = app.db.begin().await?;
    let mut room = store::room(&mut *tx, &event.id).await?.unwrap_or_default();
    let mut entries = Vec::new();
    if let Some(pinned) = changes.pinned {
        let action = if pinned.is_some() { "pin" } else { "unpin" };
        entries.push(LogRow {
            message_id: pinned.clone().or(room.pinned_message_id.clone()),
            ..logged(user, event, action, now)
        });
        room.pinned_message_id = pinned;
    }
    if let Some(seconds) = changes.slow_mode_seconds {
        entries.push(LogRow {
            detail: Some(seconds.to_string()),
            ..logged(user, event, "slow_mode", now)
        });
        room.slow_mode_seconds = seconds;
    }
    if let Some(closed) = changes.closed {
        entries.push(logged(
            user,
            event,
            if closed { "close" } else { "open" },
            now,
        ));
        room.closed = i64::from(closed);
    }
    store::save_settings(&mut *tx, &event.id, &room).await?;
    for entry in &entries {
        store::log(&mut *tx, entry).await?;
    }
    tx.commit().await?;
    let settings = settings(app, &event.id, &room).await?;
    let changed = RoomChanged {
        event_id: event.id.clone(),
        room: settings.clone(),
    };
    publish(app, &event.id, Publication::new(&changed)).await;
    Ok(settings)
}

/// Time an author out of this room, or ban them from the project's rooms (moderators; a
/// moderator cannot be restricted). Logged.
pub async fn restrict(
    app: &AppState,
    user: &CurrentUser,
    event: &EventRow,
    account_id: &str,
    kind: RestrictionKind,
) -> Result<()> {
    moderator(app, user, event).await?;
    let target = crate::accounts::store::by_id(&app.db, account_id)
        .await?
        .ok_or_else(|| Error::not_found(Msg::ChatNotAReader))?;
    let target_actor = Actor {
        id: &target.id,
        role: target.role(),
    };
    if target_actor.role.is_staff()
        || crate::projects::store::is_member(&app.db, &event.project_id, &target.id).await?
    {
        return Err(Error::forbidden(Msg::ChatModeratorExempt));
    }
    let now = now_ms();
    let (event_id, until) = match kind {
        RestrictionKind::Timeout5m => (Some(event.id.as_str()), Some(now + 5 * 60_000)),
        RestrictionKind::Timeout1h => (Some(event.id.as_str()), Some(now + 60 * 60_000)),
        RestrictionKind::TimeoutShow => (Some(event.id.as_str()), None),
        RestrictionKind::Ban => (None, None),
    };
    let mut tx = app.db.begin().await?;
    let new = NewRestriction {
        project_id: &event.project_id,
        event_id,
        account_id: &target.id,
        until,
        created_by: &user.account.id,
        created_at: now,
    };
    store::insert_restriction(&mut *tx, &new).await?;
    let entry = LogRow {
        account_id: Some(target.id.clone()),
        ..logged(user, event, kind.as_str(), now)
    };
    store::log(&mut *tx, &entry).await?;
    tx.commit().await?;
    Ok(())
}

/// Lift an account's timeout here and its ban from the project (moderators). Logged.
pub async fn lift(
    app: &AppState,
    user: &CurrentUser,
    event: &EventRow,
    account_id: &str,
) -> Result<()> {
    moderator(app, user, event).await?;
    let now = now_ms();
    let mut tx = app.db.begin().await?;
    store::lift_restrictions(&mut *tx, &event.project_id, &event.id, account_id).await?;
    let entry = LogRow {
        account_id: Some(account_id.to_owned()),
        ..logged(user, event, "lift", now)
    };
    store::log(&mut *tx, &entry).await?;
    tx.commit().await?;
    Ok(())
}

/// The room's moderation log, newest first (moderators).
pub async fn moderation_log(
    app: &AppState,
    user: &CurrentUser,
    event: &EventRow,
) -> Result<Vec<(LogRow, Option<String>)>> {
    moderator(app, user, event).await?;
    let lines = store::moderation_log(&app.db, &event.id, 500).await?;
    Ok(lines
        .into_iter()
        .map(|line| {
            let name = line
                .first_name
                .map(|first| display_name(&first, line.last_name.as_deref().unwrap_or("")));
            (line.row, name)
        })
        .collect())
}

/// Count a reader's reactions while posting is open, at the media time they hear (the
/// live edge when not given); answers how many were counted (at most 10 a second).
pub async fn react(
    app: &AppState,
    user: &CurrentUser,
    event: &EventRow,
    kind: ReactionKind,
    count: u64,
    media_time: Option<i64>,
) -> Result<u64> {
    reader(app, user.actor(), event).await?;
    let now = now_ms();
    match posting_now(app, event).await? {
        Posting::NotYet => return Err(Error::forbidden(Msg::ChatNotOpen)),
        Posting::Over => return Err(Error::forbidden(Msg::ChatReadOnly)),
        Posting::Open { .. } => {}
    }
    let media_time = media_time_within(app, &event.id, media_time).await;
    let counted = app
        .chat_limits
        .reactions(&user.account.id, count, now)
        .await;
    app.reactions.add(&event.id, kind, counted, media_time);
    Ok(counted)
}

/// A media time a client gives, kept within what is recorded; the live edge when missing.
async fn media_time_within(app: &AppState, event_id: &str, given: Option<i64>) -> i64 {
    let recorded_ms = (app.figures.status(event_id).await.recorded_seconds * 1000.0).floor() as i64;
    given.unwrap_or(recorded_ms).clamp(0, recorded_ms.max(0))
}

async fn moderator(app: &AppState, user: &CurrentUser, event: &EventRow) -> Result<Reader> {
    let reader = reader(app, user.actor(), event).await.map_err(|err| {
        if err.status().as_u16() == 404 {
            err
        } else {
            Error::forbidden(Msg::ChatModeratorsOnly)
        }
    })?;
    if !reader.moderator() {
        return Err(Error::forbidden(Msg::ChatModeratorsOnly));
    }
    Ok(reader)
}

/// A moderation action of `user` in the room, at `at`: who and what; the caller adds
/// whom (`account_id`), which message and any detail.
fn logged(user: &CurrentUser, event: &EventRow, action: &str, at: i64) -> LogRow {
    LogRow {
        id: uuid::Uuid::new_v4().to_string(),
        event_id: event.id.clone(),
        actor_id: user.account.id.clone(),
        actor_name: display_name(&user.account.first_name, &user.account.last_name),
        action: action.to_owned(),
        account_id: None,
        message_id: None,
        detail: None,
        at,
    }
}

/// On the room's channel; a failure is logged (the message is stored: a page shows it).
async fn publish(app: &AppState, event_id: &str, event: Publication) {
    let channel = Channel::Chat(event_id.to_owned());
    if let Err(err) = app.bus.publish(&channel, event).await {
        tracing::warn!(event = %event_id, error = %err, "publishing to the room failed");
    }
}
