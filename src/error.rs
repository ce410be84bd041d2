//! One error type for the whole server; `envelope` renders it into the API envelope.

use axum::http::StatusCode;

use crate::i18n::{self, Msg, Text};

pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Every failure a handler can answer with. The message of the client-facing variants is
/// shown to people in the request's language (`Display` is English, for logs); internal
/// causes are logged and replaced by a generic text.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{0}")]
    BadRequest(Text),
    #[error("{0}")]
    Unauthorized(Text),
    #[error("{0}")]
    Forbidden(Text),
    #[error("{0}")]
    NotFound(Text),
    #[error("{0}")]
    Conflict(Text),
    #[error("{0}")]
    PaymentRequired(Text),
    #[error("{0}")]
    BadGateway(Text),
    #[error("{0}")]
    MethodNotAllowed(Text),
    #[error("{0}")]
    PayloadTooLarge(Text),
    #[error("{0}")]
    UnsupportedMediaType(Text),
    #[error("{0}")]
    Unprocessable(Text),
    #[error("Too many attempts. Try again in {retry_after} seconds.")]
    RateLimited { retry_after: u64 },
    /// A cap with its own explanation (429 with `Retry-After`, like `RateLimited`).
    #[error("{text}")]
    LimitReached { text: Text, retry_after: u64 },
    #[error("The server is busy. Try again in a moment.")]
    Busy,
    /// This instance cannot serve now (draining, or a backing service unreachable): 503.
    #[error("{0}")]
    Unavailable(Text),
    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),
    #[error("internal error: {0}")]
    Internal(#[from] anyhow::Error),
}

impl Error {
    pub fn bad_request(msg: impl Into<Text>) -> Self {
        Self::BadRequest(msg.into())
    }
    pub fn unauthorized(msg: impl Into<Text>) -> Self {
        Self::Unauthorized(msg.into())
    }
    pub fn forbidden(msg: impl Into<Text>) -> Self {
        Self::Forbidden(msg.into())
    }
    pub fn not_found(msg: impl Into<Text>) -> Self {
        Self::NotFound(msg.into())
    }
    pub fn conflict(msg: impl Into<Text>) -> Self {
        Self::Conflict(msg.into())
    }
    pub fn unprocessable(msg: impl Into<Text>) -> Self {
        Self::Unprocessable(msg.into())
    }
    pub fn internal(msg: impl std::fmt::Display) -> Self {
        Self::Internal(anyhow::anyhow!("{msg}"))
    }

    pub fn status(&self) -> StatusCode {
        match self {
            Self::BadRequest(_) => StatusCode::BAD_REQUEST,
            Self::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            Self::Forbidden(_) => StatusCode::FORBIDDEN,
            Self::NotFound(_) => StatusCode::NOT_FOUND,
            Self::Conflict(_) => StatusCode::CONFLICT,
            Self::PaymentRequired(_) => StatusCode::PAYMENT_REQUIRED,
            Self::BadGateway(_) => StatusCode::BAD_GATEWAY,
            Self::MethodNotAllowed(_) => StatusCode::METHOD_NOT_ALLOWED,
            Self::PayloadTooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            Self::UnsupportedMediaType(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            Self::Unprocessable(_) => StatusCode::UNPROCESSABLE_ENTITY,
            Self::RateLimited { .. } | Self::LimitReached { .. } => StatusCode::TOO_MANY_REQUESTS,
            Self::Busy | Self::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            Self::Database(_) | Self::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The text a client may see, in the request's language: never a database or
    /// internal cause.
    pub fn public_message(&self) -> String {
        let lang = i18n::current();
        match self {
            Self::RateLimited { retry_after } => {
                Msg::RateLimited.with("seconds", *retry_after).render(lang)
            }
            Self::Busy => Msg::Busy.render(lang),
            Self::Database(_) | Self::Internal(_) => Msg::Internal.render(lang),
            other => other.text().map(|t| t.render(lang)).unwrap_or_default(),
        }
    }

    /// The message of a client-facing error, for code that reacts to a particular one.
    pub fn text(&self) -> Option<&Text> {
        match self {
            Self::BadRequest(t)
            | Self::Unauthorized(t)
            | Self::Forbidden(t)
            | Self::NotFound(t)
            | Self::Conflict(t)
            | Self::PaymentRequired(t)
            | Self::BadGateway(t)
            | Self::MethodNotAllowed(t)
            | Self::PayloadTooLarge(t)
            | Self::UnsupportedMediaType(t)
            | Self::Unprocessable(t)
            | Self::Unavailable(t)
            | Self::LimitReached { text: t, .. } => Some(t),
            Self::RateLimited { .. } | Self::Busy | Self::Database(_) | Self::Internal(_) => None,
        }
    }
}

/// Map unique-constraint violations to a 409 with the given message; everything else is
/// an internal error. One helper so no handler inspects database error codes itself.
pub fn conflict_on_unique(err: sqlx::Error, message: impl Into<Text>) -> Error {
    if let sqlx::Error::Database(db) = &err
        && db.is_unique_violation()
    {
        return Error::conflict(message);
    }
    Error::Database(err)
}
