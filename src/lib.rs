//! Encore: ticketed live concerts — sign-in, accounts, tickets, live audio, dashboard.

pub mod accounts;
pub mod app;
pub mod auth;
pub mod bus;
pub mod chat;
pub mod cli;
pub mod cluster;
pub mod commerce;
pub mod config;
pub mod crypto;
pub mod db;
pub mod demo;
pub mod envelope;
pub mod error;
pub mod events;
pub mod i18n;
pub mod images;
pub mod live;
pub mod messaging;
pub mod meta;
pub mod metrics;
pub mod net;
pub mod notifications;
pub mod openapi;
pub mod paging;
pub mod projects;
pub mod startup;
pub mod state;
pub mod statements;
pub mod stream;
pub mod web;

/// What the cargo-fuzz targets in `fuzz/` call: each parser and hand-written decoder
/// that reads bytes from the network. Re-exports only; production code uses the paths
/// in `stream`.
#[doc(hidden)]
pub mod fuzzing {
    pub use crate::net::websocket::{Frame, FrameError, parse_frame};
    pub use crate::stream::access::{Denied, StreamAccess};
    pub use crate::stream::codecs::adts::{AacFrame, AdtsParser, adts_frame};
    pub use crate::stream::codecs::mp3::{Mp3Frame, Mp3Parser};
    pub use crate::stream::hls::files::{HlsQuery, split as split_stream_path};
    pub use crate::stream::hls::track::MediaFile;
    pub use crate::stream::ingest::icecast::{Head, parse_head};
}
