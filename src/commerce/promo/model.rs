//! Promo codes' rows, their API shapes, the rules their fields keep, and the one sum that
//! matters: what a code takes off an order's lines, spread over them to the cent.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::commerce::money;
use crate::db::iso8601;
use crate::error::{Error, Result};
use crate::i18n::Msg;
use crate::statements::model::allocate;

/// What a code does. (Named apart in the document: other schemas are called `Kind`.)
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = PromoKind)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// `value` percent off.
    Percent,
    /// `value` minor units of `currency` off.
    Amount,
    /// Nothing off: it lists and sells the hidden tiers it names (`tierIds`) to whoever
    /// holds it in their cart (or, to list them, names it as `?code=`).
    Unlock,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Percent => "percent",
            Kind::Amount => "amount",
            Kind::Unlock => "unlock",
        }
    }
}

impl TryFrom<String> for Kind {
    type Error = String;
    fn try_from(value: String) -> Result<Self, Self::Error> {
        match value.as_str() {
            "percent" => Ok(Kind::Percent),
            "amount" => Ok(Kind::Amount),
            "unlock" => Ok(Kind::Unlock),
            _ => Err(format!("unknown promo code kind {value:?}")),
        }
    }
}

#[derive(Debug, Clone)]
pub struct CodeRow {
    pub id: String,
    pub project_id: String,
    pub event_id: Option<String>,
    pub code: String,
    pub kind: Kind,
    pub value: i64,
    pub currency: Option<String>,
    pub max_uses: Option<i64>,
    pub max_per_account: Option<i64>,
    pub valid_from: Option<i64>,
    pub valid_until: Option<i64>,
    pub uses_taken: i64,
    pub created_at: i64,
}

crate::db::from_row!(CodeRow { id, project_id, event_id, code, kind as String, value, currency, max_uses, max_per_account, valid_from, valid_until, uses_taken, created_at });

/// The normalised form a code is stored and looked up in: trimmed, upper case.
pub fn normalise(code: &str) -> String {
    code.trim().to_uppercase()
}

/// Why a code cannot be used at `now` (its dates and its uses), if it cannot.
pub fn refusal(code: &CodeRow, now: i64) -> Option<Msg> {
    date_refusal(code, now).or_else(|| {
        code.max_uses
            .is_some_and(|max| code.uses_taken >= max)
            .then_some(Msg::PromoCodeUsedUp)
    })
}

/// Why a code cannot be used at `now` by its dates alone, if it cannot.
pub fn date_refusal(code: &CodeRow, now: i64) -> Option<Msg> {
    if code.valid_from.is_some_and(|from| now < from) {
        Some(Msg::PromoCodeNotYetValid)
    } else if code.valid_until.is_some_and(|until| now >= until) {
        Some(Msg::PromoCodeExpired)
    } else {
        None
    }
}

/// One line of a cart or an order, as a code sees it.
#[derive(Debug, Clone)]
pub struct Line<'a> {
    pub price_minor: i64,
    /// The line's concert and its project (`None` for a pass: codes are for concerts).
    pub concert: Option<(&'a str, &'a str)>,
    pub currency: &'a str,
}

impl CodeRow {
    /// Whether the code applies to a line: a concert line of its concert, or of its
    /// project when it names none; an amount only to lines in its currency.
    pub fn applies_to(&self, line: &Line<'_>) -> bool {
        let Some((event_id, project_id)) = line.concert else {
            return false;
        };
        let concert = match &self.event_id {
            Some(id) => id == event_id,
            None => self.project_id == project_id,
        };
        concert && (self.kind != Kind::Amount || self.currency.as_deref() == Some(line.currency))
    }

