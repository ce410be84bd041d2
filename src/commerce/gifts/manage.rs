//! Giving a ticket, re-sending and taking back the gift, and claiming it. Each state
//! change is one conditional UPDATE on the gift (pending → claimed or taken back) in the
//! transaction that moves the ticket, so of racing claims and take-backs exactly one wins,
//! and the ticket has one holder whatever the order they run in.

use super::model::{
    Gift, GiftPreview, GiftRow, GiftStatus, MyTicket, PendingGift, check_claimable, check_givable,
    check_take_back,
};
use super::store;
use crate::accounts::model::{AccountChanged, AccountRow, Email};
use crate::crypto::{random_token, token_hash};
use crate::db::{iso8601, now_ms};
use crate::error::{Error, Result, conflict_on_unique};
use crate::events::model::{EventRow, EventStatus};
use crate::i18n::Msg;
use crate::messaging::OutboundMessage;
use crate::notifications::{Notice, Outbox};
use crate::state::AppState;

async fn concert(app: &AppState, event_id: &str) -> Result<EventRow> {
    crate::events::store::by_id(&app.db, event_id)
        .await?
        .ok_or_else(|| Error::internal("a ticket's concert is gone"))
}

/// The signed-in account's tickets: held, and given but not claimed yet.
pub async fn mine(app: &AppState, account: &AccountRow) -> Result<Vec<MyTicket>> {
    let now = now_ms();
    let rows = store::tickets_of(&app.db, &account.id).await?;
    // The concerts the account holds a ticket of its own for: a spare of one of them can
    // only be given, not kept.
    let own: std::collections::HashSet<String> = rows
        .iter()
        .filter(|r| r.spare == 0 && r.gift_id.is_none())
        .map(|r| r.event_id.clone())
        .collect();
    Ok(rows
        .into_iter()
        .map(|row| {
            let open = row.status != EventStatus::Cancelled && now < row.access_ends_at;
            let listened = row.listened == 1;
            let gift = match (row.gift_id, row.gift_email, row.gift_sent_at) {
                (Some(id), Some(email), Some(sent_at)) => Some(PendingGift {
                    id,
                    email,
                    sent_at: iso8601(sent_at),
                    can_take_back: now < row.starts_at,
                }),
                _ => None,
            };
            let spare = row.spare == 1 && gift.is_none();
            MyTicket {
                can_give: gift.is_none() && !listened && open,
                can_keep: spare && open && !own.contains(&row.event_id),
                spare,
                id: row.id,
                event_id: row.event_id,
                title: row.title,
                artist_name: row.artist_name,
                starts_at: iso8601(row.starts_at),
                tier_name: row.tier_name,
                order_id: row.order_id,
                listened,
                gift,
            }
        })
        .collect())
}

/// Keep a spare ticket: it becomes the account's own, to listen with, when it holds no
/// own ticket of the concert (else it can only be given).
pub async fn keep(app: &AppState, account: &AccountRow, ticket_id: &str) -> Result<()> {
    let kept = crate::commerce::store::keep_spare(&app.db, ticket_id, &account.id)
        .await
        .map_err(|e| conflict_on_unique(e, Msg::SpareKeepHeld))?;
    if !kept {
        return Err(Error::not_found(Msg::TicketNotFound));
    }
    app.publish(AccountChanged::of(&account.id));
    Ok(())
}

/// Give one of the giver's tickets to `email`: the ticket is held by nobody until the
/// gift is claimed or taken back, and a claim link is e-mailed.
pub async fn give(
    app: &AppState,
    giver: &AccountRow,
    ticket_id: &str,
    email: &str,
) -> Result<Gift> {
    let email = Email::parse(email)?;
    let ticket = store::live_ticket(&app.db, ticket_id)
        .await?
        .filter(|t| t.account_id == giver.id && t.given_at.is_none())
        .ok_or_else(|| Error::not_found(Msg::TicketNotFound))?;
    let event = concert(app, &ticket.event_id).await?;
    let now = now_ms();
    check_givable(&event, store::listened_with(&app.db, ticket_id).await?, now)?;
    let token = random_token(32);
    let id = uuid::Uuid::new_v4().to_string();
    let mut tx = app.db.begin().await?;
    // A ticket given meanwhile (another tab) or refunded is no longer the giver's to give.
    if !store::let_go(&mut *tx, ticket_id, &giver.id, now).await? {
        return Err(Error::not_found(Msg::TicketNotFound));
    }
    let new = store::NewGift {
        id: &id,
        ticket_id,
        giver_id: &giver.id,
        email: email.as_str(),
        token_hash: &token_hash(&token),
        now,
    };
    store::insert(&mut *tx, new).await?;
    tx.commit().await?;
    // No session can open with it now; one opened in the meantime ends everywhere.
    app.stream_access.revoke(ticket_id);
    app.publish(AccountChanged::of(&giver.id));
    send_link(app, giver, email.as_str(), &event, &token).await?;
    let row = gift_of(app, &id).await?;
    Ok(Gift::from(&row))
}

async fn gift_of(app: &AppState, id: &str) -> Result<GiftRow> {
    store::by_id(&app.db, id)
        .await?
        .ok_or_else(|| Error::not_found(Msg::GiftNotFound))
}

/// The giver's pending gift, else not found (someone else's is not theirs to see).
async fn pending_of(app: &AppState, giver: &AccountRow, id: &str) -> Result<GiftRow> {
    store::by_id(&app.db, id)
        .await?
        .filter(|g| g.giver_id == giver.id && g.status == GiftStatus::Pending)
        .ok_or_else(|| Error::not_found(Msg::GiftNotFound))
}

