//! An experiment read. Quotes are seeded whose true rates are known (each quote of a
//! variation moves on and buys with a set probability, drawn from a fixed seed), and the report
//! must count them exactly, give intervals that hold the true rates, and find the difference.
//! `pawpath report experiment` and `/internal/funnel` say the same. On SQLite, and on PostgreSQL
//! when `PAWPATH_TEST_DATABASE` names one.

use crate::common;

use common::{TestApp, spawn_app, spawn_app_with};

const ADMIN: &str = "experiment-report-admin-token-0123456789";

/// A small generator with a fixed seed (xorshift64*), so the seeded quotes are the same each run.
struct Draw(u64);

impl Draw {
    fn chance(&mut self, p: f64) -> bool {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let x = self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 11;
        #[allow(clippy::cast_precision_loss)]
        let u = x as f64 / (1u64 << 53) as f64;
        u < p
    }
}

/// What was seeded for one variation.
#[derive(Default, Debug)]
struct Truth {
    saw: u64,
    moved_on: u64,
    bought: u64,
}

/// Seeds `n` quotes of each variation on the direct journey: each sees the choose-policy page
/// with its variation, moves on with probability `moved`, then buys with probability `buy`
/// (given it moved on). Also quotes that never saw the experiment, and one of another journey.
async fn seed(app: &TestApp, n: usize, rates: &[(&str, f64, f64)]) -> Vec<Truth> {
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(&app.database_url)
        .await
        .expect("connect");
    let mut draw = Draw(0x9e37_79b9_7f4a_7c15);
    let mut truths = Vec::new();
    let mut quotes = Vec::new();
    let mut transitions = Vec::new();
    let at = "2026-11-20T10:00:00.000000Z";
    for (k, (variation, moved, buy)) in rates.iter().enumerate() {
        let mut truth = Truth::default();
        for i in 0..n {
            let id = format!("seed{k}{i:06}");
            let moved_on = draw.chance(*moved);
            let bought = moved_on && draw.chance(*buy);
            truth.saw += 1;
            truth.moved_on += u64::from(moved_on);
            truth.bought += u64::from(bought);
            quotes.push((
                id.clone(),
                "direct",
                if bought { "purchased" } else { "active" },
            ));
            let views = format!("[\"cover_type_guide:{variation}\"]");
            // The page shown, with a field error first, then (maybe) the move on.
            transitions.push((
                id.clone(),
                "choose_policy",
                "choose_policy",
                "invalid",
                views.clone(),
            ));
            if moved_on {
                transitions.push((id.clone(), "choose_policy", "review", "moved", views));
            }
            transitions.push((id, "pet_details", "your_details", "moved", "[]".to_owned()));
        }
        truths.push(truth);
    }
    // Quotes that never reached the page, and another journey's quote that did.
    for i in 0..50 {
        quotes.push((format!("never{i:04}"), "direct", "active"));
    }
    quotes.push(("aggregator1".to_owned(), "aggregator", "purchased"));
    transitions.push((
        "aggregator1".to_owned(),
        "choose_policy",
        "review",
        "moved",
        "[\"cover_type_guide:tiles\"]".to_owned(),
    ));
    for chunk in quotes.chunks(200) {
        let values: Vec<String> = chunk
            .iter()
            .map(|(id, journey, lifecycle)| {
                format!(
                    "('{id}', 'REF-{id}', 'session-{id}', 'pos', '{channel}', '{journey}', 'seed', '{lifecycle}', '{{}}', 1, '{at}', '{at}')",
                    channel = if *journey == "aggregator" { "aggregator" } else { "direct" }
                )
            })
            .collect();
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "insert into quotes (id, quote_ref, session_hash, brand, channel, journey, definition_version,
                                 lifecycle, document, row_version, created_at, updated_at) values {}",
            values.join(", ")
        )))
        .execute(&pool)
        .await
        .expect("seed quotes");
    }
    for chunk in transitions.chunks(200) {
        let values: Vec<String> = chunk
            .iter()
            .map(|(id, from, to, outcome, views)| {
                format!(
                    "('{id}', '{at}', 'seed', 'pos', 'direct', 'direct', 'submit:{from}', '{from}', '{to}', '{outcome}', '[]', '[]', '[]', 1, null, '{views}')"
                )
            })
            .collect();
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "insert into step_transitions (quote_id, created_at, definition_version, brand, channel, journey,
                 event, from_step, to_step, outcome, guards, field_errors, blocks, duration_us, pricing,
                 experiment_views) values {}",
            values.join(", ")
        )))
        .execute(&pool)
        .await
        .expect("seed transitions");
    }
    pool.close().await;
    truths
}

