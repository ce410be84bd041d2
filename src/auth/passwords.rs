//! Password hashing: argon2id with OWASP parameters, run on the blocking pool with a
//! bound so a flood of sign-in attempts cannot starve the async workers.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use argon2::{Algorithm, Argon2, Params, Version};
use tokio::sync::Semaphore;

use crate::accounts::model::Password;
use crate::error::{Error, Result};

/// OWASP (2023+) argon2id minimum: 19 MiB memory, 2 iterations, 1 lane.
const MEMORY_KIB: u32 = 19_456;
const ITERATIONS: u32 = 2;
const LANES: u32 = 1;
/// How long a request may wait for a hashing slot before it is told the server is busy.
const QUEUE_WAIT: Duration = Duration::from_secs(10);

#[derive(Clone)]
pub struct Passwords {
    argon2: Argon2<'static>,
    slots: Arc<Semaphore>,
    /// A real hash of a random password: unknown accounts are checked against it so they
    /// take as long to refuse as known ones.
    decoy: Arc<String>,
    /// New hashes computed so far: lets tests prove that a refusal did (or did not) do the
    /// work of a real one without timing it.
    hashes: Arc<AtomicU64>,
}

impl Passwords {
    pub fn new() -> Self {
        let params = Params::new(MEMORY_KIB, ITERATIONS, LANES, None).expect("valid argon2 params");
        let argon2 = Argon2::new(Algorithm::Argon2id, Version::V0x13, params);
        // Leave one core to the async runtime so health checks and other requests stay fast.
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        let slots = cores.saturating_sub(1).max(1);
        let decoy = argon2
            .hash_password(crate::crypto::random_token(16).as_bytes())
            .expect("hashing a decoy password")
            .to_string();
        Self {
            argon2,
            slots: Arc::new(Semaphore::new(slots)),
            decoy: Arc::new(decoy),
            hashes: Arc::new(AtomicU64::new(0)),
        }
    }

    async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce(&Argon2<'static>) -> T + Send + 'static,
    ) -> Result<T> {
        let permit = tokio::time::timeout(QUEUE_WAIT, self.slots.clone().acquire_owned())
            .await
            .map_err(|_| Error::Busy)?
            .map_err(|_| Error::Busy)?;
        let argon2 = self.argon2.clone();
        let result = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            work(&argon2)
        })
        .await
        .map_err(Error::internal)?;
        Ok(result)
    }

    pub async fn hash(&self, password: &Password) -> Result<String> {
        self.hashes.fetch_add(1, Ordering::Relaxed);
        let plain = password.expose().to_owned();
        self.run(move |argon2| {
            argon2
                .hash_password(plain.as_bytes())
                .map(|h| h.to_string())
                .map_err(Error::internal)
        })
        .await?
    }

    /// How many new hashes [`Self::hash`] was asked for since start.
    pub fn hashes_made(&self) -> u64 {
        self.hashes.load(Ordering::Relaxed)
    }

    /// True when `plain` matches `stored`. With no stored hash (unknown account, or an
    /// invited account that never set a password) the decoy is checked and false returned.
    pub async fn verify(&self, plain: &str, stored: Option<&str>) -> Result<bool> {
        let known = stored.is_some();
        let hash = stored.map_or_else(|| self.decoy.as_str().to_owned(), str::to_owned);
        let plain = plain.to_owned();
        let matched = self
            .run(move |argon2| {
                PasswordHash::new(&hash)
                    .map(|parsed| argon2.verify_password(plain.as_bytes(), &parsed).is_ok())
                    .unwrap_or(false)
            })
            .await?;
        Ok(known && matched)
    }
}

impl Default for Passwords {
    fn default() -> Self {
        Self::new()
    }
}
