//! The baseline of the WebSocket benchmark (issue 13, `loadtests/ws-bench.sh`): a bare
//! tokio-tungstenite broadcast server. It accepts, reads the first message, then sends
//! every broadcast to every socket; nothing else (no auth, no channels, no offsets).
//!
//! Broadcasts come the way they reach Encore: Encore's bus publishes on the Redis pub/sub
//! channel `<prefix>bus` (frame `offset \n epoch \n channel \n event JSON`, docs/bus.md),
//! and every `staff` frame is sent on as the same JSON object Encore would send, encoded
//! once. The sockets use Encore's buffer settings (src/live/ws.rs) and Encore's queue per
//! shared channel, so what differs is what Encore does per socket.
//!
//! Usage: ws_baseline PORT REDIS_URL PREFIX [CHANNEL] — prints READY once it listens;
//! CHANNEL is `staff` unless given (issue 29's room bench follows `chat:<id>`).

use futures_util::{SinkExt, StreamExt};
use tokio::sync::broadcast;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::{Message, Utf8Bytes};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let (port, redis_url, prefix, channel) = match &args[..] {
        [_, port, redis_url, prefix] => (port, redis_url, prefix, "staff".to_owned()),
        [_, port, redis_url, prefix, channel] => (port, redis_url, prefix, channel.clone()),
        _ => anyhow::bail!("usage: ws_baseline PORT REDIS_URL PREFIX [CHANNEL]"),
    };
    let (sender, _) = broadcast::channel::<Utf8Bytes>(encore::bus::SUBSCRIBER_QUEUE);
    let client = redis::Client::open(redis_url.as_str())?;
    let mut pubsub = client.get_async_pubsub().await?;
    pubsub.subscribe(format!("{prefix}bus")).await?;
    let from_redis = sender.clone();
    let followed = channel.clone();
    tokio::spawn(async move {
        let mut messages = pubsub.into_on_message();
        while let Some(message) = messages.next().await {
            if let Some(text) = as_sent(message.get_payload_bytes(), &followed) {
                let _ = from_redis.send(text.into());
            }
        }
        eprintln!("ws_baseline: redis subscription lost");
    });

    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port.parse::<u16>()?)).await?;
    println!("READY");
    let config = WebSocketConfig::default()
        .read_buffer_size(encore::net::websocket::READ_CHUNK)
        .write_buffer_size(0)
        .max_message_size(Some(16 * 1024))
        .max_frame_size(Some(16 * 1024));
    loop {
        let (tcp, _) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(err) => {
                eprintln!("ws_baseline: accept: {err}");
                continue;
            }
        };
        let _ = tcp.set_nodelay(true);
        let broadcasts = sender.subscribe();
        let subscribed = format!(
            r#"{{"type":"subscribed","channel":"{channel}","offset":0,"epoch":"","recovered":false}}"#
        );
        tokio::spawn(async move {
            let Ok(socket) = tokio_tungstenite::accept_async_with_config(tcp, Some(config)).await
            else {
                return;
            };
            serve(socket, broadcasts, &subscribed).await;
        });
    }
}

async fn serve(
    socket: tokio_tungstenite::WebSocketStream<tokio::net::TcpStream>,
    mut broadcasts: broadcast::Receiver<Utf8Bytes>,
    subscribed: &str,
) {
    let (mut sink, mut stream) = socket.split();
    if !matches!(stream.next().await, Some(Ok(Message::Text(_)))) {
        return;
    }
    // The client waits for this before it counts the socket as following the broadcasts.
    if sink.send(Message::text(subscribed)).await.is_err() {
        return;
    }
    loop {
        tokio::select! {
            incoming = stream.next() => match incoming {
                Some(Ok(Message::Close(_)) | Err(_)) | None => return,
                Some(Ok(_)) => {}
            },
            broadcast = broadcasts.recv() => match broadcast {
                Ok(text) => {
                    if sink.send(Message::Text(text)).await.is_err() {
                        return;
                    }
                }
                Err(broadcast::error::RecvError::Lagged(_)) => {}
                Err(broadcast::error::RecvError::Closed) => return,
            },
        }
    }
}

/// A bus frame's message on `followed` as Encore's socket sends it (`bus::Delivery` as
/// JSON: channel, offset, epoch, then the event's own fields).
fn as_sent(frame: &[u8], followed: &str) -> Option<String> {
    let text = std::str::from_utf8(frame).ok()?;
    let mut parts = text.splitn(4, '\n');
    let (offset, epoch, channel, event) =
        (parts.next()?, parts.next()?, parts.next()?, parts.next()?);
    if channel != followed {
        return None;
    }
    let fields = event.strip_prefix('{')?;
    Some(format!(
        r#"{{"channel":"{channel}","offset":{offset},"epoch":"{epoch}",{fields}"#
    ))
}
