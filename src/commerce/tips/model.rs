//! What a tip is and the rules on its amount and message: presets, the minimum and the
//! maximum in the concert's currency (minor units), the message's length. No database here.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::chat::model::clean;
use crate::commerce::money;
use crate::error::{Error, Result};
use crate::i18n::{Arg, Msg};

/// The presets the tip form offers, in major units of the concert's currency.
pub const PRESETS_MAJOR: [i64; 4] = [2, 5, 10, 20];
/// The smallest tip: one major unit of the currency (1 EUR, 1 JPY).
pub const MINIMUM_MAJOR: i64 = 1;
/// The largest tip: a mistyped amount is refused rather than charged.
pub const MAXIMUM_MAJOR: i64 = 1_000;
/// The longest message a tip carries, in characters after cleaning.
pub const MAX_MESSAGE_CHARS: usize = 140;

/// Where the tipper goes back to once paid: the concert's stage (player and room).
pub fn back_to_room(event_id: &str, order_id: &str) -> String {
    format!("/stage/{event_id}?tipped={order_id}")
}

/// One major unit of `currency` in its minor units (100 for EUR, 1 for JPY).
fn unit(currency: &str) -> i64 {
    10i64.pow(money::minor_digits(currency))
}

/// What a concert's tip form offers and accepts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TipOptions {
    /// Whether the concert takes tips: its artist or staff may turn them off.
    pub enabled: bool,
    /// The concert's currency: every tip to it is in it.
    pub currency: String,
    /// The offered amounts, minor units, smallest first.
    pub presets: Vec<i64>,
    /// The smallest and largest amount of one's own, minor units.
    pub minimum: i64,
    pub maximum: i64,
    /// The longest message, in characters.
    pub max_message_chars: usize,
}

impl TipOptions {
    /// The defaults: on, the presets and the minimum of [`PRESETS_MAJOR`] and
    /// [`MINIMUM_MAJOR`] in the currency.
    pub fn of(currency: &str) -> Self {
        let unit = unit(currency);
        Self {
            enabled: true,
            currency: currency.to_owned(),
            presets: PRESETS_MAJOR.iter().map(|p| p * unit).collect(),
            minimum: MINIMUM_MAJOR * unit,
            maximum: MAXIMUM_MAJOR * unit,
            max_message_chars: MAX_MESSAGE_CHARS,
        }
    }

    /// A concert's options: the defaults, or what its artist or staff set.
    pub fn with(currency: &str, settings: Option<&TipSettings>) -> Self {
        let defaults = Self::of(currency);
        match settings {
            Some(set) => Self {
                enabled: set.enabled,
                presets: set.presets.clone(),
                minimum: set.minimum,
                ..defaults
            },
            None => defaults,
        }
    }

    /// The amount, when tips are on and it is within the limits; else why not, in the
    /// reader's language.
    pub fn check_amount(&self, amount: i64) -> Result<i64> {
        if !self.enabled {
            return Err(Error::unprocessable(Msg::TipsOff));
        }
        let figure = |minor| Arg::figure(money::format(minor, &self.currency));
        if amount < self.minimum {
            return Err(Error::unprocessable(
                Msg::TipBelowMinimum.with("minimum", figure(self.minimum)),
            ));
        }
        if amount > self.maximum {
            return Err(Error::unprocessable(
                Msg::TipAboveMaximum.with("maximum", figure(self.maximum)),
            ));
        }
        Ok(amount)
    }
}

/// The most presets a concert's tip form offers.
pub const MAX_PRESETS: usize = 6;

/// A concert's own tip settings, as its artist or staff set them (minor units of its
/// currency); a concert without them takes the defaults ([`TipOptions::of`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TipSettings {
    /// Off: the tip form is not offered and a tip is refused.
    pub enabled: bool,
    /// The amounts offered, 1 to 6, each from the minimum to the maximum (kept smallest
    /// first, once each).
    pub presets: Vec<i64>,
    /// The smallest tip: more than 0, at most the maximum.
    pub minimum: i64,
}

impl TipSettings {
    /// The settings as kept (presets sorted, once each), when they hold in `currency`;
    /// else why not, in the reader's language.
    pub fn checked(mut self, currency: &str) -> Result<Self> {
        let maximum = TipOptions::of(currency).maximum;
        let figure = |minor| Arg::figure(money::format(minor, currency));
        if !(1..=maximum).contains(&self.minimum) {
            return Err(Error::unprocessable(
                Msg::TipMinimumRange.with("maximum", figure(maximum)),
            ));
        }
        self.presets.sort_unstable();
        self.presets.dedup();
        if self.presets.is_empty() || self.presets.len() > MAX_PRESETS {
            return Err(Error::unprocessable(
                Msg::TipPresetsCount.with("max", MAX_PRESETS as i64),
            ));
        }
        if self
            .presets
            .iter()
            .any(|p| !(self.minimum..=maximum).contains(p))
        {
            return Err(Error::unprocessable(
                Msg::TipPresetsRange.with("maximum", figure(maximum)),
            ));
        }
        Ok(self)
    }
}

/// The tipper's message, cleaned as a chat message is; at most [`MAX_MESSAGE_CHARS`].
pub fn check_message(text: Option<&str>) -> Result<String> {
    let text = clean(text.unwrap_or_default());
    if text.chars().count() > MAX_MESSAGE_CHARS {
        return Err(Error::unprocessable(
            Msg::TipMessageTooLong.with("max", Arg::figure(MAX_MESSAGE_CHARS.to_string())),
        ));
    }
    Ok(text)
}

