//! The test provider's hosted checkout page (what Stripe's page is for Stripe), rendered
//! from the template `pay.html` with HTML escaping on, under a CSP that runs only the
//! page's own nonced script and style sheet.

use std::sync::LazyLock;

use axum::http::header;
use axum::response::{Html, IntoResponse, Response};
use minijinja::Environment;
use serde::Serialize;

use super::model::{OrderItem, OrderRow, OrderStatus};
use super::money;
use crate::i18n::{Arg, Lang, Msg, figure_in};

const TEMPLATE: &str = "pay.html";

/// The page's script (card formatting, the payment call): a static module inlined under
/// the page's nonce; its values come from the form's data attributes.
const SCRIPT: &str = include_str!("pay.js");

static TEMPLATES: LazyLock<Environment<'static>> = LazyLock::new(|| {
    let mut env = Environment::new();
    // A `.html` name turns HTML escaping on for every value.
    env.add_template(TEMPLATE, include_str!("pay.html"))
        .expect("pay.html is a valid template");
    env
});

/// Where the test provider sends a buyer to pay `order_id` (the page below, in the
/// buyer's language), as Stripe's session URL would.
pub(crate) fn url(public: &str, order_id: &str, token: &str, language: Lang) -> String {
    format!(
        "{public}/pay/{order_id}?token={token}&lang={}",
        language.code()
    )
}

/// What the page shows: a form for a pending order, or a notice.
#[derive(Serialize)]
pub struct PayPage {
    lang: &'static str,
    lang_code: &'static str,
    dir: &'static str,
    title: String,
    t: Texts,
    order: Option<PayableOrder>,
    notice: String,
    back: Option<String>,
    script: &'static str,
    nonce: String,
}

#[derive(Serialize)]
struct PayableOrder {
    id: String,
    token: String,
    /// The amounts as written before the script runs ("EUR ۶۲٫۴۷"); the script writes each
    /// as a currency in the reader's locale (Intl: "€۶۲٫۴۷") from its minor units.
    total: String,
    total_minor: i64,
    currency: String,
    /// The currency's minor-unit digits, as Encore counts them (Intl may count others).
    digits: u32,
    lines: Vec<Line>,
}

#[derive(Serialize)]
struct Line {
    title: String,
    price: String,
    price_minor: i64,
}

/// The page's texts in the reader's language.
#[derive(Serialize, Default)]
struct Texts {
    test_mode: String,
    total: String,
    name: String,
    number: String,
    expiry: String,
    cvc: String,
    pay: String,
    cards: String,
    succeeds: String,
    declined: String,
    insufficient: String,
    retry: String,
    any_future: String,
    processing: String,
    offline: String,
}

impl PayPage {
    fn new(lang: Lang, title: Msg) -> Self {
        Self {
            lang: lang.html_lang(),
            lang_code: lang.code(),
            dir: if lang.rtl() { "rtl" } else { "ltr" },
            title: title.render(lang),
            t: Texts {
                test_mode: Msg::PayTestMode.render(lang),
                ..Texts::default()
            },
            order: None,
            notice: String::new(),
            // Every state of the page leads back to the cart (as Stripe's cancel URL does).
            back: Some(Msg::PayBack.render(lang)),
            script: SCRIPT,
            // The page's one script and one style sheet carry this nonce.
            nonce: crate::crypto::random_token(16),
        }
    }

    /// No such order, or a wrong token: the same answer for both.
    pub fn not_found(lang: Lang) -> Self {
        Self {
            notice: Msg::CheckoutNotFound.render(lang),
            ..Self::new(lang, Msg::PayNotFoundTitle)
        }
    }

    /// The order is no longer waiting for a payment.
    pub fn closed(lang: Lang, status: OrderStatus) -> Self {
        Self {
            notice: Msg::PayClosed
                .with("status", status.in_words())
                .render(lang),
            ..Self::new(lang, Msg::PayTitle)
        }
    }

    /// The card form for a pending order.
    pub fn form(lang: Lang, order: &OrderRow, lines: &[OrderItem], token: String) -> Self {
        let t = |msg: Msg| msg.render(lang);
        let total = money::format(order.total_minor, &order.currency);
        let page = Self::new(lang, Msg::PayTitle);
        Self {
            t: Texts {
                total: t(Msg::PayTotal),
                name: t(Msg::PayName),
                number: t(Msg::PayNumber),
                expiry: t(Msg::PayExpiry),
                cvc: t(Msg::PayCvc),
                pay: Msg::PayButton
                    .with("total", Arg::figure(total.as_str()))
                    .render(lang),
                cards: t(Msg::PayTestCards),
                succeeds: t(Msg::PaySucceeds),
                declined: t(Msg::PayDeclinedCard),
                insufficient: t(Msg::PayInsufficientCard),
                retry: t(Msg::PayRetryCard),
                any_future: t(Msg::PayAnyFuture),
                processing: t(Msg::PayProcessing),
                offline: t(Msg::PayOffline),
                ..page.t
            },
            order: Some(PayableOrder {
                id: order.id.clone(),
                token,
                total: figure_in(lang, &total),
                total_minor: order.total_minor,
                currency: order.currency.clone(),
                digits: money::minor_digits(&order.currency),
                lines: lines
                    .iter()
                    .map(|line| Line {
                        title: line.with_tier_in(lang),
                        price: figure_in(lang, &money::format(line.price_minor, &order.currency)),
                        price_minor: line.price_minor,
                    })
                    .collect(),
            }),
            ..page
        }
    }

