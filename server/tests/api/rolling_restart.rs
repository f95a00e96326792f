//! A rolling restart under load loses no request. Two `pawpath` processes share one
//! database (PostgreSQL when `PAWPATH_TEST_DATABASE` names one, else one SQLite file) and their
//! keys; the test plays the load balancer, sending each request to a server whose `/readyz` said
//! 200 at its last check (every 100 ms, as a load balancer's health check does). While visitors
//! keep starting quotes, and keep-alive clients keep their connections open between requests,
//! each server in turn gets SIGTERM and is replaced by a new one. Every request must be answered
//! 200: none refused, dropped, reset or failed (the resets are counted apart).

use crate::common;

use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use base64::Engine as _;
use common::smtp::free_port;
use common::{ready, repo_root, spawn_app, valid_pet, wait_ready};
use serde_json::{Value, json};

struct Fleet {
    database_url: String,
    static_dir: std::path::PathBuf,
    root: std::path::PathBuf,
    secret: String,
    encryption: String,
}

fn key() -> String {
    base64::engine::general_purpose::STANDARD.encode(rand::random::<[u8; 32]>())
}

impl Fleet {
    /// A `pawpath` process on `port`, with a data folder of its own and the fleet's keys.
    fn start(&self, port: u16) -> Child {
        let data = self.root.join(format!("server-{port}"));
        std::fs::create_dir_all(&data).expect("data dir");
        let log = std::fs::File::create(data.join("log")).expect("log");
        Command::new(env!("CARGO_BIN_EXE_pawpath"))
            .env("PORT", port.to_string())
            .env("PAWPATH_LISTEN_ADDR", "127.0.0.1")
            .env("DATABASE_URL", &self.database_url)
            .env("PAWPATH_DATA_DIR", &data)
            .env("PAWPATH_DEFINITIONS", repo_root())
            .env("PAWPATH_STATIC_DIR", &self.static_dir)
            .env("PAWPATH_SECRET_KEY", &self.secret)
            .env("PAWPATH_ENCRYPTION_KEY", &self.encryption)
            .env("PAWPATH_SHUTDOWN_DRAIN_MS", "1000")
            .env("PAWPATH_LOG_FORMAT", "json")
            .stdout(log.try_clone().expect("log"))
            .stderr(log)
            .stdin(Stdio::null())
            .spawn()
            .expect("start pawpath")
    }
}

