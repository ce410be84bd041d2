//! A room's messages reach this instance's sockets through one relay per room: it follows
//! the room's `chat:<id>` channel on the bus once, gathers what arrives into a frame at most
//! every [`BATCH_EVERY`] (the first message after a quiet spell at once), encodes that
//! frame once, and hands the same frame to every socket of the room. A socket then wakes
//! four times a second in a busy room, not once per message, and writes bytes it did not
//! have to build (issue 29: 10,000 sockets, 100 messages and 2,000 reactions a second).
//!
//! Each frame keeps its messages, so a socket whose position does not run straight into
//! the frame (it joined or caught up meanwhile, or the frame has a hole) takes them one by
//! one with its offsets instead (`live::ws`).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use bytes::Bytes;
use tokio::sync::broadcast;
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::Utf8Bytes;

use crate::bus::{Bus, Channel, Delivery, Position, Received, Subscription};

/// A room's frames go at least this far apart: a busy room is four frames a second per
/// socket, not a hundred; a quiet room's message goes at once.
pub const BATCH_EVERY: Duration = Duration::from_millis(250);

/// Frames a socket may fall behind its room before it is cut off (16 s of a busy room).
const SOCKET_QUEUE: usize = 64;

/// One frame of a room's messages, for every socket of the room on this instance.
pub struct RoomBatch {
    /// In the order the bus delivered them (offset order, unless a message was lost).
    pub deliveries: Vec<Arc<Delivery>>,
    /// A lone message as itself, several as `{"type":"batch","messages":[…]}`.
    pub frame: Utf8Bytes,
}

impl RoomBatch {
    /// A frame of these messages.
    pub fn of(deliveries: Vec<Arc<Delivery>>) -> Self {
        let frame = frame(deliveries.iter().map(|d| d.json()).collect());
        Self { deliveries, frame }
    }

    /// Whether the frame continues a socket that last sent `seen`: the same epoch and the
    /// very next offsets, none missing.
    pub fn follows(&self, seen: &Position) -> bool {
        (seen.offset + 1..)
            .zip(&self.deliveries)
            .all(|(expected, d)| d.epoch == seen.epoch && d.offset == expected)
    }

    /// Where a socket that sent the frame stands.
    pub fn last(&self) -> Option<Position> {
        self.deliveries.last().map(|d| d.position())
    }
}

/// What a room's relay hands its sockets.
#[derive(Clone)]
pub enum Relayed {
    Batch(Arc<RoomBatch>),
    /// The relay may have missed messages (it fell behind the bus, or the bus reconnected
    /// to the other instances): catch up from the channel's history.
    CatchUp,
}

/// A socket's place in a room's relay.
pub struct RelaySubscription {
    receiver: broadcast::Receiver<Relayed>,
    /// What was read behind frames merged into one, for the next `recv`.
    stashed: Option<FromRelay>,
    /// Keeps the relay alive while a socket of the room is open here.
    _relay: Arc<Relay>,
}

/// What a socket reads from its room's relay.
pub enum FromRelay {
    Relayed(Relayed),
    /// The socket read too slowly: frames were dropped for it.
    Lagged,
}

impl RelaySubscription {
    fn new(receiver: broadcast::Receiver<Relayed>, relay: Arc<Relay>) -> Self {
        Self {
            receiver,
            stashed: None,
            _relay: relay,
        }
    }

    /// The next frame or notice; `None` once the relay is gone. Frames already queued
    /// behind the next one (the socket fell behind: a busy machine) come as one frame of
    /// all their messages: a late socket catches up in fewer, larger writes, and still
    /// gets no more than four frames a second.
    pub async fn recv(&mut self) -> Option<FromRelay> {
        if let Some(stashed) = self.stashed.take() {
            return Some(stashed);
        }
        let first = match self.receiver.recv().await {
            Ok(Relayed::Batch(batch)) => batch,
            Ok(Relayed::CatchUp) => return Some(FromRelay::Relayed(Relayed::CatchUp)),
            Err(broadcast::error::RecvError::Lagged(_)) => return Some(FromRelay::Lagged),
            Err(broadcast::error::RecvError::Closed) => return None,
        };
        let mut merged: Option<Vec<Arc<Delivery>>> = None;
        loop {
            match self.receiver.try_recv() {
                Ok(Relayed::Batch(next)) => merged
                    .get_or_insert_with(|| first.deliveries.clone())
                    .extend(next.deliveries.iter().cloned()),
                Ok(Relayed::CatchUp) => {
                    self.stashed = Some(FromRelay::Relayed(Relayed::CatchUp));
                    break;
                }
                Err(broadcast::error::TryRecvError::Lagged(_)) => {
                    self.stashed = Some(FromRelay::Lagged);
                    break;
                }
                Err(_) => break,
            }
        }
        let batch = match merged {
            Some(deliveries) => Arc::new(RoomBatch::of(deliveries)),
            None => first,
        };
        Some(FromRelay::Relayed(Relayed::Batch(batch)))
    }
}

