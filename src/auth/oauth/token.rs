//! `POST /token` (the code, refresh and second-factor grants) and `POST /logout`.

use super::request::*;
use axum::extract::State;
use axum::http::HeaderMap;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{Object, ObjectBuilder, OneOfBuilder, Schema, Type};

use crate::accounts::messages::sms_permit;
use crate::accounts::model::AccountRow;
use crate::accounts::store::{self as accounts, OTP_MAX_TRIES, otp_hash};
use crate::auth::cookies;
use crate::auth::extract::CurrentUser;
use crate::auth::model::Client;
use crate::auth::rate_limit::Endpoint;
use crate::auth::store::{self, CodeRow, MfaChallenge, SpentCode};
use crate::auth::tokens::{self, TokenSet};
use crate::crypto::{constant_time_eq, random_digits};
use crate::db::now_ms;
use crate::envelope::{Envelope, OAuthBody, OAuthReply};
use crate::error::{Error, Result};
use crate::i18n::Msg;
use crate::messaging::sms::SmsPermit;
use crate::openapi::{Failure, Nothing, one_of};
use crate::state::AppState;

#[derive(Debug, Deserialize)]
pub struct TokenRequest {
    pub(super) grant_type: Option<String>,
    pub(super) code: Option<String>,
    pub(super) redirect_uri: Option<String>,
    pub(super) code_verifier: Option<String>,
    pub(super) client_id: Option<String>,
    pub(super) client_secret: Option<String>,
    pub(super) state: Option<String>,
    pub(super) binding_code: Option<String>,
    pub(super) mfa_token: Option<String>,
    pub(super) refresh_token: Option<String>,
}

/// One schema per grant, each with the fields it requires (the handler refuses a missing
/// one with a 400): what the derive cannot say of one struct read three ways.
impl utoipa::PartialSchema for TokenRequest {
    fn schema() -> RefOr<Schema> {
        let text = |description: &str| {
            ObjectBuilder::new()
                .schema_type(Type::String)
                .min_length(Some(1))
                .description(Some(description))
        };
        let optional = || ObjectBuilder::new().schema_type(Type::String);
        let grant = |grant_type: &str, fields: &[(&str, &str)]| {
            let mut schema = ObjectBuilder::new()
                .title(Some(grant_type))
                .property("grant_type", one_of(&[grant_type]))
                .required("grant_type")
                .property(
                    "client_id",
                    text("Required unless the Basic header names the client."),
                )
                .required("client_id")
                .property("client_secret", optional())
                .property("state", optional());
            for (name, description) in fields {
                schema = schema.property(*name, text(description)).required(*name);
            }
            schema
        };
        OneOfBuilder::new()
            .item(grant(
                "authorization_code",
                &[
                    ("code", "The code from `authorize` or a QR poll."),
                    ("redirect_uri", "The one the code was issued for."),
                    ("code_verifier", "The flow's PKCE verifier."),
                ],
            ))
            .item(grant(
                "mfa_code",
                &[
                    ("mfa_token", "From the E108 answer."),
                    ("binding_code", "The 6-digit code sent by SMS."),
                    ("code_verifier", "The flow's PKCE verifier."),
                ],
            ))
            .item(grant("refresh_token", &[]).property(
                "refresh_token",
                optional().description(Some("Left out: the refresh cookie is read.")),
            ))
            .into()
    }
}

impl ToSchema for TokenRequest {}

/// A token request's grant, its fields present.
#[derive(Debug, PartialEq)]
pub(super) enum Grant {
    AuthorizationCode {
        code: String,
        redirect_uri: String,
        code_verifier: String,
    },
    MfaCode {
        mfa_token: String,
        binding_code: String,
        code_verifier: String,
    },
    /// Without a token in the body, the refresh cookie is read.
    RefreshToken { refresh_token: Option<String> },
}

/// A token request, parsed: the grant and the client it names.
#[derive(Debug)]
pub(super) struct Token {
    pub(super) grant: Grant,
    pub(super) client_id: Option<String>,
    pub(super) client_secret: Option<String>,
}

impl TokenRequest {
    /// The rate-limit bucket, chosen before anything is parsed: MFA codes have their own.
    pub(super) fn endpoint(&self) -> Endpoint {
        match self.grant_type.as_deref() {
            Some("mfa_code") => Endpoint::CodeCheck,
            _ => Endpoint::Token,
        }
    }
}

