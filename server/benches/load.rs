//! The load benchmark (issue 22): the release binary and a bare axum endpoint started in the same
//! run, each loaded by the same client, and each of pawpath's hot requests given as requests a
//! second, p50, p99 and its share of the bare endpoint's rate; then each again at half its peak
//! rate (p99 against p50 when not saturated), pawpath's peak memory, the stored size of a two-pet
//! quote and the size of a priced two-pet view data answer.
//!
//! Run: `cargo bench -p pawpath-server --bench load` (SQLite in a temporary folder; with
//! `PAWPATH_BENCH_POSTGRES=postgres://user@host/db` it runs again on a fresh PostgreSQL database
//! made beside that one and dropped afterwards). `PAWPATH_BENCH_SECONDS` (default 8) sets each
//! measurement's length, `PAWPATH_BENCH_CONNECTIONS` (default 32) the client's connections,
//! `PAWPATH_BENCH_PETS` (default 2) the pets on each quote, `PAWPATH_BENCH_ONLY` a comma list of
//! the figures to take (bare, view, transition, inbound, healthz, funnel).
//! `PAWPATH_BENCH_SEED_QUOTES=N` (PostgreSQL) first stores N more quotes, copies of a priced one
//! each with `PAWPATH_BENCH_SEED_TRANSITIONS` (default 10) of its transitions, so the figures are
//! taken over a full database; `funnel` then times `pawpath report funnel` over them.
//! `PAWPATH_BENCH_DETAIL=1` prints p90, p95, p99.9 and the slowest request of each figure too,
//! and for each half-of-peak round the share of requests slower than 5, 10 and 25 ms twice: as
//! the client timed them, and as pawpath's own request histogram (`/metrics`, scraped before and
//! after the round) timed them from its router's counting layer to its answer. The difference is
//! time spent outside pawpath's handling: waiting for a thread of its runtime to read the request
//! or for the client to be run to read the answer. It prints too each round's p50 and p99 timed
//! from when each request was due rather than when it was sent: a connection sends one request at
//! a time, so one whose answer was late sends its next late, and timing from the send leaves that
//! wait out (coordinated omission); timing from the due time counts it.
//! `PAWPATH_BENCH_REPEAT=N` takes each half-of-peak figure N times, each time followed at once by
//! the bare endpoint's own at half of its peak, and prints every round and the medians: on a
//! shared machine one run's tail moves with whatever else the machine is doing, and the bare
//! endpoint's tail measured in the same moment shows how much. Each half-of-peak round also says
//! what a pause meter in the client saw (a thread that sleeps a millisecond at a time, late when
//! the machine did not run it: on a virtual machine, the host stopping its processors), and the
//! median of the rounds with no pause of 10 ms or more is printed beside the median of all.
//! `PAWPATH_BENCH_TWIN=1` (with `PAWPATH_BENCH_REPEAT`) adds a twin to each figure: the bare
//! endpoint answering after as much CPU work a request, on its runtime's thread, as the request
//! cost pawpath and its database beyond a bare answer, and nothing else (no database, no other
//! thread; for a write, a synced write of its own to a file, in groups, as pawpath's commits);
//! its p99 / p50 at half of its own peak, in each round beside pawpath's, is what work of that
//! size costs in tail on this machine with this client.
//! `PAWPATH_BENCH_KEEP_DATABASE=1` leaves the PostgreSQL database in place afterwards (its name is
//! printed), to time a report over it again.
//!
//! The client runs on two threads, sharing the machine's cores with the server, as the figures
//! in the README were taken.

use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::Request;
use serde_json::{Value, json};
use tokio::net::TcpStream;

const KEY: &str = "bench-ctm-key-0123456789abcdefghijklmnop";
/// The bench's scraper token for pawpath's `/metrics` (pawpath's own timing of each round).
const METRICS_TOKEN: &str = "bench-metrics-token-0123456789abcdefghij";

