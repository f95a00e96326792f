//! The staff pages and calls behind the admin token (`PAWPATH_ADMIN_TOKEN`): off (404) when no
//! token is configured; a wrong or missing token is 401 and reveals nothing. Calls send it as a
//! bearer token; a browser page asks for it with HTTP Basic authentication (any user name, the
//! token as password).

use axum::extract::{Query, State};
use axum::http::HeaderMap;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::response::{IntoResponse, Response};
use minijinja::context;
use serde::Deserialize;

use crate::http::admin::refusal;
use crate::service::error::AppError;
use crate::service::state::AppState;

const FUNNEL_PAGE: &str = include_str!("../../templates/funnel.html");
const STYLES: &str = include_str!("../../templates/internal.css");

/// GET /internal/internal.css.
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

#[derive(Debug, Deserialize)]
pub(super) struct FunnelQuery {
    journey: Option<String>,
    from: Option<String>,
    to: Option<String>,
}

/// GET /internal/funnel?journey=&from=&to= (the admin token): the funnel of `pawpath report
/// funnel` for each brand and channel that sells the journey, as tables and charts.
pub(super) async fn funnel(
    State(state): State<AppState>,
    headers: HeaderMap,
    Query(query): Query<FunnelQuery>,
) -> Result<Response, AppError> {
    if let Some(refused) = refusal(&state, &headers) {
        return Ok(refused);
    }
    let defs = &state.defs;
    let journey_id = query.journey.clone().unwrap_or_else(|| "direct".into());
    let Some(journey) = defs.journey(&journey_id) else {
        return Err(AppError::BadRequest(format!(
            "journey: no journey {journey_id:?}"
        )));
    };
    let date = |name: &str, v: &Option<String>| -> Result<Option<chrono::NaiveDate>, AppError> {
        match v.as_deref().map(str::trim) {
            None | Some("") => Ok(None),
            Some(s) => chrono::NaiveDate::parse_from_str(s, "%Y-%m-%d")
                .map(Some)
                .map_err(|_| {
                    AppError::BadRequest(format!("{name}: {s:?} is not a date as YYYY-MM-DD"))
                }),
        }
    };
    let (from, to) = (date("from", &query.from)?, date("to", &query.to)?);
    let funnels = crate::service::report::funnels(&state, journey, from, to).await?;
    let experiments = crate::service::report::experiments(&state, journey, from, to).await?;
    let uk = |d: Option<chrono::NaiveDate>| d.map(|d| d.format("%d/%m/%Y").to_string());
    let period = match (uk(from), uk(to)) {
        (None, None) => "at any time".to_owned(),
        (Some(f), None) => format!("from {f}"),
        (None, Some(t)) => format!("up to {t}"),
        (Some(f), Some(t)) => format!("from {f} to {t}"),
    };
    let mut env = minijinja::Environment::new();
    env.set_auto_escape_callback(|_| minijinja::AutoEscape::Html);
    let page = env
        .render_str(
            FUNNEL_PAGE,
            context! {
                journey => &journey.id,
                journeys => defs.journeys().map(|j| j.id.clone()).collect::<Vec<_>>(),
                from => from.map(|d| d.to_string()).unwrap_or_default(),
                to => to.map(|d| d.to_string()).unwrap_or_default(),
                period => period,
                funnels => funnels,
                experiments => experiments,
            },
        )
        .map_err(|e| AppError::Internal(format!("rendering the funnel page: {e}")))?;
    Ok((
        [
            (CONTENT_TYPE, "text/html; charset=utf-8"),
            (CACHE_CONTROL, "no-store"),
        ],
        page,
    )
        .into_response())
}
