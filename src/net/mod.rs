//! Accepting connections on both ports without letting one client starve the server:
//! a cap on open connections per client address, and a deadline for a request's whole
//! head (a slowloris trickling header bytes, or a keep-alive connection left idle, is
//! closed when it passes). An upgraded connection (a WebSocket) keeps its address's slot
//! until it closes ([`HeldSlot`]; [`websocket`] reads its first message).

pub mod outbox;
pub mod outgoing;
pub mod websocket;

use std::collections::HashMap;
use std::convert::Infallible;
use std::future::Future;
use std::net::{IpAddr, SocketAddr};
use std::pin::pin;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::Body;
use axum::extract::Request;
use axum::response::Response;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::watch;
use tower::{Service, ServiceExt};

/// How many connections one address may hold open at once; `None` is no cap (behind a
/// trusted proxy every connection comes from the proxy, which enforces its own).
#[derive(Clone)]
pub struct ConnectionCap {
    per_ip: Option<u32>,
    open: Arc<Mutex<HashMap<IpAddr, u32>>>,
}

impl ConnectionCap {
    pub fn new(per_ip: Option<u32>) -> Self {
        Self {
            per_ip,
            open: Arc::default(),
        }
    }

    /// A slot for a new connection from `ip`, released when the slot is dropped; `None`
    /// when the address already holds its share.
    pub fn admit(&self, ip: IpAddr) -> Option<Slot> {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        let count = open.entry(ip).or_default();
        if self.per_ip.is_some_and(|cap| *count >= cap) {
            return None;
        }
        *count += 1;
        Some(Slot {
            ip,
            open: self.open.clone(),
        })
    }
}

/// One admitted connection; dropping it frees the address's slot.
pub struct Slot {
    ip: IpAddr,
    open: Arc<Mutex<HashMap<IpAddr, u32>>>,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(count) = open.get_mut(&self.ip) {
            *count -= 1;
            if *count == 0 {
                open.remove(&self.ip);
            }
        }
    }
}

/// A connection's slot, shared by its requests: an upgrade handler keeps a clone for the
/// socket's life, so the address's count holds until the socket closes (otherwise it ends
/// with the HTTP connection's future, at the upgrade).
#[derive(Clone)]
pub struct HeldSlot(#[allow(dead_code)] Arc<Slot>);

/// Serve HTTP/1.1 (with upgrades, for WebSockets) on `listener` until `shutdown`, then
/// close the listener, call `closed` (what must happen only once no new connection can
/// come: the upgraded sockets told to go elsewhere) and let open requests finish for up
/// to `drain_timeout`. `make` builds the service of one connection from its peer and its
/// slot (which the service puts in each request's extensions, for an upgrade to keep).
pub async fn serve_http<M, S>(
    listener: TcpListener,
    cap: ConnectionCap,
    head_timeout: Duration,
    drain_timeout: Duration,
    shutdown: impl Future<Output = ()> + Send + 'static,
    closed: impl FnOnce(),
    make: M,
) where
    M: Fn(SocketAddr, HeldSlot) -> S,
    S: Service<Request, Response = Response, Error = Infallible> + Clone + Send + 'static,
    S::Future: Send,
{
    // Closing `stop_tx` tells connections to finish; each holds a `done_rx` until it ends.
    let (stop_tx, stop_rx) = watch::channel(());
    let (done_tx, done_rx) = watch::channel(());
    let mut shutdown = pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(err) => {
                    // Out of file descriptors or similar: wait instead of spinning.
                    tracing::warn!(error = %err, "accept failed");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let Some(slot) = cap.admit(peer.ip()) else {
            tracing::debug!(%peer, "connection refused: too many from this address");
            continue;
        };
        let _ = stream.set_nodelay(true);
        let slot = HeldSlot(Arc::new(slot));
        let service = make(peer, slot.clone())
            .map_request(|request: hyper::Request<Incoming>| request.map(Body::new));
        let (mut stop_rx, done_rx) = (stop_rx.clone(), done_rx.clone());
        tokio::spawn(async move {
            let mut builder = hyper::server::conn::http1::Builder::new();
            builder
                .timer(TokioTimer::new())
                .header_read_timeout(head_timeout);
            let connection = builder
                .serve_connection(TokioIo::new(stream), TowerToHyperService::new(service))
                .with_upgrades();
            let mut connection = pin!(connection);
            tokio::select! {
                result = connection.as_mut() => {
                    if let Err(err) = result {
                        tracing::trace!(%peer, error = %err, "connection ended");
                    }
                }
                _ = stop_rx.changed() => {
                    connection.as_mut().graceful_shutdown();
                    let _ = connection.as_mut().await;
                }
            }
            drop((slot, done_rx));
        });
    }
    drop(listener);
    closed();
    drop(stop_tx);
    drop(done_rx);
    // A request that never ends (an encoder's PUT) must not hold the process forever.
    if tokio::time::timeout(drain_timeout, done_tx.closed())
        .await
        .is_err()
    {
        tracing::warn!("connections still open after the drain timeout; closing them");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_holds_at_most_its_share_and_gets_it_back_on_close() {
        let cap = ConnectionCap::new(Some(2));
        let (a, b): (IpAddr, IpAddr) = ("10.0.0.1".parse().unwrap(), "10.0.0.2".parse().unwrap());
        let first = cap.admit(a).expect("first");
        let _second = cap.admit(a).expect("second");
        assert!(cap.admit(a).is_none(), "a third from the same address");
        assert!(cap.admit(b).is_some(), "another address is not affected");
        drop(first);
        assert!(cap.admit(a).is_some(), "a closed connection frees its slot");
    }

    #[test]
    fn without_a_cap_every_connection_is_admitted() {
        let cap = ConnectionCap::new(None);
        let ip: IpAddr = "10.0.0.1".parse().unwrap();
        let slots: Vec<Slot> = (0..1000).filter_map(|_| cap.admit(ip)).collect();
        assert_eq!(slots.len(), 1000);
    }
}
