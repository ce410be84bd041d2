//! Security issue 11, finding 9 (SMS pumping: country allow-list, per-number and global
//! caps) and finding 14 (uploads re-encoded and decoded under limits; a draft's image
//! only for those who may see the draft).

use encore::accounts::model::Role;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::*;

// ------------------------------------------------------------------------------ SMS

const UK: &str = "+447700900123";
const US: &str = "+15550100777";

/// A signed-in user with a verified e-mail: what may receive codes.
async fn user(app: &TestApp, email: &str) -> (String, String) {
    let account = app.account(email, Role::User).await;
    (account.id, app.sign_in(email).await.access)
}

async fn start_phone_change(
    app: &TestApp,
    who: &(String, String),
    phone: &str,
) -> (StatusCode, Value, Option<String>) {
    let response = app
        .http
        .post(format!("{}/api/v1/accounts/{}/phone", app.url, who.0))
        .bearer_auth(&who.1)
        .json(&json!({ "phone": phone, "currentPassword": PASSWORD }))
        .send()
        .await
        .unwrap();
    let retry_after = response
        .headers()
        .get("retry-after")
        .map(|v| v.to_str().unwrap().to_owned());
    (
        response.status(),
        response.json().await.unwrap(),
        retry_after,
    )
}

async fn pending_codes(app: &TestApp, account_id: &str) -> i64 {
    app.count(
        "SELECT COUNT(*) FROM phone_verifications WHERE account_id = $1",
        account_id,
    )
    .await
}

/// Let queued sends reach the outbox before counting what went out.
async fn settle() {
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
}

#[tokio::test]
async fn the_fourth_sms_to_one_number_within_an_hour_is_refused_even_from_other_accounts() {
    let app = spawn_app().await;
    for n in 0..3 {
        let who = user(&app, &format!("fan{n}@example.com")).await;
        let (status, body, _) = start_phone_change(&app, &who, UK).await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }
    let fourth = user(&app, "fan3@example.com").await;
    let (status, body, retry_after) = start_phone_change(&app, &fourth, UK).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
    let retry_after: u64 = retry_after.expect("Retry-After").parse().unwrap();
    assert!((1..=3600).contains(&retry_after), "{retry_after}");
    assert!(
        body["error"].as_str().unwrap().contains("this number"),
        "{body}"
    );
    assert_eq!(pending_codes(&app, &fourth.0).await, 0, "no code stored");
    settle().await;
    assert_eq!(app.outbox_to(UK, "sms").len(), 3);
    // Another number is not affected.
    let (status, body, _) = start_phone_change(&app, &fourth, US).await;
    assert_eq!(status, StatusCode::OK, "{body}");
}

#[tokio::test]
async fn a_number_outside_the_country_allow_list_is_refused_at_phone_change() {
    let app = spawn_app_with(Options {
        sms_countries: Some("GB,BR"),
        ..Options::default()
    })
    .await;
    let who = user(&app, "fan@example.com").await;
    let (status, body, _) = start_phone_change(&app, &who, US).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(
        body["error"],
        "Text messages cannot be sent to this country. Use a number from another country."
    );
    assert_eq!(pending_codes(&app, &who.0).await, 0, "no code stored");
    let (status, body, _) = start_phone_change(&app, &who, UK).await;
    assert_eq!(status, StatusCode::OK, "{body}");
}

