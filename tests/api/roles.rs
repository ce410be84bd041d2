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

/// One call's status for a user, an admin and a super admin.
type ByActor = [u16; 3];

/// Who an account operation is done to, in the order of [`ON_AN_ACCOUNT`]'s columns.
const TARGETS: [Whom; 4] = [Myself, Other(User), Other(Admin), Other(Sa)];

/// (operation on one account, its statuses on each of [`TARGETS`])
#[rustfmt::skip]
const ON_AN_ACCOUNT: &[(Op, [ByActor; 4])] = &[
    //             myself        another user  another admin another sa
    (View,        [[OK, OK, OK], [NO, OK, OK], [NO, OK, OK], [NO, OK, OK]]),
    (EditProfile, [[OK, OK, OK], [NO, OK, OK], [NO, OK, OK], [NO, NO, OK]]),
    (ChangeMfa,   [[OK, OK, OK], [NO, OK, OK], [NO, OK, OK], [NO, NO, OK]]),
    (Disable,     [[NO, NO, NO], [NO, OK, OK], [NO, OK, OK], [NO, NO, OK]]),
    (ChangeRole,  [[NO, NO, NO], [NO, NO, OK], [NO, NO, OK], [NO, NO, OK]]),
    (Delete,      [[NO, NO, NO], [NO, OK, OK], [NO, OK, OK], [NO, NO, OK]]),
    (Reinvite,    [[NO, NO, NO], [NO, OK, OK], [NO, OK, OK], [NO, NO, OK]]),
];

/// (operation on the accounts as a whole, its statuses)
#[rustfmt::skip]
const ON_THE_LIST: &[(Op, ByActor)] = &[
    (List,          [NO, OK, OK]),
    (Create(User),  [NO, CREATED, CREATED]),
    (Create(Admin), [NO, NO, CREATED]),
    (Create(Sa),    [NO, NO, CREATED]),
];

/// Every row of both tables: (operation, target, statuses).
fn table() -> impl Iterator<Item = (Op, Whom, ByActor)> {
    let on_accounts = ON_AN_ACCOUNT.iter().flat_map(|&(op, by_target)| {
        TARGETS
            .into_iter()
            .zip(by_target)
            .map(move |(whom, by_actor)| (op, whom, by_actor))
    });
    let on_the_list = ON_THE_LIST
        .iter()
        .map(|&(op, by_actor)| (op, Myself, by_actor));
    on_accounts.chain(on_the_list)
}

async fn run_as(actor: Role) {
    let app = spawn_app().await;
    let me = app
        .account(&format!("me-{}@example.com", actor.as_str()), actor)
        .await;
    let tokens = app.sign_in(&me.login).await;
    let mut failures = Vec::new();
    for (row, (op, whom, by_actor)) in table().enumerate() {
        let expected = by_actor[match actor {
            User => 0,
            Admin => 1,
            Sa => 2,
        }];
        let target = match whom {
            Myself => me.clone(),
            Other(role) => {
                app.account(&format!("t{row}-{}@example.com", role.as_str()), role)
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
