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
use utoipa::ToSchema;

use super::extract::{ClientIp, CurrentUser, IdRequest};
use super::oauth::{
    AuthorizationParams, AuthorizationRequest, RawAuthorization, optional_response_type_code,
};
use super::rate_limit::Endpoint;
use super::step_up::StepUp;
use super::store::{self, NewQr, QR_TTL_MS};
use crate::db::now_ms;
use crate::envelope::{Envelope, JsonBody, OAuthBody, OAuthReply};
use crate::error::{Error, Result};
use crate::i18n::Msg;
use crate::openapi::{Failure, Nothing, one_of};
use crate::state::AppState;

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

/// What serde reads of a QR start: the authorization fields of `authorize` without the
/// credentials (the approver gives theirs; sent ones are not read).
#[derive(Debug, Deserialize, ToSchema)]
pub struct StartRequest {
    /// May be left out.
    #[schema(schema_with = optional_response_type_code)]
    response_type: Option<String>,
    #[serde(flatten)]
    authorization: RawAuthorization,
    #[schema(value_type = String, required = false)]
    state: Option<String>,
    #[schema(value_type = String, required = false)]
    nonce: Option<String>,
}

/// A QR start, parsed: the authorization part of `authorize` and a nonce.
struct Start {
    authorization: AuthorizationRequest,
    nonce: Option<String>,
}

impl TryFrom<StartRequest> for Start {
    type Error = Error;

    fn try_from(req: StartRequest) -> Result<Self> {
        if let Some(kind) = req.response_type.as_deref()
            && kind != "code"
        {
            return Err(Error::bad_request(Msg::ResponseTypeCode));
        }
        Ok(Self {
            authorization: AuthorizationRequest::try_from(req.authorization)?,
            nonce: req.nonce,
        })
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct QrStarted {
    qr_id: String,
    poll_token: String,
    approve_url: String,
    /// The number this device shows; the approver picks it among three.
    match_number: i64,
    expires_in: i64,
    interval: i64,
}

/// Start a sign-in by QR code, for a device with no one signed in: a QR to show and a
/// private poll token.
#[utoipa::path(post, path = "/token/qr", tag = "oauth",
    request_body(content((StartRequest = "application/x-www-form-urlencoded"), (StartRequest = "application/json"))),
    responses(
        (status = 200, description = "The QR sign-in, waiting for approval.", body = Envelope<QrStarted>),
        (status = 401, description = "An unknown client.", body = Failure)))]
