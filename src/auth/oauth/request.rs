//! What every sign-in endpoint checks of a request: the client (and its secret), the
//! scopes, PKCE, and the authorization request that `/authorize` completes.

use axum::http::HeaderMap;
use axum::http::header::AUTHORIZATION;
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa::openapi::schema::Object;

use crate::auth::clients::{self, BasicCredentials};
use crate::auth::model::Client;
use crate::auth::rate_limit::Endpoint;
use crate::crypto::{constant_time_eq, is_valid_pkce_verifier, pkce_challenge};
use crate::error::{Error, Result};
use crate::i18n::Msg;
use crate::openapi::one_of;
use crate::state::AppState;

pub(super) const DEFAULT_SCOPE: &str = "openid profile email";
pub(super) const KNOWN_SCOPES: [&str; 4] = ["openid", "profile", "email", "offline_access"];

pub(super) fn response_type_code() -> Object {
    one_of(&["code"])
}

/// `response_type` where it may be left out (QR start).
pub(crate) fn optional_response_type_code() -> Object {
    one_of(&["code"])
}

pub(super) fn response_mode_query() -> Object {
    one_of(&["query"])
}

pub(super) fn challenge_method_s256() -> Object {
    one_of(&["S256"])
}

/// The body of a call that names its client by id (sign-up and the e-mailed-link calls):
/// the struct with its own fields, then `client_id` and the `state` its answer echoes. A
/// macro rather than a shared struct, as `#[serde(flatten)]` would turn the schema into an
/// `allOf`.
macro_rules! client_body {
    ($(#[$meta:meta])* pub struct $name:ident { $($fields:tt)* }) => {
        $(#[$meta])*
        #[derive(Debug, serde::Deserialize, utoipa::ToSchema)]
        pub struct $name {
            $($fields)*
            /// Required unless the Basic header names the client.
            #[schema(value_type = String, required = true, min_length = 1)]
            pub(super) client_id: Option<String>,
            #[schema(value_type = String, required = false)]
            pub(super) state: Option<String>,
        }
    };
}
pub(super) use client_body;

pub(super) fn required<'a>(value: &'a Option<String>, name: &str) -> Result<&'a str> {
    value
        .as_deref()
        .filter(|v| !v.is_empty())
        .ok_or_else(|| Error::bad_request(Msg::FieldRequired.with("field", name)))
}

pub(super) fn basic_header(headers: &HeaderMap) -> Result<Option<BasicCredentials>> {
    clients::parse_basic(headers.get(AUTHORIZATION).and_then(|v| v.to_str().ok()))
}

/// Authenticate the client named in the body (and Basic header, when sent).
pub(super) async fn client_of(
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
pub(super) async fn bearer_call_client(
    app: &AppState,
    client_id: &Option<String>,
) -> Result<Client> {
    let client_id = client_id
        .as_deref()
        .filter(|id| !id.is_empty())
        .ok_or_else(|| Error::bad_request(Msg::FieldRequired.with("field", "client_id")))?;
    clients::authenticate(&app.db, client_id, None, None).await
}

pub(super) fn parse_scope(scope: &Option<String>) -> Result<String> {
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
pub(super) fn check_challenge(challenge: &str, method: &str) -> Result<()> {
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

pub(super) fn verifier_matches(verifier: &str, challenge: &str) -> bool {
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
    pub(super) client_id: Option<String>,
    pub(super) client_secret: Option<String>,
    pub(super) redirect_uri: String,
    pub(super) code_challenge: String,
    pub(super) scope: String,
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

/// The checks every e-mailed-link endpoint (forgot, reset, verify-email, confirm-email)
/// starts with, in this order: the source's rate, then the client.
pub(super) async fn link_call(
    app: &AppState,
    ip: std::net::IpAddr,
    headers: &HeaderMap,
    client_id: &Option<String>,
) -> Result<()> {
    app.limits.check_ip(ip, Endpoint::Forgot).await?;
    client_of(app, headers, client_id, &None).await?;
    Ok(())
}

/// Who is calling a sign-in endpoint: the state, the client's address (every endpoint is
/// rate-limited by it) and the headers (Basic client credentials, the device cookie).
pub struct Caller {
    pub app: AppState,
    pub ip: std::net::IpAddr,
    pub headers: HeaderMap,
}

impl axum::extract::FromRequestParts<AppState> for Caller {
    type Rejection = Error;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        app: &AppState,
    ) -> Result<Self> {
        let crate::auth::extract::ClientIp(ip) =
            crate::auth::extract::ClientIp::from_request_parts(parts, app).await?;
        Ok(Self {
            app: app.clone(),
            ip,
            headers: parts.headers.clone(),
        })
    }
}
