//! Tokens signed with the server's secret (HMAC-SHA-256): a comparison site's click-through and
//! a free rehoming policy's annual link. Each use names its purpose, so a token made for one is
//! never accepted as the other. The payload is readable (base64url), not secret: what matters is
//! that nobody without the key can make or change one.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::{Hmac, Mac};
use sha2::Sha256;

use crate::config::SecretKey;

fn mac(secret: &SecretKey, purpose: &str, payload: &str) -> Hmac<Sha256> {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret.bytes()).expect("any key length");
    mac.update(b"pawpath ");
    mac.update(purpose.as_bytes());
    mac.update(b"\0");
    mac.update(payload.as_bytes());
    mac
}

/// `payload` and its signature for `purpose`, as one URL-safe token.
pub fn sign(secret: &SecretKey, purpose: &str, payload: &str) -> String {
    let tag = mac(secret, purpose, payload).finalize().into_bytes();
    format!(
        "{}.{}",
        URL_SAFE_NO_PAD.encode(payload),
        URL_SAFE_NO_PAD.encode(tag)
    )
}

/// The payload of a token signed for `purpose` with this key; None for anything else.
pub fn verify(secret: &SecretKey, purpose: &str, token: &str) -> Option<String> {
    let (payload, tag) = token.split_once('.')?;
    let payload = String::from_utf8(URL_SAFE_NO_PAD.decode(payload).ok()?).ok()?;
    let tag = URL_SAFE_NO_PAD.decode(tag).ok()?;
    mac(secret, purpose, &payload).verify_slice(&tag).ok()?;
    Some(payload)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_verifies_only_with_its_key_and_purpose() {
        let key = SecretKey::from_bytes(vec![7; 32]);
        let token = sign(&key, "policy link", "PETRS0012345.1800000000");
        assert_eq!(
            verify(&key, "policy link", &token).as_deref(),
            Some("PETRS0012345.1800000000")
        );
        assert_eq!(verify(&key, "click-through", &token), None);
        assert_eq!(
            verify(&SecretKey::from_bytes(vec![8; 32]), "policy link", &token),
            None
        );
        // A changed payload under the old signature is refused.
        let (_, tag) = token.split_once('.').expect("signed");
        let forged = format!(
            "{}.{tag}",
            URL_SAFE_NO_PAD.encode("PETRS0012345.1900000000")
        );
        assert_eq!(verify(&key, "policy link", &forged), None);
        assert_eq!(verify(&key, "policy link", "not a token"), None);
    }
}
