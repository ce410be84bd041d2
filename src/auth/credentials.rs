//! The sign-in credential check, shared by `authorize` and the step-up of sensitive
//! changes.

use axum::http::HeaderMap;

use super::cookies;
use super::rate_limit::Attempt;
use crate::accounts::model::{AccountRow, Email};
use crate::accounts::store as accounts;
use crate::error::{Error, Result};
use crate::i18n::Msg;
use crate::state::AppState;

/// Check an e-mail and password. Unknown accounts cost a real hash too, and every
/// failure reads the same. Wrong passwords are throttled per account and source, and
/// per account across unknown devices; a valid device cookie of the account (sent in
/// `headers`) makes the attempt count apart, so guessers cannot lock its owner out.
pub async fn verify_credentials(
    app: &AppState,
    email: Option<Email>,
    password: &str,
    ip: std::net::IpAddr,
    headers: &HeaderMap,
) -> Result<AccountRow> {
    let login = email
        .as_ref()
        .map(|e| e.as_str().to_owned())
        .unwrap_or_default();
    let device = cookies::known_device(&app.config, headers, &login);
    let attempt = Attempt {
        login: &login,
        ip,
        known_device: device.as_deref(),
    };
    app.limits.sign_in.begin(&attempt).await?;
    let account = match &email {
        Some(email) => accounts::by_login(&app.db, email.as_str()).await?,
        None => None,
    };
    let stored = account.as_ref().and_then(|a| a.password_hash.as_deref());
    let matched = app.passwords.verify(password, stored).await?;
    match account {
        Some(account) if matched => {
            app.limits.sign_in.succeeded(&attempt).await;
            if !account.enabled() {
                return Err(Error::unauthorized(Msg::AccountDisabled));
            }
            Ok(account)
        }
        // Counted as a failure when it began.
        _ => Err(Error::unauthorized(Msg::InvalidCredentials)),
    }
}