impl TryFrom<TokenRequest> for Token {
    type Error = Error;

    fn try_from(req: TokenRequest) -> Result<Self> {
        let owned = |value: &Option<String>, name: &str| required(value, name).map(str::to_owned);
        let grant = match required(&req.grant_type, "grant_type")? {
            "authorization_code" => Grant::AuthorizationCode {
                code: owned(&req.code, "code")?,
                redirect_uri: owned(&req.redirect_uri, "redirect_uri")?,
                code_verifier: owned(&req.code_verifier, "code_verifier")?,
            },
            "mfa_code" => Grant::MfaCode {
                mfa_token: owned(&req.mfa_token, "mfa_token")?,
                binding_code: required(&req.binding_code, "binding_code")?
                    .trim()
                    .to_owned(),
                // The flow's PKCE verifier proves this is the client that started it
                // (RFC 9700 2.1.1): an MFA token and a code alone are not enough.
                code_verifier: owned(&req.code_verifier, "code_verifier")?,
            },
            "refresh_token" => Grant::RefreshToken {
                refresh_token: req.refresh_token.filter(|t| !t.is_empty()),
            },
            other => {
                return Err(Error::bad_request(
                    Msg::UnsupportedGrant.with("grant", other),
                ));
            }
        };
        Ok(Self {
            grant,
            client_id: req.client_id,
            client_secret: req.client_secret,
        })
    }
}

/// `status: "OK"` with tokens, or `status: "E108"` with an MFA token.
#[derive(Debug, Serialize, ToSchema)]
#[serde(untagged)]
pub enum TokenPayload {
    Tokens(TokenSet),
    /// The password was right; the second factor (SMS) is next.
    SecondFactor {
        /// `E108`.
        #[schema(schema_with = status_e108)]
        status: &'static str,
        mfa_token: String,
        expires_in: i64,
    },
}

pub(super) fn status_e108() -> Object {
    one_of(&["E108"])
}

/// Exchange an authorization code, an SMS code (`mfa_code`) or a refresh token for
/// tokens, for any client; an account with the second factor on gets E108 first.
#[utoipa::path(post, path = "/token", tag = "oauth",
    request_body(content((TokenRequest = "application/x-www-form-urlencoded"), (TokenRequest = "application/json"))),
    responses(
        (status = 200, description = "Tokens, or E108 with an MFA token.", body = Envelope<TokenPayload>),
        (status = 401, description = "An unknown client, a disabled account or an expired MFA session.", body = Failure),
        (status = 403, description = "An SMS cannot be sent before the e-mail address is verified.", body = Failure)))]
#[tracing::instrument(skip_all)]
pub async fn token(
    Caller { app, ip, headers }: Caller,
    OAuthBody(req): OAuthBody<TokenRequest>,
) -> OAuthReply<TokenPayload> {
    let state = req.state.clone();
    let mut cookies = Vec::new();
    let result = token_inner(&app, ip, &headers, req, &mut cookies).await;
    OAuthReply::new(state, result).with_cookies(cookies)
}

pub(super) async fn token_inner(
    app: &AppState,
    ip: std::net::IpAddr,
    headers: &HeaderMap,
    req: TokenRequest,
    cookies: &mut Vec<axum::http::HeaderValue>,
) -> Result<TokenPayload> {
    app.limits.check_ip(ip, req.endpoint()).await?;
    let req: Token = req.try_into()?;
    let client = client_of(app, headers, &req.client_id, &req.client_secret).await?;
    let payload = match &req.grant {
        Grant::AuthorizationCode {
            code,
            redirect_uri,
            code_verifier,
        } => exchange_code(app, &client, code, redirect_uri, code_verifier).await,
        Grant::MfaCode {
            mfa_token,
            binding_code,
            code_verifier,
        } => complete_second_factor(app, &client, mfa_token, binding_code, code_verifier).await,
        Grant::RefreshToken { refresh_token } => {
            // From the body, or else from the refresh cookie (the dashboard never sees it).
            let from_cookie = refresh_token.is_none();
            let refresh = match refresh_token {
                None => cookies::read(headers, cookies::REFRESH),
                Some(token) => Some(token.clone()),
            };
            let refresh = required(&refresh, "refresh_token")?;
            let rotated = tokens::rotate(app, refresh, &client.id).await;
            // A refused token (spent, reused, revoked, another client's) is of no more use:
            // the browser forgets it too.
            if matches!(rotated, Err(Error::BadRequest(_)))
                && (from_cookie || client.refresh_in_cookie())
            {
                cookies.extend(cookies::clear_session(&app.config));
            }
            rotated.map(TokenPayload::Tokens)
        }
    }?;
    Ok(match payload {
        // A cookie client's refresh token leaves the body for an HttpOnly cookie.
        TokenPayload::Tokens(mut set) if client.refresh_in_cookie() => {
            if let Some(refresh) = set.refresh_token.take() {
                cookies.extend(cookies::session(&app.config, &refresh));
            }
            TokenPayload::Tokens(set)
        }
        other => other,
    })
}

