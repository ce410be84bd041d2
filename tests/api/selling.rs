//! Pay what you want (issue 31): a tier with a minimum lets the buyer name the amount, at
//! least that minimum (its price is the suggested one); the order line, its total and the
//! receipt carry the amount named. A cart whose total is 0 is paid at once, without a
//! payment provider (even with payments off): tickets, receipt and its e-mail.

use encore::accounts::model::Role;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::fixtures::{add_tier, checkout};
use crate::helpers::*;

async fn admin(app: &TestApp) -> String {
    let row = app.account("selling-admin@example.com", Role::Admin).await;
    app.session(&row).await
}

/// `POST /cart/{event}?tier=…&amount=…` in `lang`.
async fn add(
    app: &TestApp,
    token: &str,
    event: &str,
    tier: &str,
    amount: Option<i64>,
    lang: &str,
) -> (StatusCode, Value) {
    let amount = amount.map(|a| format!("&amount={a}")).unwrap_or_default();
    let response = app
        .http
        .post(format!(
            "{}/api/v1/cart/{event}?tier={tier}{amount}",
            app.url
        ))
        .header("Accept-Language", lang)
        .bearer_auth(token)
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    (response.status(), response.json().await.unwrap())
}

/// The order id in a checkout's URL (`…/pay/{id}?token=` or `…?order={id}`).
fn order_in(url: &str) -> String {
    match url.split_once("?order=") {
        Some((_, id)) => id.to_owned(),
        None => url
            .split_once("?token=")
            .unwrap()
            .0
            .rsplit('/')
            .next()
            .unwrap()
            .to_owned(),
    }
}

