//! Orders and their life: pending (seats held for 15 minutes) → paid → fulfilled, or
//! failed / expired (seats given back), and refunded. Every transition is a conditional
//! UPDATE from the expected state, so replays and races change nothing twice.

use serde::Serialize;
use utoipa::ToSchema;

use crate::accounts::model::AccountRow;
use crate::crypto::{random_token, token_hash};
use crate::db::{Db, iso8601, now_ms};
use crate::error::{Error, Result};
use crate::i18n::{Arg, Msg, Text, figure_in};
use crate::live::activity::Activity;
use crate::messaging::OutboundMessage;
use crate::notifications::{self, Notice, Outbox};
use crate::paging::{Page, Paging};
use crate::state::AppState;

use super::model::{ItemKind, OrderItem, OrderRow, OrderStatus};
use super::money;
use super::promo::model::{CodeRow, Line, refusal};
use super::promo::store as promos;
use super::store::{self, SeatsOf};
use super::tiers::store as tiers;
use super::tips::announce;
use super::tips::store as tip_store;

pub const RESERVATION_MS: i64 = 15 * 60_000;

/// The API shape of an order.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Order {
    pub id: String,
    /// The buyer.
    pub account_id: String,
    pub status: OrderStatus,
    /// Minor units: the sum of the lines' prices.
    pub total: i64,
    #[schema(schema_with = super::money::stored_currency_schema)]
    pub currency: String,
    /// `test` or `stripe`; `free` for an order with nothing to pay (paid at checkout).
    pub provider: String,
    /// Why a payment failed or could not be honoured; on a pending order, why its last card
    /// was refused (the checkout stays open for another).
    #[schema(required = true)]
    pub failure: Option<String>,
    #[schema(format = DateTime)]
    pub created_at: String,
    /// When the seats held for a pending order go back.
    #[schema(format = DateTime)]
    pub expires_at: String,
    #[schema(format = DateTime, required = true)]
    pub paid_at: Option<String>,
    #[schema(format = DateTime, required = true)]
    pub refunded_at: Option<String>,
    pub items: Vec<OrderItem>,
    /// Who bought it (shown to the buyer and to staff only).
    pub buyer: Buyer,
    /// The promo code it carries (in upper case); `null` for none.
    #[schema(required = true)]
    pub promo_code: Option<String>,
    /// Minor units the promo code took off; `total` is after it, and the lines' prices
    /// are what was paid for each.
    pub discount: i64,
    /// What a tip's order pays for (it has no lines); `null` for a sale.
    #[schema(required = true)]
    pub tip: Option<OrderTip>,
}

/// The concert and artist a tip went to: what the tipper's orders and receipt name.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OrderTip {
    pub event_id: String,
    /// The concert's title.
    pub title: String,
    pub artist_name: String,
}

impl From<tip_store::TipOfOrderRow> for OrderTip {
    fn from(row: tip_store::TipOfOrderRow) -> Self {
        Self {
            event_id: row.event_id,
            title: crate::i18n::seeded_text(row.title),
            artist_name: row.artist_name,
        }
    }
}

/// An order's buyer.
#[derive(Debug, Clone, Default, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Buyer {
    /// First and last name; empty when the account has none.
    pub name: String,
    pub email: String,
}

impl Order {
    pub fn new(
        row: OrderRow,
        mut items: Vec<OrderItem>,
        buyer: Buyer,
        tip: Option<OrderTip>,
    ) -> Self {
        // Seeded texts (the demo's, the default tier's name) and a pass's days in the
        // reader's language.
        let lang = crate::i18n::current();
        for item in &mut items {
            item.title = item.title_in(lang);
            item.tier_name = item
                .tier_name
                .take()
                .map(|tier| crate::i18n::seeded_text_in(lang, tier));
        }
        Self {
            items,
            buyer,
            id: row.id,
            account_id: row.account_id,
            status: row.status,
            total: row.total_minor,
            currency: row.currency,
            provider: row.provider,
            failure: row.failure,
            created_at: iso8601(row.created_at),
            expires_at: iso8601(row.expires_at),
            paid_at: row.paid_at.map(iso8601),
            refunded_at: row.refunded_at.map(iso8601),
            promo_code: row.promo_code,
            discount: row.discount_minor,
            tip,
        }
    }
}

