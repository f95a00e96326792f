//! Cards through Stripe's PaymentIntents, with 3-D Secure (owner-payment.md §2
//! /creditcard-confirmation, §5 Payment), against the local fake of Stripe's API
//! (tests/fake-stripe.mjs): a card taken at once, a challenge passed and failed, a decline, a
//! timeout, and the outcome brought by webhook before (or instead of) the customer's return.
//! Each is bought exactly once, or not at all.

use serde_json::{Value, json};

use crate::common::fake_stripe::{FakeStripe, WEBHOOK_SECRET, pay_with, purchases};
use crate::common::{TestApp, spawn_app_with, valid_pet};

const METRICS_TOKEN: &str = "stripe-test-metrics-token-0123456789abcdef";

/// A card payer on epw at the card confirmation, with /metrics open to the tests.
async fn at_card_confirmation(fake: &FakeStripe, number: &str) -> TestApp {
    crate::common::fake_stripe::at_card_confirmation(
        fake,
        number,
        &[("PAWPATH_METRICS_TOKEN", METRICS_TOKEN.to_owned())],
    )
    .await
}

const DECLINED_MESSAGE: &str =
    "Your card payment was declined. Please check your card details or use another card.";

/// Card payments waiting on the customer's bank, as operators read it.
async fn waiting(app: &TestApp) -> Option<f64> {
    app.metric(METRICS_TOKEN, "pawpath_card_payments_authenticating")
        .await
}

async fn buy(app: &TestApp, key: &str) -> (u16, Value) {
    let csrf = app.csrf().await;
    app.post_json(
        "/api/purchase",
        &json!({ "csrf": csrf, "idempotency_key": key }),
    )
    .await
}

/// The browser back from the bank: GET the return address the fake sent it to, as the browser
/// does (with its cookie, following pawpath's redirect). Answers where it ended up (path and
/// query).
async fn come_back(app: &TestApp, location: &str) -> String {
    let path = location
        .find("/payments/return")
        .map(|at| &location[at..])
        .expect("back to pawpath's return address");
    let r = app
        .client
        .get(format!("{}{path}", app.base))
        .header("Accept", "text/html")
        .send()
        .await
        .expect("return");
    assert_eq!(r.status().as_u16(), 200, "the page came back to");
    let url = r.url();
    match url.query() {
        Some(q) => format!("{}?{q}", url.path()),
        None => url.path().to_owned(),
    }
}

fn redirect_of(body: &Value) -> String {
    body["next_action"]["redirect_url"]
        .as_str()
        .unwrap_or_else(|| panic!("a challenge to go to: {body}"))
        .to_owned()
}

/// owner-payment.md §2 /creditcard-confirmation: a card its issuer takes at once is paid and the
/// quote bought once, whatever else arrives (a second click, the payment's webhook). The amount
/// is the year's premium in pence; the card shown is the provider's.
#[tokio::test]
async fn a_card_taken_at_once_is_paid_and_bought_once() {
    let fake = FakeStripe::start();
    let app = at_card_confirmation(&fake, "4242424242424242").await;
    fake.webhooks_to(&app.base).await;
    let page = app.view("/quote/creditcard-confirmation").await;
    assert_eq!(page["payment"]["card_issuer"], "VISA");
    assert_eq!(page["payment"]["card_last4"], "4242");
    assert_eq!(page["payment"]["card_expiry"], "12/30");
    let annual = page["summary"]["annual"]
        .as_str()
        .expect("annual")
        .to_owned();
    let (status, body) = buy(&app, "stripe-at-once").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["purchase"]["card"]["last4"], "4242");
    let (status, again) = buy(&app, "stripe-at-once").await;
    assert_eq!(status, 200, "{again}");
    assert_eq!(
        again["data"]["purchase"]["id"],
        body["data"]["purchase"]["id"]
    );
    let state = fake.state().await;
    let intents = state["intents"].as_array().expect("intents");
    assert_eq!(intents.len(), 1, "one payment: {state}");
    let pence = (annual.parse::<f64>().expect("amount") * 100.0).round() as i64;
    assert_eq!(intents[0]["amount"], pence);
    assert_eq!(intents[0]["currency"], "gbp");
    assert_eq!(intents[0]["status"], "succeeded");
    assert_eq!(purchases(&app).await, 1);
    assert_eq!(
        app.sql("select provider from card_payments")
            .await
            .as_deref(),
        Some("stripe")
    );
}

