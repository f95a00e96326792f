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

/// An https host takes real cards: it refuses the local test provider, named or not;
/// Stripe needs its three keys, each of its own kind, and https addresses there.
#[test]
fn an_https_host_refuses_the_test_provider_and_stripe_needs_its_keys() {
    let https = ("PAWPATH_PUBLIC_URL", "https://quotes.example.test");
    let variable = |vars: &[(&str, &str)]| with(vars).err().map(|e| e.variable);
    for provider in [None, Some("test")] {
        let mut vars = vec![https];
        vars.extend(provider.map(|p| ("PAWPATH_PAYMENT_PROVIDER", p)));
        let e = with(&vars).expect_err("no test provider on https");
        assert_eq!(e.variable, "PAWPATH_PAYMENT_PROVIDER");
        assert!(e.to_string().contains("https host"), "{e}");
    }
    let stripe = ("PAWPATH_PAYMENT_PROVIDER", "stripe");
    let sk = ("PAWPATH_STRIPE_SECRET_KEY", "sk_test_x");
    let pk = ("PAWPATH_STRIPE_PUBLISHABLE_KEY", "pk_test_x");
    let whsec = ("PAWPATH_STRIPE_WEBHOOK_SECRET", "whsec_x");
    assert_eq!(variable(&[stripe]), Some("PAWPATH_STRIPE_SECRET_KEY"));
    assert_eq!(
        variable(&[
            stripe,
            ("PAWPATH_STRIPE_SECRET_KEY", "pk_test_x"),
            pk,
            whsec
        ]),
        Some("PAWPATH_STRIPE_SECRET_KEY"),
        "a publishable key where the secret goes"
    );
    assert_eq!(
        variable(&[stripe, sk, whsec]),
        Some("PAWPATH_STRIPE_PUBLISHABLE_KEY")
    );
    assert_eq!(
        variable(&[stripe, sk, pk]),
        Some("PAWPATH_STRIPE_WEBHOOK_SECRET")
    );
    assert_eq!(
        variable(&[stripe, sk, pk, whsec, ("PAWPATH_STRIPE_TIMEOUT_MS", "0")]),
        Some("PAWPATH_STRIPE_TIMEOUT_MS")
    );
    assert_eq!(
        variable(&[
            https,
            stripe,
            sk,
            pk,
            whsec,
            ("PAWPATH_STRIPE_API_URL", "http://stripe.test")
        ]),
        Some("PAWPATH_STRIPE_API_URL"),
        "plain http from a live host"
    );
    assert_eq!(
        variable(&[("PAWPATH_PAYMENT_PROVIDER", "paypal")]),
        Some("PAWPATH_PAYMENT_PROVIDER")
    );
    let config = with(&[stripe, sk, pk, whsec]).expect("stripe on http");
    assert_eq!(
        config.payment_provider.browser_origins(),
        vec![
            "https://js.stripe.com".to_owned(),
            "https://api.stripe.com".to_owned()
        ]
    );
    let printed = format!("{config:?}");
    assert!(
        !printed.contains("sk_test_x") && !printed.contains("whsec_x"),
        "{printed}"
    );
}

/// The operator's guide's configuration table is the one `variables.rs` makes (after a deliberate
/// change to the table: `UPDATE_SNAPSHOTS=1 cargo test -p pawpath-server --lib config`).
#[test]
fn the_operators_guide_lists_the_variables_table() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("deploy/README.md");
    let guide = std::fs::read_to_string(&path).expect("server/deploy/README.md");
    let start = guide
        .find("| variable | default | meaning |")
        .expect("the guide's configuration table");
    let end = guide[start..]
        .find("\n\n")
        .map_or(guide.len(), |n| start + n + 1);
    let table = operators_table();
    if std::env::var("UPDATE_SNAPSHOTS").is_ok() {
        let updated = format!("{}{}{}", &guide[..start], table, &guide[end..]);
        std::fs::write(&path, updated).expect("write the guide");
        return;
    }
    assert_eq!(
        &guide[start..end],
        table,
        "server/deploy/README.md's configuration table is not the one server/src/config/variables.rs makes"
    );
}

/// Every variable the configuration reads is in the table, and every variable in the table is
/// read: a variable added to the code without its row (or a row left for a variable gone) fails.
#[test]
fn every_variable_read_is_in_the_table_and_every_row_is_read() {
    let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/config");
    let mut read = std::collections::BTreeSet::new();
    for entry in std::fs::read_dir(&folder).expect("src/config") {
        let path = entry.expect("entry").path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        if name == "variables.rs" || name == "tests.rs" {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("source");
        for piece in text.split('"').skip(1).step_by(2) {
            let is_variable = piece == "PORT"
                || piece == "DATABASE_URL"
                || (piece.starts_with("PAWPATH_")
                    && piece.chars().all(|c| c.is_ascii_uppercase() || c == '_'));
            if is_variable {
                read.insert(piece.to_owned());
            }
        }
    }
    let listed: std::collections::BTreeSet<String> = VARIABLES
        .iter()
        .flat_map(|v| v.names.iter().map(|n| (*n).to_owned()))
        .collect();
    let unlisted: Vec<_> = read.difference(&listed).collect();
    let unread: Vec<_> = listed.difference(&read).collect();
    assert!(
        unlisted.is_empty(),
        "read but not in variables.rs: {unlisted:?}"
    );
    assert!(
        unread.is_empty(),
        "in variables.rs but never read: {unread:?}"
    );
}
