//! Promo codes (issue 31): a percentage or an amount off a concert or every concert of a
//! project, to the cent over the order's lines; typed in any case; inside their dates; as
//! often as each account may; a use taken with the seats and given back when the checkout
//! lapses; racing buyers never over-use a code, on either database; and the statements
//! still add up with a discounted sale.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::fixtures::{add_tier, checkout, join_project, order_of, pay_cart};
use crate::helpers::*;

/// Make a code as `token`'s holder at `path` (`/events/{id}/promo-codes` or
/// `/projects/{id}/promo-codes`): its id (201 asserted).
async fn make_code(app: &TestApp, token: &str, path: &str, body: Value) -> String {
    let (status, made) = app.post(path, body, Some(token)).await;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    made["payload"]["id"].as_str().unwrap().to_owned()
}

/// Try to make a code for `event` as `token`'s holder, expecting it refused with `status`.
async fn refused(app: &TestApp, token: &str, event: &str, body: Value, status: StatusCode) {
    let (got, answer) = app.post(&for_event(event), body, Some(token)).await;
    assert_eq!(got, status, "{answer}");
}

fn for_event(event: &str) -> String {
    format!("/api/v1/events/{event}/promo-codes")
}

async fn add(app: &TestApp, token: &str, event: &str) {
    let (status, body) = app
        .post(&format!("/api/v1/cart/{event}"), json!({}), Some(token))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
}

/// A new fan with one ticket of each of `events` in the cart: the fan's token.
async fn a_fan_with(app: &TestApp, events: &[&str]) -> String {
    let fan = app.fans(1).await.remove(0).1;
    for event in events {
        add(app, &fan, event).await;
    }
    fan
}

async fn enter(app: &TestApp, token: &str, code: &str) -> (StatusCode, Value) {
    app.put("/api/v1/cart/promo-code", json!({ "code": code }), token)
        .await
}

