//! The local fake of Stripe's API (`tests/fake-stripe.mjs`, the same one the browser tests use),
//! started by a test on a free port and stopped when it is dropped. No test reaches the internet.

#![allow(dead_code, unreachable_pub)]

use std::io::{BufRead as _, BufReader};
use std::process::{Child, Command, Stdio};

use serde_json::{Value, json};

use super::{TestApp, spawn_app_with, valid_pet};

pub const SECRET_KEY: &str = "sk_test_pawpath";
pub const PUBLISHABLE_KEY: &str = "pk_test_pawpath";
pub const WEBHOOK_SECRET: &str = "whsec_pawpath_test";

pub struct FakeStripe {
    child: Child,
    pub base: String,
    client: reqwest::Client,
}

impl Drop for FakeStripe {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl FakeStripe {
    pub fn start() -> Self {
        let mut child = Command::new("node")
            .arg(super::repo_root().join("tests/fake-stripe.mjs"))
            .env("PORT", "0")
            .env("SECRET_KEY", SECRET_KEY)
            .env("PUBLISHABLE_KEY", PUBLISHABLE_KEY)
            .env("WEBHOOK_SECRET", WEBHOOK_SECRET)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("node runs tests/fake-stripe.mjs");
        let stdout = child.stdout.take().expect("stdout");
        let mut line = String::new();
        BufReader::new(stdout)
            .read_line(&mut line)
            .expect("the fake says its port");
        let port = line
            .trim()
            .strip_prefix("listening ")
            .expect("listening <port>")
            .to_owned();
        Self {
            child,
            base: format!("http://127.0.0.1:{port}"),
            client: reqwest::Client::builder()
                .redirect(reqwest::redirect::Policy::none())
                .build()
                .expect("client"),
        }
    }

    /// What pawpath is started with to take cards through this fake.
    pub fn settings(&self) -> Vec<(&'static str, String)> {
        vec![
            ("PAWPATH_PAYMENT_PROVIDER", "stripe".to_owned()),
            ("PAWPATH_STRIPE_SECRET_KEY", SECRET_KEY.to_owned()),
            ("PAWPATH_STRIPE_PUBLISHABLE_KEY", PUBLISHABLE_KEY.to_owned()),
            ("PAWPATH_STRIPE_WEBHOOK_SECRET", WEBHOOK_SECRET.to_owned()),
            ("PAWPATH_STRIPE_API_URL", self.base.clone()),
            ("PAWPATH_STRIPE_JS_URL", format!("{}/v3/", self.base)),
            ("PAWPATH_STRIPE_TIMEOUT_MS", "1500".to_owned()),
        ]
    }

    /// Tells the fake where its webhooks go (or that it sends none), and to hold the answer to
    /// the next payment it makes for `delay_ms`.
    pub async fn configure(&self, settings: Value) {
        let r = self
            .client
            .post(format!("{}/_fake/config", self.base))
            .json(&settings)
            .send()
            .await
            .expect("configure the fake");
        assert!(r.status().is_success());
    }

    /// Sends webhooks to `app`.
    pub async fn webhooks_to(&self, app_base: &str) {
        self.configure(
            json!({ "webhook_url": format!("{app_base}/payments/webhook"), "webhooks": true }),
        )
        .await;
    }

    /// What the browser's card fields do: the card to Stripe with the publishable key → pm_….
    pub async fn payment_method(&self, number: &str) -> String {
        let r = self
            .client
            .post(format!("{}/v1/payment_methods", self.base))
            .bearer_auth(PUBLISHABLE_KEY)
            .form(&[
                ("type", "card"),
                ("card[number]", number),
                ("card[exp_month]", "12"),
                ("card[exp_year]", "30"),
                ("card[cvc]", "737"),
                ("billing_details[name]", "Ada O'Neill"),
            ])
            .send()
            .await
            .expect("payment method");
        let body: Value = r.json().await.expect("json");
        body["id"].as_str().expect("a payment method").to_owned()
    }

    /// The customer at their bank's challenge: `complete` or `fail`. Answers where the browser
    /// is sent back to.
    pub async fn challenge(&self, url: &str, outcome: &str) -> String {
        let page = self.client.get(url).send().await.expect("challenge page");
        assert_eq!(page.status().as_u16(), 200);
        let r = self
            .client
            .post(url)
            .form(&[("outcome", outcome)])
            .send()
            .await
            .expect("challenge");
        assert_eq!(r.status().as_u16(), 303);
        r.headers()["location"]
            .to_str()
            .expect("location")
            .to_owned()
    }

    /// The payments made and the webhooks sent.
    pub async fn state(&self) -> Value {
        self.client
            .get(format!("{}/_fake/state", self.base))
            .send()
            .await
            .expect("state")
            .json()
            .await
            .expect("json")
    }
}

/// A card payer on epw at the card confirmation, pawpath started with the fake's settings and
/// `extra`, their card (`number`) given to the fake as the browser's card fields would give it.
pub async fn at_card_confirmation(
    fake: &FakeStripe,
    number: &str,
    extra: &[(&'static str, String)],
) -> TestApp {
    let mut settings = fake.settings();
    settings.extend(extra.iter().cloned());
    let app = spawn_app_with(&settings).await;
    assert_eq!(app.view("/quote?brand=epw").await["brand"], "epw");
    app.reach_payment(json!([valid_pet()])).await;
    let view = app.view("/quote/payment").await;
    assert_eq!(
        view["payment_options"]["card"]["provider"]["kind"], "stripe",
        "{}",
        view["payment_options"]
    );
    pay_with(&app, fake, number).await;
    app
}

/// The payment page's Confirm payment with a card the fake made a payment method of.
pub async fn pay_with(app: &TestApp, fake: &FakeStripe, number: &str) {
    let token = fake.payment_method(number).await;
    let csrf = app.csrf().await;
    let (status, body) = app
        .post_json(
            "/api/setup-payment",
            &json!({ "csrf": csrf, "payment": { "payment_method": "CC", "payment_frequency": "AP", "card_token": token } }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["step"]["id"], "card_confirmation");
}

/// How many purchases the app's database holds.
pub async fn purchases(app: &TestApp) -> i64 {
    app.sql("select count(*) from purchases")
        .await
        .and_then(|n| n.parse().ok())
        .unwrap_or(-1)
}
