//! Project persistence.

use super::ProjectStatus;
use crate::accounts::model::{AccountChanged, AccountRow};
use crate::db::{Db, now_ms, placeholders};
use crate::error::{Result, conflict_on_unique};
use crate::i18n::Msg;
use crate::paging::Paging;

#[derive(Debug, Clone)]
pub struct ProjectRow {
    pub id: String,
    pub name: String,
    pub description: String,
    pub status: ProjectStatus,
    pub created_at: i64,
    /// The artist's picture: its media type and version (`None` without one).
    pub image_type: Option<String>,
    pub image_version: Option<i64>,
}
crate::db::from_row!(ProjectRow {
    id,
    name,
    description,
    status as String,
    created_at,
    image_type,
    image_version
});

/// What every query of a project reads, in [`ProjectRow`]'s order.
const COLUMNS: &str = "id, name, description, status, created_at, image_type, image_version";

/// A member of one of several projects, read in one query.
#[derive(Debug)]
pub struct MemberRow {
    pub project_id: String,
    pub account: AccountRow,
}
crate::db::from_row!(MemberRow {
    project_id,
    ..account
});

pub async fn insert(
    db: &Db,
    name: &str,
    description: &str,
    status: ProjectStatus,
) -> Result<ProjectRow> {
    let id = uuid::Uuid::new_v4().to_string();
    let now = now_ms();
    sqlx::query(
        "INSERT INTO projects (id, name, description, status, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $5)",
    )
    .bind(&id)
    .bind(name)
    .bind(description)
    .bind(status.as_str())
    .bind(now)
    .execute(db)
    .await
    .map_err(|e| conflict_on_unique(e, Msg::ProjectNameTaken))?;
    Ok(ProjectRow {
        id,
        name: name.to_owned(),
        description: description.to_owned(),
        status,
        created_at: now,
        image_type: None,
        image_version: None,
    })
}

pub async fn by_id(db: &Db, id: &str) -> Result<Option<ProjectRow>> {
    Ok(sqlx::query_as::<_, ProjectRow>(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM projects WHERE id = $1"
    )))
    .bind(id)
    .fetch_optional(db)
    .await?)
}

/// The project of that name (names are unique).
#[tracing::instrument(skip_all)]
pub async fn by_name(db: &Db, name: &str) -> Result<Option<ProjectRow>> {
    Ok(sqlx::query_as::<_, ProjectRow>(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM projects WHERE name = $1"
    )))
    .bind(name)
    .fetch_optional(db)
    .await?)
}

/// Write back a project; its members' cached sessions carry its name.
pub async fn save(db: &Db, row: &ProjectRow) -> Result<AccountChanged> {
    sqlx::query(
        "UPDATE projects SET name = $2, description = $3, status = $4, updated_at = $5 WHERE id = $1",
    )
    .bind(&row.id)
    .bind(&row.name)
    .bind(&row.description)
    .bind(row.status.as_str())
    .bind(now_ms())
    .execute(db)
    .await
    .map_err(|e| conflict_on_unique(e, Msg::ProjectNameTaken))?;
    Ok(AccountChanged::Project(row.id.clone()))
}

/// A new picture for the project: a new version, so its URL changes.
pub async fn set_image(db: &Db, id: &str, media_type: &str) -> Result<()> {
    crate::images::record_on_row(db, "projects", id, media_type).await
}

/// The project if it has a public face: at least one concert that is not a draft (a
/// project whose concerts are all unannounced stays unknown to the public).
pub async fn public_by_id(db: &Db, id: &str) -> Result<Option<ProjectRow>> {
    Ok(sqlx::query_as::<_, ProjectRow>(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM projects WHERE id = $1 AND EXISTS \
         (SELECT 1 FROM events e WHERE e.project_id = projects.id AND e.status <> 'draft')"
    )))
    .bind(id)
    .fetch_optional(db)
    .await?)
}

/// Delete a project: the change its members' cached sessions must hear of, or `None`
/// when there was no such project.
pub async fn delete(db: &Db, id: &str) -> Result<Option<AccountChanged>> {
    let deleted = sqlx::query("DELETE FROM projects WHERE id = $1")
        .bind(id)
        .execute(db)
        .await?
        .rows_affected();
    Ok((deleted > 0).then(|| AccountChanged::Project(id.to_owned())))
}

