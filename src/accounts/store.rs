//! Account persistence.

use sqlx::AssertSqlSafe;

use super::model::{AccountChanged, AccountRow, ProjectRef, Role};
use crate::crypto::{random_token, token_hash};
use crate::db::{Db, Exec, flag, now_ms};
use crate::error::{Result, conflict_on_unique};
use crate::i18n::Msg;
use crate::i18n::{Lang, Zone};

pub const OTP_TTL_MS: i64 = 5 * 60_000;
pub const OTP_MAX_TRIES: i64 = 5;
pub const RESET_TTL_MS: i64 = 30 * 60_000;
pub const INVITE_TTL_MS: i64 = 7 * 24 * 3_600_000;
pub const VERIFY_TTL_MS: i64 = 7 * 24 * 3_600_000;
pub const ENROL_TTL_MS: i64 = 30 * 60_000;
pub const EMAIL_CHANGE_TTL_MS: i64 = 7 * 24 * 3_600_000;

/// Hash of a one-time code, salted with what it belongs to.
pub fn otp_hash(owner: &str, code: &str) -> String {
    token_hash(&format!("{owner}:{code}"))
}

const COLUMNS: &str = "id, login, first_name, last_name, role, enabled, use_mfa, phone, \
    password_hash, notes, avatar_type, avatar_version, tenant_key, created_at, language, email_verified_at, time_zone, theme, stream_quality";

pub struct NewAccount<'a> {
    pub login: &'a str,
    pub first_name: &'a str,
    pub last_name: &'a str,
    pub role: Role,
    pub password_hash: Option<String>,
    pub phone: Option<&'a str>,
    pub use_mfa: bool,
    pub notes: &'a str,
    pub tenant_key: &'a str,
    pub language: Lang,
    /// The zone its browser reported at sign-up, if any.
    pub time_zone: Option<&'a Zone>,
    /// Whether the address is already proven (made by an operator, or a demo account);
    /// a self-service sign-up proves it with the link it is sent.
    pub email_verified: bool,
}

impl<'a> NewAccount<'a> {
    /// An account whose address is vouched for (made by an operator, the demo, a test or a
    /// load tool): nameless, no phone, the default language and tenant key. The rest is
    /// set with `NewAccount { first_name: …, ..NewAccount::verified(…) }`.
    pub fn verified(login: &'a str, role: Role, password_hash: Option<String>) -> Self {
        Self {
            login,
            first_name: "",
            last_name: "",
            role,
            password_hash,
            phone: None,
            use_mfa: false,
            notes: "",
            tenant_key: "encore",
            language: Lang::default(),
            time_zone: None,
            email_verified: true,
        }
    }
}

#[tracing::instrument(skip_all, fields(role = new.role.as_str()))]
pub async fn insert<'e>(db: impl Exec<'e>, new: NewAccount<'_>) -> Result<AccountRow> {
    let id = uuid::Uuid::new_v4().to_string();
    let now = now_ms();
    sqlx::query_as::<_, AccountRow>(AssertSqlSafe(format!(
        "INSERT INTO accounts (id, login, first_name, last_name, role, enabled, use_mfa, phone, \
         password_hash, notes, tenant_key, language, created_at, updated_at, email_verified_at, \
         time_zone) \
         VALUES ($1, $2, $3, $4, $5, 1, $6, $7, $8, $9, $10, $11, $12, $12, $13, $14) \
         RETURNING {COLUMNS}"
    )))
    .bind(&id)
    .bind(new.login)
    .bind(new.first_name.trim())
    .bind(new.last_name.trim())
    .bind(new.role.as_str())
    .bind(flag(new.use_mfa))
    .bind(new.phone)
    .bind(new.password_hash)
    .bind(new.notes)
    .bind(new.tenant_key)
    .bind(new.language.code())
    .bind(now)
    .bind(new.email_verified.then_some(now))
    .bind(new.time_zone.map(Zone::name))
    .fetch_one(db)
    .await
    .map_err(|e| conflict_on_unique(e, Msg::UserExists))
}

pub async fn by_id<'e>(db: impl Exec<'e>, id: &str) -> Result<Option<AccountRow>> {
    let sql = format!("SELECT {COLUMNS} FROM accounts WHERE id = $1");
    Ok(sqlx::query_as::<_, AccountRow>(AssertSqlSafe(sql))
        .bind(id)
        .fetch_optional(db)
        .await?)
}

