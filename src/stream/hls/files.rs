//! The signed HLS files, `/stream/{token}/{file}`: the multivariant playlist
//! (`master.m3u8`, one entry per rendition of the show's ladder), each rendition's media
//! playlist (with blocking reload and delta updates), init segment, segments and parts
//! under `/stream/{token}/{rendition}/`, and the standard rendition's also right under
//! the token (today's URLs). Every listener asks for every part, so this is the hot
//! path: `app::serve` answers it before the router and its middleware; it parses its own
//! path and query, checks the token in memory (no database) and answers shared bytes.

use std::time::Duration;

use axum::body::Body;
use axum::http::{HeaderValue, Method, StatusCode, Uri, header};
use axum::response::Response;
use bytes::Bytes;

use crate::db::now_ms;
use crate::state::AppState;
use crate::stream::access::Denied;
use crate::stream::codecs::ladder::Rendition;
use crate::stream::hls::multivariant;
use crate::stream::hls::renditions::{LOSSLESS_DIR, Lane};
use crate::stream::hls::track::MediaFile;
use crate::stream::show::hub::Show;

/// `/stream/{token}/{file}` or `/stream/{token}/{rendition}/{file}`.
pub fn is_stream_path(path: &str) -> bool {
    split(path).is_some()
}

/// The token and the file's path under it (a file name, or a rendition's name and a file
/// name), each part non-empty.
pub fn split(path: &str) -> Option<(&str, &str)> {
    let (token, file) = path.strip_prefix("/stream/")?.split_once('/')?;
    let parts_ok = match file.split_once('/') {
        Some((folder, name)) => !folder.is_empty() && !name.is_empty() && !name.contains('/'),
        None => !file.is_empty(),
    };
    (!token.is_empty() && parts_ok).then_some((token, file))
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

/// What a file under `/stream/{token}/` may be.
#[derive(Debug, PartialEq, Eq)]
enum Asset {
    /// `master.m3u8`: every rendition.
    Multivariant,
    /// `index.m3u8` (the standard rendition's) or `{rendition}/index.m3u8`.
    Playlist(Lane),
    Media(Lane, MediaFile),
}

fn asset(path: &str) -> Option<Asset> {
    let (rendition, name) = match path.split_once('/') {
        Some((folder, name)) => (Lane::named(folder)?, name),
        None if path == MULTIVARIANT => return Some(Asset::Multivariant),
        None => (Lane::Aac(Rendition::Standard), path),
    };
    if name == "index.m3u8" {
        return Some(Asset::Playlist(rendition));
    }
    MediaFile::parse(name).map(|file| Asset::Media(rendition, file))
}

/// The multivariant playlist's file name.
pub const MULTIVARIANT: &str = "master.m3u8";

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

/// A signed file's path names its session: the token `POST /api/v1/stream/{event_id}/session`
/// answers inside `playlistUrl`.
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Path)]
#[allow(dead_code)] // a description only: `split` reads the token
struct SessionToken {
    /// The listening session's signed token
    token: String,
}

/// The LL-HLS query of a media playlist, as [`HlsQuery::parse`] reads it.
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code)] // a description only: `HlsQuery::parse` reads the query
struct BlockingReload {
    /// Wait for this media sequence number
    #[param(rename = "_HLS_msn")]
    msn: Option<u64>,
    /// With `_HLS_msn`: wait for this part of it
    #[param(rename = "_HLS_part")]
    part: Option<u32>,
    /// `YES` or `v2`: a delta update, older segments skipped
    #[param(rename = "_HLS_skip")]
    skip: Option<String>,
}

/// How every signed file is refused (see [`forbidden`]).
#[derive(utoipa::IntoResponses)]
#[response(status = 403, description = "No valid session: the `Encore-Denied` header says why (`invalid`, `expired`, `superseded` by a newer session); no body.",
    headers(("Encore-Denied" = String, description = "`invalid`, `expired` or `superseded`")))]
#[allow(dead_code)] // a description only
struct Refused;

/// A blocking reload that waited its three target durations in vain.
#[derive(utoipa::IntoResponses)]
#[response(
    status = 503,
    description = "A blocking reload's segment did not arrive in time; no body."
)]
#[allow(dead_code)] // a description only
struct ReloadTimedOut;

