//! The request line of `/stream/{token}/{file}?query`: the path splits into exactly a
//! token and a file name that rebuild it, a media file has exactly one name, and the
//! LL-HLS query (`_HLS_msn`, `_HLS_part`, `_HLS_skip`) ignores everything else.
#![no_main]

use encore::fuzzing::{HlsQuery, MediaFile, split_stream_path};
use libfuzzer_sys::fuzz_target;

fn render(q: &HlsQuery) -> String {
    let mut out = String::from("a=b");
    if let Some(msn) = q.msn {
        out += &format!("&_HLS_msn={msn}");
    }
    if let Some(part) = q.part {
        out += &format!("&_HLS_part={part}");
    }
    if q.skip {
        out += "&_HLS_skip=YES";
    }
    out
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (path, query) = text.split_once('?').unwrap_or((text, ""));

    if let Some((token, file)) = split_stream_path(path) {
        assert!(!token.is_empty() && !file.is_empty());
        assert!(!token.contains('/') && !file.contains('/'));
        assert_eq!(format!("/stream/{token}/{file}"), path);
    }
    let name = path.rsplit('/').next().unwrap_or(path);
    if let Some(file) = MediaFile::parse(name) {
        assert_eq!(file.file_name(), name, "one name per media file");
    }

    let q = HlsQuery::parse(query);
    assert_eq!(HlsQuery::parse(&render(&q)), q, "{query:?}");
    // Unknown and empty parameters change nothing.
    assert_eq!(HlsQuery::parse(&format!("x=1&&{query}&")), q);
    if q.msn.is_some() {
        assert!(query.contains("_HLS_msn="));
    }
    if q.part.is_some() {
        assert!(query.contains("_HLS_part="));
    }
    if q.skip {
        assert!(query.contains("_HLS_skip=YES") || query.contains("_HLS_skip=v2"));
    }
});
