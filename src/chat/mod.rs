//! The live room (issue 29; docs/api-contract.md, "The live room"): a concert's chat and
//! reactions, for those who may listen, its artist and staff. Handlers here only hand
//! over to [`room`]; the socket side is the `chat:<id>` channel of `live::ws`.

pub mod limits;
pub mod model;
pub mod reactions;
pub mod room;
pub mod store;

use axum::extract::{Path, State};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::auth::extract::{CurrentUser, IdRequest};
use crate::bus::Delivery;
use crate::db::iso8601;
use crate::envelope::{Api, Envelope, JsonBody, QueryParams};
use crate::error::{Error, Result};
use crate::events;
use crate::events::model::ConcertPath;
use crate::i18n::{Arg, Msg};
use crate::state::AppState;
use model::{Badge, ChatMessage, Counts, ReactionKind, Report, RestrictionKind, RoomSettings};
use room::{Changes, Draft, Posting};

crate::openapi::failures!(
    /// How the moderators' routes of a concert refuse anyone else.
    ModeratorRefusals {
        403 => "Not a moderator.",
        404 => "No such concert.",
    }
);

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list, post))
        .routes(routes!(delete_message))
        .routes(routes!(report))
        .routes(routes!(open_reports))
        .routes(routes!(dismiss_report))
        .routes(routes!(change_room))
        .routes(routes!(restrict))
        .routes(routes!(lift))
        .routes(routes!(moderation_log))
        .routes(routes!(react, reactions))
}

/// The most messages a page holds.
const MAX_PAGE: i64 = 200;
/// The most reactions one request sends.
const MAX_REACTIONS: u64 = 20;

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
struct PageQuery {
    /// Messages at or after this media time (ms from the show's first sample); 0 by default.
    #[serde(default)]
    from_ms: i64,
    /// The last message id of the previous page (its `next`).
    after: Option<String>,
    /// At most 200; 100 by default.
    limit: Option<i64>,
}

/// The reader's place in the room.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct You {
    account_id: String,
    badge: Option<Badge>,
    /// Pins, deletes, times out, bans, sets slow mode, closes: the artist's team and staff.
    moderator: bool,
    /// Set while a moderator's timeout keeps the reader from posting here: when it ends
    /// (the end of posting for "the rest of the show").
    #[schema(format = DateTime)]
    muted_until: Option<String>,
    muted: bool,
}

/// A room as its reader sees it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct ChatRoom {
    pinned: Option<ChatMessage>,
    slow_mode_seconds: i64,
    closed: bool,
    /// Messages and reactions are taken now (from the doors until an hour after the show).
    posting_open: bool,
    /// When posting closes, once the show has ended.
    #[schema(format = DateTime)]
    posting_until: Option<String>,
    you: You,
}

/// A page of a room's messages.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct ChatPage {
    /// In timeline order: by media time, then as written. Deleted messages are left out.
    messages: Vec<ChatMessage>,
    /// The `after` of the next page; null on the last.
    next: Option<String>,
    room: ChatRoom,
}

/// A page of a concert's chat by media time, with the room: for its ticket and pass
/// holders inside their listening window, its artist's team and staff.
#[utoipa::path(get, path = "/events/{id}/chat", tag = "chat", security(("bearer" = [])),
    params(ConcertPath, PageQuery),
    responses(
        (status = 200, description = "The page and the room.", body = Envelope<ChatPage>),
        (status = 403, description = "No ticket, outside the window, or banned.", body = crate::openapi::Failure),
        (status = 404, description = "No such concert.", body = crate::openapi::Failure)))]
async fn list(
    IdRequest { app, user, id }: IdRequest,
    QueryParams(query): QueryParams<PageQuery>,
) -> Result<Api<ChatPage>> {
    let event = events::load(&app, &id).await?;
    let reader = room::reader(&app, user.actor(), &event).await?;
    let limit = query.limit.unwrap_or(100).clamp(1, MAX_PAGE);
    let (messages, next) = room::page(
        &app,
        &event.id,
        query.from_ms.max(0),
        query.after.as_deref(),
        limit,
    )
    .await?;
    let view = room::view(&app, &event, &reader).await?;
    let (posting_open, posting_until) = match view.posting {
        Posting::Open { until } => (true, until),
        Posting::NotYet | Posting::Over => (false, None),
    };
    let RoomSettings {
        pinned,
        slow_mode_seconds,
        closed,
    } = view.settings;
    Ok(Api::ok(ChatPage {
        messages,
        next,
        room: ChatRoom {
            pinned,
            slow_mode_seconds,
            closed,
            posting_open,
            posting_until: posting_until.map(iso8601),
            you: You {
                account_id: reader.account_id.clone(),
                badge: reader.badge,
                moderator: reader.moderator(),
                muted: view.muted.is_some(),
                muted_until: view.muted.flatten().map(iso8601),
            },
        },
    }))
}

