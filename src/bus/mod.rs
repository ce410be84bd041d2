//! The event bus (DESIGN.md "One bus for everything that happens"): typed events
//! published on named channels, fanned out to every subscriber on every instance, with a
//! short history per channel so a subscriber that missed messages catches up by offset.
//!
//! Every message on a channel gets the next `offset` (1, 2, 3…, no gaps) and carries the
//! channel's `epoch`, a string that changes whenever the channel's history is lost (its
//! offsets restart). A subscriber that remembers the last [`Position`] it saw asks
//! [`Bus::history`] for what came after it and gets either exactly the missed messages, in
//! order, or [`Recovery::Gone`], after which it refetches the state over HTTP. This is
//! Centrifugo's recovery model; `docs/bus.md` describes the channels, the message shape and
//! the Redis keys.
//!
//! Two transports: in process (the default: one instance) and Redis when
//! `ENCORE_REDIS_URL` is set (several instances behave as one).

mod fanout;
mod memory;
mod recovery;
mod redis;

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use futures_util::future::BoxFuture;
use serde::{Deserialize, Serialize};
use tokio::sync::broadcast;

use fanout::{Fanout, Signal};

/// Messages kept per channel for catching up.
pub const HISTORY_SIZE: usize = 300;
/// How long a message stays in a channel's history.
pub const HISTORY_TTL: Duration = Duration::from_secs(5 * 60);
/// How long a quiet channel keeps its offset and epoch (after that it starts again with a
/// new epoch, and a subscriber that was away that long refetches).
pub const META_TTL: Duration = Duration::from_secs(24 * 3600);
/// Messages a local subscriber may be behind before it is told it lagged.
pub const SUBSCRIBER_QUEUE: usize = 256;

/// Where a message is published. Its name (`account:<id>`, `staff`, `event:<id>`,
/// `chat:<id>`, `cache`) is what clients see and what keys it in Redis.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Channel {
    /// One account's own notifications.
    Account(String),
    /// Staff activity: sign-ups, sales, refunds, shows starting and ending.
    Staff,
    /// One concert's live status, for its managers.
    Event(String),
    /// One concert's room: its chat and reactions, for those who may listen.
    Chat(String),
    /// Between instances only: caches to drop (never sent to a browser).
    Cache,
}

impl Channel {
    pub fn name(&self) -> String {
        self.to_string()
    }
}

impl fmt::Display for Channel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Account(id) => write!(f, "account:{id}"),
            Self::Staff => f.write_str("staff"),
            Self::Event(id) => write!(f, "event:{id}"),
            Self::Chat(id) => write!(f, "chat:{id}"),
            Self::Cache => f.write_str("cache"),
        }
    }
}

impl std::str::FromStr for Channel {
    type Err = BusError;
    fn from_str(name: &str) -> Result<Self, BusError> {
        // Ids are ours (UUIDs): refuse anything that would break the Redis frame.
        let id = |id: &str| {
            (!id.is_empty() && !id.contains(['\n', ' ']))
                .then(|| id.to_owned())
                .ok_or_else(|| BusError::BadChannel(name.to_owned()))
        };
        match name.split_once(':') {
            None if name == "staff" => Ok(Self::Staff),
            None if name == "cache" => Ok(Self::Cache),
            Some(("account", rest)) => Ok(Self::Account(id(rest)?)),
            Some(("event", rest)) => Ok(Self::Event(id(rest)?)),
            Some(("chat", rest)) => Ok(Self::Chat(id(rest)?)),
            _ => Err(BusError::BadChannel(name.to_owned())),
        }
    }
}

impl Serialize for Channel {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Channel {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}

/// What happened, as its publisher's typed [`Message`] encoded it: a `type` and its
/// fields, flat in one JSON object (what a WebSocket sends, docs/api-contract.md). The bus
/// carries it without reading it: the types belong to the features that publish and
/// follow them, so the bus imports none of them. A type this build does not know (sent
/// by a newer instance during an upgrade) passes through like any other, so offsets stay
/// contiguous.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Publication {
    #[serde(rename = "type")]
    kind: String,
    #[serde(flatten)]
    fields: serde_json::Map<String, serde_json::Value>,
}

