//! The load benchmark: the release binary and a bare axum endpoint started in the same
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

mod bare;
mod client;
mod figure;
#[path = "../harness/mod.rs"]
mod harness;
mod measure;
mod procs;
mod seed;

use bare::*;
use client::*;
use figure::*;
use measure::*;
use procs::*;
use seed::*;

const KEY: &str = "bench-ctm-key-0123456789abcdefghijklmnop";
/// The bench's scraper token for pawpath's `/metrics` (pawpath's own timing of each round).
const METRICS_TOKEN: &str = "bench-metrics-token-0123456789abcdefghij";

fn main() {
    if std::env::var_os("PAWPATH_LOAD_BARE").is_some() {
        return bare();
    }
    harness::block_on(2, run());
}

/// The bare endpoint: axum answering a small JSON document, nothing else (the ceiling the
/// figures are shares of). Run as its own process, as pawpath is.
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

/// `PAWPATH_BENCH_SEED_QUOTES` (PostgreSQL): copies of a priced quote this run made, stored
/// before the figures are taken; with `funnel` wanted, `pawpath report funnel` timed over them.
async fn seed_and_report(
    database: &str,
    data: &std::path::Path,
    quote_made: bool,
    wanted: &dyn Fn(&str) -> bool,
) {
    let seed = env_u("PAWPATH_BENCH_SEED_QUOTES", 0);
    let per_quote = env_u("PAWPATH_BENCH_SEED_TRANSITIONS", 10);
    // The copies are of a priced quote this run made, and it makes one only to measure the view
    // or the transition: with neither there is nothing to copy, and a funnel over nothing says
    // nothing.
    let seed_asked = seed > 0 && database.starts_with("postgres");
    let seeded = seed_asked && quote_made;
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
}

/// The priced view data: its size as sent and on the wire, then its figure as a browser asks
/// (compressed), and uncompressed when `view_plain` is named.
async fn view_figures(figures: &Run<'_>, quotes: &[(String, String)], n_pets: usize) {
    let port = figures.port;
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
    // On the wire as a browser gets it: brotli, and gzip for one that lacks it.
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
    // As a browser asks: compression is about half of this answer's cost, so a
    // round without it measures a cheaper page than customers get. `view_plain` (named in
    // PAWPATH_BENCH_ONLY) adds the answer uncompressed, to see what compressing costs.
    let plain = std::env::var("PAWPATH_BENCH_ONLY")
        .is_ok_and(|o| o.split(',').any(|s| s.trim() == "view_plain"));
    for (encoding, label) in [(Some("br, gzip"), "br"), (None, "uncompressed")] {
        if encoding.is_none() && !plain {
            continue;
        }
        let loads = quotes
            .iter()
            .map(|(cookie, _)| {
                let mut headers = vec![
                    ("accept".into(), "application/json".into()),
                    ("cookie".into(), cookie.clone()),
                ];
                if let Some(encoding) = encoding {
                    headers.push(("accept-encoding".into(), encoding.into()));
                }
                Load::Get {
                    path: "/quote/choose-policy".into(),
                    headers,
                }
            })
            .collect();
        figures
            .figure(
                &format!("GET /quote/choose-policy ({n_pets} pets, priced, {label})"),
                loads,
                200,
            )
            .await;
    }
}

/// The comparison sites' inbound quote: one made and checked, then its figure.
async fn inbound_figure(figures: &Run<'_>, n_pets: usize) {
    let (port, connections) = (figures.port, figures.connections);
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
    figures
        .figure(
            &format!("POST /api/aggregators/quotes ({n_pets} pets)"),
            loads,
            201,
        )
        .await;
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
    bare: Bare,
    seconds: f64,
    connections: usize,
    n_pets: usize,
    wanted: &dyn Fn(&str) -> bool,
) {
    let server = start_pawpath(database, data);
    let port = server.port;
    wait_ready(port, "/healthz").await;
    println!("\npawpath on {name}:");
    let figures = Run {
        server: &server,
        port,
        bare,
        seconds,
        connections,
        on_postgres: database.starts_with("postgres"),
    };
    let mut quotes = Vec::new();
    if wanted("view") || wanted("transition") {
        for _ in 0..connections {
            quotes.push(priced_quote(port, n_pets).await);
        }
    }
    seed_and_report(database, data, !quotes.is_empty(), wanted).await;
    if wanted("view") {
        view_figures(&figures, &quotes, n_pets).await;
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
        figures
            .figure(
                &format!("POST /api/petdetails ({n_pets} pets, re-priced, br)"),
                loads,
                200,
            )
            .await;
    }
    if wanted("inbound") {
        inbound_figure(&figures, n_pets).await;
    }
    if wanted("healthz") {
        let loads = vec![
            Load::Get {
                path: "/healthz".into(),
                headers: vec![]
            };
            connections
        ];
        figures.figure("GET /healthz", loads, 200).await;
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
        figures
            .figure("GET /api/getbreedlist (brotli)", loads, 200)
            .await;
    }
    println!("  peak memory of pawpath: {:.0} MB", server.peak_mb());
    drop(server);
    match quote_row_size(database).await {
        Ok(size) => println!("  largest stored quote document: {size:.1} KB"),
        Err(e) => println!("  quote size not read: {e}"),
    }
}