/// PSD2 strong customer authentication: the issuer asks for a challenge; the purchase waits,
/// unbought, until the customer passes it and comes back, and is then made once, the browser
/// moved to the bought quote's session and sent to the confirmation.
#[tokio::test]
async fn a_challenge_passed_buys_the_quote_when_the_customer_comes_back() {
    let fake = FakeStripe::start();
    fake.configure(json!({ "webhooks": false })).await;
    let app = at_card_confirmation(&fake, "4000002760003184").await;
    let (status, body) = buy(&app, "stripe-challenge").await;
    assert_eq!(status, 200, "{body}");
    let challenge = redirect_of(&body);
    assert!(challenge.starts_with(&fake.base), "{challenge}");
    assert_eq!(
        purchases(&app).await,
        0,
        "nothing bought before the challenge"
    );
    // A second click before the challenge is done: the same challenge, no second payment.
    let (_, twin) = buy(&app, "stripe-challenge").await;
    assert_eq!(redirect_of(&twin), challenge);
    let back = fake.challenge(&challenge, "complete").await;
    let to = come_back(&app, &back).await;
    assert!(to.ends_with("/quote/success"), "{to}");
    assert_eq!(purchases(&app).await, 1);
    // The browser now holds the bought quote's session.
    let confirmation = app.view("/quote/success").await;
    assert_eq!(confirmation["step"]["id"], "confirmation");
    assert_eq!(confirmation["purchase"]["card"]["last4"], "3184");
    assert_eq!(
        fake.state().await["intents"].as_array().map(Vec::len),
        Some(1)
    );
}

/// A failed challenge leaves the quote unbought: the customer is sent back to the page they
/// bought from, which says the spec's decline message; another card then goes through.
#[tokio::test]
async fn a_challenge_failed_leaves_the_quote_unbought_and_another_card_can_pay() {
    let fake = FakeStripe::start();
    fake.configure(json!({ "webhooks": false })).await;
    let app = at_card_confirmation(&fake, "4000002760003184").await;
    let (_, body) = buy(&app, "stripe-failed-1").await;
    let back = fake.challenge(&redirect_of(&body), "fail").await;
    let to = come_back(&app, &back).await;
    assert!(
        to.starts_with("/quote/creditcard-confirmation?payment_intent=pi_"),
        "{to}"
    );
    let payment = to.split("payment_intent=").nth(1).expect("payment");
    // The page's purchase request on coming back: the decline, as a field error.
    let csrf = app.csrf().await;
    let (status, refused) = app
        .post_json(
            "/api/purchase",
            &json!({ "csrf": csrf, "idempotency_key": "stripe-failed-1", "payment_return": payment }),
        )
        .await;
    assert_eq!(status, 422, "{refused}");
    assert_eq!(refused["errors"][0]["field"], "payment.card_token");
    assert_eq!(refused["errors"][0]["message"], DECLINED_MESSAGE);
    assert_eq!(purchases(&app).await, 0);
    // Trying again with another card: a new payment, taken at once.
    pay_with(&app, &fake, "5555555555554444").await;
    let (status, bought) = buy(&app, "stripe-failed-2").await;
    assert_eq!(status, 200, "{bought}");
    assert_eq!(bought["data"]["purchase"]["card"]["issuer"], "MCDEBIT");
    assert_eq!(purchases(&app).await, 1);
    let intents = fake.state().await["intents"].clone();
    assert_eq!(intents.as_array().map(Vec::len), Some(2), "{intents}");
}

