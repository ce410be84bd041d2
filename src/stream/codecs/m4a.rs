//! A plain (non-fragmented) MP4 audio file, `.m4a`, for the set to keep (issue 32): one
//! AAC track whose sample table lists every frame, the songs as Nero chapters (`chpl`,
//! which ffmpeg, VLC, mpv and foobar2000 read), and iTunes-style tags and cover art in
//! `moov/udta/meta/ilst`. The `moov` comes before the `mdat` so a player can start while
//! the file downloads. [`header`] writes everything up to the first sample; the caller
//! then writes the frames in order, so a long show is never held in memory.

use crate::stream::codecs::adts::{AacConfig, SAMPLES_PER_FRAME};
use crate::stream::codecs::fmp4::{BoxWriter, TRACK_ID, sample_description, sound_handler};

/// Frames per chunk of the sample table (≈ 1 s at 48 kHz): a few offsets per minute.
const FRAMES_PER_CHUNK: u32 = 48;
/// `chpl` counts its chapters and each title's bytes in one byte.
pub const MAX_CHAPTERS: usize = 255;
const MAX_TITLE_BYTES: usize = 255;
/// Seconds from 1904 (MP4's epoch) to 1970.
const MP4_EPOCH_OFFSET: i64 = 2_082_844_800;

/// A song: where it starts on the recording's timeline and its title.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chapter {
    pub start_ms: i64,
    pub title: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CoverFormat {
    Jpeg,
    Png,
}

#[derive(Debug, Clone)]
pub struct Cover {
    pub format: CoverFormat,
    pub bytes: Vec<u8>,
}

/// What the file says about itself.
#[derive(Debug, Clone, Default)]
pub struct Tags {
    pub title: String,
    pub artist: String,
    /// `YYYY-MM-DD`.
    pub date: String,
    /// Unix ms: the file's creation time (the show's start, so every instance writes the
    /// same bytes).
    pub created_ms: i64,
}

/// Everything before the first frame: `ftyp`, `moov` (with offsets into the `mdat` that
/// follows) and the `mdat` header. `sizes` are the frames' sizes in bytes, in order.
pub fn header(
    config: &AacConfig,
    sizes: &[u32],
    tags: &Tags,
    chapters: &[Chapter],
    cover: Option<&Cover>,
) -> Vec<u8> {
    let media: u64 = sizes.iter().map(|s| u64::from(*s)).sum();
    let large_mdat = media + 8 > u64::from(u32::MAX);
    let mdat_header: u64 = if large_mdat { 16 } else { 8 };
    let ftyp = ftyp();
    // The moov's size does not depend on the offsets' values, only on their width.
    let wide = {
        let probe = moov(config, sizes, tags, chapters, cover, 0, false).len() as u64;
        ftyp.len() as u64 + probe + mdat_header + media > u64::from(u32::MAX)
    };
    let moov_len = moov(config, sizes, tags, chapters, cover, 0, wide).len() as u64;
    let first_sample = ftyp.len() as u64 + moov_len + mdat_header;
    let mut out = ftyp;
    out.extend(moov(
        config,
        sizes,
        tags,
        chapters,
        cover,
        first_sample,
        wide,
    ));
    if large_mdat {
        out.extend_from_slice(&1u32.to_be_bytes());
        out.extend_from_slice(b"mdat");
        out.extend_from_slice(&(media + 16).to_be_bytes());
    } else {
        out.extend_from_slice(&((media + 8) as u32).to_be_bytes());
        out.extend_from_slice(b"mdat");
    }
    out
}

fn ftyp() -> Vec<u8> {
    let mut w = BoxWriter::new();
    w.open(b"ftyp");
    w.bytes(b"M4A ");
    w.u32(0);
    for brand in [b"M4A ", b"mp42", b"isom"] {
        w.bytes(brand);
    }
    w.close();
    w.finish()
}