/// A page of projects (newest first), all or only those `member_of` belongs to.
pub async fn list(
    db: &Db,
    member_of: Option<&str>,
    paging: Paging,
) -> Result<(Vec<ProjectRow>, i64)> {
    let tail = paging.limit_offset();
    let (rows, total) = match member_of {
        None => {
            let rows = sqlx::query_as::<_, ProjectRow>(sqlx::AssertSqlSafe(format!(
                "SELECT {COLUMNS} FROM projects \
                 ORDER BY created_at DESC, id {tail}"
            )))
            .fetch_all(db)
            .await?;
            let (total,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM projects")
                .fetch_one(db)
                .await?;
            (rows, total)
        }
        Some(account) => {
            let rows = sqlx::query_as::<_, ProjectRow>(sqlx::AssertSqlSafe(format!(
                "SELECT p.id, p.name, p.description, p.status, p.created_at, p.image_type, \
                 p.image_version FROM projects p \
                 JOIN project_members m ON m.project_id = p.id WHERE m.account_id = $1 \
                 ORDER BY p.created_at DESC, p.id {tail}"
            )))
            .bind(account)
            .fetch_all(db)
            .await?;
            let (total,): (i64,) =
                sqlx::query_as("SELECT COUNT(*) FROM project_members WHERE account_id = $1")
                    .bind(account)
                    .fetch_one(db)
                    .await?;
            (rows, total)
        }
    };
    Ok((rows, total))
}

/// The members of these projects, each in the order they joined: one query for a whole
/// page of projects.
#[tracing::instrument(skip_all)]
pub async fn members_of(db: &Db, project_ids: &[&str]) -> Result<Vec<MemberRow>> {
    if project_ids.is_empty() {
        return Ok(Vec::new());
    }
    let sql = format!(
        "SELECT m.project_id, a.id, a.login, a.first_name, a.last_name, a.role, a.enabled, \
         a.use_mfa, a.phone, a.password_hash, a.notes, a.avatar_type, a.avatar_version, \
         a.tenant_key, a.created_at, a.language, a.email_verified_at, a.time_zone, a.theme, a.stream_quality \
         FROM project_members m JOIN accounts a ON a.id = m.account_id \
         WHERE m.project_id IN ({}) ORDER BY m.added_at, a.id",
        placeholders(project_ids.len())
    );
    let mut query = sqlx::query_as::<_, MemberRow>(sqlx::AssertSqlSafe(sql));
    for id in project_ids {
        query = query.bind(*id);
    }
    Ok(query.fetch_all(db).await?)
}

pub async fn is_member(db: &Db, project_id: &str, account_id: &str) -> Result<bool> {
    let (n,): (i64,) = sqlx::query_as(
        "SELECT COUNT(*) FROM project_members WHERE project_id = $1 AND account_id = $2",
    )
    .bind(project_id)
    .bind(account_id)
    .fetch_one(db)
    .await?;
    Ok(n > 0)
}

/// The projects an account is a member of.
pub async fn project_ids_of(db: &Db, account_id: &str) -> Result<Vec<String>> {
    let rows: Vec<(String,)> =
        sqlx::query_as("SELECT project_id FROM project_members WHERE account_id = $1")
            .bind(account_id)
            .fetch_all(db)
            .await?;
    Ok(rows.into_iter().map(|(id,)| id).collect())
}

pub async fn add_member(db: &Db, project_id: &str, account_id: &str) -> Result<AccountChanged> {
    sqlx::query(
        "INSERT INTO project_members (project_id, account_id, added_at) VALUES ($1, $2, $3) \
         ON CONFLICT (project_id, account_id) DO NOTHING",
    )
    .bind(project_id)
    .bind(account_id)
    .bind(now_ms())
    .execute(db)
    .await?;
    Ok(AccountChanged::of(account_id))
}

pub async fn remove_member(db: &Db, project_id: &str, account_id: &str) -> Result<AccountChanged> {
    sqlx::query("DELETE FROM project_members WHERE project_id = $1 AND account_id = $2")
        .bind(project_id)
        .bind(account_id)
        .execute(db)
        .await?;
    Ok(AccountChanged::of(account_id))
}

/// How many concerts each of these projects has (projects with none are absent): one
/// query for a whole page.
#[tracing::instrument(skip_all)]
pub async fn event_counts(db: &Db, project_ids: &[&str]) -> Result<Vec<(String, i64)>> {
    if project_ids.is_empty() {
        return Ok(Vec::new());
    }
    let sql = format!(
        "SELECT project_id, COUNT(*) FROM events WHERE project_id IN ({}) GROUP BY project_id",
        placeholders(project_ids.len())
    );
    let mut query = sqlx::query_as::<_, (String, i64)>(sqlx::AssertSqlSafe(sql));
    for id in project_ids {
        query = query.bind(*id);
    }
    Ok(query.fetch_all(db).await?)
}