/// One order with its lines, its buyer and the tip it pays, if one.
pub async fn view(db: &Db, row: OrderRow) -> Result<Order> {
    let items = store::order_items(db, &row.id).await?;
    let tip = tip_store::of_orders(db, &[row.id.as_str()])
        .await?
        .pop()
        .map(OrderTip::from);
    let buyer = buyers(db, &[row.account_id.as_str()])
        .await?
        .pop()
        .map(|(_, b)| b)
        .unwrap_or_default();
    Ok(Order::new(row, items, buyer, tip))
}

/// The buyers of several orders by account id, in one query.
async fn buyers(db: &Db, account_ids: &[&str]) -> Result<Vec<(String, Buyer)>> {
    Ok(crate::accounts::store::contacts(db, account_ids)
        .await?
        .into_iter()
        .map(|(id, email, first, last)| {
            let name = format!("{first} {last}").trim().to_owned();
            (id, Buyer { name, email })
        })
        .collect())
}

/// Orders with their lines, buyers and tips, in three more queries whatever their number.
pub async fn with_lines(db: &Db, rows: Vec<OrderRow>) -> Result<Vec<Order>> {
    let ids: Vec<&str> = rows.iter().map(|r| r.id.as_str()).collect();
    let mut lines = store::items_of_orders(db, &ids).await?;
    let mut tips = tip_store::of_orders(db, &ids).await?;
    let mut account_ids: Vec<&str> = rows.iter().map(|r| r.account_id.as_str()).collect();
    account_ids.sort_unstable();
    account_ids.dedup();
    let buyers = buyers(db, &account_ids).await?;
    Ok(rows
        .into_iter()
        .map(|row| {
            let (mine, rest): (Vec<OrderItem>, Vec<OrderItem>) =
                lines.drain(..).partition(|l| l.order_id == row.id);
            lines = rest;
            let buyer = buyers
                .iter()
                .find(|(id, _)| *id == row.account_id)
                .map(|(_, b)| b.clone())
                .unwrap_or_default();
            let tip = tips
                .iter()
                .position(|t| t.order_id == row.id)
                .map(|at| OrderTip::from(tips.swap_remove(at)));
            Order::new(row, mine, buyer, tip)
        })
        .collect())
}

/// A page of the orders matching `filter`, with their lines and buyers.
pub async fn page(db: &Db, filter: store::OrderFilter<'_>, paging: Paging) -> Result<Page<Order>> {
    let (rows, total) = store::list_orders(db, filter, paging).await?;
    Ok(Page::new(with_lines(db, rows).await?, total, paging))
}

/// What goes into a new order.
pub struct NewItem {
    pub kind: ItemKind,
    pub id: String,
    pub title: String,
    /// What the whole line costs (all its tickets).
    pub price_minor: i64,
    /// A concert's tier (`None` for a pass; for a concert, its default tier).
    pub tier: Option<ItemTier>,
    /// Tickets of the tier (1 for a pass): as many seats are held.
    pub quantity: i64,
}

/// The ticket tier a concert's line is of, as the order keeps it.
#[derive(Debug, Clone)]
pub struct ItemTier {
    pub id: String,
    pub name: String,
}

/// Whether a seat may only be held while the concert is on sale.
#[derive(Clone, Copy, PartialEq, Eq)]
enum OnSale {
    Required,
    /// A payment that arrived after its hold lapsed: honour it if a seat is free.
    NotRequired,
}

