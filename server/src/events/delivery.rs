//! The policy events' delivery: a worker on every server claims the next event due (one stream's
//! head at a time), POSTs it signed to the insurer's endpoint, and marks it delivered on a 2xx
//! answer; anything else (an error status, a refused connection, no answer within the timeout)
//! leaves it due again after a doubling delay, up to an hour, for as long as it takes. The claim
//! is a lease in the database, so servers running side by side deliver each event once, and an
//! event whose server died while sending it is taken by another once the lease lapses.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::Notify;

use crate::config::PolicyWebhook as WebhookSettings;
use crate::crypto::AccountKey;
use crate::store::{EventRow, Store};

/// How long one attempt may take before it counts as failed.
const ATTEMPT_TIMEOUT: Duration = Duration::from_secs(15);

/// How long a worker holds a claimed event: well over an attempt's timeout.
const LEASE: Duration = Duration::from_secs(60);

/// The most of an error answer's body kept to say why it failed.
const ERROR_BODY_BYTES: usize = 300;

/// The events' delivery side: the endpoint, the HTTP client and the worker's wake-up call.
pub struct Dispatcher {
    settings: Option<WebhookSettings>,
    client: reqwest::Client,
    wake: Notify,
}

impl std::fmt::Debug for Dispatcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Dispatcher")
            .field("url", &self.settings.as_ref().map(|s| s.url.as_str()))
            .finish()
    }
}

impl Dispatcher {
    pub fn new(settings: Option<WebhookSettings>) -> Result<Self, String> {
        let client = reqwest::Client::builder()
            .timeout(ATTEMPT_TIMEOUT)
            .connect_timeout(Duration::from_secs(5))
            // A redirect is a failure to be looked at, never followed with the signed body.
            .redirect(reqwest::redirect::Policy::none())
            .user_agent("pawpath-webhooks/1")
            .build()
            .map_err(|e| format!("PAWPATH_POLICY_WEBHOOK_URL: {e}"))?;
        Ok(Self {
            settings,
            client,
            wake: Notify::new(),
        })
    }

    /// The receiver's key, to seal the account number with (none when no receiver is set).
    pub fn account_key(&self) -> Option<&AccountKey> {
        self.settings.as_ref().map(|s| &s.account_key)
    }

    /// Asks the worker to look now rather than at its next poll.
    pub fn wake(&self) {
        self.wake.notify_one();
    }

    /// Starts the worker, when a receiver is configured; without one, events wait in the table.
    pub fn spawn(
        self: &Arc<Self>,
        store: Store,
        stop: tokio::sync::watch::Receiver<bool>,
    ) -> Option<tokio::task::JoinHandle<()>> {
        if self.settings.is_none() {
            tracing::warn!(
                "PAWPATH_POLICY_WEBHOOK_URL is not set: policy events are kept and not delivered"
            );
            return None;
        }
        let dispatcher = Arc::clone(self);
        Some(tokio::spawn(
            async move { dispatcher.run(store, stop).await },
        ))
    }

    async fn run(&self, store: Store, stop: tokio::sync::watch::Receiver<bool>) {
        let Some(settings) = &self.settings else {
            return;
        };
        let poll = settings.retry.min(Duration::from_secs(5));
        let lease = chrono::Duration::from_std(LEASE).unwrap_or(chrono::Duration::minutes(1));
        crate::worker::drain(
            "policy events",
            poll,
            &self.wake,
            stop,
            || store.claim_event(lease),
            |event| self.deliver(settings, &store, event),
        )
        .await;
    }

    async fn deliver(&self, settings: &WebhookSettings, store: &Store, event: EventRow) {
        let outcome = self.attempt(settings, &event).await;
        let recorded = match outcome {
            Ok(()) => {
                crate::metrics::policy_event_delivery("delivered");
                tracing::info!(event = %event.id, r#type = %event.kind, attempts = event.attempts + 1, "policy event delivered");
                store.event_delivered(&event.id).await
            }
            Err(error) => {
                crate::metrics::policy_event_delivery("retry");
                let delay = crate::worker::backoff(settings.retry, event.attempts);
                tracing::warn!(event = %event.id, r#type = %event.kind, attempts = event.attempts + 1, %error, retry_in_ms = delay.as_millis(), "policy event not delivered; will retry");
                let at = chrono::Utc::now()
                    + chrono::Duration::from_std(delay).unwrap_or(chrono::Duration::hours(1));
                store.event_failed(&event.id, &error, at).await
            }
        };
        if let Err(e) = recorded {
            tracing::warn!(event = %event.id, error = %e, "policy events: cannot record the attempt; its lease will lapse and it will be tried again");
        }
    }

    /// One POST: signed afresh (the timestamp is the attempt's), the body as written.
    async fn attempt(&self, settings: &WebhookSettings, event: &EventRow) -> Result<(), String> {
        let timestamp = chrono::Utc::now().timestamp();
        let signature = settings.secret.sign(&event.id, timestamp, &event.body);
        let answer = self
            .client
            .post(settings.url.clone())
            .header("content-type", "application/json")
            .header("webhook-id", &event.id)
            .header("webhook-timestamp", timestamp.to_string())
            .header("webhook-signature", signature)
            .body(event.body.clone())
            .send()
            .await
            .map_err(|e| format!("no answer: {}", without_url(&e)))?;
        let status = answer.status();
        if status.is_success() {
            return Ok(());
        }
        let mut said = Vec::new();
        let mut answer = answer;
        while said.len() < ERROR_BODY_BYTES {
            match answer.chunk().await {
                Ok(Some(chunk)) => said.extend_from_slice(&chunk),
                _ => break,
            }
        }
        said.truncate(ERROR_BODY_BYTES);
        Err(format!(
            "{status}: {}",
            String::from_utf8_lossy(&said).trim()
        ))
    }
}

/// A client error without the URL (which may carry credentials in its query).
fn without_url(e: &reqwest::Error) -> String {
    let kind = if e.is_timeout() {
        "timed out"
    } else if e.is_connect() {
        "cannot connect"
    } else {
        "request failed"
    };
    let mut source: Option<&dyn std::error::Error> = std::error::Error::source(e);
    let mut detail = String::new();
    while let Some(s) = source {
        detail = s.to_string();
        source = s.source();
    }
    if detail.is_empty() {
        kind.to_owned()
    } else {
        format!("{kind} ({detail})")
    }
}