#[tracing::instrument(skip_all)]
pub async fn start(
    State(app): State<AppState>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    OAuthBody(req): OAuthBody<StartRequest>,
) -> OAuthReply<QrStarted> {
    let state = req.state.clone();
    let result = async {
        app.limits.check_ip(ip, Endpoint::Authorize).await?;
        let req = Start::try_from(req)?;
        let params = AuthorizationParams::check(&app, &headers, req.authorization).await?;
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

#[derive(Debug, Deserialize, ToSchema)]
pub struct PollRequest {
    #[schema(value_type = String, required = true)]
    poll_token: Option<String>,
    /// The client that started the QR sign-in.
    #[schema(value_type = String, required = true, min_length = 1)]
    client_id: Option<String>,
    #[schema(value_type = String, required = false)]
    state: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PollAnswer {
    /// `pending`, or `approved` with the code.
    #[schema(schema_with = poll_status)]
    status: &'static str,
    /// An authorization code for the starting device's PKCE challenge: exchange it at
    /// `token`.
    #[serde(skip_serializing_if = "Option::is_none")]
    code: Option<String>,
}

fn poll_status() -> utoipa::openapi::Object {
    one_of(&["pending", "approved"])
}

/// Whether a QR sign-in was approved, for the device that started it (its poll token):
/// once approved, an authorization code.
#[utoipa::path(post, path = "/token/qr/poll", tag = "oauth",
    request_body(content((PollRequest = "application/x-www-form-urlencoded"), (PollRequest = "application/json"))),
    responses((status = 200, description = "Pending, or approved with a code.", body = Envelope<PollAnswer>)))]
#[tracing::instrument(skip_all)]
pub async fn poll(
    State(app): State<AppState>,
    ClientIp(ip): ClientIp,
    OAuthBody(req): OAuthBody<PollRequest>,
) -> OAuthReply<PollAnswer> {
    let state = req.state.clone();
    let result = async {
        app.limits.check_ip(ip, Endpoint::QrPoll).await?;
        // An empty token is looked up like any other (and found nowhere).
        let poll_token = req
            .poll_token
            .as_deref()
            .ok_or_else(|| Error::bad_request(Msg::FieldRequired.with("field", "poll_token")))?;
        let qr = store::qr_by_poll_token(&app.db, poll_token)
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

#[derive(Debug, Serialize, ToSchema)]
pub struct QrInfo {
    qr_id: String,
    client_name: String,
    /// The requesting device's User-Agent, trimmed (may be empty).
    device: String,
    /// The requesting device's IP address as Encore sees it.
    place: String,
    /// Pick the one the requesting device shows.
    numbers: Vec<i64>,
    /// `pending`, `approved` or `expired`.
    #[schema(schema_with = qr_status)]
    status: &'static str,
    expires_in: i64,
}

fn qr_status() -> utoipa::openapi::Object {
    one_of(&["pending", "approved", "expired"])
}

async fn live_qr(app: &AppState, qr_id: &str) -> Result<store::QrLogin> {
    store::qr_by_id(&app.db, qr_id)
        .await?
        .ok_or_else(|| Error::not_found(Msg::QrExpired))
}

/// A QR sign-in waiting for approval (client, device, place, numbers to pick from), for
/// anyone signed in who opened its link.
#[utoipa::path(get, path = "/token/qr/{qr_id}", tag = "oauth", security(("bearer" = [])),
    params(("qr_id" = String, Path, description = "The QR sign-in's id")),
    responses((status = 200, description = "The QR sign-in.", body = Envelope<QrInfo>)))]
#[tracing::instrument(skip_all)]
pub async fn show(IdRequest { app, id: qr_id, .. }: IdRequest) -> OAuthReply<QrInfo> {
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

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ApproveRequest {
    /// The number picked (a JSON number or a string of digits).
    #[schema(value_type = i64, required = true)]
    number: Option<serde_json::Value>,
    /// The approver's current password.
    #[schema(value_type = String, required = true, min_length = 1)]
    current_password: Option<String>,
}

/// An approval, parsed once the QR sign-in is known to wait: the number picked, then the
/// approver's password (present; checked only if the number is right).
struct Approve {
    number: i64,
    current_password: String,
}

impl TryFrom<ApproveRequest> for Approve {
    type Error = Error;

    fn try_from(req: ApproveRequest) -> Result<Self> {
        let number = match &req.number {
            Some(serde_json::Value::Number(n)) => n.as_i64(),
            Some(serde_json::Value::String(s)) => s.trim().parse().ok(),
            _ => None,
        }
        .ok_or_else(|| Error::unprocessable(Msg::FieldRequired.with("field", "number")))?;
        let current_password = req
            .current_password
            .filter(|p| !p.is_empty())
            .ok_or_else(|| Error::unprocessable(Msg::CurrentPasswordRequired))?;
        Ok(Self {
            number,
            current_password,
        })
    }
}

/// Approve a QR sign-in as the signed-in account, with the number the other device shows
/// and one's current password: that device may then collect a code.
#[utoipa::path(post, path = "/token/qr/{qr_id}/approve", tag = "oauth", security(("bearer" = [])),
    params(("qr_id" = String, Path, description = "The QR sign-in's id")),
    request_body = ApproveRequest,
    responses((status = 200, description = "Approved.", body = Envelope<Nothing>)))]
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
        let req = Approve::try_from(req)?;
        if req.number != qr.match_number {
            // Someone approving blind, or a QR sent by someone else: cancel it.
            store::burn_qr(&app.db, &qr.id_hash).await?;
            return Err(Error::unprocessable(Msg::QrWrongNumber));
        }
        step_up
            .check_password(&app, &user, &req.current_password)
            .await?;
        if !store::approve_qr(&app.db, &qr.id_hash, &user.account.id).await? {
            return Err(Error::bad_request(Msg::QrExpiredOrApproved));
        }
        Ok(())
    }
    .await;
    OAuthReply::new(None, result)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn approve(fields: serde_json::Value) -> Result<Approve> {
        Approve::try_from(serde_json::from_value::<ApproveRequest>(fields).unwrap())
    }

    #[test]
    fn an_approval_reads_the_number_as_a_number_or_digits_then_needs_the_password() {
        let parsed = approve(json!({ "number": " 42 ", "currentPassword": "pw" })).unwrap();
        assert_eq!(
            (parsed.number, parsed.current_password.as_str()),
            (42, "pw")
        );
        assert_eq!(
            approve(json!({ "number": 7, "currentPassword": "pw" }))
                .unwrap()
                .number,
            7
        );
        // The number is asked for first, then the password.
        for (fields, expected) in [
            (json!({ "currentPassword": "pw" }), Msg::FieldRequired),
            (
                json!({ "number": "x", "currentPassword": "" }),
                Msg::FieldRequired,
            ),
            (
                json!({ "number": 42, "currentPassword": "" }),
                Msg::CurrentPasswordRequired,
            ),
        ] {
            match approve(fields) {
                Err(Error::Unprocessable(text)) => assert_eq!(text.msg, expected),
                other => panic!("expected a 422, got {:?}", other.map(|_| ())),
            }
        }
    }

    #[test]
    fn a_start_refuses_another_response_type_but_may_leave_it_out() {
        let start = |fields: serde_json::Value| {
            Start::try_from(serde_json::from_value::<StartRequest>(fields).unwrap())
        };
        let fields = json!({
            "client_id": "web",
            "redirect_uri": "https://example.test/cb",
            "code_challenge": "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
            "code_challenge_method": "S256",
            "nonce": "n",
        });
        assert_eq!(start(fields.clone()).unwrap().nonce.as_deref(), Some("n"));
        let mut token = fields;
        token["response_type"] = json!("token");
        assert!(matches!(start(token), Err(Error::BadRequest(_))));
    }
}
