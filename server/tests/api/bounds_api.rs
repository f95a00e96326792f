//! "Rate limits that can be bypassed or turned
//! on a victim" and "Smaller": sizes checked before contents, errors and stored values capped,
//! event names from a closed set, timeouts and a connection limit, retrievals that answer in
//! the same time, rate limits that follow the trusted proxies and slide, and the headers an
//! insurer's site needs.

use crate::common;

use std::time::{Duration, Instant};

use common::*;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

pub(crate) async fn transitions(app: &TestApp) -> i64 {
    app.sql("select count(*) from step_transitions")
        .await
        .and_then(|n| n.parse().ok())
        .unwrap_or(-1)
}

pub(crate) async fn row_version(app: &TestApp) -> String {
    app.sql("select row_version from quotes")
        .await
        .unwrap_or_default()
}

/// A raw POST of `body` (already JSON text) with the app's session, its CSRF token in the
/// header as the page sends it.
pub(crate) async fn post_raw(app: &TestApp, path: &str, body: String) -> (u16, usize, Value) {
    let csrf = app.csrf().await;
    let r = app
        .client
        .post(format!("{}{path}", app.base))
        .header("Content-Type", "application/json")
        .header("X-CSRF-Token", csrf)
        .body(body)
        .send()
        .await
        .expect("post");
    let status = r.status().as_u16();
    let bytes = r.bytes().await.expect("bytes");
    (
        status,
        bytes.len(),
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

#[tokio::test]
async fn a_body_of_thousands_of_items_is_refused_before_it_is_built() {
    let app = spawn_app().await;
    let csrf = app.csrf().await;
    let (before, version) = (transitions(&app).await, row_version(&app).await);
    // 21,000 empty pets in 63 KB: once 1.1 s of CPU, a 10.4 MB answer and an 8.7 MB row.
    let body = format!(
        "{{\"csrf\": \"{csrf}\", \"pets\": [{}]}}",
        vec!["{}"; 21_000].join(",")
    );
    assert!(body.len() < 64 * 1024);
    let (status, size, answer) = post_raw(&app, "/api/petdetails", body).await;
    assert_eq!(status, 400, "{answer}");
    assert_eq!(
        answer["message"],
        "the body holds more than 2000 JSON values"
    );
    assert!(size < 1_000);
    assert_eq!(transitions(&app).await, before, "nothing logged");
    assert_eq!(row_version(&app).await, version, "nothing stored");
}

#[tokio::test]
async fn a_list_past_its_bound_is_one_error_and_its_items_are_not_checked() {
    let app = spawn_app().await;
    // Eleven pets (the questions take ten): one error, on the list.
    let (status, answer) = app.save_pets(json!(vec![valid_pet(); 11])).await;
    assert_eq!(status, 422, "{answer}");
    let errors = answer["errors"].as_array().expect("errors");
    assert_eq!(errors.len(), 1, "{answer}");
    assert_eq!(errors[0]["field"], "pets");
    let stored = app
        .sql("select field_errors from step_transitions where outcome = 'invalid'")
        .await
        .expect("logged");
    let stored: Value = serde_json::from_str(&stored).expect("json");
    assert_eq!(stored.as_array().map(Vec::len), Some(1), "{stored}");

    // Ten empty pets: seventy missing answers, fifty errors at most.
    let (status, answer) = app.save_pets(json!(vec![json!({}); 10])).await;
    assert_eq!(status, 422);
    assert_eq!(
        answer["errors"].as_array().map(Vec::len),
        Some(50),
        "{answer}"
    );
}

#[tokio::test]
async fn the_certificate_call_takes_one_pet_and_no_more_than_its_bytes() {
    let app = spawn_app().await;
    app.view("/rehoming?brand=rsp").await;
    let csrf = app.view("/rehoming?brand=rsp").await["csrf"]
        .as_str()
        .expect("csrf")
        .to_owned();
    // 3 MB of empty pets: once 84 s, a 551 MB answer and a 463 MB row.
    let body = format!(
        "{{\"csrf\": \"{csrf}\", \"pets\": [{}]}}",
        vec!["{}"; 1_000_000].join(",")
    );
    let started = Instant::now();
    let (status, size, answer) = post_raw(&app, "/api/postpetdetails", body).await;
    assert_eq!(status, 400, "{answer}");
    assert!(size < 1_000);
    println!("3 MB of empty pets refused in {:?}", started.elapsed());
    // Over the certificate's limit: refused before it is read.
    let body = format!(
        "{{\"csrf\": \"{csrf}\", \"pets\": [\"{}\"]}}",
        "x".repeat(4 << 20)
    );
    let (status, _, _) = post_raw(&app, "/api/postpetdetails", body).await;
    assert_eq!(status, 413);
}

#[tokio::test]
async fn event_names_come_from_a_closed_set() {
    let app = spawn_app().await;
    app.save_pets(json!([valid_pet(), cat()])).await;
    let csrf = app.csrf().await;
    // 60 KB is past the call's body limit; 6 KB within it, but no language tag.
    for (length, refused) in [(60_000, 413), (6_000, 400)] {
        let (status, _) = app
            .post_json(
                "/api/language",
                &json!({ "csrf": csrf, "language": "x".repeat(length) }),
            )
            .await;
        assert_eq!(status, refused, "{length}");
    }
    for language in ["../../etc/passwd", "de-DE"] {
        let (status, _) = app
            .post_json(
                "/api/language",
                &json!({ "csrf": csrf, "language": language }),
            )
            .await;
        assert_eq!(status, 422, "{language}");
    }
    let (status, _) = app
        .post_json(
            "/api/deletePet",
            &json!({ "csrf": csrf, "id": 2_147_483_648_u64 }),
        )
        .await;
    assert_eq!(status, 422);
    let events = app
        .sql("select cast(coalesce(max(length(event)), 0) as bigint) from step_transitions")
        .await
        .and_then(|n| n.parse::<usize>().ok())
        .expect("events");
    assert!(events <= 40, "an event name of {events} characters");
    assert_eq!(
        app.sql(
            "select count(*) from step_transitions where event in ('set_language', 'remove_pet')"
        )
        .await
        .as_deref(),
        Some("3")
    );
}

#[tokio::test]
async fn a_name_typed_with_a_combining_accent_is_the_same_name() {
    let app = spawn_app().await;
    let mut pet = valid_pet();
    pet["pet_name"] = json!("Jose\u{301}");
    let (status, answer) = app.save_pets(json!([pet])).await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(app.stored_pets().await[0]["pet_name"], "Jos\u{e9}");
}

fn limits() -> Vec<(&'static str, String)> {
    vec![
        ("PAWPATH_HEADER_TIMEOUT_MS", "300".into()),
        ("PAWPATH_REQUEST_TIMEOUT_MS", "600".into()),
        ("PAWPATH_MAX_CONNECTIONS", "3".into()),
    ]
}

fn address(app: &TestApp) -> String {
    app.base.trim_start_matches("http://").to_owned()
}

/// Reads until the server closes the connection or `limit` passes: what it sent, and whether
/// it closed.
async fn read_until_closed(stream: &mut TcpStream, limit: Duration) -> (String, bool) {
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    let deadline = tokio::time::Instant::now() + limit;
    loop {
        match tokio::time::timeout_at(deadline, stream.read(&mut buf)).await {
            Ok(Ok(0)) | Ok(Err(_)) => return (String::from_utf8_lossy(&got).into_owned(), true),
            Ok(Ok(n)) => got.extend_from_slice(&buf[..n]),
            Err(_) => return (String::from_utf8_lossy(&got).into_owned(), false),
        }
    }
}

#[tokio::test]
async fn slow_headers_idle_connections_and_trickled_bodies_are_closed() {
    let app = spawn_app_with(&limits()).await;
    // Half the headers, then nothing.
    let mut slow = TcpStream::connect(address(&app)).await.expect("connect");
    slow.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        .await
        .expect("write");
    let (_, closed) = read_until_closed(&mut slow, Duration::from_secs(5)).await;
    assert!(
        closed,
        "a connection that never finishes its headers is closed"
    );

    // A whole request, then an idle keep-alive connection.
    let mut idle = TcpStream::connect(address(&app)).await.expect("connect");
    idle.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .expect("write");
    let (answer, closed) = read_until_closed(&mut idle, Duration::from_secs(5)).await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(closed, "an idle keep-alive connection is closed");

    // A body trickled a byte at a time: the request times out.
    let mut trickle = TcpStream::connect(address(&app)).await.expect("connect");
    trickle
        .write_all(b"POST /api/getvetlist HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{")
        .await
        .expect("write");
    let started = Instant::now();
    let mut answer = String::new();
    while started.elapsed() < Duration::from_secs(5) {
        if trickle.write_all(b" ").await.is_err() {
            break;
        }
        let mut buf = [0u8; 1024];
        if let Ok(Ok(n)) =
            tokio::time::timeout(Duration::from_millis(100), trickle.read(&mut buf)).await
        {
            answer.push_str(&String::from_utf8_lossy(&buf[..n]));
            break;
        }
    }
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer:?}");
}

#[tokio::test]
async fn at_the_connection_limit_the_oldest_idle_connection_makes_room() {
    let app = spawn_app_with(&[
        ("PAWPATH_MAX_CONNECTIONS", "2".into()),
        ("PAWPATH_HEADER_TIMEOUT_MS", "60000".into()),
    ])
    .await;
    // Two connections: one kept alive after its answer, one that never sends a byte.
    let mut kept = TcpStream::connect(address(&app)).await.expect("connect");
    kept.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .expect("write");
    let mut buf = [0u8; 1024];
    let n = kept.read(&mut buf).await.expect("read");
    assert!(String::from_utf8_lossy(&buf[..n]).starts_with("HTTP/1.1 200"));
    let mut silent = TcpStream::connect(address(&app)).await.expect("connect");
    tokio::time::sleep(Duration::from_millis(100)).await;
    // A third is served at once...
    let mut third = TcpStream::connect(address(&app)).await.expect("connect");
    third
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .expect("write");
    let n = tokio::time::timeout(Duration::from_secs(5), third.read(&mut buf))
        .await
        .expect("served at the limit")
        .expect("read");
    assert!(String::from_utf8_lossy(&buf[..n]).starts_with("HTTP/1.1 200"));
    // ...and the oldest idle connection was closed to make room; the silent one is still open.
    let (_, closed) = read_until_closed(&mut kept, Duration::from_secs(2)).await;
    assert!(closed, "the oldest idle connection makes room");
    let (_, closed) = read_until_closed(&mut silent, Duration::from_millis(300)).await;
    assert!(!closed, "only one connection is closed for one new one");
}

#[tokio::test]
async fn a_wrong_reference_and_a_wrong_email_take_the_same_time() {
    let app = spawn_app().await;
    app.save_pets(json!([valid_pet()])).await;
    app.save_owner(valid_owner()).await;
    let qidu = app.view("/quote").await["qidu"]
        .as_str()
        .expect("qidu")
        .to_owned();
    for (reference, email) in [
        ("ZZZZ-ZZZZ-ZZZZ", "ada@example.com"),
        (qidu.as_str(), "someone@example.com"),
    ] {
        let other = reqwest::Client::builder()
            .cookie_store(true)
            .build()
            .expect("client");
        let csrf = other
            .get(format!("{}/quote/retrieve-quote", app.base))
            .header("Accept", "application/json")
            .send()
            .await
            .expect("get")
            .json::<Value>()
            .await
            .expect("json")["data"]["csrf"]
            .as_str()
            .expect("csrf")
            .to_owned();
        let started = Instant::now();
        let r = other
            .post(format!("{}/api/quoteretrieval", app.base))
            .json(&json!({ "csrf": csrf, "quote_reference": reference, "email": email }))
            .send()
            .await
            .expect("post");
        let took = started.elapsed();
        assert_eq!(r.status().as_u16(), 422);
        // Both wait for the same moment, set well past the work either does.
        assert!(took >= Duration::from_millis(250), "{reference}: {took:?}");
    }
}

#[tokio::test]
async fn answers_with_personal_data_are_not_cached_and_https_hosts_send_hsts() {
    let app = spawn_app().await;
    app.save_pets(json!([valid_pet()])).await;
    for path in ["/api/confirmation", "/api/get-products"] {
        let r = app
            .client
            .get(format!("{}{path}", app.base))
            .send()
            .await
            .expect("get");
        assert_eq!(
            r.headers()
                .get("cache-control")
                .map(|v| v.to_str().unwrap_or_default()),
            Some("no-store"),
            "{path}"
        );
    }
    let csrf = app.csrf().await;
    let r = app
        .client
        .post(format!("{}/api/petdetails", app.base))
        .json(&json!({ "csrf": csrf, "pets": [valid_pet()] }))
        .send()
        .await
        .expect("post");
    assert_eq!(r.headers()["cache-control"], "no-store");
    assert!(r.headers().get("strict-transport-security").is_none());

    let https = spawn_app_with(&crate::common::receiver::live_host()).await;
    let r = https
        .client
        .get(format!("{}/healthz", https.base))
        .send()
        .await
        .expect("get");
    assert_eq!(
        r.headers()["strict-transport-security"],
        "max-age=31536000; includeSubDomains"
    );
}

#[tokio::test]
async fn the_breed_list_reads_its_body_and_keeps_the_connection() {
    let app = spawn_app().await;
    let mut stream = TcpStream::connect(address(&app)).await.expect("connect");
    let body = r#"{"locale": "en-GB"}"#;
    let request = format!(
        "POST /api/getbreedlist HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let (head, body) = request.split_at(request.len() - body.len());
    // Six on one connection, each body a moment after its headers (as a slow network sends
    // them): every one answered on the same connection.
    for _ in 0..6 {
        stream.write_all(head.as_bytes()).await.expect("write");
        stream.flush().await.expect("flush");
        tokio::time::sleep(Duration::from_millis(30)).await;
        stream.write_all(body.as_bytes()).await.expect("write");
        let mut head = Vec::new();
        let mut buf = [0u8; 65536];
        let mut length = None;
        loop {
            let n = stream.read(&mut buf).await.expect("read");
            assert!(n > 0, "the connection closed");
            head.extend_from_slice(&buf[..n]);
            let text = String::from_utf8_lossy(&head).into_owned();
            if length.is_none()
                && let Some(end) = text.find("\r\n\r\n")
            {
                assert!(text.starts_with("HTTP/1.1 200"), "{}", &text[..end]);
                let len: usize = text[..end]
                    .lines()
                    .find_map(|l| {
                        l.to_ascii_lowercase()
                            .strip_prefix("content-length: ")
                            .map(str::to_owned)
                    })
                    .and_then(|v| v.trim().parse().ok())
                    .expect("content-length");
                length = Some(end + 4 + len);
            }
            if length.is_some_and(|l| head.len() >= l) {
                break;
            }
        }
    }
}

/// A retrieval from a new browser through the proxy that writes `forwarded`, of a reference of
/// its own (each reference has its own budget too).
async fn retrieve_via(app: &TestApp, forwarded: &str) -> u16 {
    static ASKED: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = ASKED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let reference = format!("ZZZZ-ZZZZ-{n:04}");
    let client = reqwest::Client::builder()
        .cookie_store(true)
        .build()
        .expect("client");
    let csrf = client
        .get(format!("{}/quote/retrieve-quote", app.base))
        .header("Accept", "application/json")
        .header("X-Forwarded-For", forwarded)
        .send()
        .await
        .expect("get")
        .json::<Value>()
        .await
        .expect("json")["data"]["csrf"]
        .as_str()
        .expect("csrf")
        .to_owned();
    client
        .post(format!("{}/api/quoteretrieval", app.base))
        .header("X-Forwarded-For", forwarded)
        .json(&json!({ "csrf": csrf, "quote_reference": reference, "email": "a@example.com" }))
        .send()
        .await
        .expect("post")
        .status()
        .as_u16()
}

#[tokio::test]
async fn the_rate_limit_counts_the_address_our_proxy_saw_not_one_the_client_wrote() {
    let app = spawn_app_with(&[
        ("PAWPATH_CLIENT_IP_HEADER", "x-forwarded-for".into()),
        ("PAWPATH_RETRIEVALS_PER_ADDRESS", "10".into()),
    ])
    .await;
    // Our proxy appends the address it saw (198.51.100.7); the client wrote a new one each time.
    let mut statuses = Vec::new();
    for i in 0..11 {
        statuses.push(retrieve_via(&app, &format!("203.0.113.{i}, 198.51.100.7")).await);
    }
    assert_eq!(statuses[..10], [422; 10], "{statuses:?}");
    assert_eq!(
        statuses[10], 429,
        "a forged address each time is still one caller"
    );
    // Writing a victim's address in front locks nobody else out.
    assert_eq!(retrieve_via(&app, "198.51.100.9").await, 422);
    assert_eq!(retrieve_via(&app, "198.51.100.7, 198.51.100.9").await, 422);
    // A request without a usable entry did not come through the proxy: it is refused, naming
    // the header, and spends nobody's budget (each of these once shared the proxy's own).
    for junk in ["", "not an address", "198.51.100.7, junk"] {
        let client = reqwest::Client::new();
        let answer = client
            .post(format!("{}/api/quoteretrieval", app.base))
            .header("X-Forwarded-For", junk)
            .json(&json!({ "csrf": "x", "quote_reference": "ZZZZ-ZZZZ-ZZZZ", "email": "a@example.com" }))
            .send()
            .await
            .expect("post");
        assert_eq!(answer.status(), 400, "{junk:?}");
        let text = answer.text().await.expect("text");
        assert!(text.contains("x-forwarded-for"), "{text}");
    }
    assert_eq!(retrieve_via(&app, "198.51.100.10").await, 422);
}

#[tokio::test]
async fn address_and_vet_lookups_have_a_budget() {
    let app = spawn_app_with(&[("PAWPATH_LOOKUPS_PER_ADDRESS", "5".into())]).await;
    for (path, body) in [
        ("/api/getvetlist", json!({ "postcode": "BS11 8NN" })),
        ("/api/AddressSearch", json!({ "address": "BS11 8NN" })),
    ] {
        let mut statuses = Vec::new();
        for _ in 0..6 {
            // A new browser each time: the address's budget, not a session's.
            let r = reqwest::Client::new()
                .post(format!("{}{path}", app.base))
                .json(&body)
                .send()
                .await
                .expect("post");
            statuses.push(r.status().as_u16());
        }
        assert_eq!(statuses, [200, 200, 200, 200, 200, 429], "{path}");
    }
}

#[tokio::test]
async fn an_error_answer_never_quotes_a_huge_value_back() {
    let key = "ctm-key-0123456789abcdefghijklmnopqrstuv";
    let app = spawn_app_with(&[("PAWPATH_AGGREGATOR_KEYS", format!("ctm={key}"))]).await;
    let r = app
        .client
        .post(format!("{}/api/aggregators/quotes", app.base))
        .bearer_auth(key)
        .json(&json!({ "brand": "é".repeat(30_000) }))
        .send()
        .await
        .expect("post");
    assert_eq!(r.status().as_u16(), 422);
    assert!(r.bytes().await.expect("body").len() < 1_000);
    let csrf = app.csrf().await;
    let (status, size, answer) = post_raw(
        &app,
        "/api/ownerdetail",
        json!({ "csrf": csrf, "form": "x".repeat(30_000), "owner": {} }).to_string(),
    )
    .await;
    assert_eq!(status, 400, "{answer}");
    assert!(size < 1_000, "{size} bytes");
}

#[tokio::test]
async fn a_call_that_saves_no_answers_takes_a_small_body() {
    let app = spawn_app().await;
    let csrf = app.csrf().await;
    // A postcode call with 9 KB of padding: over its 8 KB; the pets call takes the same body.
    let padded = |extra: usize| {
        json!({ "csrf": csrf, "postcode": "BS11 8NN", "locale": "x".repeat(extra) }).to_string()
    };
    let (status, _, _) = post_raw(&app, "/api/getvetlist", padded(9_000)).await;
    assert_eq!(status, 413);
    let (status, _, _) = post_raw(&app, "/api/getvetlist", padded(100)).await;
    assert_eq!(status, 200);
    let body =
        json!({ "csrf": csrf, "pets": [valid_pet()], "locale": "x".repeat(9_000) }).to_string();
    let (status, _, answer) = post_raw(&app, "/api/petdetails", body).await;
    assert_eq!(status, 200, "{answer}");
}