/// SIGTERM, as an orchestrator sends, then waits for the process to end by itself.
async fn terminate(mut child: Child) {
    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill");
    assert!(status.success());
    for _ in 0..600 {
        if let Some(exit) = child.try_wait().expect("wait") {
            assert!(exit.success(), "pawpath ended with {exit}");
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let _ = child.kill();
    panic!("pawpath did not stop within 30 seconds of SIGTERM");
}

/// The test's load balancer: the servers, and which passed their last health check.
#[derive(Default)]
struct Balancer {
    servers: Mutex<Vec<(u16, bool)>>,
    next: AtomicUsize,
}

impl Balancer {
    fn pick(&self) -> Option<u16> {
        let servers = self.servers.lock().expect("lock");
        let healthy: Vec<u16> = servers
            .iter()
            .filter(|(_, ok)| *ok)
            .map(|(p, _)| *p)
            .collect();
        if healthy.is_empty() {
            return None;
        }
        Some(healthy[self.next.fetch_add(1, Ordering::Relaxed) % healthy.len()])
    }

    fn set(&self, port: u16, ok: bool) {
        let mut servers = self.servers.lock().expect("lock");
        match servers.iter_mut().find(|(p, _)| *p == port) {
            Some(entry) => entry.1 = ok,
            None => servers.push((port, ok)),
        }
    }

    fn remove(&self, port: u16) {
        self.servers
            .lock()
            .expect("lock")
            .retain(|(p, _)| *p != port);
    }

    fn ports(&self) -> Vec<u16> {
        self.servers
            .lock()
            .expect("lock")
            .iter()
            .map(|(p, _)| *p)
            .collect()
    }
}

/// One visitor: the first page, a pet saved, the page again with the pet. Each request goes to
/// a server the balancer picks; the session is in the cookie, the quote in the database.
async fn visit(balancer: &Balancer, errors: &Mutex<Vec<String>>, sent: &AtomicUsize) {
    let client = reqwest::Client::builder()
        .cookie_store(true)
        .build()
        .expect("client");
    let url = |path: &str| {
        balancer
            .pick()
            .map(|port| format!("http://127.0.0.1:{port}{path}"))
    };
    let fail = |what: String| errors.lock().expect("lock").push(what);
    let view = |url: String| {
        let client = client.clone();
        async move {
            let r = client
                .get(&url)
                .header("Accept", "application/json")
                .send()
                .await
                .map_err(|e| format!("GET {url}: {e}"))?;
            if r.status() != 200 {
                return Err(format!("GET {url}: {}", r.status()));
            }
            r.json::<Value>()
                .await
                .map(|v| v["data"].clone())
                .map_err(|e| format!("GET {url}: {e}"))
        }
    };
    let Some(first) = url("/quote") else {
        fail("no healthy server".into());
        return;
    };
    sent.fetch_add(1, Ordering::Relaxed);
    let page = match view(first).await {
        Ok(v) => v,
        Err(e) => return fail(e),
    };
    let Some(save) = url("/api/petdetails") else {
        return fail("no healthy server".into());
    };
    sent.fetch_add(1, Ordering::Relaxed);
    match client
        .post(&save)
        .json(&json!({ "csrf": page["csrf"], "pets": [valid_pet()] }))
        .send()
        .await
    {
        Ok(r) if r.status() == 200 => {}
        Ok(r) => return fail(format!("POST {save}: {}", r.status())),
        Err(e) => return fail(format!("POST {save}: {e}")),
    }
    let Some(again) = url("/quote") else {
        return fail("no healthy server".into());
    };
    sent.fetch_add(1, Ordering::Relaxed);
    match view(again).await {
        Ok(v) if v["pets"].as_array().map(Vec::len) == Some(1) => {}
        Ok(v) => fail(format!("the pet was not kept: {}", v["pets"])),
        Err(e) => fail(e),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rolling_restart_under_load_loses_no_request() {
    // A database made and migrated as every test's is; the in-process server is not used.
    let seed = spawn_app().await;
    let fleet = Fleet {
        database_url: seed.database_url.clone(),
        static_dir: seed.data_dir.join("static"),
        root: seed.data_dir.clone(),
        secret: key(),
        encryption: key(),
    };
    drop(seed);

    let balancer = Arc::new(Balancer::default());
    let mut children = Vec::new();
    for _ in 0..2 {
        let port = free_port().await;
        children.push((port, fleet.start(port)));
        wait_ready(port).await;
        balancer.set(port, true);
    }

    let stop = Arc::new(AtomicBool::new(false));
    // The health checks.
    let checks = {
        let (balancer, stop) = (Arc::clone(&balancer), Arc::clone(&stop));
        tokio::spawn(async move {
            let client = reqwest::Client::new();
            while !stop.load(Ordering::Relaxed) {
                for port in balancer.ports() {
                    let ok = ready(&client, port).await;
                    balancer.set(port, ok);
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        })
    };
    // The load: visitors, four at a time, one after another.
    let errors = Arc::new(Mutex::new(Vec::new()));
    let sent = Arc::new(AtomicUsize::new(0));
    let load: Vec<_> = (0..4)
        .map(|_| {
            let (balancer, stop, errors, sent) = (
                Arc::clone(&balancer),
                Arc::clone(&stop),
                Arc::clone(&errors),
                Arc::clone(&sent),
            );
            tokio::spawn(async move {
                while !stop.load(Ordering::Relaxed) {
                    visit(&balancer, &errors, &sent).await;
                }
            })
        })
        .collect();

    // Keep-alive clients: each keeps its connections open between requests, as a
    // load balancer's pool to its servers does, and sends to a server the balancer picks.
    let resets = Arc::new(AtomicUsize::new(0));
    let keep_alive: Vec<_> = (0..4)
        .map(|_| {
            let (balancer, stop, errors, sent, resets) = (
                Arc::clone(&balancer),
                Arc::clone(&stop),
                Arc::clone(&errors),
                Arc::clone(&sent),
                Arc::clone(&resets),
            );
            tokio::spawn(async move {
                let client = reqwest::Client::builder()
                    .cookie_store(true)
                    .pool_idle_timeout(Duration::from_secs(60))
                    .build()
                    .expect("client");
                while !stop.load(Ordering::Relaxed) {
                    let Some(port) = balancer.pick() else {
                        tokio::time::sleep(Duration::from_millis(10)).await;
                        continue;
                    };
                    sent.fetch_add(1, Ordering::Relaxed);
                    let url = format!("http://127.0.0.1:{port}/quote");
                    match client
                        .get(&url)
                        .header("Accept", "application/json")
                        .send()
                        .await
                    {
                        Ok(r) if r.status() == 200 => {
                            let _ = r.bytes().await;
                        }
                        Ok(r) => errors
                            .lock()
                            .expect("lock")
                            .push(format!("GET {url}: {}", r.status())),
                        Err(e) => {
                            let text = format!("{e:?}");
                            if text.contains("reset")
                                || text.contains("ConnectionReset")
                                || text.contains("closed before message completed")
                                || text.contains("BrokenPipe")
                            {
                                resets.fetch_add(1, Ordering::Relaxed);
                            }
                            errors
                                .lock()
                                .expect("lock")
                                .push(format!("GET {url} (keep-alive): {text}"));
                        }
                    }
                    tokio::time::sleep(Duration::from_millis(5)).await;
                }
            })
        })
        .collect();

    tokio::time::sleep(Duration::from_millis(1500)).await;
    // Each server in turn: SIGTERM, and a new one in its place once it has stopped.
    for _ in 0..2 {
        let (old_port, old) = children.remove(0);
        let before = sent.load(Ordering::Relaxed);
        terminate(old).await;
        balancer.remove(old_port);
        let port = free_port().await;
        children.push((port, fleet.start(port)));
        wait_ready(port).await;
        balancer.set(port, true);
        assert!(
            sent.load(Ordering::Relaxed) > before,
            "the load kept running while the server stopped"
        );
        tokio::time::sleep(Duration::from_millis(1000)).await;
    }
    stop.store(true, Ordering::Relaxed);
    for task in load.into_iter().chain(keep_alive) {
        task.await.expect("load");
    }
    checks.await.expect("checks");
    for (_, child) in children {
        terminate(child).await;
    }
    let errors = errors.lock().expect("lock").clone();
    let sent = sent.load(Ordering::Relaxed);
    let resets = resets.load(Ordering::Relaxed);
    eprintln!(
        "rolling restart: {sent} requests, {} failed, {resets} connection resets",
        errors.len()
    );
    assert_eq!(resets, 0, "connections reset: {errors:#?}");
    assert!(sent > 100, "only {sent} requests were sent");
    assert!(
        errors.is_empty(),
        "{} of {sent} requests failed: {errors:#?}",
        errors.len()
    );
}

/// SIGTERM under keep-alive clients that keep sending to the server itself
/// (no balancer in front to stop them). Through the drain every answer closes its connection;
/// at its end the connections already taken in by the kernel are answered, then the listener
/// closes. A client then finds the server refusing connections, never a connection reset.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_under_keep_alive_clients_resets_no_connection() {
    let seed = spawn_app().await;
    let fleet = Fleet {
        database_url: seed.database_url.clone(),
        static_dir: seed.data_dir.join("static"),
        root: seed.data_dir.clone(),
        secret: key(),
        encryption: key(),
    };
    drop(seed);
    let port = free_port().await;
    let child = fleet.start(port);
    wait_ready(port).await;
    let stop = Arc::new(AtomicBool::new(false));
    let answered = Arc::new(AtomicUsize::new(0));
    let refused = Arc::new(AtomicUsize::new(0));
    let resets = Arc::new(Mutex::new(Vec::new()));
    let clients: Vec<_> = (0..20)
        .map(|_| {
            let (stop, answered, refused, resets) = (
                Arc::clone(&stop),
                Arc::clone(&answered),
                Arc::clone(&refused),
                Arc::clone(&resets),
            );
            tokio::spawn(async move {
                let client = reqwest::Client::builder()
                    .cookie_store(true)
                    .build()
                    .expect("client");
                let url = format!("http://127.0.0.1:{port}/healthz");
                while !stop.load(Ordering::Relaxed) {
                    match client.get(&url).send().await {
                        Ok(r) => {
                            let _ = r.bytes().await;
                            answered.fetch_add(1, Ordering::Relaxed);
                        }
                        Err(e) if e.is_connect() => {
                            refused.fetch_add(1, Ordering::Relaxed);
                            tokio::time::sleep(Duration::from_millis(20)).await;
                        }
                        Err(e) => resets.lock().expect("lock").push(format!("{e:?}")),
                    }
                }
            })
        })
        .collect();
    tokio::time::sleep(Duration::from_millis(500)).await;
    terminate(child).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    stop.store(true, Ordering::Relaxed);
    for client in clients {
        client.await.expect("client");
    }
    let resets = resets.lock().expect("lock").clone();
    eprintln!(
        "SIGTERM under 20 keep-alive clients: {} answered, {} refused after the stop, {} reset",
        answered.load(Ordering::Relaxed),
        refused.load(Ordering::Relaxed),
        resets.len()
    );
    assert!(answered.load(Ordering::Relaxed) > 100);
    assert!(resets.is_empty(), "{resets:#?}");
}
