//! The states and kinds of commerce rows, read from the database as enums: an unknown
//! value is a decoding error (the row is refused), never a silent default.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::i18n::{Lang, Msg, Text, seeded_text_in};

/// Where an order is in its life (the CHECK constraint of `orders.status`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum OrderStatus {
    /// Seats held while the buyer pays.
    Pending,
    /// The provider confirmed the payment; tickets are being issued.
    Paid,
    /// Tickets and passes issued.
    Fulfilled,
    /// The payment failed or could not be honoured.
    Failed,
    /// The hold lapsed before a payment arrived.
    Expired,
    /// The money went back and the access with it.
    Refunded,
}

impl OrderStatus {
    /// The state in words, in the reader's language (the web app's `cart.status`).
    pub fn in_words(self) -> Msg {
        match self {
            Self::Pending => Msg::OrderPending,
            Self::Paid => Msg::OrderPaid,
            Self::Fulfilled => Msg::OrderFulfilled,
            Self::Failed => Msg::OrderFailed,
            Self::Expired => Msg::OrderExpired,
            Self::Refunded => Msg::OrderRefunded,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Pending => "pending",
            Self::Paid => "paid",
            Self::Fulfilled => "fulfilled",
            Self::Failed => "failed",
            Self::Expired => "expired",
            Self::Refunded => "refunded",
        }
    }

    /// A payment for an order in this state was already turned into access (or back).
    pub fn is_settled(self) -> bool {
        matches!(self, Self::Paid | Self::Fulfilled | Self::Refunded)
    }
}

impl TryFrom<String> for OrderStatus {
    type Error = String;
    fn try_from(value: String) -> Result<Self, Self::Error> {
        Ok(match value.as_str() {
            "pending" => Self::Pending,
            "paid" => Self::Paid,
            "fulfilled" => Self::Fulfilled,
            "failed" => Self::Failed,
            "expired" => Self::Expired,
            "refunded" => Self::Refunded,
            _ => return Err(format!("unknown order status {value:?}")),
        })
    }
}

/// What a cart entry or order line sells: a seat at one concert, or an all-access pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ItemKind {
    Event,
    Pass,
}

impl ItemKind {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Event => "event",
            Self::Pass => "pass",
        }
    }
}

impl TryFrom<String> for ItemKind {
    type Error = String;
    fn try_from(value: String) -> Result<Self, Self::Error> {
        match value.as_str() {
            "event" => Ok(Self::Event),
            "pass" => Ok(Self::Pass),
            _ => Err(format!("unknown item kind {value:?}")),
        }
    }
}

/// An order as stored.
#[derive(Debug, Clone)]
pub struct OrderRow {
    pub id: String,
    pub account_id: String,
    pub status: OrderStatus,
    pub total_minor: i64,
    pub currency: String,
    pub provider: String,
    pub provider_ref: Option<String>,
    pub checkout_token_hash: String,
    pub failure: Option<String>,
    pub created_at: i64,
    pub expires_at: i64,
    pub paid_at: Option<i64>,
    pub fulfilled_at: Option<i64>,
    pub refunded_at: Option<i64>,
    /// The Stripe connected account a destination charge paid (none: a platform charge).
    pub connect_account: Option<String>,
    /// What the platform kept of a destination charge (its application fee).
    pub application_fee_minor: i64,
    /// The promo code it carries (its id, and its text as it was).
    pub promo_code_id: Option<String>,
    pub promo_code: Option<String>,
    /// Minor units the promo code took off (the lines' prices are after it).
    pub discount_minor: i64,
}
crate::db::from_row!(OrderRow { id, account_id, status as String, total_minor, currency, provider, provider_ref, checkout_token_hash, failure, created_at, expires_at, paid_at, fulfilled_at, refunded_at, connect_account, application_fee_minor, promo_code_id, promo_code, discount_minor });

/// One line of an order (also its API shape).
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OrderItem {
    #[serde(skip)]
    pub order_id: String,
    pub item_kind: ItemKind,
    /// The concert's or the pricing plan's id.
    pub item_id: String,
    pub title: String,
    /// Minor units, as paid for the whole line (all its tickets, after any promo code):
    /// the order's total is the sum of its lines' prices.
    #[serde(rename = "price")]
    pub price_minor: i64,
    /// Tickets of the tier on the line (1 for a pass).
    pub quantity: i64,
    /// The ticket tier bought (a concert's line); `null` for a pass.
    #[schema(required = true)]
    pub tier_id: Option<String>,
    /// The tier's name when it was bought (what the receipt names); `null` for a pass.
    #[serde(rename = "tier")]
    #[schema(required = true)]
    pub tier_name: Option<String>,
}
crate::db::from_row!(OrderItem { order_id, item_kind as String, item_id, title, price_minor, quantity, tier_id, tier_name });

impl OrderItem {
    /// The line's title for a reader of `lang`. Checkout stored it in English as it read
    /// then ([`event_line_title`], [`pass_line_title`]); a seeded text in it (the demo's
    /// concerts and pass, [`crate::i18n::seeded_text`]) and a pass's days read in the
    /// reader's language, anything else as stored.
    pub fn title_in(&self, lang: Lang) -> String {
        match self.item_kind {
            ItemKind::Event => match self.title.rsplit_once(EVENT_LINE_SEPARATOR) {
                Some((artist, title)) => {
                    event_line_title(artist, &seeded_text_in(lang, title.to_owned()))
                }
                None => self.title.clone(),
            },
            ItemKind::Pass => match parse_pass_line(&self.title) {
                Some((name, days)) => {
                    pass_line(&seeded_text_in(lang, name.to_owned()), days).render(lang)
                }
                None => seeded_text_in(lang, self.title.clone()),
            },
        }
    }

