//! The seam between a lossless rendition's recording and `recording.flac`: a folder of
//! FLAC in fMP4 (`init.mp4` from `fmp4::flac_init_segment`, parts `seg{msn}.{part}.m4s`
//! of `fmp4::timed_fragment`s) read back as the STREAMINFO and the FLAC frames, byte for
//! byte, in order. It knows nothing of how the rendition was made, only the files.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::stream::codecs::flac::{StreamInfo, frame_samples};
use crate::stream::codecs::flac_file;
use crate::stream::codecs::fmp4;
use crate::stream::codecs::m4a::{Chapter, Cover, Tags};

/// A folder of FLAC fMP4 parts: what the file will hold.
#[derive(Debug)]
pub struct LosslessRecording {
    pub info: StreamInfo,
    /// The part files in play order.
    pub parts: Vec<PathBuf>,
    /// Frames and samples (per channel) over every part.
    pub frames: u64,
    pub samples: u64,
}

fn invalid(what: String) -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::InvalidData, what)
}

/// `seg{msn}.{part}.m4s` → (msn, part).
fn part_number(name: &str) -> Option<(u64, u32)> {
    let (msn, part) = name
        .strip_prefix("seg")?
        .strip_suffix(".m4s")?
        .split_once('.')?;
    Some((msn.parse().ok()?, part.parse().ok()?))
}

/// The frames of one part file, each checked against the stream (its header's CRC and
/// block size): a part of anything else is an error, not a silent gap.
fn frames<'a>(
    bytes: &'a [u8],
    file: &Path,
    info: &StreamInfo,
) -> std::io::Result<Vec<(&'a [u8], u32)>> {
    let samples = fmp4::samples(bytes)
        .ok_or_else(|| invalid(format!("not a fragment: {}", file.display())))?;
    samples
        .into_iter()
        .map(|frame| {
            frame_samples(frame, info)
                .map(|n| (frame, n))
                .ok_or_else(|| {
                    invalid(format!(
                        "not a FLAC frame of the stream: {}",
                        file.display()
                    ))
                })
        })
        .collect()
}

/// How many part files the folder holds: what names a made file, cheaply (a listing).
pub fn part_count(dir: &Path) -> std::io::Result<u64> {
    let mut n = 0;
    for entry in std::fs::read_dir(dir)? {
        if part_number(&entry?.file_name().to_string_lossy()).is_some() {
            n += 1;
        }
    }
    Ok(n)
}

/// Read the folder: its init segment's STREAMINFO, its parts in order, and how many
/// frames and samples they hold (one pass over the parts, nothing kept).
pub fn read(dir: &Path) -> std::io::Result<LosslessRecording> {
    let init = std::fs::read(dir.join("init.mp4"))?;
    let info = fmp4::flac_stream_info(&init)
        .ok_or_else(|| invalid(format!("not a FLAC init segment: {}", dir.display())))?;
    let mut numbered = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        if let Some(n) = part_number(&entry.file_name().to_string_lossy()) {
            numbered.push((n, entry.path()));
        }
    }
    numbered.sort();
    let parts: Vec<PathBuf> = numbered.into_iter().map(|(_, p)| p).collect();
    let (mut frame_count, mut samples) = (0u64, 0u64);
    for file in &parts {
        let bytes = std::fs::read(file)?;
        for (_, n) in frames(&bytes, file, &info)? {
            frame_count += 1;
            samples += u64::from(n);
        }
    }
    Ok(LosslessRecording {
        info,
        parts,
        frames: frame_count,
        samples,
    })
}

