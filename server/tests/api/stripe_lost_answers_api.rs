//! Money is never taken without a policy (owner-payment.md §2 /creditcard-confirmation, §5
//! Payment), against the local fake of Stripe's API (tests/fake-stripe.mjs) when Stripe's answers
//! go wrong: the answer to a PaymentIntent's creation held past pawpath's timeout, or the
//! connection dropped, after the money was taken; a 5xx that Stripe saves under the idempotency
//! key and answers again; a payment left `processing`; a next action pawpath cannot send the
//! customer to. Whether the customer waits, leaves, or pays again with another card, they end
//! with exactly one policy and one payment kept, or with no policy and nothing kept; no answer
//! is a 500.

use std::time::Duration;

use serde_json::{Value, json};

use crate::common::TestApp;
use crate::common::fake_stripe::{FakeStripe, pay_with, purchases};

const METRICS_TOKEN: &str = "stripe-lost-metrics-token-0123456789abcdef";

/// A card payer on epw at the card confirmation; the reconciliation runs every 200 ms for
/// attempts older than 3.5 s (the fake's timeout is 1.5 s).
async fn at_card_confirmation(fake: &FakeStripe, number: &str) -> TestApp {
    crate::common::fake_stripe::at_card_confirmation(
        fake,
        number,
        &[
            ("PAWPATH_METRICS_TOKEN", METRICS_TOKEN.to_owned()),
            ("PAWPATH_CARD_RECONCILE_MS", "200".to_owned()),
            ("PAWPATH_CARD_RECONCILE_AFTER_MS", "3500".to_owned()),
        ],
    )
    .await
}

/// Pay now: never a 500, whatever Stripe did.
async fn buy(app: &TestApp, key: &str) -> (u16, Value) {
    let csrf = app.csrf().await;
    let (status, body) = app
        .post_json(
            "/api/purchase",
            &json!({ "csrf": csrf, "idempotency_key": key }),
        )
        .await;
    assert!(
        status < 500 || status == 502 || status == 503,
        "{status} {body}"
    );
    (status, body)
}

/// The payments Stripe has taken and kept: succeeded, less those refunded.
async fn kept(fake: &FakeStripe) -> usize {
    let state = fake.state().await;
    let refunded: Vec<&str> = state["refunds"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|r| r["payment_intent"].as_str())
        .collect();
    state["intents"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|pi| pi["status"] == "succeeded")
        .filter(|pi| !refunded.contains(&pi["id"].as_str().unwrap_or_default()))
        .count()
}

