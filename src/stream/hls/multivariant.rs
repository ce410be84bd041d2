//! The multivariant playlist (issue 32): one per listening session, naming each
//! rendition's media playlist with what a player needs to choose between them —
//! `BANDWIDTH` (the peak segment bit rate, RFC 8216 §4.3.4.2), `AVERAGE-BANDWIDTH` and
//! `CODECS`. m3u8-rs writes it. Audio only, every part independent (each AAC frame
//! decodes on its own), so the playlist says `EXT-X-INDEPENDENT-SEGMENTS`.

use m3u8_rs::{MasterPlaylist, VariantStream};

use crate::stream::hls::track::Segment;

/// AAC-LC as RFC 6381 names it: every AAC rendition of the ladder.
pub const AAC_LC: &str = "mp4a.40.2";

/// FLAC in ISO BMFF, as its encapsulation spec names it for `CODECS`: the lossless
/// rendition.
pub const FLAC: &str = "fLaC";

/// A rendition's bit rates in bit/s, as the multivariant playlist states them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bandwidth {
    pub peak: u64,
    pub average: u64,
}

impl Bandwidth {
    /// From the complete segments written so far (their fMP4 bytes, container included,
    /// as players download them); before the first one, the encoder's `nominal_kbps` for
    /// both.
    pub fn of(segments: &[Segment], nominal_kbps: u32) -> Self {
        let (mut peak, mut bytes, mut seconds) = (0u64, 0u64, 0f64);
        for segment in segments.iter().filter(|s| s.complete) {
            let duration = segment.duration();
            if duration <= 0.0 {
                continue;
            }
            let size: u64 = segment.parts.iter().map(|p| p.size as u64).sum();
            peak = peak.max((size as f64 * 8.0 / duration).ceil() as u64);
            bytes += size;
            seconds += duration;
        }
        if seconds == 0.0 {
            let nominal = u64::from(nominal_kbps) * 1000;
            return Self {
                peak: nominal,
                average: nominal,
            };
        }
        Self {
            peak,
            average: (bytes as f64 * 8.0 / seconds).round() as u64,
        }
    }
}

/// One rendition as listed: its media playlist's (signed) URI, bit rates and codecs.
#[derive(Debug, Clone)]
pub struct Variant {
    pub uri: String,
    pub bandwidth: Bandwidth,
    pub codecs: &'static str,
}

/// The multivariant playlist listing `variants` in their order (hls.js starts with the
/// first one its bandwidth estimate affords, so the caller lists the standard rendition
/// first).
pub fn render(variants: Vec<Variant>) -> String {
    let playlist = MasterPlaylist {
        independent_segments: true,
        variants: (variants.into_iter())
            .map(|v| VariantStream {
                uri: v.uri,
                bandwidth: v.bandwidth.peak,
                average_bandwidth: Some(v.bandwidth.average),
                codecs: Some(v.codecs.to_owned()),
                ..VariantStream::default()
            })
            .collect(),
        ..MasterPlaylist::default()
    };
    let mut text = Vec::with_capacity(128);
    playlist
        .write_to(&mut text)
        .expect("writing to a Vec cannot fail");
    String::from_utf8(text).expect("m3u8-rs writes UTF-8 from UTF-8")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stream::hls::track::Part;

    fn segment(msn: u64, parts: &[(f64, usize)], complete: bool) -> Segment {
        Segment {
            msn,
            parts: (parts.iter())
                .map(|&(duration, size)| Part { duration, size })
                .collect(),
            complete,
            discontinuity: false,
            program_time_ms: 0,
        }
    }

    #[test]
    fn before_a_complete_segment_the_nominal_rate_stands_for_both() {
        let open = [segment(0, &[(0.25, 4_000)], false)];
        let nominal = Bandwidth {
            peak: 128_000,
            average: 128_000,
        };
        assert_eq!(Bandwidth::of(&open, 128), nominal);
        assert_eq!(Bandwidth::of(&[], 128), nominal);
    }

    #[test]
    fn the_peak_is_the_densest_complete_segment_and_the_average_is_over_all() {
        let segments = [
            // 16,000 bytes in 1 s: 128 kbit/s.
            segment(0, &[(0.5, 8_000), (0.5, 8_000)], true),
            // 20,000 bytes in 0.8 s: 200 kbit/s.
            segment(1, &[(0.4, 10_000), (0.4, 10_000)], true),
            // Still being written: not counted.
            segment(2, &[(0.25, 90_000)], false),
        ];
        let bandwidth = Bandwidth::of(&segments, 128);
        assert_eq!(bandwidth.peak, 200_000);
        // 36,000 bytes in 1.8 s.
        assert_eq!(bandwidth.average, 160_000);
    }

    #[test]
    fn the_playlist_parses_back_with_every_rendition_in_order() {
        let variants = vec![
            Variant {
                uri: "standard/index.m3u8?sig=a".into(),
                bandwidth: Bandwidth {
                    peak: 140_000,
                    average: 131_000,
                },
                codecs: AAC_LC,
            },
            Variant {
                uri: "saver/index.m3u8?sig=a".into(),
                bandwidth: Bandwidth {
                    peak: 56_000,
                    average: 50_000,
                },
                codecs: AAC_LC,
            },
        ];
        let text = render(variants);
        let parsed = m3u8_rs::parse_master_playlist_res(text.as_bytes()).expect("parses");
        assert!(parsed.independent_segments);
        let seen: Vec<_> = (parsed.variants.iter())
            .map(|v| {
                let codecs = v.codecs.as_deref();
                (v.uri.as_str(), v.bandwidth, v.average_bandwidth, codecs)
            })
            .collect();
        assert_eq!(
            seen,
            [
                (
                    "standard/index.m3u8?sig=a",
                    140_000,
                    Some(131_000),
                    Some(AAC_LC)
                ),
                ("saver/index.m3u8?sig=a", 56_000, Some(50_000), Some(AAC_LC)),
            ]
        );
    }
}
