//! The configuration read from the environment: each variable's rules and messages.

use super::*;
use std::collections::HashMap;

use rand::RngCore;

fn with(vars: &[(&str, &str)]) -> Result<Config, ConfigError> {
    let dir = std::env::temp_dir().join(format!("pawpath-config-{}", rand::rng().next_u64()));
    let mut map: HashMap<String, String> = vars
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    map.entry("PAWPATH_DATA_DIR".into())
        .or_insert(dir.display().to_string());
    Config::from_lookup(|k| map.get(k).cloned())
}

#[test]
fn defaults_use_sqlite_in_the_data_folder_and_keep_the_secret() {
    let dir = std::env::temp_dir().join(format!("pawpath-config-{}", rand::rng().next_u64()));
    let d = dir.display().to_string();
    let a = with(&[("PAWPATH_DATA_DIR", &d)]).expect("config");
    assert_eq!(a.port, 8080);
    assert!(a.database_url.starts_with("sqlite://"));
    assert_eq!(a.database_connections, DATABASE_CONNECTIONS);
    let few = with(&[("PAWPATH_DATABASE_CONNECTIONS", "3")]).expect("config");
    assert_eq!(few.database_connections, 3);
    let b = with(&[("PAWPATH_DATA_DIR", &d)]).expect("config");
    assert_eq!(
        a.secret_key.bytes(),
        b.secret_key.bytes(),
        "the generated secret is kept"
    );
}

#[test]
fn malformed_values_name_their_variable() {
    for (var, value) in [
        ("PORT", "eighty"),
        ("DATABASE_URL", "mysql://x"),
        ("PAWPATH_SECRET_KEY", "c2hvcnQ="),
        ("PAWPATH_LOG_FORMAT", "xml"),
        ("PAWPATH_PUBLIC_URL", "ftp://x"),
        ("PAWPATH_TEST_MODE", "yes"),
        ("PAWPATH_ADDRESS_PROVIDER", "royalmail"),
        ("PAWPATH_CLIENT_IP_HEADER", "bad header"),
        ("PAWPATH_SMTP_URL", "mailto:someone"),
        ("PAWPATH_MAIL_FROM", "not an address"),
        ("PAWPATH_MAIL_RETRY_MS", "10"),
        ("PAWPATH_DATABASE_CONNECTIONS", "2"),
        ("PAWPATH_DATABASE_CONNECTIONS", "many"),
    ] {
        let e = with(&[(var, value)]).expect_err(var);
        assert_eq!(e.variable, var);
        assert!(
            e.to_string().starts_with(&format!("configuration: {var}:")),
            "{e}"
        );
    }
}

#[test]
fn aggregator_keys_are_code_key_pairs_each_checked() {
    let key = "k".repeat(32);
    let other = "q".repeat(40);
    let c = with(&[(
        "PAWPATH_AGGREGATOR_KEYS",
        &format!(" ctm={key} , MSM={other}"),
    )])
    .expect("config");
    assert_eq!(c.aggregator_keys.len(), 2);
    assert_eq!(c.aggregator_keys[1].0, "msm");
    assert!(!format!("{c:?}").contains(&key), "keys never print");
    for (value, problem) in [
        (format!("ctm{key}"), "is not code=key"),
        (format!("abc={key}"), "not an aggregator code"),
        ("ctm=short".to_owned(), "at least 32 characters"),
        (format!("ctm={key},ctm={other}"), "more than once"),
        (format!("ctm={key},gcp={key}"), "also another code's key"),
    ] {
        let e = with(&[("PAWPATH_AGGREGATOR_KEYS", &value)]).expect_err(&value);
        assert_eq!(e.variable, "PAWPATH_AGGREGATOR_KEYS");
        assert!(e.to_string().contains(problem), "{value}: {e}");
    }
}

#[test]
fn the_secret_never_prints() {
    let c = with(&[]).expect("config");
    assert!(!format!("{c:?}").contains(&format!("{:?}", c.secret_key.bytes())));
}