/// A listener's HLS playlist (LL-HLS), for the holder of a listening session's URL.
///
/// The token in the path is the session (`POST /api/v1/stream/{event_id}/session`
/// answers the whole URL); no `Authorization` header is read. Answers are not in the
/// envelope: the playlist, media bytes, or an empty body. Blocking reload: with
/// `_HLS_msn` (and `_HLS_part`) the answer waits until that segment (or part) exists, for
/// up to three target durations. `HEAD` is answered like `GET`.
#[utoipa::path(get, path = "/stream/{token}/index.m3u8", tag = "stream",
    params(SessionToken, BlockingReload),
    responses((status = 200, description = "The playlist.", content_type = "application/vnd.apple.mpegurl"), Refused,
        (status = 404, description = "The artist has not started yet (players retry); no body."), ReloadTimedOut))]
#[allow(dead_code)] // a description only: `serve` answers it before the router
fn playlist_path() {}

/// A piece of a listener's stream: the init segment (`init.mp4`), a segment
/// (`seg{n}.m4s`) or a part of one (`seg{n}.{p}.m4s`), fMP4 AAC audio.
///
/// A part the playlist hints at is answered as soon as it exists (blocking preload).
/// Cached privately for a day: a piece never changes.
#[utoipa::path(get, path = "/stream/{token}/{file}", tag = "stream",
    params(SessionToken,
        ("file" = String, Path, description = "`init.mp4`, `seg{n}.m4s` or `seg{n}.{p}.m4s` (numbers without leading zeros)")),
    responses((status = 200, description = "The audio.", content_type = "audio/mp4"), Refused,
        (status = 404, description = "No such file (yet); no body.")))]
#[allow(dead_code)] // a description only: `serve` answers it before the router
fn media_path() {}

/// A listener's multivariant playlist: every rendition of the show's ladder (issue 32),
/// the standard one first, then the data saver, then the encoder's own AAC where it is
/// above the standard rendition (listed once it has a segment), then the lossless one
/// (`CODECS="fLaC"`) when the encoder sends Ogg FLAC. Each with `BANDWIDTH`
/// (its peak segment bit rate), `AVERAGE-BANDWIDTH` and `CODECS`; each rendition's media
/// playlist is `{rendition}/index.m3u8` beside it, under the same token, so a superseded
/// session loses every rendition at once.
#[utoipa::path(get, path = "/stream/{token}/master.m3u8", tag = "stream",
    params(SessionToken),
    responses((status = 200, description = "The multivariant playlist.", content_type = "application/vnd.apple.mpegurl"), Refused,
        (status = 404, description = "The artist has not started yet (players retry); no body.")))]
#[allow(dead_code)] // a description only: `serve` answers it before the router
fn multivariant_path() {}

/// One rendition's media playlist (`index.m3u8`, with blocking reload and delta updates as
/// the standard one's: the `_HLS_*` query is read for it alone) or piece (`init.mp4`,
/// `seg{n}.m4s`, `seg{n}.{p}.m4s`): `saver` (the data saver), `standard` (the same files
/// as right under the token), `source` (the encoder's own AAC) or `lossless` (FLAC in
/// fMP4, the encoder's own FLAC frames, for a show whose encoder sends Ogg FLAC). Every
/// rendition has the same segment and part numbers and program date times; the lossless
/// one's parts last their frames' real durations, within its own `PART-TARGET`.
#[utoipa::path(get, path = "/stream/{token}/{rendition}/{file}", tag = "stream",
    params(SessionToken,
        ("rendition" = String, Path, description = "`saver`, `standard`, `source` or `lossless`"),
        ("file" = String, Path, description = "`index.m3u8`, `init.mp4`, `seg{n}.m4s` or `seg{n}.{p}.m4s`"),
        BlockingReload),
    responses((status = 200, description = "The playlist (`application/vnd.apple.mpegurl`) or the audio.", content_type = "audio/mp4"), Refused,
        (status = 404, description = "No such rendition or file (yet); no body."), ReloadTimedOut))]
