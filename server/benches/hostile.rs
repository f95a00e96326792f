//! The worst one request can cost ("never let one request cost more than a small,
//! known amount of CPU, memory or disk"). Starts pawpath in-process (served as the binary
//! serves, with its limits) on a fresh database with a priced quote in the session, then sends
//! every POST call of the OpenAPI document the costliest bodies it accepts, one at a time:
//!
//! - each field as a list of as many empty objects as the value count allows (`[{}, …]`);
//! - each field as the longest string the body limit allows;
//! - for the certificate call, a 3 MB body of empty objects.
//!
//! For each call it prints the worst CPU time (every thread of the process across the request,
//! the client's share included), the largest answer, and the bytes the request added to the
//! database (quotes and transitions), beside `GET /healthz` measured the same way.
//!
//! Run: `cargo bench -p pawpath-server --bench hostile`.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

const KEY: &str = "bench-ctm-key-0123456789abcdefghijklmnop";

/// The calls of the rehoming flow: sent from a second browser whose quote is a rehoming one.
const REHOMING_CALLS: [&str; 4] = [
    "/api/rehomingeligibility",
    "/api/postpetdetails",
    "/api/confirmationrescue",
    "/api/confirmationRescueEmail",
];

/// The process's CPU time so far: every thread's time on a CPU, from the kernel's scheduler
/// statistics (nanoseconds).
fn cpu() -> Duration {
    let mut total = 0u64;
    if let Ok(tasks) = std::fs::read_dir("/proc/self/task") {
        for task in tasks.flatten() {
            if let Ok(stat) = std::fs::read_to_string(task.path().join("schedstat")) {
                total += stat
                    .split_whitespace()
                    .next()
                    .and_then(|n| n.parse::<u64>().ok())
                    .unwrap_or(0);
            }
        }
    }
    Duration::from_nanos(total)
}

mod harness;

fn main() {
    harness::block_on(2, run());
}

#[derive(Default)]
struct Worst {
    cpu: Duration,
    answer: usize,
    stored: i64,
    status: u16,
}

async fn stored_bytes(pool: &sqlx::AnyPool) -> i64 {
    let (q,): (i64,) = sqlx::query_as("select coalesce(sum(length(document)), 0) from quotes")
        .fetch_one(pool)
        .await
        .expect("quotes");
    let (t,): (i64,) = sqlx::query_as(
        "select coalesce(sum(length(event) + length(field_errors) + length(guards) + length(blocks) + coalesce(length(pricing), 0)), 0) from step_transitions",
    )
    .fetch_one(pool)
    .await
    .expect("transitions");
    q + t
}

