//! Demo accounts for `make run`: one of each role and a fan with the SMS second factor.

use crate::accounts::model::{Password, Role};
use crate::accounts::store;
use crate::commerce::model::PlanRow;
use crate::commerce::store as commerce;
use crate::db::now_ms;
use crate::events::model::{EventRow, EventStatus};
use crate::events::store as events;
use crate::i18n::{Lang, Msg};
use crate::state::AppState;

struct DemoAccount {
    email: &'static str,
    password: &'static str,
    role: Role,
    first: &'static str,
    last: &'static str,
    phone: Option<&'static str>,
}

const DEMO: [DemoAccount; 4] = [
    DemoAccount {
        email: "sa@encore.local",
        password: "encore-super-admin",
        role: Role::Sa,
        first: "Sam",
        last: "Super",
        phone: None,
    },
    DemoAccount {
        email: "admin@encore.local",
        password: "encore-admin-demo",
        role: Role::Admin,
        first: "Ada",
        last: "Admin",
        phone: None,
    },
    DemoAccount {
        email: "fan@encore.local",
        password: "encore-fan-demo",
        role: Role::User,
        first: "Frankie",
        last: "Fan",
        phone: None,
    },
    DemoAccount {
        email: "mfa@encore.local",
        password: "encore-mfa-demo",
        role: Role::User,
        first: "Morgan",
        last: "Secure",
        phone: Some("+15550100123"),
    },
];

/// Create the demo accounts and a demo concert on an empty database, and print how to
/// sign in.
pub async fn seed(state: &AppState) -> anyhow::Result<()> {
    if store::count(&state.db).await? == 0 {
        seed_concert(state).await?;
        for demo in &DEMO {
            let password = Password::parse(demo.password)
                .map_err(|e| anyhow::anyhow!("demo password: {}", e.public_message()))?;
            let hash = state.passwords.hash(&password).await?;
            store::insert(
                &state.db,
                store::NewAccount {
                    first_name: demo.first,
                    last_name: demo.last,
                    phone: demo.phone,
                    use_mfa: demo.phone.is_some(),
                    notes: "Demo account",
                    tenant_key: &state.config.tenant_key,
                    ..store::NewAccount::verified(demo.email, demo.role, Some(hash))
                },
            )
            .await
            .map_err(|e| anyhow::anyhow!("demo account: {e}"))?;
        }
    }
    println!(
        "\nEncore demo accounts (sign in at {}/auth/login):",
        state.config.public_url
    );
    // Where codes land is the data directory's outbox, wherever `--data-dir` put it.
    let outbox = state.messenger.outbox_path().display().to_string();
    for demo in &DEMO {
        let note = if demo.phone.is_some() {
            format!("  (second factor: the SMS code appears in {outbox})")
        } else {
            String::new()
        };
        println!(
            "  {:<6} {:<20} {}{note}",
            demo.role.as_str(),
            demo.email,
            demo.password
        );
    }
    println!();
    Ok(())
}

/// The seeded texts are the English of these messages; views show them in the reader's
/// language ([`crate::i18n::seeded_text`]).
const DEMO_TITLE: Msg = Msg::DemoOpeningTitle;
const DEMO_ARTIST: &str = "The Encore House Band";
/// The demo concerts: the one live now, and one three days away (the home page's
/// "Coming up"), each with a picture of ours from `media/` (`media/make-demo.sh`).
const OPENING: DemoConcert = DemoConcert {
    title: DEMO_TITLE,
    description: Msg::DemoOpeningDescription,
    picture: "media/opening-night.jpg",
};
const LATE_SET: DemoConcert = DemoConcert {
    title: Msg::DemoLateTitle,
    description: Msg::DemoLateDescription,
    picture: "media/late-set.jpg",
};

const DAY_MS: i64 = 24 * 3_600_000;

struct DemoConcert {
    title: Msg,
    description: Msg,
    picture: &'static str,
}

