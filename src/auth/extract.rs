//! Request extractors: the signed-in account, staff-only access, a signed-in request on
//! one resource, the client IP.

use std::net::{IpAddr, SocketAddr};

use axum::extract::{ConnectInfo, FromRequestParts, Path};
use axum::http::header::AUTHORIZATION;
use axum::http::request::Parts;
use axum::response::{IntoResponse, Response};

use super::jwt::AccessClaims;
use super::session_cache::SessionEntry;
use super::store;
use crate::accounts::model::{AccountRow, ProjectRef, Role};
use crate::accounts::policy::Actor;
use crate::accounts::store as accounts;
use crate::error::Error;
use crate::i18n::Msg;
use crate::state::AppState;

/// The bearer token of a request: `Authorization: Bearer …` or `x-access-token: …`.
pub fn bearer_token(parts: &Parts) -> Option<&str> {
    if let Some(value) = parts
        .headers
        .get(AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
    {
        let (scheme, token) = value.split_once(' ')?;
        return scheme
            .eq_ignore_ascii_case("bearer")
            .then_some(token.trim());
    }
    parts
        .headers
        .get("x-access-token")
        .and_then(|v| v.to_str().ok())
        .map(str::trim)
}

/// A signed-in, enabled account with a live session.
#[derive(Debug, Clone)]
pub struct CurrentUser {
    pub account: AccountRow,
    pub session_id: String,
    /// The session passed the SMS second factor when it signed in.
    pub passed_second_factor: bool,
    /// The artist projects the account is a member of.
    pub projects: Vec<ProjectRef>,
    /// A new login e-mail waiting for its link.
    pub pending_login: Option<String>,
}

impl CurrentUser {
    pub fn actor(&self) -> Actor<'_> {
        Actor {
            id: &self.account.id,
            role: self.account.role(),
        }
    }
}

impl FromRequestParts<AppState> for CurrentUser {
    type Rejection = Error;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Error> {
        let token =
            bearer_token(parts).ok_or_else(|| Error::unauthorized(Msg::SignInToContinue))?;
        Ok(Self::from_token(state, token).await?.0)
    }
}

impl CurrentUser {
    /// The account and live session an access token stands for, with the token's claims
    /// (a WebSocket reads its token from its first message, not from a header).
    pub async fn from_token(state: &AppState, token: &str) -> Result<(Self, AccessClaims), Error> {
        let claims = state
            .keys
            .verify(token)
            .ok_or_else(|| Error::unauthorized(Msg::SessionEnded))?;
        let entry = match state.sessions.get(&claims.sid) {
            Some(entry) => entry,
            None => {
                // One indexed join: the session must be live and the account enabled, so
                // logout, refresh-token reuse and disabling end access before the JWT
                // expires.
                let row = store::session_account(&state.db, &claims.sid, &claims.sub)
                    .await?
                    .ok_or_else(|| Error::unauthorized(Msg::SessionEnded))?;
                if row.revoked_at.is_some() || !row.account.enabled() {
                    return Err(Error::unauthorized(Msg::SessionEnded));
                }
                let projects = accounts::project_refs(&state.db, &row.account.id).await?;
                let pending_login = accounts::pending_login(&state.db, &row.account.id).await?;
                state.sessions.insert(
                    claims.sid.clone(),
                    SessionEntry {
                        account: row.account,
                        second_factor: row.second_factor_at.is_some(),
                        projects,
                        pending_login,
                    },
                )
            }
        };
        let user = Self {
            account: entry.account.clone(),
            projects: entry.projects.clone(),
            passed_second_factor: entry.second_factor,
            pending_login: entry.pending_login.clone(),
            session_id: claims.sid.clone(),
        };
        Ok((user, claims))
    }
}

/// Whether an account's session is still live and the account enabled, read from the
/// database (not the cache: a long-lived socket asks when it hears of a change, which may
/// reach it before the cache forgets). `Some(role)` while it is.
pub async fn still_signed_in(
    state: &AppState,
    session_id: &str,
    account_id: &str,
) -> Result<Option<Role>, Error> {
    let row = store::session_account(&state.db, session_id, account_id).await?;
    Ok(row
        .filter(|row| row.revoked_at.is_none() && row.account.enabled())
        .map(|row| row.account.role()))
}

/// A signed-in admin or super admin.
#[derive(Debug, Clone)]
pub struct Staff(pub CurrentUser);

impl FromRequestParts<AppState> for Staff {
    type Rejection = Error;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Error> {
        let user = CurrentUser::from_request_parts(parts, state).await?;
        match user.account.role() {
            Role::Admin | Role::Sa => Ok(Self(user)),
            Role::User => Err(Error::forbidden(Msg::AdministratorsOnly)),
        }
    }
}

/// What most routes on one resource (`/…/{id}`) start with: the state, the account `A`
/// (`CurrentUser`, or `Staff`), then the `{id}` path parameter. They are taken in the order
/// a handler listing them one by one would take them, and each refuses as it would alone:
/// 401 or 403 before a malformed id, whose own refusal the envelope layer wraps.
pub struct IdRequest<A = CurrentUser> {
    pub app: AppState,
    pub user: A,
    pub id: String,
}

impl<A> FromRequestParts<AppState> for IdRequest<A>
where
    A: FromRequestParts<AppState> + Send,
    A::Rejection: IntoResponse,
{
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, app: &AppState) -> Result<Self, Response> {
        let user = A::from_request_parts(parts, app)
            .await
            .map_err(IntoResponse::into_response)?;
        let Path(id) = Path::<String>::from_request_parts(parts, app)
            .await
            .map_err(IntoResponse::into_response)?;
        Ok(Self {
            app: app.clone(),
            user,
            id,
        })
    }
}

/// The client's IP: the socket peer, or the last `X-Forwarded-For` hop when configured
/// to trust one proxy in front.
#[derive(Debug, Clone, Copy)]
pub struct ClientIp(pub IpAddr);

impl FromRequestParts<AppState> for ClientIp {
    type Rejection = Error;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Error> {
        if state.config.trust_forwarded_for
            && let Some(ip) = parts
                .headers
                .get("x-forwarded-for")
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.rsplit(',').next())
                .and_then(|v| v.trim().parse().ok())
        {
            return Ok(Self(ip));
        }
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|ConnectInfo(addr)| addr.ip())
            .unwrap_or(IpAddr::from([127, 0, 0, 1]));
        Ok(Self(peer))
    }
}

/// The signed-in account when a token is sent; `None` for anonymous requests. A token
/// that is sent but invalid is still a 401, so the client knows to refresh it.
#[derive(Debug, Clone)]
pub struct MaybeUser(pub Option<CurrentUser>);

impl FromRequestParts<AppState> for MaybeUser {
    type Rejection = Error;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Error> {
        if bearer_token(parts).is_none() {
            return Ok(Self(None));
        }
        CurrentUser::from_request_parts(parts, state)
            .await
            .map(|user| Self(Some(user)))
    }
}
