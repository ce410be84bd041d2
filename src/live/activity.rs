//! Staff activity: what admins and super admins watch happen on the Live page. Each is
//! stored once, in the transaction of its cause ([`Activity::record`]: one row every staff
//! member reads, never a copy per staff member), and published on the `staff` channel of
//! the bus once that commits.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::accounts::model::AccountRow;
use crate::bus::{Bus, Channel, Publication};
use crate::commerce::model::{ItemKind, OrderItem};
use crate::db::Exec;
use crate::error::Result;
use crate::events::model::EventRow;
use crate::live::store::{Row, Subject};

/// Something that happened, as the staff channel carries it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Activity {
    /// Its id in the store: the same activity from `GET /live` and the socket is one.
    pub id: String,
    pub kind: ActivityKind,
    /// When it happened.
    #[schema(format = DateTime)]
    pub at: String,
    #[serde(flatten)]
    pub subject: Subject,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ActivityKind {
    Signup,
    Sale,
    Refund,
    PaymentFailed,
    /// A publisher connected to a concert.
    ShowLive,
    /// A concert's publisher went away before the show was ended.
    ShowDropped,
    ShowEnded,
}

impl ActivityKind {
    const ALL: [Self; 7] = [
        Self::Signup,
        Self::Sale,
        Self::Refund,
        Self::PaymentFailed,
        Self::ShowLive,
        Self::ShowDropped,
        Self::ShowEnded,
    ];

    /// Its name in the store, the same as on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Signup => "signup",
            Self::Sale => "sale",
            Self::Refund => "refund",
            Self::PaymentFailed => "payment_failed",
            Self::ShowLive => "show_live",
            Self::ShowDropped => "show_dropped",
            Self::ShowEnded => "show_ended",
        }
    }
}

impl TryFrom<String> for ActivityKind {
    type Error = String;

    fn try_from(name: String) -> std::result::Result<Self, String> {
        Self::ALL
            .into_iter()
            .find(|kind| kind.as_str() == name)
            .ok_or_else(|| format!("unknown activity kind {name:?}"))
    }
}

// One constructor per kind, and publishing after the commit.
impl Activity {
    fn new(kind: ActivityKind) -> Self {
        Self {
            id: uuid::Uuid::new_v4().to_string(),
            kind,
            at: crate::db::iso8601(crate::db::now_ms()),
            subject: Subject::default(),
        }
    }

    fn about_event(mut self, id: &str, title: &str) -> Self {
        self.subject.event_id = Some(id.to_owned());
        self.subject.event_title = Some(title.to_owned());
        self
    }

    fn about_account(mut self, id: &str, name: &str) -> Self {
        self.subject.account_id = Some(id.to_owned());
        self.subject.account_name = Some(name.to_owned());
        self
    }

    fn of_money(mut self, amount: i64, currency: &str) -> Self {
        self.subject.amount = Some(amount);
        self.subject.currency = Some(currency.to_owned());
        self
    }

    pub fn signup(account: &AccountRow) -> Self {
        Self::new(ActivityKind::Signup).about_account(&account.id, &account.display_name())
    }

    /// One line of a paid order: a concert's ticket or a pass (no concert).
    pub fn sale(buyer: &AccountRow, line: &OrderItem, currency: &str) -> Self {
        let mut activity = Self::new(ActivityKind::Sale)
            .about_account(&buyer.id, &buyer.display_name())
            .of_money(line.price_minor, currency);
        match line.item_kind {
            ItemKind::Event => activity.about_event(&line.item_id, &line.title),
            ItemKind::Pass => {
                activity.subject.event_title = Some(line.title.clone());
                activity
            }
        }
    }

    /// Money given back to a buyer; the concert when it was one concert's ticket.
    pub fn refund(
        buyer: &AccountRow,
        amount: i64,
        currency: &str,
        event: Option<&EventRow>,
    ) -> Self {
        let activity = Self::new(ActivityKind::Refund)
            .about_account(&buyer.id, &buyer.display_name())
            .of_money(amount, currency);
        match event {
            Some(event) => activity.about_event(&event.id, &event.details.title),
            None => activity,
        }
    }

    pub fn payment_failed(buyer: &AccountRow, amount: i64, currency: &str) -> Self {
        Self::new(ActivityKind::PaymentFailed)
            .about_account(&buyer.id, &buyer.display_name())
            .of_money(amount, currency)
    }

    pub fn show_live(event: &EventRow) -> Self {
        Self::new(ActivityKind::ShowLive).about_event(&event.id, &event.details.title)
    }

    pub fn show_dropped(event: &EventRow) -> Self {
        Self::new(ActivityKind::ShowDropped).about_event(&event.id, &event.details.title)
    }

    pub fn show_ended(event: &EventRow) -> Self {
        Self::new(ActivityKind::ShowEnded).about_event(&event.id, &event.details.title)
    }

    /// Store it, in the transaction of what it tells of; [`publish`](Self::publish) it
    /// once that commits.
    pub async fn record<'e>(&self, db: impl Exec<'e>) -> Result<()> {
        super::store::insert(db, &self.row()).await
    }

    /// As stored.
    fn row(&self) -> Row {
        let at = crate::db::parse_iso8601(&self.at).unwrap_or_else(crate::db::now_ms);
        Row {
            id: self.id.clone(),
            kind: self.kind.as_str().to_owned(),
            at,
            subject: self.subject.clone(),
        }
    }

    /// Put it on the staff channel once recorded (the Live page follows it as it happens;
    /// a page opened later reads it from the store). A failure is logged.
    pub async fn publish(self, bus: &Bus) {
        if let Err(err) = bus
            .publish(
                &Channel::Staff,
                Publication::new(&Recorded { activity: self }),
            )
            .await
        {
            tracing::warn!(error = %err, "publishing staff activity failed");
        }
    }
}

/// A stored activity, as the feed shows it; a kind this build does not know (written by
/// a newer instance) is left out.
impl TryFrom<Row> for Activity {
    type Error = String;

    fn try_from(row: Row) -> std::result::Result<Self, String> {
        Ok(Self {
            id: row.id,
            kind: ActivityKind::try_from(row.kind)?,
            at: crate::db::iso8601(row.at),
            subject: row.subject,
        })
    }
}

/// `activity` on the staff channel: one recorded.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Recorded {
    pub activity: Activity,
}

impl crate::bus::Message for Recorded {
    const KIND: &'static str = "activity";
}
