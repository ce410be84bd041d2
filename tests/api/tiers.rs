//! Ticket tiers (issue 31): a concert sells through one or more tiers, each with its price,
//! its own capacity inside the concert's, a sale window and hidden ones; the cart keeps the
//! specification's shape (each entry's event with the tier's price), and racing buyers
//! never oversell a tier or the concert, on either database.

use encore::accounts::model::Role;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::*;

/// An admin's access token, minted without a password.
async fn admin(app: &TestApp) -> String {
    let row = app.account("tiers-admin@example.com", Role::Admin).await;
    app.session(&row).await
}

/// A concert's tiers as `token`'s holder manages them, over HTTP.
struct Tiers<'a> {
    app: &'a TestApp,
    token: &'a str,
    event: &'a str,
}

impl<'a> Tiers<'a> {
    fn of(app: &'a TestApp, token: &'a str, event: &'a str) -> Self {
        Self { app, token, event }
    }

    fn path(&self, tier: &str) -> String {
        format!("/api/v1/events/{}/tiers/{tier}", self.event)
    }

    /// Add a tier: the new tier (201 asserted).
    async fn add(&self, body: Value) -> Value {
        let (status, answer) = self
            .app
            .post(
                &format!("/api/v1/events/{}/tiers", self.event),
                body,
                Some(self.token),
            )
            .await;
        assert_eq!(status, StatusCode::CREATED, "{answer}");
        answer["payload"].clone()
    }

    /// Add a tier: its id.
    async fn add_id(&self, body: Value) -> String {
        id_of(&self.add(body).await)
    }

    async fn put(&self, tier: &str, body: Value) -> (StatusCode, Value) {
        self.app.put(&self.path(tier), body, self.token).await
    }

    async fn delete(&self, tier: &str) -> (StatusCode, Value) {
        self.app.delete(&self.path(tier), self.token).await
    }

    /// How many tiers the concert has, hidden ones included, as stored.
    async fn stored(&self) -> i64 {
        self.app
            .count(
                "SELECT COUNT(*) FROM ticket_tiers WHERE event_id = $1",
                self.event,
            )
            .await
    }
}

fn id_of(tier: &Value) -> String {
    tier["id"].as_str().unwrap().to_owned()
}

/// The id of `event`'s default tier, listed first.
async fn default_tier(app: &TestApp, event: &str) -> String {
    id_of(&public_view(app, event).await["tiers"][0])
}

/// `shown`, a concert's public view, lists one tier: the default, at `price`, on sale with
/// no capacity of its own and `seats_left` seats left. Its id.
fn the_one_standard_tier(shown: &Value, price: i64, seats_left: i64) -> String {
    let tiers = shown["tiers"]
        .as_array()
        .expect("the public view lists tiers");
    assert_eq!(tiers.len(), 1);
    let tier = &tiers[0];
    assert_eq!(tier["name"], "Standard");
    assert_eq!(tier["price"], price);
    assert_eq!(tier["currency"], "EUR");
    assert_eq!(tier["isDefault"], true);
    assert_eq!(tier["onSale"], true);
    assert_eq!(tier["soldOut"], false);
    assert_eq!(
        tier["capacity"],
        Value::Null,
        "the concert's capacity holds"
    );
    assert_eq!(tier["seatsLeft"], seats_left);
    id_of(tier)
}

