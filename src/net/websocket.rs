//! WebSocket upgrades that hold next to nothing for a stranger.
//!
//! A socket has not proved who it is until its first message (the dashboard's `auth`, a
//! publisher's hello) has been checked. Until then it is read here, not by the WebSocket
//! library: one small frame at most ([`read_first_text`], a few KB, refused at its header
//! when it announces more), under a global cap on such sockets ([`Unproven`]), while the
//! connection keeps its address's slot ([`super::HeldSlot`]) for as long as it is open.
//! Only once the caller has admitted it does the socket get the library's framing with
//! the limits that suit it ([`Pending::open`]): 16 KB for the dashboard, 1 MiB chunks for
//! a publisher. Before this, an address could open upgrades and announce 1 MB frames on
//! each, and the server buffered them (finding 1 of docs/security.md).

use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::extract::{FromRef, FromRequestParts};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use bytes::{Buf, BytesMut};
use hyper::upgrade::{OnUpgrade, Upgraded};
use hyper_util::rt::TokioIo;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::net::tcp::OwnedReadHalf;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::handshake::derive_accept_key;
use tokio_tungstenite::tungstenite::protocol::{Role, WebSocketConfig};

use super::HeldSlot;
use super::outbox::Outbox;

/// An open socket, after its first message was admitted.
pub type Socket = WebSocketStream<Conn>;

/// How many sockets may be open at once, across the server, that have not yet sent a
/// first message the server accepted. Each holds at most its first frame's limit.
#[derive(Clone)]
pub struct Unproven(Arc<Semaphore>);

impl Unproven {
    pub fn new(cap: usize) -> Self {
        Self(Arc::new(Semaphore::new(cap)))
    }

    /// Sockets that may still open before the cap is reached.
    pub fn available(&self) -> usize {
        self.0.available_permits()
    }
}

/// Why an upgrade request is refused before it becomes a socket.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    /// Not a WebSocket handshake (method, `Upgrade`, `Connection`, version, key).
    NotAnUpgrade,
    /// Too many sockets have not proved who they are yet: try again shortly.
    Busy,
}

impl IntoResponse for Refused {
    fn into_response(self) -> Response {
        match self {
            Self::NotAnUpgrade => {
                crate::error::Error::bad_request(crate::i18n::Msg::WebSocketUpgradeExpected)
                    .into_response()
            }
            Self::Busy => {
                let mut response = crate::error::Error::Busy.into_response();
                response
                    .headers_mut()
                    .insert(header::RETRY_AFTER, HeaderValue::from_static("5"));
                response
            }
        }
    }
}

/// A WebSocket handshake request, checked, with a place among the unproven sockets.
pub struct Upgrade {
    on_upgrade: OnUpgrade,
    accept: HeaderValue,
    slot: Option<HeldSlot>,
    permit: OwnedSemaphorePermit,
}

impl<S> FromRequestParts<S> for Upgrade
where
    Unproven: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = Refused;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Refused> {
        if parts.method != Method::GET
            || !has_token(&parts.headers, header::CONNECTION, "upgrade")
            || !has_token(&parts.headers, header::UPGRADE, "websocket")
            || parts
                .headers
                .get(header::SEC_WEBSOCKET_VERSION)
                .is_none_or(|v| v.as_bytes() != b"13")
        {
            return Err(Refused::NotAnUpgrade);
        }
        let key = parts
            .headers
            .get(header::SEC_WEBSOCKET_KEY)
            .ok_or(Refused::NotAnUpgrade)?;
        let accept = HeaderValue::from_str(&derive_accept_key(key.as_bytes()))
            .map_err(|_| Refused::NotAnUpgrade)?;
        let permit = Unproven::from_ref(state)
            .0
            .try_acquire_owned()
            .map_err(|_| Refused::Busy)?;
        let on_upgrade = parts
            .extensions
            .remove::<OnUpgrade>()
            .ok_or(Refused::NotAnUpgrade)?;
        let slot = parts.extensions.get::<HeldSlot>().cloned();
        Ok(Self {
            on_upgrade,
            accept,
            slot,
            permit,
        })
    }
}

