//! The browser session that owns a quote, and the CSRF token derived from it.
//!
//! The cookie holds 32 random bytes; the database keeps only their SHA-256, so a database reader
//! cannot take over a session. The CSRF token is an HMAC of the session token under the server's
//! secret: it needs no storage, differs per session, and survives a restart.

use axum::http::HeaderMap;
use axum::http::header::COOKIE;
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::{Hmac, Mac};
use rand::RngCore;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use crate::config::SecretKey;

pub const COOKIE_NAME: &str = "pawpath_session";

/// A session token as the cookie carries it.
#[derive(Clone)]
pub struct SessionToken(String);

impl std::fmt::Debug for SessionToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SessionToken(…)")
    }
}

impl SessionToken {
    pub fn generate() -> Self {
        let mut bytes = [0u8; 32];
        rand::rng().fill_bytes(&mut bytes);
        Self(URL_SAFE_NO_PAD.encode(bytes))
    }

    /// The token from the request's cookies, if it has the right shape.
    pub fn from_headers(headers: &HeaderMap) -> Option<Self> {
        headers
            .get_all(COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(';'))
            .filter_map(|pair| pair.trim().split_once('='))
            .find(|(name, _)| *name == COOKIE_NAME)
            .map(|(_, value)| value.to_owned())
            .filter(|v| {
                v.len() == 43
                    && v.bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
            })
            .map(Self)
    }

    /// What the database stores instead of the token.
    pub fn hash(&self) -> String {
        sha256_hex(&self.0)
    }

    pub fn csrf(&self, secret: &SecretKey) -> String {
        URL_SAFE_NO_PAD.encode(self.mac(secret).finalize().into_bytes())
    }

    /// Checks a CSRF token in constant time.
    pub fn csrf_matches(&self, secret: &SecretKey, given: &str) -> bool {
        let expected = self.csrf(secret);
        expected.as_bytes().ct_eq(given.as_bytes()).into()
    }

    fn mac(&self, secret: &SecretKey) -> Hmac<Sha256> {
        #[expect(clippy::expect_used, reason = "HMAC takes keys of any length")]
        let mut mac = Hmac::<Sha256>::new_from_slice(secret.bytes()).expect("any key length");
        mac.update(b"pawpath csrf v1:");
        mac.update(self.0.as_bytes());
        mac
    }

    /// The Set-Cookie header value: HttpOnly, SameSite=Lax, Secure over https.
    pub fn set_cookie(&self, secure: bool) -> String {
        let mut cookie = format!(
            "{COOKIE_NAME}={}; Path=/; HttpOnly; SameSite=Lax; Max-Age=2592000",
            self.0
        );
        if secure {
            cookie.push_str("; Secure");
        }
        cookie
    }
}

/// The SHA-256 of `text` in hexadecimal: what the database keeps instead of a bearer token
/// (a session cookie, a spent signed link).
pub fn sha256_hex(text: &str) -> String {
    Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    #[test]
    fn csrf_is_bound_to_the_session_and_the_secret() {
        let secret = SecretKey::from_bytes(vec![7; 32]);
        let other_secret = SecretKey::from_bytes(vec![8; 32]);
        let a = SessionToken::generate();
        let b = SessionToken::generate();
        let token = a.csrf(&secret);
        assert!(a.csrf_matches(&secret, &token));
        assert!(!b.csrf_matches(&secret, &token));
        assert!(!a.csrf_matches(&other_secret, &token));
        assert!(!a.csrf_matches(&secret, ""));
    }

    #[test]
    fn cookie_round_trips_and_is_http_only_and_same_site() {
        let t = SessionToken::generate();
        let set = t.set_cookie(true);
        assert!(set.contains("HttpOnly") && set.contains("SameSite=Lax") && set.contains("Secure"));
        assert!(!t.set_cookie(false).contains("Secure"));
        let mut headers = HeaderMap::new();
        let pair = set.split(';').next().expect("pair");
        headers.insert(
            COOKIE,
            HeaderValue::from_str(&format!("other=1; {pair}")).expect("header"),
        );
        assert_eq!(
            SessionToken::from_headers(&headers).map(|t| t.hash()),
            Some(t.hash())
        );
    }

    #[test]
    fn malformed_cookies_are_ignored() {
        let mut headers = HeaderMap::new();
        headers.insert(
            COOKIE,
            HeaderValue::from_static("pawpath_session=../../etc"),
        );
        assert!(SessionToken::from_headers(&headers).is_none());
    }
}
