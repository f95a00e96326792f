//! The aggregator channel (journey.md §1–§2, §5; owner-payment.md §2, §7): the inbound
//! quote API, its click-through to review, the aggregator journey's pet details and step bar,
//! and /api/fakeaggs on test hosts.

use crate::common;

use common::*;
use serde_json::{Value, json};

const CTM_KEY: &str = "ctm-key-0123456789abcdefghijklmnopqrstuv";
const MSM_KEY: &str = "msm-key-0123456789abcdefghijklmnopqrstuv";

async fn aggregator_app() -> TestApp {
    spawn_app_with(&[(
        "PAWPATH_AGGREGATOR_KEYS",
        format!("ctm={CTM_KEY},msm={MSM_KEY}"),
    )])
    .await
}

/// A dog as a comparison site sends it: microchipped instead of injury or illness.
fn aggregator_pet() -> Value {
    let mut pet = valid_pet();
    let map = pet.as_object_mut().expect("pet");
    map.remove("pet_any_injury_illness");
    map.remove("confirm_assumptions");
    map.insert("pet_microchipped".into(), json!("yes"));
    pet
}

fn risk() -> Value {
    json!({
        "brand": "pos",
        "pets": [aggregator_pet()],
        "owner": valid_owner(),
        "cover_start": (uk_today() + chrono::Duration::days(3)).to_string(),
    })
}

async fn inbound(app: &TestApp, key: Option<&str>, body: &Value) -> (u16, Value) {
    let mut request = app
        .client
        .post(format!("{}/api/aggregators/quotes", app.base))
        .json(body);
    if let Some(key) = key {
        request = request.bearer_auth(key);
    }
    let r = request.send().await.expect("post");
    let status = r.status().as_u16();
    (status, r.json::<Value>().await.unwrap_or(Value::Null))
}

async fn quote_count(app: &TestApp) -> i64 {
    use sqlx::Row;
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(&app.database_url)
        .await
        .expect("pool");
    sqlx::query("select count(*) from quotes")
        .fetch_one(&pool)
        .await
        .expect("count")
        .try_get::<i64, _>(0)
        .expect("count")
}

/// Follows a click-through link with the app's own cookie jar, without following the redirect.
async fn open_link(app: &TestApp, link: &str) -> (u16, String) {
    let path = &link[link.find("/aggregators/continue/").expect("link path")..];
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("client");
    let r = client
        .get(format!("{}{path}", app.base))
        .send()
        .await
        .expect("get");
    let status = r.status().as_u16();
    let location = r
        .headers()
        .get("location")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    // The session cookie the link set, into the app's client (as the browser would keep it).
    if let Some(cookie) = r.headers().get("set-cookie") {
        let cookie = cookie
            .to_str()
            .expect("cookie")
            .split(';')
            .next()
            .expect("pair");
        return (status, format!("{location}\n{cookie}"));
    }
    (status, location)
}

#[tokio::test]
async fn the_inbound_api_wants_an_aggregators_key_and_is_off_without_keys() {
    let off = spawn_app().await;
    let (status, _) = inbound(&off, Some(CTM_KEY), &risk()).await;
    assert_eq!(status, 404, "no keys configured: no API");

    let app = aggregator_app().await;
    for key in [None, Some("wrong"), Some(&CTM_KEY[..CTM_KEY.len() - 1])] {
        let (status, body) = inbound(&app, key, &risk()).await;
        assert_eq!(status, 401, "{key:?}: {body}");
        assert_eq!(body, json!({ "error": "unauthorised" }), "reveals nothing");
    }
    assert_eq!(quote_count(&app).await, 0);
    let (status, body) = inbound(&app, Some(MSM_KEY), &risk()).await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(
        body["aggregator"], "msm",
        "the key names the comparison site"
    );
}

