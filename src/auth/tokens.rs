//! Access tokens (short-lived JWTs) and sessions with rotating refresh tokens.
//!
//! A session is one signed-in device: every refresh token it ever had belongs to it (the
//! "family"). Refresh tokens are opaque, stored hashed, and spent on use; presenting a
//! spent one means it was copied, so the whole session is revoked.

use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use serde::{Deserialize, Serialize};

use super::session_cache::SessionCache;
use crate::accounts::model::AccountRow;
use crate::config::Secret;
use crate::crypto::{random_token, token_hash};
use crate::db::{Db, now_ms};
use crate::error::{Error, Result};
use crate::i18n::Msg;

pub const ACCESS_TTL_SECS: i64 = 900;
pub const REFRESH_TTL_MS: i64 = 30 * 24 * 3600 * 1000;
const ISSUER: &str = "encore";
const AUDIENCE: &str = "encore-api";

#[derive(Debug, Serialize, Deserialize)]
pub struct AccessClaims {
    pub sub: String,
    /// Session id: lets logout, reuse detection and disabling end the token early.
    pub sid: String,
    pub role: String,
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
            role: account.role.as_str().to_owned(),
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

/// What a successful sign-in or refresh answers (`status: "OK"`).
#[derive(Debug, Serialize)]
pub struct TokenSet {
    pub status: &'static str,
    pub access_token: String,
    /// Left out for a cookie client: the token endpoint moves it into the cookie.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refresh_token: Option<String>,
    pub token_type: &'static str,
    pub expires_in: i64,
    pub scope: String,
}

/// Start a session for the account and answer its first tokens. `second_factor`: the
/// sign-in passed the SMS second factor (remembered: enrolling a phone on an account
/// with the second factor on takes such a session).
pub async fn start_session(
    db: &Db,
    keys: &TokenKeys,
    account: &AccountRow,
    client_id: &str,
    scope: &str,
    second_factor: bool,
) -> Result<(String, TokenSet)> {
    let session_id = uuid::Uuid::new_v4().to_string();
    let now = now_ms();
    let refresh = random_token(32);
    let mut tx = db.begin().await?;
    sqlx::query(
        "INSERT INTO sessions (id, account_id, client_id, created_at, last_seen_at, \
         second_factor_at) VALUES ($1, $2, $3, $4, $4, $5)",
    )
    .bind(&session_id)
    .bind(&account.id)
    .bind(client_id)
    .bind(now)
    .bind(second_factor.then_some(now))
    .execute(&mut *tx)
    .await?;
    insert_refresh(&mut tx, &session_id, &refresh, now).await?;
    tx.commit().await?;
    let tokens = TokenSet {
        status: "OK",
        access_token: keys.sign(account, &session_id, client_id)?,
        refresh_token: Some(refresh),
        token_type: "Bearer",
        expires_in: ACCESS_TTL_SECS,
        scope: scope.to_owned(),
    };
    Ok((session_id, tokens))
}

async fn insert_refresh(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    session_id: &str,
    refresh: &str,
    now: i64,
) -> Result<()> {
    sqlx::query(
        "INSERT INTO refresh_tokens (token_hash, session_id, expires_at, created_at) \
         VALUES ($1, $2, $3, $4)",
    )
    .bind(token_hash(refresh))
    .bind(session_id)
    .bind(now + REFRESH_TTL_MS)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// The session a refresh token belongs to.
#[derive(sqlx::FromRow)]
struct RefreshOwner {
    session_id: String,
    revoked_at: Option<i64>,
    client_id: String,
    account_id: String,
}

/// Spend a refresh token and answer the next pair. A spent token presented again
/// revokes its whole session.
pub async fn rotate(
    db: &Db,
    keys: &TokenKeys,
    cache: &SessionCache,
    refresh: &str,
    client_id: &str,
) -> Result<TokenSet> {
    let hash = token_hash(refresh);
    let now = now_ms();
    // Write first: the conditional update is the single point where two racing uses of
    // one token are told apart (and on SQLite it takes the write lock up front).
    let mut tx = db.begin().await?;
    let spent = sqlx::query(
        "UPDATE refresh_tokens SET used_at = $2 \
         WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2",
    )
    .bind(&hash)
    .bind(now)
    .execute(&mut *tx)
    .await?
    .rows_affected();

    let found = sqlx::query_as::<_, RefreshOwner>(
        "SELECT s.id AS session_id, s.revoked_at, s.client_id, s.account_id \
         FROM refresh_tokens r JOIN sessions s ON s.id = r.session_id WHERE r.token_hash = $1",
    )
    .bind(&hash)
    .fetch_optional(&mut *tx)
    .await?;
    let Some(RefreshOwner {
        session_id,
        revoked_at,
        client_id: session_client,
        account_id,
    }) = found
    else {
        return Err(Error::bad_request(Msg::InvalidRefresh));
    };

    if spent == 0 {
        // Either expired or already spent. A spent token coming back means two holders:
        // end the session for both.
        let reused = sqlx::query_as::<_, (i64,)>(
            "SELECT COUNT(*) FROM refresh_tokens WHERE token_hash = $1 AND used_at IS NOT NULL",
        )
        .bind(&hash)
        .fetch_one(&mut *tx)
        .await?
        .0 > 0;
        if reused && revoked_at.is_none() {
            revoke_session_in(&mut tx, &session_id, "refresh token reuse").await?;
            tx.commit().await?;
            cache.forget_session(&session_id);
            tracing::warn!(session = %session_id, "refresh token reuse detected; session revoked");
            return Err(Error::bad_request(Msg::RefreshReused));
        }
        return Err(Error::bad_request(Msg::InvalidRefresh));
    }
    if revoked_at.is_some() || session_client != client_id {
        return Err(Error::bad_request(Msg::InvalidRefresh));
    }
    let account = crate::accounts::store::by_id(db, &account_id)
        .await?
        .filter(AccountRow::enabled)
        .ok_or_else(|| Error::bad_request(Msg::InvalidRefresh))?;

    let next = random_token(32);
    insert_refresh(&mut tx, &session_id, &next, now).await?;
    sqlx::query("UPDATE sessions SET last_seen_at = $2 WHERE id = $1")
        .bind(&session_id)
        .bind(now)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(TokenSet {
        status: "OK",
        access_token: keys.sign(&account, &session_id, client_id)?,
        refresh_token: Some(next),
        token_type: "Bearer",
        expires_in: ACCESS_TTL_SECS,
        scope: "openid profile email".to_owned(),
    })
}

/// The session a refresh token belongs to (spent or not): logout by cookie.
pub async fn session_of_refresh(db: &Db, refresh: &str) -> Result<Option<String>> {
    let found = sqlx::query_as::<_, (String,)>(
        "SELECT session_id FROM refresh_tokens WHERE token_hash = $1",
    )
    .bind(token_hash(refresh))
    .fetch_optional(db)
    .await?;
    Ok(found.map(|(id,)| id))
}

async fn revoke_session_in(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    session_id: &str,
    reason: &str,
) -> Result<()> {
    sqlx::query(
        "UPDATE sessions SET revoked_at = $2, revoked_reason = $3 WHERE id = $1 AND revoked_at IS NULL",
    )
    .bind(session_id)
    .bind(now_ms())
    .bind(reason)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

pub async fn revoke_session(
    db: &Db,
    cache: &SessionCache,
    session_id: &str,
    reason: &str,
) -> Result<()> {
    let mut tx = db.begin().await?;
    revoke_session_in(&mut tx, session_id, reason).await?;
    tx.commit().await?;
    cache.forget_session(session_id);
    Ok(())
}

/// Whether the session passed the SMS second factor when it signed in.
#[tracing::instrument(skip_all)]
pub async fn passed_second_factor(db: &Db, session_id: &str) -> Result<bool> {
    let row: Option<(Option<i64>,)> =
        sqlx::query_as("SELECT second_factor_at FROM sessions WHERE id = $1")
            .bind(session_id)
            .fetch_optional(db)
            .await?;
    Ok(matches!(row, Some((Some(_),))))
}

/// End every session of an account (password reset, disabling).
pub async fn revoke_all_sessions(
    db: &Db,
    cache: &SessionCache,
    account_id: &str,
    reason: &str,
) -> Result<()> {
    sqlx::query(
        "UPDATE sessions SET revoked_at = $2, revoked_reason = $3 \
         WHERE account_id = $1 AND revoked_at IS NULL",
    )
    .bind(account_id)
    .bind(now_ms())
    .bind(reason)
    .execute(db)
    .await?;
    cache.forget_account(account_id);
    Ok(())
}

/// End every session of an account except the one making the change.
pub async fn revoke_other_sessions(
    db: &Db,
    cache: &SessionCache,
    account_id: &str,
    keep: &str,
    reason: &str,
) -> Result<()> {
    sqlx::query(
        "UPDATE sessions SET revoked_at = $3, revoked_reason = $4 \
         WHERE account_id = $1 AND id <> $2 AND revoked_at IS NULL",
    )
    .bind(account_id)
    .bind(keep)
    .bind(now_ms())
    .bind(reason)
    .execute(db)
    .await?;
    cache.forget_account(account_id);
    Ok(())
}
