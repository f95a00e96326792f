//! A bounded history: one session held to a person's pace, the log keeping only the
//! declared keys, a quote's history stopping at its ceiling, and a replay's pages bounded.

use crate::common;

use common::*;
use serde_json::{Value, json};
use std::time::Instant;

use super::bounds_api::{row_version, transitions};

/// Saves of one pet with an undeclared key of `zz_chars` characters, as fast as one client can
/// send them, from the app's session: (answers 200, answers 429 with a `Retry-After`).
async fn hammer(app: &TestApp, saves: usize, zz_chars: usize) -> (usize, usize) {
    let csrf = app.csrf().await;
    let mut pet = valid_pet();
    pet["zz"] = json!("z".repeat(zz_chars));
    let body = json!({ "csrf": csrf, "pets": [pet] });
    let (mut ok, mut slowed) = (0, 0);
    for _ in 0..saves {
        let r = app
            .client
            .post(format!("{}/api/petdetails?norequote=1", app.base))
            .json(&body)
            .send()
            .await
            .expect("post");
        match r.status().as_u16() {
            200 => ok += 1,
            429 => {
                let wait: u64 = r
                    .headers()
                    .get("retry-after")
                    .and_then(|v| v.to_str().ok())
                    .and_then(|v| v.parse().ok())
                    .expect("a 429 says when to try again");
                assert!((1..=60).contains(&wait), "{wait}");
                let body: Value = r.json().await.expect("json");
                assert_eq!(body["error"], "rate_limited");
                assert_eq!(
                    body["message"],
                    "You are going faster than we can keep up with. Please wait a moment and try again."
                );
                slowed += 1;
            }
            other => panic!(
                "save answered {other}: {}",
                r.text().await.unwrap_or_default()
            ),
        }
    }
    (ok, slowed)
}

/// The bytes one quote's history holds (its transitions' inputs and pricing).
async fn history_bytes(app: &TestApp) -> i64 {
    app.sql("select coalesce(sum(length(coalesce(input, '')) + length(coalesce(pricing, ''))), 0) from step_transitions")
        .await
        .and_then(|n| n.parse().ok())
        .unwrap_or(-1)
}

/// A session sending saves
/// as fast as it can, each pet carrying an undeclared key of 31,500 characters, is held to what a
/// person could send (120 at once, then 2 a second: 429 with `Retry-After`, counted in /metrics),
/// and the log keeps none of the undeclared key.
#[tokio::test]
async fn one_session_is_held_to_a_persons_pace_and_the_log_keeps_only_declared_keys() {
    let app = spawn_app_with(&[(
        "PAWPATH_METRICS_TOKEN",
        "pace-metrics-token-0123456789abcdef".to_owned(),
    )])
    .await;
    let started = Instant::now();
    let (ok, slowed) = hammer(&app, 400, 31_500).await;
    let seconds = started.elapsed().as_secs_f64();
    let allowed = 120.0 + 2.0 * seconds + 1.0;
    assert!(
        ok as f64 <= allowed,
        "{ok} saves answered in {seconds:.1} s"
    );
    assert!(ok >= 110, "{ok}");
    assert_eq!(ok + slowed, 400);
    let rows = transitions(&app).await;
    assert!(rows as f64 <= allowed, "{rows} rows");
    let bytes = history_bytes(&app).await;
    assert!(bytes < rows * 2_000, "{bytes} bytes in {rows} rows");
    let input = app
        .sql("select input from step_transitions order by id desc limit 1")
        .await
        .expect("input");
    assert!(!input.contains("zzzz"), "{input}");
    assert!(input.contains("(undeclared keys)"), "{input}");
    let counted = app
        .metric(
            "pace-metrics-token-0123456789abcdef",
            "pawpath_rate_limited_total{scope=\"session_saves\"}",
        )
        .await
        .expect("counted");
    assert!(counted >= slowed as f64, "{counted} < {slowed}");
}