/// Whether a comma-separated header holds `token` (case-insensitive).
fn has_token(headers: &HeaderMap, name: header::HeaderName, token: &str) -> bool {
    headers.get_all(name).iter().any(|value| {
        value.to_str().is_ok_and(|value| {
            value
                .split(',')
                .any(|part| part.trim().eq_ignore_ascii_case(token))
        })
    })
}

impl Upgrade {
    /// Switch protocols and hand the connection to `serve` once the client has it.
    pub fn on_upgrade<F, Fut>(self, serve: F) -> Response
    where
        F: FnOnce(Pending) -> Fut + Send + 'static,
        Fut: Future<Output = ()> + Send + 'static,
    {
        let Self {
            on_upgrade,
            accept,
            slot,
            permit,
        } = self;
        tokio::spawn(async move {
            let Ok(upgraded) = on_upgrade.await else {
                return;
            };
            serve(Pending {
                conn: Conn {
                    io: TokioIo::new(upgraded),
                    read_ahead: Vec::new(),
                    at: 0,
                    _slot: slot,
                },
                _permit: permit,
            })
            .await;
        });
        let mut response = StatusCode::SWITCHING_PROTOCOLS.into_response();
        let headers = response.headers_mut();
        headers.insert(header::CONNECTION, HeaderValue::from_static("upgrade"));
        headers.insert(header::UPGRADE, HeaderValue::from_static("websocket"));
        headers.insert(header::SEC_WEBSOCKET_ACCEPT, accept);
        response
    }
}

/// An upgraded connection whose first message has not been admitted yet.
pub struct Pending {
    conn: Conn,
    _permit: OwnedSemaphorePermit,
}

/// How waiting for the first message ended, when it brought none.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoHello {
    /// Nothing (or nothing whole) within the wait.
    Timeout,
    /// A frame the first message cannot be: too large, not text, fragmented, not UTF-8.
    Bad(FrameError),
    /// The client closed or the connection broke.
    Gone,
}

impl Pending {
    /// The first text message, at most `limit` bytes, within `wait`. Pings and pongs
    /// before it are skipped.
    pub async fn first_text(&mut self, limit: usize, wait: Duration) -> Result<String, NoHello> {
        match tokio::time::timeout(wait, read_first_text(&mut self.conn, limit)).await {
            Ok(read) => read.map(|(text, rest)| {
                self.conn.read_ahead = rest;
                text
            }),
            Err(_) => Err(NoHello::Timeout),
        }
    }

    /// Admitted (or to be refused in words): the WebSocket protocol from here on, with
    /// `config`'s limits. What the client sent after its first message is read first.
    pub async fn open(self, config: WebSocketConfig) -> Socket {
        WebSocketStream::from_raw_socket(self.conn, Role::Server, Some(config)).await
    }
}

impl Pending {
    /// Admitted to the dashboard's live socket: from here on the connection is framed
    /// here, its reading side by the socket's task ([`Reader`]) and its writing side
    /// shared with the rooms it follows ([`Outbox`]), so a room's relay writes its frames
    /// straight to it. Client messages are held to `limit` bytes. `None` when the
    /// connection is not a plain TCP one (it is, from [`super::serve`]).
    pub fn open_live(self, limit: usize) -> Option<LiveSocket> {
        let Conn {
            io,
            read_ahead,
            at,
            _slot,
        } = self.conn;
        let parts = match io.into_inner().downcast::<TokioIo<TcpStream>>() {
            Ok(parts) => parts,
            Err(_) => {
                tracing::error!("a live socket over something other than TCP");
                return None;
            }
        };
        let (read, write) = parts.io.into_inner().into_split();
        let mut buf = BytesMut::new();
        buf.extend_from_slice(&read_ahead[at.min(read_ahead.len())..]);
        buf.extend_from_slice(&parts.read_buf);
        Some(LiveSocket {
            reader: Reader {
                tcp: read,
                buf,
                limit,
                partial: None,
                _slot,
            },
            outbox: Arc::new(Outbox::new(write)),
        })
    }
}

/// How much a live socket reads at a time, on the stack: most sockets are idle and their
/// messages small (the WebSocket library's default buffer is 128 KiB; the benchmarks'
/// baseline uses this).
pub const READ_CHUNK: usize = 1024;

