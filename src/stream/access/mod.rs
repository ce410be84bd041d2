//! Per-ticket signed stream URLs. A listening session's token sits in the URL path, so
//! every relative segment and part URI in the (shared, identical) playlist inherits it.
//! Checking a request is an HMAC comparison plus an in-memory lookup — never a database
//! call — and starting a new session for a ticket ends the previous one at once.

pub mod minutes;
pub mod sessions;
pub mod store;

use std::collections::HashMap;
use std::sync::RwLock;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::{Hmac, Mac};
use sha2::Sha256;

use crate::bus::{Bus, Channel, Publication, Received};
use crate::db::Db;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grant {
    pub event_id: String,
    /// The ticket (or pass) that pays for it.
    pub ticket_id: String,
    pub session_id: String,
    /// Unix ms after which the URL stops working (start + 24 h).
    pub expires_at: i64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Denied {
    /// Malformed, tampered or signed with another key.
    Invalid,
    Expired,
    /// Another session took over this ticket, or access was revoked.
    Superseded,
}

const PASS_PREFIX: &str = "pass:";

/// The session key of a pass for one concert (a ticket's key is its id): a pass covers
/// many concerts, with one live session for each.
pub fn pass_key(pass_id: &str, event_id: &str) -> String {
    format!("{PASS_PREFIX}{pass_id}:{event_id}")
}

/// The pass of a pass's session key ([`pass_key`]); `None` for a ticket's.
pub fn pass_of(holder: &str) -> Option<&str> {
    let rest = holder.strip_prefix(PASS_PREFIX)?;
    rest.split_once(':').map(|(pass, _event)| pass)
}

pub struct StreamAccess {
    /// HMAC keyed with this instance's stream key, cloned per signature (the key
    /// schedule is computed once).
    mac: Hmac<Sha256>,
    /// ticket (or pass key) → its one live listening session, and the changes made
    /// while a reload from the database runs.
    live: RwLock<LiveSessions>,
    /// One reload at a time (each opens and closes its own log of changes).
    reloading: tokio::sync::Mutex<()>,
    /// Reloads finished, for the metrics.
    reloads: std::sync::atomic::AtomicU64,
    /// Where changes are told to the other instances (none in unit tests).
    bus: Option<Bus>,
}

/// A change to who may listen, told to every instance on the bus's cache channel: a new
/// session on one instance supersedes the old one on all, a refund on one ends listening
/// on all.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(
    tag = "kind",
    rename_all = "snake_case",
    rename_all_fields = "camelCase"
)]
pub enum Listening {
    Activated { holder: String, session_id: String },
    Revoked { holder: String },
    PassRevoked { pass_id: String },
    EventRevoked { event_id: String },
}

/// `listening` on the cache channel: who may listen changed on instance `origin`.
#[derive(serde::Serialize, serde::Deserialize)]
struct ListeningChanged {
    change: Listening,
    origin: String,
}

impl crate::bus::Message for ListeningChanged {
    const KIND: &'static str = "listening";
}

#[derive(Default)]
struct LiveSessions {
    sessions: HashMap<String, String>,
    /// While a reload reads the database: every change applied meanwhile, in order. Each
    /// change is stored before it is applied here, so the reload's rows may lack one made
    /// during its read, or still hold one it revoked; replaying these over them keeps both.
    during_reload: Option<Vec<Listening>>,
}

impl LiveSessions {
    fn apply(&mut self, change: &Listening) {
        let live = &mut self.sessions;
        match change {
            Listening::Activated { holder, session_id } => {
                live.insert(holder.clone(), session_id.clone());
            }
            Listening::Revoked { holder } => {
                live.remove(holder);
            }
            Listening::PassRevoked { pass_id } => {
                let prefix = pass_key(pass_id, "");
                live.retain(|holder, _| !holder.starts_with(&prefix));
            }
            Listening::EventRevoked { event_id } => {
                let suffix = format!(":{event_id}");
                live.retain(|holder, _| {
                    !(holder.starts_with(PASS_PREFIX) && holder.ends_with(&suffix))
                });
            }
        }
        if let Some(log) = &mut self.during_reload {
            log.push(change.clone());
        }
    }
}

