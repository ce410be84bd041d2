//! A marker as kept in memory and stored: what the hub and the playlist read of it, apart
//! from the markers' API and domain (which take the application state).

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Who put a marker there.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
#[schema(as = MarkerSource)]
pub enum Source {
    /// The encoder's Icecast metadata call.
    Encoder,
    /// The artist (or staff) by hand, through the API.
    Artist,
}

impl Source {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Encoder => "encoder",
            Self::Artist => "artist",
        }
    }

    pub fn parse(value: &str) -> Option<Self> {
        match value {
            "encoder" => Some(Self::Encoder),
            "artist" => Some(Self::Artist),
            _ => None,
        }
    }
}

/// A marker as kept in memory and stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Marker {
    pub id: String,
    pub event_id: String,
    /// Position on the show's media timeline, in ms from its first sample.
    pub at_ms: i64,
    pub title: String,
    pub artist: Option<String>,
    pub source: Source,
    pub created_at: i64,
    pub updated_at: i64,
}
