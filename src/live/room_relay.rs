//! A room's messages reach this instance's sockets through one relay per room: it follows
//! the room's `chat:<id>` channel on the bus once, gathers what arrives into a frame at most
//! every [`BATCH_EVERY`] (the first message after a quiet spell at once), encodes that
//! frame once, and writes the same bytes to every socket of the room that stands right
//! before it, straight to the connection ([`Outbox`]): in a busy room a socket costs one
//! write per frame, and its task does not even wake (issue 29: 10,000 sockets, 100
//! messages and 2,000 reactions a second).
//!
//! A socket that does not stand right before a frame (it is joining, catching up, or the
//! frame has a hole) gets the frame in its queue instead, and its task takes the room's
//! messages one by one with its offsets (`live::ws`) until it hands its place back.
//!
//! The writes themselves run on threads of their own, one per core, each writing to its
//! share of every room's sockets, which the kernel schedules after the server's other
//! threads (`ENCORE_ROOM_WRITER_NICE`): on a machine with no CPU to spare a listener's
//! part should not wait for the chat (issue 29: 5,000 listeners beside a 10,000-socket
//! room). Frames that wait for their thread are written together as one.

use std::collections::{HashMap, VecDeque};
use std::sync::mpsc;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, Weak};
use std::time::Duration;

use bytes::Bytes;
use tokio::sync::Notify;
use tokio::time::Instant;

use crate::bus::{Bus, Channel, Delivery, Position, Received, Subscription};
use crate::net::outbox::{Outbox, Pushed, text_frame};

/// A room's frames go at least this far apart: a busy room is three frames a second per
/// socket, not a hundred; a quiet room's message goes at once. Not 250 ms: frames sent
/// exactly four a second arrive five in one second of the reader's clock whenever one is
/// delayed a little (10 % of the seconds of a 10,000-socket room, docs/benchmarks.md),
/// and the chat shows a message when the reader's music reaches it, a second or more
/// after it was written, so 50 ms more of gathering is not seen.
pub const BATCH_EVERY: Duration = Duration::from_millis(300);

/// Frames a socket's task may fall behind its room before it is cut off (16 s of a busy
/// room).
const SOCKET_QUEUE: usize = 64;

/// A frame the writing thread joins from frames that waited for it grows to this size at
/// most (a browser takes any; a slow reader's backlog is held to 512 KB).
const JOINED_FRAME_BYTES: usize = 64 * 1024;

/// One frame of a room's messages, for every socket of the room on this instance.
pub struct RoomBatch {
    /// In the order the bus delivered them (offset order, unless a message was lost).
    pub deliveries: Vec<Arc<Delivery>>,
    /// The WebSocket frame of a lone message as itself, several as
    /// `{"type":"batch","messages":[…]}`.
    pub wire: Bytes,
}