/// The uses a code has taken, as its managers see them (`usesTaken`).
async fn uses_taken(app: &TestApp, admin: &str, code: &str) -> i64 {
    let (project,): (String,) = sqlx::query_as("SELECT project_id FROM promo_codes WHERE id = $1")
        .bind(code)
        .fetch_one(app.db())
        .await
        .unwrap();
    let (status, codes) = app
        .get(
            &format!("/api/v1/projects/{project}/promo-codes"),
            Some(admin),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{codes}");
    let listed = codes["payload"].as_array().unwrap().iter();
    listed
        .filter(|c| c["id"] == code)
        .map(|c| c["usesTaken"].as_i64().unwrap())
        .sum()
}

/// A concert at `price` (minor units) with one code of its own made from `code`:
/// (app, admin's token, concert, code's id).
async fn a_concert_with_a_code(price: i64, code: Value) -> (TestApp, String, String, String) {
    let app = spawn_app().await;
    let admin = app.an_admin().await;
    let event = concert(&app, None, price, HOUR_MS).await;
    let code = make_code(&app, &admin, &for_event(&event), code).await;
    (app, admin, event, code)
}

/// Two concerts at `prices` in one project, with a code made from `code` for the whole
/// project: (app, admin's token, project, the two concerts).
async fn a_project_with_a_code(
    prices: [i64; 2],
    code: Value,
) -> (TestApp, String, String, [String; 2]) {
    let app = spawn_app().await;
    let admin = app.an_admin().await;
    let first = concert(&app, None, prices[0], HOUR_MS).await;
    let second = concert(&app, None, prices[1], HOUR_MS).await;
    let project = app.project_of(&first).await;
    join_project(&app, &project, &second).await;
    let path = format!("/api/v1/projects/{project}/promo-codes");
    make_code(&app, &admin, &path, code).await;
    (app, admin, project, [first, second])
}

fn prices(order: &Value) -> Vec<i64> {
    order["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["price"].as_i64().unwrap())
        .collect()
}

#[tokio::test]
async fn a_percentage_off_a_projects_concerts_is_spread_over_its_lines_to_the_cent() {
    let (app, _, _, [big, small]) = a_project_with_a_code(
        [999, 1],
        json!({ "code": "Spring15", "kind": "percent", "value": 15 }),
    )
    .await;
    let elsewhere = concert(&app, None, 500, HOUR_MS).await;
    let fan = &a_fan_with(&app, &[&big, &small, &elsewhere]).await;
    // Typed in another case; 15 % of the project's 10.00 is 1.50, the other concert's
    // 5.00 untouched.
    let (status, shown) = enter(&app, fan, "  spring15 ").await;
    assert_eq!(status, StatusCode::OK, "{shown}");
    assert_eq!(shown["payload"]["code"], "SPRING15");
    assert_eq!(shown["payload"]["subtotal"], 1500);
    assert_eq!(shown["payload"]["discount"], 150);
    assert_eq!(shown["payload"]["total"], 1350);
    let (_, again) = app.get("/api/v1/cart/promo-code", Some(fan)).await;
    assert_eq!(again["payload"]["total"], 1350);
    // The cart keeps the specification's shape: its entries' prices are before the code.
    let (_, cart) = app.get("/api/v1/cart/", Some(fan)).await;
    assert_eq!(cart["payload"].as_array().unwrap().len(), 3);

    let order = pay_cart(&app, fan).await;
    assert_eq!(order["promoCode"], "SPRING15");
    assert_eq!(order["discount"], 150);
    assert_eq!(order["total"], 1350);
    let mut paid = prices(&order);
    paid.sort_unstable();
    // 149.85 and 0.15 by the largest remainder: 1.50 off the 9.99 line, none off the 0.01.
    assert_eq!(paid, [1, 500, 849]);
    assert_eq!(paid.iter().sum::<i64>(), 1350);
    let (status, receipt) = app
        .get(
            &format!("/api/v1/orders/{}/receipt", order["id"].as_str().unwrap()),
            Some(fan),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{receipt}");
    assert_eq!(receipt["payload"]["order"]["promoCode"], "SPRING15");
    assert_eq!(receipt["payload"]["order"]["discount"], 150);
    // Used: the cart starts the next purchase without it.
    let (_, none) = app.get("/api/v1/cart/promo-code", Some(fan)).await;
    assert_eq!(none["payload"], Value::Null);
}

#[tokio::test]
async fn an_amount_off_never_goes_below_zero_and_a_fully_discounted_order_is_free() {
    let (app, admin, event, code) = a_concert_with_a_code(
        800,
        json!({ "code": "FRIENDS", "kind": "amount", "value": 1000 }),
    )
    .await;
    let fan = &a_fan_with(&app, &[&event]).await;
    let (status, shown) = enter(&app, fan, "friends").await;
    assert_eq!(status, StatusCode::OK, "{shown}");
    assert_eq!(shown["payload"]["discount"], 800);
    assert_eq!(shown["payload"]["total"], 0);
    // Nothing to pay: the checkout leads straight to the order, no payment page between.
    let (status, body) = checkout(&app, fan).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let url = body["payload"].as_str().unwrap();
    assert!(!url.contains("/pay/"), "{url}");
    let (_, id) = url.rsplit_once("order=").expect(url);
    let order = order_of(&app, fan, id).await;
    assert_eq!(order["provider"], "free");
    assert_eq!(order["status"], "fulfilled");
    assert_eq!(order["total"], 0);
    assert_eq!(order["discount"], 800);
    assert_eq!(uses_taken(&app, &admin, &code).await, 1);
}

#[tokio::test]
async fn unknown_expired_not_yet_valid_and_inapplicable_codes_are_refused_in_the_readers_language()
{
    let app = spawn_app().await;
    let admin = app.an_admin().await;
    let event = concert(&app, None, 1000, HOUR_MS).await;
    let other = concert(&app, None, 1000, HOUR_MS).await;
    let past = encore::db::iso8601(encore::db::now_ms() - HOUR_MS);
    let later = encore::db::iso8601(encore::db::now_ms() + HOUR_MS);
    for (code, from, until) in [("OLD", None, Some(&past)), ("SOON", Some(&later), None)] {
        make_code(
            &app,
            &admin,
            &for_event(&event),
            json!({ "code": code, "kind": "percent", "value": 10, "validFrom": from, "validUntil": until }),
        )
        .await;
    }
    make_code(
        &app,
        &admin,
        &for_event(&other),
        json!({ "code": "OTHER", "kind": "percent", "value": 10 }),
    )
    .await;
    let fan = &a_fan_with(&app, &[&event]).await;
    let (status, body) = enter(&app, fan, "nope").await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    assert_eq!(body["error"], "This promo code does not exist.");
    let (status, body) = enter(&app, fan, "old").await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(body["error"], "This promo code has expired.");
    let (status, body) = enter(&app, fan, "soon").await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(body["error"], "This promo code is not valid yet.");
    let (status, body) = enter(&app, fan, "other").await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(
        body["error"],
        "This promo code does not apply to anything in your cart."
    );
    let (status, body) = app
        .put_in(
            "fa",
            "/api/v1/cart/promo-code",
            json!({ "code": "old" }),
            fan,
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(body["error"], "مهلت این کد تخفیف تمام شده است.");
    // Refused to its manager rather than stored: a malformed code; a code unlocking no
    // tier, or one that is not a hidden tier of its concert (it would do nothing); and a
    // code that exists in another case (codes are unique whatever their case).
    for (body, status) in [
        (
            json!({ "code": "a b", "kind": "percent", "value": 10 }),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            json!({ "code": "VIPONLY", "kind": "unlock" }),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            json!({ "code": "VIPONLY", "kind": "unlock", "tierIds": ["x"] }),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            json!({ "code": "old", "kind": "percent", "value": 10 }),
            StatusCode::CONFLICT,
        ),
    ] {
        refused(&app, &admin, &event, body, status).await;
    }
    // A fan manages no codes.
    let (status, _) = app.get(&for_event(&event), Some(fan)).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn an_account_uses_a_code_only_as_often_as_it_may() {
    let (app, _, _, [first, second]) = a_project_with_a_code(
        [1000, 1000],
        json!({ "code": "ONCE", "kind": "percent", "value": 50, "maxPerAccount": 1 }),
    )
    .await;
    let fan = &a_fan_with(&app, &[&first]).await;
    enter(&app, fan, "once").await;
    assert_eq!(pay_cart(&app, fan).await["total"], 500);
    add(&app, fan, &second).await;
    let (status, body) = enter(&app, fan, "ONCE").await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(
        body["error"],
        "You have used this promo code as many times as one account may."
    );
}

#[tokio::test]
async fn a_lapsed_checkout_gives_its_use_back_and_a_replaced_one_keeps_one() {
    let (app, admin, event, code) = a_concert_with_a_code(
        1000,
        json!({ "code": "ONE", "kind": "percent", "value": 20, "maxUses": 1 }),
    )
    .await;
    let fans = app.fans(2).await;
    add(&app, &fans[0].1, &event).await;
    enter(&app, &fans[0].1, "one").await;
    let (status, body) = checkout(&app, &fans[0].1).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    // A second checkout of the same account replaces the first: still one use.
    let (status, body) = checkout(&app, &fans[0].1).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(uses_taken(&app, &admin, &code).await, 1);
    // The other fan finds it used up while the first checkout is open.
    add(&app, &fans[1].1, &event).await;
    let (status, body) = enter(&app, &fans[1].1, "one").await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(
        body["error"],
        "This promo code has been used as many times as it may be."
    );
    app.lapse_pending_checkouts().await;
    assert_eq!(
        uses_taken(&app, &admin, &code).await,
        0,
        "the use went back"
    );
    let (status, body) = enter(&app, &fans[1].1, "one").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(pay_cart(&app, &fans[1].1).await["total"], 800);
    assert_eq!(uses_taken(&app, &admin, &code).await, 1);
}

#[tokio::test]
async fn thirty_buyers_race_for_a_ten_use_code_and_exactly_ten_orders_carry_it() {
    let (app, admin, event, code) = a_concert_with_a_code(
        1000,
        json!({ "code": "TEN", "kind": "amount", "value": 250, "maxUses": 10 }),
    )
    .await;
    let fans = app.fans(30).await;
    // Everyone enters it first (all are told it applies), then all check out at once.
    for (_, token) in &fans {
        add(&app, token, &event).await;
        let (status, body) = enter(&app, token, "ten").await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }
    let mut racers = tokio::task::JoinSet::new();
    for (_, token) in fans {
        let (http, url) = (app.http.clone(), app.url.clone());
        racers.spawn(async move {
            let response = http
                .post(format!("{url}/api/v1/cart/checkout"))
                .bearer_auth(&token)
                .json(&json!({}))
                .send()
                .await
                .unwrap();
            let status = response.status();
            let body: Value = response.json().await.unwrap();
            (status, body)
        });
    }
    let (mut open, mut used_up) = (Vec::new(), 0);
    while let Some(done) = racers.join_next().await {
        let (status, body) = done.unwrap();
        match status {
            StatusCode::OK => open.push(body["payload"].as_str().unwrap().to_owned()),
            StatusCode::CONFLICT
                if body["error"] == "This promo code has been used as many times as it may be." =>
            {
                used_up += 1
            }
            _ => panic!("unexpected answer: {status} {body}"),
        }
    }
    assert_eq!((open.len(), used_up), (10, 20));
    for url in &open {
        let (status, body) = app.pay(url, CARD_OK).await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }
    assert_eq!(uses_taken(&app, &admin, &code).await, 10);
    assert_eq!(
        app.count(
            "SELECT COUNT(*) FROM orders WHERE promo_code_id = $1 AND status = 'fulfilled' \
             AND discount_minor = 250 AND total_minor = 750",
            &code
        )
        .await,
        10
    );
}

#[tokio::test]
async fn a_code_changed_or_used_up_meanwhile_stops_the_checkout_with_the_reason() {
    let (app, admin, event, code) = a_concert_with_a_code(
        1000,
        json!({ "code": "LATE", "kind": "percent", "value": 10 }),
    )
    .await;
    let fan = &a_fan_with(&app, &[&event]).await;
    enter(&app, fan, "late").await;
    let past = encore::db::iso8601(encore::db::now_ms() - 1000);
    let (status, body) = app
        .put(
            &format!("/api/v1/promo-codes/{code}"),
            json!({ "code": "LATE", "kind": "percent", "value": 10, "validUntil": past }),
            &admin,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, body) = checkout(&app, fan).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(body["error"], "This promo code has expired.");
    assert_eq!(uses_taken(&app, &admin, &code).await, 0);
    // Taken out of the cart, the concert sells at its price.
    let (status, _) = app.delete("/api/v1/cart/promo-code", fan).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(pay_cart(&app, fan).await["total"], 1000);
}

#[tokio::test]
async fn the_statements_still_add_up_with_a_discounted_sale() {
    let (app, admin, project, [first, second]) = a_project_with_a_code(
        [1000, 333],
        json!({ "code": "THIRD", "kind": "percent", "value": 33 }),
    )
    .await;
    let fan = &a_fan_with(&app, &[&first, &second]).await;
    enter(&app, fan, "third").await;
    let order = pay_cart(&app, fan).await;
    // 33 % of 13.33 is 4.40 (4.3989 rounded), 3.30 and 1.10 by the largest remainder.
    assert_eq!(order["discount"], 440);
    assert_eq!(order["total"], 893);
    let month = encore::db::iso8601(encore::db::now_ms())[..7].to_owned();
    let (status, all) = app
        .get(&format!("/api/v1/statements/{month}"), Some(&admin))
        .await;
    assert_eq!(status, StatusCode::OK, "{all}");
    let sales: i64 = all["payload"]["statements"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["projectId"] == project)
        .map(|s| s["ticketSales"].as_i64().unwrap())
        .sum();
    assert_eq!(
        sales, 893,
        "the statement counts what was paid, to the cent"
    );
}

/// The ids of the tiers `GET /events/{id}{query}` lists to `token`'s holder.
async fn listed(app: &TestApp, token: Option<&str>, event: &str, query: &str) -> Vec<String> {
    let (status, body) = app
        .get(&format!("/api/v1/events/{event}{query}"), token)
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body["payload"]["tiers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_str().unwrap().to_owned())
        .collect()
}

async fn add_tier_to_cart(
    app: &TestApp,
    token: &str,
    event: &str,
    tier: &str,
) -> (StatusCode, Value) {
    app.post(
        &format!("/api/v1/cart/{event}?tier={tier}"),
        json!({}),
        Some(token),
    )
    .await
}

#[tokio::test]
async fn an_unlock_code_lists_and_sells_a_hidden_tier_to_its_holders_and_counts_their_uses() {
    let app = spawn_app().await;
    let admin = app.an_admin().await;
    let event = concert(&app, None, 1000, HOUR_MS).await;
    let hidden = add_tier(
        &app,
        &admin,
        &event,
        json!({ "name": "Backstage", "price": 2500, "hidden": true }),
    )
    .await;
    let visible = add_tier(
        &app,
        &admin,
        &event,
        json!({ "name": "Supporter", "price": 2000 }),
    )
    .await;
    // Only hidden tiers of the code's concert may be unlocked.
    refused(
        &app,
        &admin,
        &event,
        json!({ "code": "VIP", "kind": "unlock", "tierIds": [visible] }),
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    let other = concert(&app, None, 1000, HOUR_MS).await;
    refused(
        &app,
        &admin,
        &other,
        json!({ "code": "VIP", "kind": "unlock", "tierIds": [hidden] }),
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    let code = make_code(
        &app,
        &admin,
        &for_event(&event),
        json!({ "code": "Vip", "kind": "unlock", "value": 7, "tierIds": [hidden, hidden], "maxUses": 2 }),
    )
    .await;
    let (_, codes) = app.get(&for_event(&event), Some(&admin)).await;
    assert_eq!(codes["payload"][0]["tierIds"], json!([hidden]));
    assert_eq!(codes["payload"][0]["value"], 0);

    // Listed to one who names the code (any case), not to others.
    assert!(!listed(&app, None, &event, "").await.contains(&hidden));
    assert!(
        !listed(&app, None, &event, "?code=nope")
            .await
            .contains(&hidden)
    );
    assert!(
        listed(&app, None, &event, "?code=vip")
            .await
            .contains(&hidden)
    );

    let fans = app.fans(4).await;
    let (one, two, three, four) = (&fans[0].1, &fans[1].1, &fans[2].1, &fans[3].1);
    // Without the code in the cart the hidden tier is not found.
    let (status, body) = add_tier_to_cart(&app, one, &event, &hidden).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    // An unlock code may be entered in an empty cart: it takes nothing off.
    let (status, shown) = enter(&app, one, "vip").await;
    assert_eq!(status, StatusCode::OK, "{shown}");
    assert_eq!(shown["payload"]["kind"], "unlock");
    assert_eq!(shown["payload"]["discount"], 0);
    assert!(listed(&app, Some(one), &event, "").await.contains(&hidden));
    let (status, cart) = add_tier_to_cart(&app, one, &event, &hidden).await;
    assert_eq!(status, StatusCode::OK, "{cart}");
    assert_eq!(cart["payload"][0]["tier"]["onSale"], true);
    let order = pay_cart(&app, one).await;
    assert_eq!(order["promoCode"], "VIP");
    assert_eq!(order["discount"], 0);
    assert_eq!(prices(&order), [2500]);
    assert_eq!(uses_taken(&app, &admin, &code).await, 1);

    // Holding the code while buying a visible tier uses nothing.
    enter(&app, two, "VIP").await;
    add_tier_to_cart(&app, two, &event, &visible).await;
    let order = pay_cart(&app, two).await;
    assert_eq!(order["promoCode"], Value::Null);
    assert_eq!(uses_taken(&app, &admin, &code).await, 1);

    // A hidden tier in the cart whose code left it is refused at checkout.
    enter(&app, three, "VIP").await;
    let (status, _) = add_tier_to_cart(&app, three, &event, &hidden).await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = app.delete("/api/v1/cart/promo-code", three).await;
    assert_eq!(status, StatusCode::OK);
    let (status, body) = checkout(&app, three).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    enter(&app, three, "VIP").await;
    let order = pay_cart(&app, three).await;
    assert_eq!(order["promoCode"], "VIP");
    assert_eq!(uses_taken(&app, &admin, &code).await, 2);

    // Used up: it is refused, and lists nothing any more.
    let (status, body) = enter(&app, four, "VIP").await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert!(
        !listed(&app, None, &event, "?code=VIP")
            .await
            .contains(&hidden)
    );
}

#[tokio::test]
async fn a_code_without_a_limit_counts_its_uses_from_orders_and_a_limit_set_later_holds() {
    let open = json!({ "code": "OPEN", "kind": "percent", "value": 10 });
    let (app, admin, event, code) = a_concert_with_a_code(1000, open).await;
    let fans = app.fans(5).await;
    for (_, fan) in &fans[..3] {
        add(&app, fan, &event).await;
        assert_eq!(enter(&app, fan, "open").await.0, StatusCode::OK);
        assert_eq!(pay_cart(&app, fan).await["discount"], 100);
    }
    // The checkouts wrote nothing to the code's row (no lock for buyers to queue on); its
    // managers still see three uses, counted from the orders.
    let counter = app
        .count("SELECT uses_taken FROM promo_codes WHERE id = $1", &code)
        .await;
    assert_eq!(counter, 0);
    assert_eq!(uses_taken(&app, &admin, &code).await, 3);

    // A limit below the uses already made is refused; one above them holds from then on.
    let limit =
        |max: i64| json!({ "code": "OPEN", "kind": "percent", "value": 10, "maxUses": max });
    let path = format!("/api/v1/promo-codes/{code}");
    let (status, body) = app.put(&path, limit(2), &admin).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    let (status, body) = app.put(&path, limit(4), &admin).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["payload"]["usesTaken"], 3);
    let (fourth, fifth) = (&fans[3].1, &fans[4].1);
    add(&app, fourth, &event).await;
    add(&app, fifth, &event).await;
    assert_eq!(enter(&app, fourth, "open").await.0, StatusCode::OK);
    assert_eq!(enter(&app, fifth, "open").await.0, StatusCode::OK);
    assert_eq!(pay_cart(&app, fourth).await["discount"], 100);
    let (status, body) = checkout(&app, fifth).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(
        body["error"],
        "This promo code has been used as many times as it may be."
    );
    assert_eq!(uses_taken(&app, &admin, &code).await, 4);
}
