//! The set to keep (issue 32): after the show, a ticket holder downloads the recording as
//! one `.m4a` file, the songs (markers) as chapters, the concert's picture as its cover.
//!
//! The file is made once per show as soon as it ends ([`spawn_maker`]: every instance
//! hears the end, its own or told over the journal), from the recording on this
//! instance's disk (every instance has its own copy: the journal brings each rendition's
//! frames), so the first listener to ask does not wait for it. It lives in the show's
//! folder, so retention deletes it with the recording. Its name carries a digest of what
//! went into it (the rendition and its length, the tags, the chapters, the picture's
//! version), all known without reading the disk: a request looks for that name and
//! serves it. A song renamed or a new picture after the show makes a new file on the next
//! request (which waits for it) and the old one is deleted. Every instance writes the
//! same bytes from the same inputs (nothing depends on the clock), so a listener gets the
//! same file whichever instance answers.
//!
//! `recording.flac` ([`Kind::Flac`]) is for a show with a lossless rendition: its frames
//! byte for byte in a native FLAC file with the songs as a CUESHEET and as chapters
//! ([`lossless`] reads the rendition's folder, `codecs::flac_file` writes the file).

pub mod http;
pub mod lossless;

use std::io::Write;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::error::{Error, Result};
use crate::events::model::EventRow;
use crate::i18n::Msg;
use crate::state::AppState;
use crate::stream::codecs::fmp4;
use crate::stream::codecs::ladder::Rendition;
use crate::stream::codecs::m4a::{self, Chapter, Cover, CoverFormat, Tags};
use crate::stream::hls::renditions::{Lane, dir_of};
use crate::stream::hls::segmenter::Segmenter;
use crate::stream::hls::track::part_file;
use crate::stream::show::hub::Show;

/// What a download is made as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// AAC in MP4 with chapters, tags and cover art.
    M4a,
    /// FLAC with a cue sheet, chapters, tags and cover art, from the lossless rendition.
    Flac,
}

impl Kind {
    fn extension(self) -> &'static str {
        match self {
            Self::M4a => "m4a",
            Self::Flac => "flac",
        }
    }

    pub fn content_type(self) -> &'static str {
        match self {
            Self::M4a => "audio/mp4",
            Self::Flac => "audio/flac",
        }
    }
}

/// The folder of the show's lossless rendition, whether or not it exists (a show without
/// one has no `init.mp4` there).
fn lossless_dir(show_dir: &Path) -> PathBuf {
    Lane::Lossless.dir(show_dir)
}

/// Whether the show has a lossless recording: its folder's init segment is FLAC's.
fn has_lossless(show_dir: &Path) -> bool {
    std::fs::read(lossless_dir(show_dir).join("init.mp4"))
        .is_ok_and(|init| fmp4::flac_stream_info(&init).is_some())
}

/// Whether the show's set can be made as FLAC: it has a lossless recording on this
/// instance's disk, the same check [`recording`] makes before a [`Kind::Flac`] (so the
/// stage offers `recording.flac` exactly when it would be answered).
pub async fn has_lossless_set(app: &AppState, event_id: &str) -> bool {
    let dir = app.hub.show(event_id).dir().to_owned();
    tokio::task::spawn_blocking(move || has_lossless(&dir))
        .await
        .unwrap_or(false)
}

/// A made file, ready to serve.
#[derive(Debug, Clone)]
pub struct Made {
    pub path: PathBuf,
    /// What a browser saves it as: "Artist – Title (date).m4a".
    pub file_name: String,
}

/// The rendition a download is made from: the encoder's own AAC when players are offered
/// it (AAC-LC above the standard rendition: the best the show has, never encoded twice),
/// else the standard rendition (every show has it).
fn best(show: &Show) -> Rendition {
    let source = show
        .renditions()
        .into_iter()
        .any(|r| r.rendition == Rendition::Source && r.listed());
    if source {
        Rendition::Source
    } else {
        Rendition::Standard
    }
}

