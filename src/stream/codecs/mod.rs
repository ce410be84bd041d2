//! The audio formats: frame parsers for what encoders send (ADTS AAC, MP3), the one
//! GStreamer pipeline builder behind the single transcoder and the rendition ladder
//! (issue 32), and the fMP4/CMAF packager.

pub mod adts;
pub mod flac;
pub mod flac_file;
pub mod fmp4;
pub mod ladder;
pub mod m4a;
pub mod mp3;
pub mod ogg;
pub mod transcode;
pub mod webm;
