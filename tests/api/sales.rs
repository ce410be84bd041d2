//! What staff see every day: the sales figures of a period against the one before it,
//! the orders table (buyer, search, state, CSV export), and a buyer's receipt.

use encore::accounts::model::{AccountRow, Role};
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::*;

const DAY: i64 = 86_400_000;
/// 2026-01-01T00:00:00Z.
const JAN_1: i64 = 1_767_225_600_000;
/// The week 2026-01-01 – 2026-01-08 (the end excluded).
const WEEK: &str = "/api/v1/stats/sales?from=2026-01-01T00:00:00Z&to=2026-01-08T00:00:00Z";

/// A settled order written as the checkout would leave it, paid at `paid_at`, with one
/// concert line per `tickets` (and a pass line when `pass`).
async fn order_paid_at(
    app: &TestApp,
    account_id: &str,
    status: &str,
    total: i64,
    currency: &str,
    paid_at: i64,
) -> String {
    let id = uuid::Uuid::new_v4().to_string();
    sqlx::query(
        "INSERT INTO orders (id, account_id, status, total_minor, currency, provider, \
         checkout_token_hash, created_at, expires_at, paid_at, fulfilled_at) \
         VALUES ($1, $2, $3, $4, $5, 'test', $6, $7, $8, $7, $7)",
    )
    .bind(&id)
    .bind(account_id)
    .bind(status)
    .bind(total)
    .bind(currency)
    .bind(format!("hash-{id}"))
    .bind(paid_at)
    .bind(paid_at + 15 * 60_000)
    .execute(app.db())
    .await
    .unwrap();
    line(app, &id, "event", "Opening Night", total).await;
    id
}

async fn line(app: &TestApp, order: &str, kind: &str, title: &str, price: i64) {
    sqlx::query(
        "INSERT INTO order_items (order_id, item_kind, item_id, title, price_minor) \
         VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(order)
    .bind(kind)
    .bind(uuid::Uuid::new_v4().to_string())
    .bind(title)
    .bind(price)
    .execute(app.db())
    .await
    .unwrap();
}

/// A fan who bought a ticket (15.00 EUR) to a new concert through the checkout, their
/// tokens, and that order's id.
async fn a_fan_with_an_order(app: &TestApp) -> (AccountRow, Tokens, String) {
    let (fan, tokens) = app.a_fan().await;
    let event = concert(app, Some(10), 1500, 48 * HOUR_MS).await;
    let (status, body) = app.buy(&tokens.access, &event, CARD_OK).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (_, mine) = app.get("/api/v1/purchases/my/", Some(&tokens.access)).await;
    let order = mine["payload"]["items"][0]["id"]
        .as_str()
        .unwrap_or_else(|| panic!("{mine}"))
        .to_owned();
    (fan, tokens, order)
}

fn currency<'a>(body: &'a Value, code: &str) -> &'a Value {
    body["payload"]["currencies"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["currency"] == code)
        .unwrap_or_else(|| panic!("no {code} in {body}"))
}

