//! One database interface over SQLite (default) and PostgreSQL, through sqlx's `Any`
//! driver, with one set of portable migrations (TEXT ids, BIGINT times and flags).

use std::time::Duration;

use sqlx::any::{AnyPoolOptions, install_default_drivers};
use sqlx::{AnyPool, Executor};

pub type Db = AnyPool;

/// Anything a query runs on: the pool, or a connection inside a transaction.
pub trait Exec<'e>: sqlx::Executor<'e, Database = sqlx::Any> {}
impl<'e, T: sqlx::Executor<'e, Database = sqlx::Any>> Exec<'e> for T {}

/// Whether the database answers a query at all (the readiness probe's question).
pub async fn ping(db: &Db) -> Result<(), sqlx::Error> {
    sqlx::query("SELECT 1").execute(db).await.map(drop)
}

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

/// `sqlx::FromRow` for a row struct, each field read from the column of its name:
///
/// ```ignore
/// from_row!(EventRow { id, title, status as String, zone = "time_zone" as Option<String>, ..project });
/// ```
///
/// `field as T` reads a `T` and converts it with `TryFrom` (an enum stored as text);
/// `field as flag` reads a BIGINT 0/1 flag (portable) as a `bool`;
/// `field = "column"` reads another column; `..field` reads a nested row from the same
/// columns. A field left out does not compile. It stands in for sqlx's derive, whose macro
/// crate builds SQLite and the drivers a second time, for the compiler (docs/ci.md).
macro_rules! from_row {
    ($ty:ident { $($fields:tt)* }) => {
        impl<'r> ::sqlx::FromRow<'r, ::sqlx::any::AnyRow> for $ty {
            fn from_row(row: &'r ::sqlx::any::AnyRow) -> ::std::result::Result<Self, ::sqlx::Error> {
                $crate::db::from_row!(@fields row [] $($fields)*)
            }
        }
    };
    (@fields $row:ident [$($done:tt)*] $(,)?) => {
        Ok(Self { $($done)* })
    };
    (@fields $row:ident [$($done:tt)*] .. $field:ident $(, $($rest:tt)*)?) => {
        $crate::db::from_row!(@fields $row
            [$($done)* $field: ::sqlx::FromRow::from_row($row)?,] $($($rest)*)?)
    };
    (@fields $row:ident [$($done:tt)*] $field:ident = $column:literal as $via:ty $(, $($rest:tt)*)?) => {
        $crate::db::from_row!(@fields $row
            [$($done)* $field: $crate::db::column_as::<$via, _>($row, $column)?,] $($($rest)*)?)
    };
    (@fields $row:ident [$($done:tt)*] $field:ident = $column:literal $(, $($rest:tt)*)?) => {
        $crate::db::from_row!(@fields $row
            [$($done)* $field: ::sqlx::Row::try_get($row, $column)?,] $($($rest)*)?)
    };
    (@fields $row:ident [$($done:tt)*] $field:ident as flag $(, $($rest:tt)*)?) => {
        $crate::db::from_row!(@fields $row
            [$($done)* $field: ::sqlx::Row::try_get::<i64, _>($row, stringify!($field))? != 0,] $($($rest)*)?)
    };
    (@fields $row:ident [$($done:tt)*] $field:ident as $via:ty $(, $($rest:tt)*)?) => {
        $crate::db::from_row!(@fields $row
            [$($done)* $field: $crate::db::column_as::<$via, _>($row, stringify!($field))?,] $($($rest)*)?)
    };
    (@fields $row:ident [$($done:tt)*] $field:ident $(, $($rest:tt)*)?) => {
        $crate::db::from_row!(@fields $row
            [$($done)* $field: ::sqlx::Row::try_get($row, stringify!($field))?,] $($($rest)*)?)
    };
}
pub(crate) use from_row;

