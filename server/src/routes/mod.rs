//! The HTTP surface: one module per resource, merged here with the layers every response gets.

mod addresses;
mod aggregators;
mod annual;
mod api;
mod brand_assets;
mod breeds;
pub mod call;
pub mod calls;
mod codes;
mod cover;
pub mod documents;
mod test_calls;

mod internal;
mod internal_calls;
pub mod openapi;
mod ops;
mod pages;
mod payment;
mod portal;
mod purchase;
mod rehoming;
mod reset;
mod resources;
mod retrieve;
mod studio;
mod vets;

use axum::Router;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{HeaderName, HeaderValue, header};
use axum::routing::get;
use tower_http::CompressionLevel;
use tower_http::compression::CompressionLayer;
use tower_http::services::ServeDir;
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::trace::{DefaultOnResponse, TraceLayer};
use tracing::Level;

use crate::service::state::AppState;

/// The largest request body accepted (a quote with ten pets is far below this).
pub const BODY_LIMIT: usize = 64 * 1024;

/// The largest body of a call that saves no question set (a code, a postcode, a password, an
/// idempotency key, the helper's fields).
pub const SMALL_BODY_LIMIT: usize = 8 * 1024;

/// The largest rehoming pet details (/api/postpetdetails): a 2 MB certificate as base64, and the
/// rest of the pet.
pub const CERTIFICATE_BODY_LIMIT: usize = 3 * 1024 * 1024;

/// Paths whose last segment is a signed token: a link that opens a quote is a bearer
/// credential, so it never reaches a log.
const TOKEN_PATHS: [&str; 3] = [
    "/aggregators/continue/",
    "/annual-rehoming/start/",
    "/retrieve/continue/",
];

/// The most of a path the request log writes: every route's path is far shorter, and a visitor's
/// 60 KB path would otherwise be written whole into every line of its request.
const LOGGED_PATH_BYTES: usize = 200;

/// The path as the request log writes it: a signed link's token replaced by `{token}`; past
/// [`LOGGED_PATH_BYTES`], cut, with how long it was.
pub fn log_path(path: &str) -> std::borrow::Cow<'_, str> {
    for prefix in TOKEN_PATHS {
        if let Some(rest) = path.strip_prefix(prefix)
            && !rest.is_empty()
        {
            return format!("{prefix}{{token}}").into();
        }
    }
    if path.len() > LOGGED_PATH_BYTES {
        let mut end = LOGGED_PATH_BYTES;
        while !path.is_char_boundary(end) {
            end -= 1;
        }
        return format!("{}… ({} bytes)", &path[..end], path.len()).into();
    }
    path.into()
}

/// The header carrying a request's id, in the request and in its answer.
pub static X_REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// A request id as received from a load balancer: at most 64 letters, digits, `-`, `_` or `.`,
/// so a client cannot write what it likes into the logs through it.
fn acceptable_request_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 64
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
}

/// Gives every request an id (the load balancer's, when it sent an acceptable one; else a new
/// random one), for its log lines and its answer's `x-request-id` header.
async fn request_id(
    mut request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    let given = request
        .headers()
        .get(&X_REQUEST_ID)
        .and_then(|v| v.to_str().ok())
        .filter(|v| acceptable_request_id(v))
        .and_then(|v| HeaderValue::from_str(v).ok());
    let id = given.unwrap_or_else(|| {
        HeaderValue::from_str(&crate::service::ops::request_id())
            .unwrap_or_else(|_| HeaderValue::from_static("-"))
    });
    request
        .headers_mut()
        .insert(X_REQUEST_ID.clone(), id.clone());
    let mut response = next.run(request).await;
    response.headers_mut().insert(X_REQUEST_ID.clone(), id);
    response
}

/// Counts a request for `/metrics` under its route's template (`/quote/{*rest}`), never its
/// path, so no visitor can add series. The renderer's files are `/quote/assets/{file}`; a path
/// no route matched is counted as `unmatched`.
async fn counted(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    let route = match request.extensions().get::<axum::extract::MatchedPath>() {
        Some(matched) => matched.as_str().to_owned(),
        None if request.uri().path().starts_with("/quote/assets/") => {
            "/quote/assets/{file}".to_owned()
        }
        None => "unmatched".to_owned(),
    };
    let method = request.method().clone();
    let started = std::time::Instant::now();
    let response = next.run(request).await;
    crate::metrics::request(
        &route,
        method.as_str(),
        response.status().as_u16(),
        started.elapsed(),
    );
    response
}

/// GET /api/openapi.json: the OpenAPI 3.1 description of every call (calls.rs), with the
/// question sets' schemas the calls are validated with.
async fn openapi(
    axum::extract::State(state): axum::extract::State<AppState>,
) -> axum::Json<serde_json::Value> {
    axum::Json(openapi::openapi(&state))
}

