//! Step-up for sensitive changes (security finding 7): changing the login e-mail, the
//! second-factor phone or the second-factor switch, and approving a QR sign-in, take the
//! current password of the person acting, even from a signed-in session, so a stolen
//! access token alone cannot make them. An admin acting on another account gives their
//! own password. The check is sign-in's: the same lock-out counter counts a wrong one.

use axum::extract::FromRequestParts;
use axum::http::HeaderMap;
use axum::http::request::Parts;

use super::credentials::verify_credentials;
use super::extract::{ClientIp, CurrentUser};
use crate::accounts::model::Email;
use crate::error::{Error, Result};
use crate::i18n::Msg;
use crate::state::AppState;

/// Where a step-up comes from: the client's address and its headers (the device cookie),
/// so a wrong password here is throttled exactly like one at sign-in.
pub struct StepUp {
    ip: std::net::IpAddr,
    headers: HeaderMap,
}

impl FromRequestParts<AppState> for StepUp {
    type Rejection = Error;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Error> {
        let ClientIp(ip) = ClientIp::from_request_parts(parts, state).await?;
        Ok(Self {
            ip,
            headers: parts.headers.clone(),
        })
    }
}

impl StepUp {
    /// Check the acting account's current password: 422 when it is missing or wrong.
    pub async fn require_password(
        &self,
        app: &AppState,
        user: &CurrentUser,
        current_password: Option<&str>,
    ) -> Result<()> {
        let password = current_password
            .filter(|p| !p.is_empty())
            .ok_or_else(|| Error::unprocessable(Msg::CurrentPasswordRequired))?;
        self.check_password(app, user, password).await
    }

    /// Check the acting account's current password as given (empty included): 422 when
    /// it is wrong.
    pub async fn check_password(
        &self,
        app: &AppState,
        user: &CurrentUser,
        password: &str,
    ) -> Result<()> {
        let email = Email::parse(&user.account.login).ok();
        verify_credentials(app, email, password, self.ip, &self.headers)
            .await
            .map(|_| ())
            .map_err(|e| match e {
                Error::Unauthorized(_) => Error::unprocessable(Msg::CurrentPasswordIncorrect),
                other => other,
            })
    }
}
