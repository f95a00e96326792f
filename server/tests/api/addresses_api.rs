//! Address lookup (owner-payment.md §3 Address lookup items, §5 Address search, §7 Address search
//! and third-party lookup): the built-in provider, and the Loqate-compatible client against a
//! local fake of Capture Interactive Find v1.10 and Retrieve, including its error items.

use crate::common;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::extract::State;
use axum::routing::post;
use axum::{Form, Json, Router};
use common::{spawn_app, spawn_app_with};
use serde_json::{Value, json};

async fn search(app: &common::TestApp, body: Value) -> (u16, Value) {
    app.post_json("/api/AddressSearch", &body).await
}

/// The published example postcodes a tester tries first are found, each with a house 1.
#[tokio::test]
async fn the_built_in_lookup_knows_the_postcodes_testers_try_first() {
    let app = spawn_app().await;
    for (typed, postcode, town) in [
        ("sw1a1aa", "SW1A 1AA", "London"),
        ("SW1A 2AA", "SW1A 2AA", "London"),
        ("ec1a 1bb", "EC1A 1BB", "London"),
        ("W1A 0AX", "W1A 0AX", "London"),
        ("m1 1ae", "M1 1AE", "Manchester"),
        ("B33 8TH", "B33 8TH", "Birmingham"),
        ("CR2 6XH", "CR2 6XH", "South Croydon"),
        ("DN55 1PT", "DN55 1PT", "Doncaster"),
        ("EH1 1YZ", "EH1 1YZ", "Edinburgh"),
    ] {
        let (status, answer) = search(&app, json!({ "address": typed, "text": "1" })).await;
        assert_eq!(status, 200, "{typed}: {answer}");
        let items = answer["data"].as_array().expect("items");
        assert_eq!(items.len(), 1, "{typed}: {answer}");
        let description = items[0]["Description"].as_str().expect("description");
        assert!(
            description.ends_with(&format!("{town}, {postcode}")) || description.contains(postcode),
            "{typed}: {description}"
        );
        assert!(description.contains(town), "{typed}: {description}");
    }
}

#[tokio::test]
async fn the_built_in_lookup_finds_by_postcode_and_house() {
    let app = spawn_app().await;
    let cases: Vec<(&str, Value, u16, &str)> = vec![
        (
            "§5 an empty postcode: Postcode required for address search",
            json!({ "address": "" }),
            422,
            "Postcode required for address search",
        ),
        (
            "§5 not a UK postcode: Invalid postcode",
            json!({ "address": "BS11 8N!" }),
            422,
            "Invalid postcode",
        ),
    ];
    for (case, body, status, message) in cases {
        let (got, answer) = search(&app, body).await;
        assert_eq!(got, status, "{case}: {answer}");
        assert_eq!(answer["errors"][0]["message"], message, "{case}");
        assert_eq!(answer["errors"][0]["field"], "postcode", "{case}");
    }
    // A postcode alone, sent without its space: every house on it.
    let (status, answer) = search(&app, json!({ "address": "bs118nn" })).await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["postcode"], "BS11 8NN");
    let items = answer["data"].as_array().expect("items");
    assert!(items.len() > 10, "a whole street: {}", items.len());
    assert!(items.iter().all(|i| i["Type"] == "Address"));
    assert!(items.iter().all(|i| {
        i["Description"]
            .as_str()
            .is_some_and(|d| d.ends_with("BS11 8NN"))
    }));
    // With a house number: that house.
    let (_, answer) = search(&app, json!({ "address": "BS11 8NN", "text": "12" })).await;
    let items = answer["data"].as_array().expect("items");
    assert_eq!(items.len(), 1, "{answer}");
    let id = items[0]["Id"].as_str().expect("id").to_owned();
    let (status, answer) = search(&app, json!({ "id": id })).await;
    assert_eq!(status, 200);
    let address = &answer["data"];
    assert!(
        address["Line1"]
            .as_str()
            .is_some_and(|l| l.starts_with("12 ")),
        "{address}"
    );
    assert_eq!(address["City"], "Bristol");
    assert_eq!(address["PostalCode"], "BS11 8NN");
    // A postcode with no addresses: an empty list (the page says "No results found for that
    // postcode."). An unknown id: no address.
    let (_, answer) = search(&app, json!({ "address": "BS99 9ZZ" })).await;
    assert_eq!(answer["data"], json!([]));
    let (_, answer) = search(&app, json!({ "id": "BS118NN|999" })).await;
    assert_eq!(answer["data"], Value::Null);
    // Bad input names the field.
    let (status, answer) = search(&app, json!({ "address": 12 })).await;
    assert_eq!(status, 400);
    assert!(
        answer["message"]
            .as_str()
            .is_some_and(|m| m.contains("address"))
    );
    let (status, _) = search(&app, json!({ "postcode": "BS11 8NN" })).await;
    assert_eq!(status, 400);
}

