//! A native FLAC file (`fLaC` + metadata blocks + frames, xiph.org/flac/format.html) for
//! the set to keep of a lossless show (issue 32): the publisher's STREAMINFO with the
//! total number of samples filled in, the frames byte for byte (no decoding, no
//! re-encoding), and around them what players read:
//!
//! - VORBIS_COMMENT: TITLE, ALBUM, ARTIST, ALBUMARTIST, DATE, ENCODER, and one
//!   `CHAPTERxxx` / `CHAPTERxxxNAME` pair per song (the Ogg chapter convention, which
//!   ffmpeg's FLAC demuxer, hence mpv and VLC through libavformat, make chapters of).
//! - PICTURE: the concert's picture as the front cover (type 3), with its size.
//! - CUESHEET: a track per song from its first sample, and the lead-out, so foobar2000,
//!   `metaflac --export-cuesheet-to` and CD-style rippers' tools see the songs as tracks.
//!
//! The STREAMINFO's MD5 of the decoded audio stays zero ("unknown", as the format allows):
//! only a decoder could compute it, and the file is made without one. Nothing depends on
//! the clock: the same inputs give the same bytes on every instance.
//! [`header`] writes everything before the first frame; the caller then writes the frames.

use crate::stream::codecs::flac::StreamInfo;
use crate::stream::codecs::m4a::{Chapter, Cover, CoverFormat, Tags};

/// Metadata block types (format.html, METADATA_BLOCK_HEADER).
const STREAMINFO: u8 = 0;
const VORBIS_COMMENT: u8 = 4;
const CUESHEET: u8 = 5;
const PICTURE: u8 = 6;
/// A block's length is 24 bits.
const MAX_BLOCK: usize = (1 << 24) - 1;
/// A cue sheet counts its tracks in one byte, the lead-out included.
pub const MAX_TRACKS: usize = 254;
/// The lead-out track's number off CD-DA.
const LEAD_OUT: u8 = 255;

/// The STREAMINFO of the whole file: `total_samples` (per channel, 36 bits) set and the
/// MD5 zeroed (unknown). The block and frame sizes are the publisher's.
pub fn stream_info(info: &StreamInfo, total_samples: u64) -> [u8; 34] {
    let mut raw = info.raw;
    let total = total_samples.min((1 << 36) - 1);
    raw[13] = (raw[13] & 0xF0) | ((total >> 32) as u8 & 0x0F);
    raw[14..18].copy_from_slice(&(total as u32).to_be_bytes());
    raw[18..34].fill(0);
    raw
}

/// Everything before the first frame: the `fLaC` marker and the metadata blocks, the
/// last one flagged. `total_samples` is the sum of the frames' samples (per channel).
pub fn header(
    info: &StreamInfo,
    total_samples: u64,
    tags: &Tags,
    chapters: &[Chapter],
    cover: Option<&Cover>,
) -> Vec<u8> {
    let rate = u64::from(info.sample_rate());
    // The songs inside the recording, in order, one per start (a cue sheet's tracks
    // must increase); the first MAX_TRACKS of them.
    let mut songs: Vec<(u64, &str)> = Vec::new();
    for chapter in chapters {
        let at = (chapter.start_ms.max(0) as u64).saturating_mul(rate) / 1000;
        if at >= total_samples || songs.last().is_some_and(|(last, _)| at <= *last) {
            continue;
        }
        songs.push((at, chapter.title.as_str()));
    }
    songs.truncate(MAX_TRACKS);

    let mut blocks: Vec<(u8, Vec<u8>)> =
        vec![(STREAMINFO, stream_info(info, total_samples).to_vec())];
    // The cue sheet before the comment: ffmpeg's demuxer makes an untitled chapter of
    // each track, numbered as the track, and the CHAPTERnnnNAME comments read after it
    // name them; the other way round the cue sheet's chapters wipe the titles.
    if !songs.is_empty() {
        blocks.push((CUESHEET, cuesheet(&songs, total_samples)));
    }
    blocks.push((VORBIS_COMMENT, vorbis_comment(tags, &songs, rate)));
    if let Some(cover) = cover {
        let picture = picture(cover);
        if picture.len() <= MAX_BLOCK {
            blocks.push((PICTURE, picture));
        }
    }
    let mut out = b"fLaC".to_vec();
    let count = blocks.len();
    for (i, (kind, body)) in blocks.into_iter().enumerate() {
        let last = if i + 1 == count { 0x80 } else { 0 };
        out.push(last | kind);
        out.extend_from_slice(&(body.len() as u32).to_be_bytes()[1..]);
        out.extend_from_slice(&body);
    }
    out
}

