//! The live room's words: a message as people see it, the room's settings, reactions,
//! restrictions, and the bus messages that carry them (docs/api-contract.md, "The live
//! room").

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The longest message, in characters after cleaning.
pub const MAX_CHARS: usize = 500;

/// Who wrote a message, where it is not a fan.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Badge {
    /// A member of the concert's project.
    Artist,
    Staff,
}

impl Badge {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Artist => "artist",
            Self::Staff => "staff",
        }
    }
}

impl TryFrom<String> for Badge {
    type Error = String;
    fn try_from(value: String) -> Result<Self, String> {
        match value.as_str() {
            "artist" => Ok(Self::Artist),
            "staff" => Ok(Self::Staff),
            _ => Err(format!("not a chat badge: {value}")),
        }
    }
}

/// What a message in a room is.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ChatKind {
    /// Written by its author.
    #[default]
    Message,
    /// Said by the room when its author's tip was paid (shown highlighted): its `text` is
    /// the tipper's message (may be empty), its `tip` the amount.
    Tip,
}

/// The amount of a tip said in the room.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ChatTip {
    /// Minor units.
    pub amount: i64,
    pub currency: String,
}

/// A message in a concert's room.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ChatMessage {
    pub id: String,
    pub event_id: String,
    pub account_id: String,
    /// The author's first name and initial ("Ann B.").
    pub author: String,
    pub badge: Option<Badge>,
    #[serde(default)]
    pub kind: ChatKind,
    /// A tip's amount (`kind` `tip`), else `null`.
    #[serde(default)]
    #[schema(required = true)]
    pub tip: Option<ChatTip>,
    /// Text only, 1 to 500 characters (a tip's: 0 to 140), cleaned of control and
    /// bidirectional characters.
    pub text: String,
    /// Milliseconds from the show's first sample its author was hearing (0 before
    /// anything aired): a listener shows it when its player reaches this position.
    pub media_time: i64,
    #[schema(format = DateTime)]
    pub posted_at: String,
}

/// What the moderators chose for a room.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RoomSettings {
    pub pinned: Option<ChatMessage>,
    /// One message per this many seconds per fan; 0: off.
    pub slow_mode_seconds: i64,
    /// Only moderators may post.
    pub closed: bool,
}

/// The reactions a fan can send.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ReactionKind {
    Applause,
    Heart,
    Fire,
}

impl ReactionKind {
    pub const ALL: [Self; 3] = [Self::Applause, Self::Heart, Self::Fire];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Applause => "applause",
            Self::Heart => "heart",
            Self::Fire => "fire",
        }
    }

    pub fn index(self) -> usize {
        self as usize
    }
}

/// Reaction counts, one per kind.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Counts {
    pub applause: u64,
    pub heart: u64,
    pub fire: u64,
}

impl Counts {
    pub fn add(&mut self, kind: ReactionKind, n: u64) {
        match kind {
            ReactionKind::Applause => self.applause += n,
            ReactionKind::Heart => self.heart += n,
            ReactionKind::Fire => self.fire += n,
        }
    }

    pub fn get(&self, kind: ReactionKind) -> u64 {
        match kind {
            ReactionKind::Applause => self.applause,
            ReactionKind::Heart => self.heart,
            ReactionKind::Fire => self.fire,
        }
    }

    pub fn is_empty(&self) -> bool {
        *self == Self::default()
    }
}

/// A moderator's restriction of an account.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum RestrictionKind {
    /// No posting in this room for 5 minutes.
    #[serde(rename = "timeout_5m")]
    Timeout5m,
    #[serde(rename = "timeout_1h")]
    Timeout1h,
    /// No posting in this room until posting closes.
    TimeoutShow,
    /// No reading or posting in any room of the concert's project, with no end.
    Ban,
}

impl RestrictionKind {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Timeout5m => "timeout_5m",
            Self::Timeout1h => "timeout_1h",
            Self::TimeoutShow => "timeout_show",
            Self::Ban => "ban",
        }
    }
}

