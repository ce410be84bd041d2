//! The dashboard's WebSocket, `GET /api/v1/ws` (docs/api-contract.md "Live over
//! WebSocket"): the first message authenticates, then the socket follows the account's
//! channel, the staff channel for staff, and the concerts it asks for, from the bus.
//!
//! One task per socket owns everything about it (no locks): the position it sent last on
//! each channel, so a gap is filled from the channel's history and a replay never repeats;
//! the session, checked again whenever the bus says the account or session changed; the
//! token's expiry; the heartbeats. A socket that cannot keep up is closed, never buffered.

use std::collections::HashMap;
use std::pin::Pin;
use std::time::Duration;

use axum::extract::State;
use axum::response::Response;
use std::sync::Arc;

use bytes::Bytes;
use futures_util::{Stream, StreamExt};
use serde::{Deserialize, Serialize};
use tokio::time::{Instant, MissedTickBehavior};
use tokio_stream::StreamMap;

use crate::accounts::model::Role;
use crate::accounts::policy::Actor;
use crate::auth::extract::{CurrentUser, still_signed_in};
use crate::bus::{Channel, Delivery, Position, Received, Recovery, Subscription};
use crate::db::{iso8601, now_ms};
use crate::error::Error;
use crate::i18n::{self, Lang, Msg};
use crate::live::room_relay::{BATCH_EVERY, FromRelay, RelaySubscription, Taken};
use crate::live::sockets::Admitted;
use crate::net::outbox::{Outbox, Stop, close_frame, pong_frame, text_frame};
use crate::net::websocket::{ClientFrame, NoHello, Pending, ReadEnd, Reader, Upgrade};
use crate::state::AppState;

/// How long a new socket may take to send its `auth`.
const AUTH_WAIT: Duration = Duration::from_secs(10);
/// How often the server pings.
const PING_EVERY: Duration = Duration::from_secs(25);
/// Silence from the client after which the socket is closed.
const SILENCE_LIMIT: Duration = Duration::from_secs(60);
/// The largest message a signed-in client may send (an `auth` with a few `since`
/// positions, a subscription).
const MAX_MESSAGE: usize = 16 * 1024;
/// The largest first message, before the socket has proved who it is: an `auth` is about
/// half a kilobyte (docs/security.md, finding 1).
const MAX_FIRST_MESSAGE: usize = 8 * 1024;
/// Concerts one socket may follow at once.
const MAX_CONCERTS: usize = 64;

/// Why the server closes a socket: the code and the reason word of the protocol.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Close {
    BadMessage,
    Unauthorized,
    SessionEnded,
    TokenExpired,
    Heartbeat,
    TooManySockets,
    SlowConsumer,
    GoingAway,
}

impl Close {
    pub fn code(self) -> u16 {
        match self {
            Self::BadMessage => 4400,
            Self::Unauthorized => 4401,
            Self::SessionEnded => 4403,
            Self::TokenExpired => 4408,
            Self::Heartbeat => 4409,
            Self::TooManySockets => 4429,
            Self::SlowConsumer => 4503,
            Self::GoingAway => 1001,
        }
    }

    pub fn reason(self) -> &'static str {
        match self {
            Self::BadMessage => "bad_message",
            Self::Unauthorized => "unauthorized",
            Self::SessionEnded => "session_ended",
            Self::TokenExpired => "token_expired",
            Self::Heartbeat => "heartbeat",
            Self::TooManySockets => "too_many_sockets",
            Self::SlowConsumer => "slow_consumer",
            Self::GoingAway => "going_away",
        }
    }
}

/// What a client sends.
#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum ClientMessage {
    Auth {
        token: String,
        #[serde(default)]
        since: HashMap<String, Position>,
    },
    Subscribe {
        channel: String,
        #[serde(default)]
        since: Option<Position>,
    },
    Unsubscribe {
        channel: String,
    },
    Ping,
    Pong,
}