/// A signed-in dashboard socket: its reading side, and its writing side, which its rooms
/// share.
pub struct LiveSocket {
    pub reader: Reader,
    pub outbox: Arc<Outbox>,
}

/// What a client sent on a live socket: a whole message, or a control frame.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClientFrame {
    Text(String),
    /// A binary message (the dashboard's protocol has none).
    Binary,
    Ping(Vec<u8>),
    Pong,
    Close,
}

/// Why a live socket's reading ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReadEnd {
    /// The client broke the protocol (or sent more than the limit).
    Bad(FrameError),
    /// The connection ended.
    Gone,
}

/// The reading side of a live socket: whole messages (fragments joined), control frames
/// as they come.
pub struct Reader {
    tcp: OwnedReadHalf,
    buf: BytesMut,
    limit: usize,
    /// A fragmented message so far: its opcode and payload.
    partial: Option<(u8, Vec<u8>)>,
    _slot: Option<HeldSlot>,
}

impl Reader {
    /// The next message or control frame. Cancel-safe: what was read stays buffered.
    pub async fn next(&mut self) -> Result<ClientFrame, ReadEnd> {
        loop {
            if let Some(frame) = self.parse().map_err(ReadEnd::Bad)? {
                if self.buf.is_empty() {
                    // Most sockets are idle: between messages they hold no buffer.
                    self.buf = BytesMut::new();
                }
                return Ok(frame);
            }
            if self.tcp.readable().await.is_err() {
                return Err(ReadEnd::Gone);
            }
            // Read on the stack, kept only while a frame is incomplete.
            let mut chunk = [0u8; READ_CHUNK];
            match self.tcp.try_read(&mut chunk) {
                Ok(0) => return Err(ReadEnd::Gone),
                Ok(n) => self.buf.extend_from_slice(&chunk[..n]),
                Err(err) if err.kind() == io::ErrorKind::WouldBlock => {}
                Err(_) => return Err(ReadEnd::Gone),
            }
        }
    }

    /// A frame out of what is buffered, if whole.
    fn parse(&mut self) -> Result<Option<ClientFrame>, FrameError> {
        loop {
            let Some(header) = Header::parse(&self.buf)? else {
                return Ok(None);
            };
            let fragmenting = self.partial.is_some();
            match header.opcode {
                0x0 if !fragmenting => return Err(FrameError::Fragmented),
                0x1 | 0x2 if fragmenting => return Err(FrameError::Fragmented),
                0x0 | 0x1 | 0x2 | 0x8 | 0x9 | 0xA => {}
                _ => return Err(FrameError::NotText),
            }
            let so_far = self.partial.as_ref().map_or(0, |(_, p)| p.len());
            if header.len.saturating_add(so_far as u64) > self.limit as u64 {
                return Err(FrameError::TooLarge);
            }
            let Some((payload, total)) = header.payload(&self.buf) else {
                return Ok(None);
            };
            self.buf.advance(total);
            let message = match (header.opcode, header.fin) {
                (0x8, _) => return Ok(Some(ClientFrame::Close)),
                (0x9, _) => return Ok(Some(ClientFrame::Ping(payload))),
                (0xA, _) => return Ok(Some(ClientFrame::Pong)),
                (0x0, fin) => {
                    let (_, so_far) = self.partial.as_mut().expect("fragmenting");
                    so_far.extend_from_slice(&payload);
                    if !fin {
                        continue;
                    }
                    self.partial.take().expect("fragmenting")
                }
                (opcode, true) => (opcode, payload),
                (opcode, false) => {
                    self.partial = Some((opcode, payload));
                    continue;
                }
            };
            return Ok(Some(match message {
                (0x1, text) => {
                    ClientFrame::Text(String::from_utf8(text).map_err(|_| FrameError::NotUtf8)?)
                }
                _ => ClientFrame::Binary,
            }));
        }
    }
}

/// The client's connection, with the bytes read past its first message given back first,
/// and its address's slot held for as long as the socket lives.
pub struct Conn {
    io: TokioIo<Upgraded>,
    read_ahead: Vec<u8>,
    at: usize,
    _slot: Option<HeldSlot>,
}

