//! Staff activity: what admins and super admins watch happen on the Live page, published on
//! the `staff` channel of the bus.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Something that happened, as the staff channel carries it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Activity {
    pub kind: ActivityKind,
    /// When it happened.
    #[schema(format = DateTime)]
    pub at: String,
    /// The concert concerned (a sale, a refund, a failed payment, a show).
    pub event_id: Option<String>,
    pub event_title: Option<String>,
    /// The account concerned (who signed up, bought or was refunded).
    pub account_id: Option<String>,
    pub account_name: Option<String>,
    /// In minor units of `currency` (a sale, a refund, a failed payment).
    pub amount: Option<i64>,
    pub currency: Option<String>,
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