/// Take a line's seats of a concert and of its tier at once (all or none), never above
/// the concert's capacity nor the tier's. The conditional increments take the concert's
/// row lock (the write lock on SQLite) and then the tier's, so concurrent buyers queue
/// here. False when either has too few left (or, `OnSale::Required`, is not on sale: a
/// hidden tier is on sale only when the checkout's promo code `unlocking` unlocks it); the
/// caller rolls back.
async fn hold_seats(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    event_id: &str,
    tier_id: Option<&str>,
    seats: i64,
    on_sale: OnSale,
    unlocking: Option<&str>,
) -> Result<bool> {
    if !store::take_seats(&mut **tx, event_id, seats, on_sale == OnSale::Required).await? {
        return Ok(false);
    }
    match tier_id {
        Some(tier) => {
            let at = (on_sale == OnSale::Required).then(now_ms);
            tiers::take_seats(&mut **tx, tier, seats, at, unlocking).await
        }
        None => Ok(true),
    }
}

/// Give back what an unpaid order holds: its seats (the concerts' rows, then their
/// tiers', the order every writer locks them in) and its promo code's use.
async fn release_holds(tx: &mut sqlx::AnyConnection, order_id: &str) -> Result<()> {
    store::release_seats(&mut *tx, order_id, SeatsOf::Lines).await?;
    promos::release_order_use(&mut *tx, order_id).await
}

/// "Sold out: <concert> (<tier>)".
fn sold_out(item: &NewItem) -> Error {
    let title = match &item.tier {
        Some(tier) => format!("{} ({})", item.title, tier.name),
        None => item.title.clone(),
    };
    Error::conflict(Msg::SoldOut.with("title", title))
}

/// Begin an account's checkout (of its cart, or of a tip): its earlier pending order is
/// replaced and its seats go back. The caller writes the new order in the transaction.
pub async fn begin_checkout(
    db: &Db,
    account_id: &str,
) -> Result<sqlx::Transaction<'static, sqlx::Any>> {
    let mut tx = db.begin().await?;
    // One account's checkouts take turns (a no-op write locks its row on PostgreSQL and
    // the database on SQLite): a second one then sees the first's order and replaces it,
    // instead of both holding seats and meeting at the one-pending-order index.
    store::lock_account_for_checkout(&mut *tx, account_id).await?;
    // The earlier checkout is replaced and its seats go back. Every writer takes the
    // order rows before the concert rows (as `close_unpaid` does), and a checkout holds
    // its concerts in id order, so concurrent checkouts cannot deadlock.
    for id in store::replace_pending_of_account(&mut *tx, account_id).await? {
        release_holds(&mut tx, &id).await?;
    }
    Ok(tx)
}

/// A promo code a checkout uses: its id, and for each of the order's lines (in order) the
/// concert's project (`None` for a pass) and what the code took off it (the lines' prices
/// are already the discounted ones).
pub struct PromoClaim<'a> {
    pub code_id: &'a str,
    pub projects: &'a [Option<String>],
    pub discounts: &'a [i64],
}

