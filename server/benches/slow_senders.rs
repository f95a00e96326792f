//! Slow senders against the release build: `pawpath` as its own process with a production
//! server's connection settings (the defaults), then, while attackers hold connections that
//! each send `POST /api/petdetails` with `Content-Length: 60000` and then one byte every 2
//! seconds (reconnecting whenever the server closes one), a customer's `GET /healthz` and first
//! page (`GET /quote?brand=pos`) from another address, 20 of each, one every 250 ms: the median
//! and the slowest answer, and how many were answered.
//!
//! Scenarios: no attack; 3,000 connections from one address (127.0.0.2); 1,000 connections
//! from 100 addresses (127.0.2.1 to 127.0.2.100, 10 each). The customer is 127.0.0.1.
//!
//! Run: `cargo bench -p pawpath-server --bench slow_senders` (`PAWPATH_BENCH_BINARY` to use
//! another build of `pawpath`).

use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpSocket;

const SLOW_POST: &[u8] = b"POST /api/petdetails HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 60000\r\n\r\n{";

struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

mod harness;

fn main() {
    harness::block_on(1, run());
}

async fn run() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let data = tempfile::tempdir().expect("data");
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port");
    let binary = std::env::var("PAWPATH_BENCH_BINARY")
        .unwrap_or_else(|_| env!("CARGO_BIN_EXE_pawpath").to_owned());
    let _server = Server(
        Command::new(binary)
            .env_clear()
            .env("PORT", port.to_string())
            .env("PAWPATH_LISTEN_ADDR", "127.0.0.1")
            .env("PAWPATH_DATA_DIR", data.path())
            .env(
                "DATABASE_URL",
                format!("sqlite://{}?mode=rwc", data.path().join("q.db").display()),
            )
            .env("PAWPATH_DEFINITIONS", &root)
            .env("PAWPATH_STATIC_DIR", root.join("renderer/dist"))
            .env("PAWPATH_LOG_FORMAT", "json")
            .env("RUST_LOG", "error")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("pawpath starts"),
    );
    let server: SocketAddr = ([127, 0, 0, 1], port).into();
    for _ in 0..600 {
        if probe(server, "/healthz").await.is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // The first page once it is served (503 while what is made once per definitions version is
    // being made at start).
    for _ in 0..600 {
        if probe(server, "/quote?brand=pos").await.is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    println!(
        "| attack | /healthz median | slowest | answered | first page median | slowest | answered |"
    );
    println!("|---|---|---|---|---|---|---|");
    measure(server, "none", &[]).await;
    let one: Vec<[u8; 4]> = vec![[127, 0, 0, 2]; 3_000];
    measure(server, "3,000 connections from one address", &one).await;
    let many: Vec<[u8; 4]> = (1..=100u8)
        .flat_map(|n| std::iter::repeat_n([127, 0, 2, n], 10))
        .collect();
    measure(server, "1,000 connections from 100 addresses", &many).await;
}

/// One request on a new connection from 127.0.0.1, read to its end: how long it took, or
/// `None` when it was not answered within 5 seconds.
async fn probe(server: SocketAddr, path: &str) -> Option<Duration> {
    let started = Instant::now();
    let answer = async {
        let socket = TcpSocket::new_v4().ok()?;
        socket.bind(([127, 0, 0, 1], 0).into()).ok()?;
        let mut stream = socket.connect(server).await.ok()?;
        stream
            .write_all(
                format!("GET {path} HTTP/1.1\r\nHost: x\r\nAccept-Encoding: br\r\nConnection: close\r\n\r\n")
                    .as_bytes(),
            )
            .await
            .ok()?;
        let mut got = Vec::new();
        stream.read_to_end(&mut got).await.ok()?;
        if !got.starts_with(b"HTTP/1.1 200") {
            let head = String::from_utf8_lossy(&got[..got.len().min(120)]).into_owned();
            eprintln!("  {path}: {head:?}");
            return None;
        }
        Some(())
    };
    match tokio::time::timeout(Duration::from_secs(5), answer).await {
        Ok(Some(())) => Some(started.elapsed()),
        _ => None,
    }
}

/// Holds a slow-body connection from `from`, again and again, until `stop`.
async fn attacker(
    server: SocketAddr,
    from: [u8; 4],
    stop: Arc<AtomicBool>,
    opened: Arc<AtomicU64>,
) {
    while !stop.load(Ordering::Relaxed) {
        let Ok(socket) = TcpSocket::new_v4() else {
            return;
        };
        if socket.bind((from, 0).into()).is_err() {
            return;
        }
        let Ok(mut stream) = socket.connect(server).await else {
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        };
        opened.fetch_add(1, Ordering::Relaxed);
        if stream.write_all(SLOW_POST).await.is_err() {
            continue;
        }
        while !stop.load(Ordering::Relaxed) {
            tokio::time::sleep(Duration::from_secs(2)).await;
            if stream.write_all(b" ").await.is_err() {
                break;
            }
        }
    }
}

async fn measure(server: SocketAddr, name: &str, attackers: &[[u8; 4]]) {
    let stop = Arc::new(AtomicBool::new(false));
    let opened = Arc::new(AtomicU64::new(0));
    let tasks: Vec<_> = attackers
        .iter()
        .map(|from| {
            tokio::spawn(attacker(
                server,
                *from,
                Arc::clone(&stop),
                Arc::clone(&opened),
            ))
        })
        .collect();
    // Every attacker connected and dripping before the customer comes.
    tokio::time::sleep(Duration::from_secs(if attackers.is_empty() {
        0
    } else {
        5
    }))
    .await;
    let (mut health, mut page) = (Vec::new(), Vec::new());
    for _ in 0..20 {
        health.push(probe(server, "/healthz").await);
        page.push(probe(server, "/quote?brand=pos").await);
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    stop.store(true, Ordering::Relaxed);
    for task in tasks {
        task.abort();
    }
    let summary = |times: &[Option<Duration>]| {
        let mut ok: Vec<Duration> = times.iter().flatten().copied().collect();
        ok.sort();
        let ms = |d: Option<&Duration>| {
            d.map_or("-".to_owned(), |d| {
                format!("{:.1} ms", d.as_secs_f64() * 1e3)
            })
        };
        (
            ms(ok.get(ok.len() / 2)),
            ms(ok.last()),
            format!("{} of {}", ok.len(), times.len()),
        )
    };
    let (hm, hs, ha) = summary(&health);
    let (pm, ps, pa) = summary(&page);
    println!("| {name} | {hm} | {hs} | {ha} | {pm} | {ps} | {pa} |");
    eprintln!(
        "  ({name}: {} attacking connections opened in all)",
        opened.load(Ordering::Relaxed)
    );
    // The server's own closing of the last ones before the next scenario.
    tokio::time::sleep(Duration::from_secs(3)).await;
}