/// A challenge given up (the customer back on the page without finishing it, and buying again):
/// the waiting payment is cancelled and the decline said; nothing is bought.
#[tokio::test]
async fn a_challenge_abandoned_is_cancelled_and_declined() {
    let fake = FakeStripe::start();
    fake.configure(json!({ "webhooks": false })).await;
    let app = at_card_confirmation(&fake, "4000002760003184").await;
    assert_eq!(waiting(&app).await, Some(0.0));
    let (_, body) = buy(&app, "stripe-abandoned").await;
    let challenge = redirect_of(&body);
    let payment = challenge.rsplit('/').next().expect("payment id").to_owned();
    // Operators see the payment waiting on the customer's bank.
    assert_eq!(waiting(&app).await, Some(1.0));
    assert!(
        app.metric(
            METRICS_TOKEN,
            "pawpath_card_payments_oldest_authenticating_seconds"
        )
        .await
        .is_some_and(|age| (0.0..60.0).contains(&age))
    );
    let csrf = app.csrf().await;
    let (status, refused) = app
        .post_json(
            "/api/purchase",
            &json!({ "csrf": csrf, "idempotency_key": "stripe-abandoned", "payment_return": payment }),
        )
        .await;
    assert_eq!(status, 422, "{refused}");
    assert_eq!(refused["errors"][0]["message"], DECLINED_MESSAGE);
    let state = fake.state().await;
    assert_eq!(state["intents"][0]["status"], "canceled", "{state}");
    assert_eq!(purchases(&app).await, 0);
    assert_eq!(
        waiting(&app).await,
        Some(0.0),
        "given up: no longer waiting"
    );
}

/// owner-payment.md §5: a card its issuer declines buys nothing, with the spec's message.
#[tokio::test]
async fn a_declined_card_buys_nothing() {
    let fake = FakeStripe::start();
    let app = at_card_confirmation(&fake, "4000000000000002").await;
    let (status, body) = buy(&app, "stripe-declined").await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(body["errors"][0]["message"], DECLINED_MESSAGE);
    assert_eq!(purchases(&app).await, 0);
}

/// The provider takes the payment but its answer is lost (a timeout): the customer is told to try
/// again, and trying again asks with the same key, so the one payment buys the quote once.
#[tokio::test]
async fn an_answer_lost_to_a_timeout_is_asked_again_and_paid_once() {
    let fake = FakeStripe::start();
    fake.configure(json!({ "webhooks": false })).await;
    let app = at_card_confirmation(&fake, "4242424242424242").await;
    fake.configure(json!({ "delay_ms": 4000 })).await;
    let (status, body) = buy(&app, "stripe-timeout").await;
    assert_eq!(status, 502, "{body}");
    assert_eq!(purchases(&app).await, 0);
    let (status, body) = buy(&app, "stripe-timeout").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(purchases(&app).await, 1);
    assert_eq!(
        fake.state().await["intents"].as_array().map(Vec::len),
        Some(1),
        "the same payment, asked for twice"
    );
}