/// Tier `id` as a concert's public view `shown` lists it.
fn listed(shown: &Value, id: &str) -> Value {
    shown["tiers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["id"] == id)
        .unwrap()
        .clone()
}

/// The live tickets of tier `id`.
async fn tickets_of(app: &TestApp, id: &str) -> i64 {
    app.count(
        "SELECT COUNT(*) FROM tickets WHERE tier_id = $1 AND revoked_at IS NULL",
        id,
    )
    .await
}

async fn public_view(app: &TestApp, event: &str) -> Value {
    app.get_ok(&format!("/api/v1/events/{event}"), None).await
}

async fn add_to_cart(
    app: &TestApp,
    token: &str,
    event: &str,
    tier: Option<&str>,
) -> (StatusCode, Value) {
    let query = tier.map(|t| format!("?tier={t}")).unwrap_or_default();
    app.post(
        &format!("/api/v1/cart/{event}{query}"),
        json!({}),
        Some(token),
    )
    .await
}

async fn checkout(app: &TestApp, token: &str) -> (StatusCode, Value) {
    app.post("/api/v1/cart/checkout", json!({}), Some(token))
        .await
}

/// Pay for `token`'s cart: the paid order's id.
async fn pay_cart(app: &TestApp, token: &str) -> String {
    let (status, body) = checkout(app, token).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, paid) = app.pay(body["payload"].as_str().unwrap(), CARD_OK).await;
    assert_eq!(status, StatusCode::OK, "{paid}");
    paid["payload"]["order"].as_str().unwrap().to_owned()
}

async fn request_in(
    app: &TestApp,
    method: reqwest::Method,
    path: &str,
    lang: &str,
    token: &str,
    body: Value,
) -> (StatusCode, Value) {
    let response = app
        .http
        .request(method, format!("{}{path}", app.url))
        .header("Accept-Language", lang)
        .bearer_auth(token)
        .json(&body)
        .send()
        .await
        .unwrap();
    (response.status(), response.json().await.unwrap())
}

#[tokio::test]
async fn a_new_concert_sells_through_one_default_tier_at_its_price() {
    let app = spawn_app().await;
    let event = concert(&app, Some(10), 2450, HOUR_MS).await;
    the_one_standard_tier(&public_view(&app, &event).await, 2450, 10);
    // Lists keep their shape: no tiers there.
    let (_, list) = app.get("/api/v1/events", None).await;
    assert!(list["payload"]["items"][0].get("tiers").is_none());
}

#[tokio::test]
async fn the_default_tiers_name_reads_in_the_buyers_language_and_as_stored_for_its_managers() {
    let app = spawn_app().await;
    let admin = admin(&app).await;
    let event = concert(&app, None, 900, HOUR_MS).await;
    let in_persian = |path: String, token: Option<String>| {
        let mut request = app
            .http
            .get(format!("{}{path}", app.url))
            .header("Accept-Language", "fa");
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        app.send(request)
    };
    let (_, shown) = in_persian(format!("/api/v1/events/{event}"), None).await;
    assert_eq!(shown["payload"]["tiers"][0]["name"], "عادی");
    // Its managers read and edit what is stored.
    let (_, managed) = in_persian(format!("/api/v1/events/{event}/tiers"), Some(admin)).await;
    assert_eq!(managed["payload"][0]["name"], "Standard");
    // So do the buyer's cart and receipt.
    let fan = app.fans(1).await.remove(0).1;
    let (status, body) = app
        .post(&format!("/api/v1/cart/{event}"), json!({}), Some(&fan))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (_, cart) = in_persian("/api/v1/cart".to_owned(), Some(fan.clone())).await;
    assert_eq!(cart["payload"][0]["tier"]["name"], "عادی", "{cart}");
    let (status, paid) = app.buy(&fan, &event, CARD_OK).await;
    assert_eq!(status, StatusCode::OK, "{paid}");
    let order = paid["payload"]["order"].as_str().unwrap();
    let (_, receipt) = in_persian(format!("/api/v1/orders/{order}"), Some(fan)).await;
    assert_eq!(receipt["payload"]["items"][0]["tier"], "عادی", "{receipt}");
}

