//! Every call of the OpenAPI document, sent to a quote of every journey (direct,
//! aggregator, rehoming, annual rehoming) in every lifecycle state (new, priced, bought, expired,
//! reset, and at its history's ceiling), with bodies generated from the document's own schemas: each field alone with hostile
//! values (wrong types, empty, huge, nested, lists past their bounds, path tricks). It fails on
//! any 5xx, on any answer larger than its bound, and on any stored row beyond its bound.
//!
//! Bounded by construction: the values are a fixed list, so the run is a known number of
//! requests (printed at the end).

use crate::common;

use base64::Engine as _;
use common::*;
use serde_json::{Map, Value, json};

const CTM_KEY: &str = "ctm-key-0123456789abcdefghijklmnopqrstuv";
const ADMIN_TOKEN: &str = "admin-token-0123456789abcdefghijklmnop";

/// The largest answer any call may give (a priced two-pet page's view data is well below).
const ANSWER_BOUND: usize = 512 * 1024;
/// The largest quote document stored.
const DOCUMENT_BOUND: usize = 128 * 1024;
/// The largest field error list stored with one transition (50 errors of a short field name
/// and copy key each).
const FIELD_ERRORS_BOUND: usize = 16 * 1024;
/// The longest event name in the transition log.
const EVENT_BOUND: usize = 64;