    /// What the code takes off each line (minor units, in the lines' order): a percentage
    /// of the lines it applies to (rounded half up), or its amount (at most their sum),
    /// spread over those lines in proportion to their prices by the largest remainder, so
    /// the shares add up to the discount exactly and no line goes below 0.
    pub fn discounts(&self, lines: &[Line<'_>]) -> Vec<i64> {
        let weights: Vec<i64> = lines
            .iter()
            .map(|l| if self.applies_to(l) { l.price_minor } else { 0 })
            .collect();
        let base: i64 = weights.iter().sum();
        let total = match self.kind {
            Kind::Percent => {
                let off = (i128::from(base) * i128::from(self.value) + 50) / 100;
                i64::try_from(off).unwrap_or(base).min(base)
            }
            Kind::Amount => self.value.min(base),
            Kind::Unlock => 0,
        };
        allocate(total, &weights)
    }
}

/// A promo code as its managers see it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PromoCode {
    pub id: String,
    pub project_id: String,
    /// The one concert it applies to; `null`: every concert of the project.
    #[schema(required = true)]
    pub event_id: Option<String>,
    /// In upper case; buyers may type it in any case.
    pub code: String,
    pub kind: Kind,
    /// Percent (1–100) for `percent`, minor units of `currency` for `amount`, 0 for `unlock`.
    pub value: i64,
    /// The currency of an `amount`; `null` otherwise.
    #[schema(required = true)]
    pub currency: Option<String>,
    /// Uses in all; `null`: no limit.
    #[schema(required = true)]
    pub max_uses: Option<i64>,
    /// Uses per account; `null`: no limit.
    #[schema(required = true)]
    pub max_per_account: Option<i64>,
    #[schema(format = DateTime, required = true)]
    pub valid_from: Option<String>,
    #[schema(format = DateTime, required = true)]
    pub valid_until: Option<String>,
    /// Orders carrying it that are being paid for or were paid.
    pub uses_taken: i64,
    /// The hidden tiers an `unlock` code lists and sells.
    pub tier_ids: Vec<String>,
    #[schema(format = DateTime)]
    pub created_at: String,
}

impl PromoCode {
    pub fn new(row: CodeRow, tier_ids: Vec<String>) -> Self {
        Self {
            id: row.id,
            project_id: row.project_id,
            event_id: row.event_id,
            code: row.code,
            kind: row.kind,
            value: row.value,
            currency: row.currency,
            max_uses: row.max_uses,
            max_per_account: row.max_per_account,
            valid_from: row.valid_from.map(iso8601),
            valid_until: row.valid_until.map(iso8601),
            uses_taken: row.uses_taken,
            tier_ids,
            created_at: iso8601(row.created_at),
        }
    }
}

/// A promo code as its managers write it (a change replaces every field).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PromoCodeInput {
    /// 3–40 letters, digits, `-` or `_`; stored in upper case, unique on the platform.
    #[schema(min_length = 3, max_length = 40, pattern = "^[A-Za-z0-9_-]+$")]
    pub code: String,
    pub kind: Kind,
    /// Percent (1–100) or minor units (from 1); ignored for `unlock`.
    #[serde(default)]
    #[schema(minimum = 0, maximum = 100_000_000)]
    pub value: i64,
    /// An amount's currency (ISO 4217); a concert's code defaults to the concert's.
    pub currency: Option<String>,
    /// On a project's codes: the one concert of the project it applies to; absent: all.
    pub event_id: Option<String>,
    #[schema(minimum = 1)]
    pub max_uses: Option<i64>,
    #[schema(minimum = 1)]
    pub max_per_account: Option<i64>,
    /// RFC 3339; absent: valid at once.
    #[schema(format = DateTime)]
    pub valid_from: Option<String>,
    /// RFC 3339, after `validFrom`; absent: never expires.
    #[schema(format = DateTime)]
    pub valid_until: Option<String>,
    /// For `unlock` (at least one): hidden tiers of the code's concert, or of its
    /// project's concerts for a code of all of them. Ignored for the other kinds.
    #[serde(default)]
    pub tier_ids: Vec<String>,
}

/// What is stored of a code's fields, checked.
#[derive(Debug, Clone)]
pub struct CodeFields {
    pub code: String,
    pub kind: Kind,
    pub value: i64,
    pub currency: Option<String>,
    pub event_id: Option<String>,
    pub max_uses: Option<i64>,
    pub max_per_account: Option<i64>,
    pub valid_from: Option<i64>,
    pub valid_until: Option<i64>,
    pub tier_ids: Vec<String>,
}

fn parse_time(value: &str) -> Result<i64> {
    crate::db::parse_iso8601(value).ok_or_else(|| Error::unprocessable(Msg::TierTimeFormat))
}

