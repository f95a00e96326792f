//! Page URLs under /quote: JSON view data for the renderer when it asks for JSON, the renderer's
//! HTML shell otherwise. Also the health check.

use axum::Json;
use axum::extract::State;
use axum::http::header::{ACCEPT, CACHE_CONTROL, CONTENT_TYPE, SET_COOKIE};
use axum::http::{HeaderMap, StatusCode, Uri};
use axum::response::{IntoResponse, Redirect, Response};
use serde_json::json;

use crate::service::caller::Caller;
use crate::service::error::AppError;
use crate::service::quote;
use crate::service::state::AppState;
use crate::service::view;

/// GET /healthz (liveness): the process is up and answering, and the definitions version it
/// serves. It asks nothing of the database, so an outage of the database does not make an
/// orchestrator restart every server; `/readyz` says whether to send traffic.
pub(super) async fn health(State(state): State<AppState>) -> Response {
    Json(json!({ "status": "ok", "definitions": state.defs.version() })).into_response()
}

/// The home page is the quote's first page; a known `brand` asked for comes along.
pub(super) async fn home(State(state): State<AppState>, uri: Uri) -> Redirect {
    match quote::asked_brand(&state, uri.query()) {
        Some(brand) => Redirect::to(&format!("/quote?brand={brand}")),
        None => Redirect::to("/quote"),
    }
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
    caller: Caller,
    headers: HeaderMap,
) -> Result<Response, AppError> {
    if !wants_json(&headers) {
        return Ok(shell(&state, &uri, &caller, &headers).await);
    }
    view_data(&state, &uri, &caller).await
}

/// The longest page address `/api/view` takes (a page's path and query; the longest real one,
/// a comparison-site link with its token, is well under this).
const VIEW_PATH_MAX: usize = 2048;

#[derive(serde::Deserialize)]
pub(super) struct ViewAsked {
    path: String,
}

/// `GET /api/view?path=/quote/your-details`: the view data of the page at `path` (its path and
/// query), the same answer as that page asked for as JSON. The HTML shell preloads it with a
/// `<link rel="preload">` (the first page's data comes in parallel with the script, not
/// after it), which cannot ask for JSON by `Accept`.
pub(super) async fn view(
    State(state): State<AppState>,
    query: Result<axum::extract::Query<ViewAsked>, axum::extract::rejection::QueryRejection>,
    caller: Caller,
) -> Result<Response, AppError> {
    let axum::extract::Query(asked) =
        query.map_err(|_| AppError::BadRequest("path: a page's address is required".into()))?;
    if asked.path.len() > VIEW_PATH_MAX {
        return Err(AppError::BadRequest(format!(
            "path: longer than {VIEW_PATH_MAX} characters"
        )));
    }
    let uri = asked
        .path
        .parse::<Uri>()
        .ok()
        .filter(|u| {
            u.scheme().is_none()
                && u.authority().is_none()
                && u.path().starts_with('/')
                && !u.path().starts_with("//")
        })
        .ok_or_else(|| AppError::BadRequest("path: not a page's address on this site".into()))?;
    view_data(&state, &uri, &caller).await
}

/// The address the shell preloads the view data of the page at `uri` from.
fn view_url(uri: &Uri) -> String {
    let path = uri.path_and_query().map_or("/", |p| p.as_str());
    let mut url = String::from("/api/view?path=");
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            url.push(char::from(b));
        } else {
            url.push_str(&format!("%{b:02X}"));
        }
    }
    url
}

/// A page's view data, not to be stored, with the cookie of the session it made.
async fn view_data(state: &AppState, uri: &Uri, caller: &Caller) -> Result<Response, AppError> {
    let page = crate::service::page::page_view(state, uri.path(), uri.query(), caller).await?;
    let mut response = page.reply.into_response();
    response.headers_mut().insert(
        CACHE_CONTROL,
        axum::http::HeaderValue::from_static("no-store"),
    );
    if let Some(cookie) = page.new_cookie
        && let Ok(value) = cookie.parse()
    {
        response.headers_mut().insert(SET_COOKIE, value);
    }
    Ok(response)
}

