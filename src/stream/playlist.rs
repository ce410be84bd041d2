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
            // The skip boundary is the start of the newest segment at least CAN-SKIP-UNTIL
            // seconds from the end: everything before it may go.
            let until = self.can_skip_until();
            skipped = self
                .segments
                .iter()
                .enumerate()
                .rev()
                .scan(0.0, |from_end, (i, segment)| {
                    *from_end += segment.duration();
                    Some((i, *from_end))
                })
                .find(|&(_, from_end)| from_end >= until)
                .map_or(0, |(i, _)| i);
            // Skipped discontinuities included: a client keeps the skipped segments (and
            // their discontinuity count) from its previous copy, as hls.js does.
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stream::segmenter::Part;

    fn show(segments: u64, discontinuity_at: Option<u64>) -> Vec<Segment> {
        (0..segments)
            .map(|msn| Segment {
                msn,
                parts: vec![
                    Part {
                        duration: 0.256,
                        size: 100
                    };
                    4
                ],
                complete: true,
                discontinuity: discontinuity_at == Some(msn),
                program_time_ms: 0,
            })
            .collect()
    }

    fn skipped(segments: &[Segment]) -> usize {
        let text = Playlist {
            segments,
            part_target: 0.256,
            ended: false,
            skip: true,
        }
        .render();
        text.lines()
            .find_map(|l| l.strip_prefix("#EXT-X-SKIP:SKIPPED-SEGMENTS="))
            .map_or(0, |n| n.parse().unwrap())
    }

    #[test]
    fn a_delta_update_skips_all_but_the_last_six_target_durations() {
        // 1.024 s segments, CAN-SKIP-UNTIL = 6 s: the last 6 stay, and the one crossing it.
        assert_eq!(skipped(&show(100, None)), 100 - 6);
        assert_eq!(skipped(&show(5, None)), 0);
    }

    #[test]
    fn a_delta_update_skips_old_discontinuities_and_keeps_recent_ones() {
        // A publisher that reconnected early must not make every delta a full playlist.
        assert_eq!(skipped(&show(100, Some(40))), 100 - 6);
        let recent = Playlist {
            segments: &show(100, Some(97)),
            part_target: 0.256,
            ended: false,
            skip: true,
        }
        .render();
        assert!(recent.contains("#EXT-X-DISCONTINUITY\n"), "{recent}");
    }
}