/// Write the FLAC file of `recording` to `out`: the header, then every part's frames as
/// they are on disk. Fails if the parts changed since [`read`] (a frame more or less).
pub fn write(
    recording: &LosslessRecording,
    tags: &Tags,
    chapters: &[Chapter],
    cover: Option<&Cover>,
    out: &mut impl Write,
) -> std::io::Result<()> {
    let head = flac_file::header(&recording.info, recording.samples, tags, chapters, cover);
    out.write_all(&head)?;
    let mut samples = 0u64;
    for file in &recording.parts {
        let bytes = std::fs::read(file)?;
        for (frame, n) in frames(&bytes, file, &recording.info)? {
            out.write_all(frame)?;
            samples += u64::from(n);
        }
    }
    if samples != recording.samples {
        return Err(std::io::Error::other(
            "the lossless recording changed while it was read",
        ));
    }
    Ok(())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::stream::codecs::flac::{Cutter, OggFlac};
    use crate::stream::codecs::m4a::CoverFormat;
    use crate::stream::test_media::{pcm, run};
    use sha2::{Digest, Sha256};

    /// Pink noise (every bit counts) as a 16-bit stereo WAV of `seconds`, and ffmpeg's
    /// Ogg FLAC of it, in `dir`.
    fn sources(dir: &Path, seconds: u32) -> (PathBuf, Vec<u8>) {
        let wav = dir.join("source.wav");
        run(std::process::Command::new("ffmpeg")
            .args(["-v", "error", "-f", "lavfi", "-i"])
            .arg(format!(
                "anoisesrc=color=pink:sample_rate=48000:amplitude=0.5:duration={seconds}:seed=3"
            ))
            .args(["-ac", "2", "-c:a", "pcm_s16le"])
            .arg(&wav));
        let oga = dir.join("source.oga");
        run(std::process::Command::new("ffmpeg")
            .args(["-v", "error", "-i"])
            .arg(&wav)
            .args(["-c:a", "flac", "-f", "ogg"])
            .arg(&oga));
        (wav, std::fs::read(&oga).unwrap())
    }

    /// A lossless rendition's folder as the live path writes it: ffmpeg's Ogg FLAC
    /// demuxed by `OggFlac`, cut at the AAC parts by `Cutter`, `init.mp4` and one
    /// `timed_fragment` per part, named `seg{msn}.{part}.m4s` (4 parts a segment).
    pub(crate) fn lossless_folder(dir: &Path, ogg_flac: &[u8]) {
        let mut demux = OggFlac::new();
        let frames = demux.push(ogg_flac).frames;
        let info = *demux.info().unwrap();
        std::fs::create_dir_all(dir).unwrap();
        std::fs::write(dir.join("init.mp4"), fmp4::flac_init_segment(&info)).unwrap();
        let mut cut = Cutter::new(12 * 1024);
        let mut parts = Vec::new();
        for f in frames {
            parts.extend(cut.push(f));
        }
        parts.extend(cut.finish());
        for part in parts {
            let samples: Vec<(&[u8], u32)> = part
                .frames
                .iter()
                .map(|f| (f.data.as_ref(), f.samples))
                .collect();
            let name = format!("seg{}.{}.m4s", part.index / 4, part.index % 4);
            let bytes = fmp4::timed_fragment(part.index as u32 + 1, part.start, &samples);
            std::fs::write(dir.join(name), bytes).unwrap();
        }
    }

    fn probe(path: &Path, entries: &str) -> String {
        let out = run(std::process::Command::new("ffprobe")
            .args([
                "-v",
                "error",
                "-show_entries",
                entries,
                "-of",
                "default=nw=1",
            ])
            .arg(path));
        String::from_utf8_lossy(&out).into_owned()
    }

    /// A 16×10 PNG made by ffmpeg, a real image a decoder accepts.
    fn png(dir: &Path) -> Vec<u8> {
        let path = dir.join("cover.png");
        run(std::process::Command::new("ffmpeg")
            .args([
                "-v",
                "error",
                "-f",
                "lavfi",
                "-i",
                "color=c=red:s=16x10",
                "-frames:v",
                "1",
            ])
            .arg(&path));
        std::fs::read(path).unwrap()
    }

    #[test]
    fn a_folder_of_flac_parts_becomes_a_flac_file_players_read_bit_exact() {
        let dir = tempfile::tempdir().unwrap();
        // 11 s: parts past seg9, so "seg10" must sort after "seg9".
        let (wav, oga) = sources(dir.path(), 11);
        let folder = dir.path().join("lossless");
        lossless_folder(&folder, &oga);
        let recording = read(&folder).unwrap();
        assert_eq!(recording.samples, 11 * 48_000);
        assert!(recording.parts.len() > 40);

        let tags = Tags {
            title: "Live at the Hall".into(),
            artist: "Sigur Rós".into(),
            date: "2026-11-27".into(),
            created_ms: 0,
        };
        let chapters = [
            Chapter {
                start_ms: 0,
                title: "Intro".into(),
            },
            Chapter {
                start_ms: 4_000,
                title: "Hoppípolla".into(),
            },
        ];
        let cover = Cover {
            format: CoverFormat::Png,
            bytes: png(dir.path()),
        };
        let mut file = Vec::new();
        write(&recording, &tags, &chapters, Some(&cover), &mut file).unwrap();
        let path = dir.path().join("set.flac");
        std::fs::write(&path, &file).unwrap();

        let tags_read = probe(
            &path,
            "format_tags=title,album,artist,album_artist,date,encoder",
        );
        for line in [
            "TAG:TITLE=Live at the Hall",
            "TAG:ALBUM=Live at the Hall",
            "TAG:ARTIST=Sigur Rós",
            "TAG:DATE=2026-11-27",
        ] {
            assert!(tags_read.contains(line), "{line} in {tags_read}");
        }
        let streams = probe(
            &path,
            "stream=codec_name,width,height:stream_disposition=attached_pic",
        );
        assert!(streams.contains("codec_name=flac"), "{streams}");
        assert!(streams.contains("codec_name=png"), "{streams}");
        assert!(streams.contains("width=16\nheight=10"), "{streams}");
        assert!(streams.contains("DISPOSITION:attached_pic=1"), "{streams}");
        let chapters_read = probe(&path, "chapter=start_time:chapter_tags=title");
        assert!(
            chapters_read.contains("start_time=4.000000"),
            "{chapters_read}"
        );
        assert!(
            chapters_read.contains("TAG:title=Hoppípolla"),
            "{chapters_read}"
        );
        assert_eq!(
            chapters_read.matches("start_time=").count(),
            2,
            "one chapter per song (none for the lead-out): {chapters_read}"
        );
        let duration = probe(&path, "format=duration");
        assert!(duration.contains("duration=11.000000"), "{duration}");

        let (source, ours) = (pcm(&wav, "s16le"), pcm(&path, "s16le"));
        assert_eq!(source.len(), 11 * 48_000 * 4);
        assert_eq!(Sha256::digest(&source), Sha256::digest(&ours));
    }

    #[test]
    fn a_folder_without_a_flac_init_or_with_a_foreign_part_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        assert!(read(dir.path()).is_err(), "no init segment");
        let (_, oga) = sources(dir.path(), 1);
        let folder = dir.path().join("lossless");
        lossless_folder(&folder, &oga);
        assert!(read(&folder).is_ok());
        // An AAC-looking part: a fragment whose samples are not FLAC frames.
        let foreign = fmp4::fragment(99, 0, &[&b"not flac"[..]], 1024);
        std::fs::write(folder.join("seg0.9.m4s"), foreign).unwrap();
        assert!(read(&folder).is_err());
    }

    #[test]
    fn part_names_sort_by_number_not_by_text() {
        assert_eq!(part_number("seg10.2.m4s"), Some((10, 2)));
        assert_eq!(part_number("seg10.m4s"), None);
        assert_eq!(part_number("init.mp4"), None);
    }
}
