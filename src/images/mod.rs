//! Uploaded pictures (concert images, avatars). A file is judged by its content (PNG,
//! JPEG, WebP), refused from its header when it has too many pixels, decoded under a
//! memory cap and a few at a time, then RE-ENCODED: only the new file is stored, so no
//! EXIF (places, device serials) or other metadata, and nothing appended after the
//! image (a polyglot's second life), ever reaches a reader.

mod store;

pub use store::record_on_row;

use std::io::Cursor;
use std::path::{Path, PathBuf};
use std::time::Duration;

use image::codecs::jpeg::JpegEncoder;
use image::{DynamicImage, ImageDecoder, ImageError, ImageFormat, ImageReader, Limits};
use tokio::sync::Semaphore;

use crate::error::{Error, Result};
use crate::i18n::{Arg, Msg};

/// At most this many pixels (4096 × 4096, 16.7 MP: 64 MiB as RGBA) ...
pub const MAX_PIXELS: u64 = 4096 * 4096;
/// ... and no side longer than this (a wide banner is fine, a 1 × 16M strip is not).
pub const MAX_SIDE: u32 = 8192;
/// What the decoder may allocate in all (a 16-bit RGBA image at the pixel cap is 128 MiB).
const MAX_ALLOC: u64 = 160 * 1024 * 1024;
/// Decodes at once, across both kinds of upload: with the cap above, at most ~0.5 GiB.
const DECODE_SLOTS: usize = 2;
/// How long an upload waits for a slot before the server says it is busy (503).
const QUEUE_WAIT: Duration = Duration::from_secs(5);
const JPEG_QUALITY: u8 = 88;

static SLOTS: Semaphore = Semaphore::const_new(DECODE_SLOTS);

/// The re-encoded file and its media type.
pub struct Reencoded {
    pub bytes: Vec<u8>,
    pub media_type: &'static str,
}

fn unsupported() -> Error {
    Error::UnsupportedMediaType(Msg::FileTypeIncorrect.into())
}

fn too_many_pixels() -> Error {
    Error::unprocessable(
        Msg::ImageTooManyPixels
            .with("width", 4096u32)
            .with("height", 4096u32)
            .with("megapixels", Arg::figure("16.7")),
    )
}

fn decode_error(err: ImageError) -> Error {
    match err {
        ImageError::Limits(_) => too_many_pixels(),
        _ => Error::unprocessable(Msg::ImageUnreadable),
    }
}

/// Check, decode and re-encode an upload; `also` runs on the decoded picture in the same
/// slot (a thumbnail). Waits briefly for a slot, then answers 503 (`Busy`).
pub async fn reencode<T: Send + 'static>(
    bytes: Vec<u8>,
    also: impl FnOnce(&DynamicImage) -> Result<T> + Send + 'static,
) -> Result<(Reencoded, T)> {
    let format = match infer::get(&bytes).map(|k| k.mime_type()) {
        Some("image/png") => ImageFormat::Png,
        Some("image/jpeg") => ImageFormat::Jpeg,
        Some("image/webp") => ImageFormat::WebP,
        _ => return Err(unsupported()),
    };
    let permit = take_slot(&SLOTS, QUEUE_WAIT).await?;
    let result = tokio::task::spawn_blocking(move || {
        let picture = decode(&bytes, format)?;
        drop(bytes);
        let encoded = encode(&picture, format)?;
        let extra = also(&picture)?;
        Ok((encoded, extra))
    })
    .await
    .map_err(Error::internal)?;
    drop(permit);
    result
}

/// Where the pictures of one thing live: `<data>/<kind>/<id>` (ids are UUIDs we made;
/// only safe characters are kept all the same).
pub fn folder(data_dir: &Path, kind: &str, id: &str) -> PathBuf {
    let safe: String = id
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
        .collect();
    data_dir.join(kind).join(safe)
}

