//! The sale goes somewhere. Every business event the insurer must act on (a policy
//! bought by each payment method, the pet portal registered, a policy cancelled, a subject's
//! erasure) reaches its systems as a Standard Webhooks POST: signed, as its JSON Schema in
//! `server/events/v1/` says, in order per purchase, with the bank account number sealed for the
//! receiver and never in clear; a receiver that fails for a while delays them and loses none;
//! servers side by side deliver each once.

use std::time::Duration;

use rsa::Oaep;
use serde_json::{Value, json};

use crate::common::receiver::{Received, Receiver, SECRET, private_key};
use crate::common::{self, Spawn, TestApp, valid_pet};

/// The account number the tests' Direct Debit payer gives (`pay_by_direct_debit_and_buy`).
const ACCOUNT_NUMBER: &str = "66374958";

const METRICS_TOKEN: &str = "events-test-metrics-token-0123456789abcdef";

/// Checks what a receiver must: the signature over `id.timestamp.body` with the shared secret,
/// a recent timestamp, JSON, and the body against its type's schema. Answers the body.
fn checked(r: &Received) -> Value {
    let secret = pawpath::crypto::WebhookSecret::parse(SECRET).expect("secret");
    assert!(r.id.starts_with("msg_"), "{}", r.id);
    assert!(
        secret.verify(&r.id, r.timestamp, &r.body, &r.signature),
        "the signature of {} verifies",
        r.id
    );
    assert!(
        !secret.verify(&r.id, r.timestamp + 1, &r.body, &r.signature),
        "and covers the timestamp"
    );
    let age = chrono::Utc::now().timestamp() - r.timestamp;
    assert!((0..300).contains(&age), "a fresh timestamp: {age} s");
    assert_eq!(r.content_type, "application/json");
    let body = r.json();
    let kind = body["type"].as_str().expect("a type");
    let path = common::repo_root().join(format!("server/events/v1/{kind}.json"));
    let schema: Value = serde_json::from_str(
        &std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())),
    )
    .expect("a schema");
    let validator = jsonschema::validator_for(&schema).expect("the schema compiles");
    let errors: Vec<String> = validator
        .iter_errors(&body)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "{kind} as its schema says: {errors:?}\n{body:#}"
    );
    body
}

async fn with_receiver(receiver: &Receiver) -> TestApp {
    let mut settings = receiver.settings();
    settings.push(("PAWPATH_METRICS_TOKEN", METRICS_TOKEN.to_owned()));
    Spawn::new().with(&settings).start().await
}

fn config(app: &TestApp) -> pawpath::config::Config {
    common::config_for(&app.data_dir, &app.database_url, &app.definitions_root)
}

