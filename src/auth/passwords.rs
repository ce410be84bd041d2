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

/// What a sign-in without a stored hash (an unknown account, an invitation not yet taken)
/// is checked against, so it takes as long to refuse as a known one: the argon2id hash,
/// with the parameters above, of a random password nobody kept. Its password does not
/// matter, since such a sign-in is refused whatever the check says. A constant: hashing a
/// fresh one at every start cost each server, CLI command and test one argon2 run
/// (docs/ci.md, thirtieth session); a test keeps its parameters those above.
const DECOY: &str = "$argon2id$v=19$m=19456,t=2,p=1$sZJNnq20EmZ7fgM4UgMXDg$Lh1bK0EDOA3WmI9JFB18zLWwEGhmXjKwS8zBjUMOEd0";

#[derive(Clone)]
pub struct Passwords {
    argon2: Argon2<'static>,
    slots: Arc<Semaphore>,
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
        Self {
            argon2,
            slots: Arc::new(Semaphore::new(slots)),
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
        let hash = stored.unwrap_or(DECOY).to_owned();
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_decoy_is_a_hash_with_todays_parameters() {
        let decoy = PasswordHash::new(DECOY).expect("a PHC string");
        assert_eq!(decoy.algorithm.as_str(), "argon2id");
        let params = Params::try_from(&decoy).expect("argon2 parameters");
        assert_eq!(
            (params.m_cost(), params.t_cost(), params.p_cost()),
            (MEMORY_KIB, ITERATIONS, LANES),
            "a decoy cheaper or dearer than a real hash tells unknown accounts apart"
        );
    }

    #[tokio::test]
    async fn an_unknown_account_is_checked_against_the_decoy_and_refused() {
        let passwords = Passwords::new();
        assert!(!passwords.verify("anything", None).await.unwrap());
        let hash = passwords
            .hash(&Password::parse("correct horse battery staple").unwrap())
            .await
            .unwrap();
        assert!(
            passwords
                .verify("correct horse battery staple", Some(&hash))
                .await
                .unwrap()
        );
    }
}
