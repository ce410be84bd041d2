//! What a notification is: its kinds, a new one to store, and the shape the HTTP API and
//! the WebSocket show (the bus carries it, so this file imports no handler).

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::db::iso8601;
use crate::i18n::{Lang, Text, Zone};

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

/// A notice's title and body as messages, before they are written in anyone's language.
/// Kept with the notification: each reading writes them again in the reader's language and
/// on their clocks, so that one stored in English reads in Persian once its reader chose
/// Persian (`Row::read_in`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Texts {
    pub title: Text,
    pub body: Text,
}

impl Texts {
    pub fn new(title: impl Into<Text>, body: impl Into<Text>) -> Self {
        Self {
            title: title.into(),
            body: body.into(),
        }
    }
}

/// The `texts` column (JSON). Empty for a notification in words of no language of ours, for
/// one stored before the column, and for one naming a message a later version dropped: each
/// is read as it was written.
#[derive(Debug, Clone, Default)]
pub struct StoredTexts(Option<Texts>);

impl StoredTexts {
    pub fn column(&self) -> Option<String> {
        let texts = self.0.as_ref()?;
        serde_json::to_string(texts).ok()
    }

    pub fn texts(&self) -> Option<&Texts> {
        self.0.as_ref()
    }
}

impl From<Option<String>> for StoredTexts {
    fn from(column: Option<String>) -> Self {
        Self(column.and_then(|json| serde_json::from_str(&json).ok()))
    }
}

#[derive(Debug)]
pub struct NewNotification {
    pub kind: Kind,
    /// As written for its recipient when it was stored (what the live push carries).
    pub title: String,
    pub body: String,
    pub sender: Option<String>,
    pub upload_type: Option<String>,
    /// The dashboard page it opens (a path such as `/my-events`).
    pub link: Option<String>,
    pub texts: StoredTexts,
}
crate::db::from_row!(NewNotification { kind as String, title, body, sender, upload_type, link, texts as Option<String> });

impl NewNotification {
    /// From someone (`sender`), in words of ours: written in `lang` on `zone`'s clocks.
    pub fn message(sender: &str, texts: Texts, lang: Lang, zone: &Zone) -> Self {
        Self {
            sender: Some(sender.to_owned()),
            ..Self::worded(Kind::Message, texts, lang, zone)
        }
    }

    pub fn upload(upload_type: &str, texts: Texts, lang: Lang, zone: &Zone) -> Self {
        Self {
            upload_type: Some(upload_type.to_owned()),
            ..Self::worded(Kind::Upload, texts, lang, zone)
        }
    }

    pub fn topic(texts: Texts, lang: Lang, zone: &Zone) -> Self {
        Self::worded(Kind::Topic, texts, lang, zone)
    }

    /// A topic in words of no language of ours: every reader reads them as written.
    pub fn plain_topic(title: impl Into<String>, body: impl Into<String>) -> Self {
        Self {
            kind: Kind::Topic,
            title: title.into(),
            body: body.into(),
            sender: None,
            upload_type: None,
            link: None,
            texts: StoredTexts::default(),
        }
    }

    fn worded(kind: Kind, texts: Texts, lang: Lang, zone: &Zone) -> Self {
        Self {
            kind,
            title: texts.title.render_in(lang, zone),
            body: texts.body.render_in(lang, zone),
            texts: StoredTexts(Some(texts)),
            ..Self::plain_topic("", "")
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