/// `HH:MM:SS.mmm`, the Ogg chapter convention's time.
fn chapter_time(samples: u64, rate: u64) -> String {
    let ms = samples * 1000 / rate.max(1);
    format!(
        "{:02}:{:02}:{:02}.{:03}",
        ms / 3_600_000,
        ms / 60_000 % 60,
        ms / 1000 % 60,
        ms % 1000
    )
}

fn vorbis_comment(tags: &Tags, songs: &[(u64, &str)], rate: u64) -> Vec<u8> {
    let mut fields = vec![
        format!("TITLE={}", tags.title),
        format!("ALBUM={}", tags.title),
        format!("ARTIST={}", tags.artist),
        format!("ALBUMARTIST={}", tags.artist),
        format!("DATE={}", tags.date),
        "ENCODER=Encore".to_owned(),
    ];
    for (i, (at, title)) in songs.iter().enumerate() {
        let n = i + 1;
        fields.push(format!("CHAPTER{n:03}={}", chapter_time(*at, rate)));
        fields.push(format!("CHAPTER{n:03}NAME={title}"));
    }
    // Little-endian lengths, unlike every other FLAC field (the Vorbis layout).
    let vendor = b"Encore";
    let mut out = Vec::new();
    out.extend_from_slice(&(vendor.len() as u32).to_le_bytes());
    out.extend_from_slice(vendor);
    out.extend_from_slice(&(fields.len() as u32).to_le_bytes());
    for field in fields {
        out.extend_from_slice(&(field.len() as u32).to_le_bytes());
        out.extend_from_slice(field.as_bytes());
    }
    out
}

/// Width, height and bits per pixel of a PNG or JPEG, from its header; zeros when they
/// cannot be read (the format allows it, players then look at the image).
fn dimensions(cover: &Cover) -> (u32, u32, u32) {
    let b = &cover.bytes;
    match cover.format {
        CoverFormat::Png => {
            // IHDR is the first chunk: width, height, bit depth, colour type.
            if b.len() < 26 || &b[12..16] != b"IHDR" {
                return (0, 0, 0);
            }
            let w = u32::from_be_bytes([b[16], b[17], b[18], b[19]]);
            let h = u32::from_be_bytes([b[20], b[21], b[22], b[23]]);
            let channels = match b[25] {
                0 => 1,
                2 => 3,
                4 => 2,
                6 => 4,
                _ => 1, // palette: one index per pixel
            };
            (w, h, u32::from(b[24]) * channels)
        }
        CoverFormat::Jpeg => jpeg_dimensions(b).unwrap_or((0, 0, 0)),
    }
}

/// The first SOFn segment's precision, height, width and components.
fn jpeg_dimensions(b: &[u8]) -> Option<(u32, u32, u32)> {
    if b.get(..2)? != [0xFF, 0xD8] {
        return None;
    }
    let mut at = 2;
    loop {
        if *b.get(at)? != 0xFF {
            return None;
        }
        let marker = *b.get(at + 1)?;
        if marker == 0xFF {
            at += 1; // fill byte
            continue;
        }
        let len = usize::from(u16::from_be_bytes([*b.get(at + 2)?, *b.get(at + 3)?]));
        let sof = matches!(marker, 0xC0..=0xCF) && !matches!(marker, 0xC4 | 0xC8 | 0xCC);
        if sof {
            let s = b.get(at + 4..at + 10)?;
            let height = u32::from(u16::from_be_bytes([s[1], s[2]]));
            let width = u32::from(u16::from_be_bytes([s[3], s[4]]));
            return Some((width, height, u32::from(s[0]) * u32::from(s[5])));
        }
        at += 2 + len;
    }
}

