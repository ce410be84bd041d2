//! The organiser's billing address and bank details (the billing page's two tabs).
//!
//! The account number is sealed at rest (`DataKey`, `v1:<nonce>:<ciphertext>`). Rows
//! written before that hold plain text: a migration cannot seal them (SQL has no key),
//! so a value without the `v1:` prefix is read as legacy plain text and sealed by the
//! next save, whether or not the number changes.

use axum::extract::State;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::accounts::model::Email;
use crate::auth::extract::Staff;
use crate::crypto::DataKey;
use crate::db::now_ms;
use crate::envelope::{Api, Envelope, JsonBody};
use crate::error::{Error, Result};
use crate::i18n::Msg;
use crate::state::AppState;

use super::bank::{self, Vault, limit};
use super::model::BillingRow as Row;
use super::store;

/// Where the organiser's account number is sealed.
const VAULT: Vault = Vault {
    column: "billing_profile.account_number",
    whose: "the bank account number",
};

/// The organiser's billing address.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = BillingAddress)]
pub struct Address {
    name: String,
    email: String,
    address: String,
    city: String,
    country: String,
    company: String,
}

/// The organiser's bank details.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = BankDetails)]
pub struct Bank {
    bank_name: String,
    account_name: String,
    /// `12-34-56`, or empty.
    sort_code: String,
    /// Masked: `•••• 1234`.
    account_number: String,
    /// The stored number cannot be decrypted (the data key changed): shown as `••••`,
    /// kept as stored until a new number is entered.
    account_number_unavailable: bool,
    notes: String,
}

/// The organiser's billing details (the billing page's two tabs).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Billing {
    address: Address,
    bank: Bank,
}

/// A new billing address. Lengths are counted once trimmed; a field left out is empty.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = BillingAddressInput)]
pub struct AddressInput {
    /// Required: not blank.
    #[serde(default)]
    #[schema(schema_with = name_text, required = true)]
    name: String,
    /// An e-mail address, or blank.
    #[serde(default)]
    #[schema(schema_with = optional_email)]
    email: String,
    #[serde(default)]
    #[schema(max_length = 500)]
    address: String,
    #[serde(default)]
    #[schema(max_length = 120)]
    city: String,
    #[serde(default)]
    #[schema(max_length = 120)]
    country: String,
    #[serde(default)]
    #[schema(max_length = 500)]
    company: String,
}

/// New bank details. Lengths are counted once trimmed; a field left out is empty.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = BankDetailsInput)]
pub struct BankInput {
    #[serde(default)]
    #[schema(max_length = 200)]
    bank_name: String,
    #[serde(default)]
    #[schema(max_length = 200)]
    account_name: String,
    /// Six digits (any separators), or blank.
    #[serde(default)]
    #[schema(schema_with = sort_code_text)]
    sort_code: String,
    /// 6–34 letters or digits (white space ignored), or blank; the masked value as
    /// shown (with `•`) keeps the stored number.
    #[serde(default)]
    #[schema(schema_with = account_number_text)]
    account_number: String,
    #[serde(default)]
    #[schema(max_length = 2000)]
    notes: String,
}

/// New billing details: both tabs, saved together.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = BillingInput)]
pub struct BillingInput {
    /// Required: its name is.
    #[serde(default)]
    #[schema(required = true)]
    address: AddressInput,
    #[serde(default)]
    bank: BankInput,
}

fn name_text() -> utoipa::openapi::Object {
    crate::openapi::trimmed_text(200, true, false)
}

fn blank() -> String {
    format!("[{}]*", crate::openapi::WHITE_SPACE)
}

fn text_matching(pattern: String) -> utoipa::openapi::Object {
    utoipa::openapi::schema::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::Type::String)
        .pattern(Some(pattern))
        .build()
}

fn optional_email() -> utoipa::openapi::schema::Schema {
    utoipa::openapi::schema::AnyOfBuilder::new()
        .item(text_matching(format!("^{}$", blank())))
        .item(
            utoipa::openapi::schema::ObjectBuilder::new()
                .schema_type(utoipa::openapi::schema::Type::String)
                .format(Some(utoipa::openapi::SchemaFormat::KnownFormat(
                    utoipa::openapi::KnownFormat::Email,
                )))
                .max_length(Some(254)),
        )
        .into()
}

fn sort_code_text() -> utoipa::openapi::Object {
    text_matching(format!("^({}|[^0-9]*([0-9][^0-9]*){{6}})$", blank()))
}