impl PromoCodeInput {
    /// The input checked; `concert_currency` is the currency of the concert it is for.
    pub fn fields(self, concert_currency: Option<&str>) -> Result<CodeFields> {
        let code = normalise(&self.code);
        let well_formed = (3..=40).contains(&code.chars().count())
            && code
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        if !well_formed {
            return Err(Error::unprocessable(Msg::PromoCodeFormat));
        }
        let (value, currency) = match self.kind {
            Kind::Percent if (1..=100).contains(&self.value) => (self.value, None),
            Kind::Amount if self.value >= 1 => {
                let currency = match self.currency.as_deref().or(concert_currency) {
                    Some(c) => money::parse_currency(c)?,
                    None => return Err(Error::unprocessable(Msg::PromoCodeValue)),
                };
                (money::check_price(self.value)?, Some(currency))
            }
            // A code that unlocks nothing would do nothing: refused rather than stored.
            Kind::Unlock if self.tier_ids.is_empty() => {
                return Err(Error::unprocessable(Msg::PromoCodeTiers));
            }
            Kind::Unlock => (0, None),
            _ => return Err(Error::unprocessable(Msg::PromoCodeValue)),
        };
        let valid_from = self.valid_from.as_deref().map(parse_time).transpose()?;
        let valid_until = self.valid_until.as_deref().map(parse_time).transpose()?;
        let limits_ok = self.max_uses.is_none_or(|n| n >= 1)
            && self.max_per_account.is_none_or(|n| n >= 1)
            && !matches!((valid_from, valid_until), (Some(a), Some(b)) if a >= b);
        if !limits_ok {
            return Err(Error::unprocessable(Msg::PromoCodeLimits));
        }
        Ok(CodeFields {
            code,
            kind: self.kind,
            value,
            currency,
            event_id: self.event_id,
            max_uses: self.max_uses,
            max_per_account: self.max_per_account,
            valid_from,
            valid_until,
            tier_ids: if self.kind == Kind::Unlock {
                let mut ids = self.tier_ids;
                ids.sort();
                ids.dedup();
                ids
            } else {
                Vec::new()
            },
        })
    }
}

/// The code in a cart, with what it takes off it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CartPromo {
    /// As stored (upper case).
    pub code: String,
    pub kind: Kind,
    /// Minor units: the cart's total before the code.
    pub subtotal: i64,
    /// Minor units taken off (0 for a code that only unlocks tiers).
    pub discount: i64,
    /// Minor units: `subtotal - discount`, what checkout asks for.
    pub total: i64,
    /// The cart's currency; `null` for an empty cart.
    #[schema(required = true)]
    pub currency: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(kind: Kind, value: i64) -> CodeRow {
        CodeRow {
            id: "c".into(),
            project_id: "p".into(),
            event_id: None,
            code: "X".into(),
            kind,
            value,
            currency: Some("EUR".into()),
            max_uses: None,
            max_per_account: None,
            valid_from: None,
            valid_until: None,
            uses_taken: 0,
            created_at: 0,
        }
    }

    fn line(price: i64, project: &'static str) -> Line<'static> {
        Line {
            price_minor: price,
            concert: Some(("e", project)),
            currency: "EUR",
        }
    }

    #[test]
    fn a_percentage_is_spread_to_the_cent() {
        let lines = [line(999, "p"), line(1, "p"), line(500, "q")];
        // 15 % of 10.00 is 1.50, shared 149.85 : 0.15 by the largest remainder.
        assert_eq!(code(Kind::Percent, 15).discounts(&lines), [150, 0, 0]);
        let even = [line(1000, "p"), line(1000, "p"), line(1000, "p")];
        assert_eq!(code(Kind::Percent, 10).discounts(&even), [100, 100, 100]);
        assert_eq!(
            code(Kind::Percent, 100).discounts(&even),
            [1000, 1000, 1000]
        );
    }

    #[test]
    fn an_amount_never_takes_more_than_the_lines() {
        let lines = [line(300, "p"), line(200, "p")];
        assert_eq!(code(Kind::Amount, 100).discounts(&lines), [60, 40]);
        assert_eq!(code(Kind::Amount, 9_999).discounts(&lines), [300, 200]);
        let dollars = [Line {
            currency: "USD",
            ..line(300, "p")
        }];
        assert_eq!(code(Kind::Amount, 100).discounts(&dollars), [0]);
    }

    #[test]
    fn dates_and_uses_refuse() {
        let mut c = code(Kind::Percent, 10);
        c.valid_from = Some(100);
        c.valid_until = Some(200);
        assert_eq!(refusal(&c, 99), Some(Msg::PromoCodeNotYetValid));
        assert_eq!(refusal(&c, 100), None);
        assert_eq!(refusal(&c, 200), Some(Msg::PromoCodeExpired));
        c.max_uses = Some(2);
        c.uses_taken = 2;
        assert_eq!(refusal(&c, 150), Some(Msg::PromoCodeUsedUp));
    }
}
