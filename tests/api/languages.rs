//! Refusals and messages in the reader's language: `Accept-Language` for answers, the
//! account's saved language for what is sent to it.

use encore::accounts::model::Role;
use encore::i18n::{Lang, Msg};
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::*;

/// An `Accept-Language` value for each of the five languages, as browsers send them.
const HEADERS: [(&str, Lang); 5] = [
    ("en-GB,en;q=0.9", Lang::English),
    ("pt-BR,pt;q=0.9,en;q=0.8", Lang::Portuguese),
    ("es-ES,es;q=0.9", Lang::Spanish),
    ("zh-CN,zh;q=0.9", Lang::Chinese),
    ("fa-IR", Lang::Persian),
];

async fn answer(request: reqwest::RequestBuilder, language: Option<&str>) -> (StatusCode, Value) {
    let request = match language {
        Some(value) => request.header("accept-language", value),
        None => request,
    };
    let response = request.send().await.expect("request");
    let status = response.status();
    (status, response.json().await.unwrap_or(Value::Null))
}

fn authorize(app: &TestApp, password: &str) -> reqwest::RequestBuilder {
    let (_, challenge) = pkce();
    app.http
        .post(format!("{}/api/v1/oauth2/authorize", app.url))
        .header("authorization", basic_web())
        .json(&app.authorize_body("fan@example.com", password, &challenge))
}

#[tokio::test]
async fn a_wrong_password_at_authorize_is_refused_in_each_of_the_five_languages() {
    let app = spawn_app().await;
    app.account("fan@example.com", Role::User).await;
    let expected = [
        "Invalid e-mail or password",
        "E-mail ou senha inválidos",
        "Correo electrónico o contraseña no válidos",
        "电子邮件或密码无效",
        "ایمیل یا گذرواژه نامعتبر است",
    ];
    for ((header, _), text) in HEADERS.iter().zip(expected) {
        let (status, body) = answer(authorize(&app, "a wrong password"), Some(header)).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");
        assert_eq!(body["error"], text);
    }
}

#[tokio::test]
async fn english_answers_without_accept_language_or_for_a_language_we_do_not_speak() {
    let app = spawn_app().await;
    app.account("fan@example.com", Role::User).await;
    for header in [None, Some("de-DE,de;q=0.9"), Some("*"), Some("xx")] {
        let (_, body) = answer(authorize(&app, "a wrong password"), header).await;
        assert_eq!(body["error"], "Invalid e-mail or password", "{header:?}");
    }
}

#[tokio::test]
async fn q_values_choose_among_the_languages_not_their_order() {
    let app = spawn_app().await;
    app.account("fan@example.com", Role::User).await;
    for (header, lang) in [
        ("de;q=1, es;q=0.3, fa;q=0.7", Lang::Persian),
        ("fa;q=0, pt-BR;q=0.5", Lang::Portuguese),
        ("en;q=0.2, zh-CN;q=0.9", Lang::Chinese),
    ] {
        let (_, body) = answer(authorize(&app, "a wrong password"), Some(header)).await;
        assert_eq!(
            body["error"],
            Msg::InvalidCredentials.render(lang),
            "{header}"
        );
    }
}

#[tokio::test]
async fn sold_out_is_refused_at_add_to_cart_and_at_checkout_in_the_readers_language() {
    let app = spawn_app().await;
    let fans = app.fans(2).await;
    let ((_, fan), (_, other)) = (&fans[0], &fans[1]);
    let one_seat = concert(&app, Some(1), 500, HOUR_MS).await;
    // In the cart before the last seat goes: checkout finds it sold out.
    let (status, _) = app
        .post(&format!("/api/v1/cart/{one_seat}"), json!({}), Some(fan))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(app.buy(other, &one_seat, CARD_OK).await.0, StatusCode::OK);
    let sold_out = Msg::ConcertSoldOut;
    for (header, lang) in HEADERS {
        let (status, body) = answer(
            app.http
                .post(format!("{}/api/v1/cart/checkout", app.url))
                .bearer_auth(fan)
                .json(&json!({})),
            Some(header),
        )
        .await;
        assert_eq!(status, StatusCode::CONFLICT, "{body}");
        let error = body["error"].as_str().expect("error");
        assert!(error.ends_with(&sold_out.render(lang)), "{error}");
    }
    app.delete(&format!("/api/v1/cart/{one_seat}"), fan).await;
    for (header, lang) in HEADERS {
        let (status, body) = answer(
            app.http
                .post(format!("{}/api/v1/cart/{one_seat}", app.url))
                .bearer_auth(fan)
                .json(&json!({})),
            Some(header),
        )
        .await;
        assert_eq!(status, StatusCode::CONFLICT, "{body}");
        assert_eq!(body["error"], sold_out.render(lang));
    }
    let (_, body) = answer(
        app.http
            .post(format!("{}/api/v1/cart/{one_seat}", app.url))
            .bearer_auth(fan)
            .json(&json!({})),
        Some("es"),
    )
    .await;
    assert_eq!(
        body["error"],
        "Las entradas de este concierto están agotadas."
    );
}