/// The e-mail and name of several accounts (a page of orders' buyers), in one query.
#[tracing::instrument(skip_all, fields(accounts = ids.len()))]
pub async fn contacts(db: &Db, ids: &[&str]) -> Result<Vec<(String, String, String, String)>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let placeholders: Vec<String> = (1..=ids.len()).map(|i| format!("${i}")).collect();
    let mut query = sqlx::query_as::<_, (String, String, String, String)>(AssertSqlSafe(format!(
        "SELECT id, login, first_name, last_name FROM accounts WHERE id IN ({})",
        placeholders.join(", ")
    )));
    for id in ids {
        query = query.bind(*id);
    }
    Ok(query.fetch_all(db).await?)
}

pub async fn by_login(db: &Db, login: &str) -> Result<Option<AccountRow>> {
    let sql = format!("SELECT {COLUMNS} FROM accounts WHERE login = $1");
    Ok(sqlx::query_as::<_, AccountRow>(AssertSqlSafe(sql))
        .bind(login)
        .fetch_optional(db)
        .await?)
}

/// Where each staff account receives messages: `(id, login, phone, role)`.
pub async fn staff_contacts(db: &Db) -> Result<Vec<(String, String, Option<String>, String)>> {
    Ok(
        sqlx::query_as("SELECT id, login, phone, role FROM accounts WHERE role IN ('admin', 'sa')")
            .fetch_all(db)
            .await?,
    )
}

pub async fn count(db: &Db) -> Result<i64> {
    let (n,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM accounts")
        .fetch_one(db)
        .await?;
    Ok(n)
}

#[derive(Debug, Default)]
pub struct ListFilter {
    pub search: Option<String>,
    pub active: Option<bool>,
    pub role: Option<Role>,
    pub page: i64,
    pub page_size: i64,
}

/// One page of accounts, newest first, and the total matching the filter.
pub async fn list(db: &Db, filter: &ListFilter) -> Result<(Vec<AccountRow>, i64)> {
    let mut clauses = Vec::new();
    let mut args: Vec<String> = Vec::new();
    if let Some(search) = filter
        .search
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
    {
        args.push(crate::db::contains_pattern(search));
        let n = args.len();
        clauses.push(format!(
            "(LOWER(login) LIKE ${n} ESCAPE '\\' \
             OR LOWER(first_name || ' ' || last_name) LIKE ${n} ESCAPE '\\')"
        ));
    }
    if let Some(active) = filter.active {
        clauses.push(format!("enabled = {}", flag(active)));
    }
    if let Some(role) = filter.role {
        args.push(role.as_str().to_owned());
        clauses.push(format!("role = ${}", args.len()));
    }
    let where_sql = if clauses.is_empty() {
        String::new()
    } else {
        format!("WHERE {}", clauses.join(" AND "))
    };

    let count_sql = format!("SELECT COUNT(*) FROM accounts {where_sql}");
    let mut count_query = sqlx::query_as::<_, (i64,)>(AssertSqlSafe(count_sql));
    for arg in &args {
        count_query = count_query.bind(arg);
    }
    let (total,) = count_query.fetch_one(db).await?;

    let offset = (filter.page - 1) * filter.page_size;
    let page_sql = format!(
        "SELECT {COLUMNS} FROM accounts {where_sql} ORDER BY created_at DESC, id \
         LIMIT {} OFFSET {offset}",
        filter.page_size
    );
    let mut page_query = sqlx::query_as::<_, AccountRow>(AssertSqlSafe(page_sql));
    for arg in &args {
        page_query = page_query.bind(arg);
    }
    Ok((page_query.fetch_all(db).await?, total))
}

/// Write back the editable fields of a row.
#[tracing::instrument(skip_all)]
pub async fn save_profile(db: &Db, row: &AccountRow) -> Result<AccountChanged> {
    sqlx::query(
        "UPDATE accounts SET login = $2, first_name = $3, last_name = $4, role = $5, \
         enabled = $6, use_mfa = $7, notes = $8, language = $9, updated_at = $10, \
         time_zone = $11, theme = $12, stream_quality = $13 WHERE id = $1",
    )
    .bind(&row.id)
    .bind(&row.login)
    .bind(&row.first_name)
    .bind(&row.last_name)
    .bind(row.role.as_str())
    .bind(row.enabled)
    .bind(row.use_mfa)
    .bind(&row.notes)
    .bind(row.language.code())
    .bind(now_ms())
    .bind(&row.time_zone)
    .bind(&row.theme)
    .bind(&row.stream_quality)
    .execute(db)
    .await
    .map_err(|e| conflict_on_unique(e, Msg::UserExists))?;
    Ok(AccountChanged::of(&row.id))
}

#[tracing::instrument(skip_all)]
pub async fn set_language<'e>(
    db: impl sqlx::Executor<'e, Database = sqlx::Any>,
    id: &str,
    language: Lang,
) -> Result<()> {
    sqlx::query("UPDATE accounts SET language = $2, updated_at = $3 WHERE id = $1")
        .bind(id)
        .bind(language.code())
        .bind(now_ms())
        .execute(db)
        .await?;
    Ok(())
}

