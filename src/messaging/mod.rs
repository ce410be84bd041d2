//! Outbound e-mail and SMS. Each channel goes to its configured provider (SMTP via
//! lettre; an HTTP SMS gateway), or by default to the dev outbox: the log plus one JSON
//! line per message in `<data-dir>/outbox.jsonl`, which admins can read in the dashboard.
//!
//! Sending happens in the background: a slow provider never holds a request, and the
//! answer to "forgot password" takes the same time whether or not a message goes out.
//!
//! An SMS goes out only with an [`sms::SmsPermit`] from [`Messenger::sms_permit`]: the
//! country allow-list and the per-number and server-wide caps, checked in one place.

pub mod countries;
pub mod sms;

use std::path::PathBuf;
use std::sync::Arc;

use lettre::message::Mailbox;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use serde::{Deserialize, Serialize};
use tokio::io::AsyncWriteExt;
use tokio::sync::Mutex;

use self::sms::{SmsGate, SmsPermit};
use crate::config::Config;
use crate::error::Result;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Channel {
    Email,
    Sms,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct OutboundMessage {
    pub channel: Channel,
    pub to: String,
    pub subject: String,
    pub body: String,
    pub created_at: String,
    /// The parts of the body that grant access (sign-in codes, reset and invitation
    /// links): kept out of the log, and out of the outbox for readers who may not see them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub secrets: Vec<String>,
}

/// What stands in for a secret that a reader may not see.
pub const REDACTED: &str = "•••";

impl OutboundMessage {
    pub fn email(to: &str, subject: impl Into<String>, body: impl Into<String>) -> Self {
        Self::new(Channel::Email, to, subject.into(), body.into())
    }
    /// Private: an SMS is made by [`Messenger::send_sms`], from a permit.
    fn sms(to: &str, body: impl Into<String>) -> Self {
        Self::new(Channel::Sms, to, String::new(), body.into())
    }
    fn new(channel: Channel, to: &str, subject: String, body: String) -> Self {
        Self {
            channel,
            to: to.to_owned(),
            subject,
            body,
            created_at: crate::db::iso8601(crate::db::now_ms()),
            secrets: Vec::new(),
        }
    }

    /// Mark a part of the body as a secret (a code or a link with a token in it).
    pub fn with_secret(mut self, secret: impl Into<String>) -> Self {
        self.secrets.push(secret.into());
        self
    }

    /// The body with every secret replaced by [`REDACTED`].
    pub fn redacted_body(&self) -> String {
        self.secrets
            .iter()
            .filter(|secret| !secret.is_empty())
            .fold(self.body.clone(), |body, secret| {
                body.replace(secret.as_str(), REDACTED)
            })
    }
}

enum EmailSender {
    Smtp {
        transport: AsyncSmtpTransport<Tokio1Executor>,
        from: Mailbox,
    },
    Outbox,
}

enum SmsSender {
    Http {
        client: reqwest::Client,
        url: String,
        token: Option<String>,
    },
    Outbox,
}

#[derive(Clone)]
pub struct Messenger {
    inner: Arc<Inner>,
}

struct Inner {
    email: EmailSender,
    sms: SmsSender,
    sms_gate: SmsGate,
    outbox_path: PathBuf,
    outbox_lock: Mutex<()>,
}

impl Messenger {
    pub fn from_config(
        config: &Config,
        shared: crate::cluster::shared::Shared,
    ) -> anyhow::Result<Self> {
        let email = match &config.smtp_url {
            Some(url) => EmailSender::Smtp {
                transport: AsyncSmtpTransport::<Tokio1Executor>::from_url(url.expose())?.build(),
                from: config.mail_from.parse()?,
            },
            None => EmailSender::Outbox,
        };
        let sms = match &config.sms_url {
            Some(url) => SmsSender::Http {
                client: crate::net::outgoing::client()
                    .timeout(std::time::Duration::from_secs(10))
                    .build()?,
                url: url.clone(),
                token: config.sms_token.as_ref().map(|t| t.expose().to_owned()),
            },
            None => SmsSender::Outbox,
        };
        Ok(Self {
            inner: Arc::new(Inner {
                email,
                sms,
                sms_gate: SmsGate::new(config.sms_countries.clone(), config.sms_per_hour, shared),
                outbox_path: config.data_dir.join("outbox.jsonl"),
                outbox_lock: Mutex::new(()),
            }),
        })
    }

    /// Whether any channel writes to the dev outbox (then admins may read it).
    pub fn uses_outbox(&self) -> bool {
        matches!(self.inner.email, EmailSender::Outbox)
            || matches!(self.inner.sms, SmsSender::Outbox)
    }

    pub fn outbox_path(&self) -> &std::path::Path {
        &self.inner.outbox_path
    }

    /// May an SMS go to `to` (E.164) now? Counts it when it may: call just before storing
    /// the code it carries, so a refusal leaves nothing behind.
    pub async fn sms_permit(&self, to: &str) -> Result<SmsPermit> {
        self.inner.sms_gate.permit(to).await
    }

    /// Queue an SMS; `secret` is the code in it (kept out of the log).
    pub fn send_sms(&self, permit: SmsPermit, body: String, secret: String) {
        self.queue(OutboundMessage::sms(permit.to(), body).with_secret(secret));
    }

    /// Queue an e-mail; failures are logged, never surfaced to the requester. SMS go
    /// through [`Messenger::send_sms`] only.
    pub fn send(&self, message: OutboundMessage) {
        if message.channel == Channel::Sms {
            tracing::error!("an SMS without a permit was dropped");
            return;
        }
        self.queue(message);
    }

    fn queue(&self, message: OutboundMessage) {
        let this = self.clone();
        tokio::spawn(async move {
            let channel = message.channel;
            if let Err(err) = this.deliver(message).await {
                tracing::error!(?channel, error = %err, "message delivery failed");
            }
        });
    }

    async fn deliver(&self, message: OutboundMessage) -> anyhow::Result<()> {
        match (message.channel, &self.inner.email, &self.inner.sms) {
            (Channel::Email, EmailSender::Smtp { transport, from }, _) => {
                let email = Message::builder()
                    .from(from.clone())
                    .to(message.to.parse()?)
                    .subject(&message.subject)
                    .body(message.body.clone())?;
                transport.send(email).await?;
                tracing::info!(to = %message.to, subject = %message.subject, "e-mail sent");
                Ok(())
            }
            (Channel::Sms, _, SmsSender::Http { client, url, token }) => {
                let mut request = client
                    .post(url)
                    .json(&serde_json::json!({ "to": message.to, "body": message.body }));
                if let Some(token) = token {
                    request = request.bearer_auth(token);
                }
                request.send().await?.error_for_status()?;
                tracing::info!(to = %message.to, "sms sent");
                Ok(())
            }
            _ => self.write_outbox(&message).await,
        }
    }

    async fn write_outbox(&self, message: &OutboundMessage) -> anyhow::Result<()> {
        tracing::info!(
            channel = ?message.channel, to = %message.to, subject = %message.subject,
            body = %message.redacted_body(), "dev outbox"
        );
        let mut line = serde_json::to_string(message)?;
        line.push('\n');
        let _guard = self.inner.outbox_lock.lock().await;
        let mut options = tokio::fs::OpenOptions::new();
        options.create(true).append(true);
        #[cfg(unix)]
        options.mode(0o600);
        let mut file = options.open(&self.inner.outbox_path).await?;
        file.write_all(line.as_bytes()).await?;
        file.flush().await?;
        Ok(())
    }

    /// The newest `limit` messages of the dev outbox, newest first.
    pub async fn read_outbox(&self, limit: usize) -> anyhow::Result<Vec<OutboundMessage>> {
        let text = match tokio::fs::read_to_string(&self.inner.outbox_path).await {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(e.into()),
        };
        Ok(text
            .lines()
            .rev()
            .filter_map(|line| serde_json::from_str(line).ok())
            .take(limit)
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_secret_is_replaced_in_the_redacted_body() {
        let message = OutboundMessage::email(
            "a@example.com",
            "Reset",
            "Open https://x.example/reset?token=abc within 30 minutes, code 123456, again 123456.",
        )
        .with_secret("https://x.example/reset?token=abc")
        .with_secret("123456");
        assert_eq!(
            message.redacted_body(),
            "Open ••• within 30 minutes, code •••, again •••."
        );
    }

    #[test]
    fn secrets_are_kept_in_the_outbox_line_and_old_lines_still_read() {
        let line = serde_json::to_string(
            &OutboundMessage::sms("+447700900123", "code 1").with_secret("1"),
        )
        .unwrap();
        let back: OutboundMessage = serde_json::from_str(&line).unwrap();
        assert_eq!(back.secrets, ["1"]);
        let old: OutboundMessage = serde_json::from_str(
            r#"{"channel":"sms","to":"+1","subject":"","body":"b","created_at":"t"}"#,
        )
        .unwrap();
        assert!(old.secrets.is_empty());
    }
}
