//! Forgotten passwords: `POST /forgot` sends a link, `POST /reset` sets a new password.

use super::request::*;

use crate::accounts::messages::{self};
use crate::accounts::model::{Email, Password};
use crate::accounts::store::{self as accounts, LinkPurpose};
use crate::envelope::{Envelope, OAuthBody, OAuthReply};
use crate::error::{Error, Result};
use crate::i18n::{self, Msg};
use crate::openapi::{Failure, Nothing};

client_body! {
    pub struct ForgotRequest {
        #[schema(value_type = String, required = true, format = Email)]
        pub(super) email: Option<String>,
        #[allow(dead_code)]
        #[schema(value_type = String, required = false)]
        pub(super) code_verifier: Option<String>,
    }
}

pub(super) struct Forgot {
    pub(super) email: Email,
}

impl TryFrom<ForgotRequest> for Forgot {
    type Error = Error;

    fn try_from(req: ForgotRequest) -> Result<Self> {
        Ok(Self {
            email: Email::parse(required(&req.email, "email")?)?,
        })
    }
}

/// Ask for a password-reset link, for anyone: the same answer whether or not the account
/// exists; the link is e-mailed when it does.
#[utoipa::path(post, path = "/forgot", tag = "oauth",
    request_body(content((ForgotRequest = "application/x-www-form-urlencoded"), (ForgotRequest = "application/json"))),
    responses(
        (status = 200, description = "Asked.", body = Envelope<Nothing>),
        (status = 401, description = "An unknown client.", body = Failure)))]
#[tracing::instrument(skip_all)]
pub async fn forgot(
    Caller { app, ip, headers }: Caller,
    OAuthBody(req): OAuthBody<ForgotRequest>,
) -> OAuthReply<()> {
    let state = req.state.clone();
    let result = async {
        link_call(&app, ip, &headers, &req.client_id).await?;
        let Forgot { email } = req.try_into()?;
        // The answer is the same, and as fast, whether or not the account exists: the
        // lookup and the e-mail happen after it.
        let app = app.clone();
        tokio::spawn(async move {
            if let Err(err) = messages::send_reset_link(&app, &email).await {
                tracing::error!(error = %err, "sending a reset link failed");
            }
        });
        Ok(())
    }
    .await;
    OAuthReply::new(state, result)
}

client_body! {
    pub struct ResetRequest {
        /// The e-mailed link's token.
        #[schema(value_type = String, required = true, min_length = 1)]
        pub(super) token: Option<String>,
        /// The new password: 8–128 characters, not among the 10,000 most common.
        #[schema(value_type = String, required = true, min_length = 8, max_length = 128)]
        pub(super) password: Option<String>,
    }
}

/// A reset, parsed as far as it may be before its link is checked: the new password
/// stays raw until then (a bad link costs no hashing and says nothing about it).
pub(super) struct Reset {
    pub(super) token: String,
    pub(super) password: Option<String>,
}

impl TryFrom<ResetRequest> for Reset {
    type Error = Error;

    fn try_from(req: ResetRequest) -> Result<Self> {
        Ok(Self {
            token: required(&req.token, "token")?.to_owned(),
            password: req.password,
        })
    }
}

impl Reset {
    /// The new password, parsed: call only once the link is known to be good.
    pub(super) fn new_password(&self) -> Result<Password> {
        Password::parse(required(&self.password, "password")?)
    }
}

/// Set a new password with an e-mailed reset or invitation link, for its holder; every
/// session of the account ends.
#[utoipa::path(post, path = "/reset", tag = "oauth",
    request_body(content((ResetRequest = "application/x-www-form-urlencoded"), (ResetRequest = "application/json"))),
    responses(
        (status = 200, description = "The password is set.", body = Envelope<Nothing>),
        (status = 401, description = "An unknown client.", body = Failure)))]
#[tracing::instrument(skip_all)]
pub async fn reset(
    Caller { app, ip, headers }: Caller,
    OAuthBody(req): OAuthBody<ResetRequest>,
) -> OAuthReply<()> {
    let state = req.state.clone();
    let result = async {
        link_call(&app, ip, &headers, &req.client_id).await?;
        let req = Reset::try_from(req)?;
        let token = req.token.as_str();
        // The link first (exists, unspent, unexpired, a password link): a bad one costs
        // no hashing and says nothing about the password.
        accounts::live_link(&app.db, token, LinkPurpose::PASSWORD)
            .await?
            .ok_or_else(|| Error::bad_request(Msg::LinkInvalid))?;
        let password = req.new_password()?;
        let hash = app.passwords.hash(&password).await?;
        let mut tx = app.db.begin().await?;
        // Spent here, conditionally: of two racing uses one wins, the other is refused.
        let (account_id, purpose) = accounts::spend_link(&mut *tx, token, LinkPurpose::PASSWORD)
            .await?
            .ok_or_else(|| Error::bad_request(Msg::LinkInvalid))?;
        let changed = accounts::set_password_hash(&mut *tx, &account_id, &hash).await?;
        if purpose == LinkPurpose::Invite {
            // Accepting an invitation is the invitee's first visit: keep their language.
            accounts::set_language(&mut *tx, &account_id, i18n::current()).await?;
        }
        // The link reached its owner through the mailbox: the address is proven.
        let verified = accounts::mark_email_verified(&mut *tx, &account_id).await?;
        tx.commit().await?;
        app.publish(changed);
        app.publish(verified);
        // A new password ends every existing session.
        app.publish(accounts::end_sessions(&app.db, &account_id, None, "password reset").await?);
        // The owner proved themselves through the mailbox: every throttle of the account
        // (each source's, and the ceiling for unknown devices) starts afresh.
        if let Some(account) = accounts::by_id(&app.db, &account_id).await? {
            app.limits.sign_in.clear_account(&account.login).await;
        }
        Ok(())
    }
    .await;
    OAuthReply::new(state, result)
}
