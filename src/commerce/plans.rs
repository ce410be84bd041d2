//! Pricing plans: all-access passes an admin defines (name, price, days of validity).
//! A pass unlocks every concert starting within its validity.

use axum::extract::State;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::auth::extract::{IdRequest, MaybeUser, Staff};
use crate::db::{Db, now_ms};
use crate::envelope::{Api, Envelope, JsonBody};
use crate::error::{Error, Result};
use crate::state::AppState;

use super::model::PlanRow;
use super::money;
use super::store;
use crate::i18n::Msg;

/// An all-access pass as sold: every concert starting within `days` of the purchase.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = PricingPlan)]
pub struct Plan {
    pub id: String,
    pub name: String,
    pub description: String,
    /// Minor units, like a concert's price.
    pub price: i64,
    #[schema(schema_with = money::stored_currency_schema)]
    pub currency: String,
    /// Days of validity from the purchase.
    pub days: i64,
    /// On sale; a retired plan is shown to staff only.
    pub active: bool,
}

impl From<PlanRow> for Plan {
    fn from(r: PlanRow) -> Self {
        Self {
            id: r.id,
            name: r.name,
            description: r.description,
            price: r.price_minor,
            currency: r.currency,
            days: r.days,
            active: r.active != 0,
        }
    }
}

impl Plan {
    /// The plan as a buyer reads it: the demo's own pass in the reader's language (staff
    /// read and edit the stored text).
    pub fn for_buyer(row: PlanRow) -> Self {
        let mut plan = Self::from(row);
        plan.name = crate::i18n::seeded_text(plan.name);
        plan.description = crate::i18n::seeded_text(plan.description);
        plan
    }
}

pub async fn by_id(db: &Db, id: &str) -> Result<Option<PlanRow>> {
    store::plan_by_id(db, id).await
}

/// The pricing plans: the active ones for everyone, retired ones too for staff.
#[utoipa::path(get, path = "/pricing-plans", tag = "commerce", security((), ("bearer" = [])),
    responses((status = 200, description = "The plans.", body = Envelope<Vec<Plan>>)))]
pub async fn list(
    State(app): State<AppState>,
    MaybeUser(user): MaybeUser,
) -> Result<Api<Vec<Plan>>> {
    let staff = user.is_some_and(|u| u.account.role().is_staff());
    let rows = store::list_plans(&app.db, staff).await?;
    let shown = if staff { Plan::from } else { Plan::for_buyer };
    Ok(Api::ok(rows.into_iter().map(shown).collect()))
}

/// The fields of a plan to change; those left out (or `null`) stay as they are.
#[derive(Debug, Deserialize, ToSchema)]
#[schema(as = PricingPlanChange)]
pub struct PlanInput {
    /// Up to 120 characters once trimmed, not blank.
    #[schema(schema_with = name_or_null)]
    name: Option<String>,
    description: Option<String>,
    /// Minor units.
    #[schema(minimum = 0, maximum = 100_000_000)]
    price: Option<i64>,
    #[schema(schema_with = currency_or_null)]
    currency: Option<String>,
    /// Days of validity.
    #[schema(minimum = 1, maximum = 3660)]
    days: Option<i64>,
    active: Option<bool>,
}

/// A new plan: a [`PlanInput`] that must name, price and date it (the same message as
/// before when one is missing, so it is read as options and checked in `create`).
#[derive(Debug, Deserialize, ToSchema)]
#[schema(as = NewPricingPlan)]
pub struct NewPlanInput {
    /// Up to 120 characters once trimmed, not blank.
    #[schema(schema_with = name, required = true)]
    name: Option<String>,
    description: Option<String>,
    /// Minor units.
    #[schema(minimum = 0, maximum = 100_000_000, required = true, nullable = false)]
    price: Option<i64>,
    /// Default EUR.
    #[schema(schema_with = currency_or_null)]
    currency: Option<String>,
    /// Days of validity.
    #[schema(minimum = 1, maximum = 3660, required = true, nullable = false)]
    days: Option<i64>,
    /// Default true.
    active: Option<bool>,
}