async fn register_portal(app: &TestApp) {
    let csrf = app.csrf().await;
    let (status, body) = app
        .post_json(
            "/api/saveportalpassword",
            &json!({ "csrf": csrf, "email": "ada@example.com", "password": "Abcdefgh1!", "password_confirmation": "Abcdefgh1!" }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
}

/// Saves the confirmation page's preferences (the communications set through the owner update).
async fn set_preferences(app: &TestApp, owner: Value) -> (u16, Value) {
    let csrf = app.csrf().await;
    let (status, body) = app
        .post_json(
            "/api/ownerdetail",
            &json!({ "csrf": csrf, "form": "communications", "owner": owner }),
        )
        .await;
    (status, body)
}

const LONG: Duration = Duration::from_secs(20);

/// Policy events and Direct Debits to the bureau: a Direct Debit purchase, then the
/// portal, a cancellation and an erasure, each delivered signed and as documented, in order; the
/// mandate with the reference the customer was given and the account number sealed.
#[tokio::test]
async fn a_direct_debit_policy_and_what_follows_reach_the_insurer_in_order() {
    let receiver = Receiver::start().await;
    let app = with_receiver(&receiver).await;
    let bought = app.buy_direct().await;
    let purchase = &bought["data"]["purchase"];
    let number = purchase["policies"][0]["policy_number"]
        .as_str()
        .expect("a policy number")
        .to_owned();

    let got = receiver.wait_for(1, LONG).await;
    assert_eq!(got.len(), 1, "policy.bought delivered");
    let event = checked(&got[0]);
    assert_eq!(event["type"], "policy.bought");
    let data = &event["data"];
    assert_eq!(data["currency"], "GBP");
    assert_eq!(data["brand"], bought["data"]["brand"]);
    assert_eq!(data["customer"]["email_address"], "ada@example.com");
    assert_eq!(data["customer"]["customer_last_name"], "O'Neill-Smith");
    let policy = &data["policies"][0];
    assert_eq!(policy["policy_number"], number.as_str());
    assert_eq!(policy["pet"]["answers"]["pet_name"], "Biscuit");
    assert_eq!(policy["pet"]["answers"]["pet_breed"], "D173");
    assert!(
        policy["pet"]["answers"].get("product").is_none(),
        "answers only"
    );
    assert_eq!(
        policy["premium"]["monthly"],
        purchase["policies"][0]["monthly_premium"]
    );
    let ipt: rust_decimal::Decimal = policy["premium"]["annual_ipt"]
        .as_str()
        .expect("IPT")
        .parse()
        .expect("an amount");
    assert!(ipt > rust_decimal::Decimal::ZERO, "the IPT in the price");
    assert!(policy["cover"]["excess"].is_string());
    let payment = &data["payment"];
    assert_eq!(payment["method"], "direct_debit");
    assert_eq!(payment["frequency"], "monthly");
    assert_eq!(payment["collection_day"], 15);
    assert_eq!(
        payment["schedule"].as_array().map(Vec::len),
        purchase["collections"].as_array().map(Vec::len)
    );
    let mandate = &payment["mandate"];
    let reference = format!(
        "{}-DD",
        data["quote_reference"].as_str().expect("a reference")
    );
    assert_eq!(purchase["mandate_reference"], reference.as_str());
    assert_eq!(
        mandate["reference"],
        reference.as_str(),
        "the customer's DD reference"
    );
    assert_eq!(mandate["sort_code"], "08-99-99");
    // The account number: nowhere in clear, sealed to the receiver's key with the reference.
    assert!(!got[0].body.contains(ACCOUNT_NUMBER), "{}", got[0].body);
    let sealed = &mandate["account_number"];
    assert_eq!(sealed["algorithm"], "RSA-OAEP-256");
    assert_eq!(sealed["label"], reference.as_str());
    use base64::Engine as _;
    let ciphertext = base64::engine::general_purpose::STANDARD
        .decode(sealed["ciphertext"].as_str().expect("ciphertext"))
        .expect("base64");
    let key = private_key();
    let plain = key
        .decrypt(
            Oaep::new_with_label::<rsa::sha2::Sha256, _>(reference.as_str()),
            &ciphertext,
        )
        .expect("the receiver's key opens it");
    assert_eq!(plain, ACCOUNT_NUMBER.as_bytes());
    assert!(
        key.decrypt(
            Oaep::new_with_label::<rsa::sha2::Sha256, _>("PP00000000-DD"),
            &ciphertext
        )
        .is_err(),
        "bound to its mandate"
    );

    // The portal, the preferences changed, a cancellation and an erasure, in the purchase's
    // stream, in order.
    register_portal(&app).await;
    let (status, body) = set_preferences(
        &app,
        json!({ "documents_by_post": true, "marketing_preferences": { "optin_sms": true } }),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let config = config(&app);
    assert!(
        pawpath::commands::terminate_policy(&config, &number)
            .await
            .expect("terminate")
    );
    pawpath::commands::subject(
        &config,
        true,
        &pawpath::store::retention::Subject::Email("ada@example.com".into()),
        false,
    )
    .await
    .expect("erase");
    let got = receiver.wait_for(5, LONG).await;
    let kinds: Vec<String> = got.iter().map(Received::kind).collect();
    assert_eq!(
        kinds,
        [
            "policy.bought",
            "portal.registered",
            "preferences.changed",
            "policy.cancelled",
            "subject.erased"
        ]
    );
    let bodies: Vec<Value> = got.iter().map(checked).collect();
    let stream = &bodies[0]["data"]["purchase_id"];
    assert!(bodies.iter().all(|b| &b["data"]["purchase_id"] == stream));
    assert_eq!(bodies[1]["data"]["email"], "ada@example.com");
    assert_eq!(bodies[2]["data"]["documents_by_post"], true);
    assert_eq!(
        bodies[2]["data"]["marketing"],
        json!({ "optin_email": false, "optin_post": false, "optin_sms": true, "optin_phone": false })
    );
    assert_eq!(bodies[3]["data"]["policy_number"], number.as_str());
    assert_eq!(
        bodies[3]["data"]["cancelled_on"],
        common::uk_today().to_string()
    );
    assert_eq!(bodies[4]["data"]["policy_numbers"], json!([number]));
    assert_eq!(receiver.requests().len(), 5, "each once");
    // Marked delivered once the receiver's answer is read: none waiting soon after.
    let deadline = tokio::time::Instant::now() + LONG;
    while app
        .metric(METRICS_TOKEN, "pawpath_policy_events_waiting")
        .await
        != Some(0.0)
        && tokio::time::Instant::now() < deadline
    {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(
        app.metric(METRICS_TOKEN, "pawpath_policy_events_waiting")
            .await,
        Some(0.0)
    );
}

/// A card payer's policy is sent with the card as a receipt shows it (no card number).
#[tokio::test]
async fn a_card_policy_is_sent_with_its_payment_and_no_card_number() {
    let receiver = Receiver::start().await;
    let app = with_receiver(&receiver).await;
    assert_eq!(app.view("/quote?brand=epw").await["brand"], "epw");
    app.reach_payment(json!([valid_pet()])).await;
    let view = app.view("/quote/payment").await;
    let (_, token) = app
        .tokenise(
            &view,
            json!({ "card": { "card_name": "Ada O'Neill", "card_number": "4111 1111 1111 1111", "card_expiry": "12/30", "card_cvc": "737", "address1": "12 Kings Road", "address3": "London" } }),
        )
        .await;
    let csrf = app.csrf().await;
    let (status, body) = app
        .post_json(
            "/api/setup-payment",
            &json!({ "csrf": csrf, "payment": { "payment_method": "CC", "payment_frequency": "AP", "card_token": token["data"]["token"] } }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let csrf = app.csrf().await;
    let (status, body) = app
        .post_json(
            "/api/purchase",
            &json!({ "csrf": csrf, "idempotency_key": "card-events-1" }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let got = receiver.wait_for(1, LONG).await;
    assert_eq!(got.len(), 1);
    let event = checked(&got[0]);
    let payment = &event["data"]["payment"];
    assert_eq!(payment["method"], "card");
    assert_eq!(payment["frequency"], "annual");
    assert_eq!(payment["card"]["last4"], "1111");
    assert_eq!(
        payment["card"]["kept_for_collections"],
        Value::Null,
        "a yearly payer's one payment: no card kept"
    );
    assert_eq!(
        payment["card"]["amount"],
        body["data"]["purchase"]["card"]["amount"]
    );
    assert!(!got[0].body.contains("4111111111111111") && !got[0].body.contains("4111 1111"));
    assert!(payment.get("mandate").is_none());
}

/// Free rehoming cover is a policy the insurer administers too (method none).
#[tokio::test]
async fn free_rehoming_cover_is_sent_as_a_policy_with_nothing_to_collect() {
    let receiver = Receiver::start().await;
    let app = with_receiver(&receiver).await;
    let csrf = crate::rehoming_api::reach_confirmation(
        &app,
        &crate::rehoming_api::data_url("image/png", crate::rehoming_api::PNG),
        "HRS-55120",
    )
    .await;
    let (status, body) =
        crate::rehoming_api::post(&app, "/api/confirmationrescue", &csrf, json!({})).await;
    assert_eq!(status, 200, "{body}");
    let got = receiver.wait_for(1, LONG).await;
    assert_eq!(got.len(), 1);
    let event = checked(&got[0]);
    assert_eq!(event["data"]["journey"], "rehoming");
    assert_eq!(event["data"]["payment"]["method"], "none");
    assert_eq!(event["data"]["policies"][0]["premium"]["monthly"], "0.00");
    assert_eq!(
        event["data"]["policies"][0]["pet"]["answers"]["pet_type"],
        "cat"
    );
}

/// A receiver that is down delays the events and loses none: each attempt carries the
/// same id and body (so the receiver can deduplicate), the failure is listed for operators and
/// counted, the purchase's later events wait behind the first, and all arrive in order once it
/// is back (sooner with `pawpath events retry`).
#[tokio::test]
async fn a_receiver_down_for_a_while_delays_the_events_and_loses_none() {
    let receiver = Receiver::start().await;
    receiver.fail_next(u32::MAX);
    let app = with_receiver(&receiver).await;
    app.buy_direct().await;
    register_portal(&app).await;
    let deadline = tokio::time::Instant::now() + LONG;
    while receiver.requests().len() < 3 && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let tried = receiver.requests();
    assert!(tried.len() >= 3, "retried while down");
    assert!(tried.iter().all(|r| r.status == 503));
    assert!(
        tried
            .iter()
            .all(|r| r.id == tried[0].id && r.body == tried[0].body)
    );
    assert!(
        tried.iter().all(|r| r.kind() == "policy.bought"),
        "the portal event waits behind the purchase's first"
    );
    let config = config(&app);
    let failing = pawpath::commands::events_list(&config, true, 10)
        .await
        .expect("list");
    assert_eq!(failing.len(), 1, "{failing:?}");
    assert_eq!(failing[0].id, tried[0].id);
    assert!(failing[0].attempts >= 2);
    assert!(
        failing[0]
            .last_error
            .as_deref()
            .is_some_and(|e| e.contains("503") && e.contains("down for maintenance")),
        "{failing:?}"
    );
    let waiting = pawpath::commands::events_list(&config, false, 10)
        .await
        .expect("list");
    assert_eq!(waiting.len(), 2, "the portal event waits too");
    assert!(
        app.metric(METRICS_TOKEN, "pawpath_policy_events_waiting")
            .await
            == Some(2.0)
    );
    assert!(
        app.metric(METRICS_TOKEN, "pawpath_policy_events_most_attempts")
            .await
            .is_some_and(|n| n >= 2.0)
    );
    assert_eq!(
        app.metric(
            METRICS_TOKEN,
            "pawpath_policy_events_undelivered_over_a_day"
        )
        .await,
        Some(0.0)
    );

    // While the receiver is still down, a retry makes the waiting event due now (its answer is
    // true whatever the worker is doing: the receiver refuses everything).
    assert!(
        pawpath::commands::events_retry(&config, &tried[0].id)
            .await
            .expect("retry")
    );
    // Back up: made due now again, so it is not left to its doubled delay (the worker may
    // already have delivered it, which answers false: either way it arrives once).
    receiver.fail_next(0);
    let _ = pawpath::commands::events_retry(&config, &tried[0].id)
        .await
        .expect("retry");
    assert!(
        !pawpath::commands::events_retry(&config, "msg_unknown")
            .await
            .expect("retry"),
        "an unknown event is said to be none"
    );
    let got = receiver.wait_for(2, LONG).await;
    let kinds: Vec<String> = got.iter().map(Received::kind).collect();
    assert_eq!(kinds, ["policy.bought", "portal.registered"]);
    assert_eq!(
        got[0].id, tried[0].id,
        "the same id as every failed attempt"
    );
    assert_eq!(got[0].body, tried[0].body);
    for r in &got {
        checked(r);
    }
    assert!(
        pawpath::commands::events_list(&config, false, 10)
            .await
            .expect("list")
            .is_empty()
    );
}

/// Servers side by side on one database deliver each event once.
#[tokio::test]
async fn two_servers_deliver_each_event_once() {
    let receiver = Receiver::start().await;
    let first = with_receiver(&receiver).await;
    let settings = receiver.settings();
    let second = first.another_server(&settings).await;
    let third = first.another_server(&settings).await;
    for app in [&first, &second, &third] {
        app.buy_direct().await;
    }
    let got = receiver.wait_for(3, LONG).await;
    assert_eq!(got.len(), 3);
    tokio::time::sleep(Duration::from_millis(500)).await;
    let all = receiver.requests();
    let mut ids: Vec<&str> = all.iter().map(|r| r.id.as_str()).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!((all.len(), ids.len()), (3, 3), "each event once: {all:?}");
}

/// The three settings go together, each checked and named when wrong; an https host
/// must have them; nothing secret is printed.
#[test]
fn the_receiver_s_settings_go_together_and_are_checked() {
    let folder = tempfile::tempdir().expect("tempdir");
    let receiver_key = crate::common::receiver::public_key_path();
    let problem = |extra: &[(&str, &str)]| -> Option<(String, String)> {
        let mut vars: Vec<(String, String)> = vec![(
            "PAWPATH_DATA_DIR".into(),
            folder.path().display().to_string(),
        )];
        vars.extend(
            extra
                .iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned())),
        );
        pawpath::config::Config::from_lookup(|k| {
            vars.iter()
                .rev()
                .find(|(n, _)| n == k)
                .map(|(_, v)| v.clone())
        })
        .err()
        .map(|e| (e.variable.to_owned(), e.problem))
    };
    let url = ("PAWPATH_POLICY_WEBHOOK_URL", "http://127.0.0.1:9/events");
    let secret = ("PAWPATH_POLICY_WEBHOOK_SECRET", SECRET);
    let key = ("PAWPATH_POLICY_WEBHOOK_ACCOUNT_KEY", receiver_key.as_str());
    assert_eq!(problem(&[url, secret, key]), None);
    assert_eq!(problem(&[]), None, "unset on an http host: events wait");
    let named = |extra: &[(&str, &str)]| problem(extra).map(|(v, _)| v);
    assert_eq!(
        named(&[url, key]).as_deref(),
        Some("PAWPATH_POLICY_WEBHOOK_SECRET")
    );
    assert_eq!(
        named(&[url, secret]).as_deref(),
        Some("PAWPATH_POLICY_WEBHOOK_ACCOUNT_KEY")
    );
    assert_eq!(
        named(&[secret, key]).as_deref(),
        Some("PAWPATH_POLICY_WEBHOOK_URL")
    );
    let (variable, said) = problem(&[
        url,
        ("PAWPATH_POLICY_WEBHOOK_SECRET", "whsec_c2hvcnQ="),
        key,
    ])
    .expect("a short secret");
    assert_eq!(variable, "PAWPATH_POLICY_WEBHOOK_SECRET");
    assert!(said.contains("24 to 64"), "{said}");
    let (_, said) = problem(&[
        url,
        secret,
        (
            "PAWPATH_POLICY_WEBHOOK_ACCOUNT_KEY",
            "-----BEGIN PUBLIC KEY-----\nnot a key\n-----END PUBLIC KEY-----",
        ),
    ])
    .expect("not a key");
    assert!(said.contains("PEM"), "{said}");
    let (_, said) = problem(&[
        url,
        secret,
        ("PAWPATH_POLICY_WEBHOOK_ACCOUNT_KEY", "/no/such/key.pem"),
    ])
    .expect("no file");
    assert!(said.contains("/no/such/key.pem"), "{said}");
    assert_eq!(
        named(&[
            ("PAWPATH_POLICY_WEBHOOK_URL", "ftp://insurer.example/in"),
            secret,
            key
        ])
        .as_deref(),
        Some("PAWPATH_POLICY_WEBHOOK_URL")
    );
    // A live (https) host: required, and https only.
    let https = ("PAWPATH_PUBLIC_URL", "https://quotes.example.test");
    let provider = ("PAWPATH_PAYMENT_PROVIDER", "stripe");
    let (sk, pk, whsec) = (
        ("PAWPATH_STRIPE_SECRET_KEY", "sk_test_pawpath"),
        ("PAWPATH_STRIPE_PUBLISHABLE_KEY", "pk_test_pawpath"),
        ("PAWPATH_STRIPE_WEBHOOK_SECRET", "whsec_pawpath"),
    );
    let (variable, said) = problem(&[https, provider, sk, pk, whsec]).expect("required on https");
    assert_eq!(variable, "PAWPATH_POLICY_WEBHOOK_URL");
    assert!(said.contains("https host"), "{said}");
    assert_eq!(
        named(&[https, provider, sk, pk, whsec, url, secret, key]).as_deref(),
        Some("PAWPATH_POLICY_WEBHOOK_URL"),
        "plain http from a live host"
    );
    assert_eq!(
        problem(&[
            https,
            provider,
            sk,
            pk,
            whsec,
            (
                "PAWPATH_POLICY_WEBHOOK_URL",
                "https://insurer.example/events"
            ),
            secret,
            key
        ]),
        None
    );
    // The secret is never in what is printed of the configuration.
    let config = crate::common::config_with(
        folder.path(),
        "sqlite::memory:",
        &common::repo_root(),
        &[
            (url.0, url.1.to_owned()),
            (secret.0, secret.1.to_owned()),
            (key.0, key.1.to_owned()),
        ],
    );
    let printed = format!("{config:?}");
    assert!(!printed.contains("cGF3cGF0aC10ZXN0"), "{printed}");
}

/// owner-payment.md §1 ("After purchase they ... can set marketing and communication
/// preferences"), a bought quote takes the confirmation page's preferences, and only
/// those; each change reaches the insurer once as `preferences.changed`, saving the same choice
/// again sends nothing, and the bought answers and prices stay as they were.
#[tokio::test]
async fn preferences_set_after_buying_reach_the_insurer_and_change_nothing_else() {
    let receiver = Receiver::start().await;
    let app = with_receiver(&receiver).await;
    app.buy_direct().await;
    assert_eq!(receiver.wait_for(1, LONG).await.len(), 1, "policy.bought");
    let before = app.view("/api/confirmation").await;

    let (status, body) = set_preferences(
        &app,
        json!({ "documents_by_post": false, "marketing_preferences": { "optin_email": true, "optin_post": true } }),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body["data"]["step"]["id"], "confirmation",
        "still the confirmation"
    );
    assert_eq!(
        body["data"]["edits"]["communications"]["answers"]["owner"]["marketing_preferences"]["optin_post"],
        true,
        "the page shows the choice as saved"
    );
    assert_eq!(
        body["data"]["purchase"], before["purchase"],
        "the policies, prices and payment as bought"
    );
    let got = receiver.wait_for(2, LONG).await;
    let changed = checked(&got[1]);
    assert_eq!(changed["type"], "preferences.changed");
    assert_eq!(changed["data"]["marketing"]["optin_post"], true);
    assert_eq!(changed["data"]["marketing"]["optin_sms"], false);

    // The same choice again: taken, nothing to tell the insurer.
    let (status, body) = set_preferences(
        &app,
        json!({ "documents_by_post": false, "marketing_preferences": { "optin_email": true, "optin_post": true } }),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    // An invalid answer: the field named, nothing stored or sent.
    let (status, body) = set_preferences(&app, json!({ "documents_by_post": "yes" })).await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(
        body["errors"][0]["field"], "owner.documents_by_post",
        "{body}"
    );
    // What the confirmation page does not offer stays closed once bought.
    let csrf = app.csrf().await;
    let (status, body) = app
        .post_json(
            "/api/ownerdetail",
            &json!({ "csrf": csrf, "form": "your_details", "owner": { "customer_first_name": "Eve" } }),
        )
        .await;
    assert_eq!(status, 409, "{body}");
    let after = app.view("/api/confirmation").await;
    assert_eq!(
        after["owner"]["customer_first_name"],
        before["owner"]["customer_first_name"]
    );
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(receiver.requests().len(), 2, "one change, one event");
}
