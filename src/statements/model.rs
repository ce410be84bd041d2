//! What an artist's statement is, and the arithmetic that makes it: money in minor units,
//! each amount shared over its parts by the largest remainder, so that the parts always
//! add up to the whole, to the cent. No database here (see `store`), no handler.

use std::collections::{BTreeMap, HashMap, HashSet};

use serde::Serialize;
use utoipa::ToSchema;

/// A percentage in basis points (`7.5` % is 750).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Percent(pub i64);

/// Basis points at most: 100 %.
const WHOLE: i64 = 10_000;

/// `7.5` → 750 basis points: 0 to 100, two decimals at most.
pub fn parse_percent(text: &str) -> Result<Percent, String> {
    let text = text.trim();
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(whole) || !(fraction.is_empty() || digits(fraction)) || fraction.len() > 2 {
        return Err(format!("{text:?} is not a percentage such as 7.5"));
    }
    let whole: i64 = whole
        .parse()
        .map_err(|_| format!("{text:?} is too large"))?;
    let fraction: i64 = format!("{fraction:0<2}").parse().unwrap_or(0);
    let points = whole.saturating_mul(100).saturating_add(fraction);
    if points > WHOLE {
        return Err(format!("{text:?} is above 100"));
    }
    Ok(Percent(points))
}

impl Percent {
    /// The share of `amount` this percentage takes, rounded down (in the artist's favour).
    pub fn of(self, amount: i64) -> i64 {
        if amount <= 0 {
            return 0;
        }
        (i128::from(amount) * i128::from(self.0) / i128::from(WHOLE)) as i64
    }

    /// As a person writes it: `7.5`, `10`, `0`.
    pub fn written(self) -> String {
        let (whole, fraction) = (self.0 / 100, self.0 % 100);
        match fraction {
            0 => whole.to_string(),
            f if f % 10 == 0 => format!("{whole}.{}", f / 10),
            f => format!("{whole}.{f:02}"),
        }
    }
}

/// `total` shared in proportion to `weights`, by the largest remainder: the shares add up
/// to `total` exactly; equal remainders go to the earlier weight. All zero when the weights
/// are (the caller decides who keeps it).
pub fn allocate(total: i64, weights: &[i64]) -> Vec<i64> {
    let sum: i128 = weights.iter().map(|&w| i128::from(w.max(0))).sum();
    if sum == 0 {
        return vec![0; weights.len()];
    }
    let total = i128::from(total);
    let mut shares: Vec<i128> = Vec::with_capacity(weights.len());
    let mut remainders: Vec<(i128, usize)> = Vec::with_capacity(weights.len());
    for (i, &w) in weights.iter().enumerate() {
        let exact = total * i128::from(w.max(0));
        shares.push(exact.div_euclid(sum));
        remainders.push((exact.rem_euclid(sum), i));
    }
    let left = total - shares.iter().sum::<i128>();
    remainders.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    for &(_, i) in remainders.iter().take(left as usize) {
        shares[i] += 1;
    }
    shares.into_iter().map(|s| s as i64).collect()
}

/// A calendar month in UTC (`2026-11`): what a statement covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Period {
    pub year: i32,
    pub month: u8,
}

impl Period {
    pub fn parse(text: &str) -> Option<Period> {
        let (year, month) = text.split_once('-')?;
        if year.len() != 4 || month.len() != 2 {
            return None;
        }
        let period = Period {
            year: year.parse().ok()?,
            month: month.parse().ok()?,
        };
        (1..=12).contains(&period.month).then_some(period)
    }

    /// Its first instant, unix ms.
    pub fn from_ms(self) -> i64 {
        month_start(self.year, self.month)
    }

    /// The first instant after it, unix ms.
    pub fn until_ms(self) -> i64 {
        if self.month == 12 {
            month_start(self.year + 1, 1)
        } else {
            month_start(self.year, self.month + 1)
        }
    }

    pub fn name(self) -> String {
        format!("{:04}-{:02}", self.year, self.month)
    }
}

fn month_start(year: i32, month: u8) -> i64 {
    let month = time::Month::try_from(month).unwrap_or(time::Month::January);
    time::Date::from_calendar_date(year, month, 1)
        .map(|d| d.midnight().assume_utc().unix_timestamp() * 1000)
        .unwrap_or(0)
}

