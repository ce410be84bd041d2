//! Abuse limits: per-IP buckets and progressive sign-in throttles per account and source,
//! all 429 with Retry-After.

use encore::accounts::model::Role;
use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::*;

#[tokio::test]
async fn authorize_is_limited_per_ip_with_retry_after() {
    let app = spawn_app_with(Options {
        auth_rate_per_minute: 3,
        ..Options::default()
    })
    .await;
    app.account("fan@example.com", Role::User).await;
    let (_, challenge) = pkce();
    let body = app.authorize_body("fan@example.com", PASSWORD, &challenge);
    for _ in 0..3 {
        assert_eq!(app.oauth("authorize", body.clone()).await.0, StatusCode::OK);
    }
    let response = app
        .http
        .post(format!("{}/api/v1/oauth2/authorize", app.url))
        .header("authorization", basic_web())
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
    let retry: u64 = response.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=60).contains(&retry), "{retry}");
    let answer: serde_json::Value = response.json().await.unwrap();
    assert_eq!(answer["success"], false);
    assert_eq!(answer["state"], "s-123");
    // Other endpoints have their own buckets.
    app.forgot("fan@example.com").await;
}

#[tokio::test]
async fn register_forgot_and_token_are_limited_per_ip() {
    let app = spawn_app_with(Options {
        auth_rate_per_minute: 2,
        ..Options::default()
    })
    .await;
    for (endpoint, body) in [
        (
            "register",
            json!({ "email": "x@example.com", "password": "short", "client_id": WEB }),
        ),
        (
            "forgot",
            json!({ "email": "x@example.com", "client_id": WEB }),
        ),
        (
            "token",
            json!({ "grant_type": "refresh_token", "refresh_token": "nope", "client_id": WEB }),
        ),
    ] {
        for _ in 0..2 {
            assert_ne!(
                app.oauth(endpoint, body.clone()).await.0,
                StatusCode::TOO_MANY_REQUESTS
            );
        }
        assert_eq!(
            app.oauth(endpoint, body.clone()).await.0,
            StatusCode::TOO_MANY_REQUESTS,
            "{endpoint}"
        );
    }
}

/// authorize from `client` (with a `Cookie` header when given).
async fn try_password(
    app: &TestApp,
    client: &reqwest::Client,
    password: &str,
    cookie: Option<&str>,
) -> Answer {
    let (_, challenge) = pkce();
    app.oauth_from(
        client,
        "authorize",
        app.authorize_body("fan@example.com", password, &challenge),
        cookie,
    )
    .await
}

const WRONG: &str = "not my password";

#[tokio::test]
async fn an_attackers_wrong_passwords_from_one_address_do_not_lock_the_owner_out() {
    let app = spawn_app().await;
    app.account("fan@example.com", Role::User).await;
    let attacker = app.client_from(2);
    let mut refused = 0;
    for _ in 0..12 {
        let answer = try_password(&app, &attacker, WRONG, None).await;
        assert_ne!(answer.status, StatusCode::OK);
        refused += usize::from(answer.status == StatusCode::TOO_MANY_REQUESTS);
    }
    assert!(refused >= 5, "the attacker's address is slowed down");
    // The owner, from another address and on a device never seen before, gets in.
    let owner = app.client_from(3);
    let answer = try_password(&app, &owner, PASSWORD, None).await;
    assert_eq!(answer.status, StatusCode::OK, "{:?}", answer.body);
    app.sign_in("fan@example.com").await;
}

