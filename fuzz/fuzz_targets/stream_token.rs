//! Signed stream tokens: arbitrary text never verifies, a token issued for one ticket
//! verifies as exactly that ticket, concert, session and expiry — for every file under
//! its `/stream/{token}/` path and for nothing else — until it expires or is superseded,
//! and no change to it, however small, verifies.
#![no_main]

use encore::fuzzing::{Denied, StreamAccess, split_stream_path};
use libfuzzer_sys::fuzz_target;

/// Ids as the server makes them: URL-safe base64 (a pass key adds `:`), at most 80.
fn id(bytes: &[u8]) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_:";
    let id: String = bytes
        .iter()
        .take(80)
        .map(|b| char::from(ALPHABET[usize::from(*b) % ALPHABET.len()]))
        .collect();
    if id.is_empty() { "x".into() } else { id }
}

fn number(bytes: &[u8]) -> i64 {
    let mut n = [0u8; 8];
    let len = bytes.len().min(8);
    n[..len].copy_from_slice(&bytes[..len]);
    i64::from_le_bytes(n)
}

fuzz_target!(|data: &[u8]| {
    // Fields separated by 0xFF: event, ticket, expiry, now, edit, raw token, file.
    let mut fields = data.split(|&b| b == 0xFF);
    let mut next = || fields.next().unwrap_or_default();
    let (event, ticket) = (id(next()), id(next()));
    let (expires_at, now) = (number(next()), number(next()));
    let edit = next();
    let raw = String::from_utf8_lossy(next()).into_owned();
    let file = String::from_utf8_lossy(next()).replace('/', "");

    let access = StreamAccess::new(b"fuzzing secret");
    let (session, token) = access.open(&event, &ticket, expires_at);
    // Another ticket of another concert, live at the same time.
    let (_, other) = access.open(&format!("{event}-b"), &format!("{ticket}-b"), i64::MAX);

    if raw != token && raw != other {
        assert!(access.verify(&raw, now).is_err(), "forged {raw:?}");
    }
    match access.verify(&token, now) {
        Ok(grant) => {
            assert!(now < expires_at);
            assert_eq!(
                (
                    grant.event_id,
                    grant.ticket_id,
                    grant.session_id,
                    grant.expires_at
                ),
                (event.clone(), ticket.clone(), session.clone(), expires_at)
            );
        }
        Err(denied) => assert!(now >= expires_at && denied == Denied::Expired, "{denied:?}"),
    }
    assert_eq!(
        access.verify(&other, 0).unwrap().ticket_id,
        format!("{ticket}-b")
    );

    // The token rides in the path of every file, and comes back out of it unchanged.
    if !file.is_empty() {
        let path = format!("/stream/{token}/{file}");
        assert_eq!(
            split_stream_path(&path),
            Some((token.as_str(), file.as_str()))
        );
    }

    // Any edit: a byte replaced, inserted or removed.
    if let [at, value, rest @ ..] = edit {
        let mut edited = token.clone().into_bytes();
        let at = usize::from(*at) % (edited.len() + 1);
        match rest.first().map(|k| k % 3) {
            Some(0) if at < edited.len() => edited[at] = *value,
            Some(1) if at < edited.len() => {
                edited.remove(at);
            }
            _ => edited.insert(at, *value),
        }
        let edited = String::from_utf8_lossy(&edited).into_owned();
        if edited != token {
            assert_eq!(
                access.verify(&edited, i64::MIN),
                Err(Denied::Invalid),
                "{edited:?}"
            );
        }
    }

    // A new session for the ticket ends this one; another key never verifies it.
    access.open(&event, &ticket, i64::MAX);
    assert!(access.verify(&token, i64::MIN).is_err());
    assert_eq!(
        StreamAccess::new(b"another secret").verify(&other, 0),
        Err(Denied::Invalid)
    );
});
