//! The Redis transport: every instance sharing one Redis sees every message.
//!
//! Per channel, a hash `<prefix>meta:<channel>` holds the epoch (`e`, set once) and the
//! newest offset (`s`), and a stream `<prefix>history:<channel>` the last messages, each
//! with the offset as its id. One script increments the offset, appends to the stream
//! and publishes on `<prefix>bus`, atomically, so offsets have no gaps and every
//! instance sees them in order. Each instance reads `<prefix>bus` on one pub/sub
//! connection; when it drops, the instance reconnects with backoff, resubscribes, and only
//! then tells its subscribers, who catch up by offset.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::StreamExt;
use redis::aio::{MultiplexedConnection, PubSub};
use redis::{ConnectionAddr, FromRedisValue};
use tokio_util::sync::CancellationToken;

use super::fanout::Fanout;
use super::{
    BusError, Channel, Delivery, HISTORY_SIZE, HISTORY_TTL, META_TTL, Position, Publication,
    Published, Retained, Transport,
};

/// The start of both scripts: the channel's epoch, its meta hash (KEYS[1]) created with a
/// fresh epoch (ARGV[1]) when missing, dropping any stream (KEYS[2]) of a lost epoch.
macro_rules! meta_prologue {
    () => {
        r"
local epoch = redis.call('HGET', KEYS[1], 'e')
if not epoch then
  epoch = ARGV[1]
  redis.call('DEL', KEYS[2])
  redis.call('HSET', KEYS[1], 'e', epoch, 's', 0)
end
"
    };
}

/// KEYS: meta, history. ARGV: a fresh epoch, pub/sub channel, bus channel, message,
/// history size, history seconds, meta seconds. Answers `{offset, epoch}`.
const PUBLISH: &str = concat!(
    meta_prologue!(),
    r"
local offset = redis.call('HINCRBY', KEYS[1], 's', 1)
redis.call('EXPIRE', KEYS[1], ARGV[7])
local now = redis.call('TIME')
local ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
redis.call('XADD', KEYS[2], 'MAXLEN', ARGV[5], offset .. '-0', 't', ms, 'd', ARGV[4])
redis.call('EXPIRE', KEYS[2], ARGV[6])
redis.call('PUBLISH', ARGV[2], offset .. '\n' .. epoch .. '\n' .. ARGV[3] .. '\n' .. ARGV[4])
return {offset, epoch}
"
);

/// KEYS: meta, history. ARGV: a fresh epoch, meta seconds, the offset to read after
/// (empty: none). Answers `{newest, epoch, now in ms, entries}`.
const HISTORY: &str = concat!(
    meta_prologue!(),
    r"
redis.call('EXPIRE', KEYS[1], ARGV[2])
local newest = tonumber(redis.call('HGET', KEYS[1], 's'))
local now = redis.call('TIME')
local ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
local entries = {}
if ARGV[3] ~= '' and tonumber(ARGV[3]) < newest then
  entries = redis.call('XRANGE', KEYS[2], (tonumber(ARGV[3]) + 1) .. '-0', '+')
end
return {newest, epoch, ms, entries}
"
);

/// Ping the pub/sub connection this often; no answer within as long means it is dead.
const HEARTBEAT: Duration = Duration::from_secs(10);
const BACKOFF_MIN: Duration = Duration::from_millis(50);
const BACKOFF_MAX: Duration = Duration::from_secs(5);

pub(super) struct Redis {
    client: redis::Client,
    commands: Mutex<Option<MultiplexedConnection>>,
    keys: Keys,
    subscriber_addr: Arc<Mutex<Option<std::net::SocketAddr>>>,
    stop: CancellationToken,
    /// Commands sent on the command connection (for `/metrics`).
    round_trips: AtomicU64,
}

#[derive(Clone)]
struct Keys {
    prefix: String,
}

impl Keys {
    fn pubsub(&self) -> String {
        format!("{}bus", self.prefix)
    }
    fn meta(&self, channel: &Channel) -> String {
        format!("{}meta:{channel}", self.prefix)
    }
    fn history(&self, channel: &Channel) -> String {
        format!("{}history:{channel}", self.prefix)
    }
}

