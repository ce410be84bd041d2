//! An artist's public face: `/artists/{id}`, the page a fan reaches from any concert card,
//! with the project's picture, its text and its concerts (the app lists those from
//! `GET /events?project=`). A project shows only once it has announced a concert: until
//! then it is unknown to the public (404), so nothing of an unannounced act leaks.

use std::path::{Path as FsPath, PathBuf};

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::access::ProjectPath;
use super::store::{self, ProjectRow};
use crate::envelope::{Api, Envelope, QueryParams};
use crate::error::{Error, Result};
use crate::i18n::Msg;
use crate::state::AppState;
use crate::web;

/// The folder of a project's picture and thumbnail.
pub fn picture_dir(data_dir: &FsPath, project_id: &str) -> PathBuf {
    crate::images::folder(data_dir, "projects", project_id)
}

/// The picture's URL: public (an artist's picture is meant to be seen) and versioned, so
/// a new upload is a new URL and browsers may keep each for good.
pub fn picture_url(row: &ProjectRow) -> Option<String> {
    row.image_version
        .map(|version| format!("/api/v1/artists/{}/image?v={version}", row.id))
}

/// The picture's and its thumbnail's URLs.
pub fn picture_urls(row: &ProjectRow) -> (Option<String>, Option<String>) {
    let image = picture_url(row);
    let thumbnail = image.as_ref().map(|url| format!("{url}&size=thumb"));
    (image, thumbnail)
}

/// An artist (a project) as the public sees it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Artist {
    pub id: String,
    pub name: String,
    /// The artist's own words (plain text, paragraphs separated by blank lines).
    pub description: String,
    /// The picture's URL; `null` without one.
    #[schema(required = true)]
    pub image: Option<String>,
    /// The thumbnail's URL (a JPEG, 480 pixels wide); `null` without a picture.
    #[schema(required = true)]
    pub thumbnail: Option<String>,
}

impl From<ProjectRow> for Artist {
    fn from(row: ProjectRow) -> Self {
        let (image, thumbnail) = picture_urls(&row);
        Self {
            image,
            thumbnail,
            id: row.id,
            name: row.name,
            description: row.description,
        }
    }
}

async fn public(app: &AppState, id: &str) -> Result<ProjectRow> {
    store::public_by_id(&app.db, id)
        .await?
        .ok_or_else(|| Error::not_found(Msg::ArtistNotFound))
}

/// An artist's public face, for everyone: its concerts are `GET /events?project={id}`.
#[utoipa::path(get, path = "/artists/{id}", tag = "projects", security((), ("bearer" = [])),
    params(ProjectPath),
    responses((status = 200, description = "The artist.", body = Envelope<Artist>)))]
pub async fn artist(State(app): State<AppState>, Path(id): Path<String>) -> Result<Api<Artist>> {
    Ok(Api::ok(Artist::from(public(&app, &id).await?)))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PictureQuery {
    /// `thumb` for the thumbnail (a JPEG); anything else or absent: the picture.
    size: Option<String>,
    /// The picture's version, as in the artist's `image` URL.
    v: Option<String>,
}

/// An artist's picture, for everyone, cached for good by the version in its URL.
#[utoipa::path(get, path = "/artists/{id}/image", tag = "projects",
    params(ProjectPath, PictureQuery),
    responses((status = 200, description = "The picture (or its thumbnail).", content(
        ("image/png"), ("image/jpeg")))))]
pub async fn artist_picture(
    State(app): State<AppState>,
    Path(id): Path<String>,
    QueryParams(q): QueryParams<PictureQuery>,
) -> Result<Response> {
    let row = store::by_id(&app.db, &id)
        .await?
        .ok_or_else(|| Error::not_found(Msg::ArtistNotFound))?;
    let media_type = row
        .image_type
        .ok_or_else(|| Error::not_found(Msg::NoArtistPicture))?;
    // A URL naming another version than the current one is not cached for good: the
    // answer is the current picture.
    let current = q.v.as_deref() == row.image_version.map(|v| v.to_string()).as_deref();
    let cache = if current {
        "public, max-age=31536000, immutable"
    } else {
        "public, max-age=300"
    };
    crate::images::serve(
        &picture_dir(&app.config.data_dir, &id),
        &media_type,
        q.size.as_deref() == Some("thumb"),
        cache,
        || Error::not_found(Msg::NoArtistPicture),
    )
    .await
}

/// What the link-preview tags say of an artist.
fn tags(row: &ProjectRow, public_url: &str) -> web::PreviewTags {
    let public = public_url.trim_end_matches('/');
    let text = web::preview_text(&row.description);
    web::PreviewTags {
        kind: "profile",
        title: row.name.clone(),
        description: if text.is_empty() {
            row.name.clone()
        } else {
            format!("{} · {text}", row.name)
        },
        url: format!("{public}/artists/{}", row.id),
        image: picture_url(row).map(|path| format!("{public}{path}")),
    }
}

/// `GET /artists/{id}`: the app's page, with the artist's tags when it has a public face
/// (else the plain page with a 404: the app shows its not-found page).
pub async fn page(State(app): State<AppState>, Path(id): Path<String>) -> Response {
    let Some(index) = web::index_html(&app.config.web_dir).await else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let row = match store::public_by_id(&app.db, &id).await {
        Ok(row) => row,
        Err(err) => {
            tracing::error!(error = %err, "reading an artist for its page failed");
            None
        }
    };
    let Some(row) = row else {
        return web::page(StatusCode::NOT_FOUND, index);
    };
    match tags(&row, &app.config.public_url).render() {
        Some(tags) => web::page(StatusCode::OK, web::inject(&index, &tags, &row.name)),
        None => web::page(StatusCode::OK, index),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::projects::ProjectStatus;

    fn row() -> ProjectRow {
        ProjectRow {
            id: "p1".into(),
            name: "The <Quiet> & Loud".into(),
            description: "Two   sisters\n\nand a cello.".into(),
            status: ProjectStatus::Active,
            created_at: 0,
            image_type: Some("image/jpeg".into()),
            image_version: Some(5),
        }
    }

    #[test]
    fn an_artists_tags_are_escaped_and_name_its_picture_and_page() {
        let rendered = tags(&row(), "https://encore.example/").render().unwrap();
        assert!(!rendered.contains("<Quiet>"));
        assert!(rendered.contains("The &lt;Quiet&gt; &amp; Loud · Two sisters and a cello."));
        assert!(rendered.contains(
            r#"<meta property="og:image" content="https:&#x2f;&#x2f;encore.example&#x2f;api&#x2f;v1&#x2f;artists&#x2f;p1&#x2f;image?v=5" />"#
        ));
        assert!(rendered.contains(
            r#"<meta property="og:url" content="https:&#x2f;&#x2f;encore.example&#x2f;artists&#x2f;p1" />"#
        ));
        let bare = ProjectRow {
            image_version: None,
            image_type: None,
            description: String::new(),
            ..row()
        };
        let rendered = tags(&bare, "http://127.0.0.1:8080").render().unwrap();
        assert!(!rendered.contains("og:image"));
        assert!(rendered.contains(r#"name="twitter:card" content="summary""#));
        assert!(rendered.contains(r#"og:description" content="The &lt;Quiet&gt; &amp; Loud""#));
    }
}