fn pawpath(app: &TestApp, args: &[&str]) -> (bool, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_pawpath"))
        .args(args)
        .env("DATABASE_URL", &app.database_url)
        .env("PAWPATH_DATA_DIR", &app.data_dir)
        .env("PAWPATH_DEFINITIONS", &app.definitions_root)
        .output()
        .expect("run pawpath");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[tokio::test]
async fn the_experiment_report_counts_exactly_and_its_intervals_hold_the_true_rates() {
    let app = spawn_app_with(&[("PAWPATH_ADMIN_TOKEN", ADMIN.to_owned())]).await;
    // tiles: 70% move on, 30% of those buy (21% convert); guide: 80% and 45% (36% convert).
    let truths = seed(&app, 1500, &[("tiles", 0.70, 0.30), ("guide", 0.80, 0.45)]).await;
    let (ok, out, err) = pawpath(
        &app,
        &[
            "report",
            "experiment",
            "cover_type_guide",
            "--journey",
            "direct",
        ],
    );
    assert!(ok, "{err}");
    eprintln!("{out}");
    let line = |variation: &str| {
        out.lines()
            .find(|l| l.starts_with(variation))
            .unwrap_or_else(|| panic!("no {variation} line in:\n{out}"))
            .to_owned()
    };
    // Exactly what was seeded: the quotes that never saw it, and the other journey's, are not counted.
    for (variation, truth) in ["tiles", "guide"].iter().zip(&truths) {
        let text = line(variation);
        let fields: Vec<&str> = text.split_whitespace().collect();
        assert_eq!(fields[1], truth.saw.to_string(), "{out}");
        assert_eq!(fields[2], truth.moved_on.to_string(), "{out}");
        assert!(
            line(variation).contains(&format!("  {}  ", truth.bought)),
            "{variation} bought {}:\n{out}",
            truth.bought
        );
    }

    // The intervals, read back from the store, hold the true rates.
    let defs_filter = pawpath::store::report::FunnelFilter {
        journey: "direct".into(),
        brand: None,
        channel: None,
        from: None,
        to: None,
    };
    let store = pawpath::store::Store::connect(&app.database_url)
        .await
        .expect("store");
    let rows = store
        .experiment(
            &defs_filter,
            "cover_type_guide",
            &["tiles".to_owned(), "guide".to_owned()],
        )
        .await
        .expect("experiment");
    store.close().await;
    let holds = |i: pawpath::store::experiments::Interval, p: f64| i.low < p && p < i.high;
    assert!(
        holds(rows[0].conversion_interval().expect("n"), 0.21),
        "{rows:?}"
    );
    assert!(
        holds(rows[1].conversion_interval().expect("n"), 0.36),
        "{rows:?}"
    );
    assert!(
        holds(rows[0].moved_on_interval().expect("n"), 0.70),
        "{rows:?}"
    );
    assert!(
        holds(rows[1].moved_on_interval().expect("n"), 0.80),
        "{rows:?}"
    );
    let differences = pawpath::store::experiments::differences(&rows);
    let (d, interval) = differences[0].conversion.expect("a difference");
    assert!(holds(interval, 0.15), "{d} {interval:?}");
    assert!(
        interval.low > 0.0,
        "the guide converts better, and the interval says so"
    );
    assert!(out.contains("guide − tiles:"), "{out}");
    assert!(
        !out.contains("the interval includes no difference"),
        "{out}"
    );

    // The same on the staff page.
    let page = app
        .client
        .get(format!("{}/internal/funnel?journey=direct", app.base))
        .bearer_auth(ADMIN)
        .send()
        .await
        .expect("get")
        .text()
        .await
        .expect("text");
    assert!(page.contains("cover_type_guide"), "{page}");
    let tiles = &rows[0];
    assert!(
        page.contains(&format!(
            "<th scope=\"row\">tiles</th><td>{}</td><td>{}</td>",
            tiles.saw, tiles.moved_on
        )),
        "{page}"
    );
}

#[tokio::test]
async fn no_difference_is_said_when_the_variations_convert_alike() {
    let app = spawn_app().await;
    seed(&app, 300, &[("tiles", 0.75, 0.40), ("guide", 0.75, 0.40)]).await;
    let (ok, out, err) = pawpath(
        &app,
        &[
            "report",
            "experiment",
            "cover_type_guide",
            "--journey",
            "direct",
        ],
    );
    assert!(ok, "{err}");
    assert!(out.contains("the interval includes no difference"), "{out}");
    // Names the experiment, journey or brand it does not know.
    for (args, says) in [
        (
            &["report", "experiment", "no_such", "--journey", "direct"][..],
            "no experiment \"no_such\"",
        ),
        (
            &[
                "report",
                "experiment",
                "cover_type_guide",
                "--journey",
                "nope",
            ],
            "no journey \"nope\"",
        ),
        (
            &["report", "experiment", "cover_type_guide"],
            "--journey <JOURNEY>",
        ),
        (
            &[
                "report",
                "experiment",
                "cover_type_guide",
                "--journey",
                "direct",
                "--csv",
                "x",
            ],
            "unexpected argument '--csv'",
        ),
    ] {
        let (ok, _, err) = pawpath(&app, args);
        assert!(!ok, "{args:?}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
}