impl Redis {
    /// Connect, subscribe, and keep the subscription alive in the background.
    pub(super) async fn connect(
        url: &str,
        prefix: &str,
        fanout: Arc<Fanout>,
    ) -> Result<Self, BusError> {
        let client = redis::Client::open(url)?;
        let keys = Keys {
            prefix: prefix.to_owned(),
        };
        let subscriber_addr = Arc::new(Mutex::new(None));
        // Subscribed before we return: a message published once `serve` runs reaches us.
        let (pubsub, addr) = subscribe(&client, &keys).await?;
        *subscriber_addr.lock().expect("addr lock") = addr;
        let stop = CancellationToken::new();
        tokio::spawn(follow(
            client.clone(),
            keys.clone(),
            fanout,
            pubsub,
            subscriber_addr.clone(),
            stop.clone(),
        ));
        let redis = Self {
            client,
            commands: Mutex::new(None),
            keys,
            subscriber_addr,
            stop,
            round_trips: AtomicU64::new(0),
        };
        redis.connection().await?;
        Ok(redis)
    }

    /// The shared command connection, reopened after it broke.
    async fn connection(&self) -> Result<MultiplexedConnection, BusError> {
        if let Some(connection) = self.commands.lock().expect("connection lock").clone() {
            return Ok(connection);
        }
        let connection = self.client.get_multiplexed_async_connection().await?;
        *self.commands.lock().expect("connection lock") = Some(connection.clone());
        Ok(connection)
    }

    /// A key of state shared beside the bus, under the prefix.
    pub(super) fn key(&self, name: &str) -> String {
        format!("{}{name}", self.keys.prefix)
    }

    /// A connection of its own, for a command that blocks (`XREAD BLOCK`): waiting on the
    /// shared one would hold up every other command. Answers may take `response_timeout`.
    pub(super) async fn dedicated(
        &self,
        response_timeout: Duration,
    ) -> Result<MultiplexedConnection, BusError> {
        let config =
            redis::AsyncConnectionConfig::new().set_response_timeout(Some(response_timeout));
        Ok(self
            .client
            .get_multiplexed_async_connection_with_config(&config)
            .await?)
    }

    pub(super) async fn query<T: FromRedisValue>(
        &self,
        command: &redis::Cmd,
    ) -> Result<T, BusError> {
        let mut connection = self.connection().await?;
        self.round_trips.fetch_add(1, Ordering::Relaxed);
        let answer = command.query_async(&mut connection).await;
        if let Err(err) = &answer
            && (err.is_io_error() || err.is_connection_dropped() || err.is_unrecoverable_error())
        {
            *self.commands.lock().expect("connection lock") = None;
        }
        Ok(answer?)
    }

    /// Several commands in one round trip, in order (not a transaction: a failure may
    /// leave the first ones done).
    pub(super) async fn query_pipeline(&self, pipeline: &redis::Pipeline) -> Result<(), BusError> {
        let mut connection = self.connection().await?;
        self.round_trips.fetch_add(1, Ordering::Relaxed);
        let answer: Result<(), redis::RedisError> = pipeline.query_async(&mut connection).await;
        if let Err(err) = &answer
            && (err.is_io_error() || err.is_connection_dropped() || err.is_unrecoverable_error())
        {
            *self.commands.lock().expect("connection lock") = None;
        }
        Ok(answer?)
    }
}

impl Drop for Redis {
    fn drop(&mut self) {
        self.stop.cancel();
    }
}

fn eval(script: &str, keys: [String; 2]) -> redis::Cmd {
    let mut command = redis::cmd("EVAL");
    command.arg(script).arg(keys.len()).arg(&keys[..]);
    command
}

