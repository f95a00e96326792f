//! The breed list call (journey.md §7 `getbreedlist` / `retrievepetswithbreeddata`): every active
//! breed of every species, from the same files the server's rules read. The browser keeps it for
//! the session; it changes only with the definitions, so it carries their version as its ETag.

use axum::extract::State;
use axum::http::header::{CACHE_CONTROL, ETAG, IF_NONE_MATCH};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

use crate::http::answers::encoded_json;
use crate::service::breeds::breed_lists_body;
use crate::service::state::AppState;

pub(super) async fn breed_list(State(state): State<AppState>, headers: HeaderMap) -> Response {
    let etag = format!("\"breeds-{}\"", state.defs.version());
    if headers.get(IF_NONE_MATCH).and_then(|v| v.to_str().ok()) == Some(etag.as_str()) {
        return StatusCode::NOT_MODIFIED.into_response();
    }
    let body = match breed_lists_body(&state).await {
        Ok(body) => body,
        Err(e) => return e.into_response(),
    };
    let mut response = encoded_json(&headers, &body);
    if let Ok(value) = HeaderValue::from_str(&etag) {
        response.headers_mut().insert(ETAG, value);
    }
    response.headers_mut().insert(
        CACHE_CONTROL,
        HeaderValue::from_static("private, max-age=3600"),
    );
    response
}

/// POST /api/getbreedlist and /api/retrievepetswithbreeddata: the page's call helper sends
/// `{locale}`. The body is read (and must be a JSON object within the size limit) before the
/// answer, so the connection is left clean for its next request (unread bodies made
/// keep-alive connections drop).
pub(super) async fn breed_list_posted(
    state: State<AppState>,
    headers: HeaderMap,
    crate::http::body::JsonObject(body): crate::http::body::JsonObject,
) -> Result<Response, crate::service::error::AppError> {
    crate::service::fields::only_fields(&body, &[])?;
    Ok(breed_list(state, headers).await)
}
