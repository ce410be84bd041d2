//! Cart, checkout with the test provider, tickets, passes, refunds.

use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::*;

/// Add `event` to the cart of `token`: the answer.
async fn add_to_cart(app: &TestApp, event: &str, token: &str) -> (StatusCode, serde_json::Value) {
    app.post(&format!("/api/v1/cart/{event}"), json!({}), Some(token))
        .await
}

/// Check the cart of `token` out: the hosted checkout's URL.
async fn check_out(app: &TestApp, token: &str) -> String {
    let (status, checkout) = app
        .post("/api/v1/cart/checkout", json!({}), Some(token))
        .await;
    assert_eq!(status, StatusCode::OK, "{checkout}");
    checkout["payload"].as_str().unwrap().to_owned()
}

/// A signed-in fan with a 12.50 EUR concert of ten seats in the cart, checked out:
/// the fan's access token, the concert and the checkout URL.
async fn an_open_checkout(app: &TestApp) -> (String, String, String) {
    let (_, fan) = app.a_fan().await;
    let event = concert(app, Some(10), 1250, HOUR_MS).await;
    let (status, cart) = add_to_cart(app, &event, &fan.access).await;
    assert_eq!(status, StatusCode::OK, "{cart}");
    let url = check_out(app, &fan.access).await;
    (fan.access, event, url)
}

/// [`an_open_checkout`], paid: the fan's token, the concert and the order.
async fn a_paid_order(app: &TestApp) -> (String, String, String, serde_json::Value) {
    let (fan, event, url) = an_open_checkout(app).await;
    let (status, paid) = app.pay(&url, CARD_OK).await;
    assert_eq!(status, StatusCode::OK, "{paid}");
    let order = paid["payload"]["order"].as_str().unwrap().to_owned();
    (fan, event, order, paid)
}