/// Removes what must never reach a page: control characters (a line break becomes a
/// space), the bidirectional embeddings, overrides and isolates (a message is shown in an
/// isolate of its own; one of these could reorder what follows it), runs of white space.
/// The joiners Persian needs (U+200C, U+200D) and the direction marks stay.
pub fn clean(text: &str) -> String {
    let mut out = String::with_capacity(text.len().min(4 * MAX_CHARS));
    let mut space = false;
    for c in text.chars() {
        let c = if c.is_whitespace() { ' ' } else { c };
        if c.is_control() || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}') {
            continue;
        }
        if c == ' ' {
            space = !out.is_empty();
            continue;
        }
        if space {
            out.push(' ');
            space = false;
        }
        out.push(c);
    }
    out
}

/// `Ann B.`: how a room names an account.
pub fn display_name(first: &str, last: &str) -> String {
    let first = clean(first);
    match clean(last).chars().next() {
        Some(initial) if !first.is_empty() => format!("{first} {initial}."),
        Some(initial) => format!("{initial}."),
        None => first,
    }
}

/// `chat_message` on `chat:<id>`: a message, stored before it was sent.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Posted {
    pub message: ChatMessage,
}

impl crate::bus::Message for Posted {
    const KIND: &'static str = "chat_message";
}

/// `chat_deleted` on `chat:<id>`: a message is gone for everyone.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Deleted {
    pub event_id: String,
    pub message_id: String,
}

impl crate::bus::Message for Deleted {
    const KIND: &'static str = "chat_deleted";
}

/// `chat_room` on `chat:<id>`: the moderators changed the room.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RoomChanged {
    pub event_id: String,
    pub room: RoomSettings,
}

impl crate::bus::Message for RoomChanged {
    const KIND: &'static str = "chat_room";
}

/// `chat_reactions` on `chat:<id>`: one instance's reactions of the last window.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Reactions {
    pub event_id: String,
    /// The latest media time the window's reactions were sent at.
    pub media_time: i64,
    pub counts: Counts,
}

impl crate::bus::Message for Reactions {
    const KIND: &'static str = "chat_reactions";
}

/// A fan's report of a message, as its moderators see it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    pub id: String,
    pub message: ChatMessage,
    pub reporter_name: String,
    #[schema(format = DateTime)]
    pub created_at: String,
}

/// `chat_report` on `event:<id>` (the concert's managers): a message was reported.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Reported {
    pub report: Report,
}

impl crate::bus::Message for Reported {
    const KIND: &'static str = "chat_report";
}

/// `chat_report_dismissed` on `event:<id>`: a moderator dismissed a report (the message
/// stays); every moderator's list drops it.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReportDismissed {
    pub report_id: String,
}

impl crate::bus::Message for ReportDismissed {
    const KIND: &'static str = "chat_report_dismissed";
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cleaning_removes_controls_and_direction_overrides_and_keeps_persian_joiners() {
        assert_eq!(clean("  hi\n\tthere \u{7}!  "), "hi there !");
        assert_eq!(clean("\u{202E}evil\u{202C} \u{2067}x\u{2069}"), "evil x");
        assert_eq!(clean("می\u{200C}خواهم"), "می\u{200C}خواهم");
        assert_eq!(clean("<b>bold</b>"), "<b>bold</b>", "HTML stays text");
        assert_eq!(clean("\u{0}\u{1b}[31m"), "[31m");
    }

    #[test]
    fn a_name_is_the_first_name_and_an_initial() {
        assert_eq!(display_name("Ann", "Bell"), "Ann B.");
        assert_eq!(display_name("Ann", ""), "Ann");
        assert_eq!(display_name("", "Bell"), "B.");
        assert_eq!(display_name("Sara", "ملکی"), "Sara م.");
    }
}
