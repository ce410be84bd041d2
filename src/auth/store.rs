//! Persistence of sign-in: OAuth clients, sessions and their refresh tokens, and the
//! flow's short-lived secrets (authorization codes, second-factor challenges, QR
//! sign-ins). Every secret is stored as a SHA-256 hash and spent with a conditional
//! UPDATE, so a replay or a race spends it once.

use super::model::Client;
use crate::accounts::model::{AccountChanged, AccountRow};
use crate::accounts::store::{OTP_MAX_TRIES, OTP_TTL_MS, otp_hash};
use crate::crypto::{random_token, token_hash};
use crate::db::{Db, flag, now_ms};
use crate::error::Result;

// ------------------------------------------------------------------------------ clients

/// Register (or re-point at `redirect_uri`) the built-in public client `id`.
#[tracing::instrument(skip_all)]
pub async fn upsert_web_client(db: &Db, id: &str, redirect_uri: &str) -> Result<()> {
    sqlx::query(
        "INSERT INTO oauth_clients (id, name, secret_hash, redirect_uris, created_at, \
         refresh_in_cookie) VALUES ($1, 'Encore web', NULL, $2, $3, 1) \
         ON CONFLICT (id) DO UPDATE SET redirect_uris = excluded.redirect_uris, \
         refresh_in_cookie = 1",
    )
    .bind(id)
    .bind(redirect_uri)
    .bind(now_ms())
    .execute(db)
    .await?;
    Ok(())
}

/// Register a confidential client by the hash of its secret.
#[tracing::instrument(skip_all)]
pub async fn insert_client(
    db: &Db,
    id: &str,
    name: &str,
    secret_hash: &str,
    redirect_uris: &str,
) -> Result<()> {
    sqlx::query(
        "INSERT INTO oauth_clients (id, name, secret_hash, redirect_uris, created_at) \
         VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(id)
    .bind(name)
    .bind(secret_hash)
    .bind(redirect_uris)
    .bind(now_ms())
    .execute(db)
    .await?;
    Ok(())
}

#[tracing::instrument(skip_all)]
pub async fn client_by_id(db: &Db, id: &str) -> Result<Option<Client>> {
    Ok(sqlx::query_as::<_, Client>(
        "SELECT id, name, secret_hash, redirect_uris, refresh_in_cookie FROM oauth_clients \
         WHERE id = $1",
    )
    .bind(id)
    .fetch_optional(db)
    .await?)
}

#[tracing::instrument(skip_all)]
pub async fn client_name(db: &Db, id: &str) -> Result<String> {
    let (name,): (String,) = sqlx::query_as("SELECT name FROM oauth_clients WHERE id = $1")
        .bind(id)
        .fetch_one(db)
        .await?;
    Ok(name)
}

// ----------------------------------------------------------------------------- sessions

#[tracing::instrument(skip_all)]
pub async fn insert_session<'e>(
    db: impl sqlx::Executor<'e, Database = sqlx::Any>,
    id: &str,
    account_id: &str,
    client_id: &str,
    second_factor: bool,
    now: i64,
) -> Result<()> {
    sqlx::query(
        "INSERT INTO sessions (id, account_id, client_id, created_at, last_seen_at, \
         second_factor_at) VALUES ($1, $2, $3, $4, $4, $5)",
    )
    .bind(id)
    .bind(account_id)
    .bind(client_id)
    .bind(now)
    .bind(second_factor.then_some(now))
    .execute(db)
    .await?;
    Ok(())
}

#[tracing::instrument(skip_all)]
pub async fn touch_session<'e>(
    db: impl sqlx::Executor<'e, Database = sqlx::Any>,
    id: &str,
    now: i64,
) -> Result<()> {
    sqlx::query("UPDATE sessions SET last_seen_at = $2 WHERE id = $1")
        .bind(id)
        .bind(now)
        .execute(db)
        .await?;
    Ok(())
}

/// End one session (logout, a replayed code, a reused refresh token).
#[tracing::instrument(skip_all)]
pub async fn end_session<'e>(
    db: impl sqlx::Executor<'e, Database = sqlx::Any>,
    id: &str,
    reason: &str,
) -> Result<AccountChanged> {
    sqlx::query(
        "UPDATE sessions SET revoked_at = $2, revoked_reason = $3 WHERE id = $1 AND revoked_at IS NULL",
    )
    .bind(id)
    .bind(now_ms())
    .bind(reason)
    .execute(db)
    .await?;
    Ok(AccountChanged::Session(id.to_owned()))
}

