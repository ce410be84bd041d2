//! Sessions with rotating refresh tokens, each answering access tokens (`jwt`).
//!
//! A session is one signed-in device: every refresh token it ever had belongs to it (the
//! "family"). Refresh tokens are opaque, stored hashed, and spent on use; presenting a
//! spent one means it was copied, so the whole session is revoked (a retry within
//! seconds, before the answer it lost was used, excepted).

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

/// How long a spent refresh token may be presented again when its answer was lost (a
/// reload or a dropped connection cut the request off after the server rotated it), as
/// Cognito's retry grace period and Airlock's allow. Kept short: within it, a copied
/// token is not caught until the other holder refreshes.
pub const REFRESH_RETRY_GRACE_MS: i64 = 10_000;

/// Whether a spent refresh token presented again retries a refresh whose answer was lost:
/// it was spent by a refresh of its own (not superseded) a moment ago, and nothing the
/// session received since was used. Then the pair answered the first time is superseded
/// and a new one answered, so one live token remains; anything else is reuse.
pub fn retries_a_lost_answer(spent: &store::SpentRefresh, now: i64) -> bool {
    spent.superseded_at.is_none()
        && spent.spent_since == 0
        && now - spent.used_at <= REFRESH_RETRY_GRACE_MS
}

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
/// revokes its whole session, except a retry of a refresh whose answer was lost
/// ([`retries_a_lost_answer`]).
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
        // Either expired or already spent. A spent token coming back means two holders
        // (end the session for both), unless its answer was lost on the way.
        match store::spent_refresh(&mut *tx, refresh).await? {
            Some(spent) if revoked_at.is_none() && retries_a_lost_answer(&spent, now) => {
                store::supersede_refresh_since(&mut *tx, &session_id, spent.used_at, now).await?;
                tracing::info!(session = %session_id, "refresh answered again after a lost answer");
            }
            Some(_) if revoked_at.is_none() => {
                let ended =
                    store::end_session(&mut *tx, &session_id, "refresh token reuse").await?;
                tx.commit().await?;
                app.publish(ended);
                tracing::warn!(session = %session_id, "refresh token reuse detected; session revoked");
                return Err(Error::bad_request(Msg::RefreshReused));
            }
            _ => return Err(Error::bad_request(Msg::InvalidRefresh)),
        }
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
