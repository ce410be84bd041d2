//! LL-HLS: the segmenter (AAC frames in, parts and segments out), the media playlists,
//! and the signed files listeners fetch (the hot path).

pub mod files;
pub mod playlist;
pub mod segmenter;