/// What the server sends besides the bus's own messages.
#[derive(Debug, Serialize)]
#[serde(
    tag = "type",
    rename_all = "snake_case",
    rename_all_fields = "camelCase"
)]
enum Reply<'a> {
    Ready {
        account_id: &'a str,
        expires_at: String,
        channels: Vec<String>,
    },
    Subscribed {
        channel: &'a Channel,
        offset: u64,
        epoch: &'a str,
        recovered: bool,
    },
    Reauthed {
        expires_at: String,
    },
    Error {
        code: &'static str,
        message: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        channel: Option<&'a str>,
    },
    Ping,
    Pong,
}

/// Open the dashboard's live socket (OpenAPI cannot type a socket's messages: this is
/// their summary; docs/api-contract.md, "Live over WebSocket", has the details and an
/// example session). Every message is a JSON text frame with a `type`.
///
/// The client sends first `{"type":"auth","token":"<access token>","since":{"<channel>":
/// {"offset":n,"epoch":"…"}}}` within 10 s (never a token in the URL), again with each
/// refreshed token; `subscribe`/`unsubscribe` `{"channel":"event:<id>"}` for a concert's
/// live figures (its managers and staff), `{"channel":"chat:<id>"}` for its room (those who
/// may read it: `chat_message`, `chat_deleted`, `chat_room`, `chat_reactions`); `ping`/`pong`.
///
/// The server answers `ready` (`accountId`, `expiresAt`, `channels`: `account:<id>`, plus
/// `staff` for staff), then per channel `subscribed` (`channel`, `offset`, `epoch`,
/// `recovered`: true when the messages missed since `since` follow, false when the client
/// must refetch over HTTP); `reauthed`; `error` (`code`, `message`, `channel`) for a
/// refused subscription; `ping`/`pong` (every 25 s). Bus messages carry `channel`,
/// `offset` (per channel, from 1, no gaps) and `epoch`: `notification` (a `Notification`),
/// `activity` (an `Activity`), `live_status` (`eventId`, a `LiveStatus`).
///
/// Close codes: 4400 bad_message, 4401 unauthorized, 4403 session_ended, 4408
/// token_expired, 4409 heartbeat (60 s of silence), 4429 too_many_sockets (8 per account),
/// 4503 slow_consumer (256 queued), 1001 going_away. Until its `auth` is accepted a socket
/// may send one frame of at most 8 KB (a larger one is closed 4400 at its header), and the
/// server holds at most `ENCORE_UNAUTHENTICATED_SOCKETS` such sockets (503 beyond).
#[utoipa::path(get, path = "/ws", tag = "live",
    responses(
        (status = 101, description = "Switched to the WebSocket protocol."),
        (status = 400, description = "Not a WebSocket upgrade request.", body = crate::openapi::Failure),
        (status = 503, description = "Too many sockets have not signed in yet: retry after `Retry-After`.", body = crate::openapi::Failure),
    ))]
pub async fn open(State(app): State<AppState>, upgrade: Upgrade) -> Response {
    let lang = i18n::current();
    upgrade.on_upgrade(move |pending| serve(app, pending, lang))
}

/// A signed-in socket: read by its task, written by its task and its rooms' relays.
struct Socket {
    reader: Reader,
    outbox: Arc<Outbox>,
}

impl Socket {
    fn open(pending: Pending) -> Option<Self> {
        let live = pending.open_live(MAX_MESSAGE)?;
        Some(Self {
            reader: live.reader,
            outbox: live.outbox,
        })
    }

    async fn send_text(&mut self, text: &[u8]) -> Result<(), Gone> {
        self.outbox.send(text_frame(text)).await.map_err(|_| Gone)
    }

    async fn reply(&mut self, reply: &Reply<'_>) -> Result<(), Gone> {
        let json = serde_json::to_vec(reply).expect("a reply always encodes");
        self.send_text(&json).await
    }

    async fn deliver(&mut self, delivery: &Delivery) -> Result<(), Gone> {
        self.send_text(&delivery.json()).await
    }

    /// Close with a code and reason after what is already on its way; a client that has
    /// not read for [`SILENCE_LIMIT`] is not waited for.
    async fn close(&mut self, code: u16, reason: &str) {
        let closing = self.outbox.close(close_frame(code, reason));
        let _ = tokio::time::timeout(SILENCE_LIMIT, closing).await;
    }
}