/// Replace the account's earlier checkout, hold a seat per concert and write the pending
/// order, in one transaction. Answers the order id and its checkout token. With a promo
/// code, its use is taken in the same transaction as the seats (never above its limits),
/// and given back with them if the checkout ends unpaid.
pub async fn create_pending(
    db: &Db,
    account_id: &str,
    client_ip: Option<&str>,
    items: &[NewItem],
    currency: &str,
    provider: &str,
    promo: Option<PromoClaim<'_>>,
) -> Result<(String, String)> {
    let order_id = uuid::Uuid::new_v4().to_string();
    let token = random_token(32);
    let now = now_ms();
    let total: i64 = items.iter().map(|i| i.price_minor).sum();
    let mut tx = begin_checkout(db, account_id).await?;
    // A concert's line without a tier is of its default tier.
    let mut lines: Vec<NewItem> = Vec::with_capacity(items.len());
    for item in items {
        let tier = match (&item.tier, item.kind) {
            (None, ItemKind::Event) => {
                tiers::default_of(&mut *tx, &item.id)
                    .await?
                    .map(|t| ItemTier {
                        id: t.id,
                        name: t.name,
                    })
            }
            (tier, _) => tier.clone(),
        };
        lines.push(NewItem {
            kind: item.kind,
            id: item.id.clone(),
            title: item.title.clone(),
            price_minor: item.price_minor,
            tier,
            quantity: item.quantity,
        });
    }
    // Seats next, so concurrent buyers queue on the concert row and none is oversold.
    let mut concerts: Vec<&NewItem> = lines.iter().filter(|i| i.kind == ItemKind::Event).collect();
    concerts.sort_by(|a, b| a.id.cmp(&b.id));
    for item in concerts {
        let tier = item.tier.as_ref().map(|t| t.id.as_str());
        let unlocking = promo.as_ref().map(|claim| claim.code_id);
        if !hold_seats(
            &mut tx,
            &item.id,
            tier,
            item.quantity,
            OnSale::Required,
            unlocking,
        )
        .await?
        {
            tx.rollback().await?;
            return Err(sold_out(item));
        }
    }
    // The code's use is taken with the seats, and the order written carrying it.
    let code = match &promo {
        Some(claim) => match take_promo_use(&mut tx, account_id, items, currency, claim, now).await
        {
            Ok(code) => Some(code),
            Err(refusal) => {
                tx.rollback().await?;
                return Err(refusal);
            }
        },
        None => None,
    };
    // Each line's share of the code's discount, kept with the line for the statements.
    let discounts: &[i64] = promo.as_ref().map_or(&[], |claim| claim.discounts);
    // The database allows one pending order per account: of two checkouts racing, the
    // second fails here and its seats are rolled back with the transaction.
    let token_hash = token_hash(&token);
    store::insert_pending_order(
        &mut *tx,
        &store::NewOrder {
            id: &order_id,
            account_id,
            total_minor: total,
            currency,
            provider,
            checkout_token_hash: &token_hash,
            created_at: now,
            expires_at: now + RESERVATION_MS,
            client_ip,
            promo: code
                .as_ref()
                .map(|c| (c.id.as_str(), c.code.as_str(), discounts.iter().sum())),
        },
    )
    .await
    .map_err(|e| crate::error::conflict_on_unique(e, Msg::CheckoutInProgress))?;
    for (i, item) in lines.iter().enumerate() {
        let line = store::NewLine {
            kind: item.kind,
            item_id: &item.id,
            title: &item.title,
            price_minor: item.price_minor,
            tier: item.tier.as_ref().map(|t| (t.id.as_str(), t.name.as_str())),
            quantity: item.quantity,
            discount_minor: discounts.get(i).copied().unwrap_or(0),
        };
        store::insert_order_item(&mut *tx, &order_id, line).await?;
    }
    tx.commit().await?;
    Ok((order_id, token))
}

/// Take a use of the checkout's promo code when it has a limit (the conditional increment
/// queues racing buyers on the code's row), check the account's own limit (its earlier checkout was
/// replaced above and gave its use back), and make sure the discount the prices carry is
/// still what the code gives: the code, for the order to carry.
async fn take_promo_use(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    account_id: &str,
    items: &[NewItem],
    currency: &str,
    claim: &PromoClaim<'_>,
    now: i64,
) -> Result<CodeRow> {
    let mut code = code_in(tx, claim.code_id).await?;
    if let Some(msg) = refusal(&code, now) {
        return Err(Error::conflict(msg));
    }
    // A code without a limit has no use to take (its orders count them); one with a
    // limit is read again once its row is locked, as it stands for this sale.
    if code.max_uses.is_some() {
        if !promos::take_use(&mut **tx, &code.id, now).await? {
            return Err(
                match code_in(tx, claim.code_id)
                    .await
                    .ok()
                    .and_then(|c| refusal(&c, now))
                {
                    Some(msg) => Error::conflict(msg),
                    None => Error::conflict(Msg::PromoCodeUsedUp),
                },
            );
        }
        code = code_in(tx, claim.code_id).await?;
    }
    // The order is not written yet: its account's other live orders carrying the code.
    if let Some(max) = code.max_per_account
        && promos::live_orders_of_account(&mut **tx, &code.id, account_id).await? >= max
    {
        return Err(Error::conflict(Msg::PromoCodeAccountLimit));
    }
    let before: Vec<Line<'_>> = items
        .iter()
        .zip(claim.projects)
        .zip(claim.discounts)
        .map(|((item, project), off)| Line {
            price_minor: item.price_minor + off,
            concert: project.as_deref().map(|p| (item.id.as_str(), p)),
            currency,
        })
        .collect();
    if code.discounts(&before) != claim.discounts {
        return Err(Error::conflict(Msg::PromoCodeChanged));
    }
    Ok(code)
}