#[tokio::test]
async fn the_cart_adds_the_default_tier_and_each_entry_carries_its_event_with_the_tiers_price() {
    let app = spawn_app().await;
    let admin = admin(&app).await;
    let one = concert(&app, None, 1000, HOUR_MS).await;
    let two = concert(&app, None, 1500, HOUR_MS).await;
    let vip = Tiers::of(&app, &admin, &two)
        .add(json!({ "name": "VIP — meet the band", "description": "After the show.", "price": 5000 }))
        .await;
    let (fan_row, fan) = app.fans(1).await.remove(0);
    let (status, _) = add_to_cart(&app, &fan, &one, None).await;
    assert_eq!(status, StatusCode::OK);
    let (status, cart) = add_to_cart(&app, &fan, &two, vip["id"].as_str()).await;
    assert_eq!(status, StatusCode::OK, "{cart}");
    let entries = cart["payload"].as_array().unwrap();
    assert_eq!(entries.len(), 2);
    for entry in entries {
        assert_eq!(entry["kind"], "event");
        assert!(entry["event"]["id"].is_string());
        assert_eq!(entry["event"]["price"], entry["tier"]["price"]);
        assert_eq!(entry["plan"], Value::Null);
    }
    assert_eq!(entries[0]["event"]["id"], one.as_str());
    assert_eq!(entries[0]["tier"]["isDefault"], true);
    assert_eq!(entries[1]["event"]["id"], two.as_str());
    assert_eq!(entries[1]["event"]["price"], 5000);
    assert_eq!(entries[1]["tier"]["name"], "VIP — meet the band");
    let total: i64 = entries
        .iter()
        .map(|e| e["event"]["price"].as_i64().unwrap_or(0))
        .sum();
    assert_eq!(total, 6000);
    // The order charges the same sum, and its lines name the tiers bought.
    let order = pay_cart(&app, &fan).await;
    let (_, shown) = app
        .get(&format!("/api/v1/orders/{order}"), Some(&fan))
        .await;
    assert_eq!(shown["payload"]["total"], 6000);
    let items = shown["payload"]["items"].as_array().unwrap();
    let line = |event: &str| {
        items
            .iter()
            .find(|i| i["itemId"] == event)
            .cloned()
            .unwrap()
    };
    assert_eq!(line(&two)["tier"], "VIP — meet the band");
    assert_eq!(line(&two)["tierId"], vip["id"]);
    assert_eq!(line(&two)["price"], 5000);
    assert_eq!(line(&one)["tier"], "Standard");
    // The ticket records its tier, and the receipt names it.
    assert_eq!(
        app.count(
            "SELECT COUNT(*) FROM tickets WHERE tier_id = $1",
            vip["id"].as_str().unwrap()
        )
        .await,
        1
    );
    let (status, receipt) = app
        .get(&format!("/api/v1/orders/{order}/receipt"), Some(&fan))
        .await;
    assert_eq!(status, StatusCode::OK, "{receipt}");
    assert!(
        receipt["payload"]["order"]["items"]
            .as_array()
            .unwrap()
            .iter()
            .any(|i| i["tier"] == "VIP — meet the band")
    );
    let mail = app.outbox_message(&fan_row.login, "email").await;
    let body = mail["body"].as_str().unwrap();
    assert!(
        body.contains("The Testers — Live at the Roundhouse (VIP — meet the band) — 50.00 EUR"),
        "{body}"
    );
}

#[tokio::test]
async fn adding_a_concert_again_keeps_one_entry_of_the_tier_chosen_last() {
    let app = spawn_app().await;
    let admin = admin(&app).await;
    let event = concert(&app, None, 1000, HOUR_MS).await;
    let supporter = Tiers::of(&app, &admin, &event)
        .add_id(json!({ "name": "Supporter", "price": 2500 }))
        .await;
    let fan = app.fans(1).await.remove(0).1;
    add_to_cart(&app, &fan, &event, None).await;
    let (_, cart) = add_to_cart(&app, &fan, &event, Some(&supporter)).await;
    assert_eq!(cart["payload"].as_array().unwrap().len(), 1);
    assert_eq!(cart["payload"][0]["event"]["price"], 2500);
    let (_, cart) = add_to_cart(&app, &fan, &event, None).await;
    assert_eq!(cart["payload"].as_array().unwrap().len(), 1);
    assert_eq!(cart["payload"][0]["event"]["price"], 1000);
}