#[allow(dead_code)] // a description only: `serve` answers it before the router
fn rendition_path() {}

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
        Asset::Multivariant => multivariant(&show),
        Asset::Playlist(rendition) => {
            // Once per show and instance: afterwards the markers are in memory.
            crate::stream::markers::ensure_loaded(app, &show).await;
            playlist(&show, rendition, HlsQuery::parse(uri.query().unwrap_or(""))).await
        }
        Asset::Media(rendition, file) => {
            if let Some(bytes) = show.cached(rendition, file) {
                return media_response(bytes);
            }
            // A hinted part is answered as soon as it exists (blocking preload).
            if let MediaFile::Part(msn, part) = file {
                show.wait_for(msn, Some(part), blocking_timeout(&show))
                    .await;
            }
            match show.media(rendition, file).await {
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

/// The multivariant playlist (see [`multivariant_path`]); rendered per request, as a
/// player asks for it once per session.
fn multivariant(show: &Show) -> Response {
    let listed = show.renditions();
    if listed.is_empty() {
        return empty(StatusCode::NOT_FOUND);
    }
    let order = [Rendition::Standard, Rendition::DataSaver, Rendition::Source];
    let variants = (order.into_iter())
        .filter_map(|wanted| listed.iter().find(|l| l.rendition == wanted))
        .filter(|l| l.listed())
        .map(|l| multivariant::Variant {
            uri: format!("{}/index.m3u8", l.rendition.name()),
            bandwidth: l.bandwidth,
            codecs: multivariant::AAC_LC,
        })
        // Last: hls.js starts with the first level its estimate affords, and a lossless
        // stream is for a listener who picks it.
        .chain(show.lossless().map(|bandwidth| multivariant::Variant {
            uri: format!("{LOSSLESS_DIR}/index.m3u8"),
            bandwidth,
            codecs: multivariant::FLAC,
        }))
        .collect();
    respond(
        StatusCode::OK,
        &[
            (header::CONTENT_TYPE, "application/vnd.apple.mpegurl"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        Bytes::from(multivariant::render(variants)),
    )
}

async fn playlist(show: &Show, rendition: Lane, q: HlsQuery) -> Response {
    if let Some(msn) = q.msn
        && !show.wait_for(msn, q.part, blocking_timeout(show)).await
    {
        return empty(StatusCode::SERVICE_UNAVAILABLE);
    }
    match show.playlist(rendition, q.skip) {
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
        assert_eq!(
            split("/stream/abc.def/saver/seg1.m4s"),
            Some(("abc.def", "saver/seg1.m4s")),
            "a rendition's file"
        );
        for other in [
            "/stream/abc",
            "/stream//seg1.m4s",
            "/stream/abc/",
            "/stream/a/b/",
            "/stream/a//c",
            "/stream/a/b/c/d",
            "/streams/a/b",
            "/api/v1/stream/a/b",
        ] {
            assert!(!is_stream_path(other), "{other}");
        }
    }

    #[test]
    fn every_rendition_has_its_files_under_its_name_and_the_standard_one_also_at_the_top() {
        use Rendition::{DataSaver, Source, Standard};
        let (saver, source, standard) =
            (Lane::Aac(DataSaver), Lane::Aac(Source), Lane::Aac(Standard));
        assert_eq!(asset("master.m3u8"), Some(Asset::Multivariant));
        assert_eq!(asset("index.m3u8"), Some(Asset::Playlist(standard)));
        assert_eq!(
            asset("standard/index.m3u8"),
            Some(Asset::Playlist(standard))
        );
        assert_eq!(asset("saver/index.m3u8"), Some(Asset::Playlist(saver)));
        assert_eq!(
            asset("source/seg3.1.m4s"),
            Some(Asset::Media(source, MediaFile::Part(3, 1)))
        );
        assert_eq!(
            asset("seg3.m4s"),
            Some(Asset::Media(standard, MediaFile::Segment(3)))
        );
        assert_eq!(
            asset("lossless/index.m3u8"),
            Some(Asset::Playlist(Lane::Lossless))
        );
        assert_eq!(
            asset("lossless/seg2.3.m4s"),
            Some(Asset::Media(Lane::Lossless, MediaFile::Part(2, 3)))
        );
        assert_eq!(
            asset("lossless/init.mp4"),
            Some(Asset::Media(Lane::Lossless, MediaFile::Init))
        );
        for odd in [
            "lossless/master.m3u8",
            "Lossless/index.m3u8",
            "saver/master.m3u8",
            "saver/x.mp4",
            "Saver/init.mp4",
        ] {
            assert_eq!(asset(odd), None, "{odd}");
        }
    }

    #[test]
    fn media_file_names_have_one_spelling() {
        assert_eq!(
            asset("index.m3u8"),
            Some(Asset::Playlist(Lane::Aac(Rendition::Standard)))
        );
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