pub(super) async fn exchange_code(
    app: &AppState,
    client: &Client,
    code: &str,
    redirect_uri: &str,
    verifier: &str,
) -> Result<TokenPayload> {
    let grant = match store::spend_code(&app.db, code).await? {
        SpentCode::Fresh(grant) => grant,
        SpentCode::Replayed(session) => {
            // A code used twice was intercepted: end what the first use produced.
            if let Some(session) = session {
                app.publish(
                    store::end_session(&app.db, &session, "authorization code replay").await?,
                );
            }
            return Err(Error::bad_request(Msg::CodeAlreadyUsed));
        }
        SpentCode::Unknown => return Err(Error::bad_request(Msg::InvalidCode)),
    };
    if grant.expires_at <= now_ms() {
        return Err(Error::bad_request(Msg::InvalidCode));
    }
    if grant.client_id != client.id {
        return Err(Error::bad_request(Msg::CodeOtherClient));
    }
    if grant.redirect_uri != redirect_uri {
        return Err(Error::bad_request(Msg::RedirectMismatch));
    }
    if !verifier_matches(verifier, &grant.code_challenge) {
        return Err(Error::bad_request(Msg::VerifierMismatch));
    }
    let account = live_account(app, &grant.account_id).await?;

    if account.use_mfa() && grant.second_factor_done == 0 {
        return begin_second_factor(app, &account, &grant).await;
    }
    let second_factor = account.use_mfa() && grant.second_factor_done != 0;
    let (session, tokens) = tokens::start_session(
        &app.db,
        &app.keys,
        &account,
        &client.id,
        &grant.scope,
        second_factor,
    )
    .await?;
    store::link_code_to_session(&app.db, code, &session).await?;
    Ok(TokenPayload::Tokens(tokens))
}

pub(super) async fn live_account(app: &AppState, id: &str) -> Result<AccountRow> {
    let account = accounts::by_id(&app.db, id)
        .await?
        .ok_or_else(|| Error::bad_request(Msg::InvalidCode))?;
    if !account.enabled() {
        return Err(Error::unauthorized(Msg::AccountDisabled));
    }
    Ok(account)
}

/// E108: the password was right; now the second factor. When a phone is enrolled its
/// code goes out at once.
pub(super) async fn begin_second_factor(
    app: &AppState,
    account: &AccountRow,
    grant: &CodeRow,
) -> Result<TokenPayload> {
    // Asked before anything is stored: a refused SMS leaves no challenge behind.
    let permit = match &account.phone {
        Some(phone) => Some(sms_permit(app, account, phone).await?),
        None => None,
    };
    let mfa_token = store::create_mfa_challenge(&app.db, grant).await?;
    if let Some(permit) = permit {
        let hash = crate::crypto::token_hash(&mfa_token);
        send_code(app, &hash, account, permit, false).await?;
    }
    Ok(TokenPayload::SecondFactor {
        status: "E108",
        mfa_token,
        expires_in: store::MFA_TOKEN_TTL_MS / 1000,
    })
}

pub(super) async fn send_code(
    app: &AppState,
    challenge_hash: &str,
    account: &AccountRow,
    permit: SmsPermit,
    enrolling: bool,
) -> Result<()> {
    let code = random_digits(6);
    let pending_phone = enrolling.then_some(permit.to());
    store::set_challenge_code(&app.db, challenge_hash, &code, pending_phone).await?;
    let body = Msg::SmsSignInCode
        .with("code", code.as_str())
        .render(account.language);
    app.messenger.send_sms(permit, body, code);
    Ok(())
}

