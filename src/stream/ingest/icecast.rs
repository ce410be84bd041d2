//! The Icecast source port. Encoders speaking the Icecast protocol (ffmpeg's
//! `icecast://`, butt, Mixxx) send `PUT` with `Expect: 100-continue` — or the legacy
//! `SOURCE` — and then raw audio with neither `Content-Length` nor chunked encoding,
//! until they hang up. A general HTTP/1.1 server reads that as an empty body, so this
//! port speaks the protocol itself and hands the bytes to the same pipeline as the
//! HTTP ingest.

use std::collections::HashMap;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio_util::io::ReaderStream;

use axum::http::StatusCode;

use crate::error::Error;
use crate::i18n::Msg;
use crate::net::ConnectionCap;
use crate::state::AppState;
use crate::stream::{ingest, ingest::metadata};

const MAX_HEAD: usize = 16 * 1024;
/// An encoder needs one connection; a few more cover reconnects racing the old one.
const CONNECTIONS_PER_IP: u32 = 8;

pub async fn serve(listener: TcpListener, app: AppState) {
    let cap = ConnectionCap::new(Some(CONNECTIONS_PER_IP));
    loop {
        let (conn, peer) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(err) => {
                tracing::warn!(error = %err, "ingest accept failed");
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let Some(slot) = cap.admit(peer.ip()) else {
            tracing::debug!(%peer, "ingest connection refused: too many from this address");
            continue;
        };
        let app = app.clone();
        tokio::spawn(async move {
            if let Err(err) = handle(app, conn).await {
                tracing::debug!(%peer, error = %err, "ingest connection failed");
            }
            drop(slot);
        });
    }
}

/// An encoder's request head, as far as this port reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Head {
    pub method: String,
    /// The request target up to its first `?`.
    pub path: String,
    /// What follows the `?` (the metadata call's parameters), raw.
    pub query: String,
    /// Names lower-cased; names and values trimmed; a repeated name keeps its last value.
    pub headers: HashMap<String, String>,
    /// What came after the blank line: the first audio bytes.
    pub rest: Vec<u8>,
}

/// The request head, which must arrive whole within `deadline` (a client trickling a
/// byte at a time is cut off, not waited for).
async fn read_head(conn: &mut TcpStream, deadline: Duration) -> std::io::Result<Option<Head>> {
    tokio::time::timeout(deadline, read_head_bytes(conn))
        .await
        .map_err(|_| std::io::Error::from(std::io::ErrorKind::TimedOut))?
}

async fn read_head_bytes(conn: &mut TcpStream) -> std::io::Result<Option<Head>> {
    let mut buf = Vec::with_capacity(1024);
    let mut chunk = [0u8; 2048];
    loop {
        if head_end(&buf).is_some() {
            return Ok(parse_head(&buf));
        }
        if buf.len() > MAX_HEAD {
            return Ok(None);
        }
        let n = conn.read(&mut chunk).await?;
        if n == 0 {
            return Ok(None);
        }
        buf.extend_from_slice(&chunk[..n]);
    }
}

/// Where the head ends: the index of its blank line's `\r\n\r\n`.
fn head_end(buf: &[u8]) -> Option<usize> {
    buf.windows(4).position(|w| w == b"\r\n\r\n")
}

/// Parse the bytes received so far: `None` until they hold a whole head (up to a blank
/// line), and for a request line without a method and a target. No socket, so it can be
/// tested and fuzzed on its own; `read_head_bytes` calls it once the blank line is in.
pub fn parse_head(buf: &[u8]) -> Option<Head> {
    let end = head_end(buf)?;
    let text = String::from_utf8_lossy(&buf[..end]);
    let mut lines = text.split("\r\n");
    let mut request = lines.next().unwrap_or_default().split_whitespace();
    let (Some(method), Some(target)) = (request.next(), request.next()) else {
        return None;
    };
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    Some(Head {
        method: method.to_owned(),
        path: path.to_owned(),
        query: query.to_owned(),
        headers,
        rest: buf[end + 4..].to_vec(),
    })
}