#[allow(clippy::too_many_arguments)]
fn moov(
    config: &AacConfig,
    sizes: &[u32],
    tags: &Tags,
    chapters: &[Chapter],
    cover: Option<&Cover>,
    first_sample: u64,
    wide_offsets: bool,
) -> Vec<u8> {
    let rate = config.sample_rate();
    let samples = sizes.len() as u64 * u64::from(SAMPLES_PER_FRAME);
    let duration_ms = samples * 1000 / u64::from(rate.max(1));
    let created = (tags.created_ms / 1000 + MP4_EPOCH_OFFSET).max(0) as u64;
    let mut w = BoxWriter::new();
    w.open(b"moov");
    w.open_full(b"mvhd", 1, 0);
    w.u64(created);
    w.u64(created);
    w.u32(1000);
    w.u64(duration_ms);
    w.u32(0x0001_0000); // rate 1.0
    w.u16(0x0100); // volume 1.0
    w.zeros(10);
    w.matrix();
    w.zeros(24);
    w.u32(TRACK_ID + 1);
    w.close();

    w.open(b"trak");
    w.open_full(b"tkhd", 1, 0x0000_0003); // enabled, in movie
    w.u64(created);
    w.u64(created);
    w.u32(TRACK_ID);
    w.u32(0);
    w.u64(duration_ms);
    w.zeros(8);
    w.u16(0); // layer
    w.u16(0); // alternate group
    w.u16(0x0100); // volume
    w.u16(0);
    w.matrix();
    w.u32(0);
    w.u32(0);
    w.close();
    w.open(b"mdia");
    w.open_full(b"mdhd", 1, 0);
    w.u64(created);
    w.u64(created);
    w.u32(rate);
    w.u64(samples);
    w.u16(0x55C4); // "und"
    w.u16(0);
    w.close();
    sound_handler(&mut w);
    sample_table(&mut w, config, sizes, first_sample, wide_offsets);
    w.close(); // minf
    w.close(); // mdia
    w.close(); // trak

    w.open(b"udta");
    chpl(&mut w, chapters);
    meta(&mut w, tags, cover);
    w.close();
    w.close(); // moov
    w.finish()
}

fn sample_table(
    w: &mut BoxWriter,
    config: &AacConfig,
    sizes: &[u32],
    first_sample: u64,
    wide_offsets: bool,
) {
    w.open(b"stbl");
    sample_description(w, config);
    // Every frame lasts the same: one run.
    w.open_full(b"stts", 0, 0);
    if sizes.is_empty() {
        w.u32(0);
    } else {
        w.u32(1);
        w.u32(sizes.len() as u32);
        w.u32(SAMPLES_PER_FRAME);
    }
    w.close();
    // Full chunks of FRAMES_PER_CHUNK, then the rest in a last one.
    let per = FRAMES_PER_CHUNK as usize;
    let full = sizes.len() / per;
    let rest = sizes.len() % per;
    w.open_full(b"stsc", 0, 0);
    let runs: Vec<(u32, u32)> = [
        (full > 0).then_some((1, FRAMES_PER_CHUNK)),
        (rest > 0).then_some((full as u32 + 1, rest as u32)),
    ]
    .into_iter()
    .flatten()
    .collect();
    w.u32(runs.len() as u32);
    for (first_chunk, frames) in runs {
        w.u32(first_chunk);
        w.u32(frames);
        w.u32(1); // sample description index
    }
    w.close();
    w.open_full(b"stsz", 0, 0);
    w.u32(0); // sizes differ
    w.u32(sizes.len() as u32);
    for size in sizes {
        w.u32(*size);
    }
    w.close();
    let mut offset = first_sample;
    let offsets: Vec<u64> = sizes
        .chunks(per)
        .map(|chunk| {
            let at = offset;
            offset += chunk.iter().map(|s| u64::from(*s)).sum::<u64>();
            at
        })
        .collect();
    if wide_offsets {
        w.open_full(b"co64", 0, 0);
        w.u32(offsets.len() as u32);
        for o in offsets {
            w.u64(o);
        }
    } else {
        w.open_full(b"stco", 0, 0);
        w.u32(offsets.len() as u32);
        for o in offsets {
            w.u32(o as u32);
        }
    }
    w.close();
    w.close(); // stbl
}