/// A feature's message on the bus: a struct of named fields (camelCase on the wire) that
/// travels as `{"type": KIND, ...fields}`.
pub trait Message: Serialize + serde::de::DeserializeOwned {
    /// The `type` it travels as; unique across the features.
    const KIND: &'static str;
}

impl Publication {
    /// The event carrying `message`.
    ///
    /// # Panics
    /// When `message` does not encode as a JSON object: a [`Message`] is a struct with
    /// named fields (a programming error, caught by any test that publishes it).
    pub fn new<M: Message>(message: &M) -> Self {
        match serde_json::to_value(message) {
            Ok(serde_json::Value::Object(fields)) => Self {
                kind: M::KIND.to_owned(),
                fields,
            },
            other => panic!("bus message {} is not a JSON object: {other:?}", M::KIND),
        }
    }

    /// Its `type`.
    pub fn kind(&self) -> &str {
        &self.kind
    }

    /// The message, when it is an `M` (its `type` is `M::KIND` and its fields read as one).
    pub fn read<M: Message>(&self) -> Option<M> {
        if self.kind != M::KIND {
            return None;
        }
        match serde_json::from_value(serde_json::Value::Object(self.fields.clone())) {
            Ok(message) => Some(message),
            Err(err) => {
                tracing::warn!(kind = M::KIND, error = %err, "bus: a message did not read as its type");
                None
            }
        }
    }
}

/// A message as subscribers receive it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Delivery {
    pub channel: Channel,
    pub offset: u64,
    pub epoch: String,
    #[serde(flatten)]
    pub event: Publication,
    /// The message as JSON, written once however many sockets send it.
    #[serde(skip)]
    pub encoded: Encoded,
}

/// A delivery's JSON, computed on first use. Not part of what a delivery *is*: two
/// deliveries are equal whether or not either was encoded yet.
#[derive(Default, Clone)]
pub struct Encoded(std::sync::OnceLock<bytes::Bytes>);

impl PartialEq for Encoded {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl fmt::Debug for Encoded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Encoded")
    }
}

impl Delivery {
    /// A message as delivered at `offset` of `channel`'s history `epoch` (not encoded yet).
    pub fn new(channel: Channel, offset: u64, epoch: String, event: Publication) -> Self {
        Self {
            channel,
            offset,
            epoch,
            event,
            encoded: Encoded::default(),
        }
    }

    /// The delivery as one JSON object (what a WebSocket sends), encoded once.
    pub fn json(&self) -> bytes::Bytes {
        self.encoded
            .0
            .get_or_init(|| {
                serde_json::to_vec(self)
                    .expect("a delivery always encodes")
                    .into()
            })
            .clone()
    }

    pub fn position(&self) -> Position {
        Position {
            offset: self.offset,
            epoch: self.epoch.clone(),
        }
    }
}

/// The last message of a channel a subscriber has seen (offset 0: none yet).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Position {
    pub offset: u64,
    pub epoch: String,
}

/// The answer to [`Bus::history`].
#[derive(Debug, Clone, PartialEq)]
pub enum Recovery {
    /// Exactly the messages after the given position, in order; `position` is the
    /// channel's newest.
    Complete {
        messages: Vec<Delivery>,
        position: Position,
    },
    /// The history needed is gone (epoch changed, trimmed or expired): refetch the state,
    /// then follow from `position`.
    Gone { position: Position },
}

impl Recovery {
    pub fn position(&self) -> &Position {
        match self {
            Self::Complete { position, .. } | Self::Gone { position } => position,
        }
    }
}

