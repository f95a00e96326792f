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

mod harness;

fn main() {
    harness::block_on(2, run());
}

async fn run() {
    let saves = harness::number("PAWPATH_BENCH_SAVES", 4_000) as usize;
    let data = harness::DataFolder::new("one-session");
    let served = harness::Served::start(&data, &data.database(), &[]).await;
    let base = &served.base;
    let client = harness::client();
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
    let pool = served.pool().await;
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
}
