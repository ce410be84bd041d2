//! Registered OAuth clients and how they authenticate.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;

use super::model::Client;
use super::store;
use crate::crypto::{constant_time_eq, token_hash};
use crate::db::Db;
use crate::error::{Error, Result};
use crate::i18n::Msg;

/// The dashboard: a public client (no secret).
pub const WEB_CLIENT_ID: &str = "encore-web";

/// Register (or re-point at the current public URL) the built-in web client.
pub async fn seed_web_client(db: &Db, redirect_uri: &str) -> Result<()> {
    store::upsert_web_client(db, WEB_CLIENT_ID, redirect_uri).await
}

/// Register a confidential client; its secret is stored hashed.
pub async fn register_confidential(
    db: &Db,
    id: &str,
    name: &str,
    secret: &str,
    redirect_uris: &[&str],
) -> Result<()> {
    store::insert_client(db, id, name, &token_hash(secret), &redirect_uris.join("\n")).await
}

/// `Authorization: Basic base64(client_id:secret)`.
#[derive(Debug)]
pub struct BasicCredentials {
    pub client_id: String,
    pub secret: String,
}

/// Parse a Basic header; `Ok(None)` when absent, an error when present but malformed.
pub fn parse_basic(header: Option<&str>) -> Result<Option<BasicCredentials>> {
    let Some(value) = header else { return Ok(None) };
    let encoded = value
        .strip_prefix("Basic ")
        .or_else(|| value.strip_prefix("basic "))
        .ok_or_else(|| Error::unauthorized(Msg::BadClient))?;
    let decoded = STANDARD
        .decode(encoded.trim())
        .ok()
        .and_then(|bytes| String::from_utf8(bytes).ok())
        .ok_or_else(|| Error::unauthorized(Msg::BadClient))?;
    let (client_id, secret) = decoded
        .split_once(':')
        .ok_or_else(|| Error::unauthorized(Msg::BadClient))?;
    Ok(Some(BasicCredentials {
        client_id: client_id.to_owned(),
        secret: secret.to_owned(),
    }))
}

/// Authenticate the client of a request: it must exist; a confidential client must
/// present its secret (Basic header or `client_secret`); a public client must not claim
/// one; a Basic header must name the same client as the body.
pub async fn authenticate(
    db: &Db,
    client_id: &str,
    basic: Option<&BasicCredentials>,
    body_secret: Option<&str>,
) -> Result<Client> {
    if let Some(basic) = basic
        && basic.client_id != client_id
    {
        return Err(Error::unauthorized(Msg::BadClient));
    }
    let client = store::client_by_id(db, client_id)
        .await?
        .ok_or_else(|| Error::unauthorized(Msg::UnknownClient))?;
    let presented = basic
        .map(|b| b.secret.as_str())
        .or(body_secret)
        .filter(|s| !s.is_empty());
    match (&client.secret_hash, presented) {
        (None, None) => Ok(client),
        (Some(stored), Some(secret)) if constant_time_eq(stored, &token_hash(secret)) => Ok(client),
        _ => Err(Error::unauthorized(Msg::BadClient)),
    }
}
