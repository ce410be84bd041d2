//! Orders and their life: pending (seats held for 15 minutes) → paid → fulfilled, or
//! failed / expired (seats given back), and refunded. Every transition is a conditional
//! UPDATE from the expected state, so replays and races change nothing twice.

use serde::Serialize;

use crate::app::AppState;
use crate::crypto::{random_token, token_hash};
use crate::db::{Db, iso8601, now_ms};
use crate::error::{Error, Result};
use crate::i18n::Msg;
use crate::messaging::OutboundMessage;
use crate::notifications::{self, NewNotification};

use super::model::{ItemKind, OrderStatus};
use super::money;

pub const RESERVATION_MS: i64 = 15 * 60_000;

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct OrderRow {
    pub id: String,
    pub account_id: String,
    #[sqlx(try_from = "String")]
    pub status: OrderStatus,
    pub total_minor: i64,
    pub currency: String,
    pub provider: String,
    pub provider_ref: Option<String>,
    pub checkout_token_hash: String,
    pub failure: Option<String>,
    pub created_at: i64,
    pub expires_at: i64,
    pub paid_at: Option<i64>,
    pub fulfilled_at: Option<i64>,
    pub refunded_at: Option<i64>,
}

#[derive(Debug, Clone, sqlx::FromRow, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OrderItem {
    #[sqlx(try_from = "String")]
    pub item_kind: ItemKind,
    pub item_id: String,
    pub title: String,
    #[serde(rename = "price")]
    pub price_minor: i64,
}

const COLUMNS: &str = "id, account_id, status, total_minor, currency, provider, provider_ref, \
    checkout_token_hash, failure, created_at, expires_at, paid_at, fulfilled_at, refunded_at";

pub async fn by_id(db: &Db, id: &str) -> Result<Option<OrderRow>> {
    Ok(sqlx::query_as::<_, OrderRow>(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM orders WHERE id = $1"
    )))
    .bind(id)
    .fetch_optional(db)
    .await?)
}

pub async fn items(db: &Db, order_id: &str) -> Result<Vec<OrderItem>> {
    Ok(sqlx::query_as::<_, OrderItem>(
        "SELECT item_kind, item_id, title, price_minor FROM order_items WHERE order_id = $1 \
         ORDER BY item_kind, title",
    )
    .bind(order_id)
    .fetch_all(db)
    .await?)
}

pub async fn list(
    db: &Db,
    account_id: Option<&str>,
    page: i64,
    page_size: i64,
) -> Result<(Vec<OrderRow>, i64)> {
    let offset = (page - 1) * page_size;
    let (filter, arg) = match account_id {
        Some(id) => ("WHERE account_id = $1", Some(id)),
        None => ("", None),
    };
    let mut rows = sqlx::query_as::<_, OrderRow>(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM orders {filter} ORDER BY created_at DESC, id \
         LIMIT {page_size} OFFSET {offset}"
    )));
    let mut count = sqlx::query_as::<_, (i64,)>(sqlx::AssertSqlSafe(format!(
        "SELECT COUNT(*) FROM orders {filter}"
    )));
    if let Some(id) = arg {
        rows = rows.bind(id);
        count = count.bind(id);
    }
    Ok((rows.fetch_all(db).await?, count.fetch_one(db).await?.0))
}

/// The API shape of an order.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Order {
    pub id: String,
    pub account_id: String,
    pub status: OrderStatus,
    pub total: i64,
    pub currency: String,
    pub provider: String,
    pub failure: Option<String>,
    pub created_at: String,
    pub expires_at: String,
    pub paid_at: Option<String>,
    pub refunded_at: Option<String>,
    pub items: Vec<OrderItem>,
}

pub async fn view(db: &Db, row: OrderRow) -> Result<Order> {
    let items = items(db, &row.id).await?;
    Ok(Order {
        items,
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
    })
}

/// What goes into a new order.
pub struct NewItem {
    pub kind: ItemKind,
    pub id: String,
    pub title: String,
    pub price_minor: i64,
}

/// Whether a seat may only be held while the concert is on sale.
#[derive(Clone, Copy, PartialEq, Eq)]
enum OnSale {
    Required,
    /// A payment that arrived after its hold lapsed: honour it if a seat is free.
    NotRequired,
}

