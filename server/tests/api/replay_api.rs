//! Any quote replayed as the customer saw it: `pawpath replay`, the staff page
//! `/internal/replay` and its data `/internal/quotes/{reference}/replay`. Runs on SQLite, and on
//! PostgreSQL with `PAWPATH_TEST_DATABASE`.

use crate::common;

use common::*;
use serde_json::{Value, json};

const ADMIN: &str = "replay-admin-token-0123456789abcdef-0123";

fn admin() -> [(&'static str, String); 1] {
    [("PAWPATH_ADMIN_TOKEN", ADMIN.to_owned())]
}

async fn served_version(app: &TestApp) -> String {
    let r: Value = app
        .client
        .get(format!("{}/healthz", app.base))
        .send()
        .await
        .expect("get")
        .json()
        .await
        .expect("json");
    r["definitions"].as_str().expect("version").to_owned()
}

async fn replay_of(app: &TestApp, reference: &str, query: &str) -> (u16, Value) {
    let r = app
        .client
        .get(format!(
            "{}/internal/quotes/{reference}/replay{query}",
            app.base
        ))
        .bearer_auth(ADMIN)
        .send()
        .await
        .expect("get");
    let status = r.status().as_u16();
    (status, r.json().await.unwrap_or(Value::Null))
}

/// A page's view data with its CSRF token left out (a replayed page has none: it is to read).
fn without_csrf(mut data: Value) -> Value {
    if let Some(map) = data.as_object_mut() {
        map.remove("csrf");
    }
    data
}

/// The monthly total a review page shows.
fn monthly(data: &Value) -> String {
    data["summary"]["monthly"]
        .as_str()
        .or_else(|| data["summary"]["total_monthly"].as_str())
        .map(str::to_owned)
        .unwrap_or_else(|| data["summary"].to_string())
}

#[tokio::test]
async fn a_bought_quote_replays_with_the_prices_and_pages_it_had_after_the_definitions_change() {
    let folder = tempfile::tempdir().expect("tempdir");
    let definitions = folder.path();
    copy_definitions(definitions);
    let app = spawn_on(definitions, &admin()).await;
    let before = served_version(&app).await;

    // The customer's way to a purchase, each answer's view data kept: the page they were shown.
    let mut shown = Vec::new();
    let (status, body) = app.save_pets(json!([valid_pet()])).await;
    assert_eq!(status, 200, "{body}");
    shown.push(body["data"].clone());
    // A refused answer: the log keeps it, the page does not change, the error is in their words.
    let mut owner = valid_owner();
    owner["email_address"] = json!("not an address");
    let (status, refused) = app.save_owner(owner).await;
    assert_eq!(status, 422, "{refused}");
    let (status, body) = app.save_owner(valid_owner()).await;
    assert_eq!(status, 200, "{body}");
    shown.push(body["data"].clone());
    let (status, body) = app
        .save_cover(json!([{ "product": { "Code": "LT04000" } }]))
        .await;
    assert_eq!(status, 200, "{body}");
    let review_price = monthly(&body["data"]);
    shown.push(body["data"].clone());
    let csrf = app.csrf().await;
    let (status, body) = app
        .post_json(
            "/api/saveDeclaration",
            &json!({ "csrf": csrf, "pets": [dog_answers()] }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    shown.push(body["data"].clone());
    // Bank details that fail the modulus check first (never kept), then good ones.
    let payment = |account: &str| {
        json!({
            "payment_method": "DD", "payment_frequency": "MP", "account_name": "Ada O'Neill",
            "sort_code": "08-99-99", "account_number": account, "payment_day": 15,
            "dd_confirmation": true
        })
    };
    let csrf = app.csrf().await;
    let (status, body) = app
        .post_json(
            "/api/setup-payment",
            &json!({ "csrf": csrf, "payment": payment("66374959") }),
        )
        .await;
    assert_eq!(status, 422, "{body}");
    let csrf = app.csrf().await;
    let (status, body) = app
        .post_json(
            "/api/setup-payment",
            &json!({ "csrf": csrf, "payment": payment("66374958") }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    shown.push(body["data"].clone());
    let csrf = app.csrf().await;
    let (status, body) = app
        .post_json(
            "/api/purchase",
            &json!({ "csrf": csrf, "idempotency_key": "replay-test-1" }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let confirmation = body["data"].clone();
    shown.push(confirmation.clone());
    let reference = app
        .sql("select quote_ref from quotes where lifecycle = 'purchased'")
        .await
        .expect("the bought quote");

    // The log never holds the account number: only its mask.
    let leaked = app
        .sql("select count(*) from step_transitions where input like '%66374958%' or input like '%66374959%'")
        .await;
    assert_eq!(leaked.as_deref(), Some("0"));
    let masked = app
        .sql("select count(*) from step_transitions where input like '%****4958%'")
        .await;
    assert_eq!(masked.as_deref(), Some("1"));

    // A product team raises Insurance Premium Tax in the definitions: a new version.
    let rates = definitions.join("journeys/products/rates.json");
    let text = std::fs::read_to_string(&rates).expect("rates");
    assert!(
        text.contains("\"ipt_percent\": \"12\""),
        "the rates give IPT"
    );
    std::fs::write(
        &rates,
        text.replace("\"ipt_percent\": \"12\"", "\"ipt_percent\": \"20\""),
    )
    .expect("write");
    let changed = app.on_definitions(definitions, &admin()).await;
    let after = served_version(&changed).await;
    assert_ne!(before, after, "the definitions changed version");
    // Today's quote for the same dog costs more: the change matters.
    let visitor = changed.another_server(&admin()).await;
    visitor.reach_assumptions(json!([valid_pet()])).await;
    let today = monthly(&visitor.view("/quote/review").await);
    assert_ne!(today, review_price, "a new quote is priced on the new IPT");

    // Every server keeps the versions it runs; the kept files load as the same version.
    let store = pawpath::store::Store::connect(&app.database_url)
        .await
        .expect("store");
    for version in [&before, &after] {
        let files = store
            .definitions_files(version)
            .await
            .expect("read")
            .unwrap_or_else(|| panic!("version {version} kept"));
        let loaded = engine::Definitions::load(&engine::definitions::MemoryLoader { files })
            .expect("the kept files load");
        assert_eq!(loaded.version(), version.as_str());
    }
    store.close().await;

    // The replay, on the server now running the new definitions.
    let (status, replay) = replay_of(&changed, &reference, "").await;
    assert_eq!(status, 200, "{replay}");
    assert_eq!(replay["reference"], reference.as_str());
    assert!(replay.get("note").is_none(), "{}", replay["note"]);
    let steps = replay["steps"].as_array().expect("steps");
    let events: Vec<&str> = steps.iter().filter_map(|s| s["event"].as_str()).collect();
    assert_eq!(
        events,
        [
            "submit:pet_details",
            "submit:your_details",
            "submit:your_details",
            "submit:choose_policy",
            "submit:assumptions",
            "submit:payment",
            "submit:payment",
            "purchase"
        ],
        "{replay:#}"
    );
    for step in steps {
        assert_eq!(
            step["definition_version"], before,
            "each event on the definitions of its moment"
        );
        let refused_bank = step["event"] == "submit:payment" && step["outcome"] == "invalid";
        let status = if refused_bank {
            "from_log"
        } else {
            "reproduced"
        };
        assert_eq!(step["replay"]["status"], status, "{step:#}");
    }
    assert_eq!(replay["reproduced"], 7);
    // The refused answer: what was sent, and the error as the customer read it.
    assert_eq!(steps[1]["outcome"], "invalid");
    assert_eq!(
        steps[1]["sent"]["owner"]["email_address"], "not an address",
        "what was sent"
    );
    let said = refused["errors"].as_array().expect("errors");
    assert_eq!(steps[1]["messages"].as_array().expect("messages"), said);
    assert_eq!(steps[5]["sent"]["payment"]["account_number"], "****4959");
    assert_eq!(steps[6]["sent"]["payment"]["account_number"], "****4958");
    // Each page the customer was shown is the page replayed, prices and all, though the server
    // now prices on other definitions.
    let replayed_pages: Vec<Value> = steps
        .iter()
        .filter(|s| s["outcome"] != "invalid")
        .map(|s| s["page"].clone())
        .collect();
    assert_eq!(replayed_pages.len(), shown.len());
    for (i, (page, was)) in replayed_pages.iter().zip(&shown).enumerate() {
        // The bank details panel showed the customer their whole account number; the replay
        // shows staff only its mask.
        let mut was = without_csrf(was.clone());
        if let Some(number) = was.pointer_mut("/bank_details/account_number") {
            assert_eq!(number, "66374958");
            *number = json!("****4958");
        }
        assert_eq!(
            without_csrf(page.clone()),
            was,
            "page {i} as the customer was shown it"
        );
    }
    assert_eq!(
        steps[3]["totals"]["monthly"].as_str(),
        Some(review_price.as_str()),
        "the prices quoted then"
    );
    // The working, where the answers priced the quote (once the owner's postcode was known).
    let priced: Vec<u64> = steps
        .iter()
        .filter(|s| s["pricing"].is_object())
        .filter_map(|s| s["n"].as_u64())
        .collect();
    assert_eq!(priced, [3], "priced where the rating inputs changed");

    // The same from the command line, on the new definitions.
    let done = std::process::Command::new(env!("CARGO_BIN_EXE_pawpath"))
        .args(["replay", &reference])
        .env("PAWPATH_DEFINITIONS", definitions)
        .env("PAWPATH_DATA_DIR", &app.data_dir)
        .env("DATABASE_URL", &app.database_url)
        .output()
        .expect("run pawpath replay");
    let out = String::from_utf8_lossy(&done.stdout);
    assert!(
        done.status.success(),
        "{}",
        String::from_utf8_lossy(&done.stderr)
    );
    assert!(out.contains(&format!("Quote {reference} ")), "{out}");
    assert!(
        out.contains("8 transitions; showing 1–8; 7 of them run again and agree with the log"),
        "{out}"
    );
    assert!(out.contains("account_number: \"****4958\""), "{out}");
    assert!(!out.contains("66374958"), "{out}");
    assert!(out.contains("the log's verdict"), "{out}");
    let json_out = std::process::Command::new(env!("CARGO_BIN_EXE_pawpath"))
        .args([
            "replay", &reference, "--json", "--from", "8", "--count", "1",
        ])
        .env("PAWPATH_DEFINITIONS", definitions)
        .env("PAWPATH_DATA_DIR", &app.data_dir)
        .env("DATABASE_URL", &app.database_url)
        .output()
        .expect("run pawpath replay --json");
    assert!(json_out.status.success());
    let parsed: Value = serde_json::from_slice(&json_out.stdout).expect("JSON");
    assert_eq!(parsed["steps"].as_array().map(Vec::len), Some(1));
    assert_eq!(
        without_csrf(parsed["steps"][0]["page"].clone()),
        without_csrf(confirmation)
    );
}

#[tokio::test]
async fn the_staff_page_replays_behind_the_admin_token_and_refuses_bad_asks() {
    let app = spawn_app_with(&admin()).await;
    app.reach_assumptions(json!([valid_pet()])).await;
    let reference = app
        .sql("select quote_ref from quotes")
        .await
        .expect("a quote");
    let page = |query: String, auth: bool| {
        let mut request = app
            .client
            .get(format!("{}/internal/replay{query}", app.base));
        if auth {
            request = request.basic_auth("staff", Some(ADMIN));
        }
        async move {
            let r = request.send().await.expect("get");
            let status = r.status().as_u16();
            let cache = r
                .headers()
                .get("cache-control")
                .and_then(|v| v.to_str().ok())
                .unwrap_or("")
                .to_owned();
            (status, cache, r.text().await.unwrap_or_default())
        }
    };
    let (status, _, _) = page(format!("?reference={reference}"), false).await;
    assert_eq!(status, 401, "the page is the admin's");
    let (status, cache, html) = page(format!("?reference={reference}"), true).await;
    assert_eq!(status, 200, "{html}");
    assert_eq!(cache, "no-store");
    assert!(
        html.contains(&format!("Replay of quote {reference}")),
        "{html}"
    );
    assert!(html.contains("run again: agrees with the log"), "{html}");
    assert!(html.contains("submit:choose_policy"), "{html}");
    assert!(!html.contains("differs from the log"), "{html}");
    // Lower case and spaces are forgiven, as a handler types a reference read out on the phone.
    let (status, _, html) = page(
        format!("?reference=%20{}%20", reference.to_lowercase()),
        true,
    )
    .await;
    assert_eq!(status, 200);
    assert!(html.contains(&format!("Replay of quote {reference}")));
    // The empty form.
    let (status, _, html) = page(String::new(), true).await;
    assert_eq!(status, 200);
    assert!(html.contains("Replay a quote"));

    // Bad asks are refused naming the field, and reveal nothing.
    let (status, _, html) = page("?reference=ZZZZ-ZZZZ-ZZZZ".into(), true).await;
    assert_eq!(status, 404);
    assert!(
        html.contains("No quote has the reference ZZZZ-ZZZZ-ZZZZ."),
        "{html}"
    );
    let (status, _, html) = page(format!("?reference={}", "A".repeat(5000)), true).await;
    assert_eq!(status, 400);
    assert!(html.contains("reference: at most 40 characters"), "{html}");
    for (query, said) in [
        ("&count=0", "count must be a whole number from 1 to 20"),
        ("&count=21", "count must be a whole number from 1 to 20"),
        ("&from=-1", "from must be a whole number from 1 to 1000000"),
        ("&from=1e9", "from must be a whole number from 1 to 1000000"),
    ] {
        let (status, _, html) = page(format!("?reference={reference}{query}"), true).await;
        assert_eq!(status, 400, "{query}");
        assert!(html.contains(said), "{query}: {html}");
    }
    // The data call: a window of the log.
    let (status, replay) = replay_of(&app, &reference, "?from=2&count=1").await;
    assert_eq!(status, 200, "{replay}");
    assert_eq!(replay["from"], 2);
    assert_eq!(replay["transitions"], 3);
    assert_eq!(replay["steps"].as_array().map(Vec::len), Some(1));
    assert_eq!(replay["steps"][0]["n"], 2);
    assert_eq!(replay["steps"][0]["replay"]["status"], "reproduced");
    let (status, _) = replay_of(&app, "ZZZZ-ZZZZ-ZZZZ", "").await;
    assert_eq!(status, 404);
    let r = app
        .client
        .get(format!("{}/internal/quotes/{reference}/replay", app.base))
        .send()
        .await
        .expect("get");
    assert_eq!(r.status(), 401);
}

#[tokio::test]
async fn the_log_keeps_what_was_sent_bounded_and_the_purge_takes_it() {
    let app = spawn_app_with(&admin()).await;
    app.reach_assumptions(json!([valid_pet()])).await;
    // A body of junk near the body limit: refused, and the log keeps only its size.
    let csrf = app.csrf().await;
    let mut pet = valid_pet();
    pet["pet_name"] = json!("x".repeat(40_000));
    let (status, body) = app
        .post_json("/api/petdetails", &json!({ "csrf": csrf, "pets": [pet] }))
        .await;
    assert_eq!(status, 422, "{body}");
    let kept = app
        .sql(
            "select input from step_transitions where outcome = 'invalid' order by id desc limit 1",
        )
        .await
        .expect("the refused transition");
    let kept: Value = serde_json::from_str(&kept).expect("JSON");
    assert!(
        kept["omitted_bytes"].as_u64().is_some_and(|n| n > 40_000),
        "{kept}"
    );
    let reference = app
        .sql("select quote_ref from quotes")
        .await
        .expect("a quote");
    let (status, replay) = replay_of(&app, &reference, "").await;
    assert_eq!(status, 200);
    let last = replay["steps"]
        .as_array()
        .and_then(|s| s.last())
        .expect("steps");
    assert_eq!(last["replay"]["status"], "not_run", "{last}");
    assert_eq!(
        last["replay"]["why"],
        "what this event sent was too large to keep"
    );
    assert!(
        replay["note"]
            .as_str()
            .is_some_and(|n| n.contains("transition 4 could not be run again")),
        "{replay}"
    );

    // The purge takes what each event carried and the opening document with the answers.
    let opened = app
        .sql("select count(*) from quotes where opening is not null")
        .await;
    assert_eq!(opened.as_deref(), Some("1"));
    app.sql("update quotes set created_at = '2000-01-01T00:00:00Z', updated_at = '2000-01-01T00:00:00Z'")
        .await;
    let done = std::process::Command::new(env!("CARGO_BIN_EXE_pawpath"))
        .arg("purge")
        .env("PAWPATH_DEFINITIONS", &app.definitions_root)
        .env("PAWPATH_DATA_DIR", &app.data_dir)
        .env("DATABASE_URL", &app.database_url)
        .output()
        .expect("run pawpath purge");
    assert!(
        done.status.success(),
        "{}",
        String::from_utf8_lossy(&done.stderr)
    );
    for statement in [
        "select count(*) from step_transitions where input is not null",
        "select count(*) from quotes where opening is not null",
    ] {
        assert_eq!(
            app.sql(statement).await.as_deref(),
            Some("0"),
            "{statement}"
        );
    }
    let (status, _) = replay_of(&app, &reference, "").await;
    assert_eq!(status, 404, "a purged quote's reference finds nothing");
}
