//! Every query of the commerce domain: orders and their lines, seats, tickets, passes,
//! refunds, the cart, pricing plans, the billing profile and payment webhooks. One
//! function per statement; the rules that combine them (and their transactions) live in
//! `orders`, `refunds`, `checkout` and `cart`.

use super::model::{BillingRow, ItemKind, OrderItem, OrderRow, OrderStatus, PlanRow};
use crate::db::Db;
pub use crate::db::Exec;
use crate::error::Result;
use crate::paging::Paging;

const ORDER_COLUMNS: &str = "id, account_id, status, total_minor, currency, provider, \
    provider_ref, checkout_token_hash, failure, created_at, expires_at, paid_at, fulfilled_at, \
    refunded_at, connect_account, application_fee_minor, promo_code_id, promo_code, discount_minor";

const PLAN_COLUMNS: &str = "id, name, description, price_minor, currency, days, active";

// -------------------------------------------------------------------------------- orders

#[tracing::instrument(skip_all)]
pub async fn order_by_id<'e>(db: impl Exec<'e>, id: &str) -> Result<Option<OrderRow>> {
    Ok(sqlx::query_as::<_, OrderRow>(sqlx::AssertSqlSafe(format!(
        "SELECT {ORDER_COLUMNS} FROM orders WHERE id = $1"
    )))
    .bind(id)
    .fetch_optional(db)
    .await?)
}

/// What a list of orders is narrowed to.
#[derive(Debug, Default, Clone, Copy)]
pub struct OrderFilter<'a> {
    /// One buyer's orders only.
    pub account_id: Option<&'a str>,
    pub status: Option<OrderStatus>,
    /// Part of the buyer's e-mail or name, of the order's id, or of a line's title
    /// (case-insensitive; `%` and `_` match themselves).
    pub search: Option<&'a str>,
}

impl OrderFilter<'_> {
    /// The WHERE clause and its arguments, numbered from `$1`.
    fn clause(&self) -> (String, Vec<String>) {
        let mut clauses = Vec::new();
        let mut args = Vec::new();
        if let Some(id) = self.account_id {
            args.push(id.to_owned());
            clauses.push(format!("account_id = ${}", args.len()));
        }
        if let Some(status) = self.status {
            args.push(status.as_str().to_owned());
            clauses.push(format!("status = ${}", args.len()));
        }
        if let Some(search) = self.search.map(str::trim).filter(|s| !s.is_empty()) {
            args.push(crate::db::contains_pattern(search));
            let n = args.len();
            clauses.push(format!(
                "(LOWER(id) LIKE ${n} ESCAPE '\\' \
                 OR account_id IN (SELECT a.id FROM accounts a \
                     WHERE LOWER(a.login) LIKE ${n} ESCAPE '\\' \
                     OR LOWER(a.first_name || ' ' || a.last_name) LIKE ${n} ESCAPE '\\') \
                 OR EXISTS (SELECT 1 FROM order_items i WHERE i.order_id = orders.id \
                     AND LOWER(i.title) LIKE ${n} ESCAPE '\\'))"
            ));
        }
        if clauses.is_empty() {
            (String::new(), args)
        } else {
            (format!("WHERE {}", clauses.join(" AND ")), args)
        }
    }
}

/// One page of orders matching the filter, newest first, and how many match in all.
#[tracing::instrument(skip_all)]
pub async fn list_orders(
    db: &Db,
    filter: OrderFilter<'_>,
    paging: Paging,
) -> Result<(Vec<OrderRow>, i64)> {
    let rows = orders_matching(db, filter, &paging.limit_offset()).await?;
    let (where_sql, args) = filter.clause();
    let mut count = sqlx::query_as::<_, (i64,)>(sqlx::AssertSqlSafe(format!(
        "SELECT COUNT(*) FROM orders {where_sql}"
    )));
    for arg in &args {
        count = count.bind(arg.as_str());
    }
    Ok((rows, count.fetch_one(db).await?.0))
}

/// Every order matching the filter, newest first, at most `max` of them; and whether
/// there were more.
#[tracing::instrument(skip_all, fields(max = max))]
pub async fn export_orders(
    db: &Db,
    filter: OrderFilter<'_>,
    max: i64,
) -> Result<(Vec<OrderRow>, bool)> {
    // One more than asked tells whether the export was cut.
    orders_matching(db, filter, &format!("LIMIT {}", max + 1))
        .await
        .map(|mut rows| {
            let cut = rows.len() as i64 > max;
            rows.truncate(usize::try_from(max).unwrap_or(0));
            (rows, cut)
        })
}

#[tracing::instrument(skip_all)]
async fn orders_matching(db: &Db, filter: OrderFilter<'_>, tail: &str) -> Result<Vec<OrderRow>> {
    let (where_sql, args) = filter.clause();
    let mut rows = sqlx::query_as::<_, OrderRow>(sqlx::AssertSqlSafe(format!(
        "SELECT {ORDER_COLUMNS} FROM orders {where_sql} ORDER BY created_at DESC, id {tail}"
    )));
    for arg in &args {
        rows = rows.bind(arg.as_str());
    }
    Ok(rows.fetch_all(db).await?)
}

#[tracing::instrument(skip_all)]
pub async fn order_items<'e>(db: impl Exec<'e>, order_id: &str) -> Result<Vec<OrderItem>> {
    Ok(sqlx::query_as::<_, OrderItem>(
        "SELECT order_id, item_kind, item_id, title, price_minor, tier_id, tier_name, quantity \
         FROM order_items WHERE order_id = $1 ORDER BY item_kind, title",
    )
    .bind(order_id)
    .fetch_all(db)
    .await?)
}

