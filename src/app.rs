//! The router over every domain, and serving it from a given listener.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Instant;

use axum::Router;
use axum::extract::{ConnectInfo, DefaultBodyLimit, MatchedPath, Request};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use tokio::net::TcpListener;
use tower::ServiceExt;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::trace::TraceLayer;
use utoipa_axum::router::OpenApiRouter;

use crate::error::Error;
use crate::i18n::Msg;
use crate::metrics::Metrics;
use crate::state::AppState;

/// JSON bodies are small; uploads set their own limit on their route.
const BODY_LIMIT: usize = 64 * 1024;

/// What the dashboard loads: its own scripts only; Mantine's inline styles; media and
/// hls.js's worker from blob: URLs; API, WebSocket and media requests to this origin;
/// never framed.
const DASHBOARD_CSP: &str = "default-src 'self'; script-src 'self'; \
    style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; media-src 'self' blob:; \
    connect-src 'self'; worker-src 'self' blob:; font-src 'self' data:; object-src 'none'; \
    base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// The latency histograms' routes: every (path, method) of the document, plus what the
/// router serves outside it.
pub fn metered_routes(document: &utoipa::openapi::OpenApi) -> Vec<(String, Method)> {
    let mut routes = vec![
        ("/api/v1/openapi.json".to_owned(), Method::GET),
        ("/metrics".to_owned(), Method::GET),
        ("/api/v1/ws".to_owned(), Method::GET),
    ];
    for (path, item) in &document.paths.paths {
        let methods = [
            (&item.get, Method::GET),
            (&item.put, Method::PUT),
            (&item.post, Method::POST),
            (&item.delete, Method::DELETE),
            (&item.patch, Method::PATCH),
        ];
        for (operation, method) in methods {
            if operation.is_some() {
                routes.push((path.clone(), method));
            }
        }
    }
    routes
}

pub fn router(state: AppState, metrics: Arc<Metrics>) -> Router {
    let oauth_prefix = state.config.oauth_prefix.clone();
    let (api, oauth, document) = api_routers(&oauth_prefix);
    let document = axum::body::Bytes::from(
        serde_json::to_vec(&document).expect("the OpenAPI document serialises"),
    );
    let api = api.route(
        "/openapi.json",
        axum::routing::get(crate::openapi::serve)
            .layer(axum::Extension(crate::openapi::Document(document))),
    );
    // HSTS only where asked for, on an https public URL (a browser told so about a plain
    // http address would refuse it).
    let hsts = (state.config.hsts_seconds > 0 && state.config.public_url.starts_with("https://"))
        .then(|| {
            HeaderValue::try_from(format!(
                "max-age={}; includeSubDomains",
                state.config.hsts_seconds
            ))
            .ok()
        })
        .flatten();
    let web_dir = state.config.web_dir.clone();
    Router::new()
        .nest(&oauth_prefix, with_api_fallbacks(oauth))
        .nest("/api/v1", with_api_fallbacks(api))
        .route_service(
            "/api/docs",
            tower_http::services::ServeFile::new(web_dir.join("api-docs.html")),
        )
        .nest("/api", Router::new().fallback(api_not_found))
        .merge(crate::commerce::pages())
        .merge(crate::events::pages())
        .merge(crate::projects::pages())
        .merge(crate::stream::http::pages())
        .route(
            "/metrics",
            axum::routing::get(crate::meta::metrics)
                // Another method is refused in the envelope, as on the API.
                .fallback(method_not_allowed)
                .layer(axum::Extension(metrics.clone())),
        )
        // Every route's answer names the route it matched, for the latency histogram.
        .route_layer(axum::middleware::from_fn(mark_route))
        .fallback_service(crate::web::service(&web_dir))
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        // The dashboard's policy; a page with a stricter one of its own (the test
        // checkout) keeps it.
        .layer(SetResponseHeaderLayer::if_not_present(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(DASHBOARD_CSP),
        ))
        // Links may carry tokens (the checkout page, reset links): never pass them on.
        .layer(SetResponseHeaderLayer::overriding(
            header::REFERRER_POLICY,
            HeaderValue::from_static("no-referrer"),
        ))
        .layer(SetResponseHeaderLayer::overriding(
            header::X_FRAME_OPTIONS,
            HeaderValue::from_static("DENY"),
        ))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::STRICT_TRANSPORT_SECURITY,
            hsts,
        ))
        .layer(CatchPanicLayer::custom(panic_response))
        .layer(axum::middleware::from_fn_with_state(metrics, time_request))
        // Outside the panic catcher, so even that answer is in the reader's language.
        .layer(axum::middleware::from_fn(crate::i18n::layer))
        .layer(TraceLayer::new_for_http())
        .with_state(state)
}

