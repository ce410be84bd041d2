//! Small cryptographic helpers: random tokens, hashes of tokens, PKCE, constant-time eq,
//! and the sealing of personal data at rest.

use base64::Engine;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use rand::RngCore;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

/// A URL-safe random token carrying `bytes` bytes of entropy.
pub fn random_token(bytes: usize) -> String {
    let mut buf = vec![0u8; bytes];
    rand::rng().fill_bytes(&mut buf);
    URL_SAFE_NO_PAD.encode(buf)
}

/// A random decimal code of `digits` digits (leading zeros kept).
pub fn random_digits(digits: u32) -> String {
    use rand::Rng;
    let n: u64 = rand::rng().random_range(0..10u64.pow(digits));
    format!("{n:0width$}", width = digits as usize)
}

/// Hex SHA-256: how bearer secrets (codes, refresh tokens, links) are stored at rest.
pub fn token_hash(token: &str) -> String {
    let digest = Sha256::digest(token.as_bytes());
    hex(&digest)
}

fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    bytes
        .iter()
        .fold(String::with_capacity(bytes.len() * 2), |mut s, b| {
            let _ = write!(s, "{b:02x}");
            s
        })
}

/// PKCE S256: BASE64URL(SHA256(verifier)).
pub fn pkce_challenge(verifier: &str) -> String {
    URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()))
}

/// RFC 7636: 43–128 characters from the unreserved set.
pub fn is_valid_pkce_verifier(verifier: &str) -> bool {
    (43..=128).contains(&verifier.len())
        && verifier
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~'))
}

pub fn constant_time_eq(a: &str, b: &str) -> bool {
    a.as_bytes().ct_eq(b.as_bytes()).into()
}

/// A sealed value could not be opened: another key, or altered bytes.
#[derive(Debug, thiserror::Error)]
#[error("the sealed value cannot be opened with this key")]
pub struct SealError;

/// The key for personal data at rest (bank account numbers): ChaCha20-Poly1305 under a
/// key derived from the data secret with HKDF-SHA256, so the secret file can be any
/// string of 32+ characters. Sealed values read `v1:<nonce>:<ciphertext>` (base64); the
/// version prefix leaves room to change the scheme and tells sealed from legacy text.
#[derive(Clone)]
pub struct DataKey(chacha20poly1305::Key);

const SEALED_V1: &str = "v1:";

impl DataKey {
    pub fn derive(secret: &str) -> Self {
        let mut key = chacha20poly1305::Key::default();
        hkdf::Hkdf::<Sha256>::new(None, secret.as_bytes())
            .expand(b"encore data at rest v1", &mut key)
            .expect("32 bytes is a valid HKDF-SHA256 output length");
        Self(key)
    }

    /// Encrypt `plain` for the column named by `purpose` (bound as associated data, so a
    /// sealed value copied into another column does not open there).
    pub fn seal(&self, purpose: &str, plain: &str) -> Result<String, SealError> {
        use chacha20poly1305::aead::{Aead, KeyInit, Payload};
        let mut nonce = [0u8; 12];
        rand::rng().fill_bytes(&mut nonce);
        let sealed = chacha20poly1305::ChaCha20Poly1305::new(&self.0)
            .encrypt(
                &chacha20poly1305::Nonce::from(nonce),
                Payload {
                    msg: plain.as_bytes(),
                    aad: purpose.as_bytes(),
                },
            )
            .map_err(|_| SealError)?;
        Ok(format!(
            "{SEALED_V1}{}:{}",
            STANDARD.encode(nonce),
            STANDARD.encode(sealed)
        ))
    }

    /// Decrypt a value made by [`DataKey::seal`] for the same `purpose`.
    pub fn open(&self, purpose: &str, stored: &str) -> Result<String, SealError> {
        use chacha20poly1305::aead::{Aead, KeyInit, Payload};
        let (nonce, sealed) = stored
            .strip_prefix(SEALED_V1)
            .and_then(|rest| rest.split_once(':'))
            .ok_or(SealError)?;
        let nonce: [u8; 12] = STANDARD
            .decode(nonce)
            .map_err(|_| SealError)?
            .try_into()
            .map_err(|_| SealError)?;
        let sealed = STANDARD.decode(sealed).map_err(|_| SealError)?;
        let plain = chacha20poly1305::ChaCha20Poly1305::new(&self.0)
            .decrypt(
                &chacha20poly1305::Nonce::from(nonce),
                Payload {
                    msg: &sealed,
                    aad: purpose.as_bytes(),
                },
            )
            .map_err(|_| SealError)?;
        String::from_utf8(plain).map_err(|_| SealError)
    }

    /// Whether `stored` was sealed (else it is legacy plain text, from before sealing).
    pub fn is_sealed(stored: &str) -> bool {
        stored.starts_with(SEALED_V1)
    }
}

impl std::fmt::Debug for DataKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("DataKey(***)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pkce_matches_rfc_7636_appendix_b() {
        let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
        assert_eq!(
            pkce_challenge(verifier),
            "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
        );
        assert!(is_valid_pkce_verifier(verifier));
        assert!(!is_valid_pkce_verifier("short"));
        assert!(!is_valid_pkce_verifier(&"a b".repeat(20)));
    }

    #[test]
    fn a_sealed_value_opens_with_its_key_and_purpose_only() {
        let key = DataKey::derive("a data secret of at least thirty-two characters");
        let sealed = key.seal("bank", "GB33BUKB20201555555555").unwrap();
        assert!(DataKey::is_sealed(&sealed));
        assert!(!sealed.contains("5555"));
        assert_ne!(sealed, key.seal("bank", "GB33BUKB20201555555555").unwrap());
        assert_eq!(key.open("bank", &sealed).unwrap(), "GB33BUKB20201555555555");
        assert!(key.open("notes", &sealed).is_err());
        let other = DataKey::derive("another data secret of thirty-two characters");
        assert!(other.open("bank", &sealed).is_err());
        // One ciphertext character changed (well before the base64 padding).
        let at = sealed.len() - 8;
        let swap = if &sealed[at..=at] == "A" { "B" } else { "A" };
        let altered = format!("{}{swap}{}", &sealed[..at], &sealed[at + 1..]);
        assert!(key.open("bank", &altered).is_err());
        assert!(key.open("bank", "GB33BUKB20201555555555").is_err());
    }

    #[test]
    fn digits_keep_their_width() {
        for _ in 0..100 {
            let code = random_digits(6);
            assert_eq!(code.len(), 6);
            assert!(code.bytes().all(|b| b.is_ascii_digit()));
        }
    }
}
