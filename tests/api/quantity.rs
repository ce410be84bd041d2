//! Several tickets in one order (issue 31): a quantity of one tier in the cart, capped per
//! order and by the seats left; checkout holds as many seats; paying issues the buyer's own
//! ticket and spares to keep or give; a refund gives every ticket's money and seat back;
//! a cancelled concert refunds each ticket its share to the cent; and buyers racing for
//! several tickets at once never oversell a tier or the concert, on either database.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::fixtures::{add_tier, checkout, mine, pay_cart};
use crate::gifts::{claim, given};
use crate::helpers::*;

/// A concert (capacity `capacity`, Standard at 15.00) with a Supporter tier at 25.00 of
/// `supporters` seats, starting in five minutes: (admin, concert, Supporter tier).
async fn a_concert(
    app: &TestApp,
    capacity: Option<i64>,
    supporters: i64,
) -> (String, String, String) {
    let admin = app.an_admin().await;
    let event = concert(app, capacity, 1500, 5 * 60_000).await;
    let tier = add_tier(
        app,
        &admin,
        &event,
        json!({ "name": "Supporter", "price": 2500, "capacity": supporters }),
    )
    .await;
    (admin, event, tier)
}

/// A concert as [`a_concert`] makes it (capacity 20, five Supporter seats) and a fan
/// who paid for three Supporter tickets in one order.
struct Bought {
    admin: String,
    event: String,
    supporter: String,
    buyer: String,
    /// The paid order as `GET /orders/{id}` shows it.
    order: Value,
}

async fn three_supporters_bought(app: &TestApp) -> Bought {
    let (admin, event, supporter) = a_concert(app, Some(20), 5).await;
    let buyer = app.fans(1).await.remove(0).1;
    add_ok(app, &buyer, &event, &format!("tier={supporter}&quantity=3")).await;
    let order = pay_cart(app, &buyer).await;
    Bought {
        admin,
        event,
        supporter,
        buyer,
        order,
    }
}

async fn add(app: &TestApp, token: &str, event: &str, query: &str) -> (StatusCode, Value) {
    app.post(
        &format!("/api/v1/cart/{event}?{query}"),
        json!({}),
        Some(token),
    )
    .await
}

/// [`add`], expecting 200: the cart.
async fn add_ok(app: &TestApp, token: &str, event: &str, query: &str) -> Value {
    let (status, cart) = add(app, token, event, query).await;
    assert_eq!(status, StatusCode::OK, "{cart}");
    cart
}

async fn set_quantity(app: &TestApp, token: &str, event: &str, n: i64) -> (StatusCode, Value) {
    app.put(
        &format!("/api/v1/cart/{event}?quantity={n}"),
        json!({}),
        token,
    )
    .await
}

fn spares(tickets: &[Value]) -> Vec<String> {
    tickets
        .iter()
        .filter(|t| t["spare"] == true)
        .map(|t| t["id"].as_str().unwrap().to_owned())
        .collect()
}

fn own(tickets: &[Value]) -> Vec<String> {
    tickets
        .iter()
        .filter(|t| t["spare"] == false && t["gift"].is_null())
        .map(|t| t["id"].as_str().unwrap().to_owned())
        .collect()
}

async fn may_listen(app: &TestApp, event: &str, token: &str) -> StatusCode {
    let path = format!("/api/v1/stream/{event}/session");
    app.post(&path, json!({}), Some(token)).await.0
}

/// Give `ticket` to a new fan, who claims it: the fan's token.
async fn give_to_a_friend(app: &TestApp, giver: &str, ticket: &str) -> String {
    let (friend, friend_token) = app.fans(1).await.remove(0);
    let (_, link) = given(app, giver, ticket, &friend.login).await;
    let (status, claimed) = claim(app, &friend_token, &link).await;
    assert_eq!(status, StatusCode::OK, "{claimed}");
    friend_token
}

/// `token` asks to keep `ticket` (a spare) as their own: the status and body.
async fn keep(app: &TestApp, ticket: &str, token: &str) -> (StatusCode, Value) {
    app.post(
        &format!("/api/v1/tickets/{ticket}/keep"),
        json!({}),
        Some(token),
    )
    .await
}

