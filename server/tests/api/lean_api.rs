//! Lean quotes: the quote stores what the customer said and the prices quoted,
//! compact; prices are worked out only when their rating inputs change; the view data sends what
//! its page needs, once; the copy catalogue has its own address, cached per definitions version.

use crate::common;

use common::*;
use serde_json::{Value, json};

async fn two_pets_priced() -> TestApp {
    let app = spawn_app().await;
    let (status, body) = app.save_pets(json!([valid_pet(), cat()])).await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = app.save_owner(valid_owner()).await;
    assert_eq!(status, 200, "{body}");
    app
}

async fn stored_document(app: &TestApp) -> Value {
    let text = app
        .sql("select document from quotes")
        .await
        .expect("one quote");
    serde_json::from_str(&text).expect("json")
}

async fn transitions_priced(app: &TestApp) -> i64 {
    app.sql("select cast(count(*) as bigint) from step_transitions where pricing is not null")
        .await
        .expect("count")
        .parse()
        .expect("number")
}

#[tokio::test]
async fn a_two_pet_quote_stores_its_answers_and_compact_prices_in_at_most_8_kb() {
    let app = two_pets_priced().await;
    let (status, body) = app
        .save_cover(
            json!([{ "product": { "Code": "LT04000" } }, { "product": { "Code": "MB04000" } }]),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let size: i64 = app
        .sql("select cast(length(document) as bigint) from quotes")
        .await
        .expect("size")
        .parse()
        .expect("number");
    assert!(size <= 8 * 1024, "a two-pet quote is {size} bytes");
    let doc = stored_document(&app).await;
    // Nothing the definitions can give is stored: no product table, no benefits.
    assert!(doc.get("products").is_none());
    assert!(!doc.to_string().contains("PolicyTerms"));
    // The chosen product: its code and the monthly price quoted.
    let chosen = &doc["pets"][0]["product"];
    assert_eq!(chosen.as_object().map(|o| o.len()), Some(2), "{chosen}");
    assert_eq!(chosen["Code"], "LT04000");
    // The prices quoted: per pet, every product's premiums, with the definitions version and the
    // digest of the rating inputs.
    let quoted = &doc["quoted"];
    assert_eq!(quoted["pets"].as_array().map(Vec::len), Some(2));
    assert_eq!(quoted["pets"][0].as_array().map(Vec::len), Some(18));
    assert_eq!(quoted["inputs"].as_str().map(str::len), Some(64));
    assert_eq!(
        quoted["version"],
        app.view("/quote").await["copy_url"]
            .as_str()
            .and_then(|u| u.split('/').nth(3))
            .expect("version")
    );
    // Each product's premiums in one string: the code, then nine amounts.
    let lt: Vec<&str> = quoted["pets"][0]
        .as_array()
        .and_then(|ps| {
            ps.iter()
                .filter_map(Value::as_str)
                .find(|p| p.starts_with("LT04000 "))
        })
        .expect("LT04000 quoted")
        .split(' ')
        .collect();
    assert_eq!(lt.len(), 10, "{lt:?}");
    assert_eq!(json!(lt[1]), chosen["RecurringMonthly"]);
}

#[tokio::test]
async fn prices_are_worked_out_only_when_their_rating_inputs_change() {
    let app = two_pets_priced().await;
    let priced = transitions_priced(&app).await;
    let before = stored_document(&app).await["quoted"].clone();
    // Choosing cover changes no rating input: nothing is priced again.
    let (status, body) = app
        .save_cover(
            json!([{ "product": { "Code": "LT04000" } }, { "product": { "Code": "MB04000" } }]),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(transitions_priced(&app).await, priced);
    assert_eq!(stored_document(&app).await["quoted"], before);
    // Nor does a new phone number.
    let mut owner = valid_owner();
    owner["customer_contact_number"] = json!("01632960999");
    let (status, body) = app.save_owner(owner.clone()).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(transitions_priced(&app).await, priced);
    // A new postcode does (its area is a rating factor): the record keeps the chosen products'
    // working and a reference to the rest, not a copy of the table.
    owner["customer_postcode"] = json!("LE1 5WS");
    let (status, body) = app.save_owner(owner).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(transitions_priced(&app).await, priced + 1);
    let after = stored_document(&app).await["quoted"].clone();
    assert_ne!(after["inputs"], before["inputs"]);
    let record: Value = serde_json::from_str(
        &app.sql("select pricing from step_transitions where pricing is not null order by id desc")
            .await
            .expect("pricing"),
    )
    .expect("json");
    assert_eq!(record["inputs"], after["inputs"]);
    assert_eq!(record["products"], 36);
    let chosen: Vec<(Value, Value)> = record["chosen"]
        .as_array()
        .expect("chosen")
        .iter()
        .map(|n| (n["pet"].clone(), n["code"].clone()))
        .collect();
    assert_eq!(
        chosen,
        [(json!(1), json!("LT04000")), (json!(2), json!("MB04000"))]
    );
    assert!(
        record["chosen"][0]["factors"]
            .as_array()
            .is_some_and(|f| !f.is_empty())
    );
}

#[tokio::test]
async fn a_priced_two_pet_view_is_at_most_25_kb_and_names_its_copy() {
    let app = two_pets_priced().await;
    let r = app
        .client
        .get(format!("{}/quote/choose-policy", app.base))
        .header("Accept", "application/json")
        .send()
        .await
        .expect("get");
    let bytes = r.bytes().await.expect("body");
    assert!(
        bytes.len() <= 25 * 1024,
        "the view is {} bytes",
        bytes.len()
    );
    let view: Value = serde_json::from_slice::<Value>(&bytes).expect("json")["data"].clone();
    assert!(view.get("copy").is_none(), "the catalogue is not resent");
    assert_eq!(view["products"].as_array().map(Vec::len), Some(36));
    // Each value that repeats from product to product is sent once.
    let shared = view["shared"].as_array().expect("shared");
    let texts: std::collections::HashSet<String> = shared.iter().map(Value::to_string).collect();
    assert_eq!(texts.len(), shared.len());
    let page = resolved(&view);
    let lt = page["products"]
        .as_array()
        .and_then(|ps| {
            ps.iter()
                .find(|p| p["petid"] == 1 && p["Code"] == "LT04000")
        })
        .expect("LT04000");
    assert_eq!(lt["PolicyTerms"][0]["desc"], "benefit.vet_fees");
    assert_eq!(lt["PolicyTerms"][0]["val"], "£4,000");
    assert!(lt["ClaimExample"]["Customer"].is_string());
}

#[tokio::test]
async fn the_copy_catalogue_is_cached_at_an_address_that_carries_the_definitions_version() {
    let app = spawn_app().await;
    let view = app.view("/quote?brand=rcfr").await;
    let url = view["copy_url"].as_str().expect("copy_url").to_owned();
    let version = url.split('/').nth(3).expect("version").to_owned();
    assert_eq!(url, format!("/quote/definitions/{version}/copy/rcfr/fr-FR"));
    let r = app
        .client
        .get(format!("{}{url}", app.base))
        .send()
        .await
        .expect("get");
    assert_eq!(r.status(), 200);
    assert_eq!(
        r.headers()["cache-control"],
        "public, max-age=31536000, immutable"
    );
    let copy: Value = r.json().await.expect("json");
    assert_eq!(copy["step.pet_details"], "Vos animaux");
    // An address from before the definitions changed is sent on to today's, uncached.
    assert_moved_on(&app, "/quote/definitions/0000/copy/rcfr/fr-FR", &url).await;
    // A brand that does not exist, a language the brand does not speak.
    for wrong in [
        format!("/quote/definitions/{version}/copy/nosuch/en-GB"),
        format!("/quote/definitions/{version}/copy/pos/fr-FR"),
    ] {
        let r = app
            .client
            .get(format!("{}{wrong}", app.base))
            .send()
            .await
            .expect("get");
        assert_eq!(r.status(), 404, "{wrong}");
    }
}

#[tokio::test]
async fn a_quote_stored_with_the_whole_product_table_keeps_its_prices() {
    // Quotes written before prices were kept by reference hold every product in full: their prices still hold.
    let app = two_pets_priced().await;
    let (status, body) = app
        .save_cover(
            json!([{ "product": { "Code": "LT04000" } }, { "product": { "Code": "MB04000" } }]),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let full = app.full_products().await;
    let mut doc = stored_document(&app).await;
    // The old form, with prices of its own: a pound dearer than today's rate table.
    let mut old = full.clone();
    for p in old.as_array_mut().expect("products") {
        let monthly: rust_decimal::Decimal = p["RecurringMonthly"]
            .as_str()
            .expect("m")
            .parse()
            .expect("d");
        p["RecurringMonthly"] = json!((monthly + rust_decimal::Decimal::ONE).to_string());
    }
    let lt = old
        .as_array()
        .and_then(|ps| {
            ps.iter()
                .find(|p| p["petid"] == 1 && p["Code"] == "LT04000")
        })
        .cloned()
        .expect("LT04000");
    doc.as_object_mut().expect("doc").remove("quoted");
    doc["products"] = old.clone();
    doc["pets"][0]["product"] = lt.clone();
    app.sql(&format!(
        "update quotes set document = '{}'",
        doc.to_string().replace('\'', "''")
    ))
    .await;
    let view = resolved(&app.view("/quote/review").await);
    assert_eq!(
        view["pets"][0]["product"]["RecurringMonthly"],
        lt["RecurringMonthly"]
    );
    assert_eq!(view["products"].as_array().map(Vec::len), Some(36));
    // The next change that touches a rating input prices it afresh.
    let mut owner = valid_owner();
    owner["customer_postcode"] = json!("LE1 5WS");
    let (status, body) = app.save_owner(owner).await;
    assert_eq!(status, 200, "{body}");
    let doc = stored_document(&app).await;
    assert!(doc.get("products").is_none());
    assert_eq!(doc["quoted"]["inputs"].as_str().map(str::len), Some(64));
}

#[tokio::test]
async fn each_question_sets_form_is_cached_at_its_own_address_in_the_brands_words() {
    let app = spawn_app().await;
    let view = app.view("/quote?brand=sbp").await;
    // The view carries the answers and the call; the form (schema and words) has its address.
    assert!(view["questions"].get("schema").is_none());
    assert!(view["questions"].get("ui").is_none());
    let url = view["questions"]["form"].as_str().expect("form").to_owned();
    let version = url.split('/').nth(3).expect("version").to_owned();
    assert_eq!(
        url,
        format!("/quote/definitions/{version}/questions/sbp/en-GB/pet_details")
    );
    let r = reqwest::get(format!("{}{url}", app.base))
        .await
        .expect("get");
    assert_eq!(
        r.headers()["cache-control"],
        "public, max-age=31536000, immutable"
    );
    let form: Value = r.json().await.expect("json");
    // journey.md §1: the brand's species only; the words in the brand's language.
    assert_eq!(
        form["schema"]["properties"]["pets"]["items"]["properties"]["pet_type"]["enum"],
        json!(["dog", "cat"])
    );
    assert_eq!(
        form["ui"]["pets"]["items"]["pet_name"]["ui:title"],
        "What is your pet's name?"
    );
    assert_moved_on(
        &app,
        "/quote/definitions/0000/questions/sbp/en-GB/pet_details",
        &url,
    )
    .await;
    for wrong in [
        format!("/quote/definitions/{version}/questions/sbp/en-GB/no_such_set"),
        "/quote/definitions/0000/questions/sbp/en-GB/no_such_set".to_owned(),
        format!("/quote/definitions/{version}/questions/sbp/fr-FR/pet_details"),
    ] {
        let r = reqwest::get(format!("{}{wrong}", app.base))
            .await
            .expect("get");
        assert_eq!(r.status(), 404, "{wrong}");
    }
}

#[tokio::test]
async fn each_page_carries_the_products_it_shows_and_a_modals_answer_every_product() {
    let app = spawn_app().await;
    app.reach_payment(json!([valid_pet(), valid_pet()])).await;
    let count = |view: &Value| view["products"].as_array().map_or(0, Vec::len);
    // Where cover is chosen: every product for every pet.
    assert_eq!(count(&app.view("/quote/choose-policy").await), 36);
    assert_eq!(count(&app.view("/quote/review").await), 36);
    // Where the chosen cover is shown: each pet's chosen product, in full.
    let payment = resolved(&app.view("/quote/payment").await);
    assert_eq!(count(&payment), 2);
    for pet in payment["pets"].as_array().expect("pets") {
        assert_eq!(pet["product"]["Code"], "LT04000");
        assert!(pet["product"]["PolicyTerms"].is_array(), "{pet}");
    }
    // Pages that show no cover: none (the list is there, empty).
    let details = app.view("/quote/your-details").await;
    assert_eq!(details["products"], json!([]));
    assert_eq!(details["pets"][0]["product"]["Code"], "LT04000");
    // A step's answer is the next page's view: the pet page's answer carries none.
    let (status, body) = app.save_pets(json!([valid_pet(), valid_pet()])).await;
    assert_eq!(status, 200, "{body}");
    assert_ne!(body["data"]["step"]["view"], "choose_policy");
    assert_eq!(count(&body["data"]), 0, "{}", body["data"]["step"]);
    // A modal's answer replaces the view data of the page it is on (journey.md §4): every
    // product, whatever the quote's step.
    let (status, body) = app
        .edit(
            "/api/ownerdetail",
            "start_date",
            json!({ "owner": { "pet_policy_start_date": uk_today().to_string() } }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(count(&body["data"]), 36);
}

/// A browser of its own (cookie jar) on `app`'s server: a session of its own, its CSRF token.
async fn visitor(app: &TestApp) -> (reqwest::Client, String) {
    let client = reqwest::Client::builder()
        .cookie_store(true)
        .build()
        .expect("client");
    let csrf = page_data(&app.base, &client).await["csrf"]
        .as_str()
        .expect("csrf")
        .to_owned();
    (client, csrf)
}

/// The view data of `/quote` as `client`'s browser gets it (its session's quote).
async fn page_data(base: &str, client: &reqwest::Client) -> Value {
    let mut view: Value = client
        .get(format!("{base}/quote"))
        .header("Accept", "application/json")
        .send()
        .await
        .expect("get")
        .json()
        .await
        .expect("json");
    view["data"].take()
}

async fn post_pets(app: &TestApp, (client, csrf): &(reqwest::Client, String), pets: Value) -> u16 {
    client
        .post(format!("{}/api/petdetails", app.base))
        .json(&json!({ "csrf": csrf, "pets": pets }))
        .send()
        .await
        .expect("post")
        .status()
        .as_u16()
}

async fn count(app: &TestApp, sql: &str) -> i64 {
    app.sql(sql).await.expect("count").parse().expect("number")
}

/// Transitions arriving together are written together on PostgreSQL (one statement and one
/// commit for a group, `server/src/store/batch.rs`) and one at a time on SQLite's writer; either
/// way each holds alone: every one is answered, stored with its record, and a quote changed by
/// two at once keeps exactly the changes it answered 200 for (the other answered 409, nothing of
/// it stored).
#[tokio::test]
async fn transitions_arriving_together_each_hold_alone_and_none_is_lost() {
    let app = spawn_app().await;
    let mut visitors = Vec::new();
    for _ in 0..12 {
        visitors.push(visitor(&app).await);
    }
    let app = std::sync::Arc::new(app);
    let visitors = std::sync::Arc::new(visitors);
    let mut tasks = tokio::task::JoinSet::new();
    for i in 0..visitors.len() {
        let (app, visitors) = (app.clone(), visitors.clone());
        tasks
            .spawn(async move { post_pets(&app, &visitors[i], json!([valid_pet(), cat()])).await });
    }
    while let Some(status) = tasks.join_next().await {
        assert_eq!(
            status.expect("task"),
            200,
            "each new quote's first transition"
        );
    }
    assert_eq!(
        count(&app, "select cast(count(*) as bigint) from quotes").await,
        12
    );
    assert_eq!(
        count(
            &app,
            "select cast(count(*) as bigint) from step_transitions where outcome = 'moved'"
        )
        .await,
        12,
        "each transition's record stored with its quote"
    );

    // The same quote changed by several requests at once, beside the others' changes.
    let before = count(&app, "select cast(sum(row_version) as bigint) from quotes").await;
    let records = count(
        &app,
        "select cast(count(*) as bigint) from step_transitions",
    )
    .await;
    let mut tasks = tokio::task::JoinSet::new();
    for i in 0..visitors.len() {
        let (app, visitors) = (app.clone(), visitors.clone());
        tasks.spawn(async move {
            let mut pet = valid_pet();
            pet["pet_name"] = json!(format!("Rex{i}"));
            post_pets(&app, &visitors[i], json!([pet])).await
        });
    }
    for n in 0..3 {
        let (app, visitors) = (app.clone(), visitors.clone());
        tasks.spawn(async move {
            let mut pet = cat();
            pet["pet_name"] = json!(format!("Tom{n}"));
            post_pets(&app, &visitors[0], json!([pet])).await
        });
    }
    let (mut saved, mut refused) = (0, 0);
    while let Some(status) = tasks.join_next().await {
        match status.expect("task") {
            200 => saved += 1,
            409 => refused += 1,
            other => panic!("a transition answered {other}"),
        }
    }
    assert_eq!(saved + refused, 15);
    assert!(
        saved >= 12,
        "every other quote's change saved, and one of the first's"
    );
    let after = count(&app, "select cast(sum(row_version) as bigint) from quotes").await;
    assert_eq!(
        after - before,
        saved,
        "one new row version for each change answered 200"
    );
    assert_eq!(
        count(
            &app,
            "select cast(count(*) as bigint) from step_transitions"
        )
        .await
            - records,
        saved,
        "one record for each change answered 200, none for a refused one"
    );
}

/// Pages read together are read together (one statement for a group of sessions' quotes,
/// `server/src/store/batch.rs`, on SQLite and PostgreSQL): each still gets its own session's
/// quote, never another's, and a session with no quote none.
#[tokio::test]
async fn pages_read_together_each_get_their_own_quote() {
    let app = spawn_app().await;
    let mut visitors = Vec::new();
    for i in 0..12 {
        let visitor = visitor(&app).await;
        let mut pet = valid_pet();
        pet["pet_name"] = json!(format!("Rex{i}"));
        assert_eq!(post_pets(&app, &visitor, json!([pet])).await, 200);
        visitors.push(visitor);
    }
    let app = std::sync::Arc::new(app);
    let visitors = std::sync::Arc::new(visitors);
    let mut tasks = tokio::task::JoinSet::new();
    for round in 0..3 {
        for i in 0..visitors.len() {
            let (app, visitors) = (app.clone(), visitors.clone());
            tasks.spawn(async move {
                let data = page_data(&app.base, &visitors[i].0).await;
                (round, i, data["pets"][0]["pet_name"].clone())
            });
        }
        // A browser with no quote yet, among them.
        let app = app.clone();
        tasks.spawn(async move {
            let (client, _) = visitor(&app).await;
            let data = page_data(&app.base, &client).await;
            (round, usize::MAX, data["pets"][0]["pet_name"].clone())
        });
    }
    let mut seen = 0;
    while let Some(answer) = tasks.join_next().await {
        let (round, i, name) = answer.expect("task");
        if i == usize::MAX {
            assert!(
                !name.as_str().is_some_and(|n| n.starts_with("Rex")),
                "round {round}: a new browser sees no one's pet, saw {name}"
            );
            continue;
        }
        assert_eq!(
            name,
            json!(format!("Rex{i}")),
            "round {round}: visitor {i}'s own pet"
        );
        seen += 1;
    }
    assert_eq!(seen, 36);
}