/// The lines of several orders in one query (a page of orders).
#[tracing::instrument(skip_all, fields(orders = order_ids.len()))]
pub async fn items_of_orders(db: &Db, order_ids: &[&str]) -> Result<Vec<OrderItem>> {
    if order_ids.is_empty() {
        return Ok(Vec::new());
    }
    let placeholders: Vec<String> = (1..=order_ids.len()).map(|i| format!("${i}")).collect();
    let mut query = sqlx::query_as::<_, OrderItem>(sqlx::AssertSqlSafe(format!(
        "SELECT order_id, item_kind, item_id, title, price_minor, tier_id, tier_name, quantity \
         FROM order_items WHERE order_id IN ({}) ORDER BY item_kind, title",
        placeholders.join(", ")
    )));
    for id in order_ids {
        query = query.bind(*id);
    }
    Ok(query.fetch_all(db).await?)
}

/// A no-op write on the account's row: one account's checkouts take turns behind it
/// (the row lock on PostgreSQL, the write lock on SQLite).
#[tracing::instrument(skip_all)]
pub async fn lock_account_for_checkout<'e>(db: impl Exec<'e>, account_id: &str) -> Result<()> {
    sqlx::query("UPDATE accounts SET enabled = enabled WHERE id = $1")
        .bind(account_id)
        .execute(db)
        .await?;
    Ok(())
}

/// Expire the account's pending order (a newer checkout replaces it); answers its id.
#[tracing::instrument(skip_all)]
pub async fn replace_pending_of_account<'e>(
    db: impl Exec<'e>,
    account_id: &str,
) -> Result<Vec<String>> {
    let rows: Vec<(String,)> = sqlx::query_as(
        "UPDATE orders SET status = 'expired', failure = 'replaced by a newer checkout' \
         WHERE account_id = $1 AND status = 'pending' RETURNING id",
    )
    .bind(account_id)
    .fetch_all(db)
    .await?;
    Ok(rows.into_iter().map(|(id,)| id).collect())
}

pub struct NewOrder<'a> {
    pub id: &'a str,
    pub account_id: &'a str,
    pub total_minor: i64,
    pub currency: &'a str,
    pub provider: &'a str,
    pub checkout_token_hash: &'a str,
    pub created_at: i64,
    pub expires_at: i64,
    pub client_ip: Option<&'a str>,
    /// The promo code it carries (id and code as typed by its managers) and what it took
    /// off the order.
    pub promo: Option<(&'a str, &'a str, i64)>,
}

/// Write a pending order. The one-pending-order-per-account index may refuse it.
#[tracing::instrument(skip_all)]
pub async fn insert_pending_order<'e>(
    db: impl Exec<'e>,
    order: &NewOrder<'_>,
) -> std::result::Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO orders (id, account_id, status, total_minor, currency, provider, \
         checkout_token_hash, created_at, expires_at, client_ip, promo_code_id, promo_code, \
         discount_minor) \
         VALUES ($1, $2, 'pending', $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
    )
    .bind(order.id)
    .bind(order.account_id)
    .bind(order.total_minor)
    .bind(order.currency)
    .bind(order.provider)
    .bind(order.checkout_token_hash)
    .bind(order.created_at)
    .bind(order.expires_at)
    .bind(order.client_ip)
    .bind(order.promo.map(|(id, _, _)| id))
    .bind(order.promo.map(|(_, code, _)| code))
    .bind(order.promo.map_or(0, |(_, _, off)| off))
    .execute(db)
    .await?;
    Ok(())
}

/// An order line to write: `quantity` tickets of a concert's tier (its id and name), or a
/// pass; `price_minor` is what the whole line costs.
pub struct NewLine<'a> {
    pub kind: ItemKind,
    pub item_id: &'a str,
    pub title: &'a str,
    pub price_minor: i64,
    pub tier: Option<(&'a str, &'a str)>,
    pub quantity: i64,
    /// What the order's promo code took off the line (`price_minor` is after it).
    pub discount_minor: i64,
}

#[tracing::instrument(skip_all)]
pub async fn insert_order_item<'e>(
    db: impl Exec<'e>,
    order_id: &str,
    line: NewLine<'_>,
) -> Result<()> {
    let NewLine {
        kind,
        item_id,
        title,
        price_minor,
        tier,
        quantity,
        discount_minor,
    } = line;
    sqlx::query(
        "INSERT INTO order_items (order_id, item_kind, item_id, title, price_minor, tier_id, \
         tier_name, quantity, discount_minor) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
    )
    .bind(order_id)
    .bind(kind.as_str())
    .bind(item_id)
    .bind(title)
    .bind(price_minor)
    .bind(tier.map(|(id, _)| id))
    .bind(tier.map(|(_, name)| name))
    .bind(quantity)
    .bind(discount_minor)
    .execute(db)
    .await?;
    Ok(())
}

/// A destination charge's connected account and application fee, once its Stripe
/// session is made.
#[tracing::instrument(skip_all)]
pub async fn set_destination(
    db: &Db,
    order_id: &str,
    account: &str,
    application_fee: i64,
) -> Result<()> {
    sqlx::query("UPDATE orders SET connect_account = $2, application_fee_minor = $3 WHERE id = $1")
        .bind(order_id)
        .bind(account)
        .bind(application_fee)
        .execute(db)
        .await?;
    Ok(())
}

/// The fee the payment provider reported it took on an order.
#[tracing::instrument(skip_all)]
pub async fn set_fee(db: &Db, order_id: &str, fee_minor: i64) -> Result<()> {
    sqlx::query("UPDATE orders SET fee_minor = $2 WHERE id = $1")
        .bind(order_id)
        .bind(fee_minor)
        .execute(db)
        .await?;
    Ok(())
}

#[tracing::instrument(skip_all)]
pub async fn set_provider_ref(db: &Db, order_id: &str, provider_ref: &str) -> Result<()> {
    sqlx::query("UPDATE orders SET provider_ref = $2 WHERE id = $1")
        .bind(order_id)
        .bind(provider_ref)
        .execute(db)
        .await?;
    Ok(())
}

