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
use serde_json::Value;

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
    let funnels = crate::tools::report::funnels(&state, journey, from, to).await?;
    let experiments = crate::tools::report::experiments(&state, journey, from, to).await?;
    let uk = |d: Option<chrono::NaiveDate>| d.map(|d| d.format("%d/%m/%Y").to_string());
    let period = match (uk(from), uk(to)) {
        (None, None) => "at any time".to_owned(),
        (Some(f), None) => format!("from {f}"),
        (None, Some(t)) => format!("up to {t}"),
        (Some(f), Some(t)) => format!("from {f} to {t}"),
    };
    html_page(
        axum::http::StatusCode::OK,
        FUNNEL_PAGE,
        "the funnel page",
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
}

const REPLAY_PAGE: &str = include_str!("../../templates/replay.html");

#[derive(Debug, Deserialize)]
pub(super) struct ReplayQuery {
    reference: Option<String>,
    from: Option<String>,
    count: Option<String>,
}

/// The most characters of a reference looked up: a reference is 14; anything longer is no
/// reference, and is refused before the database is asked.
const MAX_REFERENCE: usize = 40;

/// The replay's window and reference from a query; errors name the field.
fn replay_ask(
    reference: &str,
    from: Option<&str>,
    count: Option<&str>,
) -> Result<crate::tools::replay::Ask, AppError> {
    let reference = reference.trim();
    if reference.chars().count() > MAX_REFERENCE {
        return Err(AppError::BadRequest(format!(
            "reference: at most {MAX_REFERENCE} characters"
        )));
    }
    let (from, count) = crate::tools::replay::window(from, count).map_err(AppError::BadRequest)?;
    Ok(crate::tools::replay::Ask {
        reference: reference.to_uppercase(),
        from,
        count,
        pages: true,
    })
}

/// GET /internal/quotes/{reference}/replay?from=&count= (the admin token): the quote's
/// transitions run again, as `pawpath replay --json` gives them.
pub(super) async fn replay_data(
    State(state): State<AppState>,
    axum::extract::Path(reference): axum::extract::Path<String>,
    headers: HeaderMap,
    Query(query): Query<ReplayQuery>,
) -> Result<Response, AppError> {
    if let Some(refused) = refusal(&state, &headers) {
        return Ok(refused);
    }
    let ask = replay_ask(&reference, query.from.as_deref(), query.count.as_deref())?;
    let replayed = crate::tools::replay::replay(&state, &ask).await?;
    Ok(([(CACHE_CONTROL, "no-store")], axum::Json(replayed)).into_response())
}

/// GET /internal/replay?reference=&from=&count= (the admin token): the replay as a page for a
/// complaints handler: each transition with what was sent, the guards, the field errors, the
/// prices and the page shown, and a form to look up another quote.
pub(super) async fn replay_page(
    State(state): State<AppState>,
    headers: HeaderMap,
    Query(query): Query<ReplayQuery>,
) -> Result<Response, AppError> {
    if let Some(refused) = refusal(&state, &headers) {
        return Ok(refused);
    }
    let reference = query.reference.as_deref().unwrap_or("").trim().to_owned();
    use axum::http::StatusCode;
    let (replayed, problem, status) = if reference.is_empty() {
        (None, None, StatusCode::OK)
    } else {
        match replay_ask(&reference, query.from.as_deref(), query.count.as_deref()) {
            Err(AppError::BadRequest(why)) => (None, Some(why), StatusCode::BAD_REQUEST),
            Err(e) => return Err(e),
            Ok(ask) => match crate::tools::replay::replay(&state, &ask).await {
                Ok(r) => (Some(r), None, StatusCode::OK),
                Err(AppError::NotFound) => (
                    None,
                    Some(format!("No quote has the reference {}.", ask.reference)),
                    StatusCode::NOT_FOUND,
                ),
                Err(e) => return Err(e),
            },
        }
    };
    let steps: Vec<Value> = replayed
        .as_ref()
        .map(|r| r.steps.iter().map(step_for_page).collect())
        .unwrap_or_default();
    let next_from = replayed.as_ref().and_then(|r| {
        let next = r.from + r.steps.len();
        (next <= r.transitions && !r.steps.is_empty()).then_some(next)
    });
    html_page(
        status,
        REPLAY_PAGE,
        "the replay page",
        context! {
            reference => reference,
            problem => problem,
            replay => minijinja::Value::from(minijinja::value::Serde(&replayed)),
            steps => minijinja::Value::from(minijinja::value::Serde(&steps)),
            next_from => next_from,
        },
    )
}

/// One replayed transition as the page shows it: the answers sent as `field: value` rows, the
/// guards' verdicts, and the page's view data pretty-printed.
fn step_for_page(step: &crate::tools::replay::Replayed) -> Value {
    use serde_json::json;
    let rows = |v: &Option<Value>| {
        v.as_ref()
            .map(crate::tools::replay::print::flatten)
            .unwrap_or_default()
            .into_iter()
            .map(|(field, value)| json!({ "field": field, "value": value }))
            .collect::<Vec<_>>()
    };
    let status = step
        .replay
        .get("status")
        .and_then(Value::as_str)
        .unwrap_or("not_run");
    json!({
        "n": step.n,
        "at": step.at,
        "event": step.event,
        "from": step.from,
        "to": step.to,
        "outcome": step.outcome,
        "definition_version": step.definition_version,
        "status": status,
        "differs": step.replay.get("what").cloned().unwrap_or(Value::Null),
        "why": step.replay.get("why").cloned().unwrap_or(Value::Null),
        "sent": rows(&step.sent),
        "experiment_views": step.experiment_views,
        "guards": step.guards,
        "messages": step.messages,
        "blocks": step.blocks,
        "totals": step.totals,
        "pricing": step.pricing.as_ref().map(|p| serde_json::to_string_pretty(p).unwrap_or_default()),
        "page_step": step.page.as_ref().and_then(|p| p.pointer("/step/id").and_then(Value::as_str).map(str::to_owned)),
        "page": step.page.as_ref().map(|p| serde_json::to_string_pretty(p).unwrap_or_default()),
    })
}