fn picture(cover: &Cover) -> Vec<u8> {
    let mime: &[u8] = match cover.format {
        CoverFormat::Jpeg => b"image/jpeg",
        CoverFormat::Png => b"image/png",
    };
    let (width, height, depth) = dimensions(cover);
    let mut out = Vec::with_capacity(cover.bytes.len() + 64);
    out.extend_from_slice(&3u32.to_be_bytes()); // front cover
    out.extend_from_slice(&(mime.len() as u32).to_be_bytes());
    out.extend_from_slice(mime);
    out.extend_from_slice(&0u32.to_be_bytes()); // no description
    out.extend_from_slice(&width.to_be_bytes());
    out.extend_from_slice(&height.to_be_bytes());
    out.extend_from_slice(&depth.to_be_bytes());
    out.extend_from_slice(&0u32.to_be_bytes()); // not indexed
    out.extend_from_slice(&(cover.bytes.len() as u32).to_be_bytes());
    out.extend_from_slice(&cover.bytes);
    out
}

/// A non-CD cue sheet (no lead-in, offsets in samples, not multiples of 588): track `n`
/// from song `n`'s first sample with its one index point 01 at 0, then the lead-out
/// (number 255, no index points) at the end of the stream.
fn cuesheet(songs: &[(u64, &str)], total_samples: u64) -> Vec<u8> {
    let mut out = vec![0u8; 128]; // media catalog number: none
    out.extend_from_slice(&0u64.to_be_bytes()); // lead-in samples
    out.push(0); // is_cd = 0, reserved
    out.extend_from_slice(&[0u8; 258]);
    out.push((songs.len() + 1) as u8);
    let track = |out: &mut Vec<u8>, offset: u64, number: u8, indexes: u8| {
        out.extend_from_slice(&offset.to_be_bytes());
        out.push(number);
        out.extend_from_slice(&[0u8; 12]); // ISRC: none
        out.push(0); // audio, no pre-emphasis
        out.extend_from_slice(&[0u8; 13]);
        out.push(indexes);
    };
    for (i, (at, _)) in songs.iter().enumerate() {
        track(&mut out, *at, (i + 1) as u8, 1);
        out.extend_from_slice(&0u64.to_be_bytes()); // index offset from the track's
        out.push(1); // index 01: the track's start
        out.extend_from_slice(&[0u8; 3]);
    }
    track(&mut out, total_samples, LEAD_OUT, 0);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A metadata block read back: type, last-block flag, body.
    type Block<'a> = (u8, bool, &'a [u8]);

    /// The metadata blocks after `fLaC` until the last one, and where the frames start.
    fn blocks(file: &[u8]) -> (Vec<Block<'_>>, usize) {
        assert_eq!(&file[..4], b"fLaC");
        let mut at = 4;
        let mut out = Vec::new();
        loop {
            let head = file[at];
            let len = u32::from_be_bytes([0, file[at + 1], file[at + 2], file[at + 3]]) as usize;
            let body = &file[at + 4..at + 4 + len];
            out.push((head & 0x7F, head & 0x80 != 0, body));
            at += 4 + len;
            if head & 0x80 != 0 {
                return (out, at);
            }
        }
    }

    fn info() -> StreamInfo {
        let mut raw = [0u8; 34];
        raw[0..2].copy_from_slice(&4096u16.to_be_bytes());
        raw[2..4].copy_from_slice(&4096u16.to_be_bytes());
        // 48 kHz, 2 channels, 16 bits.
        raw[10] = (48_000u32 >> 12) as u8;
        raw[11] = (48_000u32 >> 4) as u8;
        raw[12] = ((48_000u32 & 0xF) << 4) as u8 | (1 << 1);
        raw[13] = 15 << 4;
        raw[20] = 0xAB; // an MD5 byte, to be cleared
        StreamInfo::parse(&raw).unwrap()
    }

    fn tags() -> Tags {
        Tags {
            title: "Live at the Hall".into(),
            artist: "Sigur Rós".into(),
            date: "2026-11-27".into(),
            created_ms: 0,
        }
    }

    fn songs() -> Vec<Chapter> {
        vec![
            Chapter {
                start_ms: 0,
                title: "Intro".into(),
            },
            Chapter {
                start_ms: 1500,
                title: "Hoppípolla".into(),
            },
            Chapter {
                start_ms: 1500, // the same start twice: one track
                title: "Again".into(),
            },
            Chapter {
                start_ms: 99_000, // after the end: none
                title: "Encore".into(),
            },
        ]
    }

    /// A 3×2 PNG's signature and IHDR (RGBA, 8 bits).
    fn png() -> Vec<u8> {
        let mut b = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
        b.extend_from_slice(&3u32.to_be_bytes());
        b.extend_from_slice(&2u32.to_be_bytes());
        b.extend_from_slice(&[8, 6, 0, 0, 0]);
        b
    }

    #[test]
    fn the_blocks_are_laid_out_with_lengths_and_only_the_last_flagged() {
        let cover = Cover {
            format: CoverFormat::Png,
            bytes: png(),
        };
        let total = 48_000 * 3;
        let head = header(&info(), total, &tags(), &songs(), Some(&cover));
        let (blocks, end) = blocks(&head);
        assert_eq!(end, head.len(), "nothing after the last block");
        let kinds: Vec<u8> = blocks.iter().map(|b| b.0).collect();
        assert_eq!(kinds, [STREAMINFO, CUESHEET, VORBIS_COMMENT, PICTURE]);
        let lasts: Vec<bool> = blocks.iter().map(|b| b.1).collect();
        assert_eq!(lasts, [false, false, false, true]);

        let si = StreamInfo::parse(blocks[0].2).unwrap();
        assert_eq!(si.sample_rate(), 48_000);
        let t = (u64::from(si.raw[13] & 0x0F) << 32)
            | u64::from(u32::from_be_bytes(si.raw[14..18].try_into().unwrap()));
        assert_eq!(t, total);
        assert_eq!(si.raw[18..], [0u8; 16], "the MD5 is unknown");

        let comment = String::from_utf8_lossy(blocks[2].2);
        for field in [
            "TITLE=Live at the Hall",
            "ALBUMARTIST=Sigur Rós",
            "DATE=2026-11-27",
            "ENCODER=Encore",
            "CHAPTER001=00:00:00.000",
            "CHAPTER002=00:00:01.500",
            "CHAPTER002NAME=Hoppípolla",
        ] {
            assert!(comment.contains(field), "{field}");
        }
        assert!(!comment.contains("CHAPTER003"));

        let pic = blocks[3].2;
        assert_eq!(&pic[..4], &3u32.to_be_bytes());
        assert_eq!(&pic[8..17], b"image/png");
        assert_eq!(&pic[21..33], &[0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 32]);

        let cue = blocks[1].2;
        assert_eq!(cue.len(), 396 + 3 * 36 + 2 * 12);
        assert_eq!(cue[136] & 0x80, 0, "not a CD");
        assert_eq!(cue[395], 3, "two songs and the lead-out");
        let track = |i: usize| &cue[396 + i * 48..];
        assert_eq!(&track(1)[..9], &[0, 0, 0, 0, 0, 1, 0x19, 0x40, 2][..]); // 72000, #2
        let lead_out = &cue[396 + 2 * 48..];
        assert_eq!(lead_out.len(), 36);
        assert_eq!(u64::from_be_bytes(lead_out[..8].try_into().unwrap()), total);
        assert_eq!(lead_out[8], LEAD_OUT);
        assert_eq!(lead_out[35], 0, "no index points");
    }

    #[test]
    fn without_songs_or_picture_there_is_no_cuesheet_or_picture_and_bytes_repeat() {
        let a = header(&info(), 10_000, &tags(), &[], None);
        let (blocks, _) = blocks(&a);
        assert_eq!(blocks.len(), 2);
        assert!(blocks[1].1, "the comment is the last block");
        assert_eq!(a, header(&info(), 10_000, &tags(), &[], None));
    }

    #[test]
    fn a_jpeg_s_size_is_read_from_its_frame_header() {
        // SOI, an APP0 of 4 bytes, SOF0: 8 bits, 480 high, 640 wide, 3 components.
        let jpeg = [
            0xFF, 0xD8, 0xFF, 0xE0, 0, 4, 0, 0, 0xFF, 0xC0, 0, 17, 8, 0x01, 0xE0, 0x02, 0x80, 3,
        ];
        let cover = Cover {
            format: CoverFormat::Jpeg,
            bytes: jpeg.to_vec(),
        };
        assert_eq!(dimensions(&cover), (640, 480, 24));
        let broken = Cover {
            format: CoverFormat::Jpeg,
            bytes: jpeg[..10].to_vec(),
        };
        assert_eq!(dimensions(&broken), (0, 0, 0));
    }
}