/// Each quote's history has a ceiling (`PAWPATH_HISTORY_CEILING`, 500 by default; 20
/// here). At it a save is refused with a clear message (409 `history_full`) and nothing is
/// stored; the quote can still be started again (recorded), and its replay and the funnel
/// count what the log holds.
#[tokio::test]
async fn a_quotes_history_stops_at_its_ceiling_and_stays_whole() {
    const ADMIN: &str = "ceiling-admin-token-0123456789abcdef-0123";
    let app = spawn_app_with(&[
        ("PAWPATH_HISTORY_CEILING", "20".to_owned()),
        ("PAWPATH_SESSION_BURST", "1000".to_owned()),
        ("PAWPATH_ADMIN_TOKEN", ADMIN.to_owned()),
    ])
    .await;
    let (ok, slowed) = hammer(&app, 19, 10).await;
    assert_eq!((ok, slowed), (19, 0));
    let view = app.view("/quote/").await;
    let reference = view["qidu"].as_str().expect("reference").to_owned();
    // A twentieth save (an invalid one: refused saves are logged too) reaches the ceiling.
    let csrf = view["csrf"].as_str().expect("csrf").to_owned();
    let (status, _) = app
        .post_json(
            "/api/petdetails",
            &json!({ "csrf": csrf, "pets": [{ "pet_name": "" }] }),
        )
        .await;
    assert_eq!(status, 422);
    assert_eq!(transitions(&app).await, 20);
    let version = row_version(&app).await;
    for body in [
        json!({ "csrf": csrf, "pets": [valid_pet()] }),
        json!({ "csrf": csrf, "pets": [{ "pet_name": "" }] }),
    ] {
        let (status, answer) = app.post_json("/api/petdetails", &body).await;
        assert_eq!(status, 409, "{answer}");
        assert_eq!(answer["error"], "history_full");
        assert_eq!(
            answer["message"],
            "This quote has been changed more times than we can keep, so nothing more was saved. You can still buy it as it is, or start a new quote."
        );
    }
    assert_eq!(
        transitions(&app).await,
        20,
        "nothing logged past the ceiling"
    );
    assert_eq!(row_version(&app).await, version, "nothing changed");

    // The replay runs the whole history, a page at a time.
    let replay = |from: usize| {
        let app = &app;
        let reference = reference.clone();
        async move {
            let r = app
                .client
                .get(format!(
                    "{}/internal/quotes/{reference}/replay?from={from}",
                    app.base
                ))
                .bearer_auth(ADMIN)
                .send()
                .await
                .expect("get");
            assert_eq!(r.status(), 200);
            r.json::<Value>().await.expect("json")
        }
    };
    let first = replay(1).await;
    assert_eq!(first["transitions"], 20, "{}", first["transitions"]);
    let steps = first["steps"].as_array().expect("steps");
    assert_eq!(steps.len(), 20);
    assert!(
        steps.iter().all(|s| s["replay"]["status"] == "reproduced"),
        "{:?}",
        steps.iter().map(|s| &s["replay"]).collect::<Vec<_>>()
    );

    // Starting again is still recorded, and the next quote has a history of its own.
    let (status, body) = app.post_json("/api/reset", &json!({ "csrf": csrf })).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(transitions(&app).await, 21);
    let (status, body) = app.save_pets(json!([valid_pet()])).await;
    assert_eq!(status, 200, "{body}");
}

/// The staff replay page of a quote with more than one page of transitions
/// answers (it used a filter the templates lacked), and each page of the JSON replay is bounded.
#[tokio::test]
async fn a_replay_of_more_than_one_page_answers_and_each_page_is_bounded() {
    const ADMIN: &str = "pages-admin-token-0123456789abcdef-01234";
    let app = spawn_app_with(&[
        ("PAWPATH_SESSION_BURST", "1000".to_owned()),
        ("PAWPATH_ADMIN_TOKEN", ADMIN.to_owned()),
    ])
    .await;
    let (ok, _) = hammer(&app, 45, 10).await;
    assert_eq!(ok, 45);
    let reference = app.view("/quote/").await["qidu"]
        .as_str()
        .expect("reference")
        .to_owned();
    let r = app
        .client
        .get(format!(
            "{}/internal/replay?reference={reference}",
            app.base
        ))
        .bearer_auth(ADMIN)
        .send()
        .await
        .expect("get");
    assert_eq!(r.status(), 200);
    let html = r.text().await.expect("html");
    assert!(
        html.contains(&format!(
            "/internal/replay?reference={reference}&amp;from=21"
        )),
        "{html}"
    );
    let r = app
        .client
        .get(format!("{}/internal/quotes/{reference}/replay", app.base))
        .bearer_auth(ADMIN)
        .send()
        .await
        .expect("get");
    assert_eq!(r.status(), 200);
    let bytes = r.bytes().await.expect("bytes");
    assert!(bytes.len() < 2 * 1024 * 1024, "{} bytes", bytes.len());
    let json: Value = serde_json::from_slice(&bytes).expect("json");
    assert_eq!(json["steps"].as_array().map(Vec::len), Some(20));
}

/// The save allowance belongs to the quote, not to the session or the server: once a quote has
/// spent it, the same quote retrieved into a new session through a second server (on the same
/// database) gets nothing more. Kept in the database and taken by one atomic statement, so this
/// holds on SQLite and on PostgreSQL alike.
#[tokio::test]
async fn a_quotes_save_allowance_holds_across_sessions_and_servers() {
    let settings = [
        ("PAWPATH_SESSION_BURST", "20".to_owned()),
        ("PAWPATH_SESSION_SAVES_PER_MINUTE", "1".to_owned()),
    ];
    let app = spawn_app_with(&settings).await;
    let (status, _) = app.save_pets(json!([valid_pet()])).await;
    assert_eq!(status, 200);
    let (status, _) = app.save_owner(valid_owner()).await;
    assert_eq!(status, 200);
    let reference = app.view("/quote").await["qidu"]
        .as_str()
        .expect("reference")
        .to_owned();
    let (ok, slowed) = hammer(&app, 30, 0).await;
    assert!(ok <= 19, "{ok} saves after two of a burst of 20");
    assert!(slowed >= 11, "{slowed}");

    // A second server, a new browser: the quote retrieved into its new session.
    let other = app.another_server(&settings).await;
    let csrf = other.view("/quote/retrieve-quote").await["csrf"]
        .as_str()
        .expect("csrf")
        .to_owned();
    let (status, body) = other
        .post_json(
            "/api/quoteretrieval",
            &json!({ "csrf": csrf, "quote_reference": reference, "email": "ada@example.com" }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(other.view("/quote").await["qidu"], reference.as_str());
    let (ok, slowed) = hammer(&other, 10, 0).await;
    assert!(
        ok <= 1,
        "{ok} more saves from a new session on another server"
    );
    assert!(slowed >= 9, "{slowed}");
}
