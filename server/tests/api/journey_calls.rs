//! The journey names each step's and each modal's call: the spec's named calls where
//! the spec names one, and the generic `POST /api/steps/{step}` for a step a product team adds.
//! A new step with its own question set, a blocking answer and a guard, added to a copy of the
//! definitions, is taken by the generic call with the same session, CSRF token, validation,
//! blocking answers and transition record as every other step; `pawpath check` refuses a call a
//! customer would meet broken.

use crate::common::{self, *};

use std::path::Path;

use serde_json::{Value, json};

fn edit_json(path: &Path, edit: impl FnOnce(&mut Value)) {
    let mut value: Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("read")).expect("json");
    edit(&mut value);
    std::fs::write(path, serde_json::to_string_pretty(&value).expect("json")).expect("write");
}

/// The definitions with a step after your details asking whether the pets are registered with a
/// vet (its own question set, in both languages), blocked with its own message when they are not
/// (a guard of its own), named no call.
fn with_your_vet(root: &Path) {
    common::copy_definitions(root);
    std::fs::write(
        root.join("questions/your-vet.json"),
        serde_json::to_string_pretty(&json!({
            "$schema": "./schemas/question-set.schema.json",
            "id": "your_vet",
            "description": "Whether the pets are registered with a vet.",
            "schema": {
                "$id": "pawpath:questions/your_vet",
                "examples": [{ "vet": { "registered": "yes" } }],
                "type": "object",
                "required": ["vet"],
                "properties": {
                    "vet": {
                        "type": "object",
                        "required": ["registered"],
                        "properties": {
                            "registered": {
                                "type": "string",
                                "enum": ["yes", "no"],
                                "x-errors": { "required": "error.required", "enum": "error.required" }
                            }
                        }
                    }
                }
            },
            "ui": { "vet": { "registered": { "ui:title": "vet.registered", "ui:widget": "radio" } } }
        }))
        .expect("json"),
    )
    .expect("write the set");
    for (language, words) in [
        (
            "en-GB",
            [
                ("step.your_vet", "Your vet"),
                ("vet.registered", "Are your pets registered with a vet?"),
                (
                    "vet.blocked",
                    "We can only cover pets registered with a vet. Please call us.",
                ),
            ],
        ),
        (
            "fr-FR",
            [
                ("step.your_vet", "Votre vétérinaire"),
                (
                    "vet.registered",
                    "Vos animaux sont-ils suivis par un vétérinaire ?",
                ),
                (
                    "vet.blocked",
                    "Nous n'assurons que les animaux suivis par un vétérinaire.",
                ),
            ],
        ),
    ] {
        edit_json(
            &root.join(format!("questions/copy/{language}.json")),
            |copy| {
                for (key, text) in words {
                    copy["messages"][key] = json!(text);
                }
            },
        );
    }
    edit_json(&root.join("journeys/guards.json"), |guards| {
        guards["guards"]["pets_not_registered_with_vet"] = json!({
            "description": "The owner said the pets are not registered with a vet.",
            "schema": {
                "type": "object",
                "required": ["vet"],
                "properties": { "vet": { "type": "object", "required": ["registered"], "properties": { "registered": { "const": "no" } } } }
            }
        });
    });
    edit_json(&root.join("journeys/direct.json"), |journey| {
        // In the step bar's "Your details", beside the owner's details.
        journey["step_bar"][1]["steps"]
            .as_array_mut()
            .expect("step bar item")
            .push(json!("your_vet"));
        let steps = journey["steps"].as_array_mut().expect("steps");
        let details = steps
            .iter()
            .position(|s| s["id"] == "your_details")
            .expect("your_details");
        let after = steps[details]["exits"].clone();
        steps[details]["exits"] = json!([{ "to": "your_vet" }]);
        steps.insert(
            details + 1,
            json!({
                "id": "your_vet",
                "path": "/your-vet",
                "title": "step.your_vet",
                "view": "form",
                "questions": "your_vet",
                "blocking": [{
                    "id": "no_vet",
                    "when": "pets_not_registered_with_vet",
                    "message": "vet.blocked",
                    "field": "vet.registered"
                }],
                "exits": after
            }),
        );
    });
}