// ------------------------------------------------------------------- what is read

/// A line of an order paid in the period: a concert's ticket (with its project) or a pass.
#[derive(Debug, Clone)]
pub struct SoldLine {
    pub order_id: String,
    pub currency: String,
    /// The provider's fee on the whole order.
    pub order_fee: i64,
    /// 1 when the order was a destination charge: Stripe paid its project's connected
    /// account at once, less `application_fee` (the platform's, on the whole order).
    pub connected: i64,
    pub application_fee: i64,
    /// The concert's project; `None` for a pass.
    pub project_id: Option<String>,
    pub event_id: Option<String>,
    pub price: i64,
    /// What a promo code took off the line (`price` is after it).
    pub discount: i64,
    pub kind: LineKind,
}

/// What a sold line is (`line_kind` as the store reads it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineKind {
    Ticket,
    Pass,
    /// A tip to the concert's artist: its project's, as a ticket is.
    Tip,
}

impl TryFrom<String> for LineKind {
    type Error = String;
    fn try_from(value: String) -> Result<Self, String> {
        match value.as_str() {
            "event" => Ok(Self::Ticket),
            "pass" => Ok(Self::Pass),
            "tip" => Ok(Self::Tip),
            _ => Err(format!("not a sold line's kind: {value}")),
        }
    }
}

/// Money given back in the period, and what it gave back: a concert's ticket (a
/// cancellation), or, naming none, what was left of its order.
#[derive(Debug, Clone)]
pub struct Refund {
    pub order_id: String,
    pub currency: String,
    pub amount: i64,
    pub event_id: Option<String>,
    /// Its order was a destination charge (1) of `order_total`, the platform keeping
    /// `application_fee`: the refund took back from the connected account, and gave
    /// back the platform's fee in proportion.
    pub connected: i64,
    pub order_total: i64,
    pub application_fee: i64,
}

impl Refund {
    /// The platform's fee this refund gave back (`refund_application_fee`), rounded
    /// down; the rest was taken back from the connected account (`reverse_transfer`).
    pub fn application_fee_back(&self) -> i64 {
        if self.connected == 0 || self.order_total <= 0 {
            return 0;
        }
        (i128::from(self.application_fee) * i128::from(self.amount) / i128::from(self.order_total))
            as i64
    }
}

/// A pass whose validity ended in the period, unrevoked: its price is shared now, by the
/// minutes its holder listened to each project's concerts while it was valid.
#[derive(Debug, Clone)]
pub struct EndedPass {
    pub pass_id: String,
    pub currency: String,
    pub price: i64,
}

/// Minutes a pass's holder listened to one project's concerts.
#[derive(Debug, Clone)]
pub struct PassMinutes {
    pub pass_id: String,
    pub project_id: String,
    pub minutes: i64,
}

/// Everything a period's statements are made of.
#[derive(Debug, Default)]
pub struct Ledger {
    pub sold: Vec<SoldLine>,
    pub refunds: Vec<Refund>,
    /// Every line of the orders refunded in the period (to share a refund naming no
    /// concert), and the concerts those orders already gave back by name.
    pub refunded_orders: Vec<SoldLine>,
    pub named_refunds: Vec<(String, String)>,
    pub ended_passes: Vec<EndedPass>,
    pub minutes: Vec<PassMinutes>,
}

// ------------------------------------------------------------------- what is shown