/// A message to post.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct ChatInput {
    /// 1 to 500 characters once cleaned of control and bidirectional characters.
    text: String,
    /// The media time its author hears (ms from the show's first sample: the player's
    /// position); the live edge when missing.
    #[serde(default)]
    media_time: Option<i64>,
}

/// Post to a concert's chat, from the doors until an hour after the show ended.
#[utoipa::path(post, path = "/events/{id}/chat", tag = "chat", security(("bearer" = [])),
    params(ConcertPath),
    request_body = ChatInput,
    responses(
        (status = 201, description = "The message, stored and sent to the room.", body = Envelope<ChatMessage>),
        (status = 400, description = "Empty or longer than 500 characters.", body = crate::openapi::Failure),
        (status = 403, description = "No ticket, not open, closed, timed out or banned.", body = crate::openapi::Failure),
        (status = 429, description = "Too fast: slow mode, the same text again, the author's or the room's rate; see `Retry-After`.", body = crate::openapi::Failure)))]
async fn post(
    IdRequest { app, user, id }: IdRequest,
    JsonBody(input): JsonBody<ChatInput>,
) -> Result<Api<ChatMessage>> {
    let event = events::load(&app, &id).await?;
    let draft = Draft {
        text: input.text,
        media_time: input.media_time,
    };
    Ok(Api::created(room::post(&app, &user, &event, draft).await?))
}

#[derive(Debug, Deserialize)]
struct MessagePath {
    id: String,
    message_id: String,
}

/// Delete a message: its author, or a moderator. Gone for everyone, the replay too.
#[utoipa::path(delete, path = "/events/{id}/chat/messages/{message_id}", tag = "chat", security(("bearer" = [])),
    params(ConcertPath,
        ("message_id" = String, Path, description = "The message's id")),
    responses(
        (status = 200, description = "Deleted.", body = Envelope<crate::openapi::Nothing>),
        (status = 403, description = "Neither its author nor a moderator.", body = crate::openapi::Failure),
        (status = 404, description = "No such concert or message.", body = crate::openapi::Failure)))]
async fn delete_message(
    State(app): State<AppState>,
    user: CurrentUser,
    Path(path): Path<MessagePath>,
) -> Result<Api<()>> {
    let event = events::load(&app, &path.id).await?;
    room::delete(&app, &user, &event, &path.message_id).await?;
    Ok(Api::ok(()))
}

/// Report a message to the moderators (they hear of it live). Once per reader.
#[utoipa::path(post, path = "/events/{id}/chat/messages/{message_id}/report", tag = "chat", security(("bearer" = [])),
    params(ConcertPath,
        ("message_id" = String, Path, description = "The message's id")),
    responses(
        (status = 200, description = "Reported.", body = Envelope<crate::openapi::Nothing>),
        (status = 403, description = "Not a reader of the room.", body = crate::openapi::Failure),
        (status = 404, description = "No such concert or message.", body = crate::openapi::Failure)))]
async fn report(
    State(app): State<AppState>,
    user: CurrentUser,
    Path(path): Path<MessagePath>,
) -> Result<Api<()>> {
    let event = events::load(&app, &path.id).await?;
    room::report(&app, &user, &event, &path.message_id).await?;
    Ok(Api::ok(()))
}

/// The reports still open (neither dismissed nor of a deleted message), newest first, at
/// most 100 (moderators); new ones arrive live as `chat_report` on `event:<id>`.
#[utoipa::path(get, path = "/events/{id}/chat/reports", tag = "chat", security(("bearer" = [])),
    params(ConcertPath),
    responses(
        (status = 200, description = "The open reports.", body = Envelope<Vec<Report>>),
        ModeratorRefusals))]
async fn open_reports(IdRequest { app, user, id }: IdRequest) -> Result<Api<Vec<Report>>> {
    let event = events::load(&app, &id).await?;
    Ok(Api::ok(room::open_reports(&app, &user, &event).await?))
}

#[derive(Debug, Deserialize)]
struct ReportPath {
    id: String,
    report_id: String,
}

/// Dismiss a report, keeping its message (moderators). Logged as `dismiss_report`; every
/// moderator's list drops it (`chat_report_dismissed` on `event:<id>`).
#[utoipa::path(delete, path = "/events/{id}/chat/reports/{report_id}", tag = "chat", security(("bearer" = [])),
    params(ConcertPath,
        ("report_id" = String, Path, description = "The report's id")),
    responses(
        (status = 200, description = "Dismissed (or dismissed already).", body = Envelope<crate::openapi::Nothing>),
        (status = 403, description = "Not a moderator.", body = crate::openapi::Failure),
        (status = 404, description = "No such concert or report.", body = crate::openapi::Failure)))]
