//! Retrieving a quote (journey.md §8): the reference and email checked without telling
//! a guesser which was wrong, the quote joined to this browser's session, an expired quote renewed.

use hmac::{Hmac, Mac};
use serde_json::{Value, json};
use sha2::Sha256;
use subtle::ConstantTimeEq;

use engine::journey::runtime::{self, Event, Lifecycle};

use crate::service::error::{AppError, FieldMessage};
use crate::service::quote;
use crate::service::reply::Reply;
use crate::service::state::AppState;
use crate::store::{QuoteRow, TransitionMeta};

/// A keyed digest of an email address, so both sides of the comparison cost the same.
pub fn digest(state: &AppState, email: &str) -> [u8; 32] {
    #[expect(clippy::expect_used, reason = "HMAC takes keys of any length")]
    let mut mac =
        Hmac::<Sha256>::new_from_slice(state.config.secret_key.bytes()).expect("any key length");
    mac.update(b"pawpath retrieve v1:");
    mac.update(email.as_bytes());
    mac.finalize().into_bytes().into()
}

/// `abcd efgh-jkmn` → `ABCD-EFGH-JKMN`.
pub fn normalise_reference(typed: &str) -> String {
    let chars: Vec<char> = typed
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_uppercase())
        .collect();
    chars
        .chunks(4)
        .map(|c| c.iter().collect::<String>())
        .collect::<Vec<_>>()
        .join("-")
}

/// How long after the rate limit every retrieval answers: longer than the lookup, the digests
/// and the session's move ever take, so no answer is told apart by its time.
pub const ANSWER_AFTER: std::time::Duration = std::time::Duration::from_millis(250);

pub async fn find(
    state: &AppState,
    caller: &crate::service::Caller,
    body: &serde_json::Map<String, Value>,
    auth: crate::service::transition::Authorised,
) -> Result<Reply, AppError> {
    let text = |name: &str, max: usize| -> Result<String, AppError> {
        match body.get(name) {
            Some(Value::String(s)) if s.chars().count() <= max => Ok(s.clone()),
            _ => Err(AppError::BadRequest(format!(
                "{name} must be text of at most {max} characters"
            ))),
        }
    };
    let reference = normalise_reference(&text("quote_reference", 40)?);
    let email = text("email", 254)?.trim().to_lowercase();
    crate::service::limits::limit_reference(state, caller, &reference).await?;
    let found = state.store.quote_by_ref(&reference).await?;
    let stored = found
        .as_ref()
        .and_then(|q| q.document.pointer("/owner/email_address"))
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_lowercase();
    // The same work either way: both digests are made and compared.
    let same: bool = digest(state, &email).ct_eq(&digest(state, &stored)).into();
    let Some(found) = found.filter(|_| same && !stored.is_empty() && !email.is_empty()) else {
        return Err(AppError::Validation(vec![FieldMessage {
            field: "quote_reference".into(),
            message: quote::voice(state, &auth.quote).t("retrieve.not_found"),
        }]));
    };
    let journey = quote::journey(state, &found)?;
    let today = quote::uk_today();
    // Past its validity, or already marked expired (retrieved once before and renewed): a new
    // quote starting today either way.
    let expired = found.lifecycle == Lifecycle::Expired
        || (found.lifecycle == Lifecycle::Active
            && crate::service::view::valid_until(&found.created_at)
                .and_then(|d| chrono::NaiveDate::parse_from_str(&d, "%Y-%m-%d").ok())
                .is_some_and(|until| until < today));
    // A bought quote stays with the browser that bought it: whoever else knows its
    // reference and email is told it is bought and where its documents went, and shown nothing
    // of it.
    if found.lifecycle == Lifecycle::Purchased && found.id != auth.quote.id {
        tracing::info!(quote = %found.id, "a bought quote asked for: not opened");
        return Reply::json(&json!({ "data": {
            "purchased": true,
            "message": quote::voice(state, &auth.quote).t("retrieve.purchased"),
        } }));
    }
    // A quote joining this browser joins it under a new session: the session the
    // browser had (one an attacker may have planted) finds nothing from then on.
    let fresh = crate::session::SessionToken::generate();
    let (attached, cookie) = if found.id == auth.quote.id {
        (found, None)
    } else if expired {
        let renewed = renew(state, &auth.quote, &found, &fresh.hash()).await?;
        (renewed, Some(fresh))
    } else {
        if !state
            .store
            .move_session(&auth.quote.id, &found.id, &fresh.hash())
            .await?
        {
            return Err(AppError::Conflict);
        }
        (found, Some(fresh))
    };
    let rules = quote::rule_context(state, &attached);
    let step = if attached.lifecycle == Lifecycle::Purchased {
        quote::purchased_position(journey)?.0
    } else {
        let position = runtime::position_of(&state.defs, journey, &attached.document, &rules)?;
        journey.step(&position.furthest).ok_or_else(|| {
            AppError::Internal(format!(
                "position names an unknown step {}",
                position.furthest
            ))
        })?
    };
    let path = crate::service::view::step_url(journey, step, state.defs.brand(&attached.brand));
    tracing::info!(quote = %attached.id, expired, "quote retrieved");
    let reply = Reply::json(&json!({ "data": { "path": path, "expired": expired } }))?;
    Ok(match cookie {
        Some(session) => reply.joining(state, &session),
        None => reply,
    })
}

/// An expired quote becomes a new quote with the answers it had and the start date today; the
/// old one is marked expired. The new quote is priced afresh and joins this session.
pub async fn renew(
    state: &AppState,
    current: &QuoteRow,
    old: &QuoteRow,
    session: &str,
) -> Result<QuoteRow, AppError> {
    let journey = quote::journey(state, old)?;
    let rules = quote::rule_context(state, old);
    // Marked expired once (an earlier retrieval): it stays so; otherwise it is marked now.
    if old.lifecycle == Lifecycle::Active {
        let result = runtime::transition(
            &state.defs,
            &journey.id,
            &old.document,
            old.lifecycle,
            &Event::Expire,
            rules.clone(),
        )?;
        let meta = TransitionMeta {
            quote_id: &old.id,
            brand: &old.brand,
            channel: old.channel.as_str(),
            duration_us: 0,
            experiment_views: &[],
        };
        state
            .store
            .record(
                old,
                Some((&result.document, result.lifecycle)),
                &result.record,
                meta,
                &[],
            )
            .await?;
    }
    let mut document = old.document.clone();
    document["owner"]["pet_policy_start_date"] = json!(rules.today.format("%Y-%m-%d").to_string());
    engine::rules::domain::derive_pet_fields(&state.defs, &mut document);
    engine::rules::domain::derive_quote_fields(&state.defs, &mut document, &rules);
    engine::journey::quoting::requote(&state.defs, &mut document, &rules);
    state.store.detach_session(&current.id).await?;
    let renewed = quote::insert_for_session(
        state,
        session,
        &old.brand,
        old.channel,
        &old.journey,
        &document,
    )
    .await?;
    Ok(renewed)
}
