//! Registration and the authorization-code + PKCE sign-in, with each way it must refuse.

use encore::accounts::model::Role;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::*;

/// Register New.Fan@Example.com through the OAuth endpoint: the answer.
async fn register_new_fan(app: &TestApp) -> (StatusCode, Value) {
    app.oauth(
        "register",
        json!({ "email": "New.Fan@Example.com", "password": PASSWORD,
                "code_verifier": pkce().0, "client_id": WEB, "state": "reg-1" }),
    )
    .await
}

#[tokio::test]
async fn register_creates_a_user_with_a_lower_cased_login_without_signing_in() {
    let app = spawn_app().await;
    let (status, body) = register_new_fan(&app).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    assert_eq!(body["success"], true);
    assert_eq!(body["state"], "reg-1");
    assert_eq!(body["payload"]["login"], "new.fan@example.com");
    assert_eq!(body["payload"]["roles"], json!(["user"]));
    assert!(
        body["payload"].get("access_token").is_none(),
        "register does not sign in"
    );
}

#[tokio::test]
async fn register_then_authorize_then_token_signs_in() {
    let app = spawn_app().await;
    assert_eq!(register_new_fan(&app).await.0, StatusCode::CREATED);
    let tokens = app.sign_in("new.fan@example.com").await;
    let (status, me) = app.me(&tokens.access).await;
    assert_eq!(status, StatusCode::OK);
    let first = &me["payload"][0];
    assert_eq!(first["login"], "new.fan@example.com");
    assert_eq!(
        first["enablement"],
        json!({ "enabled": true, "useMFA": false })
    );
    assert_eq!(first["tenantKey"], "encore");
}

#[tokio::test]
async fn the_password_is_stored_as_an_argon2id_hash_and_the_refresh_token_hashed() {
    let app = spawn_app().await;
    assert_eq!(register_new_fan(&app).await.0, StatusCode::CREATED);
    let tokens = app.sign_in("new.fan@example.com").await;
    let hash: (String,) = sqlx::query_as("SELECT password_hash FROM accounts WHERE login = $1")
        .bind("new.fan@example.com")
        .fetch_one(app.db())
        .await
        .unwrap();
    assert!(
        hash.0.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"),
        "{}",
        hash.0
    );
    assert_eq!(
        app.refresh_tokens_hashed(&tokens.refresh).await,
        0,
        "refresh tokens are stored hashed"
    );
}

