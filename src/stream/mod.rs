//! Live audio, in rooms along MediaMTX's lines (the format apart from the serving):
//! - [`codecs`]: what encoders send, parsed (ADTS AAC, MP3) or transcoded to AAC, and the
//!   fMP4/CMAF packager;
//! - [`hls`]: the LL-HLS segmenter, the playlists and the signed files listeners fetch;
//! - [`ingest`]: publishing, whatever the transport (Icecast's source port and metadata
//!   call, HTTP `PUT`, `encore push`), paced per show;
//! - [`access`]: who may listen — signed per-ticket URLs and listening sessions;
//! - [`show`]: one show per concert (the hub) and its journal across instances;
//! - [`markers`]: the songs' titles on the show's timeline;
//! - [`download`]: the set to keep, the recording as one file after the show;
//! - [`http`]: the HTTP faces of all of it.

pub mod access;
pub mod codecs;
pub mod download;
pub mod hls;
pub mod http;
pub mod ingest;
pub mod markers;
pub mod show;
#[cfg(test)]
pub(crate) mod test_media;
