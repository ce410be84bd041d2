//! The OpenAPI 3.1 document of the whole API, made from the handlers' own `#[utoipa::path]`
//! annotations and the payload types' `ToSchema`: each domain's router registers its
//! handlers with `routes!`, so a route and its description cannot exist one without the
//! other. Served at `/api/v1/openapi.json`; browsable by staff at `/api/docs`.

use std::collections::BTreeMap;

use axum::Extension;
use axum::body::Bytes;
use axum::http::header;
use axum::response::{IntoResponse, Response};

use utoipa::openapi::Response as Described;
use utoipa::openapi::path::Operation;
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::openapi::{ContentBuilder, OpenApi, Ref, RefOr, ResponseBuilder};
use utoipa::{Modify, ToSchema};

/// Every failure, whatever the status: the envelope with no payload and the reason in
/// the reader's language (`Accept-Language`).
#[derive(ToSchema)]
#[schema(title = "Failure")]
#[allow(dead_code)] // a description only: errors are rendered by `crate::error::Error`
pub struct Failure {
    /// Always `false`.
    success: bool,
    /// Always `null` on a failure.
    payload: Option<()>,
    /// What went wrong, for people, in the request's language.
    error: String,
    /// On OAuth answers: the request's `state`, echoed.
    state: Option<String>,
}

/// The payload of an answer that carries none (`Api<()>`): always `null`. Annotations
/// write `body = Envelope<Nothing>`, as `Envelope<()>` cannot be named there.
pub struct Nothing;

impl utoipa::PartialSchema for Nothing {
    fn schema() -> RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::Null)
            .into()
    }
}

impl ToSchema for Nothing {}

/// The security schemes the annotations name: `bearer` (an access token from
/// `POST …/token`) and `basic` (an encoder's stream key as the Basic password).
pub const BEARER: &str = "bearer";
pub const BASIC: &str = "basic";

/// The statuses every operation can answer with, besides its own: each with the
/// [`Failure`] envelope. Written once here rather than on eighty annotations.
struct CommonFailures;

/// (status, name in `components.responses`, description)
const FAILURES: &[(&str, &str, &str)] = &[
    ("400", "BadRequest", "Malformed or invalid input."),
    (
        "401",
        "Unauthorized",
        "No valid access token, or the credentials were wrong.",
    ),
    (
        "403",
        "Forbidden",
        "Signed in, but this role or account may not do this.",
    ),
    (
        "404",
        "NotFound",
        "No such resource (or not visible to the caller).",
    ),
    (
        "413",
        "PayloadTooLarge",
        "The body is larger than this endpoint accepts.",
    ),
    (
        "415",
        "UnsupportedMediaType",
        "The body's content type is not one this endpoint reads.",
    ),
    (
        "422",
        "Unprocessable",
        "Well-formed, but breaks a rule (the message says which).",
    ),
    (
        "429",
        "TooManyRequests",
        "Too many attempts; the `Retry-After` header says when to retry.",
    ),
    (
        "500",
        "InternalError",
        "An unexpected failure; details are in the server's log only.",
    ),
    (
        "503",
        "Busy",
        "The server is busy; retry in a moment (`Retry-After`).",
    ),
];

impl Modify for CommonFailures {
    fn modify(&self, doc: &mut OpenApi) {
        let components = doc.components.get_or_insert_with(Default::default);
        components.schemas.insert(
            "Failure".into(),
            <Failure as utoipa::PartialSchema>::schema(),
        );
        for (_, name, description) in FAILURES {
            components
                .responses
                .insert((*name).into(), RefOr::T(failure_response(description)));
        }
        components.add_security_scheme(
            BEARER,
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .bearer_format("JWT")
                    .description(Some(
                        "An access token from `POST /api/v1/oauth2/token` (15 minutes).",
                    ))
                    .build(),
            ),
        );
        components.add_security_scheme(
            BASIC,
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Basic)
                    .description(Some(
                        "An encoder's source login: any user name, the concert's stream key \
                         as the password (Icecast's `source:<key>`).",
                    ))
                    .build(),
            ),
        );
        for (path, item) in doc.paths.paths.iter_mut() {
            let has_id = path.contains('{');
            // The ingest and the HLS files answer plain text or bytes, never the envelope:
            // each lists its own statuses.
            let enveloped = !(path.starts_with("/live/") || path.starts_with("/stream/"));
            for op in [
                &mut item.get,
                &mut item.put,
                &mut item.post,
                &mut item.delete,
                &mut item.patch,
            ]
            .into_iter()
            .flatten()
            {
                if enveloped {
                    add_common_failures(op, has_id);
                }
                qualify_operation_id(op);
            }
        }
    }
}

/// Handlers are named for what they do within their domain (`list`, `show`): the
/// operation id is `<tag>.<handler>`, unique in the document.
fn qualify_operation_id(op: &mut Operation) {
    let tag = op.tags.as_ref().and_then(|tags| tags.first()).cloned();
    if let (Some(tag), Some(id)) = (tag, op.operation_id.as_mut()) {
        *id = format!("{tag}.{id}");
    }
}

