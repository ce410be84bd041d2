//! Findings of the security review (issue 11), each proven closed.

use encore::accounts::model::Role;
use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::*;

#[tokio::test]
async fn without_a_payment_provider_checkout_says_so_and_nothing_is_sold_or_held() {
    let app = spawn_app_with(Options {
        payments_off: true,
        ..Options::default()
    })
    .await;
    let fan = app.account("fan@example.com", Role::User).await;
    let tokens = app.sign_in(&fan.login).await;
    let event = concert(&app, Some(3), 1500, 48 * HOUR_MS).await;
    let (status, body) = app
        .post(
            &format!("/api/v1/cart/{event}"),
            json!({}),
            Some(&tokens.access),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");

    let (status, body) = app
        .post("/api/v1/cart/checkout", json!({}), Some(&tokens.access))
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(body["success"], false);
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("Payments are not configured"),
        "{body}"
    );
    assert_eq!(
        app.count("SELECT COUNT(*) FROM orders WHERE account_id = $1", &fan.id)
            .await,
        0
    );
    let (_, cart) = app.get("/api/v1/cart/", Some(&tokens.access)).await;
    assert_eq!(
        cart["payload"].as_array().map(Vec::len),
        Some(1),
        "the cart is kept: {cart}"
    );
    let (_, seats) = app.get(&format!("/api/v1/events/{event}"), None).await;
    assert_eq!(seats["payload"]["seatsLeft"], 3);

    // The test checkout cannot be reached either.
    let (status, _) = app
        .post(
            "/api/v1/payments/test/any-order",
            json!({ "token": "x", "cardNumber": CARD_OK, "expiry": "12/40", "cvc": "123", "name": "A" }),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn the_payment_methods_page_shows_no_provider_enabled_when_none_is_configured() {
    let app = spawn_app_with(Options {
        payments_off: true,
        ..Options::default()
    })
    .await;
    app.account("admin@example.com", Role::Admin).await;
    let admin = app.sign_in("admin@example.com").await;
    let (status, body) = app
        .get("/api/v1/payments/methods", Some(&admin.access))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let methods = body["payload"].as_array().unwrap();
    assert!(methods.iter().all(|m| m["enabled"] == false), "{body}");
}

#[cfg(unix)]
#[tokio::test]
async fn the_data_directory_is_the_owners_alone_and_so_are_its_files() {
    use std::os::unix::fs::PermissionsExt;
    let app = spawn_app().await;
    app.account("fan@example.com", Role::User).await;
    app.oauth(
        "forgot",
        json!({ "email": "fan@example.com", "code_verifier": pkce().0, "client_id": WEB, "state": "f" }),
    )
    .await;
    app.outbox_message("fan@example.com", "email").await;
    let dir = &app.state.config.data_dir;
    let mode =
        |path: &std::path::Path| std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(dir), 0o700, "{}", dir.display());
    let outbox = dir.join("outbox.jsonl");
    assert_eq!(mode(&outbox), 0o600, "the outbox holds reset links");
    let database = dir.join("encore.db");
    if database.exists() {
        assert_eq!(mode(&database), 0o600, "the database");
    }
    for entry in std::fs::read_dir(dir).unwrap() {
        let entry = entry.unwrap();
        if entry.file_type().unwrap().is_file() {
            assert_eq!(mode(&entry.path()), 0o600, "{}", entry.path().display());
        }
    }
}

#[tokio::test]
async fn six_parallel_checkouts_of_one_fan_hold_at_most_one_order() {
    let app = spawn_app().await;
    let fan = app.account("fan@example.com", Role::User).await;
    let tokens = app.sign_in(&fan.login).await;
    let event = concert(&app, Some(3), 1500, 48 * HOUR_MS).await;
    app.post(
        &format!("/api/v1/cart/{event}"),
        json!({}),
        Some(&tokens.access),
    )
    .await;
    let attempts =
        (0..6).map(|_| app.post("/api/v1/cart/checkout", json!({}), Some(&tokens.access)));
    let answers = futures_util::future::join_all(attempts).await;
    for (status, body) in &answers {
        assert!(
            *status == StatusCode::OK || *status == StatusCode::CONFLICT,
            "{status} {body}"
        );
    }
    assert!(answers.iter().any(|(status, _)| *status == StatusCode::OK));
    let pending = app
        .count(
            "SELECT COUNT(*) FROM orders WHERE account_id = $1 AND status = 'pending'",
            &fan.id,
        )
        .await;
    assert_eq!(pending, 1);
    let (_, seats) = app.get(&format!("/api/v1/events/{event}"), None).await;
    assert_eq!(
        seats["payload"]["seatsLeft"], 2,
        "one seat held, the rest free"
    );
}

#[tokio::test]
async fn the_database_refuses_a_second_pending_order_for_one_account() {
    let app = spawn_app().await;
    let fan = app.account("fan@example.com", Role::User).await;
    let event = concert(&app, None, 1500, 48 * HOUR_MS).await;
    let item = || encore::commerce::orders::NewItem {
        kind: "event",
        id: event.clone(),
        title: "Concert".into(),
        price_minor: 1500,
    };
    encore::commerce::orders::create_pending(app.db(), &fan.id, None, &[item()], "EUR", "test")
        .await
        .expect("the first hold");
    let second =
        encore::commerce::orders::create_pending(app.db(), &fan.id, None, &[item()], "EUR", "test")
            .await;
    assert!(
        matches!(second, Err(encore::error::Error::Conflict(_))),
        "{second:?}"
    );
}

#[tokio::test]
async fn open_checkouts_from_one_address_are_capped_across_accounts() {
    let app = spawn_app_with(Options {
        holds_per_client: 2,
        ..Options::default()
    })
    .await;
    let event = concert(&app, Some(50), 1500, 48 * HOUR_MS).await;
    let mut answers = Vec::new();
    for (_, token) in app.fans(3).await {
        app.post(&format!("/api/v1/cart/{event}"), json!({}), Some(&token))
            .await;
        answers.push(
            app.post("/api/v1/cart/checkout", json!({}), Some(&token))
                .await,
        );
    }
    assert_eq!(answers[0].0, StatusCode::OK, "{}", answers[0].1);
    assert_eq!(answers[1].0, StatusCode::OK, "{}", answers[1].1);
    assert_eq!(
        answers[2].0,
        StatusCode::TOO_MANY_REQUESTS,
        "{}",
        answers[2].1
    );
    assert_eq!(answers[2].1["success"], false);
    let (_, seats) = app.get(&format!("/api/v1/events/{event}"), None).await;
    assert_eq!(seats["payload"]["seatsLeft"], 48);
}
