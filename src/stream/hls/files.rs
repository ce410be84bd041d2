//! The signed HLS files, `/stream/{token}/{file}`: the playlist (with blocking reload and
//! delta updates), the init segment, segments and parts. Every listener asks for every
//! part, so this is the hot path: `app::serve` answers it before the router and its
//! middleware; it parses its own path and query, checks the token in memory (no
//! database) and answers shared bytes.

use std::time::Duration;

use axum::body::Body;
use axum::http::{HeaderValue, Method, StatusCode, Uri, header};
use axum::response::Response;
use bytes::Bytes;

use crate::db::now_ms;
use crate::state::AppState;
use crate::stream::access::Denied;
use crate::stream::hls::segmenter::MediaFile;
use crate::stream::show::hub::Show;

/// `/stream/{token}/{file}`: exactly two segments after `/stream/`.
pub fn is_stream_path(path: &str) -> bool {
    split(path).is_some()
}

/// The token and the file name of a stream path, each non-empty and without a `/`.
pub fn split(path: &str) -> Option<(&str, &str)> {
    let (token, file) = path.strip_prefix("/stream/")?.split_once('/')?;
    (!token.is_empty() && !file.is_empty() && !file.contains('/')).then_some((token, file))
}

/// The LL-HLS query parameters of a playlist request.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct HlsQuery {
    pub msn: Option<u64>,
    pub part: Option<u32>,
    pub skip: bool,
}

impl HlsQuery {
    /// `_HLS_msn`, `_HLS_part` and `_HLS_skip` (`YES` or `v2`); anything else is ignored.
    pub fn parse(query: &str) -> Self {
        let mut q = Self::default();
        for pair in query.split('&') {
            match pair.split_once('=') {
                Some(("_HLS_msn", v)) => q.msn = v.parse().ok(),
                Some(("_HLS_part", v)) => q.part = v.parse().ok(),
                Some(("_HLS_skip", v)) => q.skip = v == "YES" || v == "v2",
                _ => {}
            }
        }
        q
    }
}

/// What a file name under `/stream/{token}/` may be.
enum Asset {
    Playlist,
    Media(MediaFile),
}

fn asset(name: &str) -> Option<Asset> {
    if name == "index.m3u8" {
        return Some(Asset::Playlist);
    }
    MediaFile::parse(name).map(Asset::Media)
}

fn respond(
    status: StatusCode,
    headers: &[(header::HeaderName, &'static str)],
    body: Bytes,
) -> Response {
    let mut response = Response::new(Body::from(body));
    *response.status_mut() = status;
    let map = response.headers_mut();
    for (name, value) in headers {
        map.insert(name, HeaderValue::from_static(value));
    }
    // The API's middleware adds this to everything else.
    map.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    response
}

fn empty(status: StatusCode) -> Response {
    respond(status, &[], Bytes::new())
}

/// No body at all for anyone without a valid, current session; a header tells the
/// player which message to show (the caller held the token, so it learns nothing new).
fn forbidden(denied: Denied) -> Response {
    let reason = match denied {
        Denied::Invalid => "invalid",
        Denied::Expired => "expired",
        Denied::Superseded => "superseded",
    };
    let mut response = empty(StatusCode::FORBIDDEN);
    response
        .headers_mut()
        .insert("encore-denied", HeaderValue::from_static(reason));
    response
}

/// A listener's HLS playlist (LL-HLS), for the holder of a listening session's URL.
///
/// The token in the path is the session (`POST /api/v1/stream/{event_id}/session`
/// answers the whole URL); no `Authorization` header is read. Answers are not in the
/// envelope: the playlist, media bytes, or an empty body. Blocking reload: with
/// `_HLS_msn` (and `_HLS_part`) the answer waits until that segment (or part) exists, for
/// up to three target durations. `HEAD` is answered like `GET`.
#[utoipa::path(get, path = "/stream/{token}/index.m3u8", tag = "stream",
    params(
        ("token" = String, Path, description = "The listening session's signed token"),
        ("_HLS_msn" = Option<u64>, Query, description = "Wait for this media sequence number"),
        ("_HLS_part" = Option<u32>, Query, description = "With `_HLS_msn`: wait for this part of it"),
        ("_HLS_skip" = Option<String>, Query, description = "`YES` or `v2`: a delta update, older segments skipped")),
    responses(
        (status = 200, description = "The playlist.", content_type = "application/vnd.apple.mpegurl"),
        (status = 403, description = "No valid session: the `Encore-Denied` header says why (`invalid`, `expired`, `superseded` by a newer session); no body.",
            headers(("Encore-Denied" = String, description = "`invalid`, `expired` or `superseded`"))),
        (status = 404, description = "The artist has not started yet (players retry); no body."),
        (status = 503, description = "A blocking reload's segment did not arrive in time; no body.")))]
#[allow(dead_code)] // a description only: `serve` answers it before the router
fn playlist_path() {}

/// A piece of a listener's stream: the init segment (`init.mp4`), a segment
/// (`seg{n}.m4s`) or a part of one (`seg{n}.{p}.m4s`), fMP4 AAC audio.
///
/// A part the playlist hints at is answered as soon as it exists (blocking preload).
/// Cached privately for a day: a piece never changes.
#[utoipa::path(get, path = "/stream/{token}/{file}", tag = "stream",
    params(
        ("token" = String, Path, description = "The listening session's signed token"),
        ("file" = String, Path, description = "`init.mp4`, `seg{n}.m4s` or `seg{n}.{p}.m4s` (numbers without leading zeros)")),
    responses(
        (status = 200, description = "The audio.", content_type = "audio/mp4"),
        (status = 403, description = "No valid session: the `Encore-Denied` header says why; no body.",
            headers(("Encore-Denied" = String, description = "`invalid`, `expired` or `superseded`"))),
        (status = 404, description = "No such file (yet); no body.")))]