impl RoomBatch {
    /// A frame of these messages.
    pub fn of(deliveries: Vec<Arc<Delivery>>) -> Self {
        let payload = frame(deliveries.iter().map(|d| d.json()).collect());
        Self {
            deliveries,
            wire: text_frame(&payload),
        }
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

/// What a socket's task takes from its room.
pub enum FromRelay {
    /// A frame the relay did not write itself: the socket's place did not run straight
    /// into it.
    Batch(Arc<RoomBatch>),
    /// The relay may have missed messages (it fell behind the bus, or the bus reconnected
    /// to the other instances): catch up from the channel's history.
    CatchUp,
    /// The socket's task read too slowly: frames were dropped for it.
    Lagged,
}

/// A socket's place in a room: written to by the relay while it stands right before each
/// frame, else queued for by it.
pub struct Member {
    outbox: Arc<Outbox>,
    /// The writing thread that writes to it.
    shard: usize,
    state: Mutex<MemberState>,
    /// Wakes the socket's task: something waits in its queue.
    queued: Notify,
}

#[derive(Default)]
struct MemberState {
    /// While set, the relay writes the room's frames to the socket itself: the place on
    /// the channel where the socket stands. Unset while its task has the room in hand.
    direct: Option<Position>,
    /// When the relay last wrote a frame to the socket.
    last_write: Option<Instant>,
    /// What the socket's task takes, in order.
    queue: VecDeque<FromRelay>,
}

impl Member {
    fn lock(&self) -> MutexGuard<'_, MemberState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The relay's offer of a frame: written when the socket stands right before it and
    /// nothing waits in its queue, else queued for its task.
    fn offer(&self, batch: &Arc<RoomBatch>, now: Instant) {
        let mut state = self.lock();
        if state.queue.is_empty()
            && let Some(seen) = &state.direct
            && batch.follows(seen)
        {
            // A refusal is the outbox's to tell the task (its reader is too slow).
            if self.outbox.push(batch.wire.clone()) == Pushed::Accepted {
                state.direct = batch.last();
                state.last_write = Some(now);
            }
            crate::metrics::room_frame(true);
            return;
        }
        self.enqueue(&mut state, FromRelay::Batch(batch.clone()));
    }

    fn enqueue(&self, state: &mut MemberState, item: FromRelay) {
        if state.queue.len() >= SOCKET_QUEUE {
            state.queue.clear();
            state.queue.push_back(FromRelay::Lagged);
        } else {
            state.queue.push_back(item);
        }
        self.queued.notify_one();
    }
}

/// What the socket's task gets back when it takes an item from its room.
pub struct Taken {
    pub item: FromRelay,
    /// Where the relay had left the socket, when it was writing to it until now.
    pub place: Option<Position>,
    /// When the relay last wrote to the socket.
    pub last_write: Option<Instant>,
}

/// A socket's membership of a room on this instance; leaving the room when dropped.
pub struct RelaySubscription {
    member: Arc<Member>,
    relay: Arc<Relay>,
}

impl Drop for RelaySubscription {
    fn drop(&mut self) {
        let mut members = self.relay.members.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(i) = members.iter().position(|m| Arc::ptr_eq(m, &self.member)) {
            members.swap_remove(i);
        }
    }
}

impl RelaySubscription {
    /// The next item of the socket's queue; the relay stops writing to the socket until
    /// [`RelaySubscription::hand_back`] (the task has the room in hand). Never `None`: the
    /// relay lives as long as its members.
    pub async fn recv(&self) -> Option<Taken> {
        loop {
            {
                let mut state = self.member.lock();
                if let Some(item) = state.queue.pop_front() {
                    return Some(Taken {
                        item,
                        place: state.direct.take(),
                        last_write: state.last_write,
                    });
                }
            }
            self.member.queued.notified().await;
        }
    }

    /// Let the relay write the room's frames again from `place`, unless more waits in the
    /// queue (the task takes that first). Whether it does.
    pub fn hand_back(&self, place: Position) -> bool {
        let mut state = self.member.lock();
        if !state.queue.is_empty() {
            return false;
        }
        state.direct = Some(place);
        true
    }
}

/// This instance's room relays, one per room that has a socket here.
pub struct RoomRelays {
    bus: Bus,
    relays: Mutex<HashMap<Channel, Weak<Relay>>>,
    /// The writing threads, started with the first room (they end once no relay is left
    /// to send them work).
    writers: OnceLock<Writers>,
    /// Sockets joined so far: each goes to the next thread in turn.
    joined: std::sync::atomic::AtomicUsize,
    /// Its niceness (Linux's scale, 0 as the server's other threads to 19).
    writer_nice: i32,
}

struct Relay {
    /// The sockets of the room on this instance.
    members: Mutex<Vec<Arc<Member>>>,
    task: tokio::task::AbortHandle,
}

impl Drop for Relay {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl RoomRelays {
    pub fn new(bus: Bus, writer_nice: i32) -> Self {
        Self {
            bus,
            relays: Mutex::default(),
            writers: OnceLock::new(),
            joined: Default::default(),
            writer_nice,
        }
    }

    /// Join a room through its relay, started here if it has none, writing to `outbox`.
    /// The relay follows the bus before this returns: a socket that reads the channel's
    /// position afterwards misses nothing between. The socket's task has the room in
    /// hand until it hands its place back.
    pub fn subscribe(&self, channel: &Channel, outbox: Arc<Outbox>) -> RelaySubscription {
        let writers = self
            .writers
            .get_or_init(|| Writers::start(self.writer_nice));
        let turn = self
            .joined
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let member = Arc::new(Member {
            outbox,
            shard: turn % writers.0.len().max(1),
            state: Mutex::default(),
            queued: Notify::new(),
        });
        let mut relays = self.relays.lock().unwrap_or_else(|e| e.into_inner());
        relays.retain(|_, relay| relay.strong_count() > 0);
        let relay = match relays.get(channel).and_then(Weak::upgrade) {
            Some(relay) => relay,
            None => {
                let relay = Arc::new_cyclic(|weak: &Weak<Relay>| {
                    let subscription = self.bus.subscribe(channel);
                    let writer = writers.clone();
                    let task =
                        tokio::spawn(relay(self.bus.clone(), subscription, weak.clone(), writer));
                    Relay {
                        members: Mutex::default(),
                        task: task.abort_handle(),
                    }
                });
                relays.insert(channel.clone(), Arc::downgrade(&relay));
                relay
            }
        };
        relay
            .members
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(member.clone());
        RelaySubscription { member, relay }
    }
}

/// Gather the channel's messages and hand them on in frames at least [`BATCH_EVERY`]
/// apart, for as long as the relay has sockets. When the relay itself may have missed
/// messages, it reads them from the channel's history once, for all its sockets; only
/// when the history no longer has them does each socket catch up on its own.
async fn relay(bus: Bus, mut subscription: Subscription, members: Weak<Relay>, writer: Writers) {
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
                                send(&writer, &members, &mut pending, &mut last_sent);
                                // After the frame, in the same order on the writing thread.
                                writer.send(Job::CatchUp(members.clone()));
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
            () = &mut due, if !pending.is_empty() => {
                send(&writer, &members, &mut pending, &mut last_sent);
            }
        }
    }
}

/// The room's sockets on this instance as they are now (empty once the relay is gone).
fn sockets(relay: &Weak<Relay>) -> Vec<Arc<Member>> {
    relay.upgrade().map_or_else(Vec::new, |relay| {
        relay
            .members
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    })
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

/// Hand on what is pending as one frame to every socket of the room, through the writing
/// thread.
fn send(
    writer: &Writers,
    relay: &Weak<Relay>,
    pending: &mut Vec<Arc<Delivery>>,
    last_sent: &mut Option<Instant>,
) {
    if pending.is_empty() {
        return;
    }
    let now = Instant::now();
    *last_sent = Some(now);
    writer.send(Job::Frame {
        relay: relay.clone(),
        batch: Arc::new(RoomBatch::of(std::mem::take(pending))),
        now,
    });
}

/// What the rooms' writing threads do, each for its share of the room's sockets, in the
/// order the relays asked.
#[derive(Clone)]
enum Job {
    /// Offer a frame to every socket of the room.
    Frame {
        relay: Weak<Relay>,
        batch: Arc<RoomBatch>,
        now: Instant,
    },
    /// Tell every socket of the room to catch up on its own.
    CatchUp(Weak<Relay>),
}

impl Job {
    fn relay(&self) -> &Weak<Relay> {
        match self {
            Job::Frame { relay, .. } | Job::CatchUp(relay) => relay,
        }
    }
}

/// The threads that write the rooms' frames: one per core (at most 4), so a frame reaches
/// a big room's sockets in a fraction of the time one thread would take.
#[derive(Clone)]
struct Writers(Arc<[mpsc::Sender<Job>]>);

impl Writers {
    fn start(nice: i32) -> Self {
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(4));
        let jobs = (0..threads).map(|shard| {
            let (jobs, inbox) = mpsc::channel::<Job>();
            let started = std::thread::Builder::new()
                .name("encore-rooms".to_owned())
                .spawn(move || {
                    lower_own_priority(nice);
                    // Until every relay (and the instance's relays) has gone.
                    while let Ok(first) = inbox.recv() {
                        let waiting = std::iter::once(first).chain(inbox.try_iter());
                        for job in joined(waiting) {
                            write(job, shard);
                        }
                    }
                });
            if let Err(err) = started {
                // No thread to spare: its sockets' frames are dropped, and they catch up
                // from the channel's history through their own tasks.
                tracing::error!(error = %err, "room relays: could not start a writing thread");
            }
            jobs
        });
        Writers(jobs.collect())
    }

    /// To every thread, for its share of the room's sockets. A thread outlives every
    /// relay that can send it work: this cannot fail.
    fn send(&self, job: Job) {
        for thread in self.0.iter() {
            let _ = thread.send(job.clone());
        }
    }
}

/// The jobs that waited for the thread, a room's frames joined into one (up to
/// [`JOINED_FRAME_BYTES`]) unless a catch-up stands between them: a thread that fell
/// behind writes fewer frames, not a burst of them.
fn joined(waiting: impl Iterator<Item = Job>) -> Vec<Job> {
    let mut jobs: Vec<Job> = Vec::new();
    for job in waiting {
        if let Job::Frame {
            relay,
            batch,
            now: later,
        } = &job
            && let Some(Job::Frame {
                batch: earlier,
                now,
                ..
            }) = jobs
                .iter_mut()
                .rev()
                .find(|earlier| Weak::ptr_eq(earlier.relay(), relay))
            && earlier.wire.len() + batch.wire.len() <= JOINED_FRAME_BYTES
        {
            let deliveries = earlier.deliveries.iter().chain(&batch.deliveries);
            *earlier = Arc::new(RoomBatch::of(deliveries.cloned().collect()));
            *now = *later;
            continue;
        }
        jobs.push(job);
    }
    jobs
}

/// A job, for the room's sockets that `shard`'s thread writes to.
fn write(job: Job, shard: usize) {
    match job {
        Job::Frame { relay, batch, now } => {
            for member in sockets(&relay).iter().filter(|m| m.shard == shard) {
                member.offer(&batch, now);
            }
        }
        Job::CatchUp(relay) => {
            for member in sockets(&relay).iter().filter(|m| m.shard == shard) {
                let mut state = member.lock();
                member.enqueue(&mut state, FromRelay::CatchUp);
            }
        }
    }
}

/// Make the calling thread (only it) nicer: Linux keeps a niceness per thread.
fn lower_own_priority(nice: i32) {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: plain system calls on the calling thread's own id.
        let lowered = unsafe {
            let thread = libc::gettid() as libc::id_t;
            libc::setpriority(libc::PRIO_PROCESS, thread, nice)
        };
        if lowered != 0 {
            tracing::warn!(
                error = %std::io::Error::last_os_error(),
                "room relays: the writing thread keeps the server's priority"
            );
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = nice;
}

/// One frame of encoded messages: a lone message as itself, several as
/// `{"type":"batch","messages":[…]}` (each as it would have gone alone).
pub fn frame(messages: Vec<Bytes>) -> Bytes {
    if messages.len() == 1 {
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
    }
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

    /// A room relay without its bus task or sockets.
    fn bare_relay() -> Arc<Relay> {
        Arc::new(Relay {
            members: Mutex::default(),
            task: tokio::spawn(std::future::pending::<()>()).abort_handle(),
        })
    }

    /// A room relay without its bus task, and one socket of it whose client end is
    /// returned.
    async fn room() -> (Arc<Relay>, RelaySubscription, tokio::net::TcpStream) {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let client = tokio::net::TcpStream::connect(listener.local_addr().unwrap());
        let (client, accepted) = tokio::join!(client, listener.accept());
        let (read, write) = accepted.unwrap().0.into_split();
        std::mem::forget(read);
        let relay = bare_relay();
        let member = Arc::new(Member {
            outbox: Arc::new(Outbox::new(write)),
            shard: 0,
            state: Mutex::default(),
            queued: Notify::new(),
        });
        relay.members.lock().unwrap().push(member.clone());
        let socket = RelaySubscription {
            member,
            relay: relay.clone(),
        };
        (relay, socket, client.unwrap())
    }

    /// A frame of `offsets` as the writing thread writes it.
    async fn relayed(relay: &Arc<Relay>, offsets: &[u64]) -> Arc<RoomBatch> {
        let batch = Arc::new(batch(offsets, "x"));
        write(
            Job::Frame {
                relay: Arc::downgrade(relay),
                batch: batch.clone(),
                now: Instant::now(),
            },
            0,
        );
        batch
    }

    #[tokio::test]
    async fn the_relay_writes_to_a_socket_standing_right_before_its_frame_else_queues_it() {
        use tokio::io::AsyncReadExt;
        let (relay, socket, mut client) = room().await;
        // Joining: the socket's task has the room in hand, so the frame waits for it.
        relayed(&relay, &[1, 2]).await;
        let taken = socket.recv().await.unwrap();
        assert!(matches!(&taken.item, FromRelay::Batch(b) if b.last() == Some(at(2, "x"))));
        assert_eq!(taken.place, None, "the relay was not writing to it");

        // Handed back at 2: another writing thread's frame is not for it…
        assert!(socket.hand_back(at(2, "x")));
        let other = Job::Frame {
            relay: Arc::downgrade(&relay),
            batch: Arc::new(batch(&[3, 4], "x")),
            now: Instant::now(),
        };
        write(other, 1);
        assert_eq!(socket.member.lock().direct, Some(at(2, "x")));
        // …and its own thread's goes straight to the connection, not the queue.
        let written = relayed(&relay, &[3, 4]).await;
        let mut bytes = vec![0u8; written.wire.len()];
        client.read_exact(&mut bytes).await.unwrap();
        assert_eq!(bytes, written.wire);
        assert!(socket.member.lock().queue.is_empty());

        // A hole: queued, and the task learns where the relay had left the socket.
        relayed(&relay, &[6]).await;
        let taken = socket.recv().await.unwrap();
        assert!(matches!(taken.item, FromRelay::Batch(_)));
        assert_eq!(taken.place, Some(at(4, "x")));
        assert!(taken.last_write.is_some());

        // A task that does not take its queue is told it lagged, once.
        for offset in 7..7 + SOCKET_QUEUE as u64 + 1 {
            relayed(&relay, &[offset]).await;
        }
        assert!(matches!(
            socket.recv().await.unwrap().item,
            FromRelay::Lagged
        ));
        assert!(
            socket.hand_back(at(5, "x")),
            "nothing more waits after the notice"
        );

        // Leaving the room leaves the relay's list.
        drop(socket);
        assert!(relay.members.lock().unwrap().is_empty());
    }

    /// A thread's niceness from its `stat` in `/proc`: after the name in parentheses, the
    /// state is field 3 and the niceness field 19.
    #[cfg(target_os = "linux")]
    fn niceness(task: &std::path::Path) -> Option<i32> {
        let stat = std::fs::read_to_string(task.join("stat")).ok()?;
        let (_, rest) = stat.rsplit_once(')')?;
        rest.split_whitespace().nth(16)?.parse().ok()
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn the_writing_thread_is_scheduled_after_the_servers_other_threads() {
        let writers = || -> Vec<i32> {
            let tasks = std::fs::read_dir("/proc/self/task").unwrap().flatten();
            tasks
                .filter(|task| {
                    std::fs::read_to_string(task.path().join("comm"))
                        .is_ok_and(|name| name.trim_end() == "encore-rooms")
                })
                .filter_map(|task| niceness(&task.path()))
                .collect()
        };
        // A niceness no other test's writing thread has.
        const NICE: i32 = 17;
        let jobs = Writers::start(NICE);
        let mut nice = Vec::new();
        for _ in 0..500 {
            nice = writers();
            if nice.contains(&NICE) {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        assert!(nice.contains(&NICE), "writing threads' niceness: {nice:?}");
        let own = niceness(std::path::Path::new("/proc/thread-self"));
        assert!(
            own.is_some_and(|n| n < NICE),
            "the caller keeps its priority: {own:?}"
        );
        drop(jobs);
    }

    #[tokio::test]
    async fn frames_that_waited_for_the_writing_thread_go_as_one_per_room() {
        let (a, b) = (bare_relay(), bare_relay());
        let (room_a, room_b) = (Arc::downgrade(&a), Arc::downgrade(&b));
        let frame = |relay: &Weak<Relay>, offsets: &[u64]| Job::Frame {
            relay: relay.clone(),
            batch: Arc::new(batch(offsets, "x")),
            now: Instant::now(),
        };
        let jobs = joined(
            [
                frame(&room_a, &[1]),
                frame(&room_b, &[7]),
                frame(&room_a, &[2, 3]),
                Job::CatchUp(room_a.clone()),
                frame(&room_a, &[4]),
            ]
            .into_iter(),
        );
        let offsets = |job: &Job| match job {
            Job::Frame { batch, .. } => batch.deliveries.iter().map(|d| d.offset).collect(),
            Job::CatchUp(_) => Vec::new(),
        };
        let seen: Vec<Vec<u64>> = jobs.iter().map(offsets).collect();
        assert_eq!(seen, [vec![1, 2, 3], vec![7], vec![], vec![4]]);
        assert!(matches!(&jobs[0], Job::Frame { batch, .. } if batch.follows(&at(0, "x"))));
        assert!(
            matches!(jobs[2], Job::CatchUp(_)),
            "a catch-up keeps its place"
        );
    }

    #[test]
    fn several_messages_are_one_batch_frame_and_a_lone_one_goes_as_itself() {
        let lone = batch(&[1], "x");
        // The payload after the frame's header (2 bytes, or 4 past 125 bytes).
        let payload = |batch: &RoomBatch| match batch.wire[1] {
            126 => batch.wire.slice(4..),
            _ => batch.wire.slice(2..),
        };
        assert!(payload(&lone).starts_with(br#"{"channel":"chat:e","offset":1"#));
        let several = batch(&[1, 2], "x");
        let value: serde_json::Value = serde_json::from_slice(&payload(&several)).unwrap();
        assert_eq!(value["type"], "batch");
        assert_eq!(value["messages"][1]["offset"], 2);
    }
}
