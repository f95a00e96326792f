//! Inactivity and starting again (journey.md §2 Inactivity timeout, §4 Timers, §9;
//! owner-payment.md §4 Session, §7 reset).

mod common;

use common::{spawn_app, spawn_app_with, valid_pet};
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
