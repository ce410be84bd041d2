//! The built web app: static files, with `index.html` for client-side routes.

use std::path::Path;

use tower_http::services::{ServeDir, ServeFile};

/// A 200 with index.html (not a 404) for any client route such as `/auth/login`;
/// `.gz` siblings written by the web build are served to clients that accept gzip.
pub fn service(web_dir: &Path) -> ServeDir<ServeFile> {
    ServeDir::new(web_dir)
        .precompressed_gzip()
        .fallback(ServeFile::new(web_dir.join("index.html")))
}
