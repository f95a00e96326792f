//! What an engineer running pawpath needs. Readiness apart from liveness, `/metrics`
//! behind its own token, request ids, the outbox worked by several servers with each email sent
//! once, and data kept only as long as the law allows (the purge, subject export and erasure).
//! Each test runs on SQLite, and on PostgreSQL when `PAWPATH_TEST_DATABASE` names one.

use crate::common;

use std::collections::HashMap;
use std::time::Duration;

use common::smtp::SmtpSink;
use common::{TestApp, sample, spawn_app, spawn_app_with, valid_pet};
use serde_json::{Value, json};

pub(crate) const METRICS_TOKEN: &str = "scrape-0123456789abcdef0123456789abcdef";

pub(crate) async fn get(app: &TestApp, path: &str, token: Option<&str>) -> (u16, String) {
    let mut request = app.client.get(format!("{}{path}", app.base));
    if let Some(t) = token {
        request = request.bearer_auth(t);
    }
    let r = request.send().await.expect("get");
    let status = r.status().as_u16();
    (status, r.text().await.expect("text"))
}

/// `pawpath` itself, with this app's configuration, for the commands an operator runs.
pub(crate) fn pawpath(app: &TestApp, args: &[&str]) -> (bool, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_pawpath"))
        .args(args)
        .env("DATABASE_URL", &app.database_url)
        .env("PAWPATH_DATA_DIR", &app.data_dir)
        .env("PAWPATH_DEFINITIONS", &app.definitions_root)
        .env("PAWPATH_LOG_FORMAT", "pretty")
        .output()
        .expect("run pawpath");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[tokio::test]
async fn readyz_says_whether_to_send_traffic_and_healthz_only_that_the_process_is_up() {
    let app = spawn_app().await;
    let (status, body) = get(&app, "/readyz", None).await;
    assert_eq!((status, body.as_str()), (200, r#"{"status":"ready"}"#));
    // A migration from a newer server (expand, mid rolling deploy) is no reason to stop.
    app.sql(
        "insert into _sqlx_migrations (version, description, installed_on, success, checksum, execution_time)
         select 9999, 'from a newer server', installed_on, success, checksum, execution_time
         from _sqlx_migrations where version = 1",
    )
    .await;
    let (status, body) = get(&app, "/readyz", None).await;
    assert_eq!(status, 200, "{body}");
    // And a server of this version still starts on that database.
    let app = app.restart().await;
    assert_eq!(get(&app, "/readyz", None).await.0, 200);
    // A migration this build knows missing from the database (a deploy whose migration has not
    // run): not ready, saying which; the process is still alive.
    app.sql("delete from _sqlx_migrations where version = 14")
        .await;
    let (status, body) = get(&app, "/readyz", None).await;
    assert_eq!(status, 503, "{body}");
    let body: Value = serde_json::from_str(&body).expect("json");
    assert_eq!(body["status"], "unavailable");
    assert!(
        body["reason"]
            .as_str()
            .is_some_and(|r| r.contains("0014 retention")),
        "{body}"
    );
    let (status, _) = get(&app, "/healthz", None).await;
    assert_eq!(status, 200);
}

#[tokio::test]
async fn metrics_are_behind_their_own_token_and_count_by_route_template() {
    let off = spawn_app().await;
    assert_eq!(get(&off, "/metrics", Some(METRICS_TOKEN)).await.0, 404);

    let app = spawn_app_with(&[("PAWPATH_METRICS_TOKEN", METRICS_TOKEN.to_owned())]).await;
    assert_eq!(get(&app, "/metrics", None).await.0, 401);
    assert_eq!(
        get(
            &app,
            "/metrics",
            Some("scrape-not-the-token-0123456789abcdef")
        )
        .await
        .0,
        401
    );
    // A pet saved (a transition), an address looked up, a bank check and a vet search.
    let (s, b) = app.save_pets(json!([valid_pet()])).await;
    assert_eq!(s, 200, "{b}");
    let csrf = app.csrf().await;
    let (s, _) = app
        .post_json(
            "/api/bankvalidation",
            &json!({ "csrf": csrf, "payment": { "sort_code": "089999", "account_number": "66374958" } }),
        )
        .await;
    assert_eq!(s, 200);
    let (s, body) = get(&app, "/metrics", Some(METRICS_TOKEN)).await;
    assert_eq!(s, 200);
    for family in [
        "pawpath_http_requests_total",
        "pawpath_http_request_duration_seconds_bucket",
        "pawpath_transitions_total",
        "pawpath_blocked_answers_total",
        "pawpath_purchases_total",
        "pawpath_card_declines_total",
        "pawpath_outbox_depth",
        "pawpath_outbox_oldest_undelivered_seconds",
        "pawpath_email_deliveries_total",
        "pawpath_provider_duration_seconds_bucket",
        "pawpath_provider_errors_total",
        "pawpath_rate_limited_total",
        "pawpath_db_pool_connections",
    ] {
        // Some families only appear once something happened in this process (tests share it).
        if matches!(
            family,
            "pawpath_blocked_answers_total" | "pawpath_purchases_total"
        ) {
            continue;
        }
        assert!(
            body.lines().any(|l| l.starts_with(family)),
            "{family} missing from:\n{body}"
        );
    }
    assert!(
        sample(
            &body,
            r#"pawpath_http_requests_total{route="/api/petdetails",method="POST",status="200"}"#
        )
        .is_some_and(|n| n >= 1.0),
        "{body}"
    );
    assert!(
        sample(
            &body,
            r#"pawpath_transitions_total{journey="direct",step="pet_details",event="submit:pet_details",outcome="moved"}"#
        )
        .is_some_and(|n| n >= 1.0),
        "{body}"
    );
    assert!(
        body.contains(r#"pawpath_provider_duration_seconds_count{provider="bank_check",operation="modulus",outcome="ok"}"#),
        "{body}"
    );
    // Routes by template: a definitions version or a token in a path never makes a series.
    let version = app.view("/quote").await["definitions"]["version"]
        .as_str()
        .map(str::to_owned);
    if let Some(version) = version {
        let _ = get(&app, &format!("/quote/definitions/{version}/breeds"), None).await;
        let (_, body) = get(&app, "/metrics", Some(METRICS_TOKEN)).await;
        assert!(!body.contains(&version), "a version in a label:\n{body}");
        assert!(body.contains(r#"route="/quote/definitions/{version}/breeds""#));
    }
    let _ = get(&app, "/quote/assets/no-such-file-anyone.js", None).await;
    let _ = get(&app, "/no/such/page/for-anyone", None).await;
    let (_, body) = get(&app, "/metrics", Some(METRICS_TOKEN)).await;
    assert!(!body.contains("for-anyone"));
    assert!(body.contains(r#"route="unmatched""#));
    assert!(body.contains(r#"route="/quote/assets/{file}",method="GET",status="404""#));
    // A method is any word a visitor sends: none makes a series of its own.
    for n in 0..20 {
        let method = reqwest::Method::from_bytes(format!("PROBE{n}").as_bytes()).expect("method");
        let _ = app
            .client
            .request(method, format!("{}/healthz", app.base))
            .send()
            .await
            .expect("send");
    }
    let (_, body) = get(&app, "/metrics", Some(METRICS_TOKEN)).await;
    assert!(
        !body.contains("PROBE"),
        "a visitor's method in a label:\n{body}"
    );
    assert!(
        body.contains(r#"route="/healthz",method="other",status="405""#),
        "{body}"
    );
}

#[tokio::test]
async fn every_answer_carries_its_request_id_and_a_hostile_one_is_replaced() {
    let app = spawn_app().await;
    let id = |r: &reqwest::Response| {
        r.headers()
            .get("x-request-id")
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
            .expect("x-request-id")
    };
    let send = |value: Option<&str>| {
        let mut request = app.client.get(format!("{}/healthz", app.base));
        if let Some(v) = value {
            request = request.header("x-request-id", v);
        }
        request.send()
    };
    let a = id(&send(None).await.expect("get"));
    let b = id(&send(None).await.expect("get"));
    assert_ne!(a, b);
    assert_eq!(a.len(), 16);
    // The load balancer's own id is kept.
    assert_eq!(
        id(&send(Some("lb-7f3a.01")).await.expect("get")),
        "lb-7f3a.01"
    );
    // One a client could write into the logs with is not.
    for hostile in ["a b", "x\"}{", &"z".repeat(65), "über"] {
        let got = id(&send(Some(hostile)).await.expect("get"));
        assert_ne!(got, hostile);
        assert_eq!(got.len(), 16, "{hostile:?} gave {got:?}");
    }
    // Errors carry it too.
    let r = app
        .client
        .post(format!("{}/api/petdetails", app.base))
        .body("{")
        .send()
        .await
        .expect("post");
    assert!(r.status().is_client_error());
    assert_eq!(id(&r).len(), 16);
}

/// Emails in the outbox, written as a quote's emails are; their ids.
pub(crate) async fn queue_emails(app: &TestApp, quote_id: &str, n: usize) -> Vec<String> {
    let mut ids = Vec::new();
    for i in 0..n {
        let id = format!("email-{i}-{}", rand::random::<u32>());
        app.sql(&format!(
            "insert into outbox (id, quote_id, kind, recipient, sender_name, subject, body_text, body_html,
                                 created_at, attempts, next_attempt_at)
             values ('{id}', '{quote_id}', 'quote', 'ada{i}@example.com', 'Pawsome Pet Insurance',
                     'Your quote {i}', 'text', '<p>html</p>', '2026-01-01T00:00:00.000000Z', 0,
                     '2026-01-01T00:00:00.000000Z')"
        ))
        .await;
        ids.push(id);
    }
    ids
}

/// Several servers: two servers on one database, each with the outbox worker, deliver
/// every email exactly once; one claimed by a server that died is delivered when its claim lapses.
#[tokio::test]
async fn two_servers_send_every_email_once_and_lose_none() {
    let smtp = SmtpSink::start().await;
    let first = spawn_app().await;
    first.save_pets(json!([valid_pet()])).await;
    let quote_id = first.sql("select id from quotes").await.expect("a quote");
    let ids = queue_emails(&first, &quote_id, 40).await;
    // Claimed by a server that died mid-send: its lease runs out in a second.
    let held = format!("held-{}", rand::random::<u32>());
    first.sql(&format!(
        "insert into outbox (id, quote_id, kind, recipient, sender_name, subject, body_text, body_html,
                             created_at, attempts, next_attempt_at, locked_until)
         values ('{held}', '{quote_id}', 'quote', 'held@example.com', 'Pawsome Pet Insurance',
                 'Held', 'text', '<p>html</p>', '2026-01-01T00:00:00.000000Z', 0,
                 '2026-01-01T00:00:00.000000Z', '{}')",
        (chrono::Utc::now() + chrono::Duration::seconds(1))
            .to_rfc3339_opts(chrono::SecondsFormat::Micros, true)
    ))
    .await;
    let with_smtp = [
        ("PAWPATH_SMTP_URL", smtp.url()),
        ("PAWPATH_MAIL_RETRY_MS", "200".to_owned()),
    ];
    let a = first.another_server(&with_smtp).await;
    let b = first.another_server(&with_smtp).await;
    let got = smtp.wait_for(41, Duration::from_secs(60)).await;
    // A moment more, for any second delivery to show itself.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let got = if got.len() >= 41 {
        smtp.messages()
    } else {
        got
    };
    let mut per_id: HashMap<String, usize> = HashMap::new();
    for m in &got {
        let text = String::from_utf8_lossy(&m.data);
        let id = text
            .lines()
            .find_map(|l| l.strip_prefix("Message-ID: <"))
            .and_then(|l| l.split('@').next())
            .expect("a Message-ID")
            .to_owned();
        *per_id.entry(id).or_default() += 1;
    }
    for id in ids.iter().chain([&held]) {
        assert_eq!(per_id.get(id), Some(&1), "{id}: {per_id:?}");
    }
    assert_eq!(got.len(), 41);
    assert_eq!(
        first
            .sql("select count(*) from outbox where sent_at is not null")
            .await
            .as_deref(),
        Some("41")
    );
    drop((a, b));
}

/// A server whose log reader has stopped reading still answers every request: its log lines go
/// to standard output through a thread of their own (`logs`), which past its bound drops lines
/// and counts them (`pawpath_log_lines_dropped_total`) instead of making a request wait. Before,
/// each request wrote its line itself, and once the pipe was full the runtime's threads waited
/// in `write` and the server stopped answering.
#[tokio::test]
async fn a_log_reader_that_stops_reading_stops_no_request() {
    let data = tempfile::tempdir().expect("tempdir");
    let port = common::smtp::free_port().await;
    // Its standard output held open and never read: the pipe fills after a few hundred lines.
    let mut child = server_logging_to_a_pipe(data.path(), port, "json");
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(10))
        .build()
        .expect("client");
    common::wait_ready(port).await;
    let base = format!("http://127.0.0.1:{port}");
    // Each answer's log line carries its path (cut at 200 bytes): about 400 bytes a line, so
    // 6,000 lines are more than the pipe, the log's buffer and its bound hold together.
    let long = "a".repeat(300);
    let mut answered = 0;
    for batch in 0..375 {
        let mut requests = tokio::task::JoinSet::new();
        for i in 0..16 {
            let request = client.get(format!("{base}/no-such-page/{long}/{batch}/{i}"));
            requests.spawn(request.send());
        }
        while let Some(result) = requests.join_next().await {
            let response = result
                .expect("joined")
                .expect("every request is answered while the log is stalled");
            assert_eq!(response.status(), 404);
            answered += 1;
        }
    }
    assert_eq!(answered, 6_000);
    let metrics = client
        .get(format!("{base}/metrics"))
        .bearer_auth(METRICS_TOKEN)
        .send()
        .await
        .expect("metrics")
        .text()
        .await
        .expect("text");
    let dropped = sample(&metrics, "pawpath_log_lines_dropped_total").expect("the drop counter");
    assert!(dropped > 0.0, "no line was dropped:\n{metrics}");
    let _ = child.kill();
    let _ = child.wait();
}

/// The server binary on `port` (SQLite in `data`, `/metrics` open to [`METRICS_TOKEN`]), its log
/// lines in `format` on a pipe to this test: standard output as a log collector would take it.
fn server_logging_to_a_pipe(
    data: &std::path::Path,
    port: u16,
    format: &str,
) -> std::process::Child {
    use std::process::{Command, Stdio};
    Command::new(env!("CARGO_BIN_EXE_pawpath"))
        .env("PORT", port.to_string())
        .env("PAWPATH_LISTEN_ADDR", "127.0.0.1")
        .env_remove("DATABASE_URL")
        .env("PAWPATH_DATA_DIR", data)
        .env("PAWPATH_DEFINITIONS", common::repo_root())
        .env("PAWPATH_METRICS_TOKEN", METRICS_TOKEN)
        .env("PAWPATH_LOG_FORMAT", format)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .stdin(Stdio::null())
        .spawn()
        .expect("start pawpath")
}

/// `PAWPATH_LOG_FORMAT=pretty` with standard output a pipe or a file (a log collector, `> log`):
/// plain text, no terminal colour codes in the lines.
#[tokio::test]
async fn pretty_logs_to_a_pipe_carry_no_colour_codes() {
    use std::io::Read as _;
    let data = tempfile::tempdir().expect("tempdir");
    let port = common::smtp::free_port().await;
    let mut child = server_logging_to_a_pipe(data.path(), port, "pretty");
    common::wait_ready(port).await;
    let client = reqwest::Client::new();
    let answered = client
        .get(format!("http://127.0.0.1:{port}/no-such-page"))
        .send()
        .await
        .expect("answered");
    assert_eq!(answered.status(), 404);
    // The log thread writes within moments; then the process ends and the pipe is read to its end.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let _ = child.kill();
    let _ = child.wait();
    let mut out = String::new();
    child
        .stdout
        .take()
        .expect("stdout")
        .read_to_string(&mut out)
        .expect("read the log");
    assert!(out.contains("/no-such-page"), "no request line:\n{out}");
    assert!(!out.contains('\u{1b}'), "colour codes in:\n{out}");
}

/// A refusal of `/metrics`, of the internal pages and of a comparison
/// site's call without its key is kept by no cache (`Cache-Control: no-store`), as what they
/// guard is.
#[tokio::test]
async fn refusals_of_the_guarded_calls_are_not_stored() {
    let app = spawn_app_with(&[
        ("PAWPATH_METRICS_TOKEN", METRICS_TOKEN.to_owned()),
        (
            "PAWPATH_ADMIN_TOKEN",
            "nostore-admin-token-0123456789abcdef-012".to_owned(),
        ),
        (
            "PAWPATH_AGGREGATOR_KEYS",
            "ctm=ctm-key-0123456789abcdefghijklmnopqrstuv".to_owned(),
        ),
    ])
    .await;
    for (method, path) in [
        (reqwest::Method::GET, "/metrics"),
        (reqwest::Method::GET, "/internal/funnel"),
        (
            reqwest::Method::GET,
            "/internal/replay?reference=ABCD-EFGH-JKMN",
        ),
        (reqwest::Method::POST, "/api/aggregators/quotes"),
    ] {
        let r = app
            .client
            .request(method, format!("{}{path}", app.base))
            .bearer_auth("not-the-token-0123456789abcdef")
            .json(&json!({}))
            .send()
            .await
            .expect("request");
        assert_eq!(r.status(), 401, "{path}");
        assert_eq!(
            r.headers()
                .get("cache-control")
                .and_then(|v| v.to_str().ok()),
            Some("no-store"),
            "{path}"
        );
    }
}
