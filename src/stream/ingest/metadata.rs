//! Icecast's metadata call, `GET /admin/metadata?mode=updinfo&mount=/live/<concert>&song=…`,
//! on the source port and on the HTTP port, answered as Icecast 2.4 answers it (its
//! `admin.c`): the song becomes a marker of the show (see `markers`).
//!
//! What Icecast does, and so what we do: credentials are asked for before the mount is
//! looked at (none is a 401 whatever the mount; a key is then checked against the
//! concert's, as a mount of ours has its own key); a mount with no source on it is
//! `400 Source does not exist`; a missing `mode` is `400 Missing parameter`; a `mode`
//! other than `updinfo` is a 200 `<iceresponse>` with `No such action` and `return` 0;
//! success is a 200 `<iceresponse>` with `Metadata update successful` and `return` 1.
//! Where Icecast has nothing to say (it keeps every title, and per-concert keys do not
//! exist there) we chose, as docs/api-contract.md says: no usable title is
//! `400 Missing parameter`; a second title within a second is refused with
//! `429 Too Many Requests` and `Retry-After: 1`, not queued; a show at its 500 markers is
//! a 400 saying so.

use axum::http::StatusCode;

use crate::error::Error;
use crate::events::store as events_store;
use crate::i18n::Msg;
use crate::state::AppState;
use crate::stream::ingest;
use crate::stream::markers::{self, EncoderTitle, MarkerError};

/// The path of the call, on both ports.
pub const PATH: &str = "/admin/metadata";

/// Icecast's answer to a 401 asks for Basic credentials.
pub const CHALLENGE: &str = ingest::BASIC_CHALLENGE;

/// What the call is answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// 200, `<iceresponse>` with a message and `return` 1 (done) or 0 (not done).
    Response { message: &'static str, done: bool },
    /// An Icecast error page with its status.
    Refused { status: StatusCode, message: String },
}

impl Answer {
    fn refused(status: StatusCode, message: impl Into<String>) -> Self {
        Self::Refused {
            status,
            message: message.into(),
        }
    }

    pub fn status(&self) -> StatusCode {
        match self {
            Self::Response { .. } => StatusCode::OK,
            Self::Refused { status, .. } => *status,
        }
    }

    pub fn content_type(&self) -> &'static str {
        match self {
            Self::Response { .. } => "text/xml",
            Self::Refused { .. } => "text/html; charset=utf-8",
        }
    }

    /// Extra headers: the Basic challenge on a 401, `Retry-After` on a 429.
    pub fn headers(&self) -> Vec<(&'static str, &'static str)> {
        match self.status() {
            StatusCode::UNAUTHORIZED => vec![("WWW-Authenticate", CHALLENGE)],
            StatusCode::TOO_MANY_REQUESTS => vec![("Retry-After", "1")],
            _ => Vec::new(),
        }
    }

    pub fn body(&self) -> String {
        match self {
            Self::Response { message, done } => format!(
                "<?xml version=\"1.0\"?>\n<iceresponse><message>{message}</message><return>{}</return></iceresponse>\n",
                u8::from(*done)
            ),
            Self::Refused { status, message } => {
                let code = status.as_u16();
                format!(
                    "<html><head><title>Error {code}</title></head><body><b>{code} - {}</b></body></html>\r\n",
                    html_escape(message)
                )
            }
        }
    }

    /// The whole answer as raw HTTP/1.0, as Icecast writes it (the source port).
    pub fn http(&self) -> String {
        let status = self.status();
        let body = self.body();
        let mut head = format!(
            "HTTP/1.0 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\n",
            status.as_u16(),
            status.canonical_reason().unwrap_or("Error"),
            self.content_type(),
            body.len()
        );
        for (name, value) in self.headers() {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
        format!("{head}Connection: close\r\n\r\n{body}")
    }
}

fn html_escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The call's query, decoded.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Call {
    pub mode: Option<String>,
    pub mount: Option<String>,
    pub title: EncoderTitle,
}