/// The longest prefix of `text` of at most `max` bytes that ends on a character.
fn cut(text: &str, max: usize) -> &str {
    let mut end = text.len().min(max);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// Nero chapters: version 1, a reserved word, a one-byte count, then each chapter's
/// start in 100 ns units and its title (one length byte).
fn chpl(w: &mut BoxWriter, chapters: &[Chapter]) {
    if chapters.is_empty() {
        return;
    }
    let chapters = &chapters[..chapters.len().min(MAX_CHAPTERS)];
    w.open_full(b"chpl", 1, 0);
    w.u32(0);
    w.u8(chapters.len() as u8);
    for chapter in chapters {
        w.u64(chapter.start_ms.max(0) as u64 * 10_000);
        let title = cut(&chapter.title, MAX_TITLE_BYTES);
        w.u8(title.len() as u8);
        w.bytes(title.as_bytes());
    }
    w.close();
}

/// Well-known data types of an `ilst` item's `data` box.
const UTF8: u32 = 1;
const JPEG: u32 = 13;
const PNG: u32 = 14;

fn item(w: &mut BoxWriter, kind: &[u8; 4], data_type: u32, value: &[u8]) {
    w.open(kind);
    w.open(b"data");
    w.u32(data_type); // version 0 and the type
    w.u32(0); // locale
    w.bytes(value);
    w.close();
    w.close();
}

fn meta(w: &mut BoxWriter, tags: &Tags, cover: Option<&Cover>) {
    w.open_full(b"meta", 0, 0);
    w.open_full(b"hdlr", 0, 0);
    w.u32(0);
    w.bytes(b"mdir");
    w.bytes(b"appl");
    w.zeros(8);
    w.u8(0);
    w.close();
    w.open(b"ilst");
    let text = [
        (b"\xA9nam", tags.title.as_str()),
        (b"\xA9alb", tags.title.as_str()),
        (b"\xA9ART", tags.artist.as_str()),
        (b"aART", tags.artist.as_str()),
        (b"\xA9day", tags.date.as_str()),
        (b"\xA9too", "Encore"),
    ];
    for (kind, value) in text {
        if !value.is_empty() {
            item(w, kind, UTF8, value.as_bytes());
        }
    }
    if let Some(cover) = cover {
        let data_type = match cover.format {
            CoverFormat::Jpeg => JPEG,
            CoverFormat::Png => PNG,
        };
        item(w, b"covr", data_type, &cover.bytes);
    }
    w.close(); // ilst
    w.close(); // meta
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (type, offset of its body, body length) of each box right inside `data[from..to]`.
    fn boxes(data: &[u8], from: usize, to: usize) -> Vec<(String, usize, usize)> {
        let mut out = Vec::new();
        let mut at = from;
        while at + 8 <= to {
            let mut size = u32::from_be_bytes(data[at..at + 4].try_into().unwrap()) as usize;
            let mut header = 8;
            if size == 1 {
                size = u64::from_be_bytes(data[at + 8..at + 16].try_into().unwrap()) as usize;
                header = 16;
            }
            let kind = String::from_utf8_lossy(&data[at + 4..at + 8]).into_owned();
            out.push((kind, at + header, size - header));
            at += size;
        }
        assert_eq!(at, to, "sizes add up to their parent");
        out
    }

    fn find(data: &[u8], path: &[&str]) -> (usize, usize) {
        let (mut from, mut len) = (0, data.len());
        for (depth, name) in path.iter().enumerate() {
            // Full boxes that hold boxes: skip their version and flags.
            let skip = if depth > 0 && path[depth - 1] == "meta" {
                4
            } else {
                0
            };
            let found = boxes(data, from + skip, from + len)
                .into_iter()
                .find(|(k, _, _)| k == name)
                .unwrap_or_else(|| panic!("no {name} in {path:?}"));
            (from, len) = (found.1, found.2);
        }
        (from, len)
    }

    fn config() -> AacConfig {
        AacConfig {
            object_type: 2,
            sample_rate_index: 3, // 48 kHz
            channels: 2,
        }
    }

    fn sample_file(frames: usize) -> (Vec<u8>, Vec<Vec<u8>>) {
        let frames: Vec<Vec<u8>> = (0..frames).map(|i| vec![i as u8; 10 + i % 7]).collect();
        let sizes: Vec<u32> = frames.iter().map(|f| f.len() as u32).collect();
        let tags = Tags {
            title: "Live at the Hall".into(),
            artist: "The Band".into(),
            date: "2026-11-27".into(),
            created_ms: 1_790_000_000_000,
        };
        let chapters = [
            Chapter {
                start_ms: 0,
                title: "Opening".into(),
            },
            Chapter {
                start_ms: 1_500,
                title: "Ballade für Ö".into(),
            },
        ];
        let cover = Cover {
            format: CoverFormat::Png,
            bytes: b"\x89PNG fake".to_vec(),
        };
        let mut file = header(&config(), &sizes, &tags, &chapters, Some(&cover));
        for frame in &frames {
            file.extend_from_slice(frame);
        }
        (file, frames)
    }

    #[test]
    fn the_file_is_ftyp_moov_mdat_and_every_chunk_offset_points_at_its_frames() {
        let (file, frames) = sample_file(100);
        let top: Vec<String> = boxes(&file, 0, file.len())
            .into_iter()
            .map(|b| b.0)
            .collect();
        assert_eq!(top, ["ftyp", "moov", "mdat"]);
        let stbl = ["moov", "trak", "mdia", "minf", "stbl"];
        let kinds: Vec<String> = {
            let (from, len) = find(&file, &stbl);
            boxes(&file, from, from + len)
                .into_iter()
                .map(|b| b.0)
                .collect()
        };
        assert_eq!(kinds, ["stsd", "stts", "stsc", "stsz", "stco"]);
        let mut path = stbl.to_vec();
        path.push("stco");
        let (at, _) = find(&file, &path);
        let count = u32::from_be_bytes(file[at + 4..at + 8].try_into().unwrap()) as usize;
        assert_eq!(count, 3, "48 + 48 + 4 frames");
        let offsets: Vec<usize> = (0..count)
            .map(|i| {
                let o = at + 8 + i * 4;
                u32::from_be_bytes(file[o..o + 4].try_into().unwrap()) as usize
            })
            .collect();
        for (chunk, offset) in offsets.iter().enumerate() {
            let frame = &frames[chunk * 48];
            assert_eq!(&file[*offset..*offset + frame.len()], &frame[..]);
        }
        // stsc: chunks of 48 from chunk 1, then the last chunk of 4.
        path.pop();
        path.push("stsc");
        let (at, _) = find(&file, &path);
        let words: Vec<u32> = (0..7)
            .map(|i| u32::from_be_bytes(file[at + 4 * i..at + 4 * i + 4].try_into().unwrap()))
            .collect();
        assert_eq!(words, [0, 2, 1, 48, 1, 3, 4]);
        // The duration in mdhd: 100 frames of 1024 samples.
        let (at, _) = find(&file, &["moov", "trak", "mdia", "mdhd"]);
        assert_eq!(
            u32::from_be_bytes(file[at + 20..at + 24].try_into().unwrap()),
            48_000
        );
        assert_eq!(
            u64::from_be_bytes(file[at + 24..at + 32].try_into().unwrap()),
            102_400
        );
    }

    #[test]
    fn chapters_are_nero_chpl_in_100_ns_units_and_tags_and_cover_are_in_ilst() {
        let (file, _) = sample_file(10);
        let (at, len) = find(&file, &["moov", "udta", "chpl"]);
        let chpl = &file[at..at + len];
        assert_eq!(chpl[0], 1, "version 1");
        assert_eq!(chpl[8], 2, "two chapters");
        assert_eq!(u64::from_be_bytes(chpl[9..17].try_into().unwrap()), 0);
        assert_eq!(chpl[17] as usize, "Opening".len());
        let second = 18 + "Opening".len();
        assert_eq!(
            u64::from_be_bytes(chpl[second..second + 8].try_into().unwrap()),
            15_000_000
        );
        let title_len = chpl[second + 8] as usize;
        assert_eq!(
            &chpl[second + 9..second + 9 + title_len],
            "Ballade für Ö".as_bytes()
        );

        let (at, len) = find(&file, &["moov", "udta", "meta", "ilst"]);
        let items: Vec<String> = boxes(&file, at, at + len)
            .into_iter()
            .map(|b| b.0)
            .collect();
        assert_eq!(
            items,
            [
                "\u{FFFD}nam",
                "\u{FFFD}alb",
                "\u{FFFD}ART",
                "aART",
                "\u{FFFD}day",
                "\u{FFFD}too",
                "covr"
            ]
        );
        let (at, len) = find(&file, &["moov", "udta", "meta", "ilst", "covr", "data"]);
        assert_eq!(
            u32::from_be_bytes(file[at..at + 4].try_into().unwrap()),
            PNG
        );
        assert_eq!(&file[at + 8..at + len], b"\x89PNG fake");
    }

    #[test]
    fn chapters_beyond_what_chpl_counts_are_left_out_and_long_titles_cut_on_a_character() {
        let chapters: Vec<Chapter> = (0..300)
            .map(|i| Chapter {
                start_ms: i * 1000,
                title: "é".repeat(200),
            })
            .collect();
        let mut w = BoxWriter::new();
        chpl(&mut w, &chapters);
        let bytes = w.finish();
        assert_eq!(bytes[16], 255);
        let title_len = bytes[17 + 8] as usize;
        assert_eq!(title_len, 254, "127 two-byte characters, not half of one");
        assert!(std::str::from_utf8(&bytes[26..26 + title_len]).is_ok());
    }
}
