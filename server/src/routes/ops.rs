//! For the people and machines running pawpath: readiness for a load balancer, and
//! metrics for Prometheus behind their own token.

use axum::Json;
use axum::extract::State;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::json;

use crate::http::admin::refusal_for;
use crate::service::ops;
use crate::service::state::AppState;

/// GET /readyz: 200 when this server should be sent traffic (the database answers and holds
/// every migration this build knows, and it is not shutting down); 503 saying why otherwise.
pub(super) async fn ready(State(state): State<AppState>) -> Response {
    match ops::ready(&state).await {
        Ok(()) => Json(json!({ "status": "ready" })).into_response(),
        Err(reason) => {
            tracing::warn!(%reason, "not ready");
            (
                StatusCode::SERVICE_UNAVAILABLE,
                Json(json!({ "status": "unavailable", "reason": reason })),
            )
                .into_response()
        }
    }
}

/// GET /metrics: Prometheus's text format, for a scraper sending `PAWPATH_METRICS_TOKEN` as its
/// bearer token (404 when no token is configured; 401 without it).
pub(super) async fn metrics(State(state): State<AppState>, headers: HeaderMap) -> Response {
    if let Some(refused) = refusal_for(state.config.metrics_token.as_ref(), &headers) {
        return refused;
    }
    (
        [
            (CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8"),
            (CACHE_CONTROL, "no-store"),
        ],
        ops::scrape(&state).await,
    )
        .into_response()
}