#[tokio::test]
async fn a_priced_quote_answers_every_product_and_an_offer_per_product_with_its_link() {
    let app = aggregator_app().await;
    let mut two = risk();
    let mut cat = cat();
    cat.as_object_mut()
        .expect("cat")
        .remove("pet_any_injury_illness");
    cat["pet_microchipped"] = json!("no");
    two["pets"] = json!([aggregator_pet(), cat]);
    let (status, body) = inbound(&app, Some(CTM_KEY), &two).await;
    assert_eq!(status, 201, "{body}");
    assert!(
        body["quote_reference"]
            .as_str()
            .is_some_and(|r| r.len() == 14)
    );
    assert_eq!(body["currency"], "GBP");
    assert_eq!(body["aggregator"], "ctm");
    assert_eq!(
        body["sales_phone"], "0808 157 0011",
        "pos's number for ctm (journeys/brands/pos.json)"
    );
    let pets = body["pets"].as_array().expect("pets");
    assert_eq!(pets.len(), 2);
    assert_eq!(pets[1]["pet_name"], "Tigger");
    for pet in pets {
        let products = pet["products"].as_array().expect("products");
        assert!(products.len() >= 3, "every cover type and level: {pet}");
        for p in products {
            let monthly: rust_decimal::Decimal = p["monthly"]
                .as_str()
                .expect("money as text")
                .parse()
                .expect("decimal");
            assert!(monthly > rust_decimal::Decimal::ZERO, "{p}");
        }
    }
    let offers = body["offers"].as_array().expect("offers");
    assert!(!offers.is_empty());
    for offer in offers {
        let code = offer["code"].as_str().expect("code");
        // The offer's total is the two pets' prices for that product.
        let sum: rust_decimal::Decimal = pets
            .iter()
            .map(|pet| {
                pet["products"]
                    .as_array()
                    .expect("products")
                    .iter()
                    .find(|p| p["code"] == code)
                    .expect("every pet has the offer's product")["monthly"]
                    .as_str()
                    .expect("monthly")
                    .parse::<rust_decimal::Decimal>()
                    .expect("decimal")
            })
            .sum();
        assert_eq!(offer["monthly"].as_str().expect("monthly"), sum.to_string());
        assert!(
            offer["click_through"]
                .as_str()
                .is_some_and(|l| l.contains("/aggregators/continue/")),
            "{offer}"
        );
    }
    assert_eq!(quote_count(&app).await, 1);
}

#[tokio::test]
async fn a_risk_that_fails_a_question_or_a_rule_names_the_requests_field_and_stores_nothing() {
    let app = aggregator_app().await;
    // journey.md §5: pet_microchipped is required on the aggregator journey.
    let mut no_chip = risk();
    no_chip["pets"][0]
        .as_object_mut()
        .expect("pet")
        .remove("pet_microchipped");
    let mut minor = risk();
    minor["owner"]["customer_date_of_birth"] =
        json!((uk_today() - chrono::Duration::days(365 * 17)).to_string());
    let mut past = risk();
    past["cover_start"] = json!((uk_today() - chrono::Duration::days(1)).to_string());
    let mut unknown_field = risk();
    unknown_field["premium"] = json!("1.00");
    let mut no_brand = risk();
    no_brand["brand"] = json!("rcfr");
    for (body, status, field) in [
        (no_chip, 422, Some("pets[0].pet_microchipped")),
        (minor, 422, Some("owner.customer_date_of_birth")),
        (past, 422, Some("cover_start")),
        (no_brand, 422, Some("brand")),
        (unknown_field, 400, None),
    ] {
        let (got, answer) = inbound(&app, Some(CTM_KEY), &body).await;
        assert_eq!(got, status, "{answer}");
        if let Some(field) = field {
            let errors = answer["errors"].as_array().expect("field errors");
            assert!(
                errors
                    .iter()
                    .any(|e| e["field"] == field
                        && e["message"].as_str().is_some_and(|m| !m.is_empty())),
                "{field}: {answer}"
            );
        }
    }
    assert_eq!(quote_count(&app).await, 0, "nothing half-made is kept");
}

#[tokio::test]
async fn a_crossbreed_needs_its_confirmation_in_the_request() {
    let app = aggregator_app().await;
    let mut cross = risk();
    cross["pets"][0]["dog_breed_type"] = json!("crossbreed");
    cross["pets"][0]["pet_breed"] = json!("D406");
    let (status, body) = inbound(&app, Some(CTM_KEY), &cross).await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(body["errors"][0]["field"], "crossbreed");
    cross["crossbreed"] = json!([{ "confirm_crossbreed": true }]);
    let (status, body) = inbound(&app, Some(CTM_KEY), &cross).await;
    assert_eq!(status, 201, "{body}");
}