/// The renderer's built files (`/quote/assets/`): each name carries a hash of its contents, so a
/// browser keeps one for a year and never asks again. The build writes a brotli and a
/// gzip copy beside each (`renderer/scripts/precompress.mjs`), sent as they are to a browser that
/// accepts them. Source maps are build output, never served (the build keeps them out of
/// `assets/`; a stray one is refused here too).
fn assets(state: &AppState) -> Router {
    let files = ServeDir::new(state.config.static_dir.join("assets"))
        .precompressed_br()
        .precompressed_gzip();
    Router::new()
        .fallback_service(files)
        .layer(axum::middleware::map_request(
            |request: axum::extract::Request| async move {
                if request.uri().path().ends_with(".map") {
                    Err(axum::http::StatusCode::NOT_FOUND)
                } else {
                    Ok(request)
                }
            },
        ))
        .layer(axum::middleware::map_response(
            |mut response: axum::response::Response| async move {
                let value = if response.status().is_success()
                    || response.status() == axum::http::StatusCode::NOT_MODIFIED
                {
                    "public, max-age=31536000, immutable"
                } else {
                    "no-store"
                };
                response
                    .headers_mut()
                    .insert(header::CACHE_CONTROL, HeaderValue::from_static(value));
                response
            },
        ))
}

/// Every text answer compressed for a browser that accepts it: brotli, else gzip, at
/// quality 4, made for answers written per request (brotli's own default, 11, takes tens of times
/// longer for a few per cent). Files already compressed by the build go out as they are.
fn compression() -> CompressionLayer {
    CompressionLayer::new()
        .no_deflate()
        .no_zstd()
        .quality(CompressionLevel::Precise(4))
}

/// Makes, in the background, what is made once per definitions version (the breed lists,
/// compressed), so the first visitor to ask does not wait for it. A failure is logged; the
/// first request that asks then tries again and answers with the error.
pub fn prepare(state: AppState) {
    tokio::spawn(async move {
        if let Err(e) = crate::service::breeds::breed_lists_body(&state).await {
            tracing::error!(error = ?e, "the breed lists could not be made");
        }
    });
}

