//! Inactivity and starting again (journey.md §2 Inactivity timeout, §4 Timers, §9;
//! owner-payment.md §4 Session, §7 reset).

use crate::common;

use common::{spawn_app, spawn_app_with, valid_owner, valid_pet};
use serde_json::json;

#[tokio::test]
async fn start_a_new_quote_resets_the_old_one_and_parts_it_from_the_session() {
    let app = spawn_app().await;
    let (status, _) = app.save_pets(json!([valid_pet()])).await;
    assert_eq!(status, 200);
    let before = app.view("/quote").await;
    assert_eq!(
        before["timeouts"],
        json!({ "warning_ms": 14_280_000u64, "reset_ms": 14_400_000u64 })
    );
    let csrf = before["csrf"].as_str().expect("csrf").to_owned();
    let (status, body) = app.post_json("/api/reset", &json!({ "csrf": csrf })).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["success"], true);
    let after = app.view("/quote").await;
    assert_ne!(after["qidu"], before["qidu"], "a new quote");
    assert_eq!(after["pets"], json!([]));
    let (status, _) = app
        .post_json("/api/reset", &json!({ "csrf": "forged" }))
        .await;
    assert_eq!(status, 403, "the new quote is not reset without its token");

    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(&app.database_url)
        .await
        .expect("connect");
    let rows: Vec<(String, String)> =
        sqlx::query_as("select quote_ref, lifecycle from quotes order by created_at")
            .fetch_all(&pool)
            .await
            .expect("quotes");
    let resets: Vec<(String,)> =
        sqlx::query_as("select event from step_transitions where event = 'reset'")
            .fetch_all(&pool)
            .await
            .expect("transitions");
    pool.close().await;
    assert!(
        rows.iter()
            .any(|(r, l)| before["qidu"] == json!(r) && l == "reset"),
        "{rows:?}"
    );
    assert_eq!(resets.len(), 1);
}

#[tokio::test]
async fn the_server_resets_an_idle_quote_on_its_own_clock() {
    let app = spawn_app_with(&[
        ("PAWPATH_SESSION_WARNING_MS", "1000".to_owned()),
        ("PAWPATH_SESSION_RESET_MS", "1500".to_owned()),
    ])
    .await;
    let (status, _) = app.save_pets(json!([valid_pet()])).await;
    assert_eq!(status, 200);
    let before = app.view("/quote").await;
    assert_eq!(
        before["timeouts"],
        json!({ "warning_ms": 1000, "reset_ms": 1500 })
    );
    tokio::time::sleep(std::time::Duration::from_millis(1700)).await;
    let after = app.view("/quote").await;
    assert_ne!(after["qidu"], before["qidu"]);
    assert_eq!(after["pets"], json!([]));
}

