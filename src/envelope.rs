//! The API envelope `{success, payload, error}`, every answer and error rendered into it,
//! and the extractors that turn malformed input into envelope errors instead of axum's
//! plain-text rejections.

use axum::Json;
use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::error::Error;
use crate::i18n::{Msg, Text};

/// Every answer of the API: `success` with the `payload`, or not with the `error`.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct Envelope<T> {
    pub success: bool,
    pub payload: Option<T>,
    pub error: Option<String>,
    /// Echoed on OAuth answers only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
}

impl<T: Serialize> Envelope<T> {
    pub fn success(payload: T, state: Option<String>) -> Json<Self> {
        Json(Self {
            success: true,
            payload: Some(payload),
            error: None,
            state,
        })
    }
}

impl Envelope<()> {
    pub fn failure(message: String, state: Option<String>) -> Json<Self> {
        Json(Self {
            success: false,
            payload: None,
            error: Some(message),
            state,
        })
    }
}

/// The `Retry-After` of a 503 `Busy`: a moment, as its message says.
const BUSY_RETRY_AFTER_SECONDS: u64 = 2;

// Here rather than in `error.rs`: the error type stays below the envelope that shows it.
impl Error {
    /// Render with an OAuth `state` echoed beside the envelope.
    pub fn into_response_with_state(self, state: Option<String>) -> Response {
        let status = self.status();
        if status.is_server_error() && !matches!(self, Self::Busy | Self::Unavailable(_)) {
            tracing::error!(error = %self, "request failed");
        }
        let retry_after = match &self {
            Self::RateLimited { retry_after } | Self::LimitReached { retry_after, .. } => {
                Some(*retry_after)
            }
            Self::Busy => Some(BUSY_RETRY_AFTER_SECONDS),
            _ => None,
        };
        let mut response = (
            status,
            Envelope::<()>::failure(self.public_message(), state),
        )
            .into_response();
        if let Some(secs) = retry_after {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(secs));
        }
        response
    }
}

impl IntoResponse for Error {
    fn into_response(self) -> Response {
        self.into_response_with_state(None)
    }
}

/// A successful answer: status plus payload, rendered into the envelope.
#[derive(Debug)]
pub struct Api<T>(pub StatusCode, pub T);

impl<T> Api<T> {
    pub fn ok(payload: T) -> Self {
        Self(StatusCode::OK, payload)
    }
    pub fn created(payload: T) -> Self {
        Self(StatusCode::CREATED, payload)
    }
}

impl<T: Serialize> IntoResponse for Api<T> {
    fn into_response(self) -> Response {
        (self.0, Envelope::success(self.1, None)).into_response()
    }
}

/// An OAuth answer: like [`Api`] but the request's `state` is echoed, on success and on
/// failure alike, so the client can check it.
pub struct OAuthReply<T> {
    pub status: StatusCode,
    pub state: Option<String>,
    pub result: Result<T, Error>,
    /// `Set-Cookie` values sent with the answer, success or failure.
    pub cookies: Vec<HeaderValue>,
}

impl<T> OAuthReply<T> {
    pub fn new(state: Option<String>, result: Result<T, Error>) -> Self {
        Self {
            status: StatusCode::OK,
            state,
            result,
            cookies: Vec::new(),
        }
    }
    pub fn created(state: Option<String>, result: Result<T, Error>) -> Self {
        Self {
            status: StatusCode::CREATED,
            state,
            result,
            cookies: Vec::new(),
        }
    }
}

impl<T> OAuthReply<T> {
    /// Send these cookies with the answer.
    pub fn with_cookies(mut self, cookies: Vec<HeaderValue>) -> Self {
        self.cookies.extend(cookies);
        self
    }
}

impl<T: Serialize> IntoResponse for OAuthReply<T> {
    fn into_response(self) -> Response {
        let mut response = match self.result {
            Ok(payload) => (self.status, Envelope::success(payload, self.state)).into_response(),
            Err(err) => err.into_response_with_state(self.state),
        };
        for cookie in self.cookies {
            response.headers_mut().append(header::SET_COOKIE, cookie);
        }
        response
    }
}

pub(crate) fn rejection_message(status: StatusCode, body: String) -> Error {
    // axum's texts name the failing field ("missing field `email`"); keep that part.
    let detail = body
        .split_once(": ")
        .map(|(_, rest)| rest.to_owned())
        .unwrap_or(body);
    match status {
        StatusCode::PAYLOAD_TOO_LARGE => Error::PayloadTooLarge(Msg::BodyTooLarge.into()),
        StatusCode::UNSUPPORTED_MEDIA_TYPE => Error::UnsupportedMediaType(Msg::SendJson.into()),
        StatusCode::UNPROCESSABLE_ENTITY => {
            Error::Unprocessable(Msg::InvalidBody.with("detail", detail))
        }
        _ => Error::BadRequest(Msg::MalformedBody.with("detail", detail)),
    }
}

/// A JSON body; malformed, mistyped or oversized bodies become envelope errors.
pub struct JsonBody<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for JsonBody<T> {
    type Rejection = Error;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let Json(mut value) = Json::<serde_json::Value>::from_request(req, state)
            .await
            .map_err(json_rejection)?;
        whole_numbers_as_integers(&mut value);
        // Name the failing field as axum's own JSON extractor does ("login: invalid type…").
        serde_path_to_error::deserialize(value)
            .map(Self)
            .map_err(|err| {
                let detail = match err.path().to_string().as_str() {
                    "." => err.inner().to_string(),
                    path => format!("{path}: {}", err.inner()),
                };
                rejection_message(StatusCode::UNPROCESSABLE_ENTITY, format!("body: {detail}"))
            })
    }
}