/// The checkout's code as the sale's transaction reads it (gone: a conflict).
async fn code_in(tx: &mut sqlx::Transaction<'_, sqlx::Any>, id: &str) -> Result<CodeRow> {
    promos::by_id(&mut **tx, id)
        .await?
        .ok_or_else(|| Error::conflict(Msg::PromoCodeNotFound))
}

/// How a pending order ends without a payment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unpaid {
    /// Its hold lapsed, or a newer checkout replaced it.
    Expired,
    /// The payment was declined, or could not be honoured.
    Failed,
}

impl From<Unpaid> for OrderStatus {
    fn from(end: Unpaid) -> Self {
        match end {
            Unpaid::Expired => OrderStatus::Expired,
            Unpaid::Failed => OrderStatus::Failed,
        }
    }
}

/// End a pending order without payment (expired, declined, replaced); seats go back.
/// False when the order was no longer pending.
pub async fn close_unpaid(
    db: &Db,
    order_id: &str,
    end: Unpaid,
    failure: Option<&str>,
) -> Result<bool> {
    let mut tx = db.begin().await?;
    let closed = close_pending(&mut tx, order_id, end, failure).await?;
    tx.commit().await?;
    Ok(closed)
}

async fn close_pending(
    tx: &mut sqlx::AnyConnection,
    order_id: &str,
    end: Unpaid,
    failure: Option<&str>,
) -> Result<bool> {
    let closed = store::close_pending(&mut *tx, order_id, end.into(), failure).await?;
    if closed {
        release_holds(tx, order_id).await?;
    }
    Ok(closed)
}

/// What a refused payment leaves of its pending order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AfterRefusal {
    /// The checkout stays open for another card until it is paid or its hold lapses (a
    /// card refused on the test provider's page, as on Stripe's): the order stays pending
    /// with its seats and keeps why the attempt failed.
    StaysOpen,
    /// Nothing more can pay it (Stripe's delayed payment failed after its session closed):
    /// the order fails and its seats go back.
    Fails,
}

/// A payment declined or failed: `failure` is kept on the order, which stays open or
/// fails as `after` says, and the staff hear why (`why`, in each one's language), all in
/// one transaction. False when the order was no longer pending (paid meanwhile, say).
pub async fn decline(
    app: &AppState,
    order_id: &str,
    failure: &str,
    why: Msg,
    after: AfterRefusal,
) -> Result<bool> {
    let Some(order) = store::order_by_id(&app.db, order_id).await? else {
        return Ok(false);
    };
    let buyer = crate::accounts::store::by_id(&app.db, &order.account_id)
        .await?
        .ok_or_else(|| Error::internal("an order's buyer is gone"))?;
    let mut tx = app.db.begin().await?;
    let refused = match after {
        AfterRefusal::StaysOpen => store::note_refused_attempt(&mut *tx, order_id, failure).await?,
        AfterRefusal::Fails => {
            close_pending(&mut tx, order_id, Unpaid::Failed, Some(failure)).await?
        }
    };
    if !refused {
        return Ok(false);
    }
    let mut outbox = Outbox::default();
    let failed = Notice::new(
        Msg::NoticePaymentFailedTitle,
        Msg::NoticePaymentFailedBody
            .with("buyer", buyer.display_name())
            .with(
                "total",
                Arg::figure(money::format(order.total_minor, &order.currency)),
            )
            .with("reason", why),
        format!("/payments/orders/{order_id}"),
    );
    outbox.tell_staff(&mut tx, &failed).await?;
    let activity = Activity::payment_failed(&buyer, order.total_minor, &order.currency);
    activity.record(&mut *tx).await?;
    tx.commit().await?;
    outbox.publish(&app.db, &app.bus).await;
    activity.publish(&app.bus).await;
    Ok(true)
}