/// One project's statement in one currency: never mixed.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Statement {
    pub project_id: String,
    pub currency: String,
    /// Tickets to its concerts, paid in the period, after promo codes' discounts (minor
    /// units, as every amount here): what the fees and the net are counted from.
    pub ticket_sales: i64,
    /// The same tickets before discounts: `ticketSales + discounts`.
    pub ticket_sales_before_discounts: i64,
    /// What promo codes took off those tickets.
    pub discounts: i64,
    /// Tips to its artist during its concerts, paid in the period (gross).
    pub tips: i64,
    /// Its share of the passes that ended in the period, by the minutes listened.
    pub pass_shares: i64,
    /// Given back in the period for its concerts' tickets.
    pub refunds: i64,
    /// The payment provider's fees on its tickets, as the provider reported them.
    pub payment_fees: i64,
    /// The platform's percentage (`7.5`) and what it takes of sales less refunds.
    pub platform_fee_percent: String,
    pub platform_fee: i64,
    /// What is due to the artist.
    pub net: i64,
    /// Paid out against this statement (recorded by staff), and what is still owed: net
    /// less paid out, by staff and by Stripe (below zero when refunds came after a
    /// payout).
    pub paid_out: i64,
    /// Paid by Stripe to the project's connected account: its destination charges less
    /// the platform's fees on them, less what refunds took back.
    pub paid_by_stripe: i64,
    pub owed: i64,
    /// Of the sales less refunds, the part paid by destination charges, and the
    /// platform's fees on it (kept per order, as Stripe took them).
    #[serde(skip)]
    #[schema(ignore)]
    pub connected_base: i64,
    #[serde(skip)]
    #[schema(ignore)]
    pub connected_platform_fee: i64,
}

impl Statement {
    /// A line sold for one of the project's concerts: a tip or a ticket.
    fn add_sale(&mut self, sold: &SoldLine) {
        if sold.kind == LineKind::Tip {
            self.tips += sold.price;
        } else {
            self.ticket_sales += sold.price;
            self.discounts += sold.discount;
            self.ticket_sales_before_discounts += sold.price + sold.discount;
        }
    }
}

/// What stays with the operator in one currency: passes until they are shared, and what
/// nobody listened to.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OperatorLine {
    pub currency: String,
    /// Passes paid in the period (shared with the artists when they end).
    pub pass_sales: i64,
    /// Given back in the period for passes.
    pub pass_refunds: i64,
    /// The provider's fees on passes.
    pub pass_payment_fees: i64,
    /// The provider's fees on destination charges: the platform pays them, not the artist.
    pub connected_payment_fees: i64,
    /// Passes that ended in the period with nothing listened: the operator keeps them.
    pub unshared_passes: i64,
    /// The platform fees of every project's statement.
    pub platform_fees: i64,
}

/// Money paid out to an artist against a month's statement in one currency.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Payout {
    pub id: String,
    pub project_id: String,
    /// The statement's month, `2026-11`.
    pub period: String,
    pub currency: String,
    /// Minor units.
    pub amount: i64,
    /// The transfer's reference, as staff wrote it.
    pub reference: String,
    #[schema(format = DateTime)]
    pub created_at: String,
}

/// Every statement of a period, and the operator's lines.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PeriodStatements {
    /// `2026-11`.
    pub period: String,
    pub statements: Vec<Statement>,
    pub operator: Vec<OperatorLine>,
    pub payouts: Vec<Payout>,
}

impl PeriodStatements {
    /// With what was paid out against each statement, and what is still owed.
    pub fn paid(mut self, payouts: Vec<Payout>) -> Self {
        for payout in &payouts {
            let at = self
                .statements
                .iter()
                .position(|s| s.project_id == payout.project_id && s.currency == payout.currency);
            let statement = match at {
                Some(i) => &mut self.statements[i],
                None => {
                    self.statements.push(Statement {
                        project_id: payout.project_id.clone(),
                        currency: payout.currency.clone(),
                        platform_fee_percent: "0".to_owned(),
                        ..Statement::default()
                    });
                    self.statements.last_mut().expect("just pushed")
                }
            };
            statement.paid_out += payout.amount;
        }
        for s in &mut self.statements {
            s.owed = s.net - s.paid_out - s.paid_by_stripe;
        }
        self.statements
            .sort_by(|a, b| (&a.project_id, &a.currency).cmp(&(&b.project_id, &b.currency)));
        self.payouts = payouts;
        self
    }
}

type Key = (String, String);