impl AsyncRead for Conn {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = &mut *self;
        if this.at < this.read_ahead.len() {
            let n = buf.remaining().min(this.read_ahead.len() - this.at);
            buf.put_slice(&this.read_ahead[this.at..this.at + n]);
            this.at += n;
            if this.at == this.read_ahead.len() {
                this.read_ahead = Vec::new();
                this.at = 0;
            }
            return Poll::Ready(Ok(()));
        }
        Pin::new(&mut this.io).poll_read(cx, buf)
    }
}

impl AsyncWrite for Conn {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.io).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_shutdown(cx)
    }
}

/// A client frame at the start of a socket, as far as the first message needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Frame {
    Text(String),
    Ping,
    Pong,
    Close,
}

/// Why a frame cannot start a socket.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum FrameError {
    #[error("the frame announces more than the first message may hold")]
    TooLarge,
    #[error("the first message must be text")]
    NotText,
    #[error("a client's frame must be masked")]
    Unmasked,
    #[error("reserved bits are set")]
    Reserved,
    #[error("the first message must be one frame")]
    Fragmented,
    #[error("a control frame longer than 125 bytes")]
    LongControl,
    #[error("the text is not UTF-8")]
    NotUtf8,
}

/// A client frame's header, checked as far as any frame's must be: reserved bits clear,
/// masked, a control frame short and final.
struct Header {
    fin: bool,
    opcode: u8,
    /// The payload's length, as announced.
    len: u64,
    /// The header's length before the mask.
    head: usize,
}

impl Header {
    /// The header at the start of `buf`: `Ok(None)` while more bytes are needed.
    fn parse(buf: &[u8]) -> Result<Option<Self>, FrameError> {
        let [first, second, ..] = *buf else {
            return Ok(None);
        };
        if first & 0x70 != 0 {
            return Err(FrameError::Reserved);
        }
        if second & 0x80 == 0 {
            return Err(FrameError::Unmasked);
        }
        let (fin, opcode) = (first & 0x80 != 0, first & 0x0f);
        let (len, head) = match second & 0x7f {
            126 => match buf.get(2..4) {
                Some(b) => (u64::from(u16::from_be_bytes([b[0], b[1]])), 4),
                None => return Ok(None),
            },
            127 => match buf.get(2..10) {
                Some(b) => (u64::from_be_bytes(b.try_into().expect("8 bytes")), 10),
                None => return Ok(None),
            },
            short => (u64::from(short), 2),
        };
        let control = opcode & 0x08 != 0;
        if control && (len > 125 || !fin) {
            return Err(FrameError::LongControl);
        }
        Ok(Some(Self {
            fin,
            opcode,
            len,
            head,
        }))
    }

    /// The frame's unmasked payload and its whole length, once `buf` holds all of it
    /// (`len` is at most the caller's limit).
    fn payload(&self, buf: &[u8]) -> Option<(Vec<u8>, usize)> {
        let len = self.len as usize;
        let total = self.head + 4 + len;
        let mask = buf.get(self.head..self.head + 4)?;
        let payload = buf
            .get(self.head + 4..total)?
            .iter()
            .enumerate()
            .map(|(i, byte)| byte ^ mask[i % 4])
            .collect();
        Some((payload, total))
    }
}

/// Read one frame from the start of `buf`, refusing at its header a payload over `limit`:
/// `Ok(None)` while more bytes are needed, else the frame and the bytes it took.
pub fn parse_frame(buf: &[u8], limit: usize) -> Result<Option<(Frame, usize)>, FrameError> {
    let Some(header) = Header::parse(buf)? else {
        return Ok(None);
    };
    match header.opcode {
        0x1 if !header.fin => return Err(FrameError::Fragmented),
        0x1 | 0x8 | 0x9 | 0xA => {}
        0x0 => return Err(FrameError::Fragmented),
        _ => return Err(FrameError::NotText),
    }
    if header.len > limit as u64 {
        return Err(FrameError::TooLarge);
    }
    let Some((payload, total)) = header.payload(buf) else {
        return Ok(None);
    };
    let frame = match header.opcode {
        0x1 => Frame::Text(String::from_utf8(payload).map_err(|_| FrameError::NotUtf8)?),
        0x8 => Frame::Close,
        0x9 => Frame::Ping,
        _ => Frame::Pong,
    };
    Ok(Some((frame, total)))
}