async fn run() {
    let data = harness::DataFolder::new("hostile");
    let served = harness::Served::start(
        &data,
        &data.database(),
        &[
            ("PAWPATH_AGGREGATOR_KEYS", format!("ctm={KEY}")),
            // Every call from one session, one at a time: its pace (a person's) is lifted, so
            // each request reaches the work it is measured for.
            ("PAWPATH_SESSION_BURST", "1000000".to_owned()),
        ],
    )
    .await;
    // What the binary makes once per definitions version as it starts (`routes::prepare`), made
    // before the calls are measured: a one-time cost is not one request's.
    pawpath::service::breeds::breed_lists_body(&served.state)
        .await
        .expect("the breed lists");
    let base = &served.base;
    let pool = served.pool().await;

    let client = harness::client();
    // A priced quote in the session: one dog and its owner.
    let csrf = csrf_of(&client, &format!("{base}/quote"))
        .await
        .expect("csrf");
    let today = chrono::Utc::now().date_naive();
    price_a_quote(&client, base, &csrf, today).await;
    // A second browser on rsp's rehoming flow, its eligibility answered (the pet page open).
    let rehoming = harness::client();
    let rehoming_page = format!("{base}/rehoming?brand=rsp");
    let rehoming_csrf = || csrf_of(&rehoming, &rehoming_page);
    let r = rehoming
        .post(format!("{base}/api/rehomingeligibility"))
        .json(&json!({ "csrf": rehoming_csrf().await, "rehoming": {
            "centre": "RSPBRI01", "rehome_date": (today - chrono::Duration::days(2)).to_string(),
            "uk_resident": "yes", "already_insured": "no" } }))
        .send()
        .await
        .expect("eligibility");
    assert_eq!(r.status(), 200, "{}", r.text().await.unwrap_or_default());
    let document: Value = client
        .get(format!("{base}/api/openapi.json"))
        .send()
        .await
        .expect("openapi")
        .json()
        .await
        .expect("json");

    let measure = |method: &'static str, path: String, body: Option<String>| {
        let (base, pool) = (base.clone(), pool.clone());
        let client = if REHOMING_CALLS.contains(&path.as_str()) {
            rehoming.clone()
        } else {
            client.clone()
        };
        async move {
            let before = stored_bytes(&pool).await;
            let started = cpu();
            let request = match (method, body) {
                ("post", Some(b)) => client
                    .post(format!("{base}{path}"))
                    .header("Content-Type", "application/json")
                    .bearer_auth(KEY)
                    .body(b),
                _ => client.get(format!("{base}{path}")),
            };
            let r = request.send().await.expect("send");
            let status = r.status().as_u16();
            let answer = r.bytes().await.expect("answer").len();
            let spent = cpu().saturating_sub(started);
            let stored = stored_bytes(&pool).await - before;
            Worst {
                cpu: spent,
                answer,
                stored,
                status,
            }
        }
    };

    println!(
        "{:<40} {:>10} {:>12} {:>10} {:>8}",
        "call", "worst CPU", "answer (B)", "stored (B)", "status"
    );
    let mut healthz = Worst::default();
    for _ in 0..20 {
        let w = measure("get", "/healthz".into(), None).await;
        if w.cpu > healthz.cpu {
            healthz = w;
        }
    }
    println!(
        "{:<40} {:>8.2}ms {:>12} {:>10} {:>8}",
        "GET /healthz (bare endpoint)",
        healthz.cpu.as_secs_f64() * 1000.0,
        healthz.answer,
        healthz.stored,
        healthz.status
    );
    let started = Instant::now();
    let mut paths: Vec<(&String, &Value)> = document["paths"]
        .as_object()
        .expect("paths")
        .iter()
        .collect();
    paths.sort_by_key(|(p, _)| {
        matches!(
            p.as_str(),
            "/api/reset" | "/api/quoteretrieval" | "/api/fakeaggs" | "/api/test/patch"
        )
    });
    for (path, item) in paths {
        let Some(post) = item.get("post") else {
            continue;
        };
        let csrf = if REHOMING_CALLS.contains(&path.as_str()) {
            rehoming_csrf().await
        } else {
            csrf_of(&client, &format!("{base}/quote")).await
        };
        let mut fields: Vec<String> = Vec::new();
        collect(
            &document,
            &post["requestBody"]["content"]["application/json"]["schema"],
            &mut fields,
        );
        let bodies = hostile_bodies(path, &fields, csrf.as_deref());
        let mut worst = Worst::default();
        let largest = bodies.iter().map(String::len).max().unwrap_or(0);
        for body in bodies {
            let w = measure("post", path.clone(), Some(body)).await;
            worst.cpu = worst.cpu.max(w.cpu);
            worst.answer = worst.answer.max(w.answer);
            worst.stored = worst.stored.max(w.stored);
            worst.status = worst.status.max(w.status);
            assert!(w.status < 500, "{path}: {}", w.status);
        }
        println!(
            "{:<40} {:>8.2}ms {:>12} {:>10} {:>8}   (largest body {} B)",
            format!("POST {path}"),
            worst.cpu.as_secs_f64() * 1000.0,
            worst.answer,
            worst.stored,
            worst.status,
            largest
        );
    }
    println!("all calls in {:.1}s", started.elapsed().as_secs_f64());
}