/// A paid tip, as the concert's artist and staff see it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Tip {
    /// Its order's id.
    pub id: String,
    pub event_id: String,
    /// The tipper as the room names them ("Ann B.").
    pub author: String,
    /// Minor units, in `currency` (the concert's).
    pub amount: i64,
    #[schema(schema_with = crate::commerce::money::stored_currency_schema)]
    pub currency: String,
    /// What the tipper wrote; may be empty.
    pub message: String,
    #[schema(format = DateTime)]
    pub paid_at: String,
}

/// What a concert's tips came to in one currency (its refunded tips left out).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TipTotal {
    pub currency: String,
    pub amount: i64,
    pub count: i64,
}

/// A concert's paid tips, newest first, and their totals.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TipList {
    pub tips: Vec<Tip>,
    pub totals: Vec<TipTotal>,
}

/// `tip_paid` on `event:<id>` (the concert's managers: the artist's live panel): a tip
/// was paid. The room hears it too, as a `chat_message` of kind `tip`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TipPaid {
    pub tip: Tip,
}

impl crate::bus::Message for TipPaid {
    const KIND: &'static str = "tip_paid";
}

/// What a tip's totals are made of: (currency, amount) of each tip not refunded.
pub fn totals(tips: &[(String, i64)]) -> Vec<TipTotal> {
    let mut totals: Vec<TipTotal> = Vec::new();
    for (currency, amount) in tips {
        match totals.iter_mut().find(|t| &t.currency == currency) {
            Some(t) => {
                t.amount += amount;
                t.count += 1;
            }
            None => totals.push(TipTotal {
                currency: currency.clone(),
                amount: *amount,
                count: 1,
            }),
        }
    }
    totals.sort_by(|a, b| a.currency.cmp(&b.currency));
    totals
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_and_limits_follow_the_currencys_minor_unit() {
        let eur = TipOptions::of("EUR");
        assert_eq!(eur.presets, [200, 500, 1000, 2000]);
        assert_eq!((eur.minimum, eur.maximum), (100, 100_000));
        let jpy = TipOptions::of("JPY");
        assert_eq!(jpy.presets, [2, 5, 10, 20]);
        assert_eq!(TipOptions::of("KWD").minimum, 1000);
    }

    #[test]
    fn an_amount_below_the_minimum_or_above_the_maximum_is_refused() {
        let eur = TipOptions::of("EUR");
        assert_eq!(eur.check_amount(100).unwrap(), 100);
        assert_eq!(eur.check_amount(100_000).unwrap(), 100_000);
        assert_eq!(eur.check_amount(99).unwrap_err().status().as_u16(), 422);
        assert_eq!(eur.check_amount(0).unwrap_err().status().as_u16(), 422);
        assert_eq!(eur.check_amount(-500).unwrap_err().status().as_u16(), 422);
        assert_eq!(
            eur.check_amount(100_001).unwrap_err().status().as_u16(),
            422
        );
    }

    #[test]
    fn a_concerts_settings_replace_the_defaults_and_off_refuses_every_amount() {
        let set = |enabled, presets: &[i64], minimum| TipSettings {
            enabled,
            presets: presets.to_vec(),
            minimum,
        };
        let kept = set(true, &[700, 300, 700], 300).checked("EUR").unwrap();
        assert_eq!(kept.presets, [300, 700], "sorted, once each");
        let options = TipOptions::with("EUR", Some(&kept));
        assert_eq!((options.minimum, options.maximum), (300, 100_000));
        assert_eq!(
            options.check_amount(299).unwrap_err().status().as_u16(),
            422
        );
        assert_eq!(options.check_amount(300).unwrap(), 300);
        let off = TipOptions::with("EUR", Some(&set(false, &[300], 300)));
        assert_eq!(off.check_amount(500).unwrap_err().status().as_u16(), 422);
        for wrong in [
            set(true, &[200], 300),
            set(true, &[], 300),
            set(true, &[500], 0),
            set(true, &[500], 100_001),
            set(true, &[100, 200, 300, 400, 500, 600, 700], 100),
            set(true, &[100_001], 100),
        ] {
            assert!(wrong.clone().checked("EUR").is_err(), "{wrong:?}");
        }
    }

    #[test]
    fn a_message_is_cleaned_and_at_most_140_characters() {
        assert_eq!(check_message(None).unwrap(), "");
        assert_eq!(
            check_message(Some("  bravo\n!\u{202E} ")).unwrap(),
            "bravo !"
        );
        assert!(check_message(Some(&"ب".repeat(140))).is_ok());
        assert!(check_message(Some(&"ب".repeat(141))).is_err());
    }

    #[test]
    fn totals_are_per_currency() {
        let t = totals(&[
            ("EUR".into(), 500),
            ("USD".into(), 200),
            ("EUR".into(), 150),
        ]);
        assert_eq!(
            t,
            [
                TipTotal {
                    currency: "EUR".into(),
                    amount: 650,
                    count: 2
                },
                TipTotal {
                    currency: "USD".into(),
                    amount: 200,
                    count: 1
                }
            ]
        );
    }
}
