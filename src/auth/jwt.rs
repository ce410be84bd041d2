//! Access tokens: short-lived JWTs signed with the server secret. The keys are held by the
//! application state; the sessions that hand tokens out are in `tokens`.

use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use serde::{Deserialize, Serialize};

use crate::accounts::model::{AccountRow, Role};
use crate::config::Secret;
use crate::db::now_ms;
use crate::error::{Error, Result};

pub const ACCESS_TTL_SECS: i64 = 900;
const ISSUER: &str = "encore";
const AUDIENCE: &str = "encore-api";

#[derive(Debug, Serialize, Deserialize)]
pub struct AccessClaims {
    pub sub: String,
    /// Session id: lets logout, reuse detection and disabling end the token early.
    pub sid: String,
    pub role: Role,
    pub cid: String,
    pub iat: i64,
    pub exp: i64,
    pub iss: String,
    pub aud: String,
}

pub struct TokenKeys {
    encoding: EncodingKey,
    decoding: DecodingKey,
    validation: Validation,
}

impl TokenKeys {
    pub fn new(secret: &Secret) -> Self {
        let mut validation = Validation::new(Algorithm::HS256);
        validation.set_issuer(&[ISSUER]);
        validation.set_audience(&[AUDIENCE]);
        validation.leeway = 5;
        Self {
            encoding: EncodingKey::from_secret(secret.expose().as_bytes()),
            decoding: DecodingKey::from_secret(secret.expose().as_bytes()),
            validation,
        }
    }

    pub fn sign(&self, account: &AccountRow, session_id: &str, client_id: &str) -> Result<String> {
        let now = now_ms() / 1000;
        let claims = AccessClaims {
            sub: account.id.clone(),
            sid: session_id.to_owned(),
            role: account.role,
            cid: client_id.to_owned(),
            iat: now,
            exp: now + ACCESS_TTL_SECS,
            iss: ISSUER.to_owned(),
            aud: AUDIENCE.to_owned(),
        };
        jsonwebtoken::encode(&Header::new(Algorithm::HS256), &claims, &self.encoding)
            .map_err(Error::internal)
    }

    pub fn verify(&self, token: &str) -> Option<AccessClaims> {
        jsonwebtoken::decode::<AccessClaims>(token, &self.decoding, &self.validation)
            .ok()
            .map(|data| data.claims)
    }
}