#[tokio::test]
async fn a_period_counts_sales_from_its_first_millisecond_up_to_but_not_including_its_end() {
    let app = spawn_app().await;
    let admin = app.an_admin().await;
    let fan = app.account("fan@example.com", Role::User).await;
    order_paid_at(&app, &fan.id, "fulfilled", 100, "EUR", JAN_1).await;
    order_paid_at(&app, &fan.id, "fulfilled", 200, "EUR", JAN_1 + 7 * DAY - 1).await;
    order_paid_at(&app, &fan.id, "fulfilled", 400, "EUR", JAN_1 + 7 * DAY).await;

    let (status, body) = app.get(WEEK, Some(&admin)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let eur = currency(&body, "EUR");
    assert_eq!(eur["sales"], 300);
    assert_eq!(eur["orders"], 2);
    assert_eq!(body["payload"]["tickets"], 2);
    assert_eq!(body["payload"]["from"], "2026-01-01T00:00:00Z");
    assert_eq!(body["payload"]["previousFrom"], "2025-12-25T00:00:00Z");
}

#[tokio::test]
async fn the_previous_period_is_the_same_length_just_before_and_gives_the_change() {
    let app = spawn_app().await;
    let admin = app.an_admin().await;
    let fan = app.account("fan@example.com", Role::User).await;
    order_paid_at(&app, &fan.id, "fulfilled", 300, "EUR", JAN_1 + DAY).await;
    // The previous week is [Dec 25, Jan 1): its last and first milliseconds count.
    order_paid_at(&app, &fan.id, "fulfilled", 150, "EUR", JAN_1 - 1).await;
    order_paid_at(&app, &fan.id, "fulfilled", 50, "EUR", JAN_1 - 7 * DAY).await;
    // Before both periods: not counted anywhere.
    order_paid_at(&app, &fan.id, "fulfilled", 999, "EUR", JAN_1 - 7 * DAY - 1).await;

    let (_, body) = app.get(WEEK, Some(&admin)).await;
    let eur = currency(&body, "EUR");
    assert_eq!(eur["sales"], 300);
    assert_eq!(eur["previousSales"], 200);
    assert_eq!(eur["previousOrders"], 2);
    assert_eq!(eur["salesChange"], 50.0);
    assert_eq!(body["payload"]["tickets"], 1);
    assert_eq!(body["payload"]["previousTickets"], 2);
    assert_eq!(body["payload"]["ticketsChange"], -50.0);
}

#[tokio::test]
async fn amounts_in_different_currencies_are_never_added_together() {
    let app = spawn_app().await;
    let admin = app.an_admin().await;
    let fan = app.account("fan@example.com", Role::User).await;
    order_paid_at(&app, &fan.id, "fulfilled", 1000, "EUR", JAN_1 + DAY).await;
    order_paid_at(&app, &fan.id, "fulfilled", 2500, "USD", JAN_1 + DAY).await;
    order_paid_at(&app, &fan.id, "fulfilled", 700, "JPY", JAN_1 - DAY).await;

    let (_, body) = app.get(WEEK, Some(&admin)).await;
    let codes: Vec<&str> = body["payload"]["currencies"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["currency"].as_str().unwrap())
        .collect();
    assert_eq!(codes, ["EUR", "JPY", "USD"]);
    assert_eq!(currency(&body, "EUR")["sales"], 1000);
    assert_eq!(currency(&body, "USD")["sales"], 2500);
    assert_eq!(currency(&body, "JPY")["sales"], 0);
    assert_eq!(currency(&body, "JPY")["previousSales"], 700);
    assert_eq!(currency(&body, "JPY")["salesChange"], -100.0);
    assert_eq!(currency(&body, "EUR")["salesChange"], Value::Null);
    assert_eq!(body["payload"]["tickets"], 2);
}

#[tokio::test]
async fn unpaid_orders_are_not_sales_and_a_refund_counts_on_the_day_it_was_given() {
    let app = spawn_app().await;
    let admin = app.an_admin().await;
    let fan = app.account("fan@example.com", Role::User).await;
    order_paid_at(&app, &fan.id, "failed", 500, "EUR", JAN_1 + DAY).await;
    order_paid_at(&app, &fan.id, "expired", 500, "EUR", JAN_1 + DAY).await;
    // Sold the week before, refunded this week.
    let refunded = order_paid_at(&app, &fan.id, "refunded", 800, "EUR", JAN_1 - DAY).await;
    sqlx::query(
        "INSERT INTO refunds (id, order_id, amount_minor, reason, created_at) \
         VALUES ($1, $2, 800, 'cancelled', $3)",
    )
    .bind(uuid::Uuid::new_v4().to_string())
    .bind(&refunded)
    .bind(JAN_1 + 2 * DAY)
    .execute(app.db())
    .await
    .unwrap();

    let (_, body) = app.get(WEEK, Some(&admin)).await;
    let eur = currency(&body, "EUR");
    assert_eq!(eur["sales"], 0);
    assert_eq!(eur["orders"], 0);
    assert_eq!(eur["refunds"], 800);
    assert_eq!(eur["net"], -800);
    assert_eq!(eur["previousSales"], 800);
    assert_eq!(eur["previousNet"], 800);
}

#[tokio::test]
async fn passes_are_sales_but_not_tickets() {
    let app = spawn_app().await;
    let admin = app.an_admin().await;
    let fan = app.account("fan@example.com", Role::User).await;
    let order = order_paid_at(&app, &fan.id, "fulfilled", 3000, "EUR", JAN_1 + DAY).await;
    line(&app, &order, "pass", "Season pass", 2000).await;

    let (_, body) = app.get(WEEK, Some(&admin)).await;
    assert_eq!(body["payload"]["tickets"], 1);
    assert_eq!(currency(&body, "EUR")["sales"], 3000);
}

#[tokio::test]
async fn a_ticket_bought_now_is_in_the_last_7_days_figures() {
    let app = spawn_app().await;
    let admin = app.an_admin().await;
    a_fan_with_an_order(&app).await;

    let (status, body) = app.get("/api/v1/stats/sales?days=7", Some(&admin)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["payload"]["tickets"], 1);
    assert_eq!(currency(&body, "EUR")["sales"], 1500);
    assert_eq!(currency(&body, "EUR")["previousSales"], 0);
}

#[tokio::test]
async fn a_fan_may_not_read_the_sales_figures() {
    let app = spawn_app().await;
    let (_, fan) = app.a_fan().await;
    let (status, _) = app
        .get("/api/v1/stats/sales?days=7", Some(&fan.access))
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn a_period_that_is_not_one_is_400_in_the_readers_language() {
    let app = spawn_app().await;
    let admin = app.an_admin().await;
    for query in [
        "days=8",
        "from=2026-01-08T00:00:00Z&to=2026-01-01T00:00:00Z",
        "from=2026-01-01T00:00:00Z",
        "from=2024-01-01T00:00:00Z&to=2026-01-01T00:00:00Z",
        "from=yesterday&to=2026-01-01T00:00:00Z",
    ] {
        let answer = app
            .http
            .get(format!("{}/api/v1/stats/sales?{query}", app.url))
            .bearer_auth(&admin)
            .header("Accept-Language", "es")
            .send()
            .await
            .unwrap();
        assert_eq!(answer.status(), StatusCode::BAD_REQUEST, "{query}");
        let body: Value = answer.json().await.unwrap();
        assert!(
            body["error"].as_str().unwrap().starts_with("Elige"),
            "{query}: {body}"
        );
    }
}

// ------------------------------------------------------------------------ orders table

async fn buyer(app: &TestApp, email: &str, first: &str, last: &str) -> String {
    let row = app.account(email, Role::User).await;
    sqlx::query("UPDATE accounts SET first_name = $2, last_name = $3 WHERE id = $1")
        .bind(&row.id)
        .bind(first)
        .bind(last)
        .execute(app.db())
        .await
        .unwrap();
    row.id
}

fn order_ids(body: &Value) -> Vec<String> {
    body["payload"]["items"]
        .as_array()
        .unwrap_or_else(|| panic!("{body}"))
        .iter()
        .map(|o| o["id"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn staff_see_each_orders_buyer_and_find_orders_by_name_email_or_state() {
    let app = spawn_app().await;
    let admin = app.an_admin().await;
    let ana = buyer(&app, "ana@example.com", "Ana", "Lima").await;
    let bo = buyer(&app, "bo@example.com", "Bo", "Chen").await;
    let ana_paid = order_paid_at(&app, &ana, "fulfilled", 100, "EUR", JAN_1).await;
    let ana_refunded = order_paid_at(&app, &ana, "refunded", 100, "EUR", JAN_1 + 1).await;
    let bo_paid = order_paid_at(&app, &bo, "fulfilled", 100, "EUR", JAN_1 + 2).await;

    let (_, body) = app
        .get("/api/v1/orders?search=ANA%20LI", Some(&admin))
        .await;
    let mut found = order_ids(&body);
    found.sort();
    let mut expected = vec![ana_paid.clone(), ana_refunded.clone()];
    expected.sort();
    assert_eq!(found, expected);
    assert_eq!(body["payload"]["total"], 2);
    assert_eq!(body["payload"]["items"][0]["buyer"]["name"], "Ana Lima");
    assert_eq!(
        body["payload"]["items"][0]["buyer"]["email"],
        "ana@example.com"
    );

    let (_, body) = app
        .get("/api/v1/orders?search=bo%40example", Some(&admin))
        .await;
    assert_eq!(order_ids(&body), std::slice::from_ref(&bo_paid));

    let (_, body) = app
        .get("/api/v1/orders?status=refunded", Some(&admin))
        .await;
    assert_eq!(order_ids(&body), [ana_refunded]);

    let (_, body) = app
        .get("/api/v1/orders?status=fulfilled&search=ana", Some(&admin))
        .await;
    assert_eq!(order_ids(&body), [ana_paid]);

    // `%` is a character to find, not a wildcard.
    let (_, body) = app.get("/api/v1/orders?search=%25", Some(&admin)).await;
    assert_eq!(body["payload"]["total"], 0);
}

#[tokio::test]
async fn an_unknown_order_state_is_400() {
    let app = spawn_app().await;
    let admin = app.an_admin().await;
    let (status, body) = app.get("/api/v1/orders?status=lost", Some(&admin)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
}

async fn csv(app: &TestApp, query: &str, token: &str) -> reqwest::Response {
    app.http
        .get(format!("{}/api/v1/orders/export.csv{query}", app.url))
        .bearer_auth(token)
        .send()
        .await
        .unwrap()
}

#[tokio::test]
async fn the_orders_csv_holds_every_matching_order_quoted_and_with_formulas_defused() {
    let app = spawn_app().await;
    let admin = app.an_admin().await;
    let mallory = buyer(
        &app,
        "mallory@example.com",
        "=HYPERLINK(\"http://x\")",
        "Doe, Jr",
    )
    .await;
    let ana = buyer(&app, "ana@example.com", "Ana", "Lima").await;
    let bad = order_paid_at(&app, &mallory, "fulfilled", 1250, "EUR", JAN_1).await;
    line(&app, &bad, "event", "+SUM(1)", 0).await;
    for i in 0..25 {
        order_paid_at(&app, &ana, "fulfilled", 500, "JPY", JAN_1 + i).await;
    }

    let answer = csv(&app, "", &admin).await;
    assert_eq!(answer.status(), StatusCode::OK);
    assert_eq!(answer.headers()["content-type"], "text/csv; charset=utf-8");
    assert!(
        answer.headers()["content-disposition"]
            .to_str()
            .unwrap()
            .starts_with("attachment; filename=\"encore-orders-")
    );
    assert_eq!(answer.headers()["x-encore-truncated"], "false");
    let text = answer.text().await.unwrap();
    let lines: Vec<&str> = text.split("\r\n").filter(|l| !l.is_empty()).collect();
    // The header and all 26 orders: not one page of them.
    assert_eq!(lines.len(), 27);
    assert!(lines[0].starts_with("order,created_at,paid_at,status,buyer_name,buyer_email"));
    let row = lines.iter().find(|l| l.starts_with(&bad)).unwrap();
    assert!(
        row.contains(",\"'=HYPERLINK(\"\"http://x\"\") Doe, Jr\",mallory@example.com,"),
        "{row}"
    );
    assert!(
        row.contains(",'+SUM(1); Opening Night,12.50,EUR,test,"),
        "{row}"
    );
    assert!(lines.iter().any(|l| l.contains(",500,JPY,")));
    // The word the orders page shows for the state, not the stored one.
    assert!(row.contains(",complete,"), "{row}");
    assert!(!text.contains(",fulfilled,"));

    let answer = csv(&app, "?search=mallory", &admin).await;
    let text = answer.text().await.unwrap();
    assert_eq!(text.split("\r\n").filter(|l| !l.is_empty()).count(), 2);
}

#[tokio::test]
async fn a_fan_may_not_export_the_orders() {
    let app = spawn_app().await;
    let (_, fan) = app.a_fan().await;
    assert_eq!(
        csv(&app, "", &fan.access).await.status(),
        StatusCode::FORBIDDEN
    );
}

// ------------------------------------------------------------------------------ receipt

#[tokio::test]
async fn a_fan_reads_the_receipt_of_their_own_order_with_the_seller_and_not_anothers() {
    let app = spawn_app().await;
    let admin = app.an_admin().await;
    let (status, body) = app
        .put(
            "/api/v1/payments/billing",
            json!({"address": {"name": "Encore Live Ltd", "email": "billing@encore.test",
                "address": "1 Stage Road", "city": "London", "country": "GB", "company": "Encore"},
                "bank": {}}),
            &admin,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (fan, tokens, order) = a_fan_with_an_order(&app).await;

    let (status, body) = app
        .get(
            &format!("/api/v1/orders/{order}/receipt"),
            Some(&tokens.access),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let receipt = &body["payload"];
    assert_eq!(receipt["seller"]["name"], "Encore Live Ltd");
    assert_eq!(receipt["order"]["buyer"]["email"], fan.login.as_str());
    assert_eq!(receipt["order"]["status"], "fulfilled");
    assert_eq!(receipt["order"]["total"], 1500);
    assert_eq!(
        receipt["order"]["items"][0]["title"],
        "The Testers — Live at the Roundhouse"
    );
    assert_eq!(receipt["refunded"], 0);

    let (_, other) = app.signed_in("other@example.com", Role::User).await;
    let (status, _) = app
        .get(
            &format!("/api/v1/orders/{order}/receipt"),
            Some(&other.access),
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn a_refunded_orders_receipt_lists_the_refund() {
    let app = spawn_app().await;
    let admin = app.an_admin().await;
    let (_, tokens, order) = a_fan_with_an_order(&app).await;
    let (status, body) = app
        .post(
            &format!("/api/v1/orders/{order}/refund"),
            json!({"reason": "the band is ill"}),
            Some(&admin),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");

    let (_, body) = app
        .get(
            &format!("/api/v1/orders/{order}/receipt"),
            Some(&tokens.access),
        )
        .await;
    let receipt = &body["payload"];
    assert_eq!(receipt["order"]["status"], "refunded");
    assert_eq!(receipt["refunded"], 1500);
    assert_eq!(receipt["refunds"][0]["reason"], "the band is ill");
}