/// The client went away (or its connection broke): nothing more to send or close.
#[derive(Debug)]
struct Gone;

/// How a socket's life ends: closed by us with a reason, or gone.
enum End {
    Close(Close),
    Gone,
}

impl From<Gone> for End {
    fn from(_: Gone) -> Self {
        Self::Gone
    }
}

/// Serve one socket until it ends, closing it with a reason when the server ends it.
async fn serve(app: AppState, mut pending: Pending, lang: Lang) {
    // Boxed, as every rare path here: the task of an idle socket is sized for the largest
    // state its future passes through, so the sign-in (database queries) stays out of it.
    let proven = match Box::pin(prove(&app, &mut pending, lang)).await {
        Ok(proven) => Ok(proven),
        Err(None) => return, // gone before its first message
        Err(Some(close)) => Err(close),
    };
    // Signed in or refused, the socket is no longer unproven: framed as a live socket now.
    let Some(mut socket) = Socket::open(pending) else {
        return;
    };
    let close = match proven {
        Ok(proven) => Box::pin(follow(&app, &mut socket, proven)).await,
        Err(close) => Some(close),
    };
    if let Some(close) = close {
        socket.close(close.code(), close.reason()).await;
    }
}

/// Who a socket proved to be with its first message, admitted among the account's sockets.
struct Proven {
    holder: Admitted,
    role: Role,
    language: Lang,
    exp: i64,
    since: HashMap<String, Position>,
}

/// The first message must be an `auth` (at most [`MAX_FIRST_MESSAGE`] bytes, within
/// [`AUTH_WAIT`]) with a good token, and the account must have room for another socket.
/// `Err(None)` when the client went away first.
async fn prove(app: &AppState, pending: &mut Pending, lang: Lang) -> Result<Proven, Option<Close>> {
    let text = match pending.first_text(MAX_FIRST_MESSAGE, AUTH_WAIT).await {
        Ok(text) => text,
        Err(NoHello::Gone) => return Err(None),
        Err(NoHello::Timeout | NoHello::Bad(_)) => return Err(Some(Close::BadMessage)),
    };
    let Ok(ClientMessage::Auth { token, since }) = serde_json::from_str(&text) else {
        return Err(Some(Close::BadMessage));
    };
    drop(text);
    let Ok((user, claims)) = i18n::scope(lang, CurrentUser::from_token(app, &token)).await else {
        return Err(Some(Close::Unauthorized));
    };
    // Only who the socket belongs to is kept, not the whole signed-in account: 20,000
    // sockets must fit in memory.
    let Some(holder) = app.live.admit(&user.account.id, &user.session_id) else {
        return Err(Some(Close::TooManySockets));
    };
    Ok(Proven {
        holder,
        role: user.account.role(),
        language: user.account.language,
        exp: claims.exp,
        since,
    })
}

/// Follow the signed-in account's channels until the socket ends; `Some` when the server
/// closes it.
async fn follow(app: &AppState, socket: &mut Socket, proven: Proven) -> Option<Close> {
    let Proven {
        holder,
        role,
        language,
        exp,
        since,
    } = proven;
    let mut live = Subscriber {
        app: app.clone(),
        holder,
        role,
        expires: deadline(exp),
        channels: StreamMap::new(),
        positions: HashMap::new(),
        batch: Batch::default(),
        rooms: HashMap::new(),
    };
    // Boxed: the socket's long-lived state is then this future alone, not also a copy of
    // it inside every enclosing future (with the other boxes in this file, the future a
    // socket's task holds went from 4.7 KB or more to 1.1 KB; docs/benchmarks.md).
    Box::pin(i18n::scope(language, async move {
        match live.run(socket, exp, since).await {
            Ok(()) => None,
            Err(end) => end.into_close(),
        }
    }))
    .await
}

impl End {
    fn into_close(self) -> Option<Close> {
        match self {
            Self::Close(close) => Some(close),
            Self::Gone => None,
        }
    }
}

/// When a token expiring at `exp` (seconds since the epoch) stops being good.
fn deadline(exp: i64) -> Instant {
    let left_ms = (exp * 1000 - now_ms()).max(0);
    Instant::now() + Duration::from_millis(left_ms as u64)
}