/// A reload of the sessions from the database, begun: changes are logged until
/// [`Reload::finish`] swaps the rows in and replays them.
pub struct Reload<'a> {
    access: &'a StreamAccess,
    _one_at_a_time: tokio::sync::MutexGuard<'a, ()>,
}

impl Reload<'_> {
    /// Replace the sessions with `rows` (read after [`StreamAccess::begin_reload`]) and
    /// apply over them what changed meanwhile.
    pub fn finish(self, rows: Vec<(String, String)>) -> usize {
        let mut live = self.access.write();
        let changes = live.during_reload.take().unwrap_or_default();
        live.sessions = rows.into_iter().collect();
        for change in &changes {
            live.apply(change);
        }
        self.access
            .reloads
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        live.sessions.len()
    }
}

impl Drop for Reload<'_> {
    fn drop(&mut self) {
        // Finished or abandoned (the read failed): stop logging.
        self.access.write().during_reload = None;
    }
}

impl StreamAccess {
    pub fn new(secret: &[u8]) -> Self {
        // A key of its own, derived from the server secret: stream tokens cannot be
        // confused with any other signature.
        let mut mac = Hmac::<Sha256>::new_from_slice(secret).expect("any key length");
        mac.update(b"encore stream access v1");
        let key = mac.finalize().into_bytes();
        Self {
            mac: Hmac::<Sha256>::new_from_slice(&key).expect("any key length"),
            live: RwLock::new(LiveSessions::default()),
            reloading: tokio::sync::Mutex::new(()),
            reloads: std::sync::atomic::AtomicU64::new(0),
            bus: None,
        }
    }

    /// Tell the other instances of every change, and hear theirs.
    pub fn shared_through(mut self, bus: Bus) -> Self {
        self.bus = Some(bus);
        self
    }

    /// Apply a change here, then tell the other instances.
    fn change(&self, change: Listening) {
        self.apply(&change);
        if let Some(bus) = &self.bus {
            let origin = bus.instance().to_owned();
            bus.publish_detached(
                Channel::Cache,
                Publication::new(&ListeningChanged { change, origin }),
            );
        }
    }

    /// Apply a change here only.
    fn apply(&self, change: &Listening) {
        self.write().apply(change);
    }

