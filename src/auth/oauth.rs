//! The OAuth2 sign-in endpoints: authorization code + PKCE (S256), the SMS second factor
//! (E108 → authenticators → associate → `mfa_code`), refresh rotation, logout, forgotten
//! passwords and registration. Every answer echoes the client's `state`.

use axum::extract::State;
use axum::http::HeaderMap;
use axum::http::header::AUTHORIZATION;
use serde::{Deserialize, Deserializer, Serialize};
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{Object, ObjectBuilder, OneOfBuilder, Schema, Type};
use utoipa::{IntoParams, ToSchema};

use super::clients::{self, BasicCredentials};
use super::cookies;
use super::credentials::verify_credentials;
use super::extract::{ClientIp, CurrentUser};
use super::model::Client;
use super::rate_limit::Endpoint;
use super::store::{self, CodeRow, MfaChallenge, SpentCode};
use super::tokens::{self, TokenSet};
use crate::accounts::messages::{self, sms_permit};
use crate::accounts::model::{
    Account, AccountRow, Email, Password, PhoneNumber, mask_phone, parse_time_zone,
};
use crate::accounts::signup::sign_up;
use crate::accounts::store::{self as accounts, AccountLink, LinkPurpose, OTP_MAX_TRIES, otp_hash};
use crate::crypto::{constant_time_eq, is_valid_pkce_verifier, pkce_challenge, random_digits};
use crate::db::now_ms;
use crate::envelope::{Envelope, OAuthBody, OAuthReply, QueryParams};
use crate::error::{Error, Result};
use crate::i18n::{self, Msg, Zone};
use crate::messaging::sms::SmsPermit;
use crate::openapi::{Failure, Nothing, one_of};
use crate::state::AppState;

const DEFAULT_SCOPE: &str = "openid profile email";
const KNOWN_SCOPES: [&str; 4] = ["openid", "profile", "email", "offline_access"];

fn response_type_code() -> Object {
    one_of(&["code"])
}

/// `response_type` where it may be left out (QR start).
pub(super) fn optional_response_type_code() -> Object {
    one_of(&["code"])
}

fn response_mode_query() -> Object {
    one_of(&["query"])
}

fn challenge_method_s256() -> Object {
    one_of(&["S256"])
}

fn required<'a>(value: &'a Option<String>, name: &str) -> Result<&'a str> {
    value
        .as_deref()
        .filter(|v| !v.is_empty())
        .ok_or_else(|| Error::bad_request(Msg::FieldRequired.with("field", name)))
}

fn basic_header(headers: &HeaderMap) -> Result<Option<BasicCredentials>> {
    clients::parse_basic(headers.get(AUTHORIZATION).and_then(|v| v.to_str().ok()))
}

/// Authenticate the client named in the body (and Basic header, when sent).
async fn client_of(
    app: &AppState,
    headers: &HeaderMap,
    client_id: &Option<String>,
    client_secret: &Option<String>,
) -> Result<Client> {
    let basic = basic_header(headers)?;
    let client_id = match (client_id.as_deref(), &basic) {
        (Some(id), _) if !id.is_empty() => id.to_owned(),
        (_, Some(basic)) => basic.client_id.clone(),
        _ => {
            return Err(Error::bad_request(
                Msg::FieldRequired.with("field", "client_id"),
            ));
        }
    };
    clients::authenticate(
        &app.db,
        &client_id,
        basic.as_ref(),
        client_secret.as_deref(),
    )
    .await
}

/// The client of a call whose Authorization header carries a bearer token instead of
/// client credentials (authenticators, associate): public clients only.
async fn bearer_call_client(app: &AppState, client_id: &Option<String>) -> Result<Client> {
    let client_id = client_id
        .as_deref()
        .filter(|id| !id.is_empty())
        .ok_or_else(|| Error::bad_request(Msg::FieldRequired.with("field", "client_id")))?;
    clients::authenticate(&app.db, client_id, None, None).await
}