/// What a followed channel brings: the bus's message or notice, or what its room's relay
/// left for this socket's task.
enum Incoming {
    Bus(Received),
    Room(Taken),
}

type Feed = Pin<Box<dyn Stream<Item = Incoming> + Send>>;

/// One authenticated socket's state: who holds it and what it follows.
struct Subscriber {
    app: AppState,
    /// Who the socket belongs to, and the signal that their account or session may have
    /// changed (then the socket asks the database whether the session still stands).
    holder: Admitted,
    role: Role,
    expires: Instant,
    channels: StreamMap<Channel, Feed>,
    /// The last message of each channel this socket has sent (or the position it was told
    /// to follow from).
    positions: HashMap<Channel, Position>,
    /// Room messages this socket gathers itself, when its room's shared frames do not run
    /// straight on from what it sent (after a join or a catch-up), and when they go.
    batch: Batch,
    /// The rooms this socket follows, and whether its task has each in hand (the relay
    /// writes to the socket only while it does not).
    rooms: HashMap<Channel, Room>,
}

/// A followed room: the socket's place in its relay.
struct Room {
    relay: Arc<RelaySubscription>,
    /// Whether the task has the room in hand (joining, catching up, sending its own
    /// frames): then the relay queues the room's frames for the task instead of writing.
    held: bool,
}

/// Room messages gathered for one frame. Frames go at least [`BATCH_EVERY`] apart: the
/// first message after a quiet spell goes at once, the next wait for the window to close.
#[derive(Default)]
struct Batch {
    pending: Vec<bytes::Bytes>,
    due: Option<Instant>,
    last_sent: Option<Instant>,
}

impl Batch {
    fn push(&mut self, json: bytes::Bytes) {
        if self.due.is_none() {
            let now = Instant::now();
            let open = self.last_sent.map_or(now, |sent| sent + BATCH_EVERY);
            self.due = Some(open.max(now));
        }
        self.pending.push(json);
    }

    /// The frame of what is pending (a lone message as itself, several as one `batch`).
    fn take(&mut self) -> Option<Bytes> {
        self.due = None;
        if self.pending.is_empty() {
            return None;
        }
        self.last_sent = Some(Instant::now());
        Some(crate::live::room_relay::frame(std::mem::take(
            &mut self.pending,
        )))
    }
}