impl Transport for Redis {
    fn publish<'a>(&'a self, channel: &'a Channel, event: &'a Publication) -> Published<'a> {
        Box::pin(async move {
            let data = serde_json::to_string(event)?;
            let mut command = eval(
                PUBLISH,
                [self.keys.meta(channel), self.keys.history(channel)],
            );
            command
                .arg(super::new_id())
                .arg(self.keys.pubsub())
                .arg(channel.name())
                .arg(&data)
                .arg(HISTORY_SIZE)
                .arg(HISTORY_TTL.as_secs())
                .arg(META_TTL.as_secs());
            let (offset, epoch): (u64, String) = self.query(&command).await?;
            Ok(Delivery::new(channel.clone(), offset, epoch, event.clone()))
        })
    }

    fn retained<'a>(&'a self, channel: &'a Channel, after: Option<u64>) -> Retained<'a> {
        Box::pin(async move {
            let mut command = eval(
                HISTORY,
                [self.keys.meta(channel), self.keys.history(channel)],
            );
            command
                .arg(super::new_id())
                .arg(META_TTL.as_secs())
                .arg(after.map(|a| a.to_string()).unwrap_or_default());
            type Entry = (String, Vec<String>);
            let (newest, epoch, now_ms, entries): (u64, String, u64, Vec<Entry>) =
                self.query(&command).await?;
            let position = Position {
                offset: newest,
                epoch,
            };
            let oldest_ms = now_ms.saturating_sub(HISTORY_TTL.as_millis() as u64);
            let mut retained = Vec::with_capacity(entries.len());
            for (id, fields) in entries {
                let (at_ms, data) = entry_fields(&fields)?;
                if at_ms < oldest_ms {
                    continue;
                }
                retained.push(Delivery::new(
                    channel.clone(),
                    entry_offset(&id)?,
                    position.epoch.clone(),
                    serde_json::from_str(data)?,
                ));
            }
            Ok((retained, position))
        })
    }

    fn subscriber_addr(&self) -> Option<std::net::SocketAddr> {
        *self.subscriber_addr.lock().expect("addr lock")
    }

    fn as_redis(&self) -> Option<&Redis> {
        Some(self)
    }

    fn round_trips(&self) -> Option<u64> {
        Some(self.round_trips.load(Ordering::Relaxed))
    }
}

fn entry_offset(id: &str) -> Result<u64, BusError> {
    id.split_once('-')
        .and_then(|(offset, _)| offset.parse().ok())
        .ok_or_else(|| BusError::Protocol(format!("stream id {id}")))
}

/// A stream entry's `t` (ms) and `d` (the event) fields.
fn entry_fields(fields: &[String]) -> Result<(u64, &str), BusError> {
    let mut at = None;
    let mut data = None;
    for pair in fields.chunks_exact(2) {
        match pair[0].as_str() {
            "t" => at = pair[1].parse().ok(),
            "d" => data = Some(pair[1].as_str()),
            _ => {}
        }
    }
    at.zip(data)
        .ok_or_else(|| BusError::Protocol("stream entry without t and d".to_owned()))
}

/// A message as published by the script: `offset \n epoch \n channel \n event`.
fn parse_frame(payload: &[u8]) -> Result<Delivery, BusError> {
    let text = std::str::from_utf8(payload).map_err(|e| BusError::Protocol(e.to_string()))?;
    let mut parts = text.splitn(4, '\n');
    let (Some(offset), Some(epoch), Some(channel), Some(event)) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(BusError::Protocol("short bus frame".to_owned()));
    };
    Ok(Delivery::new(
        channel.parse()?,
        offset
            .parse()
            .map_err(|_| BusError::Protocol(format!("offset {offset}")))?,
        epoch.to_owned(),
        serde_json::from_str(event)?,
    ))
}