/// A set of failures several operations answer alike, written once and named in their
/// annotations' `responses(…)`: each status with its description and the [`Failure`]
/// envelope.
///
/// ```ignore
/// failures!(pub Refusals { 403 => "No ticket.", 404 => "No such concert." });
/// ```
macro_rules! failures {
    ($(#[$attr:meta])* $vis:vis $name:ident { $($status:literal => $description:literal),+ $(,)? }) => {
        $(#[$attr])*
        $vis struct $name;

        impl ::utoipa::IntoResponses for $name {
            fn responses() -> ::std::collections::BTreeMap<
                String,
                ::utoipa::openapi::RefOr<::utoipa::openapi::response::Response>,
            > {
                [$(($status, $description)),+]
                    .into_iter()
                    .map(|(status, description): (u16, &str)| {
                        let response = $crate::openapi::failure_response(description);
                        (status.to_string(), ::utoipa::openapi::RefOr::T(response))
                    })
                    .collect()
            }
        }
    };
}
pub(crate) use failures;

/// An answer of the [`Failure`] envelope, described.
pub(crate) fn failure_response(description: &str) -> Described {
    ResponseBuilder::new()
        .description(description)
        .content(
            "application/json",
            ContentBuilder::new()
                .schema(Some(Ref::from_schema_name("Failure")))
                .build(),
        )
        .build()
}

/// Which of [`FAILURES`] an operation can meet: input errors when it takes a body,
/// 401/403 when it needs a token, 404 when its path names a resource; 400, 429, 500 and
/// 503 always. An annotation's own entry for a status wins.
fn add_common_failures(op: &mut Operation, has_id: bool) {
    let signed_in = op.security.as_ref().is_some_and(|reqs| {
        reqs.iter()
            .any(|r| serde_json::to_value(r).is_ok_and(|v| v != serde_json::json!({})))
    });
    let has_body = op.request_body.is_some();
    let responses: &mut BTreeMap<String, RefOr<Described>> = &mut op.responses.responses;
    for (status, name, _) in FAILURES {
        let applies = match *status {
            "401" | "403" => signed_in,
            "404" => has_id || signed_in,
            "413" | "415" | "422" => has_body,
            _ => true,
        };
        if applies {
            responses
                .entry((*status).into())
                .or_insert_with(|| RefOr::Ref(Ref::from_response_name(*name)));
        }
    }
}

#[derive(utoipa::OpenApi)]
#[openapi(
    info(
        title = "Encore API",
        description = "Ticketed live concerts: accounts, concerts, tickets, payments and live \
            audio. Every answer is the envelope `{success, payload, error}`; messages follow \
            `Accept-Language` (en, pt-BR, es, zh-CN, fa). See docs/api-contract.md for the flows.",
        license(name = "AGPL-3.0-or-later", identifier = "AGPL-3.0-or-later"),
    ),
    // The routes outside the routers' `routes!`, and the socket's payloads, are added
    // where the routers are put together (`crate::app::api_routers`): no domain here.
    paths(serve),
    tags(
        (name = "meta", description = "Health, version, licences, the dev outbox."),
        (name = "oauth", description = "Sign-in (OAuth 2.1 with PKCE), tokens, password and e-mail links."),
        (name = "accounts", description = "Accounts, profiles, phones, MFA, avatars."),
        (name = "notifications", description = "An account's notifications."),
        (name = "projects", description = "Projects (artists' teams) and their members."),
        (name = "events", description = "Concerts: listing, managing, publishing, sales."),
        (name = "commerce", description = "Cart, checkout, orders, refunds, pricing plans, billing."),
        (name = "statements", description = "Artists' statements: sales, refunds, fees and what is due, per project, month and currency; the platform fee."),
        (name = "stream", description = "Listening sessions, live status, and publishing (ingest)."),
        (name = "live", description = "The dashboard's WebSocket (`GET /api/v1/ws`): notifications, staff activity and concerts' live figures as they happen. A socket's messages cannot be typed here; docs/api-contract.md, \"Live over WebSocket\", describes them, its close codes and an example session. `Activity` and `LiveStatus` below are the payloads of its `activity` and `live_status` messages."),
    )
)]
pub struct ApiDoc;

/// The finished document: the routers' paths plus the shared parts above, applied once
/// the routers have added their paths.
pub fn finish(mut doc: OpenApi) -> OpenApi {
    CommonFailures.modify(&mut doc);
    doc
}

/// The serialised document, made once when the router is built.
#[derive(Clone)]
pub struct Document(pub Bytes);

/// This document. Plain OpenAPI JSON, not in the envelope, as tools expect it.
#[utoipa::path(get, path = "/api/v1/openapi.json", tag = "meta",
    responses((status = 200, description = "The OpenAPI 3.1 document of this API.",
        content_type = "application/json")))]
pub async fn serve(Extension(Document(json)): Extension<Document>) -> Response {
    (
        [
            (header::CONTENT_TYPE, "application/json"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        json,
    )
        .into_response()
}

/// A string that takes only these values: a field the handler checks (refusing any other
/// with its own 400), or one the server answers with one of a few fixed words.
pub fn one_of(values: &[&str]) -> utoipa::openapi::Object {
    utoipa::openapi::schema::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::Type::String)
        .enum_values(Some(values.iter().copied()))
        .build()
}

/// What `str::trim` and `char::is_whitespace` take for white space (Unicode White_Space),
/// as the body of a regex class: documented patterns must agree with the server's trim.
pub const WHITE_SPACE: &str =
    r"\t\n\x0B\x0C\r \x85\xA0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000";

/// A text field the server trims before it checks it: at most `max` characters and, when
/// `required`, not blank; `null` allowed when `nullable` (an absent change).
pub fn trimmed_text(max: usize, required: bool, nullable: bool) -> utoipa::openapi::Object {
    use utoipa::openapi::schema::{ObjectBuilder, SchemaType, Type};
    let types = if nullable {
        SchemaType::from_iter([Type::String, Type::Null])
    } else {
        SchemaType::new(Type::String)
    };
    let text = ObjectBuilder::new()
        .schema_type(types)
        .max_length(Some(max));
    if required {
        text.min_length(Some(1))
            .pattern(Some(format!("[^{WHITE_SPACE}]")))
            .build()
    } else {
        text.build()
    }
}
