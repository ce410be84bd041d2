//! LL-HLS media playlists (RFC 8216bis): an EVENT playlist of the whole show with
//! parts for the most recent segments, a preload hint, blocking-reload support and delta
//! updates (`EXT-X-SKIP`). Written by hand: m3u8-rs does not know the LL-HLS tags.
//!
//! Markers (song titles) are `EXT-X-DATERANGE`s of [`MARKER_CLASS`], dated on the same
//! timeline as the segments' `EXT-X-PROGRAM-DATE-TIME`: a marker `at_ms` into the show is
//! dated `at_ms − start` after the date of the segment it falls in.

use std::fmt::Write;

use crate::stream::hls::track::{Segment, part_file};
use crate::stream::markers::model::Marker;

/// The `CLASS` of a marker's date range: ours, reverse-DNS as the HLS spec asks.
pub const MARKER_CLASS: &str = "org.encore.marker";

pub struct Playlist<'a> {
    pub segments: &'a [Segment],
    pub part_target: f64,
    pub ended: bool,
    /// Skip segments older than CAN-SKIP-UNTIL (a delta update).
    pub skip: bool,
    /// The show's markers, in timeline order.
    pub markers: &'a [Marker],
    /// Date range ids lately removed (markers edited or deleted): a delta update names
    /// them, so a player that keeps the skipped part's date ranges drops them (hls.js does).
    pub removed: &'a [String],
}

/// A marker's date range id: the marker and its last change, so an edit is a new range
/// (the spec wants an id's attributes never to change).
pub fn range_id(marker: &Marker) -> String {
    format!("{}.{}", marker.id, marker.updated_at)
}

/// Where a segment sits: its start on the media timeline (ms from the show's first
/// sample) and its program date-time (ms since the epoch).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Place {
    start_ms: f64,
    date_ms: i64,
}

/// Each segment's place. A segment's date is its anchor's (the first segment, or the
/// first after a discontinuity: the wall clock it was recorded at) plus the audio since
/// the anchor, which is how players extrapolate between `EXT-X-PROGRAM-DATE-TIME` tags;
/// so every date written, and every marker's, agrees with theirs.
fn places(segments: &[Segment]) -> Vec<Place> {
    let mut out = Vec::with_capacity(segments.len());
    let mut start_ms = 0.0;
    let mut anchor = (0.0, 0i64);
    for (i, segment) in segments.iter().enumerate() {
        if i == 0 || segment.discontinuity {
            anchor = (start_ms, segment.program_time_ms);
        }
        out.push(Place {
            start_ms,
            date_ms: anchor.1 + (start_ms - anchor.0).round() as i64,
        });
        start_ms += segment.duration() * 1000.0;
    }
    out
}

/// The segment `at_ms` falls in (the first for a time before it, the last after it).
fn segment_of(places: &[Place], at_ms: i64) -> usize {
    places
        .partition_point(|p| p.start_ms <= at_ms as f64)
        .saturating_sub(1)
}

/// The program date of `at_ms` on the show's timeline.
fn date_of(places: &[Place], at_ms: i64) -> Option<i64> {
    let place = places.get(segment_of(places, at_ms))?;
    Some(place.date_ms + (at_ms as f64 - place.start_ms).round() as i64)
}