/// A row struct whose every field is read from the column of its name, declared once: the
/// struct as written, and its `sqlx::FromRow` by [`from_row!`]. A row with conversions,
/// renamed columns or a nested row declares its struct and writes `from_row!` itself.
///
/// ```ignore
/// row! {
///     #[derive(Debug)]
///     pub struct CodeRow {
///         pub account_id: String,
///         pub nonce: Option<String>,
///     }
/// }
/// ```
macro_rules! row {
    (
        $(#[$meta:meta])*
        $vis:vis struct $ty:ident {
            $($(#[$field_meta:meta])* $field_vis:vis $field:ident: $field_ty:ty),* $(,)?
        }
    ) => {
        $(#[$meta])*
        $vis struct $ty {
            $($(#[$field_meta])* $field_vis $field: $field_ty,)*
        }
        $crate::db::from_row!($ty { $($field),* });
    };
}
pub(crate) use row;

/// A column read as `V` and converted to the field's type (for [`from_row!`]).
pub fn column_as<'r, V, T>(row: &'r sqlx::any::AnyRow, column: &str) -> Result<T, sqlx::Error>
where
    V: sqlx::Decode<'r, sqlx::Any> + sqlx::Type<sqlx::Any>,
    T: TryFrom<V>,
    T::Error: Into<sqlx::error::BoxDynError>,
{
    let value: V = sqlx::Row::try_get(row, column)?;
    T::try_from(value).map_err(|err| sqlx::Error::ColumnDecode {
        index: column.to_owned(),
        source: err.into(),
    })
}

/// The migrations under `migrations/`, built in by build.rs (what `sqlx::migrate!` does,
/// without its macro crate).
fn migrator() -> sqlx::migrate::Migrator {
    include!(concat!(env!("OUT_DIR"), "/migrations.rs"))
}

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
    migrate(url, &pool, backend).await?;
    Ok(pool)
}

/// Run the pending migrations, one process at a time per database (on PostgreSQL, per
/// schema). sqlx takes no turn on SQLite (two processes starting at once on one file
/// both applied the first migration, and one failed), so a lock file beside the database
/// gives it. On PostgreSQL sqlx's own lock is keyed on the database's name alone, so
/// schemas of one database waited for each other's migrations (the PostgreSQL tests give
/// every test a schema of `encore_test`: their set-ups ran one at a time); the turn is
/// taken here instead, on the database and schema, in a transaction so that an error
/// anywhere gives it back.
async fn migrate(url: &str, pool: &Db, backend: Backend) -> anyhow::Result<()> {
    let mut migrator = migrator();
    migrator.set_locking(false);
    if backend == Backend::Sqlite {
        let _turn = match sqlite_path(url) {
            Some(path) => Some(migration_turn(path).await?),
            None => None, // in memory: this process's own
        };
        migrator.run(pool).await?;
        return Ok(());
    }
    let mut turn = pool.begin().await?;
    // Selects a constant: the function's `void` is not among the Any driver's types.
    sqlx::query(
        "SELECT 1 FROM pg_advisory_xact_lock(hashtextextended('encore-migrations:' \
         || current_database() || '.' || coalesce(current_schema(), ''), 0))",
    )
    .execute(&mut *turn)
    .await?;
    migrator.run(pool).await?;
    turn.commit().await?;
    Ok(())
}

/// An exclusive lock on `<database>-migrations.lock`, held while the file is open.
async fn migration_turn(database: &str) -> anyhow::Result<std::fs::File> {
    let path = format!("{database}-migrations.lock");
    tokio::task::spawn_blocking(move || {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)?;
        file.lock()?;
        Ok(file)
    })
    .await?
}

/// The file a SQLite URL names, when it names one.
fn sqlite_path(url: &str) -> Option<&str> {
    let path = url
        .trim_start_matches("sqlite://")
        .trim_start_matches("sqlite:")
        .split('?')
        .next()
        .unwrap_or_default();
    (!path.is_empty() && path != ":memory:").then_some(path)
}

fn create_sqlite_parent_dir(url: &str) -> anyhow::Result<()> {
    if let Some(parent) = sqlite_path(url).and_then(|path| std::path::Path::new(path).parent())
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

/// The instant an RFC 3339 text names, in ms since the epoch (the inverse of
/// [`iso8601`]); `None` when it names none.
pub fn parse_iso8601(text: &str) -> Option<i64> {
    use time::format_description::well_known::Rfc3339;
    let at = time::OffsetDateTime::parse(text, &Rfc3339).ok()?;
    i64::try_from(at.unix_timestamp_nanos() / 1_000_000).ok()
}

/// Store a flag portably (SQLite via `Any` cannot decode BOOLEAN columns).
pub fn flag(value: bool) -> i64 {
    i64::from(value)
}
