//! Payment providers, chosen by configuration (`ENCORE_PAYMENTS`): Stripe Checkout, the
//! built-in test provider (a hosted checkout page served by Encore with test card numbers,
//! like the big providers' test modes; only when asked for, since anyone can pay with
//! it), or none, when checkout says payments are not configured.

use std::time::Duration;

use hmac::{Hmac, Mac};
use serde::Serialize;
use sha2::Sha256;

use crate::config::{PaymentsArg, Secret};
use crate::error::{Error, Result};
use crate::i18n::Msg;

#[derive(Clone)]
pub enum Provider {
    Test,
    Stripe(Stripe),
    /// Nothing configured: nothing can be bought.
    Off,
}

impl Provider {
    pub fn from_config(
        choice: PaymentsArg,
        secret_key: Option<&Secret>,
        webhook_secret: Option<&Secret>,
        api_base: &str,
        connect: bool,
        connect_webhook_secret: Option<&Secret>,
    ) -> anyhow::Result<Self> {
        if connect && choice != PaymentsArg::Stripe {
            anyhow::bail!("ENCORE_STRIPE_CONNECT needs Stripe payments (ENCORE_PAYMENTS=stripe)");
        }
        match (choice, secret_key, webhook_secret) {
            (PaymentsArg::Test, ..) => Ok(Self::Test),
            (PaymentsArg::Off, ..) => Ok(Self::Off),
            (PaymentsArg::Stripe, Some(key), Some(webhook)) => Ok(Self::Stripe(Stripe {
                client: crate::net::outgoing::client()
                    .timeout(Duration::from_secs(20))
                    .build()?,
                secret_key: key.clone(),
                webhook_secret: webhook.clone(),
                api_base: api_base.trim_end_matches('/').to_owned(),
                connect,
                connect_webhook_secret: connect_webhook_secret.cloned(),
            })),
            (PaymentsArg::Stripe, ..) => anyhow::bail!(
                "Stripe payments need both ENCORE_STRIPE_SECRET_KEY and ENCORE_STRIPE_WEBHOOK_SECRET"
            ),
        }
    }

    pub fn name(&self) -> &'static str {
        match self {
            Self::Test => "test",
            Self::Stripe(_) => "stripe",
            Self::Off => "off",
        }
    }

    pub fn stripe(&self) -> Option<&Stripe> {
        match self {
            Self::Stripe(stripe) => Some(stripe),
            Self::Test | Self::Off => None,
        }
    }

    /// Stripe with Connect on: projects are paid by destination charges.
    pub fn connect(&self) -> Option<&Stripe> {
        self.stripe().filter(|stripe| stripe.connect)
    }
}

// ------------------------------------------------------------------------- test provider

/// What the test provider does with a card number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TestCard {
    Succeeds,
    Declined,
    InsufficientFunds,
    /// A transient processing error: the same card may be tried again.
    ProcessingError,
}

pub const TEST_CARDS: &[(&str, TestCard)] = &[
    ("4242424242424242", TestCard::Succeeds),
    ("5555555555554444", TestCard::Succeeds),
    ("4000000000000002", TestCard::Declined),
    ("4000000000009995", TestCard::InsufficientFunds),
    ("4000000000000119", TestCard::ProcessingError),
];

fn luhn_valid(digits: &str) -> bool {
    let sum: u32 = digits
        .bytes()
        .rev()
        .enumerate()
        .map(|(i, b)| {
            let d = u32::from(b - b'0');
            if i % 2 == 1 {
                let doubled = d * 2;
                if doubled > 9 { doubled - 9 } else { doubled }
            } else {
                d
            }
        })
        .sum();
    sum.is_multiple_of(10)
}

/// What is wrong with a card typed into the test checkout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CardProblem {
    InvalidNumber,
    BadExpiry,
    Expired,
    BadCvc,
    NotATestCard,
}

/// Check a card as a real form would, then say what the test provider does with it.
pub fn test_card(
    number: &str,
    expiry: &str,
    cvc: &str,
    now_year: i32,
    now_month: u8,
) -> std::result::Result<TestCard, CardProblem> {
    let digits: String = number
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '-')
        .collect();
    if !(12..=19).contains(&digits.len())
        || !digits.bytes().all(|b| b.is_ascii_digit())
        || !luhn_valid(&digits)
    {
        return Err(CardProblem::InvalidNumber);
    }
    let (month, year) = expiry
        .split_once('/')
        .and_then(|(m, y)| Some((m.trim().parse::<u8>().ok()?, y.trim().parse::<i32>().ok()?)))
        .filter(|(m, _)| (1..=12).contains(m))
        .ok_or(CardProblem::BadExpiry)?;
    let year = if year < 100 { 2000 + year } else { year };
    if (year, month) < (now_year, now_month) {
        return Err(CardProblem::Expired);
    }
    if !(3..=4).contains(&cvc.trim().len()) || !cvc.trim().bytes().all(|b| b.is_ascii_digit()) {
        return Err(CardProblem::BadCvc);
    }
    TEST_CARDS
        .iter()
        .find(|(n, _)| *n == digits)
        .map(|(_, outcome)| *outcome)
        .ok_or(CardProblem::NotATestCard)
}