pub fn router(state: AppState) -> Router {
    let assets = assets(&state);
    let header = |name: HeaderName, value: &'static str| {
        SetResponseHeaderLayer::if_not_present(name, HeaderValue::from_static(value))
    };
    let test_mode = state.config.test_mode;
    let router = Router::new()
        .route("/healthz", get(pages::health))
        .route("/readyz", get(ops::ready))
        .route("/metrics", get(ops::metrics))
        .route("/", get(pages::home))
        .route("/quote", get(pages::page))
        .route("/quote/", get(pages::page))
        .route("/quote/{*rest}", get(pages::page))
        .route("/aggregators/quote", get(pages::page))
        .route("/aggregators/quote/", get(pages::page))
        .route("/aggregators/quote/{*rest}", get(pages::page))
        .route("/rehoming", get(pages::page))
        .route("/rehoming/", get(pages::page))
        .route("/rehoming/{*rest}", get(pages::page))
        .route("/annual-rehoming", get(pages::page))
        .route("/annual-rehoming/", get(pages::page))
        .route("/annual-rehoming/start/{token}", get(annual::start))
        .route("/annual-rehoming/{*rest}", get(pages::page))
        .nest_service("/quote/assets", assets)
        .route(
            "/quote/definitions/{version}/breeds",
            get(resources::breeds),
        )
        .route(
            "/quote/definitions/{version}/copy/{brand}/{language}",
            get(resources::copy),
        )
        .route(
            "/quote/definitions/{version}/questions/{brand}/{language}/{id}",
            get(resources::form),
        )
        .route(
            "/quote/brand/{id}/theme.css",
            get(brand_assets::brand_theme),
        )
        .route(
            "/quote/brand/{id}/unsupported.css",
            get(brand_assets::unsupported_theme),
        )
        .route("/quote/brand/{id}/logo.svg", get(brand_assets::brand_logo))
        .route("/quote/documents/document.css", get(documents::styles))
        .route("/quote/documents/{name}", get(documents::document))
        .route(
            "/aggregators/continue/{token}",
            get(aggregators::click_through),
        )
        .route("/retrieve/continue/{token}", get(retrieve::continue_link))
        .route("/internal/internal.css", get(internal::styles))
        .route("/api/openapi.json", get(openapi))
        // The studio, for named staff (its pages say who may do what).
        .merge(studio::routes());
    // Every call, from the list that also writes the API's description (calls.rs).
    let router = calls::calls(test_mode)
        .into_iter()
        .fold(router, |r, (call, handler)| {
            // The page's own calls: the CSRF token is checked before the body is read.
            let handler = if call.access == call::Access::Session {
                handler.route_layer(axum::middleware::from_fn_with_state(
                    state.clone(),
                    crate::http::csrf::before_the_body,
                ))
            } else {
                handler
            };
            r.route(call.path, handler)
        });
    // The local test payment provider's browser endpoint (cards go there, not to /api).
    let router = match &state.test_payments {
        Some(provider) => router.merge(std::sync::Arc::clone(provider).router()),
        None => router,
    };
    // The card provider's webhook: a payment's outcome for a customer who did not come back.
    let router = router
        .route(
            "/payments/webhook",
            axum::routing::post(payment::provider_webhook).layer(DefaultBodyLimit::max(BODY_LIMIT)),
        )
        // Where the customer's bank sends the browser back after a 3-D Secure challenge.
        .route("/payments/return", get(payment::payment_return));

    let https = state.config.public_url.starts_with("https://");
    router
        .fallback(pages::not_found)
        // Answers of the calls carry personal data: no cache keeps them unless a call says
        // otherwise (the breed list, which is the same for everyone).
        .layer(axum::middleware::map_response(
            |uri: axum::http::Uri, mut response: axum::response::Response| async move {
                if uri.path().starts_with("/api/")
                    && !response.headers().contains_key(header::CACHE_CONTROL)
                {
                    response
                        .headers_mut()
                        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
                }
                response
            },
        ))
        // On an https host browsers keep to https for a year.
        .layer(tower::util::option_layer(https.then(|| {
            header(
                header::STRICT_TRANSPORT_SECURITY,
                "max-age=31536000; includeSubDomains",
            )
        })))
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(compression())
        // Counted by route template, method and status, with its time (`/metrics`).
        .layer(axum::middleware::from_fn(counted))
        // While draining for shutdown, each answer closes its connection, so a client's next
        // request goes through the load balancer to another server.
        .layer(axum::middleware::map_response_with_state(
            state.clone(),
            |State(state): State<AppState>, mut response: axum::response::Response| async move {
                if state.running.draining() {
                    response
                        .headers_mut()
                        .insert(header::CONNECTION, HeaderValue::from_static("close"));
                }
                response
            },
        ))
        .layer(
            // One line per request at INFO: method, path, status, latency. No bodies, no
            // cookies, no query string, and no signed token. The request's id is in
            // every line written while it is answered.
            TraceLayer::new_for_http()
                .make_span_with(|request: &axum::http::Request<axum::body::Body>| {
                    tracing::info_span!(
                        "request",
                        request_id = %request
                            .headers()
                            .get(&X_REQUEST_ID)
                            .and_then(|v| v.to_str().ok())
                            .unwrap_or(""),
                        method = crate::metrics::method_label(request.method().as_str()),
                        path = %log_path(request.uri().path()),
                    )
                })
                .on_response(DefaultOnResponse::new().level(Level::INFO)),
        )
        .layer(axum::middleware::from_fn(request_id))
        .layer(header(
            header::CONTENT_SECURITY_POLICY,
            crate::http::policy::CONTENT_SECURITY_POLICY,
        ))
        .layer(header(header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .layer(header(header::REFERRER_POLICY, "same-origin"))
        .layer(header(header::X_FRAME_OPTIONS, "DENY"))
        .layer(header(
            HeaderName::from_static("permissions-policy"),
            "camera=(), microphone=(), geolocation=()",
        ))
        .with_state(state)
}

#[cfg(test)]
mod tests {
    use super::log_path;

    /// Signed tokens never reach a log.
    #[test]
    fn the_request_log_writes_no_signed_token() {
        assert_eq!(
            log_path("/aggregators/continue/eyJxIjoiMSJ9.c2lnbmF0dXJl"),
            "/aggregators/continue/{token}"
        );
        assert_eq!(
            log_path("/annual-rehoming/start/cG9saWN5.c2ln"),
            "/annual-rehoming/start/{token}"
        );
        assert_eq!(log_path("/quote/review"), "/quote/review");
        assert_eq!(log_path("/aggregators/continue/"), "/aggregators/continue/");
    }

    /// A visitor's long path is cut in the log, not written whole into every line.
    #[test]
    fn the_request_log_cuts_a_long_path() {
        let long = format!("/quote/{}", "é".repeat(30_000));
        let logged = log_path(&long);
        assert!(logged.len() < 240, "{} bytes logged", logged.len());
        assert!(logged.starts_with("/quote/é"), "{logged}");
        assert!(logged.ends_with("… (60007 bytes)"), "{logged}");
        let exact = format!("/{}", "a".repeat(199));
        assert_eq!(log_path(&exact), exact);
    }
}
