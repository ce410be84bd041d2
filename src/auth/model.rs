//! The auth domain's types: a registered OAuth client and which redirects it allows.

use url::{Host, Url};

crate::db::row! {
    #[derive(Debug, Clone)]
    pub struct Client {
        pub id: String,
        pub name: String,
        pub secret_hash: Option<String>,
        pub redirect_uris: String,
        /// 1: the refresh token goes in an HttpOnly cookie, never in the body (see
        /// [`Client::refresh_in_cookie`]).
        pub refresh_in_cookie: i64,
    }
}

impl Client {
    /// A browser client on this origin (the dashboard): its refresh token is set as an
    /// HttpOnly cookie and left out of the token answer, so no script (nor an XSS) can
    /// read it. Other clients have no cookie jar for this origin and get it in the body.
    pub fn refresh_in_cookie(&self) -> bool {
        self.refresh_in_cookie != 0
    }

    /// A redirect URI is allowed when it is registered exactly, or when both it and a
    /// registered URI are on a loopback host and differ only in which loopback name they
    /// use (RFC 8252 section 7.3): someone who opens `http://localhost:8080` on a server
    /// published as `http://127.0.0.1:8080` can sign in. The scheme, port, path and query
    /// must still match, so nothing outside this machine is ever accepted.
    pub fn allows_redirect(&self, uri: &str) -> bool {
        self.redirect_uris
            .lines()
            .any(|allowed| allowed == uri || same_loopback_redirect(allowed, uri))
    }
}

fn same_loopback_redirect(registered: &str, requested: &str) -> bool {
    let (Ok(registered), Ok(requested)) = (Url::parse(registered), Url::parse(requested)) else {
        return false;
    };
    is_loopback(&registered)
        && is_loopback(&requested)
        && registered.scheme() == requested.scheme()
        && registered.port_or_known_default() == requested.port_or_known_default()
        && registered.path() == requested.path()
        && registered.query() == requested.query()
        && requested.fragment().is_none()
        && requested.username().is_empty()
        && requested.password().is_none()
}

/// The loopback names RFC 8252 lets a client use interchangeably.
fn is_loopback(url: &Url) -> bool {
    match url.host() {
        Some(Host::Domain(name)) => name.eq_ignore_ascii_case("localhost"),
        Some(Host::Ipv4(ip)) => ip == std::net::Ipv4Addr::LOCALHOST,
        Some(Host::Ipv6(ip)) => ip == std::net::Ipv6Addr::LOCALHOST,
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn client(uris: &str) -> Client {
        Client {
            id: crate::auth::clients::WEB_CLIENT_ID.into(),
            name: "web".into(),
            secret_hash: None,
            redirect_uris: uris.into(),
            refresh_in_cookie: 1,
        }
    }

    #[test]
    fn loopback_aliases_of_the_same_port_and_path_are_accepted() {
        let web = client("http://127.0.0.1:8080/auth/callback");
        assert!(web.allows_redirect("http://127.0.0.1:8080/auth/callback"));
        assert!(web.allows_redirect("http://localhost:8080/auth/callback"));
        assert!(web.allows_redirect("http://LOCALHOST:8080/auth/callback"));
        assert!(web.allows_redirect("http://[::1]:8080/auth/callback"));
    }

    #[test]
    fn anything_else_than_a_loopback_alias_is_refused() {
        let web = client("http://127.0.0.1:8080/auth/callback");
        for uri in [
            "http://localhost:8081/auth/callback",
            "https://localhost:8080/auth/callback",
            "http://localhost:8080/auth/other",
            "http://localhost:8080/auth/callback?next=x",
            "http://localhost.evil.example:8080/auth/callback",
            "http://127.0.0.2:8080/auth/callback",
            "http://evil.example/auth/callback",
            "http://user@localhost:8080/auth/callback",
            "not a url",
        ] {
            assert!(!web.allows_redirect(uri), "{uri} must be refused");
        }
    }

    #[test]
    fn a_public_url_behind_a_proxy_accepts_only_itself() {
        let web = client("https://tickets.example.com/auth/callback");
        assert!(web.allows_redirect("https://tickets.example.com/auth/callback"));
        assert!(!web.allows_redirect("http://localhost/auth/callback"));
        assert!(!web.allows_redirect("https://localhost/auth/callback"));
    }
}
