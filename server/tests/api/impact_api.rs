//! What a change of the definitions does to customers, before it ships: `pawpath
//! impact` and the staff page `/internal/impact`, on quotes made by the scripted flows. A copy of
//! the definitions changes a rate factor, a guard and a question, and each section of the report
//! is checked against what was changed. Runs on SQLite, and on PostgreSQL with
//! `PAWPATH_TEST_DATABASE`.

use crate::common;
use crate::flows;

use std::path::Path;

use common::*;
use rust_decimal::Decimal;
use serde_json::Value;

const ADMIN: &str = "impact-admin-token-0123456789abcdef-01234";

/// The admin token, and few database connections: these tests run two or three servers and the
/// report's command on one PostgreSQL beside the other tests (its 100 connections are shared).
fn admin() -> [(&'static str, String); 2] {
    [
        ("PAWPATH_ADMIN_TOKEN", ADMIN.to_owned()),
        ("PAWPATH_DATABASE_CONNECTIONS", "4".to_owned()),
    ]
}

/// Rewrites one JSON file of a definitions copy.
fn edit(root: &Path, file: &str, change: impl FnOnce(&mut Value)) {
    let path = root.join(file);
    let mut json: Value =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("read")).expect("JSON");
    change(&mut json);
    std::fs::write(&path, serde_json::to_string_pretty(&json).expect("write")).expect("write");
}

/// The three changes: Gundogs' breed factor up 8% (journey.md §9 rating factors), a guard turned
/// round (rehoming eligibility now refuses pets not already insured, journey.md §1 Extra flows),
/// and a question's rule (a pet's name may now hold "@").
fn change_definitions(root: &Path) {
    edit(root, "journeys/products/rates.json", |r| {
        r["breed_factors"]["dog_group"]["Gundog"] = "1.08".into();
    });
    edit(root, "journeys/guards.json", |g| {
        g["guards"]["rehoming_already_insured"]["schema"]["properties"]["rehoming"]["properties"]
            ["already_insured"]["const"] = "no".into();
    });
    edit(root, "questions/pet-details.json", |q| {
        q["schema"]["properties"]["pets"]["items"]["properties"]["pet_name"]["allOf"][0]["pattern"] =
            "^[\\p{L}0-9][\\p{L}0-9 '\u{2019}@-]*$".into();
    });
}

/// `pawpath impact` against the app's database; (exit code, standard output, standard error).
fn impact(app: &TestApp, args: &[&str]) -> (i32, String, String) {
    let done = std::process::Command::new(env!("CARGO_BIN_EXE_pawpath"))
        .arg("impact")
        .args(args)
        .env("PAWPATH_DEFINITIONS", &app.definitions_root)
        .env("PAWPATH_DATA_DIR", &app.data_dir)
        .env("DATABASE_URL", &app.database_url)
        .env("PAWPATH_DATABASE_CONNECTIONS", "3")
        .output()
        .expect("run pawpath impact");
    (
        done.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&done.stdout).into_owned(),
        String::from_utf8_lossy(&done.stderr).into_owned(),
    )
}

fn decimal(v: &Value) -> Decimal {
    v.as_str()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("a decimal: {v}"))
}

/// The definitions version a server serves.
async fn served_version(base: &str) -> String {
    let health: Value = reqwest::get(format!("{base}/healthz"))
        .await
        .expect("get")
        .json()
        .await
        .expect("json");
    health["definitions"].as_str().expect("version").to_owned()
}

/// What the quote tables hold, to show a report wrote nothing.
async fn held(app: &TestApp) -> String {
    let quotes = app
        .sql("select count(*) || ' ' || max(updated_at) || ' ' || sum(row_version) from quotes")
        .await;
    let transitions = app.sql("select count(*) from step_transitions").await;
    format!("{quotes:?} {transitions:?}")
}

