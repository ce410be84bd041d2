//! Account persistence.

use sqlx::AssertSqlSafe;

use super::model::{AccountChanged, AccountRow, Role};
use crate::auth::store::{OTP_MAX_TRIES, OTP_TTL_MS};
use crate::db::{Db, flag, now_ms};
use crate::error::{Result, conflict_on_unique};
use crate::i18n::Lang;
use crate::i18n::Msg;

const COLUMNS: &str = "id, login, first_name, last_name, role, enabled, use_mfa, phone, \
    password_hash, notes, avatar_type, avatar_version, tenant_key, created_at, language, email_verified_at";

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
    /// Whether the address is already proven (made by an operator, or a demo account);
    /// a self-service sign-up proves it with the link it is sent.
    pub email_verified: bool,
}

#[tracing::instrument(skip_all, fields(role = new.role.as_str()))]
pub async fn insert(db: &Db, new: NewAccount<'_>) -> Result<AccountRow> {
    let id = uuid::Uuid::new_v4().to_string();
    let now = now_ms();
    sqlx::query(
        "INSERT INTO accounts (id, login, first_name, last_name, role, enabled, use_mfa, phone, \
         password_hash, notes, tenant_key, language, created_at, updated_at, email_verified_at) \
         VALUES ($1, $2, $3, $4, $5, 1, $6, $7, $8, $9, $10, $11, $12, $12, $13)",
    )
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
    .execute(db)
    .await
    .map_err(|e| conflict_on_unique(e, Msg::UserExists))?;
    by_id(db, &id)
        .await?
        .ok_or_else(|| crate::error::Error::internal("inserted account vanished"))
}

pub async fn by_id(db: &Db, id: &str) -> Result<Option<AccountRow>> {
    let sql = format!("SELECT {COLUMNS} FROM accounts WHERE id = $1");
    Ok(sqlx::query_as::<_, AccountRow>(AssertSqlSafe(sql))
        .bind(id)
        .fetch_optional(db)
        .await?)
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
        let escaped = search
            .to_lowercase()
            .replace('\\', "\\\\")
            .replace('%', "\\%")
            .replace('_', "\\_");
        args.push(format!("%{escaped}%"));
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
         enabled = $6, use_mfa = $7, notes = $8, language = $9, updated_at = $10 WHERE id = $1",
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
) -> Result<()> {
    sqlx::query(
        "UPDATE accounts SET email_verified_at = $2, updated_at = $2 \
         WHERE id = $1 AND email_verified_at IS NULL",
    )
    .bind(id)
    .bind(now_ms())
    .execute(db)
    .await?;
    Ok(())
}

/// Apply a confirmed login e-mail; the link it received proves the new address. 409 when
/// another account took the address meanwhile.
#[tracing::instrument(skip_all)]
pub async fn set_login<'e>(
    db: impl sqlx::Executor<'e, Database = sqlx::Any>,
    id: &str,
    login: &str,
) -> Result<()> {
    sqlx::query(
        "UPDATE accounts SET login = $2, email_verified_at = $3, updated_at = $3 WHERE id = $1",
    )
    .bind(id)
    .bind(login)
    .bind(now_ms())
    .execute(db)
    .await
    .map_err(|e| conflict_on_unique(e, Msg::UserExists))?;
    Ok(())
}

#[tracing::instrument(skip_all)]
pub async fn set_password_hash(db: &Db, id: &str, hash: &str) -> Result<AccountChanged> {
    sqlx::query("UPDATE accounts SET password_hash = $2, updated_at = $3 WHERE id = $1")
        .bind(id)
        .bind(hash)
        .bind(now_ms())
        .execute(db)
        .await?;
    Ok(AccountChanged::of(id))
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