fn parse_scope(scope: &Option<String>) -> Result<String> {
    let scope = scope
        .as_deref()
        .filter(|s| !s.trim().is_empty())
        .unwrap_or(DEFAULT_SCOPE);
    for part in scope.split_whitespace() {
        if !KNOWN_SCOPES.contains(&part) {
            return Err(Error::bad_request(Msg::UnknownScope.with("scope", part)));
        }
    }
    Ok(scope.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// The PKCE parameters of an authorization request: S256 only.
fn check_challenge(challenge: &str, method: &str) -> Result<()> {
    if method != "S256" {
        return Err(Error::bad_request(Msg::OnlyS256));
    }
    let well_formed = challenge.len() == 43
        && challenge
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if !well_formed {
        return Err(Error::bad_request(Msg::BadCodeChallenge));
    }
    Ok(())
}

fn verifier_matches(verifier: &str, challenge: &str) -> bool {
    is_valid_pkce_verifier(verifier) && constant_time_eq(&pkce_challenge(verifier), challenge)
}

/// What serde reads of the authorization part of a request (`authorize`, QR start): the
/// fields of both bodies (flattened into each).
#[derive(Debug, Deserialize, ToSchema)]
pub struct RawAuthorization {
    /// Space-separated, of `openid profile email offline_access` (default `openid profile
    /// email`); another scope is refused.
    #[schema(value_type = String, required = false, pattern = r"^\s*((openid|profile|email|offline_access)(\s+|$))*$")]
    pub scope: Option<String>,
    /// Exactly one the client registered.
    #[schema(value_type = String, required = true, min_length = 1)]
    pub redirect_uri: Option<String>,
    #[schema(value_type = String, required = true, pattern = "^[A-Za-z0-9_-]{43}$")]
    pub code_challenge: Option<String>,
    #[schema(schema_with = challenge_method_s256, required = true)]
    pub code_challenge_method: Option<String>,
    /// Required unless the Basic header names the client.
    #[schema(value_type = String, required = true, min_length = 1)]
    pub client_id: Option<String>,
    /// A confidential client's secret (or the Basic header's password).
    #[schema(value_type = String, required = false)]
    pub client_secret: Option<String>,
}

/// The authorization part of a request, parsed: the PKCE challenge is S256 and well
/// formed, the redirect URI is there and the scope is known. The client is named but
/// not yet authenticated.
#[derive(Debug)]
pub struct AuthorizationRequest {
    client_id: Option<String>,
    client_secret: Option<String>,
    redirect_uri: String,
    code_challenge: String,
    scope: String,
}

impl TryFrom<RawAuthorization> for AuthorizationRequest {
    type Error = Error;

    fn try_from(raw: RawAuthorization) -> Result<Self> {
        let challenge = required(&raw.code_challenge, "code_challenge")?;
        check_challenge(
            challenge,
            required(&raw.code_challenge_method, "code_challenge_method")?,
        )?;
        let redirect_uri = required(&raw.redirect_uri, "redirect_uri")?.to_owned();
        let scope = parse_scope(&raw.scope)?;
        Ok(Self {
            code_challenge: challenge.to_owned(),
            redirect_uri,
            scope,
            client_id: raw.client_id,
            client_secret: raw.client_secret,
        })
    }
}

/// The checked parameters of an authorization request (shared by `authorize` and QR).
pub struct AuthorizationParams {
    pub client: Client,
    pub redirect_uri: String,
    pub code_challenge: String,
    pub scope: String,
}

impl AuthorizationParams {
    /// Authenticate the request's client and check its redirect URI is registered.
    pub async fn check(
        app: &AppState,
        headers: &HeaderMap,
        req: AuthorizationRequest,
    ) -> Result<Self> {
        let client = client_of(app, headers, &req.client_id, &req.client_secret).await?;
        if !client.allows_redirect(&req.redirect_uri) {
            return Err(Error::bad_request(Msg::RedirectNotRegistered));
        }
        Ok(Self {
            client,
            redirect_uri: req.redirect_uri,
            code_challenge: req.code_challenge,
            scope: req.scope,
        })
    }
}

// ---------------------------------------------------------------------------- authorize

#[derive(Debug, Deserialize, ToSchema)]
pub struct AuthorizeRequest {
    #[schema(value_type = String, required = true, min_length = 1)]
    email: Option<String>,
    #[schema(value_type = String, required = true, min_length = 1)]
    password: Option<String>,
    #[schema(schema_with = response_type_code, required = true)]
    response_type: Option<String>,
    #[schema(schema_with = response_mode_query)]
    response_mode: Option<String>,
    #[serde(flatten)]
    authorization: RawAuthorization,
    #[schema(value_type = String, required = false)]
    state: Option<String>,
    #[schema(value_type = String, required = false)]
    nonce: Option<String>,
}

/// An authorization request, parsed: response type and mode, the authorization part,
/// then the credentials. An e-mail that does not parse names no account (the same
/// answer as a wrong password).
#[derive(Debug)]
struct Authorize {
    authorization: AuthorizationRequest,
    email: Option<Email>,
    password: String,
    nonce: Option<String>,
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
    code: String,
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
    State(app): State<AppState>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
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

async fn authorize_inner(
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

// -------------------------------------------------------------------------------- token

#[derive(Debug, Deserialize)]
pub struct TokenRequest {
    grant_type: Option<String>,
    code: Option<String>,
    redirect_uri: Option<String>,
    code_verifier: Option<String>,
    client_id: Option<String>,
    client_secret: Option<String>,
    state: Option<String>,
    binding_code: Option<String>,
    mfa_token: Option<String>,
    refresh_token: Option<String>,
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
enum Grant {
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
struct Token {
    grant: Grant,
    client_id: Option<String>,
    client_secret: Option<String>,
}

impl TokenRequest {
    /// The rate-limit bucket, chosen before anything is parsed: MFA codes have their own.
    fn endpoint(&self) -> Endpoint {
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

fn status_e108() -> Object {
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
    State(app): State<AppState>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    OAuthBody(req): OAuthBody<TokenRequest>,
) -> OAuthReply<TokenPayload> {
    let state = req.state.clone();
    let mut cookies = Vec::new();
    let result = token_inner(&app, ip, &headers, req, &mut cookies).await;
    OAuthReply::new(state, result).with_cookies(cookies)
}

async fn token_inner(
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

async fn exchange_code(
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

async fn live_account(app: &AppState, id: &str) -> Result<AccountRow> {
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
async fn begin_second_factor(
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

async fn send_code(
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
async fn live_challenge(app: &AppState, mfa_token: &str, client: &Client) -> Result<MfaChallenge> {
    let challenge = store::mfa_challenge(&app.db, mfa_token)
        .await?
        .filter(|c| c.is_live(now_ms()))
        .ok_or_else(|| Error::unauthorized(Msg::MfaSessionExpired))?;
    if challenge.client_id != client.id {
        return Err(Error::unauthorized(Msg::MfaSessionExpired));
    }
    Ok(challenge)
}

async fn complete_second_factor(
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

// ------------------------------------------------------------------ second-factor setup

fn mfa_bearer(headers: &HeaderMap) -> Result<String> {
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
    code_verifier: Option<String>,
    #[param(value_type = String, required = true, min_length = 1)]
    client_id: Option<String>,
    state: Option<String>,
}

/// The second half of an authenticators call, parsed once its challenge is live.
struct Authenticators {
    code_verifier: String,
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
    id: String,
    /// `oob`.
    authenticator_type: &'static str,
    /// `sms`.
    oob_channel: &'static str,
    /// The phone, masked.
    name: String,
    active: bool,
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
fn list_of(value: &str) -> utoipa::openapi::schema::Array {
    utoipa::openapi::schema::ArrayBuilder::new()
        .items(one_of(&[value]))
        .min_items(Some(1))
        .build()
}

fn oob_only() -> utoipa::openapi::schema::Array {
    list_of("oob")
}

fn sms_only() -> utoipa::openapi::schema::Array {
    list_of("sms")
}

/// A list field that also accepts a single value (form bodies cannot carry arrays).
fn one_or_many<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<Vec<String>, D::Error> {
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
    authenticator_types: Vec<String>,
    /// `["sms"]` (a space-separated string is read too).
    #[serde(default, deserialize_with = "one_or_many")]
    #[schema(schema_with = sms_only, required = true)]
    oob_channels: Vec<String>,
    /// E.164, e.g. `+447700900123` (spaces, dashes, dots and brackets are ignored).
    #[schema(value_type = String, required = true, pattern = r"^[ ().-]*\+[ ().-]*[1-9]([ ().-]*[0-9]){7,14}[ ().-]*$")]
    phone_number: Option<String>,
    /// The token of the e-mailed enrolment link (an account with the second factor on
    /// and no phone enrols one only with it).
    #[schema(value_type = String, required = false)]
    enrolment_token: Option<String>,
    #[schema(value_type = String, required = true, min_length = 1)]
    client_id: Option<String>,
    #[schema(value_type = String, required = false)]
    state: Option<String>,
}

/// An association, parsed once its challenge is live: SMS asked for, a valid phone, and
/// the enrolment link's token when sent.
struct Associate {
    phone: PhoneNumber,
    enrolment_token: Option<String>,
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
    authenticator_type: &'static str,
    oob_channel: &'static str,
    binding_method: &'static str,
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
    State(app): State<AppState>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
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

// --------------------------------------------------------- logout, forgot, reset, register

/// What a logout names: the session of a valid bearer token, or else a refresh cookie.
enum Logout {
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

/// The checks every e-mailed-link endpoint (forgot, reset, verify-email, confirm-email)
/// starts with, in this order: the source's rate, then the client.
async fn link_call(
    app: &AppState,
    ip: std::net::IpAddr,
    headers: &HeaderMap,
    client_id: &Option<String>,
) -> Result<()> {
    app.limits.check_ip(ip, Endpoint::Forgot).await?;
    client_of(app, headers, client_id, &None).await?;
    Ok(())
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ForgotRequest {
    #[schema(value_type = String, required = true, format = Email)]
    email: Option<String>,
    #[allow(dead_code)]
    #[schema(value_type = String, required = false)]
    code_verifier: Option<String>,
    /// Required unless the Basic header names the client.
    #[schema(value_type = String, required = true, min_length = 1)]
    client_id: Option<String>,
    #[schema(value_type = String, required = false)]
    state: Option<String>,
}

struct Forgot {
    email: Email,
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
    State(app): State<AppState>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
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

#[derive(Debug, Deserialize, ToSchema)]
pub struct ResetRequest {
    /// The e-mailed link's token.
    #[schema(value_type = String, required = true, min_length = 1)]
    token: Option<String>,
    /// The new password: 8–128 characters, not among the 10,000 most common.
    #[schema(value_type = String, required = true, min_length = 8, max_length = 128)]
    password: Option<String>,
    /// Required unless the Basic header names the client.
    #[schema(value_type = String, required = true, min_length = 1)]
    client_id: Option<String>,
    #[schema(value_type = String, required = false)]
    state: Option<String>,
}

/// A reset, parsed as far as it may be before its link is checked: the new password
/// stays raw until then (a bad link costs no hashing and says nothing about it).
struct Reset {
    token: String,
    password: Option<String>,
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
    fn new_password(&self) -> Result<Password> {
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
    State(app): State<AppState>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
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

#[derive(Debug, Deserialize, ToSchema)]
pub struct RegisterRequest {
    #[schema(value_type = String, required = true, format = Email)]
    email: Option<String>,
    /// 8–128 characters, not among the 10,000 most common.
    #[schema(value_type = String, required = true, min_length = 8, max_length = 128)]
    password: Option<String>,
    #[allow(dead_code)]
    #[schema(value_type = String, required = false)]
    code_verifier: Option<String>,
    /// Required unless the Basic header names the client.
    #[schema(value_type = String, required = true, min_length = 1)]
    client_id: Option<String>,
    #[schema(value_type = String, required = false)]
    state: Option<String>,
    /// The browser's IANA time zone (`Asia/Tehran`): notices write times in it.
    #[serde(alias = "timeZone")]
    #[schema(value_type = String, required = false, example = "Asia/Tehran")]
    time_zone: Option<String>,
}

/// A registration, parsed: an e-mail address, a password that meets the policy, and the
/// time zone if one was sent.
struct Register {
    email: Email,
    password: Password,
    zone: Option<Zone>,
    client_id: Option<String>,
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
    State(app): State<AppState>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
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

#[derive(Debug, Deserialize, ToSchema)]
pub struct VerifyEmailRequest {
    /// The e-mailed link's token.
    #[schema(value_type = String, required = true, min_length = 1)]
    token: Option<String>,
    /// Required unless the Basic header names the client.
    #[schema(value_type = String, required = true, min_length = 1)]
    client_id: Option<String>,
    #[schema(value_type = String, required = false)]
    state: Option<String>,
}

/// A verify-email or confirm-email call, parsed: the link's token.
struct LinkToken {
    token: String,
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
    State(app): State<AppState>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    OAuthBody(req): OAuthBody<VerifyEmailRequest>,
) -> OAuthReply<()> {
    let state = req.state.clone();
    let result = async {
        link_call(&app, ip, &headers, &req.client_id).await?;
        let LinkToken { token } = req.try_into()?;
        let mut tx = app.db.begin().await?;
        let (account_id, _) = accounts::spend_link(&mut *tx, &token, &[LinkPurpose::Verify])
            .await?
            .ok_or_else(|| Error::bad_request(Msg::VerifyLinkInvalid))?;
        let changed = accounts::mark_email_verified(&mut *tx, &account_id).await?;
        tx.commit().await?;
        app.publish(changed);
        Ok(())
    }
    .await;
    OAuthReply::new(state, result)
}

// -------------------------------------------------------------------- e-mail change

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
    State(app): State<AppState>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    OAuthBody(req): OAuthBody<VerifyEmailRequest>,
) -> OAuthReply<()> {
    let state = req.state.clone();
    let result = async {
        link_call(&app, ip, &headers, &req.client_id).await?;
        let LinkToken { token } = req.try_into()?;
        let mut tx = app.db.begin().await?;
        let (account_id, new_login) =
            accounts::spend_account_link(&mut *tx, &token, AccountLink::ChangeEmail, None)
                .await?
                .and_then(|(id, login)| Some((id, login?)))
                .ok_or_else(|| Error::bad_request(Msg::EmailChangeLinkInvalid))?;
        let changed = accounts::set_login(&mut *tx, &account_id, &new_login).await?;
        tx.commit().await?;
        app.publish(changed);
        Ok(())
    }
    .await;
    OAuthReply::new(state, result)
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;

    const CHALLENGE: &str = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";

    /// A request as serde reads it from a JSON body.
    fn body<T: serde::de::DeserializeOwned>(fields: Value) -> T {
        serde_json::from_value(fields).expect("a well-typed body")
    }

    /// An authorization request with `changes` applied over a valid one.
    fn authorization(changes: Value) -> Result<AuthorizationRequest> {
        let mut fields = json!({
            "client_id": "web",
            "redirect_uri": "https://example.test/cb",
            "code_challenge": CHALLENGE,
            "code_challenge_method": "S256",
        });
        if let (Some(fields), Value::Object(changes)) = (fields.as_object_mut(), changes) {
            fields.extend(changes);
        }
        AuthorizationRequest::try_from(body::<AuthorizeRequest>(fields).authorization)
    }

    fn grant(fields: Value) -> Result<Grant> {
        Token::try_from(body::<TokenRequest>(fields)).map(|token| token.grant)
    }

    fn is_bad_request(result: Result<impl std::fmt::Debug>) -> bool {
        matches!(result, Err(Error::BadRequest(_)))
    }

    #[test]
    fn an_authorization_request_parses_with_the_default_scope() {
        let req = authorization(json!({})).unwrap();
        assert_eq!(req.code_challenge, CHALLENGE);
        assert_eq!(req.redirect_uri, "https://example.test/cb");
        assert_eq!(req.scope, DEFAULT_SCOPE);
        assert_eq!(req.client_id.as_deref(), Some("web"));
    }

    #[test]
    fn an_authorization_request_without_s256_or_a_well_formed_challenge_is_refused() {
        assert!(is_bad_request(authorization(
            json!({ "code_challenge_method": "plain" })
        )));
        assert!(is_bad_request(authorization(
            json!({ "code_challenge": "abc" })
        )));
        assert!(is_bad_request(authorization(json!({ "redirect_uri": "" }))));
    }

    #[test]
    fn an_unknown_scope_is_refused_and_a_known_one_is_normalised() {
        assert!(is_bad_request(authorization(
            json!({ "scope": "openid admin" })
        )));
        let req = authorization(json!({ "scope": "  openid   offline_access " })).unwrap();
        assert_eq!(req.scope, "openid offline_access");
    }

    #[test]
    fn each_grant_type_parses_into_its_grant() {
        assert_eq!(
            grant(json!({
                "grant_type": "authorization_code",
                "code": "c", "redirect_uri": "r", "code_verifier": "v"
            }))
            .unwrap(),
            Grant::AuthorizationCode {
                code: "c".into(),
                redirect_uri: "r".into(),
                code_verifier: "v".into()
            }
        );
        assert_eq!(
            grant(json!({
                "grant_type": "mfa_code",
                "mfa_token": "m", "binding_code": " 123456 ", "code_verifier": "v"
            }))
            .unwrap(),
            Grant::MfaCode {
                mfa_token: "m".into(),
                binding_code: "123456".into(),
                code_verifier: "v".into()
            }
        );
        assert_eq!(
            grant(json!({ "grant_type": "refresh_token", "refresh_token": "" })).unwrap(),
            Grant::RefreshToken {
                refresh_token: None
            }
        );
    }

    #[test]
    fn a_missing_or_unknown_grant_or_a_missing_field_is_refused() {
        assert!(is_bad_request(grant(json!({}))));
        assert!(is_bad_request(grant(json!({ "grant_type": "password" }))));
        assert!(is_bad_request(grant(
            json!({ "grant_type": "authorization_code" })
        )));
        assert!(is_bad_request(grant(json!({
            "grant_type": "mfa_code", "mfa_token": "m", "binding_code": "1"
        }))));
    }

    #[test]
    fn the_mfa_grant_has_its_own_rate_limit_bucket() {
        let endpoint =
            |grant_type: &str| body::<TokenRequest>(json!({ "grant_type": grant_type })).endpoint();
        assert!(matches!(endpoint("mfa_code"), Endpoint::CodeCheck));
        assert!(matches!(endpoint("authorization_code"), Endpoint::Token));
    }

    #[test]
    fn a_registration_needs_a_valid_email_and_a_policy_password() {
        let register = |email: &str, password: &str| {
            Register::try_from(body::<RegisterRequest>(
                json!({ "email": email, "password": password }),
            ))
        };
        assert!(register("fan@example.test", "a long enough passphrase 42").is_ok());
        assert!(register("not an address", "a long enough passphrase 42").is_err());
        assert!(register("fan@example.test", "x").is_err());
        assert!(is_bad_request(
            register("", "a long enough passphrase 42").map(|_| ())
        ));
    }

    #[test]
    fn an_association_asks_for_sms_and_a_valid_phone() {
        let associate = |fields: Value| Associate::try_from(body::<AssociateRequest>(fields));
        let parsed = associate(json!({
            "authenticator_types": "oob", "oob_channels": ["sms"],
            "phone_number": "+15550100123", "enrolment_token": ""
        }))
        .unwrap();
        assert_eq!(parsed.phone.as_str(), "+15550100123");
        assert_eq!(parsed.enrolment_token, None);
        assert!(is_bad_request(
            associate(json!({ "authenticator_types": "otp", "oob_channels": "sms" })).map(|_| ())
        ));
        assert!(is_bad_request(
            associate(json!({ "authenticator_types": "oob", "oob_channels": "sms" })).map(|_| ())
        ));
    }

    #[test]
    fn a_reset_keeps_its_new_password_raw_until_asked() {
        let reset = Reset::try_from(body::<ResetRequest>(
            json!({ "token": "t", "password": "x" }),
        ))
        .unwrap();
        assert_eq!(reset.token, "t");
        // A password the policy refuses is refused only when asked for, after the link.
        assert!(reset.new_password().is_err());
        assert!(is_bad_request(
            Reset::try_from(body::<ResetRequest>(json!({ "password": "x" }))).map(|_| ())
        ));
    }
}
