//! The bank account number, sealed for the insurer (it never travels in clear).
//!
//! Encrypted with the receiver's RSA public key (`PAWPATH_POLICY_WEBHOOK_ACCOUNT_KEY`, at least
//! 2,048 bits) by RSA-OAEP with SHA-256, the mandate's reference as the OAEP label: only the
//! holder of the private key can read it, a copy of pawpath's configuration or database reveals
//! nothing of what was sent, and a ciphertext moved to another mandate does not decrypt. RSA-OAEP
//! is what every receiver's platform decrypts without anything added (Java's
//! `RSA/ECB/OAEPWithSHA-256AndMGF1Padding` with MGF1-SHA-256, .NET's `RSAEncryptionPadding
//! .OaepSHA256`, Python's `cryptography`, OpenSSL). pawpath only encrypts, with a public key, so
//! the timing weakness of the `rsa` crate's decryption (RUSTSEC-2023-0071) does not reach it.

use rsa::pkcs8::{DecodePublicKey as _, EncodePublicKey as _};
use rsa::traits::PublicKeyParts as _;
use rsa::{Oaep, RsaPublicKey};
use sha2::Digest as _;

/// The algorithm's name, as the event states it.
pub const ALGORITHM: &str = "RSA-OAEP-256";

/// The fewest bits a key may have.
const MIN_BITS: usize = 2048;

/// The most bits a key may have (a bigger one costs every purchase more for nothing).
const MAX_BITS: usize = 8192;

/// The largest key file read.
const MAX_FILE_BYTES: u64 = 16 * 1024;

/// The receiver's public key, and its id (the first 16 hex digits of the SHA-256 of its DER
/// form), which each sealed value names so that keys can be rotated.
#[derive(Clone)]
pub struct AccountKey {
    key: RsaPublicKey,
    id: String,
}

impl std::fmt::Debug for AccountKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "AccountKey({})", self.id)
    }
}

impl AccountKey {
    /// A PEM public key (`-----BEGIN PUBLIC KEY-----`) given inline, or the path of a file
    /// holding one.
    pub fn load(setting: &str) -> Result<Self, String> {
        let setting = setting.trim();
        if setting.starts_with("-----BEGIN") {
            return Self::parse(setting);
        }
        let path = std::path::Path::new(setting);
        let size = std::fs::metadata(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?
            .len();
        if size > MAX_FILE_BYTES {
            return Err(format!(
                "{} is {size} bytes; a public key is under {MAX_FILE_BYTES}",
                path.display()
            ));
        }
        let pem = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        Self::parse(&pem)
    }

    /// A PEM public key (SubjectPublicKeyInfo) of 2,048 to 8,192 bits.
    pub fn parse(pem: &str) -> Result<Self, String> {
        let key = RsaPublicKey::from_public_key_pem(pem.trim()).map_err(|e| {
            format!("is not an RSA public key in PEM (-----BEGIN PUBLIC KEY-----): {e}")
        })?;
        let bits = key.n().bits();
        if !(MIN_BITS..=MAX_BITS).contains(&bits) {
            return Err(format!(
                "is a {bits}-bit key; {MIN_BITS} to {MAX_BITS} bits are needed"
            ));
        }
        let der = key
            .to_public_key_der()
            .map_err(|e| format!("cannot be encoded: {e}"))?;
        let digest = sha2::Sha256::digest(der.as_bytes());
        let id = digest.iter().take(8).map(|b| format!("{b:02x}")).collect();
        Ok(Self { key, id })
    }

    pub fn id(&self) -> &str {
        &self.id
    }

    /// `plain` sealed for the receiver, bound to `label` (the mandate's reference): base64 of
    /// the ciphertext.
    pub fn seal(&self, plain: &str, label: &str) -> Result<String, String> {
        use base64::Engine as _;
        let padding = Oaep::new_with_label::<rsa::sha2::Sha256, _>(label);
        let sealed = self
            .key
            .encrypt(&mut rsa::rand_core::OsRng, padding, plain.as_bytes())
            .map_err(|e| format!("cannot seal: {e}"))?;
        Ok(base64::engine::general_purpose::STANDARD.encode(sealed))
    }
}
