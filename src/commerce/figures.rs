//! The admin dashboard's sales figures: what was sold over a chosen period against the
//! period of the same length just before it. Money is summed in SQL per currency and
//! never added across currencies; tickets are a count and add up.

use axum::extract::State;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::auth::extract::Staff;
use crate::db::{Db, iso8601, now_ms};
use crate::envelope::{Api, Envelope, QueryParams};
use crate::error::{Error, Result};
use crate::i18n::Msg;
use crate::openapi::Failure;
use crate::state::AppState;

use super::store;

const DAY_MS: i64 = 86_400_000;
/// The preset periods the dashboard offers.
pub const PRESET_DAYS: [i64; 3] = [7, 30, 90];
/// A custom period is at most a year and a day (a leap year, whole days either side).
pub const MAX_SPAN_MS: i64 = 367 * DAY_MS;

/// A half-open period `[from, to)` in unix milliseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Period {
    pub from: i64,
    pub to: i64,
}

impl Period {
    /// The period of the same length that ends where this one starts.
    pub fn previous(self) -> Self {
        Self {
            from: self.from - (self.to - self.from),
            to: self.from,
        }
    }
}

/// Why a period was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PeriodError {
    /// `days` other than 7, 30 or 90.
    UnknownPreset,
    /// Only one end given, or both `days` and ends.
    Ambiguous,
    /// An end that is not an RFC 3339 date-time.
    Unreadable,
    /// `from` not before `to`, or longer than [`MAX_SPAN_MS`].
    Span,
}

/// The period a request names: the last `days` (7, 30 or 90) up to `now`, or `from`–`to`
/// (RFC 3339 date-times; the client sends its own midnights, so days follow the reader's
/// time zone). Nothing given is the last 30 days.
pub fn period(
    days: Option<i64>,
    from: Option<&str>,
    to: Option<&str>,
    now: i64,
) -> Result<Period, PeriodError> {
    let instant = |text: &str| crate::db::parse_iso8601(text.trim()).ok_or(PeriodError::Unreadable);
    match (days, from, to) {
        (Some(days), None, None) => {
            if PRESET_DAYS.contains(&days) {
                Ok(Period {
                    from: now - days * DAY_MS,
                    to: now,
                })
            } else {
                Err(PeriodError::UnknownPreset)
            }
        }
        (None, Some(from), Some(to)) => {
            let (from, to) = (instant(from)?, instant(to)?);
            if from >= to || to - from > MAX_SPAN_MS {
                return Err(PeriodError::Span);
            }
            Ok(Period { from, to })
        }
        (None, None, None) => period(Some(30), None, None, now),
        _ => Err(PeriodError::Ambiguous),
    }
}

/// The change from `previous` to `current` in percent, rounded to one decimal; none when
/// there was nothing before (a change from zero has no percentage).
pub fn change_percent(current: i64, previous: i64) -> Option<f64> {
    if previous == 0 {
        return None;
    }
    let change = (current - previous) as f64 * 100.0 / previous as f64;
    Some((change * 10.0).round() / 10.0)
}

/// Sales in one currency.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CurrencyFigures {
    #[schema(schema_with = super::money::stored_currency_schema)]
    pub currency: String,
    /// Minor units paid in the period (orders refunded later included).
    pub sales: i64,
    pub previous_sales: i64,
    /// Percent change of `sales` against the previous period; null when it had none.
    #[schema(required = true)]
    pub sales_change: Option<f64>,
    /// Minor units refunded in the period, whenever the order was paid.
    pub refunds: i64,
    pub previous_refunds: i64,
    /// `sales - refunds`.
    pub net: i64,
    pub previous_net: i64,
    /// Paid orders.
    pub orders: i64,
    pub previous_orders: i64,
}

/// What was sold in a period and in the one of the same length before it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SalesFigures {
    /// The period, `[from, to)`.
    #[schema(format = DateTime)]
    pub from: String,
    #[schema(format = DateTime)]
    pub to: String,
    #[schema(format = DateTime)]
    pub previous_from: String,
    /// Concert tickets sold (passes are not tickets).
    pub tickets: i64,
    pub previous_tickets: i64,
    #[schema(required = true)]
    pub tickets_change: Option<f64>,
    /// One entry per currency sold or refunded in either period, by code.
    pub currencies: Vec<CurrencyFigures>,
}

