//! The pet details call (journey.md §7 /api/petdetails) driven over HTTP against a real server
//! and database. Each rule names the spec section that states it.

use crate::common;

use chrono::Duration;
use common::{spawn_app, uk_today, valid_pet, with_form};
use serde_json::{Value, json};

fn pet_with(field: &str, value: Value) -> Value {
    let mut pet = valid_pet();
    pet[field] = value;
    pet
}

fn pet_without(field: &str) -> Value {
    let mut pet = valid_pet();
    pet.as_object_mut().expect("object").remove(field);
    pet
}

#[tokio::test]
async fn a_new_visitor_gets_a_quote_a_session_cookie_and_the_first_step() {
    let app = spawn_app().await;
    let r = app
        .client
        .get(format!("{}/quote", app.base))
        .header("Accept", "application/json")
        .send()
        .await
        .expect("get");
    let cookie = r
        .headers()
        .get("set-cookie")
        .expect("a session cookie")
        .to_str()
        .expect("text")
        .to_owned();
    assert!(
        cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"),
        "{cookie}"
    );
    let csp = r
        .headers()
        .get("content-security-policy")
        .expect("CSP")
        .to_str()
        .expect("text")
        .to_owned();
    assert!(
        !csp.contains("unsafe-eval") && csp.contains("script-src 'self'"),
        "{csp}"
    );
    let data = r.json::<Value>().await.expect("json")["data"].clone();
    assert_eq!(data["step"]["id"], "pet_details");
    assert_eq!(data["step"]["path"], "/quote");
    let version = data["copy_url"]
        .as_str()
        .and_then(|u| u.split('/').nth(3))
        .expect("version");
    assert_eq!(
        data["questions"]["form"],
        format!("/quote/definitions/{version}/questions/pos/en-GB/pet_details")
    );
    let questions = with_form(&app.base, &data["questions"]).await;
    assert_eq!(questions["schema"]["$id"], "pawpath:questions/pet_details");
    assert_eq!(data["questions"]["submit"], "/api/petdetails");
    assert_eq!(
        data["questions"]["answers"]["pets"],
        json!([{}]),
        "one empty pet slot to fill"
    );
    assert_eq!(
        questions["ui"]["pets"]["items"]["pet_name"]["ui:title"], "What is your pet's name?",
        "copy keys are localised"
    );
    let bar: Vec<(u64, String, String)> = data["step_bar"]
        .as_array()
        .expect("bar")
        .iter()
        .map(|b| {
            (
                b["number"].as_u64().expect("n"),
                b["label"].as_str().expect("l").into(),
                b["status"].as_str().expect("s").into(),
            )
        })
        .collect();
    assert_eq!(
        bar,
        vec![
            (1, "Your pets".into(), "current".into()),
            (2, "Your details".into(), "incomplete".into()),
            (3, "Quote".into(), "incomplete".into()),
            (4, "Review & Pay".into(), "incomplete".into()),
            (5, "Confirmation".into(), "incomplete".into()),
        ],
        "journey.md §2 step bar"
    );
    assert!(
        data["qidu"].as_str().is_some_and(|q| q.len() == 14),
        "a quote reference"
    );
}

/// journey.md §3 Pet: "pet_cost (may carry a currency prefix)". The brand's own
/// symbol is taken and the number stored, on the server as in the browser; another currency's
/// symbol is refused with the spec's message.
#[tokio::test]
async fn a_pet_cost_with_the_brands_currency_symbol_is_stored_as_the_number() {
    for (brand, typed) in [("pos", "£250"), ("pos", " £ 250.50"), ("rcfr", "250 €")] {
        let app = spawn_app().await;
        app.view(&format!("/quote?brand={brand}")).await;
        let mut pet = valid_pet();
        pet["pet_cost"] = json!(typed);
        let (status, body) = app.save_pets(json!([pet])).await;
        assert_eq!(status, 200, "{brand} {typed:?}: {body}");
        let stored = app.stored_pets().await[0]["pet_cost"].clone();
        assert_eq!(
            stored,
            typed.trim().trim_matches(['£', '€']).trim(),
            "{brand} {typed:?}"
        );
    }
    let app = spawn_app().await;
    let mut pet = valid_pet();
    pet["pet_cost"] = json!("€250");
    let (status, body) = app.save_pets(json!([pet])).await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(body["errors"][0]["field"], "pets[0].pet_cost");
    assert_eq!(body["errors"][0]["message"], "Please enter a valid number");
}

