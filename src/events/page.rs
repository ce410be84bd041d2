//! `/concerts/{id}`: the web app's page, answered with a concert's Open Graph and Twitter
//! card tags so a shared link previews with its picture and title (crawlers run no
//! script). An unknown concert or a draft gets the plain page (the app shows its 404),
//! so nothing of a draft leaks.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use super::image;
use super::model::{EventRow, EventStatus};
use super::store;
use crate::state::AppState;
use crate::web;

/// What the link-preview tags say of a concert.
fn tags(event: &EventRow, public_url: &str) -> web::PreviewTags {
    let public = public_url.trim_end_matches('/');
    let when = crate::db::iso8601(event.details.starts_at);
    let when = format!(
        "{} {} UTC",
        when.get(..10).unwrap_or_default(),
        when.get(11..16).unwrap_or_default()
    );
    let mut description = format!("{} · {when}", event.details.artist_name);
    let text = web::preview_text(&event.details.description);
    if !text.is_empty() {
        description.push_str(" · ");
        description.push_str(&text);
    }
    web::PreviewTags {
        kind: "music.event",
        title: format!("{} — {}", event.details.title, event.details.artist_name),
        description,
        url: format!("{public}/concerts/{}", event.id),
        image: image::public_url(event).map(|path| format!("{public}{path}")),
    }
}

/// `GET /concerts/{id}`: the page for everyone, with the concert's tags when it is public.
pub async fn concert_page(State(app): State<AppState>, Path(id): Path<String>) -> Response {
    let Some(index) = web::index_html(&app.config.web_dir).await else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let event = match store::by_id(&app.db, &id).await {
        Ok(event) => event.filter(|e| e.status != EventStatus::Draft),
        Err(err) => {
            tracing::error!(error = %err, "reading a concert for its page failed");
            None
        }
    };
    let Some(event) = event else {
        return web::page(StatusCode::NOT_FOUND, index);
    };
    let tags = tags(&event, &app.config.public_url);
    match tags.render() {
        Some(rendered) => web::page(
            StatusCode::OK,
            web::inject(&index, &rendered, &event.details.title),
        ),
        None => web::page(StatusCode::OK, index),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const INDEX: &str = "<html><head>\n<title>Encore</title>\n</head><body></body></html>";

    #[test]
    fn hostile_text_is_escaped_in_the_tags_and_the_title() {
        let mut event = EventRow {
            image_version: Some(3),
            image_type: Some("image/png".into()),
            ..EventRow::sample(EventStatus::Published)
        };
        event.details.title = "\"><script>alert(1)</script>".into();
        event.details.artist_name = "A & B".into();
        let tags = tags(&event, "https://encore.example/");
        let page = web::inject(INDEX, &tags.render().unwrap(), &event.details.title);
        assert!(!page.contains("<script>"));
        assert!(page.contains("&quot;&gt;&lt;script&gt;"));
        assert!(page.contains("A &amp; B"));
        assert!(page.contains(
            r#"<meta property="og:image" content="https:&#x2f;&#x2f;encore.example&#x2f;api&#x2f;v1&#x2f;events&#x2f;e1&#x2f;image?v=3" />"#
        ));
        assert!(page.find("og:title").unwrap() < page.find("</head>").unwrap());
        assert!(page.contains("&lt;&#x2f;script&gt; · Encore</title>"));
    }

    #[test]
    fn a_concert_without_a_picture_gets_a_small_card_and_no_image() {
        let event = EventRow::sample(EventStatus::Published);
        let rendered = tags(&event, "http://127.0.0.1:8080").render().unwrap();
        assert!(!rendered.contains("og:image"));
        assert!(rendered.contains(r#"name="twitter:card" content="summary""#));
    }
}
