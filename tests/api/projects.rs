//! The projects list: each project with its own members and concert count, read for a
//! whole page at once.

use encore::accounts::model::Role;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::*;

async fn project(app: &TestApp, admin: &str, name: &str, members: &[&str]) -> String {
    let (status, body) = app
        .post(
            "/api/v1/projects",
            json!({ "name": name, "description": "" }),
            Some(admin),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let id = body["payload"]["id"].as_str().unwrap().to_owned();
    for login in members {
        let (status, body) = app
            .post(
                &format!("/api/v1/projects/{id}/members"),
                json!({ "login": login }),
                Some(admin),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }
    id
}

async fn concert(app: &TestApp, admin: &str, project: &str) {
    let (status, body) = app
        .post(
            "/api/v1/events",
            json!({ "projectId": project, "title": "Set", "artistName": "Act",
                    "description": "", "startsAt": "2099-06-01T20:00:00Z", "durationMinutes": 60,
                    "price": 1000, "currency": "eur", "capacity": 10 }),
            Some(admin),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
}

fn listed<'a>(page: &'a Value, id: &str) -> &'a Value {
    page["payload"]["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == id)
        .unwrap_or_else(|| panic!("{id} not listed in {page}"))
}

fn logins(project: &Value) -> Vec<&str> {
    project["members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["login"].as_str().unwrap())
        .collect()
}

#[tokio::test]
async fn each_listed_project_shows_its_own_members_and_concert_count() {
    let app = spawn_app().await;
    let admin = app
        .session(&app.account("admin@example.com", Role::Admin).await)
        .await;
    for fan in ["ana@example.com", "ben@example.com", "cem@example.com"] {
        app.account(fan, Role::User).await;
    }
    let duo = project(&app, &admin, "Duo", &["ana@example.com", "ben@example.com"]).await;
    let solo = project(&app, &admin, "Solo", &["cem@example.com"]).await;
    let empty = project(&app, &admin, "Nobody", &[]).await;
    concert(&app, &admin, &duo).await;
    concert(&app, &admin, &duo).await;
    concert(&app, &admin, &solo).await;

    let (status, page) = app.get("/api/v1/projects?pageSize=10", Some(&admin)).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert_eq!(page["payload"]["total"], 3);
    let (duo, solo, empty) = (
        listed(&page, &duo),
        listed(&page, &solo),
        listed(&page, &empty),
    );
    assert_eq!(logins(duo), ["ana@example.com", "ben@example.com"]);
    assert_eq!(duo["eventCount"], 2);
    assert_eq!(logins(solo), ["cem@example.com"]);
    assert_eq!(solo["eventCount"], 1);
    assert_eq!(logins(empty), Vec::<&str>::new());
    assert_eq!(empty["eventCount"], 0);
    assert_eq!(duo["status"], "active");
}

#[tokio::test]
async fn a_member_lists_only_their_projects_with_all_their_members() {
    let app = spawn_app().await;
    let admin = app
        .session(&app.account("admin@example.com", Role::Admin).await)
        .await;
    let ana = app
        .session(&app.account("ana@example.com", Role::User).await)
        .await;
    app.account("ben@example.com", Role::User).await;
    let duo = project(&app, &admin, "Duo", &["ana@example.com", "ben@example.com"]).await;
    project(&app, &admin, "Others", &["ben@example.com"]).await;

    let (status, page) = app.get("/api/v1/projects", Some(&ana)).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert_eq!(page["payload"]["total"], 1);
    assert_eq!(
        logins(listed(&page, &duo)),
        ["ana@example.com", "ben@example.com"]
    );
}