#[tokio::test]
async fn the_click_through_opens_the_quote_at_review_with_the_chosen_product() {
    let app = aggregator_app().await;
    let (_, body) = inbound(&app, Some(CTM_KEY), &risk()).await;
    let offer = &body["offers"][1];
    let link = offer["click_through"].as_str().expect("link");
    let (status, answer) = open_link(&app, link).await;
    assert_eq!(status, 303);
    let (location, cookie) = answer.split_once('\n').expect("a session cookie");
    assert_eq!(location, "/aggregators/quote/review?brand=pos");
    let page = app
        .client
        .get(format!("{}/aggregators/quote/review", app.base))
        .header("Accept", "application/json")
        .header("Cookie", cookie)
        .send()
        .await
        .expect("get")
        .json::<Value>()
        .await
        .expect("json")["data"]
        .clone();
    assert_eq!(page["step"]["id"], "review", "{}", page["step"]);
    assert_eq!(page["step"]["path"], "/aggregators/quote/review");
    assert_eq!(page["channel"], "aggregator");
    assert_eq!(page["qidu"], body["quote_reference"]);
    assert_eq!(page["pets"][0]["product"]["Code"], offer["code"]);
    // The price the comparison site showed is the price at review.
    let at_review: rust_decimal::Decimal =
        serde_json::from_value(page["pets"][0]["product"]["RecurringMonthly"].clone())
            .expect("monthly price");
    assert_eq!(
        at_review.to_string(),
        offer["monthly"].as_str().expect("offer monthly")
    );
    // owner-payment.md §2 Step bar: aggregator steps 1 review, 2 Details, 3 payment, 4 confirmation.
    let bar: Vec<&str> = page["step_bar"]
        .as_array()
        .expect("bar")
        .iter()
        .map(|s| s["label"].as_str().unwrap_or_default())
        .collect();
    assert_eq!(bar, ["Review", "Details", "Payment", "Confirmation"]);
    assert_eq!(page["shell"]["phone"], "0808 157 0011", "{}", page["shell"]);

    // A link that is not ours is a 404; a tampered one too.
    let mut forged = link.to_owned();
    forged.pop();
    forged.push('x');
    let (status, _) = open_link(&app, &forged).await;
    assert_eq!(status, 404);
}

#[tokio::test]
async fn the_aggregator_pet_details_ask_microchipped_not_injury() {
    let app = spawn_app().await;
    let page = app.view("/aggregators/quote/").await;
    assert_eq!(page["channel"], "aggregator");
    assert_eq!(page["step"]["path"], "/aggregators/quote");
    let questions = with_form(&app.base, &page["questions"]).await;
    let items = &questions["schema"]["properties"]["pets"]["items"];
    let required: Vec<&str> = items["required"]
        .as_array()
        .expect("required")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(required.contains(&"pet_microchipped"), "{required:?}");
    assert!(!required.contains(&"pet_any_injury_illness"));
    assert!(items["properties"].get("pet_any_injury_illness").is_none());
    let csrf = page["csrf"].as_str().expect("csrf").to_owned();
    let (status, body) = app
        .post_json(
            "/api/petdetails",
            &json!({ "csrf": csrf, "pets": [valid_pet()] }),
        )
        .await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(body["errors"][0]["field"], "pets[0].pet_microchipped");
    // The page sends the pet's confirmation with its details (a hidden field, true).
    let mut pet = aggregator_pet();
    pet["confirm_assumptions"] = json!(true);
    let (status, body) = app
        .post_json("/api/petdetails", &json!({ "csrf": csrf, "pets": [pet] }))
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body["data"]["step"]["path"],
        "/aggregators/quote/your-details"
    );
}

#[tokio::test]
async fn a_brand_that_sells_direct_only_has_no_aggregator_pages() {
    let app = spawn_app().await;
    let r = app
        .client
        .get(format!("{}/aggregators/quote/?brand=rcfr", app.base))
        .header("Accept", "application/json")
        .send()
        .await
        .expect("get");
    assert_eq!(r.status(), 404);
}