/// This instance's room relays, one per room that has a socket here.
pub struct RoomRelays {
    bus: Bus,
    relays: Mutex<HashMap<Channel, Weak<Relay>>>,
}

struct Relay {
    sender: broadcast::Sender<Relayed>,
    task: tokio::task::AbortHandle,
}

impl Drop for Relay {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl RoomRelays {
    pub fn new(bus: Bus) -> Self {
        Self {
            bus,
            relays: Mutex::default(),
        }
    }

    /// Follow a room's channel through its relay, started here if it has none. The relay
    /// follows the bus before this returns: a socket that reads the channel's position
    /// afterwards misses nothing between.
    pub fn subscribe(&self, channel: &Channel) -> RelaySubscription {
        let mut relays = self.relays.lock().unwrap_or_else(|e| e.into_inner());
        relays.retain(|_, relay| relay.strong_count() > 0);
        if let Some(relay) = relays.get(channel).and_then(Weak::upgrade) {
            return RelaySubscription::new(relay.sender.subscribe(), relay);
        }
        let (sender, receiver) = broadcast::channel(SOCKET_QUEUE);
        let subscription = self.bus.subscribe(channel);
        let task = tokio::spawn(relay(self.bus.clone(), subscription, sender.clone()));
        let task = task.abort_handle();
        let relay = Arc::new(Relay { sender, task });
        relays.insert(channel.clone(), Arc::downgrade(&relay));
        RelaySubscription::new(receiver, relay)
    }
}

/// Gather the channel's messages and hand them on in frames at least [`BATCH_EVERY`]
/// apart, for as long as the relay has sockets. When the relay itself may have missed
/// messages, it reads them from the channel's history once, for all its sockets; only
/// when the history no longer has them does each socket catch up on its own.
async fn relay(bus: Bus, mut subscription: Subscription, sender: broadcast::Sender<Relayed>) {
    let mut pending: Vec<Arc<Delivery>> = Vec::new();
    let mut last_sent: Option<Instant> = None;
    // The last message relayed (sent or pending): where a catch-up starts.
    let mut relayed: Option<Position> = None;
    let due = tokio::time::sleep(Duration::ZERO);
    tokio::pin!(due);
    loop {
        tokio::select! {
            biased;
            received = subscription.recv() => {
                let fresh = match received {
                    Some(Received::Message(delivery)) => vec![delivery],
                    Some(Received::Lagged { .. } | Received::Reconnected) => {
                        match caught_up(&bus, subscription.channel(), relayed.as_ref()).await {
                            Some(missed) => missed,
                            None => {
                                send(&sender, &mut pending, &mut last_sent);
                                let _ = sender.send(Relayed::CatchUp);
                                continue;
                            }
                        }
                    }
                    None => return,
                };
                for delivery in fresh {
                    if relayed.as_ref().is_some_and(|seen| {
                        seen.epoch == delivery.epoch && delivery.offset <= seen.offset
                    }) {
                        continue; // read again in a catch-up
                    }
                    if pending.is_empty() {
                        let now = Instant::now();
                        let open = last_sent.map_or(now, |sent| sent + BATCH_EVERY);
                        due.as_mut().reset(open.max(now));
                    }
                    relayed = Some(delivery.position());
                    pending.push(delivery);
                }
            }
            () = &mut due, if !pending.is_empty() => send(&sender, &mut pending, &mut last_sent),
        }
    }
}

/// What the channel's history holds after `since`, or `None` when it cannot say (it lost
/// them, the bus is away, or nothing was relayed yet to start from).
async fn caught_up(
    bus: &Bus,
    channel: &Channel,
    since: Option<&Position>,
) -> Option<Vec<Arc<Delivery>>> {
    match bus.history(channel, since?).await {
        Ok(crate::bus::Recovery::Complete { messages, .. }) => {
            Some(messages.into_iter().map(Arc::new).collect())
        }
        Ok(crate::bus::Recovery::Gone { .. }) => None,
        Err(err) => {
            tracing::warn!(channel = %channel, error = %err, "room relay: could not catch up");
            None
        }
    }
}

/// Hand on what is pending as one frame (no socket listening is no error: the relay ends
/// with its last socket).
fn send(
    sender: &broadcast::Sender<Relayed>,
    pending: &mut Vec<Arc<Delivery>>,
    last_sent: &mut Option<Instant>,
) {
    if pending.is_empty() {
        return;
    }
    let batch = RoomBatch::of(std::mem::take(pending));
    *last_sent = Some(Instant::now());
    let _ = sender.send(Relayed::Batch(Arc::new(batch)));
}

/// One frame of encoded messages: a lone message as itself, several as
/// `{"type":"batch","messages":[…]}` (each as it would have gone alone).
pub fn frame(messages: Vec<Bytes>) -> Utf8Bytes {
    let frame = if messages.len() == 1 {
        messages.into_iter().next().unwrap_or_default()
    } else {
        let size = messages.iter().map(|m| m.len() + 1).sum::<usize>() + 32;
        let mut frame = Vec::with_capacity(size);
        frame.extend_from_slice(br#"{"type":"batch","messages":["#);
        for (i, message) in messages.iter().enumerate() {
            if i > 0 {
                frame.push(b',');
            }
            frame.extend_from_slice(message);
        }
        frame.extend_from_slice(b"]}");
        Bytes::from(frame)
    };
    Utf8Bytes::try_from(frame).expect("JSON is UTF-8")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bus::Publication;
    use crate::chat::model::Deleted;

    fn delivered(offset: u64, epoch: &str) -> Arc<Delivery> {
        let event = Publication::new(&Deleted {
            event_id: "e".to_owned(),
            message_id: format!("m{offset}"),
        });
        Arc::new(Delivery {
            channel: Channel::Chat("e".to_owned()),
            offset,
            epoch: epoch.to_owned(),
            event,
            encoded: Default::default(),
        })
    }

    fn batch(offsets: &[u64], epoch: &str) -> RoomBatch {
        RoomBatch::of(offsets.iter().map(|o| delivered(*o, epoch)).collect())
    }

    fn at(offset: u64, epoch: &str) -> Position {
        Position {
            offset,
            epoch: epoch.to_owned(),
        }
    }

    #[test]
    fn a_frame_follows_a_socket_only_from_its_very_next_offset() {
        let b = batch(&[5, 6, 7], "x");
        assert!(b.follows(&at(4, "x")));
        assert!(!b.follows(&at(5, "x")), "already sent in part");
        assert!(!b.follows(&at(3, "x")), "a hole before it");
        assert!(!b.follows(&at(4, "y")), "another epoch");
        assert!(
            !batch(&[5, 7], "x").follows(&at(4, "x")),
            "a hole inside it"
        );
        assert_eq!(b.last(), Some(at(7, "x")));
    }

    #[tokio::test]
    async fn frames_queued_behind_one_another_reach_a_late_socket_as_one() {
        let (sender, receiver) = broadcast::channel(8);
        let relay = Arc::new(Relay {
            sender: sender.clone(),
            task: tokio::spawn(std::future::pending::<()>()).abort_handle(),
        });
        let mut socket = RelaySubscription::new(receiver, relay);
        for offsets in [[1, 2], [3, 4]] {
            let _ = sender.send(Relayed::Batch(Arc::new(batch(&offsets, "x"))));
        }
        let _ = sender.send(Relayed::CatchUp);
        let Some(FromRelay::Relayed(Relayed::Batch(merged))) = socket.recv().await else {
            panic!("a frame first");
        };
        let offsets: Vec<u64> = merged.deliveries.iter().map(|d| d.offset).collect();
        assert_eq!(offsets, [1, 2, 3, 4]);
        assert!(merged.follows(&at(0, "x")));
        assert!(matches!(
            socket.recv().await,
            Some(FromRelay::Relayed(Relayed::CatchUp))
        ));
    }

    #[test]
    fn several_messages_are_one_batch_frame_and_a_lone_one_goes_as_itself() {
        let lone = batch(&[1], "x");
        assert!(
            lone.frame
                .as_str()
                .starts_with(r#"{"channel":"chat:e","offset":1"#)
        );
        let several = batch(&[1, 2], "x");
        let value: serde_json::Value = serde_json::from_str(several.frame.as_str()).unwrap();
        assert_eq!(value["type"], "batch");
        assert_eq!(value["messages"][1]["offset"], 2);
    }
}