/// Take `seats` seats of a concert at once, never above its capacity; `on_sale_only` also
/// requires the concert to be on sale. The conditional increment takes the concert's row
/// lock.
#[tracing::instrument(skip_all)]
pub async fn take_seats<'e>(
    db: impl Exec<'e>,
    event_id: &str,
    seats: i64,
    on_sale_only: bool,
) -> Result<bool> {
    let sql = if on_sale_only {
        "UPDATE events SET seats_taken = seats_taken + $2 WHERE id = $1 \
         AND status IN ('published', 'live', 'ended') \
         AND (capacity IS NULL OR seats_taken + $2 <= capacity)"
    } else {
        "UPDATE events SET seats_taken = seats_taken + $2 WHERE id = $1 \
         AND (capacity IS NULL OR seats_taken + $2 <= capacity)"
    };
    let held = sqlx::query(sql)
        .bind(event_id)
        .bind(seats)
        .execute(db)
        .await?;
    Ok(held.rows_affected() == 1)
}

/// Whose seats an order gives back.
#[derive(Debug, Clone, Copy)]
pub enum SeatsOf {
    /// Those its concert lines hold: a checkout that did not complete.
    Lines,
    /// Those of its live tickets: a refund.
    LiveTickets,
}

/// Give back the seats `of` an order: the concerts', then their tiers' (the order every
/// writer locks their rows in).
#[tracing::instrument(skip_all)]
pub async fn release_seats(
    conn: &mut sqlx::AnyConnection,
    order_id: &str,
    of: SeatsOf,
) -> Result<()> {
    // A line holds `quantity` seats; each live ticket one. Never below 0 (a portable
    // `max`: PostgreSQL has no two-argument one).
    let (lines_of_concert, lines_of_tier, tickets_of_concert, tickets_of_tier) = (
        "SELECT SUM(quantity) FROM order_items WHERE order_id = $1 AND item_kind = 'event' \
         AND item_id = events.id",
        "SELECT SUM(quantity) FROM order_items WHERE order_id = $1 AND item_kind = 'event' \
         AND tier_id = ticket_tiers.id",
        "SELECT COUNT(*) FROM tickets WHERE order_id = $1 AND revoked_at IS NULL \
         AND event_id = events.id",
        "SELECT COUNT(*) FROM tickets WHERE order_id = $1 AND revoked_at IS NULL \
         AND tier_id = ticket_tiers.id",
    );
    let give_back = |table: &str, held: &str, of: &str| {
        format!(
            "UPDATE {table} SET seats_taken = CASE WHEN seats_taken > ({held}) \
             THEN seats_taken - ({held}) ELSE 0 END WHERE id IN ({of})"
        )
    };
    let [concerts, tiers] = match of {
        SeatsOf::Lines => [
            give_back(
                "events",
                lines_of_concert,
                "SELECT item_id FROM order_items WHERE order_id = $1 AND item_kind = 'event'",
            ),
            give_back(
                "ticket_tiers",
                lines_of_tier,
                "SELECT tier_id FROM order_items WHERE order_id = $1 AND item_kind = 'event'",
            ),
        ],
        SeatsOf::LiveTickets => [
            give_back(
                "events",
                tickets_of_concert,
                "SELECT event_id FROM tickets WHERE order_id = $1 AND revoked_at IS NULL",
            ),
            give_back(
                "ticket_tiers",
                tickets_of_tier,
                "SELECT tier_id FROM tickets WHERE order_id = $1 AND revoked_at IS NULL",
            ),
        ],
    };
    for sql in [concerts, tiers] {
        sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(order_id)
            .execute(&mut *conn)
            .await?;
    }
    Ok(())
}

/// Pending → `status` (expired or failed). False when the order was no longer pending.
#[tracing::instrument(skip_all, fields(status = status.as_str()))]
pub async fn close_pending<'e>(
    db: impl Exec<'e>,
    order_id: &str,
    status: OrderStatus,
    failure: Option<&str>,
) -> Result<bool> {
    let closed = sqlx::query(
        "UPDATE orders SET status = $2, failure = $3 WHERE id = $1 AND status = 'pending'",
    )
    .bind(order_id)
    .bind(status.as_str())
    .bind(failure)
    .execute(db)
    .await?;
    Ok(closed.rows_affected() == 1)
}

/// A refused attempt to pay a pending order: the order stays pending (its seats held, its
/// checkout open for another card) and keeps why the attempt failed. False when the order
/// was no longer pending.
#[tracing::instrument(skip_all)]
pub async fn note_refused_attempt<'e>(
    db: impl Exec<'e>,
    order_id: &str,
    failure: &str,
) -> Result<bool> {
    let noted = sqlx::query("UPDATE orders SET failure = $2 WHERE id = $1 AND status = 'pending'")
        .bind(order_id)
        .bind(failure)
        .execute(db)
        .await?;
    Ok(noted.rows_affected() == 1)
}

#[tracing::instrument(skip_all)]
pub async fn overdue_pending(db: &Db, now: i64) -> Result<Vec<String>> {
    let rows: Vec<(String,)> =
        sqlx::query_as("SELECT id FROM orders WHERE status = 'pending' AND expires_at <= $1")
            .bind(now)
            .fetch_all(db)
            .await?;
    Ok(rows.into_iter().map(|(id,)| id).collect())
}

/// Pending orders held from one client address by accounts other than `account_id`,
/// and when the first of them lapses.
#[tracing::instrument(skip_all)]
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

/// The Stripe Checkout Sessions of an account's open checkout.
#[tracing::instrument(skip_all)]
pub async fn pending_stripe_sessions(db: &Db, account_id: &str) -> Result<Vec<String>> {
    let rows: Vec<(String,)> = sqlx::query_as(
        "SELECT provider_ref FROM orders WHERE account_id = $1 AND status = 'pending' \
         AND provider = 'stripe' AND provider_ref IS NOT NULL",
    )
    .bind(account_id)
    .fetch_all(db)
    .await?;
    Ok(rows.into_iter().map(|(session,)| session).collect())
}