#[tokio::test]
async fn a_concert_no_longer_on_sale_says_so_in_the_readers_language_in_refusals_and_payloads() {
    let app = spawn_app().await;
    let fans = app.fans(1).await;
    let fan = &fans[0].1;
    let closed = concert(&app, None, 500, -25 * HOUR_MS).await;
    for (header, lang) in HEADERS {
        let (status, body) = answer(
            app.http
                .post(format!("{}/api/v1/cart/{closed}", app.url))
                .bearer_auth(fan)
                .json(&json!({})),
            Some(header),
        )
        .await;
        assert_eq!(status, StatusCode::CONFLICT, "{body}");
        assert_eq!(body["error"], Msg::SaleWindowClosed.render(lang));

        let (status, body) = answer(
            app.http
                .get(format!("{}/api/v1/events/{closed}", app.url))
                .bearer_auth(fan),
            Some(header),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(
            body["payload"]["notOnSale"],
            Msg::SaleWindowClosed.render(lang)
        );
    }
}

#[tokio::test]
async fn a_listening_session_whose_access_ended_is_refused_in_the_readers_language() {
    let app = spawn_app().await;
    let fans = app.fans(1).await;
    let fan = &fans[0].1;
    let over = concert(&app, None, 500, -25 * HOUR_MS).await;
    for (header, lang) in HEADERS {
        let (status, body) = answer(
            app.http
                .post(format!("{}/api/v1/stream/{over}/session", app.url))
                .bearer_auth(fan)
                .json(&json!({})),
            Some(header),
        )
        .await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
        assert_eq!(body["error"], Msg::ListeningClosed.render(lang));
    }
}

#[tokio::test]
async fn an_avatar_of_the_wrong_type_is_refused_in_the_readers_language() {
    let app = spawn_app().await;
    let fan = app.account("fan@example.com", Role::User).await;
    let tokens = app.sign_in("fan@example.com").await;
    let expected = [
        "File type is incorrect",
        "O tipo de arquivo está incorreto",
        "El tipo de archivo no es correcto",
        "文件类型不正确",
        "نوع فایل نادرست است",
    ];
    for ((header, _), text) in HEADERS.iter().zip(expected) {
        let part = reqwest::multipart::Part::bytes(b"not a picture".to_vec())
            .file_name("photo.png")
            .mime_str("image/png")
            .unwrap();
        let (status, body) = answer(
            app.http
                .post(format!("{}/api/v1/accounts/{}/avatar", app.url, fan.id))
                .bearer_auth(&tokens.access)
                .multipart(reqwest::multipart::Form::new().part("file", part)),
            Some(header),
        )
        .await;
        assert_eq!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE, "{body}");
        assert_eq!(body["error"], text);
    }
}

#[tokio::test]
async fn rate_limiting_is_explained_in_the_readers_language() {
    let app = spawn_app_with(Options {
        auth_rate_per_minute: 1,
        ..Options::default()
    })
    .await;
    app.account("fan@example.com", Role::User).await;
    assert_eq!(
        answer(authorize(&app, PASSWORD), None).await.0,
        StatusCode::OK
    );
    for (header, lang) in HEADERS {
        let response = authorize(&app, PASSWORD)
            .header("accept-language", header)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
        let seconds: u64 = response.headers()["retry-after"]
            .to_str()
            .unwrap()
            .parse()
            .unwrap();
        let body: Value = response.json().await.unwrap();
        // The seconds in the reader's digits (Persian ones in Persian).
        assert_eq!(
            body["error"],
            Msg::RateLimited.with("seconds", seconds).render(lang)
        );
    }
}

