//! What a concert's people are told as it happens (issue 13): its ticket holders (and the
//! fans who asked, issue 15) 15 minutes before the start, when the doors open; its holders
//! when it goes live and when it ends; its artist at the first
//! listener. Each notice is stored in the transaction of its cause (a status change, a
//! once-per-concert claim) and published after the commit. The staff read of shows going
//! live, losing their encoder and ending in their activity feed, recorded the same way.

use super::model::{EventRow, EventStatus, REMINDER_LEAD_MS};
use super::store::{self, Once};
use crate::db::now_ms;
use crate::error::Result;
use crate::i18n::{Arg, Msg};
use crate::live::activity::Activity;
use crate::notifications::{self, Notice, Outbox};
use crate::state::AppState;

/// Where a ticket holder listens to a concert: its stage view (Listen, the lobby before
/// the doors, the replay after).
fn stage_page(event_id: &str) -> String {
    format!("/stage/{event_id}")
}

/// Remind the holders of every concert starting within [`REMINDER_LEAD_MS`], and the fans
/// who asked for the reminder (each account once), once per concert across instances.
/// Answers how many concerts were reminded.
pub async fn remind_starting_soon(app: &AppState) -> Result<usize> {
    let now = now_ms();
    let mut count = 0;
    for event in store::due_for_reminder(&app.db, now, REMINDER_LEAD_MS).await? {
        let mut tx = app.db.begin().await?;
        if !store::claim_once(&mut *tx, &event.id, Once::Reminder, now).await? {
            continue;
        }
        let holders = notifications::store::ticket_holders(&mut *tx, &event.id).await?;
        let askers = notifications::store::reminder_askers(&mut *tx, &event.id).await?;
        let title = Msg::NoticeStartingSoonTitle.with("title", event.details.title.as_str());
        let artist = event.details.artist_name.as_str();
        let soon = Notice::new(
            title.clone(),
            Msg::NoticeStartingSoonBody.with("artist", artist),
            stage_page(&event.id),
        );
        // No ticket (yet): they are told a ticket is what lets them listen.
        let doors = Notice::new(
            title,
            Msg::NoticeDoorsOpenBody.with("artist", artist),
            stage_page(&event.id),
        );
        let mut outbox = Outbox::default();
        outbox.tell(&mut tx, &holders, &soon).await?;
        outbox.tell(&mut tx, &askers, &doors).await?;
        tx.commit().await?;
        outbox.publish(&app.db, &app.bus).await;
        count += 1;
    }
    Ok(count)
}

/// Its managers moved a concert's start: its holders and the fans who asked for the doors
/// reminder hear the new time, in the transaction of the change.
pub async fn rescheduled(
    tx: &mut sqlx::AnyConnection,
    outbox: &mut Outbox,
    event: &EventRow,
) -> Result<()> {
    let holders = notifications::store::ticket_holders(&mut *tx, &event.id).await?;
    let askers = notifications::store::reminder_askers(&mut *tx, &event.id).await?;
    let moved = Notice::new(
        Msg::NoticeRescheduledTitle.with("title", event.details.title.as_str()),
        Msg::NoticeRescheduledBody.with("when", Arg::time(event.details.starts_at)),
        stage_page(&event.id),
    );
    outbox.tell(tx, &holders, &moved).await?;
    outbox.tell(tx, &askers, &moved).await
}

/// A publisher connected: the holders hear of it the first time only (claimed once per
/// concert); the staff when it is news (they were last told the show was off air), so a
/// flapping encoder does not flood them.
pub async fn went_live(app: &AppState, event: &EventRow) -> Result<()> {
    let title = Msg::NoticeLiveNowTitle.with("title", event.details.title.as_str());
    let mut tx = app.db.begin().await?;
    let mut outbox = Outbox::default();
    if store::claim_once(&mut *tx, &event.id, Once::LiveNow, now_ms()).await? {
        let holders = notifications::store::ticket_holders(&mut *tx, &event.id).await?;
        let live = Notice::new(
            title,
            Msg::NoticeLiveNowBody.with("artist", event.details.artist_name.as_str()),
            stage_page(&event.id),
        );
        outbox.tell(&mut tx, &holders, &live).await?;
    }
    let news = store::tell_staff_on_air(&mut *tx, &event.id, true)
        .await?
        .then(|| Activity::show_live(event));
    if let Some(activity) = &news {
        activity.record(&mut *tx).await?;
    }
    tx.commit().await?;
    outbox.publish(&app.db, &app.bus).await;
    if let Some(activity) = news {
        activity.publish(&app.bus).await;
    }
    Ok(())
}

/// The publisher went away (and, the caller checked, none came back for a while): if the
/// show is live (not ended) and the staff were told it was on air, they hear it lost its
/// encoder.
pub async fn dropped(app: &AppState, event_id: &str) -> Result<()> {
    let Some(event) = store::by_id(&app.db, event_id).await? else {
        return Ok(());
    };
    if event.status != EventStatus::Live {
        return Ok(());
    }
    let mut tx = app.db.begin().await?;
    if !store::tell_staff_on_air(&mut *tx, &event.id, false).await? {
        return Ok(());
    }
    let lost = Activity::show_dropped(&event);
    lost.record(&mut *tx).await?;
    tx.commit().await?;
    lost.publish(&app.bus).await;
    Ok(())
}

/// End a concert (`published` or `live` → `ended`). A show that was live tells its
/// holders, in the same transaction, until when the replay is theirs.
pub async fn end(app: &AppState, event_id: &str) -> Result<()> {
    let Some(event) = store::by_id(&app.db, event_id).await? else {
        return Ok(());
    };
    let mut tx = app.db.begin().await?;
    let mut outbox = Outbox::default();
    if store::set_status(&mut *tx, event_id, &[EventStatus::Live], EventStatus::Ended).await? {
        let holders = notifications::store::ticket_holders(&mut *tx, event_id).await?;
        let ended = Notice::new(
            Msg::NoticeEndedTitle.with("title", event.details.title.as_str()),
            Msg::NoticeEndedBody.with("until", Arg::time(event.access_until())),
            stage_page(&event.id),
        );
        outbox.tell(&mut tx, &holders, &ended).await?;
    } else if !store::set_status(
        &mut *tx,
        event_id,
        &[EventStatus::Published],
        EventStatus::Ended,
    )
    .await?
    {
        // Ended or cancelled already.
        return Ok(());
    }
    let ended = Activity::show_ended(&event);
    ended.record(&mut *tx).await?;
    tx.commit().await?;
    outbox.publish(&app.db, &app.bus).await;
    ended.publish(&app.bus).await;
    Ok(())
}

/// Someone opened a listening session: the first one (not the artist's own) tells the
/// artist, once per concert.
pub async fn listened(app: &AppState, event: &EventRow, listener: &str) -> Result<()> {
    let mut tx = app.db.begin().await?;
    let artists = notifications::store::artists(&mut *tx, &event.id).await?;
    if artists.iter().any(|a| a.id == listener)
        || !store::claim_once(&mut *tx, &event.id, Once::FirstListener, now_ms()).await?
    {
        return Ok(());
    }
    let first = Notice::new(
        Msg::NoticeFirstListenerTitle.with("title", event.details.title.as_str()),
        Msg::NoticeFirstListenerBody,
        "/manage-events",
    );
    let mut outbox = Outbox::default();
    outbox.tell(&mut tx, &artists, &first).await?;
    tx.commit().await?;
    outbox.publish(&app.db, &app.bus).await;
    Ok(())
}