/// `pawpath paths direct` walks the new step: its answers come from its set's `examples` (no
/// scripted flow fills it), through the generic call, on to the quote and the purchase.
#[test]
fn the_generated_paths_walk_a_new_step_with_its_sets_examples() {
    let dir = tempfile::tempdir().expect("tempdir");
    with_your_vet(dir.path());
    let defs = engine::Definitions::load(&engine::definitions::FsLoader::new(dir.path()))
        .expect("the edited definitions");
    let generated = pawpath::tools::paths::generate_for(
        &defs,
        "direct",
        Some("pos"),
        &repo_root().join("tests/flows"),
        &repo_root().join("server/data/vocalink"),
    )
    .expect("paths");
    let paths = &generated[0].paths;
    let through: Vec<&str> = paths
        .iter()
        .filter(|p| p.calls.iter().any(|c| c.call == "/api/steps/your_vet"))
        .map(|p| p.ends.as_str())
        .collect();
    assert!(through.contains(&"bought"), "{through:?}");
    assert!(
        paths.iter().any(|p| p
            .calls
            .iter()
            .any(|c| c.call == "/api/steps/your_vet" && c.step == "choose_policy")),
        "the example moves the quote on"
    );
}

#[tokio::test]
async fn a_new_step_is_taken_by_the_generic_call_with_its_rules_and_blocking_answer() {
    let dir = tempfile::tempdir().expect("tempdir");
    with_your_vet(dir.path());
    let app = Spawn::new().definitions(dir.path()).start().await;
    app.view("/quote?brand=pos").await;
    assert_eq!(app.save_pets(json!([valid_pet()])).await.0, 200);
    let (status, answer) = app.save_owner(valid_owner()).await;
    assert_eq!(status, 200, "{answer}");
    // The customer is on the new step, whose view names the generic call.
    let data = &answer["data"];
    assert_eq!(data["step"]["id"], "your_vet", "{data}");
    assert_eq!(data["questions"]["submit"], "/api/steps/your_vet", "{data}");

    // The set's schema is the rule: nothing answered is a field error, in the brand's words.
    let csrf = app.csrf().await;
    let (status, answer) = app
        .post_json("/api/steps/your_vet", &json!({ "csrf": csrf, "vet": {} }))
        .await;
    assert_eq!(status, 422, "{answer}");
    assert!(
        answer["errors"]
            .as_array()
            .is_some_and(|e| e.iter().any(|e| e["field"] == "vet.registered")),
        "{answer}"
    );
    // A field the set does not ask is refused, naming it; no CSRF token is refused.
    let (status, answer) = app
        .post_json(
            "/api/steps/your_vet",
            &json!({ "csrf": csrf, "vet": { "registered": "yes" }, "pets": [] }),
        )
        .await;
    assert_eq!(status, 400, "{answer}");
    assert!(
        answer.to_string().contains("unknown field \\\"pets\\\""),
        "{answer}"
    );
    let (status, _) = app
        .post_json(
            "/api/steps/your_vet",
            &json!({ "vet": { "registered": "yes" } }),
        )
        .await;
    assert_eq!(status, 403);

    // The blocking answer: the quote stays on the step, with the step's own message.
    let (status, answer) = app
        .post_json(
            "/api/steps/your_vet",
            &json!({ "csrf": csrf, "vet": { "registered": "no" } }),
        )
        .await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["data"]["step"]["id"], "your_vet", "{answer}");
    let blocks = answer["data"]["step"]["blocks"].to_string();
    assert!(
        blocks.contains("We can only cover pets registered with a vet. Please call us."),
        "{blocks}"
    );
    // Answered otherwise, the customer moves on to the step after it, priced.
    let (status, answer) = app
        .post_json(
            "/api/steps/your_vet",
            &json!({ "csrf": csrf, "vet": { "registered": "yes" } }),
        )
        .await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["data"]["step"]["id"], "choose_policy", "{answer}");
    // Each save is in the transition log under the step, as every named call's is.
    let logged = app
        .sql("select count(*) from step_transitions where event = 'submit:your_vet'")
        .await;
    assert_eq!(
        logged.as_deref(),
        Some("3"),
        "the 422, the block and the move"
    );

    // A step with a named call is taken only by it; an unknown step is not found.
    let (status, answer) = app
        .post_json(
            "/api/steps/pet_details",
            &json!({ "csrf": csrf, "pets": [valid_pet()] }),
        )
        .await;
    assert_eq!(status, 400, "{answer}");
    assert!(answer.to_string().contains("/api/petdetails"), "{answer}");
    for step in ["nowhere", "Your_Vet", "../pet_details"] {
        let (status, answer) = app
            .post_json(&format!("/api/steps/{step}"), &json!({ "csrf": csrf }))
            .await;
        assert!(status == 404 || status == 400, "{step}: {status} {answer}");
    }
}