/// Send the claim link again with a new token: the old link no longer claims. Possible
/// while the gift is claimable (until the listening window ends).
pub async fn resend(app: &AppState, giver: &AccountRow, id: &str) -> Result<Gift> {
    let gift = pending_of(app, giver, id).await?;
    let event = concert(app, &gift.event_id).await?;
    let now = now_ms();
    check_claimable(&event, now)?;
    let token = random_token(32);
    if !store::renew_token(&app.db, id, &token_hash(&token), now).await? {
        return Err(Error::conflict(Msg::GiftNotPending));
    }
    send_link(app, giver, &gift.email, &event, &token).await?;
    Ok(Gift::from(&gift_of(app, id).await?))
}

/// The giver takes a pending gift back before the show starts: the ticket is theirs again.
pub async fn take_back(app: &AppState, giver: &AccountRow, id: &str) -> Result<Gift> {
    let gift = pending_of(app, giver, id).await?;
    let event = concert(app, &gift.event_id).await?;
    let now = now_ms();
    check_take_back(&event, now)?;
    let mut tx = app.db.begin().await?;
    if !store::end(&mut *tx, id, GiftStatus::TakenBack, None, now).await? {
        return Err(Error::conflict(Msg::GiftNotPending));
    }
    let returned = store::hand_to(&mut *tx, &gift.ticket_id, store::HandTo::Giver(&giver.id))
        .await
        .map_err(|e| conflict_on_unique(e, Msg::GiftTakeBackHeld))?;
    if !returned {
        return Err(Error::conflict(Msg::GiftNotPending));
    }
    tx.commit().await?;
    app.publish(AccountChanged::of(&giver.id));
    Ok(Gift::from(&gift_of(app, id).await?))
}

/// The pending gift a claim link's token names, if the link still claims.
async fn by_token(app: &AppState, token: &str) -> Result<(GiftRow, EventRow)> {
    let gift = store::pending_by_token(&app.db, &token_hash(token.trim()))
        .await?
        .ok_or_else(|| Error::not_found(Msg::GiftLinkInvalid))?;
    let event = concert(app, &gift.event_id).await?;
    check_claimable(&event, now_ms())?;
    Ok((gift, event))
}

/// What a claim link offers, for whoever holds the link.
pub async fn look(app: &AppState, token: &str) -> Result<GiftPreview> {
    let (gift, event) = by_token(app, token).await?;
    let giver = crate::accounts::store::by_id(&app.db, &gift.giver_id)
        .await?
        .ok_or_else(|| Error::not_found(Msg::GiftLinkInvalid))?;
    Ok(GiftPreview {
        from: giver.display_name(),
        email: gift.email,
        event_id: event.id,
        title: event.details.title,
        artist_name: event.details.artist_name,
        starts_at: iso8601(event.details.starts_at),
    })
}

/// The signed-in account claims the gift a link's token names: the ticket is theirs, and
/// the giver is told.
pub async fn claim(app: &AppState, claimant: &AccountRow, token: &str) -> Result<Gift> {
    let (gift, event) = by_token(app, token).await?;
    if gift.giver_id == claimant.id {
        return Err(Error::conflict(Msg::GiftOwn));
    }
    let giver = crate::accounts::store::by_id(&app.db, &gift.giver_id).await?;
    let now = now_ms();
    let mut tx = app.db.begin().await?;
    if !store::end(
        &mut *tx,
        &gift.id,
        GiftStatus::Claimed,
        Some(&claimant.id),
        now,
    )
    .await?
    {
        return Err(Error::conflict(Msg::GiftLinkInvalid));
    }
    let title = event.details.title.as_str();
    let moved = store::hand_to(
        &mut *tx,
        &gift.ticket_id,
        store::HandTo::Claimant(&claimant.id),
    )
    .await
    .map_err(|e| conflict_on_unique(e, Msg::GiftAlreadyHeld.with("title", title)))?;
    if !moved {
        return Err(Error::conflict(Msg::GiftLinkInvalid));
    }
    let mut outbox = Outbox::default();
    if let Some(giver) = &giver {
        let claimed = Notice::new(
            Msg::NoticeGiftClaimedTitle.with("title", title),
            Msg::NoticeGiftClaimedBody
                .with("name", claimant.display_name())
                .with("title", title),
            "/my-orders".to_owned(),
        );
        outbox.tell_account(&mut tx, giver, &claimed).await?;
    }
    tx.commit().await?;
    outbox.publish(&app.db, &app.bus).await;
    app.publish(AccountChanged::of(&claimant.id));
    app.publish(AccountChanged::of(&gift.giver_id));
    Ok(Gift::from(&gift_of(app, &gift.id).await?))
}

/// E-mail the claim link to the recipient, in their language if they have an account,
/// else the giver's. The link is the message's secret (redacted in the log).
async fn send_link(
    app: &AppState,
    giver: &AccountRow,
    to: &str,
    event: &EventRow,
    token: &str,
) -> Result<()> {
    let lang = crate::accounts::store::by_login(&app.db, to)
        .await?
        .map_or(giver.language, |account| account.language);
    let link = format!("{}/claim?token={token}", app.config.public_url);
    let body = Msg::GiftEmailBody
        .with("name", giver.display_name())
        .with("title", event.details.title.as_str())
        .with("artist", event.details.artist_name.as_str())
        .with("link", link.as_str())
        .render(lang);
    let subject = Msg::GiftEmailSubject
        .with("name", giver.display_name())
        .with("title", event.details.title.as_str())
        .render(lang);
    app.messenger
        .send(OutboundMessage::email(to, subject, body).with_secret(link));
    Ok(())
}
