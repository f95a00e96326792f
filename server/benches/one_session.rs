//! One session's saves as fast as one client can send them ("One session can grow its
//! quote's history without limit"). Starts pawpath in-process on a fresh database with the
//! defaults a production server has (the session's pace, the history ceiling), opens a quote,
//! then sends `PAWPATH_BENCH_SAVES` (default 4,000) saves of one pet to
//! `/api/petdetails?norequote=1` back to back on one keep-alive connection, each pet carrying an
//! undeclared key of 31,500 characters. Prints the answers by status, the rate, and what the
//! quote's history holds afterwards: its rows and the bytes of their inputs and pricing.
//!
//! Run: `cargo bench -p pawpath-server --bench one_session`.

use serde_json::{Value, json};

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(run());
}

async fn run() {
    let saves: usize = std::env::var("PAWPATH_BENCH_SAVES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(4_000);
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let data = std::env::temp_dir().join(format!("pawpath-one-session-{}", std::process::id()));
    std::fs::create_dir_all(&data).expect("data folder");
    let database = std::env::var("PAWPATH_BENCH_DATABASE")
        .unwrap_or_else(|_| format!("sqlite://{}?mode=rwc", data.join("bench.db").display()));
    let vars = [
        ("PORT", "0".to_owned()),
        ("PAWPATH_DATA_DIR", data.display().to_string()),
        ("DATABASE_URL", database.clone()),
        ("PAWPATH_DEFINITIONS", root.display().to_string()),
        ("PAWPATH_LOG_FORMAT", "pretty".to_owned()),
    ];
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
    let client = reqwest::Client::builder()
        .cookie_store(true)
        .build()
        .expect("client");
    let page: Value = client
        .get(format!("{base}/quote?brand=pos"))
        .header("Accept", "application/json")
        .send()
        .await
        .expect("get")
        .json()
        .await
        .expect("json");
    let body = json!({ "csrf": page["data"]["csrf"], "pets": [{
        "pet_name": "Biscuit", "pet_type": "dog", "dog_breed_type": "breed", "pet_breed": "D173",
        "pet_date_of_birth": "2023-04-01", "pet_sex": "f", "pet_neutered": "yes",
        "pet_any_injury_illness": "no", "pet_cost": "450.00", "confirm_assumptions": true,
        "zz": "z".repeat(31_500) }] })
    .to_string();
    let mut statuses = std::collections::BTreeMap::<u16, usize>::new();
    let started = std::time::Instant::now();
    for _ in 0..saves {
        let r = client
            .post(format!("{base}/api/petdetails?norequote=1"))
            .header("Content-Type", "application/json")
            .body(body.clone())
            .send()
            .await
            .expect("post");
        *statuses.entry(r.status().as_u16()).or_default() += 1;
        let _ = r.bytes().await;
    }
    let seconds = started.elapsed().as_secs_f64();
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(&database).await.expect("pool");
    let (rows, bytes): (i64, i64) = sqlx::query_as(
        "select count(*), coalesce(sum(length(coalesce(input, '')) + length(coalesce(pricing, ''))), 0) from step_transitions",
    )
    .fetch_one(&pool)
    .await
    .expect("history");
    let (history,): (i64,) = sqlx::query_as("select max(history) from quotes")
        .fetch_one(&pool)
        .await
        .expect("quote");
    println!(
        "{saves} saves from one session in {seconds:.2} s ({:.0} a second): answers {statuses:?}",
        saves as f64 / seconds
    );
    println!(
        "the quote's history: {rows} rows (counted on the quote: {history}), {bytes} bytes of input and pricing ({:.0} per row)",
        bytes as f64 / rows.max(1) as f64
    );
    pool.close().await;
    let _ = std::fs::remove_dir_all(&data);
}
