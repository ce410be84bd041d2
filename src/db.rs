//! One database interface over SQLite (default) and PostgreSQL, through sqlx's `Any`
//! driver, with one set of portable migrations (TEXT ids, BIGINT times and flags).

use std::time::Duration;

use sqlx::any::{AnyPoolOptions, install_default_drivers};
use sqlx::{AnyPool, Executor};

pub type Db = AnyPool;

/// Anything a query runs on: the pool, or a connection inside a transaction.
pub trait Exec<'e>: sqlx::Executor<'e, Database = sqlx::Any> {}
impl<'e, T: sqlx::Executor<'e, Database = sqlx::Any>> Exec<'e> for T {}

/// `$1, $2, …, $n`: the placeholders of an `IN` list of `n` values, for a query that reads
/// a whole page's rows at once.
pub fn placeholders(n: usize) -> String {
    (1..=n)
        .map(|i| format!("${i}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A search as a `LIKE … ESCAPE '\'` pattern matching it anywhere, case-insensitively (the
/// column lowered too): its `\`, `%` and `_` are escaped, so they match themselves.
pub fn contains_pattern(search: &str) -> String {
    let escaped = search
        .to_lowercase()
        .replace('\\', "\\\\")
        .replace('%', "\\%")
        .replace('_', "\\_");
    format!("%{escaped}%")
}

static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

/// Which engine a URL names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

impl Backend {
    pub fn of(url: &str) -> anyhow::Result<Self> {
        if url.starts_with("sqlite:") {
            Ok(Self::Sqlite)
        } else if url.starts_with("postgres:") || url.starts_with("postgresql:") {
            Ok(Self::Postgres)
        } else {
            anyhow::bail!("unsupported database URL (use sqlite:// or postgres://)")
        }
    }
}

/// Connect, apply the per-connection settings, and run pending migrations.
pub async fn connect(url: &str) -> anyhow::Result<Db> {
    install_default_drivers();
    let backend = Backend::of(url)?;
    if backend == Backend::Sqlite {
        create_sqlite_parent_dir(url)?;
    }
    let options = AnyPoolOptions::new()
        .max_connections(match backend {
            Backend::Sqlite => 8,
            Backend::Postgres => 16,
        })
        .acquire_timeout(Duration::from_secs(10))
        .after_connect(move |conn, _meta| {
            Box::pin(async move {
                if backend == Backend::Sqlite {
                    // WAL lets readers run beside the single writer; the busy timeout makes
                    // writers queue instead of failing under contention.
                    conn.execute(
                        "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; \
                         PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 10000;",
                    )
                    .await?;
                }
                Ok(())
            })
        });
    let pool = options.connect(url).await?;
    MIGRATOR.run(&pool).await?;
    Ok(pool)
}

fn create_sqlite_parent_dir(url: &str) -> anyhow::Result<()> {
    let path = url
        .trim_start_matches("sqlite://")
        .trim_start_matches("sqlite:")
        .split('?')
        .next()
        .unwrap_or_default();
    if path.is_empty() || path == ":memory:" {
        return Ok(());
    }
    if let Some(parent) = std::path::Path::new(path).parent()
        && !parent.as_os_str().is_empty()
    {
        std::fs::create_dir_all(parent)?;
    }
    Ok(())
}

/// Unix time in milliseconds: how every timestamp is stored.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or_default()
}

/// ISO 8601 / RFC 3339 in UTC, as the API shows times.
pub fn iso8601(ms: i64) -> String {
    use time::format_description::well_known::Rfc3339;
    time::OffsetDateTime::from_unix_timestamp_nanos(i128::from(ms) * 1_000_000)
        .ok()
        .and_then(|t| t.format(&Rfc3339).ok())
        .unwrap_or_default()
}

/// Store a flag portably (SQLite via `Any` cannot decode BOOLEAN columns).
pub fn flag(value: bool) -> i64 {
    i64::from(value)
}