/// A session's account, whether the session is revoked and whether it passed the second
/// factor.
pub struct SessionAccount {
    pub account: AccountRow,
    pub revoked_at: Option<i64>,
    pub second_factor_at: Option<i64>,
}
crate::db::from_row!(SessionAccount { ..account, revoked_at, second_factor_at });

/// The session `id` of account `account_id`, with the account: one indexed join.
#[tracing::instrument(skip_all)]
pub async fn session_account(
    db: &Db,
    id: &str,
    account_id: &str,
) -> Result<Option<SessionAccount>> {
    Ok(sqlx::query_as::<_, SessionAccount>(
        "SELECT a.id, a.login, a.first_name, a.last_name, a.role, a.enabled, a.use_mfa, \
         a.phone, a.password_hash, a.notes, a.avatar_type, a.avatar_version, a.tenant_key, \
         a.created_at, a.language, a.email_verified_at, a.time_zone, a.theme, a.stream_quality, s.revoked_at, s.second_factor_at \
         FROM sessions s JOIN accounts a ON a.id = s.account_id \
         WHERE s.id = $1 AND a.id = $2",
    )
    .bind(id)
    .bind(account_id)
    .fetch_optional(db)
    .await?)
}

#[tracing::instrument(skip_all)]
pub async fn insert_refresh<'e>(
    db: impl sqlx::Executor<'e, Database = sqlx::Any>,
    session_id: &str,
    refresh: &str,
    expires_at: i64,
    now: i64,
) -> Result<()> {
    sqlx::query(
        "INSERT INTO refresh_tokens (token_hash, session_id, expires_at, created_at) \
         VALUES ($1, $2, $3, $4)",
    )
    .bind(token_hash(refresh))
    .bind(session_id)
    .bind(expires_at)
    .bind(now)
    .execute(db)
    .await?;
    Ok(())
}

/// Spend a live refresh token; false when it is unknown, spent or expired.
#[tracing::instrument(skip_all)]
pub async fn spend_refresh<'e>(
    db: impl sqlx::Executor<'e, Database = sqlx::Any>,
    refresh: &str,
    now: i64,
) -> Result<bool> {
    let spent = sqlx::query(
        "UPDATE refresh_tokens SET used_at = $2 \
         WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2",
    )
    .bind(token_hash(refresh))
    .bind(now)
    .execute(db)
    .await?
    .rows_affected();
    Ok(spent == 1)
}

crate::db::row! {
    /// The session a refresh token belongs to.
    pub struct RefreshOwner {
        pub session_id: String,
        pub revoked_at: Option<i64>,
        pub client_id: String,
        pub account_id: String,
    }
}

#[tracing::instrument(skip_all)]
pub async fn refresh_owner<'e>(
    db: impl sqlx::Executor<'e, Database = sqlx::Any>,
    refresh: &str,
) -> Result<Option<RefreshOwner>> {
    Ok(sqlx::query_as::<_, RefreshOwner>(
        "SELECT s.id AS session_id, s.revoked_at, s.client_id, s.account_id \
         FROM refresh_tokens r JOIN sessions s ON s.id = r.session_id WHERE r.token_hash = $1",
    )
    .bind(token_hash(refresh))
    .fetch_optional(db)
    .await?)
}

crate::db::row! {
    /// A refresh token presented after it was spent.
    pub struct SpentRefresh {
        /// When it was spent (rotated, or superseded by a retry).
        pub used_at: i64,
        /// When a retry of the token before it superseded it (it was not spent by a refresh).
        pub superseded_at: Option<i64>,
        /// How many tokens the session received since were spent by a refresh (it moved on).
        pub spent_since: i64,
    }
}

/// A spent refresh token's story; `None` when it is unknown or still unspent.
#[tracing::instrument(skip_all)]
pub async fn spent_refresh<'e>(
    db: impl sqlx::Executor<'e, Database = sqlx::Any>,
    refresh: &str,
) -> Result<Option<SpentRefresh>> {
    Ok(sqlx::query_as::<_, SpentRefresh>(
        "SELECT r.used_at, r.superseded_at, \
           (SELECT COUNT(*) FROM refresh_tokens n \
             WHERE n.session_id = r.session_id AND n.token_hash <> r.token_hash \
               AND n.created_at >= r.used_at AND n.used_at IS NOT NULL \
               AND n.superseded_at IS NULL) AS spent_since \
         FROM refresh_tokens r WHERE r.token_hash = $1 AND r.used_at IS NOT NULL",
    )
    .bind(token_hash(refresh))
    .fetch_optional(db)
    .await?)
}

