//! The organiser's billing address and bank details (the billing page's two tabs).

use axum::extract::State;
use serde::{Deserialize, Serialize};

use crate::accounts::model::Email;
use crate::app::AppState;
use crate::auth::extract::Staff;
use crate::db::now_ms;
use crate::envelope::{Api, JsonBody};
use crate::error::{Error, Result};
use crate::i18n::Msg;

#[derive(Debug, Default, Clone, sqlx::FromRow)]
struct Row {
    name: String,
    email: String,
    address: String,
    city: String,
    country: String,
    company: String,
    bank_name: String,
    account_name: String,
    sort_code: String,
    account_number: String,
    bank_notes: String,
}

#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Address {
    name: String,
    email: String,
    address: String,
    city: String,
    country: String,
    company: String,
}

#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Bank {
    bank_name: String,
    account_name: String,
    sort_code: String,
    /// Shown masked (`•••• 1234`); send it back masked to keep it unchanged.
    account_number: String,
    notes: String,
}

#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Billing {
    address: Address,
    bank: Bank,
}

pub fn mask_account(number: &str) -> String {
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

async fn load(app: &AppState) -> Result<Row> {
    Ok(sqlx::query_as::<_, Row>(
        "SELECT name, email, address, city, country, company, bank_name, account_name, sort_code, \
         account_number, bank_notes FROM billing_profile WHERE id = 'default'",
    )
    .fetch_optional(&app.db)
    .await?
    .unwrap_or_default())
}

fn view(row: Row) -> Billing {
    Billing {
        address: Address {
            name: row.name,
            email: row.email,
            address: row.address,
            city: row.city,
            country: row.country,
            company: row.company,
        },
        bank: Bank {
            bank_name: row.bank_name,
            account_name: row.account_name,
            sort_code: row.sort_code,
            account_number: mask_account(&row.account_number),
            notes: row.bank_notes,
        },
    }
}

pub async fn show(State(app): State<AppState>, Staff(_): Staff) -> Result<Api<Billing>> {
    Ok(Api::ok(view(load(&app).await?)))
}

fn limit(value: &str, field: &str, max: usize) -> Result<String> {
    let value = value.trim();
    if value.chars().count() > max {
        return Err(Error::unprocessable(
            Msg::FieldTooLong.with("field", field).with("max", max),
        ));
    }
    Ok(value.to_owned())
}

pub async fn save(
    State(app): State<AppState>,
    Staff(_): Staff,
    JsonBody(input): JsonBody<Billing>,
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
    let account_number = if b.account_number.contains('•') {
        current.account_number.clone()
    } else {
        let compact: String = b
            .account_number
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        if !compact.is_empty()
            && (!(6..=34).contains(&compact.len())
                || !compact.chars().all(|c| c.is_ascii_alphanumeric()))
        {
            return Err(Error::unprocessable(Msg::AccountNumber));
        }
        compact.to_ascii_uppercase()
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
    .bind(now_ms())
    .execute(&app.db)
    .await?;
    Ok(Api::ok(view(row)))
}
