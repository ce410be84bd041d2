//! How fast a show's audio may arrive, and how dense it may be.
//!
//! Pacing is per show, not per connection: a token bucket of media time that fills at 1.5×
//! real time up to a 10 s burst, kept in the show (so a reconnect gets no fresh burst)
//! and fed on every instance by the frames its journal carries, with the times they
//! arrived at the writer (so an encoder that reconnects through another instance finds
//! the same bucket). Whatever an encoder does, a show records at most 10 s plus 1.5× the
//! time that passed. Before, each connection had its own burst: 20 reconnects in 8 s
//! recorded 190 s of audio (docs/security.md, second review, finding 2).
//!
//! The bitrate is per connection: AAC bytes over the media time they carry. An AAC
//! encoder sends at most a few hundred kbit/s; 8 KB frames at 96 kHz (6 Mbit/s) only
//! fill the disk and the journal.

use crate::stream::codecs::adts::{AacConfig, SAMPLES_PER_FRAME};

/// How far ahead of the clock a show's audio may run: an encoder's buffer at connect, or
/// a short catch-up after a network hiccup.
pub const BURST_SECONDS: f64 = 10.0;
/// After the burst, audio may arrive at most this much faster than it plays.
pub const MAX_SPEED: f64 = 1.5;
/// The highest bitrate a publisher's AAC may have, averaged from its connection's start
/// (AAC-LC stereo tops out near 320 kbit/s).
pub const MAX_KBPS: f64 = 512.0;
/// The bitrate is judged over at least this much audio (the first frames of a VBR stream
/// may be dense).
const BITRATE_FLOOR_SECONDS: f64 = 2.0;

/// The media time one AAC frame of `config` carries, in seconds.
pub fn frame_seconds(config: &AacConfig) -> f64 {
    f64::from(SAMPLES_PER_FRAME) / f64::from(config.sample_rate().max(1))
}

/// A show's token bucket of media time.
#[derive(Debug, Clone, PartialEq)]
pub struct Pace {
    /// Media seconds that may still arrive at once.
    credit: f64,
    /// When the credit was last brought up to date (ms since the epoch).
    at_ms: Option<i64>,
}

impl Default for Pace {
    fn default() -> Self {
        Self {
            credit: BURST_SECONDS,
            at_ms: None,
        }
    }
}

impl Pace {
    fn refill(&mut self, now_ms: i64) {
        if let Some(at) = self.at_ms {
            let elapsed = (now_ms - at).max(0) as f64 / 1000.0;
            self.credit = (self.credit + MAX_SPEED * elapsed).min(BURST_SECONDS);
        }
        self.at_ms = Some(self.at_ms.map_or(now_ms, |at| at.max(now_ms)));
    }

    /// Take `seconds` of audio arriving at `now_ms`: false, and nothing taken, when the
    /// show would run further ahead of the clock than the burst and the speed allow.
    pub fn take(&mut self, seconds: f64, now_ms: i64) -> bool {
        self.refill(now_ms);
        if seconds > self.credit + 1e-9 {
            return false;
        }
        self.credit -= seconds;
        true
    }

    /// Audio another instance admitted (its journal says so, with when): taken whatever
    /// the credit, so this copy's bucket stands where the writer's does.
    pub fn took(&mut self, seconds: f64, now_ms: i64) {
        self.refill(now_ms);
        self.credit -= seconds;
    }
}

/// A connection's AAC bitrate so far.
#[derive(Debug, Default)]
pub struct Bitrate {
    bytes: u64,
    seconds: f64,
}

impl Bitrate {
    /// Count frames of `bytes` carrying `seconds` of audio; false once the connection's
    /// audio is denser than [`MAX_KBPS`].
    pub fn admit(&mut self, bytes: u64, seconds: f64) -> bool {
        self.admit_within(bytes, seconds, MAX_KBPS)
    }

    /// [`Bitrate::admit`] against another ceiling (a lossless stream's, from its format).
    pub fn admit_within(&mut self, bytes: u64, seconds: f64, max_kbps: f64) -> bool {
        self.bytes += bytes;
        self.seconds += seconds;
        let kbps = self.bytes as f64 * 8.0 / 1000.0 / self.seconds.max(BITRATE_FLOOR_SECONDS);
        kbps <= max_kbps
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_then_no_more_than_one_and_a_half_times_real_time() {
        let mut pace = Pace::default();
        assert!(pace.take(9.0, 0), "the burst");
        assert!(!pace.take(2.0, 0), "beyond the burst at once");
        // 60 s later the bucket is full again (10 s), never more.
        assert!(pace.take(10.0, 60_000));
        assert!(!pace.take(0.1, 60_000));
        // Then 1.5 s of audio per second of clock.
        assert!(pace.take(1.5, 61_000));
        assert!(!pace.take(0.1, 61_000));
    }

    #[test]
    fn reconnecting_gets_no_fresh_burst() {
        // The show's one bucket: twenty connections 0.4 s apart, each pushing 9.5 s.
        let mut pace = Pace::default();
        let mut recorded = 0.0;
        for connection in 0..20 {
            let now = connection * 400;
            let mut sent = 0.0;
            while sent < 9.5 && pace.take(0.5, now) {
                sent += 0.5;
            }
            recorded += sent;
        }
        let wall = 19.0 * 0.4;
        assert!(
            recorded <= BURST_SECONDS + MAX_SPEED * wall + 0.5,
            "{recorded} s recorded in {wall} s"
        );
    }

    #[test]
    fn a_copy_fed_by_the_journal_stands_where_the_writer_does() {
        let (mut writer, mut copy) = (Pace::default(), Pace::default());
        for (seconds, at) in [(4.0, 0), (3.0, 500), (2.0, 1_000)] {
            assert!(writer.take(seconds, at));
            copy.took(seconds, at);
        }
        assert_eq!(writer, copy);
        // The encoder moves to the copy's instance: it is as far ahead there.
        assert!(!copy.take(3.0, 1_000));
    }

    #[test]
    fn a_clock_going_back_adds_no_credit() {
        let mut pace = Pace::default();
        assert!(pace.take(10.0, 10_000));
        assert!(!pace.take(1.0, 5_000));
    }

    #[test]
    fn dense_frames_are_refused_and_ordinary_aac_is_not() {
        // 8,191-byte frames at 96 kHz: ≈ 6 Mbit/s.
        let frame = 1024.0 / 96_000.0;
        let mut dense = Bitrate::default();
        let refused = (0..1000).position(|_| !dense.admit(8_191, frame));
        assert!(refused.is_some_and(|at| at < 20), "{refused:?}");
        // 320 kbit/s at 48 kHz, a minute of it.
        let frame = 1024.0 / 48_000.0;
        let mut ordinary = Bitrate::default();
        assert!((0..2_812).all(|_| ordinary.admit(853, frame)));
    }
}
