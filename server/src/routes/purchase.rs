//! Buying (issue 6; owner-payment.md §2 Bank details panel "continue goes to /confirmation", §4
//! Confirmation): the policies, the Direct Debit mandate and its collection schedule, made in
//! one database transaction, exactly once. A double click, a retry after a dropped connection,
//! two tabs or fifty identical requests at once make one purchase and get the same answer: the
//! database allows one purchase per quote, and every request after the first is answered with
//! that purchase.

use std::time::Instant;

use axum::Json;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use engine::journey::runtime::Lifecycle;

use crate::http::body::JsonObject;
use crate::service::emails::Confirmation;
use crate::service::error::AppError;
use crate::service::purchase::{Attempted, attempt, confirmation};
use crate::service::quote;
use crate::service::state::AppState;
use crate::service::transition::{Authorised, authorise};
use crate::session::SessionToken;

/// POST /api/purchase: `{csrf, idempotency_key}` (a key the page makes for each purchase attempt
/// and sends again on a retry). Answers the confirmation page's view data.
///
/// The purchase moves the quote to a new session (issue 55; OWASP ASVS 3.2.1), made from the
/// buying session and the key ([`SessionToken::after_purchase`]): the answer sets its cookie, and
/// the cookie that bought finds nothing from then on, so a session planted in the customer's
/// browser before they started sees nothing of what they bought and cannot set their portal
/// password. Every request of the purchase (twins, the buyer's retry whose answer was lost) is
/// answered with the same purchase and the same new session.
pub(super) async fn purchase(
    State(state): State<AppState>,
    headers: HeaderMap,
    JsonObject(body): JsonObject,
) -> Result<Response, AppError> {
    let started = Instant::now();
    let key = idempotency_key(&body)?;
    let Authorised {
        mut quote,
        token,
        experiment_views,
    } = match authorise(&state, &headers, &body, &["idempotency_key"]).await {
        Ok(auth) => auth,
        Err(AppError::Csrf) => return bought_elsewhere(&state, &headers, &body, &key).await,
        Err(e) => return Err(e),
    };
    // This session is the buyer's since the purchase: the same answer, nothing changes.
    if quote.lifecycle == Lifecycle::Purchased {
        return confirmation(&state, &quote, &token).await;
    }
    let next = token.after_purchase(&state.config.secret_key, &key);
    for _ in 0..5 {
        match attempt(
            &state,
            &quote,
            &key,
            &next.hash(),
            &experiment_views,
            started,
        )
        .await?
        {
            Attempted::Bought | Attempted::Raced => {}
            Attempted::Refused(e) => return Err(e),
        }
        // Bought here or by a twin request with the same key (so the same new session), or
        // changed meanwhile: read it again where the purchase put it.
        if let Some(bought) = state.store.quote_by_session(&next.hash()).await?
            && bought.lifecycle == Lifecycle::Purchased
        {
            return with_session(&state, &bought, &next).await;
        }
        quote = state
            .store
            .quote_by_id(&quote.id)
            .await?
            .ok_or(AppError::NotFound)?;
        if quote.lifecycle == Lifecycle::Purchased {
            // Bought with another key (another tab's attempt): that attempt's session has it.
            return Err(AppError::Conflict);
        }
    }
    Err(AppError::Internal(format!(
        "quote {}: purchase kept conflicting",
        quote.id
    )))
}

/// The page's `idempotency_key`: 8 to 100 letters, digits or hyphens.
fn idempotency_key(body: &serde_json::Map<String, Value>) -> Result<String, AppError> {
    body.get("idempotency_key")
        .and_then(Value::as_str)
        .filter(|k| {
            (8..=100).contains(&k.len())
                && k.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
        })
        .map(str::to_owned)
        .ok_or_else(|| {
            AppError::BadRequest(
                "idempotency_key must be 8 to 100 letters, digits or hyphens".into(),
            )
        })
}

