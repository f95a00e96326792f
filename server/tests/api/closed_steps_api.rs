//! Answers for a step the quote cannot open yet, or for a form no open step offers,
//! are refused with 409 `step_closed`, naming the step (or form) and the guards that keep it
//! closed, and change nothing: the quote row, its document and its `row_version` stay as they
//! were. The refusal is still logged (`refused_by_guard`). Every call that saves answers, on a
//! new quote of every journey (direct, aggregator, rehoming, annual rehoming), and the purchase.

use crate::common;

use common::*;
use serde_json::{Value, json};

/// The page a new quote of each journey starts on, and how to get one.
async fn new_quote(app: &TestApp, journey: &str) -> &'static str {
    match journey {
        "direct" => {
            app.view("/quote?brand=pos").await;
            "/quote"
        }
        "aggregator" => {
            app.view("/aggregators/quote?brand=pos").await;
            "/aggregators/quote"
        }
        "rehoming" => {
            app.view("/rehoming?brand=rsp").await;
            "/rehoming?brand=rsp"
        }
        "annual_rehoming" => {
            // The annual offer opens from a bought free cover's link, in a new quote.
            let link = rehoming_bought(app).await;
            let r = app
                .client
                .get(format!("{}{link}", app.base))
                .send()
                .await
                .expect("link");
            assert_eq!(r.url().path(), "/annual-rehoming/pet-details");
            "/annual-rehoming/pet-details?brand=rsp"
        }
        other => panic!("no journey {other}"),
    }
}

