//! Account domain types. Input is parsed into these at the edge; once parsed it is valid.

use std::collections::HashSet;
use std::sync::LazyLock;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::bus::{Message, Publication};
use crate::db::iso8601;
use crate::error::Error;
use crate::i18n::{Lang, Msg, Zone};

#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, ToSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    User,
    Admin,
    Sa,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::User => "user",
            Self::Admin => "admin",
            Self::Sa => "sa",
        }
    }

    pub fn parse(value: &str) -> Result<Self, Error> {
        match value {
            "user" => Ok(Self::User),
            "admin" => Ok(Self::Admin),
            "sa" => Ok(Self::Sa),
            other => Err(Error::unprocessable(Msg::UnknownRole.with("role", other))),
        }
    }

    /// Admins and super admins run the platform.
    pub fn is_staff(self) -> bool {
        matches!(self, Self::Admin | Self::Sa)
    }
}

/// A stored role; an unknown value is an error, never a silent default.
impl TryFrom<String> for Role {
    type Error = String;
    fn try_from(value: String) -> Result<Self, Self::Error> {
        Ok(match value.as_str() {
            "user" => Self::User,
            "admin" => Self::Admin,
            "sa" => Self::Sa,
            _ => return Err(format!("unknown account role {value:?}")),
        })
    }
}

/// A time zone the client sent (`timeZone`): an IANA name the database knows, else 400.
pub fn parse_time_zone(name: &str) -> Result<Zone, Error> {
    Zone::parse(name).ok_or_else(|| {
        // Echo a bounded part only: the body may carry anything.
        let shown: String = name.chars().take(Zone::MAX_NAME_CHARS).collect();
        Error::bad_request(Msg::UnknownTimeZone.with("zone", shown))
    })
}

/// A lower-cased, syntactically valid e-mail address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Email(String);

impl Email {
    pub fn parse(raw: &str) -> Result<Self, Error> {
        let lowered = raw.trim().to_lowercase();
        if lowered.len() > 254 || !email_address::EmailAddress::is_valid(&lowered) {
            return Err(Error::unprocessable(Msg::InvalidEmail));
        }
        Ok(Self(lowered))
    }
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

static COMMON_PASSWORDS: LazyLock<HashSet<&'static str>> = LazyLock::new(|| {
    include_str!("../../assets/common-passwords.txt")
        .lines()
        .filter(|l| !l.is_empty())
        .collect()
});

/// A password that meets the policy: 8–128 characters, not among the 10,000 most common.
pub struct Password(String);

impl Password {
    pub const MIN_CHARS: usize = 8;
    pub const MAX_CHARS: usize = 128;

    pub fn parse(raw: &str) -> Result<Self, Error> {
        let chars = raw.chars().count();
        if chars < Self::MIN_CHARS {
            return Err(Error::unprocessable(Msg::PasswordTooShort));
        }
        if chars > Self::MAX_CHARS {
            return Err(Error::unprocessable(Msg::PasswordTooLong));
        }
        if COMMON_PASSWORDS.contains(raw.to_lowercase().as_str()) {
            return Err(Error::unprocessable(Msg::PasswordTooCommon));
        }
        Ok(Self(raw.to_owned()))
    }
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for Password {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Password(***)")
    }
}

/// A phone number in E.164 form: `+` then 8 to 15 digits, no leading zero.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PhoneNumber(String);

