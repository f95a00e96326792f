//! The OpenAPI document states every rule a call holds its own fields to (lengths,
//! bounds, patterns, the values it takes), and this test holds the calls to the document: for
//! each stated rule it sends the value at the boundary, which the call must take (no 400 naming
//! the field: a 422 about what the value means is the call's business), and the value just past
//! it, which the call must refuse naming the field (400, or a 422 field error on it). Every other
//! field carries its documented example, so each request varies one thing.
//!
//! Each request comes from its own visitor and address, so no rate limit answers for a rule.

use crate::common;

use common::*;
use serde_json::{Map, Value, json};

/// A visitor of its own: a cookie jar, an address, and (for the page's calls) a priced quote
/// with two pets and an owner, so a call's answer is about the field, not a missing quote.
struct Visitor {
    client: reqwest::Client,
    base: String,
    address: String,
}

impl Visitor {
    async fn new(app: &TestApp, n: usize, with_quote: bool) -> Visitor {
        let client = reqwest::Client::builder()
            .cookie_store(true)
            .build()
            .expect("client");
        let visitor = Visitor {
            client,
            base: app.base.clone(),
            address: format!("10.25.{}.{}", n / 250, n % 250 + 1),
        };
        if with_quote {
            let csrf = visitor.csrf().await;
            let (status, answer) = visitor
                .post(
                    "/api/petdetails",
                    &json!({ "csrf": csrf, "pets": [valid_pet(), cat()] }),
                )
                .await;
            assert_eq!(status, 200, "{answer}");
            // Priced (what the calls about a pet's products refer to).
            let (status, answer) = visitor
                .post(
                    "/api/ownerdetail",
                    &json!({ "csrf": csrf, "owner": valid_owner() }),
                )
                .await;
            assert_eq!(status, 200, "{answer}");
        }
        visitor
    }

    async fn csrf(&self) -> String {
        let r = self
            .client
            .get(format!("{}/quote?brand=pos", self.base))
            .header("Accept", "application/json")
            .header("X-Forwarded-For", &self.address)
            .send()
            .await
            .expect("view");
        let view: Value = r.json().await.expect("json");
        view["data"]["csrf"].as_str().expect("csrf").to_owned()
    }

    async fn post(&self, path: &str, body: &Value) -> (u16, Value) {
        let r = self
            .client
            .post(format!("{}{path}", self.base))
            .header("X-Forwarded-For", &self.address)
            .json(body)
            .send()
            .await
            .expect("post");
        let status = r.status().as_u16();
        (status, r.json::<Value>().await.unwrap_or(Value::Null))
    }
}

/// Whether an answer refuses `field` for its shape: a 400 whose message names it, or a 422 with
/// an error on it.
fn refuses(status: u16, answer: &Value, field: &str) -> bool {
    match status {
        400 => answer["message"]
            .as_str()
            .is_some_and(|m| m.contains(field)),
        422 => answer["errors"].as_array().is_some_and(|errors| {
            errors
                .iter()
                .any(|e| e["field"].as_str().is_some_and(|f| f == field))
        }),
        _ => false,
    }
}

/// A text of `len` characters from the example: cut, or lengthened with its last character.
fn text_of(example: Option<&Value>, len: usize) -> String {
    let base = example.and_then(Value::as_str).unwrap_or("a");
    let fill = base.chars().last().unwrap_or('a');
    let mut out: String = base.chars().take(len).collect();
    while out.chars().count() < len {
        out.push(fill);
    }
    out
}