/// Whether the browser is Internet Explorer (journey.md §2 Shell: the simplified shell and "We
/// no longer support Internet Explorer.").
fn is_internet_explorer(headers: &HeaderMap) -> bool {
    headers
        .get(axum::http::header::USER_AGENT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|ua| ua.contains("MSIE ") || ua.contains("Trident/"))
}

/// The brand and language the HTML shell speaks in: the session's quote's, else the brand the
/// query asks for, else the default. Reading only: the shell makes no quote.
async fn shell_voice(state: &AppState, uri: &Uri, caller: &Caller) -> (String, String) {
    match quote::session_quote(state, caller).await {
        Some(q) => {
            let language = quote::language(state, &q);
            (q.brand.to_string(), language)
        }
        None => {
            let brand = quote::asked_brand(state, uri.query())
                .unwrap_or_else(|| quote::DEFAULT_BRAND.to_owned());
            let language = state
                .defs
                .brand(&brand)
                .map_or("en-GB", |b| b.language())
                .to_owned();
            (brand, language)
        }
    }
}

/// The renderer's index.html, rendered through minijinja (autoescaped) with the brand's
/// stylesheet, the page's title, description and robots setting, and the copy, so the page is
/// in the brand's colours and can speak before its first call. Internet Explorer gets the
/// simplified shell, with no script.
async fn shell(state: &AppState, uri: &Uri, caller: &Caller, headers: &HeaderMap) -> Response {
    let (brand_id, language) = shell_voice(state, uri, caller).await;
    let voice = state.defs.voice(&brand_id, &language);
    let brand = state.defs.brand(&brand_id);
    let copy = voice.catalogue();
    let text = |key: &str| voice.t(key);
    // A brand that names a tag manager: its origins in this brand's pages' policy only. The page loads its script only once the customer accepts analytics cookies.
    // The card provider's, where its own card fields are drawn on the page.
    let tag_manager = brand.and_then(|b| b.tracking.tag_manager.as_ref());
    let tag_origins = tag_manager.map_or(&[][..], |tm| tm.origins.as_slice());
    let payment_origins = state.config.payment_provider.browser_origins();
    let policy = (!tag_origins.is_empty() || !payment_origins.is_empty())
        .then(|| crate::http::policy::content_security_policy_with(tag_origins, &payment_origins));
    let html_page = |page: String| {
        let mut response = (
            [
                (CONTENT_TYPE, "text/html; charset=utf-8"),
                (CACHE_CONTROL, "no-cache"),
            ],
            page,
        )
            .into_response();
        if let Some(value) = policy
            .as_deref()
            .and_then(|p| axum::http::HeaderValue::from_str(p).ok())
        {
            response
                .headers_mut()
                .insert(axum::http::header::CONTENT_SECURITY_POLICY, value);
        }
        response
    };
    let mut env = minijinja::Environment::new();
    env.set_auto_escape_callback(|_| minijinja::AutoEscape::Html);
    let theme = format!(
        "/quote/brand/{brand_id}/theme.css?v={}",
        state.defs.version()
    );
    if is_internet_explorer(headers) {
        let rendered = env.render_str(
            UNSUPPORTED_SHELL,
            minijinja::context! {
                language => voice.language(),
                stylesheet => format!("/quote/brand/{brand_id}/unsupported.css"),
                logo => format!("/quote/brand/{brand_id}/logo.svg"),
                brand => text("app.brand"),
                title => text("unsupported.title"),
                body => text("unsupported.body"),
            },
        );
        return match rendered {
            Ok(page) => html_page(page),
            Err(e) => AppError::Internal(format!("unsupported-browser shell: {e}")).into_response(),
        };
    }
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
    // A static page has its own title and description, and says whether it may be indexed
    // (journey.md §2: the contact page is indexed, the terms and privacy pages are not).
    let page = crate::service::page::shell_page(&state.defs, uri.path(), &brand_id, &voice);
    let static_page = page.static_page;
    // What the page asks for as soon as it can, beside its script: its view data, the
    // breed lists, and the form of the question set the address's step asks (its schema is all
    // the browser needs to validate it).
    let view_url = page.journeyed.then(|| view_url(uri));
    let breeds_url = view::breeds_url(&state.defs);
    let form = page
        .form_set
        .map(|set| view::form_url(&state.defs, &brand_id, voice.language(), set));
    let title = match static_page {
        Some(page) => format!("{} – {}", text(&page.title), text("app.brand")),
        None => format!("{} – {}", text("app.name"), text("app.brand")),
    };
    let frame = page.frame;
    // The cookie banner is in the HTML too, for a brand with a tag manager whose customer has
    // not chosen yet (or whose choice has lapsed): asked on the first page, never drawn late.
    let chosen = consent_chosen(headers, &brand_id);
    let drawn = frame
        .as_ref()
        .map(|shell| crate::service::page::first_paint_frame(shell, &voice, chosen));
    let rendered = env.render_str(
        &html,
        minijinja::context! {
            language => voice.language(),
            frame => minijinja::Value::from(minijinja::value::Serde(&drawn)),
            title => title,
            theme => theme,
            description => static_page.map(|p| text(&p.description)),
            noindex => static_page.is_some_and(|p| !p.index),
            no_script => text("app.no_script"),
            preload_fetch => view_url.iter().chain(form.iter()).cloned().collect::<Vec<_>>(),
            preload_later => &breeds_url,
            boot => minijinja::context! { language => voice.language(), copy => &copy, copy_url => view::copy_url(&state.defs, &brand_id, voice.language()), breeds_url => &breeds_url, view_url => &view_url, shell => minijinja::Value::from(minijinja::value::Serde(&frame)) },
        },
    );
    match rendered {
        Ok(page) => html_page(page),
        Err(e) => AppError::Internal(format!("rendering {}: {e}", path.display())).into_response(),
    }
}