#[tokio::test]
async fn the_cart_holds_a_quantity_of_a_tier_with_its_line_total_capped_per_order_and_by_the_seats_left()
 {
    let app = spawn_app().await;
    let (_, event, supporter) = a_concert(&app, Some(20), 5).await;
    let fan = app.fans(1).await.remove(0).1;
    let cart = add_ok(&app, &fan, &event, &format!("tier={supporter}&quantity=3")).await;
    let entry = &cart["payload"][0];
    // The specification's shape still: the entry's event with its id and (one ticket's) price.
    assert_eq!(entry["event"]["id"], event);
    assert_eq!(entry["event"]["price"], 2500);
    assert_eq!(entry["tier"]["id"], supporter);
    assert_eq!(entry["quantity"], 3);
    assert_eq!(entry["lineTotal"], 7500);

    let (status, cart) = set_quantity(&app, &fan, &event, 2).await;
    assert_eq!(status, StatusCode::OK, "{cart}");
    assert_eq!(cart["payload"][0]["quantity"], 2);
    assert_eq!(cart["payload"][0]["lineTotal"], 5000);
    assert_eq!(
        cart["payload"][0]["tier"]["id"], supporter,
        "the tier stays"
    );

    // Above the cap, none, or more than the tier has left: refused with the reason.
    let (status, body) = set_quantity(&app, &fan, &event, 11).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(body["error"], "Choose between 1 and 10 tickets.");
    let (status, body) = add(&app, &fan, &event, "quantity=0").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    let (status, body) = set_quantity(&app, &fan, &event, 6).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(body["error"], "Only 5 tickets are left.");
    let other = concert(&app, None, 1000, HOUR_MS).await;
    let (status, body) = set_quantity(&app, &fan, &other, 2).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    assert_eq!(body["error"], "This concert is not in your cart.");
    let (status, cart) = app.get("/api/v1/cart", Some(&fan)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        cart["payload"][0]["quantity"], 2,
        "a refusal changes nothing"
    );

    // Checkout holds two seats of the tier and of the concert; a lapse gives both back.
    let (status, body) = checkout(&app, &fan).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(seats_taken(&app, "events", &event).await, 2);
    assert_eq!(seats_taken(&app, "tiers", &supporter).await, 2);
    app.lapse_pending_checkouts().await;
    assert_eq!(seats_taken(&app, "events", &event).await, 0);
    assert_eq!(seats_taken(&app, "tiers", &supporter).await, 0);
}

#[tokio::test]
async fn a_pay_what_you_want_amount_is_per_ticket() {
    let app = spawn_app().await;
    let admin = app.an_admin().await;
    let event = concert(&app, None, 1500, HOUR_MS).await;
    let tier = add_tier(
        &app,
        &admin,
        &event,
        json!({ "name": "As you like", "price": 1500, "minimumPrice": 500 }),
    )
    .await;
    let fan = app.fans(1).await.remove(0).1;
    let cart = add_ok(
        &app,
        &fan,
        &event,
        &format!("tier={tier}&amount=700&quantity=4"),
    )
    .await;
    assert_eq!(cart["payload"][0]["event"]["price"], 700);
    assert_eq!(cart["payload"][0]["lineTotal"], 2800);
    let order = pay_cart(&app, &fan).await;
    assert_eq!(order["total"], 2800);
    assert_eq!(order["items"][0]["quantity"], 4);
    assert_eq!(order["items"][0]["price"], 2800);
}

