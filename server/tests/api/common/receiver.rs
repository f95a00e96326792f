//! A webhook receiver for the tests, on a local port, standing for the insurer's systems: it
//! keeps every request it is sent (headers and body) and answers 204, or 503 while told to fail.

#![allow(dead_code, unreachable_pub)]

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::http::{HeaderMap, StatusCode};

/// The test secret (`whsec_` and base64 of 32 bytes) and the receiver's key pair.
pub const SECRET: &str = "whsec_cGF3cGF0aC10ZXN0LXdlYmhvb2stc2VjcmV0LTMyYnk=";

pub fn public_key_path() -> String {
    super::repo_root()
        .join("server/tests/fixtures/insurer-test-public.pem")
        .display()
        .to_string()
}

pub fn private_key() -> rsa::RsaPrivateKey {
    use rsa::pkcs8::DecodePrivateKey as _;
    let pem = std::fs::read_to_string(
        super::repo_root().join("server/tests/fixtures/insurer-test-private.pem"),
    )
    .expect("the test private key");
    rsa::RsaPrivateKey::from_pkcs8_pem(&pem).expect("a PKCS#8 RSA key")
}

/// What a live (https) host needs to start: its address, a real payment provider (Stripe, at
/// its own address: nothing is asked of it at start) and an insurer's receiver of policy events
/// (here one nobody answers at).
pub fn live_host() -> Vec<(&'static str, String)> {
    vec![
        (
            "PAWPATH_PUBLIC_URL",
            "https://quotes.example.test".to_owned(),
        ),
        ("PAWPATH_PAYMENT_PROVIDER", "stripe".to_owned()),
        ("PAWPATH_STRIPE_SECRET_KEY", "sk_test_pawpath".to_owned()),
        (
            "PAWPATH_STRIPE_PUBLISHABLE_KEY",
            "pk_test_pawpath".to_owned(),
        ),
        (
            "PAWPATH_STRIPE_WEBHOOK_SECRET",
            "whsec_pawpath_test".to_owned(),
        ),
        (
            "PAWPATH_POLICY_WEBHOOK_URL",
            "https://insurer.example.test/policy-events".to_owned(),
        ),
        ("PAWPATH_POLICY_WEBHOOK_SECRET", SECRET.to_owned()),
        ("PAWPATH_POLICY_WEBHOOK_ACCOUNT_KEY", public_key_path()),
    ]
}

/// One request as it arrived.
#[derive(Debug, Clone)]
pub struct Received {
    pub id: String,
    pub timestamp: i64,
    pub signature: String,
    pub content_type: String,
    pub body: String,
    /// What the receiver answered.
    pub status: u16,
}

impl Received {
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).expect("a JSON body")
    }

    pub fn kind(&self) -> String {
        self.json()["type"].as_str().unwrap_or_default().to_owned()
    }
}

pub struct Receiver {
    pub url: String,
    got: Arc<Mutex<Vec<Received>>>,
    /// How many requests from now on are answered 503.
    failing: Arc<AtomicU32>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Receiver {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl Receiver {
    pub async fn start() -> Self {
        let got: Arc<Mutex<Vec<Received>>> = Arc::default();
        let failing = Arc::new(AtomicU32::new(0));
        let (g, f) = (Arc::clone(&got), Arc::clone(&failing));
        let app = axum::Router::new().route(
            "/policy-events",
            axum::routing::post(move |headers: HeaderMap, body: String| {
                let (g, f) = (Arc::clone(&g), Arc::clone(&f));
                async move {
                    let fail = f
                        .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
                        .is_ok();
                    let status = if fail {
                        StatusCode::SERVICE_UNAVAILABLE
                    } else {
                        StatusCode::NO_CONTENT
                    };
                    let header = |name: &str| {
                        headers
                            .get(name)
                            .and_then(|v| v.to_str().ok())
                            .unwrap_or_default()
                            .to_owned()
                    };
                    g.lock().expect("received").push(Received {
                        id: header("webhook-id"),
                        timestamp: header("webhook-timestamp").parse().unwrap_or(0),
                        signature: header("webhook-signature"),
                        content_type: header("content-type"),
                        body,
                        status: status.as_u16(),
                    });
                    (status, if fail { "down for maintenance" } else { "" })
                }
            }),
        );
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let addr = listener.local_addr().expect("addr");
        let task = tokio::spawn(async move {
            axum::serve(listener, app).await.expect("serve");
        });
        Receiver {
            url: format!("http://{addr}/policy-events"),
            got,
            failing,
            task,
        }
    }

    /// The next `n` requests are answered 503.
    pub fn fail_next(&self, n: u32) {
        self.failing.store(n, Ordering::SeqCst);
    }

    /// The settings that send a server's events here, retrying after 50 ms.
    pub fn settings(&self) -> Vec<(&'static str, String)> {
        vec![
            ("PAWPATH_POLICY_WEBHOOK_URL", self.url.clone()),
            ("PAWPATH_POLICY_WEBHOOK_SECRET", SECRET.to_owned()),
            ("PAWPATH_POLICY_WEBHOOK_ACCOUNT_KEY", public_key_path()),
            ("PAWPATH_POLICY_WEBHOOK_RETRY_MS", "50".to_owned()),
        ]
    }

    /// Every request so far, failed ones too.
    pub fn requests(&self) -> Vec<Received> {
        self.got.lock().expect("received").clone()
    }

    /// The events accepted so far, in the order they arrived.
    pub fn delivered(&self) -> Vec<Received> {
        self.requests()
            .into_iter()
            .filter(|r| r.status == 204)
            .collect()
    }

    /// Waits until `n` events are accepted (at most `limit`), and answers them.
    pub async fn wait_for(&self, n: usize, limit: Duration) -> Vec<Received> {
        let deadline = tokio::time::Instant::now() + limit;
        loop {
            let got = self.delivered();
            if got.len() >= n || tokio::time::Instant::now() > deadline {
                return got;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}
