//! Self-service sign-up (the OAuth `register` endpoint and `accounts/signup`).

use super::messages::send_verification;
use super::model::{Account, Email, Password, Role};
use super::store;
use crate::error::{Error, Result};
use crate::i18n::{self, Msg, Zone};
use crate::live::activity::Activity;
use crate::state::AppState;

/// Create a `user` account from a self-service sign-up and tell the staff.
pub async fn sign_up(
    app: &AppState,
    email: &Email,
    password: &Password,
    first_name: &str,
    last_name: &str,
    zone: Option<&Zone>,
) -> Result<Account> {
    // Hash first, whether or not the address is taken: the 409 (the spec's answer) must
    // not come back faster than a new account would.
    let hash = app.passwords.hash(password).await?;
    if store::by_login(&app.db, email.as_str()).await?.is_some() {
        return Err(Error::conflict(Msg::UserExists));
    }
    // The account and the staff's activity line of it in one transaction.
    let mut tx = app.db.begin().await?;
    let row = store::insert(
        &mut *tx,
        store::NewAccount {
            login: email.as_str(),
            first_name,
            last_name,
            role: Role::User,
            password_hash: Some(hash),
            phone: None,
            use_mfa: false,
            notes: "",
            tenant_key: &app.config.tenant_key,
            language: i18n::current(),
            time_zone: zone,
            email_verified: false,
        },
    )
    .await?;
    let signed_up = Activity::signup(&row);
    signed_up.record(&mut *tx).await?;
    tx.commit().await?;
    signed_up.publish(&app.bus).await;
    // The account exists whatever happens to the e-mail: a failed send is logged, and a
    // new link can be asked for once signed in.
    if let Err(err) = send_verification(app, &row).await {
        tracing::error!(error = %err, "sending the welcome e-mail failed");
    }
    Ok(Account::from(&row))
}