/// Open checkouts holding a seat of a concert: (order, provider, provider reference).
#[tracing::instrument(skip_all)]
pub async fn pending_for_event<'e>(
    db: impl Exec<'e>,
    event_id: &str,
) -> Result<Vec<(String, String, Option<String>)>> {
    Ok(sqlx::query_as(
        "SELECT o.id, o.provider, o.provider_ref FROM orders o \
         WHERE o.status = 'pending' AND EXISTS (SELECT 1 FROM order_items i \
         WHERE i.order_id = o.id AND i.item_kind = 'event' AND i.item_id = $1)",
    )
    .bind(event_id)
    .fetch_all(db)
    .await?)
}

/// Pending → paid. False when the order was not pending.
#[tracing::instrument(skip_all)]
pub async fn mark_paid<'e>(
    db: impl Exec<'e>,
    order_id: &str,
    now: i64,
    provider_ref: Option<&str>,
) -> Result<bool> {
    let paid = sqlx::query(
        "UPDATE orders SET status = 'paid', paid_at = $2, failure = NULL, \
         provider_ref = COALESCE($3, provider_ref) WHERE id = $1 AND status = 'pending'",
    )
    .bind(order_id)
    .bind(now)
    .bind(provider_ref)
    .execute(db)
    .await?;
    Ok(paid.rows_affected() == 1)
}

/// Expired or failed → paid: a payment that arrived after its hold lapsed.
#[tracing::instrument(skip_all)]
pub async fn mark_lapsed_paid<'e>(
    db: impl Exec<'e>,
    order_id: &str,
    now: i64,
    provider_ref: Option<&str>,
) -> Result<bool> {
    let revived = sqlx::query(
        "UPDATE orders SET status = 'paid', paid_at = $2, failure = NULL, \
         provider_ref = COALESCE($3, provider_ref) \
         WHERE id = $1 AND status IN ('expired', 'failed')",
    )
    .bind(order_id)
    .bind(now)
    .bind(provider_ref)
    .execute(db)
    .await?;
    Ok(revived.rows_affected() == 1)
}

/// How many of an order's concerts have been cancelled.
#[tracing::instrument(skip_all)]
pub async fn cancelled_concerts_of_order<'e>(db: impl Exec<'e>, order_id: &str) -> Result<i64> {
    // A tip's concert counts as its order's (a tip to a cancelled concert is never kept).
    let (cancelled,): (i64,) = sqlx::query_as(
        "SELECT (SELECT COUNT(*) FROM order_items i JOIN events e ON e.id = i.item_id \
          WHERE i.order_id = $1 AND i.item_kind = 'event' AND e.status = 'cancelled') \
         + (SELECT COUNT(*) FROM tips t JOIN events e ON e.id = t.event_id \
          WHERE t.order_id = $1 AND e.status = 'cancelled')",
    )
    .bind(order_id)
    .fetch_one(db)
    .await?;
    Ok(cancelled)
}

#[tracing::instrument(skip_all)]
pub async fn mark_fulfilled<'e>(db: impl Exec<'e>, order_id: &str, now: i64) -> Result<()> {
    let sql = "UPDATE orders SET status = 'fulfilled', fulfilled_at = $2 WHERE id = $1";
    on_order_at(db, sql, order_id, now).await.map(drop)
}

/// Run a statement whose `$1` is an order's id and `$2` the time; how many rows it changed.
async fn on_order_at<'e>(
    db: impl Exec<'e>,
    sql: &'static str,
    order_id: &str,
    now: i64,
) -> Result<u64> {
    let done = sqlx::query(sql)
        .bind(order_id)
        .bind(now)
        .execute(db)
        .await?;
    Ok(done.rows_affected())
}

// ------------------------------------------------------------------- tickets and passes

/// A ticket to issue: its order line's concert, and its share of what the line cost.
pub struct NewTicket<'a> {
    pub account_id: &'a str,
    pub event_id: &'a str,
    pub order_id: &'a str,
    pub price_minor: i64,
    /// Whether it may be a spare when the buyer holds an own ticket of the concert already
    /// (a line of several); a line of one is for the buyer to listen with, or nothing.
    pub may_be_spare: bool,
    pub now: i64,
}

/// How a ticket was issued.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Issued {
    Own,
    Spare,
    /// Not at all: the buyer holds an own ticket and it could not be a spare.
    AlreadyHeld,
}

/// Issue a ticket of the tier its order line names, as the buyer's own if they hold no
/// own live ticket of the concert, else as a spare if it may be one (the
/// one-ticket-per-concert index decides, so racing issues cannot both make one theirs).
#[tracing::instrument(skip_all)]
pub async fn issue_ticket(
    conn: &mut sqlx::AnyConnection,
    ticket: &NewTicket<'_>,
) -> std::result::Result<Issued, sqlx::Error> {
    let insert = |spare: bool| {
        let on_conflict = if spare {
            ""
        } else {
            " ON CONFLICT (account_id, event_id) \
              WHERE revoked_at IS NULL AND given_at IS NULL AND spare = 0 DO NOTHING"
        };
        format!(
            "INSERT INTO tickets (id, account_id, event_id, order_id, created_at, tier_id, \
             price_minor, spare) \
             VALUES ($1, $2, $3, $4, $5, (SELECT tier_id FROM order_items WHERE order_id = $4 \
             AND item_kind = 'event' AND item_id = $3), $6, {}){on_conflict}",
            i64::from(spare)
        )
    };
    let tries: &[bool] = if ticket.may_be_spare {
        &[false, true]
    } else {
        &[false]
    };
    for &spare in tries {
        let done = sqlx::query(sqlx::AssertSqlSafe(insert(spare)))
            .bind(uuid::Uuid::new_v4().to_string())
            .bind(ticket.account_id)
            .bind(ticket.event_id)
            .bind(ticket.order_id)
            .bind(ticket.now)
            .bind(ticket.price_minor)
            .execute(&mut *conn)
            .await?;
        if done.rows_affected() == 1 {
            return Ok(if spare { Issued::Spare } else { Issued::Own });
        }
    }
    Ok(Issued::AlreadyHeld)
}