#[tokio::test]
async fn the_named_calls_come_from_the_journey_files() {
    // Every step and modal of today's journeys names the spec's call for it, and the view data
    // gives the page those calls.
    let app = spawn_app().await;
    app.save_pets(json!([valid_pet()])).await;
    let (_, answer) = app.save_owner(valid_owner()).await;
    let data = &answer["data"];
    assert_eq!(data["step"]["id"], "choose_policy", "{data}");
    assert_eq!(data["questions"]["submit"], "/api/saveCover");
    assert_eq!(data["edits"]["cover"]["submit"], "/api/saveCover");
    let details = app.view("/quote/your-details").await;
    assert_eq!(details["step"]["id"], "your_details", "{details}");
    assert_eq!(details["questions"]["submit"], "/api/ownerdetail");
    assert_eq!(details["edits"]["promo_code"]["submit"], "/api/ownerdetail");
    assert_eq!(
        details["edits"]["existing_policy"]["submit"],
        "/api/CheckExistingPolicy"
    );
}

#[tokio::test]
async fn what_saving_a_modal_sets_on_its_pet_comes_from_the_journey_file() {
    // journey.md §4 Assumptions: "Saving the edit modal sets confirm_assumptions true": the
    // journey's assumptions modal says so (`sets_on_pet`), and the page reads it from the view.
    let app = spawn_app().await;
    app.reach_assumptions(json!([valid_pet()])).await;
    let page = app.view("/quote/assumptions").await;
    assert_eq!(
        page["edits"]["assumptions"]["sets_on_pet"],
        json!({ "confirm_assumptions": true }),
        "{}",
        page["edits"]
    );
    // A modal that sets nothing sends nothing.
    assert!(page["edits"]["start_date"].get("sets_on_pet").is_none());

    // Taken out of the journey file, the page is no longer told to set it.
    let dir = tempfile::tempdir().expect("tempdir");
    copy_definitions(dir.path());
    edit_json(&dir.path().join("journeys/direct.json"), |j| {
        for step in j["steps"].as_array_mut().into_iter().flatten() {
            let edits = step.get_mut("edits").and_then(Value::as_array_mut);
            for edit in edits.into_iter().flatten() {
                edit.as_object_mut().map(|e| e.remove("sets_on_pet"));
            }
        }
    });
    let app = Spawn::new().definitions(dir.path()).start().await;
    app.view("/quote?brand=pos").await;
    app.reach_assumptions(json!([valid_pet()])).await;
    let page = app.view("/quote/assumptions").await;
    assert!(
        page["edits"]["assumptions"].get("sets_on_pet").is_none(),
        "{}",
        page["edits"]
    );
}

