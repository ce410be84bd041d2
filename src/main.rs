use clap::Parser;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| "encore=info,tower_http=warn".into()),
        )
        .init();
    encore::cli::run(encore::config::Cli::parse()).await
}