/// The outcome by webhook: the bank's answer reaches pawpath before the customer's browser
/// does (or instead of it, the tab closed): the quote is bought once, into the session the
/// customer's browser is moved to when it does come back.
#[tokio::test]
async fn a_webhook_before_the_customer_returns_buys_once() {
    let fake = FakeStripe::start();
    let app = at_card_confirmation(&fake, "4000002760003184").await;
    fake.webhooks_to(&app.base).await;
    let (_, body) = buy(&app, "stripe-webhook-first").await;
    let back = fake.challenge(&redirect_of(&body), "complete").await;
    // The fake delivers the webhook, and has its answer, before sending the browser back.
    let state = fake.state().await;
    assert_eq!(state["webhooks"][0]["type"], "payment_intent.succeeded");
    assert_eq!(state["webhooks"][0]["status"], 200, "{state}");
    assert_eq!(purchases(&app).await, 1, "bought by the webhook");
    assert_eq!(
        app.sql("select count(*) from policy_events where type = 'policy.bought'")
            .await
            .as_deref(),
        Some("1")
    );
    let to = come_back(&app, &back).await;
    assert!(to.ends_with("/quote/success"), "{to}");
    let confirmation = app.view("/quote/success").await;
    assert_eq!(confirmation["step"]["id"], "confirmation");
    // The purchase's own request again (the page's retry): the same purchase.
    let csrf = confirmation["csrf"].as_str().expect("csrf").to_owned();
    let (status, again) = app
        .post_json(
            "/api/purchase",
            &json!({ "csrf": csrf, "idempotency_key": "stripe-webhook-first" }),
        )
        .await;
    assert_eq!(status, 200, "{again}");
    assert_eq!(purchases(&app).await, 1);
    // A failed challenge's webhook ends the attempt: nothing is bought by it.
    let other = at_card_confirmation(&fake, "4000002760003184").await;
    fake.webhooks_to(&other.base).await;
    let (_, body) = buy(&other, "stripe-webhook-failed").await;
    fake.challenge(&redirect_of(&body), "fail").await;
    assert_eq!(purchases(&other).await, 0);
    assert_eq!(
        other
            .sql("select outcome from card_attempts")
            .await
            .as_deref(),
        Some("failed")
    );
}

/// The webhook is the provider's only if its signature says so: a body signed with another
/// secret, or one replayed after five minutes, is refused and changes nothing; the return
/// address opened by another browser moves no session and buys nothing.
#[tokio::test]
async fn a_webhook_or_a_return_that_is_not_the_providers_changes_nothing() {
    let fake = FakeStripe::start();
    fake.configure(json!({ "webhooks": false })).await;
    let app = at_card_confirmation(&fake, "4000002760003184").await;
    let (_, body) = buy(&app, "stripe-forged").await;
    let challenge = redirect_of(&body);
    let payment = challenge.rsplit('/').next().expect("payment id").to_owned();
    let quote = app
        .sql("select quote_id from card_attempts")
        .await
        .expect("an attempt");
    let event = json!({ "id": "evt_forged", "type": "payment_intent.succeeded",
        "data": { "object": { "id": payment, "status": "succeeded", "metadata": { "quote": quote } } } })
    .to_string();
    let sign = |secret: &str, t: i64| {
        pawpath::payments::stripe::signature_header(secret, t, event.as_bytes())
    };
    let now = chrono::Utc::now().timestamp();
    for signature in [
        sign("whsec_someone_else", now),
        sign(WEBHOOK_SECRET, now - 600),
        String::new(),
    ] {
        let r = app
            .client
            .post(format!("{}/payments/webhook", app.base))
            .header("Stripe-Signature", signature)
            .header("Content-Type", "application/json")
            .body(event.clone())
            .send()
            .await
            .expect("webhook");
        assert_eq!(r.status().as_u16(), 400);
    }
    // Signed rightly, the webhook is read, but the provider, asked, still has the payment
    // waiting on the customer: nothing is bought (what an event says is a prompt to look).
    let r = app
        .client
        .post(format!("{}/payments/webhook", app.base))
        .header("Stripe-Signature", sign(WEBHOOK_SECRET, now))
        .body(event.clone())
        .send()
        .await
        .expect("webhook");
    assert_eq!(r.status().as_u16(), 200, "acknowledged");
    assert_eq!(purchases(&app).await, 0);
    // The challenge passed, but the return opened by a stranger's browser: no session moved.
    let back = fake.challenge(&challenge, "complete").await;
    let stranger = app.another_visitor().await;
    let to = come_back(&stranger, &back).await;
    assert_eq!(to, "/quote");
    assert_eq!(purchases(&app).await, 0, "nothing bought for a stranger");
    // The customer's own browser: bought.
    let to = come_back(&app, &back).await;
    assert!(to.ends_with("/quote/success"), "{to}");
    assert_eq!(purchases(&app).await, 1);
}