// -------------------------------------------------------------------------------- Stripe

#[derive(Clone)]
pub struct Stripe {
    client: reqwest::Client,
    secret_key: Secret,
    webhook_secret: Secret,
    api_base: String,
    /// Stripe Connect is on (`ENCORE_STRIPE_CONNECT`).
    connect: bool,
    /// The signing secret of the endpoint for connected accounts' events, if apart.
    connect_webhook_secret: Option<Secret>,
}

/// Webhooks older (or newer) than this are refused: replay protection.
pub const SIGNATURE_TOLERANCE_SECS: i64 = 300;

/// A pending order as Stripe's Checkout is asked to take it.
#[derive(Debug, Clone, Copy)]
pub struct CheckoutOrder<'a> {
    pub order_id: &'a str,
    pub currency: &'a str,
    pub items: &'a [LineItem<'a>],
    pub email: &'a str,
    pub success_url: &'a str,
    pub cancel_url: &'a str,
}

/// What a Stripe Checkout Session is made of.
#[derive(Debug, Clone, Copy)]
pub struct SessionRequest<'a> {
    pub order: CheckoutOrder<'a>,
    pub expires_at_secs: i64,
    /// A destination charge: the connected account paid, and the platform's fee.
    pub destination: Option<Destination<'a>>,
}

/// Where a destination charge goes: the connected account, less the application fee.
#[derive(Debug, Clone, Copy)]
pub struct Destination<'a> {
    pub account: &'a str,
    pub application_fee_minor: i64,
}

/// A connected account's state, as Stripe tells it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AccountState {
    pub charges_enabled: bool,
    pub payouts_enabled: bool,
    pub details_submitted: bool,
}

impl AccountState {
    /// From an `account` object (`GET /v1/accounts/{id}`, or an `account.updated` event).
    pub fn of(account: &serde_json::Value) -> Self {
        Self {
            charges_enabled: account["charges_enabled"].as_bool().unwrap_or(false),
            payouts_enabled: account["payouts_enabled"].as_bool().unwrap_or(false),
            details_submitted: account["details_submitted"].as_bool().unwrap_or(false),
        }
    }
}

#[derive(Debug, Serialize)]
pub struct LineItem<'a> {
    pub name: &'a str,
    pub amount_minor: i64,
}

impl Stripe {
    /// Create a Checkout Session; answers (session id, URL to send the buyer to).
    pub async fn create_session(&self, session: &SessionRequest<'_>) -> Result<(String, String)> {
        let SessionRequest {
            order:
                CheckoutOrder {
                    order_id,
                    currency,
                    items,
                    email,
                    success_url,
                    cancel_url,
                },
            expires_at_secs,
            destination,
        } = *session;
        let mut form: Vec<(String, String)> = vec![
            ("mode".into(), "payment".into()),
            ("client_reference_id".into(), order_id.into()),
            ("customer_email".into(), email.into()),
            ("success_url".into(), success_url.into()),
            ("cancel_url".into(), cancel_url.into()),
            ("expires_at".into(), expires_at_secs.to_string()),
            ("metadata[order_id]".into(), order_id.into()),
        ];
        if let Some(to) = destination {
            form.push((
                "payment_intent_data[transfer_data][destination]".into(),
                to.account.into(),
            ));
            form.push((
                "payment_intent_data[application_fee_amount]".into(),
                to.application_fee_minor.to_string(),
            ));
        }
        for (i, item) in items.iter().enumerate() {
            let p = format!("line_items[{i}]");
            form.push((format!("{p}[quantity]"), "1".into()));
            form.push((
                format!("{p}[price_data][currency]"),
                currency.to_ascii_lowercase(),
            ));
            form.push((
                format!("{p}[price_data][unit_amount]"),
                item.amount_minor.to_string(),
            ));
            form.push((
                format!("{p}[price_data][product_data][name]"),
                item.name.into(),
            ));
        }
        let body = serde_urlencoded::to_string(&form).map_err(Error::internal)?;
        let answer: serde_json::Value = self
            .post(
                "checkout/sessions",
                body,
                Some(&format!("checkout-{order_id}")),
            )
            .await?;
        match (answer["id"].as_str(), answer["url"].as_str()) {
            (Some(id), Some(url)) => Ok((id.to_owned(), url.to_owned())),
            _ => Err(Error::BadGateway(Msg::StripeNoCheckoutUrl.into())),
        }
    }

