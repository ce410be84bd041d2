//! The one statement pictures share: a picture recorded on its owner's row.

use crate::db::Db;
use crate::error::Result;

/// A new picture on a row of `table` (`events`, `projects`): its media type and a new
/// version, so its URL changes.
#[tracing::instrument(skip_all, fields(table = table))]
pub async fn record_on_row(db: &Db, table: &'static str, id: &str, media_type: &str) -> Result<()> {
    let now = crate::db::now_ms();
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "UPDATE {table} SET image_type = $2, image_version = $3, updated_at = $3 WHERE id = $1"
    )))
    .bind(id)
    .bind(media_type)
    .bind(now)
    .execute(db)
    .await?;
    Ok(())
}