fn main() {
    if std::env::var_os("PAWPATH_LOAD_BARE").is_some() {
        return bare();
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(run());
}

/// The bare endpoint: axum answering a small JSON document, nothing else (the ceiling the
/// figures are shares of). Run as its own process, as pawpath is.
fn bare() {
    let port = std::env::var("PORT").expect("PORT");
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let per_us = work_per_microsecond();
    let syncer = Syncer::start();
    runtime.block_on(async move {
        let app = axum::Router::new()
            .route(
                "/json",
                axum::routing::get(|| async {
                    axum::Json(json!({ "status": "ok", "service": "bare", "version": 1 }))
                }),
            )
            // The twin (PAWPATH_BENCH_TWIN): the same answer after `us` microseconds of work on
            // the runtime's thread, as a pawpath handler's work holds it.
            .route(
                "/work/{us}",
                axum::routing::get(
                    move |axum::extract::Path(us): axum::extract::Path<u64>| async move {
                        std::hint::black_box(work(per_us * us.min(100_000)));
                        axum::Json(json!({ "status": "ok", "service": "bare", "version": 1 }))
                    },
                ),
            )
            // The twin of a write: the same work, then its answer only once [`SYNCED_BYTES`]
            // of its own are written to a file and synced, in a group with whatever other
            // writes wait (as pawpath's writes wait for their commit).
            .route(
                "/durable/{us}",
                axum::routing::get(
                    move |axum::extract::Path(us): axum::extract::Path<u64>| async move {
                        std::hint::black_box(work(per_us * us.min(100_000)));
                        let status = if syncer.sync().await {
                            axum::http::StatusCode::OK
                        } else {
                            axum::http::StatusCode::INTERNAL_SERVER_ERROR
                        };
                        (
                            status,
                            axum::Json(json!({ "status": "ok", "service": "bare", "version": 1 })),
                        )
                    },
                ),
            );
        let listener = tokio::net::TcpListener::bind(format!("127.0.0.1:{port}"))
            .await
            .expect("bind");
        axum::serve(listener, app).await.expect("serve");
    });
}

/// What the twin of a write writes and syncs for each request: about what an inbound quote or
/// a transition adds to SQLite's write-ahead log (a few of its 4 KB pages).
const SYNCED_BYTES: usize = 16 * 1024;

/// The twin's disk: a thread that appends each waiting write's bytes to a file of its own in the
/// temporary folder (on the disk the databases use), syncs it, and answers the group; the file
/// starts again from empty past 64 MB, and is unlinked as soon as it is made.
#[derive(Clone)]
struct Syncer {
    writes: std::sync::mpsc::Sender<tokio::sync::oneshot::Sender<bool>>,
}

impl Syncer {
    fn start() -> Self {
        use std::io::{Seek, Write};
        let (writes, waiting) = std::sync::mpsc::channel::<tokio::sync::oneshot::Sender<bool>>();
        let path = std::env::temp_dir().join(format!("pawpath-load-twin-{}", std::process::id()));
        std::thread::spawn(move || {
            let mut file = std::fs::File::create(&path).expect("the twin's file");
            // Gone from the folder at once: its space is freed when the process ends, however
            // it ends (the bench kills it).
            let _ = std::fs::remove_file(&path);
            let page = vec![0x5a_u8; SYNCED_BYTES];
            let mut group = Vec::new();
            while let Ok(first) = waiting.recv() {
                group.push(first);
                while group.len() < 64 {
                    match waiting.try_recv() {
                        Ok(next) => group.push(next),
                        Err(_) => break,
                    }
                }
                if file.stream_position().unwrap_or(0) > 64 << 20 {
                    let _ = file.set_len(0);
                    let _ = file.rewind();
                }
                let ok =
                    group.iter().all(|_| file.write_all(&page).is_ok()) && file.sync_data().is_ok();
                for answer in group.drain(..) {
                    let _ = answer.send(ok);
                }
            }
        });
        Self { writes }
    }

    /// Waits until this request's bytes are on disk.
    async fn sync(&self) -> bool {
        let (answer, answered) = tokio::sync::oneshot::channel();
        self.writes.send(answer).is_ok() && answered.await.unwrap_or(false)
    }
}

/// `n` rounds of arithmetic the compiler cannot skip: the twin's work, CPU and nothing else.
fn work(n: u64) -> u64 {
    let mut x = 0x9e37_79b9_7f4a_7c15_u64;
    for _ in 0..n {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x = std::hint::black_box(x);
    }
    x
}

/// Rounds of [`work`] a microsecond, on this machine now: the best of twenty tries of a million
/// rounds (a few milliseconds each), so a try the machine interrupted does not count.
fn work_per_microsecond() -> u64 {
    let n = 1_000_000;
    let best = (0..20)
        .map(|_| {
            let t = Instant::now();
            std::hint::black_box(work(n));
            t.elapsed()
        })
        .min()
        .unwrap_or(Duration::from_millis(5));
    (n as f64 / (best.as_secs_f64() * 1e6).max(1e-3)).max(1.0) as u64
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

struct Server {
    child: Child,
    port: u16,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Server {
    /// The CPU time the process has used so far (user and system), in seconds.
    fn cpu_seconds(&self) -> f64 {
        cpu_of(&format!("/proc/{}/stat", self.child.id()))
    }

    /// Peak resident memory of the process so far (VmHWM), in MB.
    fn peak_mb(&self) -> f64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .unwrap_or_default();
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmHWM:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
            .map_or(f64::NAN, |kb| kb / 1024.0)
    }
}

/// User and system CPU time of the process whose `/proc/…/stat` is at `path`, in seconds (0 if
/// it is gone).
fn cpu_of(path: &str) -> f64 {
    let stat = std::fs::read_to_string(path).unwrap_or_default();
    // The fields after the command name (which may hold spaces), from the third on.
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|v| v.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    // utime and stime are the 14th and 15th fields: 12th and 13th after the name.
    (ticks(11) + ticks(12)) / 100.0
}

/// The CPU time every PostgreSQL process on this machine has used so far, in seconds (its
/// backends serve pawpath's statements; 0 where there is none or it runs elsewhere).
fn postgres_cpu_seconds() -> f64 {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return 0.0;
    };
    dir.filter_map(Result::ok)
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .bytes()
                .all(|b| b.is_ascii_digit())
        })
        .filter(|e| {
            std::fs::read_to_string(e.path().join("comm")).is_ok_and(|c| c.trim() == "postgres")
        })
        .map(|e| cpu_of(&e.path().join("stat").to_string_lossy()))
        .sum()
}

