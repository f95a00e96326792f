//! The annual rehoming flow's policy link (journey.md §1 Extra flows): signed with the server's
//! secret, naming the free policy and when the link stops working (the end of the free cover's
//! last day, UK time).

use chrono::{NaiveDate, TimeZone};
use serde_json::{Value, json};

use engine::definitions::Journey;

use crate::service::state::AppState;

/// The flow this link opens.
const FLOW: &str = "annual_rehoming";

/// What a policy link carries: the free policy and when the link stops working.
#[derive(Debug, PartialEq, Eq)]
pub struct PolicyLink {
    pub policy: String,
    pub expires: i64,
}

impl PolicyLink {
    const PURPOSE: &str = "policy link";

    pub fn sign(&self, secret: &crate::config::SecretKey) -> String {
        crate::signed::sign(
            secret,
            Self::PURPOSE,
            &format!("{}.{}", self.policy, self.expires),
        )
    }

    /// The link's contents when its signature is ours; the expiry is the caller's to judge.
    pub fn verify(secret: &crate::config::SecretKey, token: &str) -> Option<Self> {
        let payload = crate::signed::verify(secret, Self::PURPOSE, token)?;
        let (policy, expires) = payload.rsplit_once('.')?;
        Some(Self {
            policy: policy.to_owned(),
            expires: expires.parse().ok()?,
        })
    }
}

/// The journey of the annual rehoming flow, where one is defined.
pub fn annual_journey(defs: &engine::Definitions) -> Option<&Journey> {
    defs.journeys().find(|j| j.flow.as_deref() == Some(FLOW))
}

/// The link that continues a free policy as annual cover, for a brand that offers the annual
/// flow: it works until the end of `last_day` (the free cover's last day) in the UK.
pub fn policy_link(
    state: &AppState,
    brand: &str,
    policy_number: &str,
    last_day: NaiveDate,
) -> Option<String> {
    let journey = annual_journey(&state.defs)?;
    if !state.defs.brand(brand)?.offers_journey(journey) {
        return None;
    }
    let midnight = (last_day + chrono::Days::new(1)).and_hms_opt(0, 0, 0)?;
    let expires = chrono_tz::Europe::London
        .from_local_datetime(&midnight)
        .earliest()?
        .timestamp();
    let token = PolicyLink {
        policy: policy_number.to_owned(),
        expires,
    }
    .sign(&state.config.secret_key);
    Some(format!(
        "{}{}/start/{token}",
        state.config.public_url.trim_end_matches('/'),
        journey.base_path
    ))
}

/// Adds the annual link to a free cover's view once it has a policy (`rescue` as
/// `rehoming::rescue_view` makes it).
pub fn add_link(state: &AppState, brand: &str, rescue: &mut Value) {
    let (Some(number), Some(end)) = (
        rescue["policy_number"].as_str(),
        rescue["end"]
            .as_str()
            .and_then(|d| NaiveDate::parse_from_str(d, "%Y-%m-%d").ok()),
    ) else {
        return;
    };
    if let Some(link) = policy_link(state, brand, number, end) {
        rescue["annual_link"] = json!(link);
    }
}

/// Whether a quote on a journey made only from policy links has its link: an unlinked one (a
/// visitor who typed the address) shows the policy_link_expired page.
pub fn linked(quote: &crate::store::QuoteRow) -> bool {
    quote
        .document
        .pointer("/annual_rehoming/source_policy")
        .and_then(Value::as_str)
        .is_some()
}
