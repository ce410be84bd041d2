//! A concert as an iCalendar event (RFC 5545), for "Add to calendar": lines end in CRLF,
//! text values are escaped (§3.3.11) and long lines folded at 75 octets (§3.1).

use super::model::{EARLY_ACCESS_MS, EventRow};

/// The `text/calendar` body of one concert. `public_url`: the origin people use (the
/// event's URL and its UID's domain); `now`: DTSTAMP.
pub fn ics(event: &EventRow, public_url: &str, now: i64) -> String {
    let public = public_url.trim_end_matches('/');
    let host = public
        .split_once("://")
        .map_or(public, |(_, rest)| rest)
        .split('/')
        .next()
        .unwrap_or("encore");
    let url = format!("{public}/concerts/{}", event.id);
    let end = event.details.starts_at + event.details.duration_minutes * 60_000;
    let summary = format!("{} — {}", event.details.title, event.details.artist_name);
    let mut description = String::new();
    if !event.details.description.trim().is_empty() {
        description.push_str(event.details.description.trim());
        description.push_str("\n\n");
    }
    description.push_str(&url);
    let lines = [
        "BEGIN:VCALENDAR".to_owned(),
        "VERSION:2.0".to_owned(),
        "PRODID:-//Encore//Concerts//EN".to_owned(),
        "CALSCALE:GREGORIAN".to_owned(),
        "METHOD:PUBLISH".to_owned(),
        "BEGIN:VEVENT".to_owned(),
        format!("UID:{}@{}", event.id, escape(host)),
        format!("DTSTAMP:{}", utc(now)),
        format!("DTSTART:{}", utc(event.details.starts_at)),
        format!("DTEND:{}", utc(end)),
        format!("SUMMARY:{}", escape(&summary)),
        format!("DESCRIPTION:{}", escape(&description)),
        format!("URL:{url}"),
        // The doors open 15 minutes before the start: the reminder rings then.
        "BEGIN:VALARM".to_owned(),
        "ACTION:DISPLAY".to_owned(),
        format!("TRIGGER:-PT{}M", EARLY_ACCESS_MS / 60_000),
        format!("DESCRIPTION:{}", escape(&summary)),
        "END:VALARM".to_owned(),
        "END:VEVENT".to_owned(),
        "END:VCALENDAR".to_owned(),
    ];
    let mut out = String::new();
    for line in &lines {
        fold(line, &mut out);
    }
    out
}

/// A UTC DATE-TIME: `20250601T190000Z`.
fn utc(ms: i64) -> String {
    let iso = crate::db::iso8601(ms);
    // `2025-06-01T19:00:00.000Z` (or without the milliseconds).
    let digits: String = iso
        .chars()
        .take(19)
        .filter(|c| c.is_ascii_digit() || *c == 'T')
        .collect();
    format!("{digits}Z")
}

/// A TEXT value: backslash, semicolon and comma escaped, newlines as `\n`.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            ';' => out.push_str("\\;"),
            ',' => out.push_str("\\,"),
            '\n' => out.push_str("\\n"),
            '\r' => {}
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// Write one content line, folded so that no line exceeds 75 octets (never inside a
/// UTF-8 character), each ending in CRLF.
fn fold(line: &str, out: &mut String) {
    let mut width = 0;
    for c in line.chars() {
        if width + c.len_utf8() > 75 {
            out.push_str("\r\n ");
            width = 1;
        }
        out.push(c);
        width += c.len_utf8();
    }
    out.push_str("\r\n");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::events::model::EventStatus;

    #[test]
    fn the_calendar_has_the_concerts_times_in_utc_and_every_line_ends_in_crlf() {
        let mut event = EventRow::sample(EventStatus::Published);
        event.details.starts_at = 1_748_804_400_000; // 2025-06-01T19:00:00Z
        let body = ics(&event, "https://encore.example/", 1_748_000_000_000);
        assert!(body.contains("\r\nDTSTART:20250601T190000Z\r\n"));
        assert!(body.contains("\r\nDTEND:20250601T203000Z\r\n"));
        assert!(body.contains("\r\nUID:e1@encore.example\r\n"));
        assert!(body.contains("\r\nURL:https://encore.example/concerts/e1\r\n"));
        assert!(body.contains("\r\nDTSTAMP:20250523T113320Z\r\n"));
        assert!(body.starts_with("BEGIN:VCALENDAR\r\n") && body.ends_with("END:VCALENDAR\r\n"));
        assert!(!body.replace("\r\n", "").contains('\n'));
    }

    #[test]
    fn text_is_escaped_and_long_lines_are_folded_at_75_octets() {
        let mut event = EventRow::sample(EventStatus::Published);
        event.details.title = "Rock, Paper; Scissors \\ Co".into();
        event.details.description = "Line one\nline two ".repeat(10) + "é€🎵";
        let body = ics(&event, "http://127.0.0.1:8080", 0);
        assert!(body.contains("SUMMARY:Rock\\, Paper\\; Scissors \\\\ Co — a\r\n"));
        for line in body.split("\r\n") {
            assert!(line.len() <= 75, "{line:?} is {} octets", line.len());
        }
        let unfolded = body.replace("\r\n ", "");
        assert!(unfolded.contains("DESCRIPTION:Line one\\nline two Line one"));
        assert!(unfolded.contains("é€🎵\\n\\nhttp://127.0.0.1:8080/concerts/e1\r\n"));
    }
}