/// Take one seat of a concert, never above its capacity. The conditional increment takes
/// the concert's row lock (the write lock on SQLite), so concurrent buyers queue here.
async fn hold_seat(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    event_id: &str,
    on_sale: OnSale,
) -> Result<bool> {
    let sql = match on_sale {
        OnSale::Required => {
            "UPDATE events SET seats_taken = seats_taken + 1 WHERE id = $1 \
             AND status IN ('published', 'live', 'ended') \
             AND (capacity IS NULL OR seats_taken < capacity)"
        }
        OnSale::NotRequired => {
            "UPDATE events SET seats_taken = seats_taken + 1 WHERE id = $1 \
             AND (capacity IS NULL OR seats_taken < capacity)"
        }
    };
    let held = sqlx::query(sql)
        .bind(event_id)
        .execute(&mut **tx)
        .await?
        .rows_affected();
    Ok(held == 1)
}

/// Replace the account's earlier checkout, hold a seat per concert and write the pending
/// order, all or nothing. Answers the order id and its checkout token (the capability to
/// pay it).
pub async fn create_pending(
    db: &Db,
    account_id: &str,
    client_ip: Option<&str>,
    items: &[NewItem],
    currency: &str,
    provider: &str,
) -> Result<(String, String)> {
    let order_id = uuid::Uuid::new_v4().to_string();
    let token = random_token(32);
    let now = now_ms();
    let total: i64 = items.iter().map(|i| i.price_minor).sum();
    let mut tx = db.begin().await?;
    // One account's checkouts take turns (a no-op write locks its row on PostgreSQL and
    // the database on SQLite): a second one then sees the first's order and replaces it,
    // instead of both holding seats and meeting at the one-pending-order index.
    sqlx::query("UPDATE accounts SET enabled = enabled WHERE id = $1")
        .bind(account_id)
        .execute(&mut *tx)
        .await?;
    // The earlier checkout is replaced and its seats go back. Every writer takes the
    // order rows before the concert rows (as `close_unpaid` does), and a checkout holds
    // its concerts in id order, so concurrent checkouts cannot deadlock.
    let replaced: Vec<(String,)> = sqlx::query_as(
        "UPDATE orders SET status = 'expired', failure = 'replaced by a newer checkout' \
         WHERE account_id = $1 AND status = 'pending' RETURNING id",
    )
    .bind(account_id)
    .fetch_all(&mut *tx)
    .await?;
    for (id,) in &replaced {
        release_seats(&mut tx, id).await?;
    }
    // Seats next, so concurrent buyers queue on the concert row and none is oversold.
    let mut concerts: Vec<&NewItem> = items.iter().filter(|i| i.kind == ItemKind::Event).collect();
    concerts.sort_by(|a, b| a.id.cmp(&b.id));
    for item in concerts {
        if !hold_seat(&mut tx, &item.id, OnSale::Required).await? {
            tx.rollback().await?;
            return Err(Error::conflict(
                Msg::SoldOut.with("title", item.title.as_str()),
            ));
        }
    }
    // The database allows one pending order per account: of two checkouts racing, the
    // second fails here and its seats are rolled back with the transaction.
    sqlx::query(
        "INSERT INTO orders (id, account_id, status, total_minor, currency, provider, \
         checkout_token_hash, created_at, expires_at, client_ip) \
         VALUES ($1, $2, 'pending', $3, $4, $5, $6, $7, $8, $9)",
    )
    .bind(&order_id)
    .bind(account_id)
    .bind(total)
    .bind(currency)
    .bind(provider)
    .bind(token_hash(&token))
    .bind(now)
    .bind(now + RESERVATION_MS)
    .bind(client_ip)
    .execute(&mut *tx)
    .await
    .map_err(|e| crate::error::conflict_on_unique(e, Msg::CheckoutInProgress))?;
    for item in items {
        sqlx::query(
            "INSERT INTO order_items (order_id, item_kind, item_id, title, price_minor) \
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(&order_id)
        .bind(item.kind.as_str())
        .bind(&item.id)
        .bind(&item.title)
        .bind(item.price_minor)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    Ok((order_id, token))
}

pub async fn set_provider_ref(db: &Db, order_id: &str, provider_ref: &str) -> Result<()> {
    sqlx::query("UPDATE orders SET provider_ref = $2 WHERE id = $1")
        .bind(order_id)
        .bind(provider_ref)
        .execute(db)
        .await?;
    Ok(())
}

/// Give the seats of an order's concerts back.
async fn release_seats(tx: &mut sqlx::Transaction<'_, sqlx::Any>, order_id: &str) -> Result<()> {
    sqlx::query(
        "UPDATE events SET seats_taken = seats_taken - 1 WHERE seats_taken > 0 AND id IN \
         (SELECT item_id FROM order_items WHERE order_id = $1 AND item_kind = 'event')",
    )
    .bind(order_id)
    .execute(&mut **tx)
    .await?;
    Ok(())
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
    let closed = sqlx::query(
        "UPDATE orders SET status = $2, failure = $3 WHERE id = $1 AND status = 'pending'",
    )
    .bind(order_id)
    .bind(OrderStatus::from(end).as_str())
    .bind(failure)
    .execute(&mut *tx)
    .await?
    .rows_affected();
    if closed == 1 {
        release_seats(&mut tx, order_id).await?;
    }
    tx.commit().await?;
    Ok(closed == 1)
}

/// Expire every pending order past its reservation. Answers how many expired.
pub async fn expire_overdue(db: &Db) -> Result<usize> {
    let overdue: Vec<(String,)> =
        sqlx::query_as("SELECT id FROM orders WHERE status = 'pending' AND expires_at <= $1")
            .bind(now_ms())
            .fetch_all(db)
            .await?;
    let mut expired = 0;
    for (id,) in overdue {
        if close_unpaid(db, &id, Unpaid::Expired, None).await? {
            expired += 1;
        }
    }
    Ok(expired)
}

/// Pending orders held from one client address by accounts other than `account_id`,
/// and when the first of them lapses.
pub async fn pending_from_client(
    db: &Db,
    client_ip: &str,
    account_id: &str,
) -> Result<(i64, Option<i64>)> {
    Ok(sqlx::query_as(
        "SELECT COUNT(*), MIN(expires_at) FROM orders \
         WHERE status = 'pending' AND client_ip = $1 AND account_id <> $2",
    )
    .bind(client_ip)
    .bind(account_id)
    .fetch_one(db)
    .await?)
}

/// The Stripe Checkout Sessions of an account's open checkout (expired when a new
/// checkout replaces it, so the old one can no longer be paid).
pub async fn pending_sessions(db: &Db, account_id: &str) -> Result<Vec<String>> {
    let rows: Vec<(String,)> = sqlx::query_as(
        "SELECT provider_ref FROM orders WHERE account_id = $1 AND status = 'pending' \
         AND provider = 'stripe' AND provider_ref IS NOT NULL",
    )
    .bind(account_id)
    .fetch_all(db)
    .await?;
    Ok(rows.into_iter().map(|(session,)| session).collect())
}

/// Close every open checkout that holds a seat of a cancelled concert; answers the
/// Stripe sessions to expire.
pub async fn close_pending_for_event(db: &Db, event_id: &str) -> Result<Vec<String>> {
    let pending: Vec<(String, String, Option<String>)> = sqlx::query_as(
        "SELECT o.id, o.provider, o.provider_ref FROM orders o \
         WHERE o.status = 'pending' AND EXISTS (SELECT 1 FROM order_items i \
         WHERE i.order_id = o.id AND i.item_kind = 'event' AND i.item_id = $1)",
    )
    .bind(event_id)
    .fetch_all(db)
    .await?;
    let mut sessions = Vec::new();
    for (id, provider, session) in pending {
        if close_unpaid(db, &id, Unpaid::Failed, Some("the concert was cancelled")).await?
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
    let from_pending = sqlx::query(
        "UPDATE orders SET status = 'paid', paid_at = $2, provider_ref = COALESCE($3, provider_ref) \
         WHERE id = $1 AND status = 'pending'",
    )
    .bind(order_id)
    .bind(now)
    .bind(provider_ref)
    .execute(&mut *tx)
    .await?
    .rows_affected();
    if from_pending == 0 {
        let order = by_id(db, order_id)
            .await?
            .ok_or_else(|| Error::not_found(Msg::OrderNotFound))?;
        match order.status {
            status if status.is_settled() => return Ok(Fulfilment::AlreadyDone),
            _ => {
                // Paid after the hold lapsed: take the seats again if they are free.
                let revived = sqlx::query(
                    "UPDATE orders SET status = 'paid', paid_at = $2, failure = NULL, \
                     provider_ref = COALESCE($3, provider_ref) \
                     WHERE id = $1 AND status IN ('expired', 'failed')",
                )
                .bind(order_id)
                .bind(now)
                .bind(provider_ref)
                .execute(&mut *tx)
                .await?
                .rows_affected();
                if revived == 0 {
                    return Ok(Fulfilment::AlreadyDone);
                }
                for item in items(db, order_id)
                    .await?
                    .iter()
                    .filter(|i| i.item_kind == ItemKind::Event)
                {
                    if !hold_seat(&mut tx, &item.item_id, OnSale::NotRequired).await? {
                        tx.rollback().await?;
                        return Err(Error::conflict(
                            Msg::SoldOutBeforePayment.with("title", item.title.as_str()),
                        ));
                    }
                }
            }
        }
    }
    // A concert cancelled since the checkout began is never sold, whatever was paid:
    // the caller gives the money back.
    let (cancelled,): (i64,) = sqlx::query_as(
        "SELECT COUNT(*) FROM order_items i JOIN events e ON e.id = i.item_id \
         WHERE i.order_id = $1 AND i.item_kind = 'event' AND e.status = 'cancelled'",
    )
    .bind(order_id)
    .fetch_one(&mut *tx)
    .await?;
    if cancelled > 0 {
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
    let order = sqlx::query_as::<_, OrderRow>(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM orders WHERE id = $1"
    )))
    .bind(order_id)
    .fetch_one(&mut *tx)
    .await?;
    let order_items = sqlx::query_as::<_, OrderItem>(
        "SELECT item_kind, item_id, title, price_minor FROM order_items WHERE order_id = $1",
    )
    .bind(order_id)
    .fetch_all(&mut *tx)
    .await?;
    for item in &order_items {
        match item.item_kind {
            ItemKind::Event => {
                sqlx::query(
                    "INSERT INTO tickets (id, account_id, event_id, order_id, created_at) \
                     VALUES ($1, $2, $3, $4, $5)",
                )
                .bind(uuid::Uuid::new_v4().to_string())
                .bind(&order.account_id)
                .bind(&item.item_id)
                .bind(order_id)
                .bind(now)
                .execute(&mut *tx)
                .await
                .map_err(|e| crate::error::conflict_on_unique(e, Msg::AlreadyHaveTicket))?;
            }
            ItemKind::Pass => {
                let (days,): (i64,) =
                    sqlx::query_as("SELECT days FROM pricing_plans WHERE id = $1")
                        .bind(&item.item_id)
                        .fetch_one(&mut *tx)
                        .await?;
                sqlx::query(
                    "INSERT INTO passes (id, account_id, plan_id, order_id, valid_from, valid_until, created_at) \
                     VALUES ($1, $2, $3, $4, $5, $6, $5)",
                )
                .bind(uuid::Uuid::new_v4().to_string())
                .bind(&order.account_id)
                .bind(&item.item_id)
                .bind(order_id)
                .bind(now)
                .bind(now + days * 86_400_000)
                .execute(&mut *tx)
                .await?;
            }
        }
        sqlx::query(
            "DELETE FROM cart_items WHERE account_id = $1 AND item_kind = $2 AND item_id = $3",
        )
        .bind(&order.account_id)
        .bind(item.item_kind.as_str())
        .bind(&item.item_id)
        .execute(&mut *tx)
        .await?;
    }
    sqlx::query("UPDATE orders SET status = 'fulfilled', fulfilled_at = $2 WHERE id = $1")
        .bind(order_id)
        .bind(now)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    send_receipt(app, &order, &order_items).await;
    Ok(Fulfilment::Done)
}

async fn send_receipt(app: &AppState, order: &OrderRow, items: &[OrderItem]) {
    let Ok(Some(account)) = crate::accounts::store::by_id(&app.db, &order.account_id).await else {
        return;
    };
    let lines: String = items
        .iter()
        .map(|i| {
            format!(
                "  {} — {}\n",
                i.title,
                money::format(i.price_minor, &order.currency)
            )
        })
        .collect();
    let lang = account.language;
    let total = money::format(order.total_minor, &order.currency);
    app.messenger.send(OutboundMessage::email(
        &account.login,
        Msg::ReceiptSubject.render(lang),
        Msg::ReceiptBody
            .with("name", account.display_name())
            .with("order", order.id.as_str())
            .with("lines", lines)
            .with("total", total.as_str())
            .with("url", app.config.public_url.as_str())
            .render(lang),
    ));
    let _ = notifications::notify(
        &app.db,
        &order.account_id,
        &NewNotification::topic(
            Msg::OrderConfirmedTitle.render(lang),
            Msg::OrderConfirmedBody
                .with("count", items.len())
                .with("total", total)
                .render(lang),
        ),
    )
    .await;
}
