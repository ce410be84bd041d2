//! How fast a room takes messages (per author and per room) and reactions (per fan),
//! counted across every instance (the windows live in Redis when the instances share one).

use std::time::Duration;

use crate::auth::rate_limit::FailureCounter;
use crate::cluster::shared::Shared;
use crate::error::{Error, Result};
use crate::i18n::{Arg, Msg};

/// Messages one author may post per [`AUTHOR_WINDOW`].
pub const PER_AUTHOR: u32 = 5;
pub const AUTHOR_WINDOW: Duration = Duration::from_secs(10);
/// Messages one room takes per second from its fans (the benchmark's room posts 100).
pub const PER_ROOM_PER_SECOND: u32 = 200;

/// Reactions counted per fan and wall-clock second; more are dropped, not refused.
pub const REACTIONS_PER_FAN_PER_SECOND: u64 = 10;

pub struct Limits {
    per_author: FailureCounter,
    per_room: FailureCounter,
    shared: Shared,
}

impl Limits {
    pub fn new(shared: Shared) -> Self {
        Self {
            per_author: FailureCounter::new(shared.clone(), PER_AUTHOR, AUTHOR_WINDOW),
            per_room: FailureCounter::new(
                shared.clone(),
                PER_ROOM_PER_SECOND,
                Duration::from_secs(1),
            ),
            shared,
        }
    }

    /// How many of `count` reactions `account_id` may still send in this second, counted
    /// as taken: the cap holds whichever instances the fan's requests land on.
    pub async fn reactions(&self, account_id: &str, count: u64, now_ms: i64) -> u64 {
        let second = now_ms.div_euclid(1000);
        let mut accepted = 0;
        self.shared
            .update(
                &format!("reactions:{account_id}"),
                "n",
                2_000,
                now_ms,
                |value| {
                    let used = value
                        .and_then(|v| v.split_once(':'))
                        .filter(|(s, _)| s.parse() == Ok(second))
                        .and_then(|(_, used)| used.parse::<u64>().ok())
                        .unwrap_or(0);
                    accepted = count.min(REACTIONS_PER_FAN_PER_SECOND.saturating_sub(used));
                    Some(format!("{second}:{}", used + accepted))
                },
            )
            .await;
        accepted
    }

    /// Count one message of `account_id` in the room of `event_id`; refused (429) when
    /// the author or the room is past its limit.
    pub async fn check(&self, event_id: &str, account_id: &str) -> Result<()> {
        let refusal = |err: Error, msg: Msg| match err {
            Error::RateLimited { retry_after } => Error::LimitReached {
                text: msg.with("seconds", Arg::figure(retry_after.to_string())),
                retry_after,
            },
            other => other,
        };
        self.per_author
            .take(&format!("chat:{event_id}:{account_id}"))
            .await
            .map_err(|err| refusal(err, Msg::ChatTooFast))?;
        self.per_room
            .take(&format!("chat-room:{event_id}"))
            .await
            .map_err(|err| refusal(err, Msg::ChatRoomBusy))
    }
}
