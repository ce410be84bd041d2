//! Artists' statements: for each project (artist), month and currency, its tickets sold,
//! its share of the passes that ended (by the minutes their holders listened to its
//! concerts), the refunds, the payment provider's fees, the platform's fee and the net due.
//! Project members read their own project's; staff read every project's and set the
//! platform fee of a project. How each amount is made: `model` (pure, to the cent).

pub mod model;
pub mod store;

use std::collections::HashMap;

use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use self::model::{Payout, Percent, Period, PeriodStatements, Statement};
use crate::auth::extract::{CurrentUser, IdRequest, Staff};
use crate::commerce::export::cell;
use crate::commerce::money;
use crate::envelope::{Api, Envelope, JsonBody};
use crate::error::{Error, Result};
use crate::i18n::{Arg, Msg};
use crate::openapi::Failure;
use crate::projects::access::ProjectPath;
use crate::state::AppState;

/// Every project's statements of `period`, the operator's lines, and what was paid out.
pub async fn of_period(app: &AppState, period: Period) -> Result<PeriodStatements> {
    let ledger = store::ledger(&app.db, period.from_ms(), period.until_ms()).await?;
    let own: HashMap<String, Percent> = store::own_fees(&app.db).await?.into_iter().collect();
    let default = app.config.platform_fee;
    let payouts = store::payouts(&app.db, &period.name()).await?;
    Ok(ledger
        .statements(period, |project| {
            own.get(project).copied().unwrap_or(default)
        })
        .paid(payouts.into_iter().map(Payout::from).collect()))
}

impl From<store::PayoutRow> for Payout {
    fn from(row: store::PayoutRow) -> Self {
        Self {
            id: row.id,
            project_id: row.project_id,
            period: row.period,
            currency: row.currency,
            amount: row.amount_minor,
            reference: row.reference,
            created_at: crate::db::iso8601(row.created_at),
        }
    }
}

fn period(text: &str) -> Result<Period> {
    Period::parse(text).ok_or_else(|| Error::bad_request(Msg::StatementPeriodFormat))
}

/// One project's statements of a month, one per currency it sold in.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProjectStatements {
    /// `2026-11`.
    period: String,
    project_id: String,
    statements: Vec<Statement>,
    /// What was paid out against them, oldest first.
    payouts: Vec<Payout>,
}

async fn project_statements(
    app: &AppState,
    user: &CurrentUser,
    id: &str,
    month: &str,
) -> Result<ProjectStatements> {
    let period = period(month)?;
    crate::projects::access::member_project(app, user, id).await?;
    let all = of_period(app, period).await?;
    Ok(ProjectStatements {
        period: all.period,
        project_id: id.to_owned(),
        statements: all
            .statements
            .into_iter()
            .filter(|s| s.project_id == id)
            .collect(),
        payouts: all
            .payouts
            .into_iter()
            .filter(|p| p.project_id == id)
            .collect(),
    })
}

crate::openapi::failures!(
    /// How a statement is refused.
    StatementRefusals {
        400 => "The period is not a month written like 2026-11.",
        403 => "Not a member of this project.",
        404 => "No such project.",
    }
);

/// A project's statements of a month (UTC), one per currency: for its members and staff.
#[utoipa::path(get, path = "/projects/{id}/statements/{period}", tag = "statements", security(("bearer" = [])),
    params(ProjectPath,
        ("period" = String, Path, description = "The month, `2026-11` (UTC)")),
    responses((status = 200, description = "The statements.", body = Envelope<ProjectStatements>),
        StatementRefusals))]
async fn of_project(
    State(app): State<AppState>,
    user: CurrentUser,
    Path((id, month)): Path<(String, String)>,
) -> Result<Api<ProjectStatements>> {
    Ok(Api::ok(project_statements(&app, &user, &id, &month).await?))
}