/// What the fake saw.
#[derive(Default)]
struct Seen {
    finds: Vec<HashMap<String, String>>,
}

type Shared = Arc<Mutex<Seen>>;

fn error_item(code: &str, description: &str) -> Json<Value> {
    Json(
        json!({ "Items": [{ "Error": code, "Description": description, "Cause": "fake", "Resolution": "fake" }] }),
    )
}

async fn fake_find(
    State(seen): State<Shared>,
    Form(p): Form<HashMap<String, String>>,
) -> Json<Value> {
    seen.lock().expect("lock").finds.push(p.clone());
    if p.get("Key").map(String::as_str) != Some("test-key") {
        return error_item("2", "Unknown key");
    }
    let text = p.get("Text").cloned().unwrap_or_default();
    match (text.as_str(), p.get("Container").map(String::as_str)) {
        ("BS11 8NN", None) => Json(json!({ "Items": [
            { "Id": "GB|RM|ENG|8NN-BS11", "Type": "Postcode", "Text": "BS11 8NN", "Highlight": "0-8", "Description": "Kings Road, Bristol - 2 Addresses" }
        ]})),
        ("BS11 8NN", Some("GB|RM|ENG|8NN-BS11")) => Json(json!({ "Items": [
            { "Id": "GB|RM|A|1", "Type": "Address", "Text": "1 Kings Road", "Highlight": "", "Description": "Bristol, BS11 8NN" },
            { "Id": "GB|RM|A|2", "Type": "Address", "Text": "2 Kings Road", "Highlight": "", "Description": "Bristol, BS11 8NN" }
        ]})),
        ("2 BS11 8NN", None) => Json(json!({ "Items": [
            { "Id": "GB|RM|A|2", "Type": "Address", "Text": "2 Kings Road", "Highlight": "0-1", "Description": "Bristol, BS11 8NN" }
        ]})),
        ("EC1A 1BB", None) => error_item("1001", "Text or Container Required"),
        _ => Json(json!({ "Items": [] })),
    }
}

async fn fake_retrieve(Form(p): Form<HashMap<String, String>>) -> Json<Value> {
    if p.get("Key").map(String::as_str) != Some("test-key") {
        return error_item("2", "Unknown key");
    }
    match p.get("Id").map(String::as_str) {
        Some("GB|RM|A|2") => Json(json!({ "Items": [{
            "Line1": "2 Kings Road", "Line2": "", "City": "Bristol", "Province": "",
            "PostalCode": "BS11 8NN", "AdminAreaName": "Bristol"
        }]})),
        _ => error_item("1001", "Id Invalid"),
    }
}

