//! LL-HLS media playlists (RFC 8216bis): an EVENT playlist of the whole show with
//! parts for the most recent segments, a preload hint, blocking-reload support and delta
//! updates (`EXT-X-SKIP`). Written by hand: m3u8-rs does not know the LL-HLS tags.

use std::fmt::Write;

use super::segmenter::{Segment, part_file};

pub struct Playlist<'a> {
    pub segments: &'a [Segment],
    pub part_target: f64,
    pub ended: bool,
    /// Skip segments older than CAN-SKIP-UNTIL (a delta update).
    pub skip: bool,
}

/// Parts are listed for segments within this many target durations of the live edge.
const PART_WINDOW_SEGMENTS: usize = 3;

impl Playlist<'_> {
    pub fn target_duration(&self) -> u64 {
        self.segments
            .iter()
            .map(|s| s.duration().round() as u64)
            .max()
            .unwrap_or(1)
            .max(1)
    }

    fn can_skip_until(&self) -> f64 {
        6.0 * self.target_duration() as f64
    }

    pub fn render(&self) -> String {
        let mut out = String::with_capacity(256 + self.segments.len() * 40);
        let target = self.target_duration();
        let _ = writeln!(
            out,
            "#EXTM3U\n#EXT-X-VERSION:9\n#EXT-X-TARGETDURATION:{target}"
        );
        let _ = writeln!(out, "#EXT-X-PLAYLIST-TYPE:EVENT");
        let hold_back = (self.part_target * 3.0 * 1000.0).ceil() / 1000.0;
        let _ = writeln!(
            out,
            "#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK={hold_back:.3},CAN-SKIP-UNTIL={:.1}",
            self.can_skip_until()
        );
        let _ = writeln!(out, "#EXT-X-PART-INF:PART-TARGET={:.5}", self.part_target);
        let _ = writeln!(out, "#EXT-X-MEDIA-SEQUENCE:0\n#EXT-X-MAP:URI=\"init.mp4\"");

        // Delta update: leave out whole segments older than CAN-SKIP-UNTIL from the end.
        let mut skipped = 0;
        if self.skip {
            let mut from_end = 0.0;
            let mut keep = self.segments.len();
            for (i, segment) in self.segments.iter().enumerate().rev() {
                from_end += segment.duration();
                if from_end > self.can_skip_until() {
                    keep = i + 1;
                    break;
                }
                keep = i;
            }
            skipped = keep.min(self.segments.len());
            // Never skip a discontinuity the client must see.
            while skipped > 0 && self.segments[..skipped].iter().any(|s| s.discontinuity) {
                skipped -= 1;
            }
            if skipped > 0 {
                let _ = writeln!(out, "#EXT-X-SKIP:SKIPPED-SEGMENTS={skipped}");
            }
        }

        let with_parts_from = self.segments.len().saturating_sub(PART_WINDOW_SEGMENTS);
        for (i, segment) in self.segments.iter().enumerate().skip(skipped) {
            if segment.discontinuity {
                let _ = writeln!(out, "#EXT-X-DISCONTINUITY");
            }
            if i == skipped || segment.discontinuity {
                let _ = writeln!(
                    out,
                    "#EXT-X-PROGRAM-DATE-TIME:{}",
                    program_date_time(segment.program_time_ms)
                );
            }
            if i >= with_parts_from && !self.ended {
                for (p, part) in segment.parts.iter().enumerate() {
                    let _ = writeln!(
                        out,
                        "#EXT-X-PART:DURATION={:.5},URI=\"{}\",INDEPENDENT=YES",
                        part.duration,
                        part_file(segment.msn, p as u32)
                    );
                }
            }
            if segment.complete {
                let _ = writeln!(
                    out,
                    "#EXTINF:{:.5},\nseg{}.m4s",
                    segment.duration(),
                    segment.msn
                );
            }
        }
        if self.ended {
            let _ = writeln!(out, "#EXT-X-ENDLIST");
        } else {
            let (msn, part) = self.next_part();
            let _ = writeln!(
                out,
                "#EXT-X-PRELOAD-HINT:TYPE=PART,URI=\"{}\"",
                part_file(msn, part)
            );
        }
        out
    }

    /// The part that will come next: (media sequence number, part index).
    pub fn next_part(&self) -> (u64, u32) {
        match self.segments.last() {
            None => (0, 0),
            Some(s) if s.complete => (s.msn + 1, 0),
            Some(s) => (s.msn, s.parts.len() as u32),
        }
    }
}

fn program_date_time(ms: i64) -> String {
    use time::format_description::well_known::Rfc3339;
    time::OffsetDateTime::from_unix_timestamp_nanos(i128::from(ms) * 1_000_000)
        .ok()
        .and_then(|t| t.format(&Rfc3339).ok())
        .unwrap_or_default()
}