/// The same as a CSV file (RFC 4180, UTF-8; amounts in the currency's units, `12.50`).
#[utoipa::path(get, path = "/projects/{id}/statements/{period}/export.csv", tag = "statements", security(("bearer" = [])),
    params(ProjectPath,
        ("period" = String, Path, description = "The month, `2026-11` (UTC)")),
    responses((status = 200, description = "The statements as CSV.", body = String, content_type = "text/csv"),
        StatementRefusals))]
async fn export(
    State(app): State<AppState>,
    user: CurrentUser,
    Path((id, month)): Path<(String, String)>,
) -> Result<Response> {
    let statements = project_statements(&app, &user, &id, &month).await?;
    let name = format!(
        "attachment; filename=\"encore-statement-{}-{}.csv\"",
        statements.period,
        id.chars()
            .filter(char::is_ascii_alphanumeric)
            .collect::<String>()
    );
    Ok((
        [
            (header::CONTENT_TYPE, "text/csv; charset=utf-8".to_owned()),
            (header::CONTENT_DISPOSITION, name),
            (header::CACHE_CONTROL, "no-store".to_owned()),
        ],
        csv(&statements),
    )
        .into_response())
}

fn csv(statements: &ProjectStatements) -> String {
    let mut out = String::from(
        "period,project,currency,ticket_sales,pass_shares,refunds,payment_fees,\
         platform_fee_percent,platform_fee,net,paid_out,paid_by_stripe,owed,tips,\
         ticket_sales_before_discounts,discounts\r\n",
    );
    for s in &statements.statements {
        let amount = |minor: i64| money::decimal(minor, &s.currency);
        let cells = [
            cell(&statements.period),
            cell(&s.project_id),
            cell(&s.currency),
            amount(s.ticket_sales),
            amount(s.pass_shares),
            amount(s.refunds),
            amount(s.payment_fees),
            cell(&s.platform_fee_percent),
            amount(s.platform_fee),
            amount(s.net),
            amount(s.paid_out),
            amount(s.paid_by_stripe),
            amount(s.owed),
            // Last, so readers of the columns before them read them where they were
            // (`ticket_sales` is after discounts: before them less the discounts).
            amount(s.tips),
            amount(s.ticket_sales_before_discounts),
            amount(s.discounts),
        ];
        out.push_str(&cells.join(","));
        out.push_str("\r\n");
    }
    out
}

/// Every project's statements of a month and what stays with the operator, per
/// currency: for staff.
#[utoipa::path(get, path = "/statements/{period}", tag = "statements", security(("bearer" = [])),
    params(("period" = String, Path, description = "The month, `2026-11` (UTC)")),
    responses((status = 200, description = "The statements.", body = Envelope<PeriodStatements>),
        (status = 400, description = "The period is not a month written like 2026-11.", body = Failure)))]
async fn of_all(
    State(app): State<AppState>,
    Staff(_): Staff,
    Path(month): Path<String>,
) -> Result<Api<PeriodStatements>> {
    Ok(Api::ok(of_period(&app, period(&month)?).await?))
}

/// A project's own platform fee, or none for the operator's (`ENCORE_PLATFORM_FEE_PERCENT`).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct FeeRequest {
    /// A percentage from 0 to 100, at most two decimals (`"7.5"`); null: the operator's.
    percent: Option<String>,
}

/// The platform fee a project's statements take.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct PlatformFee {
    project_id: String,
    /// Its own (`"7.5"`), or null.
    own: Option<String>,
    /// The one its statements take: its own, else the operator's.
    applies: String,
}

/// Give a project a platform fee of its own, or take it away: for staff. Statements of
/// any month are made with the fee in force when they are read.
#[utoipa::path(put, path = "/projects/{id}/platform-fee", tag = "statements", security(("bearer" = [])),
    params(ProjectPath),
    request_body = FeeRequest,
    responses((status = 200, description = "The fee now.", body = Envelope<PlatformFee>),
        (status = 404, description = "No such project.", body = Failure),
        (status = 422, description = "Not a percentage from 0 to 100.", body = Failure)))]
