//! The analysts' funnel: `pawpath report funnel` over the transitions the API records,
//! run as the real command against the test server's database.

use crate::common;

use std::process::Command;

use common::*;
use serde_json::json;

fn report(app: &TestApp, args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_pawpath"))
        .arg("report")
        .args(args)
        .env("PAWPATH_DEFINITIONS", &app.definitions_root)
        .env("PAWPATH_DATA_DIR", &app.data_dir)
        .env("DATABASE_URL", &app.database_url)
        .env("RUST_LOG", "info")
        .output()
        .expect("run pawpath");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[tokio::test]
async fn the_funnel_counts_what_customers_did_step_by_step() {
    let app = spawn_app().await;
    // One customer: a field error on the pet page, then pets and owner: on to cover.
    let mut nameless = valid_pet();
    nameless["pet_name"] = json!("");
    let (status, _) = app.save_pets(json!([nameless])).await;
    assert_eq!(status, 422);
    let (status, body) = app.save_pets(json!([valid_pet()])).await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = app.save_owner(valid_owner()).await;
    assert_eq!(status, 200, "{body}");
    // Another leaves after the pet page.
    let other = app.another_visitor().await;
    let (status, _) = other.save_pets(json!([valid_pet()])).await;
    assert_eq!(status, 200);
    // A third opens the first page and goes: a quote with no transitions at all, counted as
    // entering the pet page and leaving it.
    let third = app.another_visitor().await;
    third.view("/quote").await;

    let dir = tempfile::tempdir().expect("tempdir");
    let csv = dir.path().join("funnel.csv");
    let svg = dir.path().join("funnel.svg");
    let (code, out, err) = report(
        &app,
        &[
            "funnel",
            "--journey",
            "direct",
            "--brand",
            "pos",
            "--csv",
            &csv.to_string_lossy(),
            "--svg",
            &svg.to_string_lossy(),
        ],
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(out.starts_with("direct funnel, brand pos"), "{out}");
    let csv = std::fs::read_to_string(&csv).expect("csv");
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(
        lines[0],
        "step,entered,moved_on,blocked,abandoned,median_seconds,commonest_field_errors"
    );
    let pets: Vec<&str> = lines[1].split(',').collect();
    assert_eq!(&pets[..5], ["pet_details", "3", "2", "0", "1"], "{csv}");
    assert!(
        lines[1].contains("pets[0].pet_name"),
        "the field error: {csv}"
    );
    let details = lines
        .iter()
        .find(|l| l.starts_with("your_details,"))
        .expect("row");
    assert!(
        details.starts_with("your_details,2,1,0,1,"),
        "one left on your details: {csv}"
    );
    let cover = lines
        .iter()
        .find(|l| l.starts_with("choose_policy,"))
        .expect("row");
    assert!(cover.starts_with("choose_policy,1,0,0,1,"), "{csv}");
    let chart = std::fs::read_to_string(&svg).expect("svg");
    assert!(
        chart.starts_with("<svg") && chart.contains("3 entered, 2 moved on"),
        "{chart}"
    );

    // Another brand's quotes are not counted; a period before any quote counts none.
    let (_, out, _) = report(&app, &["funnel", "--journey", "direct", "--brand", "sbp"]);
    assert!(
        out.lines()
            .any(|l| l.starts_with("pet_details") && l.split_whitespace().nth(1) == Some("0")),
        "{out}"
    );
    let (_, out, _) = report(
        &app,
        &["funnel", "--journey", "direct", "--to", "2020-01-01"],
    );
    assert!(
        out.lines()
            .any(|l| l.starts_with("pet_details") && l.split_whitespace().nth(1) == Some("0")),
        "{out}"
    );

    // Bad arguments name themselves.
    for (args, says) in [
        (vec!["funnel"], "--journey <JOURNEY>"),
        (
            vec!["funnel", "--journey", "nosuch"],
            "no journey \"nosuch\"",
        ),
        (
            vec!["funnel", "--journey", "direct", "--from", "01/11/2026"],
            "'--from <YYYY-MM-DD>': \"01/11/2026\" is not a date as YYYY-MM-DD",
        ),
        (
            vec!["funnel", "--journey", "direct", "--brand", "zzz"],
            "--brand: no brand \"zzz\"",
        ),
        (
            vec![
                "funnel",
                "--journey",
                "direct",
                "--from",
                "2026-12-01",
                "--to",
                "2026-11-01",
            ],
            "is after --to",
        ),
        (
            vec!["funnel", "--journey", "direct", "--weekly"],
            "unexpected argument '--weekly'",
        ),
    ] {
        let (code, _, err) = report(&app, &args);
        assert_ne!(code, Some(0), "{args:?}");
        // A usage error is 2, as command lines say it; what only the database knows is 1.
        let usage = !says.starts_with("no journey") && !says.starts_with("--brand");
        assert_eq!(code == Some(2), usage, "{args:?}: {code:?} {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

/// The internal funnel page: the same funnel per brand and channel, behind the admin token
/// (HTTP Basic in a browser), off without one.
#[tokio::test]
async fn the_internal_funnel_page_is_behind_the_admin_token() {
    const TOKEN: &str = "an-admin-token-of-at-least-32-characters";
    let app = spawn_app_with(&[("PAWPATH_ADMIN_TOKEN", TOKEN.into())]).await;
    app.view("/quote?brand=sbp").await;
    let (status, _) = app.save_pets(json!([valid_pet()])).await;
    assert_eq!(status, 200);
    let url = format!("{}/internal/funnel?journey=direct", app.base);
    let plain = reqwest::Client::new();
    let r = plain.get(&url).send().await.expect("get");
    assert_eq!(r.status(), 401);
    assert!(
        r.headers()["www-authenticate"]
            .to_str()
            .expect("header")
            .starts_with("Basic realm=\"pawpath internal\"")
    );
    let r = plain
        .get(&url)
        .basic_auth("staff", Some("not-the-token"))
        .send()
        .await
        .expect("get");
    assert_eq!(r.status(), 401);
    let r = plain
        .get(&url)
        .basic_auth("staff", Some(TOKEN))
        .send()
        .await
        .expect("get");
    assert_eq!(r.status(), 200);
    assert_eq!(r.headers()["cache-control"], "no-store");
    let html = r.text().await.expect("html");
    assert!(html.contains("<meta name=\"robots\" content=\"noindex\">"));
    assert!(
        html.contains("Small Beasts Pet Plan (sbp), direct"),
        "{html}"
    );
    assert!(
        html.contains("Pawsure Pet Cover (pos), direct"),
        "every brand that sells it"
    );
    assert!(
        html.contains("1 entered, 1 moved on"),
        "sbp's one quote: {html}"
    );
    assert!(
        !html.contains("rcfr), aggregator"),
        "rcfr sells direct only"
    );
    // A date that is not one is a bad request naming it.
    let r = plain
        .get(format!("{url}&from=yesterday"))
        .basic_auth("staff", Some(TOKEN))
        .send()
        .await
        .expect("get");
    assert_eq!(r.status(), 400);
    assert!(r.text().await.expect("text").contains("from"));

    // Without an admin token configured the page does not exist.
    let off = spawn_app().await;
    let r = plain
        .get(format!("{}/internal/funnel", off.base))
        .basic_auth("staff", Some(TOKEN))
        .send()
        .await
        .expect("get");
    assert_eq!(r.status(), 404);
}