/// The picture in a folder (its media type is kept by its owner's row).
pub const PICTURE: &str = "image";
/// Its thumbnail, a JPEG in every case.
pub const THUMBNAIL: &str = "thumb.jpg";
/// How wide a thumbnail is (a card's picture on a high-density screen).
const THUMB_WIDTH: u32 = 480;

/// Check and re-encode an upload, then write it and a JPEG thumbnail into `folder`, each
/// replaced at once (a reader never gets half a file); answers the media type.
pub async fn store_with_thumbnail(folder: PathBuf, bytes: Vec<u8>) -> Result<&'static str> {
    let (picture, thumb) = reencode(bytes, |decoded| {
        // `thumbnail` scales up as well as down: a picture that already fits is kept at
        // its size (a 1×1 upload made a 480×480 JPEG, over a second in a debug build).
        let fits = decoded.width() <= THUMB_WIDTH && decoded.height() <= THUMB_WIDTH * 2;
        let thumb = if fits {
            decoded.to_rgb8()
        } else {
            decoded.thumbnail(THUMB_WIDTH, THUMB_WIDTH * 2).to_rgb8()
        };
        let mut out = Cursor::new(Vec::new());
        thumb
            .write_to(&mut out, ImageFormat::Jpeg)
            .map_err(Error::internal)?;
        Ok(out.into_inner())
    })
    .await?;
    tokio::task::spawn_blocking(move || {
        std::fs::create_dir_all(&folder).map_err(Error::internal)?;
        write_atomically(&folder.join(PICTURE), &picture.bytes)?;
        write_atomically(&folder.join(THUMBNAIL), &thumb)
    })
    .await
    .map_err(Error::internal)??;
    Ok(picture.media_type)
}

fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    let partial = path.with_extension("partial");
    std::fs::write(&partial, bytes).map_err(Error::internal)?;
    std::fs::rename(&partial, path).map_err(Error::internal)
}

/// The picture (or with `thumb`, its thumbnail) from `folder` as an HTTP answer, with
/// the media type its owner's row keeps; a missing file is `missing`.
pub async fn serve(
    folder: &Path,
    media_type: &str,
    thumb: bool,
    cache: &'static str,
    missing: impl FnOnce() -> Error,
) -> Result<axum::response::Response> {
    use axum::http::header;
    let (path, media_type) = if thumb {
        (folder.join(THUMBNAIL), "image/jpeg")
    } else {
        (folder.join(PICTURE), media_type)
    };
    let bytes = tokio::fs::read(path).await.map_err(|_| missing())?;
    axum::response::Response::builder()
        .header(header::CONTENT_TYPE, media_type)
        .header(header::CACHE_CONTROL, cache)
        .header("x-content-type-options", "nosniff")
        .body(axum::body::Body::from(bytes))
        .map_err(Error::internal)
}

async fn take_slot(slots: &Semaphore, wait: Duration) -> Result<tokio::sync::SemaphorePermit<'_>> {
    tokio::time::timeout(wait, slots.acquire())
        .await
        .map_err(|_| Error::Busy)?
        .map_err(|_| Error::Busy)
}

/// Read the header, refuse too many pixels, then decode under the allocation cap with the
/// EXIF orientation applied (the EXIF itself is not kept).
fn decode(bytes: &[u8], format: ImageFormat) -> Result<DynamicImage> {
    let mut limits = Limits::default();
    limits.max_image_width = Some(MAX_SIDE);
    limits.max_image_height = Some(MAX_SIDE);
    limits.max_alloc = Some(MAX_ALLOC);
    let mut reader = ImageReader::with_format(Cursor::new(bytes), format);
    reader.limits(limits);
    let mut decoder = reader.into_decoder().map_err(decode_error)?;
    let (width, height) = decoder.dimensions();
    if width == 0 || height == 0 {
        return Err(Error::unprocessable(Msg::ImageUnreadable));
    }
    if u64::from(width) * u64::from(height) > MAX_PIXELS {
        return Err(too_many_pixels());
    }
    let orientation = decoder.orientation().ok();
    let mut picture = DynamicImage::from_decoder(decoder).map_err(decode_error)?;
    if let Some(orientation) = orientation {
        picture.apply_orientation(orientation);
    }
    Ok(picture)
}

