//! Small state every instance must see alike — abuse counters and sign-in throttles — so
//! an attacker gains nothing from spreading over N instances. With Redis (the bus's), each
//! value lives in a Redis hash and changes by compare-and-set; in process, in a map.
//!
//! A value is a short string at (`group`, `field`); a group expires as a whole after the
//! longest time-to-live written into it. The decision logic stays in Rust: [`Shared::update`]
//! reads the value, asks the caller's `change` for the new one, and writes it only if
//! nobody wrote in between (else reads again). When Redis does not answer, the instance
//! counts in its own memory meanwhile (each instance apart, as with one instance) rather
//! than refusing every sign-in or letting every guess through.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use crate::bus::Bus;

/// KEYS: the group's hash. ARGV: field, whether a value is expected (`0`/`1`), the
/// expected value, whether to write (`0` deletes), the new value, time-to-live in ms.
/// Answers 1 when written, 0 when the value had changed.
const COMPARE_AND_SET: &str = r"
local current = redis.call('HGET', KEYS[1], ARGV[1])
if ARGV[2] == '0' then
  if current then return 0 end
elseif current ~= ARGV[3] then
  return 0
end
if ARGV[4] == '0' then
  redis.call('HDEL', KEYS[1], ARGV[1])
else
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[5])
  if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[6]) then
    redis.call('PEXPIRE', KEYS[1], ARGV[6])
  end
end
return 1
";

/// Tries of one compare-and-set before giving up on the shared value (only under a
/// storm of writes to one key, by then well past any limit).
const CAS_TRIES: usize = 16;

#[derive(Clone)]
pub struct Shared {
    bus: Option<Bus>,
    memory: Arc<Mutex<HashMap<String, Group>>>,
}

#[derive(Default)]
struct Group {
    fields: HashMap<String, String>,
    expires_ms: i64,
}

impl Shared {
    /// Shared through the bus's Redis when it has one, else this process's memory.
    pub fn new(bus: &Bus) -> Self {
        Self {
            bus: bus.shared_key("").is_some().then(|| bus.clone()),
            memory: Arc::default(),
        }
    }

    /// This process's memory only.
    pub fn in_process() -> Self {
        Self {
            bus: None,
            memory: Arc::default(),
        }
    }

    pub fn is_shared(&self) -> bool {
        self.bus.is_some()
    }

    /// Read the value at (`group`, `field`), let `change` make the new one (`None`
    /// deletes), and write it atomically; `change` may run more than once. Answers what
    /// was written.
    pub async fn update(
        &self,
        group: &str,
        field: &str,
        ttl_ms: i64,
        now_ms: i64,
        mut change: impl FnMut(Option<&str>) -> Option<String> + Send,
    ) -> Option<String> {
        if let Some(bus) = &self.bus {
            match redis_update(bus, group, field, ttl_ms, &mut change).await {
                Ok(written) => return written,
                Err(err) => {
                    tracing::warn!(error = %err, "shared limits: Redis unavailable, counting in this instance meanwhile");
                }
            }
        }
        self.memory_update(group, field, ttl_ms, now_ms, &mut change)
    }

    fn memory_update(
        &self,
        group: &str,
        field: &str,
        ttl_ms: i64,
        now_ms: i64,
        change: &mut (dyn FnMut(Option<&str>) -> Option<String> + Send),
    ) -> Option<String> {
        let mut memory = self.memory.lock().unwrap_or_else(|e| e.into_inner());
        let entry = memory.entry(group.to_owned()).or_default();
        if entry.expires_ms <= now_ms {
            entry.fields.clear();
        }
        let written = change(entry.fields.get(field).map(String::as_str));
        match &written {
            Some(value) => {
                entry.fields.insert(field.to_owned(), value.clone());
                entry.expires_ms = entry.expires_ms.max(now_ms + ttl_ms);
            }
            None => {
                entry.fields.remove(field);
            }
        }
        if entry.fields.is_empty() {
            memory.remove(group);
        }
        written
    }

    /// Forget a whole group.
    pub async fn clear(&self, group: &str) {
        if let Some(bus) = &self.bus {
            let key = bus
                .shared_key(&format!("limits:{group}"))
                .unwrap_or_default();
            if let Some(Err(err)) = bus.shared_command::<i64>(redis::cmd("DEL").arg(key)).await {
                tracing::warn!(error = %err, "shared limits: clearing in Redis failed");
            }
        }
        self.memory
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(group);
    }

    /// Forget expired groups in memory (Redis expires its own).
    pub fn prune(&self, now_ms: i64) {
        self.memory
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .retain(|_, group| group.expires_ms > now_ms);
    }
}

async fn redis_update(
    bus: &Bus,
    group: &str,
    field: &str,
    ttl_ms: i64,
    change: &mut (dyn FnMut(Option<&str>) -> Option<String> + Send),
) -> Result<Option<String>, crate::bus::BusError> {
    let key = bus
        .shared_key(&format!("limits:{group}"))
        .unwrap_or_default();
    for _ in 0..CAS_TRIES {
        let current: Option<String> = bus
            .shared_command(redis::cmd("HGET").arg(&key).arg(field))
            .await
            .unwrap_or(Ok(None))?;
        let written = change(current.as_deref());
        let mut command = redis::cmd("EVAL");
        command
            .arg(COMPARE_AND_SET)
            .arg(1)
            .arg(&key)
            .arg(field)
            .arg(if current.is_some() { "1" } else { "0" })
            .arg(current.as_deref().unwrap_or(""))
            .arg(if written.is_some() { "1" } else { "0" })
            .arg(written.as_deref().unwrap_or(""))
            .arg(ttl_ms.max(1));
        let done: i64 = bus.shared_command(&command).await.unwrap_or(Ok(0))?;
        if done == 1 {
            return Ok(written);
        }
    }
    Err(crate::bus::BusError::Protocol(format!(
        "{key} {field}: too many concurrent writers"
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_value_changes_in_place_expires_with_its_group_and_clears() {
        let shared = Shared::in_process();
        let bump =
            |v: Option<&str>| Some((v.map_or(0, |v| v.parse::<u32>().unwrap()) + 1).to_string());
        assert_eq!(
            shared.update("g", "n", 1000, 0, bump).await.as_deref(),
            Some("1")
        );
        assert_eq!(
            shared.update("g", "n", 1000, 10, bump).await.as_deref(),
            Some("2")
        );
        assert_eq!(
            shared.update("g", "n", 1000, 2000, bump).await.as_deref(),
            Some("1"),
            "expired"
        );
        shared.clear("g").await;
        assert_eq!(
            shared.update("g", "n", 1000, 2001, bump).await.as_deref(),
            Some("1")
        );
        assert_eq!(shared.update("g", "n", 1000, 2002, |_| None).await, None);
        shared.prune(i64::MAX);
        assert!(shared.memory.lock().unwrap().is_empty());
    }
}