async fn dismiss_report(
    State(app): State<AppState>,
    user: CurrentUser,
    Path(path): Path<ReportPath>,
) -> Result<Api<()>> {
    let event = events::load(&app, &path.id).await?;
    room::dismiss_report(&app, &user, &event, &path.report_id).await?;
    Ok(Api::ok(()))
}

/// What the moderators change (any subset).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct RoomInput {
    /// A message to pin, or null to unpin.
    #[serde(default, deserialize_with = "present")]
    pinned_message_id: Option<Option<String>>,
    /// 0 (off) to 600.
    slow_mode_seconds: Option<i64>,
    closed: Option<bool>,
}

/// A field that may be given as null (`Some(None)`) or left out (`None`).
fn present<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> std::result::Result<Option<Option<String>>, D::Error> {
    Option::<String>::deserialize(d).map(Some)
}

/// Pin or unpin a message, set slow mode, close or open the chat (moderators). Logged.
#[utoipa::path(patch, path = "/events/{id}/chat/room", tag = "chat", security(("bearer" = [])),
    params(ConcertPath),
    request_body = RoomInput,
    responses(
        (status = 200, description = "The room's settings as changed.", body = Envelope<RoomSettings>),
        (status = 400, description = "Slow mode outside 0–600 s.", body = crate::openapi::Failure),
        (status = 403, description = "Not a moderator.", body = crate::openapi::Failure),
        (status = 404, description = "No such concert or message.", body = crate::openapi::Failure)))]
async fn change_room(
    IdRequest { app, user, id }: IdRequest,
    JsonBody(input): JsonBody<RoomInput>,
) -> Result<Api<RoomSettings>> {
    let event = events::load(&app, &id).await?;
    let changes = Changes {
        pinned: input.pinned_message_id,
        slow_mode_seconds: input.slow_mode_seconds,
        closed: input.closed,
    };
    Ok(Api::ok(room::change(&app, &user, &event, changes).await?))
}

/// A restriction to put on an account.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct RestrictionInput {
    account_id: String,
    kind: RestrictionKind,
}

/// Time an author out of this chat (5 min, 1 h, the rest of the show) or ban them from
/// every chat of the concert's project (moderators; moderators cannot be restricted).
#[utoipa::path(post, path = "/events/{id}/chat/restrictions", tag = "chat", security(("bearer" = [])),
    params(ConcertPath),
    request_body = RestrictionInput,
    responses(
        (status = 200, description = "In force.", body = Envelope<crate::openapi::Nothing>),
        (status = 403, description = "Not a moderator, or the account is one.", body = crate::openapi::Failure),
        (status = 404, description = "No such concert or account.", body = crate::openapi::Failure)))]
async fn restrict(
    IdRequest { app, user, id }: IdRequest,
    JsonBody(input): JsonBody<RestrictionInput>,
) -> Result<Api<()>> {
    let event = events::load(&app, &id).await?;
    room::restrict(&app, &user, &event, &input.account_id, input.kind).await?;
    Ok(Api::ok(()))
}

#[derive(Debug, Deserialize)]
struct AccountPath {
    id: String,
    account_id: String,
}

/// Lift an account's timeout in this chat and its ban from the project (moderators).
#[utoipa::path(delete, path = "/events/{id}/chat/restrictions/{account_id}", tag = "chat", security(("bearer" = [])),
    params(ConcertPath,
        ("account_id" = String, Path, description = "The account's id")),
    responses(
        (status = 200, description = "Lifted.", body = Envelope<crate::openapi::Nothing>),
        ModeratorRefusals))]
async fn lift(
    State(app): State<AppState>,
    user: CurrentUser,
    Path(path): Path<AccountPath>,
) -> Result<Api<()>> {
    let event = events::load(&app, &path.id).await?;
    room::lift(&app, &user, &event, &path.account_id).await?;
    Ok(Api::ok(()))
}

/// One moderation action.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct ModerationEntry {
    id: String,
    actor_id: String,
    actor_name: String,
    /// `delete`, `pin`, `unpin`, `slow_mode`, `close`, `open`, `timeout_5m`, `timeout_1h`,
    /// `timeout_show`, `ban`, `lift`, `dismiss_report`.
    action: String,
    account_id: Option<String>,
    /// Whom it was about, as the room shows names ("Ann B."), when it names an account.
    account_name: Option<String>,
    message_id: Option<String>,
    /// The deleted text, or the slow mode's seconds.
    detail: Option<String>,
    #[schema(format = DateTime)]
    at: String,
}

/// The chat's moderation log, newest first (moderators: the artist's team and staff).
#[utoipa::path(get, path = "/events/{id}/chat/moderation", tag = "chat", security(("bearer" = [])),
    params(ConcertPath),
    responses(
        (status = 200, description = "Who did what, when.", body = Envelope<Vec<ModerationEntry>>),
        ModeratorRefusals))]
