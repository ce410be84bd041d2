//! Cart, checkout with the test provider, tickets, passes, refunds.

use encore::accounts::model::Role;
use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::*;

#[tokio::test]
async fn a_fan_buys_a_concert_and_finds_it_in_purchases_with_a_receipt() {
    let app = spawn_app().await;
    app.account("fan@example.com", Role::User).await;
    let fan = app.sign_in("fan@example.com").await;
    let event = concert(&app, Some(10), 1250, HOUR_MS).await;

    let (status, cart) = app
        .post(
            &format!("/api/v1/cart/{event}"),
            json!({}),
            Some(&fan.access),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{cart}");
    assert_eq!(cart["payload"][0]["event"]["id"], event.as_str());
    assert_eq!(cart["payload"][0]["event"]["price"], 1250);
    let (_, cart) = app.get("/api/v1/cart/", Some(&fan.access)).await;
    assert_eq!(cart["payload"].as_array().unwrap().len(), 1);

    let (status, checkout) = app
        .post("/api/v1/cart/checkout", json!({}), Some(&fan.access))
        .await;
    assert_eq!(status, StatusCode::OK, "{checkout}");
    let url = checkout["payload"].as_str().unwrap();
    assert!(url.starts_with(&format!("{}/pay/", app.url)), "{url}");
    let page = app
        .http
        .get(url)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        page.contains("12.50 EUR") && page.contains("Live at the Roundhouse"),
        "the hosted page shows the order"
    );

    let (status, paid) = app.pay(url, CARD_OK).await;
    assert_eq!(status, StatusCode::OK, "{paid}");
    let order = paid["payload"]["order"].as_str().unwrap();
    assert_eq!(
        paid["payload"]["redirect"],
        format!("/checkout-success?order={order}")
    );

    let (_, shown) = app
        .get(&format!("/api/v1/orders/{order}"), Some(&fan.access))
        .await;
    assert_eq!(shown["payload"]["status"], "fulfilled");
    assert_eq!(shown["payload"]["total"], 1250);
    let (_, purchases) = app.get("/api/v1/purchases/my/", Some(&fan.access)).await;
    assert_eq!(purchases["payload"]["items"][0]["id"], order);
    let (_, cart) = app.get("/api/v1/cart/", Some(&fan.access)).await;
    assert_eq!(cart["payload"], json!([]), "bought items leave the cart");
    let (_, shown) = app
        .get(&format!("/api/v1/events/{event}"), Some(&fan.access))
        .await;
    assert_eq!(shown["payload"]["owned"], true);
    assert_eq!(shown["payload"]["seatsLeft"], 9);
    let mail = app.outbox_message("fan@example.com", "email").await;
    assert!(mail["body"].as_str().unwrap().contains("12.50 EUR"));
    assert_eq!(
        app.count("SELECT COUNT(*) FROM tickets WHERE event_id = $1", &event)
            .await,
        1
    );
}

#[tokio::test]
async fn the_cart_refuses_owned_unsold_cancelled_closed_and_sold_out_concerts() {
    let app = spawn_app().await;
    let fans = app.fans(2).await;
    let (_, fan) = &fans[0];
    let (_, other) = &fans[1];
    let add = |event: String, token: String| {
        let app = &app;
        async move {
            app.post(&format!("/api/v1/cart/{event}"), json!({}), Some(&token))
                .await
        }
    };

    let owned = concert(&app, None, 500, HOUR_MS).await;
    assert_eq!(app.buy(fan, &owned, CARD_OK).await.0, StatusCode::OK);
    let (status, body) = add(owned.clone(), fan.clone()).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("already have access"),
        "{body}"
    );

    let closed = concert(&app, None, 500, -25 * HOUR_MS).await;
    let (status, body) = add(closed, fan.clone()).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert!(
        body["error"].as_str().unwrap().contains("24-hour"),
        "{body}"
    );

    let one_seat = concert(&app, Some(1), 500, HOUR_MS).await;
    assert_eq!(app.buy(other, &one_seat, CARD_OK).await.0, StatusCode::OK);
    let (status, body) = add(one_seat, fan.clone()).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(body["error"], "This concert is sold out.");

    let draft = {
        let id = concert(&app, None, 500, HOUR_MS).await;
        sqlx::query("UPDATE events SET status = 'draft' WHERE id = $1")
            .bind(&id)
            .execute(app.db())
            .await
            .unwrap();
        id
    };
    assert_eq!(add(draft, fan.clone()).await.0, StatusCode::NOT_FOUND);

    let cancelled = concert(&app, None, 500, HOUR_MS).await;
    sqlx::query("UPDATE events SET status = 'cancelled' WHERE id = $1")
        .bind(&cancelled)
        .execute(app.db())
        .await
        .unwrap();
    let (status, body) = add(cancelled, fan.clone()).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(body["error"], "This concert was cancelled.");

    assert_eq!(
        add("no-such-concert".into(), fan.clone()).await.0,
        StatusCode::NOT_FOUND
    );
    let (status, body) = app
        .post("/api/v1/cart/checkout", json!({}), Some(fan))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["error"], "Your cart is empty.");
}

