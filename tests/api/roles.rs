//! Every accounts endpoint × every role, as a table: who may do what to whom.

use encore::accounts::model::Role;
use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::*;

#[derive(Debug, Clone, Copy)]
enum Op {
    View,
    EditProfile,
    ChangeMfa,
    Disable,
    ChangeRole,
    Delete,
    Reinvite,
    List,
    Create(Role),
}

#[derive(Debug, Clone, Copy)]
enum Whom {
    Myself,
    Other(Role),
}

use Op::*;
use Role::{Admin, Sa, User};
use Whom::*;

const OK: u16 = 200;
const CREATED: u16 = 201;
const NO: u16 = 403;

/// (operation, target, status for a user, for an admin, for a super admin)
const TABLE: &[(Op, Whom, u16, u16, u16)] = &[
    (View, Myself, OK, OK, OK),
    (View, Other(User), NO, OK, OK),
    (View, Other(Admin), NO, OK, OK),
    (View, Other(Sa), NO, OK, OK),
    (EditProfile, Myself, OK, OK, OK),
    (EditProfile, Other(User), NO, OK, OK),
    (EditProfile, Other(Admin), NO, OK, OK),
    (EditProfile, Other(Sa), NO, NO, OK),
    (ChangeMfa, Myself, OK, OK, OK),
    (ChangeMfa, Other(User), NO, OK, OK),
    (ChangeMfa, Other(Admin), NO, OK, OK),
    (ChangeMfa, Other(Sa), NO, NO, OK),
    (Disable, Myself, NO, NO, NO),
    (Disable, Other(User), NO, OK, OK),
    (Disable, Other(Admin), NO, OK, OK),
    (Disable, Other(Sa), NO, NO, OK),
    (ChangeRole, Myself, NO, NO, NO),
    (ChangeRole, Other(User), NO, NO, OK),
    (ChangeRole, Other(Admin), NO, NO, OK),
    (ChangeRole, Other(Sa), NO, NO, OK),
    (Delete, Myself, NO, NO, NO),
    (Delete, Other(User), NO, OK, OK),
    (Delete, Other(Admin), NO, OK, OK),
    (Delete, Other(Sa), NO, NO, OK),
    (Reinvite, Myself, NO, NO, NO),
    (Reinvite, Other(User), NO, OK, OK),
    (Reinvite, Other(Admin), NO, OK, OK),
    (Reinvite, Other(Sa), NO, NO, OK),
    (List, Myself, NO, OK, OK),
    (Create(User), Myself, NO, CREATED, CREATED),
    (Create(Admin), Myself, NO, NO, CREATED),
    (Create(Sa), Myself, NO, NO, CREATED),
];

async fn run_as(actor: Role) {
    let app = spawn_app().await;
    let me = app
        .account(&format!("me-{}@example.com", actor.as_str()), actor)
        .await;
    let tokens = app.sign_in(&me.login).await;
    let mut failures = Vec::new();
    for (row, (op, whom, as_user, as_admin, as_sa)) in TABLE.iter().enumerate() {
        let expected = match actor {
            User => *as_user,
            Admin => *as_admin,
            Sa => *as_sa,
        };
        let target = match whom {
            Myself => me.clone(),
            Other(role) => {
                app.account(&format!("t{row}-{}@example.com", role.as_str()), *role)
                    .await
            }
        };
        let path = format!("/api/v1/accounts/{}", target.id);
        let new_role = if target.role() == User {
            "admin"
        } else {
            "user"
        };
        let (status, body) = match op {
            View => app.get(&path, Some(&tokens.access)).await,
            EditProfile => {
                app.put(&path, json!({ "notes": "edited" }), &tokens.access)
                    .await
            }
            ChangeMfa => {
                // The second factor goes on only with a phone, and takes the actor's
                // password (every test account has the same one).
                sqlx::query("UPDATE accounts SET phone = '+447700900123' WHERE id = $1")
                    .bind(&target.id)
                    .execute(app.db())
                    .await
                    .unwrap();
                app.post(
                    &format!("{path}/changemfa"),
                    json!({ "useMFA": true, "currentPassword": PASSWORD }),
                    Some(&tokens.access),
                )
                .await
            }
            Disable => {
                app.put(
                    &path,
                    json!({ "enablement": { "enabled": false } }),
                    &tokens.access,
                )
                .await
            }
            ChangeRole => {
                app.put(&path, json!({ "roles": [new_role] }), &tokens.access)
                    .await
            }
            Delete => app.delete(&path, &tokens.access).await,
            Reinvite => {
                app.post(&format!("{path}/reinvite"), json!({}), Some(&tokens.access))
                    .await
            }
            List => app.get("/api/v1/accounts", Some(&tokens.access)).await,
            Create(role) => {
                app.post(
                    "/api/v1/accounts",
                    json!({ "login": format!("new{row}@example.com"), "roles": [role.as_str()] }),
                    Some(&tokens.access),
                )
                .await
            }
        };
        if status.as_u16() != expected {
            failures.push(format!(
                "{actor:?} {op:?} {whom:?}: expected {expected}, got {status} {body}"
            ));
        }
        if status == StatusCode::FORBIDDEN {
            assert_eq!(body["success"], false);
            assert!(body["error"].as_str().is_some_and(|e| !e.is_empty()));
        }
    }
    assert!(
        failures.is_empty(),
        "role table mismatches:\n{}",
        failures.join("\n")
    );
}

#[tokio::test]
async fn the_role_table_holds_for_a_user() {
    run_as(User).await;
}

#[tokio::test]
async fn the_role_table_holds_for_an_admin() {
    run_as(Admin).await;
}

#[tokio::test]
async fn the_role_table_holds_for_a_super_admin() {
    run_as(Sa).await;
}

#[tokio::test]
async fn a_role_change_takes_effect_and_is_stored() {
    let app = spawn_app().await;
    app.account("sa@example.com", Sa).await;
    let fan = app.account("fan@example.com", User).await;
    let sa = app.sign_in("sa@example.com").await;
    let (status, body) = app
        .put(
            &format!("/api/v1/accounts/{}", fan.id),
            json!({ "roles": ["admin"] }),
            &sa.access,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["payload"]["roles"], json!(["admin"]));
    let stored: (String,) = sqlx::query_as("SELECT role FROM accounts WHERE id = $1")
        .bind(&fan.id)
        .fetch_one(app.db())
        .await
        .unwrap();
    assert_eq!(stored.0, "admin");
    let promoted = app.sign_in("fan@example.com").await;
    assert_eq!(
        app.get("/api/v1/accounts", Some(&promoted.access)).await.0,
        StatusCode::OK
    );
}
