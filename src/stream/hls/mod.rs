//! LL-HLS: the segmenter (AAC frames in, parts and segments out; one per rendition of
//! the ladder in `renditions`), the media playlists,
//! the multivariant playlist of the rendition ladder, and the signed files listeners
//! fetch (the hot path).

pub mod files;
pub mod lossless;
pub mod multivariant;
pub mod playlist;
pub mod renditions;
pub mod segmenter;
