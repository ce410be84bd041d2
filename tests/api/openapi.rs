//! The OpenAPI document (issue 16): it names every route and only routes that exist, and
//! the copy the web client's types are generated from is the one the server makes.

use std::path::Path;

use reqwest::{Method, StatusCode};
use serde_json::Value;

use crate::helpers::spawn_app;

/// Routes that are pages or streams, not API operations: each with where it is described.
const NOT_OPERATIONS: &[(&str, &str)] = &[
    ("/api/docs", "the browsable reference itself"),
    (
        "/pay/{order_id}",
        "the test checkout's hosted page (commerce)",
    ),
    (
        "/concerts/{id}",
        "a concert's shareable web page with its preview tags (events)",
    ),
    (
        "/live/{event_id}/ws",
        "the browser go-live WebSocket: its messages are described in prose on PUT \
         /live/{event_id} (stream)",
    ),
];

/// Every `.route("…"` and `.route_service("…"` literal in `src/`: the routes not
/// registered through `routes!` (which cannot be left out of the document).
fn routes_registered_by_hand() -> Vec<(String, String)> {
    let mut found = Vec::new();
    let mut stack = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("src")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(dir).expect("src is readable") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("source is UTF-8");
            let compact: String = text.split_whitespace().collect();
            for call in [".route(\"", ".route_service(\""] {
                for (at, _) in compact.match_indices(call) {
                    let rest = &compact[at + call.len()..];
                    let literal = &rest[..rest.find('"').expect("closing quote")];
                    found.push((literal.to_owned(), path.display().to_string()));
                }
            }
        }
    }
    found
}

async fn document() -> Value {
    let app = spawn_app().await;
    let response = app
        .http
        .get(format!("{}/api/v1/openapi.json", app.url))
        .send()
        .await
        .expect("request");
    assert_eq!(response.status(), StatusCode::OK);
    response.json().await.expect("the document is JSON")
}

#[tokio::test]
async fn every_route_outside_routes_macro_is_documented_or_a_page() {
    let doc = document().await;
    let paths: Vec<&String> = doc["paths"].as_object().expect("paths").keys().collect();
    for (route, file) in routes_registered_by_hand() {
        let page = NOT_OPERATIONS.iter().any(|(p, _)| *p == route);
        let documented = paths.iter().any(|p| p.ends_with(&route));
        assert!(
            page || documented,
            "{route} ({file}) is routed but neither in the OpenAPI document nor a page"
        );
    }
}

#[tokio::test]
async fn every_documented_operation_is_routed() {
    let app = spawn_app().await;
    let doc = document().await;
    let no_such_endpoint = "No such API endpoint.";
    for (path, item) in doc["paths"].as_object().expect("paths") {
        // Any id will do: the route must answer, not the router's "no such endpoint".
        let concrete = path
            .split('/')
            .map(|part| {
                if part.starts_with('{') {
                    "00000000-0000-4000-8000-000000000000"
                } else {
                    part
                }
            })
            .collect::<Vec<_>>()
            .join("/");
        for method in item.as_object().expect("path item").keys() {
            let Ok(method) = Method::from_bytes(method.to_uppercase().as_bytes()) else {
                continue;
            };
            if !matches!(
                method,
                Method::GET | Method::POST | Method::PUT | Method::DELETE
            ) {
                continue;
            }
            let response = app
                .http
                .request(method.clone(), format!("{}{concrete}", app.url))
                .header("Accept-Language", "en")
                .send()
                .await
                .expect("request");
            let status = response.status();
            let body: Value = response.json().await.unwrap_or(Value::Null);
            assert_ne!(status, StatusCode::METHOD_NOT_ALLOWED, "{method} {path}");
            assert!(
                !(status == StatusCode::NOT_FOUND && body["error"] == no_such_endpoint),
                "{method} {path} is documented but not routed"
            );
        }
    }
}

#[tokio::test]
async fn operation_ids_are_unique_and_every_operation_has_a_tag() {
    let doc = document().await;
    let mut ids = std::collections::BTreeSet::new();
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for (method, op) in item.as_object().expect("path item") {
            let id = op["operationId"].as_str().unwrap_or_default().to_owned();
            assert!(
                ids.insert(id.clone()),
                "{method} {path}: operationId {id} twice"
            );
            assert!(op["tags"][0].is_string(), "{method} {path} has no tag");
        }
    }
}

#[test]
fn the_web_clients_copy_of_the_document_is_current() {
    let committed =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("web/openapi.json"))
            .expect("web/openapi.json exists");
    let generated = encore::app::openapi_json("/api/v1/oauth2").expect("serialises");
    assert!(
        committed.trim_end() == generated,
        "web/openapi.json is stale: run `make openapi` and commit it (the web client's types \
         are generated from it)"
    );
}

#[tokio::test]
async fn a_list_documents_the_page_limit_it_refuses_past_and_accounts_the_422_of_an_unknown_role() {
    let doc = document().await;
    let list = &doc["paths"]["/api/v1/accounts"]["get"];
    let page = list["parameters"]
        .as_array()
        .expect("parameters")
        .iter()
        .find(|p| p["name"] == "page")
        .expect("a page parameter");
    assert_eq!(page["schema"]["maximum"], encore::paging::MAX_PAGE);
    assert!(list["responses"]["422"].is_object());
}

/// Every `$ref` in the document names a schema, response or parameter it holds (a dangling
/// one made openapi-typescript refuse the whole file).
#[tokio::test]
async fn every_reference_in_the_document_resolves() {
    fn refs<'a>(value: &'a Value, found: &mut Vec<&'a str>) {
        match value {
            Value::Object(map) => {
                if let Some(Value::String(target)) = map.get("$ref") {
                    found.push(target);
                }
                map.values().for_each(|v| refs(v, found));
            }
            Value::Array(items) => items.iter().for_each(|v| refs(v, found)),
            _ => {}
        }
    }
    let doc = document().await;
    let mut found = Vec::new();
    refs(&doc, &mut found);
    assert!(!found.is_empty());
    for target in found {
        let pointer = target.strip_prefix('#').expect("a local reference");
        assert!(doc.pointer(pointer).is_some(), "{target} names nothing");
    }
}