impl Ledger {
    /// The period's statements, each project's platform fee from `fee_of`.
    pub fn statements(&self, period: Period, fee_of: impl Fn(&str) -> Percent) -> PeriodStatements {
        let mut projects: BTreeMap<Key, Statement> = BTreeMap::new();
        let mut operator: BTreeMap<String, OperatorLine> = BTreeMap::new();

        // Sales, and each order's provider fee shared over its lines by price.
        // A destination charge's application fee is shared the same way.
        for lines in by_order(&self.sold).into_values() {
            let fees = allocate(lines[0].order_fee, &prices(&lines));
            let kept = allocate(lines[0].application_fee, &prices(&lines));
            for ((sold, fee), kept) in lines.iter().zip(fees).zip(kept) {
                match &sold.project_id {
                    Some(project) if sold.connected != 0 => {
                        let s = statement(&mut projects, project, &sold.currency);
                        s.add_sale(sold);
                        s.connected_base += sold.price;
                        s.connected_platform_fee += kept;
                        s.paid_by_stripe += sold.price - kept;
                        operator_line(&mut operator, &sold.currency).connected_payment_fees += fee;
                    }
                    Some(project) => {
                        let s = statement(&mut projects, project, &sold.currency);
                        s.add_sale(sold);
                        s.payment_fees += fee;
                    }
                    None => {
                        let o = operator_line(&mut operator, &sold.currency);
                        o.pass_sales += sold.price;
                        o.pass_payment_fees += fee;
                    }
                }
            }
        }

        // Refunds: a named concert's to its project; an order's own over what it had left.
        let lines_of = by_order(&self.refunded_orders);
        let named: HashSet<(&str, &str)> = self
            .named_refunds
            .iter()
            .map(|(order, event)| (order.as_str(), event.as_str()))
            .collect();
        for refund in &self.refunds {
            let lines = lines_of
                .get(refund.order_id.as_str())
                .cloned()
                .unwrap_or_default();
            // A destination charge is one project's: its refund, whole, is that project's
            // (the platform's fee given back is worked out once, as Stripe does).
            if refund.connected != 0
                && let Some(project) = lines.iter().find_map(|l| l.project_id.as_deref())
            {
                refunded(statement(&mut projects, project, &refund.currency), refund);
                continue;
            }
            if let Some(event) = &refund.event_id {
                match lines
                    .iter()
                    .find(|l| l.event_id.as_deref() == Some(event.as_str()))
                    .and_then(|l| l.project_id.as_deref())
                {
                    Some(project) => {
                        refunded(statement(&mut projects, project, &refund.currency), refund);
                    }
                    None => {
                        operator_line(&mut operator, &refund.currency).pass_refunds += refund.amount
                    }
                }
                continue;
            }
            let left: Vec<&SoldLine> = lines
                .iter()
                .copied()
                .filter(|l| match &l.event_id {
                    Some(event) => !named.contains(&(l.order_id.as_str(), event.as_str())),
                    None => true,
                })
                .collect();
            let weights: Vec<i64> = left.iter().map(|l| l.price).collect();
            if weights.iter().sum::<i64>() == 0 {
                operator_line(&mut operator, &refund.currency).pass_refunds += refund.amount;
                continue;
            }
            for (l, share) in left.iter().zip(allocate(refund.amount, &weights)) {
                match &l.project_id {
                    Some(project) => refunded(
                        statement(&mut projects, project, &refund.currency),
                        &Refund {
                            amount: share,
                            ..refund.clone()
                        },
                    ),
                    None => operator_line(&mut operator, &refund.currency).pass_refunds += share,
                }
            }
        }

        // Passes that ended: shared by the minutes listened, projects in a fixed order.
        let mut minutes: HashMap<&str, Vec<(&str, i64)>> = HashMap::new();
        for m in &self.minutes {
            minutes
                .entry(m.pass_id.as_str())
                .or_default()
                .push((m.project_id.as_str(), m.minutes));
        }
        for pass in &self.ended_passes {
            let mut listened = minutes
                .get(pass.pass_id.as_str())
                .cloned()
                .unwrap_or_default();
            listened.sort();
            let weights: Vec<i64> = listened.iter().map(|&(_, m)| m).collect();
            if weights.iter().sum::<i64>() <= 0 {
                operator_line(&mut operator, &pass.currency).unshared_passes += pass.price;
                continue;
            }
            for ((project, _), share) in listened.iter().zip(allocate(pass.price, &weights)) {
                statement(&mut projects, project, &pass.currency).pass_shares += share;
            }
        }

        // The platform's percentage of sales and tips less refunds paid by hand, and its
        // fees as Stripe took them on destination charges; then what is due.
        for s in projects.values_mut() {
            let fee = fee_of(&s.project_id);
            let taken = s.ticket_sales + s.tips + s.pass_shares - s.refunds;
            s.platform_fee_percent = fee.written();
            s.platform_fee = fee.of(taken - s.connected_base) + s.connected_platform_fee;
            s.net = taken - s.payment_fees - s.platform_fee;
            operator_line(&mut operator, &s.currency).platform_fees += s.platform_fee;
        }
        PeriodStatements {
            period: period.name(),
            statements: projects.into_values().collect(),
            operator: operator.into_values().collect(),
            payouts: Vec::new(),
        }
        .paid(Vec::new())
    }
}