/// The route a request matched, carried on its answer to [`time_request`].
#[derive(Clone)]
struct MatchedRoute(MatchedPath);

async fn mark_route(request: Request, next: Next) -> Response {
    let matched = request.extensions().get::<MatchedPath>().cloned();
    let mut response = next.run(request).await;
    if let Some(matched) = matched {
        response.extensions_mut().insert(MatchedRoute(matched));
    }
    response
}

/// Time every answer into its route's histogram (atomics only).
async fn time_request(
    axum::extract::State(metrics): axum::extract::State<Arc<Metrics>>,
    request: Request,
    next: Next,
) -> Response {
    let started = Instant::now();
    let method = request.method().clone();
    let response = next.run(request).await;
    let route = response.extensions().get::<MatchedRoute>();
    metrics.observe_request(route.map(|r| r.0.as_str()), &method, started.elapsed());
    response
}

/// What the document describes outside the API's routers: the encoder ingest and the
/// signed HLS files (stream), and the dashboard socket's payloads, which no HTTP path names.
#[derive(utoipa::OpenApi)]
#[openapi(
    paths(
        crate::meta::metrics,
        crate::stream::http::ingest,
        crate::stream::http::metadata,
        crate::stream::hls::files::playlist_path,
        crate::stream::hls::files::media_path,
        crate::stream::hls::files::multivariant_path,
        crate::stream::hls::files::rendition_path
    ),
    components(schemas(crate::live::activity::Activity, crate::live::activity::ActivityKind))
)]
struct OutsideApi;

/// The API's routers and the OpenAPI document their annotated handlers describe: both
/// come from the same `routes!` registrations, so neither can name what the other lacks.
pub fn api_routers(
    oauth_prefix: &str,
) -> (Router<AppState>, Router<AppState>, utoipa::openapi::OpenApi) {
    let (api, api_doc) = OpenApiRouter::new()
        .merge(crate::meta::router())
        .merge(crate::accounts::router())
        .merge(crate::notifications::router())
        .merge(crate::projects::router())
        .merge(crate::events::router())
        .merge(crate::commerce::router())
        // Tips are commerce, mounted here: their rules read listening access, which reads
        // the commerce store (a circle if `commerce::router` merged them).
        .merge(crate::commerce::tips::router())
        .merge(crate::statements::router())
        .merge(crate::stream::http::api_router())
        .merge(crate::stream::markers::api::router())
        .merge(crate::stream::download::http::router())
        .merge(crate::live::router())
        .merge(crate::chat::router())
        .split_for_parts();
    let (oauth, oauth_doc) = crate::auth::router().split_for_parts();
    let document = crate::openapi::finish(
        <crate::openapi::ApiDoc as utoipa::OpenApi>::openapi()
            .merge_from(<OutsideApi as utoipa::OpenApi>::openapi())
            .nest("/api/v1", api_doc)
            .nest(oauth_prefix, oauth_doc),
    );
    (api, oauth, document)
}

/// The document as `encore openapi` prints it and `web/openapi.json` holds it: the web
/// client's types are generated from that file, and a test keeps it equal to this.
pub fn openapi_json(oauth_prefix: &str) -> serde_json::Result<String> {
    let (_, _, document) = api_routers(oauth_prefix);
    serde_json::to_string_pretty(&document)
}

