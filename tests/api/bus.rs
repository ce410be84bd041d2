//! The event bus: the same behaviours in process and through Redis (two instances sharing
//! one Redis under a key prefix of their own), and its first consumer, the session cache,
//! across two real servers.

use std::time::Duration;

use encore::accounts::model::Role;
use encore::bus::{
    Bus, Channel, Delivery, HISTORY_SIZE, Message, Position, Publication, Received, Recovery,
    SUBSCRIBER_QUEUE, Subscription,
};
use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::{redis_prefix, redis_url};

#[derive(Clone, Copy)]
enum Transport {
    InProcess,
    Redis,
}

/// Two instances' buses: for the in-process transport, two handles on the one bus.
async fn two_instances(transport: Transport) -> (Bus, Bus, Option<&'static str>) {
    match transport {
        Transport::InProcess => {
            let bus = Bus::in_process();
            (bus.clone(), bus, None)
        }
        Transport::Redis => {
            let prefix = redis_prefix();
            let a = Bus::redis(&redis_url(), prefix).await.expect("redis for A");
            let b = Bus::redis(&redis_url(), prefix).await.expect("redis for B");
            (a, b, Some(prefix))
        }
    }
}

/// A message of the tests' own: the bus carries any feature's messages.
#[derive(serde::Serialize, serde::Deserialize)]
struct Numbered {
    n: u64,
}

impl Message for Numbered {
    const KIND: &'static str = "numbered";
}

fn numbered(n: u64) -> Publication {
    Publication::new(&Numbered { n })
}

fn number(delivery: &Delivery) -> u64 {
    match delivery.event.read::<Numbered>() {
        Some(Numbered { n }) => n,
        None => panic!("unexpected {:?}", delivery.event),
    }
}

async fn next(subscription: &mut Subscription) -> Received {
    tokio::time::timeout(Duration::from_secs(10), subscription.recv())
        .await
        .expect("something within 10 s")
        .expect("the bus is alive")
}

async fn next_message(subscription: &mut Subscription) -> Delivery {
    match next(subscription).await {
        Received::Message(delivery) => (*delivery).clone(),
        other => panic!("expected a message, got {other:?}"),
    }
}

async fn redis_command(command: &::redis::Cmd) -> ::redis::Value {
    let client = ::redis::Client::open(redis_url()).unwrap();
    let mut connection = client.get_multiplexed_async_connection().await.unwrap();
    command.query_async(&mut connection).await.unwrap()
}

async fn offsets_increase_by_one_across_two_publishers_on_two_instances(transport: Transport) {
    let (a, b, _) = two_instances(transport).await;
    let channel = Channel::Staff;
    let mut on_a = a.subscribe(&channel);
    let mut on_b = b.subscribe(&channel);
    let publish = |bus: Bus, from: u64| async move {
        let mut offsets = Vec::new();
        for n in from..from + 40 {
            offsets.push(
                bus.publish(&Channel::Staff, numbered(n))
                    .await
                    .unwrap()
                    .offset,
            );
        }
        offsets
    };
    let (from_a, from_b) = tokio::join!(publish(a.clone(), 0), publish(b.clone(), 1000));
    let mut all: Vec<u64> = from_a.into_iter().chain(from_b).collect();
    all.sort_unstable();
    assert_eq!(all, (1..=80).collect::<Vec<_>>());
    for subscription in [&mut on_a, &mut on_b] {
        let mut seen = Vec::new();
        for _ in 0..80 {
            seen.push(next_message(subscription).await.offset);
        }
        assert_eq!(
            seen,
            (1..=80).collect::<Vec<_>>(),
            "every instance, in order"
        );
    }
}

async fn a_subscriber_on_one_instance_gets_a_message_published_on_another(transport: Transport) {
    let (a, b, _) = two_instances(transport).await;
    let channel = Channel::Account("fan-1".to_owned());
    let mut on_b = b.subscribe(&channel);
    let mut elsewhere = b.subscribe(&Channel::Account("fan-2".to_owned()));
    let published = a.publish(&channel, numbered(7)).await.unwrap();
    let received = next_message(&mut on_b).await;
    assert_eq!(received, published);
    assert_eq!((received.offset, number(&received)), (1, 7));
    assert_eq!(received.channel.name(), "account:fan-1");
    // The other channel got nothing: the next thing it sees is its own message.
    b.publish(&Channel::Account("fan-2".to_owned()), numbered(8))
        .await
        .unwrap();
    assert_eq!(number(&next_message(&mut elsewhere).await), 8);
}

