//! Where cards go: `PAWPATH_PAYMENT_PROVIDER`, and Stripe's settings when it
//! is Stripe.

use std::time::Duration;

use super::error::{ConfigError, err};
use super::parse::number_in;

const PROVIDER: &str = "PAWPATH_PAYMENT_PROVIDER";
const SECRET_KEY: &str = "PAWPATH_STRIPE_SECRET_KEY";
const PUBLISHABLE_KEY: &str = "PAWPATH_STRIPE_PUBLISHABLE_KEY";
const WEBHOOK_SECRET: &str = "PAWPATH_STRIPE_WEBHOOK_SECRET";
const API_URL: &str = "PAWPATH_STRIPE_API_URL";
const JS_URL: &str = "PAWPATH_STRIPE_JS_URL";
const TIMEOUT: &str = "PAWPATH_STRIPE_TIMEOUT_MS";
const RECONCILE: &str = "PAWPATH_CARD_RECONCILE_MS";
const RECONCILE_AFTER: &str = "PAWPATH_CARD_RECONCILE_AFTER_MS";

/// When card payments whose outcome is not known are settled with the provider.
#[derive(Debug, Clone, Copy)]
pub struct CardReconcile {
    /// How often.
    pub every: Duration,
    /// How old an attempt is first: past any request still asking the provider about it.
    pub after: Duration,
}

pub(super) fn card_reconcile(
    get: &impl Fn(&str) -> Option<String>,
    provider: &PaymentProviderChoice,
) -> Result<CardReconcile, ConfigError> {
    let every = number_in(get, RECONCILE, 100..=3_600_000, 60_000)?;
    let after = number_in(get, RECONCILE_AFTER, 1_000..=86_400_000, 300_000)?;
    if let PaymentProviderChoice::Stripe(s) = provider
        && u128::from(after) <= s.timeout.as_millis() * 2
    {
        return Err(err(
            RECONCILE_AFTER,
            format!(
                "{after} must be more than twice {TIMEOUT} ({} ms): an attempt is reconciled only once no request can still be asking about it",
                s.timeout.as_millis()
            ),
        ));
    }
    Ok(CardReconcile {
        every: Duration::from_millis(every),
        after: Duration::from_millis(after),
    })
}

/// Which payment provider takes cards.
#[derive(Debug, Clone)]
pub enum PaymentProviderChoice {
    /// The local test provider: takes no real money; refused on an https host.
    Test,
    /// Stripe's PaymentIntents.
    Stripe(StripeSettings),
}

impl PaymentProviderChoice {
    /// The origins the browser reaches the provider at, for the Content-Security-Policy: the
    /// script's, whose card fields are frames of it, and the API's, which they post to.
    pub fn browser_origins(&self) -> Vec<String> {
        match self {
            Self::Test => Vec::new(),
            Self::Stripe(s) => {
                let mut origins: Vec<String> = [&s.script_url, &s.api_url]
                    .into_iter()
                    .filter_map(|u| reqwest::Url::parse(u).ok())
                    .map(|u| u.origin().ascii_serialization())
                    .collect();
                origins.dedup();
                origins
            }
        }
    }
}

pub(super) fn payment_provider(
    get: &impl Fn(&str) -> Option<String>,
    https: bool,
) -> Result<PaymentProviderChoice, ConfigError> {
    let set = |name: &str| {
        get(name)
            .map(|v| v.trim().to_owned())
            .filter(|v| !v.is_empty())
    };
    match set(PROVIDER).as_deref() {
        None | Some("test") if https => Err(err(
            PROVIDER,
            "must be `stripe` on an https host: the local test provider takes no real payments",
        )),
        None | Some("test") => Ok(PaymentProviderChoice::Test),
        Some("stripe") => {
            let key = |name: &'static str, prefixes: &[&str], what: &str| {
                let value = set(name).ok_or_else(|| {
                    err(name, format!("is needed with {PROVIDER}=stripe: {what}"))
                })?;
                if prefixes.iter().any(|p| value.starts_with(p)) {
                    Ok(value)
                } else {
                    Err(err(
                        name,
                        format!(
                            "does not start with {}: it is not {what}",
                            prefixes.join(" or ")
                        ),
                    ))
                }
            };
            let secret_key = key(
                SECRET_KEY,
                &["sk_", "rk_"],
                "the account's secret (or restricted) key",
            )?;
            let publishable_key = key(PUBLISHABLE_KEY, &["pk_"], "the account's publishable key")?;
            let webhook_secret = key(
                WEBHOOK_SECRET,
                &["whsec_"],
                "the webhook endpoint's signing secret",
            )?;
            let address = |name: &'static str, default: &str| -> Result<String, ConfigError> {
                let value = set(name).unwrap_or_else(|| default.to_owned());
                let url = reqwest::Url::parse(&value)
                    .map_err(|e| err(name, format!("is not a URL ({e})")))?;
                match url.scheme() {
                    "https" => Ok(value),
                    "http" if !https => Ok(value),
                    "http" => Err(err(name, "must be https on an https host")),
                    other => Err(err(name, format!("is {other}:, not http: or https:"))),
                }
            };
            Ok(PaymentProviderChoice::Stripe(StripeSettings {
                api_url: address(API_URL, "https://api.stripe.com")?,
                script_url: address(JS_URL, "https://js.stripe.com/v3/")?,
                secret_key,
                publishable_key,
                webhook_secret,
                timeout: std::time::Duration::from_millis(number_in(
                    get,
                    TIMEOUT,
                    100..=60_000,
                    20_000,
                )?),
            }))
        }
        Some(other) => Err(err(
            PROVIDER,
            format!(
                "{other:?} is not a payment provider: `stripe`, or `test` (the local test provider, not on an https host)"
            ),
        )),
    }
}

/// What a Stripe account is reached with.
#[derive(Clone)]
pub struct StripeSettings {
    /// `https://api.stripe.com`, or a local fake's address in tests.
    pub api_url: String,
    /// Stripe.js: `https://js.stripe.com/v3/`.
    pub script_url: String,
    pub secret_key: String,
    pub publishable_key: String,
    /// The webhook endpoint's signing secret (`whsec_…`).
    pub webhook_secret: String,
    /// How long a request to Stripe may take.
    pub timeout: Duration,
}

impl std::fmt::Debug for StripeSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StripeSettings")
            .field("api_url", &self.api_url)
            .field("script_url", &self.script_url)
            .field("publishable_key", &self.publishable_key)
            .field("timeout", &self.timeout)
            .finish_non_exhaustive()
    }
}
