//! A bought quote (owner-payment.md §1: "After purchase they see a confirmation, can register a
//! portal password, and can set marketing and communication preferences"): what it still takes,
//! and that nothing it takes moves the price its policies were bought at.

use std::path::Path;

use chrono::NaiveDate;
use engine::Definitions;
use engine::definitions::{FsLoader, Loader, MemoryLoader};
use engine::journey::runtime::{self, Event, Lifecycle, Outcome};
use engine::rules::context::RuleContext;
use serde_json::{Value, json};

fn ctx() -> RuleContext {
    RuleContext {
        today: NaiveDate::from_ymd_opt(2026, 11, 22).expect("date"),
        brand: "pos".into(),
        bank: None,
        rate_scheme: None,
    }
}

/// A dog priced on the definitions, as a quote bought with it holds it.
fn priced_dog(defs: &Definitions) -> Value {
    let mut doc = json!({
        "pets": [{
            "pet_name": "Rex", "pet_type": "dog", "dog_breed_type": "crossbreed", "pet_breed": "D406",
            "pet_date_of_birth": "2023-06-01", "pet_sex": "m", "pet_neutered": "yes", "pet_cost": "1200",
            "pet_any_injury_illness": "no", "confirm_crossbreed": true, "confirm_assumptions": true
        }],
        "owner": { "pet_policy_start_date": "2026-12-01", "customer_postcode": "SW1A 1AA" }
    });
    engine::rules::domain::derive_pet_fields(defs, &mut doc);
    engine::journey::quoting::requote(defs, &mut doc, &ctx());
    doc
}

/// owner-payment.md §1 ("After purchase they ... can set marketing and communication
/// preferences"): a bought quote takes only the confirmation page's modals, and only answers that
/// leave what its policies were priced from as bought. A journey whose confirmation offered the
/// start date would let a bought policy's price drift: the lifecycle refuses such a change.
#[test]
fn a_bought_quote_takes_no_answer_its_price_was_worked_out_from() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = FsLoader::new(root).files().expect("repository files");
    let (_, direct) = files
        .iter_mut()
        .find(|(name, _)| name == "journeys/direct.json")
        .expect("the direct journey");
    let mut journey: Value = serde_json::from_str(direct).expect("json");
    let confirmation = journey["steps"]
        .as_array_mut()
        .expect("steps")
        .iter_mut()
        .find(|s| s["terminal"] == true)
        .expect("a terminal step");
    confirmation["edits"]
        .as_array_mut()
        .expect("edits")
        .push(json!({ "questions": "start_date", "call": "/api/ownerdetail" }));
    *direct = journey.to_string();
    let (_, views) = files
        .iter_mut()
        .find(|(name, _)| name == "journeys/views.json")
        .expect("the views");
    let mut manifest: Value = serde_json::from_str(views).expect("json");
    manifest["views"]["confirmation"]["roles"]["start_date"] = json!({ "description": "test" });
    *views = manifest.to_string();
    let defs = Definitions::load(&MemoryLoader { files }).expect("the changed definitions");

    let doc = priced_dog(&defs);
    assert!(doc.get("quoted").is_some(), "priced");
    let edit = |start: &str| Event::Edit {
        questions: "start_date".into(),
        answers: json!({ "owner": { "pet_policy_start_date": start } }),
    };
    let moved = runtime::transition(
        &defs,
        "direct",
        &doc,
        Lifecycle::Purchased,
        &edit("2026-12-20"),
        ctx(),
    )
    .expect("runs");
    assert_eq!(moved.record.outcome, Outcome::RefusedByLifecycle);
    assert_eq!(moved.document, doc, "nothing changed");
    assert!(moved.effects.is_empty());

    let same = runtime::transition(
        &defs,
        "direct",
        &doc,
        Lifecycle::Purchased,
        &edit("2026-12-01"),
        ctx(),
    )
    .expect("runs");
    assert_eq!(
        same.record.outcome,
        Outcome::Moved,
        "the same answer changes no price"
    );
    assert_eq!(same.lifecycle, Lifecycle::Purchased);

    // The confirmation's own preferences are taken, and the bought quote stays bought.
    let prefs = Event::Edit {
        questions: "communications".into(),
        answers: json!({ "owner": { "documents_by_post": true } }),
    };
    let saved = runtime::transition(&defs, "direct", &doc, Lifecycle::Purchased, &prefs, ctx())
        .expect("runs");
    assert_eq!(saved.record.outcome, Outcome::Moved);
    assert_eq!(saved.document["owner"]["documents_by_post"], true);
    assert_eq!(
        saved.document["quoted"], doc["quoted"],
        "the prices as bought"
    );
    assert_eq!(saved.record.to, "confirmation");
    // A modal only an open quote's pages offer: refused.
    let details = Event::Edit {
        questions: "promo_code".into(),
        answers: json!({ "owner": { "promotional_code": "PAW10" } }),
    };
    let refused = runtime::transition(&defs, "direct", &doc, Lifecycle::Purchased, &details, ctx())
        .expect("runs");
    assert_eq!(refused.record.outcome, Outcome::RefusedByLifecycle);
}
