//! The write side of a signed-in dashboard socket, shared by the socket's own task and
//! its rooms' relays (`live::room_relay`). A relay writes a room's frame, the same bytes
//! for every socket of the room, straight to each connection without waking the socket's
//! task: in a busy room a socket costs one write per frame and nothing else (issue 29).
//! Only what a connection cannot take at once waits here, in order, for the socket's task
//! to write it out when the connection has room again.
//!
//! Frames are whole WebSocket frames, already encoded: the server's frames are not masked,
//! so one encoding serves every socket ([`text_frame`]).

use std::collections::VecDeque;
use std::io;
use std::sync::{Mutex, MutexGuard};

use bytes::{BufMut, Bytes, BytesMut};
use tokio::net::tcp::OwnedWriteHalf;
use tokio::sync::Notify;

/// How many bytes may wait for a connection that does not take them before its reader is
/// too slow (with the kernel's own buffers, about 16 s of a busy room's frames).
pub const BACKLOG_LIMIT: usize = 512 * 1024;

/// A connection's frames, written at once when it takes them, else kept in order.
pub struct Outbox {
    tcp: OwnedWriteHalf,
    backlog: Mutex<Backlog>,
    /// Wakes the socket's task: bytes wait to be written, or the reader fell too far
    /// behind.
    waiting: Notify,
}

#[derive(Default)]
struct Backlog {
    frames: VecDeque<Bytes>,
    /// How much of the first frame is already written.
    written: usize,
    /// Bytes waiting, across the frames.
    bytes: usize,
    /// Why nothing more is accepted, once that is so.
    stopped: Option<Stop>,
}

/// Why an outbox stopped taking frames.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// The reader fell behind by more than [`BACKLOG_LIMIT`].
    TooFarBehind,
    /// The connection broke, or the socket is closing.
    Ended,
}

/// What became of a frame handed to [`Outbox::push`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pushed {
    /// On its way: written, or waiting behind others for the socket's task.
    Accepted,
    /// Refused: the reader is too slow (or gone); the socket is to be closed.
    Stopped,
}