    fn render(&self) -> Result<String, minijinja::Error> {
        let template = TEMPLATES.get_template(TEMPLATE)?;
        template.render(minijinja::value::Serde(self))
    }
}

impl IntoResponse for PayPage {
    fn into_response(self) -> Response {
        let html = match self.render() {
            Ok(html) => html,
            Err(err) => return crate::error::Error::internal(err).into_response(),
        };
        let nonce = &self.nonce;
        let policy = format!(
            "default-src 'none'; script-src 'nonce-{nonce}'; style-src 'nonce-{nonce}'; \
             connect-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'; \
             frame-ancestors 'none'"
        );
        (
            [
                (header::CACHE_CONTROL, "no-store".to_owned()),
                (header::CONTENT_SECURITY_POLICY, policy),
            ],
            Html(html),
        )
            .into_response()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn order() -> OrderRow {
        OrderRow {
            id: "o-1".into(),
            account_id: "a".into(),
            status: OrderStatus::Pending,
            total_minor: 1500,
            currency: "EUR".into(),
            provider: "test".into(),
            provider_ref: None,
            checkout_token_hash: String::new(),
            failure: None,
            created_at: 0,
            expires_at: 0,
            paid_at: None,
            fulfilled_at: None,
            refunded_at: None,
            connect_account: None,
            application_fee_minor: 0,
            promo_code_id: None,
            promo_code: None,
            discount_minor: 0,
        }
    }

    fn line(title: &str, quantity: i64, tier_name: Option<&str>) -> OrderItem {
        OrderItem {
            order_id: "o-1".into(),
            item_kind: super::super::model::ItemKind::Event,
            item_id: "e".into(),
            title: title.into(),
            price_minor: 1500,
            quantity,
            tier_id: None,
            tier_name: tier_name.map(Into::into),
        }
    }

    #[test]
    fn values_are_escaped_in_the_page_and_in_its_script() {
        let order = order();
        let lines = [line("<b>Band</b> & \"Friends\"", 1, None)];
        let html = PayPage::form(Lang::English, &order, &lines, "</script><script>x".into())
            .render()
            .unwrap();
        assert!(
            html.contains("&lt;b&gt;Band&lt;&#x2f;b&gt; &amp; &quot;Friends&quot;"),
            "{html}"
        );
        assert!(!html.contains("</script><script>x"));
        assert!(html.contains("<form id=pay "));
        // The token travels in an escaped attribute, read by the static script.
        assert!(html.contains("data-token=\"&lt;&#x2f;script&gt;&lt;script&gt;x\""));
        assert!(html.contains("href=\"/cart\""), "a way back to the cart");
    }

    #[test]
    fn a_line_of_several_tickets_is_counted_in_the_readers_digits_its_title_isolated() {
        let lines = [line("Band — Show", 3, Some("Supporter"))];
        let html = PayPage::form(Lang::Persian, &order(), &lines, "t".into())
            .render()
            .unwrap();
        assert!(
            html.contains("<td><bdi>۳ × Band — Show (Supporter)</bdi></td>"),
            "{html}"
        );
    }

    #[test]
    fn amounts_carry_their_minor_units_for_the_script_to_write_in_the_readers_locale() {
        let lines = [line("Band — Show", 1, None)];
        let html = PayPage::form(Lang::Persian, &order(), &lines, "t".into())
            .render()
            .unwrap();
        assert!(html.contains("data-minor=\"1500\""), "{html}");
        assert!(
            html.contains("data-currency=\"EUR\" data-digits=\"2\""),
            "{html}"
        );
        assert!(SCRIPT.contains("export function formatMoney"));
    }

    #[test]
    fn the_inlined_script_cannot_close_its_element() {
        assert!(!SCRIPT.to_ascii_lowercase().contains("</script"));
        let html = PayPage::not_found(Lang::English).render().unwrap();
        assert!(html.contains("href=\"/cart\""));
    }

    #[test]
    fn a_closed_order_shows_its_status_and_no_form() {
        let html = PayPage::closed(Lang::Persian, OrderStatus::Fulfilled)
            .render()
            .unwrap();
        assert!(html.contains("dir=\"rtl\""));
        assert!(html.contains("تکمیل‌شده"), "the state in the reader's words");
        assert!(!html.contains("<form"));
        assert!(html.contains("href=\"/cart\""));
    }
}