/// Compute the figures for a period, in three queries.
pub async fn figures(db: &Db, period: Period) -> Result<SalesFigures> {
    let previous = period.previous();
    let sales = store::sales_by_currency(db, previous.from, period.from, period.to).await?;
    let refunds = store::refunds_by_currency(db, previous.from, period.from, period.to).await?;
    let (tickets, previous_tickets) =
        store::tickets_sold(db, previous.from, period.from, period.to).await?;
    let mut codes: Vec<&str> = sales
        .iter()
        .map(|s| s.currency.as_str())
        .chain(refunds.iter().map(|r| r.0.as_str()))
        .collect();
    codes.sort_unstable();
    codes.dedup();
    let currencies = codes
        .into_iter()
        .map(|code| {
            let sold = sales.iter().find(|s| s.currency == code);
            let (refunded, previous_refunded) = refunds
                .iter()
                .find(|r| r.0 == code)
                .map_or((0, 0), |r| (r.1, r.2));
            let (sales, previous_sales, orders, previous_orders) = sold.map_or((0, 0, 0, 0), |s| {
                (s.sales, s.previous_sales, s.orders, s.previous_orders)
            });
            CurrencyFigures {
                currency: code.to_owned(),
                sales,
                previous_sales,
                sales_change: change_percent(sales, previous_sales),
                refunds: refunded,
                previous_refunds: previous_refunded,
                net: sales - refunded,
                previous_net: previous_sales - previous_refunded,
                orders,
                previous_orders,
            }
        })
        .collect();
    Ok(SalesFigures {
        from: iso8601(period.from),
        to: iso8601(period.to),
        previous_from: iso8601(previous.from),
        tickets,
        previous_tickets,
        tickets_change: change_percent(tickets, previous_tickets),
        currencies,
    })
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PeriodQuery {
    /// The last 7, 30 or 90 days up to now (the default is 30).
    days: Option<i64>,
    /// A custom period's start (RFC 3339, included); with `to`, without `days`.
    from: Option<String>,
    /// A custom period's end (RFC 3339, excluded); at most 367 days after `from`.
    to: Option<String>,
}

/// Sales, refunds and tickets over a period against the period of the same length before
/// it, per currency, for staff (admin, sa).
#[utoipa::path(get, path = "/stats/sales", tag = "commerce", security(("bearer" = [])),
    params(PeriodQuery),
    responses((status = 200, description = "The period's figures.", body = Envelope<SalesFigures>),
        (status = 400, description = "Not a period: unknown preset, one end only, unreadable date, or an empty or over-long span.", body = Failure)))]
pub async fn sales(
    State(app): State<AppState>,
    Staff(_): Staff,
    QueryParams(q): QueryParams<PeriodQuery>,
) -> Result<Api<SalesFigures>> {
    let period = period(q.days, q.from.as_deref(), q.to.as_deref(), now_ms())
        .map_err(|_| Error::bad_request(Msg::BadPeriod))?;
    Ok(Api::ok(figures(&app.db, period).await?))
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: i64 = 1_800_000_000_000;

    #[test]
    fn a_preset_ends_now_and_the_previous_period_has_the_same_length() {
        let p = period(Some(7), None, None, NOW).unwrap();
        assert_eq!(
            p,
            Period {
                from: NOW - 7 * DAY_MS,
                to: NOW
            }
        );
        assert_eq!(
            p.previous(),
            Period {
                from: NOW - 14 * DAY_MS,
                to: NOW - 7 * DAY_MS
            }
        );
    }

    #[test]
    fn nothing_given_is_the_last_30_days() {
        assert_eq!(
            period(None, None, None, NOW).unwrap().from,
            NOW - 30 * DAY_MS
        );
    }

    #[test]
    fn only_7_30_and_90_days_are_presets() {
        assert_eq!(
            period(Some(8), None, None, NOW),
            Err(PeriodError::UnknownPreset)
        );
    }

    #[test]
    fn a_custom_period_reads_rfc3339_with_its_offset() {
        let p = period(
            None,
            Some("2026-11-01T00:00:00+01:00"),
            Some("2026-11-02T00:00:00+01:00"),
            NOW,
        )
        .unwrap();
        assert_eq!(p.to - p.from, DAY_MS);
        assert_eq!(p.from, 1_793_487_600_000);
    }

    #[test]
    fn a_custom_period_must_be_ordered_and_at_most_367_days() {
        let refuse = |from, to| period(None, Some(from), Some(to), NOW);
        assert_eq!(
            refuse("2026-11-02T00:00:00Z", "2026-11-02T00:00:00Z"),
            Err(PeriodError::Span)
        );
        assert_eq!(
            refuse("2024-01-01T00:00:00Z", "2026-01-01T00:00:00Z"),
            Err(PeriodError::Span)
        );
        assert_eq!(
            refuse("yesterday", "2026-01-01T00:00:00Z"),
            Err(PeriodError::Unreadable)
        );
        assert_eq!(
            period(None, Some("2026-01-01T00:00:00Z"), None, NOW),
            Err(PeriodError::Ambiguous)
        );
        assert_eq!(
            period(
                Some(7),
                Some("2026-01-01T00:00:00Z"),
                Some("2026-01-02T00:00:00Z"),
                NOW
            ),
            Err(PeriodError::Ambiguous)
        );
    }

    #[test]
    fn the_change_is_a_rounded_percentage_and_none_from_zero() {
        assert_eq!(change_percent(150, 100), Some(50.0));
        assert_eq!(change_percent(1, 3), Some(-66.7));
        assert_eq!(change_percent(5, 0), None);
    }
}