/// What a [`Subscription`] yields.
#[derive(Debug, Clone, PartialEq)]
pub enum Received {
    Message(Arc<Delivery>),
    /// This subscriber fell behind and `missed` messages were dropped for it: catch up
    /// from [`Bus::history`] (or be disconnected by its owner).
    Lagged {
        missed: u64,
    },
    /// The instance lost its connection to the other instances and has it back: messages
    /// may have been missed meanwhile, catch up from [`Bus::history`].
    Reconnected,
}

#[derive(Debug, thiserror::Error)]
pub enum BusError {
    #[error("not a bus channel: {0:?}")]
    BadChannel(String),
    #[error("bus message could not be encoded or decoded: {0}")]
    Codec(#[from] serde_json::Error),
    #[error("redis: {0}")]
    Redis(#[from] ::redis::RedisError),
    #[error("unexpected answer from redis: {0}")]
    Protocol(String),
}

/// A transport: where offsets, epochs and history live, and how a message reaches the
/// [`Fanout`] of every instance.
/// What [`Transport::publish`] answers: the message as delivered.
type Published<'a> = BoxFuture<'a, Result<Delivery, BusError>>;
/// What [`Transport::retained`] answers: the messages retained and the newest position.
type Retained<'a> = BoxFuture<'a, Result<(Vec<Delivery>, Position), BusError>>;

trait Transport: Send + Sync {
    fn publish<'a>(&'a self, channel: &'a Channel, event: &'a Publication) -> Published<'a>;

    /// The channel's newest position and the messages still retained after offset
    /// `after` (a suffix of the channel, in order; none when `after` is `None`).
    fn retained<'a>(&'a self, channel: &'a Channel, after: Option<u64>) -> Retained<'a>;

    fn subscriber_addr(&self) -> Option<std::net::SocketAddr> {
        None
    }

    /// Commands sent to Redis so far (`None` in process).
    fn round_trips(&self) -> Option<u64> {
        None
    }

    /// The Redis transport, for state shared beside the bus (`None` in process).
    fn as_redis(&self) -> Option<&redis::Redis> {
        None
    }
}

/// The bus. Cheap to clone; every clone is the same bus.
#[derive(Clone)]
pub struct Bus {
    transport: Arc<dyn Transport>,
    fanout: Arc<Fanout>,
    instance: Arc<str>,
}

impl Bus {
    /// The bus of one instance: offsets and history in memory.
    pub fn in_process() -> Self {
        let fanout = Arc::new(Fanout::new(SUBSCRIBER_QUEUE));
        Self {
            transport: Arc::new(memory::Memory::new(fanout.clone())),
            fanout,
            instance: new_id().into(),
        }
    }

    /// The bus shared by every instance using this Redis (`redis://host:port/db`), with
    /// every key and pub/sub channel under `prefix`. Fails when Redis cannot be reached.
    pub async fn redis(url: &str, prefix: &str) -> Result<Self, BusError> {
        let fanout = Arc::new(Fanout::new(SUBSCRIBER_QUEUE));
        let transport = redis::Redis::connect(url, prefix, fanout.clone()).await?;
        Ok(Self {
            transport: Arc::new(transport),
            fanout,
            instance: new_id().into(),
        })
    }

    /// This instance's id (e.g. an event's `origin`).
    pub fn instance(&self) -> &str {
        &self.instance
    }

    /// The local address of this instance's Redis pub/sub connection as it is now (it
    /// changes on reconnection), to find it in `CLIENT LIST`; `None` without Redis.
    pub fn redis_subscriber_addr(&self) -> Option<std::net::SocketAddr> {
        self.transport.subscriber_addr()
    }

    /// Commands this instance sent to Redis so far; `None` without Redis.
    pub fn redis_round_trips(&self) -> Option<u64> {
        self.transport.round_trips()
    }

    /// A key for state the instances share beside the bus (`<prefix><name>` in its
    /// Redis); `None` in process, where this instance is all there is.
    pub fn shared_key(&self, name: &str) -> Option<String> {
        self.transport.as_redis().map(|redis| redis.key(name))
    }