/// JSON has one number type: `1407.0` and `1407` are the same number (JSON Schema calls
/// both integers, and a JavaScript client may send either), but serde's integers refuse
/// the first. Whole numbers are made integers before the body is read, so an integer
/// field takes both and a decimal field still takes either.
fn whole_numbers_as_integers(value: &mut serde_json::Value) {
    /// Beyond 2^53 a JSON number is no longer exact: leave it as it came.
    const EXACT: f64 = 9_007_199_254_740_992.0;
    match value {
        serde_json::Value::Number(number) => {
            if let Some(f) = number
                .as_f64()
                .filter(|f| number.is_f64() && f.fract() == 0.0)
                && f.abs() <= EXACT
            {
                *number = serde_json::Number::from(f as i64);
            }
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(whole_numbers_as_integers),
        serde_json::Value::Object(fields) => {
            fields.values_mut().for_each(whole_numbers_as_integers);
        }
        _ => {}
    }
}

fn json_rejection(rejection: JsonRejection) -> Error {
    rejection_message(rejection.status(), rejection.body_text())
}

/// An OAuth request body: JSON (as the dashboard sends it) or form-encoded (as OAuth
/// clients do), chosen by Content-Type.
pub struct OAuthBody<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for OAuthBody<T> {
    type Rejection = Error;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let is_form = req
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|ct| ct.starts_with("application/x-www-form-urlencoded"));
        if is_form {
            let body = axum::body::Bytes::from_request(req, state)
                .await
                .map_err(|r| rejection_message(r.status(), r.body_text()))?;
            from_form(&body).map(Self)
        } else {
            JsonBody::<T>::from_request(req, state)
                .await
                .map(|JsonBody(v)| Self(v))
        }
    }
}

/// A form body, a key given more than once read as a list (`oob_channels=sms&oob_channels=…`:
/// how OpenAPI's form style, and so any generated client, sends an array). A form that
/// parses but does not fit `T` is a 422, as for JSON.
fn from_form<T: DeserializeOwned>(body: &[u8]) -> Result<T, Error> {
    let pairs: Vec<(String, String)> = serde_urlencoded::from_bytes(body)
        .map_err(|e| Error::BadRequest(Msg::MalformedBody.with("detail", e.to_string())))?;
    let mut fields = serde_json::Map::new();
    for (key, value) in pairs {
        let value = serde_json::Value::String(value);
        match fields.get_mut(&key) {
            None => {
                fields.insert(key, value);
            }
            Some(serde_json::Value::Array(items)) => items.push(value),
            Some(first) => *first = serde_json::Value::Array(vec![first.take(), value]),
        }
    }
    serde_json::from_value(serde_json::Value::Object(fields))
        .map_err(|e| Error::Unprocessable(Msg::InvalidBody.with("detail", e.to_string())))
}

/// Query parameters with envelope errors.
pub struct QueryParams<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequestParts<S> for QueryParams<T> {
    type Rejection = Error;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        match axum::extract::Query::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Query(value)) => Ok(Self(value)),
            Err(rejection) => Err(query_rejection(rejection)),
        }
    }
}

fn query_rejection(rejection: QueryRejection) -> Error {
    let detail = rejection.body_text();
    let detail = detail
        .split_once(": ")
        .map(|(_, rest)| rest.to_owned())
        .unwrap_or(detail);
    Error::BadRequest(Msg::InvalidQuery.with("detail", detail))
}

/// The bytes of the multipart field `file`, at most `max` long; a larger upload is 413
/// with `too_large` as the message, a malformed one 400.
pub async fn file_field(
    multipart: &mut axum::extract::Multipart,
    max: usize,
    too_large: Text,
) -> Result<Vec<u8>, Error> {
    let malformed = |text: String| Error::BadRequest(Msg::MalformedUpload.with("detail", text));
    while let Some(field) = multipart
        .next_field()
        .await
        .map_err(|e| malformed(e.body_text()))?
    {
        if field.name() == Some("file") {
            let data = field.bytes().await.map_err(|e| {
                if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
                    Error::PayloadTooLarge(too_large.clone())
                } else {
                    malformed(e.body_text())
                }
            })?;
            if data.len() > max {
                return Err(Error::PayloadTooLarge(too_large));
            }
            return Ok(data.to_vec());
        }
    }
    Err(Error::BadRequest(Msg::SendFileField.into()))
}

#[cfg(test)]
mod whole_numbers {
    use super::whole_numbers_as_integers;
    use serde_json::json;

    #[test]
    fn whole_decimals_become_integers_and_fractions_stay() {
        let mut body = json!({ "days": 1407.0, "price": [2.0, 2.5], "big": 1e300, "n": -0.0 });
        whole_numbers_as_integers(&mut body);
        assert_eq!(
            body,
            json!({ "days": 1407, "price": [2, 2.5], "big": 1e300, "n": 0 })
        );
        assert!(body["days"].is_i64());
    }
}