#[allow(dead_code)] // a description only: `serve` answers it before the router
fn media_path() {}

/// Answer a request for `/stream/{token}/{file}`. Tokens and file names are plain
/// ASCII, so the raw path needs no percent-decoding.
pub async fn serve(app: &AppState, method: &Method, uri: &Uri) -> Response {
    if method != Method::GET && method != Method::HEAD {
        let mut response = empty(StatusCode::METHOD_NOT_ALLOWED);
        response
            .headers_mut()
            .insert(header::ALLOW, HeaderValue::from_static("GET, HEAD"));
        return response;
    }
    let Some((token, file)) = split(uri.path()) else {
        return empty(StatusCode::NOT_FOUND);
    };
    let grant = match app.stream_access.verify(token, now_ms()) {
        Ok(grant) => grant,
        Err(denied) => return forbidden(denied),
    };
    let Some(asset) = asset(file) else {
        return empty(StatusCode::NOT_FOUND);
    };
    let show = app.hub.show(&grant.event_id);
    // An authorised request is a listener (one per ticket): "listeners now".
    show.heard(&grant.ticket_id);
    match asset {
        Asset::Playlist => {
            // Once per show and instance: afterwards the markers are in memory.
            crate::stream::markers::ensure_loaded(app, &show).await;
            playlist(&show, HlsQuery::parse(uri.query().unwrap_or(""))).await
        }
        Asset::Media(file) => {
            if let Some(bytes) = show.cached(file) {
                return media_response(bytes);
            }
            // A hinted part is answered as soon as it exists (blocking preload).
            if let MediaFile::Part(msn, part) = file {
                show.wait_for(msn, Some(part), blocking_timeout(&show))
                    .await;
            }
            match show.media(file).await {
                Some(bytes) => media_response(bytes),
                None => empty(StatusCode::NOT_FOUND),
            }
        }
    }
}

/// How long a blocking request may wait: three target durations.
fn blocking_timeout(show: &Show) -> Duration {
    Duration::from_secs(3 * show.target_duration().max(1))
}

async fn playlist(show: &Show, q: HlsQuery) -> Response {
    if let Some(msn) = q.msn
        && !show.wait_for(msn, q.part, blocking_timeout(show)).await
    {
        return empty(StatusCode::SERVICE_UNAVAILABLE);
    }
    match show.playlist(q.skip) {
        Some(text) => respond(
            StatusCode::OK,
            &[
                (header::CONTENT_TYPE, "application/vnd.apple.mpegurl"),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            text,
        ),
        // The artist has not started yet: players retry until the stream appears.
        None => empty(StatusCode::NOT_FOUND),
    }
}

fn media_response(bytes: Bytes) -> Response {
    respond(
        StatusCode::OK,
        &[
            (header::CONTENT_TYPE, "audio/mp4"),
            (header::CACHE_CONTROL, "private, max-age=86400"),
        ],
        bytes,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ll_hls_query_is_read_and_anything_else_ignored() {
        assert_eq!(
            HlsQuery::parse("_HLS_msn=12&_HLS_part=3&_HLS_skip=YES"),
            HlsQuery {
                msn: Some(12),
                part: Some(3),
                skip: true
            }
        );
        assert!(HlsQuery::parse("_HLS_skip=v2&x=1").skip);
        assert_eq!(HlsQuery::parse(""), HlsQuery::default());
        assert_eq!(
            HlsQuery::parse("_HLS_msn=-1&_HLS_part=x"),
            HlsQuery::default()
        );
    }

    #[test]
    fn a_media_file_with_leading_zeros_is_not_a_second_name() {
        // Found by the playlist_query fuzz target (fuzz/): the same segment answered under
        // an unbounded number of names, each a separate cache entry upstream.
        let found = b"/sed/seg00000000000000000000000000000000000000000000001153421277.m4s";
        let name = std::str::from_utf8(&found[5..]).unwrap();
        assert_eq!(MediaFile::parse(name), None);
        assert_eq!(MediaFile::parse("seg0.0.m4s"), Some(MediaFile::Part(0, 0)));
    }

    #[test]
    fn stream_paths_have_a_token_and_a_file_name() {
        assert_eq!(
            split("/stream/abc.def/seg1.m4s"),
            Some(("abc.def", "seg1.m4s"))
        );
        for other in [
            "/stream/abc",
            "/stream//seg1.m4s",
            "/stream/abc/",
            "/stream/a/b/c",
            "/streams/a/b",
            "/api/v1/stream/a/b",
        ] {
            assert!(!is_stream_path(other), "{other}");
        }
    }

    #[test]
    fn media_file_names_have_one_spelling() {
        assert!(matches!(asset("index.m3u8"), Some(Asset::Playlist)));
        assert_eq!(MediaFile::parse("init.mp4"), Some(MediaFile::Init));
        assert_eq!(MediaFile::parse("seg7.m4s"), Some(MediaFile::Segment(7)));
        assert_eq!(MediaFile::parse("seg7.2.m4s"), Some(MediaFile::Part(7, 2)));
        for odd in [
            "seg+7.m4s",
            "seg7.+2.m4s",
            "seg.m4s",
            "seg7..m4s",
            "seg7.2.3.m4s",
            "x.mp4",
            "seg07.m4s",
            "seg7.00.m4s",
        ] {
            assert_eq!(MediaFile::parse(odd), None, "{odd}");
        }
        for file in [
            MediaFile::Init,
            MediaFile::Segment(3),
            MediaFile::Part(3, 1),
        ] {
            assert_eq!(MediaFile::parse(&file.file_name()), Some(file));
        }
    }
}
