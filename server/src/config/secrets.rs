//! The server's secrets: given in the environment (base64), or made once in the data folder,
//! readable by its owner only, and never printed.

use std::fmt;
use std::path::Path;

use base64::Engine as _;
use rand::RngCore;

use super::error::{ConfigError, err};

/// A secret that never prints.
#[derive(Clone)]
pub struct SecretKey(Vec<u8>);

impl SecretKey {
    pub fn bytes(&self) -> &[u8] {
        &self.0
    }

    pub fn from_bytes(bytes: Vec<u8>) -> Self {
        Self(bytes)
    }
}

impl fmt::Debug for SecretKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SecretKey(…)")
    }
}

pub(super) fn parse_secret(value: &str) -> Result<SecretKey, String> {
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(value.trim())
        .map_err(|_| "is not base64".to_owned())?;
    if bytes.len() < 32 {
        return Err(format!("is {} bytes; at least 32 are needed", bytes.len()));
    }
    Ok(SecretKey(bytes))
}

pub(super) fn exactly_32(
    variable: &'static str,
    bytes: &[u8],
) -> Result<crate::crypto::EncryptionKey, ConfigError> {
    <[u8; 32]>::try_from(bytes)
        .map(crate::crypto::EncryptionKey)
        .map_err(|_| {
            err(
                variable,
                format!("is {} bytes; exactly 32 are needed", bytes.len()),
            )
        })
}

pub(super) fn load_or_create_secret(data_dir: &Path) -> Result<SecretKey, ConfigError> {
    load_or_create_key(data_dir, "secret.key", "PAWPATH_SECRET_KEY")
}

/// A key from `<data dir>/<file>`, made (32 random bytes, readable by the owner only) the first
/// time.
pub(super) fn load_or_create_key(
    data_dir: &Path,
    file: &str,
    variable: &'static str,
) -> Result<SecretKey, ConfigError> {
    let path = data_dir.join(file);
    if let Ok(text) = std::fs::read_to_string(&path) {
        return parse_secret(&text)
            .map_err(|p| err(variable, format!("unset, and {} {p}", path.display())));
    }
    std::fs::create_dir_all(data_dir).map_err(|e| {
        err(
            "PAWPATH_DATA_DIR",
            format!("cannot create {}: {e}", data_dir.display()),
        )
    })?;
    let mut bytes = vec![0u8; 32];
    rand::rng().fill_bytes(&mut bytes);
    let text = base64::engine::general_purpose::STANDARD.encode(&bytes);
    write_private(&path, &text).map_err(|e| {
        err(
            "PAWPATH_DATA_DIR",
            format!("cannot write {}: {e}", path.display()),
        )
    })?;
    Ok(SecretKey(bytes))
}

#[cfg(unix)]
fn write_private(path: &Path, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)?;
    f.write_all(text.as_bytes())
}

#[cfg(not(unix))]
fn write_private(path: &Path, text: &str) -> std::io::Result<()> {
    std::fs::write(path, text)
}
