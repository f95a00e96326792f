//! What never changes for a definitions version, at addresses that carry the version (issue 22):
//! a brand's copy catalogue in one of its languages, and each question set's form. A page's view data names the address; the
//! browser fetches it once and keeps it, so no answer carries the catalogue again.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::response::{IntoResponse, Response};

use crate::AppState;
use crate::error::AppError;

/// GET /quote/definitions/{version}/copy/{brand}/{language}: the brand's catalogue in the
/// language (the language's copy with the brand's overrides and name). Only for the version
/// being served: an address from before a change of definitions is gone (404), and the view
/// data names the new one.
pub(super) async fn copy(
    State(state): State<AppState>,
    Path((version, brand, language)): Path<(String, String, String)>,
) -> Result<Response, AppError> {
    let known = state
        .defs
        .brand(&brand)
        .is_some_and(|b| b.speaks(&language));
    if version != state.defs.version() || !known {
        return Err(AppError::NotFound);
    }
    let voice = state.defs.voice(&brand, &language);
    let body = serde_json::to_vec(&voice.catalogue_ref())
        .map_err(|e| AppError::Internal(format!("copy catalogue: {e}")))?;
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

/// GET /quote/definitions/{version}/questions/{brand}/{language}/{id}: a question set's form as
/// the brand draws it in the language (the schema and its localised UI hints: `form` of a view's
/// questions), for the version being served; cached as the copy is.
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
        return Err(AppError::NotFound);
    }
    let voice = state.defs.voice(&brand, &language);
    let body = serde_json::to_vec(&crate::view::form_view(&voice, qs, b))
        .map_err(|e| AppError::Internal(format!("form {id}: {e}")))?;
    Ok((
        StatusCode::OK,
        [
            (CONTENT_TYPE, "application/json"),
            (CACHE_CONTROL, "public, max-age=31536000, immutable"),
        ],
        body,
    )
        .into_response())
}