#[tokio::test]
async fn paying_for_three_issues_the_buyers_own_ticket_and_two_spares_to_give_or_keep() {
    let app = spawn_app().await;
    let Bought {
        event,
        supporter,
        buyer,
        order,
        ..
    } = three_supporters_bought(&app).await;
    assert_eq!(order["total"], 7500);
    let items = order["items"].as_array().unwrap();
    assert_eq!(items.len(), 1, "one line of three tickets");
    assert_eq!(items[0]["quantity"], 3);
    assert_eq!(items[0]["price"], 7500);
    assert_eq!(items[0]["tier"], "Supporter");
    assert_eq!(seats_taken(&app, "events", &event).await, 3);
    assert_eq!(seats_taken(&app, "tiers", &supporter).await, 3);

    let tickets = mine(&app, &buyer).await;
    assert_eq!(tickets.len(), 3);
    let (mine_own, spare) = (own(&tickets), spares(&tickets));
    assert_eq!((mine_own.len(), spare.len()), (1, 2), "{tickets:?}");
    for t in tickets.iter().filter(|t| t["spare"] == true) {
        assert_eq!(t["canGive"], true, "{t}");
        assert_eq!(
            t["canKeep"], false,
            "the buyer has a ticket of their own: {t}"
        );
    }

    // A spare given and claimed is the friend's own ticket, to listen with.
    let friend = give_to_a_friend(&app, &buyer, &spare[0]).await;
    let theirs = mine(&app, &friend).await;
    assert_eq!(theirs.len(), 1);
    assert_eq!(theirs[0]["spare"], false);
    assert_eq!(may_listen(&app, &event, &friend).await, StatusCode::OK);

    // The other can only be given while the buyer holds their own.
    let (status, body) = keep(&app, &spare[1], &buyer).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(
        body["error"],
        "You already hold your own ticket for this concert: give this spare one instead."
    );
    // Once the buyer has given their own away, they may keep the spare instead.
    give_to_a_friend(&app, &buyer, &mine_own[0]).await;
    let left = mine(&app, &buyer).await;
    assert_eq!(left.len(), 1);
    assert_eq!(left[0]["canKeep"], true, "{left:?}");
    let (status, kept) = keep(&app, &spare[1], &buyer).await;
    assert_eq!(status, StatusCode::OK, "{kept}");
    assert_eq!(kept["payload"][0]["spare"], false);
    assert_eq!(may_listen(&app, &event, &buyer).await, StatusCode::OK);
    // Someone else's ticket is not theirs to keep.
    let (status, _) = keep(&app, &spare[1], &friend).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    // Three live tickets, each held as its holder's own: one per account.
    assert_eq!(
        app.count(
            "SELECT COUNT(DISTINCT account_id) FROM tickets WHERE event_id = $1 \
             AND revoked_at IS NULL AND spare = 0",
            &event
        )
        .await,
        3
    );
}

#[tokio::test]
async fn a_listener_may_buy_several_tickets_for_others_but_not_one_more_for_themselves() {
    let app = spawn_app().await;
    let (_, event, _) = a_concert(&app, None, 5).await;
    let fan = app.fans(1).await.remove(0).1;
    assert_eq!(app.buy(&fan, &event, CARD_OK).await.0, StatusCode::OK);
    let (status, body) = add(&app, &fan, &event, "quantity=1").await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    add_ok(&app, &fan, &event, "quantity=2").await;
    pay_cart(&app, &fan).await;
    let tickets = mine(&app, &fan).await;
    assert_eq!((own(&tickets).len(), spares(&tickets).len()), (1, 2));
}

#[tokio::test]
async fn refunding_an_order_of_three_ends_every_ticket_and_gives_back_every_seat() {
    let app = spawn_app().await;
    let Bought {
        admin,
        event,
        supporter,
        buyer,
        order,
    } = three_supporters_bought(&app).await;
    let spare = spares(&mine(&app, &buyer).await);
    let friend = give_to_a_friend(&app, &buyer, &spare[0]).await;

    let id = order["id"].as_str().unwrap();
    let (status, body) = app.refund(id, &admin).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(
        app.count(
            "SELECT CAST(SUM(amount_minor) AS BIGINT) FROM refunds WHERE order_id = $1",
            id
        )
        .await,
        7500,
        "the whole order's money"
    );
    assert_eq!(
        app.count(
            "SELECT COUNT(*) FROM tickets WHERE order_id = $1 AND revoked_at IS NULL",
            id
        )
        .await,
        0
    );
    assert_eq!(seats_taken(&app, "events", &event).await, 0);
    assert_eq!(seats_taken(&app, "tiers", &supporter).await, 0);
    assert!(mine(&app, &buyer).await.is_empty());
    assert_eq!(
        may_listen(&app, &event, &friend).await,
        StatusCode::FORBIDDEN
    );
}

