//! The product documents' pages (owner-payment.md §3 Documents and the Documents section): their
//! styles, and one version of a document in the visitor's language, rendered by
//! `service::documents`.

use axum::extract::{Path, State};
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::response::{IntoResponse, Response};

use crate::service::error::AppError;
use crate::service::state::AppState;

const STYLES: &str = include_str!("../../templates/document.css");

/// GET /quote/documents/document.css: the documents' own styles (no inline style under the CSP).
pub(super) async fn styles() -> Response {
    (
        [
            (CONTENT_TYPE, "text/css; charset=utf-8"),
            (CACHE_CONTROL, "public, max-age=3600"),
        ],
        STYLES,
    )
        .into_response()
}

/// GET /quote/documents/{name}: one version of a document, as a page, in the language of the
/// visitor's quote (the default brand's otherwise).
pub(super) async fn document(
    State(state): State<AppState>,
    caller: crate::service::Caller,
    Path(name): Path<String>,
) -> Result<Response, AppError> {
    let (brand, language) = match crate::service::quote::session_quote(&state, &caller).await {
        Some(q) => {
            let language = crate::service::quote::language(&state, &q);
            (q.brand, language)
        }
        None => (
            crate::service::quote::DEFAULT_BRAND.into(),
            "en-GB".to_owned(),
        ),
    };
    let page = match crate::service::documents::render(&state.defs, &name, &brand, &language) {
        Ok(Some(page)) => page,
        Ok(None) => return Err(AppError::NotFound),
        Err(e) => return Err(AppError::Internal(e)),
    };
    Ok((
        [
            (CONTENT_TYPE, "text/html; charset=utf-8"),
            // In the reader's language: no shared cache may hand it to another reader.
            (CACHE_CONTROL, "private, max-age=300"),
        ],
        page,
    )
        .into_response())
}