/// Supersede the unspent tokens a session received since `since` (the pair answered to a
/// refresh whose answer was lost): spent now, and marked so that they are not retried.
#[tracing::instrument(skip_all)]
pub async fn supersede_refresh_since<'e>(
    db: impl sqlx::Executor<'e, Database = sqlx::Any>,
    session_id: &str,
    since: i64,
    now: i64,
) -> Result<()> {
    sqlx::query(
        "UPDATE refresh_tokens SET used_at = $3, superseded_at = $3 \
         WHERE session_id = $1 AND created_at >= $2 AND used_at IS NULL",
    )
    .bind(session_id)
    .bind(since)
    .bind(now)
    .execute(db)
    .await?;
    Ok(())
}

/// The session a refresh token belongs to (spent or not): logout by cookie.
#[tracing::instrument(skip_all)]
pub async fn session_of_refresh(db: &Db, refresh: &str) -> Result<Option<String>> {
    let found = sqlx::query_as::<_, (String,)>(
        "SELECT session_id FROM refresh_tokens WHERE token_hash = $1",
    )
    .bind(token_hash(refresh))
    .fetch_optional(db)
    .await?;
    Ok(found.map(|(id,)| id))
}

// ------------------------------------------------------------------- sign-in secrets

pub const AUTH_CODE_TTL_MS: i64 = 60_000;
pub const MFA_TOKEN_TTL_MS: i64 = 5 * 60_000;
pub const QR_TTL_MS: i64 = 120_000;

/// What an authorization code is bound to.
pub struct CodeGrant<'a> {
    pub account_id: &'a str,
    pub client_id: &'a str,
    pub redirect_uri: &'a str,
    pub code_challenge: &'a str,
    pub scope: &'a str,
    pub nonce: Option<&'a str>,
    /// Set when the sign-in already passed the second factor (never, today: a QR sign-in
    /// of an account with the second factor on does its own SMS step).
    pub second_factor_done: bool,
}

pub async fn issue_code(db: &Db, grant: CodeGrant<'_>) -> Result<String> {
    let code = random_token(32);
    sqlx::query(
        "INSERT INTO auth_codes (code_hash, account_id, client_id, redirect_uri, code_challenge, \
         scope, nonce, second_factor_done, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
    )
    .bind(token_hash(&code))
    .bind(grant.account_id)
    .bind(grant.client_id)
    .bind(grant.redirect_uri)
    .bind(grant.code_challenge)
    .bind(grant.scope)
    .bind(grant.nonce)
    .bind(flag(grant.second_factor_done))
    .bind(now_ms() + AUTH_CODE_TTL_MS)
    .execute(db)
    .await?;
    Ok(code)
}

crate::db::row! {
    #[derive(Debug)]
    pub struct CodeRow {
        pub account_id: String,
        pub client_id: String,
        pub redirect_uri: String,
        pub code_challenge: String,
        pub scope: String,
        pub nonce: Option<String>,
        pub second_factor_done: i64,
        pub expires_at: i64,
        pub session_id: Option<String>,
    }
}

pub enum SpentCode {
    /// First use: the code's grant.
    Fresh(CodeRow),
    /// Already used: the session it produced, to revoke.
    Replayed(Option<String>),
    Unknown,
}

/// Spend a code (once).
pub async fn spend_code(db: &Db, code: &str) -> Result<SpentCode> {
    let hash = token_hash(code);
    let spent =
        sqlx::query("UPDATE auth_codes SET used_at = $2 WHERE code_hash = $1 AND used_at IS NULL")
            .bind(&hash)
            .bind(now_ms())
            .execute(db)
            .await?
            .rows_affected();
    let row = sqlx::query_as::<_, CodeRow>(
        "SELECT account_id, client_id, redirect_uri, code_challenge, scope, nonce, \
         second_factor_done, expires_at, session_id FROM auth_codes WHERE code_hash = $1",
    )
    .bind(&hash)
    .fetch_optional(db)
    .await?;
    Ok(match (spent, row) {
        (1, Some(row)) => SpentCode::Fresh(row),
        (_, Some(row)) => SpentCode::Replayed(row.session_id),
        (_, None) => SpentCode::Unknown,
    })
}