/// A fresh pub/sub connection subscribed to the bus, and its local address. Over TCP we
/// open the socket ourselves to know that address (an operator or a test finds the
/// connection by it in `CLIENT LIST`).
async fn subscribe(
    client: &redis::Client,
    keys: &Keys,
) -> Result<(PubSub, Option<std::net::SocketAddr>), BusError> {
    let info = client.get_connection_info();
    let (mut pubsub, addr) = match info.addr() {
        ConnectionAddr::Tcp(host, port) => {
            let socket = tokio::net::TcpStream::connect((host.as_str(), *port))
                .await
                .map_err(redis::RedisError::from)?;
            socket.set_nodelay(true).map_err(redis::RedisError::from)?;
            let addr = socket.local_addr().ok();
            (PubSub::new(info.redis_settings(), socket).await?, addr)
        }
        _ => (client.get_async_pubsub().await?, None),
    };
    pubsub.subscribe(keys.pubsub()).await?;
    Ok((pubsub, addr))
}

/// Read the bus until stopped: on a lost connection, reconnect with backoff, resubscribe,
/// then tell local subscribers they may have missed messages.
async fn follow(
    client: redis::Client,
    keys: Keys,
    fanout: Arc<Fanout>,
    first: PubSub,
    addr: Arc<Mutex<Option<std::net::SocketAddr>>>,
    stop: CancellationToken,
) {
    let mut pubsub = Some(first);
    let mut backoff = BACKOFF_MIN;
    loop {
        let current = match pubsub.take() {
            Some(current) => current,
            None => {
                tokio::select! {
                    () = stop.cancelled() => return,
                    () = tokio::time::sleep(backoff) => {}
                }
                match subscribe(&client, &keys).await {
                    Ok((current, local)) => {
                        *addr.lock().expect("addr lock") = local;
                        backoff = BACKOFF_MIN;
                        tracing::info!("bus: resubscribed to redis");
                        fanout.reconnected();
                        current
                    }
                    Err(err) => {
                        backoff = (backoff * 2).min(BACKOFF_MAX);
                        tracing::warn!(error = %err, "bus: redis unreachable, retrying");
                        continue;
                    }
                }
            }
        };
        if !read(current, &fanout, &stop).await {
            return;
        }
        *addr.lock().expect("addr lock") = None;
        tracing::warn!("bus: redis pub/sub connection lost, reconnecting");
    }
}

/// Deliver messages until the connection is lost (`true`) or the bus is stopped (`false`).
async fn read(pubsub: PubSub, fanout: &Fanout, stop: &CancellationToken) -> bool {
    let (mut sink, mut messages) = pubsub.split();
    let mut heartbeat = tokio::time::interval(HEARTBEAT);
    heartbeat.tick().await;
    loop {
        tokio::select! {
            () = stop.cancelled() => return false,
            message = messages.next() => {
                let Some(message) = message else { return true };
                match parse_frame(message.get_payload_bytes()) {
                    Ok(delivery) => fanout.deliver(delivery),
                    Err(err) => tracing::warn!(error = %err, "bus: unreadable message skipped"),
                }
            }
            _ = heartbeat.tick() => {
                let pong = tokio::time::timeout(HEARTBEAT, sink.ping::<redis::Value>()).await;
                if !matches!(pong, Ok(Ok(_))) {
                    return true;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_frame_reads_back_as_the_delivery_it_was() {
        let frame = b"7\nabc\naccount:42\n{\"type\":\"account_changed\",\"accountId\":\"42\",\"origin\":\"i\"}";
        let delivery = parse_frame(frame).unwrap();
        assert_eq!(delivery.offset, 7);
        assert_eq!(delivery.epoch, "abc");
        assert_eq!(delivery.channel, Channel::Account("42".to_owned()));
        assert_eq!(delivery.event.kind(), "account_changed");
        assert_eq!(
            serde_json::to_string(&delivery.event).unwrap(),
            r#"{"type":"account_changed","accountId":"42","origin":"i"}"#
        );
    }

    #[test]
    fn a_frame_from_a_newer_instance_keeps_its_offset() {
        let delivery =
            parse_frame(b"8\nabc\nstaff\n{\"type\":\"from_the_future\",\"x\":1}").unwrap();
        assert_eq!(
            (delivery.offset, delivery.event.kind()),
            (8, "from_the_future")
        );
    }
}