#[tokio::test]
async fn a_rate_factor_a_guard_and_a_question_changed_each_show_in_the_report() {
    let folders = tempfile::tempdir().expect("tempdir");
    let (before, after) = (folders.path().join("before"), folders.path().join("after"));
    copy_definitions(&before);
    copy_definitions(&after);
    change_definitions(&after);
    let app = spawn_on(&before, &admin()).await;

    // Quotes made by the scripted flows, each a customer of its own.
    let sets = flows::read(&flows::flows_dir().join("_answers.json"));
    // The flows whose quotes the changes reach, and others beside: a dog bought, a rabbit and a
    // cat priced, the refused name, two pets, rehoming refused and eligible.
    let chosen = ["02-", "03-", "05-", "09-", "17-", "21-", "22-"];
    let files: Vec<_> = flows::flow_files()
        .into_iter()
        .filter(|p| {
            let name = p.file_name().map(|n| n.to_string_lossy().into_owned());
            chosen
                .iter()
                .any(|c| name.as_deref().is_some_and(|n| n.starts_with(c)))
        })
        .collect();
    assert_eq!(files.len(), chosen.len());
    for path in &files {
        let problems = flows::run(&app, path, &sets).await;
        assert!(problems.is_empty(), "{}: {problems:?}", path.display());
    }
    let quotes = app.sql("select count(*) from quotes").await.expect("count");
    assert!(
        quotes.parse::<usize>().expect("n") >= files.len(),
        "{quotes} quotes"
    );
    let flows_dir = flows::flows_dir();
    let flows_arg = flows_dir.to_str().expect("path");
    let kept = held(&app).await;

    // The same definitions on both sides: nothing changes, and every quote is run.
    let (code, out, err) = impact(
        &app,
        &[
            "--from",
            before.to_str().expect("path"),
            "--to",
            "served",
            "--flows",
            flows_arg,
            "--json",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let same: Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(same["definitions"]["changes"], 0, "{}", same["definitions"]);
    assert_eq!(
        same["journeys"]["changed"]["count"], 0,
        "{}",
        same["journeys"]["changed"]
    );
    assert_eq!(same["journeys"]["new"]["count"], 0);
    assert_eq!(same["journeys"]["gone"]["count"], 0);
    let q = &same["quotes"];
    assert_eq!(q["sampled"], quotes.parse::<u64>().expect("n"), "{q}");
    assert_eq!(
        q["run"], q["sampled"],
        "every quote run again: {}",
        q["not_run"]
    );
    for count in [
        "different_step",
        "newly_blocked",
        "no_longer_blocked",
        "different_outcomes",
        "priced_differently",
    ] {
        assert_eq!(q[count]["quotes"], 0, "{count}: {}", q[count]);
    }
    assert!(q["priced"].as_u64().expect("priced") >= 4, "{q}");
    assert_eq!(q["prices"]["changed"], 0);

    // The changed copy.
    let (code, out, err) = impact(
        &app,
        &[
            "--from",
            "served",
            "--to",
            after.to_str().expect("path"),
            "--flows",
            flows_arg,
            "--json",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let report: Value = serde_json::from_str(&out).expect("JSON");

    // What changed in the definitions: the three, each by file and JSON pointer.
    let defs = &report["definitions"];
    assert_eq!(defs["changes"], 3, "{defs}");
    assert_eq!(defs["by_area"]["rates"], 1);
    assert_eq!(defs["by_area"]["guards"], 1);
    assert_eq!(defs["by_area"]["questions and rules"], 1);
    let listed: Vec<(String, String, String, String)> = defs["listed"]
        .as_array()
        .expect("listed")
        .iter()
        .map(|c| {
            let s = |k: &str| c[k].as_str().unwrap_or("").to_owned();
            (s("file"), s("pointer"), s("before"), s("after"))
        })
        .collect();
    assert!(
        listed.contains(&(
            "journeys/products/rates.json".into(),
            "/breed_factors/dog_group/Gundog".into(),
            "1.00".into(),
            "1.08".into()
        )),
        "{listed:?}"
    );
    assert!(listed.contains(&(
        "journeys/guards.json".into(),
        "/guards/rehoming_already_insured/schema/properties/rehoming/properties/already_insured/const".into(),
        "yes".into(),
        "no".into()
    )), "{listed:?}");
    assert!(
        listed
            .iter()
            .any(|(f, p, _, a)| f == "questions/pet-details.json"
                && p == "/schema/properties/pets/items/properties/pet_name/allOf/0/pattern"
                && a.contains('@')),
        "{listed:?}"
    );

    // What it does to journeys: the rehoming paths turn round, the refused name now goes on.
    let j = &report["journeys"];
    assert!(j.get("not_generated").is_none(), "{j}");
    assert!(j["now_blocked"].as_u64().expect("n") >= 1, "{j}");
    assert!(j["no_longer_blocked"].as_u64().expect("n") >= 1, "{j}");
    let changed = j["changed"]["listed"].as_array().expect("changed");
    assert!(
        changed.iter().any(
            |c| c["id"].as_str().is_some_and(|i| i.starts_with("rehoming/"))
                && c["after"]
                    .as_str()
                    .is_some_and(|a| a.starts_with("blocked: already_insured"))
        ),
        "{changed:?}"
    );
    assert!(
        changed.iter().any(
            |c| c["id"].as_str().is_some_and(|i| i.starts_with("direct/"))
                && c["before"] == "invalid on pet_details"
        ),
        "{changed:?}"
    );

    // What it does to real quotes.
    let q = &report["quotes"];
    assert_eq!(q["run"], q["sampled"], "{}", q["not_run"]);
    // The refused name ("R@x", flow 09) now goes on to the owner's details.
    let different = &q["different_step"];
    assert!(
        different["examples"]
            .as_array()
            .expect("examples")
            .iter()
            .any(|e| e["what"] == "pet_details → your_details"),
        "{different}"
    );
    // Eligible rehoming quotes are now blocked; the already insured one no longer is.
    assert!(
        q["newly_blocked"]["quotes"].as_u64().expect("n") >= 1,
        "{q}"
    );
    assert!(
        q["newly_blocked"]["examples"]
            .as_array()
            .expect("e")
            .iter()
            .all(|e| e["what"] == "already_insured"),
        "{q}"
    );
    assert_eq!(q["no_longer_blocked"]["quotes"], 1, "{q}");
    // Gundogs up by about 8% (monthly premiums round to the penny); cats and rabbits unmoved.
    let by_species = q["by"]["species"].as_array().expect("species");
    let group = |v: &str| {
        by_species
            .iter()
            .find(|g| g["value"] == v)
            .cloned()
            .unwrap_or_else(|| panic!("{v}: {by_species:?}"))
    };
    let dog = group("dog");
    assert!(dog["changed"].as_u64().expect("n") > 0, "{dog}");
    let median = decimal(&dog["median"]);
    assert!(
        median >= Decimal::new(795, 2) && median <= Decimal::new(805, 2),
        "{dog}"
    );
    for species in ["cat", "rabbit"] {
        let g = group(species);
        assert_eq!(g["changed"], 0, "{g}");
    }
    let max = decimal(&q["prices"]["max"]);
    assert!(max < Decimal::new(850, 2), "{q}");
    let rises = q["largest_rises"].as_array().expect("rises");
    assert!(
        !rises.is_empty()
            && rises.iter().all(|r| r["replay"]
                .as_str()
                .is_some_and(|l| l.starts_with("/internal/replay?reference="))),
        "{rises:?}"
    );
    for dimension in ["age band", "cover type", "brand", "region"] {
        assert!(
            !q["by"][dimension].as_array().expect("groups").is_empty(),
            "{dimension}"
        );
    }
    let lt = q["by"]["cover type"]
        .as_array()
        .expect("covers")
        .iter()
        .find(|g| g["value"] == "LT")
        .cloned()
        .expect("LT");
    assert!(lt["changed"].as_u64().expect("n") > 0, "{lt}");
    // A write-only answer is never shown: flow 02's account number.
    assert!(!out.contains("66374958"), "an account number in the report");
    assert_eq!(held(&app).await, kept, "the report wrote nothing");

    // A check for CI: the 90th percentile rise is 8% (dogs are most of the prices).
    let to = after.to_str().expect("path");
    let (code, text, err) = impact(
        &app,
        &[
            "--from",
            "served",
            "--to",
            to,
            "--flows",
            flows_arg,
            "--fail-if",
            "price_rise_p90 > 5%",
            "--fail-if",
            "newly_blocked > 100",
        ],
    );
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("--fail-if price_rise_p90 > 5% (it is "),
        "{err}"
    );
    assert!(!err.contains("newly_blocked"), "{err}");
    assert!(
        text.contains("What changed in the definitions: 3 changes"),
        "{text}"
    );
    assert!(
        text.contains("journeys/products/rates.json#/breed_factors/dog_group/Gundog  1.00 → 1.08"),
        "{text}"
    );
    assert!(text.contains("by species"), "{text}");
    let (code, _, err) = impact(
        &app,
        &[
            "--from",
            "served",
            "--to",
            to,
            "--flows",
            flows_arg,
            "--fail-if",
            "price_rise_max > 9%",
        ],
    );
    assert_eq!(code, 0, "{err}");
    // A condition that cannot be read is a usage error naming it.
    let (code, _, err) = impact(
        &app,
        &[
            "--from",
            "served",
            "--to",
            to,
            "--fail-if",
            "price_rise_p90 > 5",
        ],
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("in per cent"), "{err}");
    // A source that is neither a folder nor a kept version.
    let (code, _, err) = impact(&app, &["--from", "served", "--to", "no-such-version"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("no definitions version \"no-such-version\" is kept"),
        "{err}"
    );
}

#[tokio::test]
async fn the_staff_page_compares_kept_versions_behind_the_admin_token() {
    let folders = tempfile::tempdir().expect("tempdir");
    let (before, after) = (folders.path().join("before"), folders.path().join("after"));
    copy_definitions(&before);
    copy_definitions(&after);
    change_definitions(&after);
    let app = spawn_on(&before, &admin()).await;
    let (status, body) = app.save_pets(serde_json::json!([valid_pet()])).await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = app.save_owner(valid_owner()).await;
    assert_eq!(status, 200, "{body}");
    // A server on the changed copy keeps its version in the same database.
    let changed = app.on_definitions(&after, &admin()).await;
    let (v1, v2) = (
        served_version(&app.base).await,
        served_version(&changed.base).await,
    );
    assert_ne!(v1, v2);

    let page = |query: String| {
        let base = app.base.clone();
        async move {
            let r = reqwest::Client::new()
                .get(format!("{base}/internal/impact{query}"))
                .basic_auth("staff", Some(ADMIN))
                .send()
                .await
                .expect("get");
            (r.status().as_u16(), r.text().await.expect("text"))
        }
    };
    let (status, html) = page(String::new()).await;
    assert_eq!(status, 200);
    assert!(
        html.contains(&v1) && html.contains(&v2),
        "both versions listed"
    );
    let (status, html) = page(format!("?from={v1}&to={v2}&sample=50")).await;
    assert_eq!(status, 200, "{html}");
    assert!(
        html.contains("What changed in the definitions: 3"),
        "{html}"
    );
    // Slashes are written as HTML entities in the page.
    assert!(
        html.contains("breed_factors&#x2f;dog_group&#x2f;Gundog"),
        "{html}"
    );
    assert!(
        html.contains("The paths were not generated: no scripted flows"),
        "this server's definitions folder has no tests/flows: {html}"
    );
    assert!(
        html.contains("What it does to real quotes: 1 of 1 run again"),
        "{html}"
    );
    assert!(
        html.contains("Priced differently (of 1 priced): 1"),
        "{html}"
    );

    // Bad input is named, and changes nothing.
    for (query, named) in [
        (
            format!("?from={v1}&to=../../etc"),
            "to: a definitions version",
        ),
        (
            format!("?from={v1}&to={v2}&sample=0"),
            "sample: a whole number from 1 to 2000",
        ),
        (
            format!("?from={v1}&to={v2}&sample=99999"),
            "sample: a whole number from 1 to 2000",
        ),
        (
            format!("?from={v1}&to={v2}&since=yesterday"),
            "since: \"yesterday\" is not a date",
        ),
        (
            format!("?from={v1}&to=feedface"),
            "no definitions version \"feedface\" is kept",
        ),
    ] {
        let (status, html) = page(query.clone()).await;
        assert_eq!(status, 400, "{query}: {html}");
        assert!(
            html.contains(&named.replace('"', "&quot;")),
            "{query}: {html}"
        );
    }
    // Without the token, nothing.
    let r = reqwest::get(format!("{}/internal/impact?from={v1}&to={v2}", app.base))
        .await
        .expect("get");
    assert_eq!(r.status().as_u16(), 401);
}