/// A project with the demo fan as its artist, a concert starting in ten minutes (so its
/// live window is open right away) and a 30-day pass.
async fn seed_concert(state: &AppState) -> anyhow::Result<()> {
    let project = crate::projects::store::insert(
        &state.db,
        DEMO_ARTIST,
        "Encore's demo act: a live set to try tickets and streaming.",
        crate::projects::ProjectStatus::Active,
    )
    .await
    .map_err(|e| anyhow::anyhow!("demo project: {e}"))?;
    let event = publish_concert(state, &project.id, &OPENING, now_ms() + 10 * 60_000).await?;
    // At 20:00 UTC three days from now.
    let evening = (now_ms() / DAY_MS + 3) * DAY_MS + 20 * 3_600_000;
    publish_concert(state, &project.id, &LATE_SET, evening).await?;
    let plan = PlanRow {
        id: uuid::Uuid::new_v4().to_string(),
        name: Msg::DemoPassName.template(Lang::English).into(),
        description: Msg::DemoPassDescription.template(Lang::English).into(),
        price_minor: 4900,
        currency: "EUR".into(),
        days: 30,
        active: 1,
    };
    commerce::insert_plan(&state.db, &plan, now_ms())
        .await
        .map_err(|e| anyhow::anyhow!("demo pass: {e}"))?;
    println!(
        "Demo concert: \"{}\" (rotate its stream key in the live panel to push to it)",
        event.details.title
    );
    Ok(())
}

/// A published demo concert of the project, starting at `starts_at`, with its picture
/// (when `media/` is here: `make run` starts in the repository).
async fn publish_concert(
    state: &AppState,
    project_id: &str,
    concert: &DemoConcert,
    starts_at: i64,
) -> anyhow::Result<EventRow> {
    let demo = |e: crate::error::Error| anyhow::anyhow!("demo concert: {e}");
    let event = events::insert(
        &state.db,
        events::NewEvent {
            project_id,
            title: concert.title.template(Lang::English),
            artist_name: DEMO_ARTIST,
            description: concert.description.template(Lang::English),
            starts_at,
            duration_minutes: 90,
            price_minor: 1500,
            currency: "EUR",
            capacity: Some(500),
        },
    )
    .await
    .map_err(demo)?;
    events::set_status(
        &state.db,
        &event.id,
        &[EventStatus::Draft],
        EventStatus::Published,
    )
    .await
    .map_err(demo)?;
    if let Ok(bytes) = std::fs::read(concert.picture) {
        let media_type = crate::events::image::store(&state.config.data_dir, &event.id, bytes)
            .await
            .map_err(demo)?;
        events::set_image(&state.db, &event.id, media_type)
            .await
            .map_err(demo)?;
    }
    Ok(event)
}

/// The demo concert goes live: `media/demo.aac` is pushed on a loop through the HTTP
/// ingest, exactly as `encore push` would, until the show is ended from the dashboard.
/// A demo concert whose show ended or whose window closed is replaced by a new one.
pub async fn broadcast(state: AppState, media: std::path::PathBuf) -> anyhow::Result<()> {
    if !media.exists() {
        println!(
            "No {} here: the demo concert stays silent (push audio to it yourself).",
            media.display()
        );
        return Ok(());
    }
    let now = now_ms();
    // Its listening window open (15 min before the start) with an hour or more left of 24 h.
    let current = events::latest_on_sale_titled(
        &state.db,
        DEMO_TITLE.template(Lang::English),
        now - 23 * 3_600_000,
        now + 15 * 60_000,
    )
    .await?;
    let event = match current {
        Some(event) => event,
        None => {
            let Some(project) = crate::projects::store::by_name(&state.db, DEMO_ARTIST).await?
            else {
                return Ok(());
            };
            publish_concert(&state, &project.id, &OPENING, now).await?
        }
    };
    // Keys are stored hashed: the broadcaster makes its own, as a manager rotating would.
    let key = events::rotate_stream_key(&state.db, &event.id)
        .await
        .map_err(|e| anyhow::anyhow!("demo concert: {e}"))?;
    println!(
        "Demo concert \"{}\" is live: {} is pushed on a loop.",
        event.details.title,
        media.display()
    );
    let args = crate::config::PushArgs {
        file: media,
        event: event.id,
        key,
        server: format!("http://{}", state.config.bind),
        repeat: 0,
    };
    // The server is starting alongside: retry until it answers (or refuses for good).
    for _ in 0..20 {
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        match crate::stream::ingest::push::run(args.clone()).await {
            Err(err) if err.to_string().contains("connecting") => continue,
            Err(err) => {
                tracing::info!(error = %err, "the demo broadcast stopped");
                return Ok(());
            }
            Ok(()) => return Ok(()),
        }
    }
    Ok(())
}
