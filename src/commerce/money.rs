//! Prices in minor units with an ISO 4217 currency.

use crate::error::{Error, Result};
use crate::i18n::Msg;

/// The highest price (minor units) Encore takes.
pub const MAX_PRICE: i64 = 100_000_000;

/// ISO 4217 codes accepted for prices, with their minor-unit exponent.
const CURRENCIES: &[(&str, u32)] = &[
    ("AUD", 2),
    ("BRL", 2),
    ("CAD", 2),
    ("CHF", 2),
    ("CNY", 2),
    ("CZK", 2),
    ("DKK", 2),
    ("EUR", 2),
    ("GBP", 2),
    ("HKD", 2),
    ("HUF", 2),
    ("IDR", 2),
    ("ILS", 2),
    ("INR", 2),
    ("IRR", 2),
    ("JPY", 0),
    ("KRW", 0),
    ("MXN", 2),
    ("NOK", 2),
    ("NZD", 2),
    ("PLN", 2),
    ("SEK", 2),
    ("SGD", 2),
    ("TRY", 2),
    ("USD", 2),
    ("ZAR", 2),
    ("ARS", 2),
    ("CLP", 0),
    ("COP", 2),
    ("KWD", 3),
    ("BHD", 3),
];

/// The currency codes [`parse_currency`] takes, for the API's description (it also takes
/// them in lower case); `null` when `nullable` (the default currency).
pub fn currency_schema(nullable: bool) -> utoipa::openapi::Object {
    use utoipa::openapi::schema::{ObjectBuilder, SchemaType, Type};
    let mut codes: Vec<serde_json::Value> = CURRENCIES.iter().map(|(c, _)| (*c).into()).collect();
    let types = if nullable {
        codes.push(serde_json::Value::Null);
        SchemaType::from_iter([Type::String, Type::Null])
    } else {
        SchemaType::new(Type::String)
    };
    ObjectBuilder::new()
        .schema_type(types)
        .enum_values(Some(codes))
        .description(Some("An ISO 4217 code Encore prices in."))
        .build()
}

/// A stored price's currency, as answered: always a code [`parse_currency`] took.
pub fn stored_currency_schema() -> utoipa::openapi::Object {
    currency_schema(false)
}

/// Upper-case and check a currency code.
pub fn parse_currency(code: &str) -> Result<String> {
    let upper = code.trim().to_ascii_uppercase();
    if CURRENCIES.iter().any(|(c, _)| *c == upper) {
        Ok(upper)
    } else {
        Err(Error::unprocessable(
            Msg::UnsupportedCurrency.with("code", code),
        ))
    }
}

pub fn minor_digits(currency: &str) -> u32 {
    CURRENCIES
        .iter()
        .find(|(c, _)| *c == currency)
        .map_or(2, |(_, digits)| *digits)
}

/// `1250, "EUR"` → `"12.50 EUR"`, for e-mails and the hosted checkout page.
pub fn format(minor: i64, currency: &str) -> String {
    format!("{} {currency}", decimal(minor, currency))
}

/// `1250, "EUR"` → `"12.50"`: the amount in major units with the currency's digits
/// (a CSV cell a spreadsheet reads as a number).
pub fn decimal(minor: i64, currency: &str) -> String {
    let digits = minor_digits(currency);
    if digits == 0 {
        return minor.to_string();
    }
    let unit = 10i64.pow(digits);
    let sign = if minor < 0 { "-" } else { "" };
    format!(
        "{sign}{}.{:0width$}",
        (minor / unit).abs(),
        (minor % unit).abs(),
        width = digits as usize
    )
}

/// A line's price split over its `quantity` tickets, to the cent: equal shares, the
/// first ones a minor unit more while the remainder lasts, adding up to `total` exactly.
pub fn split(total: i64, quantity: i64) -> Vec<i64> {
    let quantity = quantity.max(1);
    let (share, left) = (total.div_euclid(quantity), total.rem_euclid(quantity));
    (0..quantity).map(|i| share + i64::from(i < left)).collect()
}

pub fn check_price(minor: i64) -> Result<i64> {
    if (0..=MAX_PRICE).contains(&minor) {
        Ok(minor)
    } else {
        Err(Error::unprocessable(Msg::PriceRange))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prices_are_formatted_with_the_currency_minor_unit() {
        assert_eq!(format(1250, "EUR"), "12.50 EUR");
        assert_eq!(format(5, "USD"), "0.05 USD");
        assert_eq!(format(1500, "JPY"), "1500 JPY");
        assert_eq!(format(1234, "KWD"), "1.234 KWD");
        assert_eq!(decimal(-5, "EUR"), "-0.05");
        assert_eq!(parse_currency("eur").unwrap(), "EUR");
        assert!(parse_currency("XYZ").is_err());
    }

    #[test]
    fn a_line_splits_over_its_tickets_to_the_cent() {
        assert_eq!(split(1000, 3), vec![334, 333, 333]);
        assert_eq!(split(2700, 3), vec![900, 900, 900]);
        assert_eq!(split(1, 3), vec![1, 0, 0]);
        assert_eq!(split(0, 2), vec![0, 0]);
        assert_eq!(split(1250, 1), vec![1250]);
        for (total, quantity) in [(999, 7), (10_001, 10), (5, 10)] {
            let shares = split(total, quantity);
            assert_eq!(shares.len() as i64, quantity);
            assert_eq!(shares.iter().sum::<i64>(), total);
        }
    }
}