impl PhoneNumber {
    pub fn parse(raw: &str) -> Result<Self, Error> {
        // Digits typed on a Persian or Arabic keyboard are stored as Latin ones.
        let compact: String = raw
            .chars()
            .filter(|c| !matches!(c, ' ' | '-' | '(' | ')' | '.'))
            .map(|c| match c {
                '۰'..='۹' => char::from(b'0' + (c as u32 - '۰' as u32) as u8),
                '٠'..='٩' => char::from(b'0' + (c as u32 - '٠' as u32) as u8),
                other => other,
            })
            .collect();
        let digits = compact.strip_prefix('+').unwrap_or("");
        let valid = (8..=15).contains(&digits.len())
            && digits.bytes().all(|b| b.is_ascii_digit())
            && !digits.starts_with('0');
        if !valid {
            return Err(Error::unprocessable(Msg::PhoneFormat));
        }
        Ok(Self(compact))
    }
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Show only the country code start and the last three digits: `+44 •••• ••• 123`.
pub fn mask_phone(phone: &str) -> String {
    let digits: Vec<char> = phone.chars().filter(char::is_ascii_digit).collect();
    if digits.len() < 6 {
        return "•••".to_owned();
    }
    let head: String = digits[..2].iter().collect();
    let tail: String = digits[digits.len() - 3..].iter().collect();
    format!("+{head} •••• ••• {tail}")
}

/// An account changed (profile, role, second factor, phone, picture, enablement,
/// deletion, project membership, its sessions): whatever keeps a copy of it must read it
/// afresh. Account and session writes in the stores return one; the caller hands it to
/// [`AppState::publish`](crate::state::AppState::publish) once the write is committed,
/// which is the one place its consumers (today the session cache) hear of it.
#[must_use = "publish it (AppState::publish) so cached sessions read the account afresh"]
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AccountChanged {
    /// The account itself, or every session it has.
    Account(String),
    /// One session ended (logout, a replayed code, a reused refresh token).
    Session(String),
    /// A project was renamed or deleted: every member's copy names it.
    Project(String),
}

impl AccountChanged {
    pub fn of(account_id: &str) -> Self {
        Self::Account(account_id.to_owned())
    }

    /// The cache channel's event for this change, made on instance `origin` (which has
    /// already dropped its own copy).
    pub fn to_event(&self, origin: String) -> Publication {
        match self.clone() {
            Self::Account(account_id) => Publication::new(&CacheAccount { account_id, origin }),
            Self::Session(session_id) => Publication::new(&CacheSession { session_id, origin }),
            Self::Project(project_id) => Publication::new(&CacheProject { project_id, origin }),
        }
    }

    /// A cache channel's event as the change it reports, with the instance it came from.
    pub fn from_event(event: &Publication) -> Option<(Self, String)> {
        match event.kind() {
            CacheAccount::KIND => event
                .read::<CacheAccount>()
                .map(|m| (Self::Account(m.account_id), m.origin)),
            CacheSession::KIND => event
                .read::<CacheSession>()
                .map(|m| (Self::Session(m.session_id), m.origin)),
            CacheProject::KIND => event
                .read::<CacheProject>()
                .map(|m| (Self::Project(m.project_id), m.origin)),
            _ => None,
        }
    }
}

/// `account_changed` on the cache channel: drop what is cached about the account.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct CacheAccount {
    account_id: String,
    origin: String,
}

impl Message for CacheAccount {
    const KIND: &'static str = "account_changed";
}

/// `session_ended` on the cache channel (logout, a replayed code, a reused refresh token).
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct CacheSession {
    session_id: String,
    origin: String,
}

impl Message for CacheSession {
    const KIND: &'static str = "session_ended";
}

/// `project_changed` on the cache channel: a project was renamed or deleted.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct CacheProject {
    project_id: String,
    origin: String,
}

impl Message for CacheProject {
    const KIND: &'static str = "project_changed";
}

/// A stored account.
#[derive(Debug, Clone)]
pub struct AccountRow {
    pub id: String,
    pub login: String,
    pub first_name: String,
    pub last_name: String,
    pub role: Role,
    pub enabled: i64,
    pub use_mfa: i64,
    pub phone: Option<String>,
    pub password_hash: Option<String>,
    pub notes: String,
    pub avatar_type: Option<String>,
    pub avatar_version: Option<i64>,
    pub tenant_key: String,
    pub created_at: i64,
    /// The language of messages sent to the account.
    pub language: Lang,
    /// When the account proved its e-mail address; `None`: not yet.
    pub email_verified_at: Option<i64>,
    /// The IANA time zone its notices write times in (checked when written); `None`:
    /// unknown, UTC.
    pub time_zone: Option<String>,
    /// The dashboard theme it chose ([`Theme`]'s code, checked when written); `None`:
    /// never chosen.
    pub theme: Option<String>,
    /// The listening quality it chose ([`StreamQuality`]'s code, checked when written);
    /// `None`: never chosen (Auto).
    pub stream_quality: Option<String>,
}
crate::db::from_row!(AccountRow { id, login, first_name, last_name, role as String, enabled, use_mfa, phone, password_hash, notes, avatar_type, avatar_version, tenant_key, created_at, language as String, email_verified_at, time_zone, theme, stream_quality });

