//! Who may do what to which account. Plain functions over (actor, target) so the rules
//! are tested without HTTP; handlers call them and never re-check roles themselves.

use super::model::{AccountRow, Role};
use crate::error::Error;
use crate::i18n::Msg;

/// The signed-in account acting.
#[derive(Debug, Clone, Copy)]
pub struct Actor<'a> {
    pub id: &'a str,
    pub role: Role,
}

/// The account acted upon.
#[derive(Debug, Clone, Copy)]
pub struct Target<'a> {
    pub id: &'a str,
    pub role: Role,
}

impl<'a> Target<'a> {
    pub fn of(account: &'a AccountRow) -> Self {
        Self {
            id: &account.id,
            role: account.role(),
        }
    }
}

fn is_self(actor: Actor<'_>, target: Target<'_>) -> bool {
    actor.id == target.id
}

/// Staff authority over another account: sa over everyone, admin over non-sa accounts.
fn manages(actor: Actor<'_>, target: Target<'_>) -> bool {
    match actor.role {
        Role::Sa => true,
        Role::Admin => target.role != Role::Sa,
        Role::User => false,
    }
}

fn deny(msg: Msg) -> Result<(), Error> {
    Err(Error::forbidden(msg))
}

pub fn can_list(actor: Actor<'_>) -> Result<(), Error> {
    if actor.role.is_staff() {
        Ok(())
    } else {
        deny(Msg::OnlyAdminsList)
    }
}

pub fn can_view(actor: Actor<'_>, target: Target<'_>) -> Result<(), Error> {
    if is_self(actor, target) || actor.role.is_staff() {
        Ok(())
    } else {
        deny(Msg::OnlyOwnAccountView)
    }
}

/// Profile fields: login, name, notes, avatar, second-factor switch.
pub fn can_edit_profile(actor: Actor<'_>, target: Target<'_>) -> Result<(), Error> {
    if is_self(actor, target) || manages(actor, target) {
        Ok(())
    } else if actor.role.is_staff() {
        deny(Msg::AdminsCannotChangeSa)
    } else {
        deny(Msg::OnlyOwnAccountChange)
    }
}

pub fn can_create(actor: Actor<'_>, role: Role) -> Result<(), Error> {
    match (actor.role, role) {
        (Role::Sa, _) => Ok(()),
        (Role::Admin, Role::User) => Ok(()),
        (Role::Admin, _) => deny(Msg::OnlySaCreatesAdmins),
        (Role::User, _) => deny(Msg::OnlyAdminsCreate),
    }
}

pub fn can_change_role(actor: Actor<'_>, target: Target<'_>, to: Role) -> Result<(), Error> {
    if to == target.role {
        return Ok(());
    }
    if actor.role != Role::Sa {
        return deny(Msg::OnlySaChangesRoles);
    }
    if is_self(actor, target) {
        return deny(Msg::CannotChangeOwnRole);
    }
    Ok(())
}

pub fn can_set_enabled(actor: Actor<'_>, target: Target<'_>) -> Result<(), Error> {
    if is_self(actor, target) {
        return deny(Msg::CannotEnableSelf);
    }
    if manages(actor, target) {
        Ok(())
    } else {
        deny(Msg::CannotChangeEnabled)
    }
}

pub fn can_delete(actor: Actor<'_>, target: Target<'_>) -> Result<(), Error> {
    if is_self(actor, target) {
        return deny(Msg::CannotDeleteSelf);
    }
    if manages(actor, target) {
        Ok(())
    } else {
        deny(Msg::CannotDelete)
    }
}

pub fn can_reinvite(actor: Actor<'_>, target: Target<'_>) -> Result<(), Error> {
    if !is_self(actor, target) && manages(actor, target) {
        Ok(())
    } else {
        deny(Msg::CannotReinvite)
    }
}

/// Password and phone changes are the owner's alone (they prove who they are).
pub fn is_owner(actor: Actor<'_>, target: Target<'_>) -> Result<(), Error> {
    if is_self(actor, target) {
        Ok(())
    } else {
        deny(Msg::OnlyOwner)
    }
}

/// Removing a lost phone: the owner, or staff who manage the account.
pub fn can_remove_phone(actor: Actor<'_>, target: Target<'_>) -> Result<(), Error> {
    if is_self(actor, target) || manages(actor, target) {
        Ok(())
    } else {
        deny(Msg::CannotChangeSecondFactor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ME: &str = "me";
    const OTHER: &str = "other";

    fn actor(role: Role) -> Actor<'static> {
        Actor { id: ME, role }
    }
    fn other(role: Role) -> Target<'static> {
        Target { id: OTHER, role }
    }
    fn myself(role: Role) -> Target<'static> {
        Target { id: ME, role }
    }

    #[test]
    fn admins_manage_users_and_admins_but_never_a_super_admin() {
        let admin = actor(Role::Admin);
        assert!(can_edit_profile(admin, other(Role::User)).is_ok());
        assert!(can_edit_profile(admin, other(Role::Admin)).is_ok());
        assert!(can_edit_profile(admin, other(Role::Sa)).is_err());
        assert!(can_delete(admin, other(Role::Sa)).is_err());
        assert!(can_set_enabled(admin, other(Role::Sa)).is_err());
        assert!(can_create(admin, Role::Sa).is_err());
        assert!(can_create(admin, Role::User).is_ok());
    }

    #[test]
    fn only_a_super_admin_changes_roles_and_never_their_own() {
        assert!(can_change_role(actor(Role::Admin), other(Role::User), Role::Admin).is_err());
        assert!(can_change_role(actor(Role::Sa), other(Role::User), Role::Admin).is_ok());
        assert!(can_change_role(actor(Role::Sa), myself(Role::Sa), Role::User).is_err());
        // Sending the role unchanged is not a change.
        assert!(can_change_role(actor(Role::User), myself(Role::User), Role::User).is_ok());
    }

    #[test]
    fn nobody_deletes_or_disables_themself() {
        for role in [Role::User, Role::Admin, Role::Sa] {
            assert!(can_delete(actor(role), myself(role)).is_err());
            assert!(can_set_enabled(actor(role), myself(role)).is_err());
        }
    }

    #[test]
    fn a_user_sees_and_edits_only_themself() {
        let user = actor(Role::User);
        assert!(can_view(user, myself(Role::User)).is_ok());
        assert!(can_view(user, other(Role::User)).is_err());
        assert!(can_edit_profile(user, other(Role::User)).is_err());
        assert!(can_list(user).is_err());
    }
}