/// journey.md §2 Inactivity timeout, owner-payment.md §2 Retrieve quote: a quote with
/// the owner's email is saved, so starting again ends it on this browser only. It keeps its
/// answers and stays open; the reset answers its retrieve-quote page with the reference filled
/// in; another visitor (or this one, later) retrieves it by reference and email.
#[tokio::test]
async fn starting_again_keeps_a_quote_saved_with_an_email_to_be_retrieved() {
    let app = spawn_app().await;
    assert_eq!(app.save_pets(json!([valid_pet()])).await.0, 200);
    assert_eq!(app.save_owner(valid_owner()).await.0, 200);
    let before = app.view("/quote").await;
    let qidu = before["qidu"].as_str().expect("reference").to_owned();
    let (status, body) = app
        .post_json("/api/reset", &json!({ "csrf": before["csrf"] }))
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body["data"]["retrieve"],
        json!(format!("/quote/retrieve-quote?brand=pos&reference={qidu}"))
    );
    assert_eq!(body["data"]["start"], "/quote?brand=pos");
    // Parted: this browser starts a new quote.
    let after = app.view("/quote").await;
    assert_ne!(after["qidu"], json!(qidu));
    assert_eq!(after["pets"], json!([]));
    // Kept, open, with its answers; the transition is recorded as the reset it was.
    let row = app
        .sql(&format!(
            "select lifecycle from quotes where quote_ref = '{qidu}'"
        ))
        .await;
    assert_eq!(row.as_deref(), Some("active"));
    let event = app
        .sql("select event || ':' || outcome from step_transitions where event = 'reset'")
        .await;
    assert_eq!(event.as_deref(), Some("reset:moved"));
    let csrf = app.view("/quote/retrieve-quote").await["csrf"].clone();
    let (status, body) = app
        .post_json(
            "/api/quoteretrieval",
            &json!({ "csrf": csrf, "quote_reference": qidu, "email": "ada@example.com" }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let back = app.view("/quote/choose-policy").await;
    assert_eq!(back["qidu"], json!(qidu));
    assert_eq!(back["pets"][0]["pet_name"], "Biscuit");
}

/// Without the owner's email nothing could find the quote again: starting again clears it, and
/// the answer names no retrieve-quote page.
#[tokio::test]
async fn starting_again_clears_a_quote_nobody_could_retrieve() {
    let app = spawn_app().await;
    assert_eq!(app.save_pets(json!([valid_pet()])).await.0, 200);
    let before = app.view("/quote").await;
    let (status, body) = app
        .post_json("/api/reset", &json!({ "csrf": before["csrf"] }))
        .await;
    assert_eq!(status, 200, "{body}");
    assert!(body["data"].get("retrieve").is_none(), "{body}");
    let qidu = before["qidu"].as_str().expect("reference");
    let document = app
        .sql(&format!(
            "select document from quotes where quote_ref = '{qidu}'"
        ))
        .await
        .expect("the quote");
    assert!(!document.contains("Biscuit"), "{document}");
}

/// Every brand and the journeys of both its channels, from the definitions: (brand, its first
/// tracking token, the journey's id, its base path).
fn brands_and_channels() -> Vec<(String, Option<String>, String, String)> {
    let root = common::repo_root();
    let read = |path: std::path::PathBuf| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(&path).expect("read")).expect("json")
    };
    let mut journeys = Vec::new();
    for entry in std::fs::read_dir(root.join("journeys")).expect("journeys") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|e| e == "json") {
            let j = read(path);
            // The channels' own journeys, not the extra flows.
            if j.get("steps").is_some() && j.get("flow").is_none() {
                journeys.push((
                    j["id"].as_str().expect("id").to_owned(),
                    j["channel"].as_str().expect("channel").to_owned(),
                    j["base_path"].as_str().expect("base").to_owned(),
                ));
            }
        }
    }
    let mut out = Vec::new();
    let mut brands: Vec<_> = std::fs::read_dir(root.join("journeys/brands"))
        .expect("brands")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    brands.sort();
    for path in brands {
        let b = read(path);
        let id = b["id"].as_str().expect("id").to_owned();
        let token = b["sales_phones"]["tracking_tokens"]
            .as_object()
            .and_then(|t| t.keys().next().cloned());
        for channel in b["channels"].as_array().expect("channels") {
            for (journey, of, base) in &journeys {
                if Some(of.as_str()) == channel.as_str() {
                    out.push((id.clone(), token.clone(), journey.clone(), base.clone()));
                }
            }
        }
    }
    assert!(out.len() >= 16, "{out:?}");
    assert!(out.iter().any(|(_, _, j, _)| j == "aggregator"));
    out
}

/// The tracking token a quote was made with, read from the database by its reference.
async fn stored_token(app: &common::TestApp, qidu: &serde_json::Value) -> Option<String> {
    let qidu = qidu.as_str().expect("reference");
    let document = app
        .sql(&format!(
            "select document from quotes where quote_ref = '{qidu}'"
        ))
        .await
        .expect("the quote");
    let document: serde_json::Value = serde_json::from_str(&document).expect("json");
    document["tracking_token"].as_str().map(str::to_owned)
}

