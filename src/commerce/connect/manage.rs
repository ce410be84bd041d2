//! Getting artists paid. With Stripe Connect, a project onboards an Express account and a
//! checkout of its concerts alone is a destination charge: Stripe pays the artist, less
//! the platform's fee. Without it, the project keeps bank details that staff pay to by
//! hand (`POST /projects/{id}/payouts`).

use crate::auth::extract::CurrentUser;
use crate::db::{Db, now_ms};
use crate::error::{Error, Result};
use crate::i18n::Msg;
use crate::projects::access::member_project;
use crate::state::AppState;
use crate::statements::model::Percent;

use super::super::bank::{self, Vault, limit};
use super::super::providers::{AccountState, Destination};
use super::store::{self, AccountRow, BankRow};

/// Where a project's account number is sealed.
const VAULT: Vault = Vault {
    column: "project_bank_details.account_number",
    whose: "a project's account number",
};

/// A project its members and staff may act on; staff are told apart (they see the whole
/// account number, to pay it).
pub async fn member_or_staff(app: &AppState, user: &CurrentUser, project_id: &str) -> Result<bool> {
    member_project(app, user, project_id).await?;
    Ok(user.account.role().is_staff())
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
    let number = VAULT
        .reveal(app, &row.account_number)
        .map(|n| if staff { n } else { bank::mask(&n) });
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
            VAULT.reveal(app, &current.account_number),
        )
    } else {
        let plain = bank::plain_number(input.account_number)?;
        (VAULT.seal(app, &plain)?, Some(plain))
    };
    let row = BankRow {
        account_holder,
        account_number,
        note,
        updated_at: now_ms(),
    };
    store::save_bank_details(&app.db, project_id, &row, &user.account.id).await?;
    let number = plain.map(|n| if staff { n } else { bank::mask(&n) });
    Ok(Bank { row, number })
}
