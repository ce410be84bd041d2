//! Getting artists paid. With Stripe Connect, a project onboards an Express account and a
//! checkout of its concerts alone is a destination charge: Stripe pays the artist, less
//! the platform's fee. Without it, the project keeps bank details that staff pay to by
//! hand (`POST /projects/{id}/payouts`).

use crate::auth::extract::CurrentUser;
use crate::crypto::DataKey;
use crate::db::{Db, now_ms};
use crate::error::{Error, Result};
use crate::i18n::Msg;
use crate::state::AppState;
use crate::statements::model::Percent;

use super::super::billing::mask_account;
use super::super::providers::{AccountState, Destination};
use super::store::{self, AccountRow, BankRow};

/// The associated data a project's account number is sealed under.
const ACCOUNT_NUMBER: &str = "project_bank_details.account_number";

/// A project its members and staff may act on; staff are told apart (they see the whole
/// account number, to pay it).
pub async fn member_or_staff(app: &AppState, user: &CurrentUser, project_id: &str) -> Result<bool> {
    crate::projects::store::by_id(&app.db, project_id)
        .await?
        .ok_or_else(|| Error::not_found(Msg::ProjectNotFound))?;
    let staff = user.account.role().is_staff();
    if staff || crate::projects::store::is_member(&app.db, project_id, &user.account.id).await? {
        Ok(staff)
    } else {
        Err(Error::forbidden(Msg::NotProjectMember))
    }
}

/// A project's connected account (made on the first onboarding) and a fresh onboarding
/// link into Stripe, which sends the artist back to the statements page.
pub async fn onboard(
    app: &AppState,
    user: &CurrentUser,
    project_id: &str,
) -> Result<(AccountRow, String)> {
    member_or_staff(app, user, project_id).await?;
    let stripe = app
        .payments
        .connect()
        .ok_or_else(|| Error::conflict(Msg::ConnectOff))?;
    let account = match store::account_of(&app.db, project_id).await? {
        Some(account) => account,
        None => {
            // Two onboardings at once: Stripe answers both with one account (the
            // idempotency key), and the first row kept stands.
            let id = stripe.create_account(project_id).await?;
            store::insert_account(&app.db, project_id, &id, now_ms()).await?;
            store::account_of(&app.db, project_id)
                .await?
                .ok_or_else(|| Error::internal("a connected account just kept is gone"))?
        }
    };
    let back = format!(
        "{}/statements?project={project_id}&onboarding=",
        app.config.public_url
    );
    let url = stripe
        .account_link(
            &account.stripe_account,
            &format!("{back}refresh"),
            &format!("{back}return"),
        )
        .await?;
    Ok((account, url))
}

/// Stripe's `account.updated`: the connected account's state, unless an older event.
pub async fn account_updated(db: &Db, event: &serde_json::Value) -> Result<()> {
    let account = &event["data"]["object"];
    let Some(id) = account["id"].as_str() else {
        return Ok(());
    };
    let state = AccountState::of(account);
    // Stripe's `created` is in seconds; events of one second keep the last delivered.
    let at = event["created"].as_i64().map_or_else(now_ms, |s| s * 1000);
    let changed = store::update_state(
        db,
        id,
        (
            state.charges_enabled,
            state.payouts_enabled,
            state.details_submitted,
        ),
        at,
    )
    .await?;
    if !changed {
        tracing::info!(
            account = id,
            "account.updated for no project's account, or older than its state"
        );
    }
    Ok(())
}

/// Where a checkout's money goes: a destination charge when Connect is on and every line
/// is a concert of one project whose connected account takes charges, with the platform's
/// fee on the whole order (rounded down, as statements round it). Otherwise (a pass, a
/// mixed cart, a project not connected) a platform charge, paid out by hand.
pub async fn destination(
    app: &AppState,
    projects: &[Option<String>],
    total_minor: i64,
) -> Result<Option<(String, i64)>> {
    if app.payments.connect().is_none() {
        return Ok(None);
    }
    let Some(Some(project)) = projects.first() else {
        return Ok(None);
    };
    if projects.iter().any(|p| p.as_deref() != Some(project)) {
        return Ok(None);
    }
    let Some(account) = store::account_of(&app.db, project)
        .await?
        .filter(|a| a.charges_enabled != 0)
    else {
        return Ok(None);
    };
    let fee = store::own_fee(&app.db, project)
        .await?
        .map_or(app.config.platform_fee, Percent);
    Ok(Some((account.stripe_account, fee.of(total_minor))))
}

/// The destination as the provider takes it.
pub fn as_destination(to: &(String, i64)) -> Destination<'_> {
    Destination {
        account: &to.0,
        application_fee_minor: to.1,
    }
}

/// A project's bank details as its reader may see them: the account number masked for
/// members, whole for staff (they pay it). `None` when it cannot be decrypted.
pub struct Bank {
    pub row: BankRow,
    pub number: Option<String>,
}

pub async fn bank_details(app: &AppState, user: &CurrentUser, project_id: &str) -> Result<Bank> {
    let staff = member_or_staff(app, user, project_id).await?;
    let row = store::bank_details(&app.db, project_id)
        .await?
        .unwrap_or_default();
    let number = reveal(app, &row.account_number).map(|n| if staff { n } else { mask_account(&n) });
    Ok(Bank { row, number })
}

/// New bank details, each field trimmed; an account number sent back masked (with `•`)
/// keeps the stored one.
pub struct BankInput<'a> {
    pub account_holder: &'a str,
    pub account_number: &'a str,
    pub note: &'a str,
}

pub async fn save_bank_details(
    app: &AppState,
    user: &CurrentUser,
    project_id: &str,
    input: BankInput<'_>,
) -> Result<Bank> {
    let staff = member_or_staff(app, user, project_id).await?;
    let current = store::bank_details(&app.db, project_id)
        .await?
        .unwrap_or_default();
    let account_holder = limit(input.account_holder, "The account holder", 200)?;
    let note = limit(input.note, "The note", 2000)?;
    let (account_number, plain) = if input.account_number.contains('•') {
        (
            current.account_number.clone(),
            reveal(app, &current.account_number),
        )
    } else {
        let compact: String = input
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
        let plain = compact.to_ascii_uppercase();
        (seal(app, &plain)?, Some(plain))
    };
    let row = BankRow {
        account_holder,
        account_number,
        note,
        updated_at: now_ms(),
    };
    store::save_bank_details(&app.db, project_id, &row, &user.account.id).await?;
    let number = plain.map(|n| if staff { n } else { mask_account(&n) });
    Ok(Bank { row, number })
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

fn seal(app: &AppState, plain: &str) -> Result<String> {
    if plain.is_empty() {
        return Ok(String::new());
    }
    app.config
        .data_key
        .seal(ACCOUNT_NUMBER, plain)
        .map_err(|_| Error::internal("a bank account number cannot be encrypted"))
}

/// The plain number, or `None` when it cannot be decrypted (logged, never the number).
fn reveal(app: &AppState, stored: &str) -> Option<String> {
    if stored.is_empty() || !DataKey::is_sealed(stored) {
        return Some(stored.to_owned());
    }
    app.config
        .data_key
        .open(ACCOUNT_NUMBER, stored)
        .inspect_err(|_| {
            tracing::error!(
                "a project's account number cannot be decrypted: was ENCORE_DATA_KEY changed?"
            )
        })
        .ok()
}
