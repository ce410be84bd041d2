//! The in-process transport: offsets, epochs and a bounded history ring per channel in
//! this process's memory. A restart loses them, and the new epochs say so.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use super::fanout::Fanout;
use super::{
    Channel, Delivery, HISTORY_SIZE, HISTORY_TTL, META_TTL, Position, Publication, Published,
    Retained, Transport,
};

struct ChannelState {
    epoch: String,
    newest: u64,
    history: VecDeque<(Instant, Delivery)>,
    touched: Instant,
}

impl ChannelState {
    fn new(now: Instant) -> Self {
        Self {
            epoch: super::new_id(),
            newest: 0,
            history: VecDeque::new(),
            touched: now,
        }
    }

    fn position(&self) -> Position {
        Position {
            offset: self.newest,
            epoch: self.epoch.clone(),
        }
    }
}

struct Channels {
    states: HashMap<Channel, ChannelState>,
    swept: Instant,
}

pub(super) struct Memory {
    channels: Mutex<Channels>,
    fanout: Arc<Fanout>,
}

impl Memory {
    pub(super) fn new(fanout: Arc<Fanout>) -> Self {
        Self {
            channels: Mutex::new(Channels {
                states: HashMap::new(),
                swept: Instant::now(),
            }),
            fanout,
        }
    }
}

impl Channels {
    /// The channel's state; a channel quiet for longer than `META_TTL` starts afresh.
    fn state(&mut self, channel: &Channel, now: Instant) -> &mut ChannelState {
        if now.duration_since(self.swept) > HISTORY_TTL {
            self.sweep(now);
        }
        let state = self
            .states
            .entry(channel.clone())
            .or_insert_with(|| ChannelState::new(now));
        if now.duration_since(state.touched) > META_TTL {
            *state = ChannelState::new(now);
        }
        state.touched = now;
        state
    }

    /// Bound memory: drop expired messages everywhere and forget channels gone quiet.
    fn sweep(&mut self, now: Instant) {
        self.swept = now;
        self.states.retain(|_, state| {
            while state
                .history
                .front()
                .is_some_and(|(at, _)| now.duration_since(*at) > HISTORY_TTL)
            {
                state.history.pop_front();
            }
            now.duration_since(state.touched) <= META_TTL
        });
    }
}

impl Transport for Memory {
    fn publish<'a>(&'a self, channel: &'a Channel, event: &'a Publication) -> Published<'a> {
        Box::pin(async move {
            let now = Instant::now();
            let mut channels = self.channels.lock().expect("bus lock");
            let state = channels.state(channel, now);
            state.newest += 1;
            let delivery = Delivery::new(
                channel.clone(),
                state.newest,
                state.epoch.clone(),
                event.clone(),
            );
            if state.history.len() == HISTORY_SIZE {
                state.history.pop_front();
            }
            state.history.push_back((now, delivery.clone()));
            // Under the lock, so subscribers see offsets in order.
            self.fanout.deliver(delivery.clone());
            Ok(delivery)
        })
    }

    fn retained<'a>(&'a self, channel: &'a Channel, after: Option<u64>) -> Retained<'a> {
        Box::pin(async move {
            let now = Instant::now();
            let mut channels = self.channels.lock().expect("bus lock");
            let state = channels.state(channel, now);
            let retained = match after {
                None => Vec::new(),
                Some(after) => state
                    .history
                    .iter()
                    .filter(|(at, m)| m.offset > after && now.duration_since(*at) <= HISTORY_TTL)
                    .map(|(_, m)| m.clone())
                    .collect(),
            };
            Ok((retained, state.position()))
        })
    }
}
