//! The orders table as CSV (RFC 4180), for staff to open in a spreadsheet. Written on the
//! server from the same filter as the table, so the file holds every matching order, not
//! the page on screen. Cells a spreadsheet would run as a formula are defused.

use super::model::OrderStatus;
use super::orders::Order;
use super::{money, store};
use crate::db::Db;
use crate::error::Result;
use crate::i18n::{self, Lang, Msg};

/// At most this many orders in one file; the rest is left out and the file says so.
pub const MAX_ROWS: i64 = 10_000;
/// Orders whose lines and buyers are loaded per query (well under both databases' limit
/// on bound parameters).
const CHUNK: usize = 500;

const HEADER: [&str; 12] = [
    "order",
    "created_at",
    "paid_at",
    "status",
    "buyer_name",
    "buyer_email",
    "items",
    "total",
    "currency",
    "provider",
    "refunded_at",
    "failure",
];

/// One CSV cell: a value a spreadsheet would read as a formula (`=`, `+`, `-`, `@`, a tab
/// or a carriage return first; OWASP's CSV injection advice) is prefixed with `'`; a cell
/// holding a comma, quote or line break is quoted, its quotes doubled.
pub fn cell(value: &str) -> String {
    let defused = if value.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{value}")
    } else {
        value.to_owned()
    };
    if defused.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", defused.replace('"', "\"\""))
    } else {
        defused
    }
}

fn line(cells: &[&str]) -> String {
    let mut out = cells.iter().map(|c| cell(c)).collect::<Vec<_>>().join(",");
    out.push_str("\r\n");
    out
}

/// The file's rows for some orders. Amounts are plain decimals in the order's currency
/// (a negative total cannot occur, so no amount is mistaken for a formula).
/// A state as the orders page names it: one word for one state ("complete", not the
/// stored "fulfilled").
fn status_word(status: OrderStatus) -> &'static str {
    match status {
        OrderStatus::Fulfilled => "complete",
        other => other.as_str(),
    }
}

/// What an order bought, in `lang`: its lines' titles, or what its tip was (a tip's order
/// has no lines).
fn items_cell(order: &Order, lang: Lang) -> String {
    match &order.tip {
        Some(tip) if order.items.is_empty() => Msg::TipFor
            .with("artist", tip.artist_name.as_str())
            .with("title", tip.title.as_str())
            .render(lang),
        _ => order
            .items
            .iter()
            .map(|i| i.title.as_str())
            .collect::<Vec<_>>()
            .join("; "),
    }
}

/// The CSV rows of `orders`, a tip's items cell in `lang`.
pub fn rows(orders: &[Order], lang: Lang) -> String {
    orders
        .iter()
        .map(|o| {
            let items = items_cell(o, lang);
            line(&[
                &o.id,
                &o.created_at,
                o.paid_at.as_deref().unwrap_or(""),
                status_word(o.status),
                &o.buyer.name,
                &o.buyer.email,
                &items,
                &money::decimal(o.total, &o.currency),
                &o.currency,
                &o.provider,
                o.refunded_at.as_deref().unwrap_or(""),
                o.failure.as_deref().unwrap_or(""),
            ])
        })
        .collect()
}

/// The whole file for the orders matching `filter`, newest first, and whether it was cut
/// at [`MAX_ROWS`].
pub async fn orders_csv(db: &Db, filter: store::OrderFilter<'_>) -> Result<(String, bool)> {
    let (found, cut) = store::export_orders(db, filter, MAX_ROWS).await?;
    let mut out = line(&HEADER);
    let mut found = found.into_iter().peekable();
    while found.peek().is_some() {
        let chunk: Vec<_> = found.by_ref().take(CHUNK).collect();
        let orders = super::orders::with_lines(db, chunk).await?;
        out.push_str(&rows(&orders, i18n::current()));
    }
    Ok((out, cut))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plain_cell_is_left_as_it_is() {
        assert_eq!(cell("Opening Night"), "Opening Night");
        assert_eq!(cell(""), "");
    }

    #[test]
    fn commas_quotes_and_line_breaks_are_quoted() {
        assert_eq!(cell("a, b"), "\"a, b\"");
        assert_eq!(cell("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(cell("two\nlines"), "\"two\nlines\"");
    }

    #[test]
    fn a_cell_a_spreadsheet_would_run_is_defused() {
        assert_eq!(cell("=HYPERLINK(\"x\")"), "\"'=HYPERLINK(\"\"x\"\")\"");
        assert_eq!(cell("+1"), "'+1");
        assert_eq!(cell("-2"), "'-2");
        assert_eq!(cell("@SUM(A1)"), "'@SUM(A1)");
        assert_eq!(cell("\tx"), "'\tx");
        assert_eq!(cell("\rx"), "\"'\rx\"");
    }
}
