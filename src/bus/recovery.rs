//! The recovery rule both transports share: a subscriber gets exactly what it missed, or
//! is told the history is gone.

use super::{Delivery, Position, Recovery};

/// What a subscriber last at `since` gets, given the channel's `newest` position and the
/// messages still retained after `since` (ascending offsets; trimmed or expired ones
/// already left out).
pub(super) fn recover(since: &Position, newest: Position, retained: Vec<Delivery>) -> Recovery {
    if since.epoch != newest.epoch || since.offset > newest.offset {
        return Recovery::Gone { position: newest };
    }
    let messages: Vec<Delivery> = retained
        .into_iter()
        .filter(|m| m.offset > since.offset && m.offset <= newest.offset)
        .collect();
    let missed = newest.offset - since.offset;
    let contiguous = messages
        .iter()
        .zip(since.offset + 1..)
        .all(|(m, expected)| m.offset == expected);
    if messages.len() as u64 == missed && contiguous {
        Recovery::Complete {
            messages,
            position: newest,
        }
    } else {
        Recovery::Gone { position: newest }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bus::{Channel, Message, Publication};

    #[derive(serde::Serialize, serde::Deserialize)]
    struct Nothing {}
    impl Message for Nothing {
        const KIND: &'static str = "nothing";
    }

    fn at(offset: u64, epoch: &str) -> Position {
        Position {
            offset,
            epoch: epoch.to_owned(),
        }
    }

    fn messages(offsets: std::ops::RangeInclusive<u64>) -> Vec<Delivery> {
        offsets
            .map(|offset| {
                Delivery::new(
                    Channel::Staff,
                    offset,
                    "e".to_owned(),
                    Publication::new(&Nothing {}),
                )
            })
            .collect()
    }

    fn offsets(recovery: &Recovery) -> Option<Vec<u64>> {
        match recovery {
            Recovery::Complete { messages, .. } => {
                Some(messages.iter().map(|m| m.offset).collect())
            }
            Recovery::Gone { .. } => None,
        }
    }

    #[test]
    fn a_subscriber_gets_exactly_the_messages_after_its_offset() {
        let recovery = recover(&at(3, "e"), at(6, "e"), messages(1..=6));
        assert_eq!(offsets(&recovery), Some(vec![4, 5, 6]));
        assert_eq!(recovery.position(), &at(6, "e"));
    }

    #[test]
    fn a_subscriber_that_missed_nothing_gets_nothing() {
        assert_eq!(
            offsets(&recover(&at(6, "e"), at(6, "e"), messages(1..=6))),
            Some(vec![])
        );
    }

    #[test]
    fn another_epoch_means_the_history_is_gone() {
        assert_eq!(
            offsets(&recover(&at(3, "old"), at(6, "e"), messages(1..=6))),
            None
        );
    }

    #[test]
    fn a_trimmed_history_is_gone() {
        assert_eq!(
            offsets(&recover(&at(1, "e"), at(6, "e"), messages(4..=6))),
            None
        );
        assert_eq!(
            offsets(&recover(&at(3, "e"), at(6, "e"), messages(4..=6))),
            Some(vec![4, 5, 6])
        );
    }

    #[test]
    fn an_offset_from_the_future_is_gone() {
        assert_eq!(
            offsets(&recover(&at(9, "e"), at(6, "e"), messages(1..=6))),
            None
        );
    }

    #[test]
    fn a_hole_in_the_retained_messages_is_gone() {
        let mut retained = messages(1..=6);
        retained.remove(4);
        assert_eq!(offsets(&recover(&at(3, "e"), at(6, "e"), retained)), None);
    }
}