/// Record that the account proved its e-mail address (the first proof counts).
#[tracing::instrument(skip_all)]
pub async fn mark_email_verified<'e>(
    db: impl sqlx::Executor<'e, Database = sqlx::Any>,
    id: &str,
) -> Result<AccountChanged> {
    sqlx::query(
        "UPDATE accounts SET email_verified_at = $2, updated_at = $2 \
         WHERE id = $1 AND email_verified_at IS NULL",
    )
    .bind(id)
    .bind(now_ms())
    .execute(db)
    .await?;
    Ok(AccountChanged::of(id))
}

/// Apply a confirmed login e-mail; the link it received proves the new address. 409 when
/// another account took the address meanwhile.
#[tracing::instrument(skip_all)]
pub async fn set_login<'e>(
    db: impl sqlx::Executor<'e, Database = sqlx::Any>,
    id: &str,
    login: &str,
) -> Result<AccountChanged> {
    sqlx::query(
        "UPDATE accounts SET login = $2, email_verified_at = $3, updated_at = $3 WHERE id = $1",
    )
    .bind(id)
    .bind(login)
    .bind(now_ms())
    .execute(db)
    .await
    .map_err(|e| conflict_on_unique(e, Msg::UserExists))?;
    Ok(AccountChanged::of(id))
}

/// Set a new password hash (a change, or a reset inside the transaction that spends its link).
#[tracing::instrument(skip_all)]
pub async fn set_password_hash<'e>(
    db: impl sqlx::Executor<'e, Database = sqlx::Any>,
    id: &str,
    hash: &str,
) -> Result<AccountChanged> {
    sqlx::query("UPDATE accounts SET password_hash = $2, updated_at = $3 WHERE id = $1")
        .bind(id)
        .bind(hash)
        .bind(now_ms())
        .execute(db)
        .await?;
    Ok(AccountChanged::of(id))
}

/// End the account's sessions (a new password, disabling), except `keep` when given: the
/// session that made the change.
#[tracing::instrument(skip_all)]
pub async fn end_sessions(
    db: &Db,
    id: &str,
    keep: Option<&str>,
    reason: &str,
) -> Result<AccountChanged> {
    sqlx::query(
        "UPDATE sessions SET revoked_at = $3, revoked_reason = $4 \
         WHERE account_id = $1 AND id <> $2 AND revoked_at IS NULL",
    )
    .bind(id)
    // Session ids are UUIDs, never empty: "" keeps none.
    .bind(keep.unwrap_or(""))
    .bind(now_ms())
    .bind(reason)
    .execute(db)
    .await?;
    Ok(AccountChanged::of(id))
}

/// The artist projects an account is a member of, by name.
#[tracing::instrument(skip_all)]
pub async fn project_refs(db: &Db, id: &str) -> Result<Vec<ProjectRef>> {
    Ok(sqlx::query_as::<_, ProjectRef>(
        "SELECT p.id, p.name FROM project_members m JOIN projects p ON p.id = m.project_id \
         WHERE m.account_id = $1 ORDER BY p.name",
    )
    .bind(id)
    .fetch_all(db)
    .await?)
}

/// Enrol (or, with `None`, remove) the second-factor phone. Removing it leaves the second
/// factor as it is: an account with it on then enrols a new phone at its next sign-in
/// through a link e-mailed to its address (a password alone does not enrol one).
#[tracing::instrument(skip_all)]
pub async fn set_phone(db: &Db, id: &str, phone: Option<&str>) -> Result<AccountChanged> {
    sqlx::query("UPDATE accounts SET phone = $2, updated_at = $3 WHERE id = $1")
        .bind(id)
        .bind(phone)
        .bind(now_ms())
        .execute(db)
        .await?;
    Ok(AccountChanged::of(id))
}