impl Subscriber {
    async fn run(
        &mut self,
        socket: &mut Socket,
        exp: i64,
        since: HashMap<String, Position>,
    ) -> Result<(), End> {
        let mut joined = vec![Channel::Account(self.holder.account_id.to_string())];
        if self.role.is_staff() {
            joined.push(Channel::Staff);
        }
        socket
            .reply(&Reply::Ready {
                account_id: &self.holder.account_id,
                expires_at: iso8601(exp * 1000),
                channels: joined.iter().map(Channel::name).collect(),
            })
            .await?;
        for channel in joined {
            let since = since.get(&channel.name()).cloned();
            // Boxed, as every path a socket takes rarely (a join, a catch-up): kept out of
            // the state every idle socket carries.
            Box::pin(self.join(socket, channel, since)).await?;
        }

        let mut heartbeat = tokio::time::interval(PING_EVERY);
        heartbeat.set_missed_tick_behavior(MissedTickBehavior::Delay);
        heartbeat.tick().await;
        let mut last_heard = Instant::now();
        // Made once, not on every turn of the loop: each would register with a lock shared by
        // every socket (the shutdown signal) or with the timer, once per message sent.
        let sockets = self.app.live.clone();
        let shutting_down = sockets.shutting_down();
        let expiry = tokio::time::sleep_until(self.expires);
        let batch_due = tokio::time::sleep_until(self.expires);
        tokio::pin!(shutting_down, expiry, batch_due);
        loop {
            self.hand_back_rooms();
            if expiry.deadline() != self.expires {
                expiry.as_mut().reset(self.expires); // a re-`auth` moved it
            }
            if let Some(due) = self.batch.due
                && batch_due.deadline() != due
            {
                batch_due.as_mut().reset(due);
            }
            tokio::select! {
                _ = &mut shutting_down => return Err(End::Close(Close::GoingAway)),
                incoming = socket.reader.next() => {
                    last_heard = Instant::now();
                    match incoming {
                        // Boxed: rare, and its future (database queries) is large.
                        Ok(ClientFrame::Text(text)) => Box::pin(self.handle(socket, &text)).await?,
                        Ok(ClientFrame::Binary) => {
                            self.refuse(socket, "bad_message", Msg::MalformedRequest.render(i18n::current()), None).await?;
                        }
                        // Protocol pings count as heard, and are answered.
                        Ok(ClientFrame::Ping(payload)) => {
                            let pong = socket.outbox.send(pong_frame(&payload));
                            Box::pin(pong).await.map_err(|_| End::Gone)?;
                        }
                        Ok(ClientFrame::Pong) => {}
                        // The client closes: answered in kind.
                        Ok(ClientFrame::Close) => {
                            Box::pin(socket.close(1000, "")).await;
                            return Err(End::Gone);
                        }
                        Err(ReadEnd::Bad(_)) => return Err(End::Close(Close::BadMessage)),
                        Err(ReadEnd::Gone) => return Err(End::Gone),
                    }
                }
                // A room's relay left bytes the connection could not take at once, or the
                // client fell too far behind them. Boxed, as every wait on a slow client.
                () = socket.outbox.waiting() => match socket.outbox.stopped() {
                    Some(Stop::TooFarBehind) => return Err(End::Close(Close::SlowConsumer)),
                    Some(Stop::Ended) => return Err(End::Gone),
                    None => Box::pin(socket.outbox.drain()).await.map_err(|_| End::Gone)?,
                },
                Some((channel, incoming)) = self.channels.next() => {
                    self.incoming(socket, channel, incoming).await?;
                }
                _ = self.holder.changed() => Box::pin(self.check_session(socket)).await?,
                _ = heartbeat.tick() => {
                    if last_heard.elapsed() >= SILENCE_LIMIT {
                        return Err(End::Close(Close::Heartbeat));
                    }
                    socket.reply(&Reply::Ping).await?;
                }
                _ = &mut batch_due, if self.batch.due.is_some() => self.flush_batch(socket).await?,
                _ = &mut expiry => return Err(End::Close(Close::TokenExpired)),
            }
        }
    }

    /// Follow `channel`: subscribe first, then read where it stands, so nothing falls
    /// between; replay what came after `since` when the history still has it.
    async fn join(
        &mut self,
        socket: &mut Socket,
        channel: Channel,
        since: Option<Position>,
    ) -> Result<(), End> {
        // A room comes through this instance's relay for it (one frame for all its sockets),
        // which writes to the socket once the task hands its place back.
        let feed = match &channel {
            Channel::Chat(_) => {
                let relay = self
                    .app
                    .room_relays
                    .subscribe(&channel, socket.outbox.clone());
                let relay = Arc::new(relay);
                let room = Room {
                    relay: relay.clone(),
                    held: true,
                };
                self.rooms.insert(channel.clone(), room);
                room_feed(relay)
            }
            _ => feed(self.app.bus.subscribe(&channel)),
        };
        let recovery = match &since {
            Some(since) => self.app.bus.history(&channel, since).await,
            None => self
                .app
                .bus
                .position(&channel)
                .await
                .map(|position| Recovery::Gone { position }),
        };
        let recovery = match recovery {
            Ok(recovery) => recovery,
            Err(err) => {
                // The bus is away (Redis down): follow from nothing; the catch-up after
                // its return says `recovered: false` if anything was missed.
                tracing::warn!(channel = %channel, error = %err, "socket: channel position unknown");
                Recovery::Gone {
                    position: since.unwrap_or(Position {
                        offset: 0,
                        epoch: String::new(),
                    }),
                }
            }
        };
        self.channels.insert(channel.clone(), feed);
        self.recovered(socket, &channel, recovery).await
    }