    fn write(&self) -> std::sync::RwLockWriteGuard<'_, LiveSessions> {
        self.live.write().unwrap_or_else(|e| e.into_inner())
    }

    fn sign(&self, message: &str) -> String {
        let mut mac = self.mac.clone();
        mac.update(message.as_bytes());
        URL_SAFE_NO_PAD.encode(mac.finalize().into_bytes())
    }

    /// A new session id and its signed token for a ticket; it works once activated.
    pub fn issue(&self, event_id: &str, ticket_id: &str, expires_at: i64) -> (String, String) {
        let session_id = crate::crypto::random_token(12);
        let body = format!("{event_id}.{ticket_id}.{session_id}.{expires_at}");
        let token = format!("{}.{}", URL_SAFE_NO_PAD.encode(&body), self.sign(&body));
        (session_id, token)
    }

    /// Make `session_id` the ticket's one live session, ending any other, everywhere.
    pub fn activate(&self, ticket_id: &str, session_id: &str) {
        self.change(Listening::Activated {
            holder: ticket_id.to_owned(),
            session_id: session_id.to_owned(),
        });
    }

    /// Issue and activate at once: (session id, token).
    pub fn open(&self, event_id: &str, ticket_id: &str, expires_at: i64) -> (String, String) {
        let (session_id, token) = self.issue(event_id, ticket_id, expires_at);
        self.activate(ticket_id, &session_id);
        (session_id, token)
    }

    /// Load the stored sessions that still grant access into memory: at start, so
    /// playlist URLs handed out before a restart keep working, and after changes may have
    /// been missed. Sessions opened or ended here while it reads are kept as they are.
    pub async fn restore(&self, db: &Db) -> crate::error::Result<usize> {
        let reload = self.begin_reload().await;
        let rows = crate::stream::access::store::live(db, crate::db::now_ms()).await?;
        Ok(reload.finish(rows))
    }

    /// How many reloads finished since start.
    pub fn reloads(&self) -> u64 {
        self.reloads.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Start logging changes for a reload whose rows are read next.
    pub async fn begin_reload(&self) -> Reload<'_> {
        let one_at_a_time = self.reloading.lock().await;
        self.write().during_reload = Some(Vec::new());
        Reload {
            access: self,
            _one_at_a_time: one_at_a_time,
        }
    }

    /// Follow the other instances' changes, for as long as the bus lives (subscribed
    /// before this returns). When some may have been missed (Redis was away), the stored
    /// sessions are read again.
    pub fn follow_changes(self: std::sync::Arc<Self>, db: Db) {
        let Some(bus) = self.bus.clone() else {
            return;
        };
        let mut changes = bus.subscribe(&Channel::Cache);
        tokio::spawn(async move {
            while let Some(received) = changes.recv().await {
                match received {
                    Received::Message(delivery) => {
                        if let Some(ListeningChanged { change, origin }) = delivery.event.read()
                            && origin != bus.instance()
                        {
                            self.apply(&change);
                        }
                    }
                    Received::Lagged { .. } | Received::Reconnected => {
                        if let Err(err) = self.restore(&db).await {
                            tracing::error!(error = %err, "reloading the listening sessions failed");
                        }
                    }
                }
            }
        });
    }

    /// End every session of a ticket (refund, cancellation), everywhere.
    pub fn revoke(&self, ticket_id: &str) {
        self.change(Listening::Revoked {
            holder: ticket_id.to_owned(),
        });
    }

    /// End every session of a pass, whatever concert it was for, everywhere.
    pub fn revoke_pass(&self, pass_id: &str) {
        self.change(Listening::PassRevoked {
            pass_id: pass_id.to_owned(),
        });
    }

    /// End every pass session for a concert (cancelled, or its recording deleted),
    /// everywhere. A ticket's session ends with its ticket, or when the token expires.
    pub fn revoke_event(&self, event_id: &str) {
        self.change(Listening::EventRevoked {
            event_id: event_id.to_owned(),
        });
    }

    /// Check a token: signature, expiry, and that it is its ticket's live session. Runs on
    /// every media request, so it decodes into stack buffers and allocates only the grant.
    pub fn verify(&self, token: &str, now_ms: i64) -> Result<Grant, Denied> {
        let (body_b64, signature_b64) = token.split_once('.').ok_or(Denied::Invalid)?;
        let mut body = [0u8; MAX_TOKEN_BODY];
        let body_len = URL_SAFE_NO_PAD
            .decode_slice(body_b64, &mut body)
            .map_err(|_| Denied::Invalid)?;
        let body = &body[..body_len];
        let mut signature = [0u8; 48];
        let signature_len = URL_SAFE_NO_PAD
            .decode_slice(signature_b64, &mut signature)
            .map_err(|_| Denied::Invalid)?;
        let mut mac = self.mac.clone();
        mac.update(body);
        // Constant time, whatever the length.
        mac.verify_slice(&signature[..signature_len])
            .map_err(|_| Denied::Invalid)?;
        let body = std::str::from_utf8(body).map_err(|_| Denied::Invalid)?;
        let mut fields = body.rsplitn(4, '.');
        let expires_at: i64 = fields
            .next()
            .and_then(|s| s.parse().ok())
            .ok_or(Denied::Invalid)?;
        let session_id = fields.next().ok_or(Denied::Invalid)?;
        let ticket_id = fields.next().ok_or(Denied::Invalid)?;
        let event_id = fields.next().ok_or(Denied::Invalid)?;
        if now_ms >= expires_at {
            return Err(Denied::Expired);
        }
        let live = self.live.read().unwrap_or_else(|e| e.into_inner());
        if live.sessions.get(ticket_id).map(String::as_str) != Some(session_id) {
            return Err(Denied::Superseded);
        }
        Ok(Grant {
            event_id: event_id.to_owned(),
            ticket_id: ticket_id.to_owned(),
            session_id: session_id.to_owned(),
            expires_at,
        })
    }
}