/// Store the code sent to a new phone, replacing any code sent before (one transaction).
#[tracing::instrument(skip_all)]
pub async fn replace_phone_verification(
    db: &Db,
    account_id: &str,
    phone: &str,
    otp_hash: &str,
) -> Result<()> {
    let mut tx = db.begin().await?;
    sqlx::query("DELETE FROM phone_verifications WHERE account_id = $1")
        .bind(account_id)
        .execute(&mut *tx)
        .await?;
    sqlx::query(
        "INSERT INTO phone_verifications (account_id, phone, otp_hash, expires_at) \
         VALUES ($1, $2, $3, $4)",
    )
    .bind(account_id)
    .bind(phone)
    .bind(otp_hash)
    .bind(now_ms() + OTP_TTL_MS)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(())
}

/// How checking a phone code went.
#[derive(Debug, PartialEq, Eq)]
pub enum PhoneCheck {
    /// No live code with tries left.
    Expired,
    /// The code was wrong; the try is spent.
    Incorrect,
    /// The code was right: the phone is the account's now.
    Verified(AccountChanged),
}

/// Check a code sent to a new phone, in one transaction: take a try (the try stays taken
/// when the code is wrong), read the pending phone, and when `matches` accepts its stored
/// code hash, spend the code and set the phone.
#[tracing::instrument(skip_all)]
pub async fn verify_phone_change(
    db: &Db,
    account_id: &str,
    matches: impl FnOnce(&str) -> bool,
) -> Result<PhoneCheck> {
    let now = now_ms();
    let mut tx = db.begin().await?;
    let taken = sqlx::query(
        "UPDATE phone_verifications SET attempts = attempts + 1 \
         WHERE account_id = $1 AND attempts < $2 AND expires_at > $3",
    )
    .bind(account_id)
    .bind(OTP_MAX_TRIES)
    .bind(now)
    .execute(&mut *tx)
    .await?
    .rows_affected();
    if taken != 1 {
        return Ok(PhoneCheck::Expired);
    }
    let (phone, expected): (String, String) =
        sqlx::query_as("SELECT phone, otp_hash FROM phone_verifications WHERE account_id = $1")
            .bind(account_id)
            .fetch_one(&mut *tx)
            .await?;
    if !matches(&expected) {
        tx.commit().await?;
        return Ok(PhoneCheck::Incorrect);
    }
    sqlx::query("DELETE FROM phone_verifications WHERE account_id = $1")
        .bind(account_id)
        .execute(&mut *tx)
        .await?;
    sqlx::query("UPDATE accounts SET phone = $2, updated_at = $3 WHERE id = $1")
        .bind(account_id)
        .bind(&phone)
        .bind(now)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(PhoneCheck::Verified(AccountChanged::of(account_id)))
}

#[tracing::instrument(skip_all)]
pub async fn set_avatar(db: &Db, id: &str, media_type: &str) -> Result<AccountChanged> {
    let now = now_ms();
    sqlx::query(
        "UPDATE accounts SET avatar_type = $2, avatar_version = $3, updated_at = $3 WHERE id = $1",
    )
    .bind(id)
    .bind(media_type)
    .bind(now)
    .execute(db)
    .await?;
    Ok(AccountChanged::of(id))
}

#[tracing::instrument(skip_all)]
pub async fn delete(db: &Db, id: &str) -> Result<AccountChanged> {
    sqlx::query("DELETE FROM accounts WHERE id = $1")
        .bind(id)
        .execute(db)
        .await?;
    Ok(AccountChanged::of(id))
}

// ------------------------------------------------------------------ single-use links

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
#[tracing::instrument(skip_all)]
pub async fn issue_link(db: &Db, account_id: &str, purpose: LinkPurpose) -> Result<String> {
    let (name, ttl_ms) = (purpose.as_str(), purpose.ttl_ms());
    issue(db, LinkTable::OneTime, account_id, name, ttl_ms, None).await
}

/// The two tables of single-use links.
#[derive(Clone, Copy)]
enum LinkTable {
    /// `one_time_tokens`: reset, invitation and verification links.
    OneTime,
    /// `account_links`: account-change links.
    AccountChange,
}

