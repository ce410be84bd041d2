//! Operating several instances: health probes, metrics, shared secrets, cluster-wide
//! limits and jobs, and draining on SIGTERM.

use std::time::Duration;

use reqwest::StatusCode;

use crate::helpers::{Options, OwnRedis, redis_prefix, spawn_app, spawn_app_with};

#[tokio::test]
async fn a_fresh_instance_is_live_and_ready() {
    let app = spawn_app().await;
    let (status, body) = app.get("/api/v1/health/live", None).await;
    assert_eq!(
        (status, &body["payload"]["status"]),
        (StatusCode::OK, &"live".into())
    );
    let (status, body) = app.get("/api/v1/health/ready", None).await;
    assert_eq!(
        (status, &body["payload"]["status"]),
        (StatusCode::OK, &"ready".into())
    );
    let (status, _) = app.get("/api/v1/health", None).await;
    assert_eq!(status, StatusCode::OK, "the old probe stays");
}

#[tokio::test]
async fn a_draining_instance_is_live_but_not_ready() {
    let app = spawn_app().await;
    app.state.lifecycle.drain();
    let (status, body) = app.get("/api/v1/health/ready", None).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(body["success"], false);
    assert_eq!(body["error"], "This instance is not ready: draining.");
    let (status, _) = app.get("/api/v1/health/live", None).await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn an_instance_without_its_database_is_not_ready_and_says_so_in_the_readers_language() {
    let app = spawn_app().await;
    app.state.db.close().await;
    let answer = app
        .http
        .get(format!("{}/api/v1/health/ready", app.url))
        .header("Accept-Language", "es")
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), StatusCode::SERVICE_UNAVAILABLE);
    let body: serde_json::Value = answer.json().await.unwrap();
    assert_eq!(body["error"], "Esta instancia no está lista: database.");
}

#[tokio::test]
async fn an_instance_whose_redis_is_down_is_not_ready_until_it_is_back() {
    let mut redis = OwnRedis::start();
    let app = spawn_app_with(Options {
        redis_prefix: Some(redis_prefix()),
        redis_url: Some(redis.url()),
        ..Options::default()
    })
    .await;
    let (status, _) = app.get("/api/v1/health/ready", None).await;
    assert_eq!(status, StatusCode::OK);
    redis.stop();
    let (status, body) = app.get("/api/v1/health/ready", None).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(body["error"], "This instance is not ready: redis.");
    redis.start_again();
    // The command connection is reopened on the next probe after it broke.
    let mut ready = false;
    for _ in 0..50 {
        if app.get("/api/v1/health/ready", None).await.0 == StatusCode::OK {
            ready = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(ready, "ready again once Redis answers");
}