pub async fn link_code_to_session(db: &Db, code: &str, session_id: &str) -> Result<()> {
    sqlx::query("UPDATE auth_codes SET session_id = $2 WHERE code_hash = $1")
        .bind(token_hash(code))
        .bind(session_id)
        .execute(db)
        .await?;
    Ok(())
}

crate::db::row! {
    #[derive(Debug)]
    pub struct MfaChallenge {
        pub token_hash: String,
        pub account_id: String,
        pub client_id: String,
        pub code_challenge: String,
        pub scope: String,
        pub expires_at: i64,
        pub otp_hash: Option<String>,
        pub otp_expires_at: Option<i64>,
        pub otp_attempts: i64,
        pub pending_phone: Option<String>,
        pub consumed_at: Option<i64>,
    }
}

impl MfaChallenge {
    pub fn is_live(&self, now: i64) -> bool {
        self.consumed_at.is_none() && self.expires_at > now
    }
}

pub async fn create_mfa_challenge(db: &Db, code: &CodeRow) -> Result<String> {
    let token = random_token(32);
    sqlx::query(
        "INSERT INTO mfa_challenges (token_hash, account_id, client_id, code_challenge, scope, \
         nonce, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(token_hash(&token))
    .bind(&code.account_id)
    .bind(&code.client_id)
    .bind(&code.code_challenge)
    .bind(&code.scope)
    .bind(&code.nonce)
    .bind(now_ms() + MFA_TOKEN_TTL_MS)
    .execute(db)
    .await?;
    Ok(token)
}

pub async fn mfa_challenge(db: &Db, token: &str) -> Result<Option<MfaChallenge>> {
    Ok(sqlx::query_as::<_, MfaChallenge>(
        "SELECT token_hash, account_id, client_id, code_challenge, scope, expires_at, otp_hash, \
         otp_expires_at, otp_attempts, pending_phone, consumed_at \
         FROM mfa_challenges WHERE token_hash = $1",
    )
    .bind(token_hash(token))
    .fetch_optional(db)
    .await?)
}

/// Attach a fresh code to a challenge (and, for enrolment, the phone it was sent to).
pub async fn set_challenge_code(
    db: &Db,
    challenge_hash: &str,
    code: &str,
    pending_phone: Option<&str>,
) -> Result<()> {
    sqlx::query(
        "UPDATE mfa_challenges SET otp_hash = $2, otp_expires_at = $3, otp_attempts = 0, \
         pending_phone = $4 WHERE token_hash = $1",
    )
    .bind(challenge_hash)
    .bind(otp_hash(challenge_hash, code))
    .bind(now_ms() + OTP_TTL_MS)
    .bind(pending_phone)
    .execute(db)
    .await?;
    Ok(())
}

/// Count one try; false when the tries are exhausted (or the challenge is spent).
pub async fn take_challenge_try(db: &Db, challenge_hash: &str) -> Result<bool> {
    let taken = sqlx::query(
        "UPDATE mfa_challenges SET otp_attempts = otp_attempts + 1 \
         WHERE token_hash = $1 AND otp_attempts < $2 AND consumed_at IS NULL",
    )
    .bind(challenge_hash)
    .bind(OTP_MAX_TRIES)
    .execute(db)
    .await?
    .rows_affected();
    Ok(taken == 1)
}

pub async fn consume_challenge(db: &Db, challenge_hash: &str) -> Result<bool> {
    let done = sqlx::query(
        "UPDATE mfa_challenges SET consumed_at = $2 WHERE token_hash = $1 AND consumed_at IS NULL",
    )
    .bind(challenge_hash)
    .bind(now_ms())
    .execute(db)
    .await?
    .rows_affected();
    Ok(done == 1)
}

crate::db::row! {
    #[derive(Debug)]
    pub struct QrLogin {
        pub id_hash: String,
        pub client_id: String,
        pub redirect_uri: String,
        pub code_challenge: String,
        pub scope: String,
        pub nonce: Option<String>,
        pub expires_at: i64,
        pub approved_by: Option<String>,
        pub collected_at: Option<i64>,
        pub device: String,
        pub place: String,
        pub match_number: i64,
        pub choices: String,
    }
}

pub struct NewQr<'a> {
    pub client_id: &'a str,
    pub redirect_uri: &'a str,
    pub code_challenge: &'a str,
    pub scope: &'a str,
    pub nonce: Option<&'a str>,
    /// The requesting device's User-Agent (trimmed) and IP address.
    pub device: &'a str,
    pub place: &'a str,
    /// The number the requesting device shows, and the three the approver picks from.
    pub match_number: i64,
    pub choices: &'a str,
}