#[tokio::test]
async fn a_second_register_with_the_same_email_is_409_user_already_exists() {
    let app = spawn_app().await;
    app.account("taken@example.com", Role::User).await;
    let (status, body) = app
        .oauth(
            "register",
            json!({ "email": "TAKEN@example.com", "password": PASSWORD, "client_id": WEB, "state": "x" }),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(body["error"], "User already exists");
    assert_eq!(body["state"], "x");
}

#[tokio::test]
async fn an_existing_email_costs_sign_up_the_same_password_hash_as_a_new_one() {
    let app = spawn_app().await;
    app.account("taken@example.com", Role::User).await;
    let register = |email: &str| json!({ "email": email, "password": PASSWORD, "client_id": WEB, "state": "x" });
    let signup = |email: &str| json!({ "login": email, "password": PASSWORD });
    let before = app.state.passwords.hashes_made();
    assert_eq!(
        app.oauth("register", register("new@example.com")).await.0,
        StatusCode::CREATED
    );
    assert_eq!(app.state.passwords.hashes_made(), before + 1);
    let (status, body) = app.oauth("register", register("taken@example.com")).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(body["error"], "User already exists");
    assert_eq!(
        app.state.passwords.hashes_made(),
        before + 2,
        "the 409 came after the same hashing work as a new account"
    );
    let (status, body) = app
        .post("/api/v1/accounts/signup", signup("taken@example.com"), None)
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(app.state.passwords.hashes_made(), before + 3);
}

#[tokio::test]
async fn register_refuses_short_long_and_common_passwords() {
    let app = spawn_app().await;
    for (password, needle) in [
        ("short", "at least 8"),
        (&"x".repeat(129)[..], "at most 128"),
        ("iloveyou1", "too common"),
    ] {
        let (status, body) = app
            .oauth(
                "register",
                json!({ "email": "p@example.com", "password": password, "client_id": WEB }),
            )
            .await;
        assert_eq!(
            status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{password}: {body}"
        );
        assert!(body["error"].as_str().unwrap().contains(needle), "{body}");
    }
    assert_eq!(
        app.count(
            "SELECT COUNT(*) FROM accounts WHERE login = $1",
            "p@example.com"
        )
        .await,
        0
    );
}

#[tokio::test]
async fn authorize_lower_cases_the_email() {
    let app = spawn_app().await;
    app.account("mixed@example.com", Role::User).await;
    app.sign_in("MiXeD@Example.COM").await;
}

#[tokio::test]
async fn a_wrong_password_or_unknown_account_reads_invalid_email_or_password() {
    let app = spawn_app().await;
    app.account("fan@example.com", Role::User).await;
    let (_, challenge) = pkce();
    for email in ["fan@example.com", "nobody@example.com"] {
        let (status, body) = app
            .oauth(
                "authorize",
                app.authorize_body(email, "not the password", &challenge),
            )
            .await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
        assert_eq!(body["error"], "Invalid e-mail or password");
        assert_eq!(
            body["state"], "s-123",
            "the state is echoed on failures too"
        );
        assert_eq!(body["payload"], serde_json::Value::Null);
    }
}

/// A fan signed in (session cached in memory), then disabled by an admin: the fan's
/// login and tokens.
async fn a_disabled_fan(app: &TestApp) -> (String, Tokens) {
    let admin = app.an_admin().await;
    let (fan, fan_tokens) = app.a_fan().await;
    assert_eq!(
        app.me(&fan_tokens.access).await.0,
        StatusCode::OK,
        "now cached in memory"
    );
    let (status, body) = app
        .put(
            &format!("/api/v1/accounts/{}", fan.id),
            json!({ "enablement": { "enabled": false } }),
            &admin,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["payload"]["enablement"]["enabled"], false);
    (fan.login, fan_tokens)
}

#[tokio::test]
async fn a_disabled_accounts_access_token_stops_working() {
    let app = spawn_app().await;
    let (_, fan) = a_disabled_fan(&app).await;
    assert_eq!(app.me(&fan.access).await.0, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn a_disabled_accounts_refresh_token_is_refused() {
    let app = spawn_app().await;
    let (_, fan) = a_disabled_fan(&app).await;
    let (status, _) = app
        .oauth("token", json!({ "grant_type": "refresh_token", "refresh_token": fan.refresh, "client_id": WEB }))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn a_disabled_account_cannot_sign_in() {
    let app = spawn_app().await;
    let (login, _) = a_disabled_fan(&app).await;
    let (_, challenge) = pkce();
    let (status, body) = app
        .oauth(
            "authorize",
            app.authorize_body(&login, PASSWORD, &challenge),
        )
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert_eq!(body["error"], "This account is disabled.");
}

#[tokio::test]
async fn a_wrong_code_verifier_is_refused() {
    let app = spawn_app().await;
    app.account("fan@example.com", Role::User).await;
    let (code, _) = app.code_for("fan@example.com", PASSWORD).await;
    let (status, body) = app.exchange(&code, &pkce().0).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        body["error"].as_str().unwrap().contains("verifier"),
        "{body}"
    );
    assert_eq!(body["state"], "s-789");
}

#[tokio::test]
async fn a_code_is_single_use_and_its_replay_ends_the_session_it_made() {
    let app = spawn_app().await;
    app.account("fan@example.com", Role::User).await;
    let (code, verifier) = app.code_for("fan@example.com", PASSWORD).await;
    let (status, first) = app.exchange(&code, &verifier).await;
    assert_eq!(status, StatusCode::OK);
    let access = access_of(&first);
    let (status, body) = app.exchange(&code, &verifier).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("already been used")
    );
    assert_eq!(app.me(&access).await.0, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn an_expired_code_is_refused() {
    let app = spawn_app().await;
    app.account("fan@example.com", Role::User).await;
    let (code, verifier) = app.code_for("fan@example.com", PASSWORD).await;
    app.execute("UPDATE auth_codes SET expires_at = expires_at - 61000")
        .await;
    let (status, body) = app.exchange(&code, &verifier).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        body["error"].as_str().unwrap().contains("expired"),
        "{body}"
    );
}

/// A confidential client "partner" registered beside the web client, and a code the web
/// client was given for the fan: the code and its verifier.
async fn a_web_code_beside_a_partner(app: &TestApp) -> (String, String) {
    app.account("fan@example.com", Role::User).await;
    encore::auth::clients::register_confidential(
        app.db(),
        "partner",
        "Partner app",
        "partner-secret",
        &[&app.redirect_uri()],
    )
    .await
    .unwrap();
    app.code_for("fan@example.com", PASSWORD).await
}

#[tokio::test]
async fn a_basic_header_and_a_body_naming_different_clients_are_refused_outright() {
    let app = spawn_app().await;
    let (code, verifier) = a_web_code_beside_a_partner(&app).await;
    let (status, body) = app
        .oauth(
            "token",
            json!({ "grant_type": "authorization_code", "code": code, "redirect_uri": app.redirect_uri(),
                    "code_verifier": verifier, "client_id": "partner", "client_secret": "partner-secret" }),
        )
        .await;
    // The Basic header names encore-web while the body names partner.
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");
}

#[tokio::test]
async fn another_clients_code_is_refused() {
    let app = spawn_app().await;
    let (code, verifier) = a_web_code_beside_a_partner(&app).await;
    let (status, body) = app
        .send_raw_token(json!({ "grant_type": "authorization_code", "code": code,
            "redirect_uri": app.redirect_uri(), "code_verifier": verifier,
            "client_id": "partner", "client_secret": "partner-secret" }))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("another client"),
        "{body}"
    );
}

#[tokio::test]
async fn a_confidential_client_must_present_its_secret() {
    let app = spawn_app().await;
    app.register_partner().await;
    let token_body = |secret: Option<&str>| {
        let mut body =
            json!({ "grant_type": "refresh_token", "refresh_token": "x", "client_id": "partner" });
        if let Some(secret) = secret {
            body["client_secret"] = json!(secret);
        }
        body
    };
    assert_eq!(
        app.send_raw_token(token_body(None)).await.0,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        app.send_raw_token(token_body(Some("wrong"))).await.0,
        StatusCode::UNAUTHORIZED
    );
    // Right secret: the client is accepted and the (bogus) refresh token is what fails.
    assert_eq!(
        app.send_raw_token(token_body(Some("s3cret"))).await.0,
        StatusCode::BAD_REQUEST
    );
}

#[tokio::test]
async fn an_unregistered_redirect_uri_is_refused_at_authorize() {
    let app = spawn_app().await;
    app.account("fan@example.com", Role::User).await;
    let (_, challenge) = pkce();
    let mut body = app.authorize_body("fan@example.com", PASSWORD, &challenge);
    body["redirect_uri"] = json!("https://evil.example/callback");
    let (status, answer) = app.oauth("authorize", body).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(answer["error"].as_str().unwrap().contains("redirect_uri"));
}

#[tokio::test]
async fn a_redirect_uri_other_than_the_codes_is_refused_at_token() {
    let app = spawn_app().await;
    app.account("fan@example.com", Role::User).await;
    let (code, verifier) = app.code_for("fan@example.com", PASSWORD).await;
    let (status, answer) = app
        .oauth(
            "token",
            json!({ "grant_type": "authorization_code", "code": code,
                    "redirect_uri": format!("{}/elsewhere", app.url), "code_verifier": verifier, "client_id": WEB }),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        answer["error"].as_str().unwrap().contains("redirect_uri"),
        "{answer}"
    );
}

#[tokio::test]
async fn the_plain_challenge_method_is_refused() {
    let app = spawn_app().await;
    app.account("fan@example.com", Role::User).await;
    let (verifier, _) = pkce();
    let mut body = app.authorize_body("fan@example.com", PASSWORD, &verifier);
    body["code_challenge_method"] = json!("plain");
    let (status, answer) = app.oauth("authorize", body).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        answer["error"],
        "Only the S256 code challenge method is supported."
    );
}

#[tokio::test]
async fn a_bad_basic_header_is_401() {
    let app = spawn_app().await;
    app.account("fan@example.com", Role::User).await;
    let (_, challenge) = pkce();
    let body = app.authorize_body("fan@example.com", PASSWORD, &challenge);
    use base64::Engine;
    let b64 = |s: &str| base64::engine::general_purpose::STANDARD.encode(s);
    for header in [
        "Basic not*base64".to_owned(),
        format!("Basic {}", b64("no-colon")),
        format!("Basic {}", b64("other-client:")),
        format!("Basic {}", b64("encore-web:a-secret-for-a-public-client")),
        "Bearer something".to_owned(),
    ] {
        let response = app
            .http
            .post(format!("{}/api/v1/oauth2/authorize", app.url))
            .header("authorization", &header)
            .json(&body)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::UNAUTHORIZED, "{header}");
        let answer: serde_json::Value = response.json().await.unwrap();
        assert_eq!(answer["success"], false);
    }
}