const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05\x18\xd8N\x00\x00\x00\x00IEND\xaeB`\x82";

async fn post_ok(app: &TestApp, path: &str, page: &str, mut body: Value) -> Value {
    body["csrf"] = app.view(page).await["csrf"].clone();
    let (status, answer) = app.post_json(path, &body).await;
    assert_eq!(status, 200, "{path}: {answer}");
    answer
}

/// Free rehoming cover activated: the annual offer's link (its path).
async fn rehoming_bought(app: &TestApp) -> String {
    use base64::Engine as _;
    app.view("/rehoming?brand=rsp").await;
    post_ok(
        app,
        "/api/rehomingeligibility",
        "/rehoming?brand=rsp",
        body_for("/api/rehomingeligibility", ""),
    )
    .await;
    let certificate = format!(
        "data:image/png;name=certificate.png;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(PNG)
    );
    post_ok(
        app,
        "/api/postpetdetails",
        "/rehoming/your-pet?brand=rsp",
        json!({ "pets": [{
            "pet_name": "Pip", "pet_type": "cat", "cat_breed_type": "C286", "pet_breed": "C286",
            "pet_date_of_birth": "2024-05-10", "pet_sex": "f", "pet_neutered": "yes",
            "rehoming_certificate_number": "HRS-55120", "rehoming_certificate": certificate,
        }] }),
    )
    .await;
    post_ok(
        app,
        "/api/ownerdetail",
        "/rehoming/your-details?brand=rsp",
        json!({ "owner": valid_owner() }),
    )
    .await;
    let answer = post_ok(
        app,
        "/api/confirmationrescue",
        "/rehoming/confirmation?brand=rsp",
        json!({}),
    )
    .await;
    let link = answer["data"]["rescue"]["annual_link"]
        .as_str()
        .expect("annual link");
    link[link.find("/annual-rehoming/start/").expect("path")..].to_owned()
}

/// The row of the session's active quote: its version and document.
async fn row(app: &TestApp) -> (String, String) {
    let version = app
        .sql("select row_version from quotes where lifecycle = 'active'")
        .await
        .expect("a quote");
    let document = app
        .sql("select document from quotes where lifecycle = 'active'")
        .await
        .expect("a quote");
    (version, document)
}

/// A body with something in each answer field, so nothing is refused for being empty.
fn body_for(call: &str, csrf: &str) -> Value {
    let mut body = match call {
        "/api/petdetails" | "/api/saveDeclaration" | "/api/postpetdetails" => {
            json!({ "pets": [valid_pet()] })
        }
        "/api/petownerdetails" => json!({ "pets": [{ "confirm_crossbreed": true }] }),
        "/api/ownerdetail" => json!({ "owner": valid_owner() }),
        "/api/saveCover" => json!({ "pets": [{ "product": { "Code": "LT04000" } }] }),
        "/api/setup-payment" => json!({ "payment": {
            "payment_method": "DD", "payment_frequency": "MP", "account_name": "Ada O'Neill",
            "sort_code": "08-99-99", "account_number": "66374958", "payment_day": 15, "dd_confirmation": true
        } }),
        "/api/rehomingeligibility" => json!({ "rehoming": {
            "centre": "RSPBRI01", "rehome_date": (uk_today() - chrono::Days::new(2)).to_string(),
            "uk_resident": "yes", "already_insured": "no",
        } }),
        "/api/noquotechaseemail" => json!({ "noquotechaseemail": true }),
        "/api/saveportalpassword" => json!({
            "email": "ada@example.com", "password": "correct-horse-9", "password_confirmation": "correct-horse-9"
        }),
        "/api/purchase" => json!({ "idempotency_key": "closed-0001" }),
        other => panic!("no body for {other}"),
    };
    body["csrf"] = json!(csrf);
    body
}

/// Posts to `call` and, where the answer is a refusal of a closed step, checks it and that the
/// quote is as it was. Returns the refusal's body, or None where the call's step was open.
async fn try_closed(app: &TestApp, page: &str, call: &str, form: Option<&str>) -> Option<Value> {
    let csrf = app.view(page).await["csrf"]
        .as_str()
        .expect("csrf")
        .to_owned();
    let mut body = body_for(call, &csrf);
    // The calls that save several forms are told which; the others save one.
    let defs =
        engine::Definitions::load(&engine::definitions::FsLoader::new(repo_root())).expect("defs");
    let taken = pawpath::service::view::sets_taken_by(&defs, call);
    let several = taken.forms.len() + taken.modals.len() > 1;
    if let (Some(form), true) = (form, several) {
        body["form"] = json!(form);
    }
    let before = row(app).await;
    let logged = app
        .sql("select count(*) from step_transitions where outcome = 'refused_by_guard'")
        .await;
    let (status, answer) = app.post_json(call, &body).await;
    if status != 409 || answer["error"] != "step_closed" {
        return None;
    }
    assert_eq!(
        row(app).await,
        before,
        "{call} {form:?}: a refused call changes nothing"
    );
    let logged_after = app
        .sql("select count(*) from step_transitions where outcome = 'refused_by_guard'")
        .await;
    // The engine's refusals are logged; the portal password is not the engine's.
    if call != "/api/saveportalpassword" {
        assert_ne!(logged, logged_after, "{call}: the refusal is logged");
    }
    let message = answer["message"].as_str().expect("message");
    assert!(message.contains("Nothing was stored"), "{message}");
    Some(answer)
}

/// Every step of `journey` that takes answers through a call, except the one it starts on, and
/// every form its steps offer: all refused on a new quote, naming what was asked for.
async fn every_closed_step(journey_id: &str, journey: &str) {
    let app = spawn_app().await;
    let page = new_quote(&app, journey).await;
    let defs =
        engine::Definitions::load(&engine::definitions::FsLoader::new(repo_root())).expect("defs");
    let definition = defs.journey(journey_id).expect("journey");
    let mut refused = 0;
    for step in &definition.steps {
        let Some(questions) = step.questions.as_deref() else {
            continue;
        };
        let call = &step.call();
        // The first step a call reaches is the one it submits.
        let first = definition
            .steps
            .iter()
            .find(|s| s.questions.as_deref() == Some(questions))
            .expect("step");
        if first.id != step.id || step.id == definition.start {
            continue;
        }
        let answer = try_closed(&app, page, call, None)
            .await
            .unwrap_or_else(|| panic!("{journey}: {call} for {} was not refused", step.id));
        assert_eq!(answer["step"], json!(step.id), "{answer}");
        assert!(answer["guards"].is_array(), "{answer}");
        refused += 1;
    }
    for step in &definition.steps {
        for edit in &step.edits {
            let call = &step.edit_call(edit);
            // The existing policy check looks the policy up first and stores only one it finds
            // (owner-payment.md §7; codes_api.rs).
            if call == "/api/CheckExistingPolicy" {
                continue;
            }
            // A form the first step offers is open from the start.
            if step.id == definition.start {
                continue;
            }
            let answer = try_closed(&app, page, call, Some(&edit.questions))
                .await
                .unwrap_or_else(|| {
                    panic!("{journey}: {call} form {} was not refused", edit.questions)
                });
            assert_eq!(answer["form"], json!(edit.questions), "{answer}");
            refused += 1;
        }
    }
    // Buying before the payment details: refused the same way.
    let answer = try_closed(&app, page, "/api/purchase", None)
        .await
        .unwrap_or_else(|| panic!("{journey}: the purchase was not refused"));
    assert!(answer["step"].is_string(), "{answer}");
    assert!(refused >= 2, "{journey}: {refused} closed steps tried");
    println!("{journey}: {refused} closed steps and forms refused, and the purchase");
}

#[tokio::test]
async fn direct_closed_steps_are_refused_and_change_nothing() {
    every_closed_step("direct", "direct").await;
}

#[tokio::test]
async fn aggregator_closed_steps_are_refused_and_change_nothing() {
    every_closed_step("aggregator", "aggregator").await;
}

#[tokio::test]
async fn rehoming_closed_steps_are_refused_and_change_nothing() {
    every_closed_step("rehoming", "rehoming").await;
}

#[tokio::test]
async fn annual_rehoming_closed_steps_are_refused_and_change_nothing() {
    every_closed_step("annual_rehoming", "annual_rehoming").await;
}

/// The issue's own case: owner details posted while the first pet's assumptions are not
/// confirmed. Refused naming the step and the guard; the owner is not stored.
#[tokio::test]
async fn owner_details_before_the_assumptions_are_confirmed_are_refused() {
    let app = spawn_app().await;
    let (status, _) = app.save_pets(json!([valid_pet()])).await;
    assert_eq!(status, 200);
    app.sql("update quotes set document = replace(document, '\"confirm_assumptions\":true', '\"confirm_assumptions\":false')")
        .await;
    let before = row(&app).await;
    let (status, answer) = app.save_owner(valid_owner()).await;
    assert_eq!(status, 409, "{answer}");
    assert_eq!(answer["error"], "step_closed");
    assert_eq!(answer["step"], "your_details");
    assert!(
        answer["guards"].as_array().is_some_and(|g| !g.is_empty()),
        "{answer}"
    );
    assert_eq!(row(&app).await, before);
}
