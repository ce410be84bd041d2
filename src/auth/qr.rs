//! Sign-in by QR code.
//!
//! 1. The device that wants to sign in calls `POST token/qr` with its authorization
//!    parameters (client, redirect URI, PKCE challenge) and shows `approve_url` as a QR,
//!    and `match_number`, a 2-digit number, beside it. Encore records the device's
//!    User-Agent (trimmed) and IP address as it sees it (no geolocation database: the
//!    "place" is the address).
//! 2. A device where the person is already signed in opens that URL (the dashboard's
//!    `/auth/qr?id=…`), sees which client, device and place ask, picks the number the
//!    first device shows among three, gives their current password, and calls
//!    `POST token/qr/{id}/approve`. A wrong number cancels the QR sign-in.
//! 3. The first device polls `POST token/qr/poll` with its private `poll_token`; once
//!    approved it receives an authorization code bound to its own PKCE challenge and
//!    exchanges it at `token` as usual. The code does not count as a second factor: an
//!    account with the second factor on gets E108 there, and the new device does its own
//!    SMS step.
//!
//! The QR id alone cannot collect tokens (that takes the poll token), and the code it
//! yields is useless without the first device's PKCE verifier.

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::http::header::USER_AGENT;
use rand::Rng;
use rand::seq::SliceRandom;
use serde::{Deserialize, Serialize};

use super::extract::{ClientIp, CurrentUser};
use super::oauth::{AuthorizationParams, AuthorizationRequest, RawAuthorization};
use super::rate_limit::Endpoint;
use super::step_up::StepUp;
use super::store::{self, NewQr, QR_TTL_MS};
use crate::app::AppState;
use crate::db::now_ms;
use crate::envelope::{JsonBody, OAuthBody, OAuthReply};
use crate::error::{Error, Result};
use crate::i18n::Msg;

const POLL_INTERVAL_SECS: i64 = 2;
/// How much of the requesting device's User-Agent is kept and shown.
const DEVICE_MAX_CHARS: usize = 160;

/// The requesting device as its User-Agent names it: printable characters only, trimmed.
fn device_of(headers: &HeaderMap) -> String {
    let raw = headers
        .get(USER_AGENT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let clean: String = raw
        .chars()
        .filter(|c| !c.is_control())
        .take(DEVICE_MAX_CHARS)
        .collect();
    clean.trim().to_owned()
}

/// A 2-digit number to match, and three to choose from (it and two others, shuffled).
fn match_numbers() -> (i64, Vec<i64>) {
    let mut rng = rand::rng();
    let number = rng.random_range(10..=99);
    let mut choices = vec![number];
    while choices.len() < 3 {
        let other = rng.random_range(10..=99);
        if !choices.contains(&other) {
            choices.push(other);
        }
    }
    choices.shuffle(&mut rng);
    (number, choices)
}

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
    /// The number this device shows; the approver picks it among three.
    match_number: i64,
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
        let authorization = AuthorizationRequest::try_from(RawAuthorization {
            client_id: req.client_id,
            client_secret: req.client_secret,
            redirect_uri: req.redirect_uri,
            code_challenge: req.code_challenge,
            code_challenge_method: req.code_challenge_method,
            scope: req.scope,
        })?;
        let params = AuthorizationParams::check(&app, &headers, authorization).await?;
        let (match_number, choices) = match_numbers();
        let choices = choices
            .iter()
            .map(i64::to_string)
            .collect::<Vec<_>>()
            .join(",");
        let (qr_id, poll_token) = store::create_qr(
            &app.db,
            NewQr {
                client_id: &params.client.id,
                redirect_uri: &params.redirect_uri,
                code_challenge: &params.code_challenge,
                scope: &params.scope,
                nonce: req.nonce.as_deref(),
                device: &device_of(&headers),
                place: &ip.to_string(),
                match_number,
                choices: &choices,
            },
        )
        .await?;
        Ok(QrStarted {
            approve_url: format!("{}/auth/qr?id={qr_id}", app.config.public_url),
            match_number,
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
                // Approval is not the new device's second factor: it does its own.
                second_factor_done: false,
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
    /// The requesting device's User-Agent, trimmed (may be empty).
    device: String,
    /// The requesting device's IP address as Encore sees it.
    place: String,
    /// Pick the one the requesting device shows.
    numbers: Vec<i64>,
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
        let client_name = store::client_name(&app.db, &qr.client_id).await?;
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
            client_name,
            numbers: qr
                .choices
                .split(',')
                .filter_map(|n| n.parse().ok())
                .collect(),
            device: qr.device,
            place: qr.place,
            status,
            expires_in: ((qr.expires_at - now) / 1000).max(0),
        })
    }
    .await;
    OAuthReply::new(None, result)
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ApproveRequest {
    /// The number picked (a JSON number or a string of digits).
    number: Option<serde_json::Value>,
    current_password: Option<String>,
}

#[tracing::instrument(skip_all)]
pub async fn approve(
    State(app): State<AppState>,
    user: CurrentUser,
    step_up: StepUp,
    Path(qr_id): Path<String>,
    JsonBody(req): JsonBody<ApproveRequest>,
) -> OAuthReply<()> {
    let result = async {
        let qr = live_qr(&app, &qr_id).await?;
        if qr.approved_by.is_some() || qr.expires_at <= now_ms() {
            return Err(Error::bad_request(Msg::QrExpiredOrApproved));
        }
        let number = match &req.number {
            Some(serde_json::Value::Number(n)) => n.as_i64(),
            Some(serde_json::Value::String(s)) => s.trim().parse().ok(),
            _ => None,
        }
        .ok_or_else(|| Error::unprocessable(Msg::FieldRequired.with("field", "number")))?;
        if req.current_password.as_deref().is_none_or(str::is_empty) {
            return Err(Error::unprocessable(Msg::CurrentPasswordRequired));
        }
        if number != qr.match_number {
            // Someone approving blind, or a QR sent by someone else: cancel it.
            store::burn_qr(&app.db, &qr.id_hash).await?;
            return Err(Error::unprocessable(Msg::QrWrongNumber));
        }
        step_up
            .require_password(&app, &user, req.current_password.as_deref())
            .await?;
        if !store::approve_qr(&app.db, &qr.id_hash, &user.account.id).await? {
            return Err(Error::bad_request(Msg::QrExpiredOrApproved));
        }
        Ok(())
    }
    .await;
    OAuthReply::new(None, result)
}