/// Make the set of every show as it ends, one at a time, in the background: on every
/// instance, which each serve their own copy.
pub fn spawn_maker(app: AppState) {
    let mut ended = app.hub.ended_shows();
    tokio::spawn(async move {
        loop {
            let event_id = match ended.recv().await {
                Ok(id) => id,
                // Missed while busy: those are made on their first request.
                Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => continue,
                Err(tokio::sync::broadcast::error::RecvError::Closed) => return,
            };
            let event = match crate::events::store::by_id(&app.db, &event_id).await {
                Ok(Some(event)) => event,
                Ok(None) => continue,
                Err(err) => {
                    tracing::warn!(event = %event_id, error = %err, "reading an ended concert failed");
                    continue;
                }
            };
            let lossless = has_lossless(app.hub.show(&event.id).dir());
            for kind in [Kind::M4a, Kind::Flac] {
                if kind == Kind::Flac && !lossless {
                    continue;
                }
                match recording(&app, &event, kind).await {
                    Ok(made) => {
                        tracing::info!(event = %event_id, path = %made.path.display(), "the set to keep is made")
                    }
                    Err(err) => {
                        tracing::warn!(event = %event_id, error = %err, "making the set to keep failed")
                    }
                }
            }
        }
    });
}

/// The show's recording as a file of `kind`: made now if it is not there yet (one
/// making at a time, here and on any instance sharing the disk), else the one made
/// before. Refused while the show has not ended (409) or when nothing was recorded (404).
pub async fn recording(app: &AppState, event: &EventRow, kind: Kind) -> Result<Made> {
    let show = app.hub.show(&event.id);
    let status = show.status();
    if !status.ended {
        return Err(Error::conflict(Msg::SetAfterTheShow));
    }
    if status.segments == 0 {
        return Err(Error::not_found(Msg::SetNotRecorded));
    }
    let show_dir = show.dir().to_owned();
    // The recording's length for the file's name, known without reading a frame: the
    // frames the show holds for an AAC rendition; the lossless folder's part files (the
    // show has ended, so they no longer change).
    let (rendition, frames) = match kind {
        Kind::M4a => {
            let rendition = best(&show);
            let frames = show
                .frames_of(rendition)
                .ok_or_else(|| Error::not_found(Msg::SetNotRecorded))?;
            (Some(rendition), frames)
        }
        Kind::Flac => {
            let dir = show_dir.clone();
            let parts = tokio::task::spawn_blocking(move || {
                has_lossless(&dir).then(|| lossless::part_count(&lossless_dir(&dir)))
            })
            .await
            .map_err(Error::internal)?
            .ok_or_else(|| Error::not_found(Msg::SetNotLossless))?
            .map_err(Error::internal)?;
            (None, parts)
        }
    };
    let markers = crate::stream::markers::store::of_event(&app.db, &event.id).await?;
    let chapters: Vec<Chapter> = markers
        .into_iter()
        .filter(|m| m.at_ms >= 0 && (m.at_ms as f64) < status.recorded_seconds * 1000.0)
        .map(|m| Chapter {
            start_ms: m.at_ms,
            title: m.title,
        })
        .collect();
    let date = crate::db::iso8601(event.details.starts_at);
    let tags = Tags {
        title: event.details.title.clone(),
        artist: event.details.artist_name.clone(),
        date: date.get(..10).unwrap_or(&date).to_owned(),
        created_ms: event.details.starts_at,
    };
    let picture = cover_of(app, event).await;
    let inputs = Inputs {
        kind,
        rendition,
        tags,
        chapters,
        cover: picture,
        image_version: event.image_version,
    };
    let name = file_name(&inputs.tags, kind);
    // Made already (the usual case after the show): one look at the folder.
    let target = show_dir.join(format!(
        "recording-{}.{}",
        inputs.digest(frames),
        kind.extension()
    ));
    if tokio::fs::try_exists(&target).await.unwrap_or(false) {
        return Ok(Made {
            path: target,
            file_name: name,
        });
    }
    let path = tokio::task::spawn_blocking(move || make(&show_dir, &inputs, frames))
        .await
        .map_err(Error::internal)?
        .map_err(Error::internal)?;
    Ok(Made {
        path,
        file_name: name,
    })
}

/// The concert's picture as cover art: the picture itself when it is JPEG or PNG (what
/// `covr` holds), else its JPEG thumbnail; none without a picture.
async fn cover_of(app: &AppState, event: &EventRow) -> Option<Cover> {
    let media_type = event.image_type.as_deref()?;
    let dir = crate::events::image::dir(&app.config.data_dir, &event.id);
    let (file, format) = match media_type {
        "image/jpeg" => (crate::images::PICTURE, CoverFormat::Jpeg),
        "image/png" => (crate::images::PICTURE, CoverFormat::Png),
        _ => (crate::images::THUMBNAIL, CoverFormat::Jpeg),
    };
    let bytes = tokio::fs::read(dir.join(file)).await.ok()?;
    Some(Cover { format, bytes })
}

