//! Throughput of the inbound quote API ("price-comparison traffic is heavy: keep it fast
//! and note its throughput"). Starts pawpath in-process on a fresh database, then for a fixed
//! time sends comparison sites' requests (one dog, an owner, a cover start; every request a new
//! quote, priced for every product, stored with its transitions) from several concurrent
//! clients over HTTP, and prints quotes per second and the latency percentiles.
//!
//! Run: `cargo bench -p pawpath-server --bench inbound` (SQLite in a temporary folder), or with
//! `PAWPATH_BENCH_DATABASE=postgres://…` on PostgreSQL. `PAWPATH_BENCH_SECONDS` (default 10)
//! and `PAWPATH_BENCH_CLIENTS` (default 16) change the run.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde_json::json;

const KEY: &str = "bench-ctm-key-0123456789abcdefghijklmnop";

mod harness;

fn main() {
    harness::block_on(2, run());
}

async fn run() {
    let seconds = harness::number("PAWPATH_BENCH_SECONDS", 10);
    let clients = harness::number("PAWPATH_BENCH_CLIENTS", 16);
    let data = harness::DataFolder::new("bench");
    let served = harness::Served::start(
        &data,
        &data.database(),
        &[("PAWPATH_AGGREGATOR_KEYS", format!("ctm={KEY}"))],
    )
    .await;
    let url = format!("{}/api/aggregators/quotes", served.base);

    let today = chrono::Utc::now().date_naive();
    let body = json!({
        "brand": "pos",
        "pets": [{
            "pet_name": "Biscuit", "pet_type": "dog", "dog_breed_type": "breed", "pet_breed": "D173",
            "pet_date_of_birth": (today - chrono::Duration::days(800)).to_string(),
            "pet_sex": "f", "pet_neutered": "yes", "pet_microchipped": "yes", "pet_cost": "450.00"
        }],
        "owner": {
            "customer_title": "Ms", "customer_first_name": "Ada", "customer_last_name": "Lovelace",
            "customer_date_of_birth": "1985-03-27", "email_address": "ada@example.com",
            "customer_contact_number": "01632960123", "houseNumberName": "12",
            "customer_address_line_1": "12 Kings Road", "customer_town": "London",
            "customer_postcode": "SW1A 1AA",
            "marketing_preferences": { "optin_email": false, "optin_post": false, "optin_sms": false, "optin_phone": false }
        },
        "cover_start": (today + chrono::Duration::days(2)).to_string(),
    });
    let client = reqwest::Client::new();
    // One request first: it must succeed, or the figures mean nothing.
    let first = client
        .post(&url)
        .bearer_auth(KEY)
        .json(&body)
        .send()
        .await
        .expect("request");
    assert_eq!(
        first.status(),
        201,
        "{}",
        first.text().await.unwrap_or_default()
    );

    let stop = Arc::new(AtomicBool::new(false));
    let started = Instant::now();
    let mut tasks = Vec::new();
    for _ in 0..clients {
        let (client, url, body, stop) = (client.clone(), url.clone(), body.clone(), stop.clone());
        tasks.push(tokio::spawn(async move {
            let mut latencies = Vec::new();
            while !stop.load(Ordering::Relaxed) {
                let t = Instant::now();
                let r = client
                    .post(&url)
                    .bearer_auth(KEY)
                    .json(&body)
                    .send()
                    .await
                    .expect("request");
                assert_eq!(r.status(), 201);
                r.bytes().await.expect("body");
                latencies.push(t.elapsed());
            }
            latencies
        }));
    }
    tokio::time::sleep(Duration::from_secs(seconds)).await;
    stop.store(true, Ordering::Relaxed);
    let mut all: Vec<Duration> = Vec::new();
    for task in tasks {
        all.extend(task.await.expect("client"));
    }
    let elapsed = started.elapsed().as_secs_f64();
    all.sort();
    let at = |p: f64| all[((all.len() as f64 - 1.0) * p) as usize].as_secs_f64() * 1000.0;
    println!(
        "inbound quote API on {}: {} quotes in {elapsed:.1} s from {clients} clients = {:.0} quotes/s; latency p50 {:.1} ms, p95 {:.1} ms, p99 {:.1} ms",
        if served.database.starts_with("postgres") {
            "PostgreSQL"
        } else {
            "SQLite"
        },
        all.len(),
        all.len() as f64 / elapsed,
        at(0.5),
        at(0.95),
        at(0.99),
    );
}
