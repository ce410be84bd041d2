//! `POST /authorize`: the password step of the authorization-code flow.

use super::request::*;
use axum::http::HeaderMap;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::accounts::model::Email;
use crate::auth::cookies;
use crate::auth::credentials::verify_credentials;
use crate::auth::rate_limit::Endpoint;
use crate::auth::store::{self};
use crate::envelope::{Envelope, OAuthBody, OAuthReply};
use crate::error::{Error, Result};
use crate::i18n::Msg;
use crate::openapi::Failure;
use crate::state::AppState;

#[derive(Debug, Deserialize, ToSchema)]
pub struct AuthorizeRequest {
    #[schema(value_type = String, required = true, min_length = 1)]
    pub(super) email: Option<String>,
    #[schema(value_type = String, required = true, min_length = 1)]
    pub(super) password: Option<String>,
    #[schema(schema_with = response_type_code, required = true)]
    pub(super) response_type: Option<String>,
    #[schema(schema_with = response_mode_query)]
    pub(super) response_mode: Option<String>,
    #[serde(flatten)]
    pub(super) authorization: RawAuthorization,
    #[schema(value_type = String, required = false)]
    pub(super) state: Option<String>,
    #[schema(value_type = String, required = false)]
    pub(super) nonce: Option<String>,
}

/// An authorization request, parsed: response type and mode, the authorization part,
/// then the credentials. An e-mail that does not parse names no account (the same
/// answer as a wrong password).
#[derive(Debug)]
pub(super) struct Authorize {
    pub(super) authorization: AuthorizationRequest,
    pub(super) email: Option<Email>,
    pub(super) password: String,
    pub(super) nonce: Option<String>,
}

impl TryFrom<AuthorizeRequest> for Authorize {
    type Error = Error;

    fn try_from(req: AuthorizeRequest) -> Result<Self> {
        if req.response_type.as_deref() != Some("code") {
            return Err(Error::bad_request(Msg::ResponseTypeCode));
        }
        if let Some(mode) = req.response_mode.as_deref()
            && mode != "query"
        {
            return Err(Error::bad_request(Msg::ResponseModeQuery));
        }
        let authorization = AuthorizationRequest::try_from(req.authorization)?;
        let password = required(&req.password, "password")?.to_owned();
        let email = Email::parse(required(&req.email, "email")?).ok();
        Ok(Self {
            authorization,
            email,
            password,
            nonce: req.nonce,
        })
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CodePayload {
    /// Single use, valid 60 seconds: exchange it at `token`.
    pub(super) code: String,
}

/// Sign in with e-mail and password, for anyone: an authorization code for the client's
/// PKCE challenge (and the device cookie).
#[utoipa::path(post, path = "/authorize", tag = "oauth",
    request_body(content((AuthorizeRequest = "application/x-www-form-urlencoded"), (AuthorizeRequest = "application/json"))),
    responses(
        (status = 200, description = "The authorization code.", body = Envelope<CodePayload>),
        (status = 401, description = "Wrong e-mail or password, a disabled account, or an unknown client.", body = Failure)))]
#[tracing::instrument(skip_all)]
pub async fn authorize(
    Caller { app, ip, headers }: Caller,
    OAuthBody(req): OAuthBody<AuthorizeRequest>,
) -> OAuthReply<CodePayload> {
    let state = req.state.clone();
    match authorize_inner(&app, ip, &headers, req).await {
        // The password was right: this browser is now a known device of the account.
        Ok((code, login)) => OAuthReply::new(state, Ok(code))
            .with_cookies(vec![cookies::device(&app.config, &login)]),
        Err(err) => OAuthReply::new(state, Err(err)),
    }
}

pub(super) async fn authorize_inner(
    app: &AppState,
    ip: std::net::IpAddr,
    headers: &HeaderMap,
    req: AuthorizeRequest,
) -> Result<(CodePayload, String)> {
    app.limits.check_ip(ip, Endpoint::Authorize).await?;
    let req: Authorize = req.try_into()?;
    let params = AuthorizationParams::check(app, headers, req.authorization).await?;
    let account = verify_credentials(app, req.email, &req.password, ip, headers).await?;
    let code = store::issue_code(
        &app.db,
        store::CodeGrant {
            account_id: &account.id,
            client_id: &params.client.id,
            redirect_uri: &params.redirect_uri,
            code_challenge: &params.code_challenge,
            scope: &params.scope,
            nonce: req.nonce.as_deref(),
            second_factor_done: false,
        },
    )
    .await?;
    Ok((CodePayload { code }, account.login))
}