async fn moderation_log(
    IdRequest { app, user, id }: IdRequest,
) -> Result<Api<Vec<ModerationEntry>>> {
    let event = events::load(&app, &id).await?;
    let rows = room::moderation_log(&app, &user, &event).await?;
    Ok(Api::ok(
        rows.into_iter()
            .map(|(r, account_name)| ModerationEntry {
                id: r.id,
                actor_id: r.actor_id,
                actor_name: r.actor_name,
                action: r.action,
                account_id: r.account_id,
                account_name,
                message_id: r.message_id,
                detail: r.detail,
                at: iso8601(r.at),
            })
            .collect(),
    ))
}

/// Reactions to send.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct ReactionInput {
    kind: ReactionKind,
    /// 1 to 20 (clicks gathered by the client).
    count: u64,
    /// The media time the fan hears; the live edge when missing.
    #[serde(default)]
    media_time: Option<i64>,
}

/// How many of the reactions were counted.
#[derive(Debug, Serialize, ToSchema)]
struct Accepted {
    /// At most 10 a second per fan are counted; the rest are dropped.
    accepted: u64,
}

/// React (applause, heart, fire) while posting is open: counted, and sent to the room as
/// counts every half second.
#[utoipa::path(post, path = "/events/{id}/chat/reactions", tag = "chat", security(("bearer" = [])),
    params(ConcertPath),
    request_body = ReactionInput,
    responses(
        (status = 200, description = "How many were counted.", body = Envelope<Accepted>),
        (status = 400, description = "A count outside 1–20.", body = crate::openapi::Failure),
        (status = 403, description = "Not a reader, or posting is not open.", body = crate::openapi::Failure)))]
async fn react(
    IdRequest { app, user, id }: IdRequest,
    JsonBody(input): JsonBody<ReactionInput>,
) -> Result<Api<Accepted>> {
    if !(1..=MAX_REACTIONS).contains(&input.count) {
        return Err(Error::bad_request(
            Msg::ChatReactionCount.with("max", Arg::figure(MAX_REACTIONS.to_string())),
        ));
    }
    let event = events::load(&app, &id).await?;
    let accepted = room::react(
        &app,
        &user,
        &event,
        input.kind,
        input.count,
        input.media_time,
    )
    .await?;
    Ok(Api::ok(Accepted { accepted }))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
struct ReactionsQuery {
    /// From this media time (ms); 0 by default.
    #[serde(default)]
    from_ms: i64,
    /// Up to this media time (ms); the whole show by default.
    to_ms: Option<i64>,
}

/// One second of the show's reactions.
#[derive(Debug, Serialize, ToSchema)]
struct ReactionSecond {
    /// The second of media time (from the show's first sample).
    second: i64,
    #[serde(flatten)]
    counts: Counts,
}

/// The room's reactions per second of media time, for the replay.
#[utoipa::path(get, path = "/events/{id}/chat/reactions", tag = "chat", security(("bearer" = [])),
    params(ConcertPath, ReactionsQuery),
    responses(
        (status = 200, description = "Seconds with reactions, in order.", body = Envelope<Vec<ReactionSecond>>),
        (status = 403, description = "Not a reader.", body = crate::openapi::Failure)))]
async fn reactions(
    IdRequest { app, user, id }: IdRequest,
    QueryParams(query): QueryParams<ReactionsQuery>,
) -> Result<Api<Vec<ReactionSecond>>> {
    let event = events::load(&app, &id).await?;
    room::reader(&app, user.actor(), &event).await?;
    let from = query.from_ms.max(0) / 1000;
    let to = query.to_ms.map_or(i64::MAX, |ms| ms / 1000);
    let seconds = store::reactions_between(&app.db, &event.id, from, to).await?;
    Ok(Api::ok(
        seconds
            .into_iter()
            .map(|(second, counts)| ReactionSecond { second, counts })
            .collect(),
    ))
}

/// A socket's replay of a room without what was deleted within it: a message followed,
/// later in the same replay, by its `chat_deleted` is left out (the deletion still goes,
/// so the client's offsets move on).
pub fn without_deleted(messages: Vec<Delivery>) -> Vec<Delivery> {
    let deleted: std::collections::HashSet<String> = messages
        .iter()
        .filter_map(|d| d.event.read::<model::Deleted>())
        .map(|d| d.message_id)
        .collect();
    if deleted.is_empty() {
        return messages;
    }
    messages
        .into_iter()
        .filter(|d| {
            d.event
                .read::<model::Posted>()
                .is_none_or(|p| !deleted.contains(&p.message.id))
        })
        .collect()
}
