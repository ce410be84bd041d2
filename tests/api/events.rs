//! Projects and concerts: who manages what (user, project member, admin, sa), the public
//! list, and concert images.

use encore::accounts::model::Role;
use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::*;

struct World {
    app: TestApp,
    project: String,
    user: String,
    member: String,
    admin: String,
    sa: String,
}

async fn world() -> World {
    let app = spawn_app().await;
    let mut tokens = Vec::new();
    for (email, role) in [
        ("user@example.com", Role::User),
        ("member@example.com", Role::User),
        ("admin@example.com", Role::Admin),
        ("sa@example.com", Role::Sa),
    ] {
        let row = app.account(email, role).await;
        tokens.push(app.session(&row).await);
    }
    let [user, member, admin, sa] = <[String; 4]>::try_from(tokens).unwrap();
    let project = app.the_testers(&admin).await;
    let (status, body) = app
        .post(
            &format!("/api/v1/projects/{project}/members"),
            json!({ "login": "member@example.com" }),
            Some(&admin),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["payload"]["members"][0]["login"], "member@example.com");
    World {
        user,
        member,
        sa,
        admin,
        project,
        app,
    }
}

impl World {
    /// A draft concert of the project, created by `token`: its id.
    async fn draft_by(&self, token: &str) -> String {
        let (status, created) = self
            .app
            .post("/api/v1/events", new_concert(&self.project), Some(token))
            .await;
        assert_eq!(status, StatusCode::CREATED, "{created}");
        created["payload"]["id"].as_str().unwrap().to_owned()
    }

