//! Encryption at rest for what the customer gives that must never be stored in the clear (a bank
//! account number): AES-256-GCM with a key from configuration, a fresh random nonce for every
//! value, and the quote and field bound in as associated data, so a ciphertext moved to another
//! quote or field does not decrypt.

pub mod sealing;
pub mod webhook;

pub use sealing::AccountKey;
pub use webhook::WebhookSecret;

use aes_gcm::aead::{Aead, KeyInit, Payload};
use aes_gcm::{Aes256Gcm, Key, Nonce};
use base64::Engine as _;
use rand::RngCore;

/// The version tag every stored value starts with, so the scheme can change later.
const VERSION: &str = "v1";

/// A 32-byte key (`PAWPATH_ENCRYPTION_KEY`). Its Debug never shows the bytes.
#[derive(Clone)]
pub struct EncryptionKey(pub [u8; 32]);

impl std::fmt::Debug for EncryptionKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("EncryptionKey(…)")
    }
}

fn aad(quote_id: &str, field: &str) -> Vec<u8> {
    format!("pawpath:{quote_id}:{field}").into_bytes()
}

impl EncryptionKey {
    /// `v1:<base64 nonce || ciphertext>`.
    pub fn encrypt(&self, quote_id: &str, field: &str, plain: &str) -> Result<String, String> {
        let cipher = Aes256Gcm::new(Key::<Aes256Gcm>::from_slice(&self.0));
        let mut nonce = [0u8; 12];
        rand::rng().fill_bytes(&mut nonce);
        let aad = aad(quote_id, field);
        let sealed = cipher
            .encrypt(
                Nonce::from_slice(&nonce),
                Payload {
                    msg: plain.as_bytes(),
                    aad: &aad,
                },
            )
            .map_err(|_| "encryption failed".to_owned())?;
        let mut out = nonce.to_vec();
        out.extend(sealed);
        Ok(format!(
            "{VERSION}:{}",
            base64::engine::general_purpose::STANDARD.encode(out)
        ))
    }

    pub fn decrypt(&self, quote_id: &str, field: &str, stored: &str) -> Result<String, String> {
        let body = stored
            .strip_prefix("v1:")
            .ok_or_else(|| "unknown encryption version".to_owned())?;
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(body)
            .map_err(|_| "not base64".to_owned())?;
        if bytes.len() < 12 + 16 {
            return Err("too short".into());
        }
        let (nonce, sealed) = bytes.split_at(12);
        let cipher = Aes256Gcm::new(Key::<Aes256Gcm>::from_slice(&self.0));
        let aad = aad(quote_id, field);
        let plain = cipher
            .decrypt(
                Nonce::from_slice(nonce),
                Payload {
                    msg: sealed,
                    aad: &aad,
                },
            )
            .map_err(|_| "does not decrypt with this key".to_owned())?;
        String::from_utf8(plain).map_err(|_| "not text".to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_round_trip_and_are_bound_to_their_quote_and_field() {
        let key = EncryptionKey([7u8; 32]);
        let sealed = key
            .encrypt("q1", "/payment/account_number", "66374958")
            .expect("sealed");
        assert!(sealed.starts_with("v1:"));
        assert!(!sealed.contains("66374958"));
        assert_eq!(
            key.decrypt("q1", "/payment/account_number", &sealed)
                .expect("plain"),
            "66374958"
        );
        assert!(
            key.decrypt("q2", "/payment/account_number", &sealed)
                .is_err(),
            "another quote"
        );
        assert!(
            EncryptionKey([8u8; 32])
                .decrypt("q1", "/payment/account_number", &sealed)
                .is_err()
        );
        let again = key
            .encrypt("q1", "/payment/account_number", "66374958")
            .expect("sealed");
        assert_ne!(sealed, again, "a fresh nonce every time");
        assert_eq!(format!("{key:?}"), "EncryptionKey(…)");
    }
}
