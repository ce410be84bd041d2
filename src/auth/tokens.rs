//! Sessions with rotating refresh tokens, each answering access tokens (`jwt`).
//!
//! A session is one signed-in device: every refresh token it ever had belongs to it (the
//! "family"). Refresh tokens are opaque, stored hashed, and spent on use; presenting a
//! spent one means it was copied, so the whole session is revoked.

use serde::Serialize;

use super::jwt::{ACCESS_TTL_SECS, TokenKeys};
use super::store::{self, RefreshOwner};
use crate::accounts::model::AccountRow;
use crate::crypto::random_token;
use crate::db::{Db, now_ms};
use crate::error::{Error, Result};
use crate::i18n::Msg;
use crate::state::AppState;

pub const REFRESH_TTL_MS: i64 = 30 * 24 * 3600 * 1000;

/// What a successful sign-in or refresh answers (`status: "OK"`).
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct TokenSet {
    /// `OK`.
    #[schema(schema_with = status_ok)]
    pub status: &'static str,
    pub access_token: String,
    /// Left out for a cookie client: the token endpoint moves it into the cookie.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refresh_token: Option<String>,
    pub token_type: &'static str,
    pub expires_in: i64,
    pub scope: String,
}

fn status_ok() -> utoipa::openapi::Object {
    crate::openapi::one_of(&["OK"])
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
    store::insert_session(
        &mut *tx,
        &session_id,
        &account.id,
        client_id,
        second_factor,
        now,
    )
    .await?;
    store::insert_refresh(&mut *tx, &session_id, &refresh, now + REFRESH_TTL_MS, now).await?;
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

/// Spend a refresh token and answer the next pair. A spent token presented again
/// revokes its whole session.
pub async fn rotate(app: &AppState, refresh: &str, client_id: &str) -> Result<TokenSet> {
    let now = now_ms();
    // Write first: the conditional update is the single point where two racing uses of
    // one token are told apart (and on SQLite it takes the write lock up front).
    let mut tx = app.db.begin().await?;
    let spent = store::spend_refresh(&mut *tx, refresh, now).await?;
    let Some(RefreshOwner {
        session_id,
        revoked_at,
        client_id: session_client,
        account_id,
    }) = store::refresh_owner(&mut *tx, refresh).await?
    else {
        return Err(Error::bad_request(Msg::InvalidRefresh));
    };

    if !spent {
        // Either expired or already spent. A spent token coming back means two holders:
        // end the session for both.
        if store::refresh_was_spent(&mut *tx, refresh).await? && revoked_at.is_none() {
            let ended = store::end_session(&mut *tx, &session_id, "refresh token reuse").await?;
            tx.commit().await?;
            app.publish(ended);
            tracing::warn!(session = %session_id, "refresh token reuse detected; session revoked");
            return Err(Error::bad_request(Msg::RefreshReused));
        }
        return Err(Error::bad_request(Msg::InvalidRefresh));
    }
    if revoked_at.is_some() || session_client != client_id {
        return Err(Error::bad_request(Msg::InvalidRefresh));
    }
    let account = crate::accounts::store::by_id(&app.db, &account_id)
        .await?
        .filter(AccountRow::enabled)
        .ok_or_else(|| Error::bad_request(Msg::InvalidRefresh))?;

    let next = random_token(32);
    store::insert_refresh(&mut *tx, &session_id, &next, now + REFRESH_TTL_MS, now).await?;
    store::touch_session(&mut *tx, &session_id, now).await?;
    tx.commit().await?;
    Ok(TokenSet {
        status: "OK",
        access_token: app.keys.sign(&account, &session_id, client_id)?,
        refresh_token: Some(next),
        token_type: "Bearer",
        expires_in: ACCESS_TTL_SECS,
        scope: "openid profile email".to_owned(),
    })
}
