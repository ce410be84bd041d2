//! The subcommands: `serve`, `admin create`, `push` and `openapi`.

use anyhow::Context;
use tokio::net::TcpListener;

use crate::accounts::model::{Email, Password, PhoneNumber, Role};
use crate::accounts::store;
use crate::config::{AdminCommand, Cli, Command, Config, CreateAccountArgs, RoleArg, ServeArgs};

/// The program: logging, the command line, and a runtime to run the command on.
///
/// It lives here rather than in `main.rs` so the binary crate compiles one call: a
/// `#[tokio::main]` there made the release build generate the whole server's future
/// again in the binary (32 s of every clean release build).
pub fn main() -> anyhow::Result<()> {
    use clap::Parser;
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| "encore=info,tower_http=warn".into()),
        )
        .init();
    let cli = Cli::parse();
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?
        .block_on(run(cli))
}

pub async fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Serve(args) => serve(*args).await,
        Command::Admin {
            command: AdminCommand::Create(args),
        } => create_account(args).await,
        Command::Push(args) => crate::stream::ingest::push::run(args).await,
        Command::Openapi { oauth_prefix } => {
            println!("{}", crate::app::openapi_json(&oauth_prefix)?);
            Ok(())
        }
    }
}

async fn serve(args: ServeArgs) -> anyhow::Result<()> {
    let config = Config::from_args(args)?;
    let state = crate::startup::build(config.clone()).await?;
    if config.demo {
        crate::demo::seed(&state).await?;
    }
    let listener = TcpListener::bind(config.bind)
        .await
        .with_context(|| format!("binding {}", config.bind))?;
    // Without the Icecast port, encoders can still PUT a chunked body to the HTTP port.
    let ingest = match config.ingest_bind {
        Some(addr) => match TcpListener::bind(addr).await {
            Ok(listener) => Some(listener),
            Err(err) => {
                tracing::warn!(%addr, error = %err, "Icecast source port unavailable; encoders must use the HTTP port");
                None
            }
        },
        None => None,
    };
    tracing::info!(
        address = %listener.local_addr()?, public_url = %config.public_url,
        ingest = ?config.ingest_bind,
        database = %crate::db::Backend::of(&config.database_url).map(|b| format!("{b:?}")).unwrap_or_default(),
        "Encore is listening"
    );
    if config.demo {
        tokio::spawn(crate::demo::broadcast(
            state.clone(),
            std::path::PathBuf::from("media/demo.aac"),
        ));
    }
    crate::startup::run(listener, ingest, state, shutdown_signal()).await
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        if let Ok(mut signal) =
            tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        {
            signal.recv().await;
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = terminate => {},
    }
    tracing::info!("shutting down");
}

async fn create_account(args: CreateAccountArgs) -> anyhow::Result<()> {
    std::fs::create_dir_all(&args.storage.data_dir)?;
    let db = crate::db::connect(&args.storage.database_url()).await?;
    let email = Email::parse(&args.email).map_err(|e| anyhow::anyhow!("{}", e.public_message()))?;
    let password =
        Password::parse(&args.password).map_err(|e| anyhow::anyhow!("{}", e.public_message()))?;
    let phone = args
        .phone
        .as_deref()
        .map(PhoneNumber::parse)
        .transpose()
        .map_err(|e| anyhow::anyhow!("{}", e.public_message()))?;
    if args.mfa && phone.is_none() {
        anyhow::bail!("--mfa needs --phone: the second factor sends its codes there");
    }
    let role = match args.role {
        RoleArg::Sa => Role::Sa,
        RoleArg::Admin => Role::Admin,
        RoleArg::User => Role::User,
    };
    let hash = crate::auth::passwords::Passwords::new()
        .hash(&password)
        .await?;
    let tenant_key = std::env::var("ENCORE_TENANT_KEY").unwrap_or_else(|_| "encore".to_owned());
    let row = store::insert(
        &db,
        // The operator vouches for the address.
        store::NewAccount {
            first_name: &args.first_name,
            last_name: &args.last_name,
            phone: phone.as_ref().map(PhoneNumber::as_str),
            use_mfa: args.mfa,
            tenant_key: &tenant_key,
            ..store::NewAccount::verified(email.as_str(), role, Some(hash))
        },
    )
    .await
    .map_err(|e| anyhow::anyhow!("{}", e.public_message()))?;
    println!(
        "created {} account {} ({})",
        role.as_str(),
        row.login,
        row.id
    );
    Ok(())
}