#[tokio::test]
async fn a_concert_added_to_the_cart_is_in_it_at_its_price() {
    let app = spawn_app().await;
    let (_, fan) = app.a_fan().await;
    let event = concert(&app, Some(10), 1250, HOUR_MS).await;
    let (status, cart) = add_to_cart(&app, &event, &fan.access).await;
    assert_eq!(status, StatusCode::OK, "{cart}");
    assert_eq!(cart["payload"][0]["event"]["id"], event.as_str());
    assert_eq!(cart["payload"][0]["event"]["price"], 1250);
    let (_, cart) = app.get("/api/v1/cart/", Some(&fan.access)).await;
    assert_eq!(cart["payload"].as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn a_checkout_opens_a_hosted_page_that_shows_the_order() {
    let app = spawn_app().await;
    let (_, _, url) = an_open_checkout(&app).await;
    assert!(url.starts_with(&format!("{}/pay/", app.url)), "{url}");
    let page = app.text_at(&url).await;
    assert!(
        page.contains("12.50 EUR") && page.contains("Live at the Roundhouse"),
        "the hosted page shows the order"
    );
}

#[tokio::test]
async fn the_hosted_page_formats_the_card_as_typed_and_links_back_to_the_cart() {
    let app = spawn_app().await;
    let (_, _, url) = an_open_checkout(&app).await;
    let response = app.http.get(&url).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let policy = response.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .to_owned();
    let page = response.text().await.unwrap();
    let order = url
        .split("/pay/")
        .nth(1)
        .unwrap()
        .split('?')
        .next()
        .unwrap();
    let token = url
        .split("token=")
        .nth(1)
        .unwrap()
        .split('&')
        .next()
        .unwrap();
    // The form carries what its script posts; the script is the page's own, nonced.
    assert!(page.contains(&format!("data-order=\"{order}\"")), "{page}");
    assert!(page.contains(&format!("data-token=\"{token}\"")), "{page}");
    let nonce = policy
        .split("'nonce-")
        .nth(1)
        .unwrap()
        .split('\'')
        .next()
        .unwrap();
    assert!(page.contains(&format!("<script type=module nonce=\"{nonce}\">")));
    assert!(page.contains("export function formatCardNumber"));
    assert!(page.contains("href=\"/cart\""), "a way back to the cart");
    assert!(page.contains("prefers-color-scheme:dark"), "light and dark");
    // The page's form still pays (the card as the script formats it).
    let (status, paid) = app.pay(&url, CARD_OK).await;
    assert_eq!(status, StatusCode::OK, "{paid}");
}

#[tokio::test]
async fn a_paid_order_is_fulfilled_with_a_ticket_and_leads_to_checkout_success() {
    let app = spawn_app().await;
    let (fan, event, order, paid) = a_paid_order(&app).await;
    assert_eq!(
        paid["payload"]["redirect"],
        format!("/checkout-success?order={order}")
    );
    let (_, shown) = app
        .get(&format!("/api/v1/orders/{order}"), Some(&fan))
        .await;
    assert_eq!(shown["payload"]["status"], "fulfilled");
    assert_eq!(shown["payload"]["total"], 1250);
    assert_eq!(
        app.count("SELECT COUNT(*) FROM tickets WHERE event_id = $1", &event)
            .await,
        1
    );
}

#[tokio::test]
async fn a_bought_concert_is_in_purchases_owned_out_of_the_cart_and_takes_a_seat() {
    let app = spawn_app().await;
    let (fan, event, order, _) = a_paid_order(&app).await;
    let (_, purchases) = app.get("/api/v1/purchases/my/", Some(&fan)).await;
    assert_eq!(purchases["payload"]["items"][0]["id"], order.as_str());
    let (_, cart) = app.get("/api/v1/cart/", Some(&fan)).await;
    assert_eq!(cart["payload"], json!([]), "bought items leave the cart");
    let (_, shown) = app
        .get(&format!("/api/v1/events/{event}"), Some(&fan))
        .await;
    assert_eq!(shown["payload"]["owned"], true);
    assert_eq!(shown["payload"]["seatsLeft"], 9);
}

#[tokio::test]
async fn a_paid_order_emails_the_fan_a_receipt() {
    let app = spawn_app().await;
    a_paid_order(&app).await;
    let mail = app.outbox_message("fan@example.com", "email").await;
    assert!(mail["body"].as_str().unwrap().contains("12.50 EUR"));
}

/// A fan (minted session): their access token.
async fn a_quick_fan(app: &TestApp) -> String {
    app.fans(1).await.remove(0).1
}

#[tokio::test]
async fn the_cart_refuses_a_concert_the_fan_already_owns() {
    let app = spawn_app().await;
    let fan = a_quick_fan(&app).await;
    let owned = concert(&app, None, 500, HOUR_MS).await;
    assert_eq!(app.buy(&fan, &owned, CARD_OK).await.0, StatusCode::OK);
    let (status, body) = add_to_cart(&app, &owned, &fan).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("already have access"),
        "{body}"
    );
}

#[tokio::test]
async fn the_cart_refuses_a_concert_past_its_24_hour_window() {
    let app = spawn_app().await;
    let fan = a_quick_fan(&app).await;
    let closed = concert(&app, None, 500, -25 * HOUR_MS).await;
    let (status, body) = add_to_cart(&app, &closed, &fan).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert!(
        body["error"].as_str().unwrap().contains("24-hour"),
        "{body}"
    );
}

#[tokio::test]
async fn the_cart_refuses_a_sold_out_concert() {
    let app = spawn_app().await;
    let fans = app.fans(2).await;
    let one_seat = concert(&app, Some(1), 500, HOUR_MS).await;
    assert_eq!(
        app.buy(&fans[1].1, &one_seat, CARD_OK).await.0,
        StatusCode::OK
    );
    let (status, body) = add_to_cart(&app, &one_seat, &fans[0].1).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(body["error"], "This concert is sold out.");
}

#[tokio::test]
async fn the_cart_answers_a_draft_or_an_unknown_concert_404() {
    let app = spawn_app().await;
    let fan = a_quick_fan(&app).await;
    let draft = concert(&app, None, 500, HOUR_MS).await;
    app.set_event_status(&draft, "draft").await;
    assert_eq!(
        add_to_cart(&app, &draft, &fan).await.0,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        add_to_cart(&app, "no-such-concert", &fan).await.0,
        StatusCode::NOT_FOUND
    );
}

#[tokio::test]
async fn the_cart_refuses_a_cancelled_concert() {
    let app = spawn_app().await;
    let fan = a_quick_fan(&app).await;
    let cancelled = concert(&app, None, 500, HOUR_MS).await;
    app.set_event_status(&cancelled, "cancelled").await;
    let (status, body) = add_to_cart(&app, &cancelled, &fan).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(body["error"], "This concert was cancelled.");
}

#[tokio::test]
/// Found by schemathesis: a well-formed checkout was a 400 when the cart was empty; the
/// cart's state refuses it, a 409 like the other refusals of checkout.
async fn checking_out_an_empty_cart_is_409() {
    let app = spawn_app().await;
    let fan = a_quick_fan(&app).await;
    let (status, body) = app
        .post("/api/v1/cart/checkout", json!({}), Some(&fan))
        .await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(body["error"], "Your cart is empty.");
}

#[tokio::test]
async fn a_declined_card_leaves_the_cart_intact_says_why_and_keeps_the_seat_for_another_card() {
    let app = spawn_app().await;
    let fan = a_quick_fan(&app).await;
    let event = concert(&app, Some(5), 900, HOUR_MS).await;
    let (status, body) = app.buy(&fan, &event, CARD_DECLINED).await;
    assert_eq!(status, StatusCode::PAYMENT_REQUIRED);
    assert!(
        body["error"].as_str().unwrap().contains("declined"),
        "{body}"
    );
    let (_, cart) = app.get("/api/v1/cart/", Some(&fan)).await;
    assert_eq!(cart["payload"][0]["event"]["id"], event.as_str());
    let (_, shown) = app
        .get(&format!("/api/v1/events/{event}"), Some(&fan))
        .await;
    // The checkout stays open for another card: its seat is held until it lapses.
    assert_eq!(shown["payload"]["seatsLeft"], 4);
    assert_eq!(shown["payload"]["owned"], false);
}

#[tokio::test]
async fn after_a_declined_card_a_new_checkout_is_paid_with_a_good_card() {
    let app = spawn_app().await;
    let fan = a_quick_fan(&app).await;
    let event = concert(&app, Some(5), 900, HOUR_MS).await;
    assert_eq!(
        app.buy(&fan, &event, CARD_DECLINED).await.0,
        StatusCode::PAYMENT_REQUIRED
    );
    let url = check_out(&app, &fan).await;
    assert_eq!(app.pay(&url, CARD_OK).await.0, StatusCode::OK);
}

#[tokio::test]
async fn a_card_number_failing_its_check_is_422_and_the_order_stays_open() {
    let app = spawn_app().await;
    let (_, _, url) = an_open_checkout(&app).await;
    assert_eq!(
        app.pay(&url, "4242 4242 4242 4241").await.0,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    assert_eq!(app.pay(&url, CARD_OK).await.0, StatusCode::OK);
}

#[tokio::test]
async fn a_retryable_card_error_says_try_again_and_the_order_stays_open() {
    let app = spawn_app().await;
    let (_, _, url) = an_open_checkout(&app).await;
    let (status, body) = app.pay(&url, "4000 0000 0000 0119").await;
    assert_eq!(status, StatusCode::PAYMENT_REQUIRED);
    assert!(
        body["error"].as_str().unwrap().contains("try again"),
        "{body}"
    );
    assert_eq!(app.pay(&url, CARD_OK).await.0, StatusCode::OK);
}

#[tokio::test]
async fn a_paid_checkout_cannot_be_paid_again() {
    let app = spawn_app().await;
    let (_, event, url) = an_open_checkout(&app).await;
    assert_eq!(app.pay(&url, CARD_OK).await.0, StatusCode::OK);
    let (status, _) = app.pay(&url, CARD_OK).await;
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
}

#[tokio::test]
async fn a_checkout_with_a_forged_token_is_404() {
    let app = spawn_app().await;
    let (_, _, url) = an_open_checkout(&app).await;
    let (path, _) = url.split_once("?token=").unwrap();
    let (status, _) = app.pay(&format!("{path}?token=forged"), CARD_OK).await;
    assert_eq!(
        status,
        StatusCode::NOT_FOUND,
        "the checkout token is the capability to pay"
    );
}

/// Two fans and a one-seat concert whose seat the first fan's open checkout holds:
/// the fans' tokens, the concert and that checkout's URL.
async fn a_held_last_seat(app: &TestApp) -> (Vec<String>, String, String) {
    let fans: Vec<String> = app.fans(2).await.into_iter().map(|f| f.1).collect();
    let event = concert(app, Some(1), 900, HOUR_MS).await;
    add_to_cart(app, &event, &fans[0]).await;
    let url = check_out(app, &fans[0]).await;
    (fans, event, url)
}

/// Age every open checkout past its hold and expire it.
async fn expire_checkouts(app: &TestApp) {
    app.execute("UPDATE orders SET expires_at = expires_at - 900001")
        .await;
    assert_eq!(
        encore::commerce::orders::expire_overdue(app.db())
            .await
            .unwrap(),
        1
    );
}

#[tokio::test]
async fn an_open_checkout_holds_its_seat_from_other_fans() {
    let app = spawn_app().await;
    let (fans, event, _) = a_held_last_seat(&app).await;
    let (status, body) = add_to_cart(&app, &event, &fans[1]).await;
    assert_eq!(
        status,
        StatusCode::CONFLICT,
        "the only seat is held: {body}"
    );
}

#[tokio::test]
async fn an_unpaid_checkout_expires_and_its_seat_returns() {
    let app = spawn_app().await;
    let (fans, event, _) = a_held_last_seat(&app).await;
    expire_checkouts(&app).await;
    assert_eq!(
        app.count("SELECT COUNT(*) FROM orders WHERE status = $1", "pending")
            .await,
        0
    );
    assert_eq!(app.buy(&fans[1], &event, CARD_OK).await.0, StatusCode::OK);
}

#[tokio::test]
async fn an_expired_checkout_cannot_be_paid() {
    let app = spawn_app().await;
    let (_, _, url) = a_held_last_seat(&app).await;
    expire_checkouts(&app).await;
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
    let soon = concert(&app, None, 1500, 2 * 24 * HOUR_MS).await;
    let later = concert(&app, None, 1500, 45 * 24 * HOUR_MS).await;
    let (fan, _) = a_pass_holder(&app).await;
    let (_, shown) = app.get(&format!("/api/v1/events/{soon}"), Some(&fan)).await;
    assert_eq!(shown["payload"]["owned"], true);
    let (_, shown) = app
        .get(&format!("/api/v1/events/{later}"), Some(&fan))
        .await;
    assert_eq!(
        shown["payload"]["owned"], false,
        "starts after the pass ends"
    );
}

#[tokio::test]
async fn the_cart_refuses_a_concert_a_pass_already_covers() {
    let app = spawn_app().await;
    let soon = concert(&app, None, 1500, 2 * 24 * HOUR_MS).await;
    let (fan, _) = a_pass_holder(&app).await;
    let (status, _) = add_to_cart(&app, &soon, &fan).await;
    assert_eq!(status, StatusCode::CONFLICT, "covered by the pass already");
}

/// An admin and three fans who each bought a 20.00 ticket to one concert of ten seats:
/// the admin's token, the fans' tokens, the concert and the three orders.
async fn three_sold_tickets(app: &TestApp) -> (String, Vec<String>, String, Vec<String>) {
    let admin = app.an_admin().await;
    let fans: Vec<String> = app.fans(3).await.into_iter().map(|f| f.1).collect();
    let event = concert(app, Some(10), 2000, HOUR_MS).await;
    let mut orders = Vec::new();
    for token in &fans {
        let (_, paid) = app.buy(token, &event, CARD_OK).await;
        orders.push(paid["payload"]["order"].as_str().unwrap().to_owned());
    }
    (admin, fans, event, orders)
}

async fn refund(app: &TestApp, order: &str, token: &str) -> (StatusCode, serde_json::Value) {
    app.refund(order, token).await
}

#[tokio::test]
async fn an_admin_refund_ends_the_fans_access_and_frees_the_seat() {
    let app = spawn_app().await;
    let (admin, fans, event, orders) = three_sold_tickets(&app).await;
    let (status, refunded) = refund(&app, &orders[0], &admin).await;
    assert_eq!(status, StatusCode::OK, "{refunded}");
    assert_eq!(refunded["payload"]["status"], "refunded");
    let (_, shown) = app
        .get(&format!("/api/v1/events/{event}"), Some(&fans[0]))
        .await;
    assert_eq!(shown["payload"]["owned"], false, "a refund ends access");
    assert_eq!(shown["payload"]["seatsLeft"], 8);
}

#[tokio::test]
async fn a_refunded_order_cannot_be_refunded_again() {
    let app = spawn_app().await;
    let (admin, _, _, orders) = three_sold_tickets(&app).await;
    assert_eq!(refund(&app, &orders[0], &admin).await.0, StatusCode::OK);
    assert_eq!(
        refund(&app, &orders[0], &admin).await.0,
        StatusCode::CONFLICT
    );
}

#[tokio::test]
async fn fans_cannot_refund_themselves() {
    let app = spawn_app().await;
    let (_, fans, _, orders) = three_sold_tickets(&app).await;
    assert_eq!(
        refund(&app, &orders[1], &fans[1]).await.0,
        StatusCode::FORBIDDEN,
        "fans cannot refund themselves"
    );
}

#[tokio::test]
async fn cancelling_a_concert_refunds_every_ticket_and_revokes_them() {
    let app = spawn_app().await;
    let (admin, _, event, orders) = three_sold_tickets(&app).await;
    // One already refunded: the cancellation must not refund it twice.
    assert_eq!(refund(&app, &orders[0], &admin).await.0, StatusCode::OK);
    app.cancel_concert(&event, &admin).await;
    for order in &orders {
        let (_, shown) = app
            .get(&format!("/api/v1/orders/{order}"), Some(&admin))
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
    assert_eq!(n, 6000, "three tickets of 20.00 refunded, each once");
}

fn full_billing_body() -> serde_json::Value {
    json!({
        "address": { "name": "Encore Ltd", "email": "Billing@Encore.example", "address": "1 Stage Rd",
                     "city": "London", "country": "GB", "company": "Company no. 123" },
        "bank": { "bankName": "Bank", "accountName": "Encore Ltd", "sortCode": "12-34-56",
                  "accountNumber": "GB33BUKB20201555555555", "notes": "" }
    })
}

#[tokio::test]
async fn billing_details_are_saved_with_the_email_lower_cased_and_the_account_number_masked() {
    let app = spawn_app().await;
    let admin = app.an_admin().await;
    let (status, saved) = app
        .put("/api/v1/payments/billing", full_billing_body(), &admin)
        .await;
    assert_eq!(status, StatusCode::OK, "{saved}");
    assert_eq!(saved["payload"]["bank"]["accountNumber"], "•••• 5555");
    assert_eq!(
        saved["payload"]["address"]["email"],
        "billing@encore.example"
    );
}

#[tokio::test]
async fn sending_the_masked_account_number_back_keeps_the_stored_one() {
    let app = spawn_app().await;
    let admin = app.an_admin().await;
    app.put("/api/v1/payments/billing", full_billing_body(), &admin)
        .await;
    let mut again = full_billing_body();
    again["bank"]["accountNumber"] = json!("•••• 5555");
    again["address"]["city"] = json!("Bristol");
    app.put("/api/v1/payments/billing", again, &admin).await;
    let (_, shown) = app.get("/api/v1/payments/billing", Some(&admin)).await;
    assert_eq!(shown["payload"]["bank"]["accountNumber"], "•••• 5555");
    assert_eq!(shown["payload"]["address"]["city"], "Bristol");
}

#[tokio::test]
async fn a_malformed_sort_code_is_422() {
    let app = spawn_app().await;
    let admin = app.an_admin().await;
    let mut bad = full_billing_body();
    bad["bank"]["sortCode"] = json!("12-34");
    assert_eq!(
        app.put("/api/v1/payments/billing", bad, &admin).await.0,
        StatusCode::UNPROCESSABLE_ENTITY
    );
}

#[tokio::test]
async fn a_fan_may_not_read_the_billing_details() {
    let app = spawn_app().await;
    let fan = a_quick_fan(&app).await;
    assert_eq!(
        app.get("/api/v1/payments/billing", Some(&fan)).await.0,
        StatusCode::FORBIDDEN
    );
}

#[tokio::test]
async fn the_payment_methods_list_the_test_provider_enabled_and_stripe_not_configured() {
    let app = spawn_app().await;
    let admin = app.an_admin().await;
    let (_, methods) = app.get("/api/v1/payments/methods", Some(&admin)).await;
    assert_eq!(methods["payload"][0]["id"], "test");
    assert_eq!(methods["payload"][0]["enabled"], true);
    assert_eq!(methods["payload"][1]["configured"], false);
}

/// A fan's checkout asked for with a Persian dashboard: the test checkout's URL.
async fn a_persian_checkout(app: &TestApp) -> String {
    let fans = app.fans(1).await;
    let (_, fan) = &fans[0];
    let event = concert(app, None, 900, HOUR_MS).await;
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
    response.json::<serde_json::Value>().await.unwrap()["payload"]
        .as_str()
        .unwrap()
        .to_owned()
}

#[tokio::test]
async fn the_test_checkout_is_sent_in_the_dashboards_language() {
    let app = spawn_app().await;
    let url = a_persian_checkout(&app).await;
    assert!(url.ends_with("&lang=ir"), "{url}");
}

#[tokio::test]
async fn the_test_checkout_page_reads_right_to_left_in_persian() {
    let app = spawn_app().await;
    let url = a_persian_checkout(&app).await;
    let page = app.text_at(&url).await;
    assert!(
        page.contains("dir=\"rtl\"") && page.contains("پرداخت Encore"),
        "{page}"
    );
}

#[tokio::test]
async fn a_declined_card_on_the_persian_test_checkout_is_refused_in_persian() {
    let app = spawn_app().await;
    let url = a_persian_checkout(&app).await;
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
    let admin = app.an_admin().await;
    let (status, body) = app
        .put(
            "/api/v1/payments/billing",
            billing_body("GB33BUKB20201555555555"),
            &admin,
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

/// An admin's billing profile whose account number is stored as `stored`, bypassing the
/// API: the admin's token.
async fn a_billing_profile_storing(app: &TestApp, stored: &str) -> String {
    let admin = app.an_admin().await;
    app.put("/api/v1/payments/billing", billing_body(""), &admin)
        .await;
    sqlx::query("UPDATE billing_profile SET account_number = $1")
        .bind(stored)
        .execute(app.db())
        .await
        .unwrap();
    admin
}

#[tokio::test]
async fn a_legacy_plain_account_number_is_shown_masked() {
    let app = spawn_app().await;
    let admin = a_billing_profile_storing(&app, "12345678").await;
    let (_, shown) = app.get("/api/v1/payments/billing", Some(&admin)).await;
    assert_eq!(shown["payload"]["bank"]["accountNumber"], "•••• 5678");
}

#[tokio::test]
async fn a_legacy_plain_account_number_is_encrypted_by_the_next_save() {
    let app = spawn_app().await;
    let admin = a_billing_profile_storing(&app, "12345678").await;
    let (status, saved) = app
        .put(
            "/api/v1/payments/billing",
            billing_body("•••• 5678"),
            &admin,
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

/// 12345678 sealed under another instance's data key.
fn sealed_elsewhere() -> String {
    encore::crypto::DataKey::derive("another instance's data secret, 32+ chars")
        .seal("billing_profile.account_number", "12345678")
        .unwrap()
}

#[tokio::test]
async fn an_account_number_under_another_data_key_is_shown_unavailable_not_a_500() {
    let app = spawn_app().await;
    let admin = a_billing_profile_storing(&app, &sealed_elsewhere()).await;
    let (status, shown) = app.get("/api/v1/payments/billing", Some(&admin)).await;
    assert_eq!(status, StatusCode::OK, "{shown}");
    assert_eq!(shown["payload"]["bank"]["accountNumber"], "••••");
    assert_eq!(shown["payload"]["bank"]["accountNumberUnavailable"], true);
}

#[tokio::test]
async fn saving_other_billing_fields_keeps_an_account_number_sealed_under_another_key() {
    let app = spawn_app().await;
    let foreign = sealed_elsewhere();
    let admin = a_billing_profile_storing(&app, &foreign).await;
    // Kept in case the right key comes back.
    let (status, _) = app
        .put("/api/v1/payments/billing", billing_body("••••"), &admin)
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(stored_account_number(&app).await, foreign);
}
