//! A concert's live figures: `live_status` on its bus channel at most once a second while
//! something changes, listeners counted on every instance (two servers sharing the
//! database and Redis), and the staff Live page's data.

use std::time::{Duration, Instant};

use encore::accounts::model::Role;
use encore::bus::{Channel, Publication, Received, Subscription};
use encore::live::activity::{Activity, ActivityKind, Recorded};
use encore::live::figures::StatusChanged;
use encore::live::store::Subject;
use encore::stream::show::hub::Status;
use reqwest::StatusCode;
use serde_json::Value;

use crate::helpers::*;
use crate::live::{a_concert_to_push, a_recorded_show, adts_file, push_in_background};

/// The next live status on `subscription` within `wait`, with when it arrived.
async fn next_status(subscription: &mut Subscription, wait: Duration) -> Option<(Instant, Status)> {
    let deadline = tokio::time::Instant::now() + wait;
    loop {
        match tokio::time::timeout_at(deadline, subscription.recv()).await {
            Ok(Some(Received::Message(delivery))) => {
                if let Some(StatusChanged { status, .. }) = delivery.event.read() {
                    return Some((Instant::now(), status));
                }
            }
            Ok(Some(other)) => panic!("unexpected {other:?}"),
            Ok(None) | Err(_) => return None,
        }
    }
}

/// Live statuses until one satisfies `until` (within 10 s), all of them in order.
async fn statuses_until(
    subscription: &mut Subscription,
    until: impl Fn(&Status) -> bool,
) -> Vec<(Instant, Status)> {
    let mut seen = Vec::new();
    loop {
        let Some(next) = next_status(subscription, Duration::from_secs(10)).await else {
            panic!("no such live status within 10 s; seen {seen:?}")
        };
        let done = until(&next.1);
        seen.push(next);
        if done {
            return seen;
        }
    }
}

fn at_most_once_a_second(seen: &[(Instant, Status)]) {
    for pair in seen.windows(2) {
        let gap = pair[1].0 - pair[0].0;
        // The ticker's second, less the jitter of one publish against the next.
        assert!(gap >= Duration::from_millis(900), "{gap:?} apart: {seen:?}");
    }
}

#[tokio::test]
async fn live_status_is_published_while_a_show_changes_at_most_once_a_second_then_nothing() {
    let app = spawn_app().await;
    let media = tempfile::tempdir().unwrap();
    let file = adts_file(media.path(), 3);
    let (event, key) = a_concert_to_push(&app, 0).await;
    let mut figures = app.state.bus.subscribe(&Channel::Event(event.clone()));
    assert!(
        next_status(&mut figures, Duration::from_millis(1500))
            .await
            .is_none(),
        "nothing before anything happens"
    );

    let push = push_in_background(&app, &event, &key, &file);
    let mut seen = statuses_until(&mut figures, |s| s.publisher_connected).await;
    seen.extend(statuses_until(&mut figures, |s| s.recorded_seconds >= 2.0).await);
    push.await.unwrap().expect("push");
    seen.extend(statuses_until(&mut figures, |s| !s.publisher_connected).await);
    at_most_once_a_second(&seen);
    let (_, dropped) = seen.last().unwrap();
    assert_eq!(dropped.bitrate_kbps, 0.0);
    assert!(!dropped.ended, "within the grace period");

    assert!(
        next_status(&mut figures, Duration::from_millis(2500))
            .await
            .is_none(),
        "nothing while nothing changes"
    );

    let admin = app.an_admin().await;
    app.end_show(&event, &admin).await;
    let (_, ended) = next_status(&mut figures, Duration::from_secs(5))
        .await
        .expect("a last one when it ends");
    assert!(ended.ended);
    assert!(!ended.publisher_connected);
    assert!(
        next_status(&mut figures, Duration::from_millis(1500))
            .await
            .is_none(),
        "and then nothing"
    );
}