/// A refund on a project's statement; of a destination charge, it also took back from
/// what Stripe paid and gave back part of the platform's fee.
fn refunded(s: &mut Statement, refund: &Refund) {
    s.refunds += refund.amount;
    if refund.connected != 0 {
        let fee_back = refund.application_fee_back();
        s.connected_base -= refund.amount;
        s.connected_platform_fee -= fee_back;
        s.paid_by_stripe -= refund.amount - fee_back;
    }
}

fn statement<'a>(
    projects: &'a mut BTreeMap<Key, Statement>,
    project: &str,
    currency: &str,
) -> &'a mut Statement {
    projects
        .entry((project.to_owned(), currency.to_owned()))
        .or_insert_with(|| Statement {
            project_id: project.to_owned(),
            currency: currency.to_owned(),
            ..Statement::default()
        })
}

fn operator_line<'a>(
    operator: &'a mut BTreeMap<String, OperatorLine>,
    currency: &str,
) -> &'a mut OperatorLine {
    operator
        .entry(currency.to_owned())
        .or_insert_with(|| OperatorLine {
            currency: currency.to_owned(),
            ..OperatorLine::default()
        })
}

/// Lines grouped by their order, in their given order.
fn by_order(lines: &[SoldLine]) -> BTreeMap<&str, Vec<&SoldLine>> {
    let mut orders: BTreeMap<&str, Vec<&SoldLine>> = BTreeMap::new();
    for line in lines {
        orders.entry(line.order_id.as_str()).or_default().push(line);
    }
    orders
}