/// Make a spare ticket its holder's own. False when it is not a live spare of theirs; a
/// holder with an own live ticket of the concert breaks `tickets_one_per_account`.
#[tracing::instrument(skip_all)]
pub async fn keep_spare<'e>(
    db: impl Exec<'e>,
    ticket_id: &str,
    account_id: &str,
) -> std::result::Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE tickets SET spare = 0 WHERE id = $1 AND account_id = $2 AND spare = 1 \
         AND revoked_at IS NULL AND given_at IS NULL",
    )
    .bind(ticket_id)
    .bind(account_id)
    .execute(db)
    .await?;
    Ok(done.rows_affected() == 1)
}

#[tracing::instrument(skip_all)]
pub async fn insert_pass<'e>(
    db: impl Exec<'e>,
    account_id: &str,
    plan_id: &str,
    order_id: &str,
    valid_from: i64,
    valid_until: i64,
) -> Result<()> {
    sqlx::query(
        "INSERT INTO passes (id, account_id, plan_id, order_id, valid_from, valid_until, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $5)",
    )
    .bind(uuid::Uuid::new_v4().to_string())
    .bind(account_id)
    .bind(plan_id)
    .bind(order_id)
    .bind(valid_from)
    .bind(valid_until)
    .execute(db)
    .await?;
    Ok(())
}

/// The ids of an order's tickets or passes that still give access.
#[tracing::instrument(skip_all, fields(kind = kind.as_str()))]
pub async fn live_access_of_order(db: &Db, kind: ItemKind, order_id: &str) -> Result<Vec<String>> {
    let sql = match kind {
        ItemKind::Event => "SELECT id FROM tickets WHERE order_id = $1 AND revoked_at IS NULL",
        ItemKind::Pass => "SELECT id FROM passes WHERE order_id = $1 AND revoked_at IS NULL",
    };
    let rows: Vec<(String,)> = sqlx::query_as(sql).bind(order_id).fetch_all(db).await?;
    Ok(rows.into_iter().map(|(id,)| id).collect())
}

/// End the access an order's tickets or passes give.
#[tracing::instrument(skip_all, fields(kind = kind.as_str()))]
pub async fn revoke_access_of_order<'e>(
    db: impl Exec<'e>,
    kind: ItemKind,
    order_id: &str,
    now: i64,
) -> Result<()> {
    let sql = match kind {
        ItemKind::Event => {
            "UPDATE tickets SET revoked_at = $2 WHERE order_id = $1 AND revoked_at IS NULL"
        }
        ItemKind::Pass => {
            "UPDATE passes SET revoked_at = $2 WHERE order_id = $1 AND revoked_at IS NULL"
        }
    };
    on_order_at(db, sql, order_id, now).await.map(drop)
}

/// A concert's live tickets with the price paid for each: (ticket, order, price).
#[tracing::instrument(skip_all)]
pub async fn live_tickets_of_event(db: &Db, event_id: &str) -> Result<Vec<(String, String, i64)>> {
    Ok(sqlx::query_as(
        "SELECT t.id, t.order_id, COALESCE(t.price_minor, i.price_minor) FROM tickets t \
         JOIN order_items i ON i.order_id = t.order_id AND i.item_kind = 'event' \
         AND i.item_id = t.event_id \
         WHERE t.event_id = $1 AND t.revoked_at IS NULL",
    )
    .bind(event_id)
    .fetch_all(db)
    .await?)
}

/// End one ticket's access. False when it had already ended.
#[tracing::instrument(skip_all)]
pub async fn revoke_ticket<'e>(db: impl Exec<'e>, ticket_id: &str, now: i64) -> Result<bool> {
    let revoked =
        sqlx::query("UPDATE tickets SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL")
            .bind(ticket_id)
            .bind(now)
            .execute(db)
            .await?;
    Ok(revoked.rows_affected() == 1)
}

/// The account's unrevoked ticket for a concert, if it holds one.
#[tracing::instrument(skip_all)]
pub async fn live_ticket_for(db: &Db, account_id: &str, event_id: &str) -> Result<Option<String>> {
    let row: Option<(String,)> = sqlx::query_as(
        "SELECT id FROM tickets WHERE account_id = $1 AND event_id = $2 AND revoked_at IS NULL \
         AND given_at IS NULL AND spare = 0",
    )
    .bind(account_id)
    .bind(event_id)
    .fetch_optional(db)
    .await?;
    Ok(row.map(|(id,)| id))
}

/// An unrevoked pass of the account valid at `at` (a concert's start), if any.
#[tracing::instrument(skip_all)]
pub async fn live_pass_at(db: &Db, account_id: &str, at: i64) -> Result<Option<String>> {
    let row: Option<(String,)> = sqlx::query_as(
        "SELECT id FROM passes WHERE account_id = $1 AND revoked_at IS NULL \
         AND valid_from <= $2 AND valid_until > $2",
    )
    .bind(account_id)
    .bind(at)
    .fetch_optional(db)
    .await?;
    Ok(row.map(|(id,)| id))
}

// ------------------------------------------------------------------------------ refunds

#[tracing::instrument(skip_all)]
pub async fn refunded_so_far(db: &Db, order_id: &str) -> Result<i64> {
    let (sum,): (i64,) = sqlx::query_as(
        "SELECT CAST(COALESCE(SUM(amount_minor), 0) AS BIGINT) FROM refunds WHERE order_id = $1",
    )
    .bind(order_id)
    .fetch_one(db)
    .await?;
    Ok(sum)
}

