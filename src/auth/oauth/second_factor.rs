//! Setting up the SMS second factor: `GET /authenticators` and `POST /associate`.

use super::request::*;
use super::token::{live_account, live_challenge, send_code};
use axum::extract::State;
use axum::http::HeaderMap;
use axum::http::header::AUTHORIZATION;
use serde::{Deserialize, Deserializer, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::accounts::messages::{self, sms_permit};
use crate::accounts::model::{PhoneNumber, mask_phone};
use crate::accounts::store::{self as accounts, AccountLink};
use crate::auth::rate_limit::Endpoint;
use crate::envelope::{Envelope, OAuthBody, OAuthReply, QueryParams};
use crate::error::{Error, Result};
use crate::i18n::Msg;
use crate::openapi::{Failure, one_of};
use crate::state::AppState;

pub(super) fn mfa_bearer(headers: &HeaderMap) -> Result<String> {
    headers
        .get(AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split_once(' '))
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .map(|(_, token)| token.trim().to_owned())
        .ok_or_else(|| Error::unauthorized(Msg::MfaSessionExpired))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct AuthenticatorsQuery {
    /// The flow's PKCE verifier.
    #[param(value_type = String, required = true, min_length = 1)]
    pub(super) code_verifier: Option<String>,
    #[param(value_type = String, required = true, min_length = 1)]
    pub(super) client_id: Option<String>,
    pub(super) state: Option<String>,
}

/// The second half of an authenticators call, parsed once its challenge is live.
pub(super) struct Authenticators {
    pub(super) code_verifier: String,
}

impl TryFrom<AuthenticatorsQuery> for Authenticators {
    type Error = Error;

    fn try_from(query: AuthenticatorsQuery) -> Result<Self> {
        Ok(Self {
            code_verifier: required(&query.code_verifier, "code_verifier")?.to_owned(),
        })
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Authenticator {
    pub(super) id: String,
    /// `oob`.
    pub(super) authenticator_type: &'static str,
    /// `sms`.
    pub(super) oob_channel: &'static str,
    /// The phone, masked.
    pub(super) name: String,
    pub(super) active: bool,
}

/// The second factors of the account signing in (its phone, masked), for the holder of
/// the MFA token (as the bearer token).
#[utoipa::path(get, path = "/authenticators", tag = "oauth", security(("bearer" = [])),
    params(AuthenticatorsQuery),
    responses((status = 200, description = "The enrolled phone, or none.", body = Envelope<Vec<Authenticator>>)))]
#[tracing::instrument(skip_all)]
pub async fn authenticators(
    State(app): State<AppState>,
    headers: HeaderMap,
    QueryParams(query): QueryParams<AuthenticatorsQuery>,
) -> OAuthReply<Vec<Authenticator>> {
    let state = query.state.clone();
    let result = async {
        let client = bearer_call_client(&app, &query.client_id).await?;
        let challenge = live_challenge(&app, &mfa_bearer(&headers)?, &client).await?;
        let query = Authenticators::try_from(query)?;
        if !verifier_matches(&query.code_verifier, &challenge.code_challenge) {
            return Err(Error::bad_request(Msg::VerifierMismatch));
        }
        let account = live_account(&app, &challenge.account_id).await?;
        Ok(account
            .phone
            .iter()
            .map(|phone| Authenticator {
                id: format!("sms|{}", account.id),
                authenticator_type: "oob",
                oob_channel: "sms",
                name: mask_phone(phone),
                active: true,
            })
            .collect())
    }
    .await;
    OAuthReply::new(state, result)
}

/// A list that must name `value` (SMS is the one second factor offered).
pub(super) fn list_of(value: &str) -> utoipa::openapi::schema::Array {
    utoipa::openapi::schema::ArrayBuilder::new()
        .items(one_of(&[value]))
        .min_items(Some(1))
        .build()
}

pub(super) fn oob_only() -> utoipa::openapi::schema::Array {
    list_of("oob")
}

pub(super) fn sms_only() -> utoipa::openapi::schema::Array {
    list_of("sms")
}

/// A list field that also accepts a single value (form bodies cannot carry arrays).
pub(super) fn one_or_many<'de, D: Deserializer<'de>>(
    d: D,
) -> std::result::Result<Vec<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum OneOrMany {
        One(String),
        Many(Vec<String>),
    }
    Ok(match Option::<OneOrMany>::deserialize(d)? {
        None => Vec::new(),
        Some(OneOrMany::One(s)) => s.split_whitespace().map(str::to_owned).collect(),
        Some(OneOrMany::Many(v)) => v,
    })
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct AssociateRequest {
    /// `["oob"]` (a space-separated string is read too).
    #[serde(default, deserialize_with = "one_or_many")]
    #[schema(schema_with = oob_only, required = true)]
    pub(super) authenticator_types: Vec<String>,
    /// `["sms"]` (a space-separated string is read too).
    #[serde(default, deserialize_with = "one_or_many")]
    #[schema(schema_with = sms_only, required = true)]
    pub(super) oob_channels: Vec<String>,
    /// E.164, e.g. `+447700900123` (spaces, dashes, dots and brackets are ignored).
    #[schema(value_type = String, required = true, pattern = r"^[ ().-]*\+[ ().-]*[1-9]([ ().-]*[0-9]){7,14}[ ().-]*$")]
    pub(super) phone_number: Option<String>,
    /// The token of the e-mailed enrolment link (an account with the second factor on
    /// and no phone enrols one only with it).
    #[schema(value_type = String, required = false)]
    pub(super) enrolment_token: Option<String>,
    #[schema(value_type = String, required = true, min_length = 1)]
    pub(super) client_id: Option<String>,
    #[schema(value_type = String, required = false)]
    pub(super) state: Option<String>,
}

/// An association, parsed once its challenge is live: SMS asked for, a valid phone, and
/// the enrolment link's token when sent.
pub(super) struct Associate {
    pub(super) phone: PhoneNumber,
    pub(super) enrolment_token: Option<String>,
}

impl TryFrom<AssociateRequest> for Associate {
    type Error = Error;

    fn try_from(req: AssociateRequest) -> Result<Self> {
        if !req.authenticator_types.iter().any(|t| t == "oob")
            || !req.oob_channels.iter().any(|c| c == "sms")
        {
            return Err(Error::bad_request(Msg::OnlySmsCodes));
        }
        Ok(Self {
            phone: PhoneNumber::parse(required(&req.phone_number, "phone_number")?)?,
            enrolment_token: req.enrolment_token.filter(|t| !t.is_empty()),
        })
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Association {
    pub(super) authenticator_type: &'static str,
    pub(super) oob_channel: &'static str,
    pub(super) binding_method: &'static str,
}

/// Enrol a phone as the second factor of the account signing in (holder of the MFA
/// token), with the e-mailed enrolment link's token: a code goes to it by SMS.
#[utoipa::path(post, path = "/associate", tag = "oauth", security(("bearer" = [])),
    request_body(content((AssociateRequest = "application/x-www-form-urlencoded"), (AssociateRequest = "application/json"))),
    responses(
        (status = 200, description = "The code was sent.", body = Envelope<Association>),
        (status = 409, description = "A phone is already enrolled.", body = Failure)))]
#[tracing::instrument(skip_all)]
pub async fn associate(
    Caller { app, ip, headers }: Caller,
    OAuthBody(req): OAuthBody<AssociateRequest>,
) -> OAuthReply<Association> {
    let state = req.state.clone();
    let result = async {
        app.limits.check_ip(ip, Endpoint::CodeCheck).await?;
        let client = bearer_call_client(&app, &req.client_id).await?;
        let challenge = live_challenge(&app, &mfa_bearer(&headers)?, &client).await?;
        let req = Associate::try_from(req)?;
        let account = live_account(&app, &challenge.account_id).await?;
        // Someone holding only the password must not swap in their own phone.
        if account.phone.is_some() {
            return Err(Error::conflict(Msg::PhoneAlreadyEnrolled));
        }
        account.may_receive_sms()?;
        // Nor enrol one where there is none: that takes the owner's mailbox too. Without
        // the e-mailed link, the link is sent (to the account's address, never elsewhere).
        let Some(token) = req.enrolment_token.as_deref() else {
            messages::send_enrolment_link(&app, &account).await?;
            return Err(Error::forbidden(Msg::EnrolmentLinkSent));
        };
        // The link is spent only if the SMS may go: a number refused (its country, a cap)
        // leaves the link usable for another number.
        let mut tx = app.db.begin().await?;
        accounts::spend_account_link(&mut *tx, token, AccountLink::EnrolPhone, Some(&account.id))
            .await?
            .ok_or_else(|| Error::bad_request(Msg::EnrolmentLinkInvalid))?;
        let permit = sms_permit(&app, &account, req.phone.as_str()).await?;
        tx.commit().await?;
        send_code(&app, &challenge.token_hash, &account, permit, true).await?;
        Ok(Association {
            authenticator_type: "oob",
            oob_channel: "sms",
            binding_method: "prompt",
        })
    }
    .await;
    OAuthReply::new(state, result)
}
