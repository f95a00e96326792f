//! What the benches share: a runtime, their numbers from the environment, a fresh data folder,
//! and pawpath served in-process on a fresh database through the production connection loop,
//! with a client that keeps the session's cookie.
//!
//! A bench names it with `mod harness;` (the load bench, a folder of its own, with
//! `#[path = "../harness/mod.rs"]`). Not every bench uses every part.
#![allow(dead_code)]

use std::future::Future;
use std::path::{Path, PathBuf};

/// Runs the bench on a runtime of `threads` workers (the machine the figures are for has two).
pub(crate) fn block_on<F: Future>(threads: usize, bench: F) -> F::Output {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(threads)
        .enable_all()
        .build()
        .expect("runtime")
        .block_on(bench)
}

/// A number the bench may be given (`PAWPATH_BENCH_…`), else its default.
pub(crate) fn number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(default)
}

/// The repository: the definitions pawpath serves in a bench.
pub(crate) fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A data folder of the bench's own, removed when dropped.
pub(crate) struct DataFolder(pub(crate) PathBuf);

impl DataFolder {
    pub(crate) fn new(bench: &str) -> Self {
        let path = std::env::temp_dir().join(format!("pawpath-{bench}-{}", std::process::id()));
        std::fs::create_dir_all(&path).expect("data folder");
        Self(path)
    }

    /// `PAWPATH_BENCH_DATABASE` when set, else an SQLite file in the folder.
    pub(crate) fn database(&self) -> String {
        std::env::var("PAWPATH_BENCH_DATABASE")
            .unwrap_or_else(|_| format!("sqlite://{}?mode=rwc", self.0.join("bench.db").display()))
    }
}

impl Drop for DataFolder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// pawpath, built from the configuration a production server has plus the bench's own
/// variables, and served on a port of its own.
pub(crate) struct Served {
    /// `http://127.0.0.1:<port>`.
    pub(crate) base: String,
    pub(crate) state: pawpath::service::state::AppState,
    pub(crate) database: String,
}

impl Served {
    pub(crate) async fn start(data: &DataFolder, database: &str, own: &[(&str, String)]) -> Self {
        let mut vars = vec![
            ("PORT", "0".to_owned()),
            ("PAWPATH_DATA_DIR", data.0.display().to_string()),
            ("DATABASE_URL", database.to_owned()),
            ("PAWPATH_DEFINITIONS", root().display().to_string()),
            ("PAWPATH_LOG_FORMAT", "pretty".to_owned()),
        ];
        vars.extend(own.iter().cloned());
        let config = pawpath::config::Config::from_lookup(|k| {
            vars.iter().find(|(n, _)| *n == k).map(|(_, v)| v.clone())
        })
        .expect("config");
        let limits = config.limits;
        let app = pawpath::App::build(config).await.expect("app");
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let base = format!("http://{}", listener.local_addr().expect("addr"));
        tokio::spawn(pawpath::serve::serve(
            listener,
            app.router,
            limits,
            std::future::pending(),
        ));
        Self {
            base,
            state: app.state,
            database: database.to_owned(),
        }
    }

    /// A connection of the bench's own to the database, to read what was stored.
    pub(crate) async fn pool(&self) -> sqlx::AnyPool {
        sqlx::any::install_default_drivers();
        sqlx::AnyPool::connect(&self.database).await.expect("pool")
    }
}

/// A client that keeps the session's cookie, as a browser does.
pub(crate) fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .cookie_store(true)
        .build()
        .expect("client")
}