#[tokio::test]
async fn a_pay_what_you_want_tier_sells_at_the_amount_named_never_below_its_minimum() {
    let app = spawn_app().await;
    let admin = admin(&app).await;
    let event = concert(&app, None, 1000, HOUR_MS).await;
    // The minimum may not be above the suggested price.
    let (status, body) = app
        .post(
            &format!("/api/v1/events/{event}/tiers"),
            json!({ "name": "Solidarity", "price": 500, "minimumPrice": 800 }),
            Some(&admin),
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(
        body["error"],
        "A pay-what-you-want tier's minimum cannot be above its suggested price."
    );
    let tier = add_tier(
        &app,
        &admin,
        &event,
        json!({ "name": "Solidarity", "price": 1500, "minimumPrice": 500 }),
    )
    .await;
    let (_, shown) = app.get(&format!("/api/v1/events/{event}"), None).await;
    let listed = shown["payload"]["tiers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["id"] == tier.as_str())
        .unwrap()
        .clone();
    assert_eq!(listed["price"], 1500);
    assert_eq!(listed["minimumPrice"], 500);
    assert_eq!(
        shown["payload"]["tiers"][0]["minimumPrice"],
        Value::Null,
        "the default tier's price is fixed"
    );

    let fan = app.fans(1).await.remove(0);
    // Below the minimum: refused in the reader's language, the minimum in figures.
    let (status, body) = add(&app, &fan.1, &event, &tier, Some(499), "en").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(
        body["error"],
        "The amount must be at least 5.00 EUR for this ticket tier."
    );
    let (status, body) = add(&app, &fan.1, &event, &tier, Some(499), "fa").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(
        body["error"],
        "مبلغ برای این ردهٔ بلیت باید دست‌کم ۵٫۰۰ EUR باشد."
    );
    // A fixed price is not chosen.
    let standard = shown["payload"]["tiers"][0]["id"].as_str().unwrap();
    let (status, body) = add(&app, &fan.1, &event, standard, Some(1200), "en").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(
        body["error"],
        "This ticket tier has a fixed price: you cannot choose the amount."
    );
    // No amount named: the suggested price; an amount named: that amount.
    let (status, cart) = add(&app, &fan.1, &event, &tier, None, "en").await;
    assert_eq!(status, StatusCode::OK, "{cart}");
    assert_eq!(cart["payload"][0]["event"]["price"], 1500);
    let (status, cart) = add(&app, &fan.1, &event, &tier, Some(725), "en").await;
    assert_eq!(status, StatusCode::OK, "{cart}");
    assert_eq!(cart["payload"].as_array().unwrap().len(), 1);
    assert_eq!(cart["payload"][0]["event"]["price"], 725);
    assert_eq!(cart["payload"][0]["tier"]["minimumPrice"], 500);

    // The minimum raised after it was put in the cart: checkout says why.
    let (status, body) = app
        .put(
            &format!("/api/v1/events/{event}/tiers/{tier}"),
            json!({ "minimumPrice": 800 }),
            &admin,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, body) = checkout(&app, &fan.1).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("The amount must be at least 8.00 EUR"),
        "{body}"
    );
    let (status, body) = app
        .put(
            &format!("/api/v1/events/{event}/tiers/{tier}"),
            json!({ "minimumPrice": 500 }),
            &admin,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");

    // Paid: the line, the total and the receipt carry the amount named.
    let (status, body) = checkout(&app, &fan.1).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let url = body["payload"].as_str().unwrap();
    let (status, paid) = app.pay(url, CARD_OK).await;
    assert_eq!(status, StatusCode::OK, "{paid}");
    let order = order_in(url);
    let (status, receipt) = app
        .get(&format!("/api/v1/orders/{order}/receipt"), Some(&fan.1))
        .await;
    assert_eq!(status, StatusCode::OK, "{receipt}");
    let receipt = &receipt["payload"]["order"];
    assert_eq!(receipt["total"], 725);
    assert_eq!(receipt["items"][0]["price"], 725, "{receipt}");
    assert_eq!(receipt["provider"], "test");
    let mail = app.outbox_message(&fan.0.login, "email").await;
    assert!(
        mail["body"].as_str().unwrap().contains("7.25 EUR"),
        "{mail}"
    );
}

#[tokio::test]
async fn a_free_order_is_paid_at_once_without_a_payment_provider() {
    // Payments are off: a free order needs none.
    let app = spawn_app_with(Options {
        payments_off: true,
        ..Options::default()
    })
    .await;
    let admin = admin(&app).await;
    let event = concert(&app, Some(10), 1000, HOUR_MS).await;
    let free = add_tier(
        &app,
        &admin,
        &event,
        json!({ "name": "Pay what you can", "price": 1000, "minimumPrice": 0 }),
    )
    .await;
    let fan = app.fans(1).await.remove(0);
    // A ticket to pay for still needs a provider.
    let (status, _) = add(&app, &fan.1, &event, &free, Some(100), "en").await;
    assert_eq!(status, StatusCode::OK);
    let (status, body) = checkout(&app, &fan.1).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");

    let (status, cart) = add(&app, &fan.1, &event, &free, Some(0), "en").await;
    assert_eq!(status, StatusCode::OK, "{cart}");
    assert_eq!(cart["payload"][0]["event"]["price"], 0);
    let (status, body) = checkout(&app, &fan.1).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let url = body["payload"].as_str().unwrap();
    assert!(url.contains("/checkout-success?order="), "{url}");
    let order = order_in(url);
    let (status, shown) = app
        .get(&format!("/api/v1/orders/{order}"), Some(&fan.1))
        .await;
    assert_eq!(status, StatusCode::OK, "{shown}");
    assert_eq!(shown["payload"]["status"], "fulfilled");
    assert_eq!(shown["payload"]["provider"], "free");
    assert_eq!(shown["payload"]["total"], 0);
    assert_eq!(
        app.count(
            "SELECT COUNT(*) FROM tickets WHERE order_id = $1 AND revoked_at IS NULL",
            &order,
        )
        .await,
        1
    );
    assert_eq!(
        app.count(
            "SELECT COUNT(*) FROM orders WHERE id = $1 AND provider_ref IS NULL",
            &order,
        )
        .await,
        1,
        "no provider session"
    );
    // The seat is taken, the cart emptied, a receipt (and its e-mail) given.
    let (_, shown) = app.get(&format!("/api/v1/events/{event}"), None).await;
    assert_eq!(shown["payload"]["seatsLeft"], 9, "{shown}");
    let (_, cart) = app.get("/api/v1/cart", Some(&fan.1)).await;
    assert_eq!(cart["payload"].as_array().unwrap().len(), 0);
    let (status, receipt) = app
        .get(&format!("/api/v1/orders/{order}/receipt"), Some(&fan.1))
        .await;
    assert_eq!(status, StatusCode::OK, "{receipt}");
    assert_eq!(receipt["payload"]["order"]["items"][0]["price"], 0);
    let mail = app.outbox_message(&fan.0.login, "email").await;
    assert!(mail["body"].as_str().unwrap().contains(&order), "{mail}");
    // The buyer owns the concert now: it cannot be bought again.
    let (status, _) = add(&app, &fan.1, &event, &free, Some(0), "en").await;
    assert_eq!(status, StatusCode::CONFLICT);
}