/// The dashboard's colour scheme an account chose: a new device starts from it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Theme {
    Light,
    Dark,
}

impl Theme {
    pub fn from_code(code: &str) -> Option<Self> {
        match code {
            "light" => Some(Self::Light),
            "dark" => Some(Self::Dark),
            _ => None,
        }
    }

    pub fn code(self) -> &'static str {
        match self {
            Self::Light => "light",
            Self::Dark => "dark",
        }
    }
}

/// The rendition the player asks for (docs/hifi.md): `auto` lets the player switch by
/// bandwidth; the others pin a rendition when the show has it (else the player is on Auto).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum StreamQuality {
    Auto,
    Saver,
    Standard,
    High,
    Lossless,
}

impl StreamQuality {
    pub fn from_code(code: &str) -> Option<Self> {
        match code {
            "auto" => Some(Self::Auto),
            "saver" => Some(Self::Saver),
            "standard" => Some(Self::Standard),
            "high" => Some(Self::High),
            "lossless" => Some(Self::Lossless),
            _ => None,
        }
    }

    pub fn code(self) -> &'static str {
        match self {
            Self::Auto => "auto",
            Self::Saver => "saver",
            Self::Standard => "standard",
            Self::High => "high",
            Self::Lossless => "lossless",
        }
    }
}