async fn wait_ready(port: u16, path: &str) {
    for _ in 0..600 {
        if let Ok(r) = send(port, get(path, &[])).await
            && r.0 == 200
        {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the server on port {port} did not answer {path}");
}

fn start_bare() -> Server {
    let port = free_port();
    let child = Command::new(std::env::current_exe().expect("this bench"))
        .env("PAWPATH_LOAD_BARE", "1")
        .env("PORT", port.to_string())
        .stdout(Stdio::null())
        .spawn()
        .expect("start the bare endpoint");
    Server { child, port }
}

fn start_pawpath(database: &str, data: &std::path::Path) -> Server {
    let port = free_port();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    // PAWPATH_BENCH_BINARY: another build of pawpath to load (a before-and-after comparison).
    let binary = std::env::var("PAWPATH_BENCH_BINARY")
        .unwrap_or_else(|_| env!("CARGO_BIN_EXE_pawpath").to_owned());
    let child = Command::new(binary)
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("PORT", port.to_string())
        .env("PAWPATH_DATA_DIR", data)
        .env("DATABASE_URL", database)
        .env("PAWPATH_DEFINITIONS", &root)
        .env("PAWPATH_LOG_FORMAT", "json")
        .env("PAWPATH_AGGREGATOR_KEYS", format!("ctm={KEY}"))
        .env("PAWPATH_MAX_CONNECTIONS", "4096")
        .env("PAWPATH_METRICS_TOKEN", METRICS_TOKEN)
        // The load is many requests from few sessions: each session's pace (a person's) and its
        // quote's history ceiling are lifted, so every request does the work it measures.
        .env("PAWPATH_SESSION_BURST", "1000000")
        .env("PAWPATH_SESSION_SAVES_PER_MINUTE", "6000000")
        .env("PAWPATH_HISTORY_CEILING", "100000")
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start pawpath (cargo bench builds it)");
    Server { child, port }
}

type Req = Request<Full<Bytes>>;

fn get(path: &str, headers: &[(&str, &str)]) -> Req {
    let mut b = Request::get(path).header("host", "127.0.0.1");
    for (k, v) in headers {
        b = b.header(*k, *v);
    }
    b.body(Full::new(Bytes::new())).expect("request")
}

fn post(path: &str, headers: &[(&str, &str)], body: &Value) -> Req {
    let mut b = Request::post(path)
        .header("host", "127.0.0.1")
        .header("content-type", "application/json");
    for (k, v) in headers {
        b = b.header(*k, *v);
    }
    b.body(Full::new(Bytes::from(body.to_string())))
        .expect("request")
}

/// One request on a connection of its own (setup only): status, cookies set, body.
async fn send(port: u16, req: Req) -> Result<(u16, Vec<String>, Bytes), String> {
    let stream = TcpStream::connect(("127.0.0.1", port))
        .await
        .map_err(|e| e.to_string())?;
    let io = hyper_util::rt::TokioIo::new(stream);
    let (mut sender, conn) = hyper::client::conn::http1::handshake(io)
        .await
        .map_err(|e| e.to_string())?;
    tokio::spawn(conn);
    let r = sender.send_request(req).await.map_err(|e| e.to_string())?;
    let status = r.status().as_u16();
    let cookies = r
        .headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .filter_map(|v| v.split(';').next())
        .map(str::to_owned)
        .collect();
    let body = r
        .into_body()
        .collect()
        .await
        .map_err(|e| e.to_string())?
        .to_bytes();
    Ok((status, cookies, body))
}

/// pawpath's own count of the requests it answered (every route but `/metrics`), and of those
/// that took longer than each of [`OVER_MS`], from its request histogram: the time from the
/// request reaching its router's counting layer to the answer leaving it, which leaves out the
/// client, the kernel's queues and the wait for a runtime thread to read the request.
async fn server_counts(port: u16) -> Option<(f64, [f64; 3])> {
    let auth = format!("Bearer {METRICS_TOKEN}");
    let (status, _, body) = send(port, get("/metrics", &[("authorization", &auth)]))
        .await
        .ok()?;
    if status != 200 {
        return None;
    }
    let text = String::from_utf8_lossy(&body);
    let (mut total, mut within) = (0.0, [0.0; 3]);
    for line in text.lines() {
        let Some(rest) = line.strip_prefix("pawpath_http_request_duration_seconds_bucket{") else {
            continue;
        };
        if rest.contains("route=\"/metrics\"") {
            continue;
        }
        let Some((labels, value)) = rest.rsplit_once("} ") else {
            continue;
        };
        let Ok(n) = value.trim().parse::<f64>() else {
            continue;
        };
        let Some(le) = labels
            .split("le=\"")
            .nth(1)
            .and_then(|l| l.split('"').next())
        else {
            continue;
        };
        if le == "+Inf" {
            total += n;
        }
        for (i, ms) in OVER_MS.iter().enumerate() {
            if le
                .parse::<f64>()
                .is_ok_and(|b| (b * 1000.0 - ms).abs() < 1e-6)
            {
                within[i] += n;
            }
        }
    }
    Some((total, within))
}

fn answers() -> (Value, Value) {
    let file: Value = serde_json::from_str(
        &std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/flows/_answers.json"),
        )
        .expect("tests/flows/_answers.json"),
    )
    .expect("answers");
    (file.clone(), file["owner"].clone())
}

fn pets(n: usize, cost: &str) -> Value {
    let (file, _) = answers();
    let today = chrono::Utc::now().date_naive();
    Value::Array(
        (0..n)
            .map(|i| {
                let mut pet = if i % 2 == 0 {
                    file["dog"].clone()
                } else {
                    file["cat"].clone()
                };
                pet["pet_name"] = json!(format!("Pet {}", i + 1));
                // Born well inside every species' window whenever the bench runs.
                pet["pet_date_of_birth"] =
                    json!((today - chrono::Duration::days(700 + 30 * i as i64)).to_string());
                if i == 0 {
                    pet["pet_cost"] = json!(cost);
                }
                pet
            })
            .collect(),
    )
}

/// A session's quote on the direct journey, priced, at choose policy: its cookie and CSRF token.
async fn priced_quote(port: u16, n: usize) -> (String, String) {
    let (status, cookies, body) = send(port, get("/quote", &[("accept", "application/json")]))
        .await
        .expect("open a quote");
    assert_eq!(status, 200);
    let cookie = cookies.join("; ");
    let view: Value = serde_json::from_slice(&body).expect("view data");
    let csrf = view["data"]["csrf"].as_str().expect("csrf").to_owned();
    let h = [("cookie", cookie.as_str())];
    let (s, _, b) = send(
        port,
        post(
            "/api/petdetails",
            &h,
            &json!({ "csrf": csrf, "pets": pets(n, "450.00") }),
        ),
    )
    .await
    .expect("pets");
    assert_eq!(s, 200, "{}", String::from_utf8_lossy(&b));
    let (_, owner) = answers();
    let (s, _, b) = send(
        port,
        post(
            "/api/ownerdetail",
            &h,
            &json!({ "csrf": csrf, "owner": owner }),
        ),
    )
    .await
    .expect("owner");
    assert_eq!(s, 200, "{}", String::from_utf8_lossy(&b));
    let view: Value = serde_json::from_slice(&b).expect("view");
    assert_eq!(
        view["data"]["step"]["id"], "choose_policy",
        "the quote reached choose policy"
    );
    (cookie, csrf)
}

/// What each connection sends, over and over.
#[derive(Clone)]
enum Load {
    Get {
        path: String,
        headers: Vec<(String, String)>,
    },
    /// Posts that alternate between two bodies, so every one changes the quote.
    Post {
        path: String,
        headers: Vec<(String, String)>,
        bodies: [Bytes; 2],
    },
}

impl Load {
    fn request(&self, n: u64) -> Req {
        let (method, path, headers, body) = match self {
            Load::Get { path, headers } => ("GET", path, headers, Bytes::new()),
            Load::Post {
                path,
                headers,
                bodies,
            } => ("POST", path, headers, bodies[(n % 2) as usize].clone()),
        };
        let mut b = Request::builder()
            .method(method)
            .uri(path.as_str())
            .header("host", "127.0.0.1");
        if method == "POST" {
            b = b.header("content-type", "application/json");
        }
        for (k, v) in headers {
            b = b.header(k.as_str(), v.as_str());
        }
        b.body(Full::new(body)).expect("request")
    }
}

struct Figures {
    rate: f64,
    /// Requests answered as expected.
    count: usize,
    p50: f64,
    p99: f64,
    errors: u64,
    /// p90, p95, p99.9 and the slowest (printed with PAWPATH_BENCH_DETAIL).
    detail: [f64; 4],
    /// What the pause meter saw while the load ran.
    pauses: Pauses,
    /// p50 and p99 timed from when each request was due rather than when it was sent (paced
    /// figures only; NaN at peak): the open rate's own measure, which counts the wait of a
    /// request held back because its connection's previous answer was late.
    from_due: [f64; 2],
    /// The share of requests slower than each of [`OVER_MS`], as the client timed them.
    over: [f64; 3],
}

/// The times (ms) at which the client's and pawpath's own counts of slow requests are compared:
/// bucket bounds of pawpath's request histogram (`pawpath_http_request_duration_seconds`).
const OVER_MS: [f64; 3] = [5.0, 10.0, 25.0];

/// Times the machine did not run a thread that only sleeps a millisecond at a time and wakes: on
/// a virtual machine the host can stop the guest's processors for tens of milliseconds, which
/// holds every request in flight, pawpath's and the bare endpoint's alike. A pause here is a wake
/// more than [`PAUSE_MS`] late. The meter costs about a thousand wakes a second.
#[derive(Debug, Clone, Copy, Default)]
struct Pauses {
    count: usize,
    longest_ms: f64,
}

const PAUSE_MS: f64 = 5.0;

/// A round whose longest pause is shorter than this is counted calm, and the median of the calm
/// rounds is printed beside the median of all.
const CALM_MS: f64 = 10.0;

/// What the pause meter saw, as a round's line says it.
fn paused(p: Pauses) -> String {
    if p.count == 0 {
        format!("no pause over {PAUSE_MS} ms")
    } else {
        format!(
            "{} pause{} over {PAUSE_MS} ms, the longest {:.0} ms",
            p.count,
            if p.count == 1 { "" } else { "s" },
            p.longest_ms
        )
    }
}

/// Starts the pause meter; it stops, and answers what it saw, when `stop` is set.
fn pause_meter(stop: Arc<AtomicBool>) -> std::thread::JoinHandle<Pauses> {
    std::thread::spawn(move || {
        let mut seen = Pauses::default();
        while !stop.load(Ordering::Relaxed) {
            let t = Instant::now();
            std::thread::sleep(Duration::from_millis(1));
            let late = t.elapsed().as_secs_f64() * 1000.0 - 1.0;
            if late > PAUSE_MS {
                seen.count += 1;
                seen.longest_ms = seen.longest_ms.max(late);
            }
        }
        seen
    })
}

/// Loads `port` from `loads.len()` connections for `seconds`; with `pace`, each connection sends
/// at most that many requests a second in all (an open rate, for the half-of-peak figures).
async fn measure(
    port: u16,
    loads: Vec<Load>,
    seconds: f64,
    pace: Option<f64>,
    expect: u16,
) -> Figures {
    let stop = Arc::new(AtomicBool::new(false));
    let connections = loads.len();
    let mut tasks = Vec::new();
    let meter = pause_meter(stop.clone());
    let started = Instant::now();
    for (index, load) in loads.into_iter().enumerate() {
        let stop = stop.clone();
        tasks.push(tokio::spawn(async move {
            let mut latencies: Vec<Duration> = Vec::new();
            // From the time each request was due (paced only): a request sent late because the
            // connection's previous answer was late counts that wait too.
            let mut from_due: Vec<Duration> = Vec::new();
            let mut errors = 0u64;
            let stream = TcpStream::connect(("127.0.0.1", port))
                .await
                .expect("connect");
            stream.set_nodelay(true).ok();
            let io = hyper_util::rt::TokioIo::new(stream);
            let (mut sender, conn) = hyper::client::conn::http1::handshake(io)
                .await
                .expect("handshake");
            tokio::spawn(conn);
            let gap = pace.map(|rate| Duration::from_secs_f64(connections as f64 / rate));
            // Spread over the gap, so the connections do not send in step.
            let mut next = Instant::now()
                + gap.map_or(Duration::ZERO, |g| {
                    g.mul_f64(index as f64 / connections as f64)
                });
            let mut n = 0u64;
            let mut answered = next;
            while !stop.load(Ordering::Relaxed) {
                // Held back by this connection's previous answer (it came after this request was
                // due): timed from when it was due. Else from when it was sent, so the client's
                // own timer (a millisecond's grain) is not counted against the server.
                let held = next < answered;
                let due = next;
                if let Some(gap) = gap {
                    let now = Instant::now();
                    if next > now {
                        tokio::time::sleep(next - now).await;
                    }
                    next += gap;
                }
                let t = Instant::now();
                let ok = match sender.send_request(load.request(n)).await {
                    Ok(r) => {
                        let status = r.status().as_u16();
                        r.into_body().collect().await.is_ok() && status == expect
                    }
                    Err(_) => false,
                };
                n += 1;
                answered = Instant::now();
                if ok {
                    latencies.push(answered - t);
                    if gap.is_some() {
                        from_due.push(if held { answered - due } else { answered - t });
                    }
                } else {
                    errors += 1;
                    if sender.ready().await.is_err() {
                        break;
                    }
                }
            }
            (latencies, from_due, errors)
        }));
    }
    tokio::time::sleep(Duration::from_secs_f64(seconds)).await;
    stop.store(true, Ordering::Relaxed);
    let mut all = Vec::new();
    let mut all_due = Vec::new();
    let mut errors = 0;
    for t in tasks {
        let (l, d, e) = t.await.expect("client");
        all.extend(l);
        all_due.extend(d);
        errors += e;
    }
    let elapsed = started.elapsed().as_secs_f64();
    let pauses = meter.join().expect("pause meter");
    all.sort();
    all_due.sort();
    let due_at = |p: f64| {
        all_due
            .get(((all_due.len().max(1) - 1) as f64 * p) as usize)
            .map_or(f64::NAN, |d| d.as_secs_f64() * 1000.0)
    };
    let at = |p: f64| {
        all.get(((all.len().max(1) - 1) as f64 * p) as usize)
            .map_or(f64::NAN, |d| d.as_secs_f64() * 1000.0)
    };
    Figures {
        rate: all.len() as f64 / elapsed,
        count: all.len(),
        p50: at(0.5),
        p99: at(0.99),
        errors,
        detail: [0.9, 0.95, 0.999, 1.0].map(at),
        pauses,
        from_due: [due_at(0.5), due_at(0.99)],
        over: OVER_MS.map(|ms| {
            let slow = all.len() - all.partition_point(|d| d.as_secs_f64() * 1000.0 <= ms);
            slow as f64 / all.len().max(1) as f64
        }),
    }
}

fn bare_loads(connections: usize) -> Vec<Load> {
    vec![
        Load::Get {
            path: "/json".into(),
            headers: vec![]
        };
        connections
    ]
}

/// The twin's load: the bare endpoint's answer after `us` microseconds of work, and for the twin
/// of a write, after its own bytes are synced too.
fn twin_loads(connections: usize, us: u64, durable: bool) -> Vec<Load> {
    vec![
        Load::Get {
            path: format!("/{}/{us}", if durable { "durable" } else { "work" }),
            headers: vec![]
        };
        connections
    ]
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    match values.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => values[n / 2],
        n => (values[n / 2 - 1] + values[n / 2]) / 2.0,
    }
}