/// Whether the customer has answered this brand's cookie banner: the `pawpath_consent_<brand>`
/// cookie the page writes (renderer/src/shared/consent.ts), `granted` or `denied`, for the
/// brand's `ask_again_after_days`; any other value is no answer.
fn consent_chosen(headers: &HeaderMap, brand: &str) -> bool {
    headers
        .get_all(axum::http::header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .any(|cookies| consent_choice(cookies, brand).is_some())
}

/// The brand's choice in a Cookie header's text: each cookie split at its first `=`, the first
/// of the brand's whose value is exactly `granted` or `denied`. The page reads `document.cookie`
/// by the same rule (`readChoice`); both are held to `tests/parity/consent-cookies.json`.
fn consent_choice<'a>(cookies: &'a str, brand: &str) -> Option<&'a str> {
    let name = format!("pawpath_consent_{brand}");
    cookies
        .split(';')
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(k, v)| *k == name && matches!(*v, "granted" | "denied"))
        .map(|(_, v)| v)
}

/// The simplified shell for Internet Explorer: the brand's colours, its name and the message;
/// no script (journey.md §2 Shell).
const UNSUPPORTED_SHELL: &str = r#"<!doctype html>
<html lang="{{ language }}">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="robots" content="noindex" />
    <title>{{ title }} – {{ brand }}</title>
    <link rel="stylesheet" href="{{ stylesheet }}" />
  </head>
  <body class="unsupported">
    <header class="header"><div class="header__inner"><img class="header__logo" src="{{ logo }}" alt="{{ brand }}" width="160" height="40" /></div></header>
    <main class="main">
      <h1 class="page-title">{{ title }}</h1>
      <p>{{ body }}</p>
    </main>
  </body>
</html>
"#;

#[cfg(test)]
mod consent_tests {
    #![expect(clippy::unwrap_used, reason = "tests")]

    /// The server reads the choice as the page does (tests/parity/consent-cookies.json).
    #[test]
    fn the_consent_cookie_is_read_as_the_page_reads_it() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../tests/parity/consent-cookies.json");
        let cases: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        for case in cases["cases"].as_array().unwrap() {
            let cookies = case["cookies"].as_str().unwrap();
            assert_eq!(
                super::consent_choice(cookies, "pos"),
                case["choice"].as_str(),
                "{cookies}"
            );
        }
    }
}