/// Fulfilled → refunded. False when the order was not fulfilled (refunded meanwhile).
#[tracing::instrument(skip_all)]
pub async fn mark_refunded<'e>(db: impl Exec<'e>, order_id: &str, now: i64) -> Result<bool> {
    let sql = "UPDATE orders SET status = 'refunded', refunded_at = $2 \
        WHERE id = $1 AND status = 'fulfilled'";
    Ok(on_order_at(db, sql, order_id, now).await? == 1)
}

/// Fulfilled → refunded once none of the order's tickets and passes gives access.
#[tracing::instrument(skip_all)]
pub async fn mark_refunded_when_nothing_left<'e>(
    db: impl Exec<'e>,
    order_id: &str,
    now: i64,
) -> Result<()> {
    let sql = "UPDATE orders SET status = 'refunded', refunded_at = $2 WHERE id = $1 \
        AND status = 'fulfilled' \
        AND NOT EXISTS (SELECT 1 FROM tickets WHERE order_id = $1 AND revoked_at IS NULL) \
        AND NOT EXISTS (SELECT 1 FROM passes WHERE order_id = $1 AND revoked_at IS NULL)";
    on_order_at(db, sql, order_id, now).await.map(drop)
}

#[tracing::instrument(skip_all)]
pub async fn insert_refund<'e>(
    db: impl Exec<'e>,
    order_id: &str,
    amount_minor: i64,
    reason: &str,
    provider_ref: Option<&str>,
    // The concert whose ticket it gave back (a cancellation); none: what was left of the order.
    event_id: Option<&str>,
    now: i64,
) -> Result<()> {
    sqlx::query(
        "INSERT INTO refunds (id, order_id, amount_minor, reason, provider_ref, event_id, \
         created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(uuid::Uuid::new_v4().to_string())
    .bind(order_id)
    .bind(amount_minor)
    .bind(reason)
    .bind(provider_ref)
    .bind(event_id)
    .bind(now)
    .execute(db)
    .await?;
    Ok(())
}

crate::db::row! {
    /// One refund of an order, as the receipt lists it.
    #[derive(Debug, Clone)]
    pub struct RefundRow {
        pub amount_minor: i64,
        pub reason: String,
        pub created_at: i64,
    }
}

#[tracing::instrument(skip_all)]
pub async fn refunds_of_order(db: &Db, order_id: &str) -> Result<Vec<RefundRow>> {
    Ok(sqlx::query_as::<_, RefundRow>(
        "SELECT amount_minor, reason, created_at FROM refunds WHERE order_id = $1 \
         ORDER BY created_at, id",
    )
    .bind(order_id)
    .fetch_all(db)
    .await?)
}

// ---------------------------------------------------------------------- sales figures

crate::db::row! {
    /// Sales in one currency over a period and the one before it.
    #[derive(Debug, Clone)]
    pub struct CurrencySales {
        pub currency: String,
        pub sales: i64,
        pub previous_sales: i64,
        pub orders: i64,
        pub previous_orders: i64,
    }
}

/// Orders paid in `[from, to)` (`previous_from` ≤ `from` opens the previous period), by
/// currency: a sale counts on the day it was paid, even if refunded later (the refund
/// counts on its own day). Sums are cast because PostgreSQL's SUM of BIGINT is NUMERIC.
#[tracing::instrument(skip_all)]
pub async fn sales_by_currency(
    db: &Db,
    previous_from: i64,
    from: i64,
    to: i64,
) -> Result<Vec<CurrencySales>> {
    over_periods(
        db,
        "SELECT currency, \
            CAST(SUM(CASE WHEN paid_at >= $2 THEN total_minor ELSE 0 END) AS BIGINT) AS sales, \
            CAST(SUM(CASE WHEN paid_at < $2 THEN total_minor ELSE 0 END) AS BIGINT) AS previous_sales, \
            CAST(SUM(CASE WHEN paid_at >= $2 THEN 1 ELSE 0 END) AS BIGINT) AS orders, \
            CAST(SUM(CASE WHEN paid_at < $2 THEN 1 ELSE 0 END) AS BIGINT) AS previous_orders \
         FROM orders \
         WHERE status IN ('paid', 'fulfilled', 'refunded') AND paid_at >= $1 AND paid_at < $3 \
         GROUP BY currency ORDER BY currency",
        previous_from,
        from,
        to,
    )
    .await
}

/// Money refunded in `[from, to)` and in `[previous_from, from)`, by currency.
#[tracing::instrument(skip_all)]
pub async fn refunds_by_currency(
    db: &Db,
    previous_from: i64,
    from: i64,
    to: i64,
) -> Result<Vec<(String, i64, i64)>> {
    over_periods(
        db,
        "SELECT o.currency, \
            CAST(SUM(CASE WHEN r.created_at >= $2 THEN r.amount_minor ELSE 0 END) AS BIGINT), \
            CAST(SUM(CASE WHEN r.created_at < $2 THEN r.amount_minor ELSE 0 END) AS BIGINT) \
         FROM refunds r JOIN orders o ON o.id = r.order_id \
         WHERE r.created_at >= $1 AND r.created_at < $3 \
         GROUP BY o.currency ORDER BY o.currency",
        previous_from,
        from,
        to,
    )
    .await
}

/// The rows of a figures query whose `$1`, `$2` and `$3` are the previous period's start,
/// the period's start and its end.
async fn over_periods<T>(
    db: &Db,
    sql: &'static str,
    previous_from: i64,
    from: i64,
    to: i64,
) -> Result<Vec<T>>
where
    T: for<'r> sqlx::FromRow<'r, sqlx::any::AnyRow> + Send + Unpin,
{
    Ok(sqlx::query_as::<_, T>(sql)
        .bind(previous_from)
        .bind(from)
        .bind(to)
        .fetch_all(db)
        .await?)
}

/// Concert tickets sold (the order lines' quantities) in `[from, to)` and in `[previous_from, from)`.
#[tracing::instrument(skip_all)]
pub async fn tickets_sold(db: &Db, previous_from: i64, from: i64, to: i64) -> Result<(i64, i64)> {
    Ok(sqlx::query_as::<_, (i64, i64)>(
        "SELECT \
            CAST(COALESCE(SUM(CASE WHEN o.paid_at >= $2 THEN i.quantity ELSE 0 END), 0) AS BIGINT), \
            CAST(COALESCE(SUM(CASE WHEN o.paid_at < $2 THEN i.quantity ELSE 0 END), 0) AS BIGINT) \
         FROM order_items i JOIN orders o ON o.id = i.order_id \
         WHERE i.item_kind = 'event' AND o.status IN ('paid', 'fulfilled', 'refunded') \
           AND o.paid_at >= $1 AND o.paid_at < $3",
    )
    .bind(previous_from)
    .bind(from)
    .bind(to)
    .fetch_one(db)
    .await?)
}

// --------------------------------------------------------------------------------- cart

pub struct CartRow {
    pub item_kind: ItemKind,
    pub item_id: String,
    /// A concert's tier (`None` for a pass).
    pub tier_id: Option<String>,
    /// The amount named for a pay-what-you-want tier (`None`: its price).
    pub amount_minor: Option<i64>,
    /// Tickets of the tier (1 for a pass).
    pub quantity: i64,
    pub added_at: i64,
}
crate::db::from_row!(CartRow { item_kind as String, item_id, tier_id, amount_minor, quantity, added_at });

#[tracing::instrument(skip_all)]
pub async fn cart_rows(db: &Db, account_id: &str) -> Result<Vec<CartRow>> {
    Ok(sqlx::query_as::<_, CartRow>(
        "SELECT item_kind, item_id, tier_id, amount_minor, quantity, added_at FROM cart_items \
         WHERE account_id = $1 \
         ORDER BY added_at, item_id",
    )
    .bind(account_id)
    .fetch_all(db)
    .await?)
}

crate::db::row! {
    /// A cart entry as a promo code prices it: the concert's project and currency (a pass:
    /// none, and the pass's currency), and what one costs: the chosen tier's price (else the
    /// default tier's, as the cart shows it), with its minimum and the amount named for a
    /// pay-what-you-want tier; a pass's price. Entries whose concert or pass is gone are left
    /// out, as the cart leaves them out.
    pub struct PricedCartRow {
        pub event_id: Option<String>,
        pub project_id: Option<String>,
        pub currency: String,
        pub price_minor: i64,
        pub min_price_minor: Option<i64>,
        pub amount_minor: Option<i64>,
        pub quantity: i64,
    }
}

/// An account's cart as a promo code prices it, in one query (entering a code reads no
/// more than this: the cart's answer, `entries`, is a few queries per entry).
#[tracing::instrument(skip_all)]
pub async fn priced_cart_rows(db: &Db, account_id: &str) -> Result<Vec<PricedCartRow>> {
    Ok(sqlx::query_as::<_, PricedCartRow>(
        "SELECT e.id AS event_id, e.project_id, COALESCE(e.currency, p.currency) AS currency, \
         COALESCE(t.price_minor, d.price_minor, p.price_minor) AS price_minor, \
         CASE WHEN t.id IS NOT NULL THEN t.min_price_minor ELSE d.min_price_minor END \
           AS min_price_minor, \
         c.amount_minor, c.quantity \
         FROM cart_items c \
         LEFT JOIN events e ON c.item_kind = 'event' AND e.id = c.item_id \
         LEFT JOIN ticket_tiers t ON t.id = c.tier_id AND t.event_id = e.id \
         LEFT JOIN ticket_tiers d ON t.id IS NULL AND d.event_id = e.id AND d.is_default = 1 \
         LEFT JOIN pricing_plans p ON c.item_kind = 'pass' AND p.id = c.item_id \
         WHERE c.account_id = $1 \
         AND ((e.id IS NOT NULL AND (t.id IS NOT NULL OR d.id IS NOT NULL)) OR p.id IS NOT NULL) \
         ORDER BY c.added_at, c.item_id",
    )
    .bind(account_id)
    .fetch_all(db)
    .await?)
}

/// What a cart entry holds: a concert's tier, the amount named, how many.
pub struct CartChoice<'a> {
    pub tier_id: Option<&'a str>,
    pub amount_minor: Option<i64>,
    pub quantity: i64,
}

