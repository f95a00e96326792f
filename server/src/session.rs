//! The browser session that owns a quote, and the CSRF token derived from it.
//!
//! The cookie holds 32 random bytes; the database keeps only their SHA-256, so a database reader
//! cannot take over a session. The CSRF token is an HMAC of the session token under the server's
//! secret: it needs no storage, differs per session, and survives a restart. A page is given it
//! masked afresh each time (a random pad, then the token XOR the pad): answers are compressed
//!, and a secret repeated byte for byte in compressed answers beside text an attacker
//! can choose could be read off their sizes (BREACH). Any of its masked forms is accepted.

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

/// An HMAC-SHA-256, the CSRF token before masking.
const CSRF_BYTES: usize = 32;
/// The masked token's length in unpadded base64.
const CSRF_MASKED_LEN: usize = (2 * CSRF_BYTES * 4).div_ceil(3);

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
        Self::from_cookie(headers, COOKIE_NAME)
    }

    /// The token from the request's cookie `cookie` (the studio's is a cookie of its own), if it
    /// has the right shape.
    pub fn from_cookie(headers: &HeaderMap, cookie: &str) -> Option<Self> {
        headers
            .get_all(COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(';'))
            .filter_map(|pair| pair.trim().split_once('='))
            .find(|(name, _)| *name == cookie)
            .map(|(_, value)| value.to_owned())
            .filter(|v| {
                v.len() == 43
                    && v.bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
            })
            .map(Self)
    }

    /// The session a purchase moves its quote to: an HMAC of this session's token
    /// and the purchase's idempotency key under the server's secret. Every request of one
    /// purchase (a double click, the buyer's retry whose answer was lost) makes the same one, so
    /// each is answered with the same cookie; whoever holds this session's cookie without the
    /// key (which only the buying page knows) or the secret cannot make it.
    pub fn after_purchase(&self, secret: &SecretKey, idempotency_key: &str) -> Self {
        #[expect(clippy::expect_used, reason = "HMAC takes keys of any length")]
        let mut mac = Hmac::<Sha256>::new_from_slice(secret.bytes()).expect("any key length");
        mac.update(b"pawpath purchase session v1:");
        mac.update(self.0.as_bytes());
        mac.update(b":");
        mac.update(idempotency_key.as_bytes());
        Self(URL_SAFE_NO_PAD.encode(mac.finalize().into_bytes()))
    }

    /// What the database stores instead of the token.
    pub fn hash(&self) -> String {
        sha256_hex(&self.0)
    }

    /// The CSRF token masked afresh: 32 random bytes, then the token XOR them (86 characters).
    pub fn csrf(&self, secret: &SecretKey) -> String {
        let token = self.mac(secret).finalize().into_bytes();
        let mut masked = [0u8; 2 * CSRF_BYTES];
        rand::rng().fill_bytes(&mut masked[..CSRF_BYTES]);
        for i in 0..CSRF_BYTES {
            masked[CSRF_BYTES + i] = masked[i] ^ token[i];
        }
        URL_SAFE_NO_PAD.encode(masked)
    }

    /// Checks a masked CSRF token in constant time (its length first: nothing longer is decoded).
    pub fn csrf_matches(&self, secret: &SecretKey, given: &str) -> bool {
        if given.len() != CSRF_MASKED_LEN {
            return false;
        }
        let mut masked = [0u8; 2 * CSRF_BYTES];
        if URL_SAFE_NO_PAD.decode_slice(given, &mut masked) != Ok(2 * CSRF_BYTES) {
            return false;
        }
        let mut unmasked = [0u8; CSRF_BYTES];
        for (i, byte) in unmasked.iter_mut().enumerate() {
            *byte = masked[i] ^ masked[CSRF_BYTES + i];
        }
        let expected = self.mac(secret).finalize().into_bytes();
        expected.as_slice().ct_eq(&unmasked).into()
    }

    fn mac(&self, secret: &SecretKey) -> Hmac<Sha256> {
        #[expect(clippy::expect_used, reason = "HMAC takes keys of any length")]
        let mut mac = Hmac::<Sha256>::new_from_slice(secret.bytes()).expect("any key length");
        mac.update(b"pawpath csrf v1:");
        mac.update(self.0.as_bytes());
        mac
    }

    /// The studio's Set-Cookie header value: its own cookie, for the studio's paths only,
    /// HttpOnly, SameSite=Strict (no other site's page ever sends it), Secure over https, for
    /// `max_age` seconds.
    pub fn set_studio_cookie(&self, cookie: &str, secure: bool, max_age: i64) -> String {
        let mut value = format!(
            "{cookie}={}; Path=/studio; HttpOnly; SameSite=Strict; Max-Age={max_age}",
            self.0
        );
        if secure {
            value.push_str("; Secure");
        }
        value
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
    fn csrf_is_masked_afresh_for_each_page_and_every_mask_is_accepted() {
        let secret = SecretKey::from_bytes(vec![7; 32]);
        let a = SessionToken::generate();
        let (first, second) = (a.csrf(&secret), a.csrf(&secret));
        assert_eq!(first.len(), 86);
        assert_ne!(first, second, "no two pages carry the same bytes");
        assert!(a.csrf_matches(&secret, &first) && a.csrf_matches(&secret, &second));
        // The unmasked token, a mask with its half changed, and anything too long are refused.
        use base64::Engine as _;
        let bare = base64::engine::general_purpose::URL_SAFE_NO_PAD
            .encode(a.mac(&secret).finalize().into_bytes());
        assert!(!a.csrf_matches(&secret, &bare));
        let mut tampered = first.clone().into_bytes();
        tampered[0] = if tampered[0] == b'A' { b'B' } else { b'A' };
        assert!(!a.csrf_matches(&secret, &String::from_utf8(tampered).expect("ascii")));
        assert!(!a.csrf_matches(&secret, &"A".repeat(1_000_000)));
        assert!(!a.csrf_matches(&secret, &format!("{}!", &first[..85])));
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
    fn a_purchase_session_is_the_same_for_one_purchase_and_unknowable_without_key_and_secret() {
        let secret = SecretKey::from_bytes(vec![7; 32]);
        let a = SessionToken::generate();
        let next = a.after_purchase(&secret, "key-0001");
        assert_eq!(next.hash(), a.after_purchase(&secret, "key-0001").hash());
        assert_ne!(next.hash(), a.hash());
        assert_ne!(next.hash(), a.after_purchase(&secret, "key-0002").hash());
        assert_ne!(
            next.hash(),
            a.after_purchase(&SecretKey::from_bytes(vec![8; 32]), "key-0001")
                .hash()
        );
        // A cookie like any other: 43 characters of URL-safe base64.
        let mut headers = HeaderMap::new();
        let set = next.set_cookie(false);
        headers.insert(
            COOKIE,
            HeaderValue::from_str(set.split(';').next().expect("pair")).expect("header"),
        );
        assert_eq!(
            SessionToken::from_headers(&headers).map(|t| t.hash()),
            Some(next.hash())
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
