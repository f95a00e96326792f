//! The code checks (owner-payment.md §4 Promo code, Nectar card; §7 Promo code, Nectar card
//! lookup): `POST /api/checkoffercode` and `POST /api/getnectarcard`. Each caller may try a few
//! codes in a window and no more (issue 4: nobody enumerates promo codes), counted in the
//! database per client address and per session, so every pawpath process shares the count.

use std::net::SocketAddr;

use axum::Json;
use axum::extract::{ConnectInfo, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use engine::definitions::Species;
use engine::domain;

use super::body::{JsonObject, only_fields, optional_text};
use super::quote;
use crate::AppState;
use crate::error::AppError;
use crate::session::SessionToken;

/// Attempts allowed in any window of [`WINDOW_SECONDS`], by what is attempted and who counts:
/// a code or a retrieval is a guess, so few, from an address or a session alike; an address or
/// vet lookup is a customer typing (and, with Loqate, a paid lookup): 60 a session, and from
/// one address (many customers share one behind a mobile network) `PAWPATH_LOOKUPS_PER_ADDRESS`.
fn budget(state: &AppState, scope: &str, per_address: bool) -> i64 {
    match (scope, per_address) {
        ("address" | "vets", true) => {
            i64::try_from(state.config.lookups_per_address).unwrap_or(i64::MAX)
        }
        ("address" | "vets", false) => 60,
        _ => 10,
    }
}
pub(super) const WINDOW_SECONDS: i64 = 15 * 60;

/// The attempts counted over the last `window` seconds, `elapsed` seconds into the current
/// fixed window: the previous window's count weighted by how much of it the sliding window still
/// covers, plus the current one's (rounded up). So no burst at a window's edge gets double the
/// budget.
pub(super) fn sliding_count(current: i64, previous: i64, elapsed: i64, window: i64) -> i64 {
    let covered = (window - elapsed.clamp(0, window)).max(0);
    current + (previous * covered + window - 1) / window
}

/// The caller's address: the connection's own, or behind our proxies the entry the outermost of
/// them wrote into the configured header (that many from the right). Entries to its left were
/// written by the client and are never believed (issue 21).
pub(super) fn client_ip(
    state: &AppState,
    peer: SocketAddr,
    headers: &HeaderMap,
) -> std::net::IpAddr {
    let Some(name) = state.config.client_ip_header.as_ref() else {
        return peer.ip();
    };
    let entries: Vec<&str> = headers
        .get_all(name)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .collect();
    entries
        .len()
        .checked_sub(state.config.trusted_proxies)
        .and_then(|i| entries.get(i))
        .and_then(|ip| ip.parse().ok())
        .unwrap_or_else(|| peer.ip())
}

/// Counts an attempt at `scope` by this caller (its address and its session); refuses once
/// either is over the scope's budget in the sliding window.
pub(super) async fn limit(
    state: &AppState,
    scope: &str,
    peer: SocketAddr,
    headers: &HeaderMap,
) -> Result<(), AppError> {
    let now = chrono::Utc::now().timestamp();
    let elapsed = now.rem_euclid(WINDOW_SECONDS);
    let window = now - elapsed;
    let ip = client_ip(state, peer, headers);
    let mut keys = vec![format!("{scope}:ip:{ip}")];
    if let Some(token) = SessionToken::from_headers(headers) {
        keys.push(format!("{scope}:session:{}", token.hash()));
    }
    let counts = state
        .store
        .count_attempt(&keys, window, WINDOW_SECONDS)
        .await?;
    // The first key is the address's, the second the session's.
    let over = counts.iter().enumerate().any(|(i, (current, previous))| {
        sliding_count(*current, *previous, elapsed, WINDOW_SECONDS) > budget(state, scope, i == 0)
    });
    if over {
        tracing::warn!(scope, "over the rate limit");
        let voice = quote::request_voice(state, headers).await;
        return Err(AppError::RateLimited(voice.t("error.rate_limited")));
    }
    Ok(())
}

/// POST /api/checkoffercode: `{offercode, species, token, brand}` → `{valid, desc, summ, nectar}`.
/// The brand and species are the quote's when the caller has one; an empty species means the
/// pets on the quote.
pub(super) async fn check_offer_code(
    State(state): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    JsonObject(body): JsonObject,
) -> Result<Response, AppError> {
    only_fields(&body, &["offercode", "species", "token", "brand"])?;
    let code = optional_text(&body, "offercode", 40)?.unwrap_or_default();
    let species_typed = optional_text(&body, "species", 10)?.unwrap_or_default();
    let _token = optional_text(&body, "token", 100)?.unwrap_or_default();
    let brand_typed = optional_text(&body, "brand", 10)?.unwrap_or_default();
    if code.trim().is_empty() {
        return Err(AppError::BadRequest("offercode is required".into()));
    }
    limit(&state, "promo", peer, &headers).await?;
    let existing = quote::existing(&state, &headers).await?;
    let (brand, mut species) = match &existing {
        Some((q, _)) => (q.brand.clone(), domain::species_on_quote(&q.document)),
        None => (
            if brand_typed.is_empty() {
                quote::DEFAULT_BRAND.to_owned()
            } else {
                brand_typed.to_owned()
            },
            Vec::new(),
        ),
    };
    if !species_typed.is_empty() {
        species = vec![Species::parse(species_typed).ok_or_else(|| {
            AppError::BadRequest("species must be dog, cat, rabbit or empty".into())
        })?];
    }
    let today = quote::uk_today();
    let voice = match &existing {
        Some((q, _)) => quote::voice(&state, q),
        None => state.defs.voice(&brand, "en-GB"),
    };
    let answer = match domain::promo_offer(&state.defs, code, &brand, &species, today) {
        Some(p) => json!({
            "valid": true,
            "desc": voice.t(&p.description),
            "summ": voice.t(&p.summary),
            "nectar": p.nectar,
        }),
        None => json!({ "valid": false, "desc": "", "summ": "", "nectar": false }),
    };
    Ok(Json(json!({ "data": answer })).into_response())
}

/// POST /api/getnectarcard: `{nectarcard}` (the 11 digits after 9826 3000) →
/// `{nectarCard: {valid, desc, summ}}`.
pub(super) async fn get_nectar_card(
    State(state): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    JsonObject(body): JsonObject,
) -> Result<Response, AppError> {
    only_fields(&body, &["nectarcard"])?;
    let number = optional_text(&body, "nectarcard", 30)?.unwrap_or_default();
    limit(&state, "nectar", peer, &headers).await?;
    let digits: String = number.chars().filter(|c| !c.is_whitespace()).collect();
    let valid = domain::nectar_number_valid(&digits);
    let voice = quote::request_voice(&state, &headers).await;
    let t = |k: &str| voice.t(k);
    let answer = if valid {
        json!({ "valid": true, "desc": t("nectar.label"), "summ": format!("{} {}", t("nectar.prefix"), digits) })
    } else {
        json!({ "valid": false, "desc": "", "summ": "" })
    };
    Ok(Json(json!({ "nectarCard": answer })).into_response())
}

/// POST /api/CheckExistingPolicy: `{policyno, brand, postcode}` → `{existing_policy_valid}`
/// (owner-payment.md §5 Existing policy number, §7 Existing policy check). The brand is the
/// quote's and the postcode the owner's when the caller has a quote. A match on a quote (with its
/// CSRF token) is stored there, which stops name and address editing (journeys/direct.json
/// `locks`); the answer is then the new view data.
pub(super) async fn check_existing_policy(
    State(state): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    JsonObject(body): JsonObject,
) -> Result<Response, AppError> {
    only_fields(&body, &["policyno", "brand", "postcode"])?;
    let number = optional_text(&body, "policyno", 40)?.unwrap_or_default();
    let brand_typed = optional_text(&body, "brand", 10)?.unwrap_or_default();
    let postcode_typed = optional_text(&body, "postcode", 20)?.unwrap_or_default();
    let voice = quote::request_voice(&state, &headers).await;
    let field_error = |field: &str, key: &str| {
        AppError::Validation(vec![crate::error::FieldMessage {
            field: field.into(),
            message: voice.t(key),
        }])
    };
    if number.trim().is_empty() {
        return Err(field_error("policyno", "error.required"));
    }
    limit(&state, "policy", peer, &headers).await?;
    let existing = quote::existing(&state, &headers).await?;
    let brand = match &existing {
        Some((q, _)) => q.brand.clone(),
        None if brand_typed.is_empty() => quote::DEFAULT_BRAND.to_owned(),
        None => brand_typed.to_owned(),
    };
    let stored_postcode = existing
        .as_ref()
        .and_then(|(q, _)| q.document.pointer("/owner/customer_postcode"))
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    let typed = if postcode_typed.trim().is_empty() {
        stored_postcode.as_str()
    } else {
        postcode_typed
    };
    let postcode = engine::postcode::Postcode::parse(typed)
        .ok_or_else(|| field_error("postcode", "owner.postcode.invalid"))?;
    let valid = state.policies.matches(number, &brand, &postcode);
    tracing::info!(valid, "existing policy check");
    let normalised = crate::policies::normalise(number);
    match existing {
        Some(_) if valid && body.contains_key("csrf") => {
            let auth =
                super::api::authorise(&state, &headers, &body, &["policyno", "brand", "postcode"])
                    .await?;
            let event = engine::runtime::Event::Edit {
                questions: "existing_policy".into(),
                answers: json!({ "owner": { "existing_policy_number": normalised } }),
            };
            super::api::run(&state, auth, event, std::time::Instant::now()).await
        }
        _ => Ok(Json(json!({ "data": { "existing_policy_valid": valid } })).into_response()),
    }
}

#[cfg(test)]
mod tests {
    use super::sliding_count;

    /// Issue 21: a fixed window allowed double the budget around its edge.
    #[test]
    fn the_window_slides() {
        let w = 900;
        // Ten attempts just before the edge; just after it they still count in full.
        assert_eq!(sliding_count(1, 10, 0, w), 11);
        // Halfway through the next window, half of them.
        assert_eq!(sliding_count(1, 10, 450, w), 6);
        // A whole window later, none.
        assert_eq!(sliding_count(1, 10, 900, w), 1);
        assert_eq!(sliding_count(3, 0, 10, w), 3);
    }
}