/// Adding twice keeps one entry (a concert's with the tier, amount and quantity chosen
/// last).
#[tracing::instrument(skip_all)]
pub async fn insert_cart_item(
    db: &Db,
    account_id: &str,
    kind: ItemKind,
    item_id: &str,
    choice: CartChoice<'_>,
    now: i64,
) -> Result<()> {
    sqlx::query(
        "INSERT INTO cart_items (account_id, item_kind, item_id, tier_id, amount_minor, \
         quantity, added_at) VALUES ($1, $2, $3, $4, $5, $6, $7) \
         ON CONFLICT (account_id, item_kind, item_id) DO UPDATE SET tier_id = excluded.tier_id, \
         amount_minor = excluded.amount_minor, quantity = excluded.quantity",
    )
    .bind(account_id)
    .bind(kind.as_str())
    .bind(item_id)
    .bind(choice.tier_id)
    .bind(choice.amount_minor)
    .bind(choice.quantity)
    .bind(now)
    .execute(db)
    .await?;
    Ok(())
}

#[tracing::instrument(skip_all)]
pub async fn delete_cart_item<'e>(
    db: impl Exec<'e>,
    account_id: &str,
    kind: ItemKind,
    item_id: &str,
) -> Result<()> {
    sqlx::query("DELETE FROM cart_items WHERE account_id = $1 AND item_kind = $2 AND item_id = $3")
        .bind(account_id)
        .bind(kind.as_str())
        .bind(item_id)
        .execute(db)
        .await?;
    Ok(())
}

