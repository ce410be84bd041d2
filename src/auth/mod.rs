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

use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::state::AppState;

/// The OAuth endpoints, mounted under the configurable prefix.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(oauth::authorize::authorize))
        .routes(routes!(oauth::token::token))
        .routes(routes!(oauth::second_factor::authenticators))
        .routes(routes!(oauth::second_factor::associate))
        .routes(routes!(oauth::token::logout))
        .routes(routes!(oauth::recovery::forgot))
        .routes(routes!(oauth::recovery::reset))
        .routes(routes!(oauth::registration::register))
        .routes(routes!(oauth::registration::verify_email))
        .routes(routes!(oauth::registration::confirm_email))
        .routes(routes!(qr::start))
        .routes(routes!(qr::poll))
        .routes(routes!(qr::show))
        .routes(routes!(qr::approve))
}