async fn set_fee(
    IdRequest { app, id, .. }: IdRequest<Staff>,
    JsonBody(body): JsonBody<FeeRequest>,
) -> Result<Api<PlatformFee>> {
    let own = body
        .percent
        .as_deref()
        .map(|text| {
            model::parse_percent(text).map_err(|_| Error::unprocessable(Msg::PlatformFeeFormat))
        })
        .transpose()?;
    if !store::set_own_fee(&app.db, &id, own).await? {
        return Err(Error::not_found(Msg::ProjectNotFound));
    }
    Ok(Api::ok(PlatformFee {
        project_id: id,
        own: own.map(Percent::written),
        applies: own.unwrap_or(app.config.platform_fee).written(),
    }))
}

/// A payout to record against a month's statement in one of its currencies.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct PayoutRequest {
    /// The statement's month, `2026-11`.
    period: String,
    currency: String,
    /// Minor units, above zero and at most what is still owed.
    amount: i64,
    /// The transfer's reference (at most 200 characters).
    #[serde(default)]
    reference: String,
}

/// Longest reference a payout keeps.
const REFERENCE_MAX: usize = 200;

/// Record money paid out to a project against a month's statement (a bank transfer made
/// outside Encore), for staff: never more than is still owed. Recorded one at a time per
/// project, so two at once cannot pay out more than is owed between them.
#[utoipa::path(post, path = "/projects/{id}/payouts", tag = "statements", security(("bearer" = [])),
    params(ProjectPath),
    request_body = PayoutRequest,
    responses((status = 201, description = "The payout, recorded.", body = Envelope<Payout>),
        (status = 400, description = "The period is not a month written like 2026-11.", body = Failure),
        (status = 404, description = "No such project.", body = Failure),
        (status = 409, description = "More than is still owed.", body = Failure),
        (status = 422, description = "Not an amount above zero, or a reference too long.", body = Failure)))]
async fn record_payout(
    IdRequest { app, user, id }: IdRequest<Staff>,
    JsonBody(body): JsonBody<PayoutRequest>,
) -> Result<Api<Payout>> {
    let period = period(&body.period)?;
    if body.amount <= 0 {
        return Err(Error::unprocessable(Msg::PayoutAmount));
    }
    if body.reference.chars().count() > REFERENCE_MAX {
        return Err(Error::unprocessable(Msg::PayoutReferenceTooLong));
    }
    let net = of_period(&app, period)
        .await?
        .statements
        .into_iter()
        .find(|s| s.project_id == id && s.currency == body.currency)
        .map_or(0, |s| s.net - s.paid_by_stripe);
    let mut tx = app.db.begin().await?;
    if !store::lock_project(&mut *tx, &id).await? {
        return Err(Error::not_found(Msg::ProjectNotFound));
    }
    let owed = net - store::paid_out(&mut *tx, &id, &period.name(), &body.currency).await?;
    if body.amount > owed {
        return Err(Error::conflict(
            Msg::PayoutAboveOwed
                .with(
                    "amount",
                    Arg::figure(money::format(body.amount, &body.currency)),
                )
                .with(
                    "owed",
                    Arg::figure(money::format(owed.max(0), &body.currency)),
                )
                .with("period", period.name()),
        ));
    }
    let row = store::PayoutRow {
        id: uuid::Uuid::new_v4().to_string(),
        project_id: id,
        period: period.name(),
        currency: body.currency,
        amount_minor: body.amount,
        reference: body.reference.trim().to_owned(),
        created_at: crate::db::now_ms(),
    };
    store::insert_payout(&mut *tx, &row, &user.0.account.id).await?;
    tx.commit().await?;
    Ok(Api::created(Payout::from(row)))
}

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(record_payout))
        .routes(routes!(of_project))
        .routes(routes!(export))
        .routes(routes!(of_all))
        .routes(routes!(set_fee))
}