async fn start_fake() -> (String, Shared) {
    let seen: Shared = Arc::default();
    let router = Router::new()
        .route("/Capture/Interactive/Find/v1.10/json3.ws", post(fake_find))
        .route(
            "/Capture/Interactive/Retrieve/v1.2/json3.ws",
            post(fake_retrieve),
        )
        .with_state(seen.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(async move {
        axum::serve(listener, router).await.expect("serve");
    });
    (format!("http://{addr}"), seen)
}

async fn loqate_app(url: &str, key: &str) -> common::TestApp {
    spawn_app_with(&[
        ("PAWPATH_ADDRESS_PROVIDER", "loqate".to_owned()),
        ("PAWPATH_LOQATE_URL", url.to_owned()),
        ("PAWPATH_LOQATE_KEY", key.to_owned()),
    ])
    .await
}

#[tokio::test]
async fn the_loqate_client_follows_containers_and_retrieves() {
    let (url, seen) = start_fake().await;
    let app = loqate_app(&url, "test-key").await;
    // A postcode is a container: searched again with Container=Id; the addresses come back.
    let (status, answer) = search(&app, json!({ "address": "bs118nn" })).await;
    assert_eq!(status, 200, "{answer}");
    let texts: Vec<&str> = answer["data"]
        .as_array()
        .expect("items")
        .iter()
        .filter_map(|i| i["Text"].as_str())
        .collect();
    assert_eq!(texts, vec!["1 Kings Road", "2 Kings Road"]);
    {
        let seen = seen.lock().expect("lock");
        let first = &seen.finds[0];
        for (k, v) in [
            ("Text", "BS11 8NN"),
            ("IsMiddleware", "false"),
            ("Origin", ""),
            ("Countries", "GB"),
            ("Limit", "10"),
            ("Language", "en-gb"),
        ] {
            assert_eq!(first.get(k).map(String::as_str), Some(v), "Find sends {k}");
        }
        assert!(!first.contains_key("Container"));
        assert_eq!(
            seen.finds[1].get("Container").map(String::as_str),
            Some("GB|RM|ENG|8NN-BS11")
        );
    }
    // With a house number, then Retrieve.
    let (_, answer) = search(&app, json!({ "address": "BS11 8NN", "text": "2" })).await;
    assert_eq!(answer["data"][0]["Id"], "GB|RM|A|2");
    let (status, answer) = search(&app, json!({ "id": "GB|RM|A|2" })).await;
    assert_eq!(status, 200);
    assert_eq!(
        answer["data"],
        json!({ "Line1": "2 Kings Road", "Line2": "", "City": "Bristol", "Province": "", "PostalCode": "BS11 8NN", "AdminAreaName": "Bristol" })
    );
    // Nothing found: an empty list.
    let (_, answer) = search(&app, json!({ "address": "BS99 9ZZ" })).await;
    assert_eq!(answer["data"], json!([]));
}

#[tokio::test]
async fn the_loqate_error_items_become_a_clear_failure_without_the_key() {
    let (url, _) = start_fake().await;
    // An error item from Find.
    let app = loqate_app(&url, "test-key").await;
    let (status, answer) = search(&app, json!({ "address": "EC1A 1BB" })).await;
    assert_eq!(status, 502, "{answer}");
    assert_eq!(answer["error"], "unavailable");
    // An error item from Retrieve.
    let (status, _) = search(&app, json!({ "id": "GB|RM|A|999" })).await;
    assert_eq!(status, 502);
    // A wrong key: the provider says so; the answer never echoes the key.
    let app = loqate_app(&url, "wrong-secret-key").await;
    let (status, answer) = search(&app, json!({ "address": "BS11 8NN" })).await;
    assert_eq!(status, 502);
    assert!(!answer.to_string().contains("wrong-secret-key"));
    // Nobody listening: a clear failure too.
    let app = loqate_app("http://127.0.0.1:9", "test-key").await;
    let (status, _) = search(&app, json!({ "address": "BS11 8NN" })).await;
    assert_eq!(status, 502);
}

#[test]
fn the_key_is_required_and_never_printed() {
    let dir = tempfile::tempdir().expect("dir");
    let vars = |key: Option<&str>| {
        let mut v = vec![
            ("PAWPATH_DATA_DIR", dir.path().display().to_string()),
            ("PAWPATH_ADDRESS_PROVIDER", "loqate".to_owned()),
        ];
        if let Some(k) = key {
            v.push(("PAWPATH_LOQATE_KEY", k.to_owned()));
        }
        v
    };
    let missing = vars(None);
    let e = pawpath::config::Config::from_lookup(|k| {
        missing
            .iter()
            .find(|(n, _)| *n == k)
            .map(|(_, v)| v.clone())
    })
    .expect_err("a key is needed");
    assert_eq!(e.variable, "PAWPATH_LOQATE_KEY");
    let given = vars(Some("very-secret-key"));
    let config = pawpath::config::Config::from_lookup(|k| {
        given.iter().find(|(n, _)| *n == k).map(|(_, v)| v.clone())
    })
    .expect("config");
    assert!(!format!("{config:?}").contains("very-secret-key"));
}
