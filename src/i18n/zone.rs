//! The time zone a person reads times in: an IANA name (`Asia/Tehran`) checked against the
//! time zone database (jiff's: the system's, else the copy built in), never an offset of
//! our own, so daylight saving time and a country's rule changes come with the database.

use jiff::Timestamp;
use jiff::tz::TimeZone;

use crate::db::iso8601;

/// A time zone from the database, by its canonical IANA name. UTC when the reader's zone
/// is unknown.
#[derive(Debug, Clone)]
pub struct Zone(TimeZone);

impl Default for Zone {
    fn default() -> Self {
        Self::UTC
    }
}

impl Zone {
    pub const UTC: Zone = Zone(TimeZone::UTC);

    /// No IANA name is this long (the longest is ~32 characters): a longer one is refused
    /// before the lookup.
    pub const MAX_NAME_CHARS: usize = 64;

    /// The zone of an IANA name, in any letter case (`america/sao_paulo` reads as
    /// `America/Sao_Paulo`). `None`: not a zone the database knows. Fixed offsets and POSIX
    /// rules (`UTC+3`, `EST5EDT,M3.2.0,M11.1.0`) are not names and are refused.
    pub fn parse(name: &str) -> Option<Zone> {
        let name = name.trim();
        if name.is_empty() || name.len() > Self::MAX_NAME_CHARS {
            return None;
        }
        let tz = TimeZone::get(name).ok()?;
        tz.iana_name().is_some().then_some(Zone(tz))
    }

    /// The zone of a stored name; `None` or a name the database no longer knows (a zone
    /// removed in an update) reads as UTC rather than failing the notice.
    pub fn of_stored(name: Option<&str>) -> Zone {
        match name {
            None => Zone::UTC,
            Some(name) => Zone::parse(name).unwrap_or_else(|| {
                tracing::warn!(
                    zone = name,
                    "a stored time zone is not in the database; using UTC"
                );
                Zone::UTC
            }),
        }
    }

    /// The canonical IANA name (`UTC` for UTC): what is stored and shown to the reader.
    pub fn name(&self) -> &str {
        self.0.iana_name().unwrap_or("UTC")
    }

    /// `2026-11-24 22:30`: an instant (unix ms) on this zone's clocks, to the minute.
    pub fn minutes(&self, ms: i64) -> String {
        match Timestamp::from_millisecond(ms) {
            Ok(at) => self
                .0
                .to_datetime(at)
                .strftime("%Y-%m-%d %H:%M")
                .to_string(),
            // Beyond what the calendar holds: the stored UTC text, as before.
            Err(_) => {
                let iso = iso8601(ms);
                match (iso.get(..10), iso.get(11..16)) {
                    (Some(day), Some(time)) => format!("{day} {time}"),
                    _ => iso,
                }
            }
        }
    }
}

impl From<Option<String>> for Zone {
    fn from(name: Option<String>) -> Self {
        Zone::of_stored(name.as_deref())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 2026-07-01 12:00 UTC and 2026-01-15 12:00 UTC.
    const JULY: i64 = 1_782_907_200_000;
    const JANUARY: i64 = 1_768_478_400_000;

    #[test]
    fn names_are_checked_against_the_database_and_canonicalised() {
        assert_eq!(Zone::parse("Asia/Tehran").unwrap().name(), "Asia/Tehran");
        assert_eq!(
            Zone::parse("america/sao_paulo").unwrap().name(),
            "America/Sao_Paulo"
        );
        assert_eq!(Zone::parse("UTC").unwrap().name(), "UTC");
        for bad in [
            "",
            "Mars/Olympus_Mons",
            "UTC+3",
            "+03:30",
            "EST5EDT,M3.2.0,M11.1.0",
            "../../../etc/passwd",
            &"A".repeat(65),
        ] {
            assert!(Zone::parse(bad).is_none(), "{bad:?} is not a zone");
        }
    }

    #[test]
    fn times_follow_the_zones_daylight_saving_rule() {
        let london = Zone::parse("Europe/London").unwrap();
        assert_eq!(london.minutes(JANUARY), "2026-01-15 12:00");
        assert_eq!(london.minutes(JULY), "2026-07-01 13:00");
        // Tehran dropped DST in 2022: +03:30 all year.
        let tehran = Zone::parse("Asia/Tehran").unwrap();
        assert_eq!(tehran.minutes(JULY), "2026-07-01 15:30");
        assert_eq!(Zone::UTC.minutes(JULY), "2026-07-01 12:00");
    }

    #[test]
    fn an_unknown_or_missing_stored_zone_reads_as_utc() {
        assert_eq!(Zone::from(None).name(), "UTC");
        assert_eq!(Zone::from(Some("Gone/Away".to_owned())).name(), "UTC");
        assert_eq!(
            Zone::from(Some("Europe/Lisbon".to_owned())).name(),
            "Europe/Lisbon"
        );
    }
}