fn prices(lines: &[&SoldLine]) -> Vec<i64> {
    lines.iter().map(|l| l.price).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_add_up_to_the_whole_and_ties_go_first() {
        assert_eq!(allocate(100, &[1, 1, 1]), [34, 33, 33]);
        assert_eq!(allocate(10, &[3, 0, 7]), [3, 0, 7]);
        assert_eq!(allocate(1, &[5, 5]), [1, 0]);
        assert_eq!(allocate(7, &[0, 0]), [0, 0]);
        for total in [0, 1, 99, 4900, 1_000_003] {
            for weights in [vec![1, 2, 3], vec![17, 1, 1, 1], vec![999_999, 1]] {
                assert_eq!(allocate(total, &weights).iter().sum::<i64>(), total);
            }
        }
    }

    #[test]
    fn percentages_read_and_take_in_the_artists_favour() {
        assert_eq!(parse_percent("7.5"), Ok(Percent(750)));
        assert_eq!(parse_percent("10"), Ok(Percent(1000)));
        assert_eq!(parse_percent("0.25"), Ok(Percent(25)));
        assert!(parse_percent("100.01").is_err());
        assert!(parse_percent("-1").is_err() && parse_percent("7,5").is_err());
        assert!(parse_percent("1.234").is_err());
        assert_eq!(Percent(750).of(1999), 149, "149.925 rounds down");
        assert_eq!(Percent(750).of(-5), 0);
        assert_eq!(Percent(750).written(), "7.5");
        assert_eq!(Percent(25).written(), "0.25");
        assert_eq!(Percent(1000).written(), "10");
    }

    #[test]
    fn a_period_is_a_utc_month() {
        let november = Period::parse("2026-11").unwrap();
        assert_eq!(november.from_ms(), 1_793_491_200_000);
        assert_eq!(november.until_ms(), 1_796_083_200_000);
        assert_eq!(
            Period::parse("2026-12").unwrap().until_ms(),
            1_798_761_600_000
        );
        assert!(Period::parse("2026-13").is_none() && Period::parse("26-1").is_none());
        assert_eq!(november.name(), "2026-11");
    }

    fn sold(
        order: &str,
        project: Option<&str>,
        event: Option<&str>,
        price: i64,
        fee: i64,
    ) -> SoldLine {
        SoldLine {
            order_id: order.into(),
            currency: "EUR".into(),
            order_fee: fee,
            connected: 0,
            application_fee: 0,
            project_id: project.map(Into::into),
            event_id: event.map(Into::into),
            price,
            discount: 0,
            kind: if project.is_some() {
                LineKind::Ticket
            } else {
                LineKind::Pass
            },
        }
    }

    #[test]
    fn sales_refunds_fees_and_passes_add_up_to_what_was_taken() {
        let ledger = Ledger {
            sold: vec![
                // One order: a ticket of each of two artists and a pass; the provider took 100.
                sold("o1", Some("a"), Some("e1"), 2000, 100),
                sold("o1", Some("b"), Some("e2"), 1000, 100),
                sold("o1", None, None, 4900, 100),
                sold("o2", Some("a"), Some("e1"), 2000, 0),
            ],
            refunds: vec![
                // e2 cancelled, then what was left of o1 given back.
                Refund {
                    order_id: "o1".into(),
                    currency: "EUR".into(),
                    amount: 1000,
                    event_id: Some("e2".into()),
                    connected: 0,
                    order_total: 0,
                    application_fee: 0,
                },
                Refund {
                    order_id: "o1".into(),
                    currency: "EUR".into(),
                    amount: 6900,
                    event_id: None,
                    connected: 0,
                    order_total: 0,
                    application_fee: 0,
                },
            ],
            refunded_orders: vec![
                sold("o1", Some("a"), Some("e1"), 2000, 100),
                sold("o1", Some("b"), Some("e2"), 1000, 100),
                sold("o1", None, None, 4900, 100),
            ],
            named_refunds: vec![("o1".into(), "e2".into())],
            ended_passes: vec![
                EndedPass {
                    pass_id: "p1".into(),
                    currency: "EUR".into(),
                    price: 4900,
                },
                EndedPass {
                    pass_id: "p2".into(),
                    currency: "EUR".into(),
                    price: 4900,
                },
            ],
            minutes: vec![
                PassMinutes {
                    pass_id: "p1".into(),
                    project_id: "a".into(),
                    minutes: 60,
                },
                PassMinutes {
                    pass_id: "p1".into(),
                    project_id: "b".into(),
                    minutes: 30,
                },
            ],
        };
        let period = Period::parse("2026-11").unwrap();
        let all = ledger.statements(period, |p| {
            if p == "b" {
                Percent(1000)
            } else {
                Percent(750)
            }
        });
        let a = &all.statements[0];
        let b = &all.statements[1];
        assert_eq!(
            (a.ticket_sales, a.pass_shares, a.refunds, a.payment_fees),
            (4000, 3267, 2000, 25)
        );
        assert_eq!(
            (b.ticket_sales, b.pass_shares, b.refunds, b.payment_fees),
            (1000, 1633, 1000, 13)
        );
        assert_eq!(a.platform_fee, Percent(750).of(4000 + 3267 - 2000));
        assert_eq!(b.platform_fee_percent, "10");
        assert_eq!(a.net, 4000 + 3267 - 2000 - 25 - a.platform_fee);
        let op = &all.operator[0];
        assert_eq!(
            (
                op.pass_sales,
                op.pass_refunds,
                op.pass_payment_fees,
                op.unshared_passes
            ),
            (4900, 4900, 62, 4900)
        );
        // Every cent taken is on one line: sales, and fees, and refunds.
        assert_eq!(
            a.ticket_sales + b.ticket_sales + op.pass_sales,
            2000 + 1000 + 4900 + 2000
        );
        assert_eq!(a.payment_fees + b.payment_fees + op.pass_payment_fees, 100);
        assert_eq!(a.refunds + b.refunds + op.pass_refunds, 1000 + 6900);
        assert_eq!(a.pass_shares + b.pass_shares + op.unshared_passes, 2 * 4900);
        assert_eq!(op.platform_fees, a.platform_fee + b.platform_fee);
    }

    #[test]
    fn a_discounted_ticket_shows_its_sales_before_discounts_and_the_discount_the_net_from_what_was_paid()
     {
        let ledger = Ledger {
            sold: vec![
                SoldLine {
                    discount: 200,
                    ..sold("o1", Some("a"), Some("e1"), 1800, 0)
                },
                sold("o2", Some("a"), Some("e1"), 2000, 0),
            ],
            ..Ledger::default()
        };
        let all = ledger.statements(Period::parse("2026-11").unwrap(), |_| Percent(1000));
        let a = &all.statements[0];
        assert_eq!(
            (a.ticket_sales_before_discounts, a.discounts, a.ticket_sales),
            (4000, 200, 3800)
        );
        assert_eq!(a.platform_fee, 380);
        assert_eq!(a.net, 3800 - 380);
    }

    fn tip(order: &str, project: &str, price: i64, fee: i64) -> SoldLine {
        SoldLine {
            kind: LineKind::Tip,
            ..sold(order, Some(project), Some("e1"), price, fee)
        }
    }

    #[test]
    fn a_tip_is_its_projects_with_its_fees_and_refunds_and_pays_the_platform_fee() {
        let ledger = Ledger {
            sold: vec![
                sold("o1", Some("a"), Some("e1"), 2000, 0),
                tip("t1", "a", 500, 30),
                tip("t2", "a", 1001, 0),
            ],
            // The second tip given back whole (a refund naming no concert).
            refunds: vec![Refund {
                order_id: "t2".into(),
                currency: "EUR".into(),
                amount: 1001,
                event_id: None,
                connected: 0,
                order_total: 1001,
                application_fee: 0,
            }],
            refunded_orders: vec![tip("t2", "a", 1001, 0)],
            ..Ledger::default()
        };
        let all = ledger.statements(Period::parse("2026-11").unwrap(), |_| Percent(750));
        let a = &all.statements[0];
        assert_eq!(
            (a.ticket_sales, a.tips, a.refunds, a.payment_fees),
            (2000, 1501, 1001, 30)
        );
        assert_eq!(a.platform_fee, Percent(750).of(2000 + 1501 - 1001));
        assert_eq!(a.net, 2000 + 1501 - 1001 - 30 - a.platform_fee);
        assert_eq!(all.operator[0].platform_fees, a.platform_fee);
    }

    #[test]
    fn a_destination_charge_is_paid_by_stripe_and_not_owed_twice() {
        let connected = |order: &str, event: &str, price: i64| SoldLine {
            connected: 1,
            application_fee: 150,
            ..sold(order, Some("a"), Some(event), price, 61)
        };
        // o1 paid by hand; o2 a destination charge of 2000 whose platform fee was 150.
        let o2 = vec![connected("o2", "e1", 1500), connected("o2", "e2", 500)];
        let ledger = Ledger {
            sold: [
                vec![sold("o1", Some("a"), Some("e1"), 1500, 40)],
                o2.clone(),
            ]
            .concat(),
            // Half of o2 given back: 75 of the fee back, 925 taken back from the artist.
            refunds: vec![Refund {
                order_id: "o2".into(),
                currency: "EUR".into(),
                amount: 1000,
                event_id: None,
                connected: 1,
                order_total: 2000,
                application_fee: 150,
            }],
            refunded_orders: o2,
            ..Ledger::default()
        };
        let all = ledger.statements(Period::parse("2026-11").unwrap(), |_| Percent(750));
        let a = &all.statements[0];
        assert_eq!((a.ticket_sales, a.refunds), (3500, 1000));
        assert_eq!(
            a.payment_fees, 40,
            "the platform pays a destination charge's fee"
        );
        assert_eq!(all.operator[0].connected_payment_fees, 61);
        assert_eq!(a.platform_fee, Percent(750).of(1500) + 150 - 75);
        assert_eq!(a.paid_by_stripe, (2000 - 150) - (1000 - 75));
        // Owed is what the hand-paid order left the artist, nothing of o2.
        assert_eq!(a.owed, 1500 - 40 - Percent(750).of(1500));
        assert_eq!(a.net, a.owed + a.paid_by_stripe);
        // Every cent taken is on one line.
        assert_eq!(
            a.payment_fees + all.operator[0].connected_payment_fees,
            40 + 61
        );
        assert_eq!(all.operator[0].platform_fees, a.platform_fee);
    }
}