/// Expire every pending order past its reservation. Answers how many expired.
pub async fn expire_overdue(db: &Db) -> Result<usize> {
    let mut expired = 0;
    for id in store::overdue_pending(db, now_ms()).await? {
        if close_unpaid(db, &id, Unpaid::Expired, None).await? {
            expired += 1;
        }
    }
    Ok(expired)
}

/// Close every open checkout that holds a seat of a cancelled concert (their seats go
/// back), in the cancelling transaction; answers the Stripe sessions to expire after it.
pub async fn close_pending_for_event(
    tx: &mut sqlx::AnyConnection,
    event_id: &str,
) -> Result<Vec<String>> {
    let mut sessions = Vec::new();
    for (id, provider, session) in store::pending_for_event(&mut *tx, event_id).await? {
        if close_pending(tx, &id, Unpaid::Failed, Some("the concert was cancelled")).await?
            && provider == "stripe"
        {
            sessions.extend(session);
        }
    }
    Ok(sessions)
}

#[derive(Debug, PartialEq, Eq)]
pub enum Fulfilment {
    /// This call turned the payment into tickets.
    Done,
    /// The order had already been fulfilled (a replayed confirmation).
    AlreadyDone,
}

/// Turn a confirmed payment into tickets and passes, in one transaction, once.
/// A payment for an order whose hold lapsed is honoured if the seats are still there.
pub async fn fulfil(
    app: &AppState,
    order_id: &str,
    provider_ref: Option<&str>,
) -> Result<Fulfilment> {
    let db = &app.db;
    let now = now_ms();
    let mut tx = db.begin().await?;
    if !store::mark_paid(&mut *tx, order_id, now, provider_ref).await? {
        let order = store::order_by_id(&mut *tx, order_id)
            .await?
            .ok_or_else(|| Error::not_found(Msg::OrderNotFound))?;
        if order.status.is_settled()
            || !store::mark_lapsed_paid(&mut *tx, order_id, now, provider_ref).await?
        {
            return Ok(Fulfilment::AlreadyDone);
        }
        // Paid after the hold lapsed: take the seats again if they are free.
        for item in store::order_items(&mut *tx, order_id)
            .await?
            .iter()
            .filter(|i| i.item_kind == ItemKind::Event)
        {
            if !hold_seats(
                &mut tx,
                &item.item_id,
                item.tier_id.as_deref(),
                item.quantity,
                OnSale::NotRequired,
                None,
            )
            .await?
            {
                tx.rollback().await?;
                return Err(Error::conflict(
                    Msg::SoldOutBeforePayment.with("title", item.title.as_str()),
                ));
            }
        }
        // Its promo code's use went back with the seats: take it again if one is left.
        let lapsed = store::order_by_id(&mut *tx, order_id)
            .await?
            .ok_or_else(|| Error::not_found(Msg::OrderNotFound))?;
        if let (Some(code_id), Some(code)) = (&lapsed.promo_code_id, &lapsed.promo_code)
            && !promos::retake_use(&mut *tx, code_id).await?
            && promos::by_id(&mut *tx, code_id).await?.is_some()
        {
            tx.rollback().await?;
            return Err(Error::conflict(
                Msg::PromoCodeUsedUpBeforePayment.with("code", code.as_str()),
            ));
        }
    }
    // A concert cancelled since the checkout began is never sold, whatever was paid:
    // the caller gives the money back.
    if store::cancelled_concerts_of_order(&mut *tx, order_id).await? > 0 {
        tx.rollback().await?;
        close_unpaid(
            db,
            order_id,
            Unpaid::Failed,
            Some("the concert was cancelled"),
        )
        .await?;
        return Err(Error::conflict(Msg::ConcertCancelled));
    }
    let order = store::order_by_id(&mut *tx, order_id)
        .await?
        .ok_or_else(|| Error::not_found(Msg::OrderNotFound))?;
    if let Some(tip) = tip_store::of_order(&mut *tx, order_id).await? {
        // A tip has no lines: it is paid, and said in the room and on the artist's panel.
        store::mark_fulfilled(&mut *tx, order_id, now).await?;
        let tipper = crate::accounts::store::by_id(&mut *tx, &order.account_id)
            .await?
            .ok_or_else(|| Error::internal("a tip's tipper is gone"))?;
        let said = announce::record(&mut tx, app, &tip, &tipper, now).await?;
        let what = tip_store::of_orders(&mut *tx, &[order_id])
            .await?
            .pop()
            .ok_or_else(|| Error::internal("a tip's concert is gone"))?;
        let thanked = thank_tipper(&mut tx, &tipper, &order, &what).await?;
        tx.commit().await?;
        said.publish(app).await;
        thanked.publish(db, &app.bus).await;
        send_tip_receipt(app, &tipper, &order, &what);
        return Ok(Fulfilment::Done);
    }
    let order_items = store::order_items(&mut *tx, order_id).await?;
    for item in &order_items {
        match item.item_kind {
            ItemKind::Event => {
                // The first is the buyer's own unless they hold one; the rest are spares
                // to keep or give. Each carries its share of the line, to the cent. A line
                // of one is the buyer's own or nothing (they got one meanwhile: refunded).
                for price_minor in money::split(item.price_minor, item.quantity) {
                    let ticket = store::NewTicket {
                        account_id: &order.account_id,
                        event_id: &item.item_id,
                        order_id,
                        price_minor,
                        may_be_spare: item.quantity > 1,
                        now,
                    };
                    if store::issue_ticket(&mut tx, &ticket).await? == store::Issued::AlreadyHeld {
                        return Err(Error::conflict(Msg::AlreadyHaveTicket));
                    }
                }
            }
            ItemKind::Pass => {
                let plan = store::plan_by_id(&mut *tx, &item.item_id)
                    .await?
                    .ok_or_else(|| Error::internal("an order's pass has no plan"))?;
                store::insert_pass(
                    &mut *tx,
                    &order.account_id,
                    &item.item_id,
                    order_id,
                    now,
                    now + plan.days * 86_400_000,
                )
                .await?;
            }
        }
        store::delete_cart_item(&mut *tx, &order.account_id, item.item_kind, &item.item_id).await?;
    }
    if order.promo_code_id.is_some() {
        // Used: the next purchase starts without it.
        promos::clear_cart(&mut *tx, &order.account_id).await?;
    }
    store::mark_fulfilled(&mut *tx, order_id, now).await?;
    // Inside the transaction: another pool connection here would wait on SQLite's one
    // writer, which is this transaction (200 buyers at once exhaust the pool).
    let buyer = crate::accounts::store::by_id(&mut *tx, &order.account_id)
        .await?
        .ok_or_else(|| Error::internal("an order's buyer is gone"))?;
    let outbox = tell_of_sale(&mut tx, &buyer, &order, &order_items).await?;
    let sales: Vec<Activity> = order_items
        .iter()
        .map(|line| Activity::sale(&buyer, line, &order.currency))
        .collect();
    for sale in &sales {
        sale.record(&mut *tx).await?;
    }
    tx.commit().await?;
    outbox.publish(db, &app.bus).await;
    for sale in sales {
        sale.publish(&app.bus).await;
    }
    send_receipt(app, &buyer, &order, &order_items);
    Ok(Fulfilment::Done)
}

