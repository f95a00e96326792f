//! Standard Webhooks' signature (<https://www.standardwebhooks.com/>): the secret is given as
//! `whsec_` and base64; each attempt sends `webhook-id`, `webhook-timestamp` (seconds since the
//! epoch) and `webhook-signature`, `v1,` and the base64 HMAC-SHA256 of `id.timestamp.body`. The
//! receiver checks the signature and that the timestamp is recent, and deduplicates on the id.

use base64::Engine as _;
use hmac::{Hmac, Mac};
use sha2::Sha256;

/// The fewest and most bytes a secret may hold (the specification's 24 to 64).
const SECRET_BYTES: std::ops::RangeInclusive<usize> = 24..=64;

/// A webhook signing secret. Its Debug never shows the bytes.
#[derive(Clone)]
pub struct WebhookSecret(Vec<u8>);

impl std::fmt::Debug for WebhookSecret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("WebhookSecret(…)")
    }
}

impl WebhookSecret {
    /// Reads `whsec_` and base64 of 24 to 64 bytes; the error says what is wrong, never the value.
    pub fn parse(value: &str) -> Result<Self, String> {
        let Some(encoded) = value.trim().strip_prefix("whsec_") else {
            return Err("does not start with whsec_".into());
        };
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(encoded)
            .map_err(|_| "is not whsec_ followed by base64".to_owned())?;
        if !SECRET_BYTES.contains(&bytes.len()) {
            return Err(format!("holds {} bytes; 24 to 64 are needed", bytes.len()));
        }
        Ok(Self(bytes))
    }

    /// The `webhook-signature` header's value for one attempt.
    pub fn sign(&self, id: &str, timestamp: i64, body: &str) -> String {
        format!(
            "v1,{}",
            base64::engine::general_purpose::STANDARD.encode(self.mac(id, timestamp, body))
        )
    }

    /// Whether `header` (space-separated `v1,…` signatures, as a receiver may be sent during a
    /// secret's rotation) holds a signature of this secret over the attempt. In constant time.
    pub fn verify(&self, id: &str, timestamp: i64, body: &str, header: &str) -> bool {
        let expected = self.mac(id, timestamp, body);
        header.split(' ').any(|sig| {
            sig.strip_prefix("v1,")
                .and_then(|b| base64::engine::general_purpose::STANDARD.decode(b).ok())
                .is_some_and(|given| {
                    use subtle::ConstantTimeEq as _;
                    given.len() == expected.len() && bool::from(given.ct_eq(&expected))
                })
        })
    }

    fn mac(&self, id: &str, timestamp: i64, body: &str) -> Vec<u8> {
        // HMAC takes a key of any length: this cannot fail.
        let mut mac = Hmac::<Sha256>::new_from_slice(&self.0)
            .unwrap_or_else(|_| unreachable!("HMAC takes any key length"));
        mac.update(format!("{id}.{timestamp}.").as_bytes());
        mac.update(body.as_bytes());
        mac.finalize().into_bytes().to_vec()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The example Standard Webhooks' reference libraries are tested with (checked again with
    /// Python's hmac module).
    #[test]
    fn signs_as_the_specification_s_reference_libraries_do() {
        let secret =
            WebhookSecret::parse("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw").expect("a secret");
        let body = r#"{"test": 2432232314}"#;
        assert_eq!(
            secret.sign("msg_p5jXN8AQM9LWM0D4loKWxJek", 1_614_265_330, body),
            "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
        );
        assert!(secret.verify(
            "msg_p5jXN8AQM9LWM0D4loKWxJek",
            1_614_265_330,
            body,
            "v1,bm90IHRoaXM= v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
        ));
        assert!(!secret.verify(
            "msg_p5jXN8AQM9LWM0D4loKWxJek",
            1_614_265_331,
            body,
            &secret.sign("msg_p5jXN8AQM9LWM0D4loKWxJek", 1_614_265_330, body)
        ));
    }

    #[test]
    fn a_secret_must_be_whsec_and_base64_of_24_to_64_bytes() {
        assert!(WebhookSecret::parse("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw").is_err());
        assert!(WebhookSecret::parse("whsec_not base64!").is_err());
        assert!(WebhookSecret::parse("whsec_c2hvcnQ=").is_err());
        let long = base64::engine::general_purpose::STANDARD.encode([7u8; 65]);
        assert!(WebhookSecret::parse(&format!("whsec_{long}")).is_err());
    }
}