#[tokio::test]
async fn a_valid_pet_is_saved_and_the_quote_moves_to_your_details() {
    let app = spawn_app().await;
    let (status, body) = app.save_pets(json!([valid_pet()])).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["outcome"], "moved");
    assert_eq!(body["data"]["step"]["id"], "your_details");
    assert_eq!(body["data"]["step"]["path"], "/quote/your-details");
    assert_eq!(body["data"]["pets"][0]["pet_name"], "Biscuit");
    // journey.md §2: the first step is now completed and clickable, the second current.
    assert_eq!(body["data"]["step_bar"][0]["status"], "completed");
    assert_eq!(body["data"]["step_bar"][0]["clickable"], true);
    assert_eq!(body["data"]["step_bar"][1]["status"], "current");

    let page = app.view("/quote/your-details").await;
    assert_eq!(
        page["step"]["id"], "your_details",
        "the step is open on reload"
    );
    assert_eq!(app.stored_pets().await[0]["pet_cost"], "450.00");
    // journey.md §4 Policy start date: an adult dog can start today, tomorrow or later.
    let today = uk_today();
    assert_eq!(
        page["start_date"]["earliest"],
        today.format("%Y-%m-%d").to_string()
    );
    assert_eq!(
        page["start_date"]["latest"],
        (today + Duration::days(30)).format("%Y-%m-%d").to_string()
    );
    assert_eq!(
        page["start_date"]["options"],
        json!(["today", "tomorrow", "other"])
    );
}

