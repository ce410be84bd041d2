//! The Icecast source port's request head from arbitrary bytes: nothing before a blank
//! line is a head; a head's path has no query, its method and path no whitespace, its
//! header names are trimmed and lower-case, and what follows the blank line is handed on
//! untouched — the same head whatever audio bytes come after it.
#![no_main]

use encore::fuzzing::parse_head;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let end = data.windows(4).position(|w| w == b"\r\n\r\n");
    let Some(head) = parse_head(data) else {
        return;
    };
    let end = end.expect("a head only once its blank line is in");
    // A target of only a query (`PUT ?x`) leaves an empty path, which no route matches.
    assert!(!head.method.is_empty());
    assert!(!head.path.contains('?'), "{:?}", head.path);
    for word in [&head.method, &head.path] {
        assert!(!word.contains(char::is_whitespace), "{word:?}");
    }
    for (name, value) in &head.headers {
        assert_eq!(name, &name.to_ascii_lowercase());
        assert_eq!(name.trim(), name);
        assert!(!name.contains(':') && !name.contains("\r\n"), "{name:?}");
        assert_eq!(value.trim(), value);
        assert!(!value.contains("\r\n"), "{value:?}");
    }
    assert_eq!(head.rest, &data[end + 4..]);
    // Only the bytes up to the blank line make the head.
    let shorter = parse_head(&data[..end + 4]).expect("the same head without audio");
    assert_eq!(
        (shorter.method, shorter.path, shorter.headers),
        (head.method, head.path, head.headers)
    );
    assert!(shorter.rest.is_empty());
});