impl AccountRow {
    pub fn role(&self) -> Role {
        self.role
    }
    pub fn enabled(&self) -> bool {
        self.enabled != 0
    }
    pub fn use_mfa(&self) -> bool {
        self.use_mfa != 0
    }
    pub fn email_verified(&self) -> bool {
        self.email_verified_at.is_some()
    }
    /// Where times are written for the account (UTC when its zone is unknown).
    pub fn zone(&self) -> Zone {
        Zone::of_stored(self.time_zone.as_deref())
    }
    /// Sending an SMS costs money and can be abused to pump premium numbers: only an
    /// account that proved its e-mail address may make Encore send one.
    pub fn may_receive_sms(&self) -> Result<(), Error> {
        if self.email_verified() {
            Ok(())
        } else {
            Err(Error::forbidden(Msg::VerifyEmailFirst))
        }
    }
    pub fn full_name(&self) -> String {
        format!("{} {}", self.first_name, self.last_name)
            .trim()
            .to_owned()
    }
    /// A name to show people: the full name, else the e-mail.
    pub fn display_name(&self) -> String {
        let name = self.full_name();
        if name.is_empty() {
            self.login.clone()
        } else {
            name
        }
    }
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Person {
    #[serde(default)]
    pub first_name: String,
    #[serde(default)]
    pub last_name: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Enablement {
    pub enabled: bool,
    #[serde(rename = "useMFA")]
    pub use_mfa: bool,
}

crate::db::row! {
    /// An artist project the account belongs to (the spec's user `projects` field).
    #[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, ToSchema)]
    pub struct ProjectRef {
        pub id: String,
        pub name: String,
    }
}

/// The account as the API shows it (spec section 3, plus avatar, notes and masked phone).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Account {
    pub id: String,
    pub login: String,
    pub person: Person,
    /// One role: the spec's list form.
    pub roles: Vec<Role>,
    pub enablement: Enablement,
    #[schema(format = DateTime)]
    pub created_at: String,
    pub tenant_key: String,
    /// The picture's URL (`GET accounts/{id}/avatar`), when there is one.
    #[schema(required = true)]
    pub avatar: Option<String>,
    pub notes: String,
    /// The phone, masked (`+44 •••• ••• 123`).
    #[schema(required = true)]
    pub phone: Option<String>,
    /// The language of messages sent to the account (`gb`, `br`, `es`, `cn`, `ir`).
    pub language: Lang,
    /// Whether the account proved its e-mail address (SMS needs it).
    pub email_verified: bool,
    /// The IANA time zone (`Asia/Tehran`) its notices write times in; null when unknown
    /// (then UTC).
    #[schema(required = true)]
    pub time_zone: Option<String>,
    /// The dashboard theme the account chose; null when never chosen (a device keeps its
    /// own, dark by default).
    #[schema(required = true)]
    pub theme: Option<Theme>,
    /// The listening quality the player starts from; null when never chosen (Auto).
    #[schema(required = true)]
    pub stream_quality: Option<StreamQuality>,
    /// A new login e-mail waiting for its confirmation link to be followed; present on
    /// `userinfo/me`, `GET accounts/{id}` and `PUT accounts/{id}` when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pending_login: Option<String>,
    /// Artist projects; present on `userinfo/me`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub projects: Option<Vec<ProjectRef>>,
}

impl From<&AccountRow> for Account {
    fn from(row: &AccountRow) -> Self {
        Self {
            id: row.id.clone(),
            login: row.login.clone(),
            person: Person {
                first_name: row.first_name.clone(),
                last_name: row.last_name.clone(),
            },
            roles: vec![row.role()],
            enablement: Enablement {
                enabled: row.enabled(),
                use_mfa: row.use_mfa(),
            },
            created_at: iso8601(row.created_at),
            tenant_key: row.tenant_key.clone(),
            avatar: row
                .avatar_version
                .map(|v| format!("/api/v1/accounts/{}/avatar?v={v}", row.id)),
            notes: row.notes.clone(),
            phone: row.phone.as_deref().map(mask_phone),
            language: row.language,
            email_verified: row.email_verified(),
            time_zone: row.time_zone.clone(),
            theme: row.theme.as_deref().and_then(Theme::from_code),
            stream_quality: row
                .stream_quality
                .as_deref()
                .and_then(StreamQuality::from_code),
            pending_login: None,
            projects: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_roles_decode_and_an_unknown_one_is_an_error() {
        for role in [Role::User, Role::Admin, Role::Sa] {
            assert_eq!(Role::try_from(role.as_str().to_owned()), Ok(role));
        }
        assert!(Role::try_from("owner".to_owned()).is_err());
        assert!(Role::try_from("Admin".to_owned()).is_err());
        assert!(Role::try_from(String::new()).is_err());
    }

    #[test]
    fn emails_are_lower_cased_and_checked() {
        assert_eq!(
            Email::parse(" Fan@Example.COM ").unwrap().as_str(),
            "fan@example.com"
        );
        assert!(Email::parse("not-an-email").is_err());
        assert!(Email::parse("").is_err());
    }

    #[test]
    fn the_password_policy_refuses_short_long_and_common_passwords() {
        assert!(Password::parse("short").is_err());
        assert!(Password::parse(&"x".repeat(129)).is_err());
        assert!(Password::parse("password1").is_err());
        assert!(
            Password::parse("Baseball1").is_err(),
            "case does not hide a common password"
        );
        assert!(Password::parse("correct horse battery").is_ok());
        assert_eq!(COMMON_PASSWORDS.len(), 10_000);
    }

    #[test]
    fn phones_must_be_e164_and_are_masked() {
        assert_eq!(
            PhoneNumber::parse("+44 7700 900123").unwrap().as_str(),
            "+447700900123"
        );
        // Typed on a Persian keyboard: stored in Latin digits.
        assert_eq!(
            PhoneNumber::parse("+۹۸ ۹۱۲ ۳۴۵ ۶۷۸۹").unwrap().as_str(),
            "+989123456789"
        );
        assert!(PhoneNumber::parse("07700900123").is_err());
        assert!(PhoneNumber::parse("۰۹۱۲۳۴۵۶۷۸۹").is_err());
        assert!(PhoneNumber::parse("+0123456789").is_err());
        assert!(PhoneNumber::parse("+12").is_err());
        assert_eq!(mask_phone("+447700900123"), "+44 •••• ••• 123");
    }
}
