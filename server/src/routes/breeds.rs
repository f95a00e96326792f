//! The breed list call (journey.md §7 `getbreedlist` / `retrievepetswithbreeddata`): every active
//! breed of every species, from the same files the server's rules read. The browser keeps it for
//! the session; it changes only with the definitions, so it carries their version as its ETag.

use std::sync::Arc;

use axum::extract::State;
use axum::http::header::{
    ACCEPT_ENCODING, CACHE_CONTROL, CONTENT_ENCODING, CONTENT_TYPE, ETAG, IF_NONE_MATCH, VARY,
};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use engine::definitions::{Breed, Species};

use crate::error::AppError;
use crate::{AppState, Encoded};

fn active(list: Option<&Vec<Breed>>) -> Vec<&Breed> {
    list.into_iter().flatten().filter(|b| b.active).collect()
}

/// The lists as the view data names them: `dog_breed_data` with breedData, crossbreedData and
/// mongrelData; `cat_breed_data` and `rabbit_breed_data` as lists.
#[derive(serde::Serialize)]
struct BreedLists<'a> {
    dog_breed_data: DogBreeds<'a>,
    cat_breed_data: Vec<&'a Breed>,
    rabbit_breed_data: Vec<&'a Breed>,
}

#[derive(serde::Serialize)]
#[allow(non_snake_case)]
struct DogBreeds<'a> {
    breedData: Vec<&'a Breed>,
    crossbreedData: Vec<&'a Breed>,
    mongrelData: Vec<&'a Breed>,
}

#[derive(serde::Serialize)]
struct Answer<'a> {
    data: BreedLists<'a>,
}

/// The breed lists' answer, `{"data": lists}`: made and compressed once per definitions
/// version, then sent as it is by `/api/getbreedlist` and `/quote/definitions/{version}/breeds`.
pub(super) async fn breed_lists_body(state: &AppState) -> Result<Arc<Encoded>, AppError> {
    state
        .made
        .breeds(state.defs.version(), || {
            let dogs = state.defs.breed_file(Species::Dog);
            let cats = state.defs.breed_file(Species::Cat);
            let rabbits = state.defs.breed_file(Species::Rabbit);
            let answer = Answer {
                data: BreedLists {
                    dog_breed_data: DogBreeds {
                        breedData: active(dogs.and_then(|f| f.breed_data.as_ref())),
                        crossbreedData: active(dogs.and_then(|f| f.crossbreed_data.as_ref())),
                        mongrelData: active(dogs.and_then(|f| f.mongrel_data.as_ref())),
                    },
                    cat_breed_data: active(cats.and_then(|f| f.breeds.as_ref())),
                    rabbit_breed_data: active(rabbits.and_then(|f| f.breeds.as_ref())),
                },
            };
            serde_json::to_vec(&answer).map_err(|e| format!("breed lists: {e}"))
        })
        .await
        .map_err(AppError::Internal)
}

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

/// Whether the request's `Accept-Encoding` accepts `coding` (named, and not with `q=0`).
fn accepts(headers: &HeaderMap, coding: &str) -> bool {
    headers
        .get_all(ACCEPT_ENCODING)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|item| {
            let mut parts = item.split(';');
            let name = parts.next().unwrap_or_default().trim();
            name.eq_ignore_ascii_case(coding)
                && !parts.any(|p| {
                    p.trim()
                        .strip_prefix("q=")
                        .is_some_and(|q| q.trim().parse::<f32>().is_ok_and(|q| q == 0.0))
                })
        })
}

/// A JSON answer made and compressed once, in the coding the browser prefers of those it
/// accepts: brotli, else gzip, else as it is (as the compression layer chooses for the rest).
pub(super) fn encoded_json(headers: &HeaderMap, body: &Encoded) -> Response {
    let (coding, bytes) = if accepts(headers, "br") {
        (Some("br"), body.br.clone())
    } else if accepts(headers, "gzip") {
        (Some("gzip"), body.gzip.clone())
    } else {
        (None, body.identity.clone())
    };
    let mut response = ([(CONTENT_TYPE, "application/json")], bytes).into_response();
    let h = response.headers_mut();
    h.insert(VARY, HeaderValue::from_static("accept-encoding"));
    if let Some(coding) = coding {
        h.insert(CONTENT_ENCODING, HeaderValue::from_static(coding));
    }
    response
}