/// The longest token body: two ids of ≤ 80 characters, a session id and a time.
const MAX_TOKEN_BODY: usize = 256;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_verifies_until_it_expires_or_is_superseded_or_tampered() {
        let access = StreamAccess::new(b"secret");
        let (_, token) = access.open("event-1", "ticket-1", 1_000);
        let grant = access.verify(&token, 999).unwrap();
        assert_eq!(grant.event_id, "event-1");
        assert_eq!(access.verify(&token, 1_000), Err(Denied::Expired));

        let mut tampered = token.clone();
        tampered.replace_range(0..1, if token.starts_with('A') { "B" } else { "A" });
        assert_eq!(access.verify(&tampered, 0), Err(Denied::Invalid));
        assert_eq!(
            StreamAccess::new(b"other").verify(&token, 0),
            Err(Denied::Invalid)
        );

        let (_, newer) = access.open("event-1", "ticket-1", 1_000);
        assert_eq!(
            access.verify(&token, 0),
            Err(Denied::Superseded),
            "one session per ticket"
        );
        assert!(access.verify(&newer, 0).is_ok());
        access.revoke("ticket-1");
        assert_eq!(access.verify(&newer, 0), Err(Denied::Superseded));
    }

    #[tokio::test]
    async fn a_reload_keeps_what_was_opened_or_ended_while_it_read_the_database() {
        let access = StreamAccess::new(b"secret");
        let (ended_id, ended) = access.open("event-1", "ticket-1", i64::MAX);
        let (_, forgotten) = access.open("event-1", "ticket-3", i64::MAX);
        let reload = access.begin_reload().await;
        // The rows as read before the two changes below were stored: ticket-1's session
        // still there, ticket-2's an older one, ticket-3's gone (ended elsewhere).
        let rows = vec![
            ("ticket-1".to_owned(), ended_id),
            ("ticket-2".to_owned(), "an-older-session".to_owned()),
        ];
        access.revoke("ticket-1");
        let (_, opened) = access.open("event-1", "ticket-2", i64::MAX);
        assert_eq!(reload.finish(rows), 1);
        assert_eq!(
            access.verify(&ended, 0),
            Err(Denied::Superseded),
            "ended during the read"
        );
        assert!(access.verify(&opened, 0).is_ok(), "opened during the read");
        assert_eq!(
            access.verify(&forgotten, 0),
            Err(Denied::Superseded),
            "not stored: the database is the truth"
        );
        // Logging stopped with the reload.
        assert!(access.write().during_reload.is_none());
    }

    #[test]
    fn a_pass_is_revoked_for_every_concert_and_a_concert_for_every_pass() {
        let access = StreamAccess::new(b"secret");
        let (_, a) = access.open("event-a", &pass_key("pass-1", "event-a"), i64::MAX);
        let (_, b) = access.open("event-b", &pass_key("pass-1", "event-b"), i64::MAX);
        let (_, c) = access.open("event-a", &pass_key("pass-2", "event-a"), i64::MAX);
        let (_, ticket) = access.open("event-a", "ticket-1", i64::MAX);
        access.revoke_pass("pass-1");
        assert_eq!(access.verify(&a, 0), Err(Denied::Superseded));
        assert_eq!(access.verify(&b, 0), Err(Denied::Superseded));
        assert!(access.verify(&c, 0).is_ok(), "another pass");
        access.revoke_event("event-a");
        assert_eq!(access.verify(&c, 0), Err(Denied::Superseded));
        assert!(
            access.verify(&ticket, 0).is_ok(),
            "tickets end with their ticket"
        );
    }
}
