//! Sign-in: OAuth2 authorization code + PKCE, the SMS second factor, sessions with
//! rotating refresh tokens, password reset, registration and QR sign-in.

pub mod clients;
pub mod cookies;
pub mod credentials;
pub mod extract;
pub mod jwt;
pub mod model;
pub mod oauth;
pub mod passwords;
pub mod qr;
pub mod rate_limit;
pub mod session_cache;
pub mod step_up;
pub mod store;
pub mod tokens;

use axum::Router;
use axum::routing::{get, post};

use crate::state::AppState;

/// The OAuth endpoints, mounted under the configurable prefix.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/authorize", post(oauth::authorize))
        .route("/token", post(oauth::token))
        .route("/authenticators", get(oauth::authenticators))
        .route("/associate", post(oauth::associate))
        .route("/logout", post(oauth::logout))
        .route("/forgot", post(oauth::forgot))
        .route("/reset", post(oauth::reset))
        .route("/register", post(oauth::register))
        .route("/verify-email", post(oauth::verify_email))
        .route("/confirm-email", post(oauth::confirm_email))
        .route("/token/qr", post(qr::start))
        .route("/token/qr/poll", post(qr::poll))
        .route("/token/qr/{qr_id}", get(qr::show))
        .route("/token/qr/{qr_id}/approve", post(qr::approve))
}
