//! Sign-up (`POST /register`), the e-mail link that verifies it (`/verify-email`), and
//! a changed address confirmed (`/confirm-email`).

use super::request::*;
use axum::http::HeaderMap;

use crate::accounts::model::{Account, Email, Password, parse_time_zone};
use crate::accounts::signup::sign_up;
use crate::accounts::store::{self as accounts, AccountLink, LinkPurpose};
use crate::auth::rate_limit::Endpoint;
use crate::envelope::{Envelope, OAuthBody, OAuthReply};
use crate::error::{Error, Result};
use crate::i18n::{Msg, Zone};
use crate::openapi::{Failure, Nothing};
use crate::state::AppState;

client_body! {
    pub struct RegisterRequest {
        #[schema(value_type = String, required = true, format = Email)]
        pub(super) email: Option<String>,
        /// 8–128 characters, not among the 10,000 most common.
        #[schema(value_type = String, required = true, min_length = 8, max_length = 128)]
        pub(super) password: Option<String>,
        #[allow(dead_code)]
        #[schema(value_type = String, required = false)]
        pub(super) code_verifier: Option<String>,
        /// The browser's IANA time zone (`Asia/Tehran`): notices write times in it.
        #[serde(alias = "timeZone")]
        #[schema(value_type = String, required = false, example = "Asia/Tehran")]
        pub(super) time_zone: Option<String>,
    }
}

/// A registration, parsed: an e-mail address, a password that meets the policy, and the
/// time zone if one was sent.
pub(super) struct Register {
    pub(super) email: Email,
    pub(super) password: Password,
    pub(super) zone: Option<Zone>,
    pub(super) client_id: Option<String>,
}

impl TryFrom<RegisterRequest> for Register {
    type Error = Error;

    fn try_from(req: RegisterRequest) -> Result<Self> {
        Ok(Self {
            email: Email::parse(required(&req.email, "email")?)?,
            password: Password::parse(required(&req.password, "password")?)?,
            zone: req.time_zone.as_deref().map(parse_time_zone).transpose()?,
            client_id: req.client_id,
        })
    }
}

/// Register a fan account, for anyone: a welcome e-mail with a verification link is sent;
/// it does not sign in.
#[utoipa::path(post, path = "/register", tag = "oauth",
    request_body(content((RegisterRequest = "application/x-www-form-urlencoded"), (RegisterRequest = "application/json"))),
    responses(
        (status = 201, description = "The new account.", body = Envelope<Account>),
        (status = 401, description = "An unknown client.", body = Failure),
        (status = 409, description = "An account with this e-mail exists.", body = Failure)))]
#[tracing::instrument(skip_all)]
pub async fn register(
    Caller { app, ip, headers }: Caller,
    OAuthBody(req): OAuthBody<RegisterRequest>,
) -> OAuthReply<Account> {
    let state = req.state.clone();
    let result = async {
        app.limits.check_ip(ip, Endpoint::Register).await?;
        let req: Register = req.try_into()?;
        client_of(&app, &headers, &req.client_id, &None).await?;
        sign_up(&app, &req.email, &req.password, "", "", req.zone.as_ref()).await
    }
    .await;
    OAuthReply::created(state, result)
}

client_body! {
    pub struct VerifyEmailRequest {
        /// The e-mailed link's token.
        #[schema(value_type = String, required = true, min_length = 1)]
        pub(super) token: Option<String>,
    }
}

/// A verify-email or confirm-email call, parsed: the link's token.
pub(super) struct LinkToken {
    pub(super) token: String,
}

impl TryFrom<VerifyEmailRequest> for LinkToken {
    type Error = Error;

    fn try_from(req: VerifyEmailRequest) -> Result<Self> {
        Ok(Self {
            token: required(&req.token, "token")?.to_owned(),
        })
    }
}

/// Verify an account's e-mail address with the link sent to it, for its holder.
#[utoipa::path(post, path = "/verify-email", tag = "oauth",
    request_body(content((VerifyEmailRequest = "application/x-www-form-urlencoded"), (VerifyEmailRequest = "application/json"))),
    responses(
        (status = 200, description = "Verified.", body = Envelope<Nothing>),
        (status = 401, description = "An unknown client.", body = Failure)))]
#[tracing::instrument(skip_all)]
pub async fn verify_email(
    Caller { app, ip, headers }: Caller,
    OAuthBody(req): OAuthBody<VerifyEmailRequest>,
) -> OAuthReply<()> {
    spend_link(&app, ip, &headers, req, async |app, token| {
        let mut tx = app.db.begin().await?;
        let (account_id, _) = accounts::spend_link(&mut *tx, token, &[LinkPurpose::Verify])
            .await?
            .ok_or_else(|| Error::bad_request(Msg::VerifyLinkInvalid))?;
        let changed = accounts::mark_email_verified(&mut *tx, &account_id).await?;
        tx.commit().await?;
        app.publish(changed);
        Ok(())
    })
    .await
}

/// Follow the link sent to a new login e-mail, for its holder: the change takes effect
/// (409 when the address was taken meanwhile; the link then stays unspent).
#[utoipa::path(post, path = "/confirm-email", tag = "oauth",
    request_body(content((VerifyEmailRequest = "application/x-www-form-urlencoded"), (VerifyEmailRequest = "application/json"))),
    responses(
        (status = 200, description = "The new login e-mail is in effect.", body = Envelope<Nothing>),
        (status = 401, description = "An unknown client.", body = Failure),
        (status = 409, description = "Another account took the address meanwhile.", body = Failure)))]
#[tracing::instrument(skip_all)]
pub async fn confirm_email(
    Caller { app, ip, headers }: Caller,
    OAuthBody(req): OAuthBody<VerifyEmailRequest>,
) -> OAuthReply<()> {
    spend_link(&app, ip, &headers, req, async |app, token| {
        let mut tx = app.db.begin().await?;
        let (account_id, new_login) =
            accounts::spend_account_link(&mut *tx, token, AccountLink::ChangeEmail, None)
                .await?
                .and_then(|(id, login)| Some((id, login?)))
                .ok_or_else(|| Error::bad_request(Msg::EmailChangeLinkInvalid))?;
        let changed = accounts::set_login(&mut *tx, &account_id, &new_login).await?;
        tx.commit().await?;
        app.publish(changed);
        Ok(())
    })
    .await
}

/// A call that spends an e-mailed link: the caller's rate and client are checked and the
/// token read, then `spend` uses it; answered with the caller's `state`.
async fn spend_link(
    app: &AppState,
    ip: std::net::IpAddr,
    headers: &HeaderMap,
    req: VerifyEmailRequest,
    spend: impl AsyncFnOnce(&AppState, &str) -> Result<()>,
) -> OAuthReply<()> {
    let state = req.state.clone();
    let result = async {
        link_call(app, ip, headers, &req.client_id).await?;
        let LinkToken { token } = req.try_into()?;
        spend(app, &token).await
    }
    .await;
    OAuthReply::new(state, result)
}