#[tokio::test]
async fn a_number_outside_the_country_allow_list_is_refused_at_associate_without_spending_the_link()
{
    let app = spawn_app_with(Options {
        sms_countries: Some("GB,BR"),
        ..Options::default()
    })
    .await;
    // Enrolment at sign-in: refused, and the challenge holds no code.
    app.account_with("mfa@example.com", Role::User, None, true)
        .await;
    let pending = e108(&app, "mfa@example.com").await;
    // Enrolment takes the link e-mailed to the owner (finding 6).
    let (status, _) = associate_in(&app, &pending, UK, None, "es").await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let link = link_token(&app.outbox_message("mfa@example.com", "email").await);
    let (status, body) = associate_in(&app, &pending, US, Some(&link), "es").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        body["error"],
        encore::i18n::Msg::SmsCountryNotAllowed.render(encore::i18n::Lang::Spanish)
    );
    let (codes,): (i64,) = sqlx::query_as(
        "SELECT COUNT(*) FROM mfa_challenges WHERE otp_hash IS NOT NULL OR pending_phone IS NOT NULL",
    )
    .fetch_one(app.db())
    .await
    .unwrap();
    assert_eq!(codes, 0, "no challenge code saved for an SMS not sent");
    settle().await;
    assert!(app.outbox_to(US, "sms").is_empty());
    // The refused number did not spend the link: another number may use it.
    let (status, _) = associate_in(&app, &pending, UK, Some(&link), "es").await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn the_server_wide_sms_cap_refuses_once_reached_whatever_the_number() {
    let app = spawn_app_with(Options {
        sms_per_hour: Some(2),
        ..Options::default()
    })
    .await;
    let numbers = ["+447700900001", "+447700900002", "+447700900003"];
    for (n, phone) in numbers.iter().enumerate().take(2) {
        let who = user(&app, &format!("fan{n}@example.com")).await;
        let (status, body, _) = start_phone_change(&app, &who, phone).await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }
    let third = user(&app, "fan2@example.com").await;
    let (status, body, retry_after) = start_phone_change(&app, &third, numbers[2]).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
    assert!(retry_after.is_some());
    assert_eq!(pending_codes(&app, &third.0).await, 0);
    settle().await;
    assert!(app.outbox_to(numbers[2], "sms").is_empty());
}

// --------------------------------------------------------------------------- uploads