/// A fan with a ticket who opens a session on `instance` and fetches the playlist there.
async fn a_listener_on(instance: &TestApp, event: &str) {
    let fans = instance.fans(1).await;
    let (_, fan) = &fans[0];
    assert_eq!(instance.buy(fan, event, CARD_OK).await.0, StatusCode::OK);
    let playlist = instance.listen(event, fan).await;
    let answer = instance.get_raw(&playlist).await;
    // Authorised: 200 where the recording is, 404 (not there yet) elsewhere.
    assert_ne!(answer.status(), StatusCode::FORBIDDEN);
}

/// `fetch` again until its answer satisfies `done` (within 5 s).
async fn eventually<F, Fut>(fetch: F, done: impl Fn(&Value) -> bool) -> Value
where
    F: Fn() -> Fut,
    Fut: Future<Output = Value>,
{
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let answer = fetch().await;
        if done(&answer) {
            return answer;
        }
        assert!(Instant::now() < deadline, "not within 5 s: {answer}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn live_status(instance: &TestApp, event: &str, token: &str) -> Value {
    instance
        .get_ok(&format!("/api/v1/events/{event}/live"), Some(token))
        .await
}

#[tokio::test]
async fn listeners_are_counted_on_every_instance_and_published_as_their_sum() {
    let (a, b) = two_instances().await;
    let event = concert(&a, None, 500, 0).await;
    // A holds the show: its publisher and its recording.
    a_recorded_show(&a, &event);
    let mut figures = a.state.bus.subscribe(&Channel::Event(event.clone()));
    let admin = a.an_admin().await;

    a_listener_on(&a, &event).await;
    statuses_until(&mut figures, |s| s.listeners == 1).await;
    a_listener_on(&b, &event).await;
    a_listener_on(&b, &event).await;
    let seen = statuses_until(&mut figures, |s| s.listeners == 3).await;
    assert!(seen.iter().all(|(_, s)| s.publisher_connected));

    // Either instance answers the same figure: A with the sum, B with what A left
    // (just after it published).
    for instance in [&a, &b] {
        let status = eventually(
            || live_status(instance, &event, &admin),
            |s| s["listeners"] == 3,
        )
        .await;
        assert_eq!(status["publisherConnected"], true, "{status}");
    }
    let (status, body) = b.get("/api/v1/live", Some(&admin)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
}

#[tokio::test]
async fn without_redis_listeners_are_this_instances() {
    let app = spawn_app().await;
    let event = concert(&app, None, 500, 0).await;
    a_recorded_show(&app, &event);
    let admin = app.an_admin().await;
    assert_eq!(live_status(&app, &event, &admin).await["listeners"], 0);
    a_listener_on(&app, &event).await;
    a_listener_on(&app, &event).await;
    assert_eq!(live_status(&app, &event, &admin).await["listeners"], 2);
}

/// The listening status a fan reads (`GET /stream/{event}/session`).
async fn listening(instance: &TestApp, event: &str, token: &str) -> (StatusCode, Value) {
    instance
        .get(&format!("/api/v1/stream/{event}/session"), Some(token))
        .await
}

#[tokio::test]
async fn a_ticket_holder_sees_how_many_listen_now_and_until_when_the_replay_lasts() {
    let app = spawn_app().await;
    let event = concert(&app, None, 500, 0).await;
    a_recorded_show(&app, &event);
    let fans = app.fans(1).await;
    let (_, fan) = &fans[0];
    assert_eq!(app.buy(fan, &event, CARD_OK).await.0, StatusCode::OK);

    let (status, body) = listening(&app, &event, fan).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["payload"]["listeners"], 0, "{body}");
    let (_, details) = app.get(&format!("/api/v1/events/{event}"), Some(fan)).await;
    assert_eq!(
        body["payload"]["accessUntil"], details["payload"]["accessUntil"],
        "{details}"
    );

    a_listener_on(&app, &event).await;
    a_listener_on(&app, &event).await;
    let (_, body) = listening(&app, &event, fan).await;
    // The same figure the artist's panel shows.
    let admin = app.an_admin().await;
    assert_eq!(body["payload"]["listeners"], 2, "{body}");
    assert_eq!(live_status(&app, &event, &admin).await["listeners"], 2);
}

#[tokio::test]
async fn the_listening_status_is_refused_without_a_ticket_or_sign_in_and_404_for_no_concert() {
    let app = spawn_app().await;
    let event = concert(&app, None, 500, 0).await;
    let fans = app.fans(1).await;
    let (_, fan) = &fans[0];
    let (status, body) = listening(&app, &event, fan).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    assert_eq!(body["success"], false);

    let (status, _) = app
        .get(&format!("/api/v1/stream/{event}/session"), None)
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, _) = listening(&app, "no-such-concert", fan).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn the_listening_status_is_refused_before_the_doors_open() {
    let app = spawn_app().await;
    // Sessions open 15 minutes before the start: an hour before, not yet.
    let event = concert(&app, None, 500, 60 * 60_000).await;
    let fans = app.fans(1).await;
    let (_, fan) = &fans[0];
    assert_eq!(app.buy(fan, &event, CARD_OK).await.0, StatusCode::OK);
    let (status, body) = listening(&app, &event, fan).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
}

#[tokio::test]
async fn the_live_page_is_for_staff_and_lists_a_live_concert_with_recent_activity() {
    let app = spawn_app().await;
    let fans = app.fans(1).await;
    let (status, body) = app.get("/api/v1/live", Some(&fans[0].1)).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    let (status, _) = app.get("/api/v1/live", None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);

    let live = concert(&app, None, 500, 0).await;
    let _not_live = concert(&app, None, 500, 0).await;
    a_recorded_show(&app, &live);
    encore::events::store::set_status(
        app.db(),
        &live,
        &[encore::events::model::EventStatus::Published],
        encore::events::model::EventStatus::Live,
    )
    .await
    .unwrap();
    a_listener_on(&app, &live).await;
    let activity = Activity {
        id: uuid::Uuid::new_v4().to_string(),
        kind: ActivityKind::ShowLive,
        at: encore::db::iso8601(encore::db::now_ms()),
        subject: Subject {
            event_id: Some(live.clone()),
            event_title: Some("Live at the Roundhouse".into()),
            ..Subject::default()
        },
    };
    activity.record(app.db()).await.unwrap();
    let published = app
        .state
        .bus
        .publish(
            &Channel::Staff,
            Publication::new(&Recorded {
                activity: activity.clone(),
            }),
        )
        .await
        .unwrap();

    app.account("staff@example.com", Role::Admin).await;
    let admin = app.sign_in("staff@example.com").await.access;
    // The show's first tick takes the first sample.
    let page = eventually(
        || async { app.get_ok("/api/v1/live", Some(&admin)).await },
        |page| {
            page["concerts"][0]["listenersOverTime"]
                .as_array()
                .is_some_and(|s| !s.is_empty())
        },
    )
    .await;
    let concerts = page["concerts"].as_array().unwrap();
    assert_eq!(concerts.len(), 1, "only the live one: {page}");
    let concert = &concerts[0];
    assert_eq!(concert["eventId"], live.as_str());
    assert_eq!(concert["title"], "Live at the Roundhouse");
    assert!(
        concert["projectName"]
            .as_str()
            .unwrap()
            .starts_with("Band ")
    );
    assert_eq!(concert["status"]["publisherConnected"], true);
    assert_eq!(concert["status"]["listeners"], 1);
    let recent = page["recentActivity"].as_array().unwrap();
    let last = recent.last().expect("the latest activity");
    assert_eq!(last["id"], activity.id.as_str());
    assert_eq!(last["kind"], "show_live");
    assert_eq!(page["position"]["offset"], published.offset);
    assert_eq!(page["position"]["epoch"], published.epoch.as_str());
}
