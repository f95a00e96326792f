//! The breed list call (journey.md §7 `getbreedlist` / `retrievepetswithbreeddata`): every active
//! breed of every species, from the same files the server's rules read. The browser keeps it for
//! the session; it changes only with the definitions, so it carries their version as its ETag.

use axum::Json;
use axum::extract::State;
use axum::http::header::{CACHE_CONTROL, ETAG, IF_NONE_MATCH};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use engine::definitions::{Breed, Species};

use crate::AppState;

fn active(list: Option<&Vec<Breed>>) -> Vec<&Breed> {
    list.into_iter().flatten().filter(|b| b.active).collect()
}

/// The lists as the view data names them: `dog_breed_data` with breedData, crossbreedData and
/// mongrelData; `cat_breed_data` and `rabbit_breed_data` as lists.
pub(super) fn breed_lists(state: &AppState) -> Value {
    let dogs = state.defs.breed_file(Species::Dog);
    let cats = state.defs.breed_file(Species::Cat);
    let rabbits = state.defs.breed_file(Species::Rabbit);
    json!({
        "dog_breed_data": {
            "breedData": active(dogs.and_then(|f| f.breed_data.as_ref())),
            "crossbreedData": active(dogs.and_then(|f| f.crossbreed_data.as_ref())),
            "mongrelData": active(dogs.and_then(|f| f.mongrel_data.as_ref())),
        },
        "cat_breed_data": active(cats.and_then(|f| f.breeds.as_ref())),
        "rabbit_breed_data": active(rabbits.and_then(|f| f.breeds.as_ref())),
    })
}

pub(super) async fn breed_list(State(state): State<AppState>, headers: HeaderMap) -> Response {
    let etag = format!("\"breeds-{}\"", state.defs.version());
    if headers.get(IF_NONE_MATCH).and_then(|v| v.to_str().ok()) == Some(etag.as_str()) {
        return StatusCode::NOT_MODIFIED.into_response();
    }
    let mut response = Json(json!({ "data": breed_lists(&state) })).into_response();
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
/// answer, so the connection is left clean for its next request (issue 21: unread bodies made
/// keep-alive connections drop).
pub(super) async fn breed_list_posted(
    state: State<AppState>,
    headers: HeaderMap,
    super::body::JsonObject(body): super::body::JsonObject,
) -> Result<Response, crate::error::AppError> {
    super::body::only_fields(&body, &[])?;
    Ok(breed_list(state, headers).await)
}
