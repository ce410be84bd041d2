//! Changing an account (`PUT /accounts/{id}`): what the request may change, read and
//! checked against the roles policy without touching anything ([`Change::read`]), then
//! saved with what follows from it ([`save`]): the new login's confirmation link, the
//! sessions of an account just disabled.

use serde::Deserialize;
use utoipa::ToSchema;

use super::model::{AccountRow, Email, Role, StreamQuality, Theme, parse_time_zone};
use super::policy::{self, Actor, Target};
use super::{messages, store};
use crate::error::{Error, Result};
use crate::i18n::{Lang, Msg};
use crate::state::AppState;

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PersonPatch {
    pub first_name: Option<String>,
    pub last_name: Option<String>,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct EnablementPatch {
    pub enabled: Option<bool>,
    #[serde(rename = "useMFA")]
    pub use_mfa: Option<bool>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UpdateRequest {
    /// A new login e-mail: applied once the link e-mailed to it is followed.
    #[serde(alias = "email")]
    #[schema(format = Email, min_length = 1)]
    pub login: Option<String>,
    pub person: Option<PersonPatch>,
    pub notes: Option<String>,
    /// The first is the new role.
    #[schema(value_type = Option<Vec<Role>>)]
    pub roles: Option<Vec<String>>,
    pub enablement: Option<EnablementPatch>,
    /// A language code (`gb`, `br`, `es`, `cn`, `ir`).
    #[schema(value_type = Option<Lang>)]
    pub language: Option<String>,
    /// The dashboard theme (`light`, `dark`), for the account's other devices.
    #[schema(value_type = Option<Theme>)]
    pub theme: Option<String>,
    /// The listening quality the player starts from (`auto`, `saver`, `standard`,
    /// `high`, `lossless`), on every device of the account.
    #[schema(value_type = Option<StreamQuality>)]
    pub stream_quality: Option<String>,
    /// An IANA time zone (`Asia/Tehran`) for the times in the account's notices; an
    /// unknown one is 400 and nothing of the request is applied.
    #[schema(example = "Asia/Tehran")]
    pub time_zone: Option<String>,
    /// The acting account's password: needed to change the login e-mail or the second
    /// factor (step-up).
    pub current_password: Option<String>,
}

/// An account as a request would leave it, every field checked and every policy rule
/// passed; nothing is stored yet.
#[derive(Debug)]
pub struct Change {
    pub row: AccountRow,
    /// A new login e-mail: not applied, it waits for its confirmation link.
    pub new_login: Option<Email>,
    /// The account was enabled and is disabled by this change: its sessions end.
    pub disabled_now: bool,
    mfa_switched: bool,
}

impl Change {
    /// Reads the request against the account as it is, in the order its refusals are
    /// documented: a bad time zone first (the whole request is then unapplied), then each
    /// field and the policy rule that guards it.
    pub fn read(actor: Actor<'_>, before: &AccountRow, req: &UpdateRequest) -> Result<Self> {
        let mut row = before.clone();
        let zone = req.time_zone.as_deref().map(parse_time_zone).transpose()?;
        if req.login.is_some()
            || req.person.is_some()
            || req.notes.is_some()
            || req.language.is_some()
            || req.theme.is_some()
            || req.stream_quality.is_some()
            || zone.is_some()
        {
            policy::can_edit_profile(actor, Target::of(before))?;
        }
        if let Some(zone) = &zone {
            row.time_zone = Some(zone.name().to_owned());
        }
        if let Some(code) = &req.language {
            row.language = Lang::from_code(code).ok_or_else(|| {
                Error::unprocessable(Msg::UnknownLanguage.with("code", code.as_str()))
            })?;
        }
        if let Some(code) = &req.theme {
            let theme = Theme::from_code(code).ok_or_else(|| {
                Error::unprocessable(Msg::UnknownTheme.with("code", code.as_str()))
            })?;
            row.theme = Some(theme.code().to_owned());
        }
        if let Some(code) = &req.stream_quality {
            let quality = StreamQuality::from_code(code).ok_or_else(|| {
                Error::unprocessable(Msg::UnknownStreamQuality.with("code", code.as_str()))
            })?;
            row.stream_quality = Some(quality.code().to_owned());
        }
        let new_login = match &req.login {
            Some(login) => {
                Some(Email::parse(login)?).filter(|email| email.as_str() != before.login)
            }
            None => None,
        };
        if let Some(person) = &req.person {
            if let Some(first) = &person.first_name {
                row.first_name = first.trim().to_owned();
            }
            if let Some(last) = &person.last_name {
                row.last_name = last.trim().to_owned();
            }
        }
        if let Some(notes) = &req.notes {
            row.notes = notes.clone();
        }
        if let Some(roles) = &req.roles {
            let role = first_role(roles)?;
            policy::can_change_role(actor, Target::of(before), role)?;
            row.role = role;
        }
        let mut disabled_now = false;
        if let Some(enablement) = &req.enablement {
            if let Some(enabled) = enablement.enabled
                && enabled != before.enabled()
            {
                policy::can_set_enabled(actor, Target::of(before))?;
                row.enabled = i64::from(enabled);
                disabled_now = !enabled;
            }
            if let Some(use_mfa) = enablement.use_mfa
                && use_mfa != before.use_mfa()
            {
                policy::can_edit_profile(actor, Target::of(before))?;
                may_turn_on_mfa(use_mfa, before)?;
                row.use_mfa = i64::from(use_mfa);
            }
        }
        let mfa_switched = row.use_mfa != before.use_mfa;
        Ok(Self {
            row,
            new_login,
            disabled_now,
            mfa_switched,
        })
    }

    /// A new login e-mail or a second-factor switch takes the actor's current password.
    pub fn needs_password(&self) -> bool {
        self.new_login.is_some() || self.mfa_switched
    }
}

/// Stores a change: a new login must be no other account's and its confirmation link
/// must go out before anything is saved (when the account's messages are used up, 429,
/// nothing changes); a disabled account's sessions and listening end with it.
pub async fn save(app: &AppState, before: &AccountRow, change: Change) -> Result<()> {
    if let Some(email) = &change.new_login {
        if store::by_login(&app.db, email.as_str()).await?.is_some() {
            return Err(Error::conflict(Msg::UserExists));
        }
        messages::send_email_change(app, before, email).await?;
    }
    app.publish(store::save_profile(&app.db, &change.row).await?);
    if change.disabled_now {
        let id = &change.row.id;
        app.publish(store::end_sessions(&app.db, id, None, "account disabled").await?);
        crate::stream::access::sessions::end_for_account(app, id).await?;
    }
    Ok(())
}

/// The first role of a request's list (the API's shape), `user` when it is empty.
pub fn first_role(roles: &[String]) -> Result<Role> {
    roles.first().map_or(Ok(Role::User), |r| Role::parse(r))
}

/// The second factor goes on only for an account with a (verified) phone to send to.
pub fn may_turn_on_mfa(use_mfa: bool, account: &AccountRow) -> Result<()> {
    if use_mfa && account.phone.is_none() {
        return Err(Error::unprocessable(Msg::MfaNeedsPhone));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn account(id: &str, role: Role) -> AccountRow {
        AccountRow {
            id: id.to_owned(),
            login: format!("{id}@example.com"),
            first_name: "Ada".to_owned(),
            last_name: "Lovelace".to_owned(),
            role,
            enabled: 1,
            use_mfa: 0,
            phone: None,
            password_hash: None,
            notes: String::new(),
            avatar_type: None,
            avatar_version: None,
            tenant_key: String::new(),
            created_at: 0,
            language: Lang::English,
            email_verified_at: Some(0),
            time_zone: None,
            theme: None,
            stream_quality: None,
        }
    }

    fn request(json: serde_json::Value) -> UpdateRequest {
        serde_json::from_value(json).expect("a valid request body")
    }

    fn actor(row: &AccountRow) -> Actor<'_> {
        Actor {
            id: &row.id,
            role: row.role,
        }
    }

    #[test]
    fn an_owner_changes_their_profile_and_nothing_else_moves() {
        let fan = account("fan", Role::User);
        let req = request(serde_json::json!({
            "person": {"firstName": "  Grace "},
            "language": "ir",
            "theme": "light",
            "timeZone": "Asia/Tehran",
        }));
        let change = Change::read(actor(&fan), &fan, &req).unwrap();
        assert_eq!(change.row.first_name, "Grace");
        assert_eq!(change.row.last_name, "Lovelace");
        assert_eq!(change.row.language, Lang::Persian);
        assert_eq!(change.row.theme.as_deref(), Some("light"));
        assert_eq!(change.row.time_zone.as_deref(), Some("Asia/Tehran"));
        assert!(!change.needs_password());
        assert!(!change.disabled_now);
        assert!(change.new_login.is_none());
    }

    #[test]
    fn a_new_login_or_a_second_factor_switch_takes_the_password() {
        let mut fan = account("fan", Role::User);
        let same = request(serde_json::json!({"login": "FAN@example.com"}));
        let change = Change::read(actor(&fan), &fan, &same).unwrap();
        assert!(
            change.new_login.is_none(),
            "the same address in other letters"
        );
        assert!(!change.needs_password());

        let other = request(serde_json::json!({"login": "new@example.com"}));
        let change = Change::read(actor(&fan), &fan, &other).unwrap();
        assert_eq!(
            change.new_login.as_ref().unwrap().as_str(),
            "new@example.com"
        );
        assert_eq!(change.row.login, fan.login, "not applied before its link");
        assert!(change.needs_password());

        let mfa = request(serde_json::json!({"enablement": {"useMFA": true}}));
        assert!(
            Change::read(actor(&fan), &fan, &mfa).is_err(),
            "no phone yet"
        );
        fan.phone = Some("+15550100".to_owned());
        assert!(
            Change::read(actor(&fan), &fan, &mfa)
                .unwrap()
                .needs_password()
        );
    }

    #[test]
    fn a_refusal_anywhere_leaves_the_whole_request_unread() {
        let fan = account("fan", Role::User);
        for body in [
            serde_json::json!({"person": {"firstName": "X"}, "timeZone": "Mars/Olympus"}),
            serde_json::json!({"person": {"firstName": "X"}, "language": "xx"}),
            serde_json::json!({"person": {"firstName": "X"}, "roles": ["admin"]}),
            serde_json::json!({"person": {"firstName": "X"}, "enablement": {"enabled": false}}),
        ] {
            assert!(
                Change::read(actor(&fan), &fan, &request(body.clone())).is_err(),
                "{body}"
            );
        }
    }

    #[test]
    fn staff_disable_an_account_and_its_sessions_end_with_it() {
        let admin = account("admin", Role::Admin);
        let fan = account("fan", Role::User);
        let req = request(serde_json::json!({"enablement": {"enabled": false}}));
        let change = Change::read(actor(&admin), &fan, &req).unwrap();
        assert_eq!(change.row.enabled, 0);
        assert!(change.disabled_now);
        assert!(!change.needs_password());

        let again = Change::read(actor(&admin), &change.row, &req).unwrap();
        assert!(!again.disabled_now, "already disabled: nothing ends twice");
    }
}