/// The values one documented field's rules call for: (value, the call must take it).
fn boundary_values(schema: &Value) -> Vec<(Value, bool)> {
    let example = schema["examples"].get(0);
    let mut out = Vec::new();
    if let Some(max) = schema["maxLength"].as_u64() {
        let max = usize::try_from(max).expect("small");
        out.push((json!(text_of(example, max)), true));
        out.push((json!(text_of(example, max + 1)), false));
    }
    if let Some(min) = schema["minLength"].as_u64() {
        let min = usize::try_from(min).expect("small");
        out.push((json!(text_of(example, min)), true));
        out.push((json!(text_of(example, min - 1)), false));
    }
    if let Some(min) = schema["minimum"].as_i64() {
        out.push((json!(min), true));
        out.push((json!(min - 1), false));
    }
    if let Some(max) = schema["maximum"].as_i64() {
        out.push((json!(max), true));
        out.push((json!(max + 1), false));
    }
    if let Some(max) = schema["maxItems"].as_u64() {
        let item = schema["examples"][0][0].clone();
        let max = usize::try_from(max).expect("small");
        out.push((Value::Array(vec![item.clone(); max]), true));
        out.push((Value::Array(vec![item; max + 1]), false));
    }
    if schema.get("pattern").is_some() {
        // The example, which the pattern takes, and the example with a character no pattern of
        // ours takes.
        out.push((
            example.cloned().expect("a pattern's field has an example"),
            true,
        ));
        let bad = format!("{}!", text_of(example, 8));
        out.push((json!(bad), false));
    }
    if let Some(value) = schema.get("const") {
        out.push((value.clone(), true));
        out.push((json!(format!("{value}0")), false));
    }
    if let Some(values) = schema["enum"].as_array() {
        out.extend(values.iter().map(|v| (v.clone(), true)));
        out.push((json!("none-of-these"), false));
    }
    out
}

#[tokio::test]
async fn every_documented_rule_holds_at_its_boundaries() {
    let app = spawn_app().await;
    let r = app
        .client
        .get(format!("{}/api/openapi.json", app.base))
        .send()
        .await
        .expect("openapi");
    let doc: Value = r.json().await.expect("json");
    let experiments: Value = serde_json::from_str(
        &std::fs::read_to_string(repo_root().join("journeys/experiments.json")).expect("read"),
    )
    .expect("json");
    let experiment = &experiments["experiments"][0];
    let view = format!(
        "{}:{}",
        experiment["id"].as_str().expect("id"),
        experiment["variations"][0].as_str().expect("variation")
    );

    let mut visitors = 0;
    let mut checked = 0;
    let mut failures = Vec::new();
    for (path, item) in doc["paths"].as_object().expect("paths") {
        let Some(op) = item.get("post") else { continue };
        let security = op["security"].to_string();
        let session = security.contains("session");
        if !session && security != "[]" || path.contains("/test/") || path.contains("fakeaggs") {
            continue;
        }
        let body_schema = &op["requestBody"]["content"]["application/json"]["schema"];
        let own = body_schema["allOf"].get(0).unwrap_or(body_schema);
        let Some(properties) = own["properties"].as_object() else {
            continue;
        };
        let mut properties: Map<String, Value> = properties.clone();
        // The helper's experiment views: the example is a defined experiment's variation.
        if let Some(views) = properties.get_mut("experiment_views") {
            views["examples"] = json!([[view]]);
        }
        for (field, schema) in &properties {
            for (value, taken) in boundary_values(schema) {
                visitors += 1;
                let visitor = Visitor::new(&app, visitors, session).await;
                let mut body = Map::new();
                if session {
                    body.insert("csrf".into(), json!(visitor.csrf().await));
                }
                for (other, other_schema) in &properties {
                    if let Some(example) = other_schema["examples"].get(0) {
                        body.insert(other.clone(), example.clone());
                    }
                }
                body.insert(field.clone(), value.clone());
                let (status, answer) = visitor.post(path, &Value::Object(body)).await;
                checked += 1;
                if status >= 500 {
                    failures.push(format!("{path} {field}={value}: {status} {answer}"));
                } else if taken && status == 400 && refuses(status, &answer, field) {
                    failures.push(format!(
                        "{path} {field}={value}: the document says it is taken; {status} {answer}"
                    ));
                } else if !taken && !refuses(status, &answer, field) {
                    failures.push(format!(
                        "{path} {field}={value}: the document says it is refused; {status} {answer}"
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked >= 40, "only {checked} boundary values sent");
    println!("{checked} boundary values sent");
}
