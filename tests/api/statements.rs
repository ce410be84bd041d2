//! Artists' statements (issue 31): after a scripted month of ticket sales in two
//! currencies, a pass shared by the minutes listened, a provider's fee, an order refunded
//! and a concert cancelled, tips during a show (one given back), three tickets in one order
//! with a code then their concert cancelled, each project's statement
//! says its sales, tips, refunds, fees and net
//! to the cent, and every statement with the operator's lines adds up exactly to the money
//! captured and given back, per currency. Members read their own project's; staff all.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{CARD_OK, HOUR_MS, Options, TestApp, concert, spawn_app_with};

/// The month (UTC) of `ms`, as a period: `2026-11`.
fn month_of(ms: i64) -> String {
    encore::db::iso8601(ms)[..7].to_owned()
}

/// `fan` buys everything in `events` in one order: its id.
async fn buy_together(app: &TestApp, fan: &str, events: &[&str]) -> String {
    for event in events {
        let (status, body) = app
            .post(&format!("/api/v1/cart/{event}"), json!({}), Some(fan))
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }
    let (status, checkout) = app
        .post("/api/v1/cart/checkout", json!({}), Some(fan))
        .await;
    assert_eq!(status, StatusCode::OK, "{checkout}");
    let (status, paid) = app
        .pay(checkout["payload"].as_str().unwrap(), CARD_OK)
        .await;
    assert_eq!(status, StatusCode::OK, "{paid}");
    paid["payload"]["order"].as_str().unwrap().to_owned()
}

/// Sums of the books, per currency, for the month: (captured, given back).
async fn books(app: &TestApp, from: i64, until: i64) -> Vec<(String, i64, i64)> {
    sqlx::query_as(
        "SELECT o.currency, CAST(SUM(o.total_minor) AS BIGINT), \
         CAST(COALESCE((SELECT SUM(r.amount_minor) FROM refunds r JOIN orders o2 ON o2.id = r.order_id \
           WHERE o2.currency = o.currency AND r.created_at >= $1 AND r.created_at < $2), 0) AS BIGINT) \
         FROM orders o WHERE o.paid_at >= $1 AND o.paid_at < $2 GROUP BY o.currency ORDER BY o.currency",
    )
    .bind(from)
    .bind(until)
    .fetch_all(app.db())
    .await
    .unwrap()
}

fn line<'a>(statements: &'a Value, project: &str, currency: &str) -> &'a Value {
    statements
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["projectId"] == project && s["currency"] == currency)
        .unwrap_or_else(|| panic!("no {currency} statement for {project} in {statements}"))
}

fn amounts(s: &Value) -> [i64; 6] {
    [
        "ticketSales",
        "passShares",
        "refunds",
        "paymentFees",
        "platformFee",
        "net",
    ]
    .map(|k| s[k].as_i64().unwrap_or_else(|| panic!("{k} in {s}")))
}

