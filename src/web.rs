//! The built web app: static files, with `index.html` for client-side routes, and the
//! shareable pages (a concert's, an artist's) answered with their link-preview tags.

use std::path::Path;
use std::sync::LazyLock;

use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};

use tower_http::services::{ServeDir, ServeFile};

/// A 200 with index.html (not a 404) for any client route such as `/auth/login`;
/// `.gz` siblings written by the web build are served to clients that accept gzip.
pub fn service(web_dir: &Path) -> ServeDir<ServeFile> {
    ServeDir::new(web_dir)
        .precompressed_gzip()
        .fallback(ServeFile::new(web_dir.join("index.html")))
}

/// The app's `index.html`, read for each shareable page (it is small, and a new web
/// build is served without a restart); `None` when the web app is not built.
pub async fn index_html(web_dir: &Path) -> Option<String> {
    tokio::fs::read_to_string(web_dir.join("index.html"))
        .await
        .ok()
}

/// `index.html` with link-preview `tags` (already escaped) before `</head>` and `title`
/// (escaped here) in `<title>`.
pub fn inject(index: &str, tags: &str, title: &str) -> String {
    let index = match (index.find("<title>"), index.find("</title>")) {
        (Some(open), Some(close)) if open < close => format!(
            "{}<title>{} · Encore</title>{}",
            &index[..open],
            minijinja::HtmlEscape(title),
            &index[close + "</title>".len()..]
        ),
        _ => index.to_owned(),
    };
    match index.find("</head>") {
        Some(at) => format!("{}{tags}\n  {}", &index[..at], &index[at..]),
        None => index,
    }
}

/// A page of the app as HTML; never cached for long, as its tags follow their subject.
pub fn page(status: StatusCode, body: String) -> Response {
    (
        status,
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response()
}

/// The longest text a link preview carries (previews cut it shorter still).
const PREVIEW_CHARS: usize = 200;

/// A text for a link preview: its whitespace made single spaces, cut with an ellipsis.
pub fn preview_text(text: &str) -> String {
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if text.chars().count() <= PREVIEW_CHARS {
        return text;
    }
    let mut cut: String = text.chars().take(PREVIEW_CHARS).collect();
    cut.push('…');
    cut
}

static TAGS: LazyLock<minijinja::Environment<'static>> = LazyLock::new(|| {
    let mut env = minijinja::Environment::new();
    // A `.html` name turns HTML escaping on for every value.
    env.add_template("share-tags.html", include_str!("share-tags.html"))
        .expect("share-tags.html is a valid template");
    env
});

/// A shareable page's Open Graph and Twitter card tags (crawlers run no script).
#[derive(Debug, serde::Serialize)]
pub struct PreviewTags {
    /// `og:type`: `music.event` for a concert, `profile` for an artist.
    pub kind: &'static str,
    pub title: String,
    pub description: String,
    pub url: String,
    /// Absolute: crawlers do not resolve a relative one.
    pub image: Option<String>,
}

impl PreviewTags {
    /// The tags, escaped; `None` (logged) if the template fails.
    pub fn render(&self) -> Option<String> {
        TAGS.get_template("share-tags.html")
            .and_then(|t| t.render(minijinja::value::Serde(self)))
            .map_err(|err| tracing::error!(error = %err, "rendering a page's tags failed"))
            .ok()
    }
}
