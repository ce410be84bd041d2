//! LL-HLS: the segmenters (AAC frames in, or the lossless rendition's FLAC frames; one
//! per rendition of the ladder in `renditions`), the track they write their parts and
//! segments with, the media playlists,
//! the multivariant playlist of the rendition ladder, and the signed files listeners
//! fetch (the hot path).

pub mod files;
pub mod lossless;
pub mod multivariant;
pub mod playlist;
pub mod renditions;
pub mod segmenter;
pub mod track;
