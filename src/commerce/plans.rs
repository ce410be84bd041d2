//! Pricing plans: all-access passes an admin defines (name, price, days of validity).
//! A pass unlocks every concert starting within its validity.

use axum::extract::{Path, State};
use serde::{Deserialize, Serialize};

use crate::auth::extract::{MaybeUser, Staff};
use crate::db::{Db, now_ms};
use crate::envelope::{Api, JsonBody};
use crate::error::{Error, Result};
use crate::state::AppState;

use super::model::PlanRow;
use super::money;
use super::store;
use crate::i18n::Msg;

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Plan {
    pub id: String,
    pub name: String,
    pub description: String,
    /// Minor units, like a concert's price.
    pub price: i64,
    pub currency: String,
    pub days: i64,
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

pub async fn by_id(db: &Db, id: &str) -> Result<Option<PlanRow>> {
    store::plan_by_id(db, id).await
}

/// Active plans for everyone; staff also see retired ones.
pub async fn list(
    State(app): State<AppState>,
    MaybeUser(user): MaybeUser,
) -> Result<Api<Vec<Plan>>> {
    let staff = user.is_some_and(|u| u.account.role().is_staff());
    let rows = store::list_plans(&app.db, staff).await?;
    Ok(Api::ok(rows.into_iter().map(Plan::from).collect()))
}

#[derive(Debug, Deserialize)]
pub struct PlanInput {
    name: Option<String>,
    description: Option<String>,
    price: Option<i64>,
    currency: Option<String>,
    days: Option<i64>,
    active: Option<bool>,
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

pub async fn create(
    State(app): State<AppState>,
    Staff(_): Staff,
    JsonBody(input): JsonBody<PlanInput>,
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
    apply(&mut row, input)?;
    save(&app.db, &row, true).await?;
    Ok(Api::created(row.into()))
}

pub async fn update(
    State(app): State<AppState>,
    Staff(_): Staff,
    Path(id): Path<String>,
    JsonBody(input): JsonBody<PlanInput>,
) -> Result<Api<Plan>> {
    let mut row = by_id(&app.db, &id)
        .await?
        .ok_or_else(|| Error::not_found(Msg::PassNotFound))?;
    apply(&mut row, input)?;
    save(&app.db, &row, false).await?;
    Ok(Api::ok(row.into()))
}

/// Retire a plan: it stops being sold; passes already bought stay valid.
pub async fn retire(
    State(app): State<AppState>,
    Staff(_): Staff,
    Path(id): Path<String>,
) -> Result<Api<Plan>> {
    let mut row = by_id(&app.db, &id)
        .await?
        .ok_or_else(|| Error::not_found(Msg::PassNotFound))?;
    row.active = 0;
    save(&app.db, &row, false).await?;
    store::delete_pass_from_carts(&app.db, &id).await?;
    Ok(Api::ok(row.into()))
}
