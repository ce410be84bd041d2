//! Getting artists paid (issue 31): a project's Stripe connected account and its
//! onboarding (with `ENCORE_STRIPE_CONNECT`), and its bank details for payouts made by
//! hand (without). The work is in `manage`; the queries in `store`.

pub mod manage;
pub mod store;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::auth::extract::IdRequest;
use crate::envelope::{Api, Envelope, JsonBody};
use crate::error::Result;
use crate::projects::access::ProjectPath;
use crate::state::AppState;

use self::store::AccountRow;

/// A project's connected Stripe account, as Stripe last told of it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ConnectedAccount {
    /// Stripe's id (`acct_…`).
    id: String,
    /// Sales may be paid to it: checkouts of the project's concerts alone are
    /// destination charges.
    charges_enabled: bool,
    /// Stripe pays it out to the artist's bank.
    payouts_enabled: bool,
    /// The artist finished Stripe's onboarding form.
    details_submitted: bool,
}

impl From<AccountRow> for ConnectedAccount {
    fn from(row: AccountRow) -> Self {
        Self {
            id: row.stripe_account,
            charges_enabled: row.charges_enabled != 0,
            payouts_enabled: row.payouts_enabled != 0,
            details_submitted: row.details_submitted != 0,
        }
    }
}

/// How a project gets paid.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PayoutAccount {
    project_id: String,
    /// Stripe Connect is on: the project connects an account (else staff pay its bank
    /// details by hand).
    connect: bool,
    /// Its connected account; null until its first onboarding.
    #[schema(required = true)]
    account: Option<ConnectedAccount>,
}

/// A project's connected account and where to onboard it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Onboarding {
    account: ConnectedAccount,
    /// Stripe's onboarding page: single use, it lapses within minutes. Stripe sends the
    /// artist back to `/statements?project=<id>&onboarding=return` (or `=refresh` for a
    /// new link).
    url: String,
}

crate::openapi::failures!(
    /// How a project's payout details are refused.
    PayoutRefusals {
        403 => "Not a member of this project.",
        404 => "No such project.",
    }
);

/// How a project gets paid, for its members and staff: whether Stripe Connect is on and
/// the state of its connected account (kept current by Stripe's `account.updated`).
#[utoipa::path(get, path = "/projects/{id}/payout-account", tag = "statements", security(("bearer" = [])),
    params(ProjectPath),
    responses((status = 200, description = "The payout account.", body = Envelope<PayoutAccount>),
        PayoutRefusals))]
async fn show_account(IdRequest { app, user, id }: IdRequest) -> Result<Api<PayoutAccount>> {
    manage::member_or_staff(&app, &user, &id).await?;
    let account = store::account_of(&app.db, &id).await?;
    Ok(Api::ok(PayoutAccount {
        project_id: id,
        connect: app.payments.connect().is_some(),
        account: account.map(ConnectedAccount::from),
    }))
}

/// Start or continue a project's Stripe onboarding, for its members and staff: its
/// Express account is made on the first call (one, however many calls race), and each
/// call answers a fresh onboarding link.
#[utoipa::path(post, path = "/projects/{id}/payout-account", tag = "statements", security(("bearer" = [])),
    params(ProjectPath),
    responses((status = 200, description = "The account and its onboarding link.", body = Envelope<Onboarding>),
        (status = 403, description = "Not a member of this project.", body = crate::openapi::Failure),
        (status = 404, description = "No such project.", body = crate::openapi::Failure),
        (status = 409, description = "Stripe Connect is not configured.", body = crate::openapi::Failure),
        (status = 502, description = "Stripe could not be reached or refused.", body = crate::openapi::Failure)))]
async fn onboard(IdRequest { app, user, id }: IdRequest) -> Result<Api<Onboarding>> {
    let (account, url) = manage::onboard(&app, &user, &id).await?;
    Ok(Api::ok(Onboarding {
        account: account.into(),
        url,
    }))
}

/// A project's bank details, for payouts made by hand.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProjectBankDetails {
    project_id: String,
    account_holder: String,
    /// An IBAN or an account number: whole for staff (who pay it), masked for members
    /// (`•••• 1234`); `••••` when it cannot be decrypted.
    account_number: String,
    account_number_unavailable: bool,
    note: String,
    /// Never saved: null.
    #[schema(format = DateTime, required = true)]
    updated_at: Option<String>,
}

impl ProjectBankDetails {
    fn of(project_id: String, bank: manage::Bank) -> Self {
        Self {
            project_id,
            account_holder: bank.row.account_holder,
            account_number_unavailable: bank.number.is_none(),
            account_number: bank.number.unwrap_or_else(|| "••••".to_owned()),
            note: bank.row.note,
            updated_at: (bank.row.updated_at > 0).then(|| crate::db::iso8601(bank.row.updated_at)),
        }
    }
}

/// New bank details. Lengths count once trimmed; a field left out is empty.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProjectBankInput {
    #[serde(default)]
    #[schema(max_length = 200)]
    account_holder: String,
    /// An IBAN or an account number: 6–34 letters or digits (white space ignored), or
    /// blank; the masked value as shown (with `•`) keeps the stored number.
    #[serde(default)]
    account_number: String,
    #[serde(default)]
    #[schema(max_length = 2000)]
    note: String,
}

/// A project's bank details, for its members and staff (staff read the whole account
/// number when they record a payout).
#[utoipa::path(get, path = "/projects/{id}/bank-details", tag = "statements", security(("bearer" = [])),
    params(ProjectPath),
    responses((status = 200, description = "The bank details (empty when never saved).", body = Envelope<ProjectBankDetails>),
        PayoutRefusals))]
async fn show_bank(IdRequest { app, user, id }: IdRequest) -> Result<Api<ProjectBankDetails>> {
    let bank = manage::bank_details(&app, &user, &id).await?;
    Ok(Api::ok(ProjectBankDetails::of(id, bank)))
}

/// Replace a project's bank details, for its members and staff. The account number is
/// sealed at rest and never logged.
#[utoipa::path(put, path = "/projects/{id}/bank-details", tag = "statements", security(("bearer" = [])),
    params(ProjectPath),
    request_body = ProjectBankInput,
    responses((status = 200, description = "The saved details.", body = Envelope<ProjectBankDetails>),
        (status = 403, description = "Not a member of this project.", body = crate::openapi::Failure),
        (status = 404, description = "No such project.", body = crate::openapi::Failure),
        (status = 422, description = "An account number that is not 6–34 letters or digits, or a field too long.", body = crate::openapi::Failure)))]
async fn save_bank(
    IdRequest { app, user, id }: IdRequest,
    JsonBody(input): JsonBody<ProjectBankInput>,
) -> Result<Api<ProjectBankDetails>> {
    let bank = manage::save_bank_details(
        &app,
        &user,
        &id,
        manage::BankInput {
            account_holder: &input.account_holder,
            account_number: &input.account_number,
            note: &input.note,
        },
    )
    .await?;
    Ok(Api::ok(ProjectBankDetails::of(id, bank)))
}

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(show_account, onboard))
        .routes(routes!(show_bank, save_bank))
}