    /// Send what a recovery found and remember where the channel now stands.
    async fn recovered(
        &mut self,
        socket: &mut Socket,
        channel: &Channel,
        recovery: Recovery,
    ) -> Result<(), End> {
        self.flush_batch(socket).await?;
        let (messages, position, recovered) = match recovery {
            Recovery::Complete { messages, position } => {
                (replayed(channel, messages), position, true)
            }
            Recovery::Gone { position } => (Vec::new(), position, false),
        };
        socket
            .reply(&Reply::Subscribed {
                channel,
                offset: position.offset,
                epoch: &position.epoch,
                recovered,
            })
            .await?;
        for delivery in &messages {
            socket.deliver(delivery).await?;
        }
        self.positions.insert(channel.clone(), position);
        Ok(())
    }

    /// What one of the followed channels brought.
    async fn incoming(
        &mut self,
        socket: &mut Socket,
        channel: Channel,
        incoming: Incoming,
    ) -> Result<(), End> {
        match incoming {
            Incoming::Bus(received) => self.received(socket, channel, received).await,
            Incoming::Room(taken) => self.taken_from_room(socket, channel, taken).await,
        }
    }

    /// What a room's relay queued for this task: it has the room in hand from here, at the
    /// place where the relay left the socket, until it hands it back with nothing of the
    /// room's left to send ([`Subscriber::hand_back_rooms`]).
    async fn taken_from_room(
        &mut self,
        socket: &mut Socket,
        channel: Channel,
        taken: Taken,
    ) -> Result<(), End> {
        let Taken {
            item,
            place,
            last_write,
        } = taken;
        if let Some(room) = self.rooms.get_mut(&channel) {
            room.held = true;
        }
        if let Some(place) = place {
            self.positions.insert(channel.clone(), place);
        }
        if last_write > self.batch.last_sent {
            self.batch.last_sent = last_write;
        }
        match item {
            // Message by message with this socket's offsets, gathered into its own frames.
            FromRelay::Batch(batch) => {
                crate::metrics::room_frame(false);
                for delivery in &batch.deliveries {
                    let message = Received::Message(delivery.clone());
                    self.received(socket, channel.clone(), message).await?;
                }
                Ok(())
            }
            FromRelay::CatchUp => Box::pin(self.catch_up(socket, &channel)).await,
            // Too slow for the room: cut off like any slow reader; it reconnects and
            // catches up with its offsets.
            FromRelay::Lagged => Err(End::Close(Close::SlowConsumer)),
        }
    }

    /// Hand the rooms this task has in hand back to their relays, once nothing it
    /// gathered waits to be sent: the relay writes their frames from where it stands.
    fn hand_back_rooms(&mut self) {
        if !self.batch.pending.is_empty() {
            return;
        }
        for (channel, room) in &mut self.rooms {
            if room.held
                && let Some(place) = self.positions.get(channel)
            {
                room.held = !room.relay.hand_back(place.clone());
            }
        }
    }

    /// A message or notice from one of the followed channels.
    async fn received(
        &mut self,
        socket: &mut Socket,
        channel: Channel,
        received: Received,
    ) -> Result<(), End> {
        match received {
            Received::Message(delivery) => {
                let Some(seen) = self.positions.get(&channel) else {
                    return Ok(());
                };
                if delivery.epoch == seen.epoch {
                    if delivery.offset <= seen.offset {
                        return Ok(()); // already sent in a replay
                    }
                    if delivery.offset > seen.offset + 1 {
                        // A hole (a message lost between instances): fill it in order.
                        return Box::pin(self.catch_up(socket, &channel)).await;
                    }
                } else if !seen.epoch.is_empty() {
                    // The channel's history was lost: the client refetches, then follows.
                    let position = Position {
                        offset: delivery.offset - 1,
                        epoch: delivery.epoch.clone(),
                    };
                    Box::pin(self.recovered(socket, &channel, Recovery::Gone { position })).await?;
                }
                if matches!(channel, Channel::Chat(_)) {
                    self.batch.push(delivery.json());
                } else {
                    socket.deliver(&delivery).await?;
                }
                self.positions.insert(channel, delivery.position());
                Ok(())
            }
            // The client read too slowly and its queue overflowed: cut it off rather than
            // buffer; it reconnects with its offsets and catches up.
            Received::Lagged { .. } => Err(End::Close(Close::SlowConsumer)),
            Received::Reconnected => Box::pin(self.catch_up(socket, &channel)).await,
        }
    }