/// An edit of direct.json that breaks it.
type Breaks = fn(&mut Value);

fn check(root: &Path) -> (bool, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_pawpath"))
        .args(["check", "--root"])
        .arg(root)
        .output()
        .expect("run pawpath check");
    (
        out.status.success(),
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    )
}

#[test]
fn check_passes_a_new_step_with_no_call_and_refuses_calls_that_would_break() {
    let dir = tempfile::tempdir().expect("tempdir");
    with_your_vet(dir.path());
    let (ok, out) = check(dir.path());
    assert!(ok, "{out}");

    let cases: [(&str, Breaks, &str); 4] = [
        (
            "a call the server does not have",
            |j| j["steps"][0]["call"] = json!("/api/petdetialz"),
            "journeys/direct.json at /steps/0/call: no call \"/api/petdetialz\" takes answers",
        ),
        (
            "a call that does not take the set's answers",
            |j| j["steps"][2]["call"] = json!("/api/setup-payment"),
            "journeys/direct.json at /steps/2/call: /api/setup-payment takes its answers in payment, but question set \"your_details\" asks owner",
        ),
        (
            "a call of its own for another set",
            |j| j["steps"][2]["edits"][0]["call"] = json!("/api/noquotechaseemail"),
            "journeys/direct.json at /steps/2/edits/0/call: /api/noquotechaseemail saves question set \"quote_reminder\" only, not \"promo_code\"",
        ),
        (
            "two steps through one call",
            |j| j["steps"][0]["call"] = json!("/api/saveDeclaration"),
            "steps \"pet_details\" and \"assumptions\" both take their answers through /api/saveDeclaration",
        ),
    ];
    for (what, edit, expected) in cases {
        let broken = tempfile::tempdir().expect("tempdir");
        common::copy_definitions(broken.path());
        edit_json(&broken.path().join("journeys/direct.json"), edit);
        let (ok, out) = check(broken.path());
        assert!(!ok, "{what}: check passed");
        assert!(out.contains(expected), "{what}: {out}");
    }
}

/// The page that could not be drawn reports it, from the quote's
/// own page only, each field bounded, counted in /metrics, a few a session; nothing is stored.
#[tokio::test]
async fn a_page_that_could_not_be_drawn_is_reported_and_counted() {
    let token = "render-metrics-token-0123456789abcdef";
    let app = spawn_app_with(&[("PAWPATH_METRICS_TOKEN", token.to_owned())]).await;
    app.view("/quote?brand=pos").await;
    let csrf = app.csrf().await;
    let report = json!({ "csrf": csrf, "step": "your_vet", "message": "no validator", "trail": "at FormStep" });
    let before = app.sql("select count(*) from step_transitions").await;
    let (status, answer) = app.post_json("/api/render-errors", &report).await;
    assert_eq!(status, 204, "{answer}");
    assert_eq!(
        app.sql("select count(*) from step_transitions").await,
        before
    );
    // No CSRF token, an unknown field and an overlong message are refused, naming the problem.
    let mut no_token = report.clone();
    no_token.as_object_mut().expect("object").remove("csrf");
    assert_eq!(app.post_json("/api/render-errors", &no_token).await.0, 403);
    let mut extra = report.clone();
    extra["stack"] = json!("x");
    let (status, answer) = app.post_json("/api/render-errors", &extra).await;
    assert_eq!(status, 400, "{answer}");
    assert!(answer.to_string().contains("stack"), "{answer}");
    let mut long = report.clone();
    long["message"] = json!("x".repeat(301));
    let (status, answer) = app.post_json("/api/render-errors", &long).await;
    assert_eq!(status, 400, "{answer}");
    assert!(
        answer.to_string().contains("message must be at most 300"),
        "{answer}"
    );
    let counted = app
        .metric(token, "pawpath_render_errors_total")
        .await
        .expect("counted");
    assert!(counted >= 1.0, "{counted}");
    // A visitor cannot fill the log: past a few reports a session, the rest are refused (and
    // neither logged nor counted: the metric is the process's, shared with the tests running
    // beside this one, so only the answers are counted here).
    let mut statuses = Vec::new();
    for _ in 0..15 {
        let csrf = app.csrf().await;
        let mut again = report.clone();
        again["csrf"] = json!(csrf);
        statuses.push(app.post_json("/api/render-errors", &again).await.0);
    }
    assert_eq!(
        statuses.iter().filter(|s| **s == 204).count(),
        9,
        "{statuses:?}"
    );
    assert!(statuses[9..].iter().all(|s| *s == 429), "{statuses:?}");
    let after = app
        .metric(token, "pawpath_render_errors_total")
        .await
        .expect("counted");
    assert!(after >= counted + 9.0, "{after} after {counted}");
}

