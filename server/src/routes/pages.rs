//! Page URLs under /quote: JSON view data for the renderer when it asks for JSON, the renderer's
//! HTML shell otherwise. Also the health check.

use axum::Json;
use axum::extract::State;
use axum::http::header::{ACCEPT, CACHE_CONTROL, CONTENT_TYPE, SET_COOKIE};
use axum::http::{HeaderMap, StatusCode, Uri};
use axum::response::{IntoResponse, Redirect, Response};
use serde_json::json;

use engine::runtime;

use super::quote::{self, LANGUAGE};
use crate::AppState;
use crate::error::AppError;
use crate::view::{self, ViewInput};

pub(super) async fn health(State(state): State<AppState>) -> Response {
    match state.store.ping().await {
        Ok(()) => {
            Json(json!({ "status": "ok", "definitions": state.defs.version() })).into_response()
        }
        Err(e) => {
            tracing::error!(error = %e, "health check failed");
            (
                StatusCode::SERVICE_UNAVAILABLE,
                Json(json!({ "status": "unavailable" })),
            )
                .into_response()
        }
    }
}

pub(super) async fn home() -> Redirect {
    Redirect::to("/quote")
}

pub(super) async fn not_found() -> AppError {
    AppError::NotFound
}

fn wants_json(headers: &HeaderMap) -> bool {
    headers
        .get(ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("application/json"))
}

pub(super) async fn page(
    State(state): State<AppState>,
    uri: Uri,
    headers: HeaderMap,
) -> Result<Response, AppError> {
    if !wants_json(&headers) {
        return Ok(shell(&state).await);
    }
    let rest = uri.path().strip_prefix("/quote").unwrap_or("/");
    let step_path = match rest.trim_end_matches('/') {
        "" => "/",
        other => other,
    };
    let journey = state
        .defs
        .journey(quote::DEFAULT_JOURNEY)
        .ok_or_else(|| AppError::Internal("no direct journey".into()))?;
    // The retrieve-quote page is no step of the journey (owner-payment.md §2: no step bar, and
    // it loads nothing but the session's token).
    let retrieve = matches!(step_path, "/retrieve-quote" | "/retrievequote");
    let asked = match journey.step_by_path(step_path) {
        Some(step) => step,
        None if retrieve => journey
            .step(&journey.start)
            .ok_or_else(|| AppError::Internal("journey has no start step".into()))?,
        None => return Err(AppError::NotFound),
    };
    let brand = quote::asked_brand(&state, uri.query());
    let session = quote::existing_or_new(&state, &headers, brand.as_deref()).await?;
    // Opening a page is activity: idle time starts again.
    state.store.touch(&session.quote.id).await?;
    let journey = quote::journey(&state, &session.quote)?;
    let rules = quote::rule_context(&state, &session.quote);
    let bought = session.quote.lifecycle == runtime::Lifecycle::Purchased;
    // A bought quote shows its confirmation, whatever page is asked for.
    let (viewing, position) = if bought {
        quote::purchased_position(journey)?
    } else {
        let (position, _) = runtime::locate(&state.defs, journey, &session.quote.document, &rules)?;
        // A step the answers do not open yet shows the furthest open one; the renderer follows
        // `step.path`.
        let viewing = if position.can_open(&asked.id) {
            journey.step(&asked.id)
        } else {
            journey.step(&position.furthest)
        }
        .ok_or_else(|| AppError::Internal("position names an unknown step".into()))?;
        (viewing, position)
    };
    let purchase = if bought {
        state.store.purchase_of(&session.quote.id).await?
    } else {
        None
    };
    let csrf = session.token.csrf(&state.config.secret_key);
    let data = view::view_data(&ViewInput {
        defs: &state.defs,
        journey,
        quote: &session.quote,
        viewing,
        position: &position,
        csrf: &csrf,
        language: LANGUAGE,
        rules: &rules,
        holidays: &state.holidays,
        banks: &state.banks,
        card_provider: state.payments.browser(),
        timeouts: (
            state.config.session_warning_ms,
            state.config.session_reset_ms,
        ),
        purchase,
        account_number: view::account_number_for(&state, viewing, &session.quote).await?,
    })?;
    let mut data = data;
    if retrieve {
        data["step"] = json!({
            "id": "retrieve_quote",
            "path": format!("{}{step_path}", journey.base_path),
            "title": state.defs.text(LANGUAGE, "retrieve.title", &Default::default()),
            "view": "retrieve_quote",
            "bar_number": null,
            "bar_label": null,
            "blocks": [],
        });
        data["step_bar"] = json!([]);
        data["questions"] = serde_json::Value::Null;
        data["edits"] = json!({});
    }
    let mut response = Json(json!({ "data": data })).into_response();
    response.headers_mut().insert(
        CACHE_CONTROL,
        axum::http::HeaderValue::from_static("no-store"),
    );
    if let Some(cookie) = session.new_cookie
        && let Ok(value) = cookie.parse()
    {
        response.headers_mut().insert(SET_COOKIE, value);
    }
    Ok(response)
}

/// The renderer's index.html, rendered through minijinja (autoescaped) with the language and
/// its copy, so the page can speak before its first call.
async fn shell(state: &AppState) -> Response {
    let path = state.config.static_dir.join("index.html");
    let html = match tokio::fs::read_to_string(&path).await {
        Ok(html) => html,
        Err(e) => {
            tracing::error!(path = %path.display(), error = %e, "renderer shell missing");
            return (
                StatusCode::SERVICE_UNAVAILABLE,
                [(CONTENT_TYPE, "text/plain; charset=utf-8")],
                "The pages are not built yet: run `make build` (renderer/dist/index.html is missing).",
            )
                .into_response();
        }
    };
    let copy = state.defs.catalogue(LANGUAGE).cloned().unwrap_or_default();
    let text = |key: &str| copy.get(key).cloned().unwrap_or_else(|| key.to_owned());
    let mut env = minijinja::Environment::new();
    env.set_auto_escape_callback(|_| minijinja::AutoEscape::Html);
    let rendered = env.render_str(
        &html,
        minijinja::context! {
            language => LANGUAGE,
            title => text("app.name"),
            no_script => text("app.no_script"),
            boot => minijinja::context! { language => LANGUAGE, copy => &copy },
        },
    );
    match rendered {
        Ok(page) => (
            [
                (CONTENT_TYPE, "text/html; charset=utf-8"),
                (CACHE_CONTROL, "no-cache"),
            ],
            page,
        )
            .into_response(),
        Err(e) => AppError::Internal(format!("rendering {}: {e}", path.display())).into_response(),
    }
}
