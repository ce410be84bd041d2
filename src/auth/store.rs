//! Persistence of the sign-in flow's short-lived secrets: authorization codes, second-
//! factor challenges, reset/invitation links and QR sign-ins. Every secret is stored as a
//! SHA-256 hash and spent with a conditional UPDATE, so a replay or a race spends it once.

use crate::crypto::{random_token, token_hash};
use crate::db::{Db, flag, now_ms};
use crate::error::Result;

pub const AUTH_CODE_TTL_MS: i64 = 60_000;
pub const MFA_TOKEN_TTL_MS: i64 = 5 * 60_000;
pub const OTP_TTL_MS: i64 = 5 * 60_000;
pub const OTP_MAX_TRIES: i64 = 5;
pub const RESET_TTL_MS: i64 = 30 * 60_000;
pub const INVITE_TTL_MS: i64 = 7 * 24 * 3_600_000;
pub const VERIFY_TTL_MS: i64 = 7 * 24 * 3_600_000;
pub const QR_TTL_MS: i64 = 120_000;
pub const ENROL_TTL_MS: i64 = 30 * 60_000;
pub const EMAIL_CHANGE_TTL_MS: i64 = 7 * 24 * 3_600_000;

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

#[derive(Debug, sqlx::FromRow)]
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

#[derive(Debug, sqlx::FromRow)]
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

/// Hash of a one-time code, salted with what it belongs to.
pub fn otp_hash(owner: &str, code: &str) -> String {
    token_hash(&format!("{owner}:{code}"))
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

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkPurpose {
    Reset,
    Invite,
    /// Proves the e-mail address of a new account.
    Verify,
}

impl LinkPurpose {
    /// The links that set a password.
    pub const PASSWORD: &[Self] = &[Self::Reset, Self::Invite];

    fn as_str(self) -> &'static str {
        match self {
            Self::Reset => "reset",
            Self::Invite => "invite",
            Self::Verify => "verify",
        }
    }
    fn parse(value: &str) -> Option<Self> {
        [Self::Reset, Self::Invite, Self::Verify]
            .into_iter()
            .find(|p| p.as_str() == value)
    }
    fn ttl_ms(self) -> i64 {
        match self {
            Self::Reset => RESET_TTL_MS,
            Self::Invite => INVITE_TTL_MS,
            Self::Verify => VERIFY_TTL_MS,
        }
    }
}

/// Issue a reset, invitation or verification link token; earlier unused links of the same
/// purpose stop working.
pub async fn issue_link(db: &Db, account_id: &str, purpose: LinkPurpose) -> Result<String> {
    let token = random_token(32);
    let now = now_ms();
    let mut tx = db.begin().await?;
    sqlx::query(
        "UPDATE one_time_tokens SET used_at = $3 \
         WHERE account_id = $1 AND purpose = $2 AND used_at IS NULL",
    )
    .bind(account_id)
    .bind(purpose.as_str())
    .bind(now)
    .execute(&mut *tx)
    .await?;
    sqlx::query(
        "INSERT INTO one_time_tokens (token_hash, account_id, purpose, expires_at, created_at) \
         VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(token_hash(&token))
    .bind(account_id)
    .bind(purpose.as_str())
    .bind(now + purpose.ttl_ms())
    .bind(now)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(token)
}

/// Spend a link token of one of `purposes` (once, while live): its account and purpose.
/// A link of another purpose stays unspent, so a verification link never sets a password.
/// The account and purpose of a link that could be spent now (exists, unspent,
/// unexpired, one of `purposes`), without spending it.
#[tracing::instrument(skip_all)]
pub async fn live_link(
    db: &Db,
    token: &str,
    purposes: &[LinkPurpose],
) -> Result<Option<(String, LinkPurpose)>> {
    let found = sqlx::query_as::<_, (String, String)>(
        "SELECT account_id, purpose FROM one_time_tokens \
         WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2",
    )
    .bind(token_hash(token))
    .bind(now_ms())
    .fetch_optional(db)
    .await?;
    Ok(found
        .and_then(|(account_id, purpose)| Some((account_id, LinkPurpose::parse(&purpose)?)))
        .filter(|(_, purpose)| purposes.contains(purpose)))
}

pub async fn spend_link<'e>(
    db: impl sqlx::Executor<'e, Database = sqlx::Any>,
    token: &str,
    purposes: &[LinkPurpose],
) -> Result<Option<(String, LinkPurpose)>> {
    if purposes.is_empty() {
        return Ok(None);
    }
    // Placeholders only ($3, $4, …): the purposes themselves are bound.
    let placeholders: Vec<String> = (3..3 + purposes.len()).map(|n| format!("${n}")).collect();
    let sql = format!(
        "UPDATE one_time_tokens SET used_at = $2 \
         WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2 \
         AND purpose IN ({}) RETURNING account_id, purpose",
        placeholders.join(", ")
    );
    let mut query = sqlx::query_as::<_, (String, String)>(sqlx::AssertSqlSafe(sql))
        .bind(token_hash(token))
        .bind(now_ms());
    for purpose in purposes {
        query = query.bind(purpose.as_str());
    }
    let spent = query.fetch_optional(db).await?;
    Ok(spent.and_then(|(account_id, purpose)| Some((account_id, LinkPurpose::parse(&purpose)?))))
}