impl From<NewPlanInput> for PlanInput {
    fn from(new: NewPlanInput) -> Self {
        Self {
            name: new.name,
            description: new.description,
            price: new.price,
            currency: new.currency,
            days: new.days,
            active: new.active,
        }
    }
}

fn name() -> utoipa::openapi::Object {
    crate::openapi::trimmed_text(120, true, false)
}

fn name_or_null() -> utoipa::openapi::Object {
    crate::openapi::trimmed_text(120, true, true)
}

fn currency_or_null() -> utoipa::openapi::Object {
    money::currency_schema(true)
}

fn apply(row: &mut PlanRow, input: PlanInput) -> Result<()> {
    if let Some(name) = input.name {
        let name = name.trim();
        if name.is_empty() || name.chars().count() > 120 {
            return Err(Error::unprocessable(Msg::PassNameLength));
        }
        row.name = name.to_owned();
    }
    if let Some(description) = input.description {
        row.description = description;
    }
    if let Some(price) = input.price {
        row.price_minor = money::check_price(price)?;
    }
    if let Some(currency) = input.currency {
        row.currency = money::parse_currency(&currency)?;
    }
    if let Some(days) = input.days {
        if !(1..=3660).contains(&days) {
            return Err(Error::unprocessable(Msg::PassDays));
        }
        row.days = days;
    }
    if let Some(active) = input.active {
        row.active = i64::from(active);
    }
    Ok(())
}

async fn save(db: &Db, row: &PlanRow, insert: bool) -> Result<()> {
    if insert {
        store::insert_plan(db, row, now_ms()).await
    } else {
        store::update_plan(db, row, now_ms()).await
    }
}

/// Define a new pricing plan, for staff (admin, sa).
#[utoipa::path(post, path = "/pricing-plans", tag = "commerce", security(("bearer" = [])),
    request_body = NewPlanInput,
    responses((status = 201, description = "The new plan.", body = Envelope<Plan>)))]
pub async fn create(
    State(app): State<AppState>,
    Staff(_): Staff,
    JsonBody(input): JsonBody<NewPlanInput>,
) -> Result<Api<Plan>> {
    if input.name.is_none() || input.price.is_none() || input.days.is_none() {
        return Err(Error::unprocessable(Msg::PassFieldsRequired));
    }
    let mut row = PlanRow {
        id: uuid::Uuid::new_v4().to_string(),
        name: String::new(),
        description: String::new(),
        price_minor: 0,
        currency: "EUR".into(),
        days: 30,
        active: 1,
    };
    apply(&mut row, input.into())?;
    save(&app.db, &row, true).await?;
    Ok(Api::created(row.into()))
}

/// Change a pricing plan's fields (passes already bought keep theirs), for staff (admin, sa).
#[utoipa::path(put, path = "/pricing-plans/{id}", tag = "commerce", security(("bearer" = [])),
    params(("id" = String, Path, description = "The plan's id")),
    request_body = PlanInput,
    responses((status = 200, description = "The changed plan.", body = Envelope<Plan>)))]
pub async fn update(
    IdRequest { app, id, .. }: IdRequest<Staff>,
    JsonBody(input): JsonBody<PlanInput>,
) -> Result<Api<Plan>> {
    let mut row = by_id(&app.db, &id)
        .await?
        .ok_or_else(|| Error::not_found(Msg::PassNotFound))?;
    apply(&mut row, input)?;
    save(&app.db, &row, false).await?;
    Ok(Api::ok(row.into()))
}

/// Retire a pricing plan, for staff (admin, sa): it stops being sold and leaves every
/// cart; passes already bought stay valid.
#[utoipa::path(delete, path = "/pricing-plans/{id}", tag = "commerce", security(("bearer" = [])),
    params(("id" = String, Path, description = "The plan's id")),
    responses((status = 200, description = "The retired plan.", body = Envelope<Plan>)))]
pub async fn retire(IdRequest { app, id, .. }: IdRequest<Staff>) -> Result<Api<Plan>> {
    let mut row = by_id(&app.db, &id)
        .await?
        .ok_or_else(|| Error::not_found(Msg::PassNotFound))?;
    row.active = 0;
    save(&app.db, &row, false).await?;
    store::delete_pass_from_carts(&app.db, &id).await?;
    Ok(Api::ok(row.into()))
}