/// Read until the first text frame (at most `limit` bytes of payload; pings and pongs
/// before it skipped): its text, and whatever was read after it. What is held never
/// exceeds one frame's header, `limit` and one read.
pub async fn read_first_text<R: AsyncRead + Unpin>(
    io: &mut R,
    limit: usize,
) -> Result<(String, Vec<u8>), NoHello> {
    let mut held = Vec::with_capacity(256);
    let mut chunk = [0u8; 1024];
    loop {
        match parse_frame(&held, limit).map_err(NoHello::Bad)? {
            Some((Frame::Text(text), used)) => return Ok((text, held.split_off(used))),
            Some((Frame::Close, _)) => return Err(NoHello::Gone),
            Some((Frame::Ping | Frame::Pong, used)) => {
                held.drain(..used);
                continue;
            }
            None => {}
        }
        let read = io.read(&mut chunk).await.map_err(|_| NoHello::Gone)?;
        if read == 0 {
            return Err(NoHello::Gone);
        }
        held.extend_from_slice(&chunk[..read]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A client's frame: masked with a fixed key.
    fn frame(fin: bool, opcode: u8, payload: &[u8]) -> Vec<u8> {
        let mut out = vec![if fin { 0x80 } else { 0 } | opcode];
        match payload.len() {
            n if n < 126 => out.push(0x80 | n as u8),
            n if n <= 0xffff => {
                out.push(0x80 | 126);
                out.extend_from_slice(&(n as u16).to_be_bytes());
            }
            n => {
                out.push(0x80 | 127);
                out.extend_from_slice(&(n as u64).to_be_bytes());
            }
        }
        let mask = [1, 2, 3, 4];
        out.extend_from_slice(&mask);
        out.extend(payload.iter().enumerate().map(|(i, b)| b ^ mask[i % 4]));
        out
    }

    #[test]
    fn a_text_frame_is_read_whole_with_the_bytes_after_it_left() {
        let mut bytes = frame(true, 0x1, br#"{"type":"auth"}"#);
        let used = bytes.len();
        bytes.extend_from_slice(b"next");
        let (frame, took) = parse_frame(&bytes, 4096).unwrap().unwrap();
        assert_eq!(frame, Frame::Text(r#"{"type":"auth"}"#.into()));
        assert_eq!(took, used);
    }

    #[test]
    fn a_frame_announcing_more_than_the_limit_is_refused_at_its_header() {
        // Only the header and the mask: the payload never has to arrive.
        let header = &frame(true, 0x1, &vec![b'a'; 1_000_000])[..14];
        assert_eq!(parse_frame(header, 4096), Err(FrameError::TooLarge));
    }

    #[test]
    fn a_partial_frame_asks_for_more() {
        let whole = frame(true, 0x1, &[b'a'; 300]);
        for cut in [0, 1, 3, 7, 100, whole.len() - 1] {
            assert_eq!(parse_frame(&whole[..cut], 4096), Ok(None), "cut at {cut}");
        }
    }

    #[test]
    fn binary_fragmented_unmasked_and_reserved_frames_are_refused() {
        assert_eq!(
            parse_frame(&frame(true, 0x2, b"x"), 64),
            Err(FrameError::NotText)
        );
        assert_eq!(
            parse_frame(&frame(false, 0x1, b"x"), 64),
            Err(FrameError::Fragmented)
        );
        assert_eq!(
            parse_frame(&frame(true, 0x0, b"x"), 64),
            Err(FrameError::Fragmented)
        );
        let mut unmasked = frame(true, 0x1, b"x");
        unmasked[1] &= 0x7f;
        assert_eq!(parse_frame(&unmasked, 64), Err(FrameError::Unmasked));
        let mut reserved = frame(true, 0x1, b"x");
        reserved[0] |= 0x40;
        assert_eq!(parse_frame(&reserved, 64), Err(FrameError::Reserved));
        assert_eq!(
            parse_frame(&frame(true, 0x1, &[0xff]), 64),
            Err(FrameError::NotUtf8)
        );
    }

    #[tokio::test]
    async fn pings_before_the_first_text_are_skipped() {
        let mut bytes = frame(true, 0x9, b"hi");
        bytes.extend(frame(true, 0x1, b"hello"));
        bytes.extend(frame(true, 0x2, b"audio"));
        let (text, rest) = read_first_text(&mut bytes.as_slice(), 64).await.unwrap();
        assert_eq!(text, "hello");
        assert_eq!(rest, frame(true, 0x2, b"audio"));
    }

    #[tokio::test]
    async fn a_close_or_an_end_before_the_first_text_is_gone() {
        let close = frame(true, 0x8, &[0x03, 0xe8]);
        assert_eq!(
            read_first_text(&mut close.as_slice(), 64).await,
            Err(NoHello::Gone)
        );
        let cut = &frame(true, 0x1, b"hello")[..5];
        assert_eq!(read_first_text(&mut &cut[..], 64).await, Err(NoHello::Gone));
    }

    /// A live socket's reader over a connection, and the client's end of it.
    async fn live_reader(limit: usize) -> (Reader, tokio::net::TcpStream) {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let client = TcpStream::connect(listener.local_addr().unwrap());
        let (client, accepted) = tokio::join!(client, listener.accept());
        let (tcp, write) = accepted.unwrap().0.into_split();
        std::mem::forget(write);
        let reader = Reader {
            tcp,
            buf: BytesMut::new(),
            limit,
            partial: None,
            _slot: None,
        };
        (reader, client.unwrap())
    }

    #[tokio::test]
    async fn a_live_socket_reads_whole_messages_with_fragments_joined_and_controls_between() {
        use tokio::io::AsyncWriteExt;
        let (mut reader, mut client) = live_reader(64).await;
        let mut bytes = frame(true, 0x1, b"one");
        bytes.extend(frame(false, 0x1, b"tw"));
        bytes.extend(frame(true, 0x9, b"ping"));
        bytes.extend(frame(false, 0x0, b"o "));
        bytes.extend(frame(true, 0x0, "é".as_bytes()));
        bytes.extend(frame(true, 0x2, b"bin"));
        bytes.extend(frame(true, 0xA, b""));
        bytes.extend(frame(true, 0x8, &[0x03, 0xe8]));
        // A byte at a time: every cut of every frame waits for the rest.
        for byte in bytes {
            client.write_all(&[byte]).await.unwrap();
        }
        let expected = [
            ClientFrame::Text("one".into()),
            ClientFrame::Ping(b"ping".to_vec()),
            ClientFrame::Text("two é".into()),
            ClientFrame::Binary,
            ClientFrame::Pong,
            ClientFrame::Close,
        ];
        for want in expected {
            assert_eq!(reader.next().await, Ok(want));
        }
        drop(client);
        assert_eq!(reader.next().await, Err(ReadEnd::Gone));
    }

    #[tokio::test]
    async fn a_live_socket_refuses_more_than_its_limit_across_fragments_and_stray_continuations() {
        use tokio::io::AsyncWriteExt;
        let (mut reader, mut client) = live_reader(8).await;
        let mut bytes = frame(false, 0x1, b"12345");
        bytes.extend(frame(true, 0x0, b"6789"));
        client.write_all(&bytes).await.unwrap();
        assert_eq!(reader.next().await, Err(ReadEnd::Bad(FrameError::TooLarge)));

        let (mut reader, mut client) = live_reader(8).await;
        client.write_all(&frame(true, 0x0, b"x")).await.unwrap();
        assert_eq!(
            reader.next().await,
            Err(ReadEnd::Bad(FrameError::Fragmented))
        );

        let (mut reader, mut client) = live_reader(8).await;
        client.write_all(&frame(true, 0x1, &[0xff])).await.unwrap();
        assert_eq!(reader.next().await, Err(ReadEnd::Bad(FrameError::NotUtf8)));
    }
}