const IMPACT_PAGE: &str = include_str!("../../templates/impact.html");

/// One impact report at a time on a server: a report runs hundreds of quotes on both definition
/// sets on the machine's cores, and a second asked meanwhile is refused (429), not queued.
static IMPACT_RUNNING: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(1);

#[derive(Debug, Deserialize)]
pub(super) struct ImpactQuery {
    from: Option<String>,
    to: Option<String>,
    since: Option<String>,
    sample: Option<String>,
}

/// The longest version name read from a query (a version is a 64-character digest).
const MAX_VERSION: usize = 80;

/// The report's parameters from the page's query; errors name the field. Only kept versions (or
/// `served`) are read here: a page never names a folder on the server.
fn impact_ask(
    state: &AppState,
    query: &ImpactQuery,
) -> Result<crate::tools::impact::Ask, AppError> {
    use crate::tools::impact::{Ask, MAX_PAGE_SAMPLE, Source};
    let version = |name: &str, v: &Option<String>| -> Result<Source, AppError> {
        let v = v
            .as_deref()
            .map(str::trim)
            .filter(|v| !v.is_empty())
            .unwrap_or("served");
        if v.len() > MAX_VERSION || !v.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
            return Err(AppError::BadRequest(format!(
                "{name}: a definitions version (letters, digits and -, at most {MAX_VERSION}) or served"
            )));
        }
        Ok(Source::Version(v.to_owned()))
    };
    let since = match query.since.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(s) => Some(
            chrono::NaiveDate::parse_from_str(s, "%Y-%m-%d").map_err(|_| {
                AppError::BadRequest(format!("since: {s:?} is not a date as YYYY-MM-DD"))
            })?,
        ),
    };
    let sample = match query.sample.as_deref().map(str::trim) {
        None | Some("") => 500,
        Some(s) => s
            .parse::<usize>()
            .ok()
            .filter(|n| (1..=MAX_PAGE_SAMPLE).contains(n))
            .ok_or_else(|| {
                AppError::BadRequest(format!(
                    "sample: a whole number from 1 to {MAX_PAGE_SAMPLE}"
                ))
            })?,
    };
    let flows = state.config.definitions_root.join("tests/flows");
    Ok(Ask {
        from: version("from", &query.from)?,
        to: version("to", &query.to)?,
        since,
        sample,
        flows: flows.is_dir().then_some(flows),
    })
}

/// GET /internal/impact?from=&to=&since=&sample= (the admin token): `pawpath impact` as a page,
/// between kept definitions versions; with no `to`, the form and the versions kept.
pub(super) async fn impact_page(
    State(state): State<AppState>,
    headers: HeaderMap,
    Query(query): Query<ImpactQuery>,
) -> Result<Response, AppError> {
    use axum::http::StatusCode;
    if let Some(refused) = refusal(&state, &headers) {
        return Ok(refused);
    }
    let versions = crate::tools::impact::kept_versions(&state).await?;
    let asked = query.to.as_deref().is_some_and(|t| !t.trim().is_empty());
    let (report, problem, status) = if asked {
        match impact_ask(&state, &query) {
            Err(AppError::BadRequest(why)) => (None, Some(why), StatusCode::BAD_REQUEST),
            Err(e) => return Err(e),
            Ok(ask) => match IMPACT_RUNNING.try_acquire() {
                Err(_) => (
                    None,
                    Some("Another impact report is being made on this server: try again when it is done.".to_owned()),
                    StatusCode::TOO_MANY_REQUESTS,
                ),
                Ok(_running) => match crate::tools::impact::report(&state, &ask).await {
                    Ok(r) => (Some(r), None, StatusCode::OK),
                    Err(why) => (None, Some(why), StatusCode::BAD_REQUEST),
                },
            },
        }
    } else {
        (None, None, StatusCode::OK)
    };
    let text = |v: &Option<String>| v.as_deref().unwrap_or("").trim().to_owned();
    html_page(
        status,
        IMPACT_PAGE,
        "the impact page",
        context! {
            from => text(&query.from),
            to => text(&query.to),
            since => text(&query.since),
            sample => text(&query.sample),
            served => state.defs.version(),
            since_uk => report.as_ref().and_then(|r| {
                chrono::NaiveDate::parse_from_str(&r.since, "%Y-%m-%d")
                    .ok()
                    .map(|d| d.format("%d/%m/%Y").to_string())
            }),
            versions => versions,
            problem => problem,
            report => minijinja::Value::from(minijinja::value::Serde(&report)),
        },
    )
}

/// A staff page drawn from its template (HTML escaped), never cached.
fn html_page(
    status: axum::http::StatusCode,
    template: &str,
    name: &str,
    context: minijinja::Value,
) -> Result<Response, AppError> {
    let mut env = minijinja::Environment::new();
    env.set_auto_escape_callback(|_| minijinja::AutoEscape::Html);
    let page = env
        .render_str(template, context)
        .map_err(|e| AppError::Internal(format!("rendering {name}: {e}")))?;
    Ok((
        status,
        [
            (CONTENT_TYPE, "text/html; charset=utf-8"),
            (CACHE_CONTROL, "no-store"),
        ],
        page,
    )
        .into_response())
}
