//! What never changes for a definitions version, at addresses that carry the version:
//! a brand's copy catalogue in one of its languages, each question set's form, and the
//! breed lists. A page's view data (for the breed lists, its boot) names the address; the browser
//! fetches it once and keeps it, so no answer carries the catalogue again.
//!
//! An address from before the definitions changed (a page drawn just before a release or a
//! reload, fetching its catalogue just after) is sent on to the same thing in the definitions
//! being served, uncached: the page gets today's words rather than failing.

use axum::extract::{Path, State};
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE, LOCATION};
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use crate::service::error::AppError;
use crate::service::state::AppState;

/// GET /quote/definitions/{version}/copy/{brand}/{language}: the brand's catalogue in the
/// language (the language's copy with the brand's overrides and name).
pub(super) async fn copy(
    State(state): State<AppState>,
    Path((version, brand, language)): Path<(String, String, String)>,
) -> Result<Response, AppError> {
    if !state
        .defs
        .brand(&brand)
        .is_some_and(|b| b.speaks(&language))
    {
        return Err(AppError::NotFound);
    }
    if version != state.defs.version() {
        return Ok(moved(crate::service::view::copy_url(
            &state.defs,
            &brand,
            &language,
        )));
    }
    let voice = state.defs.voice(&brand, &language);
    immutable_json(&voice.catalogue_ref(), "copy catalogue")
}

/// GET /quote/definitions/{version}/questions/{brand}/{language}/{id}: a question set's form as
/// the brand draws it in the language (the schema and its localised UI hints: `form` of a view's
/// questions); cached as the copy is.
pub(super) async fn form(
    State(state): State<AppState>,
    Path((version, brand, language, id)): Path<(String, String, String, String)>,
) -> Result<Response, AppError> {
    let Some(b) = state.defs.brand(&brand).filter(|b| b.speaks(&language)) else {
        return Err(AppError::NotFound);
    };
    let Some(qs) = state.defs.question_set(&id) else {
        return Err(AppError::NotFound);
    };
    if version != state.defs.version() {
        return Ok(moved(crate::service::view::form_url(
            &state.defs,
            &brand,
            &language,
            &id,
        )));
    }
    let voice = state.defs.voice(&brand, &language);
    immutable_json(&crate::service::view::form_view(&voice, qs, b), "form")
}

/// GET /quote/definitions/{version}/breeds: the breed lists (journey.md §7 breed list call), as
/// `/api/getbreedlist` answers them, cached as the copy is. The page's boot names the address,
/// so the first page asks for them as it starts, not after its view data.
pub(super) async fn breeds(
    State(state): State<AppState>,
    Path(version): Path<String>,
    headers: axum::http::HeaderMap,
) -> Result<Response, AppError> {
    if version != state.defs.version() {
        return Ok(moved(crate::service::view::breeds_url(&state.defs)));
    }
    let body = crate::service::breeds::breed_lists_body(&state).await?;
    let mut response = crate::http::answers::encoded_json(&headers, &body);
    response.headers_mut().insert(
        CACHE_CONTROL,
        HeaderValue::from_static("public, max-age=31536000, immutable"),
    );
    Ok(response)
}

/// A JSON answer that never changes at its address: cached for a year.
fn immutable_json(value: &impl Serialize, what: &str) -> Result<Response, AppError> {
    let body = serde_json::to_vec(value).map_err(|e| AppError::Internal(format!("{what}: {e}")))?;
    Ok((
        StatusCode::OK,
        [
            (CONTENT_TYPE, "application/json"),
            // The address changes with the definitions: what it answers never does.
            (CACHE_CONTROL, "public, max-age=31536000, immutable"),
        ],
        body,
    )
        .into_response())
}

/// Sends an old version's address on to the current one; the redirect itself is not kept, as
/// the current version will change again.
fn moved(to: String) -> Response {
    (
        StatusCode::TEMPORARY_REDIRECT,
        [(LOCATION, to), (CACHE_CONTROL, "no-store".to_owned())],
    )
        .into_response()
}