const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05\x18\xd8N\x00\x00\x00\x00IEND\xaeB`\x82";

/// The history ceiling of the app that sweeps a quote at its ceiling.
const CEILING: usize = 12;

/// An app for the sweep of a quote in `state`. The sweep is many calls from one browser, so the
/// pace a person keeps (tested in bounds_api.rs) is lifted, and every call reaches its handler.
async fn app(state: State) -> TestApp {
    let ceiling = if state == State::AtCeiling {
        CEILING
    } else {
        100_000
    };
    spawn_app_with(&[
        ("PAWPATH_TEST_MODE", "1".into()),
        ("PAWPATH_AGGREGATOR_KEYS", format!("ctm={CTM_KEY}")),
        ("PAWPATH_ADMIN_TOKEN", ADMIN_TOKEN.into()),
        ("PAWPATH_SESSION_BURST", "1000000".into()),
        ("PAWPATH_HISTORY_CEILING", ceiling.to_string()),
    ])
    .await
}

async fn csrf_at(app: &TestApp, path: &str) -> String {
    app.view(path).await["csrf"]
        .as_str()
        .unwrap_or_else(|| panic!("{path}: no csrf"))
        .to_owned()
}

async fn post(app: &TestApp, path: &str, page: &str, mut body: Value) -> Value {
    body["csrf"] = json!(csrf_at(app, page).await);
    let (status, answer) = app.post_json(path, &body).await;
    assert_eq!(status, 200, "{path}: {answer}");
    answer
}

/// Direct Debit details and the purchase, from the payment page at `base`.
async fn pay(app: &TestApp, base: &str, query: &str) {
    let payment = json!({
        "payment_method": "DD", "payment_frequency": "MP", "account_name": "Ada O'Neill",
        "sort_code": "08-99-99", "account_number": "66374958", "payment_day": 15, "dd_confirmation": true
    });
    let page = format!("{base}/payment{query}");
    post(
        app,
        "/api/setup-payment",
        &page,
        json!({ "payment": payment }),
    )
    .await;
    let answer = post(
        app,
        "/api/purchase",
        &page,
        json!({ "idempotency_key": "sweep-0001" }),
    )
    .await;
    assert_eq!(answer["data"]["step"]["id"], "confirmation", "{answer}");
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    New,
    Priced,
    Bought,
    Expired,
    Reset,
    /// Priced, then changed until its history is at its ceiling.
    AtCeiling,
}

const STATES: [State; 6] = [
    State::New,
    State::Priced,
    State::Bought,
    State::Expired,
    State::AtCeiling,
    State::Reset,
];

/// The rehoming flow up to its confirmation page (the free cover offered).
async fn rehoming_offered(app: &TestApp) {
    app.view("/rehoming?brand=rsp").await;
    post(
        app,
        "/api/rehomingeligibility",
        "/rehoming?brand=rsp",
        json!({ "rehoming": {
            "centre": "RSPBRI01",
            "rehome_date": (uk_today() - chrono::Days::new(2)).to_string(),
            "uk_resident": "yes", "already_insured": "no",
        } }),
    )
    .await;
    let certificate = format!(
        "data:image/png;name=certificate.png;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(PNG)
    );
    post(
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
    post(
        app,
        "/api/ownerdetail",
        "/rehoming/your-details?brand=rsp",
        json!({ "owner": valid_owner() }),
    )
    .await;
}

/// Free cover activated: the free policy's annual link (its path).
async fn rehoming_bought(app: &TestApp) -> String {
    rehoming_offered(app).await;
    let answer = post(
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

/// A quote of `journey` in `state`, held by the app's own browser; the page it is on.
async fn quote_in(app: &TestApp, journey: &str, state: State) -> &'static str {
    let page = match journey {
        "direct" => {
            match state {
                State::New => {
                    app.view("/quote?brand=pos").await;
                }
                State::Bought => {
                    app.buy_direct().await;
                }
                _ => {
                    app.save_pets(json!([valid_pet()])).await;
                    app.save_owner(valid_owner()).await;
                }
            }
            "/quote"
        }
        "aggregator" => {
            if state == State::New {
                app.view("/aggregators/quote?brand=pos").await;
            } else {
                // A comparison site's quote, through its click-through (test hosts).
                let r = app
                    .client
                    .get(format!("{}/api/fakeaggs?brand=pos", app.base))
                    .send()
                    .await
                    .expect("fakeaggs");
                assert_eq!(r.status().as_u16(), 200);
                if state == State::Bought {
                    post(
                        app,
                        "/api/saveDeclaration",
                        "/aggregators/quote/assumptions",
                        json!({ "pets": [dog_answers()] }),
                    )
                    .await;
                    pay(app, "/aggregators/quote", "").await;
                }
            }
            "/aggregators/quote"
        }
        "rehoming" => {
            match state {
                State::New => {
                    app.view("/rehoming?brand=rsp").await;
                }
                State::Bought => {
                    rehoming_bought(app).await;
                }
                _ => rehoming_offered(app).await,
            }
            "/rehoming?brand=rsp"
        }
        "annual_rehoming" => {
            let link = rehoming_bought(app).await;
            let r = app
                .client
                .get(format!("{}{link}", app.base))
                .send()
                .await
                .expect("link");
            assert_eq!(r.url().path(), "/annual-rehoming/pet-details");
            if state != State::New {
                post(
                    app,
                    "/api/petdetails",
                    "/annual-rehoming/pet-details?brand=rsp",
                    json!({ "pets": [{
                        "pet_name": "Pip", "pet_type": "cat", "cat_breed_type": "C286", "pet_breed": "C286",
                        "pet_date_of_birth": "2024-05-10", "pet_sex": "f", "pet_neutered": "yes",
                        "pet_any_injury_illness": "no", "pet_cost": "0",
                    }] }),
                )
                .await;
            }
            if state == State::Bought {
                post(
                    app,
                    "/api/saveCover",
                    "/annual-rehoming/choose-product?brand=rsp",
                    json!({ "pets": [{ "product": { "Code": "LT04000" } }] }),
                )
                .await;
                pay(app, "/annual-rehoming", "?brand=rsp").await;
            }
            "/annual-rehoming/pet-details?brand=rsp"
        }
        other => panic!("no journey {other}"),
    };
    match state {
        State::Expired => {
            app.sql("update quotes set lifecycle = 'expired' where lifecycle = 'active'")
                .await;
        }
        State::Reset => {
            app.sql("update quotes set lifecycle = 'reset' where lifecycle = 'active'")
                .await;
        }
        State::AtCeiling => {
            // Changes (each a transition) until the quote's history is full.
            let mut full = false;
            for _ in 0..=CEILING {
                let body = json!({ "csrf": csrf_at(app, page).await, "language": "en-GB" });
                let (status, answer) = app.post_json("/api/language", &body).await;
                if status == 409 && answer["error"] == "history_full" {
                    full = true;
                    break;
                }
                assert_eq!(status, 200, "{answer}");
            }
            assert!(
                full,
                "{page}: the quote's history never reached its ceiling"
            );
        }
        _ => {}
    }
    page
}

/// The page's CSRF token, if the page still opens (the last calls may move the session on).
async fn csrf_of(app: &TestApp, page: &str) -> Option<String> {
    let r = app
        .client
        .get(format!("{}{page}", app.base))
        .header("Accept", "application/json")
        .send()
        .await
        .expect("get");
    let status = r.status().as_u16();
    assert!(status < 500, "{status} for GET {page}");
    let view: Value = r.json().await.unwrap_or(Value::Null);
    view.pointer("/data/csrf")
        .and_then(Value::as_str)
        .map(str::to_owned)
}

/// The schema `reference` points at within the document.
fn resolve<'a>(document: &'a Value, schema: &'a Value) -> &'a Value {
    match schema.get("$ref").and_then(Value::as_str) {
        Some(r) => document
            .pointer(r.trim_start_matches('#'))
            .unwrap_or(&Value::Null),
        None => schema,
    }
}

/// A body schema's properties: its own and those of the question sets it takes.
fn properties(document: &Value, schema: &Value, out: &mut Map<String, Value>) {
    let schema = resolve(document, schema);
    if let Some(Value::Object(props)) = schema.get("properties") {
        for (k, v) in props {
            out.entry(k.clone()).or_insert_with(|| v.clone());
        }
    }
    for key in ["allOf", "oneOf", "anyOf"] {
        if let Some(Value::Array(parts)) = schema.get(key) {
            for part in parts {
                properties(document, part, out);
            }
        }
    }
}

/// Hostile values for one property: wrong types, empties, huge and nested values, path tricks,
/// and for a list, one item past its bound.
fn hostile(schema: &Value) -> Vec<Value> {
    let mut nested = json!("deep");
    for _ in 0..100 {
        nested = json!([nested]);
    }
    let mut values = vec![
        Value::Null,
        json!(true),
        json!(-1),
        json!(1e308),
        json!(2_147_483_648_u64),
        json!(""),
        json!("../../etc/passwd"),
        json!("José\u{301}\u{0}<script>"),
        json!("x".repeat(8_000)),
        json!({}),
        json!([]),
        nested,
    ];
    if schema.get("type") == Some(&json!("array")) {
        let max = schema.get("maxItems").and_then(Value::as_u64).unwrap_or(10);
        values.push(Value::Array(vec![
            json!({});
            usize::try_from(max + 1).unwrap_or(11)
        ]));
        // One item whose every declared property is junk.
        if let Some(Value::Object(props)) = schema.pointer("/items/properties") {
            let item: Map<String, Value> = props
                .keys()
                .map(|k| (k.clone(), json!("x".repeat(300))))
                .collect();
            values.push(json!([item]));
        }
    }
    values
}

struct Tally {
    requests: usize,
    statuses: std::collections::BTreeMap<u16, usize>,
    largest_answer: (usize, String),
}

async fn send(app: &TestApp, method: &str, path: &str, body: Option<&Value>, tally: &mut Tally) {
    let url = format!("{}{path}", app.base);
    let request = match (method, body) {
        ("post", Some(b)) => app.client.post(&url).json(b),
        ("post", None) => app.client.post(&url),
        _ => app.client.get(&url).header("Accept", "application/json"),
    };
    let response = request.send().await.expect("send");
    let status = response.status().as_u16();
    let answer = response.bytes().await.expect("answer");
    tally.requests += 1;
    *tally.statuses.entry(status).or_default() += 1;
    let what = || {
        format!(
            "{method} {path} {}",
            body.map(|b| {
                let t = b.to_string();
                t.chars().take(300).collect::<String>()
            })
            .unwrap_or_default()
        )
    };
    assert!(
        status < 500,
        "{status} for {}: {}",
        what(),
        String::from_utf8_lossy(&answer)
    );
    assert!(
        answer.len() <= ANSWER_BOUND,
        "{} bytes answered to {}",
        answer.len(),
        what()
    );
    if answer.len() > tally.largest_answer.0 {
        tally.largest_answer = (answer.len(), what());
    }
}

/// One state's sweep: its own app and quote, every call of the document, then the stored bounds.
async fn sweep_state(journey: &str, state: State) -> Tally {
    let mut tally = Tally {
        requests: 0,
        statuses: std::collections::BTreeMap::new(),
        largest_answer: (0, String::new()),
    };
    let app = app(state).await;
    let page = quote_in(&app, journey, state).await;
    let document: Value = app
        .client
        .get(format!("{}/api/openapi.json", app.base))
        .send()
        .await
        .expect("openapi")
        .json()
        .await
        .expect("json");
    let mut paths: Vec<(String, Value)> = document["paths"]
        .as_object()
        .expect("paths")
        .iter()
        .map(|(p, v)| (p.replace("{reference}", "ABCD-EFGH-JKMN"), v.clone()))
        .collect();
    // The calls that can move the session to another quote last, so the others see the
    // state (a comparison site's visit opens a quote of its own in this browser).
    paths.sort_by_key(|(p, _)| {
        matches!(
            p.as_str(),
            "/api/reset" | "/api/quoteretrieval" | "/api/fakeaggs" | "/api/test/patch"
        )
    });
    for (path, item) in &paths {
        for (method, operation) in item.as_object().expect("operation") {
            let csrf = csrf_of(&app, page).await;
            if method == "get" {
                send(&app, "get", path, None, &mut tally).await;
                continue;
            }
            let schema = operation
                .pointer("/requestBody/content/application~1json/schema")
                .cloned()
                .unwrap_or(Value::Null);
            let mut props = Map::new();
            properties(&document, &schema, &mut props);
            let base = json!({ "csrf": csrf, "locale": "en-GB" });
            send(&app, "post", path, None, &mut tally).await;
            send(&app, "post", path, Some(&base), &mut tally).await;
            for (name, property) in &props {
                if name == "csrf" {
                    continue;
                }
                for value in hostile(resolve(&document, property)) {
                    let mut body = base.clone();
                    body[name.as_str()] = value;
                    send(&app, "post", path, Some(&body), &mut tally).await;
                }
            }
        }
    }
    // What the requests left stored stays within its bounds.
    let longest = |sql: &'static str| {
        let app = &app;
        async move {
            app.sql(sql)
                .await
                .and_then(|n| n.parse::<usize>().ok())
                .unwrap_or_else(|| panic!("{sql}: no number"))
        }
    };
    let document_size =
        longest("select cast(coalesce(max(length(document)), 0) as bigint) from quotes").await;
    let errors_size = longest(
        "select cast(coalesce(max(length(field_errors)), 0) as bigint) from step_transitions",
    )
    .await;
    let event_size =
        longest("select cast(coalesce(max(length(event)), 0) as bigint) from step_transitions")
            .await;
    assert!(
        document_size <= DOCUMENT_BOUND,
        "{journey} {state:?}: a stored quote of {document_size} bytes"
    );
    assert!(
        errors_size <= FIELD_ERRORS_BOUND,
        "{journey} {state:?}: stored field errors of {errors_size} bytes"
    );
    assert!(
        event_size <= EVENT_BOUND,
        "{journey} {state:?}: an event name of {event_size} characters"
    );
    println!(
        "{journey} {state:?}: largest stored quote {document_size} B, field errors {errors_size} B, event {event_size} chars"
    );
    tally
}

/// Every state of `journey` swept side by side (each its own app and quote: the requests of one
/// quote stay in order), then the tallies added up.
async fn sweep(journey: &str) {
    let tallies =
        futures_util::future::join_all(STATES.map(|state| sweep_state(journey, state))).await;
    let mut tally = Tally {
        requests: 0,
        statuses: std::collections::BTreeMap::new(),
        largest_answer: (0, String::new()),
    };
    for t in tallies {
        tally.requests += t.requests;
        for (status, n) in t.statuses {
            *tally.statuses.entry(status).or_default() += n;
        }
        if t.largest_answer.0 > tally.largest_answer.0 {
            tally.largest_answer = t.largest_answer;
        }
    }
    println!(
        "{journey}: {} requests, none 5xx (by status: {:?}); largest answer {} B ({})",
        tally.requests, tally.statuses, tally.largest_answer.0, tally.largest_answer.1
    );
    // The sweep reached the handlers: most requests got past the session and its CSRF token.
    let refused = tally.statuses.get(&403).copied().unwrap_or(0);
    assert!(
        refused * 4 < tally.requests,
        "{journey}: {refused} of {} requests refused for the session or CSRF token",
        tally.requests
    );
}

#[tokio::test]
async fn every_call_to_a_direct_quote_in_every_state() {
    sweep("direct").await;
}

#[tokio::test]
async fn every_call_to_an_aggregator_quote_in_every_state() {
    sweep("aggregator").await;
}

#[tokio::test]
async fn every_call_to_a_rehoming_quote_in_every_state() {
    sweep("rehoming").await;
}

#[tokio::test]
async fn every_call_to_an_annual_rehoming_quote_in_every_state() {
    sweep("annual_rehoming").await;
}

/// Each is now a 4xx naming the problem.
#[tokio::test]
async fn calls_a_quote_cannot_take_are_refused_not_server_errors() {
    let app = app(State::Priced).await;
    rehoming_offered(&app).await;
    let page = "/rehoming/confirmation?brand=rsp";
    for (call, body) in [
        ("/api/getFlexProducts", json!({ "pets": [] })),
        (
            "/api/noquotechaseemail",
            json!({ "noquotechaseemail": true }),
        ),
    ] {
        let mut body = body;
        body["csrf"] = json!(csrf_at(&app, page).await);
        let (status, answer) = app.post_json(call, &body).await;
        assert_eq!(status, 400, "{call}: {answer}");
        assert!(
            answer["message"]
                .as_str()
                .is_some_and(|m| m.contains("this quote's journey has no form")),
            "{call}: {answer}"
        );
    }
    // The free cover has its own email: the paid confirmation's call says so.
    post(&app, "/api/confirmationrescue", page, json!({})).await;
    let (status, answer) = app
        .post_json(
            "/api/confirmationEmail",
            &json!({ "csrf": csrf_at(&app, page).await, "send_confirmation_email": 1 }),
        )
        .await;
    assert_eq!(status, 400, "{answer}");
    assert!(
        answer["message"]
            .as_str()
            .is_some_and(|m| m.contains("/api/confirmationRescueEmail"))
    );

    // An idempotency key another quote used is no business of this one.
    let direct = spawn_app().await;
    direct.buy_direct_with_key("same-key-0001").await;
    // The same browser starts again (a new quote), and buys with the same key.
    direct
        .sql("update quotes set session_hash = 'elsewhere'")
        .await;
    let bought = direct.buy_direct_with_key("same-key-0001").await;
    assert_eq!(bought["data"]["step"]["id"], "confirmation", "{bought}");
    assert_eq!(
        direct
            .sql("select count(*) from purchases")
            .await
            .as_deref(),
        Some("2")
    );
}
