//! Tickets as gifts (issue 31): a holder gives a ticket not listened with to an e-mail
//! address; its owner claims it through a single-use link; the giver may re-send or take
//! it back before the show; refunds revoke it, claimed or not; and racing claims and
//! take-backs leave exactly one winner and one live ticket, on either database.

use encore::accounts::model::{AccountRow, Role};
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::fixtures::mine;
use crate::helpers::*;

const IN_AN_HOUR: i64 = 3_600_000;

/// A fan who bought a ticket to a new concert starting in `starts_in_ms`: (fan, token,
/// concert, ticket id).
async fn a_holder(app: &TestApp, starts_in_ms: i64) -> (AccountRow, String, String, String) {
    let event = concert(app, None, 1500, starts_in_ms).await;
    let (fan, token) = app.fans(1).await.remove(0);
    assert_eq!(app.buy(&token, &event, CARD_OK).await.0, StatusCode::OK);
    let ticket = mine(app, &token).await[0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    (fan, token, event, ticket)
}

async fn give(app: &TestApp, token: &str, ticket: &str, email: &str) -> (StatusCode, Value) {
    let path = format!("/api/v1/tickets/{ticket}/gift");
    app.post(&path, json!({ "email": email }), Some(token))
        .await
}

/// Give and answer (gift id, the claim token e-mailed, seen after `seen` earlier mails).
pub async fn given(app: &TestApp, token: &str, ticket: &str, email: &str) -> (String, String) {
    // Sent to the address as an account's login would be: lower-cased.
    let to = email.to_lowercase();
    let seen = app.outbox_to(&to, "email").len();
    let (status, gift) = give(app, token, ticket, email).await;
    assert_eq!(status, StatusCode::CREATED, "{gift}");
    let mail = app.outbox_messages_after(&to, "email", seen).await;
    let id = gift["payload"]["id"].as_str().unwrap().to_owned();
    (id, link_token(&mail))
}

pub async fn claim(app: &TestApp, token: &str, link: &str) -> (StatusCode, Value) {
    app.post("/api/v1/gifts/claim", json!({ "token": link }), Some(token))
        .await
}

async fn look(app: &TestApp, link: &str) -> (StatusCode, Value) {
    app.post("/api/v1/gifts/look", json!({ "token": link }), None)
        .await
}

async fn may_listen(app: &TestApp, event: &str, token: &str) -> StatusCode {
    let path = format!("/api/v1/stream/{event}/session");
    app.post(&path, json!({}), Some(token)).await.0
}

/// Live tickets of a concert, held or given.
async fn live_tickets(app: &TestApp, event: &str) -> i64 {
    app.count(
        "SELECT COUNT(*) FROM tickets WHERE event_id = $1 AND revoked_at IS NULL",
        event,
    )
    .await
}

#[tokio::test]
async fn a_gift_moves_the_ticket_to_whoever_claims_its_link_and_the_giver_is_told() {
    let app = spawn_app().await;
    let (giver, giver_token, event, ticket) = a_holder(&app, 5 * 60_000).await;
    assert_eq!(mine(&app, &giver_token).await[0]["canGive"], true);
    let (gift, link) = given(&app, &giver_token, &ticket, "Friend@Example.com").await;

    // Pending: still the giver's to manage, but no longer theirs to listen with.
    let listed = mine(&app, &giver_token).await;
    assert_eq!(listed[0]["gift"]["id"], gift.as_str());
    assert_eq!(listed[0]["gift"]["email"], "friend@example.com");
    assert_eq!(listed[0]["canGive"], false);
    assert_eq!(
        may_listen(&app, &event, &giver_token).await,
        StatusCode::FORBIDDEN
    );

    // Anyone with the link sees what it offers; the link is in no API URL.
    let (status, preview) = look(&app, &link).await;
    assert_eq!(status, StatusCode::OK, "{preview}");
    assert_eq!(preview["payload"]["title"], "Live at the Roundhouse");
    assert_eq!(preview["payload"]["from"], giver.display_name());

    let friend = app.account("friend@example.com", Role::User).await;
    let friend_token = app.session(&friend).await;
    let (status, claimed) = claim(&app, &friend_token, &link).await;
    assert_eq!(status, StatusCode::OK, "{claimed}");
    assert_eq!(claimed["payload"]["status"], "claimed");

    let theirs = mine(&app, &friend_token).await;
    assert_eq!(theirs.len(), 1);
    assert_eq!(theirs[0]["id"], ticket.as_str());
    assert!(mine(&app, &giver_token).await.is_empty());
    assert_eq!(
        may_listen(&app, &event, &friend_token).await,
        StatusCode::OK
    );
    assert_eq!(live_tickets(&app, &event).await, 1);

    // The link is single-use.
    let (status, again) = claim(&app, &app.session(&giver).await, &link).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{again}");

    // The giver is told, in their notifications.
    let (_, page) = app.get("/api/v1/notifications", Some(&giver_token)).await;
    let titles: Vec<&str> = page["payload"]["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|n| n["title"].as_str())
        .collect();
    assert!(
        titles.contains(&"Your gift for Live at the Roundhouse was claimed"),
        "{titles:?}"
    );
}

#[tokio::test]
async fn the_claim_link_is_written_in_the_recipient_s_language_if_known_else_the_giver_s() {
    let app = spawn_app().await;
    let (_, token, _, ticket) = a_holder(&app, IN_AN_HOUR).await;
    let persian = app.account("dorsa@example.com", Role::User).await;
    sqlx::query("UPDATE accounts SET language = 'ir' WHERE id = $1")
        .bind(&persian.id)
        .execute(app.db())
        .await
        .unwrap();
    given(&app, &token, &ticket, "dorsa@example.com").await;
    let mail = app.outbox_message("dorsa@example.com", "email").await;
    assert!(mail["subject"].as_str().unwrap().contains("هدیه"), "{mail}");

    let (_, token, _, ticket) = a_holder(&app, IN_AN_HOUR).await;
    given(&app, &token, &ticket, "nobody-yet@example.com").await;
    let mail = app.outbox_message("nobody-yet@example.com", "email").await;
    assert!(
        mail["subject"]
            .as_str()
            .unwrap()
            .contains("gave you a ticket"),
        "{mail}"
    );
    assert!(
        mail["body"].as_str().unwrap().contains("/claim?token="),
        "{mail}"
    );
}

#[tokio::test]
async fn a_ticket_listened_with_is_not_given_and_the_refusal_says_why() {
    let app = spawn_app().await;
    let (_, token, event, ticket) = a_holder(&app, 5 * 60_000).await;
    app.listen(&event, &token).await;
    assert_eq!(mine(&app, &token).await[0]["canGive"], false);
    let (status, body) = give(&app, &token, &ticket, "friend@example.com").await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("listened"),
        "{body}"
    );
}

#[tokio::test]
async fn someone_else_s_ticket_or_one_given_already_is_not_found() {
    let app = spawn_app().await;
    let (_, token, _, ticket) = a_holder(&app, IN_AN_HOUR).await;
    let (_, stranger) = app.fans(1).await.remove(0);
    assert_eq!(
        give(&app, &stranger, &ticket, "x@example.com").await.0,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        give(&app, &token, &ticket, "not an address").await.0,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    given(&app, &token, &ticket, "friend@example.com").await;
    assert_eq!(
        give(&app, &token, &ticket, "other@example.com").await.0,
        StatusCode::NOT_FOUND
    );
}

#[tokio::test]
async fn a_giver_may_buy_again_while_a_gift_is_pending_and_then_cannot_take_it_back() {
    let app = spawn_app().await;
    let (_, token, event, ticket) = a_holder(&app, IN_AN_HOUR).await;
    let (gift, _) = given(&app, &token, &ticket, "friend@example.com").await;
    assert_eq!(app.buy(&token, &event, CARD_OK).await.0, StatusCode::OK);
    assert_eq!(mine(&app, &token).await.len(), 2);
    let (status, body) = app.delete(&format!("/api/v1/gifts/{gift}"), &token).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("another ticket"),
        "{body}"
    );
}

#[tokio::test]
async fn a_gift_taken_back_before_the_show_is_the_giver_s_again_and_its_link_is_dead() {
    let app = spawn_app().await;
    let (_, token, _, ticket) = a_holder(&app, IN_AN_HOUR).await;
    let (gift, link) = given(&app, &token, &ticket, "friend@example.com").await;
    let (status, body) = app.delete(&format!("/api/v1/gifts/{gift}"), &token).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["payload"]["status"], "takenBack");
    let listed = mine(&app, &token).await;
    assert!(listed[0]["gift"].is_null());
    assert_eq!(listed[0]["canGive"], true);
    assert_eq!(look(&app, &link).await.0, StatusCode::NOT_FOUND);
    let (_, friend) = app.fans(1).await.remove(0);
    assert_eq!(claim(&app, &friend, &link).await.0, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn after_the_show_starts_a_pending_gift_is_not_taken_back_but_stays_claimable() {
    let app = spawn_app().await;
    let (_, token, event, ticket) = a_holder(&app, IN_AN_HOUR).await;
    let (gift, link) = given(&app, &token, &ticket, "friend@example.com").await;
    sqlx::query("UPDATE events SET starts_at = $2 WHERE id = $1")
        .bind(&event)
        .bind(encore::db::now_ms() - 60_000)
        .execute(app.db())
        .await
        .unwrap();
    assert_eq!(mine(&app, &token).await[0]["gift"]["canTakeBack"], false);
    let (status, body) = app.delete(&format!("/api/v1/gifts/{gift}"), &token).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("started"),
        "{body}"
    );
    let (_, friend) = app.fans(1).await.remove(0);
    assert_eq!(claim(&app, &friend, &link).await.0, StatusCode::OK);
}

#[tokio::test]
async fn a_re_sent_gift_claims_with_the_new_link_only() {
    let app = spawn_app().await;
    let (_, token, _, ticket) = a_holder(&app, IN_AN_HOUR).await;
    let (gift, old) = given(&app, &token, &ticket, "friend@example.com").await;
    let (status, body) = app
        .post(
            &format!("/api/v1/gifts/{gift}/resend"),
            json!({}),
            Some(&token),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let new = link_token(
        &app.outbox_messages_after("friend@example.com", "email", 1)
            .await,
    );
    assert_ne!(old, new);
    let (_, friend) = app.fans(1).await.remove(0);
    assert_eq!(claim(&app, &friend, &old).await.0, StatusCode::NOT_FOUND);
    assert_eq!(claim(&app, &friend, &new).await.0, StatusCode::OK);
}

#[tokio::test]
async fn a_claimant_who_holds_a_ticket_already_is_refused_in_their_language() {
    let app = spawn_app().await;
    let (_, token, event, ticket) = a_holder(&app, IN_AN_HOUR).await;
    let (_, link) = given(&app, &token, &ticket, "friend@example.com").await;
    let (_, friend) = app.fans(1).await.remove(0);
    assert_eq!(app.buy(&friend, &event, CARD_OK).await.0, StatusCode::OK);
    let request = app
        .http
        .post(format!("{}/api/v1/gifts/claim", app.url))
        .bearer_auth(&friend)
        .header("accept-language", "fa-IR")
        .json(&json!({ "token": link }));
    let (status, body) = app.send(request).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert!(body["error"].as_str().unwrap().contains("بلیت"), "{body}");
    // The gift is still pending: someone else may claim it.
    let (_, other) = app.fans(1).await.remove(0);
    assert_eq!(claim(&app, &other, &link).await.0, StatusCode::OK);
    assert_eq!(live_tickets(&app, &event).await, 2);
}

#[tokio::test]
async fn a_refund_revokes_a_gifted_ticket_claimed_or_not() {
    let app = spawn_app().await;
    let admin = app.an_admin().await;
    // Claimed: the claimant loses it.
    let (_, token, event, ticket) = a_holder(&app, 5 * 60_000).await;
    let (_, link) = given(&app, &token, &ticket, "friend@example.com").await;
    let (_, friend) = app.fans(1).await.remove(0);
    assert_eq!(claim(&app, &friend, &link).await.0, StatusCode::OK);
    let order = mine(&app, &friend).await[0]["orderId"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(app.refund(&order, &admin).await.0, StatusCode::OK);
    assert!(mine(&app, &friend).await.is_empty());
    assert_eq!(
        may_listen(&app, &event, &friend).await,
        StatusCode::FORBIDDEN
    );
    assert_eq!(live_tickets(&app, &event).await, 0);

    // Pending: the link stops claiming.
    let (_, token, _, ticket) = a_holder(&app, IN_AN_HOUR).await;
    let order = mine(&app, &token).await[0]["orderId"]
        .as_str()
        .unwrap()
        .to_owned();
    let (_, link) = given(&app, &token, &ticket, "pal@example.com").await;
    assert_eq!(app.refund(&order, &admin).await.0, StatusCode::OK);
    assert_eq!(look(&app, &link).await.0, StatusCode::NOT_FOUND);
    assert_eq!(claim(&app, &friend, &link).await.0, StatusCode::NOT_FOUND);
    let status: (String,) = sqlx::query_as("SELECT status FROM ticket_gifts WHERE email = $1")
        .bind("pal@example.com")
        .fetch_one(app.db())
        .await
        .unwrap();
    assert_eq!(status.0, "revoked");
}

#[tokio::test]
async fn twenty_racing_claims_of_one_gift_leave_one_holder() {
    let app = spawn_app().await;
    let (_, token, event, ticket) = a_holder(&app, IN_AN_HOUR).await;
    let (_, link) = given(&app, &token, &ticket, "friend@example.com").await;
    let mut racers = tokio::task::JoinSet::new();
    for (_, fan) in app.fans(20).await {
        let (http, url, link) = (app.http.clone(), app.url.clone(), link.clone());
        racers.spawn(async move {
            let response = http
                .post(format!("{url}/api/v1/gifts/claim"))
                .bearer_auth(fan)
                .json(&json!({ "token": link }))
                .send()
                .await
                .expect("claim");
            response.status()
        });
    }
    let (mut won, mut lost) = (0, 0);
    while let Some(status) = racers.join_next().await {
        match status.unwrap() {
            StatusCode::OK => won += 1,
            StatusCode::NOT_FOUND | StatusCode::CONFLICT => lost += 1,
            other => panic!("unexpected {other}"),
        }
    }
    assert_eq!((won, lost), (1, 19));
    assert_eq!(live_tickets(&app, &event).await, 1);
    assert_eq!(
        app.count(
            "SELECT COUNT(*) FROM ticket_gifts WHERE ticket_id = $1 AND status = 'claimed'",
            &ticket
        )
        .await,
        1
    );
}

#[tokio::test]
async fn a_claim_racing_a_take_back_has_one_winner() {
    let app = spawn_app().await;
    for _ in 0..5 {
        let (giver, token, event, ticket) = a_holder(&app, IN_AN_HOUR).await;
        let (gift, link) = given(&app, &token, &ticket, "friend@example.com").await;
        let (_, friend) = app.fans(1).await.remove(0);
        let path = format!("/api/v1/gifts/{gift}");
        let take_back = app.delete(&path, &token);
        let claimed = claim(&app, &friend, &link);
        let ((back, _), (won, _)) = tokio::join!(take_back, claimed);
        assert!(
            (back == StatusCode::OK) != (won == StatusCode::OK),
            "take back {back}, claim {won}"
        );
        assert_eq!(live_tickets(&app, &event).await, 1);
        let holder = app
            .count(
                "SELECT COUNT(*) FROM tickets WHERE id = $1 AND given_at IS NULL AND account_id = (SELECT giver_id FROM ticket_gifts WHERE ticket_id = $1)",
                &ticket,
            )
            .await;
        assert_eq!(holder == 1, back == StatusCode::OK, "{}", giver.id);
    }
}
