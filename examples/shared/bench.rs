//! What the load tools set up alike: an Encore built in-process on a port of its own
//! (`listeners`, `stream_bench`), and a concert on sale (those two and `ws_load`'s room).

// Each tool uses the part it needs.
#![allow(dead_code)]

use std::path::Path;

use clap::Parser;
use encore::config::{Cli, Command, Config};
use encore::events::model::{EventRow, EventStatus};
use encore::state::AppState;

/// Encore's state as `encore serve` on 127.0.0.1:`port` builds it, with its data in
/// `data_dir`, no Icecast port, and no per-address limit (every simulated client comes
/// from 127.0.0.1). The caller serves it (`encore::startup::run`) or drives it directly.
pub async fn built(port: &str, data_dir: &Path, jwt_secret: &str) -> anyhow::Result<AppState> {
    let bind = format!("127.0.0.1:{port}");
    let url = format!("http://{bind}");
    let cli = Cli::try_parse_from([
        "encore",
        "serve",
        "--bind",
        &bind,
        "--public-url",
        &url,
        "--data-dir",
        data_dir.to_str().unwrap_or("."),
        "--ingest-bind",
        "",
        "--jwt-secret",
        jwt_secret,
        "--connections-per-ip",
        "0",
    ])?;
    let Command::Serve(serve) = cli.command else {
        unreachable!("the arguments above name `serve`")
    };
    encore::startup::build(Config::from_args(*serve)?).await
}

/// A concert on sale: a project for `artist` (described by `about`) and its published
/// concert `title`, starting at `starts_at` (ms), in euros, without a seat limit.
pub async fn concert_on_sale(
    db: &encore::db::Db,
    artist: &str,
    about: &str,
    title: &str,
    starts_at: i64,
    duration_minutes: i64,
    price_minor: i64,
) -> anyhow::Result<EventRow> {
    let project =
        encore::projects::store::insert(db, artist, about, encore::projects::ProjectStatus::Active)
            .await?;
    let event = encore::events::store::insert(
        db,
        encore::events::store::NewEvent {
            project_id: &project.id,
            title,
            artist_name: artist,
            description: "",
            starts_at,
            duration_minutes,
            price_minor,
            currency: "EUR",
            capacity: None,
        },
    )
    .await?;
    encore::events::store::set_status(db, &event.id, &[EventStatus::Draft], EventStatus::Published)
        .await?;
    Ok(event)
}