/// A sale's notifications, stored with it: the buyer's confirmation and each concert's
/// artist (the staff read it in their activity feed).
async fn tell_of_sale(
    tx: &mut sqlx::AnyConnection,
    buyer: &AccountRow,
    order: &OrderRow,
    items: &[OrderItem],
) -> Result<Outbox> {
    let mut outbox = Outbox::default();
    let total = money::format(order.total_minor, &order.currency);
    let titles = items
        .iter()
        .map(|i| i.title.as_str())
        .collect::<Vec<_>>()
        .join(", ");
    let confirmed = Notice::new(
        Msg::NoticeOrderConfirmedTitle,
        Msg::NoticeOrderConfirmedBody
            .with("total", Arg::figure(total.as_str()))
            .with("items", titles.as_str()),
        // The fan's confirmation opens its receipt (the concerts are one click on from there).
        format!("/receipts/{}", order.id),
    );
    outbox.tell_account(tx, buyer, &confirmed).await?;
    for line in items.iter().filter(|i| i.item_kind == ItemKind::Event) {
        let artists = notifications::store::artists(&mut *tx, &line.item_id).await?;
        let sold = Notice::new(
            Msg::NoticeArtistSaleTitle.with("title", line.title.as_str()),
            Msg::NoticeArtistSaleBody.with(
                "amount",
                Arg::figure(money::format(line.price_minor, &order.currency)),
            ),
            "/manage-events",
        );
        outbox.tell(tx, &artists, &sold).await?;
    }
    Ok(outbox)
}