    /// Send what the channel's history holds after the last position sent, or tell the
    /// client to refetch when it is gone.
    async fn catch_up(&mut self, socket: &mut Socket, channel: &Channel) -> Result<(), End> {
        let Some(seen) = self.positions.get(channel).cloned() else {
            return Ok(());
        };
        // What is gathered goes first: the client sees every channel in offset order.
        self.flush_batch(socket).await?;
        match self.app.bus.history(channel, &seen).await {
            Ok(Recovery::Complete { messages, position }) => {
                for delivery in &replayed(channel, messages) {
                    socket.deliver(delivery).await?;
                }
                self.positions.insert(channel.clone(), position);
                Ok(())
            }
            Ok(gone @ Recovery::Gone { .. }) => self.recovered(socket, channel, gone).await,
            Err(err) => {
                tracing::warn!(channel = %channel, error = %err, "socket: could not catch up");
                Ok(())
            }
        }
    }

    async fn handle(&mut self, socket: &mut Socket, text: &str) -> Result<(), End> {
        let lang = i18n::current();
        let message = match serde_json::from_str::<ClientMessage>(text) {
            Ok(message) => message,
            Err(_) => {
                let words = Msg::MalformedRequest.render(lang);
                return self.refuse(socket, "bad_message", words, None).await;
            }
        };
        match message {
            ClientMessage::Ping => socket.reply(&Reply::Pong).await?,
            ClientMessage::Pong => {}
            ClientMessage::Auth { token, .. } => self.reauth(socket, &token).await?,
            ClientMessage::Subscribe { channel, since } => {
                self.subscribe(socket, &channel, since).await?;
            }
            ClientMessage::Unsubscribe { channel } => {
                if let Ok(channel @ (Channel::Event(_) | Channel::Chat(_))) =
                    channel.parse::<Channel>()
                {
                    self.leave(&channel);
                }
            }
        }
        Ok(())
    }

    /// A fresh token for the same account and role keeps the socket open past the old
    /// expiry (a new role changes what it may follow: it reconnects).
    async fn reauth(&mut self, socket: &mut Socket, token: &str) -> Result<(), End> {
        match CurrentUser::from_token(&self.app, token).await {
            Ok((user, claims))
                if *user.account.id == *self.holder.account_id
                    && user.account.role() == self.role =>
            {
                self.expires = deadline(claims.exp);
                if *user.session_id != *self.holder.session_id {
                    self.holder.move_to_session(&user.session_id);
                }
                socket
                    .reply(&Reply::Reauthed {
                        expires_at: iso8601(claims.exp * 1000),
                    })
                    .await?;
                Ok(())
            }
            _ => Err(End::Close(Close::Unauthorized)),
        }
    }

    /// Follow a concert's live figures (its managers and staff only) or its room (those
    /// who may read it).
    async fn subscribe(
        &mut self,
        socket: &mut Socket,
        name: &str,
        since: Option<Position>,
    ) -> Result<(), End> {
        let lang = i18n::current();
        let Ok(channel @ (Channel::Event(_) | Channel::Chat(_))) = name.parse::<Channel>() else {
            let words = Msg::LiveChannelUnknown.render(lang);
            return self.refuse(socket, "not_found", words, Some(name)).await;
        };
        if self.channels.contains_key(&channel) {
            return Ok(());
        }
        if self.channels.len() >= MAX_CONCERTS + 2 {
            let words = Msg::LiveTooManyConcerts.render(lang);
            return self.refuse(socket, "forbidden", words, Some(name)).await;
        }
        let actor = Actor {
            id: &self.holder.account_id,
            role: self.role,
        };
        match may_follow(&self.app, actor, &channel).await {
            Ok(()) => self.join(socket, channel, since).await,
            Err(err) => {
                let code = match err.status().as_u16() {
                    404 => "not_found",
                    403 => "forbidden",
                    _ => "unavailable",
                };
                let words = err.public_message();
                self.refuse(socket, code, words, Some(name)).await
            }
        }
    }