/// The payment page of a Stripe host: Stripe's script, and the card fields' frames, allowed by
/// the page's Content-Security-Policy and nothing else added; the card form the browser draws
/// keeps the fields the provider does not (the name, the billing address).
#[tokio::test]
async fn the_page_allows_the_providers_script_and_frames_only() {
    let fake = FakeStripe::start();
    let app = spawn_app_with(&fake.settings()).await;
    let r = app
        .client
        .get(format!("{}/quote?brand=epw", app.base))
        .header("Accept", "text/html")
        .send()
        .await
        .expect("page");
    let policy = r.headers()["content-security-policy"]
        .to_str()
        .expect("policy")
        .to_owned();
    let directive = |name: &str| {
        policy
            .split(';')
            .map(str::trim)
            .find(|d| d.starts_with(name))
            .unwrap_or_default()
            .to_owned()
    };
    for name in ["script-src ", "connect-src ", "frame-src "] {
        assert!(
            directive(name).ends_with(&format!(" {}", fake.base)),
            "{policy}"
        );
    }
    assert_eq!(
        directive("frame-src "),
        format!("frame-src 'self' {}", fake.base)
    );
    assert!(!directive("img-src ").contains(&fake.base), "{policy}");
    assert!(!policy.contains("unsafe-eval") && !policy.contains("unsafe-inline"));
}

/// Monthly card payers: the later payments are taken without the customer, so the
/// first payment keeps the card with Stripe (`setup_future_usage=off_session`) under a customer
/// made for the purchase, and `policy.bought` tells the insurer which, never the card number. A
/// yearly payer's card is not kept.
#[tokio::test]
async fn a_monthly_card_payer_s_card_is_kept_for_the_later_payments() {
    use crate::common::receiver::Receiver;
    let fake = FakeStripe::start();
    let receiver = Receiver::start().await;
    let mut settings = fake.settings();
    settings.extend(receiver.settings());
    let app = spawn_app_with(&settings).await;
    fake.webhooks_to(&app.base).await;
    assert_eq!(app.view("/quote?brand=epw").await["brand"], "epw");
    app.reach_payment(json!([valid_pet()])).await;
    let token = fake.payment_method("5555555555554444").await;
    let csrf = app.csrf().await;
    let (status, body) = app
        .post_json(
            "/api/setup-payment",
            &json!({ "csrf": csrf, "payment": { "payment_method": "CC", "payment_frequency": "MP", "card_token": token } }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = buy(&app, "stripe-monthly").await;
    assert_eq!(status, 200, "{body}");
    assert!(
        body["data"]["purchase"]["card"]
            .get("customer_reference")
            .is_none(),
        "the provider's references are the insurer's, not the page's"
    );

    let state = fake.state().await;
    let intent = &state["intents"][0];
    assert_eq!(intent["setup_future_usage"], "off_session");
    let customer = intent["customer"].as_str().expect("a customer").to_owned();
    let customers = state["customers"].as_array().expect("customers");
    assert_eq!(customers.len(), 1, "one customer: {state}");
    assert_eq!(customers[0]["email"], "ada@example.com");
    let method = state["payment_methods"]
        .as_array()
        .and_then(|m| m.iter().find(|m| m["id"] == token.as_str()))
        .expect("the card");
    assert_eq!(
        method["customer"],
        customer.as_str(),
        "attached to the customer"
    );

    let got = receiver
        .wait_for(1, std::time::Duration::from_secs(20))
        .await;
    let event = got[0].json();
    let card = &event["data"]["payment"]["card"];
    assert_eq!(
        card["kept_for_collections"],
        json!({ "customer": customer, "payment_method": token })
    );
    assert_eq!(event["data"]["payment"]["frequency"], "monthly");
    assert!(!got[0].body.contains("5555555555554444"));
}