    /// The line's title with the tier bought, as a receipt names it to a reader of `lang`
    /// (seeded texts in their language, the count in its digits), with the number of
    /// tickets when there are several: "Band — Show (VIP)", "3 × Band — Show (Supporter)".
    pub fn with_tier_in(&self, lang: Lang) -> String {
        let title = self.title_in(lang);
        let named = match &self.tier_name {
            Some(tier) => format!("{title} ({})", seeded_text_in(lang, tier.clone())),
            None => title,
        };
        if self.quantity > 1 {
            let count = crate::i18n::figure_in(lang, &self.quantity.to_string());
            format!("{count} × {named}")
        } else {
            named
        }
    }
}

const EVENT_LINE_SEPARATOR: &str = " — ";

/// A ticket line's title as checkout stores it: "Band — Show".
pub fn event_line_title(artist: &str, title: &str) -> String {
    format!("{artist}{EVENT_LINE_SEPARATOR}{title}")
}

/// A pass line's title as checkout stores it, in English: "All-access month (30 days)".
pub fn pass_line_title(name: &str, days: i64) -> String {
    pass_line(name, days).render(Lang::English)
}

fn pass_line(name: &str, days: i64) -> Text {
    if days == 1 {
        Msg::PassLineOneDay.with("name", name)
    } else {
        Msg::PassLine.with("name", name).with("days", days)
    }
}

/// The name and days of a stored pass line: "Name (30 days)", "Name (1 day)" (older orders
/// also "Name (1 days)").
fn parse_pass_line(title: &str) -> Option<(&str, i64)> {
    let rest = title
        .strip_suffix(" days)")
        .or_else(|| title.strip_suffix(" day)"))?;
    let (name, days) = rest.rsplit_once(" (")?;
    let days = days.parse().ok().filter(|d| *d > 0)?;
    Some((name, days))
}

crate::db::row! {
    /// An all-access pass as sold (a pricing plan).
    #[derive(Debug, Clone)]
    pub struct PlanRow {
        pub id: String,
        pub name: String,
        pub description: String,
        pub price_minor: i64,
        pub currency: String,
        pub days: i64,
        pub active: i64,
    }
}

crate::db::row! {
    /// The organiser's billing profile as stored (one row).
    #[derive(Debug, Default, Clone)]
    pub struct BillingRow {
        pub name: String,
        pub email: String,
        pub address: String,
        pub city: String,
        pub country: String,
        pub company: String,
        pub bank_name: String,
        pub account_name: String,
        pub sort_code: String,
        /// As stored: sealed, legacy plain text, or empty.
        pub account_number: String,
        pub bank_notes: String,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_order_status_reads_back_as_itself() {
        for status in [
            OrderStatus::Pending,
            OrderStatus::Paid,
            OrderStatus::Fulfilled,
            OrderStatus::Failed,
            OrderStatus::Expired,
            OrderStatus::Refunded,
        ] {
            assert_eq!(
                OrderStatus::try_from(status.as_str().to_owned()),
                Ok(status)
            );
        }
    }

    #[test]
    fn an_unknown_state_is_an_error_not_a_default() {
        assert!(OrderStatus::try_from("shipped".to_owned()).is_err());
        assert!(ItemKind::try_from("voucher".to_owned()).is_err());
        assert_eq!(ItemKind::try_from("pass".to_owned()), Ok(ItemKind::Pass));
    }

    fn line(kind: ItemKind, title: &str, tier: Option<&str>, quantity: i64) -> OrderItem {
        OrderItem {
            order_id: "o".into(),
            item_kind: kind,
            item_id: "i".into(),
            title: title.into(),
            price_minor: 1500,
            quantity,
            tier_id: tier.map(|_| "t".into()),
            tier_name: tier.map(Into::into),
        }
    }

    #[test]
    fn a_line_reads_seeded_titles_and_a_pass_s_days_in_the_reader_s_language() {
        let demo = event_line_title(
            "The Encore House Band",
            Msg::DemoOpeningTitle.template(Lang::English),
        );
        let ticket = line(ItemKind::Event, &demo, Some("Standard"), 3);
        assert_eq!(
            ticket.with_tier_in(Lang::Persian),
            "۳ × The Encore House Band — شب افتتاحیه (کنسرت نمایشی) (عادی)"
        );
        assert_eq!(
            ticket.with_tier_in(Lang::English),
            format!("3 × {demo} (Standard)")
        );

        // Another concert's title, with the separator in it, stays as stored.
        let own = line(ItemKind::Event, "A — B — Night", Some("VIP"), 1);
        assert_eq!(own.title_in(Lang::Persian), "A — B — Night");

        let month = pass_line_title(Msg::DemoPassName.template(Lang::English), 30);
        assert_eq!(month, "All-access month (30 days)");
        let pass = line(ItemKind::Pass, &month, None, 1);
        assert_eq!(pass.title_in(Lang::Persian), "یک ماه دسترسی کامل (۳۰ روز)");
        assert_eq!(
            pass.title_in(Lang::Spanish),
            "Mes de acceso total (30 días)"
        );

        let day = line(ItemKind::Pass, &pass_line_title("Festival", 1), None, 1);
        assert_eq!(day.title, "Festival (1 day)");
        assert_eq!(day.title_in(Lang::Portuguese), "Festival (1 dia)");
        // Written by checkout before a day was singular.
        let older = line(ItemKind::Pass, "Festival (1 days)", None, 1);
        assert_eq!(older.title_in(Lang::Chinese), "Festival（1 天）");
        // Not a pass line's form: as stored.
        let odd = line(ItemKind::Pass, "Weekend (x days)", None, 1);
        assert_eq!(odd.title_in(Lang::Persian), "Weekend (x days)");
    }
}