    /// Stop following a channel.
    fn leave(&mut self, channel: &Channel) {
        self.channels.remove(channel);
        self.positions.remove(channel);
        self.rooms.remove(channel);
    }

    /// Send the room messages gathered so far, now.
    async fn flush_batch(&mut self, socket: &mut Socket) -> Result<(), End> {
        if let Some(frame) = self.batch.take() {
            socket.send_text(&frame).await?;
        }
        Ok(())
    }

    async fn refuse(
        &mut self,
        socket: &mut Socket,
        code: &'static str,
        message: String,
        channel: Option<&str>,
    ) -> Result<(), End> {
        socket
            .reply(&Reply::Error {
                code,
                message,
                channel,
            })
            .await?;
        Ok(())
    }

    /// The account or one of its sessions may have changed (the bus said so, or messages
    /// about it may have been missed): ask the database whether the session still stands,
    /// and whether the account may still follow each concert it follows (its projects may
    /// have changed).
    async fn check_session(&mut self, socket: &mut Socket) -> Result<(), End> {
        let holder = &self.holder;
        match still_signed_in(&self.app, &holder.session_id, &holder.account_id).await {
            Ok(None) => Err(End::Close(Close::SessionEnded)),
            // A new role changes what the socket may follow: reconnect with a new token.
            Ok(Some(role)) if role != self.role => Err(End::Close(Close::Unauthorized)),
            Ok(Some(_)) => self.check_concerts(socket).await,
            Err(err) => {
                tracing::warn!(error = %err, "socket: could not check the session");
                Ok(())
            }
        }
    }

    /// Stop following the concerts the account may no longer follow, telling the client
    /// with a `forbidden` error naming each channel.
    async fn check_concerts(&mut self, socket: &mut Socket) -> Result<(), End> {
        let followed: Vec<Channel> = self
            .channels
            .keys()
            .filter(|channel| matches!(channel, Channel::Event(_) | Channel::Chat(_)))
            .cloned()
            .collect();
        for channel in followed {
            let actor = Actor {
                id: &self.holder.account_id,
                role: self.role,
            };
            match may_follow(&self.app, actor, &channel).await {
                Ok(()) => {}
                Err(err) if err.status().is_client_error() => {
                    self.leave(&channel);
                    let name = channel.name();
                    let words = err.public_message();
                    self.refuse(socket, "forbidden", words, Some(&name)).await?;
                }
                Err(err) => {
                    tracing::warn!(channel = %channel, error = %err, "socket: could not check a concert");
                }
            }
        }
        Ok(())
    }
}

/// Whether `actor` may follow a concert's live figures (staff, or its project's members)
/// or its room (`chat::room::reader`).
async fn may_follow(app: &AppState, actor: Actor<'_>, channel: &Channel) -> Result<(), Error> {
    match channel {
        Channel::Event(event_id) => {
            let event = crate::events::load(app, event_id).await?;
            if crate::events::can_manage(app, actor, &event.project_id).await? {
                Ok(())
            } else {
                Err(Error::forbidden(Msg::OnlyManagersSeeThis))
            }
        }
        Channel::Chat(event_id) => {
            crate::chat::room::may_read(app, actor.id, actor.role, event_id).await
        }
        _ => Err(Error::forbidden(Msg::LiveChannelUnknown)),
    }
}

/// What a replay sends: a room's replay leaves out the messages deleted within it.
fn replayed(channel: &Channel, messages: Vec<Delivery>) -> Vec<Delivery> {
    match channel {
        Channel::Chat(_) => crate::chat::without_deleted(messages),
        _ => messages,
    }
}

/// A subscription as a stream, so one socket can wait on all its channels at once.
fn feed(subscription: Subscription) -> Feed {
    Box::pin(futures_util::stream::unfold(
        subscription,
        |mut subscription| async move {
            let received = subscription.recv().await?;
            Some((Incoming::Bus(received), subscription))
        },
    ))
}

/// What a room's relay queues for this socket's task, as a stream.
fn room_feed(relay: Arc<RelaySubscription>) -> Feed {
    Box::pin(futures_util::stream::unfold(relay, |relay| async move {
        let taken = relay.recv().await?;
        Some((Incoming::Room(taken), relay))
    }))
}