fn account_number_text() -> utoipa::openapi::Object {
    let space = format!("[{}]", crate::openapi::WHITE_SPACE);
    text_matching(format!(
        "^([\\s\\S]*•[\\s\\S]*|({space}*[A-Za-z0-9]){{6,34}}{space}*|{space}*)$"
    ))
}

async fn load(app: &AppState) -> Result<Row> {
    Ok(store::billing_profile(&app.db).await?.unwrap_or_default())
}

/// The organiser's address as a receipt names the seller (no bank details).
pub async fn seller(app: &AppState) -> Result<Address> {
    Ok(address(&load(app).await?))
}

fn address(row: &Row) -> Address {
    Address {
        name: row.name.clone(),
        email: row.email.clone(),
        address: row.address.clone(),
        city: row.city.clone(),
        country: row.country.clone(),
        company: row.company.clone(),
    }
}

fn view(row: Row, number: Option<&str>) -> Billing {
    Billing {
        address: address(&row),
        bank: Bank {
            bank_name: row.bank_name,
            account_name: row.account_name,
            sort_code: row.sort_code,
            account_number: number.map_or_else(|| "••••".to_owned(), bank::mask),
            account_number_unavailable: number.is_none(),
            notes: row.bank_notes,
        },
    }
}

/// The organiser's billing address and bank details (the account number masked), for
/// staff (admin, sa).
#[utoipa::path(get, path = "/payments/billing", tag = "commerce", security(("bearer" = [])),
    responses((status = 200, description = "The billing details.", body = Envelope<Billing>)))]
pub async fn show(State(app): State<AppState>, Staff(_): Staff) -> Result<Api<Billing>> {
    let row = load(&app).await?;
    let number = VAULT.reveal(&app, &row.account_number);
    Ok(Api::ok(view(row, number.as_deref())))
}

/// Replace the organiser's billing address and bank details, for staff (admin, sa). An
/// account number sent back masked keeps the stored one; a new one is sealed at rest.
#[utoipa::path(put, path = "/payments/billing", tag = "commerce", security(("bearer" = [])),
    request_body = BillingInput,
    responses((status = 200, description = "The saved details (the account number masked).", body = Envelope<Billing>)))]
pub async fn save(
    State(app): State<AppState>,
    Staff(_): Staff,
    JsonBody(input): JsonBody<BillingInput>,
) -> Result<Api<Billing>> {
    let current = load(&app).await?;
    let a = &input.address;
    if a.name.trim().is_empty() {
        return Err(Error::unprocessable(Msg::BillingNameRequired));
    }
    let email = if a.email.trim().is_empty() {
        String::new()
    } else {
        Email::parse(&a.email)?.as_str().to_owned()
    };
    let b = &input.bank;
    let sort_code: String = b.sort_code.chars().filter(|c| c.is_ascii_digit()).collect();
    if !b.sort_code.trim().is_empty() && sort_code.len() != 6 {
        return Err(Error::unprocessable(Msg::SortCode));
    }
    // (stored, plain): the masked value keeps the stored number, sealing a legacy one.
    let (account_number, plain) = if b.account_number.contains('•') {
        let plain = VAULT.reveal(&app, &current.account_number);
        let stored = match &plain {
            Some(p) if !p.is_empty() && !DataKey::is_sealed(&current.account_number) => {
                VAULT.seal(&app, p)?
            }
            _ => current.account_number.clone(),
        };
        (stored, plain)
    } else {
        let plain = bank::plain_number(&b.account_number)?;
        (VAULT.seal(&app, &plain)?, Some(plain))
    };
    let sort_code = if sort_code.is_empty() {
        String::new()
    } else {
        format!(
            "{}-{}-{}",
            &sort_code[..2],
            &sort_code[2..4],
            &sort_code[4..]
        )
    };
    let row = Row {
        name: limit(&a.name, "The name", 200)?,
        email,
        address: limit(&a.address, "The address", 500)?,
        city: limit(&a.city, "The city", 120)?,
        country: limit(&a.country, "The country", 120)?,
        company: limit(&a.company, "The company info", 500)?,
        bank_name: limit(&b.bank_name, "The bank name", 200)?,
        account_name: limit(&b.account_name, "The account name", 200)?,
        sort_code,
        account_number,
        bank_notes: limit(&b.notes, "The notes", 2000)?,
    };
    store::save_billing_profile(&app.db, &row, now_ms()).await?;
    Ok(Api::ok(view(row, plain.as_deref())))
}