/// Unknown paths and methods under an API router answer in the envelope too.
fn with_api_fallbacks(router: Router<AppState>) -> Router<AppState> {
    router
        .fallback(api_not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(axum::middleware::map_response(envelope_framework_errors))
}

/// A refusal the framework writes itself (a path segment that is not UTF-8, a rejection
/// no extractor of ours wraps) comes as plain text: answer it in the envelope too, with
/// the same status.
async fn envelope_framework_errors(response: Response) -> Response {
    let status = response.status();
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if !(status.is_client_error() || status.is_server_error()) || is_json {
        return response;
    }
    let mut enveloped = Error::bad_request(Msg::MalformedRequest).into_response();
    *enveloped.status_mut() = status;
    enveloped
}

async fn api_not_found() -> Error {
    Error::not_found(Msg::NoSuchEndpoint)
}

async fn method_not_allowed() -> Response {
    let mut response = Error::bad_request(Msg::MethodNotAllowed).into_response();
    *response.status_mut() = StatusCode::METHOD_NOT_ALLOWED;
    response
}

fn panic_response(_: Box<dyn std::any::Any + Send + 'static>) -> Response {
    Error::internal("handler panicked").into_response()
}

/// Serve on already-bound listeners (HTTP, and the Icecast source port when given)
/// until `shutdown` resolves. The background work is started by `startup::run`, which
/// calls this.
pub async fn serve(
    listener: TcpListener,
    ingest: Option<TcpListener>,
    state: AppState,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    if let Some(ingest) = ingest {
        tokio::spawn(crate::stream::ingest::icecast::serve(ingest, state.clone()));
    }
    let (_, _, document) = api_routers(&state.config.oauth_prefix);
    let metrics = Arc::new(Metrics::new(metered_routes(&document)));
    let router = router(state.clone(), metrics.clone());
    // Asked to stop: not ready at once, the listener open for the drain delay, then
    // closed; once it is, open dashboard sockets are told to reconnect elsewhere (1001: a
    // client told so before the listener closed could reconnect here) and open requests
    // finish (`net::serve_http`).
    let sockets = state.live.clone();
    let lifecycle = state.lifecycle.clone();
    let drain_delay = state.config.drain_delay;
    let shutdown = async move {
        shutdown.await;
        lifecycle.drain();
        tracing::info!(delay = ?drain_delay, "draining: not ready; closing the listener after the delay");
        tokio::time::sleep(drain_delay).await;
    };
    let cap = crate::net::ConnectionCap::new(state.config.connections_per_ip());
    let head_timeout = state.config.request_head_timeout;
    // Per connection: the client's address for the API (rate limits), and the signed
    // HLS files answered before the router, its middleware and its extensions — every
    // listener asks for every part, so that path is kept to the token check and a copy
    // of a reference-counted buffer.
    let finish_within = state.config.finish_requests_within();
    let live = state.live.clone();
    crate::net::serve_http(
        listener,
        cap,
        head_timeout,
        finish_within,
        shutdown,
        move || sockets.shut_down(),
        move |address, slot| {
            let (router, state, metrics) = (router.clone(), state.clone(), metrics.clone());
            tower::service_fn(move |mut request: Request| {
                let (router, state, metrics) = (router.clone(), state.clone(), metrics.clone());
                let slot = slot.clone();
                async move {
                    if crate::stream::hls::files::is_stream_path(request.uri().path()) {
                        let started = Instant::now();
                        let response = crate::stream::hls::files::serve(
                            &state,
                            request.method(),
                            request.uri(),
                        )
                        .await;
                        metrics.observe_request(
                            Some(crate::metrics::STREAM_ROUTE),
                            request.method(),
                            started.elapsed(),
                        );
                        return Ok::<_, Infallible>(response);
                    }
                    request.extensions_mut().insert(ConnectInfo(address));
                    request.extensions_mut().insert(slot);
                    router.oneshot(request).await
                }
            })
        },
    )
    .await;
    // Upgraded sockets are no connection of the server's any more: give them a moment to
    // send their 1001 before the process goes.
    let sockets_closed = async {
        while live.open() > 0 {
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
    };
    let _ = tokio::time::timeout(std::time::Duration::from_millis(500), sockets_closed).await;
    Ok(())
}