#[tokio::test]
async fn an_unknown_api_path_and_a_malformed_body_are_answered_in_the_readers_language() {
    let app = spawn_app().await;
    for (header, lang) in HEADERS {
        let (status, body) = answer(
            app.http.get(format!("{}/api/v1/no-such-thing", app.url)),
            Some(header),
        )
        .await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        assert_eq!(body["error"], Msg::NoSuchEndpoint.render(lang));

        let (status, body) = answer(
            app.http
                .post(format!("{}/api/v1/accounts/signup", app.url))
                .header("content-type", "application/json")
                .body("{ not json"),
            Some(header),
        )
        .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
        let error = body["error"].as_str().expect("error");
        let prefix = Msg::MalformedBody.render(lang);
        let prefix = prefix.split("{detail}").next().unwrap();
        assert!(error.starts_with(prefix), "{error}");
    }
    let (_, body) = answer(
        app.http.get(format!("{}/api/v1/no-such-thing", app.url)),
        Some("fa-IR"),
    )
    .await;
    assert_eq!(body["error"], "چنین نشانی‌ای در API وجود ندارد.");
}

#[tokio::test]
async fn a_password_reset_email_to_an_account_saved_as_persian_is_in_persian() {
    let app = spawn_app().await;
    let fan = app.account("fan@example.com", Role::User).await;
    let tokens = app.sign_in("fan@example.com").await;
    let (status, body) = app
        .put(
            &format!("/api/v1/accounts/{}", fan.id),
            json!({ "language": "ir" }),
            &tokens.access,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    // Asked for in English: the e-mail still follows the recipient's language.
    app.forgot("fan@example.com").await;
    let mail = app.outbox_message("fan@example.com", "email").await;
    assert_eq!(mail["subject"], "بازنشانی گذرواژهٔ Encore");
    let text = mail["body"].as_str().unwrap();
    assert!(text.contains("درخواست بازنشانی گذرواژهٔ Encore"), "{text}");
    assert!(text.contains("/auth/recover-password?token="), "{text}");
}

#[tokio::test]
async fn an_accounts_language_can_be_changed_and_xx_is_refused_with_422() {
    let app = spawn_app().await;
    let fan = app.account("fan@example.com", Role::User).await;
    let tokens = app.sign_in("fan@example.com").await;
    let (_, me) = app.me(&tokens.access).await;
    assert_eq!(me["payload"][0]["language"], "gb");

    let path = format!("/api/v1/accounts/{}", fan.id);
    let (status, body) = app
        .put(&path, json!({ "language": "cn" }), &tokens.access)
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["payload"]["language"], "cn");
    let (_, me) = app.me(&tokens.access).await;
    assert_eq!(me["payload"][0]["language"], "cn");
    let stored: (String,) = sqlx::query_as("SELECT language FROM accounts WHERE id = $1")
        .bind(&fan.id)
        .fetch_one(app.db())
        .await
        .unwrap();
    assert_eq!(stored.0, "cn");

    let (status, body) = app
        .put(&path, json!({ "language": "xx" }), &tokens.access)
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(
        body["error"],
        "Unknown language \"xx\": use gb, br, es, cn or ir."
    );
    let (_, me) = app.me(&tokens.access).await;
    assert_eq!(me["payload"][0]["language"], "cn");
}

#[tokio::test]
async fn a_sign_up_keeps_the_language_it_was_made_in() {
    let app = spawn_app().await;
    let (status, body) = answer(
        app.http
            .post(format!("{}/api/v1/accounts/signup", app.url))
            .json(&json!({ "login": "new@example.com", "password": PASSWORD })),
        Some("es-MX,es;q=0.9"),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    assert_eq!(body["payload"]["language"], "es");
}
