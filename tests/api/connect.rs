//! Payouts that reach the artist (issue 31), against the local double of Stripe's API:
//! a project onboards one connected account however many ask at once; Stripe's signed
//! `account.updated` keeps its state (a wrong signature is refused); a checkout of its
//! concerts alone is a destination charge carrying the platform's fee, Stripe's own fee
//! is recorded, and the statement counts it as paid out; a refund reverses the transfer.
//! Without Connect, a project's bank details are kept for its members and staff.

use encore::commerce::providers::sign;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::concurrency::{WHSEC, webhook};
use crate::helpers::*;

/// The signing secret of the Connect endpoint (Stripe gives it its own).
const CONNECT_WHSEC: &str = "whsec_connect_endpoint";

async fn connect_app() -> (TestApp, StripeDouble) {
    let stripe = StripeDouble::start().await;
    let app = spawn_app_with(Options {
        stripe_webhook_secret: Some(WHSEC),
        stripe_api: Some(stripe.url),
        stripe_connect: true,
        stripe_connect_webhook_secret: Some(CONNECT_WHSEC),
        platform_fee_percent: Some("10"),
        ..Options::default()
    })
    .await;
    (app, stripe)
}

/// A signed event delivered to the webhook: its answer.
async fn deliver(app: &TestApp, event: &Value) -> (StatusCode, Value) {
    let now = encore::db::now_ms() / 1000;
    webhook(
        app,
        event,
        &sign(WHSEC, &serde_json::to_vec(event).unwrap(), now),
    )
    .await
}

fn account_updated(event_id: &str, account: &str, created: i64, enabled: bool) -> Value {
    json!({ "id": event_id, "type": "account.updated", "created": created,
            "data": { "object": { "id": account, "object": "account",
                                  "charges_enabled": enabled, "payouts_enabled": enabled,
                                  "details_submitted": true } } })
}