impl Outbox {
    pub fn new(tcp: OwnedWriteHalf) -> Self {
        Self {
            tcp,
            backlog: Mutex::default(),
            waiting: Notify::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Backlog> {
        self.backlog.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Write `frame` now if nothing waits before it and the connection takes it; what it
    /// does not take waits, and the socket's task is woken to write it.
    pub fn push(&self, frame: Bytes) -> Pushed {
        let mut backlog = self.lock();
        if backlog.stopped.is_some() {
            return Pushed::Stopped;
        }
        let mut written = 0;
        if backlog.frames.is_empty() {
            match self.tcp.try_write(&frame) {
                Ok(n) if n == frame.len() => return Pushed::Accepted,
                Ok(n) if n > 0 => written = n,
                Err(err) if err.kind() == io::ErrorKind::WouldBlock => {}
                // Broken (or a zero write): the socket's task finds out and ends.
                _ => {
                    backlog.stopped = Some(Stop::Ended);
                    self.waiting.notify_one();
                    return Pushed::Stopped;
                }
            }
            backlog.written = written;
        }
        backlog.bytes += frame.len() - written;
        backlog.frames.push_back(frame);
        if backlog.bytes > BACKLOG_LIMIT {
            backlog.stopped = Some(Stop::TooFarBehind);
            self.waiting.notify_one();
            return Pushed::Stopped;
        }
        self.waiting.notify_one();
        Pushed::Accepted
    }

    /// Why the outbox takes no more frames, if it does not.
    pub fn stopped(&self) -> Option<Stop> {
        self.lock().stopped
    }

    /// Until something waits to be written or the outbox stopped (the socket's task).
    pub async fn waiting(&self) {
        self.waiting.notified().await;
    }

    /// Write out what waits; returns once nothing does. Cancel-safe: what is written is
    /// accounted for before each wait.
    pub async fn drain(&self) -> io::Result<()> {
        loop {
            {
                let mut backlog = self.lock();
                while let Some(front) = backlog.frames.front() {
                    let front = front.clone();
                    match self.tcp.try_write(&front[backlog.written..]) {
                        Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
                        Ok(n) => {
                            backlog.written += n;
                            backlog.bytes -= n;
                            if backlog.written == front.len() {
                                backlog.frames.pop_front();
                                backlog.written = 0;
                            }
                        }
                        Err(err) if err.kind() == io::ErrorKind::WouldBlock => break,
                        Err(err) => {
                            backlog.stopped = Some(Stop::Ended);
                            return Err(err);
                        }
                    }
                }
                if backlog.frames.is_empty() {
                    return Ok(());
                }
            }
            self.tcp.writable().await?;
        }
    }

    /// Write `frame` after what waits, and wait until it is out (the socket's own
    /// messages: the task goes on once the connection took them, as with any write).
    pub async fn send(&self, frame: Bytes) -> io::Result<()> {
        if self.push(frame) == Pushed::Stopped {
            return Err(io::ErrorKind::BrokenPipe.into());
        }
        self.drain().await
    }

    /// Send a close frame after what is still waiting (however far behind the reader
    /// is: it is told why), then end the connection's writing side.
    pub async fn close(&self, frame: Bytes) {
        {
            let mut backlog = self.lock();
            if backlog.stopped == Some(Stop::Ended) {
                return;
            }
            // Nothing more after the close, whatever a relay offers meanwhile.
            backlog.stopped = Some(Stop::Ended);
            backlog.bytes += frame.len();
            backlog.frames.push_back(frame);
        }
        let _ = self.drain().await;
    }
}

/// A text frame from the server (unmasked): the same bytes for every socket.
pub fn text_frame(payload: &[u8]) -> Bytes {
    frame(0x1, payload)
}

/// A close frame with its code and reason.
pub fn close_frame(code: u16, reason: &str) -> Bytes {
    let mut payload = Vec::with_capacity(2 + reason.len());
    payload.extend_from_slice(&code.to_be_bytes());
    payload.extend_from_slice(reason.as_bytes());
    frame(0x8, &payload)
}

/// A pong echoing a ping's payload.
pub fn pong_frame(payload: &[u8]) -> Bytes {
    frame(0xA, payload)
}

/// One final (unfragmented) frame of `opcode`.
fn frame(opcode: u8, payload: &[u8]) -> Bytes {
    let mut out = BytesMut::with_capacity(payload.len() + 10);
    out.put_u8(0x80 | opcode);
    match payload.len() {
        n if n < 126 => out.put_u8(n as u8),
        n if n <= usize::from(u16::MAX) => {
            out.put_u8(126);
            out.put_u16(n as u16);
        }
        n => {
            out.put_u8(127);
            out.put_u64(n as u64);
        }
    }
    out.put_slice(payload);
    out.freeze()
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncReadExt;
    use tokio_tungstenite::tungstenite::protocol::frame::{Frame, FrameHeader};

    /// The frame the WebSocket library reads from these bytes.
    fn read_back(bytes: &[u8]) -> Frame {
        let mut cursor = std::io::Cursor::new(bytes);
        let (header, len) = FrameHeader::parse(&mut cursor).unwrap().unwrap();
        let start = cursor.position() as usize;
        assert_eq!(
            bytes.len() - start,
            len as usize,
            "the whole payload, nothing after"
        );
        Frame::from_payload(header, Bytes::copy_from_slice(&bytes[start..]))
    }

    #[test]
    fn frames_of_every_length_read_back_as_sent() {
        for len in [0, 1, 125, 126, 65_535, 65_536, 200_000] {
            let text = "é".repeat(len / 2) + &"a".repeat(len % 2);
            let frame = read_back(&text_frame(text.as_bytes()));
            assert!(frame.header().is_final);
            assert_eq!(frame.payload(), text.as_bytes(), "{len}");
        }
        let close = read_back(&close_frame(4503, "slow_consumer"));
        assert_eq!(&close.payload()[..2], &4503u16.to_be_bytes());
        assert_eq!(&close.payload()[2..], b"slow_consumer");
        assert_eq!(read_back(&pong_frame(b"hi")).payload(), &b"hi"[..]);
    }

    async fn pair() -> (Outbox, tokio::net::TcpStream) {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let client = tokio::net::TcpStream::connect(listener.local_addr().unwrap());
        let (client, accepted) = tokio::join!(client, listener.accept());
        let (_read, write) = accepted.unwrap().0.into_split();
        std::mem::forget(_read); // the read half stays open for the test's length
        (Outbox::new(write), client.unwrap())
    }

    #[tokio::test]
    async fn what_the_connection_cannot_take_waits_in_order_and_a_stalled_reader_stops_it() {
        let (outbox, mut client) = pair().await;
        // Far more than the kernel's buffers take while nobody reads: the rest waits.
        let frames: Vec<Bytes> = (0..64u8).map(|i| Bytes::from(vec![i; 8 * 1024])).collect();
        for frame in &frames {
            assert_eq!(outbox.push(frame.clone()), Pushed::Accepted);
        }
        let reading = tokio::spawn(async move {
            let mut all = vec![0u8; 64 * 8 * 1024];
            client.read_exact(&mut all).await.unwrap();
            (all, client)
        });
        outbox.drain().await.unwrap();
        let (all, mut client) = reading.await.unwrap();
        assert_eq!(all, frames.concat(), "every byte, in order");

        // A reader that stops reading: the outbox stops past its limit.
        let big = Bytes::from(vec![7u8; 64 * 1024]);
        let mut pushes = 0;
        while outbox.push(big.clone()) == Pushed::Accepted {
            pushes += 1;
            assert!(pushes < 1_000, "never stopped");
        }
        assert_eq!(outbox.stopped(), Some(Stop::TooFarBehind));
        assert_eq!(outbox.push(Bytes::from_static(b"x")), Pushed::Stopped);
        // The close still goes after what waits.
        let closing = tokio::spawn(async move {
            outbox.close(close_frame(4503, "slow_consumer")).await;
        });
        let mut rest = Vec::new();
        client.read_to_end(&mut rest).await.unwrap();
        closing.await.unwrap();
        assert!(rest.len() > pushes * big.len());
        assert!(rest.ends_with(&close_frame(4503, "slow_consumer")));
    }
}