/// Create a QR sign-in; answers (qr id for the approver, poll token for the device).
pub async fn create_qr(db: &Db, new: NewQr<'_>) -> Result<(String, String)> {
    let (qr_id, poll_token) = (random_token(32), random_token(32));
    let now = now_ms();
    sqlx::query(
        "INSERT INTO qr_logins (id_hash, poll_hash, client_id, redirect_uri, code_challenge, \
         scope, nonce, expires_at, created_at, device, place, match_number, choices) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)",
    )
    .bind(token_hash(&qr_id))
    .bind(token_hash(&poll_token))
    .bind(new.client_id)
    .bind(new.redirect_uri)
    .bind(new.code_challenge)
    .bind(new.scope)
    .bind(new.nonce)
    .bind(now + QR_TTL_MS)
    .bind(now)
    .bind(new.device)
    .bind(new.place)
    .bind(new.match_number)
    .bind(new.choices)
    .execute(db)
    .await?;
    Ok((qr_id, poll_token))
}

const QR_COLUMNS: &str = "id_hash, client_id, redirect_uri, code_challenge, scope, nonce, \
    expires_at, approved_by, collected_at, device, place, match_number, choices";

pub async fn qr_by_id(db: &Db, qr_id: &str) -> Result<Option<QrLogin>> {
    let sql = format!("SELECT {QR_COLUMNS} FROM qr_logins WHERE id_hash = $1");
    Ok(sqlx::query_as::<_, QrLogin>(sqlx::AssertSqlSafe(sql))
        .bind(token_hash(qr_id))
        .fetch_optional(db)
        .await?)
}

pub async fn qr_by_poll_token(db: &Db, poll_token: &str) -> Result<Option<QrLogin>> {
    let sql = format!("SELECT {QR_COLUMNS} FROM qr_logins WHERE poll_hash = $1");
    Ok(sqlx::query_as::<_, QrLogin>(sqlx::AssertSqlSafe(sql))
        .bind(token_hash(poll_token))
        .fetch_optional(db)
        .await?)
}

pub async fn approve_qr(db: &Db, id_hash: &str, account_id: &str) -> Result<bool> {
    let now = now_ms();
    let done = sqlx::query(
        "UPDATE qr_logins SET approved_by = $2, approved_at = $3 \
         WHERE id_hash = $1 AND approved_by IS NULL AND expires_at > $3",
    )
    .bind(id_hash)
    .bind(account_id)
    .bind(now)
    .execute(db)
    .await?
    .rows_affected();
    Ok(done == 1)
}

/// Cancel a QR sign-in that is still waiting (a wrong number was picked).
#[tracing::instrument(skip_all)]
pub async fn burn_qr(db: &Db, id_hash: &str) -> Result<()> {
    sqlx::query("UPDATE qr_logins SET expires_at = 0 WHERE id_hash = $1 AND approved_by IS NULL")
        .bind(id_hash)
        .execute(db)
        .await?;
    Ok(())
}

pub async fn collect_qr(db: &Db, id_hash: &str) -> Result<bool> {
    let done = sqlx::query(
        "UPDATE qr_logins SET collected_at = $2 \
         WHERE id_hash = $1 AND approved_by IS NOT NULL AND collected_at IS NULL",
    )
    .bind(id_hash)
    .bind(now_ms())
    .execute(db)
    .await?
    .rows_affected();
    Ok(done == 1)
}

/// Forget spent and expired secrets (run periodically).
pub async fn purge_expired(db: &Db) -> Result<()> {
    let now = now_ms();
    let day_ago = now - 24 * 3_600_000;
    for sql in [
        "DELETE FROM auth_codes WHERE expires_at < $1",
        "DELETE FROM mfa_challenges WHERE expires_at < $1",
        "DELETE FROM one_time_tokens WHERE expires_at < $1",
        "DELETE FROM qr_logins WHERE expires_at < $1",
        "DELETE FROM phone_verifications WHERE expires_at < $1",
        "DELETE FROM account_links WHERE expires_at < $1",
    ] {
        sqlx::query(sql).bind(day_ago).execute(db).await?;
    }
    sqlx::query("DELETE FROM refresh_tokens WHERE expires_at < $1")
        .bind(now)
        .execute(db)
        .await?;
    Ok(())
}