/// A member of `project`, signed in: its token.
async fn member_of(app: &TestApp, admin: &str, project: &str) -> String {
    let (fan, token) = app.fans(1).await.remove(0);
    let (status, body) = app
        .post(
            &format!("/api/v1/projects/{project}/members"),
            json!({ "login": fan.login }),
            Some(admin),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    token
}

/// `project` onboarded, its account taking charges: the account's id.
async fn connected(app: &TestApp, token: &str, project: &str) -> String {
    let (status, body) = app
        .post(
            &format!("/api/v1/projects/{project}/payout-account"),
            json!({}),
            Some(token),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let account = body["payload"]["account"]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let now = encore::db::now_ms() / 1000;
    let (status, body) = deliver(app, &account_updated("evt_ready", &account, now, true)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    account
}

#[tokio::test]
async fn a_project_onboards_one_connected_account_however_many_ask_at_once() {
    let (app, stripe) = connect_app().await;
    let admin = app.an_admin().await;
    let event = concert(&app, Some(10), 1000, 48 * HOUR_MS).await;
    let project = app.project_of(&event).await;
    let member = member_of(&app, &admin, &project).await;
    let path = format!("/api/v1/projects/{project}/payout-account");

    let (status, before) = app.get(&path, Some(&member)).await;
    assert_eq!(status, StatusCode::OK, "{before}");
    assert_eq!(
        before["payload"],
        json!({ "projectId": project, "connect": true, "account": null })
    );
    let asks = (0..6).map(|i| {
        let token = if i % 2 == 0 { &member } else { &admin };
        app.post(&path, json!({}), Some(token))
    });
    let answers = futures_util::future::join_all(asks).await;
    let mut accounts: Vec<String> = answers
        .iter()
        .map(|(status, body)| {
            assert_eq!(*status, StatusCode::OK, "{body}");
            body["payload"]["account"]["id"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    accounts.dedup();
    assert_eq!(accounts.len(), 1, "one account: {accounts:?}");
    let account = &accounts[0];
    assert_eq!(
        app.count(
            "SELECT COUNT(*) FROM payout_accounts WHERE project_id = $1",
            &project
        )
        .await,
        1
    );
    let made = stripe.calls_to("/v1/accounts");
    assert!(!made.is_empty() && made.len() <= 6, "{made:?}");
    assert_eq!(form_value(&made[0], "type"), "express");
    assert_eq!(form_value(&made[0], "metadata[project_id]"), project);
    // Each ask is a fresh onboarding link back into the web app.
    let links = stripe.calls_to("/v1/account_links");
    assert_eq!(links.len(), 6);
    assert_eq!(form_value(&links[0], "account"), *account);
    assert_eq!(form_value(&links[0], "type"), "account_onboarding");
    assert_eq!(
        form_value(&links[0], "return_url"),
        format!("{}/statements?project={project}&onboarding=return", app.url)
    );
    assert_eq!(
        answers[0].1["payload"]["url"],
        format!("https://connect.stripe.test/setup/{account}")
    );
    let (_, after) = app.get(&path, Some(&member)).await;
    assert_eq!(
        after["payload"]["account"],
        json!({ "id": account, "chargesEnabled": false, "payoutsEnabled": false,
                "detailsSubmitted": false })
    );

    // Someone else's project, and a server without Connect, are refused.
    let (_, stranger) = app.fans(1).await.remove(0);
    let (status, _) = app.post(&path, json!({}), Some(&stranger)).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let plain = spawn_app().await;
    let plain_admin = plain.an_admin().await;
    let other = plain
        .project_of(&concert(&plain, None, 1000, HOUR_MS).await)
        .await;
    let (status, body) = plain
        .send(
            plain
                .http
                .post(format!(
                    "{}/api/v1/projects/{other}/payout-account",
                    plain.url
                ))
                .bearer_auth(&plain_admin)
                .header("Accept-Language", "fa"),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("پیکربندی نشده"),
        "{body}"
    );
    let (_, state) = plain
        .get(
            &format!("/api/v1/projects/{other}/payout-account"),
            Some(&plain_admin),
        )
        .await;
    assert_eq!(state["payload"]["connect"], false);
}

#[tokio::test]
async fn account_updated_keeps_the_state_and_a_wrong_signature_is_refused() {
    let (app, _stripe) = connect_app().await;
    let admin = app.an_admin().await;
    let project = app
        .project_of(&concert(&app, Some(10), 1000, 48 * HOUR_MS).await)
        .await;
    let path = format!("/api/v1/projects/{project}/payout-account");
    let (_, body) = app.post(&path, json!({}), Some(&admin)).await;
    let account = body["payload"]["account"]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let now = encore::db::now_ms() / 1000;

    // Signed by someone else: refused, nothing changes.
    let forged = account_updated("evt_forged", &account, now, true);
    let bytes = serde_json::to_vec(&forged).unwrap();
    let (status, answer) = webhook(&app, &forged, &sign("whsec_wrong", &bytes, now)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
    let (_, state) = app.get(&path, Some(&admin)).await;
    assert_eq!(state["payload"]["account"]["chargesEnabled"], false);

    let (status, answer) = deliver(&app, &account_updated("evt_on", &account, now, true)).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let (_, state) = app.get(&path, Some(&admin)).await;
    assert_eq!(
        state["payload"]["account"],
        json!({ "id": account, "chargesEnabled": true, "payoutsEnabled": true,
                "detailsSubmitted": true })
    );
    // An older event delivered late changes nothing.
    let (status, _) = deliver(&app, &account_updated("evt_old", &account, now - 60, false)).await;
    assert_eq!(status, StatusCode::OK);
    let (_, state) = app.get(&path, Some(&admin)).await;
    assert_eq!(state["payload"]["account"]["chargesEnabled"], true);
    // A newer one does, signed by the Connect endpoint's own secret.
    let newer = account_updated("evt_off", &account, now + 1, false);
    let signature = sign(CONNECT_WHSEC, &serde_json::to_vec(&newer).unwrap(), now);
    let (status, answer) = webhook(&app, &newer, &signature).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let (_, state) = app.get(&path, Some(&admin)).await;
    assert_eq!(state["payload"]["account"]["chargesEnabled"], false);
}

/// `token`'s cart of `events` checked out through Stripe: (order, the session's form).
async fn stripe_checkout(
    app: &TestApp,
    stripe: &StripeDouble,
    token: &str,
    events: &[&str],
) -> (String, String) {
    for event in events {
        let (status, body) = app
            .post(&format!("/api/v1/cart/{event}"), json!({}), Some(token))
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }
    let (status, body) = app
        .post("/api/v1/cart/checkout", json!({}), Some(token))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let session = stripe.calls_to("/v1/checkout/sessions").pop().unwrap();
    (form_value(&session, "client_reference_id"), session)
}

/// Stripe's confirmation of `order`'s session, paid `amount`.
async fn paid(app: &TestApp, order: &str, amount: i64) {
    let (session,): (String,) = sqlx::query_as("SELECT provider_ref FROM orders WHERE id = $1")
        .bind(order)
        .fetch_one(app.db())
        .await
        .unwrap();
    let event = json!({ "id": format!("evt_paid_{order}"), "type": "checkout.session.completed",
        "data": { "object": { "id": session, "client_reference_id": order,
                              "payment_status": "paid", "payment_intent": format!("pi_{order}"),
                              "amount_total": amount, "currency": "eur" } } });
    let (status, body) = deliver(app, &event).await;
    assert_eq!(status, StatusCode::OK, "{body}");
}

async fn order_money(app: &TestApp, order: &str) -> (Option<String>, i64, i64, String) {
    sqlx::query_as(
        "SELECT connect_account, application_fee_minor, fee_minor, status FROM orders WHERE id = $1",
    )
    .bind(order)
    .fetch_one(app.db())
    .await
    .unwrap()
}

async fn statement_of(app: &TestApp, admin: &str, project: &str) -> (Value, Value) {
    let month = &encore::db::iso8601(encore::db::now_ms())[..7];
    let (status, all) = app
        .get(&format!("/api/v1/statements/{month}"), Some(admin))
        .await;
    assert_eq!(status, StatusCode::OK, "{all}");
    let statement = all["payload"]["statements"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["projectId"] == project)
        .cloned()
        .unwrap_or_else(|| panic!("no statement of {project}: {all}"));
    (statement, all["payload"]["operator"][0].clone())
}

#[tokio::test]
async fn a_destination_charge_carries_the_platform_fee_and_stripes_fee_is_recorded() {
    let (app, stripe) = connect_app().await;
    let admin = app.an_admin().await;
    let event = concert(&app, Some(10), 1999, 48 * HOUR_MS).await;
    let other = concert(&app, Some(10), 1000, 48 * HOUR_MS).await;
    let project = app.project_of(&event).await;
    let account = connected(&app, &admin, &project).await;

    let fans = app.fans(2).await;
    let (order, session) = stripe_checkout(&app, &stripe, &fans[0].1, &[&event]).await;
    assert_eq!(
        form_value(&session, "payment_intent_data[transfer_data][destination]"),
        account
    );
    // 10 % of 19.99, rounded down as the statement rounds it.
    assert_eq!(
        form_value(&session, "payment_intent_data[application_fee_amount]"),
        "199"
    );
    paid(&app, &order, 1999).await;
    assert_eq!(
        order_money(&app, &order).await,
        (
            Some(account.clone()),
            199,
            STRIPE_FEE,
            "fulfilled".to_owned()
        )
    );
    let fee_asked = stripe.calls_to(&format!("/v1/payment_intents/pi_{order}"));
    assert_eq!(fee_asked.len(), 1);
    assert!(
        fee_asked[0].contains("latest_charge.balance_transaction"),
        "{fee_asked:?}"
    );

    // Two projects in one cart: a platform charge, paid out by hand.
    let (mixed, session) = stripe_checkout(&app, &stripe, &fans[1].1, &[&event, &other]).await;
    assert!(!session.contains("transfer_data"), "{session}");
    assert!(!session.contains("application_fee_amount"), "{session}");
    paid(&app, &mixed, 2999).await;
    assert_eq!(order_money(&app, &mixed).await.0, None);

    // Stripe paid the artist 19.99 less 1.99; the platform paid Stripe's fee on it. The
    // mixed order's ticket is owed by hand, less its share of that order's fee.
    let (s, operator) = statement_of(&app, &admin, &project).await;
    assert_eq!(s["ticketSales"], 2 * 1999);
    assert_eq!(s["paidByStripe"], 1999 - 199);
    let mixed_fee_share = encore::statements::model::allocate(STRIPE_FEE, &[1999, 1000])[0];
    assert_eq!(s["paymentFees"], mixed_fee_share);
    assert_eq!(s["platformFee"], 199 + 199);
    assert_eq!(s["owed"], 1999 - mixed_fee_share - 199);
    assert_eq!(
        s["net"].as_i64().unwrap(),
        s["owed"].as_i64().unwrap() + s["paidByStripe"].as_i64().unwrap()
    );
    assert_eq!(operator["connectedPaymentFees"], STRIPE_FEE);
    // Staff cannot record a payout of what Stripe already paid.
    let month = &encore::db::iso8601(encore::db::now_ms())[..7];
    let (status, body) = app
        .post(
            &format!("/api/v1/projects/{project}/payouts"),
            json!({ "period": month, "currency": "EUR", "amount": s["owed"].as_i64().unwrap() + 1 }),
            Some(&admin),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
}

#[tokio::test]
async fn a_refund_of_a_destination_charge_reverses_the_transfer() {
    let (app, stripe) = connect_app().await;
    let admin = app.an_admin().await;
    let event = concert(&app, Some(10), 2000, 48 * HOUR_MS).await;
    let project = app.project_of(&event).await;
    connected(&app, &admin, &project).await;
    let (_, fan) = app.fans(1).await.remove(0);
    let (order, _) = stripe_checkout(&app, &stripe, &fan, &[&event]).await;
    paid(&app, &order, 2000).await;

    let (status, body) = app.refund(&order, &admin).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let refunds = stripe.calls_to("/v1/refunds");
    assert_eq!(refunds.len(), 1, "{refunds:?}");
    assert_eq!(
        form_value(&refunds[0], "payment_intent"),
        format!("pi_{order}")
    );
    assert_eq!(form_value(&refunds[0], "amount"), "2000");
    assert_eq!(form_value(&refunds[0], "reverse_transfer"), "true");
    assert_eq!(form_value(&refunds[0], "refund_application_fee"), "true");

    // Sold and given back in one month: nothing paid, nothing owed, the platform's fee
    // given back.
    let (s, _) = statement_of(&app, &admin, &project).await;
    assert_eq!(
        (&s["ticketSales"], &s["refunds"], &s["platformFee"]),
        (&json!(2000), &json!(2000), &json!(0))
    );
    assert_eq!((&s["paidByStripe"], &s["owed"]), (&json!(0), &json!(0)));
}

/// A tip to a connected project's concert is a destination charge with the platform's
/// fee, as its tickets are; cancelling the live concert gives it back, reversing the
/// transfer, and the statement is square.
#[tokio::test]
async fn a_tip_to_a_connected_project_is_a_destination_charge_given_back_with_its_transfer() {
    let (app, stripe) = connect_app().await;
    let admin = app.an_admin().await;
    // Live in five minutes: a holder may tip from now (the doors are open).
    let event = concert(&app, Some(10), 1000, 5 * 60_000).await;
    let project = app.project_of(&event).await;
    let account = connected(&app, &admin, &project).await;
    let (_, fan) = app.fans(1).await.remove(0);
    let (ticket, _) = stripe_checkout(&app, &stripe, &fan, &[&event]).await;
    paid(&app, &ticket, 1000).await;

    let (status, body) = app
        .post(
            &format!("/api/v1/events/{event}/tips"),
            json!({ "amount": 750, "message": "thanks" }),
            Some(&fan),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let session = stripe.calls_to("/v1/checkout/sessions").pop().unwrap();
    assert_eq!(
        form_value(&session, "payment_intent_data[transfer_data][destination]"),
        account
    );
    assert_eq!(
        form_value(&session, "payment_intent_data[application_fee_amount]"),
        "75"
    );
    let tip = form_value(&session, "client_reference_id");
    paid(&app, &tip, 750).await;
    assert_eq!(
        order_money(&app, &tip).await,
        (
            Some(account.clone()),
            75,
            STRIPE_FEE,
            "fulfilled".to_owned()
        )
    );
    let (s, _) = statement_of(&app, &admin, &project).await;
    assert_eq!((&s["ticketSales"], &s["tips"]), (&json!(1000), &json!(750)));
    assert_eq!(s["paidByStripe"], (1000 - 100) + (750 - 75));

    app.cancel_concert(&event, &admin).await;
    let refunds = stripe.calls_to("/v1/refunds");
    let given_back: Vec<(String, String, String)> = refunds
        .iter()
        .map(|r| {
            (
                form_value(r, "payment_intent"),
                form_value(r, "amount"),
                form_value(r, "reverse_transfer"),
            )
        })
        .collect();
    assert_eq!(
        given_back,
        [
            (format!("pi_{ticket}"), "1000".into(), "true".into()),
            (format!("pi_{tip}"), "750".into(), "true".into()),
        ]
    );
    // All given back in the month: nothing paid by Stripe, nothing owed, no platform fee.
    let (s, _) = statement_of(&app, &admin, &project).await;
    assert_eq!(s["refunds"], 1750, "{s}");
    assert_eq!(
        (&s["platformFee"], &s["paidByStripe"], &s["owed"]),
        (&json!(0), &json!(0), &json!(0)),
        "{s}"
    );
}

#[tokio::test]
async fn a_projects_bank_details_are_kept_for_its_members_and_staff() {
    let app = spawn_app().await;
    let admin = app.an_admin().await;
    let project = app
        .project_of(&concert(&app, None, 1000, HOUR_MS).await)
        .await;
    let member = member_of(&app, &admin, &project).await;
    let path = format!("/api/v1/projects/{project}/bank-details");
    let (status, empty) = app.get(&path, Some(&member)).await;
    assert_eq!(status, StatusCode::OK, "{empty}");
    assert_eq!(empty["payload"]["accountNumber"], "");
    assert_eq!(empty["payload"]["updatedAt"], Value::Null);

    let iban = "DE89 3704 0044 0532 0130 00";
    let (status, saved) = app
        .put(
            &path,
            json!({ "accountHolder": " Ada Band ", "accountNumber": iban, "note": "BIC COBADEFFXXX" }),
            &member,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{saved}");
    assert_eq!(saved["payload"]["accountHolder"], "Ada Band");
    assert_eq!(saved["payload"]["accountNumber"], "•••• 3000");
    // Sealed at rest, never the number itself.
    let (stored,): (String,) =
        sqlx::query_as("SELECT account_number FROM project_bank_details WHERE project_id = $1")
            .bind(&project)
            .fetch_one(app.db())
            .await
            .unwrap();
    assert!(!stored.contains("370400"), "{stored}");
    // Staff read it whole, to pay it.
    let (_, for_staff) = app.get(&path, Some(&admin)).await;
    assert_eq!(
        for_staff["payload"]["accountNumber"],
        "DE89370400440532013000"
    );
    // Sent back masked, the number stays.
    let (status, again) = app
        .put(
            &path,
            json!({ "accountHolder": "Ada Band", "accountNumber": "•••• 3000", "note": "" }),
            &member,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{again}");
    let (_, for_staff) = app.get(&path, Some(&admin)).await;
    assert_eq!(
        for_staff["payload"]["accountNumber"],
        "DE89370400440532013000"
    );
    assert_eq!(for_staff["payload"]["note"], "");

    let (status, body) = app
        .send(
            app.http
                .put(format!("{}{path}", app.url))
                .bearer_auth(&member)
                .header("Accept-Language", "fa")
                .json(&json!({ "accountNumber": "12-3" })),
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    let (_, stranger) = app.fans(1).await.remove(0);
    let (status, _) = app.get(&path, Some(&stranger)).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _) = app
        .put(&path, json!({ "accountHolder": "Thief" }), &stranger)
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
}