#[tracing::instrument(skip_all)]
pub async fn clear_cart(db: &Db, account_id: &str) -> Result<()> {
    sqlx::query("DELETE FROM cart_items WHERE account_id = $1")
        .bind(account_id)
        .execute(db)
        .await?;
    Ok(())
}

/// A retired pass leaves every cart.
#[tracing::instrument(skip_all)]
pub async fn delete_pass_from_carts(db: &Db, plan_id: &str) -> Result<()> {
    sqlx::query("DELETE FROM cart_items WHERE item_kind = 'pass' AND item_id = $1")
        .bind(plan_id)
        .execute(db)
        .await?;
    Ok(())
}

// ------------------------------------------------------------------------ pricing plans

#[tracing::instrument(skip_all)]
pub async fn plan_by_id<'e>(db: impl Exec<'e>, id: &str) -> Result<Option<PlanRow>> {
    Ok(sqlx::query_as::<_, PlanRow>(sqlx::AssertSqlSafe(format!(
        "SELECT {PLAN_COLUMNS} FROM pricing_plans WHERE id = $1"
    )))
    .bind(id)
    .fetch_optional(db)
    .await?)
}

/// The plans on sale, cheapest first; with `retired`, the retired ones too.
#[tracing::instrument(skip_all)]
pub async fn list_plans(db: &Db, retired: bool) -> Result<Vec<PlanRow>> {
    let filter = if retired { "" } else { "WHERE active = 1" };
    Ok(sqlx::query_as::<_, PlanRow>(sqlx::AssertSqlSafe(format!(
        "SELECT {PLAN_COLUMNS} FROM pricing_plans {filter} ORDER BY price_minor, name"
    )))
    .fetch_all(db)
    .await?)
}

#[tracing::instrument(skip_all)]
pub async fn insert_plan(db: &Db, row: &PlanRow, now: i64) -> Result<()> {
    let sql = "INSERT INTO pricing_plans (id, name, description, price_minor, currency, days, \
        active, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)";
    write_plan(db, sql, row, now).await
}

#[tracing::instrument(skip_all)]
pub async fn update_plan(db: &Db, row: &PlanRow, now: i64) -> Result<()> {
    let sql = "UPDATE pricing_plans SET name = $2, description = $3, price_minor = $4, \
        currency = $5, days = $6, active = $7, updated_at = $8 WHERE id = $1";
    write_plan(db, sql, row, now).await
}

/// Write a plan's row with a statement numbering its columns as [`PLAN_COLUMNS`] does
/// (`$1` the id … `$7` active) and the time as `$8`.
async fn write_plan(db: &Db, sql: &'static str, row: &PlanRow, now: i64) -> Result<()> {
    sqlx::query(sql)
        .bind(&row.id)
        .bind(&row.name)
        .bind(&row.description)
        .bind(row.price_minor)
        .bind(&row.currency)
        .bind(row.days)
        .bind(row.active)
        .bind(now)
        .execute(db)
        .await?;
    Ok(())
}

// ---------------------------------------------------------------------- billing profile

#[tracing::instrument(skip_all)]
pub async fn billing_profile(db: &Db) -> Result<Option<BillingRow>> {
    Ok(sqlx::query_as::<_, BillingRow>(
        "SELECT name, email, address, city, country, company, bank_name, account_name, sort_code, \
         account_number, bank_notes FROM billing_profile WHERE id = 'default'",
    )
    .fetch_optional(db)
    .await?)
}

#[tracing::instrument(skip_all)]
pub async fn save_billing_profile(db: &Db, row: &BillingRow, now: i64) -> Result<()> {
    sqlx::query(
        "INSERT INTO billing_profile (id, name, email, address, city, country, company, bank_name, \
         account_name, sort_code, account_number, bank_notes, updated_at) \
         VALUES ('default', $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) \
         ON CONFLICT (id) DO UPDATE SET name = excluded.name, email = excluded.email, \
         address = excluded.address, city = excluded.city, country = excluded.country, \
         company = excluded.company, bank_name = excluded.bank_name, \
         account_name = excluded.account_name, sort_code = excluded.sort_code, \
         account_number = excluded.account_number, bank_notes = excluded.bank_notes, \
         updated_at = excluded.updated_at",
    )
    .bind(&row.name)
    .bind(&row.email)
    .bind(&row.address)
    .bind(&row.city)
    .bind(&row.country)
    .bind(&row.company)
    .bind(&row.bank_name)
    .bind(&row.account_name)
    .bind(&row.sort_code)
    .bind(&row.account_number)
    .bind(&row.bank_notes)
    .bind(now)
    .execute(db)
    .await?;
    Ok(())
}

// ----------------------------------------------------------------------- payment events

/// Remember a provider's webhook event; false when it was seen before (a retry).
#[tracing::instrument(skip_all)]
pub async fn record_payment_event(db: &Db, event_id: &str, kind: &str, now: i64) -> Result<bool> {
    let inserted = sqlx::query(
        "INSERT INTO payment_events (provider, event_id, kind, received_at) \
         VALUES ('stripe', $1, $2, $3) ON CONFLICT (provider, event_id) DO NOTHING",
    )
    .bind(event_id)
    .bind(kind)
    .bind(now)
    .execute(db)
    .await?;
    Ok(inserted.rows_affected() == 1)
}

/// Forget a webhook event whose handling failed, so the provider's retry is handled.
#[tracing::instrument(skip_all)]
pub async fn forget_payment_event(db: &Db, event_id: &str) -> Result<()> {
    sqlx::query("DELETE FROM payment_events WHERE provider = 'stripe' AND event_id = $1")
        .bind(event_id)
        .execute(db)
        .await?;
    Ok(())
}

#[tracing::instrument(skip_all)]
pub async fn last_payment_event_at(db: &Db) -> Result<Option<i64>> {
    let (last,): (Option<i64>,) =
        sqlx::query_as("SELECT MAX(received_at) FROM payment_events WHERE provider = 'stripe'")
            .fetch_one(db)
            .await?;
    Ok(last)
}