#[tokio::test]
async fn one_address_is_slowed_progressively_with_a_growing_retry_after() {
    use std::time::{Duration, Instant};
    let app = spawn_app().await;
    app.account("fan@example.com", Role::User).await;
    let client = app.client_from(2);
    // Five free failures; the fifth blocks the address for 1 s, every further one for
    // twice as long as the one before.
    for _ in 0..5 {
        let answer = try_password(&app, &client, WRONG, None).await;
        assert_eq!(answer.status, StatusCode::UNAUTHORIZED, "{:?}", answer.body);
    }
    // The 2, 4 and 8 s blocks are probed (the 1 s one is too short to be sure of reaching
    // it on a loaded machine). No upper bound on any wall-clock time: the block the
    // server announces is checked against the times measured around it, which only
    // widen under load, and every wait is a sleep, only ever longer than asked.
    // The 1 s block is over after this: it started before the fifth answer.
    let mut rest = Duration::from_millis(1100);
    for seconds in [2u64, 4, 8] {
        tokio::time::sleep(rest).await;
        let blocked = Instant::now();
        let answer = try_password(&app, &client, WRONG, None).await;
        assert_eq!(answer.status, StatusCode::UNAUTHORIZED, "{:?}", answer.body);
        let wrong_answered = blocked.elapsed();
        // Refused while blocked, even with the right password: no guess is checked.
        let probe = Instant::now();
        let answer = try_password(&app, &client, PASSWORD, None).await;
        let probe_answered = probe.elapsed();
        assert_eq!(
            answer.status,
            StatusCode::TOO_MANY_REQUESTS,
            "{seconds} s block, probed {:?} after the failure: {:?}",
            blocked.elapsed(),
            answer.body
        );
        assert_eq!(answer.body["state"], "s-123");
        let wait = answer.retry_after().expect("Retry-After");
        assert!(wait >= 1, "Retry-After {wait}");
        // The server blocked from some moment while the failure was handled until
        // `until`, and answered the probe with `wait` = ceil((until - now) / 1 s) at
        // some moment while it was handled: the block's length lies in (lowest, highest]
        // (give or take the server's millisecond clock).
        let since_probe = probe - blocked;
        let ms = Duration::from_millis(2);
        let lowest =
            (since_probe + Duration::from_secs(wait - 1)).saturating_sub(wrong_answered + ms);
        let highest = since_probe + probe_answered + Duration::from_secs(wait) + ms;
        let block = Duration::from_secs(seconds);
        assert!(
            lowest < block && block <= highest,
            "Retry-After {wait} s does not fit a {seconds} s block: it lasted between \
             {lowest:?} and {highest:?}"
        );
        // Over after this: it ends at most `wait` after the probe was answered.
        rest = Duration::from_secs(wait) + Duration::from_millis(100);
    }
    // Another account from the same address is not slowed.
    app.account("other@example.com", Role::User).await;
    let (_, challenge) = pkce();
    let answer = app
        .oauth_from(
            &client,
            "authorize",
            app.authorize_body("other@example.com", PASSWORD, &challenge),
            None,
        )
        .await;
    assert_eq!(answer.status, StatusCode::OK);
}

/// A server that locks an account after four failed passwords an hour, and the fan.
async fn a_fan_locked_after_four_failures() -> TestApp {
    let app = spawn_app_with(Options {
        account_failures_per_hour: 4,
        ..Options::default()
    })
    .await;
    app.account("fan@example.com", Role::User).await;
    app
}