    /// Refund part or all of a payment. A destination charge (`reverse`) takes the money
    /// back from the connected account and gives back the platform's fee in proportion.
    pub async fn refund(
        &self,
        payment_intent: &str,
        amount_minor: i64,
        idempotency: &str,
        reverse: bool,
    ) -> Result<String> {
        let amount = amount_minor.to_string();
        let mut form = vec![("payment_intent", payment_intent), ("amount", &amount)];
        if reverse {
            form.push(("reverse_transfer", "true"));
            form.push(("refund_application_fee", "true"));
        }
        let body = serde_urlencoded::to_string(&form).map_err(Error::internal)?;
        let answer = self.post("refunds", body, Some(idempotency)).await?;
        answer["id"]
            .as_str()
            .map(str::to_owned)
            .ok_or_else(|| Error::BadGateway(Msg::StripeNoRefund.into()))
    }

    /// Expire a Checkout Session so it can no longer be paid (a replaced checkout, a
    /// cancelled concert). Stripe refuses once the session is complete or expired, which
    /// is what we want anyway, so that answer is not an error here.
    pub async fn expire_session(&self, session_id: &str) -> Result<()> {
        match self
            .post(
                &format!("checkout/sessions/{session_id}/expire"),
                String::new(),
                None,
            )
            .await
        {
            Err(Error::BadGateway(text)) if text.msg == Msg::ProviderUnreachable => {
                Err(Error::BadGateway(text))
            }
            Ok(_) | Err(_) => Ok(()),
        }
    }

    /// Create an Express connected account for a project. The idempotency key makes two
    /// onboardings started at once (or a retry) the same account.
    pub async fn create_account(&self, project_id: &str) -> Result<String> {
        let body = serde_urlencoded::to_string([
            ("type", "express"),
            ("metadata[project_id]", project_id),
            ("capabilities[card_payments][requested]", "true"),
            ("capabilities[transfers][requested]", "true"),
        ])
        .map_err(Error::internal)?;
        let answer = self
            .post(
                "accounts",
                body,
                Some(&format!("connect-account-{project_id}")),
            )
            .await?;
        answer["id"]
            .as_str()
            .map(str::to_owned)
            .ok_or_else(|| Error::BadGateway(Msg::StripeNoAccount.into()))
    }

    /// A single-use onboarding link for a connected account (it lapses within minutes).
    pub async fn account_link(
        &self,
        account: &str,
        refresh_url: &str,
        return_url: &str,
    ) -> Result<String> {
        let body = serde_urlencoded::to_string([
            ("account", account),
            ("refresh_url", refresh_url),
            ("return_url", return_url),
            ("type", "account_onboarding"),
        ])
        .map_err(Error::internal)?;
        let answer = self.post("account_links", body, None).await?;
        answer["url"]
            .as_str()
            .map(str::to_owned)
            .ok_or_else(|| Error::BadGateway(Msg::StripeNoAccount.into()))
    }

    /// The fee Stripe took on a payment: its latest charge's balance transaction.
    pub async fn fee_of(&self, payment_intent: &str) -> Result<i64> {
        let answer = self
            .get(
                &format!("payment_intents/{payment_intent}"),
                &[("expand[]", "latest_charge.balance_transaction")],
            )
            .await?;
        answer["latest_charge"]["balance_transaction"]["fee"]
            .as_i64()
            .ok_or_else(|| Error::BadGateway(Msg::ProviderRefused.into()))
    }

    async fn get(&self, path: &str, query: &[(&str, &str)]) -> Result<serde_json::Value> {
        let query = serde_urlencoded::to_string(query).map_err(Error::internal)?;
        let request = self
            .client
            .get(format!("{}/v1/{path}?{query}", self.api_base))
            .bearer_auth(self.secret_key.expose());
        Self::answer(request).await
    }

    /// Whether the secret key is accepted (for the payment-methods page).
    pub async fn keys_work(&self) -> bool {
        self.client
            .get(format!("{}/v1/balance", self.api_base))
            .bearer_auth(self.secret_key.expose())
            .send()
            .await
            .is_ok_and(|r| r.status().is_success())
    }