/// PNG stays PNG (lossless, alpha kept), JPEG stays JPEG; WebP becomes PNG when it has
/// transparency and JPEG otherwise (the `image` WebP encoder is lossless only).
fn encode(picture: &DynamicImage, from: ImageFormat) -> Result<Reencoded> {
    let as_png =
        from == ImageFormat::Png || (from == ImageFormat::WebP && picture.color().has_alpha());
    let mut out = Cursor::new(Vec::new());
    let media_type = if as_png {
        let picture = match picture {
            DynamicImage::ImageRgb32F(_) => DynamicImage::ImageRgb8(picture.to_rgb8()),
            DynamicImage::ImageRgba32F(_) => DynamicImage::ImageRgba8(picture.to_rgba8()),
            _ => picture.clone(),
        };
        picture
            .write_to(&mut out, ImageFormat::Png)
            .map_err(Error::internal)?;
        "image/png"
    } else {
        let encoder = JpegEncoder::new_with_quality(&mut out, JPEG_QUALITY);
        let flat = if picture.color().has_color() {
            DynamicImage::ImageRgb8(picture.to_rgb8())
        } else {
            DynamicImage::ImageLuma8(picture.to_luma8())
        };
        flat.write_with_encoder(encoder).map_err(Error::internal)?;
        "image/jpeg"
    };
    Ok(Reencoded {
        bytes: out.into_inner(),
        media_type,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn png(width: u32, height: u32) -> Vec<u8> {
        let mut out = Cursor::new(Vec::new());
        image::GrayImage::new(width, height)
            .write_to(&mut out, ImageFormat::Png)
            .unwrap();
        out.into_inner()
    }

    #[tokio::test]
    async fn a_picture_over_the_pixel_cap_is_refused_and_one_at_it_is_kept() {
        let refused = reencode(png(4097, 4096), |_| Ok(())).await;
        assert!(matches!(refused, Err(Error::Unprocessable(_))));
        let refused = reencode(png(MAX_SIDE + 1, 1), |_| Ok(())).await;
        assert!(matches!(refused, Err(Error::Unprocessable(_))));
        let (kept, size) = reencode(png(300, 200), |p| Ok((p.width(), p.height())))
            .await
            .unwrap();
        assert_eq!(kept.media_type, "image/png");
        assert_eq!(size, (300, 200));
    }

    #[tokio::test]
    async fn a_thumbnail_is_never_larger_than_its_picture() {
        let dir = tempfile::tempdir().unwrap();
        for ((width, height), thumb) in [((2, 1), (2, 1)), ((1200, 600), (480, 240))] {
            let folder = dir.path().join(format!("{width}x{height}"));
            store_with_thumbnail(folder.clone(), png(width, height))
                .await
                .unwrap();
            let made = image::open(folder.join(THUMBNAIL)).unwrap();
            assert_eq!((made.width(), made.height()), thumb, "{width}×{height}");
        }
    }

    #[tokio::test]
    async fn an_opaque_webp_becomes_a_jpeg() {
        let mut webp = Cursor::new(Vec::new());
        image::RgbImage::new(8, 8)
            .write_to(&mut webp, ImageFormat::WebP)
            .unwrap();
        let (kept, ()) = reencode(webp.into_inner(), |_| Ok(())).await.unwrap();
        assert_eq!(kept.media_type, "image/jpeg");
        assert!(image::load_from_memory_with_format(&kept.bytes, ImageFormat::Jpeg).is_ok());
    }

    #[tokio::test]
    async fn uploads_wait_briefly_for_a_slot_then_the_server_is_busy() {
        let slots = Semaphore::new(1);
        let wait = Duration::from_millis(20);
        let held = take_slot(&slots, wait).await.unwrap();
        assert!(matches!(take_slot(&slots, wait).await, Err(Error::Busy)));
        drop(held);
        assert!(take_slot(&slots, wait).await.is_ok());
    }
}
