//! Sign-in by QR code.
//!
//! 1. The device that wants to sign in calls `POST token/qr` with its authorization
//!    parameters (client, redirect URI, PKCE challenge) and shows `approve_url` as a QR.
//! 2. A device where the person is already signed in opens that URL (the dashboard's
//!    `/auth/qr?id=…`), sees which client asks, and calls `POST token/qr/{id}/approve`.
//! 3. The first device polls `POST token/qr/poll` with its private `poll_token`; once
//!    approved it receives an authorization code bound to its own PKCE challenge and
//!    exchanges it at `token` as usual. No second factor is asked: the approving device
//!    already passed it.
//!
//! The QR id alone cannot collect tokens (that takes the poll token), and the code it
//! yields is useless without the first device's PKCE verifier.

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use serde::{Deserialize, Serialize};

use super::extract::{ClientIp, CurrentUser};
use super::rate_limit::Endpoint;
use super::store::{self, NewQr, QR_TTL_MS};
use crate::app::AppState;
use crate::db::now_ms;
use crate::envelope::{OAuthBody, OAuthReply};
use crate::error::{Error, Result};
use crate::i18n::Msg;

const POLL_INTERVAL_SECS: i64 = 2;

#[derive(Debug, Deserialize)]
pub struct StartRequest {
    response_type: Option<String>,
    scope: Option<String>,
    redirect_uri: Option<String>,
    code_challenge: Option<String>,
    code_challenge_method: Option<String>,
    client_id: Option<String>,
    client_secret: Option<String>,
    state: Option<String>,
    nonce: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct QrStarted {
    qr_id: String,
    poll_token: String,
    approve_url: String,
    expires_in: i64,
    interval: i64,
}

#[tracing::instrument(skip_all)]
pub async fn start(
    State(app): State<AppState>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    OAuthBody(req): OAuthBody<StartRequest>,
) -> OAuthReply<QrStarted> {
    let state = req.state.clone();
    let result = async {
        app.limits.check_ip(ip, Endpoint::Authorize)?;
        if let Some(kind) = req.response_type.as_deref()
            && kind != "code"
        {
            return Err(Error::bad_request(Msg::ResponseTypeCode));
        }
        let params = super::oauth::AuthorizationParams::check(
            &app,
            &headers,
            &req.client_id,
            &req.client_secret,
            &req.redirect_uri,
            &req.code_challenge,
            &req.code_challenge_method,
            &req.scope,
        )
        .await?;
        let (qr_id, poll_token) = store::create_qr(
            &app.db,
            NewQr {
                client_id: &params.client.id,
                redirect_uri: &params.redirect_uri,
                code_challenge: &params.code_challenge,
                scope: &params.scope,
                nonce: req.nonce.as_deref(),
            },
        )
        .await?;
        Ok(QrStarted {
            approve_url: format!("{}/auth/qr?id={qr_id}", app.config.public_url),
            qr_id,
            poll_token,
            expires_in: QR_TTL_MS / 1000,
            interval: POLL_INTERVAL_SECS,
        })
    }
    .await;
    OAuthReply::new(state, result)
}

#[derive(Debug, Deserialize)]
pub struct PollRequest {
    poll_token: Option<String>,
    client_id: Option<String>,
    state: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct PollAnswer {
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    code: Option<String>,
}

#[tracing::instrument(skip_all)]
pub async fn poll(
    State(app): State<AppState>,
    ClientIp(ip): ClientIp,
    OAuthBody(req): OAuthBody<PollRequest>,
) -> OAuthReply<PollAnswer> {
    let state = req.state.clone();
    let result = async {
        app.limits.check_ip(ip, Endpoint::QrPoll)?;
        let token = req
            .poll_token
            .as_deref()
            .ok_or_else(|| Error::bad_request(Msg::FieldRequired.with("field", "poll_token")))?;
        let qr = store::qr_by_poll_token(&app.db, token)
            .await?
            .ok_or_else(|| Error::bad_request(Msg::QrExpired))?;
        if req.client_id.as_deref() != Some(qr.client_id.as_str()) {
            return Err(Error::bad_request(Msg::QrExpired));
        }
        if qr.collected_at.is_some() {
            return Err(Error::bad_request(Msg::QrUsed));
        }
        let Some(account_id) = qr.approved_by.as_deref() else {
            if qr.expires_at <= now_ms() {
                return Err(Error::bad_request(Msg::QrExpired));
            }
            return Ok(PollAnswer {
                status: "pending",
                code: None,
            });
        };
        if !store::collect_qr(&app.db, &qr.id_hash).await? {
            return Err(Error::bad_request(Msg::QrUsed));
        }
        let code = store::issue_code(
            &app.db,
            store::CodeGrant {
                account_id,
                client_id: &qr.client_id,
                redirect_uri: &qr.redirect_uri,
                code_challenge: &qr.code_challenge,
                scope: &qr.scope,
                nonce: qr.nonce.as_deref(),
                second_factor_done: true,
            },
        )
        .await?;
        Ok(PollAnswer {
            status: "approved",
            code: Some(code),
        })
    }
    .await;
    OAuthReply::new(state, result)
}

#[derive(Debug, Serialize)]
pub struct QrInfo {
    qr_id: String,
    client_name: String,
    status: &'static str,
    expires_in: i64,
}

async fn live_qr(app: &AppState, qr_id: &str) -> Result<store::QrLogin> {
    store::qr_by_id(&app.db, qr_id)
        .await?
        .ok_or_else(|| Error::not_found(Msg::QrExpired))
}

#[tracing::instrument(skip_all)]
pub async fn show(
    State(app): State<AppState>,
    _user: CurrentUser,
    Path(qr_id): Path<String>,
) -> OAuthReply<QrInfo> {
    let result = async {
        let qr = live_qr(&app, &qr_id).await?;
        let client_name: (String,) = sqlx::query_as("SELECT name FROM oauth_clients WHERE id = $1")
            .bind(&qr.client_id)
            .fetch_one(&app.db)
            .await?;
        let now = now_ms();
        let status = if qr.approved_by.is_some() {
            "approved"
        } else if qr.expires_at <= now {
            "expired"
        } else {
            "pending"
        };
        Ok(QrInfo {
            qr_id,
            client_name: client_name.0,
            status,
            expires_in: ((qr.expires_at - now) / 1000).max(0),
        })
    }
    .await;
    OAuthReply::new(None, result)
}

#[tracing::instrument(skip_all)]
pub async fn approve(
    State(app): State<AppState>,
    user: CurrentUser,
    Path(qr_id): Path<String>,
) -> OAuthReply<()> {
    let result = async {
        let qr = live_qr(&app, &qr_id).await?;
        if !store::approve_qr(&app.db, &qr.id_hash, &user.account.id).await? {
            return Err(Error::bad_request(Msg::QrExpiredOrApproved));
        }
        Ok(())
    }
    .await;
    OAuthReply::new(None, result)
}
