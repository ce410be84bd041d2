//! Concert images: checked, decoded under limits and re-encoded by [`crate::images`],
//! stored with a JPEG thumbnail. A published concert's image is public; a draft's is
//! served only on a short-lived signed URL, which its managers get in the concert JSON
//! (an `<img>` cannot send a bearer token).

use std::path::{Path, PathBuf};

use super::model::{EventRow, EventStatus};
use crate::config::Config;
use crate::error::Result;

pub const MAX_BYTES: usize = 5 * 1024 * 1024;
/// A signed URL lives 10 to 15 minutes: its expiry is rounded up to the next 5 minutes
/// and then 10 more, so the URL (and the browser's cached copy) is stable for a while.
const SIGNED_STEP_MS: i64 = 5 * 60_000;
const SIGNED_MIN_MS: i64 = 10 * 60_000;

pub fn dir(data_dir: &Path, event_id: &str) -> PathBuf {
    crate::images::folder(data_dir, "events", event_id)
}

/// Validate and re-encode, then write the image and a thumbnail; answers the media type.
pub async fn store(data_dir: &Path, event_id: &str, bytes: Vec<u8>) -> Result<&'static str> {
    crate::images::store_with_thumbnail(dir(data_dir, event_id), bytes).await
}

/// Whether anyone may fetch the concert's image: every state but a draft, like the
/// concert itself.
pub fn is_public(row: &EventRow) -> bool {
    row.status != EventStatus::Draft
}

/// The image's URL for everyone; `None` without an image or for a draft.
pub fn public_url(row: &EventRow) -> Option<String> {
    let version = row.image_version.filter(|_| is_public(row))?;
    Some(format!("/api/v1/events/{}/image?v={version}", row.id))
}

/// The image's URL for someone who may see the concert, even a draft: public when it can
/// be, else signed (HMAC with the server key over the event, the image version and an
/// expiry). Append `&size=thumb` for the thumbnail.
pub fn signed_url(config: &Config, row: &EventRow, now: i64) -> Option<String> {
    if is_public(row) {
        return public_url(row);
    }
    let version = row.image_version?;
    let expires = now - now.rem_euclid(SIGNED_STEP_MS) + SIGNED_STEP_MS + SIGNED_MIN_MS;
    let sig = mac(config, &row.id, version, expires);
    Some(format!(
        "/api/v1/events/{}/image?v={version}&exp={expires}&sig={sig}",
        row.id
    ))
}

fn mac(config: &Config, event_id: &str, version: i64, expires: i64) -> String {
    use base64::Engine;
    use hmac::{Hmac, Mac};
    let mut mac = Hmac::<sha2::Sha256>::new_from_slice(config.jwt_secret.expose().as_bytes())
        .expect("HMAC takes a key of any length");
    mac.update(format!("encore draft-image v1\n{event_id}\n{version}\n{expires}").as_bytes());
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(mac.finalize().into_bytes())
}

/// The parts of a signed URL, as a request brings them (strings: a mangled number is a
/// bad signature, 404, not a bad request).
#[derive(Debug, Default, serde::Deserialize)]
pub struct Signature {
    pub v: Option<String>,
    pub exp: Option<String>,
    pub sig: Option<String>,
}

/// Whether the request may have this concert's image: a public concert, or a signature
/// that is unexpired and made for this event and its current image.
pub fn admits(config: &Config, row: &EventRow, given: &Signature, now: i64) -> bool {
    if is_public(row) {
        return true;
    }
    let number = |value: &Option<String>| value.as_deref().and_then(|v| v.parse::<i64>().ok());
    let (Some(version), Some(expires), Some(sig)) =
        (number(&given.v), number(&given.exp), given.sig.as_deref())
    else {
        return false;
    };
    row.image_version == Some(version)
        && now < expires
        && crate::crypto::constant_time_eq(&mac(config, &row.id, version, expires), sig)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config() -> Config {
        Config::for_tests(&["--jwt-secret", "image-secret-image-secret-image-secret"])
    }

    fn draft() -> EventRow {
        EventRow {
            image_type: Some("image/png".into()),
            image_version: Some(7),
            ..EventRow::sample(EventStatus::Draft)
        }
    }

    fn signature(url: &str) -> Signature {
        let query = url.split_once('?').unwrap().1;
        let get = |key: &str| {
            query
                .split('&')
                .find_map(|pair| pair.strip_prefix(&format!("{key}=")))
                .map(str::to_owned)
        };
        Signature {
            v: get("v"),
            exp: get("exp"),
            sig: get("sig"),
        }
    }

    #[test]
    fn a_signed_draft_image_url_admits_its_event_and_image_until_it_expires() {
        let config = config();
        let row = draft();
        let now = 1_000_000_000;
        assert_eq!(public_url(&row), None);
        let url = signed_url(&config, &row, now).unwrap();
        let given = signature(&url);
        assert!(admits(&config, &row, &given, now));
        let expires: i64 = given.exp.as_deref().unwrap().parse().unwrap();
        assert!((now + SIGNED_MIN_MS..=now + SIGNED_MIN_MS + SIGNED_STEP_MS).contains(&expires));
        assert!(!admits(&config, &row, &given, expires), "expired");
        let replaced = EventRow {
            image_version: Some(8),
            ..draft()
        };
        assert!(
            !admits(&config, &replaced, &given, now),
            "a new upload voids it"
        );
        let other = EventRow {
            id: "e2".into(),
            ..draft()
        };
        assert!(!admits(&config, &other, &given, now));
        let longer = Signature {
            exp: Some((expires + 1).to_string()),
            ..signature(&url)
        };
        assert!(!admits(&config, &row, &longer, now), "the expiry is signed");
        assert!(!admits(&config, &row, &Signature::default(), now));
        let published = EventRow {
            status: EventStatus::Published,
            ..draft()
        };
        assert!(admits(&config, &published, &Signature::default(), now));
        assert_eq!(
            signed_url(&config, &published, now).unwrap(),
            "/api/v1/events/e1/image?v=7"
        );
    }
}
