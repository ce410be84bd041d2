//! This instance's subscribers, per channel: one bounded broadcast queue each, created on
//! the first subscription and dropped with the last, so a channel nobody here follows
//! costs nothing.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::sync::broadcast;

use super::{Channel, Delivery};

/// The queue of one account's channel: a few notifications at once, not hundreds.
const ACCOUNT_QUEUE: usize = 32;
/// The queue of the cache channel: one message per listening session opened on any
/// instance, and a popular show's start opens thousands within seconds. A follower that
/// falls behind must read every session again from the database, so it gets room for a
/// burst (one channel per instance: ≈ 200 KB).
const CACHE_QUEUE: usize = 4096;

#[derive(Debug, Clone)]
pub(super) enum Signal {
    Message(Arc<Delivery>),
    Reconnected,
}

pub(super) struct Fanout {
    channels: Mutex<HashMap<Channel, broadcast::Sender<Signal>>>,
    queue: usize,
}

impl Fanout {
    pub(super) fn new(queue: usize) -> Self {
        Self {
            channels: Mutex::new(HashMap::new()),
            queue,
        }
    }

    pub(super) fn subscribe(&self, channel: &Channel) -> broadcast::Receiver<Signal> {
        let mut channels = self.channels.lock().expect("fanout lock");
        // A queue's slots are allocated up front: an account's channel, one per signed-in
        // socket and quiet, gets a short one; the cache channel a long one; the others the full
        // queue.
        let queue = match channel {
            Channel::Account(_) => self.queue.min(ACCOUNT_QUEUE),
            Channel::Cache => self.queue.max(CACHE_QUEUE),
            _ => self.queue,
        };
        channels
            .entry(channel.clone())
            .or_insert_with(|| broadcast::channel(queue).0)
            .subscribe()
    }

    /// A subscription is being dropped: forget the channel when it was the last one.
    pub(super) fn release(&self, channel: &Channel) {
        let mut channels = self.channels.lock().expect("fanout lock");
        // The departing receiver still counts until its drop completes.
        if channels
            .get(channel)
            .is_some_and(|sender| sender.receiver_count() <= 1)
        {
            channels.remove(channel);
        }
    }

    /// Hand a message to this instance's subscribers of its channel. A full queue drops
    /// that subscriber's oldest message, and it is told so (`Lagged`): never blocks.
    pub(super) fn deliver(&self, delivery: Delivery) {
        let channels = self.channels.lock().expect("fanout lock");
        if let Some(sender) = channels.get(&delivery.channel) {
            let _ = sender.send(Signal::Message(Arc::new(delivery)));
        }
    }

    /// Tell every subscriber that messages may have been missed.
    pub(super) fn reconnected(&self) {
        let channels = self.channels.lock().expect("fanout lock");
        for sender in channels.values() {
            let _ = sender.send(Signal::Reconnected);
        }
    }
}