/// A quoted-string of the HLS spec cannot hold `"`, CR or LF and has no escape: those
/// (and `%`, and any control character) are percent-encoded, so a player gets the text
/// back with `decodeURIComponent` and no title can end the attribute list or the line.
pub fn quoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' | '%' => {
                let _ = write!(out, "%{:02X}", c as u32);
            }
            c if c.is_control() => {
                let mut buf = [0u8; 4];
                for b in c.encode_utf8(&mut buf).bytes() {
                    let _ = write!(out, "%{b:02X}");
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
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
        let places = places(self.segments);

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
                let _ = write!(out, "#EXT-X-SKIP:SKIPPED-SEGMENTS={skipped}");
                if !self.removed.is_empty() {
                    // Ids are a UUID and a number: no quote or tab to escape.
                    let _ = write!(
                        out,
                        ",RECENTLY-REMOVED-DATERANGES=\"{}\"",
                        self.removed.join("\t")
                    );
                }
                out.push('\n');
            }
        }

        // Every marker in every playlist, delta updates included (no CAN-SKIP-DATERANGES):
        // a player that reloads sees edits and deletions at once. Each is written before
        // the segment it falls in (those of skipped segments before the first one listed).
        let marker_segments: Vec<usize> = self
            .markers
            .iter()
            .map(|m| segment_of(&places, m.at_ms))
            .collect();
        let mut next_marker = 0;

        let with_parts_from = self.segments.len().saturating_sub(PART_WINDOW_SEGMENTS);
        for (i, segment) in self.segments.iter().enumerate().skip(skipped) {
            if segment.discontinuity {
                let _ = writeln!(out, "#EXT-X-DISCONTINUITY");
            }
            if i == skipped || segment.discontinuity {
                let _ = writeln!(
                    out,
                    "#EXT-X-PROGRAM-DATE-TIME:{}",
                    program_date_time(places[i].date_ms)
                );
            }
            let upto = next_marker + marker_segments[next_marker..].partition_point(|&s| s <= i);
            self.write_markers(&mut out, &places, &self.markers[next_marker..upto]);
            next_marker = upto;
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

    /// One `EXT-X-DATERANGE` per marker: its id (with its last change, so an edited
    /// marker is a new range, as the spec wants one id to keep its attributes), our class,
    /// its date, `END-ON-NEXT` (each title lasts until the next), and the title and artist
    /// in `X-` attributes.
    fn write_markers(&self, out: &mut String, places: &[Place], markers: &[Marker]) {
        for marker in markers {
            let Some(date) = date_of(places, marker.at_ms) else {
                continue;
            };
            let _ = write!(
                out,
                "#EXT-X-DATERANGE:ID={},CLASS=\"{MARKER_CLASS}\",START-DATE=\"{}\",END-ON-NEXT=YES,X-AT-MS={},X-TITLE={}",
                quoted(&range_id(marker)),
                program_date_time(date),
                marker.at_ms,
                quoted(&marker.title)
            );
            if let Some(artist) = &marker.artist {
                let _ = write!(out, ",X-ARTIST={}", quoted(artist));
            }
            out.push('\n');
        }
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

/// A date as HLS writes it: RFC 3339 (`2026-11-24T09:00:00.25Z`).
fn program_date_time(ms: i64) -> String {
    crate::db::iso8601(ms)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stream::hls::track::Part;

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

    /// The delta update (`_HLS_skip=YES`) of a live show without markers.
    fn delta(segments: &[Segment]) -> String {
        Playlist {
            segments,
            part_target: 0.256,
            ended: false,
            skip: true,
            markers: &[],
            removed: &[],
        }
        .render()
    }

    fn skipped(segments: &[Segment]) -> usize {
        delta(segments)
            .lines()
            .find_map(|l| l.strip_prefix("#EXT-X-SKIP:SKIPPED-SEGMENTS="))
            .map_or(0, |n| n.split(',').next().unwrap().parse().unwrap())
    }

    fn marker(at_ms: i64, title: &str) -> Marker {
        Marker {
            id: format!("m{at_ms}"),
            event_id: "e".into(),
            at_ms,
            title: title.into(),
            artist: Some("The \"Band\"".into()),
            source: crate::stream::markers::Source::Encoder,
            created_at: 0,
            updated_at: 7,
        }
    }

    /// Percent-decoding, as `decodeURIComponent` does.
    fn decoded(text: &str) -> String {
        let bytes = text.as_bytes();
        let mut out = Vec::new();
        let mut i = 0;
        while i < bytes.len() {
            if bytes[i] == b'%' {
                out.push(u8::from_str_radix(&text[i + 1..i + 3], 16).unwrap());
                i += 3;
            } else {
                out.push(bytes[i]);
                i += 1;
            }
        }
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn a_hostile_title_stays_inside_its_quoted_attribute() {
        let hostile = "Say \"hi\",X-EVIL=1\n#EXT-X-ENDLIST\r100% \u{7}";
        let markers = [marker(1_500, hostile)];
        let text = Playlist {
            segments: &show(4, None),
            part_target: 0.256,
            ended: false,
            skip: false,
            markers: &markers,
            removed: &[],
        }
        .render();
        assert!(
            !text.lines().any(|l| l.starts_with("#EXT-X-ENDLIST")),
            "{text}"
        );
        assert_eq!(
            text.lines()
                .filter(|l| l.starts_with("#EXT-X-DATERANGE"))
                .count(),
            1
        );
        let line = text
            .lines()
            .find(|l| l.starts_with("#EXT-X-DATERANGE:"))
            .expect("a date range");
        let title = line
            .split_once("X-TITLE=\"")
            .and_then(|(_, rest)| rest.split_once('"'))
            .map(|(title, _)| title)
            .unwrap();
        assert_eq!(decoded(title), hostile);
        assert!(line.ends_with(",X-ARTIST=\"The %22Band%22\""), "{line}");
        assert!(
            line.contains("ID=\"m1500.7\",CLASS=\"org.encore.marker\""),
            "{line}"
        );
    }

    #[test]
    fn a_marker_is_dated_on_the_timeline_of_its_segment_and_written_before_it() {
        // Four 1.024 s segments; the third comes after a reconnect, recorded 60 s later.
        let mut segments = show(4, Some(2));
        for (i, s) in segments.iter_mut().enumerate() {
            s.program_time_ms = if i < 2 {
                1_000_000 + i as i64 * 1_100
            } else {
                1_060_000
            };
        }
        let markers = [marker(500, "one"), marker(2_548, "two")];
        let text = Playlist {
            segments: &segments,
            part_target: 0.256,
            ended: true,
            skip: false,
            markers: &markers,
            removed: &[],
        }
        .render();
        // Extrapolated from the anchor (not the 1_001_100 the second was recorded at).
        assert!(
            text.contains("START-DATE=\"1970-01-01T00:16:40.5Z\""),
            "{text}"
        );
        // 2_548 ms is 500 ms into the third segment, anchored at 1_060_000.
        assert!(
            text.contains("START-DATE=\"1970-01-01T00:17:40.5Z\""),
            "{text}"
        );
        let lines: Vec<&str> = text.lines().collect();
        let two = lines
            .iter()
            .position(|l| l.contains("X-TITLE=\"two\""))
            .unwrap();
        assert_eq!(lines[two + 1], "#EXTINF:1.02400,");
        assert_eq!(lines[two + 2], "seg2.m4s");
    }

    #[test]
    fn a_delta_update_names_the_date_ranges_removed_lately() {
        let removed = ["m1.5".to_owned(), "m2.9".to_owned()];
        let render = |skip| {
            Playlist {
                segments: &show(100, None),
                part_target: 0.256,
                ended: false,
                skip,
                markers: &[],
                removed: &removed,
            }
            .render()
        };
        assert!(render(true).contains(
            "#EXT-X-SKIP:SKIPPED-SEGMENTS=94,RECENTLY-REMOVED-DATERANGES=\"m1.5\tm2.9\"\n"
        ));
        assert!(
            !render(false).contains("RECENTLY-REMOVED"),
            "a full playlist has none"
        );
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
        let recent = delta(&show(100, Some(97)));
        assert!(recent.contains("#EXT-X-DISCONTINUITY\n"), "{recent}");
    }
}
