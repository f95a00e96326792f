//! No lockouts: guessing at a quote reference never keeps its owner out (journey.md §8 Retrieve
//! quote). Retrievals of one reference are few in any window (`limits::limit_reference`), so a
//! guesser soon spends them; then the page offers to email a one-time link to the address on the
//! quote. The offer answers the same words, after the same time, whether or not the reference
//! is one of ours; the link goes only to the quote's own address; and however often anyone asks,
//! the owner's inbox holds at most one live link and [`LINKS_PER_DAY`] a day. The link opens the
//! quote once, in a new session, for [`LINK_MINUTES`].

use serde_json::{Map, Value, json};

use engine::journey::runtime::{self, Lifecycle};

use crate::mail::{Mailer, RETRIEVE_LINK, RetrieveLinkEmail};
use crate::service::caller::Caller;
use crate::service::error::AppError;
use crate::service::landing::Landing;
use crate::service::quote;
use crate::service::retrieve::normalise_reference;
use crate::service::state::AppState;
use crate::session::SessionToken;

/// How long a link works.
pub const LINK_MINUTES: i64 = 30;
/// The most link emails one quote is sent in a day.
pub const LINKS_PER_DAY: i64 = 5;
/// What a link's token is signed for (never accepted as another kind of link).
const PURPOSE: &str = "retrieve link";

/// POST /api/quoteretrieval-link `{csrf, quote_reference}`: the link emailed to the address on
/// the quote, if it is one of ours and still to be bought; the same answer either way.
pub async fn send(
    state: &AppState,
    caller: &Caller,
    body: &Map<String, Value>,
) -> Result<Value, AppError> {
    let auth =
        crate::service::transition::authorise(state, caller, body, &["quote_reference"]).await?;
    let reference = match body.get("quote_reference") {
        Some(Value::String(s)) if s.chars().count() <= 40 => normalise_reference(s),
        _ => {
            return Err(AppError::BadRequest(
                "quote_reference must be text of at most 40 characters".into(),
            ));
        }
    };
    crate::service::limits::limit(state, "retrieve_link", caller).await?;
    let voice = quote::voice(state, &auth.quote);
    let answer = json!({ "data": { "sent": true, "message": voice.t("retrieve.link.sent") } });
    let Some(found) = state.store.quote_by_ref(&reference).await? else {
        return Ok(answer);
    };
    let recipient = found
        .document
        .pointer("/owner/email_address")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .trim()
        .to_owned();
    if found.lifecycle != Lifecycle::Active || recipient.is_empty() {
        return Ok(answer);
    }
    let now = chrono::Utc::now();
    let expires = now.timestamp() + LINK_MINUTES * 60;
    let token = crate::signed::sign(
        &state.config.secret_key,
        PURPOSE,
        &format!("{}.{expires}.{}", found.id, crate::store::random_id()),
    );
    let message = RetrieveLinkEmail {
        brand_code: found.brand.clone(),
        language: quote::language(state, &found),
        first_name: found
            .document
            .pointer("/owner/customer_first_name")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned(),
        quote_reference: found.quote_ref.clone(),
        link: format!(
            "{}/retrieve/continue/{token}",
            state.config.public_url.trim_end_matches('/')
        ),
        minutes: LINK_MINUTES,
    };
    let rendered = state
        .mail_templates
        .retrieve_link(&message)
        .map_err(AppError::Internal)?;
    let email = Mailer::outbox_entry(RETRIEVE_LINK, &recipient, rendered);
    let still_valid = crate::store::timestamp(now - chrono::Duration::minutes(LINK_MINUTES));
    let day = crate::store::timestamp(now - chrono::Duration::days(1));
    if state
        .store
        .add_link_email(&found.id, &email, &still_valid, &day, LINKS_PER_DAY)
        .await?
    {
        tracing::info!(quote = %found.id, "one-time retrieval link emailed");
        crate::metrics::retrieve_link("sent");
        state.mailer.wake();
    } else {
        crate::metrics::retrieve_link("not_sent");
    }
    Ok(answer)
}

/// GET /retrieve/continue/{token}: the quote opens in a new session at its furthest step. A
/// link that is not ours is the not-found page; an expired or used one, or one whose quote is
/// bought or past its validity, goes to retrieve-quote, which says so.
pub async fn open(state: &AppState, token: &str) -> Result<Landing, AppError> {
    let payload = crate::signed::verify(&state.config.secret_key, PURPOSE, token)
        .ok_or(AppError::NotFound)?;
    let mut parts = payload.split('.');
    let (Some(quote_id), Some(expires), Some(_nonce), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(AppError::NotFound);
    };
    let expires: i64 = expires.parse().map_err(|_| AppError::NotFound)?;
    let found = state
        .store
        .quote_by_id(quote_id)
        .await?
        .ok_or(AppError::NotFound)?;
    let journey = quote::journey(state, &found)?;
    let brand = &found.brand;
    let invalid = || Landing {
        to: format!(
            "{}/retrieve-quote?brand={brand}&link=invalid",
            journey.base_path
        ),
        cookie: None,
    };
    let past_validity = crate::service::view::valid_until(&found.created_at)
        .and_then(|d| chrono::NaiveDate::parse_from_str(&d, "%Y-%m-%d").ok())
        .is_some_and(|until| until < quote::uk_today());
    if chrono::Utc::now().timestamp() > expires
        || found.lifecycle != Lifecycle::Active
        || past_validity
        || !state.store.spend_link(token, &found.id).await?
    {
        crate::metrics::retrieve_link("refused");
        return Ok(invalid());
    }
    let session = SessionToken::generate();
    if !state
        .store
        .attach_session(&found.id, &session.hash())
        .await?
    {
        return Ok(invalid());
    }
    let rules = quote::rule_context(state, &found);
    let position = runtime::position_of(&state.defs, journey, &found.document, &rules)?;
    let step = journey.step(&position.furthest).ok_or_else(|| {
        AppError::Internal(format!(
            "position names an unknown step {}",
            position.furthest
        ))
    })?;
    let path = crate::service::view::step_url(journey, step, state.defs.brand(brand));
    tracing::info!(quote = %found.id, "quote opened by its one-time link");
    crate::metrics::retrieve_link("opened");
    Ok(Landing {
        to: path,
        cookie: Some(session.set_cookie(state.config.secure_cookies())),
    })
}