/// A concert (a draft) and a staff token that manages it.
async fn draft_concert(app: &TestApp) -> (String, String) {
    app.account("admin@example.com", Role::Admin).await;
    let admin = app.sign_in("admin@example.com").await.access;
    let project = app.the_testers(&admin).await;
    let (status, event) = app
        .post(
            "/api/v1/events",
            json!({
                "projectId": project, "title": "Opening Night",
                "artistName": "The Testers", "startsAt": "2099-06-01T20:00:00Z", "price": 1500,
            }),
            Some(&admin),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{event}");
    (event["payload"]["id"].as_str().unwrap().to_owned(), admin)
}

/// [`draft_concert`] with a 600×400 PNG uploaded as its image by its manager.
async fn a_draft_with_a_photo(app: &TestApp) -> (String, String) {
    let (event, admin) = draft_concert(app).await;
    let mut png = Vec::new();
    photo(600, 400)
        .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .unwrap();
    let (status, body) = app
        .upload(&format!("/api/v1/events/{event}/image"), &admin, png)
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    (event, admin)
}

async fn fetch(app: &TestApp, path: &str, token: Option<&str>) -> reqwest::Response {
    let mut request = app.http.get(format!("{}{path}", app.url));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    request.send().await.unwrap()
}

/// Upload `bytes` as a concert image and as the admin's avatar; answer what each serves.
async fn round_trip(bytes: Vec<u8>) -> Vec<(String, Vec<u8>)> {
    let app = spawn_app().await;
    let (event, admin) = draft_concert(&app).await;
    let (status, body) = app
        .upload(
            &format!("/api/v1/events/{event}/image"),
            &admin,
            bytes.clone(),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let image = body["payload"]["image"].as_str().unwrap().to_owned();
    let (_, me) = app.me(&admin).await;
    let id = me["payload"][0]["id"].as_str().unwrap().to_owned();
    let (status, body) = app
        .upload(&format!("/api/v1/accounts/{id}/avatar"), &admin, bytes)
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let avatar = body["payload"]["avatar"].as_str().unwrap().to_owned();
    let mut served = Vec::new();
    for path in [image, avatar] {
        let response = fetch(&app, &path, Some(&admin)).await;
        assert_eq!(response.status(), StatusCode::OK, "{path}");
        let media_type = response.headers()["content-type"]
            .to_str()
            .unwrap()
            .to_owned();
        served.push((media_type, response.bytes().await.unwrap().to_vec()));
    }
    served
}

fn photo(width: u32, height: u32) -> image::RgbImage {
    image::RgbImage::from_fn(width, height, |x, y| {
        image::Rgb([(x * 3 % 256) as u8, (y * 5 % 256) as u8, 90])
    })
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

#[tokio::test]
async fn an_uploaded_jpeg_comes_back_re_encoded_without_its_exif() {
    let mut jpeg = Vec::new();
    photo(64, 48)
        .write_to(
            &mut std::io::Cursor::new(&mut jpeg),
            image::ImageFormat::Jpeg,
        )
        .unwrap();
    // An APP1 Exif segment right after SOI, carrying a tell-tale "GPS" note.
    let mut tiff = b"Exif\0\0MM\0\x2a\0\0\0\x08\0\0".to_vec();
    tiff.extend_from_slice(b"GPS 51.5007N 0.1246W home of the uploader");
    let mut app1 = vec![0xFF, 0xE1];
    app1.extend_from_slice(&((tiff.len() + 2) as u16).to_be_bytes());
    app1.extend_from_slice(&tiff);
    let with_exif: Vec<u8> = [&jpeg[..2], &app1[..], &jpeg[2..]].concat();
    assert!(image::load_from_memory(&with_exif).is_ok(), "a valid JPEG");

    for (media_type, bytes) in round_trip(with_exif).await {
        assert_eq!(media_type, "image/jpeg");
        assert!(!contains(&bytes, b"Exif"), "EXIF kept");
        assert!(!contains(&bytes, b"home of the uploader"), "EXIF kept");
        let decoded = image::load_from_memory(&bytes).unwrap();
        assert_eq!((decoded.width(), decoded.height()), (64, 48));
    }
}

#[tokio::test]
async fn bytes_appended_after_a_pngs_end_are_neither_stored_nor_served() {
    let mut png = Vec::new();
    photo(40, 30)
        .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .unwrap();
    let payload = b"PK\x03\x04<?php system($_GET['c']); ?><script>alert(1)</script>";
    let polyglot = [&png[..], &payload[..]].concat();

    for (media_type, bytes) in round_trip(polyglot).await {
        assert_eq!(media_type, "image/png");
        assert!(!contains(&bytes, b"<?php"), "trailing payload kept");
        assert!(!contains(&bytes, b"<script>"), "trailing payload kept");
        assert!(bytes.ends_with(&[0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]));
        let decoded = image::load_from_memory(&bytes).unwrap().to_rgb8();
        assert_eq!(decoded, photo(40, 30), "the pixels survive");
    }
}

fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = 0xFFFF_FFFFu32;
    for &byte in bytes {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

fn chunk(kind: &[u8; 4], data: &[u8]) -> Vec<u8> {
    let mut out = (data.len() as u32).to_be_bytes().to_vec();
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    let crc = crc32(&[&kind[..], data].concat());
    out.extend_from_slice(&crc.to_be_bytes());
    out
}

/// A PNG whose header says 8000×8000 RGBA (245 MB decoded); its data is a stub, so only
/// a check of the header can tell why it is refused.
fn huge_png_header() -> Vec<u8> {
    let mut ihdr = Vec::new();
    ihdr.extend_from_slice(&8000u32.to_be_bytes());
    ihdr.extend_from_slice(&8000u32.to_be_bytes());
    ihdr.extend_from_slice(&[8, 6, 0, 0, 0]);
    [
        &b"\x89PNG\r\n\x1a\n"[..],
        &chunk(b"IHDR", &ihdr),
        &chunk(b"IDAT", &[0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]),
        &chunk(b"IEND", &[]),
    ]
    .concat()
}

#[tokio::test]
async fn an_8000_by_8000_png_is_refused_from_its_header_before_any_decoding() {
    let app = spawn_app().await;
    let (event, admin) = draft_concert(&app).await;
    let (_, me) = app.me(&admin).await;
    let id = me["payload"][0]["id"].as_str().unwrap().to_owned();
    for path in [
        format!("/api/v1/events/{event}/image"),
        format!("/api/v1/accounts/{id}/avatar"),
    ] {
        let (status, body) = app.upload(&path, &admin, huge_png_header()).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{path}: {body}");
        assert_eq!(
            body["error"], "The image is too large: at most 4096 × 4096 pixels (16.7 megapixels).",
            "{path}"
        );
    }
    let (_, shown) = app
        .get(&format!("/api/v1/events/{event}"), Some(&admin))
        .await;
    assert_eq!(shown["payload"]["image"], Value::Null, "nothing stored");
}

// -------------------------------------------------------------------- draft images

#[tokio::test]
async fn a_drafts_image_is_served_only_through_the_signed_url_its_managers_get() {
    let app = spawn_app().await;
    let (event, admin) = a_draft_with_a_photo(&app).await;
    let (_, shown) = app
        .get(&format!("/api/v1/events/{event}"), Some(&admin))
        .await;
    let image = shown["payload"]["image"].as_str().unwrap().to_owned();
    let thumb = shown["payload"]["thumbnail"].as_str().unwrap().to_owned();
    assert!(image.contains("sig="), "{image}");

    // Anyone without the signature: 404, as for a missing concert.
    let (version,) = image
        .split_once("v=")
        .map(|(_, rest)| (rest.split('&').next().unwrap().to_owned(),))
        .unwrap();
    for path in [
        format!("/api/v1/events/{event}/image"),
        format!("/api/v1/events/{event}/image?v={version}"),
        format!("/api/v1/events/{event}/image?v={version}&size=thumb"),
    ] {
        let response = fetch(&app, &path, None).await;
        assert_eq!(response.status(), StatusCode::NOT_FOUND, "{path}");
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["error"], "Concert not found.");
    }
    // Even a signed-in fan with a bearer token.
    let fan = app.fans(1).await;
    let response = fetch(
        &app,
        &format!("/api/v1/events/{event}/image?v={version}"),
        Some(&fan[0].1),
    )
    .await;
    assert_eq!(response.status(), StatusCode::NOT_FOUND);

    // The signed URLs from the API work without a token.
    for path in [&image, &thumb] {
        let response = fetch(&app, path, None).await;
        assert_eq!(response.status(), StatusCode::OK, "{path}");
        let cache = response.headers()["cache-control"]
            .to_str()
            .unwrap()
            .to_owned();
        assert!(cache.starts_with("private"), "{cache}");
    }

    // Tampered: another signature, a later expiry, another event's signature.
    let tampered_sig = {
        let (head, sig) = image.split_once("sig=").unwrap();
        let mut sig = sig.to_owned();
        let flipped = if sig.starts_with('A') { "B" } else { "A" };
        sig.replace_range(0..1, flipped);
        format!("{head}sig={sig}")
    };
    let later = {
        let exp: i64 = image
            .split_once("exp=")
            .unwrap()
            .1
            .split('&')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        image.replace(&format!("exp={exp}"), &format!("exp={}", exp + 86_400_000))
    };
    for path in [tampered_sig, later] {
        let response = fetch(&app, &path, None).await;
        assert_eq!(response.status(), StatusCode::NOT_FOUND, "{path}");
    }
}

#[tokio::test]
async fn an_expired_image_signature_is_refused_and_a_published_concerts_image_stays_public() {
    let app = spawn_app().await;
    let (event, admin) = a_draft_with_a_photo(&app).await;
    let row = encore::events::store::by_id(app.db(), &event)
        .await
        .unwrap()
        .unwrap();
    let an_hour_ago = encore::db::now_ms() - 3_600_000;
    let expired = encore::events::image::signed_url(&app.state.config, &row, an_hour_ago).unwrap();
    assert_eq!(
        fetch(&app, &expired, None).await.status(),
        StatusCode::NOT_FOUND
    );
    let fresh =
        encore::events::image::signed_url(&app.state.config, &row, encore::db::now_ms()).unwrap();
    assert_eq!(fetch(&app, &fresh, None).await.status(), StatusCode::OK);

    let (status, published) = app
        .post(
            &format!("/api/v1/events/{event}/publish"),
            json!({}),
            Some(&admin),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{published}");
    let image = published["payload"]["image"].as_str().unwrap();
    assert!(!image.contains("sig="), "{image}");
    let (_, public) = app.get(&format!("/api/v1/events/{event}"), None).await;
    for key in ["image", "thumbnail"] {
        let path = public["payload"][key].as_str().unwrap();
        let response = fetch(&app, path, None).await;
        assert_eq!(response.status(), StatusCode::OK, "{path}");
        assert!(
            response.headers()["cache-control"]
                .to_str()
                .unwrap()
                .starts_with("public")
        );
    }
}
