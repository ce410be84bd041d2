//! An artist's public page: unknown to the public until the project announces a concert,
//! then its picture (set by a member), its text, its concerts and link-preview tags.

use encore::accounts::model::Role;
use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::*;

fn png(width: u32, height: u32) -> Vec<u8> {
    let mut png = Vec::new();
    image::RgbImage::from_fn(width, height, |x, y| {
        image::Rgb([(x * 7 % 256) as u8, (y * 3 % 256) as u8, 200])
    })
    .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
    .unwrap();
    png
}

async fn html(app: &TestApp, path: &str) -> (StatusCode, String) {
    let response = app.get_raw(path).await;
    (response.status(), response.text().await.unwrap())
}

#[tokio::test]
async fn an_artist_shows_once_it_announces_a_concert_with_the_picture_its_member_set() {
    let app = app_with_web().await;
    let admin = app.an_admin().await;
    let (status, project) = app
        .post(
            "/api/v1/projects",
            json!({ "name": "Quiet & Loud", "description": "Two sisters\n\nand a cello." }),
            Some(&admin),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{project}");
    let project = project["payload"]["id"].as_str().unwrap().to_owned();
    let (member, member_tokens) = app.signed_in("cello@example.com", Role::User).await;
    let (status, body) = app
        .post(
            &format!("/api/v1/projects/{project}/members"),
            json!({ "login": member.login }),
            Some(&admin),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, event) = app
        .post(
            "/api/v1/events",
            json!({ "projectId": project, "title": "Unannounced", "artistName": "Quiet & Loud",
                    "startsAt": "2099-06-01T20:00:00Z", "price": 1000 }),
            Some(&admin),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{event}");
    let event = event["payload"]["id"].as_str().unwrap().to_owned();

    // Only a draft: the public knows nothing of the artist, in the reader's language.
    let response = app
        .http
        .get(format!("{}/api/v1/artists/{project}", app.url))
        .header("accept-language", "es")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::NOT_FOUND);
    let body: serde_json::Value = response.json().await.unwrap();
    assert_eq!(body["error"], "Artista no encontrado.", "{body}");
    let (status, page) = html(&app, &format!("/artists/{project}")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(
        !page.contains("og:title") && !page.contains("Quiet"),
        "{page}"
    );

    // A member sets the picture; a fan outside the project may not.
    let (_, fan) = app.a_fan().await;
    let path = format!("/api/v1/projects/{project}/image");
    let (status, body) = app.upload(&path, &fan.access, png(40, 30)).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    let (status, body) = app.upload(&path, &member_tokens.access, png(40, 30)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let image = body["payload"]["image"].as_str().unwrap().to_owned();
    assert!(
        image.starts_with(&format!("/api/v1/artists/{project}/image?v=")),
        "{image}"
    );

    // Announced: the artist, its picture and its concerts are public.
    app.set_event_status(&event, "published").await;
    let (status, artist) = app.get(&format!("/api/v1/artists/{project}"), None).await;
    assert_eq!(status, StatusCode::OK, "{artist}");
    assert_eq!(artist["payload"]["name"], "Quiet & Loud");
    assert_eq!(
        artist["payload"]["description"],
        "Two sisters\n\nand a cello."
    );
    assert_eq!(artist["payload"]["image"], image.as_str());
    let picture = app.get_raw(&image).await;
    assert_eq!(picture.status(), StatusCode::OK);
    assert_eq!(picture.headers()["content-type"], "image/png");
    assert!(
        picture.headers()["cache-control"]
            .to_str()
            .unwrap()
            .contains("immutable")
    );
    let thumb = artist["payload"]["thumbnail"].as_str().unwrap();
    let thumb = app.get_raw(thumb).await;
    assert_eq!(thumb.status(), StatusCode::OK);
    assert_eq!(thumb.headers()["content-type"], "image/jpeg");

    // Its concerts, and no one else's.
    let elsewhere = concert(&app, None, 500, 3 * 3_600_000).await;
    let (status, page) = app
        .get(&format!("/api/v1/events?project={project}"), None)
        .await;
    assert_eq!(status, StatusCode::OK, "{page}");
    let ids: Vec<&str> = page["payload"]["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, [event.as_str()]);
    assert_eq!(page["payload"]["total"], 1);
    let (_, all) = app.get("/api/v1/events", None).await;
    assert_eq!(all["payload"]["total"], 2, "{all}");
    let (_, found) = app
        .get(
            &format!("/api/v1/events?project={project}&search=nothing"),
            None,
        )
        .await;
    assert_eq!(found["payload"]["total"], 0, "the filters combine");
    assert_ne!(elsewhere, event);

    // The shared page previews with the artist's name, text and absolute picture.
    let (status, page) = html(&app, &format!("/artists/{project}")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        page.contains("<div id=\"root\"></div>"),
        "the app still loads"
    );
    assert_eq!(meta(&page, "og:title").as_deref(), Some("Quiet & Loud"));
    assert_eq!(
        meta(&page, "og:description").as_deref(),
        Some("Quiet & Loud · Two sisters and a cello.")
    );
    assert_eq!(meta(&page, "og:image"), Some(format!("{}{image}", app.url)));
    assert_eq!(
        meta(&page, "og:url"),
        Some(format!("{}/artists/{project}", app.url))
    );
    assert!(
        page.contains("<title>Quiet &amp; Loud · Encore</title>"),
        "{page}"
    );

    // The project's own view carries the picture for its members.
    let (status, mine) = app
        .get(
            &format!("/api/v1/projects/{project}"),
            Some(&member_tokens.access),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{mine}");
    assert_eq!(mine["payload"]["image"], image.as_str());

    // A new picture is a new URL; the old one still answers, but is not kept for good.
    let (status, body) = app.upload(&path, &admin, png(20, 20)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let newer = body["payload"]["image"].as_str().unwrap();
    assert_ne!(newer, image);
    let old = app.get_raw(&image).await;
    assert_eq!(old.status(), StatusCode::OK);
    assert!(
        !old.headers()["cache-control"]
            .to_str()
            .unwrap()
            .contains("immutable")
    );
}

#[tokio::test]
async fn an_unknown_artist_and_a_project_without_a_picture_answer_404() {
    let app = spawn_app().await;
    let (status, body) = app.get("/api/v1/artists/nobody", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    let event = concert(&app, None, 500, 3 * 3_600_000).await;
    let (_, event) = app.get(&format!("/api/v1/events/{event}"), None).await;
    let project = event["payload"]["projectId"].as_str().unwrap();
    let (status, artist) = app.get(&format!("/api/v1/artists/{project}"), None).await;
    assert_eq!(status, StatusCode::OK, "{artist}");
    assert_eq!(artist["payload"]["image"], serde_json::Value::Null);
    let (status, body) = app
        .get(&format!("/api/v1/artists/{project}/image?size=thumb"), None)
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    assert_eq!(body["error"], "This artist has no picture.");
}
