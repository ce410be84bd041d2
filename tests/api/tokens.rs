//! Refresh-token rotation and re-use detection.

use encore::accounts::model::Role;
use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::*;

async fn refresh(app: &TestApp, token: &str) -> (StatusCode, serde_json::Value) {
    let answer = refresh_answer(app, Some(token), None).await;
    (answer.status, answer.body)
}

/// A refresh with the token in the body and/or the refresh cookie.
async fn refresh_answer(app: &TestApp, body_token: Option<&str>, cookie: Option<&str>) -> Answer {
    let mut body = json!({ "grant_type": "refresh_token", "client_id": WEB, "state": "r" });
    if let Some(token) = body_token {
        body["refresh_token"] = json!(token);
    }
    let cookie = cookie.map(|c| format!("encore_refresh={c}"));
    app.oauth_from(&app.http, "token", body, cookie.as_deref())
        .await
}

/// A server with `fan@example.com` signed in: the app and the session's first tokens.
async fn a_signed_in_fan() -> (TestApp, Tokens) {
    let app = spawn_app().await;
    app.account("fan@example.com", Role::User).await;
    let first = app.sign_in("fan@example.com").await;
    (app, first)
}

/// Refresh with `token` in the body: the next tokens, after a 200.
async fn rotated(app: &TestApp, token: &str) -> Tokens {
    let answer = refresh_answer(app, Some(token), None).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    answer.tokens()
}

/// Refresh with `token`, a spent one: refused as reuse.
async fn refused_as_reuse(app: &TestApp, token: &str) {
    let (status, body) = refresh(app, token).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("already used"),
        "{body}"
    );
}

#[tokio::test]
async fn refresh_rotates_and_the_new_tokens_work() {
    let (app, first) = a_signed_in_fan().await;
    let answer = refresh_answer(&app, Some(&first.refresh), None).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    assert_eq!(answer.body["state"], "r");
    let second = answer.tokens();
    assert_ne!(
        second.refresh, first.refresh,
        "a new refresh token every time"
    );
    assert_eq!(app.me(&second.access).await.0, StatusCode::OK);
    let (status, body) = refresh(&app, &second.refresh).await;
    assert_eq!(status, StatusCode::OK, "{body}");
}

#[tokio::test]
async fn reusing_a_spent_refresh_token_revokes_the_whole_family() {
    let (app, first) = a_signed_in_fan().await;
    let second = rotated(&app, &first.refresh).await;
    let third = rotated(&app, &second.refresh).await;
    assert_eq!(app.me(&third.access).await.0, StatusCode::OK);

    // The spent token comes back after its holder moved on (someone copied it): the
    // session ends for everyone, within the retry grace or not.
    refused_as_reuse(&app, &first.refresh).await;
    assert_eq!(
        refresh(&app, &third.refresh).await.0,
        StatusCode::BAD_REQUEST
    );
    assert_eq!(app.me(&third.access).await.0, StatusCode::UNAUTHORIZED);

    // Other sessions of the same account are untouched.
    let other = app.sign_in("fan@example.com").await;
    assert_eq!(app.me(&other.access).await.0, StatusCode::OK);
}

#[tokio::test]
async fn a_refresh_whose_answer_was_lost_is_answered_again_and_the_lost_pair_is_superseded() {
    let (app, first) = a_signed_in_fan().await;
    // Rotated on the server, but the answer never reached the client (a reload cut the
    // request off): the client still holds `first`.
    let lost = rotated(&app, &first.refresh).await;
    let retried = rotated(&app, &first.refresh).await;
    assert_ne!(retried.refresh, lost.refresh, "a pair of its own");
    assert_eq!(app.me(&retried.access).await.0, StatusCode::OK);
    // A retry of the retry (cut off twice) is answered too; one live token remains.
    let last = rotated(&app, &first.refresh).await;
    assert_eq!(
        refresh(&app, &last.refresh).await.0,
        StatusCode::OK,
        "the last answer rotates"
    );

    // A superseded token coming back is reuse: whoever holds it was not the one who lost
    // the answer. The session ends.
    refused_as_reuse(&app, &lost.refresh).await;
    assert_eq!(app.me(&last.access).await.0, StatusCode::UNAUTHORIZED);
    assert_eq!(
        refresh(&app, &retried.refresh).await.0,
        StatusCode::BAD_REQUEST
    );
}