async fn history_replays_exactly_the_missed_messages_in_order(transport: Transport) {
    let (a, b, _) = two_instances(transport).await;
    let channel = Channel::Event("concert-1".to_owned());
    let mut seen = b.position(&channel).await.unwrap();
    assert_eq!(seen.offset, 0);
    for n in 1..=6 {
        let delivery = a.publish(&channel, numbered(n)).await.unwrap();
        if n == 2 {
            seen = delivery.position();
        }
    }
    let Recovery::Complete { messages, position } = b.history(&channel, &seen).await.unwrap()
    else {
        panic!("the history is all there")
    };
    assert_eq!(
        messages
            .iter()
            .map(|m| (m.offset, number(m)))
            .collect::<Vec<_>>(),
        vec![(3, 3), (4, 4), (5, 5), (6, 6)]
    );
    assert_eq!(position.offset, 6);
    assert_eq!(position.epoch, seen.epoch);
    let Recovery::Complete { messages, .. } = b.history(&channel, &position).await.unwrap() else {
        panic!("nothing missed is complete")
    };
    assert!(messages.is_empty());
}

async fn a_position_from_another_epoch_is_told_the_history_is_gone(transport: Transport) {
    let (a, b, _) = two_instances(transport).await;
    let channel = Channel::Staff;
    a.publish(&channel, numbered(1)).await.unwrap();
    let seen = b.position(&channel).await.unwrap();
    let stranger = Position {
        offset: seen.offset,
        epoch: "not-this-one".to_owned(),
    };
    let recovery = b.history(&channel, &stranger).await.unwrap();
    assert_eq!(recovery, Recovery::Gone { position: seen });
}

async fn a_trimmed_history_is_gone_and_what_is_kept_still_replays(transport: Transport) {
    let (a, b, _) = two_instances(transport).await;
    let channel = Channel::Staff;
    let first = a.publish(&channel, numbered(1)).await.unwrap();
    let total = HISTORY_SIZE as u64 + 3;
    let mut recent = None;
    for n in 2..=total {
        let delivery = a.publish(&channel, numbered(n)).await.unwrap();
        if n == total - 5 {
            recent = Some(delivery.position());
        }
    }
    assert!(matches!(
        b.history(&channel, &first.position()).await.unwrap(),
        Recovery::Gone { position } if position.offset == total
    ));
    let Recovery::Complete { messages, .. } = b.history(&channel, &recent.unwrap()).await.unwrap()
    else {
        panic!("the last five are kept")
    };
    assert_eq!(
        messages.iter().map(|m| m.offset).collect::<Vec<_>>(),
        (total - 4..=total).collect::<Vec<_>>()
    );
}

async fn a_lagging_subscriber_is_told_so_and_catches_up_from_history(transport: Transport) {
    let (a, b, _) = two_instances(transport).await;
    let channel = Channel::Staff;
    let mut slow = b.subscribe(&channel);
    let mut fast = b.subscribe(&channel);
    let start = b.position(&channel).await.unwrap();
    let total = SUBSCRIBER_QUEUE as u64 + 10;
    // The fast one keeps up; the slow one never reads, and its queue overflows.
    for n in 1..=total {
        a.publish(&channel, numbered(n)).await.unwrap();
        assert_eq!(next_message(&mut fast).await.offset, n);
    }
    assert_eq!(next(&mut slow).await, Received::Lagged { missed: 10 });
    assert_eq!(
        next_message(&mut slow).await.offset,
        11,
        "the queue kept the newest"
    );
    let Recovery::Complete { messages, .. } = b.history(&channel, &start).await.unwrap() else {
        panic!("the missed ones are in the history")
    };
    assert_eq!(
        messages
            .iter()
            .take(10)
            .map(|m| m.offset)
            .collect::<Vec<_>>(),
        (1..=10).collect::<Vec<_>>()
    );
}

macro_rules! on_both_transports {
    ($($name:ident),* $(,)?) => {
        mod in_process {
            $(#[tokio::test]
            async fn $name() {
                super::$name(super::Transport::InProcess).await
            })*
        }
        mod redis {
            $(#[tokio::test]
            async fn $name() {
                super::$name(super::Transport::Redis).await
            })*
        }
    };
}

on_both_transports!(
    offsets_increase_by_one_across_two_publishers_on_two_instances,
    a_subscriber_on_one_instance_gets_a_message_published_on_another,
    history_replays_exactly_the_missed_messages_in_order,
    a_position_from_another_epoch_is_told_the_history_is_gone,
    a_trimmed_history_is_gone_and_what_is_kept_still_replays,
    a_lagging_subscriber_is_told_so_and_catches_up_from_history,
);

#[tokio::test]
async fn a_restarted_in_process_bus_has_new_epochs() {
    let before = Bus::in_process();
    before.publish(&Channel::Staff, numbered(1)).await.unwrap();
    let seen = before.position(&Channel::Staff).await.unwrap();
    let after = Bus::in_process();
    let recovery = after.history(&Channel::Staff, &seen).await.unwrap();
    assert!(matches!(recovery, Recovery::Gone { position } if position.epoch != seen.epoch));
}