#[tokio::test]
async fn form_encoded_oauth_bodies_work_like_json() {
    let app = spawn_app().await;
    app.account("fan@example.com", Role::User).await;
    let (verifier, challenge) = pkce();
    let redirect = app.redirect_uri();
    let response = app
        .http
        .post(format!("{}/api/v1/oauth2/authorize", app.url))
        .header("authorization", basic_web())
        .form(&[
            ("email", "fan@example.com"),
            ("password", PASSWORD),
            ("response_type", "code"),
            ("response_mode", "query"),
            ("scope", "openid profile email"),
            ("redirect_uri", &redirect),
            ("code_challenge", &challenge),
            ("code_challenge_method", "S256"),
            ("client_id", WEB),
            ("state", "form-state"),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let body: serde_json::Value = response.json().await.unwrap();
    assert_eq!(body["state"], "form-state");
    let code = body["payload"]["code"].as_str().unwrap();
    let response = app
        .http
        .post(format!("{}/api/v1/oauth2/token", app.url))
        .form(&[
            ("grant_type", "authorization_code"),
            ("code", code),
            ("redirect_uri", &redirect),
            ("code_verifier", &verifier),
            ("client_id", WEB),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let body: serde_json::Value = response.json().await.unwrap();
    assert_eq!(body["payload"]["token_type"], "Bearer");
}

#[tokio::test]
async fn logout_ends_the_session() {
    let app = spawn_app().await;
    app.account("fan@example.com", Role::User).await;
    let tokens = app.sign_in("fan@example.com").await;
    let (status, body) = app
        .post("/api/v1/oauth2/logout", json!({}), Some(&tokens.access))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(app.me(&tokens.access).await.0, StatusCode::UNAUTHORIZED);
    let (status, _) = app
        .oauth("token", json!({ "grant_type": "refresh_token", "refresh_token": tokens.refresh, "client_id": WEB }))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

impl TestApp {
    /// POST token without the web client's Basic header.
    async fn send_raw_token(&self, body: serde_json::Value) -> (StatusCode, serde_json::Value) {
        let response = self
            .http
            .post(format!("{}/api/v1/oauth2/token", self.url))
            .json(&body)
            .send()
            .await
            .unwrap();
        (response.status(), response.json().await.unwrap_or_default())
    }
}

/// Authorize and exchange with the given redirect URI (instead of the configured one).
async fn sign_in_via(app: &TestApp, email: &str, redirect_uri: &str) -> (StatusCode, Value) {
    let (verifier, challenge) = pkce();
    let mut body = app.authorize_body(email, PASSWORD, &challenge);
    body["redirect_uri"] = json!(redirect_uri);
    let (status, body) = app.oauth("authorize", body).await;
    if status != StatusCode::OK {
        return (status, body);
    }
    let code = body["payload"]["code"].as_str().expect("code");
    app.oauth(
        "token",
        json!({
            "grant_type": "authorization_code", "code": code, "redirect_uri": redirect_uri,
            "code_verifier": verifier, "client_id": WEB, "state": "s",
        }),
    )
    .await
}

#[tokio::test]
async fn on_a_loopback_server_localhost_and_ipv6_loopback_redirects_sign_in() {
    let app = spawn_app().await;
    app.account("fan@example.com", Role::User).await;
    let port = app.url.rsplit(':').next().unwrap().to_owned();
    assert!(app.url.starts_with("http://127.0.0.1:"), "{}", app.url);
    for host in ["localhost", "[::1]"] {
        let redirect = format!("http://{host}:{port}/auth/callback");
        let (status, body) = sign_in_via(&app, "fan@example.com", &redirect).await;
        assert_eq!(status, StatusCode::OK, "{redirect}: {body}");
        assert!(body["payload"]["access_token"].is_string(), "{body}");
    }
}

#[tokio::test]
async fn a_foreign_or_other_port_redirect_is_refused_on_a_loopback_server() {
    let app = spawn_app().await;
    app.account("fan@example.com", Role::User).await;
    let port: u16 = app.url.rsplit(':').next().unwrap().parse().unwrap();
    for redirect in [
        "http://evil.example/auth/callback".to_owned(),
        format!("http://evil.example:{port}/auth/callback"),
        format!("http://localhost:{}/auth/callback", port + 1),
        format!("http://localhost:{port}/elsewhere"),
    ] {
        let (status, body) = sign_in_via(&app, "fan@example.com", &redirect).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{redirect}: {body}");
        assert_eq!(
            body["error"], "The redirect_uri is not registered for this client.",
            "{redirect}"
        );
    }
}