/// Everything a file is made of.
struct Inputs {
    kind: Kind,
    /// The AAC rendition an `.m4a` is made from (`None`: the lossless one).
    rendition: Option<Rendition>,
    tags: Tags,
    chapters: Vec<Chapter>,
    cover: Option<Cover>,
    image_version: Option<i64>,
}

impl Inputs {
    /// A digest of the inputs and the recording's length: the file's name.
    fn digest(&self, frames: u64) -> String {
        let mut hash = Sha256::new();
        let t = &self.tags;
        let head = format!(
            "encore set v1\n{}\n{}\n{frames}\n{}\n{}\n{}\n{}\n{:?}\n",
            self.kind.extension(),
            self.rendition.map_or("lossless", Rendition::name),
            t.title,
            t.artist,
            t.date,
            t.created_ms,
            self.image_version,
        );
        hash.update(head.as_bytes());
        for chapter in &self.chapters {
            hash.update(format!("{} {}\n", chapter.start_ms, chapter.title).as_bytes());
        }
        if let Some(cover) = &self.cover {
            hash.update(&cover.bytes);
        }
        let digest = hash.finalize();
        digest[..8].iter().fold(String::new(), |mut hex, b| {
            use std::fmt::Write;
            let _ = write!(hex, "{b:02x}");
            hex
        })
    }
}

/// The part files of a rendition's recording, in order.
fn parts(dir: &Path, segmenter: &Segmenter) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for segment in segmenter.segments() {
        for part in 0..segment.parts.len() as u32 {
            files.push(dir.join(part_file(segment.msn, part)));
        }
    }
    files
}

/// Where each frame of a part file is in it: (offset, length).
fn frames_of(bytes: &[u8], file: &Path) -> std::io::Result<Vec<(usize, usize)>> {
    let samples = fmp4::samples(bytes)
        .ok_or_else(|| std::io::Error::other(format!("not a fragment: {}", file.display())))?;
    let base = bytes.as_ptr() as usize;
    Ok(samples
        .iter()
        .map(|s| (s.as_ptr() as usize - base, s.len()))
        .collect())
}

/// Make the file of a recording of `frames` frames unless it is there: under an
/// exclusive lock on the show's folder, so two requests (or two instances on one disk)
/// never make it at once; the second finds the first's file. Written beside and renamed,
/// so a reader never sees half a file.
fn make(show_dir: &Path, inputs: &Inputs, frames: u64) -> std::io::Result<PathBuf> {
    let ext = inputs.kind.extension();
    let target = show_dir.join(format!("recording-{}.{ext}", inputs.digest(frames)));
    let _lock = Lock::take(&show_dir.join("recording.lock"))?;
    if target.exists() {
        return Ok(target); // made while this one waited
    }
    let partial = target.with_extension(format!("{ext}.partial"));
    match inputs.rendition {
        Some(rendition) => make_m4a(&dir_of(show_dir, rendition), inputs, frames, &partial)?,
        None => make_flac(&lossless_dir(show_dir), inputs, &partial)?,
    }
    std::fs::rename(&partial, &target)?;
    // Files of this kind made from older inputs (a song renamed since, say) are of no
    // more use; the other kind's file stays.
    for entry in std::fs::read_dir(show_dir)?.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with("recording-")
            && name.ends_with(&format!(".{ext}"))
            && entry.path() != target
        {
            let _ = std::fs::remove_file(entry.path());
        }
    }
    Ok(target)
}

/// The FLAC file of the lossless folder `source`, written to `partial`.
fn make_flac(source: &Path, inputs: &Inputs, partial: &Path) -> std::io::Result<()> {
    let recording = lossless::read(source)?;
    let mut out = std::io::BufWriter::new(std::fs::File::create(partial)?);
    let written = lossless::write(
        &recording,
        &inputs.tags,
        &inputs.chapters,
        inputs.cover.as_ref(),
        &mut out,
    );
    if let Err(err) = written {
        let _ = std::fs::remove_file(partial);
        return Err(err);
    }
    out.into_inner().map_err(|e| e.into_error())?.sync_all()
}