/// The CSRF token of a page's view data, as the page reads it.
async fn csrf_of(client: &reqwest::Client, url: &str) -> Option<String> {
    client
        .get(url)
        .header("Accept", "application/json")
        .send()
        .await
        .expect("get")
        .json::<Value>()
        .await
        .expect("json")["data"]["csrf"]
        .as_str()
        .map(str::to_owned)
}

/// A priced quote in the session: one dog and its owner.
async fn price_a_quote(client: &reqwest::Client, base: &str, csrf: &str, today: chrono::NaiveDate) {
    for (path, body) in [
        (
            "/api/petdetails",
            json!({ "csrf": csrf, "pets": [{
                "pet_name": "Biscuit", "pet_type": "dog", "dog_breed_type": "breed", "pet_breed": "D173",
                "pet_date_of_birth": (today - chrono::Duration::days(800)).to_string(),
                "pet_sex": "f", "pet_neutered": "yes", "pet_any_injury_illness": "no", "pet_cost": "450.00",
                "confirm_assumptions": true }] }),
        ),
        (
            "/api/ownerdetail",
            json!({ "csrf": csrf, "owner": {
                "customer_title": "Ms", "customer_first_name": "Ada", "customer_last_name": "Lovelace",
                "customer_date_of_birth": "1985-03-27", "email_address": "ada@example.com",
                "customer_contact_number": "01632960123", "houseNumberName": "12",
                "customer_address_line_1": "12 Kings Road", "customer_town": "London",
                "customer_postcode": "SW1A 1AA",
                "marketing_preferences": { "optin_email": false, "optin_post": false, "optin_sms": false, "optin_phone": false } } }),
        ),
    ] {
        let r = client
            .post(format!("{base}{path}"))
            .json(&body)
            .send()
            .await
            .expect("post");
        assert_eq!(
            r.status(),
            200,
            "{path}: {}",
            r.text().await.unwrap_or_default()
        );
    }
}

/// The hostile bodies for a call: for each field it takes, as many values as the count allows and
/// then the longest text the limit allows; for the certificate's call, a million pets and a
/// 3 MB certificate.
fn hostile_bodies(path: &str, fields: &[String], csrf: Option<&str>) -> Vec<String> {
    let base_body = |field: &str, value: String| {
        format!(
            "{{\"csrf\": {}, \"locale\": \"en-GB\", {}: {value}}}",
            serde_json::to_string(&csrf).unwrap_or_default(),
            serde_json::to_string(field).unwrap_or_default()
        )
    };
    let mut bodies = Vec::new();
    for field in fields.iter().filter(|f| *f != "csrf") {
        // As many values as the count allows, then the longest text the limit allows.
        bodies.push(base_body(
            field,
            format!("[{}]", vec!["{}"; 1_990].join(",")),
        ));
        bodies.push(base_body(field, format!("\"{}\"", "é".repeat(31_000))));
    }
    if path == "/api/postpetdetails" {
        bodies.push(base_body(
            "pets",
            format!("[{}]", vec!["{}"; 1_000_000].join(",")),
        ));
        bodies.push(base_body(
            "pets",
            format!(
                "[{{\"rehoming_certificate\": \"{}\"}}]",
                "A".repeat(3_000_000)
            ),
        ));
    }
    if bodies.is_empty() {
        bodies.push(base_body("locale", "\"en-GB\"".into()));
    }
    bodies
}

/// The body's own fields and the question sets' top-level ones.
fn collect(document: &Value, schema: &Value, out: &mut Vec<String>) {
    let schema = match schema.get("$ref").and_then(Value::as_str) {
        Some(r) => document
            .pointer(r.trim_start_matches('#'))
            .unwrap_or(&Value::Null),
        None => schema,
    };
    if let Some(Value::Object(props)) = schema.get("properties") {
        for k in props.keys() {
            if !out.contains(k) {
                out.push(k.clone());
            }
        }
    }
    for key in ["allOf", "oneOf", "anyOf"] {
        if let Some(Value::Array(parts)) = schema.get(key) {
            for part in parts {
                collect(document, part, out);
            }
        }
    }
}