/// journey.md §2 Inactivity timeout: a reset starts the journey again, not the brand or
/// the channel. For every brand and both channels, the server's own idle reset (the next page
/// load after the quote was left idle past the reset time) makes the new quote on the same
/// brand and journey with the same tracking token, though the page's address names none.
#[tokio::test]
async fn the_servers_idle_reset_keeps_brand_channel_journey_and_tracking_token() {
    let app = spawn_app().await;
    for (brand, token, journey, base) in brands_and_channels() {
        let visitor = app.another_visitor().await;
        let mut first = format!("{base}?brand={brand}");
        if let Some(t) = &token {
            first.push_str(&format!("&tracking_token={t}"));
        }
        let before = visitor.view(&first).await;
        assert_eq!(
            (before["brand"].as_str(), before["journey"].as_str()),
            (Some(brand.as_str()), Some(journey.as_str()))
        );
        assert_eq!(
            stored_token(&visitor, &before["qidu"]).await,
            token,
            "{brand} {journey}"
        );
        // Left idle past the reset time (4 hours, or the brand's own).
        visitor
            .sql(&format!(
                "update quotes set updated_at = '2000-01-01T00:00:00.000Z' where quote_ref = '{}'",
                before["qidu"].as_str().expect("ref")
            ))
            .await;
        let after = visitor.view(&base).await;
        assert_ne!(
            after["qidu"], before["qidu"],
            "{brand} {journey}: a new quote"
        );
        assert_eq!(after["brand"], before["brand"], "{brand} {journey}");
        assert_eq!(after["journey"], before["journey"], "{brand} {journey}");
        assert_eq!(after["channel"], before["channel"], "{brand} {journey}");
        assert_eq!(
            stored_token(&visitor, &after["qidu"]).await,
            token,
            "{brand} {journey}"
        );
    }
}

/// The timeout modal's "Start a new quote" (POST /api/reset) answers where the new
/// quote starts, for every brand and both channels: the same journey and brand, with the
/// tracking token; the page there makes the new quote so.
#[tokio::test]
async fn the_customers_reset_answers_a_start_on_the_same_brand_journey_and_token() {
    let app = spawn_app().await;
    for (brand, token, journey, base) in brands_and_channels() {
        let visitor = app.another_visitor().await;
        let mut first = format!("{base}?brand={brand}");
        if let Some(t) = &token {
            first.push_str(&format!("&tracking_token={t}"));
        }
        let before = visitor.view(&first).await;
        let csrf = before["csrf"].as_str().expect("csrf");
        let (status, body) = visitor
            .post_json("/api/reset", &json!({ "csrf": csrf }))
            .await;
        assert_eq!(status, 200, "{body}");
        let start = body["data"]["start"].as_str().expect("start").to_owned();
        assert_eq!(start, first, "{brand} {journey}");
        let after = visitor.view(&start).await;
        assert_ne!(after["qidu"], before["qidu"]);
        assert_eq!(
            (&after["brand"], &after["journey"], &after["channel"]),
            (&before["brand"], &before["journey"], &before["channel"])
        );
        assert_eq!(
            stored_token(&visitor, &after["qidu"]).await,
            token,
            "{brand} {journey}"
        );
    }
}

/// A page whose quote another tab (or the server, on a page opened after the quote was
/// left idle) has replaced asks to start again with its old token: nothing is reset, the answer
/// is 403, and it still says where this browser's quote starts, on the brand and journey with the
/// tracking token, so the page does not fall back to the default brand.
#[tokio::test]
async fn a_stale_pages_reset_resets_nothing_but_names_the_browsers_start() {
    let app = spawn_app().await;
    let first = "/aggregators/quote?brand=sbp&tracking_token=tv_campaign";
    let stale = app.view(first).await;
    let csrf = stale["csrf"].as_str().expect("csrf").to_owned();
    app.sql(&format!(
        "update quotes set updated_at = '2000-01-01T00:00:00.000Z' where quote_ref = '{}'",
        stale["qidu"].as_str().expect("ref")
    ))
    .await;
    // Another tab opens a page: the server resets the idle quote and makes the next one.
    let newer = app.view("/aggregators/quote").await;
    assert_ne!(newer["qidu"], stale["qidu"]);
    let (status, body) = app.post_json("/api/reset", &json!({ "csrf": csrf })).await;
    assert_eq!(status, 403, "{body}");
    assert_eq!(body["error"], "csrf");
    assert_eq!(body["data"]["start"], first);
    // Nothing was reset: the newer quote is still this browser's.
    assert_eq!(app.view("/aggregators/quote").await["qidu"], newer["qidu"]);
}