fn env_u(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

async fn run() {
    let seconds = env_u("PAWPATH_BENCH_SECONDS", 8) as f64;
    let connections = env_u("PAWPATH_BENCH_CONNECTIONS", 32) as usize;
    let n_pets = env_u("PAWPATH_BENCH_PETS", 2) as usize;
    let only: Option<Vec<String>> = std::env::var("PAWPATH_BENCH_ONLY")
        .ok()
        .map(|v| v.split(',').map(|s| s.trim().to_owned()).collect());
    let wanted = |name: &str| only.as_ref().is_none_or(|o| o.iter().any(|s| s == name));
    println!(
        "load bench: {} cores, {connections} connections from a 2-thread client, {seconds} s each, {n_pets} pets per quote",
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );

    let bare = start_bare();
    wait_ready(bare.port, "/json").await;
    let (bare_rate, bare_cpu) = if wanted("bare") || only.is_none() {
        let loads = bare_loads(connections);
        let cpu = bare.cpu_seconds();
        let f = measure(bare.port, loads.clone(), seconds, None, 200).await;
        let bare_cpu = 1e6 * (bare.cpu_seconds() - cpu) / f.count.max(1) as f64;
        println!(
            "bare axum endpoint: {:.0}/s, p50 {:.2} ms, p99 {:.2} ms; CPU per request {bare_cpu:.0} µs",
            f.rate, f.p50, f.p99
        );
        // The machine's and the client's own tail, to read pawpath's half-peak figures beside.
        let half = measure(bare.port, loads, seconds, Some(f.rate / 2.0), 200).await;
        println!(
            "  at half of peak ({:.0}/s): p50 {:.2} ms, p99 {:.2} ms, p99 / p50 = {:.1}",
            half.rate,
            half.p50,
            half.p99,
            half.p99 / half.p50
        );
        (f.rate, bare_cpu)
    } else {
        (f64::NAN, f64::NAN)
    };
    // The bare endpoint stays up: with PAWPATH_BENCH_REPEAT its tail is measured again beside
    // each of pawpath's.
    let bare_port = bare.port;

    let mut databases = vec![("SQLite", None)];
    if let Ok(url) = std::env::var("PAWPATH_BENCH_POSTGRES") {
        databases.push(("PostgreSQL", Some(url)));
    }
    for (name, pg) in databases {
        let data = std::env::temp_dir().join(format!("pawpath-load-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&data).expect("data folder");
        let (database, cleanup) = match &pg {
            None => (
                format!("sqlite://{}?mode=rwc", data.join("bench.db").display()),
                None,
            ),
            Some(url) => {
                let db = format!("pawpath_load_{}", std::process::id());
                let mut admin = pg_admin(url).await;
                sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {db}")))
                    .execute(&mut admin)
                    .await
                    .expect("create the bench database");
                let base = url.rsplit_once('/').map_or(url.as_str(), |(b, _)| b);
                (format!("{base}/{db}"), Some((url.clone(), db)))
            }
        };
        bench_database(
            name,
            &database,
            &data,
            Bare {
                port: bare_port,
                pid: bare.child.id(),
                rate: bare_rate,
                cpu: bare_cpu,
            },
            seconds,
            connections,
            n_pets,
            &wanted,
        )
        .await;
        if let Some((url, db)) = cleanup {
            if std::env::var_os("PAWPATH_BENCH_KEEP_DATABASE").is_some() {
                println!("  kept the database {db} (PAWPATH_BENCH_KEEP_DATABASE)");
                continue;
            }
            let mut admin = pg_admin(&url).await;
            let _ = sqlx::query(sqlx::AssertSqlSafe(format!(
                "DROP DATABASE IF EXISTS {db} WITH (FORCE)"
            )))
            .execute(&mut admin)
            .await;
        }
        let _ = std::fs::remove_dir_all(&data);
    }
}

async fn pg_admin(url: &str) -> sqlx::PgConnection {
    use sqlx::Connection;
    sqlx::PgConnection::connect(url)
        .await
        .expect("connect to PostgreSQL")
}

/// The bare endpoint as pawpath's figures are read beside it: its port and process, its rate at
/// peak and its CPU time per request at peak (µs).
#[derive(Clone, Copy)]
struct Bare {
    port: u16,
    pid: u32,
    rate: f64,
    cpu: f64,
}

#[allow(clippy::too_many_arguments)]
async fn bench_database(
    name: &str,
    database: &str,
    data: &std::path::Path,
    Bare {
        port: bare_port,
        pid: bare_pid,
        rate: bare_rate,
        cpu: bare_cpu,
    }: Bare,
    seconds: f64,
    connections: usize,
    n_pets: usize,
    wanted: &dyn Fn(&str) -> bool,
) {
    let server = start_pawpath(database, data);
    let port = server.port;
    wait_ready(port, "/healthz").await;
    println!("\npawpath on {name}:");
    let report = |what: &str, f: &Figures| {
        println!(
            "  {what:<44} {:>8.0}/s  {:>6.2}% of bare  p50 {:>7.2} ms  p99 {:>7.2} ms{}",
            f.rate,
            100.0 * f.rate / bare_rate,
            f.p50,
            f.p99,
            if f.errors > 0 {
                format!("  ({} errors)", f.errors)
            } else {
                String::new()
            }
        );
        if std::env::var_os("PAWPATH_BENCH_DETAIL").is_some() {
            let [p90, p95, p999, max] = f.detail;
            println!(
                "  {:<44} p90 {p90:.2} ms  p95 {p95:.2} ms  p99.9 {p999:.2} ms  max {max:.2} ms",
                ""
            );
        }
    };
    // Each figure at its peak, then at half of it.
    let on_postgres = database.starts_with("postgres");
    let run = async |what: &str, loads: Vec<Load>, expect: u16| {
        let (cpu, db_cpu) = (server.cpu_seconds(), postgres_cpu_seconds());
        let peak = measure(port, loads.clone(), seconds, None, expect).await;
        let per_request = |used: f64| 1e6 * used / peak.count.max(1) as f64;
        let (own_cpu, database_cpu) = (
            per_request(server.cpu_seconds() - cpu),
            per_request(postgres_cpu_seconds() - db_cpu),
        );
        report(what, &peak);
        // CPU per request: steadier than the rate on a machine shared with other work.
        println!(
            "  {:<44} CPU per request: pawpath {own_cpu:.0} µs{}",
            "",
            if on_postgres {
                format!(", PostgreSQL {database_cpu:.0} µs")
            } else {
                String::new()
            }
        );
        let repeat = env_u("PAWPATH_BENCH_REPEAT", 1).max(1);
        let detail = std::env::var_os("PAWPATH_BENCH_DETAIL").is_some();
        let (mut ratios, mut bare_ratios, mut calm) = (Vec::new(), Vec::new(), Vec::new());
        // The twin: the bare endpoint doing, on its runtime's thread, as much CPU work a request
        // as this request cost pawpath (and its database) beyond what a bare answer costs, and
        // nothing else: no database, no other thread (a write's twin syncs a write of its own).
        // Its tail at half of its own peak, beside each of pawpath's rounds, is what work of that
        // size costs on this machine with this client.
        let twin = (std::env::var_os("PAWPATH_BENCH_TWIN").is_some()
            && repeat > 1
            && bare_cpu.is_finite())
        .then(|| (own_cpu + database_cpu - bare_cpu).max(0.0).round() as u64);
        let mut twin_ratios = Vec::new();
        // A write's twin waits for a sync of its own too.
        let durable = matches!(loads.first(), Some(Load::Post { .. }));
        let twin_rate = match twin {
            Some(us) => {
                let cpu = cpu_of(&format!("/proc/{}/stat", bare_pid));
                let f = measure(
                    bare_port,
                    twin_loads(connections, us, durable),
                    seconds,
                    None,
                    200,
                )
                .await;
                println!(
                    "  {:<44} the twin ({us} µs of work a request{}): {:.0}/s, CPU per request {:.0} µs",
                    "",
                    if durable {
                        format!(", then {} KB written and synced", SYNCED_BYTES / 1024)
                    } else {
                        String::new()
                    },
                    f.rate,
                    1e6 * (cpu_of(&format!("/proc/{}/stat", bare_pid)) - cpu)
                        / f.count.max(1) as f64
                );
                f.rate
            }
            None => f64::NAN,
        };
        for round in 1..=repeat {
            let before = if detail {
                server_counts(port).await
            } else {
                None
            };
            let half = measure(port, loads.clone(), seconds, Some(peak.rate / 2.0), expect).await;
            let after = if detail {
                server_counts(port).await
            } else {
                None
            };
            report(
                &format!("  at half of peak ({:.0}/s)", peak.rate / 2.0),
                &half,
            );
            if detail {
                let [p50, p99] = half.from_due;
                println!(
                    "  {:<44} timed from when each was due: p50 {p50:.2} ms, p99 {p99:.2} ms, p99 / p50 = {:.1}",
                    "",
                    p99 / p50
                );
            }
            // Where the slow requests' time went: inside pawpath's router, or before and after it.
            if let (Some((t0, w0)), Some((t1, w1))) = (before, after) {
                let total = (t1 - t0).max(1.0);
                let shares: Vec<String> = OVER_MS
                    .iter()
                    .enumerate()
                    .map(|(i, ms)| {
                        format!(
                            "over {ms} ms {:.2}% (pawpath's own {:.2}%)",
                            100.0 * half.over[i],
                            100.0 * ((t1 - t0) - (w1[i] - w0[i])) / total
                        )
                    })
                    .collect();
                println!("  {:<44} {}", "", shares.join(", "));
            }
            ratios.push(half.p99 / half.p50);
            if half.pauses.longest_ms < CALM_MS {
                calm.push(half.p99 / half.p50);
            }
            if repeat == 1 || !bare_rate.is_finite() {
                println!(
                    "  {:<44} p99 / p50 = {:.1}; {}",
                    "",
                    half.p99 / half.p50,
                    paused(half.pauses)
                );
                continue;
            }
            let beside = measure(
                bare_port,
                bare_loads(connections),
                seconds,
                Some(bare_rate / 2.0),
                200,
            )
            .await;
            bare_ratios.push(beside.p99 / beside.p50);
            let twin_said = match twin {
                Some(us) => {
                    let t = measure(
                        bare_port,
                        twin_loads(connections, us, durable),
                        seconds,
                        Some(twin_rate / 2.0),
                        200,
                    )
                    .await;
                    twin_ratios.push(t.p99 / t.p50);
                    format!(
                        "; the twin's: {:.1} (p50 {:.2} ms, p99 {:.2} ms)",
                        t.p99 / t.p50,
                        t.p50,
                        t.p99
                    )
                }
                None => String::new(),
            };
            println!(
                "  {:<44} round {round}: p99 / p50 = {:.1}; {}; the bare endpoint's at half of its peak just after: {:.1}{twin_said}",
                "",
                half.p99 / half.p50,
                paused(half.pauses),
                beside.p99 / beside.p50
            );
        }
        if repeat > 1 {
            println!(
                "  {:<44} median of {repeat} rounds: p99 / p50 = {:.1}; the bare endpoint's {:.1}{}",
                "",
                median(&mut ratios),
                median(&mut bare_ratios),
                if twin_ratios.is_empty() {
                    String::new()
                } else {
                    format!("; the twin's {:.1}", median(&mut twin_ratios))
                }
            );
            if !calm.is_empty() {
                println!(
                    "  {:<44} of the {} rounds with no pause of {CALM_MS} ms or more: {:.1}",
                    "",
                    calm.len(),
                    median(&mut calm)
                );
            }
        }
    };

    let mut quotes = Vec::new();
    if wanted("view") || wanted("transition") {
        for _ in 0..connections {
            quotes.push(priced_quote(port, n_pets).await);
        }
    }
    let seed = env_u("PAWPATH_BENCH_SEED_QUOTES", 0);
    let per_quote = env_u("PAWPATH_BENCH_SEED_TRANSITIONS", 10);
    // The copies are of a priced quote this run made, and it makes one only to measure the view
    // or the transition: with neither there is nothing to copy, and a funnel over nothing says
    // nothing.
    let seed_asked = seed > 0 && database.starts_with("postgres");
    let seeded = seed_asked && !quotes.is_empty();
    if seed_asked && !seeded {
        println!(
            "  not seeded: PAWPATH_BENCH_SEED_QUOTES (PostgreSQL) copies a priced quote, made only \
             when PAWPATH_BENCH_ONLY has view or transition"
        );
    }
    if seeded {
        let started = Instant::now();
        seed_quotes(database, seed, per_quote).await;
        println!(
            "  seeded {seed} quotes and {} transitions in {:.0} s",
            seed * per_quote,
            started.elapsed().as_secs_f64()
        );
    }
    if seeded && wanted("funnel") {
        let started = Instant::now();
        let out = Command::new(env!("CARGO_BIN_EXE_pawpath"))
            .args(["report", "funnel", "--journey", "direct"])
            .env("DATABASE_URL", database)
            .env("PAWPATH_DATA_DIR", data)
            .env(
                "PAWPATH_DEFINITIONS",
                std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(".."),
            )
            .stdout(Stdio::null())
            .status()
            .expect("pawpath report funnel");
        println!(
            "  pawpath report funnel --journey direct over {} transitions: {:.2} s ({out})",
            seed * per_quote,
            started.elapsed().as_secs_f64()
        );
    }
    if wanted("view") {
        let (cookie, _) = &quotes[0];
        let (_, _, body) = send(
            port,
            get(
                "/quote/choose-policy",
                &[("accept", "application/json"), ("cookie", cookie)],
            ),
        )
        .await
        .expect("view");
        // On the wire as a browser gets it (issue 23): brotli, and gzip for one that lacks it.
        let mut wire = Vec::new();
        for encoding in ["br", "gzip"] {
            let (_, _, compressed) = send(
                port,
                get(
                    "/quote/choose-policy",
                    &[
                        ("accept", "application/json"),
                        ("accept-encoding", encoding),
                        ("cookie", cookie),
                    ],
                ),
            )
            .await
            .expect("view");
            wire.push(format!(
                "{:.1} KB {encoding}",
                compressed.len() as f64 / 1024.0
            ));
        }
        println!(
            "  priced {n_pets}-pet view data answer: {:.1} KB ({} on the wire)",
            body.len() as f64 / 1024.0,
            wire.join(", ")
        );
        let loads = quotes
            .iter()
            .map(|(cookie, _)| Load::Get {
                path: "/quote/choose-policy".into(),
                // As a browser asks (issue 56): compression is about half of this answer's
                // cost, so a round without it measured a cheaper page than customers get.
                headers: vec![
                    ("accept".into(), "application/json".into()),
                    ("accept-encoding".into(), "br, gzip".into()),
                    ("cookie".into(), cookie.clone()),
                ],
            })
            .collect();
        run(
            &format!("GET /quote/choose-policy ({n_pets} pets, priced, br)"),
            loads,
            200,
        )
        .await;
    }
    if wanted("transition") {
        let loads = quotes
            .iter()
            .map(|(cookie, csrf)| Load::Post {
                path: "/api/petdetails".into(),
                headers: vec![
                    ("accept-encoding".into(), "br, gzip".into()),
                    ("cookie".into(), cookie.clone()),
                ],
                bodies: ["450.00", "460.00"].map(|cost| {
                    Bytes::from(json!({ "csrf": csrf, "pets": pets(n_pets, cost) }).to_string())
                }),
            })
            .collect();
        run(
            &format!("POST /api/petdetails ({n_pets} pets, re-priced, br)"),
            loads,
            200,
        )
        .await;
    }
    if wanted("inbound") {
        let (_, owner) = answers();
        let today = chrono::Utc::now().date_naive();
        let body = |cost: &str| {
            let mut pets = pets(n_pets, cost);
            for p in pets.as_array_mut().into_iter().flatten() {
                if let Some(m) = p.as_object_mut() {
                    m.remove("confirm_assumptions");
                    m.remove("pet_any_injury_illness");
                    m.insert("pet_microchipped".into(), json!("yes"));
                }
            }
            let mut owner = owner.clone();
            if let Some(m) = owner.as_object_mut() {
                m.remove("marketing_preferences");
            }
            owner["marketing_preferences"] = json!({ "optin_email": false, "optin_post": false, "optin_sms": false, "optin_phone": false });
            Bytes::from(
                json!({
                    "brand": "pos",
                    "pets": pets,
                    "owner": owner,
                    "cover_start": (today + chrono::Duration::days(2)).to_string(),
                })
                .to_string(),
            )
        };
        let auth = format!("Bearer {KEY}");
        let (s, _, b) = send(
            port,
            Request::post("/api/aggregators/quotes")
                .header("host", "127.0.0.1")
                .header("content-type", "application/json")
                .header("authorization", auth.as_str())
                .body(Full::new(body("450.00")))
                .expect("request"),
        )
        .await
        .expect("inbound");
        assert_eq!(s, 201, "{}", String::from_utf8_lossy(&b));
        let loads = vec![
            Load::Post {
                path: "/api/aggregators/quotes".into(),
                headers: vec![("authorization".into(), auth.clone())],
                bodies: [body("450.00"), body("460.00")],
            };
            connections
        ];
        run(
            &format!("POST /api/aggregators/quotes ({n_pets} pets)"),
            loads,
            201,
        )
        .await;
    }
    if wanted("healthz") {
        let loads = vec![
            Load::Get {
                path: "/healthz".into(),
                headers: vec![]
            };
            connections
        ];
        run("GET /healthz", loads, 200).await;
    }
    if wanted("breeds") {
        // The breed lists (90 KB of JSON), as a browser asks: brotli accepted.
        let loads = vec![
            Load::Get {
                path: "/api/getbreedlist".into(),
                headers: vec![("accept-encoding".into(), "br".into())]
            };
            connections
        ];
        run("GET /api/getbreedlist (brotli)", loads, 200).await;
    }
    println!("  peak memory of pawpath: {:.0} MB", server.peak_mb());
    drop(server);
    match quote_row_size(database).await {
        Ok(size) => println!("  largest stored quote document: {size:.1} KB"),
        Err(e) => println!("  quote size not read: {e}"),
    }
}

/// Stores `n` more quotes on PostgreSQL: copies of the first priced quote (new ids, references and
/// sessions), each with `per_quote` of its transitions, spread over the last 30 days.
async fn seed_quotes(database: &str, n: u64, per_quote: u64) {
    use sqlx::Connection;
    let mut c = sqlx::PgConnection::connect(database)
        .await
        .expect("connect");
    let statements = [
        format!(
            "insert into quotes (id, quote_ref, session_hash, brand, channel, journey, definition_version,
                                 lifecycle, document, row_version, created_at, updated_at)
             select 'seed' || g, 'SEED-' || g, md5('seed' || g), q.brand, q.channel, q.journey,
                    q.definition_version, q.lifecycle, q.document, 1,
                    to_char(now() - (g % 30) * interval '1 day', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'),
                    q.updated_at
             from (select * from quotes order by created_at limit 1) q, generate_series(1, {n}) g"
        ),
        format!(
            "insert into step_transitions (quote_id, created_at, definition_version, brand, channel,
                                           journey, event, from_step, to_step, outcome, guards,
                                           field_errors, blocks, duration_us)
             select 'seed' || g, to_char(now() - (g % 30) * interval '1 day', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'),
                    t.definition_version, t.brand, t.channel, t.journey, t.event, t.from_step,
                    t.to_step, t.outcome, t.guards, t.field_errors, t.blocks, t.duration_us
             from generate_series(1, {n}) g,
                  (select * from step_transitions order by id limit {per_quote}) t"
        ),
        "analyze".to_owned(),
    ];
    for statement in statements {
        sqlx::query(sqlx::AssertSqlSafe(statement))
            .execute(&mut c)
            .await
            .expect("seed");
    }
    // Closed, and its backend given time to exit, before any measurement starts: the database's
    // CPU a request is the sum over its processes, and a backend exiting during a measurement
    // takes its CPU (the seeding's) out of the sum (the figure came out below zero).
    c.close().await.expect("close the seeding connection");
    tokio::time::sleep(Duration::from_millis(500)).await;
}

/// The largest quote document stored, in KB.
async fn quote_row_size(database: &str) -> Result<f64, sqlx::Error> {
    use sqlx::Connection;
    let n: i64 = if database.starts_with("postgres") {
        let mut c = sqlx::PgConnection::connect(database).await?;
        sqlx::query_scalar(
            "SELECT coalesce(max(octet_length(document::text)), 0)::bigint FROM quotes",
        )
        .fetch_one(&mut c)
        .await?
    } else {
        let mut c = sqlx::SqliteConnection::connect(database).await?;
        sqlx::query_scalar("SELECT coalesce(max(length(document)), 0) FROM quotes")
            .fetch_one(&mut c)
            .await?
    };
    Ok(n as f64 / 1024.0)
}