/// The definitions with a direct-only variant of the assumptions set (`extends`), asking one more
/// question whose "yes" blocks with its own message, bound to the assumptions role on the
/// assumptions and review pages.
fn with_direct_assumptions(root: &Path) {
    common::copy_definitions(root);
    let base: Value = serde_json::from_str(
        &std::fs::read_to_string(root.join("questions/assumptions.json")).expect("read"),
    )
    .expect("json");
    let mut required = base["schema"]["properties"]["pets"]["items"]["required"].clone();
    required
        .as_array_mut()
        .expect("required")
        .push(json!("pet_show_dog"));
    std::fs::write(
        root.join("questions/assumptions-direct.json"),
        serde_json::to_string_pretty(&json!({
            "$schema": "./schemas/question-set.schema.json",
            "id": "assumptions_direct",
            "description": "The direct journey's assumptions: the shared ones and whether the pet is shown.",
            "extends": "assumptions",
            "patch": {
                "schema": {
                    "properties": { "pets": { "items": {
                        "required": required,
                        "properties": { "pet_show_dog": {
                            "type": "string", "enum": ["yes", "no"], "default": "no",
                            "not": { "const": "yes" },
                            "x-errors": { "not": "assumptions.show_dog.refused" }
                        } }
                    } } }
                },
                "ui": { "pets": { "items": { "pet_show_dog": {
                    "ui:title": "assumptions.show_dog.label", "ui:widget": "yesNo",
                    "ui:enumNames": ["common.yes", "common.no"], "ui:options": { "refusal": true }
                } } } }
            }
        }))
        .expect("json"),
    )
    .expect("write the variant");
    for (language, label, refused) in [
        (
            "en-GB",
            "Is your pet shown or entered in competitions?",
            "We can't cover pets that are shown or compete.",
        ),
        (
            "fr-FR",
            "Votre animal participe-t-il à des concours ?",
            "Nous n'assurons pas les animaux de concours.",
        ),
    ] {
        edit_json(
            &root.join(format!("questions/copy/{language}.json")),
            |copy| {
                copy["messages"]["assumptions.show_dog.label"] = json!(label);
                copy["messages"]["assumptions.show_dog.refused"] = json!(refused);
            },
        );
    }
    edit_json(&root.join("journeys/direct.json"), |journey| {
        for step in journey["steps"].as_array_mut().expect("steps") {
            if step["questions"] == "assumptions" {
                step["questions"] = json!("assumptions_direct");
            }
            let edits = step.get_mut("edits").and_then(Value::as_array_mut);
            for edit in edits.into_iter().flatten() {
                if edit["questions"] == "assumptions" {
                    edit["questions"] = json!("assumptions_direct");
                    edit["role"] = json!("assumptions");
                }
            }
        }
    });
}

