//! The deploy recipe (server/deploy/) holds together where no container engine runs.
//! The compose file's configuration is configuration pawpath accepts; the image recipe builds in
//! stages, runs without privileges and copies what exists. CI builds the image itself where a
//! container engine is available (tests/run-all.sh says when it is not).

use crate::common;

use common::repo_root;

fn read(path: &str) -> String {
    std::fs::read_to_string(repo_root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The `environment:` block of the compose file's shared pawpath service, as (name, value).
fn compose_environment() -> Vec<(String, String)> {
    let compose = read("server/deploy/compose.yaml");
    let mut lines = compose
        .lines()
        .skip_while(|l| !l.starts_with("x-pawpath:"))
        .skip_while(|l| l.trim() != "environment:")
        .skip(1);
    let mut vars = Vec::new();
    for line in lines.by_ref() {
        if !line.starts_with("    ") {
            break;
        }
        let line = line.trim();
        if line.starts_with('#') {
            continue;
        }
        let (name, value) = line.split_once(": ").expect("NAME: value");
        vars.push((name.to_owned(), value.trim_matches('"').to_owned()));
    }
    vars
}

#[test]
fn the_compose_files_configuration_is_accepted_by_pawpath() {
    let vars = compose_environment();
    let names: Vec<&str> = vars.iter().map(|(n, _)| n.as_str()).collect();
    for needed in [
        "DATABASE_URL",
        "PAWPATH_SECRET_KEY",
        "PAWPATH_ENCRYPTION_KEY",
        "PAWPATH_CLIENT_IP_HEADER",
        "PAWPATH_SMTP_URL",
        "PAWPATH_METRICS_TOKEN",
    ] {
        assert!(names.contains(&needed), "{needed} missing from {names:?}");
    }
    let data = tempfile::tempdir().expect("tempdir");
    let config = pawpath::config::Config::from_lookup(|k| {
        if k == "PAWPATH_DATA_DIR" {
            return Some(data.path().display().to_string());
        }
        vars.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone())
    })
    .unwrap_or_else(|e| panic!("the compose file's configuration: {e}"));
    assert!(config.database_url.starts_with("postgres://"));
    assert!(config.client_ip_header.is_some());
    assert!(config.metrics_token.is_some());
    // Every server gets the same keys: none is generated per container.
    assert!(
        !data.path().join("secret.key").exists() && !data.path().join("encryption.key").exists()
    );
}

#[test]
fn the_image_is_built_in_stages_and_runs_without_privileges() {
    let recipe = read("server/deploy/Dockerfile");
    let stages = recipe.lines().filter(|l| l.starts_with("FROM ")).count();
    assert!(stages >= 3, "renderer, server and runtime stages");
    let user = recipe
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix("USER "))
        .expect("a USER");
    assert!(
        !user.starts_with("root") && !user.starts_with("0"),
        "{user}"
    );
    assert!(recipe.contains("COPY --from=renderer"));
    assert!(recipe.contains("COPY --from=server"));
    assert!(recipe.contains("STOPSIGNAL SIGTERM"));
    // What it copies from the repository exists.
    for line in recipe
        .lines()
        .filter(|l| l.starts_with("COPY ") && !l.contains("--from"))
    {
        let parts: Vec<&str> = line.split_whitespace().collect();
        for source in &parts[1..parts.len() - 1] {
            assert!(
                repo_root().join(source).exists(),
                "{source} (in {line:?}) is not in the repository"
            );
        }
    }
    // The modulus tables where the configuration looks for them by default.
    assert!(
        recipe.contains("COPY server/data/ /srv/pawpath/server/data/")
            && repo_root()
                .join("server/data/vocalink/valacdos.txt")
                .exists()
    );
    let ignore = read(".dockerignore");
    for kept_out in ["target/", "**/node_modules/", ".git/"] {
        assert!(ignore.lines().any(|l| l == kept_out), "{kept_out}");
    }
}
