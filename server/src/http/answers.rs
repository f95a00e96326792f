//! Answers more than one route gives: a redirect no cache keeps, and a JSON body made and
//! compressed once, in the coding the browser accepts.

use axum::http::header::{self, ACCEPT_ENCODING, CONTENT_ENCODING, CONTENT_TYPE, VARY};
use axum::http::{HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};

use crate::service::state::Encoded;

/// A 303 to `to` that no cache keeps, setting a new session cookie where given (a signed link's
/// landing: the click-through, the annual rehoming link).
pub fn see_other(to: &str, cookie: Option<String>) -> axum::response::Response {
    use axum::response::IntoResponse;
    let mut response = axum::http::StatusCode::SEE_OTHER.into_response();
    if let Ok(v) = HeaderValue::from_str(to) {
        response.headers_mut().insert(header::LOCATION, v);
    }
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    if let Some(c) = cookie.and_then(|c| HeaderValue::from_str(&c).ok()) {
        response.headers_mut().insert(header::SET_COOKIE, c);
    }
    response
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
pub fn encoded_json(headers: &HeaderMap, body: &Encoded) -> Response {
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

/// The service's answer: 200, its JSON body, and the cookie of the session the browser is to
/// hold from now on where the call moved it (the one place a session's cookie is set).
impl IntoResponse for crate::service::reply::Reply {
    fn into_response(self) -> Response {
        let mut response = ([(CONTENT_TYPE, "application/json")], self.body).into_response();
        if let Some(cookie) = self.set_cookie {
            match HeaderValue::from_str(&cookie) {
                Ok(value) => {
                    response.headers_mut().append(header::SET_COOKIE, value);
                }
                Err(e) => {
                    return crate::service::error::AppError::Internal(format!(
                        "session cookie: {e}"
                    ))
                    .into_response();
                }
            }
        }
        response
    }
}
