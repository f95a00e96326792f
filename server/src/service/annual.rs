//! The annual rehoming flow's policy link (journey.md §1 Extra flows): signed with the server's
//! secret, naming the free policy and when the link stops working (the end of the free cover's
//! last day, UK time).

use chrono::{NaiveDate, TimeZone};
use serde_json::{Value, json};

use engine::definitions::Journey;

use engine::definitions::PageId;
use engine::journey::runtime::{self, Lifecycle};

use crate::service::caller::Caller;
use crate::service::error::AppError;
use crate::service::landing::Landing;
use crate::service::quote;
use crate::service::state::AppState;
use crate::session::SessionToken;
use crate::store::{NewQuote, StoreError};

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

/// The annual quote's answers from the free policy's: its pet (without the certificate, which
/// stays with the free policy) and owner, cover starting the day after the free cover ends (or
/// as near as the start window allows), and the policy it continues.
pub fn annual_document(
    state: &AppState,
    source: &crate::store::QuoteRow,
    policy_number: &str,
    last_day: NaiveDate,
    quote_id: &str,
) -> Value {
    let mut pet = source
        .document
        .pointer("/pets/0")
        .cloned()
        .unwrap_or_else(|| json!({}));
    if let Some(map) = pet.as_object_mut() {
        map.retain(|k, _| !k.starts_with("rehoming_"));
    }
    let mut document = runtime::empty_document();
    document["pets"] = json!([pet]);
    document["owner"] = source
        .document
        .get("owner")
        .cloned()
        .unwrap_or_else(|| json!({}));
    let window = engine::rules::domain::start_date_window(
        &state.defs,
        &document,
        quote::uk_today(),
        &source.brand,
    );
    let wanted = (last_day + chrono::Days::new(1)).clamp(window.earliest, window.latest);
    document["owner"]["pet_policy_start_date"] = json!(wanted.to_string());
    document["annual_rehoming"] = json!({ "source_policy": policy_number });
    if let Some(language) = source.document.get("language") {
        document["language"] = language.clone();
    }
    if let Some(experiments) = state.defs.experiments() {
        document["experiments"] = json!(experiments.assign(quote_id, &source.brand));
    }
    document
}

/// A free policy's link to annual cover (GET /annual-rehoming/start/{token}): where it lands.
///
/// The link makes its quote once, in the browser that opened it, under a new session.
/// That browser may open it again; any other browser (a forwarded email, a second device, a
/// guesser with the link) is sent to retrieve-quote and shown nothing of the owner, as a
/// comparison site's used click-through is.
pub async fn start(state: &AppState, token: &str, caller: &Caller) -> Result<Landing, AppError> {
    let Some(link) = PolicyLink::verify(&state.config.secret_key, token) else {
        return Err(AppError::NotFound);
    };
    let Some(policy) = state.store.policy(&link.policy).await? else {
        return Err(AppError::NotFound);
    };
    let Some(source) = state.store.quote_by_id(&policy.quote_id).await? else {
        return Err(AppError::NotFound);
    };
    let Some(journey) = annual_journey(&state.defs) else {
        return Err(AppError::NotFound);
    };
    if !state
        .defs
        .brand(&source.brand)
        .is_some_and(|b| b.offers_journey(journey))
    {
        return Err(AppError::NotFound);
    }
    let brand = &source.brand;
    let page = |id: PageId| {
        let path = journey
            .status_pages
            .iter()
            .find(|p| p.page == id)
            .map_or("/", |p| p.path.as_str());
        format!("{}{path}?brand={brand}", journey.base_path)
    };
    if policy.terminated {
        return Ok(Landing {
            to: page(PageId::PolicyTerminated),
            cookie: None,
        });
    }
    let linked = state.store.linked_quote(&policy.policy_number).await?;
    if linked
        .as_ref()
        .is_some_and(|q| q.lifecycle == Lifecycle::Purchased)
    {
        return Ok(Landing {
            to: page(PageId::AlreadyPurchased),
            cookie: None,
        });
    }
    let start = NaiveDate::parse_from_str(&policy.start_date, "%Y-%m-%d").map_err(|e| {
        AppError::Internal(format!("policy {}: start date: {e}", policy.policy_number))
    })?;
    let Some(rehoming) = state.defs.rehoming() else {
        return Err(AppError::Internal(
            "the annual rehoming journey needs journeys/rehoming.json for the free cover's days"
                .into(),
        ));
    };
    let (_, last_day) = crate::service::rescue::cover_dates(&rehoming.cover, start);
    // Past the link's time, or the free cover has ended (either way the same day).
    if chrono::Utc::now().timestamp() >= link.expires || quote::uk_today() > last_day {
        return Ok(Landing {
            to: page(PageId::PolicyLinkExpired),
            cookie: None,
        });
    }
    let first = journey
        .step(&journey.start)
        .ok_or_else(|| AppError::Internal("the annual journey has no start step".into()))?;
    let landing = format!("{}{}?brand={brand}", journey.base_path, first.path);
    let retrieve = Landing {
        to: format!("{}/retrieve-quote?brand={brand}", journey.base_path),
        cookie: None,
    };
    if let Some(existing) = linked {
        return Ok(match existing.lifecycle {
            Lifecycle::Purchased => Landing {
                to: page(PageId::AlreadyPurchased),
                cookie: None,
            },
            Lifecycle::Expired | Lifecycle::Reset => Landing {
                to: page(PageId::PolicyLinkExpired),
                cookie: None,
            },
            // Opened before: by this browser, which goes on where it was; by any other, not.
            Lifecycle::Active => {
                let own = quote::existing(state, caller)
                    .await?
                    .is_some_and(|(q, _)| q.id == existing.id);
                if own {
                    Landing {
                        to: landing,
                        cookie: None,
                    }
                } else {
                    tracing::info!(quote = %existing.id, "an annual link opened again elsewhere: not opened");
                    retrieve
                }
            }
        });
    }
    let session = SessionToken::generate();
    let id = crate::store::quote_id();
    let document = annual_document(state, &source, &policy.policy_number, last_day, &id);
    let quote_ref = quote::quote_reference();
    let made = state
        .store
        .insert_linked_quote(
            &NewQuote {
                id: &id,
                quote_ref: &quote_ref,
                brand,
                channel: journey.channel,
                journey: &journey.id,
                definition_version: state.defs.version(),
                document: &document,
                opening: None,
            },
            &policy.policy_number,
            &session.hash(),
        )
        .await;
    match made {
        Ok(()) => {
            tracing::info!(quote = %id, policy = %policy.policy_number, "annual rehoming quote made from its policy link");
        }
        // Two clicks at once: the other made the quote and holds it.
        Err(StoreError::Conflict) => return Ok(retrieve),
        Err(e) => return Err(e.into()),
    }
    let cookie = session.set_cookie(state.config.secure_cookies());
    Ok(Landing {
        to: landing,
        cookie: Some(cookie),
    })
}
