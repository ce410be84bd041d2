//! The cookies of the sign-in flow, all set by the server:
//!
//! - `encore_refresh`: the refresh token of a cookie client (the dashboard), `HttpOnly`,
//!   only sent to the OAuth prefix, so script never sees it;
//! - `encore_signed_in`: a non-secret flag (`1`) script may read, telling the dashboard a
//!   refresh cookie is there to use;
//! - `encore_device`: OWASP's device cookie, `HttpOnly`, proving that this browser signed
//!   in to an account before: its attempts are throttled apart from unknown devices.
//!
//! All are `SameSite=Strict`, and `Secure` where browsers keep it
//! ([`Config::secure_cookies`]).

use axum::http::{HeaderMap, HeaderValue, header};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::{Hmac, Mac};
use sha2::Sha256;

use super::tokens::REFRESH_TTL_MS;
use crate::config::Config;
use crate::crypto::{constant_time_eq, random_token};

pub const REFRESH: &str = "encore_refresh";
pub const SIGNED_IN: &str = "encore_signed_in";
pub const DEVICE: &str = "encore_device";

/// How long a browser stays a known device of an account after its last sign-in there.
const DEVICE_TTL_SECS: i64 = 180 * 24 * 3600;
const DEVICE_VERSION: &str = "d1";

/// The value of cookie `name` in the request, if sent (the first one when repeated).
pub fn read(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(key, _)| *key == name)
        .map(|(_, value)| value.trim().to_owned())
        .filter(|value| !value.is_empty())
}

fn cookie(
    config: &Config,
    name: &str,
    value: &str,
    path: &str,
    max_age: i64,
    http_only: bool,
) -> HeaderValue {
    let mut text = format!("{name}={value}; Path={path}; Max-Age={max_age}; SameSite=Strict");
    if http_only {
        text.push_str("; HttpOnly");
    }
    if config.secure_cookies() {
        text.push_str("; Secure");
    }
    // Only URL-safe token characters go in: always a valid header value.
    HeaderValue::try_from(text).unwrap_or_else(|_| HeaderValue::from_static(""))
}

/// Set the refresh cookie and the flag after a sign-in or a refresh.
pub fn session(config: &Config, refresh_token: &str) -> Vec<HeaderValue> {
    let max_age = REFRESH_TTL_MS / 1000;
    vec![
        cookie(
            config,
            REFRESH,
            refresh_token,
            &config.oauth_prefix,
            max_age,
            true,
        ),
        cookie(config, SIGNED_IN, "1", "/", max_age, false),
    ]
}

/// Clear the refresh cookie and the flag (logout, a refused refresh).
pub fn clear_session(config: &Config) -> Vec<HeaderValue> {
    vec![
        cookie(config, REFRESH, "", &config.oauth_prefix, 0, true),
        cookie(config, SIGNED_IN, "", "/", 0, false),
    ]
}

fn device_mac(config: &Config, login: &str, nonce: &str) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(config.jwt_secret.expose().as_bytes())
        .expect("any key length");
    mac.update(b"encore device cookie\n");
    mac.update(DEVICE_VERSION.as_bytes());
    mac.update(b"\n");
    mac.update(login.as_bytes());
    mac.update(b"\n");
    mac.update(nonce.as_bytes());
    URL_SAFE_NO_PAD.encode(mac.finalize().into_bytes())
}

/// A new device cookie for `login` (signed with the server's key, bound to the account's
/// login; the login itself is not in it).
pub fn device(config: &Config, login: &str) -> HeaderValue {
    let nonce = random_token(16);
    let value = format!(
        "{DEVICE_VERSION}.{nonce}.{}",
        device_mac(config, login, &nonce)
    );
    cookie(
        config,
        DEVICE,
        &value,
        &config.oauth_prefix,
        DEVICE_TTL_SECS,
        true,
    )
}

/// The nonce of the request's device cookie when it is a valid one for `login`.
pub fn known_device(config: &Config, headers: &HeaderMap, login: &str) -> Option<String> {
    let value = read(headers, DEVICE)?;
    let mut parts = value.split('.');
    let (Some(version), Some(nonce), Some(mac), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return None;
    };
    (version == DEVICE_VERSION
        && !login.is_empty()
        && constant_time_eq(mac, &device_mac(config, login, nonce)))
    .then(|| nonce.to_owned())
}