#[tokio::test]
async fn a_channel_redis_lost_starts_a_new_epoch_and_old_positions_are_gone() {
    let (a, b, prefix) = two_instances(Transport::Redis).await;
    let prefix = prefix.unwrap();
    for n in 1..=3 {
        a.publish(&Channel::Staff, numbered(n)).await.unwrap();
    }
    let seen = b.position(&Channel::Staff).await.unwrap();
    redis_command(
        ::redis::cmd("DEL")
            .arg(format!("{prefix}meta:staff"))
            .arg(format!("{prefix}history:staff")),
    )
    .await;
    let after = a.publish(&Channel::Staff, numbered(4)).await.unwrap();
    assert_eq!(after.offset, 1);
    assert_ne!(after.epoch, seen.epoch);
    assert_eq!(
        b.history(&Channel::Staff, &seen).await.unwrap(),
        Recovery::Gone {
            position: after.position()
        }
    );
}

#[tokio::test]
async fn an_instance_whose_redis_connection_drops_resubscribes_and_its_subscribers_catch_up() {
    let (a, b, _) = two_instances(Transport::Redis).await;
    let channel = Channel::Staff;
    let mut on_b = b.subscribe(&channel);
    let seen = a.publish(&channel, numbered(1)).await.unwrap().position();
    assert_eq!(next_message(&mut on_b).await.offset, 1);

    let killed = b.redis_subscriber_addr().expect("B's pub/sub connection");
    let answer = redis_command(
        ::redis::cmd("CLIENT")
            .arg("KILL")
            .arg("ADDR")
            .arg(killed.to_string()),
    )
    .await;
    assert_eq!(answer, ::redis::Value::Int(1), "one connection killed");
    // Published while B may be away: B's subscriber may or may not see it live.
    a.publish(&channel, numbered(2)).await.unwrap();
    loop {
        match next(&mut on_b).await {
            Received::Reconnected => break,
            Received::Message(delivery) => assert_eq!(delivery.offset, 2),
            Received::Lagged { .. } => panic!("nothing to lag behind"),
        }
    }
    assert_ne!(b.redis_subscriber_addr(), Some(killed), "a new connection");
    let Recovery::Complete { messages, position } = b.history(&channel, &seen).await.unwrap()
    else {
        panic!("the missed message is in the history")
    };
    assert_eq!(messages.iter().map(number).collect::<Vec<_>>(), vec![2]);

    // And live delivery is back, without a restart.
    a.publish(&channel, numbered(3)).await.unwrap();
    loop {
        let delivery = next_message(&mut on_b).await;
        if delivery.offset <= position.offset {
            continue;
        }
        assert_eq!((delivery.offset, number(&delivery)), (3, 3));
        break;
    }
}

#[tokio::test]
async fn a_delivery_reads_as_json_with_its_type_channel_offset_and_epoch() {
    let bus = Bus::in_process();
    let delivery = bus
        .publish(&Channel::Account("42".to_owned()), numbered(42))
        .await
        .unwrap();
    assert_eq!(
        serde_json::to_value(&delivery).unwrap(),
        json!({
            "channel": "account:42",
            "offset": 1,
            "epoch": delivery.epoch,
            "type": "numbered",
            "n": 42,
        })
    );
}

#[tokio::test]
async fn an_account_disabled_through_one_instance_is_refused_on_another_at_once() {
    let (a, b) = crate::helpers::two_instances().await;
    let admin = a.account("admin@example.com", Role::Admin).await;
    let admin = a.sign_in(&admin.login).await;
    let fan = a.account("fan@example.com", Role::User).await;
    let fan_access = a.sign_in(&fan.login).await.access;
    assert_eq!(b.me(&fan_access).await.0, StatusCode::OK, "cached on B");

    let (status, body) = a.disable(&fan.id, &admin.access).await;
    assert_eq!(status, StatusCode::OK, "{body}");

    // B's cache would serve the session for its 30 s time-to-live; the bus evicts it.
    let refused = async {
        while b.me(&fan_access).await.0 != StatusCode::UNAUTHORIZED {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    };
    tokio::time::timeout(Duration::from_secs(5), refused)
        .await
        .expect("refused on B within 5 s");
}

#[tokio::test]
async fn a_session_signed_out_on_one_instance_is_refused_on_another_at_once() {
    let (a, b) = crate::helpers::two_instances().await;
    let fan = a.account("fan@example.com", Role::User).await;
    let access = a.sign_in(&fan.login).await.access;
    assert_eq!(b.me(&access).await.0, StatusCode::OK, "cached on B");

    let (status, body) = a
        .post("/api/v1/oauth2/logout", json!({}), Some(&access))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");

    let refused = async {
        while b.me(&access).await.0 != StatusCode::UNAUTHORIZED {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    };
    tokio::time::timeout(Duration::from_secs(5), refused)
        .await
        .expect("refused on B within 5 s");
}