/// The refusal as a plain HTTP answer: its status, and its text as one line.
async fn answer(conn: &mut TcpStream, refusal: Error) -> std::io::Result<()> {
    let status = refusal.status();
    let challenge = match &refusal {
        _ if status == StatusCode::UNAUTHORIZED => {
            format!("WWW-Authenticate: {}\r\n", ingest::BASIC_CHALLENGE)
        }
        Error::RateLimited { retry_after } => format!("Retry-After: {retry_after}\r\n"),
        _ => String::new(),
    };
    let body = format!("{}\n", ingest::refusal_text(&refusal));
    let response = format!(
        "HTTP/1.1 {} {}\r\n{challenge}Content-Type: text/plain\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        status.as_u16(),
        status.canonical_reason().unwrap_or("Error"),
        body.len()
    );
    conn.write_all(response.as_bytes()).await
}

async fn handle(app: AppState, mut conn: TcpStream) -> std::io::Result<()> {
    let Some(head) = read_head(&mut conn, app.config.request_head_timeout).await? else {
        return answer(&mut conn, Error::bad_request(Msg::IngestMalformed)).await;
    };
    if head.method == "GET" && head.path == metadata::PATH {
        let authorization = head.headers.get("authorization").map(String::as_str);
        let answer = metadata::answer(&app, &head.query, authorization).await;
        return conn.write_all(answer.http().as_bytes()).await;
    }
    if head.method != "PUT" && head.method != "SOURCE" {
        return answer(
            &mut conn,
            Error::MethodNotAllowed(Msg::IngestUseSourceOrPut.into()),
        )
        .await;
    }
    let Some(event_id) = head.path.strip_prefix("/live/").filter(|id| !id.is_empty()) else {
        return answer(&mut conn, Error::not_found(Msg::IngestUseLivePath)).await;
    };
    if head
        .headers
        .get("transfer-encoding")
        .is_some_and(|v| v.contains("chunked"))
    {
        return answer(&mut conn, Error::bad_request(Msg::IngestChunkedToHttpPort)).await;
    }
    let publisher = match ingest::admit(
        &app,
        event_id,
        ingest::Credential::StreamKey(
            head.headers
                .get("authorization")
                .and_then(|v| ingest::basic_password(v))
                .as_deref(),
        ),
        head.headers.get("content-type").map(String::as_str),
    )
    .await
    {
        Ok(publisher) => publisher,
        Err(refusal) => return answer(&mut conn, refusal).await,
    };
    let expects_continue = head
        .headers
        .get("expect")
        .is_some_and(|v| v.eq_ignore_ascii_case("100-continue"));
    if expects_continue {
        conn.write_all(b"HTTP/1.1 100 Continue\r\n\r\n").await?;
    } else {
        // Icecast's answer to SOURCE (and to PUT without Expect): go ahead.
        conn.write_all(b"HTTP/1.0 200 OK\r\n\r\n").await?;
    }
    let (reader, mut writer) = conn.into_split();
    let first =
        futures_util::stream::iter([Ok::<_, std::io::Error>(bytes::Bytes::from(head.rest))]);
    let stream = futures_util::StreamExt::chain(first, ReaderStream::new(reader));
    let _ = ingest::pump(&app, publisher, Box::pin(stream)).await;
    if expects_continue {
        let _ = writer
            .write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            .await;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_head_is_parsed_once_its_blank_line_is_in() {
        let bytes = b"PUT /live/abc?x=1 HTTP/1.1\r\nExpect : 100-continue\r\nContent-Type: audio/aac\r\n\r\n\xFF\xF1";
        assert_eq!(
            parse_head(&bytes[..bytes.len() - 3]),
            None,
            "no blank line yet"
        );
        let head = parse_head(bytes).unwrap();
        assert_eq!(
            (head.method.as_str(), head.path.as_str()),
            ("PUT", "/live/abc")
        );
        assert_eq!(head.query, "x=1");
        assert_eq!(head.headers["expect"], "100-continue");
        assert_eq!(head.headers["content-type"], "audio/aac");
        assert_eq!(head.rest, b"\xFF\xF1");
        assert_eq!(parse_head(b"PUT\r\n\r\n"), None, "no target");
    }
}