#[tokio::test]
async fn a_known_device_still_signs_in_while_unknown_sources_are_locked_out() {
    let app = a_fan_locked_after_four_failures().await;
    app.account("other@example.com", Role::User).await;
    let home = app.client_from(1);
    let first = try_password(&app, &home, PASSWORD, None).await;
    assert_eq!(first.status, StatusCode::OK);
    let set = first.set_cookie("encore_device").expect("a device cookie");
    for attribute in [
        "HttpOnly",
        "SameSite=Strict",
        "Path=/api/v1/oauth2",
        "Secure",
    ] {
        assert!(set.contains(attribute), "{attribute} in {set}");
    }
    let device = format!("encore_device={}", first.cookie("encore_device").unwrap());

    // A distributed guess: two addresses, two wrong passwords each, fill the account's
    // allowance for unknown devices.
    for octet in [2, 3] {
        let attacker = app.client_from(octet);
        for _ in 0..2 {
            let answer = try_password(&app, &attacker, WRONG, None).await;
            assert_eq!(answer.status, StatusCode::UNAUTHORIZED);
        }
    }
    // Now no unknown device gets to try, not even with the right password...
    let stranger = app.client_from(4);
    let answer = try_password(&app, &stranger, PASSWORD, None).await;
    assert_eq!(
        answer.status,
        StatusCode::TOO_MANY_REQUESTS,
        "{:?}",
        answer.body
    );
    let answer = try_password(&app, &home, PASSWORD, None).await;
    assert_eq!(
        answer.status,
        StatusCode::TOO_MANY_REQUESTS,
        "no cookie, no trust"
    );
    // ...nor one with a forged device cookie or one of another account...
    let forged = format!("{}x", device);
    let answer = try_password(&app, &home, PASSWORD, Some(&forged)).await;
    assert_eq!(answer.status, StatusCode::TOO_MANY_REQUESTS);
    let (_, challenge) = pkce();
    let others = app
        .oauth_from(
            &home,
            "authorize",
            app.authorize_body("other@example.com", PASSWORD, &challenge),
            None,
        )
        .await;
    let others = format!("encore_device={}", others.cookie("encore_device").unwrap());
    let answer = try_password(&app, &home, PASSWORD, Some(&others)).await;
    assert_eq!(answer.status, StatusCode::TOO_MANY_REQUESTS);
    // ...but the owner's known device does, from any address.
    let answer = try_password(&app, &stranger, PASSWORD, Some(&device)).await;
    assert_eq!(answer.status, StatusCode::OK, "{:?}", answer.body);
    // Its own wrong passwords are counted apart, for that device only.
    for _ in 0..5 {
        let answer = try_password(&app, &home, WRONG, Some(&device)).await;
        assert_eq!(answer.status, StatusCode::UNAUTHORIZED);
    }
    let answer = try_password(&app, &home, PASSWORD, Some(&device)).await;
    assert_eq!(answer.status, StatusCode::TOO_MANY_REQUESTS);
}

#[tokio::test]
async fn a_password_reset_through_the_emailed_link_clears_the_accounts_throttles() {
    let app = a_fan_locked_after_four_failures().await;
    let client = app.client_from(2);
    for _ in 0..5 {
        try_password(&app, &client, WRONG, None).await;
    }
    assert_eq!(
        try_password(&app, &client, PASSWORD, None).await.status,
        StatusCode::TOO_MANY_REQUESTS
    );
    app.forgot("fan@example.com").await;
    let token = link_token(&app.outbox_message("fan@example.com", "email").await);
    let (status, body) = app
        .oauth(
            "reset",
            json!({ "token": token, "password": "a brand new passphrase", "client_id": WEB }),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let answer = try_password(&app, &client, "a brand new passphrase", None).await;
    assert_eq!(answer.status, StatusCode::OK, "{:?}", answer.body);
}

#[tokio::test]
async fn both_sign_up_routes_share_one_quota_per_address() {
    let app = spawn_app_with(Options {
        auth_rate_per_minute: 3,
        ..Options::default()
    })
    .await;
    for n in 0..3 {
        let (status, body) = app
            .post(
                "/api/v1/accounts/signup",
                json!({ "login": format!("fan{n}@example.com"), "password": PASSWORD }),
                None,
            )
            .await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
    }
    let response = app
        .http
        .post(format!("{}/api/v1/accounts/signup", app.url))
        .json(&json!({ "login": "one.more@example.com", "password": PASSWORD }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
    assert!(response.headers().contains_key("retry-after"));
    // The OAuth route counts against the same quota: no second allowance there.
    let (status, _) = app
        .oauth(
            "register",
            json!({ "email": "other@example.com", "password": PASSWORD, "client_id": WEB }),
        )
        .await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(
        app.count("SELECT COUNT(*) FROM accounts WHERE login <> $1", "")
            .await,
        3
    );
}
