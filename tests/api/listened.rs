//! Minutes listened (issue 31's statements share a pass's revenue by them): each instance
//! counts a minute for every listener it heard in the minute, by listener, concert and UTC
//! day; a listener heard by two instances in the same minute counts once.

use std::time::{Duration, Instant};

use encore::stream::access::minutes::{self, MINUTE};
use encore::stream::access::store::minutes_of_pass;
use reqwest::StatusCode;

use crate::helpers::{CARD_OK, TestApp, a_pass_holder, concert, spawn_app};
use crate::live::a_recorded_show;
use crate::topology::{Pushing, on_postgres, text_of};

const DAY_MS: i64 = 86_400_000;
/// Noon of a UTC day, as unix ms.
const NOON: i64 = 20_000 * DAY_MS + DAY_MS / 2;

/// `fan` opens a session and reads the playlist once: heard.
async fn hear(app: &TestApp, event: &str, fan: &str) {
    let playlist = format!("{}{}", app.url, app.listen(event, fan).await);
    let response = app.http.get(&playlist).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
}

async fn count(app: &TestApp, now: Instant, now_ms: i64) -> u64 {
    minutes::count(app.db(), &app.state.hub, now, now_ms)
        .await
        .unwrap()
}

/// Each listener's minutes of a concert: (1 for a pass, 0 for a ticket; minutes), tickets
/// first.
async fn ledger(app: &TestApp, event: &str) -> Vec<(i64, i64)> {
    sqlx::query_as(
        "SELECT CASE WHEN pass_id IS NULL THEN 0 ELSE 1 END AS by_pass, \
         CAST(SUM(minutes) AS BIGINT) FROM listened_minutes \
         WHERE event_id = $1 GROUP BY holder, pass_id ORDER BY by_pass",
    )
    .bind(event)
    .fetch_all(app.db())
    .await
    .unwrap()
}

#[tokio::test]
async fn each_listener_heard_in_a_minute_counts_that_minute_once_whoever_heard_them() {
    let app = spawn_app().await;
    let event = concert(&app, None, 500, 5 * 60_000).await;
    a_recorded_show(&app, &event);
    let ticket_holder = app.fans(1).await.remove(0).1;
    assert_eq!(
        app.buy(&ticket_holder, &event, CARD_OK).await.0,
        StatusCode::OK
    );
    let (pass_holder, pass) = a_pass_holder(&app).await;
    hear(&app, &event, &ticket_holder).await;
    hear(&app, &event, &pass_holder).await;

    let now = Instant::now();
    assert_eq!(
        count(&app, now, NOON).await,
        2,
        "both listeners, a minute each"
    );
    // Another instance that heard them in the same minute counts nothing more.
    assert_eq!(count(&app, now, NOON + 30_000).await, 0);
    assert_eq!(ledger(&app, &event).await, [(0, 1), (1, 1)]);

    // Still listening the next minute: a second minute each.
    hear(&app, &event, &ticket_holder).await;
    assert_eq!(count(&app, Instant::now(), NOON + 60_000).await, 2);
    assert_eq!(ledger(&app, &event).await, [(0, 2), (1, 2)]);

    // A listener not heard for a minute counts no more.
    let later = Instant::now() + MINUTE + Duration::from_secs(1);
    assert_eq!(count(&app, later, NOON + 120_000).await, 0);

    // Heard again after midnight (UTC): a new day's row each; a pass's minutes are read by
    // period.
    hear(&app, &event, &pass_holder).await;
    assert_eq!(count(&app, Instant::now(), NOON + DAY_MS).await, 2);
    assert_eq!(ledger(&app, &event).await, [(0, 3), (1, 3)]);
    let day = NOON - DAY_MS / 2;
    assert_eq!(
        minutes_of_pass(app.db(), &pass, day, day + DAY_MS)
            .await
            .unwrap(),
        [(event.clone(), 2)]
    );
    assert_eq!(
        minutes_of_pass(app.db(), &pass, day, day + 2 * DAY_MS)
            .await
            .unwrap(),
        [(event.clone(), 3)]
    );
    assert!(
        minutes_of_pass(app.db(), &pass, day + 2 * DAY_MS, day + 3 * DAY_MS)
            .await
            .unwrap()
            .is_empty()
    );
}

/// Two `encore serve` processes on one PostgreSQL, a fan whose playlist reads go to both
/// in the same minute (a balancer moving them): each instance counts at the end of the
/// wall clock's minute, and the fan is counted one minute, not two.
#[tokio::test]
async fn a_listener_heard_by_two_instances_in_one_minute_is_counted_one_minute() {
    let Some(base) = on_postgres() else { return };
    let show = Pushing::start(&base).await;
    let (http, on_other) = show.listening_on_the_other().await;
    let path = on_other.strip_prefix(&show.other.url()).unwrap().to_owned();
    let on_holder = format!("{}{path}", show.holder.url());

    let db = show.fixtures.db();
    let counted = || async {
        let row: (i64, i64) = sqlx::query_as(
            "SELECT COUNT(*), CAST(COALESCE(SUM(minutes), 0) AS BIGINT) \
             FROM listened_minutes WHERE event_id = $1",
        )
        .bind(&show.event)
        .fetch_one(db)
        .await
        .unwrap();
        row
    };
    // Both instances count 250 ms after a minute ends: read once from each instance in
    // one minute whose predecessor is counted already, with time to spare (else wait for
    // the next minute: the test waits for a minute's end once, not twice).
    let until_counted = |minute: i64| {
        let wait = (minute + 1) * 60_000 + 1_500 - encore::db::now_ms();
        tokio::time::sleep(Duration::from_millis(wait.max(0) as u64))
    };
    let into_minute = encore::db::now_ms().rem_euclid(60_000);
    if !(1_500..40_000).contains(&into_minute) {
        until_counted(encore::db::now_ms().div_euclid(60_000)).await;
    }
    let (_, before) = counted().await;
    let minute = encore::db::now_ms().div_euclid(60_000);
    for url in [&on_other, &on_holder] {
        let (status, _) = text_of(&http, url).await;
        assert_eq!(status, StatusCode::OK, "{url}");
    }
    assert_eq!(
        encore::db::now_ms().div_euclid(60_000),
        minute,
        "one minute"
    );

    until_counted(minute).await;
    assert_eq!(
        counted().await,
        (1, before + 1),
        "one fan, one more minute, one row"
    );
}