/// A variant set stands in for the one the pages were built around. The
/// assumptions page asks its extra question and blocks on it with its message; the review's
/// change button finds the variant in the assumptions role and saves it.
#[tokio::test]
async fn a_direct_only_variant_of_the_assumptions_plays_their_role() {
    let dir = tempfile::tempdir().expect("tempdir");
    with_direct_assumptions(dir.path());
    let app = Spawn::new().definitions(dir.path()).start().await;
    app.view("/quote?brand=pos").await;
    app.reach_assumptions(json!([valid_pet()])).await;
    let page = app.view("/quote/assumptions").await;
    assert_eq!(page["questions"]["id"], "assumptions_direct", "{page}");
    assert_eq!(page["edits"]["assumptions"]["id"], "assumptions_direct");
    let csrf = app.csrf().await;
    let shown = json!([dog_answers().as_object().cloned().map(|mut a| {
        a.insert("pet_show_dog".into(), json!("yes"));
        a
    })]);
    let (status, answer) = app
        .post_json(
            "/api/saveDeclaration",
            &json!({ "csrf": csrf, "pets": shown }),
        )
        .await;
    assert_eq!(status, 422, "{answer}");
    assert!(
        answer["errors"]
            .as_array()
            .is_some_and(|e| e.iter().any(|e| e["field"] == "pets[0].pet_show_dog"
                && e["message"] == "We can't cover pets that are shown or compete.")),
        "{answer}"
    );
    // The review reads the variant in the assumptions role, and saving it there works.
    let review = app.view("/quote/review").await;
    let edit = &review["edits"]["assumptions"];
    assert_eq!(edit["id"], "assumptions_direct", "{}", review["edits"]);
    let mut pet = dog_answers();
    pet["pet_show_dog"] = json!("no");
    let (status, answer) = app
        .post_json(
            edit["submit"].as_str().expect("the modal's call"),
            &json!({ "csrf": csrf, "form": "assumptions_direct", "pets": [pet.clone()] }),
        )
        .await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["data"]["pets"][0]["pet_show_dog"], "no", "{answer}");
    let (status, answer) = app
        .post_json(
            "/api/saveDeclaration",
            &json!({ "csrf": csrf, "pets": [pet] }),
        )
        .await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["data"]["step"]["id"], "payment", "{answer}");
}

/// The monthly price the review shows for one dog, not neutered, on the definitions `app` serves.
async fn monthly_for_an_unneutered_dog(app: &TestApp) -> rust_decimal::Decimal {
    app.view("/quote?brand=pos").await;
    let mut pet = valid_pet();
    pet["pet_neutered"] = json!("no");
    app.reach_assumptions(json!([pet])).await;
    let review = app.view("/quote/review").await;
    let monthly = review["summary"]["monthly"]
        .as_str()
        .or_else(|| review["summary"]["total_monthly"].as_str())
        .unwrap_or_else(|| panic!("a monthly price: {}", review["summary"]));
    monthly.parse().expect("a price")
}

/// The price-factor recipe (journeys/README.md): a product team changes one factor in
/// `journeys/products/rates.json` (a dog not neutered: 1.08 to 1.20) and a new quote is priced by
/// it, the rest of the price as it was.
#[tokio::test]
async fn a_price_factor_changed_in_the_rates_prices_new_quotes_by_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    common::copy_definitions(dir.path());
    edit_json(&dir.path().join("journeys/products/rates.json"), |rates| {
        assert_eq!(rates["neutered"]["no"], "1.08");
        rates["neutered"]["no"] = json!("1.20");
    });
    let before = monthly_for_an_unneutered_dog(&spawn_app().await).await;
    let changed = Spawn::new().definitions(dir.path()).start().await;
    let after = monthly_for_an_unneutered_dog(&changed).await;
    let ratio = after / before;
    let expected = rust_decimal::Decimal::new(120, 2) / rust_decimal::Decimal::new(108, 2);
    assert!(
        (ratio - expected).abs() < rust_decimal::Decimal::new(5, 3),
        "{before} -> {after}: {ratio}, not {expected}"
    );
}