    async fn post(
        &self,
        path: &str,
        body: String,
        idempotency: Option<&str>,
    ) -> Result<serde_json::Value> {
        let mut request = self
            .client
            .post(format!("{}/v1/{path}", self.api_base))
            .bearer_auth(self.secret_key.expose())
            .header("content-type", "application/x-www-form-urlencoded")
            .body(body);
        if let Some(key) = idempotency {
            request = request.header("idempotency-key", key);
        }
        Self::answer(request).await
    }

    async fn answer(request: reqwest::RequestBuilder) -> Result<serde_json::Value> {
        let response = request.send().await.map_err(|e| {
            tracing::error!(error = %e, "Stripe unreachable");
            Error::BadGateway(Msg::ProviderUnreachable.into())
        })?;
        let status = response.status();
        let answer: serde_json::Value = response.json().await.unwrap_or_default();
        if !status.is_success() {
            tracing::error!(%status, error = %answer["error"]["message"], "Stripe refused a request");
            return Err(Error::BadGateway(Msg::ProviderRefused.into()));
        }
        Ok(answer)
    }

    /// Check a `Stripe-Signature` header (`t=…,v1=…`) over the raw body.
    /// Either endpoint's secret will do: the platform's, or the Connect endpoint's.
    pub fn verify_signature(&self, header: &str, body: &[u8], now_secs: i64) -> Result<()> {
        match (
            verify_signature(self.webhook_secret.expose(), header, body, now_secs),
            &self.connect_webhook_secret,
        ) {
            (Err(_), Some(connect)) => verify_signature(connect.expose(), header, body, now_secs),
            (result, _) => result,
        }
    }
}

pub fn verify_signature(secret: &str, header: &str, body: &[u8], now_secs: i64) -> Result<()> {
    let bad = || Error::bad_request(Msg::InvalidStripeSignature);
    let mut timestamp = None;
    let mut signatures = Vec::new();
    for part in header.split(',') {
        match part.trim().split_once('=') {
            Some(("t", t)) => timestamp = t.parse::<i64>().ok(),
            Some(("v1", sig)) => signatures.push(sig),
            _ => {}
        }
    }
    let timestamp = timestamp.ok_or_else(bad)?;
    if (now_secs - timestamp).abs() > SIGNATURE_TOLERANCE_SECS {
        return Err(Error::bad_request(Msg::StaleStripeSignature));
    }
    let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).map_err(Error::internal)?;
    mac.update(timestamp.to_string().as_bytes());
    mac.update(b".");
    mac.update(body);
    let expected = mac.finalize().into_bytes();
    let expected_hex: String = expected.iter().map(|b| format!("{b:02x}")).collect();
    if signatures
        .iter()
        .any(|sig| crate::crypto::constant_time_eq(sig, &expected_hex))
    {
        Ok(())
    } else {
        Err(bad())
    }
}

/// Sign a payload as Stripe does (used by tests and local tooling).
pub fn sign(secret: &str, body: &[u8], timestamp: i64) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).expect("any key length");
    mac.update(timestamp.to_string().as_bytes());
    mac.update(b".");
    mac.update(body);
    let hex: String = mac
        .finalize()
        .into_bytes()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("t={timestamp},v1={hex}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_cards_are_checked_like_real_ones() {
        assert_eq!(
            test_card("4242 4242 4242 4242", "12/30", "123", 2026, 11).unwrap(),
            TestCard::Succeeds
        );
        assert_eq!(
            test_card("4000000000000002", "12/30", "123", 2026, 11).unwrap(),
            TestCard::Declined
        );
        assert!(
            test_card("4242424242424241", "12/30", "123", 2026, 11).is_err(),
            "Luhn"
        );
        assert!(
            test_card("4242424242424242", "10/26", "123", 2026, 11).is_err(),
            "expired"
        );
        assert!(test_card("4242424242424242", "13/30", "123", 2026, 11).is_err());
        assert!(test_card("4242424242424242", "12/30", "1", 2026, 11).is_err());
        assert!(
            test_card("4111111111111111", "12/30", "123", 2026, 11).is_err(),
            "not a test card"
        );
    }

    #[test]
    fn stripe_signatures_verify_and_refuse_tampering_and_staleness() {
        let body = br#"{"id":"evt_1"}"#;
        let header = sign("whsec_test", body, 1_000_000);
        assert!(verify_signature("whsec_test", &header, body, 1_000_100).is_ok());
        assert!(verify_signature("whsec_other", &header, body, 1_000_100).is_err());
        assert!(verify_signature("whsec_test", &header, br#"{"id":"evt_2"}"#, 1_000_100).is_err());
        assert!(verify_signature("whsec_test", &header, body, 1_000_301).is_err());
        assert!(verify_signature("whsec_test", "garbage", body, 1_000_000).is_err());
    }
}