/// Single-use links for account changes (table `account_links`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AccountLink {
    /// Enrol a phone on an account whose second factor is on but has no phone.
    EnrolPhone,
    /// Confirm a new login e-mail (the link goes to the new address).
    ChangeEmail,
}

impl AccountLink {
    fn as_str(self) -> &'static str {
        match self {
            Self::EnrolPhone => "enrol_phone",
            Self::ChangeEmail => "change_email",
        }
    }
    fn ttl_ms(self) -> i64 {
        match self {
            Self::EnrolPhone => ENROL_TTL_MS,
            Self::ChangeEmail => EMAIL_CHANGE_TTL_MS,
        }
    }
}

/// Issue an account-change link; earlier unused links of the same purpose stop working.
#[tracing::instrument(skip_all)]
pub async fn issue_account_link(
    db: &Db,
    account_id: &str,
    purpose: AccountLink,
    new_login: Option<&str>,
) -> Result<String> {
    let token = random_token(32);
    let now = now_ms();
    let mut tx = db.begin().await?;
    sqlx::query(
        "UPDATE account_links SET used_at = $3 \
         WHERE account_id = $1 AND purpose = $2 AND used_at IS NULL",
    )
    .bind(account_id)
    .bind(purpose.as_str())
    .bind(now)
    .execute(&mut *tx)
    .await?;
    sqlx::query(
        "INSERT INTO account_links (token_hash, account_id, purpose, new_login, expires_at, \
         created_at) VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(token_hash(&token))
    .bind(account_id)
    .bind(purpose.as_str())
    .bind(new_login)
    .bind(now + purpose.ttl_ms())
    .bind(now)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(token)
}

/// Spend a live account-change link of `purpose` (once): its account and new login. With
/// `account_id`, only a link of that account is spent.
#[tracing::instrument(skip_all)]
pub async fn spend_account_link<'e>(
    db: impl sqlx::Executor<'e, Database = sqlx::Any>,
    token: &str,
    purpose: AccountLink,
    account_id: Option<&str>,
) -> Result<Option<(String, Option<String>)>> {
    let base = "UPDATE account_links SET used_at = $2 \
        WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2 AND purpose = $3";
    let sql = match account_id {
        Some(_) => format!("{base} AND account_id = $4 RETURNING account_id, new_login"),
        None => format!("{base} RETURNING account_id, new_login"),
    };
    let mut query = sqlx::query_as::<_, (String, Option<String>)>(sqlx::AssertSqlSafe(sql))
        .bind(token_hash(token))
        .bind(now_ms())
        .bind(purpose.as_str());
    if let Some(account_id) = account_id {
        query = query.bind(account_id);
    }
    Ok(query.fetch_optional(db).await?)
}

/// The login e-mail an account asked to change to and has not confirmed yet.
#[tracing::instrument(skip_all)]
pub async fn pending_login(db: &Db, account_id: &str) -> Result<Option<String>> {
    let row: Option<(Option<String>,)> = sqlx::query_as(
        "SELECT new_login FROM account_links WHERE account_id = $1 AND purpose = $2 \
         AND used_at IS NULL AND expires_at > $3 ORDER BY created_at DESC LIMIT 1",
    )
    .bind(account_id)
    .bind(AccountLink::ChangeEmail.as_str())
    .bind(now_ms())
    .fetch_optional(db)
    .await?;
    Ok(row.and_then(|(login,)| login))
}

#[derive(Debug, sqlx::FromRow)]
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