/// `%XX` and `+` decoded to bytes (a bad escape is kept as it is).
fn unescape(value: &str) -> Vec<u8> {
    let bytes = value.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                match std::str::from_utf8(&bytes[i + 1..i + 3])
                    .ok()
                    .and_then(|h| u8::from_str_radix(h, 16).ok())
                {
                    Some(b) => {
                        out.push(b);
                        i += 2;
                    }
                    None => out.push(b'%'),
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    out
}

/// Bytes as text in the call's `charset`: Latin-1 when it says so; otherwise UTF-8, and
/// Latin-1 for bytes that are not UTF-8 (what Icecast assumes of an MP3 mount's titles
/// when no charset is given).
fn decode(bytes: &[u8], charset: Option<&str>) -> String {
    let latin1 = |b: &[u8]| b.iter().map(|&c| char::from(c)).collect::<String>();
    let named_latin1 = charset.is_some_and(|c| {
        matches!(
            c.to_ascii_lowercase().as_str(),
            "iso-8859-1" | "iso8859-1" | "latin1" | "latin-1" | "l1"
        )
    });
    if named_latin1 {
        return latin1(bytes);
    }
    match std::str::from_utf8(bytes) {
        Ok(text) => text.to_owned(),
        Err(_) => latin1(bytes),
    }
}

impl Call {
    pub fn parse(query: &str) -> Self {
        let mut raw: Vec<(String, Vec<u8>)> = Vec::new();
        for pair in query.split('&').filter(|p| !p.is_empty()) {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            raw.push((
                String::from_utf8_lossy(&unescape(name)).into_owned(),
                unescape(value),
            ));
        }
        // A repeated name keeps its last value, as Icecast's parser does.
        let get = |name: &str| raw.iter().rev().find(|(n, _)| n == name).map(|(_, v)| v);
        let charset = get("charset").map(|c| String::from_utf8_lossy(c).into_owned());
        let text = |name: &str| get(name).map(|v| decode(v, charset.as_deref()));
        Self {
            mode: text("mode"),
            mount: text("mount"),
            title: EncoderTitle {
                song: text("song"),
                title: text("title"),
                artist: text("artist"),
            },
        }
    }
}

/// Answer a metadata call: its query and its `Authorization` header.
pub async fn answer(app: &AppState, query: &str, authorization: Option<&str>) -> Answer {
    let call = Call::parse(query);
    let wrong_key = || {
        Answer::refused(
            StatusCode::UNAUTHORIZED,
            Msg::IngestWrongKey.render(crate::i18n::current()),
        )
    };
    // Icecast asks for credentials before it looks at the mount.
    let Some(key) = authorization.and_then(ingest::basic_password) else {
        return wrong_key();
    };
    let no_source = || Answer::refused(StatusCode::BAD_REQUEST, "Source does not exist");
    let missing = || Answer::refused(StatusCode::BAD_REQUEST, "Missing parameter");
    let Some(mount) = call.mount.as_deref() else {
        return missing();
    };
    let Some(event_id) = mount
        .strip_prefix("/live/")
        .filter(|id| !id.is_empty() && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'))
    else {
        return no_source();
    };
    // No such concert is answered as a wrong key: without the key nobody learns whether
    // an id is a concert, a draft or nothing.
    let event = match events_store::by_id(&app.db, event_id).await {
        Ok(Some(event)) => event,
        Ok(None) => return wrong_key(),
        Err(err) => return server_error(err),
    };
    if !event.stream_key_matches(&key) {
        return wrong_key();
    }
    let Some(mode) = call.mode.as_deref() else {
        return missing();
    };
    if mode != "updinfo" {
        return Answer::Response {
            message: "No such action",
            done: false,
        };
    }
    let Some((title, artist)) = call.title.resolve() else {
        return missing();
    };
    match markers::from_encoder(app, &event.id, title, artist).await {
        Ok(_) => Answer::Response {
            message: "Metadata update successful",
            done: true,
        },
        Err(MarkerError::NotLive) => no_source(),
        Err(MarkerError::Other(err)) => server_error(err),
        Err(refusal) => {
            let refusal = Error::from(refusal);
            let status = match refusal.status() {
                StatusCode::TOO_MANY_REQUESTS => StatusCode::TOO_MANY_REQUESTS,
                _ => StatusCode::BAD_REQUEST,
            };
            Answer::refused(status, refusal.public_message())
        }
    }
}

fn server_error(err: impl Into<Error>) -> Answer {
    let err = err.into();
    tracing::error!(error = %err, "metadata call failed");
    Answer::refused(StatusCode::INTERNAL_SERVER_ERROR, err.public_message())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_query_is_decoded_in_its_charset_and_a_repeated_name_keeps_its_last_value() {
        let call = Call::parse(
            "mode=updinfo&mount=%2Flive%2Fabc&song=Caf%C3%A9+%22Live%22&song=Caf%C3%A9%20%22Live%22",
        );
        assert_eq!(call.mode.as_deref(), Some("updinfo"));
        assert_eq!(call.mount.as_deref(), Some("/live/abc"));
        assert_eq!(call.title.song.as_deref(), Some("Café \"Live\""));
        let latin = Call::parse("charset=ISO-8859-1&song=Caf%E9");
        assert_eq!(latin.title.song.as_deref(), Some("Café"));
        let unnamed = Call::parse("song=Caf%E9");
        assert_eq!(
            unnamed.title.song.as_deref(),
            Some("Café"),
            "not UTF-8: Latin-1"
        );
        let odd = Call::parse("song=100%25%2&title=%zz");
        assert_eq!(odd.title.song.as_deref(), Some("100%%2"));
        assert_eq!(odd.title.title.as_deref(), Some("%zz"));
    }

    #[test]
    fn answers_are_icecasts() {
        let ok = Answer::Response {
            message: "Metadata update successful",
            done: true,
        };
        assert_eq!(
            ok.body(),
            "<?xml version=\"1.0\"?>\n<iceresponse><message>Metadata update successful</message><return>1</return></iceresponse>\n"
        );
        let http = Answer::refused(StatusCode::BAD_REQUEST, "Source does not exist").http();
        assert!(http.starts_with("HTTP/1.0 400 Bad Request\r\n"), "{http}");
        assert!(http.ends_with("<b>400 - Source does not exist</b></body></html>\r\n"));
        let wrong = Answer::refused(StatusCode::UNAUTHORIZED, "<Wrong>").http();
        assert!(wrong.contains("WWW-Authenticate: Basic realm=\"Encore\"\r\n"));
        assert!(wrong.contains("&lt;Wrong&gt;"));
    }
}
