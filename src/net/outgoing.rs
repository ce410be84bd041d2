//! Outgoing HTTP (Stripe, the SMS gateway, `encore push`): rustls with the ring provider.
//!
//! ring builds in seconds where aws-lc-rs (reqwest's default provider) compiles a C
//! library for a minute of every clean build; the provider is installed for the process
//! the first time a client is made, so every client goes through [`client`].

use std::sync::Once;

/// A client builder whose TLS has its crypto provider.
pub fn client() -> reqwest::ClientBuilder {
    static PROVIDER: Once = Once::new();
    PROVIDER.call_once(|| {
        // Another part of the process may have installed one already: either serves.
        let _ = rustls::crypto::ring::default_provider().install_default();
    });
    reqwest::Client::builder()
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_client_with_tls_builds_and_reaches_no_network() {
        let client = super::client().https_only(true).build();
        assert!(client.is_ok(), "{client:?}");
        assert!(rustls::crypto::CryptoProvider::get_default().is_some());
    }
}