/// "Tip to {artist} for {title}": what a tip's order paid for, in `lang`.
fn tip_for(lang: crate::i18n::Lang, tip: &tip_store::TipOfOrderRow) -> String {
    Msg::TipFor
        .with("artist", tip.artist_name.as_str())
        .with("title", tip.title.as_str())
        .render(lang)
}

/// A paid tip's notification to its tipper, stored with it: what it went to, opening its
/// receipt.
async fn thank_tipper(
    tx: &mut sqlx::AnyConnection,
    tipper: &AccountRow,
    order: &OrderRow,
    tip: &tip_store::TipOfOrderRow,
) -> Result<Outbox> {
    let mut outbox = Outbox::default();
    let total = money::format(order.total_minor, &order.currency);
    let thanks = Notice::new(
        Msg::NoticeTipPaidTitle,
        Msg::NoticeOrderConfirmedBody
            .with("total", Arg::figure(total.as_str()))
            .with("items", tip_for(tipper.language, tip)),
        format!("/receipts/{}", order.id),
    );
    outbox.tell_account(tx, tipper, &thanks).await?;
    Ok(outbox)
}

/// A paid tip's receipt by e-mail (sent in the background by the messenger).
fn send_tip_receipt(
    app: &AppState,
    tipper: &AccountRow,
    order: &OrderRow,
    tip: &tip_store::TipOfOrderRow,
) {
    let what = tip_for(tipper.language, tip);
    email_receipt(
        app,
        tipper,
        order,
        Msg::TipReceiptSubject,
        Msg::TipReceiptBody.with("what", what),
    );
}

/// A receipt by e-mail (sent in the background by the messenger): `body` gets the
/// buyer's name, the order, its total and where to find it.
fn email_receipt(app: &AppState, to: &AccountRow, order: &OrderRow, subject: Msg, body: Text) {
    let total = money::format(order.total_minor, &order.currency);
    app.messenger.send(OutboundMessage::email(
        &to.login,
        subject.render(to.language),
        body.with("name", to.display_name())
            .with("order", order.id.as_str())
            .with("total", Arg::figure(total))
            .with("url", app.config.public_url.as_str())
            .render(to.language),
    ));
}

/// The receipt by e-mail (sent in the background by the messenger).
fn send_receipt(app: &AppState, account: &AccountRow, order: &OrderRow, items: &[OrderItem]) {
    let lang = account.language;
    let lines: String = items
        .iter()
        .map(|i| {
            format!(
                "  {} — {}\n",
                i.with_tier_in(lang),
                figure_in(lang, &money::format(i.price_minor, &order.currency))
            )
        })
        .collect();
    let mut lines = lines;
    if let Some(code) = &order.promo_code {
        let off = money::format(order.discount_minor, &order.currency);
        lines.push_str(&format!(
            "  {}\n",
            Msg::ReceiptPromoLine
                .with("code", code.as_str())
                .with("amount", Arg::figure(off))
                .render(lang)
        ));
    }
    email_receipt(
        app,
        account,
        order,
        Msg::ReceiptSubject,
        Msg::ReceiptBody.with("lines", lines),
    );
}