/// Waits (at most 20 s) until `done` holds for the app and the fake.
async fn until<F, Fut>(what: &str, mut done: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    for _ in 0..100 {
        if done().await {
            return;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    panic!("never: {what}");
}

/// The customer's one purchase: bought once, with exactly one payment kept, and nothing left
/// unsettled for the metric to report.
async fn ends_with_one_policy(app: &TestApp, fake: &FakeStripe) {
    until("settled", || async {
        app.sql("select count(*) from card_attempts where outcome in ('open', 'lost')")
            .await
            .as_deref()
            == Some("0")
    })
    .await;
    assert_eq!(purchases(app).await, 1);
    assert_eq!(kept(fake).await, 1, "{}", fake.state().await);
    assert_eq!(
        app.metric(METRICS_TOKEN, "pawpath_card_attempts_unsettled")
            .await,
        Some(0.0)
    );
}

/// The answer to the creation held past the timeout after the card was charged, and the
/// customer, told to try again, pays with another card: the payment already taken buys the
/// quote (the first card is the one shown), and the second card is never charged. Before, the
/// same key went out with other parameters and every try answered 500.
#[tokio::test]
async fn a_lost_answer_then_another_card_buys_once_with_the_payment_taken() {
    let fake = FakeStripe::start();
    fake.configure(json!({ "webhooks": false })).await;
    let app = at_card_confirmation(&fake, "4242424242424242").await;
    fake.configure(json!({ "delay_ms": 4000 })).await;
    let (status, _) = buy(&app, "lost-then-other-card").await;
    assert_eq!(status, 502);
    assert_eq!(kept(&fake).await, 1, "the money was taken");
    pay_with(&app, &fake, "5555555555554444").await;
    let (status, body) = buy(&app, "lost-then-other-card-2").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["purchase"]["card"]["last4"], "4242", "{body}");
    ends_with_one_policy(&app, &fake).await;
    let state = fake.state().await;
    assert_eq!(
        state["intents"].as_array().map(Vec::len),
        Some(1),
        "{state}"
    );
}

/// The answer held past the timeout, and the customer leaves: the payment's webhook names the
/// attempt it was made for (not a payment id pawpath never received), and buys the quote.
#[tokio::test]
async fn a_lost_answer_and_a_customer_who_leaves_is_bought_by_the_webhook() {
    let fake = FakeStripe::start();
    let app = at_card_confirmation(&fake, "4242424242424242").await;
    fake.webhooks_to(&app.base).await;
    fake.configure(json!({ "delay_ms": 4000 })).await;
    // The page holds its token from when it was drawn.
    let csrf = app.csrf().await;
    let body = json!({ "csrf": csrf, "idempotency_key": "lost-then-leave" });
    let pay_now = || app.post_json("/api/purchase", &body);
    let (status, _) = pay_now().await;
    assert_eq!(status, 502);
    until("bought by the webhook", || async {
        purchases(&app).await == 1
    })
    .await;
    ends_with_one_policy(&app, &fake).await;
    // The customer, trying again from the page, finds the quote bought.
    let (status, body) = pay_now().await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(purchases(&app).await, 1);
}

/// The connection dropped after the card was charged, no webhook comes, and the customer leaves:
/// the reconciliation lists the payments made under the attempt's customer, and buys the quote.
#[tokio::test]
async fn a_dropped_answer_with_no_webhook_is_found_and_bought() {
    let fake = FakeStripe::start();
    fake.configure(json!({ "webhooks": false })).await;
    let app = at_card_confirmation(&fake, "4242424242424242").await;
    fake.configure(json!({ "drop": true })).await;
    let (status, _) = buy(&app, "dropped-answer").await;
    assert_eq!(status, 502);
    assert_eq!(purchases(&app).await, 0);
    assert_eq!(
        app.metric(METRICS_TOKEN, "pawpath_card_attempts_unsettled")
            .await,
        Some(1.0),
        "an attempt whose outcome is not known is counted"
    );
    until("bought by the reconciliation", || async {
        purchases(&app).await == 1
    })
    .await;
    ends_with_one_policy(&app, &fake).await;
}

/// Stripe saves a 5xx under its key and answers it again to every retry: the attempt is not
/// asked again for ever; the customer's next try is a new attempt with a new key, which pays;
/// the payment the saved failure hid is found and refunded.
#[tokio::test]
async fn a_saved_5xx_ends_its_attempt_and_the_payment_it_hid_is_refunded() {
    let fake = FakeStripe::start();
    fake.configure(json!({ "webhooks": false })).await;
    let app = at_card_confirmation(&fake, "4242424242424242").await;
    fake.configure(json!({ "fail_status": 500 })).await;
    let (status, _) = buy(&app, "saved-5xx").await;
    assert_eq!(status, 502);
    let (status, _) = buy(&app, "saved-5xx").await;
    assert_eq!(
        status, 200,
        "the saved failure ends the attempt; a new one pays"
    );
    assert_eq!(
        app.sql("select outcome from card_attempts where attempt = 1")
            .await
            .as_deref(),
        Some("lost")
    );
    until("refunded", || async {
        fake.state().await["refunds"].as_array().map(Vec::len) == Some(1)
    })
    .await;
    ends_with_one_policy(&app, &fake).await;
    assert_eq!(
        app.sql("select outcome from card_attempts where attempt = 1")
            .await
            .as_deref(),
        Some("refunded")
    );
}

/// A payment `processing` is neither paid nor failed: the customer is told it is being
/// processed (not that it was declined, and nothing is bought), and its outcome, by webhook,
/// buys the quote.
#[tokio::test]
async fn a_processing_payment_waits_for_its_outcome() {
    let fake = FakeStripe::start();
    let app = at_card_confirmation(&fake, "4242424242424242").await;
    fake.webhooks_to(&app.base).await;
    fake.configure(json!({ "processing": true })).await;
    let (status, body) = buy(&app, "processing").await;
    assert_eq!(status, 502, "{body}");
    let (status, _) = buy(&app, "processing").await;
    assert_eq!(status, 502, "still waiting");
    assert_eq!(purchases(&app).await, 0);
    let intent = fake.state().await["intents"][0]["id"]
        .as_str()
        .expect("the intent")
        .to_owned();
    let r = reqwest::Client::new()
        .post(format!("{}/_fake/settle/{intent}", fake.base))
        .json(&json!({ "outcome": "succeeded" }))
        .send()
        .await
        .expect("settle");
    assert_eq!(r.status().as_u16(), 200);
    until("bought", || async { purchases(&app).await == 1 }).await;
    ends_with_one_policy(&app, &fake).await;
}

/// A next action with no address to send the browser to (`use_stripe_sdk`): the payment is
/// cancelled, the customer told the card was declined, and another card pays.
#[tokio::test]
async fn an_action_pawpath_cannot_send_the_customer_to_is_cancelled() {
    let fake = FakeStripe::start();
    let app = at_card_confirmation(&fake, "4000002760003184").await;
    fake.webhooks_to(&app.base).await;
    fake.configure(json!({ "sdk": true })).await;
    let (status, body) = buy(&app, "sdk-action").await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(fake.state().await["intents"][0]["status"], "canceled");
    pay_with(&app, &fake, "4242424242424242").await;
    let (status, body) = buy(&app, "sdk-action-2").await;
    assert_eq!(status, 200, "{body}");
    ends_with_one_policy(&app, &fake).await;
}

/// Every brand Stripe names is taken (owner-payment.md §5's issuer codes, and a code for each
/// other brand): a Discover, a Diners Club and a UnionPay card each reach the card confirmation
/// with their brand, and one pays.
#[tokio::test]
async fn a_card_of_any_brand_stripe_names_is_taken() {
    let fake = FakeStripe::start();
    fake.configure(json!({ "webhooks": false })).await;
    let app = at_card_confirmation(&fake, "6011111111111117").await;
    let page = app.view("/quote/creditcard-confirmation").await;
    assert_eq!(page["payment"]["card_issuer"], "DISCOVER");
    for (number, code) in [
        ("3056930009020004", "DINERS"),
        ("6200000000000005", "UNIONPAY"),
        ("3566002020360505", "JCB"),
    ] {
        pay_with(&app, &fake, number).await;
        let page = app.view("/quote/creditcard-confirmation").await;
        assert_eq!(page["payment"]["card_issuer"], code);
    }
    let (status, body) = buy(&app, "any-brand").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["purchase"]["card"]["last4"], "0505");
    ends_with_one_policy(&app, &fake).await;
}