    /// Run a command on the bus's Redis (its command connection, reopened after it
    /// broke); `None` in process.
    pub async fn shared_command<T: ::redis::FromRedisValue>(
        &self,
        command: &::redis::Cmd,
    ) -> Option<Result<T, BusError>> {
        Some(self.transport.as_redis()?.query(command).await)
    }

    /// Commands beside the bus in one round trip, in order; `None` in process.
    pub async fn shared_pipeline(
        &self,
        pipeline: &::redis::Pipeline,
    ) -> Option<Result<(), BusError>> {
        Some(self.transport.as_redis()?.query_pipeline(pipeline).await)
    }

    /// A Redis connection of its own, for commands that block (`XREAD BLOCK`), with
    /// answers awaited up to `response_timeout`; `None` in process.
    pub async fn blocking_connection(
        &self,
        response_timeout: Duration,
    ) -> Option<Result<::redis::aio::MultiplexedConnection, BusError>> {
        Some(self.transport.as_redis()?.dedicated(response_timeout).await)
    }

    /// Publish on every instance; answers the message as delivered (its offset and
    /// epoch) once the transport has it.
    pub async fn publish(
        &self,
        channel: &Channel,
        event: Publication,
    ) -> Result<Delivery, BusError> {
        self.transport.publish(channel, &event).await
    }

    /// Publish without waiting (from synchronous code); a failure is logged.
    pub fn publish_detached(&self, channel: Channel, event: Publication) {
        let bus = self.clone();
        tokio::spawn(async move {
            if let Err(err) = bus.publish(&channel, event).await {
                tracing::warn!(channel = %channel, error = %err, "bus publish failed");
            }
        });
    }

    /// Follow a channel from now on. Subscribe before asking [`Bus::history`] or
    /// [`Bus::position`], then skip what is at or below the position already seen, so
    /// nothing falls between the two.
    pub fn subscribe(&self, channel: &Channel) -> Subscription {
        Subscription {
            receiver: self.fanout.subscribe(channel),
            channel: channel.clone(),
            fanout: Arc::downgrade(&self.fanout),
        }
    }

    /// The messages published on `channel` after `since`, or `Gone`.
    pub async fn history(&self, channel: &Channel, since: &Position) -> Result<Recovery, BusError> {
        let (retained, newest) = self.transport.retained(channel, Some(since.offset)).await?;
        Ok(recovery::recover(since, newest, retained))
    }

    /// What the channel still holds (its last messages of the last few minutes, in
    /// order, up to the newest) and its newest position: where a page that shows recent
    /// activity starts, before it follows the channel from that position.
    pub async fn recent(&self, channel: &Channel) -> Result<(Vec<Delivery>, Position), BusError> {
        self.transport.retained(channel, Some(0)).await
    }

    /// The channel's newest position (offset 0 and a fresh epoch for a new channel).
    pub async fn position(&self, channel: &Channel) -> Result<Position, BusError> {
        Ok(self.transport.retained(channel, None).await?.1)
    }
}

/// One subscriber's bounded queue on one channel.
pub struct Subscription {
    receiver: broadcast::Receiver<Signal>,
    channel: Channel,
    fanout: std::sync::Weak<Fanout>,
}

impl Subscription {
    /// The next message or notice; `None` once the bus is gone.
    pub async fn recv(&mut self) -> Option<Received> {
        match self.receiver.recv().await {
            Ok(Signal::Message(delivery)) => Some(Received::Message(delivery)),
            Ok(Signal::Reconnected) => Some(Received::Reconnected),
            Err(broadcast::error::RecvError::Lagged(missed)) => Some(Received::Lagged { missed }),
            Err(broadcast::error::RecvError::Closed) => None,
        }
    }

    pub fn channel(&self) -> &Channel {
        &self.channel
    }
}

impl Drop for Subscription {
    fn drop(&mut self) {
        if let Some(fanout) = self.fanout.upgrade() {
            fanout.release(&self.channel);
        }
    }
}

fn new_id() -> String {
    uuid::Uuid::new_v4().simple().to_string()
}