#[tokio::test]
async fn norequote_saves_the_same_way_and_other_values_are_refused() {
    let app = spawn_app().await;
    let csrf = app.csrf().await;
    let (status, body) = app
        .post_json(
            "/api/petdetails?norequote=1",
            &json!({ "csrf": csrf, "pets": [valid_pet()] }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = app
        .post_json(
            "/api/petdetails?norequote=yes",
            &json!({ "csrf": csrf, "pets": [valid_pet()] }),
        )
        .await;
    assert_eq!(status, 400, "{body}");
    assert!(
        body["message"]
            .as_str()
            .expect("message")
            .contains("norequote")
    );
}

#[tokio::test]
async fn every_invalid_field_is_refused_with_the_spec_message_and_nothing_is_stored() {
    let today = uk_today();
    let ymd = |d: chrono::NaiveDate| d.format("%Y-%m-%d").to_string();
    let cases: Vec<(&str, Value, &str, &str)> = vec![
        // journey.md §5 Pet form: pet_name
        (
            "§5 pet_name required",
            pet_without("pet_name"),
            "pets[0].pet_name",
            "This field is required",
        ),
        (
            "§5 pet_name special characters",
            pet_with("pet_name", json!("Rex!")),
            "pets[0].pet_name",
            "Your pet's name cannot contain special characters",
        ),
        (
            "§5 pet_name too short",
            pet_with("pet_name", json!("R")),
            "pets[0].pet_name",
            "Your pet's name cannot be less than two characters or more than 40",
        ),
        (
            "§5 pet_name too long",
            pet_with("pet_name", json!("R".repeat(41))),
            "pets[0].pet_name",
            "Your pet's name cannot be less than two characters or more than 40",
        ),
        // journey.md §5 Pet form: required fields
        (
            "§5 pet_type required",
            pet_without("pet_type"),
            "pets[0].pet_type",
            "This field is required",
        ),
        (
            "§5 pet_type dog, cat or rabbit",
            pet_with("pet_type", json!("hamster")),
            "pets[0].pet_type",
            "Please enter a valid value",
        ),
        (
            "§5 pet_sex required",
            pet_without("pet_sex"),
            "pets[0].pet_sex",
            "This field is required",
        ),
        (
            "§5 pet_neutered required",
            pet_without("pet_neutered"),
            "pets[0].pet_neutered",
            "This field is required",
        ),
        (
            "§5 pet_any_injury_illness required on the direct journey",
            pet_without("pet_any_injury_illness"),
            "pets[0].pet_any_injury_illness",
            "This field is required",
        ),
        // journey.md §5 Pet form: pet_date_of_birth
        (
            "§5 pet_date_of_birth required",
            pet_without("pet_date_of_birth"),
            "pets[0].pet_date_of_birth",
            "This field is required",
        ),
        (
            "§5 pet_date_of_birth at least 10 characters",
            pet_with("pet_date_of_birth", json!("2023-4-1")),
            "pets[0].pet_date_of_birth",
            "Please check your date is in the following format (DD/MM/YYYY)",
        ),
        (
            "§5 pet_date_of_birth strict valid date",
            pet_with("pet_date_of_birth", json!("2023-02-29")),
            "pets[0].pet_date_of_birth",
            "Please enter a valid date",
        ),
        (
            "§5 Age rule: at least 26 days at cover start",
            pet_with("pet_date_of_birth", json!(ymd(today - Duration::days(25)))),
            "pets[0].pet_date_of_birth",
            "New cover is only available for pets from 8 weeks old",
        ),
        (
            "§5 Age rule: a date of birth in the future",
            pet_with("pet_date_of_birth", json!(ymd(today + Duration::days(3)))),
            "pets[0].pet_date_of_birth",
            "New cover is only available for pets from 8 weeks old",
        ),
        (
            "§5 Age rule: dogs younger than 8 years",
            pet_with(
                "pet_date_of_birth",
                json!(ymd(today - Duration::days(8 * 366))),
            ),
            "pets[0].pet_date_of_birth",
            "New cover is only available for pets from 8 weeks old up to 8 years old",
        ),
        // journey.md §5 Pet form: pet_cost
        (
            "§5 pet_cost required",
            pet_without("pet_cost"),
            "pets[0].pet_cost",
            "This field is required",
        ),
        (
            "§5 pet_cost empty",
            pet_with("pet_cost", json!("")),
            "pets[0].pet_cost",
            "This field is required",
        ),
        (
            "§5 pet_cost not a number",
            pet_with("pet_cost", json!("lots")),
            "pets[0].pet_cost",
            "Please enter a valid number",
        ),
        (
            "§5 pet_cost non-negative",
            pet_with("pet_cost", json!("-5")),
            "pets[0].pet_cost",
            "This field can only accept positive numbers",
        ),
        (
            "§5 pet_cost at most two decimals",
            pet_with("pet_cost", json!("12.345")),
            "pets[0].pet_cost",
            "Please enter a valid number",
        ),
        (
            "§5 pet_cost at most 10000",
            pet_with("pet_cost", json!("10000.01")),
            "pets[0].pet_cost",
            "Please enter a number less than or equal to 10000",
        ),
        (
            "§5 pet_cost at most 10000, no decimals",
            pet_with("pet_cost", json!("12000")),
            "pets[0].pet_cost",
            "Please enter a number less than or equal to 10000",
        ),
    ];
    let app = spawn_app().await;
    let mut failures = Vec::new();
    for (rule, pet, field, message) in cases {
        let (status, body) = app.save_pets(json!([pet])).await;
        let expected = json!({ "field": field, "message": message });
        if status != 422
            || body["error"] != "validation"
            || !body["errors"]
                .as_array()
                .is_some_and(|e| e.contains(&expected))
        {
            failures.push(format!("{rule}: got {status} {body}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(app.stored_pets().await, json!([]), "nothing was stored");
}

#[tokio::test]
async fn the_edges_of_each_rule_are_accepted() {
    let today = uk_today();
    let app = spawn_app().await;
    for (field, value) in [
        ("pet_name", json!("Bo")),
        ("pet_name", json!("Zoë-Mae O'Brien")),
        ("pet_name", json!("R".repeat(40))),
        ("pet_cost", json!("0")),
        ("pet_cost", json!("10000")),
        ("pet_cost", json!("10000.00")),
        ("pet_cost", json!("99.9")),
        // journey.md §3 Entities: pet_sex is m, f or other.
        ("pet_sex", json!("other")),
        (
            "pet_date_of_birth",
            json!((today - Duration::days(26)).format("%Y-%m-%d").to_string()),
        ),
    ] {
        let (status, body) = app.save_pets(json!([pet_with(field, value.clone())])).await;
        assert_eq!(status, 200, "{field} = {value}: {body}");
    }
}

#[tokio::test]
async fn several_pets_get_errors_by_position() {
    let app = spawn_app().await;
    let (status, body) = app
        .save_pets(json!([valid_pet(), pet_with("pet_name", json!("X"))]))
        .await;
    assert_eq!(status, 422);
    assert_eq!(
        body["errors"],
        json!([{ "field": "pets[1].pet_name", "message": "Your pet's name cannot be less than two characters or more than 40" }])
    );
}

#[tokio::test]
async fn csrf_is_required_and_checked_and_nothing_is_stored_without_it() {
    let app = spawn_app().await;
    app.csrf().await; // the session exists
    let (status, body) = app
        .post_json("/api/petdetails", &json!({ "pets": [valid_pet()] }))
        .await;
    assert_eq!((status, body["error"].as_str()), (403, Some("csrf")));
    let (status, _) = app
        .post_json(
            "/api/petdetails",
            &json!({ "csrf": "forged", "pets": [valid_pet()] }),
        )
        .await;
    assert_eq!(status, 403);
    let (status, _) = app
        .post_json(
            "/api/petdetails",
            &json!({ "csrf": 12, "pets": [valid_pet()] }),
        )
        .await;
    assert_eq!(status, 403);

    // Another browser's token does not work for this session.
    let other = reqwest::Client::builder()
        .cookie_store(true)
        .build()
        .expect("client");
    let r = other
        .get(format!("{}/quote", app.base))
        .header("Accept", "application/json")
        .send()
        .await
        .expect("get");
    let other_csrf = r.json::<Value>().await.expect("json")["data"]["csrf"].clone();
    let (status, _) = app
        .post_json(
            "/api/petdetails",
            &json!({ "csrf": other_csrf, "pets": [valid_pet()] }),
        )
        .await;
    assert_eq!(status, 403);

    // No session at all.
    let stranger = reqwest::Client::new();
    let r = stranger
        .post(format!("{}/api/petdetails", app.base))
        .json(&json!({ "csrf": "x", "pets": [] }))
        .send()
        .await
        .expect("post");
    assert_eq!(r.status(), 403);

    assert_eq!(app.stored_pets().await, json!([]));
}

#[tokio::test]
async fn bad_bodies_get_a_json_4xx_that_names_the_problem() {
    let app = spawn_app().await;
    let csrf = app.csrf().await;
    let url = format!("{}/api/petdetails", app.base);
    let send = |body: reqwest::Body, content_type: &'static str| {
        let req = app
            .client
            .post(&url)
            .header("Content-Type", content_type)
            .header("X-CSRF-Token", &csrf)
            .body(body);
        async move {
            let r = req.send().await.expect("post");
            let status = r.status().as_u16();
            (status, r.json::<Value>().await.expect("a JSON error body"))
        }
    };
    let (s, b) = send("{\"csrf\": ".into(), "application/json").await;
    assert_eq!((s, b["error"].as_str()), (400, Some("bad_request")), "{b}");
    assert!(
        b["message"]
            .as_str()
            .expect("message")
            .contains("not valid JSON")
    );
    let (s, b) = send("[1, 2]".into(), "application/json").await;
    assert_eq!((s, b["error"].as_str()), (400, Some("bad_request")), "{b}");
    let (s, b) = send("pets=1".into(), "application/x-www-form-urlencoded").await;
    assert_eq!(
        (s, b["error"].as_str()),
        (415, Some("unsupported_media_type")),
        "{b}"
    );
    let huge = format!(
        "{{\"csrf\": \"{csrf}\", \"pets\": [{{\"pet_name\": \"{}\"}}]}}",
        "a".repeat(200_000)
    );
    let (s, b) = send(huge.into(), "application/json").await;
    assert_eq!(
        (s, b["error"].as_str()),
        (413, Some("payload_too_large")),
        "{b}"
    );
    let (s, b) = app
        .post_json(
            "/api/petdetails",
            &json!({ "csrf": csrf, "pets": [valid_pet()], "price": 1 }),
        )
        .await;
    assert_eq!((s, b["error"].as_str()), (400, Some("bad_request")), "{b}");
    assert!(
        b["message"]
            .as_str()
            .expect("message")
            .contains("\"price\"")
    );
    // Wrong types inside the answers are field errors.
    let (s, b) = app
        .post_json("/api/petdetails", &json!({ "csrf": csrf, "pets": "a dog" }))
        .await;
    assert_eq!(s, 422, "{b}");
    assert_eq!(b["errors"][0]["field"], "pets");
    let (s, b) = app
        .post_json(
            "/api/petdetails",
            &json!({ "csrf": csrf, "pets": [pet_with("pet_name", json!(42))] }),
        )
        .await;
    assert_eq!(s, 422, "{b}");
    assert_eq!(b["errors"][0]["field"], "pets[0].pet_name");
    let (s, b) = app
        .post_json("/api/petdetails", &json!({ "csrf": csrf }))
        .await;
    assert_eq!(
        (s, b["errors"][0]["field"].as_str()),
        (422, Some("pets")),
        "{b}"
    );
    assert_eq!(app.stored_pets().await, json!([]));
}

#[tokio::test]
async fn fields_the_step_does_not_ask_are_not_stored() {
    let app = spawn_app().await;
    let mut pet = valid_pet();
    pet["product"] = json!({ "Code": "LT10000", "AnnualPremium": "1.00" });
    let (status, body) = app.save_pets(json!([pet])).await;
    assert_eq!(status, 200, "{body}");
    assert!(app.stored_pets().await[0].get("product").is_none());
}

#[tokio::test]
async fn without_confirmed_assumptions_the_answers_are_kept_but_your_details_stays_closed() {
    let app = spawn_app().await;
    let (status, body) = app
        .save_pets(json!([pet_with("confirm_assumptions", json!(false))]))
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body["outcome"], "refused_by_guard",
        "journey.md §2: your-details needs the first pet's assumptions confirmed"
    );
    assert_eq!(body["data"]["step"]["id"], "pet_details");
    // Asking for a step the answers do not open shows the furthest open one.
    assert_eq!(
        app.view("/quote/your-details").await["step"]["id"],
        "pet_details"
    );
    assert_eq!(
        app.view("/quote/confirmation").await["step"]["id"],
        "pet_details"
    );
}

#[tokio::test]
async fn unknown_pages_are_404_in_json() {
    let app = spawn_app().await;
    let r = app
        .client
        .get(format!("{}/quote/no-such-page", app.base))
        .header("Accept", "application/json")
        .send()
        .await
        .expect("get");
    assert_eq!(r.status(), 404);
    assert_eq!(r.json::<Value>().await.expect("json")["error"], "not_found");
    let r = app
        .client
        .get(format!("{}/api/nothing", app.base))
        .send()
        .await
        .expect("get");
    assert_eq!(r.status(), 404);
}

#[tokio::test]
async fn a_restart_keeps_the_quote() {
    let app = spawn_app().await;
    let (status, _) = app.save_pets(json!([valid_pet()])).await;
    assert_eq!(status, 200);
    let qidu = app.view("/quote").await["qidu"].clone();
    let app = app.restart().await;
    let page = app.view("/quote/your-details").await;
    assert_eq!(page["qidu"], qidu, "the same quote");
    assert_eq!(page["step"]["id"], "your_details");
    assert_eq!(page["pets"][0]["pet_name"], "Biscuit");
    // The CSRF token is derived from the kept secret, so the page's token still works.
    let (status, body) = app
        .save_pets(json!([pet_with("pet_name", json!("Biscuit Two"))]))
        .await;
    assert_eq!(status, 200, "{body}");
}

#[tokio::test]
async fn every_event_leaves_a_transition_record() {
    let app = spawn_app().await;
    app.save_pets(json!([pet_with("pet_name", json!("X"))]))
        .await;
    app.save_pets(json!([valid_pet()])).await;
    let store = pawpath::store::Store::connect(&app.database_url)
        .await
        .expect("store");
    let page = app.view("/quote").await;
    let qidu = page["qidu"].as_str().expect("qidu");
    let quote_id: String = {
        use sqlx::Row;
        sqlx::any::install_default_drivers();
        let pool = sqlx::AnyPool::connect(&app.database_url)
            .await
            .expect("pool");
        let row = sqlx::query("select id from quotes where quote_ref = $1")
            .bind(qidu)
            .fetch_one(&pool)
            .await
            .expect("row");
        row.try_get(0).expect("id")
    };
    let rows = store.transitions(&quote_id).await.expect("transitions");
    assert_eq!(
        rows,
        vec![
            (
                "submit:pet_details".into(),
                "pet_details".into(),
                "pet_details".into(),
                "invalid".into()
            ),
            (
                "submit:pet_details".into(),
                "pet_details".into(),
                "your_details".into(),
                "moved".into()
            ),
        ]
    );
}

#[tokio::test]
async fn the_html_shell_carries_the_language_and_its_copy_without_inline_code() {
    let app = spawn_app().await;
    let r = app
        .client
        .get(format!("{}/quote/your-details", app.base))
        .header("Accept", "text/html")
        .send()
        .await
        .expect("get");
    assert_eq!(r.status(), 200);
    assert!(
        r.headers()["content-type"]
            .to_str()
            .expect("type")
            .starts_with("text/html")
    );
    let html = r.text().await.expect("html");
    assert!(html.contains(r#"<html lang="en-GB">"#), "{html}");
    assert!(
        html.contains("<title>Pet insurance quote – Pawsure Pet Cover</title>"),
        "{html}"
    );
    let boot = common::boot_of(&html);
    assert_eq!(boot["language"], "en-GB");
    assert_eq!(
        boot["copy"]["form.error_summary"],
        "Please Check the following fields:"
    );
    assert!(!html.contains("{{"), "every placeholder is filled");
}
