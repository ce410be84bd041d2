//! Bank account numbers and the text fields beside them, as the organiser's billing page
//! and a project's bank details both keep them: checked, sealed at rest, masked for show.

use crate::crypto::DataKey;
use crate::error::{Error, Result};
use crate::i18n::Msg;
use crate::state::AppState;

/// Where an account number is sealed: the associated data that binds the ciphertext to
/// its column, and whose number it is, for the log.
pub struct Vault {
    pub column: &'static str,
    pub whose: &'static str,
}

impl Vault {
    /// Seal a non-empty account number (empty stays empty: nothing to hide).
    pub fn seal(&self, app: &AppState, plain: &str) -> Result<String> {
        if plain.is_empty() {
            return Ok(String::new());
        }
        app.config
            .data_key
            .seal(self.column, plain)
            .map_err(|_| Error::internal(format!("{} cannot be encrypted", self.whose)))
    }

    /// The plain account number, or `None` when it cannot be decrypted. Fails closed: the
    /// page still loads, showing the number as unavailable, and the cause is logged (never
    /// the number). A value without the `v1:` prefix is legacy plain text.
    pub fn reveal(&self, app: &AppState, stored: &str) -> Option<String> {
        if stored.is_empty() || !DataKey::is_sealed(stored) {
            return Some(stored.to_owned());
        }
        app.config
            .data_key
            .open(self.column, stored)
            .inspect_err(|_| {
                tracing::error!(
                    "{} cannot be decrypted: was ENCORE_DATA_KEY changed?",
                    self.whose
                );
            })
            .ok()
    }
}

/// An account number as typed, without its spaces and in capitals: 6 to 34 letters or
/// digits (an IBAN at the most), or empty for none.
pub fn plain_number(typed: &str) -> Result<String> {
    let compact: String = typed.chars().filter(|c| !c.is_whitespace()).collect();
    if !compact.is_empty()
        && (!(6..=34).contains(&compact.len())
            || !compact.chars().all(|c| c.is_ascii_alphanumeric()))
    {
        return Err(Error::unprocessable(Msg::AccountNumber));
    }
    Ok(compact.to_ascii_uppercase())
}

/// `•••• 1234`: the last four characters, for whoever may not see the whole number.
pub fn mask(number: &str) -> String {
    if number.is_empty() {
        return String::new();
    }
    let tail: String = number
        .chars()
        .rev()
        .take(4)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    format!("•••• {tail}")
}

/// A text field trimmed, and no longer than `max` characters (422 naming the field).
pub fn limit(value: &str, field: &str, max: usize) -> Result<String> {
    let value = value.trim();
    if value.chars().count() > max {
        return Err(Error::unprocessable(
            Msg::FieldTooLong.with("field", field).with("max", max),
        ));
    }
    Ok(value.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_account_number_loses_its_spaces_and_is_written_in_capitals() {
        assert_eq!(
            plain_number(" gb33 bukb 2020 1555 5555 55 ").unwrap(),
            "GB33BUKB20201555555555"
        );
        assert_eq!(plain_number("   ").unwrap(), "");
    }

    #[test]
    fn an_account_number_is_6_to_34_letters_or_digits() {
        assert!(plain_number("12345").is_err());
        assert!(plain_number("123456").is_ok());
        assert!(plain_number(&"1".repeat(34)).is_ok());
        assert!(plain_number(&"1".repeat(35)).is_err());
        assert!(plain_number("1234-5678").is_err());
    }

    #[test]
    fn a_masked_number_shows_its_last_four() {
        assert_eq!(mask("GB33BUKB20201555555555"), "•••• 5555");
        assert_eq!(mask("123"), "•••• 123");
        assert_eq!(mask(""), "");
    }
}