#[tokio::test]
async fn fakeaggs_is_for_test_hosts_and_makes_a_quote_as_a_comparison_site_would() {
    let app = spawn_app().await;
    let (status, _) = app.post_json("/api/fakeaggs", &json!({})).await;
    assert_eq!(status, 404, "off unless PAWPATH_TEST_MODE=1");

    let app = spawn_app_with(&[("PAWPATH_TEST_MODE", "1".into())]).await;
    let (status, body) = app
        .post_json(
            "/api/fakeaggs",
            &json!({ "aggregator": "gcp", "brand": "sbp" }),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(body["aggregator"], "gcp");
    assert_eq!(body["brand"], "sbp");
    assert!(!body["offers"].as_array().expect("offers").is_empty());
    let (status, body) = app
        .post_json("/api/fakeaggs", &json!({ "aggregator": "xyz" }))
        .await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(body["errors"][0]["field"], "aggregator");
}

/// A request with the session cookie a click-through set.
async fn with_cookie(
    app: &TestApp,
    cookie: &str,
    path: &str,
    body: Option<&Value>,
) -> (u16, Value) {
    let url = format!("{}{path}", app.base);
    let request = match body {
        Some(b) => app.client.post(url).json(b),
        None => app.client.get(url).header("Accept", "application/json"),
    };
    let r = request.header("Cookie", cookie).send().await.expect("send");
    let status = r.status().as_u16();
    (status, r.json::<Value>().await.unwrap_or(Value::Null))
}

/// journey.md §4: on the aggregator review a pet under 12 weeks old confirms its date of birth
/// (saved_dob), which must be the date held (rule saved_dob_matches); the review's edit.
#[tokio::test]
async fn a_young_pets_date_of_birth_is_confirmed_on_the_aggregator_review() {
    let app = aggregator_app().await;
    let mut young = risk();
    let born = uk_today() - chrono::Duration::days(70);
    young["pets"][0]["pet_date_of_birth"] = json!(born.to_string());
    let (status, body) = inbound(&app, Some(CTM_KEY), &young).await;
    assert_eq!(status, 201, "{}", body["quote_reference"]);
    let link = body["offers"][0]["click_through"].as_str().expect("link");
    let (_, answer) = open_link(&app, link).await;
    let (_, cookie) = answer.split_once('\n').expect("a session cookie");
    let (_, page) = with_cookie(&app, cookie, "/aggregators/quote/review", None).await;
    let page = &page["data"];
    assert!(
        page["edits"]["dob_confirmation"].is_object(),
        "{}",
        page["edits"]
    );
    assert_eq!(page["pets"][0].get("saved_dob"), None);
    // The server decides that the page asks (the renderer only follows the flag).
    assert_eq!(
        page["pet_flags"][0]["dob_to_confirm"], true,
        "{}",
        page["pet_flags"]
    );
    let csrf = page["csrf"].as_str().expect("csrf");
    let wrong = json!({ "csrf": csrf, "form": "dob_confirmation", "pets": [{ "saved_dob": "2020-01-01" }] });
    let (status, b) = with_cookie(&app, cookie, "/api/petdetails", Some(&wrong)).await;
    assert_eq!(status, 422, "{b}");
    assert_eq!(b["errors"][0]["field"], "pets[0].saved_dob");
    assert_eq!(
        b["errors"][0]["message"],
        "Please confirm the date of birth we hold for your pet"
    );
    let right = json!({ "csrf": csrf, "form": "dob_confirmation", "pets": [{ "saved_dob": born.to_string() }] });
    let (status, b) = with_cookie(&app, cookie, "/api/petdetails", Some(&right)).await;
    assert_eq!(status, 200, "{b}");
    assert_eq!(b["data"]["pets"][0]["saved_dob"], json!(born.to_string()));
    assert_eq!(b["data"]["pet_flags"][0]["dob_to_confirm"], false);
    // The product and the rest of the pet are as they were.
    assert_eq!(b["data"]["pets"][0]["pet_name"], "Biscuit");
    assert!(b["data"]["pets"][0]["product"]["Code"].is_string());
    // The direct journey's review offers no such edit.
    let app = spawn_app().await;
    app.reach_assumptions(json!([valid_pet()])).await;
    assert!(
        app.view("/quote/review").await["edits"]
            .get("dob_confirmation")
            .is_none()
    );
}

/// Inbound quotes arriving together are stored together on PostgreSQL (one statement for a
/// group, `server/src/store/batch.rs`) and one at a time on SQLite's writer; either way each is
/// whole: every one answered 201, kept, with every transition that made it and no other's.
#[tokio::test]
async fn inbound_quotes_arriving_together_are_each_stored_whole() {
    let app = std::sync::Arc::new(aggregator_app().await);
    let (status, body) = inbound(&app, Some(CTM_KEY), &risk()).await;
    assert_eq!(status, 201, "{body}");
    let alone: String = app
        .sql("select cast(count(*) as bigint) from step_transitions")
        .await
        .expect("count");
    let mut tasks = tokio::task::JoinSet::new();
    for _ in 0..10 {
        let app = app.clone();
        tasks.spawn(async move { inbound(&app, Some(CTM_KEY), &risk()).await });
    }
    while let Some(answer) = tasks.join_next().await {
        let (status, body) = answer.expect("task");
        assert_eq!(status, 201, "{body}");
    }
    assert_eq!(quote_count(&app).await, 11);
    let per_quote = app
        .sql(
            "select cast(count(*) as bigint) from (select quote_id, count(*) as n from step_transitions \
             group by quote_id) as each_quote where n = (select count(*) from step_transitions) / 11",
        )
        .await
        .expect("count");
    assert_eq!(
        per_quote, "11",
        "each quote has as many transitions as one made alone ({alone})"
    );
    assert!(alone.parse::<i64>().expect("number") > 0);
}