#[tokio::test]
async fn a_cancelled_concert_refunds_each_ticket_its_share_of_a_discounted_line_to_the_cent() {
    let app = spawn_app().await;
    let (admin, event, supporter) = a_concert(&app, None, 5).await;
    let (status, code) = app
        .post(
            &format!("/api/v1/events/{event}/promo-codes"),
            json!({ "code": "SAVE1", "kind": "amount", "value": 100 }),
            Some(&admin),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{code}");
    let buyer = app.fans(1).await.remove(0).1;
    add_ok(
        &app,
        &buyer,
        &event,
        &format!("tier={supporter}&quantity=3"),
    )
    .await;
    // A line of another concert, which the code is not for and the cancellation keeps.
    add_ok(&app, &buyer, &concert(&app, None, 999, HOUR_MS).await, "").await;
    let (status, body) = app
        .put(
            "/api/v1/cart/promo-code",
            json!({ "code": "save1" }),
            &buyer,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let order = pay_cart(&app, &buyer).await;
    assert_eq!(order["discount"], 100, "{order}");
    assert_eq!(order["total"], 7400 + 999);
    let line = order["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["itemId"] == event)
        .unwrap();
    assert_eq!(line["price"], 7400);
    assert_eq!(line["quantity"], 3);
    // 74.00 over three tickets: 24.67, 24.67 and 24.66.
    let (high, low): (i64, i64) = sqlx::query_as(
        "SELECT CAST(MAX(price_minor) AS BIGINT), CAST(MIN(price_minor) AS BIGINT) \
         FROM tickets WHERE event_id = $1",
    )
    .bind(&event)
    .fetch_one(app.db())
    .await
    .unwrap();
    assert_eq!((high, low), (2467, 2466));

    app.cancel_concert(&event, &admin).await;
    let id = order["id"].as_str().unwrap();
    assert_eq!(
        app.count(
            "SELECT CAST(SUM(amount_minor) AS BIGINT) FROM refunds WHERE order_id = $1",
            id
        )
        .await,
        7400,
        "each of the three tickets its share, the other concert's line kept"
    );
    assert_eq!(
        app.count("SELECT COUNT(*) FROM refunds WHERE order_id = $1", id)
            .await,
        3
    );
}

#[tokio::test]
async fn buyers_taking_several_tickets_at_once_never_oversell_a_tier_or_the_concert() {
    let app = spawn_app().await;
    let (_, event, supporter) = a_concert(&app, Some(12), 5).await;
    let fans = app.fans(16).await;
    let mut racers = tokio::task::JoinSet::new();
    for (i, (_, token)) in fans.into_iter().enumerate() {
        let (http, url, event) = (app.http.clone(), app.url.clone(), event.clone());
        let quantity = 1 + (i % 3) as i64;
        let tier = if i % 2 == 0 {
            format!("&tier={supporter}")
        } else {
            String::new()
        };
        racers.spawn(async move {
            let post = |path: String| {
                let (http, token, url) = (http.clone(), token.clone(), url.clone());
                async move {
                    let response = http
                        .post(format!("{url}{path}"))
                        .bearer_auth(token)
                        .json(&json!({}))
                        .send()
                        .await
                        .unwrap();
                    (
                        response.status(),
                        response.json::<Value>().await.unwrap_or_default(),
                    )
                }
            };
            let (status, body) =
                post(format!("/api/v1/cart/{event}?quantity={quantity}{tier}")).await;
            if status != StatusCode::OK {
                return (status, body, 0);
            }
            let (status, body) = post("/api/v1/cart/checkout".into()).await;
            (status, body, quantity)
        });
    }
    let mut held = 0;
    let mut checkouts = Vec::new();
    while let Some(result) = racers.join_next().await {
        let (status, body, quantity) = result.unwrap();
        match status {
            StatusCode::OK => {
                held += quantity;
                checkouts.push(body["payload"].as_str().unwrap().to_owned());
            }
            StatusCode::CONFLICT => {
                let error = body["error"].as_str().unwrap_or_default();
                assert!(
                    error.contains("Sold out")
                        || error.contains("left")
                        || error.contains("sold out"),
                    "{error}"
                );
            }
            other => panic!("{other}: {body}"),
        }
    }
    assert!(held <= 12, "{held} seats held of 12");
    for url in &checkouts {
        assert_eq!(app.pay(url, CARD_OK).await.0, StatusCode::OK);
    }
    let live = |sql: &'static str, id: String| {
        let app = &app;
        async move { app.count(sql, &id).await }
    };
    let sold = live(
        "SELECT COUNT(*) FROM tickets WHERE event_id = $1 AND revoked_at IS NULL",
        event.clone(),
    )
    .await;
    let supporters = live(
        "SELECT COUNT(*) FROM tickets WHERE tier_id = $1 AND revoked_at IS NULL",
        supporter.clone(),
    )
    .await;
    assert_eq!(sold, held);
    assert!(sold <= 12, "{sold} tickets for 12 seats");
    assert!(
        supporters <= 5,
        "{supporters} Supporter tickets for 5 seats"
    );
    assert_eq!(seats_taken(&app, "events", &event).await, sold);
    assert_eq!(seats_taken(&app, "tiers", &supporter).await, supporters);
}