/// The `.m4a` of the AAC rendition in `source`, written to `partial`.
fn make_m4a(source: &Path, inputs: &Inputs, frames: u64, partial: &Path) -> std::io::Result<()> {
    // The recording's log says how long it is without reading a frame; it is what the
    // show holds in memory, or the name would not say what the file holds.
    let segmenter =
        Segmenter::recover(source)?.ok_or_else(|| std::io::Error::other("no recording"))?;
    if segmenter.frames() != frames {
        return Err(std::io::Error::other(
            "the recording on disk disagrees with the show",
        ));
    }
    let frames = frames as usize;
    let files = parts(source, &segmenter);
    // The frames' sizes first (the moov before the mdat needs them), part by part.
    let mut sizes = Vec::with_capacity(frames);
    for file in &files {
        let bytes = std::fs::read(file)?;
        sizes.extend(frames_of(&bytes, file)?.iter().map(|(_, len)| *len as u32));
    }
    if sizes.len() != frames {
        return Err(std::io::Error::other(
            "the recording's parts disagree with its log",
        ));
    }
    let mut out = std::io::BufWriter::new(std::fs::File::create(partial)?);
    let header = m4a::header(
        segmenter.config(),
        &sizes,
        &inputs.tags,
        &inputs.chapters,
        inputs.cover.as_ref(),
    );
    out.write_all(&header)?;
    let mut written = 0usize;
    for file in &files {
        let bytes = std::fs::read(file)?;
        for (at, len) in frames_of(&bytes, file)? {
            out.write_all(&bytes[at..at + len])?;
            written += 1;
        }
    }
    if written != sizes.len() {
        let _ = std::fs::remove_file(partial);
        return Err(std::io::Error::other(
            "the recording changed while it was read",
        ));
    }
    out.into_inner().map_err(|e| e.into_error())?.sync_all()
}

/// An exclusive `flock` on a file, released when dropped (or when the process ends).
struct Lock(std::fs::File);

impl Lock {
    fn take(path: &Path) -> std::io::Result<Self> {
        use std::os::fd::AsRawFd;
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(path)?;
        // SAFETY: flock on a descriptor this function owns; blocks until it is ours.
        if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX) } != 0 {
            return Err(std::io::Error::last_os_error());
        }
        Ok(Self(file))
    }
}

impl Drop for Lock {
    fn drop(&mut self) {
        use std::os::fd::AsRawFd;
        // SAFETY: the descriptor is still open (closed after this).
        unsafe { libc::flock(self.0.as_raw_fd(), libc::LOCK_UN) };
    }
}

/// "Artist – Title (2026-11-27).m4a", without characters a file system refuses.
fn file_name(tags: &Tags, kind: Kind) -> String {
    let stem = format!("{} – {} ({})", tags.artist, tags.title, tags.date);
    let clean: String = stem
        .chars()
        .map(|c| match c {
            '/' | '\\' | ':' | '*' | '?' | '"' | '<' | '>' | '|' => '_',
            c if c.is_control() => '_',
            c => c,
        })
        .collect();
    format!("{}.{}", clean.trim(), kind.extension())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_name_keeps_the_words_and_drops_what_file_systems_refuse() {
        let tags = Tags {
            title: "Live: \"AC/DC\"?".into(),
            artist: "Sigur Rós".into(),
            date: "2026-11-27".into(),
            created_ms: 0,
        };
        assert_eq!(
            file_name(&tags, Kind::M4a),
            "Sigur Rós – Live_ _AC_DC__ (2026-11-27).m4a"
        );
    }

    #[test]
    fn the_digest_changes_with_a_chapter_and_not_without() {
        let inputs = |title: &str| Inputs {
            kind: Kind::M4a,
            rendition: Some(Rendition::Standard),
            tags: Tags::default(),
            chapters: vec![Chapter {
                start_ms: 0,
                title: title.into(),
            }],
            cover: None,
            image_version: None,
        };
        assert_eq!(inputs("One").digest(10), inputs("One").digest(10));
        assert_ne!(inputs("One").digest(10), inputs("Two").digest(10));
        assert_ne!(inputs("One").digest(10), inputs("One").digest(11));
    }
}