    /// A published concert of the project, created by its member: its id.
    async fn published(&self) -> String {
        let id = self.draft_by(&self.member).await;
        let (status, body) = self
            .app
            .post(
                &format!("/api/v1/events/{id}/publish"),
                json!({}),
                Some(&self.member),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        id
    }
}

fn new_concert(project: &str) -> serde_json::Value {
    json!({ "projectId": project, "title": "Unplugged", "artistName": "The Testers",
            "description": "Acoustic set", "startsAt": "2099-06-01T20:00:00Z", "durationMinutes": 75,
            "price": 1500, "currency": "eur", "capacity": 100 })
}

#[tokio::test]
async fn the_role_table_holds_for_concerts_and_projects() {
    let w = world().await;
    let app = &w.app;
    let as_ = |who: &str| match who {
        "user" => w.user.clone(),
        "member" => w.member.clone(),
        "admin" => w.admin.clone(),
        _ => w.sa.clone(),
    };
    // (who, may create/edit/publish/cancel a concert of the project, may manage projects)
    for (who, manages_concerts, manages_projects) in [
        ("user", false, false),
        ("member", true, false),
        ("admin", true, true),
        ("sa", true, true),
    ] {
        let token = as_(who);
        let (status, created) = app
            .post("/api/v1/events", new_concert(&w.project), Some(&token))
            .await;
        let expected = if manages_concerts {
            StatusCode::CREATED
        } else {
            StatusCode::FORBIDDEN
        };
        assert_eq!(status, expected, "{who} creates: {created}");
        // Each role acts on a concert created by an admin.
        let (_, concert) = app
            .post("/api/v1/events", new_concert(&w.project), Some(&w.admin))
            .await;
        let id = concert["payload"]["id"].as_str().unwrap().to_owned();
        let ok_or_forbidden = if manages_concerts {
            StatusCode::OK
        } else {
            StatusCode::FORBIDDEN
        };
        assert_eq!(
            app.put(
                &format!("/api/v1/events/{id}"),
                json!({ "title": "Renamed" }),
                &token
            )
            .await
            .0,
            ok_or_forbidden,
            "{who} edits"
        );
        assert_eq!(
            app.get(&format!("/api/v1/events/{id}/stream-key"), Some(&token))
                .await
                .0,
            ok_or_forbidden,
            "{who} reads the key"
        );
        assert_eq!(
            app.get(&format!("/api/v1/events/{id}/sales"), Some(&token))
                .await
                .0,
            ok_or_forbidden,
            "{who} reads sales"
        );
        assert_eq!(
            app.post(
                &format!("/api/v1/events/{id}/publish"),
                json!({}),
                Some(&token)
            )
            .await
            .0,
            ok_or_forbidden,
            "{who} publishes"
        );
        assert_eq!(
            app.post(
                &format!("/api/v1/events/{id}/cancel"),
                json!({}),
                Some(&token)
            )
            .await
            .0,
            ok_or_forbidden,
            "{who} cancels"
        );
        let (status, list) = app.get("/api/v1/events/manage", Some(&token)).await;
        assert_eq!(status, ok_or_forbidden, "{who} opens manage-events: {list}");

        let projects = if manages_projects {
            StatusCode::CREATED
        } else {
            StatusCode::FORBIDDEN
        };
        let (status, _) = app
            .post(
                "/api/v1/projects",
                json!({ "name": format!("Side project of {who}") }),
                Some(&token),
            )
            .await;
        assert_eq!(status, projects, "{who} creates a project");
        let members = if manages_projects {
            StatusCode::OK
        } else {
            StatusCode::FORBIDDEN
        };
        assert_eq!(
            app.post(
                &format!("/api/v1/projects/{}/members", w.project),
                json!({ "login": "user@example.com" }),
                Some(&token)
            )
            .await
            .0,
            members,
            "{who} adds a member"
        );
        if manages_projects {
            app.delete(&format!("/api/v1/projects/{}/members/x", w.project), &token)
                .await;
        }
        let sees = if who == "user" {
            StatusCode::FORBIDDEN
        } else {
            StatusCode::OK
        };
        let (status, _) = app
            .get(&format!("/api/v1/projects/{}", w.project), Some(&token))
            .await;
        // The user was briefly added as a member by the admin row above; only check before.
        if who != "sa" {
            assert!(
                status == sees || who == "user",
                "{who} sees the project: {status}"
            );
        }
    }
}

#[tokio::test]
async fn a_new_concert_is_a_draft_with_its_access_until_a_day_after_it_starts() {
    let w = world().await;
    let (status, created) = w
        .app
        .post("/api/v1/events", new_concert(&w.project), Some(&w.member))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let event = &created["payload"];
    assert_eq!(event["status"], "draft");
    assert_eq!(event["currency"], "EUR");
    assert_eq!(event["startsAt"], "2099-06-01T20:00:00Z");
    assert_eq!(event["accessUntil"], "2099-06-02T20:00:00Z");
    assert!(
        event.get("streamKey").is_none(),
        "the stream key is not in the public shape"
    );
}

#[tokio::test]
async fn a_draft_is_invisible_to_fans_and_to_the_public_list() {
    let w = world().await;
    let app = &w.app;
    let id = w.draft_by(&w.member).await;
    assert_eq!(
        app.get(&format!("/api/v1/events/{id}"), Some(&w.user))
            .await
            .0,
        StatusCode::NOT_FOUND
    );
    let (_, list) = app.get("/api/v1/events", None).await;
    assert_eq!(list["payload"]["total"], 0);
}

#[tokio::test]
async fn a_published_concert_is_in_the_public_list() {
    let w = world().await;
    let id = w.published().await;
    let (status, list) = w.app.get("/api/v1/events", None).await;
    assert_eq!(status, StatusCode::OK, "the list is public (the home page)");
    assert_eq!(list["payload"]["items"][0]["id"], id.as_str());
    assert_eq!(list["payload"]["items"][0]["owned"], false);
}

#[tokio::test]
async fn the_concert_search_matches_the_title_whatever_its_case() {
    let w = world().await;
    w.published().await;
    let (_, found) = w
        .app
        .get("/api/v1/events?search=UNPLUG", Some(&w.user))
        .await;
    assert_eq!(found["payload"]["total"], 1);
    let (_, found) = w.app.get("/api/v1/events?search=jazz", Some(&w.user)).await;
    assert_eq!(found["payload"]["total"], 0);
}

#[tokio::test]
async fn publishing_a_published_concert_again_is_409() {
    let w = world().await;
    let id = w.published().await;
    let (status, body) = w
        .app
        .post(
            &format!("/api/v1/events/{id}/publish"),
            json!({}),
            Some(&w.member),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
}

#[tokio::test]
async fn each_stream_key_rotation_gives_a_new_key() {
    let w = world().await;
    let app = &w.app;
    let id = w.draft_by(&w.member).await;
    let rotate = format!("/api/v1/events/{id}/stream-key/rotate");
    let (_, key) = app.post(&rotate, json!({}), Some(&w.member)).await;
    let (_, rotated) = app.post(&rotate, json!({}), Some(&w.admin)).await;
    assert!(key["payload"]["streamKey"].is_string(), "{key}");
    assert_ne!(key["payload"]["streamKey"], rotated["payload"]["streamKey"]);
}

#[tokio::test]
async fn bad_concert_input_is_refused_with_a_reason() {
    let w = world().await;
    let app = &w.app;
    for (field, value) in [
        ("startsAt", json!("next friday")),
        ("currency", json!("XXX")),
        ("price", json!(-5)),
        ("durationMinutes", json!(0)),
        ("capacity", json!(0)),
        ("title", json!("   ")),
    ] {
        let mut body = new_concert(&w.project);
        body[field] = value;
        let (status, answer) = app.post("/api/v1/events", body, Some(&w.admin)).await;
        assert_eq!(
            status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{field}: {answer}"
        );
        assert!(answer["error"].as_str().is_some_and(|e| !e.is_empty()));
    }
}

/// A project that does not exist is a missing resource, as an unknown account added to a
/// project is: schema-valid input that names nothing is a 404, not a 422.
#[tokio::test]
async fn creating_a_concert_in_a_project_that_does_not_exist_is_404() {
    let w = world().await;
    let mut body = new_concert(&w.project);
    body["projectId"] = json!("nope");
    let (status, answer) = w.app.post("/api/v1/events", body, Some(&w.admin)).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{answer}");
    assert_eq!(answer["error"], "That project does not exist.");
}

#[tokio::test]
async fn moving_a_concert_to_a_project_that_does_not_exist_is_404_and_changes_nothing() {
    let w = world().await;
    let id = w.draft_by(&w.admin).await;
    let (status, answer) = w
        .app
        .put(
            &format!("/api/v1/events/{id}"),
            json!({ "projectId": "nope", "title": "Moved" }),
            &w.admin,
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{answer}");
    let (_, shown) = w
        .app
        .get(&format!("/api/v1/events/{id}"), Some(&w.admin))
        .await;
    assert_eq!(shown["payload"]["projectId"], w.project.as_str());
    assert_eq!(shown["payload"]["title"], "Unplugged");
}

/// Every start the document's `date-time` allows gives a concert whose times can be
/// written back: one in the last day of year 9999 would end its access in year 10000.
#[tokio::test]
async fn a_start_whose_access_would_end_after_year_9999_is_422() {
    let w = world().await;
    let mut body = new_concert(&w.project);
    body["startsAt"] = json!("9999-12-31T12:00:00Z");
    let (status, answer) = w.app.post("/api/v1/events", body, Some(&w.admin)).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{answer}");
}

/// A concert of three seats, two of them sold: its id.
async fn a_sold_concert(app: &TestApp) -> String {
    let event = concert(app, Some(3), 1000, HOUR_MS).await;
    for (_, fan) in app.fans(2).await {
        assert_eq!(app.buy(&fan, &event, CARD_OK).await.0, StatusCode::OK);
    }
    event
}

#[tokio::test]
async fn a_sold_concert_keeps_its_price_and_capacity() {
    let w = world().await;
    let app = &w.app;
    let event = a_sold_concert(app).await;
    let path = format!("/api/v1/events/{event}");
    let (status, _) = app.put(&path, json!({ "price": 2000 }), &w.admin).await;
    assert_eq!(status, StatusCode::CONFLICT);
    let (status, body) = app.put(&path, json!({ "capacity": 1 }), &w.admin).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
}

#[tokio::test]
async fn a_sold_concert_cannot_be_deleted_only_cancelled() {
    let w = world().await;
    let event = a_sold_concert(&w.app).await;
    assert_eq!(
        w.app
            .delete(&format!("/api/v1/events/{event}"), &w.admin)
            .await
            .0,
        StatusCode::CONFLICT
    );
}

#[tokio::test]
async fn the_sales_figures_count_tickets_revenue_and_tickets_per_day() {
    let w = world().await;
    let event = a_sold_concert(&w.app).await;
    let (_, sales) = w
        .app
        .get(&format!("/api/v1/events/{event}/sales"), Some(&w.admin))
        .await;
    assert_eq!(sales["payload"]["ticketsSold"], 2);
    assert_eq!(sales["payload"]["revenue"], 2000);
    assert_eq!(sales["payload"]["perDay"][0]["tickets"], 2);
}

/// Upload `bytes` named `name` as the concert's image with `token`.
async fn upload_image(
    app: &TestApp,
    id: &str,
    token: &str,
    bytes: Vec<u8>,
    name: &'static str,
) -> reqwest::Response {
    let part = reqwest::multipart::Part::bytes(bytes).file_name(name);
    app.http
        .post(format!("{}/api/v1/events/{id}/image", app.url))
        .bearer_auth(token)
        .multipart(reqwest::multipart::Form::new().part("file", part))
        .send()
        .await
        .unwrap()
}

/// A `width`×`height` PNG poster.
fn poster(width: u32, height: u32) -> Vec<u8> {
    let mut png = Vec::new();
    image::RgbImage::from_fn(width, height, |x, y| {
        image::Rgb([(x % 256) as u8, (y % 256) as u8, 128])
    })
    .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
    .unwrap();
    png
}

#[tokio::test]
async fn a_concert_image_that_is_not_an_image_is_415_whatever_its_name() {
    let w = world().await;
    let id = w.draft_by(&w.admin).await;
    let response = upload_image(
        &w.app,
        &id,
        &w.admin,
        b"GIF89a not really".to_vec(),
        "poster.png",
    )
    .await;
    assert_eq!(response.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE);
}

#[tokio::test]
async fn a_concert_image_is_served_re_encoded_with_a_480_pixel_jpeg_thumbnail() {
    let w = world().await;
    let app = &w.app;
    let id = w.draft_by(&w.admin).await;
    let png = poster(1200, 800);
    let response = upload_image(app, &id, &w.admin, png.clone(), "poster.bin").await;
    assert_eq!(response.status(), StatusCode::OK);
    let body: serde_json::Value = response.json().await.unwrap();
    let thumb = body["payload"]["thumbnail"].as_str().unwrap();
    let full = app
        .http
        .get(format!(
            "{}{}",
            app.url,
            body["payload"]["image"].as_str().unwrap()
        ))
        .send()
        .await
        .unwrap();
    assert_eq!(full.headers()["content-type"], "image/png");
    // Re-encoded on upload: the same pixels, not the same bytes.
    let stored = image::load_from_memory(&full.bytes().await.unwrap()).unwrap();
    assert_eq!(
        stored.to_rgb8(),
        image::load_from_memory(&png).unwrap().to_rgb8()
    );
    let small = app.get_raw(thumb).await;
    assert_eq!(small.headers()["content-type"], "image/jpeg");
    let decoded = image::load_from_memory(&small.bytes().await.unwrap()).unwrap();
    assert_eq!(decoded.width(), 480);
}

#[tokio::test]
async fn a_fan_may_not_upload_a_concert_image() {
    let w = world().await;
    let id = w.draft_by(&w.admin).await;
    let response = upload_image(&w.app, &id, &w.user, poster(16, 16), "p.png").await;
    assert_eq!(response.status(), StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn a_member_finds_their_projects_on_their_account_and_a_fan_none() {
    let w = world().await;
    let (_, me) = w.app.me(&w.member).await;
    assert_eq!(me["payload"][0]["projects"][0]["id"], w.project.as_str());
    assert_eq!(me["payload"][0]["projects"][0]["name"], "The Testers");
    let (_, me) = w.app.me(&w.user).await;
    assert_eq!(me["payload"][0]["projects"], json!([]));
}

#[tokio::test]
async fn a_member_removed_from_a_project_loses_it_from_their_cached_session() {
    let w = world().await;
    let app = &w.app;
    let (_, me) = app.me(&w.member).await;
    assert_eq!(me["payload"][0]["projects"][0]["id"], w.project.as_str());
    let member_id = me_id(app, &w.member).await;
    app.delete(
        &format!("/api/v1/projects/{}/members/{member_id}", w.project),
        &w.admin,
    )
    .await;
    let (_, me) = app.me(&w.member).await;
    assert_eq!(
        me["payload"][0]["projects"],
        json!([]),
        "the cached session sees the change"
    );
}

async fn me_id(app: &TestApp, token: &str) -> String {
    let (_, me) = app.me(token).await;
    me["payload"][0]["id"].as_str().unwrap().to_owned()
}

/// One request of any method, with an optional bearer token.
async fn call(
    app: &TestApp,
    method: reqwest::Method,
    path: &str,
    token: Option<&str>,
) -> (StatusCode, serde_json::Value) {
    let mut request = app
        .http
        .request(method, format!("{}{path}", app.url))
        .json(&json!({}));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let response = request.send().await.expect("request");
    let status = response.status();
    (status, response.json().await.unwrap_or_default())
}

/// A management route: method, path after `/api/v1/events/{id}`, and the 403's words.
type Route = (reqwest::Method, &'static str, &'static str);

fn management_routes() -> [Route; 10] {
    use reqwest::Method;
    let manage = "Only administrators and the project's artists manage this concert.";
    [
        (Method::GET, "sales", manage),
        (Method::PUT, "", manage),
        (Method::DELETE, "", manage),
        (Method::POST, "publish", manage),
        (Method::POST, "cancel", manage),
        (Method::GET, "stream-key", manage),
        (Method::POST, "stream-key/rotate", manage),
        (Method::POST, "image", manage),
        (
            Method::GET,
            "live",
            "Only administrators and the project's artists see this.",
        ),
        (
            Method::POST,
            "end",
            "Only administrators and the project's artists end a show.",
        ),
    ]
}

fn event_path(event: &str, tail: &str) -> String {
    if tail.is_empty() {
        format!("/api/v1/events/{event}")
    } else {
        format!("/api/v1/events/{event}/{tail}")
    }
}

#[tokio::test]
async fn every_management_route_answers_401_404_and_403_in_its_own_words_before_doing_anything() {
    let w = world().await;
    let app = &w.app;
    let id = w.draft_by(&w.member).await;
    for (method, tail, words) in &management_routes() {
        let (status, _) = call(app, method.clone(), &event_path(&id, tail), None).await;
        assert_eq!(
            status,
            StatusCode::UNAUTHORIZED,
            "{method} {tail} anonymous"
        );
        let (status, body) = call(
            app,
            method.clone(),
            &event_path("nope", tail),
            Some(&w.user),
        )
        .await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{method} {tail} missing");
        assert_eq!(body["error"], "Concert not found.", "{method} {tail}");
        let (status, body) = call(app, method.clone(), &event_path(&id, tail), Some(&w.user)).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{method} {tail} non-member");
        assert_eq!(body["error"], *words, "{method} {tail}");
    }
    // Nothing happened to the draft, and its stream key was never made.
    assert_eq!(
        app.count(
            "SELECT COUNT(*) FROM events WHERE id = $1 AND status = 'draft' \
                   AND stream_key_hash IS NULL",
            &id
        )
        .await,
        1
    );
}

#[tokio::test]
async fn a_concerts_members_and_staff_get_through_its_management_routes() {
    let w = world().await;
    let id = w.draft_by(&w.member).await;
    for token in [&w.member, &w.admin, &w.sa] {
        for tail in ["sales", "stream-key", "live"] {
            let (status, body) = call(
                &w.app,
                reqwest::Method::GET,
                &event_path(&id, tail),
                Some(token),
            )
            .await;
            assert_eq!(status, StatusCode::OK, "{tail}: {body}");
        }
    }
}

#[tokio::test]
async fn deleting_an_unsold_concert_takes_it_out_of_every_cart() {
    let w = world().await;
    let app = &w.app;
    let event = concert(app, None, 1000, HOUR_MS).await;
    let (status, body) = app
        .post(&format!("/api/v1/cart/{event}"), json!({}), Some(&w.user))
        .await;
    assert!(status.is_success(), "{body}");
    let in_carts = "SELECT COUNT(*) FROM cart_items WHERE item_kind = 'event' AND item_id = $1";
    assert_eq!(app.count(in_carts, &event).await, 1);
    let (status, body) = app
        .delete(&format!("/api/v1/events/{event}"), &w.admin)
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(app.count(in_carts, &event).await, 0);
    assert_eq!(
        app.count("SELECT COUNT(*) FROM events WHERE id = $1", &event)
            .await,
        0
    );
}

/// JSON Schema's `integer` admits `1500.0`: the numbers of a concert read it as 1500, and
/// still refuse a fraction.
#[tokio::test]
async fn a_whole_number_written_with_a_decimal_point_is_read_and_a_fraction_is_422() {
    let w = world().await;
    let mut body = new_concert(&w.project);
    body["price"] = json!(1500.0);
    body["capacity"] = json!(100.0);
    body["durationMinutes"] = json!(75.0);
    let (status, created) = w.app.post("/api/v1/events", body, Some(&w.admin)).await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    assert_eq!(created["payload"]["price"], 1500);
    assert_eq!(created["payload"]["capacity"], 100);
    let id = created["payload"]["id"].as_str().unwrap();
    for (price, expected) in [
        (json!(2000.0), StatusCode::OK),
        (json!(2000.5), StatusCode::UNPROCESSABLE_ENTITY),
    ] {
        let path = format!("/api/v1/events/{id}");
        let (status, answer) = w.app.put(&path, json!({ "price": price }), &w.admin).await;
        assert_eq!(status, expected, "{price}: {answer}");
    }
    let (_, shown) = w
        .app
        .get(&format!("/api/v1/events/{id}"), Some(&w.admin))
        .await;
    assert_eq!(shown["payload"]["price"], 2000);
}

#[tokio::test]
async fn the_manage_list_shows_each_concerts_tickets_sold_and_revenue() {
    let w = world().await;
    let sold = a_sold_concert(&w.app).await;
    let unsold = w.draft_by(&w.admin).await;
    let (status, list) = w.app.get("/api/v1/events/manage", Some(&w.admin)).await;
    assert_eq!(status, StatusCode::OK, "{list}");
    let row = |id: &str| {
        list["payload"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["id"] == id)
            .unwrap_or_else(|| panic!("{id} not in {list}"))
            .clone()
    };
    assert_eq!(row(&sold)["ticketsSold"], 2);
    assert_eq!(row(&sold)["revenue"], 2000);
    assert_eq!(row(&unsold)["ticketsSold"], 0);
    assert_eq!(row(&unsold)["revenue"], 0);
}