/// A live challenge from an MFA token, for the given client.
pub(super) async fn live_challenge(
    app: &AppState,
    mfa_token: &str,
    client: &Client,
) -> Result<MfaChallenge> {
    let challenge = store::mfa_challenge(&app.db, mfa_token)
        .await?
        .filter(|c| c.is_live(now_ms()))
        .ok_or_else(|| Error::unauthorized(Msg::MfaSessionExpired))?;
    if challenge.client_id != client.id {
        return Err(Error::unauthorized(Msg::MfaSessionExpired));
    }
    Ok(challenge)
}

pub(super) async fn complete_second_factor(
    app: &AppState,
    client: &Client,
    mfa_token: &str,
    binding_code: &str,
    verifier: &str,
) -> Result<TokenPayload> {
    let challenge = live_challenge(app, mfa_token, client).await?;
    if !verifier_matches(verifier, &challenge.code_challenge) {
        return Err(Error::bad_request(Msg::VerifierMismatch));
    }
    let (Some(expected), Some(code_expires)) = (&challenge.otp_hash, challenge.otp_expires_at)
    else {
        return Err(Error::bad_request(Msg::NoCodeSent));
    };
    if code_expires <= now_ms() {
        return Err(Error::bad_request(Msg::SignInCodeExpired));
    }
    if !store::take_challenge_try(&app.db, &challenge.token_hash).await? {
        return Err(Error::bad_request(Msg::TooManyWrongCodes));
    }
    let given = otp_hash(&challenge.token_hash, binding_code);
    if !constant_time_eq(&given, expected) {
        let left = OTP_MAX_TRIES - challenge.otp_attempts - 1;
        return Err(if left > 0 {
            Error::bad_request(Msg::CodeIncorrectTriesLeft.with("left", left))
        } else {
            Error::bad_request(Msg::TooManyWrongCodes)
        });
    }
    if !store::consume_challenge(&app.db, &challenge.token_hash).await? {
        return Err(Error::unauthorized(Msg::MfaSessionExpired));
    }
    if let Some(phone) = &challenge.pending_phone {
        app.publish(accounts::set_phone(&app.db, &challenge.account_id, Some(phone)).await?);
    }
    let account = live_account(app, &challenge.account_id).await?;
    // This session passed the second factor: it may change the phone later.
    let (_, tokens) = tokens::start_session(
        &app.db,
        &app.keys,
        &account,
        &client.id,
        &challenge.scope,
        true,
    )
    .await?;
    Ok(TokenPayload::Tokens(tokens))
}

/// What a logout names: the session of a valid bearer token, or else a refresh cookie.
pub(super) enum Logout {
    Session(String),
    RefreshCookie(String),
}

impl TryFrom<(std::result::Result<CurrentUser, Error>, &HeaderMap)> for Logout {
    type Error = Error;

    fn try_from(
        (user, headers): (std::result::Result<CurrentUser, Error>, &HeaderMap),
    ) -> Result<Self> {
        match user {
            Ok(user) => Ok(Self::Session(user.session_id)),
            // Without either, the bearer token's refusal is the answer.
            Err(err) => cookies::read(headers, cookies::REFRESH)
                .map(Self::RefreshCookie)
                .ok_or(err),
        }
    }
}

/// End the session of the bearer token, or else of the refresh cookie (an expired access
/// token still signs out); the refresh cookie and the flag are cleared either way.
#[utoipa::path(post, path = "/logout", tag = "oauth", security((), ("bearer" = [])),
    responses((status = 200, description = "Signed out.", body = Envelope<Nothing>)))]
#[tracing::instrument(skip_all)]
pub async fn logout(
    State(app): State<AppState>,
    headers: HeaderMap,
    user: std::result::Result<CurrentUser, Error>,
) -> OAuthReply<()> {
    let result = async {
        let session = match Logout::try_from((user, &headers))? {
            Logout::Session(session) => Some(session),
            Logout::RefreshCookie(refresh) => store::session_of_refresh(&app.db, &refresh).await?,
        };
        match session {
            Some(session) => {
                app.publish(store::end_session(&app.db, &session, "logout").await?);
                Ok(())
            }
            None => Err(Error::unauthorized(Msg::SessionEnded)),
        }
    }
    .await;
    OAuthReply::new(None, result).with_cookies(cookies::clear_session(&app.config))
}