#[tokio::test]
async fn a_hidden_tier_is_not_listed_to_the_public_and_cannot_be_added_to_a_cart() {
    let app = spawn_app().await;
    let admin = admin(&app).await;
    let event = concert(&app, None, 1000, HOUR_MS).await;
    let hidden = Tiers::of(&app, &admin, &event)
        .add(json!({ "name": "Friends of the band", "price": 0, "hidden": true }))
        .await;
    assert_eq!(hidden["hidden"], true);
    let shown = public_view(&app, &event).await;
    assert_eq!(shown["tiers"].as_array().unwrap().len(), 1);
    let (status, managed) = app
        .get(&format!("/api/v1/events/{event}/tiers"), Some(&admin))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(managed["payload"].as_array().unwrap().len(), 2);
    let fan = app.fans(1).await.remove(0).1;
    let (status, body) = add_to_cart(&app, &fan, &event, hidden["id"].as_str()).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    assert_eq!(body["error"], "Ticket tier not found.");
    // Nor is a tier of another concert.
    let other = concert(&app, None, 1000, HOUR_MS).await;
    let other_tier = default_tier(&app, &other).await;
    let (status, _) = add_to_cart(&app, &fan, &event, Some(&other_tier)).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn a_tier_is_sold_only_inside_its_sale_window() {
    let app = spawn_app().await;
    let admin = admin(&app).await;
    let event = concert(&app, None, 1000, 48 * HOUR_MS).await;
    let soon = encore::db::iso8601(encore::db::now_ms() + HOUR_MS);
    let past = encore::db::iso8601(encore::db::now_ms() - HOUR_MS);
    let tiers = Tiers::of(&app, &admin, &event);
    let early = tiers
        .add_id(json!({ "name": "Later", "price": 900, "saleOpensAt": soon }))
        .await;
    let closed = tiers
        .add_id(json!({ "name": "Early bird", "price": 500, "saleClosesAt": past }))
        .await;
    let later = listed(&public_view(&app, &event).await, &early);
    assert_eq!(later["onSale"], false);
    assert_eq!(
        later["notOnSale"],
        "Sales of this ticket tier have not opened yet."
    );
    let fan = app.fans(1).await.remove(0).1;
    let (status, body) = add_to_cart(&app, &fan, &event, Some(&early)).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(
        body["error"],
        "Sales of this ticket tier have not opened yet."
    );
    let (status, body) = add_to_cart(&app, &fan, &event, Some(&closed)).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(body["error"], "Sales of this ticket tier have closed.");
    // Opened by its managers, it sells.
    let (status, _) = tiers.put(&early, json!({ "saleOpensAt": null })).await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = add_to_cart(&app, &fan, &event, Some(&early)).await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn the_concerts_project_members_and_staff_manage_its_tiers_and_nobody_else() {
    let app = spawn_app().await;
    let event = concert(&app, None, 1000, HOUR_MS).await;
    let project = public_view(&app, &event).await["projectId"]
        .as_str()
        .unwrap()
        .to_owned();
    let mut people = app.fans(2).await;
    let (_, stranger) = people.pop().unwrap();
    let (artist_row, artist) = people.pop().unwrap();
    let _ = encore::projects::store::add_member(app.db(), &project, &artist_row.id)
        .await
        .unwrap();
    let path = format!("/api/v1/events/{event}/tiers");
    let mine = Tiers::of(&app, &artist, &event);
    let tier = mine
        .add(json!({ "name": "Supporter", "price": 2000 }))
        .await;
    assert_eq!(tier["name"], "Supporter");
    assert_eq!(tier["isDefault"], false);
    let tier = id_of(&tier);
    let (status, _) = app.get(&path, Some(&artist)).await;
    assert_eq!(status, StatusCode::OK);
    let admin = admin(&app).await;
    let (status, _) = app.get(&path, Some(&admin)).await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = app.get(&path, Some(&stranger)).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _) = app
        .post(
            &path,
            json!({ "name": "Mine", "price": 1 }),
            Some(&stranger),
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let theirs = Tiers::of(&app, &stranger, &event);
    let (status, _) = theirs.put(&tier, json!({ "price": 1 })).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _) = theirs.delete(&tier).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _) = app.get(&path, None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    // The member changes and deletes it.
    let (status, changed) = mine
        .put(&tier, json!({ "price": 2200, "capacity": 50 }))
        .await;
    assert_eq!(status, StatusCode::OK, "{changed}");
    assert_eq!(changed["payload"]["price"], 2200);
    assert_eq!(changed["payload"]["capacity"], 50);
    let (status, _) = mine.delete(&tier).await;
    assert_eq!(status, StatusCode::OK);
    let (_, left) = app.get(&path, Some(&artist)).await;
    assert_eq!(left["payload"].as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn bad_tier_input_is_refused_with_a_clear_error_in_the_readers_language() {
    let app = spawn_app().await;
    let admin = admin(&app).await;
    let event = concert(&app, Some(100), 1000, HOUR_MS).await;
    let path = format!("/api/v1/events/{event}/tiers");
    let post = reqwest::Method::POST;
    let cases = [
        (
            json!({ "name": "VIP", "price": 5000, "capacity": 101 }),
            "A ticket tier's capacity cannot be above the concert's (100).",
        ),
        (
            json!({ "name": "VIP", "price": -1 }),
            "The price must be between 0 and 1,000,000.00 (in minor units, e.g. cents).",
        ),
        (
            json!({ "name": "  ", "price": 100 }),
            "A ticket tier needs a name of 1 to 120 characters.",
        ),
        (json!({ "name": "VIP" }), "The price is required."),
        (
            json!({ "name": "VIP", "price": 100, "saleOpensAt": "2030-01-02T00:00:00Z",
                    "saleClosesAt": "2030-01-01T00:00:00Z" }),
            "A ticket tier's sales must open before they close.",
        ),
        (
            json!({ "name": "VIP", "price": 100, "saleOpensAt": "tomorrow" }),
            "saleOpensAt and saleClosesAt must be ISO 8601 times with a time zone before the year 9999, e.g. 2026-12-31T20:00:00Z.",
        ),
    ];
    for (body, message) in cases {
        let (status, answer) =
            request_in(&app, post.clone(), &path, "en", &admin, body.clone()).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}: {answer}");
        assert_eq!(answer["success"], false);
        assert_eq!(answer["error"], message, "{body}");
    }
    // In the reader's language.
    let over = json!({ "name": "VIP", "price": 5000, "capacity": 101 });
    let (_, answer) = request_in(&app, post.clone(), &path, "es", &admin, over.clone()).await;
    assert_eq!(
        answer["error"],
        "El aforo de un tipo de entrada no puede superar el del concierto (100)."
    );
    let (_, answer) = request_in(&app, post.clone(), &path, "fa", &admin, over).await;
    assert_eq!(
        answer["error"],
        "ظرفیت ردهٔ بلیت نمی‌تواند بیشتر از ظرفیت کنسرت (۱۰۰) باشد."
    );
    let (_, answer) = request_in(
        &app,
        post,
        &path,
        "pt-BR",
        &admin,
        json!({ "name": "VIP", "price": -5 }),
    )
    .await;
    assert_eq!(
        answer["error"],
        "O preço deve estar entre 0 e 1.000.000,00 (em centavos)."
    );
    // Nothing was written.
    assert_eq!(Tiers::of(&app, &admin, &event).stored().await, 1);
}

#[tokio::test]
async fn the_last_tier_the_default_tier_and_a_tier_that_sold_are_never_deleted() {
    let app = spawn_app().await;
    let admin = admin(&app).await;
    let event = concert(&app, None, 1000, HOUR_MS).await;
    let tiers = Tiers::of(&app, &admin, &event);
    let default = default_tier(&app, &event).await;
    let (status, body) = tiers.delete(&default).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(
        body["error"],
        "A concert sells through at least one ticket tier: its last one cannot be deleted."
    );
    let supporter = tiers
        .add_id(json!({ "name": "Supporter", "price": 2000 }))
        .await;
    let (status, body) = tiers.delete(&default).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(
        body["error"],
        "This is the concert's default ticket tier: make another tier the default first."
    );
    // The default cannot be hidden nor stop being the default by itself.
    let (status, body) = tiers.put(&default, json!({ "hidden": true })).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(body["error"], "The default ticket tier cannot be hidden.");
    let (status, _) = tiers.put(&default, json!({ "isDefault": false })).await;
    assert_eq!(status, StatusCode::CONFLICT);
    // A tier a fan bought stays (hidden instead); its price is frozen.
    let fan = app.fans(1).await.remove(0).1;
    add_to_cart(&app, &fan, &event, Some(&supporter)).await;
    pay_cart(&app, &fan).await;
    let (status, body) = tiers.delete(&supporter).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(
        body["error"],
        "Tickets of this tier were sold or are being paid for: hide it instead of deleting it."
    );
    let (status, body) = tiers.put(&supporter, json!({ "price": 2100 })).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(
        body["error"],
        "Tickets of this tier were already sold at this price; its price stays as it is."
    );
    let (status, hidden) = tiers
        .put(&supporter, json!({ "hidden": true, "price": 2000 }))
        .await;
    assert_eq!(status, StatusCode::OK, "{hidden}");
    assert_eq!(hidden["payload"]["hidden"], true);
    // Made the default, another tier may be deleted once it never sold.
    let extra = tiers
        .add(json!({ "name": "Extra", "price": 3000, "isDefault": true }))
        .await;
    assert_eq!(extra["isDefault"], true);
    let (status, _) = tiers.delete(&default).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(tiers.stored().await, 2);
}

#[tokio::test]
async fn the_concerts_price_is_its_default_tiers() {
    let app = spawn_app().await;
    let admin = admin(&app).await;
    let event = concert(&app, None, 1000, HOUR_MS).await;
    let tiers = Tiers::of(&app, &admin, &event);
    let default = default_tier(&app, &event).await;
    let (status, _) = tiers.put(&default, json!({ "price": 1200 })).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(public_view(&app, &event).await["price"], 1200);
    // The concert's form sets its default tier's price.
    let (status, body) = app
        .put(
            &format!("/api/v1/events/{event}"),
            json!({ "price": 1300 }),
            &admin,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(public_view(&app, &event).await["tiers"][0]["price"], 1300);
    // Another default: the concert's price is its.
    let vip = tiers.add_id(json!({ "name": "VIP", "price": 4000 })).await;
    let (status, _) = tiers.put(&vip, json!({ "isDefault": true })).await;
    assert_eq!(status, StatusCode::OK);
    let shown = public_view(&app, &event).await;
    assert_eq!(shown["price"], 4000);
    let defaults: Vec<&Value> = shown["tiers"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["isDefault"] == true)
        .collect();
    assert_eq!(defaults.len(), 1);
    assert_eq!(defaults[0]["id"], vip.as_str());
    let fan = app.fans(1).await.remove(0).1;
    let (_, cart) = add_to_cart(&app, &fan, &event, None).await;
    assert_eq!(cart["payload"][0]["tier"]["id"], vip.as_str());
}

#[tokio::test]
async fn a_tiers_capacity_holds_for_it_with_pending_checkouts_holding_seats_until_they_lapse() {
    let app = spawn_app().await;
    let admin = admin(&app).await;
    let event = concert(&app, Some(10), 1000, HOUR_MS).await;
    let vip = Tiers::of(&app, &admin, &event)
        .add_id(json!({ "name": "VIP", "price": 5000, "capacity": 1 }))
        .await;
    let fans = app.fans(2).await;
    add_to_cart(&app, &fans[0].1, &event, Some(&vip)).await;
    add_to_cart(&app, &fans[1].1, &event, Some(&vip)).await;
    let (status, _) = checkout(&app, &fans[0].1).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(seats_taken(&app, "tiers", &vip).await, 1);
    assert_eq!(seats_taken(&app, "events", &event).await, 1);
    let (status, body) = checkout(&app, &fans[1].1).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(
        body["error"],
        "Live at the Roundhouse: This ticket tier is sold out."
    );
    let shown = public_view(&app, &event).await;
    let vip_listed = listed(&shown, &vip);
    assert_eq!(vip_listed["soldOut"], true);
    assert_eq!(vip_listed["seatsLeft"], 0);
    // The default tier still sells: the concert has seats.
    assert_eq!(shown["tiers"][0]["onSale"], true);
    // The first checkout lapses: its seats go back, the tier's and the concert's.
    app.lapse_pending_checkouts().await;
    assert_eq!(seats_taken(&app, "tiers", &vip).await, 0);
    assert_eq!(seats_taken(&app, "events", &event).await, 0);
    pay_cart(&app, &fans[1].1).await;
    assert_eq!(seats_taken(&app, "tiers", &vip).await, 1);
    // A refund gives the seat back to its tier too.
    let order: (String,) = sqlx::query_as("SELECT order_id FROM tickets WHERE tier_id = $1")
        .bind(&vip)
        .fetch_one(app.db())
        .await
        .unwrap();
    let (status, body) = app
        .post(
            &format!("/api/v1/orders/{}/refund", order.0),
            json!({}),
            Some(&admin),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(seats_taken(&app, "tiers", &vip).await, 0);
    assert_eq!(seats_taken(&app, "events", &event).await, 0);
}

#[tokio::test]
async fn thirty_buyers_race_for_a_ten_seat_tier_and_exactly_ten_get_it() {
    let app = spawn_app().await;
    let admin = admin(&app).await;
    let event = concert(&app, None, 1000, HOUR_MS).await;
    let vip = Tiers::of(&app, &admin, &event)
        .add_id(json!({ "name": "VIP", "price": 5000, "capacity": 10 }))
        .await;
    let (paid, sold_out) = race_for(&app, 30, &event, Some(&vip)).await;
    assert_eq!(paid, 10);
    assert_eq!(sold_out, 20, "everyone else is told it is sold out");
    assert_eq!(tickets_of(&app, &vip).await, 10);
    assert_eq!(seats_taken(&app, "tiers", &vip).await, 10);
    assert_eq!(seats_taken(&app, "events", &event).await, 10);
    assert_eq!(
        app.count(
            "SELECT CAST(COALESCE(SUM(price_minor), 0) AS BIGINT) FROM order_items i \
             JOIN orders o ON o.id = i.order_id WHERE i.tier_id = $1 AND o.status = 'fulfilled'",
            &vip
        )
        .await,
        50_000,
        "each paid the tier's price"
    );
}

#[tokio::test]
async fn buyers_racing_across_two_tiers_never_oversell_the_concert_nor_either_tier() {
    let app = spawn_app().await;
    let admin = admin(&app).await;
    let event = concert(&app, Some(10), 1000, HOUR_MS).await;
    let standard = default_tier(&app, &event).await;
    let supporter = Tiers::of(&app, &admin, &event)
        .add_id(json!({ "name": "Supporter", "price": 2500, "capacity": 4 }))
        .await;
    let buyers = app
        .fans(30)
        .await
        .into_iter()
        .enumerate()
        .map(|(i, (_, token))| {
            let tier = if i % 2 == 0 { &standard } else { &supporter };
            (token, event.clone(), Some(tier.clone()))
        })
        .collect();
    let (paid, sold_out) = race(&app, buyers).await;
    assert_eq!(paid, 10, "the concert's ten seats, across its tiers");
    assert_eq!(sold_out, 20);
    let (standard_sold, supporter_sold) = (
        tickets_of(&app, &standard).await,
        tickets_of(&app, &supporter).await,
    );
    assert!(
        supporter_sold <= 4,
        "{supporter_sold} Supporter tickets for 4 seats"
    );
    assert_eq!(standard_sold + supporter_sold, 10);
    assert_eq!(seats_taken(&app, "events", &event).await, 10);
    assert_eq!(seats_taken(&app, "tiers", &supporter).await, supporter_sold);
    assert_eq!(seats_taken(&app, "tiers", &standard).await, standard_sold);
}

#[tokio::test]
async fn a_concert_made_before_tiers_becomes_one_default_tier_holding_its_seats() {
    // The schema as it was before tiers, with a concert that has sold three of ten seats.
    let dir = tempfile::tempdir().unwrap();
    let url = test_database_url(dir.path()).await;
    sqlx::any::install_default_drivers();
    let pool = sqlx::any::AnyPoolOptions::new()
        .max_connections(1)
        .connect(&url)
        .await
        .unwrap();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations");
    let mut files: Vec<_> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let mut before = Vec::new();
    for path in files {
        let name = path.file_name().unwrap().to_str().unwrap().to_owned();
        let (version, rest) = name.split_once('_').unwrap();
        let version: i64 = version.parse().unwrap();
        if version >= 22 {
            break;
        }
        let sql: &'static str = Box::leak(std::fs::read_to_string(&path).unwrap().into_boxed_str());
        before.push(sqlx::migrate::Migration::new(
            version,
            rest.trim_end_matches(".sql").replace('_', " ").into(),
            sqlx::migrate::MigrationType::Simple,
            sqlx::SqlStr::from_static(sql),
            false,
        ));
    }
    sqlx::migrate::Migrator::with_migrations(before)
        .run(&pool)
        .await
        .unwrap();
    for sql in [
        "INSERT INTO projects (id, name, created_at, updated_at) VALUES ('p-old', 'Old Band', 0, 0)",
        "INSERT INTO events (id, project_id, title, artist_name, starts_at, duration_minutes, \
         price_minor, currency, capacity, seats_taken, status, stream_key, created_at, updated_at) \
         VALUES ('e-old', 'p-old', 'Before tiers', 'Old Band', 4102444800000, 90, 1750, 'EUR', \
         10, 3, 'published', '', 0, 0)",
    ] {
        sqlx::query(sql).execute(&pool).await.unwrap();
    }
    pool.close().await;
    // The server migrates it on start.
    let app = spawn_app_on(url, Options::default()).await;
    let shown = public_view(&app, "e-old").await;
    assert_eq!(shown["price"], 1750);
    assert_eq!(shown["seatsLeft"], 7);
    let tier = the_one_standard_tier(&shown, 1750, 7);
    assert_eq!(seats_taken(&app, "tiers", &tier).await, 3);
    // It sells as before, through its tier.
    let fan = app.fans(1).await.remove(0).1;
    let (status, cart) = add_to_cart(&app, &fan, "e-old", None).await;
    assert_eq!(status, StatusCode::OK, "{cart}");
    assert_eq!(cart["payload"][0]["event"]["price"], 1750);
    pay_cart(&app, &fan).await;
    assert_eq!(seats_taken(&app, "tiers", &tier).await, 4);
    assert_eq!(seats_taken(&app, "events", "e-old").await, 4);
}

#[tokio::test]
async fn a_tier_whose_only_checkout_lapsed_may_change_its_price_and_be_deleted() {
    let app = spawn_app().await;
    let admin = admin(&app).await;
    let event = concert(&app, None, 1000, HOUR_MS).await;
    let tiers = Tiers::of(&app, &admin, &event);
    let vip = tiers.add_id(json!({ "name": "VIP", "price": 5000 })).await;
    let fan = app.fans(1).await.remove(0).1;
    add_to_cart(&app, &fan, &event, Some(&vip)).await;
    let (status, body) = checkout(&app, &fan).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    // While the checkout is open, the tier is being paid for: it stays.
    let (status, _) = tiers.delete(&vip).await;
    assert_eq!(status, StatusCode::CONFLICT);
    app.lapse_pending_checkouts().await;
    let (status, body) = tiers.put(&vip, json!({ "price": 4500 })).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, body) = tiers.delete(&vip).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    // The lapsed order still names the tier it was for, and the cart forgot it.
    let (_, orders) = app.get("/api/v1/purchases/my/", Some(&fan)).await;
    let line = &orders["payload"]["items"][0]["items"][0];
    assert_eq!(line["tier"], "VIP");
    assert_eq!(line["tierId"], Value::Null);
    let (_, cart) = app.get("/api/v1/cart/", Some(&fan)).await;
    assert_eq!(cart["payload"], json!([]));
}