#[tokio::test]
async fn a_spent_refresh_token_presented_after_the_retry_grace_is_reuse() {
    let (app, first) = a_signed_in_fan().await;
    let second = rotated(&app, &first.refresh).await;
    let grace = encore::auth::tokens::REFRESH_RETRY_GRACE_MS as u64;
    tokio::time::sleep(std::time::Duration::from_millis(grace + 500)).await;
    refused_as_reuse(&app, &first.refresh).await;
    assert_eq!(app.me(&second.access).await.0, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn the_web_clients_refresh_token_comes_only_as_an_httponly_strict_cookie() {
    let app = spawn_app().await;
    app.account("fan@example.com", Role::User).await;
    let (code, verifier) = app.code_for("fan@example.com", PASSWORD).await;
    let answer = app.exchange_answer(&code, &verifier).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    assert!(
        answer.body["payload"].get("refresh_token").is_none(),
        "no script sees the refresh token: {}",
        answer.body
    );
    assert!(answer.body["payload"]["access_token"].is_string());
    let set = answer
        .set_cookie("encore_refresh")
        .expect("the refresh cookie");
    for attribute in [
        "HttpOnly",
        "SameSite=Strict",
        "Path=/api/v1/oauth2",
        "Secure",
        "Max-Age=2592000",
    ] {
        assert!(set.contains(attribute), "{attribute} in {set}");
    }
    // The flag the dashboard reads to know it is signed in: not secret, readable.
    let flag = answer
        .set_cookie("encore_signed_in")
        .expect("the flag cookie");
    assert!(flag.starts_with("encore_signed_in=1;"), "{flag}");
    assert!(
        !flag.contains("HttpOnly") && flag.contains("Path=/;"),
        "{flag}"
    );
    assert!(flag.contains("SameSite=Strict"), "{flag}");
    assert_eq!(
        app.refresh_tokens_hashed(&encore::crypto::token_hash(
            &answer.cookie("encore_refresh").unwrap()
        ))
        .await,
        1,
        "the cookie holds the session's refresh token"
    );
}

#[tokio::test]
async fn a_refresh_with_only_the_cookie_rotates_it_and_a_replayed_cookie_is_cleared() {
    let app = spawn_app().await;
    app.account("fan@example.com", Role::User).await;
    let first = app.sign_in("fan@example.com").await;
    let answer = refresh_answer(&app, None, Some(&first.refresh)).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    assert!(answer.body["payload"].get("refresh_token").is_none());
    let next = answer.cookie("encore_refresh").expect("a rotated cookie");
    assert!(!next.is_empty() && next != first.refresh);
    assert_eq!(app.me(&access_of(&answer.body)).await.0, StatusCode::OK);

    // The holder refreshes on; the first cookie again is reuse: the session ends and the
    // answer clears both cookies.
    let answer = refresh_answer(&app, None, Some(&next)).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    let last = answer.cookie("encore_refresh").expect("a rotated cookie");
    let answer = refresh_answer(&app, None, Some(&first.refresh)).await;
    assert_eq!(answer.status, StatusCode::BAD_REQUEST);
    for name in ["encore_refresh", "encore_signed_in"] {
        let set = answer.set_cookie(name).expect("cleared");
        assert!(
            set.starts_with(&format!("{name}=;")) && set.contains("Max-Age=0"),
            "{set}"
        );
    }
    assert_eq!(
        refresh_answer(&app, None, Some(&last)).await.status,
        StatusCode::BAD_REQUEST
    );
    // Neither in the body nor in a cookie: the field is missing.
    let answer = refresh_answer(&app, None, None).await;
    assert_eq!(answer.status, StatusCode::BAD_REQUEST);
    assert!(
        answer.body["error"]
            .as_str()
            .unwrap()
            .contains("refresh_token")
    );
}

#[tokio::test]
async fn logout_clears_the_refresh_cookie_and_works_with_the_cookie_alone() {
    let app = spawn_app().await;
    app.account("fan@example.com", Role::User).await;
    let tokens = app.sign_in("fan@example.com").await;
    let answer = app.oauth_from(&app.http, "logout", json!({}), None).await;
    assert_eq!(
        answer.status,
        StatusCode::UNAUTHORIZED,
        "neither token nor cookie"
    );
    let response = app
        .http
        .post(format!("{}/api/v1/oauth2/logout", app.url))
        .bearer_auth(&tokens.access)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let cleared: Vec<_> = response
        .headers()
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().unwrap().to_owned())
        .collect();
    assert!(
        cleared
            .iter()
            .any(|c| c.starts_with("encore_refresh=;") && c.contains("Max-Age=0")),
        "{cleared:?}"
    );
    assert!(cleared.iter().any(|c| c.starts_with("encore_signed_in=;")));
    assert_eq!(
        refresh_answer(&app, None, Some(&tokens.refresh))
            .await
            .status,
        StatusCode::BAD_REQUEST
    );

    // An expired access token cannot sign out, the refresh cookie can.
    let tokens = app.sign_in("fan@example.com").await;
    let answer = app
        .oauth_from(
            &app.http,
            "logout",
            json!({}),
            Some(&format!("encore_refresh={}", tokens.refresh)),
        )
        .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    assert!(
        answer
            .set_cookie("encore_refresh")
            .unwrap()
            .contains("Max-Age=0")
    );
    assert_eq!(app.me(&tokens.access).await.0, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn a_client_without_the_cookie_flag_gets_its_refresh_token_in_the_body() {
    let app = spawn_app().await;
    app.account("fan@example.com", Role::User).await;
    app.register_partner().await;
    let (verifier, challenge) = pkce();
    let post = |endpoint: &str, body: serde_json::Value| {
        app.http
            .post(format!("{}/api/v1/oauth2/{endpoint}", app.url))
            .json(&body)
            .send()
    };
    let response = post(
        "authorize",
        json!({ "email": "fan@example.com", "password": PASSWORD, "response_type": "code",
                "redirect_uri": "https://partner.example/cb", "code_challenge": challenge,
                "code_challenge_method": "S256", "client_id": "partner", "client_secret": "s3cret" }),
    )
    .await
    .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let body: serde_json::Value = response.json().await.unwrap();
    let response = post(
        "token",
        json!({ "grant_type": "authorization_code", "code": body["payload"]["code"],
                "redirect_uri": "https://partner.example/cb", "code_verifier": verifier,
                "client_id": "partner", "client_secret": "s3cret" }),
    )
    .await
    .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert!(response.headers().get("set-cookie").is_none(), "no cookies");
    let body: serde_json::Value = response.json().await.unwrap();
    assert!(body["payload"]["refresh_token"].is_string(), "{body}");
}

#[tokio::test]
async fn racing_refreshes_with_one_token_leave_one_live_token() {
    let (app, tokens) = a_signed_in_fan().await;
    let (a, b) = tokio::join!(
        refresh_answer(&app, Some(&tokens.refresh), None),
        refresh_answer(&app, Some(&tokens.refresh), None)
    );
    let statuses = (a.status, b.status);
    // The later of the two reads as a retry of a lost answer: both may be answered, but
    // the one token never forks into two live ones.
    let answered: Vec<String> = [a, b]
        .iter()
        .filter(|answer| answer.status == StatusCode::OK)
        .map(|answer| answer.tokens().refresh)
        .collect();
    assert!(!answered.is_empty(), "one refresh succeeds: {statuses:?}");
    let mut live = 0;
    for token in &answered {
        live += app
            .unspent_refresh_tokens(&encore::crypto::token_hash(token))
            .await;
    }
    assert_eq!(live, 1, "one live token of {answered:?}: {statuses:?}");
}

#[tokio::test]
async fn a_garbage_or_tampered_access_token_is_401() {
    let app = spawn_app().await;
    app.account("fan@example.com", Role::User).await;
    let tokens = app.sign_in("fan@example.com").await;
    let mut tampered = tokens.access.clone();
    tampered.pop();
    tampered.push(if tokens.access.ends_with('A') {
        'B'
    } else {
        'A'
    });
    for token in ["garbage", tampered.as_str()] {
        let (status, body) = app.me(token).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
        assert_eq!(body["success"], false);
    }
    assert_eq!(
        app.get("/api/v1/accounts/userinfo/me", None).await.0,
        StatusCode::UNAUTHORIZED
    );
    // The spec's access-token header works as well as the bearer header.
    let response = app
        .http
        .get(format!("{}/api/v1/accounts/userinfo/me", app.url))
        .header("x-access-token", &tokens.access)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
}
