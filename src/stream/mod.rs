//! Live audio: frame parsers for what encoders send (ADTS AAC, MP3), the fMP4/CMAF
//! packager, the LL-HLS segmenter and playlists. Ingest endpoints, signed per-ticket
//! access and serving build on these.

pub mod access;
pub mod adts;
pub mod files;
pub mod fmp4;
pub mod http;
pub mod hub;
pub mod icecast;
pub mod ingest;
pub mod journal;
pub mod markers;
pub mod metadata;
pub mod mp3;
pub mod pacing;
pub mod playlist;
pub mod push;
pub mod segmenter;
pub mod sessions;
pub mod store;
pub mod transcode;