#[tokio::test]
async fn a_months_statements_add_up_to_the_money_taken_and_given_back_to_the_cent() {
    let app = spawn_app_with(Options {
        platform_fee_percent: Some("7.5"),
        ..Options::default()
    })
    .await;
    let admin = app.an_admin().await;
    let opening = concert(&app, None, 2000, 2 * HOUR_MS).await; // project A
    let acoustic = concert(&app, None, 1000, 2 * HOUR_MS).await; // project B
    let abroad = concert(&app, None, 1500, 2 * HOUR_MS).await;
    let (a, b) = (
        app.project_of(&opening).await,
        app.project_of(&acoustic).await,
    );
    // A's concert abroad, sold in dollars.
    sqlx::query("UPDATE events SET currency = 'USD', project_id = $1 WHERE id = $2")
        .bind(&a)
        .bind(&abroad)
        .execute(app.db())
        .await
        .unwrap();
    let fans: Vec<String> = app.fans(4).await.into_iter().map(|f| f.1).collect();
    let refunded = buy_together(&app, &fans[0], &[&opening]).await;
    let both = buy_together(&app, &fans[1], &[&opening, &acoustic]).await;
    buy_together(&app, &fans[2], &[&abroad]).await;
    // A pay-what-you-want ticket abroad: the amount named (23.45) is what counts.
    let (status, tier) = app
        .post(
            &format!("/api/v1/events/{abroad}/tiers"),
            json!({ "name": "As you like", "price": 1500, "minimumPrice": 100 }),
            Some(&admin),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{tier}");
    let tier = tier["payload"]["id"].as_str().unwrap();
    let (status, body) = app
        .post(
            &format!("/api/v1/cart/{abroad}?tier={tier}&amount=2345"),
            json!({}),
            Some(&fans[3]),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    buy_together(&app, &fans[3], &[]).await;
    // The provider reported a fee of 0.90 on the order of two tickets.
    sqlx::query("UPDATE orders SET fee_minor = 90 WHERE id = $1")
        .bind(&both)
        .execute(app.db())
        .await
        .unwrap();

    // A pass, listened to 30 minutes of A's concert and 10 of B's, ends this month.
    let (_, pass) = crate::helpers::a_pass_holder_made_by(&app, &admin).await;
    let now = encore::db::now_ms();
    for (event, minutes) in [(&opening, 30), (&acoustic, 10)] {
        sqlx::query(
            "INSERT INTO listened_minutes (holder, day, event_id, pass_id, minutes, last_minute) \
             VALUES ($1, $2, $3, $4, $5, 0)",
        )
        .bind(encore::stream::access::pass_key(&pass, event))
        .bind(now - now.rem_euclid(86_400_000))
        .bind(event)
        .bind(&pass)
        .bind(minutes)
        .execute(app.db())
        .await
        .unwrap();
    }
    sqlx::query("UPDATE passes SET valid_until = $1")
        .bind(now - 1)
        .execute(app.db())
        .await
        .unwrap();

    // The first order given back whole; B's concert cancelled (its ticket given back).
    let (status, body) = app.refund(&refunded, &admin).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    app.cancel_concert(&acoustic, &admin).await;
    // B takes 10 % instead of the operator's 7.5 %.
    let (status, fee) = app
        .put(
            &format!("/api/v1/projects/{b}/platform-fee"),
            json!({ "percent": "10" }),
            &admin,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{fee}");
    assert_eq!(fee["payload"]["applies"], "10");

    // Tips to C's artist during its show (its doors are open): one kept, one given back.
    let show = concert(&app, None, 800, 5 * 60_000).await;
    let c = app.project_of(&show).await;
    let tipper = &fans[0];
    buy_together(&app, tipper, &[&show]).await;
    let mut tips = Vec::new();
    for amount in [750, 250] {
        let (status, url) = app
            .post(
                &format!("/api/v1/events/{show}/tips"),
                json!({ "amount": amount }),
                Some(tipper),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{url}");
        let (status, paid) = app.pay(url["payload"].as_str().unwrap(), CARD_OK).await;
        assert_eq!(status, StatusCode::OK, "{paid}");
        tips.push(paid["payload"]["order"].as_str().unwrap().to_owned());
    }
    let (status, body) = app.refund(&tips[1], &admin).await;
    assert_eq!(status, StatusCode::OK, "{body}");

    // Three tickets in one order for D's concert, 4.97 off the line with a code (61.03 paid:
    // 20.35, 20.34, 20.34), then the concert cancelled: each ticket refunded its share.
    let trio = concert(&app, None, 2200, 2 * HOUR_MS).await;
    let d = app.project_of(&trio).await;
    let (status, code) = app
        .post(
            &format!("/api/v1/events/{trio}/promo-codes"),
            json!({ "code": "TRIO", "kind": "amount", "value": 497 }),
            Some(&admin),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{code}");
    let (status, body) = app
        .post(
            &format!("/api/v1/cart/{trio}?quantity=3"),
            json!({}),
            Some(&fans[2]),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, body) = app
        .put(
            "/api/v1/cart/promo-code",
            json!({ "code": "trio" }),
            &fans[2],
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    buy_together(&app, &fans[2], &[]).await;
    app.cancel_concert(&trio, &admin).await;

    let month = month_of(now);
    let (status, all) = app
        .get(&format!("/api/v1/statements/{month}"), Some(&admin))
        .await;
    assert_eq!(status, StatusCode::OK, "{all}");
    let statements = &all["payload"]["statements"];
    // A in euros: two tickets, one given back, the pass's 30 of 40 minutes, 2/3 of the fee.
    let a_eur = line(statements, &a, "EUR");
    assert_eq!(amounts(a_eur), [4000, 3675, 2000, 60, 425, 5190], "{a_eur}");
    assert_eq!(a_eur["platformFeePercent"], "7.5");
    // B: its ticket given back at the cancellation; its own 10 %.
    let b_eur = line(statements, &b, "EUR");
    assert_eq!(amounts(b_eur), [1000, 1225, 1000, 30, 122, 1073], "{b_eur}");
    assert_eq!(b_eur["platformFeePercent"], "10");
    // A in dollars, never mixed with euros: 15.00 and the 23.45 named.
    let a_usd = line(statements, &a, "USD");
    assert_eq!(amounts(a_usd), [3845, 0, 0, 0, 288, 3557], "{a_usd}");
    assert_eq!(a_eur["tips"], 0);
    // C: a ticket and 10.00 of tips, 2.50 given back; the platform takes 7.5 % of tips too.
    let c_eur = line(statements, &c, "EUR");
    assert_eq!(c_eur["tips"], 1000, "{c_eur}");
    assert_eq!(amounts(c_eur), [800, 0, 250, 0, 116, 1434], "{c_eur}");

    // D: the line of three sold and given back, ticket by ticket, to the cent.
    let d_eur = line(statements, &d, "EUR");
    assert_eq!(d_eur["ticketSales"], 6103, "{d_eur}");
    // Its sales before the code, and what the code took off (the statement's discounts line).
    assert_eq!(d_eur["ticketSalesBeforeDiscounts"], 6600, "{d_eur}");
    assert_eq!(d_eur["discounts"], 497, "{d_eur}");
    assert_eq!(a_eur["discounts"], 0, "{a_eur}");
    assert_eq!(d_eur["refunds"], 6103, "{d_eur}");

    // Every cent captured and given back is on a statement or the operator's line.
    let operator = all["payload"]["operator"].as_array().unwrap();
    let period = encore::statements::model::Period::parse(&month).unwrap();
    for (currency, captured, given_back) in books(&app, period.from_ms(), period.until_ms()).await {
        let ours = |key: &str| -> i64 {
            statements
                .as_array()
                .unwrap()
                .iter()
                .filter(|s| s["currency"] == currency)
                .map(|s| s[key].as_i64().unwrap())
                .sum()
        };
        let op = operator.iter().find(|o| o["currency"] == currency);
        let op = |key: &str| op.map_or(0, |o| o[key].as_i64().unwrap());
        assert_eq!(
            ours("ticketSales") + ours("tips") + op("passSales"),
            captured,
            "{currency} captured"
        );
        assert_eq!(
            ours("refunds") + op("passRefunds"),
            given_back,
            "{currency} given back"
        );
        assert_eq!(ours("platformFee"), op("platformFees"));
    }

    // A member of A reads A's statements (and a CSV of them), not B's.
    let member = app.fans(1).await.remove(0);
    let (status, body) = app
        .post(
            &format!("/api/v1/projects/{a}/members"),
            json!({ "login": member.0.login }),
            Some(&admin),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, own) = app
        .get(
            &format!("/api/v1/projects/{a}/statements/{month}"),
            Some(&member.1),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{own}");
    assert_eq!(own["payload"]["statements"].as_array().unwrap().len(), 2);
    let csv = app
        .http
        .get(format!(
            "{}/api/v1/projects/{a}/statements/{month}/export.csv",
            app.url
        ))
        .bearer_auth(&member.1)
        .send()
        .await
        .unwrap();
    assert_eq!(csv.status(), StatusCode::OK);
    assert!(
        csv.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/csv")
    );
    let csv = csv.text().await.unwrap();
    assert!(
        csv.contains(&format!(
            "{month},{a},EUR,40.00,36.75,20.00,0.60,7.5,4.25,51.90,0.00,0.00,51.90,0.00,40.00,0.00\r\n"
        )),
        "{csv}"
    );
    let (status, _) = app
        .get(
            &format!("/api/v1/projects/{b}/statements/{month}"),
            Some(&member.1),
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _) = app
        .get(&format!("/api/v1/statements/{month}"), Some(&member.1))
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn a_statement_of_no_month_or_no_project_and_a_fee_of_no_percentage_are_refused() {
    let app = spawn_app_with(Options::default()).await;
    let admin = app.an_admin().await;
    let event = concert(&app, None, 2000, HOUR_MS).await;
    let project = app.project_of(&event).await;
    let (status, body) = app
        .send(
            app.http
                .get(format!(
                    "{}/api/v1/projects/{project}/statements/2026-13",
                    app.url
                ))
                .bearer_auth(&admin)
                .header("Accept-Language", "es"),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        body["error"],
        "Un extracto abarca un mes, escrito como 2026-11."
    );
    let (status, _) = app
        .get(
            "/api/v1/projects/no-such-project/statements/2026-11",
            Some(&admin),
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    for bad in ["101", "7,5", "-1", "1.234"] {
        let (status, body) = app
            .put(
                &format!("/api/v1/projects/{project}/platform-fee"),
                json!({ "percent": bad }),
                &admin,
            )
            .await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{bad}: {body}");
    }
    // Taken away, the operator's applies again.
    let (status, fee) = app
        .put(
            &format!("/api/v1/projects/{project}/platform-fee"),
            json!({ "percent": null }),
            &admin,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{fee}");
    assert_eq!(
        fee["payload"],
        json!({ "projectId": project, "own": null, "applies": "0" })
    );
    // An empty month is no statement at all.
    let (status, none) = app
        .get(
            &format!("/api/v1/projects/{project}/statements/1999-01"),
            Some(&admin),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(none["payload"]["statements"], json!([]));
}
