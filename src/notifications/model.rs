//! What a notification is: its kinds, a new one to store, and the shape the HTTP API and
//! the WebSocket show (the bus carries it, so this file imports no handler).

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::db::iso8601;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Message,
    Upload,
    Topic,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Message => "message",
            Self::Upload => "upload",
            Self::Topic => "topic",
        }
    }
}

impl TryFrom<String> for Kind {
    type Error = String;
    fn try_from(value: String) -> Result<Self, Self::Error> {
        match value.as_str() {
            "message" => Ok(Self::Message),
            "upload" => Ok(Self::Upload),
            "topic" => Ok(Self::Topic),
            _ => Err(format!("unknown notification kind {value:?}")),
        }
    }
}

#[derive(Debug)]
pub struct NewNotification {
    pub kind: Kind,
    pub title: String,
    pub body: String,
    pub sender: Option<String>,
    pub upload_type: Option<String>,
    /// The dashboard page it opens (a path such as `/my-events`).
    pub link: Option<String>,
}
crate::db::from_row!(NewNotification { kind as String, title, body, sender, upload_type, link });

impl NewNotification {
    pub fn message(sender: &str, title: impl Into<String>, body: impl Into<String>) -> Self {
        Self {
            kind: Kind::Message,
            title: title.into(),
            body: body.into(),
            sender: Some(sender.to_owned()),
            upload_type: None,
            link: None,
        }
    }
    pub fn upload(upload_type: &str, title: impl Into<String>, body: impl Into<String>) -> Self {
        Self {
            kind: Kind::Upload,
            title: title.into(),
            body: body.into(),
            sender: None,
            upload_type: Some(upload_type.to_owned()),
            link: None,
        }
    }
    pub fn topic(title: impl Into<String>, body: impl Into<String>) -> Self {
        Self {
            kind: Kind::Topic,
            title: title.into(),
            body: body.into(),
            sender: None,
            upload_type: None,
            link: None,
        }
    }
    /// The page it opens when clicked.
    pub fn linked(mut self, link: impl Into<String>) -> Self {
        self.link = Some(link.into());
        self
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Notification {
    id: String,
    #[serde(rename = "type")]
    kind: Kind,
    title: String,
    body: String,
    /// Who sent it (a message).
    sender: Option<String>,
    /// What was uploaded (an upload).
    upload_type: Option<String>,
    /// The dashboard page it opens when clicked (a path such as `/events/<id>`).
    link: Option<String>,
    read: bool,
    #[schema(format = DateTime)]
    created_at: String,
}

impl Notification {
    pub fn id(&self) -> &str {
        &self.id
    }
}

impl From<super::store::Row> for Notification {
    fn from(r: super::store::Row) -> Self {
        let sent = r.sent;
        Self {
            id: r.id,
            kind: sent.kind,
            title: sent.title,
            body: sent.body,
            sender: sent.sender,
            upload_type: sent.upload_type,
            link: sent.link,
            read: r.read_at.is_some(),
            created_at: iso8601(r.created_at),
        }
    }
}

/// `notification` on an account's channel: one stored for it, as the HTTP API shows it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Published {
    pub notification: Notification,
}

impl crate::bus::Message for Published {
    const KIND: &'static str = "notification";
}
