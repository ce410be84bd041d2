//! Concert images: checked by content (PNG, JPEG, WebP), decoded under limits so a
//! crafted file cannot exhaust memory, stored with a JPEG thumbnail.

use std::io::Cursor;
use std::path::{Path, PathBuf};

use image::{ImageFormat, ImageReader, Limits};

use crate::error::{Error, Result};
use crate::i18n::Msg;

pub const MAX_BYTES: usize = 5 * 1024 * 1024;
const MAX_SIDE: u32 = 8000;
const THUMB_WIDTH: u32 = 480;

pub fn dir(data_dir: &Path, event_id: &str) -> PathBuf {
    let safe: String = event_id
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
        .collect();
    data_dir.join("events").join(safe)
}

/// Validate, then write the original and a thumbnail; answers the media type.
pub async fn store(data_dir: &Path, event_id: &str, bytes: Vec<u8>) -> Result<&'static str> {
    let (format, media_type) = match infer::get(&bytes).map(|k| k.mime_type()) {
        Some("image/png") => (ImageFormat::Png, "image/png"),
        Some("image/jpeg") => (ImageFormat::Jpeg, "image/jpeg"),
        Some("image/webp") => (ImageFormat::WebP, "image/webp"),
        _ => return Err(Error::UnsupportedMediaType(Msg::FileTypeIncorrect.into())),
    };
    let folder = dir(data_dir, event_id);
    let target = folder.clone();
    let thumb = tokio::task::spawn_blocking(move || -> Result<Vec<u8>> {
        let mut reader = ImageReader::with_format(Cursor::new(&bytes), format);
        let mut limits = Limits::default();
        limits.max_image_width = Some(MAX_SIDE);
        limits.max_image_height = Some(MAX_SIDE);
        limits.max_alloc = Some(256 * 1024 * 1024);
        reader.limits(limits);
        let decoded = reader
            .decode()
            .map_err(|_| Error::UnsupportedMediaType(Msg::FileTypeIncorrect.into()))?;
        let thumb = decoded.thumbnail(THUMB_WIDTH, THUMB_WIDTH * 2).to_rgb8();
        let mut out = Cursor::new(Vec::new());
        thumb
            .write_to(&mut out, ImageFormat::Jpeg)
            .map_err(Error::internal)?;
        std::fs::create_dir_all(&target).map_err(Error::internal)?;
        write_atomically(&target.join("image"), &bytes)?;
        Ok(out.into_inner())
    })
    .await
    .map_err(Error::internal)??;
    write_atomically(&folder.join("thumb.jpg"), &thumb)?;
    Ok(media_type)
}

fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    let partial = path.with_extension("partial");
    std::fs::write(&partial, bytes).map_err(Error::internal)?;
    std::fs::rename(&partial, path).map_err(Error::internal)
}