#[tokio::test]
async fn a_declined_card_leaves_the_cart_intact_says_why_and_gives_the_seat_back() {
    let app = spawn_app().await;
    let fans = app.fans(1).await;
    let (_, fan) = &fans[0];
    let event = concert(&app, Some(5), 900, HOUR_MS).await;
    let (status, body) = app.buy(fan, &event, CARD_DECLINED).await;
    assert_eq!(status, StatusCode::PAYMENT_REQUIRED);
    assert!(
        body["error"].as_str().unwrap().contains("declined"),
        "{body}"
    );
    let (_, cart) = app.get("/api/v1/cart/", Some(fan)).await;
    assert_eq!(cart["payload"][0]["event"]["id"], event.as_str());
    let (_, shown) = app.get(&format!("/api/v1/events/{event}"), Some(fan)).await;
    assert_eq!(shown["payload"]["seatsLeft"], 5);
    assert_eq!(shown["payload"]["owned"], false);
    // Then a good card works through a new checkout.
    let (status, checkout) = app
        .post("/api/v1/cart/checkout", json!({}), Some(fan))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        app.pay(checkout["payload"].as_str().unwrap(), CARD_OK)
            .await
            .0,
        StatusCode::OK
    );
}

#[tokio::test]
async fn card_checks_and_a_retryable_error_keep_the_order_open() {
    let app = spawn_app().await;
    let fans = app.fans(1).await;
    let (_, fan) = &fans[0];
    let event = concert(&app, Some(5), 900, HOUR_MS).await;
    app.post(&format!("/api/v1/cart/{event}"), json!({}), Some(fan))
        .await;
    let (_, checkout) = app
        .post("/api/v1/cart/checkout", json!({}), Some(fan))
        .await;
    let url = checkout["payload"].as_str().unwrap();
    assert_eq!(
        app.pay(url, "4242 4242 4242 4241").await.0,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    let (status, body) = app.pay(url, "4000 0000 0000 0119").await;
    assert_eq!(status, StatusCode::PAYMENT_REQUIRED);
    assert!(
        body["error"].as_str().unwrap().contains("try again"),
        "{body}"
    );
    assert_eq!(app.pay(url, CARD_OK).await.0, StatusCode::OK);
    let (status, _) = app.pay(url, CARD_OK).await;
    assert_eq!(
        status,
        StatusCode::CONFLICT,
        "a paid checkout cannot be paid again"
    );
    assert_eq!(
        app.count("SELECT COUNT(*) FROM tickets WHERE event_id = $1", &event)
            .await,
        1
    );
    let (path, _) = url.split_once("?token=").unwrap();
    let (status, _) = app.pay(&format!("{path}?token=forged"), CARD_OK).await;
    assert_eq!(
        status,
        StatusCode::NOT_FOUND,
        "the checkout token is the capability to pay"
    );
}

#[tokio::test]
async fn an_unpaid_checkout_expires_and_its_seat_returns() {
    let app = spawn_app().await;
    let fans = app.fans(2).await;
    let event = concert(&app, Some(1), 900, HOUR_MS).await;
    app.post(
        &format!("/api/v1/cart/{event}"),
        json!({}),
        Some(&fans[0].1),
    )
    .await;
    let (_, checkout) = app
        .post("/api/v1/cart/checkout", json!({}), Some(&fans[0].1))
        .await;
    let url = checkout["payload"].as_str().unwrap().to_owned();
    let (status, body) = app
        .post(
            &format!("/api/v1/cart/{event}"),
            json!({}),
            Some(&fans[1].1),
        )
        .await;
    assert_eq!(
        status,
        StatusCode::CONFLICT,
        "the only seat is held: {body}"
    );

    sqlx::query("UPDATE orders SET expires_at = expires_at - 900001")
        .execute(app.db())
        .await
        .unwrap();
    assert_eq!(
        encore::commerce::orders::expire_overdue(app.db())
            .await
            .unwrap(),
        1
    );
    assert_eq!(
        app.count("SELECT COUNT(*) FROM orders WHERE status = $1", "pending")
            .await,
        0
    );
    assert_eq!(app.buy(&fans[1].1, &event, CARD_OK).await.0, StatusCode::OK);
    let (status, _) = app.pay(&url, CARD_OK).await;
    assert_eq!(
        status,
        StatusCode::CONFLICT,
        "the expired checkout cannot be paid"
    );
}

#[tokio::test]
async fn a_pass_unlocks_every_concert_starting_within_its_validity() {
    let app = spawn_app().await;
    app.account("admin@example.com", Role::Admin).await;
    let admin = app.sign_in("admin@example.com").await;
    let (status, plan) = app
        .post(
            "/api/v1/pricing-plans",
            json!({ "name": "Winter pass", "price": 4900, "currency": "EUR", "days": 30 }),
            Some(&admin.access),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{plan}");
    let plan_id = plan["payload"]["id"].as_str().unwrap();
    let fans = app.fans(1).await;
    let (_, fan) = &fans[0];
    let soon = concert(&app, None, 1500, 2 * 24 * HOUR_MS).await;
    let later = concert(&app, None, 1500, 45 * 24 * HOUR_MS).await;

    app.post(
        &format!("/api/v1/cart/passes/{plan_id}"),
        json!({}),
        Some(fan),
    )
    .await;
    let (_, checkout) = app
        .post("/api/v1/cart/checkout", json!({}), Some(fan))
        .await;
    assert_eq!(
        app.pay(checkout["payload"].as_str().unwrap(), CARD_OK)
            .await
            .0,
        StatusCode::OK
    );

    let (_, shown) = app.get(&format!("/api/v1/events/{soon}"), Some(fan)).await;
    assert_eq!(shown["payload"]["owned"], true);
    let (_, shown) = app.get(&format!("/api/v1/events/{later}"), Some(fan)).await;
    assert_eq!(
        shown["payload"]["owned"], false,
        "starts after the pass ends"
    );
    let (status, _) = app
        .post(&format!("/api/v1/cart/{soon}"), json!({}), Some(fan))
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "covered by the pass already");
}

#[tokio::test]
async fn an_admin_refund_revokes_access_and_cancelling_a_concert_refunds_its_tickets() {
    let app = spawn_app().await;
    app.account("admin@example.com", Role::Admin).await;
    let admin = app.sign_in("admin@example.com").await;
    let fans = app.fans(3).await;
    let event = concert(&app, Some(10), 2000, HOUR_MS).await;
    let mut orders = Vec::new();
    for (_, token) in &fans {
        let (_, paid) = app.buy(token, &event, CARD_OK).await;
        orders.push(paid["payload"]["order"].as_str().unwrap().to_owned());
    }
    let (status, refunded) = app
        .post(
            &format!("/api/v1/orders/{}/refund", orders[0]),
            json!({ "reason": "asked nicely" }),
            Some(&admin.access),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{refunded}");
    assert_eq!(refunded["payload"]["status"], "refunded");
    let (_, shown) = app
        .get(&format!("/api/v1/events/{event}"), Some(&fans[0].1))
        .await;
    assert_eq!(shown["payload"]["owned"], false, "a refund ends access");
    assert_eq!(shown["payload"]["seatsLeft"], 8);
    assert_eq!(
        app.post(
            &format!("/api/v1/orders/{}/refund", orders[0]),
            json!({}),
            Some(&admin.access)
        )
        .await
        .0,
        StatusCode::CONFLICT
    );
    assert_eq!(
        app.post(
            &format!("/api/v1/orders/{}/refund", orders[1]),
            json!({}),
            Some(&fans[1].1)
        )
        .await
        .0,
        StatusCode::FORBIDDEN,
        "fans cannot refund themselves"
    );

    let (status, _) = app
        .post(
            &format!("/api/v1/events/{event}/cancel"),
            json!({}),
            Some(&admin.access),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    for order in &orders[1..] {
        let (_, shown) = app
            .get(&format!("/api/v1/orders/{order}"), Some(&admin.access))
            .await;
        assert_eq!(shown["payload"]["status"], "refunded", "{shown}");
    }
    assert_eq!(
        app.count(
            "SELECT COUNT(*) FROM tickets WHERE event_id = $1 AND revoked_at IS NULL",
            &event
        )
        .await,
        0
    );
    let (n,): (i64,) =
        sqlx::query_as("SELECT CAST(COALESCE(SUM(amount_minor), 0) AS BIGINT) FROM refunds")
            .fetch_one(app.db())
            .await
            .unwrap();
    assert_eq!(n, 6000, "three tickets of 20.00 refunded");
}

#[tokio::test]
async fn billing_details_are_validated_saved_and_the_account_number_masked() {
    let app = spawn_app().await;
    app.account("admin@example.com", Role::Admin).await;
    let admin = app.sign_in("admin@example.com").await;
    let body = json!({
        "address": { "name": "Encore Ltd", "email": "Billing@Encore.example", "address": "1 Stage Rd",
                     "city": "London", "country": "GB", "company": "Company no. 123" },
        "bank": { "bankName": "Bank", "accountName": "Encore Ltd", "sortCode": "12-34-56",
                  "accountNumber": "GB33BUKB20201555555555", "notes": "" }
    });
    let (status, saved) = app
        .put("/api/v1/payments/billing", body.clone(), &admin.access)
        .await;
    assert_eq!(status, StatusCode::OK, "{saved}");
    assert_eq!(saved["payload"]["bank"]["accountNumber"], "•••• 5555");
    assert_eq!(
        saved["payload"]["address"]["email"],
        "billing@encore.example"
    );
    // Sending the masked value back keeps the stored number.
    let mut again = body.clone();
    again["bank"]["accountNumber"] = json!("•••• 5555");
    again["address"]["city"] = json!("Bristol");
    app.put("/api/v1/payments/billing", again, &admin.access)
        .await;
    let (_, shown) = app
        .get("/api/v1/payments/billing", Some(&admin.access))
        .await;
    assert_eq!(shown["payload"]["bank"]["accountNumber"], "•••• 5555");
    assert_eq!(shown["payload"]["address"]["city"], "Bristol");
    let mut bad = body;
    bad["bank"]["sortCode"] = json!("12-34");
    assert_eq!(
        app.put("/api/v1/payments/billing", bad, &admin.access)
            .await
            .0,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    let fans = app.fans(1).await;
    assert_eq!(
        app.get("/api/v1/payments/billing", Some(&fans[0].1))
            .await
            .0,
        StatusCode::FORBIDDEN
    );
    let (_, methods) = app
        .get("/api/v1/payments/methods", Some(&admin.access))
        .await;
    assert_eq!(methods["payload"][0]["id"], "test");
    assert_eq!(methods["payload"][0]["enabled"], true);
    assert_eq!(methods["payload"][1]["configured"], false);
}

#[tokio::test]
async fn the_test_checkout_speaks_the_dashboards_language_right_to_left_in_persian() {
    let app = spawn_app().await;
    let fans = app.fans(1).await;
    let (_, fan) = &fans[0];
    let event = concert(&app, None, 900, HOUR_MS).await;
    app.post(&format!("/api/v1/cart/{event}"), json!({}), Some(fan))
        .await;
    let response = app
        .http
        .post(format!("{}/api/v1/cart/checkout", app.url))
        .bearer_auth(fan)
        .header("accept-language", "fa-IR")
        .send()
        .await
        .unwrap();
    let url = response.json::<serde_json::Value>().await.unwrap()["payload"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(url.ends_with("&lang=ir"), "{url}");
    let page = app
        .http
        .get(&url)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        page.contains("dir=\"rtl\"") && page.contains("پرداخت Encore"),
        "{page}"
    );
    let (path, token) = url.split_once("?token=").unwrap();
    let token = token.split('&').next().unwrap();
    let order = path.rsplit('/').next().unwrap();
    let (status, body) = app
        .post(
            &format!("/api/v1/payments/test/{order}"),
            json!({ "token": token, "cardNumber": CARD_DECLINED, "expiry": "12/40", "cvc": "123", "lang": "ir" }),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::PAYMENT_REQUIRED);
    assert_eq!(
        body["error"],
        "کارت شما رد شد. سبد خرید شما تغییری نکرده است: کارت دیگری را امتحان کنید."
    );
}

async fn stored_account_number(app: &TestApp) -> String {
    let (stored,): (String,) = sqlx::query_as("SELECT account_number FROM billing_profile")
        .fetch_one(app.db())
        .await
        .unwrap();
    stored
}

fn billing_body(account_number: &str) -> serde_json::Value {
    json!({
        "address": { "name": "Encore Ltd" },
        "bank": { "bankName": "Bank", "accountName": "Encore Ltd", "sortCode": "12-34-56",
                  "accountNumber": account_number, "notes": "" }
    })
}

#[tokio::test]
async fn the_stored_bank_account_number_is_encrypted_and_still_shown_masked_after_a_restart() {
    let app = spawn_app().await;
    app.account("admin@example.com", Role::Admin).await;
    let admin = app.sign_in("admin@example.com").await;
    let (status, body) = app
        .put(
            "/api/v1/payments/billing",
            billing_body("GB33BUKB20201555555555"),
            &admin.access,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let stored = stored_account_number(&app).await;
    assert!(stored.starts_with("v1:"), "{stored}");
    assert!(
        !stored.contains("GB33") && !stored.contains("5555"),
        "{stored}"
    );

    let app = app.restart().await;
    let admin = app.sign_in("admin@example.com").await;
    let (status, shown) = app
        .get("/api/v1/payments/billing", Some(&admin.access))
        .await;
    assert_eq!(status, StatusCode::OK, "{shown}");
    assert_eq!(shown["payload"]["bank"]["accountNumber"], "•••• 5555");
    assert_eq!(shown["payload"]["bank"]["accountNumberUnavailable"], false);
}

#[tokio::test]
async fn a_legacy_plain_account_number_is_read_and_encrypted_by_the_next_save() {
    let app = spawn_app().await;
    app.account("admin@example.com", Role::Admin).await;
    let admin = app.sign_in("admin@example.com").await;
    app.put("/api/v1/payments/billing", billing_body(""), &admin.access)
        .await;
    sqlx::query("UPDATE billing_profile SET account_number = '12345678'")
        .execute(app.db())
        .await
        .unwrap();
    let (_, shown) = app
        .get("/api/v1/payments/billing", Some(&admin.access))
        .await;
    assert_eq!(shown["payload"]["bank"]["accountNumber"], "•••• 5678");

    let (status, saved) = app
        .put(
            "/api/v1/payments/billing",
            billing_body("•••• 5678"),
            &admin.access,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{saved}");
    assert_eq!(saved["payload"]["bank"]["accountNumber"], "•••• 5678");
    let stored = stored_account_number(&app).await;
    assert!(
        stored.starts_with("v1:") && !stored.contains("5678"),
        "{stored}"
    );
}

#[tokio::test]
async fn an_account_number_under_another_data_key_is_shown_unavailable_not_a_500() {
    let app = spawn_app().await;
    app.account("admin@example.com", Role::Admin).await;
    let admin = app.sign_in("admin@example.com").await;
    app.put("/api/v1/payments/billing", billing_body(""), &admin.access)
        .await;
    let foreign = encore::crypto::DataKey::derive("another instance's data secret, 32+ chars")
        .seal("billing_profile.account_number", "12345678")
        .unwrap();
    sqlx::query("UPDATE billing_profile SET account_number = $1")
        .bind(&foreign)
        .execute(app.db())
        .await
        .unwrap();

    let (status, shown) = app
        .get("/api/v1/payments/billing", Some(&admin.access))
        .await;
    assert_eq!(status, StatusCode::OK, "{shown}");
    assert_eq!(shown["payload"]["bank"]["accountNumber"], "••••");
    assert_eq!(shown["payload"]["bank"]["accountNumberUnavailable"], true);

    // Saving the other fields keeps the sealed value, in case the right key comes back.
    let (status, _) = app
        .put(
            "/api/v1/payments/billing",
            billing_body("••••"),
            &admin.access,
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(stored_account_number(&app).await, foreign);
}