/// Store a new link of `purpose` lasting `ttl_ms` in `table` (with `new_login` for an
/// account-change link), in one transaction with retiring the unused links it replaces;
/// answers its token.
async fn issue(
    db: &Db,
    table: LinkTable,
    account_id: &str,
    purpose: &str,
    ttl_ms: i64,
    new_login: Option<&str>,
) -> Result<String> {
    let token = random_token(32);
    let now = now_ms();
    let mut tx = db.begin().await?;
    retire_links(&mut *tx, table, account_id, purpose, now).await?;
    let insert = sqlx::query(match table {
        LinkTable::OneTime => {
            "INSERT INTO one_time_tokens (token_hash, account_id, purpose, expires_at, \
             created_at) VALUES ($1, $2, $3, $4, $5)"
        }
        LinkTable::AccountChange => {
            "INSERT INTO account_links (token_hash, account_id, purpose, expires_at, \
             created_at, new_login) VALUES ($1, $2, $3, $4, $5, $6)"
        }
    })
    .bind(token_hash(&token))
    .bind(account_id)
    .bind(purpose)
    .bind(now + ttl_ms)
    .bind(now);
    match table {
        LinkTable::OneTime => insert,
        LinkTable::AccountChange => insert.bind(new_login),
    }
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(token)
}

/// Stop every unused link of the account with this purpose (a new one replaces them).
#[tracing::instrument(skip_all)]
async fn retire_links<'e>(
    db: impl sqlx::Executor<'e, Database = sqlx::Any>,
    table: LinkTable,
    account_id: &str,
    purpose: &str,
    now: i64,
) -> Result<()> {
    let table = match table {
        LinkTable::OneTime => "one_time_tokens",
        LinkTable::AccountChange => "account_links",
    };
    let sql = format!(
        "UPDATE {table} SET used_at = $3 \
         WHERE account_id = $1 AND purpose = $2 AND used_at IS NULL"
    );
    sqlx::query(AssertSqlSafe(sql))
        .bind(account_id)
        .bind(purpose)
        .bind(now)
        .execute(db)
        .await?;
    Ok(())
}

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

/// Spend a link token of one of `purposes` (once, while live): its account and purpose.
/// A link of another purpose stays unspent, so a verification link never sets a password.
#[tracing::instrument(skip_all)]
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
    let mut query = sqlx::query_as::<_, (String, String)>(AssertSqlSafe(sql))
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
    let (name, ttl_ms) = (purpose.as_str(), purpose.ttl_ms());
    issue(
        db,
        LinkTable::AccountChange,
        account_id,
        name,
        ttl_ms,
        new_login,
    )
    .await
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
    let mut query = sqlx::query_as::<_, (String, Option<String>)>(AssertSqlSafe(sql))
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

// --------------------------------------------------------------------------- figures

pub struct Figures {
    pub by_role: [(Role, i64); 3],
    pub enabled: i64,
    pub disabled: i64,
    pub with_mfa: i64,
    pub created_since: Vec<i64>,
}

/// Counts for the admin dashboard, and the creation times since `since_ms`.
pub async fn figures(db: &Db, since_ms: i64) -> Result<Figures> {
    let rows: Vec<(String, i64, i64, i64)> = sqlx::query_as(
        "SELECT role, enabled, use_mfa, COUNT(*) FROM accounts GROUP BY role, enabled, use_mfa",
    )
    .fetch_all(db)
    .await?;
    let mut by_role = [(Role::User, 0), (Role::Admin, 0), (Role::Sa, 0)];
    let (mut enabled, mut disabled, mut with_mfa) = (0, 0, 0);
    for (role, is_enabled, mfa, n) in rows {
        if let Some(slot) = by_role.iter_mut().find(|(r, _)| r.as_str() == role) {
            slot.1 += n;
        }
        if is_enabled != 0 {
            enabled += n;
        } else {
            disabled += n;
        }
        if mfa != 0 {
            with_mfa += n;
        }
    }
    let created_since: Vec<(i64,)> =
        sqlx::query_as("SELECT created_at FROM accounts WHERE created_at >= $1")
            .bind(since_ms)
            .fetch_all(db)
            .await?;
    Ok(Figures {
        by_role,
        enabled,
        disabled,
        with_mfa,
        created_since: created_since.into_iter().map(|(t,)| t).collect(),
    })
}