/// A purchase call whose session finds no quote to buy, or whose token is not its session's:
/// a request of a purchase already made. From the session that bought, with its own CSRF token
/// and the purchase's key (a retry whose answer was lost): answered as the purchase was. From
/// the bought session with the page's earlier token (a double click's twin, sent after the new
/// cookie arrived): the confirmation, as GET /api/confirmation reads it. Anything else is the
/// CSRF refusal it was. Nothing changes either way.
async fn bought_elsewhere(
    state: &AppState,
    headers: &HeaderMap,
    body: &serde_json::Map<String, Value>,
    key: &str,
) -> Result<Response, AppError> {
    let Some(cookie) = SessionToken::from_headers(headers) else {
        return Err(AppError::Csrf);
    };
    if let Some((quote, token)) = quote::existing(state, headers).await?
        && quote.lifecycle == Lifecycle::Purchased
    {
        return confirmation(state, &quote, &token).await;
    }
    let csrf = body.get("csrf").and_then(Value::as_str).unwrap_or_default();
    if !cookie.csrf_matches(&state.config.secret_key, csrf) {
        return Err(AppError::Csrf);
    }
    let next = cookie.after_purchase(&state.config.secret_key, key);
    match state.store.quote_by_session(&next.hash()).await? {
        Some(bought) if bought.lifecycle == Lifecycle::Purchased => {
            with_session(state, &bought, &next).await
        }
        _ => Err(AppError::Csrf),
    }
}

/// The confirmation for a quote bought into `session`, with the cookie that carries it.
async fn with_session(
    state: &AppState,
    quote: &crate::store::QuoteRow,
    session: &SessionToken,
) -> Result<Response, AppError> {
    let mut response = confirmation(state, quote, session).await?;
    let cookie = session.set_cookie(state.config.secure_cookies());
    let value = axum::http::HeaderValue::from_str(&cookie)
        .map_err(|e| AppError::Internal(format!("session cookie: {e}")))?;
    response
        .headers_mut()
        .append(axum::http::header::SET_COOKIE, value);
    Ok(response)
}

/// GET /api/confirmation (owner-payment.md §7 Confirmation: "reads csrf"): the confirmation
/// page's view data for this session's bought quote; 404 when the session has none.
pub(super) async fn confirmation_data(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<Response, AppError> {
    let Some((quote, token)) = quote::existing(&state, &headers).await? else {
        return Err(AppError::NotFound);
    };
    if quote.lifecycle != Lifecycle::Purchased {
        return Err(AppError::NotFound);
    }
    confirmation(&state, &quote, &token).await
}

/// POST /api/sendquoteemail `{csrf}` (owner-payment.md §7): the quote emailed to its owner
/// (`service::reminders::send_quote`).
pub(super) async fn send_quote_email(
    State(state): State<AppState>,
    axum::extract::ConnectInfo(peer): axum::extract::ConnectInfo<std::net::SocketAddr>,
    headers: HeaderMap,
    JsonObject(body): JsonObject,
) -> Result<Response, AppError> {
    let answer = crate::service::reminders::send_quote(&state, peer, &headers, &body).await?;
    Ok(axum::Json(answer).into_response())
}

/// POST /api/confirmationEmail `{csrf, send_confirmation_email: 1}` (owner-payment.md §4
/// Confirmation, §7 Confirmation email): the confirmation page asks for the confirmation email.
/// The purchase already wrote it to the outbox, so asking again, from a reload or a second tab,
/// never sends a second one; the answer says where it stands, and the worker is woken to send it
/// now.
pub(super) async fn confirmation_email(
    State(state): State<AppState>,
    headers: HeaderMap,
    JsonObject(body): JsonObject,
) -> Result<Response, AppError> {
    let Authorised { quote, .. } =
        authorise(&state, &headers, &body, &["send_confirmation_email"]).await?;
    match body.get("send_confirmation_email") {
        Some(v) if v == &json!(1) => {}
        _ => {
            return Err(AppError::BadRequest(
                "send_confirmation_email must be 1".into(),
            ));
        }
    }
    if quote.lifecycle != Lifecycle::Purchased {
        return Err(AppError::BadRequest(
            "the quote has not been bought: there is no confirmation to email".into(),
        ));
    }
    let status =
        crate::service::emails::confirmation_email(&state, &quote, Confirmation::Purchase).await?;
    Ok(Json(json!({ "data": { "confirmation_email": status } })).into_response())
}
