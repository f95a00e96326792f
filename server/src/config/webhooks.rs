//! Where the policy events go: the insurer's endpoint, the secret each delivery is
//! signed with, and the public key the bank account number is sealed with.

use super::error::{ConfigError, err};
use super::parse::number_in;
use crate::crypto::{AccountKey, WebhookSecret};

const URL: &str = "PAWPATH_POLICY_WEBHOOK_URL";
const SECRET: &str = "PAWPATH_POLICY_WEBHOOK_SECRET";
const KEY: &str = "PAWPATH_POLICY_WEBHOOK_ACCOUNT_KEY";
const RETRY: &str = "PAWPATH_POLICY_WEBHOOK_RETRY_MS";

/// The insurer's receiver of policy events.
#[derive(Debug, Clone)]
pub struct PolicyWebhook {
    /// `PAWPATH_POLICY_WEBHOOK_URL`: where each event is POSTed (https on an https host).
    pub url: reqwest::Url,
    /// `PAWPATH_POLICY_WEBHOOK_SECRET`: `whsec_` and base64 of 24 to 64 bytes (Standard
    /// Webhooks); never logged.
    pub secret: WebhookSecret,
    /// `PAWPATH_POLICY_WEBHOOK_ACCOUNT_KEY`: the receiver's RSA public key (PEM, inline or a
    /// file's path), 2,048 bits or more, that Direct Debit account numbers are sealed with.
    pub account_key: AccountKey,
    /// `PAWPATH_POLICY_WEBHOOK_RETRY_MS` (default 30,000; 50 to 3,600,000): the delay before a
    /// failed event's first retry; each later one waits twice as long, up to an hour.
    pub retry: std::time::Duration,
}

/// The receiver, when one is set. The three settings go together; on an https host (a live one)
/// they are required, so no policy sold there stays unknown to the insurer.
pub(super) fn policy_webhook(
    get: &impl Fn(&str) -> Option<String>,
    https: bool,
) -> Result<Option<PolicyWebhook>, ConfigError> {
    let set = |name: &str| {
        get(name)
            .map(|v| v.trim().to_owned())
            .filter(|v| !v.is_empty())
    };
    let Some(url) = set(URL) else {
        if https {
            return Err(err(
                URL,
                "is required on an https host: bought policies are sent to the insurer's systems from here",
            ));
        }
        for other in [SECRET, KEY] {
            if set(other).is_some() {
                return Err(err(
                    URL,
                    format!("is needed with {other}: set the three together"),
                ));
            }
        }
        return Ok(None);
    };
    let url = reqwest::Url::parse(&url).map_err(|e| err(URL, format!("is not a URL ({e})")))?;
    match url.scheme() {
        "https" => {}
        "http" if !https => {}
        "http" => return Err(err(URL, "must be https on an https host")),
        other => return Err(err(URL, format!("is {other}:, not http: or https:"))),
    }
    let secret = set(SECRET)
        .ok_or_else(|| err(SECRET, format!("is needed with {URL}")))
        .and_then(|s| WebhookSecret::parse(&s).map_err(|p| err(SECRET, p)))?;
    let account_key = set(KEY)
        .ok_or_else(|| err(KEY, format!("is needed with {URL}")))
        .and_then(|k| AccountKey::load(&k).map_err(|p| err(KEY, p)))?;
    let retry = number_in(get, RETRY, 50..=3_600_000, 30_000)?;
    Ok(Some(PolicyWebhook {
        url,
        secret,
        account_key,
        retry: std::time::Duration::from_millis(retry),
    }))
}
