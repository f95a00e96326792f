//! Page URLs under /quote: JSON view data for the renderer when it asks for JSON, the renderer's
//! HTML shell otherwise. Also the health check.

use axum::Json;
use axum::extract::State;
use axum::http::header::{ACCEPT, CACHE_CONTROL, CONTENT_TYPE, SET_COOKIE};
use axum::http::{HeaderMap, StatusCode, Uri};
use axum::response::{IntoResponse, Redirect, Response};
use serde_json::json;

use engine::journey::runtime;

use crate::service::caller::Caller;
use crate::service::error::AppError;
use crate::service::quote;
use crate::service::state::AppState;
use crate::service::view::{self, ViewInput};

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

/// What a path under /quote is on a brand.
enum Target<'a> {
    Step(&'a engine::definitions::Step),
    Retrieve,
    Static(&'a engine::definitions::StaticPage),
}

/// The retrieve-quote page's two paths (owner-payment.md §2).
const RETRIEVE_PATHS: [&str; 2] = ["/retrieve-quote", "/retrievequote"];

/// The journey whose pages the URL is under (its `base_path`: /quote, /aggregators/quote), and
/// the path under it ("/" for the base itself).
fn journey_of<'d, 'u>(
    defs: &'d engine::Definitions,
    uri: &'u Uri,
) -> Option<(&'d engine::definitions::Journey, &'u str)> {
    defs.journeys().find_map(|journey| {
        let rest = uri.path().strip_prefix(journey.base_path.as_str())?;
        if !(rest.is_empty() || rest.starts_with('/')) {
            return None;
        }
        let path = match rest.trim_end_matches('/') {
            "" => "/",
            other => other,
        };
        Some((journey, path))
    })
}

/// What `path` is on `brand`: one of its journey's steps (at the brand's own path where it has
/// one), the retrieve-quote page, or one of its static pages.
fn resolve<'a>(
    defs: &'a engine::Definitions,
    journey: &'a engine::definitions::Journey,
    brand: Option<&'a engine::definitions::Brand>,
    path: &str,
) -> Option<Target<'a>> {
    use engine::definitions::PageId;
    if RETRIEVE_PATHS.contains(&path) {
        return Some(Target::Retrieve);
    }
    if let Some(b) = brand {
        for id in [
            PageId::Privacy,
            PageId::Terms,
            PageId::Support,
            PageId::Library,
            PageId::PromotionTerms,
        ] {
            if b.page_path(id) == Some(path) {
                return defs.page(id).map(Target::Static);
            }
        }
    }
    if let Some(status) = status_page(defs, journey, path) {
        return Some(status);
    }
    journey
        .steps
        .iter()
        .find(|s| brand.map_or(s.path.as_str(), |b| b.step_path(s)) == path)
        .map(Target::Step)
}

/// One of the journey's status pages (the annual rehoming flow's /policy-link-expired).
fn status_page<'a>(
    defs: &'a engine::Definitions,
    journey: &engine::definitions::Journey,
    path: &str,
) -> Option<Target<'a>> {
    journey
        .status_pages
        .iter()
        .find(|p| p.path == path)
        .and_then(|p| defs.page(p.page))
        .map(Target::Static)
}

/// Whether `path` is a page on any brand: a path no brand has is a 404 before any quote is made
/// for the visitor.
fn known_to_any_brand(
    state: &AppState,
    journey: &engine::definitions::Journey,
    path: &str,
) -> bool {
    journey.steps.iter().any(|s| s.path == path)
        || journey.status_pages.iter().any(|p| p.path == path)
        || state
            .defs
            .raw
            .brands
            .iter()
            .any(|b| resolve(&state.defs, journey, Some(&b.value), path).is_some())
        || RETRIEVE_PATHS.contains(&path)
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

/// A page's view data (the JSON answer of a page under a journey's base path).
async fn view_data(state: &AppState, uri: &Uri, caller: &Caller) -> Result<Response, AppError> {
    let Some((url_journey, step_path)) = journey_of(&state.defs, uri) else {
        return Err(AppError::NotFound);
    };
    if !known_to_any_brand(state, url_journey, step_path) {
        return Err(AppError::NotFound);
    }
    let brand = quote::asked_brand(state, uri.query());
    // A brand that does not sell through this journey's channel, or lacks its extra flow, has no
    // such pages (journey.md §1: rcfr and rsp sell direct only; the rehoming flows in some brands
    // only); a visitor with a quote keeps the quote's own.
    if let Some(b) = state
        .defs
        .brand(brand.as_deref().unwrap_or(quote::DEFAULT_BRAND))
        && !b.offers_journey(url_journey)
        && quote::session_quote(state, caller).await.is_none()
    {
        return Err(AppError::NotFound);
    }
    let token = quote::asked_tracking_token(state, brand.as_deref(), uri.query());
    // A visitor with a quote keeps it on whichever journey it runs (its pages answer with their
    // own paths, which the renderer follows); a new visitor's quote runs on the URL's journey.
    let session = quote::existing_or_new(
        state,
        caller,
        brand.as_deref(),
        token.as_deref(),
        url_journey,
    )
    .await?;
    // Opening a page is activity: idle time starts again (written when the last recorded
    // activity is more than moments old; see reset::idle_past_reset).
    quote::note_activity(state, &session.quote).await?;
    let journey = quote::journey(state, &session.quote)?;
    let brand = state.defs.brand(&session.quote.brand);
    // A status page of the URL's journey shows over whichever quote the visitor has.
    let Some(mut target) = resolve(&state.defs, journey, brand, step_path)
        .or_else(|| status_page(&state.defs, url_journey, step_path))
    else {
        // Another brand's page: not one of this quote's.
        return Err(AppError::NotFound);
    };
    // A journey made only from policy links shows a visitor without one (who typed the
    // address, or whose link made nothing) the page for a link that cannot be used.
    if journey.linked_only
        && !crate::service::annual::linked(&session.quote)
        && matches!(target, Target::Step(_))
    {
        target = state
            .defs
            .page(engine::definitions::PageId::PolicyLinkExpired)
            .map(Target::Static)
            .ok_or_else(|| AppError::Internal("no policy_link_expired page".into()))?;
    }
    let rules = quote::rule_context(state, &session.quote);
    let bought = session.quote.is_bought();
    let (viewing, position) = if bought {
        // A bought quote shows its confirmation for every journey page (the static pages and
        // retrieve-quote still show themselves).
        quote::purchased_position(journey)?
    } else {
        let position = runtime::position_of(&state.defs, journey, &session.quote.document, &rules)?;
        // journey.md §2 Redirect rule: a step the answers do not open yet (no pets, or a pet
        // without a name, opens nothing past the first page) shows the furthest open one, and the
        // renderer follows `step.path`. The static pages and retrieve-quote never redirect; they
        // are drawn over the furthest step's data.
        let viewing = match target {
            Target::Step(step) if position.can_open(&step.id) => journey.step(&step.id),
            _ => journey.step(&position.furthest),
        }
        .ok_or_else(|| AppError::Internal("position names an unknown step".into()))?;
        (viewing, position)
    };
    let purchase = if bought {
        crate::service::purchase::purchase_of(state, &session.quote.id).await?
    } else {
        None
    };
    let csrf = session.token.csrf(&state.config.secret_key);
    let voice = quote::voice(state, &session.quote);
    let mut timeouts = quote::timeouts(state, &session.quote);
    if let Target::Static(page) = &target
        && let Some(reset) = page.timeout_ms
        && state.config.session_override.is_none()
    {
        // journey.md §9: the contact page's long timeout; the warning two minutes before.
        timeouts = (reset.saturating_sub(120_000), reset);
    }
    let lookups = view::Lookups::of(state);
    let input = ViewInput {
        defs: &state.defs,
        journey,
        quote: &session.quote,
        viewing,
        position: &position,
        csrf: &csrf,
        voice: &voice,
        rules: &rules,
        holidays: lookups.holidays,
        banks: lookups.banks,
        card_provider: lookups.card_provider,
        timeouts,
        purchase,
        // The full account number only on the bank details panel itself (owner-payment.md §2),
        // never in a static or retrieve page drawn over that step's data.
        account_number: match target {
            Target::Step(_) => view::account_number_for(state, viewing, &session.quote).await?,
            Target::Retrieve | Target::Static(_) => None,
        },
        after_edit: false,
    };
    let mut data = view::view_data(&input)?;
    if data.rescue.is_object() {
        crate::service::annual::add_link(state, &session.quote.brand, &mut data.rescue);
    }
    let page_step = |id: &str, view_name: &str, title: String| {
        json!({
            "id": id,
            "path": format!("{}{step_path}", journey.base_path),
            "title": title,
            "view": view_name,
            "bar_number": null,
            "bar_label": null,
            "blocks": [],
        })
    };
    // Pages outside the journey: no step bar (journey.md §2), no forms of the journey's.
    let outside = match &target {
        Target::Retrieve => Some(page_step(
            "retrieve_quote",
            "retrieve_quote",
            voice.t("retrieve.title"),
        )),
        Target::Static(page) => {
            data.page = Some(view::static_page_view(
                page,
                state.defs.brand(&session.quote.brand),
                &voice,
            ));
            Some(page_step(
                &format!("page_{}", page.id.as_str()),
                "static_page",
                voice.t(&page.title),
            ))
        }
        Target::Step(_) => None,
    };
    if let Some(step) = outside {
        data.step = step;
        data.step_bar = Vec::new();
        data.questions = serde_json::Value::Null;
        data.edits = serde_json::Map::new();
    }
    let mut response = view::Answer::<()> {
        data,
        outcome: None,
    }
    .reply()?
    .into_response();
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
            (q.brand, language)
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
    // A brand that names a tag manager: its origins in this brand's pages' policy only (issue
    // 29). The page loads its script only once the customer accepts analytics cookies.
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
    let url_journey = journey_of(&state.defs, uri);
    let target = url_journey.and_then(|(j, path)| resolve(&state.defs, j, brand, path));
    let static_page = match target {
        Some(Target::Static(page)) => Some(page),
        _ => None,
    };
    // What the page asks for as soon as it can, beside its script: its view data, the
    // breed lists, and the form of the question set the address's step asks (its schema is all
    // the browser needs to validate it).
    let view_url = url_journey.map(|_| view_url(uri));
    let breeds_url = view::breeds_url(&state.defs);
    let form = match target {
        Some(Target::Step(step)) if let Some(set) = step.questions.as_deref() => Some(
            view::form_url(&state.defs, &brand_id, voice.language(), set),
        ),
        _ => None,
    };
    let title = match static_page {
        Some(page) => format!("{} – {}", text(&page.title), text("app.brand")),
        None => format!("{} – {}", text("app.name"), text("app.brand")),
    };
    // The brand's frame from the first paint, and on a page that fails to load.
    let frame = url_journey
        .map(|(j, _)| j)
        .or_else(|| state.defs.journey(quote::DEFAULT_JOURNEY))
        .and_then(|j| {
            view::shell_view(
                &state.defs,
                &brand_id,
                &voice,
                j.channel,
                j,
                &serde_json::json!({}),
            )
        });
    // The cookie banner is in the HTML too, for a brand with a tag manager whose customer has
    // not chosen yet (or whose choice has lapsed): asked on the first page, never drawn late.
    let chosen = consent_chosen(headers, &brand_id);
    let drawn = frame
        .as_ref()
        .map(|shell| first_paint_frame(shell, &voice, chosen));
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

/// The frame as React draws it before the page's view arrives (renderer/src/features/shell/Frame.tsx:
/// the skip link, the header without the language chooser, the footer), for the HTML to carry so
/// the first paint needs no script. (The caller has none when the brand is unknown.)
fn first_paint_frame(
    shell: &view::Shell<'_>,
    voice: &engine::Voice<'_>,
    cookies_chosen: bool,
) -> serde_json::Value {
    let text = |key: &str| voice.t(key);
    let phone = shell.phone;
    let call_us = voice.text(
        "header.call_us",
        &[("phone".to_owned(), phone.to_owned())]
            .into_iter()
            .collect(),
    );
    // The component library (journey.md §2 /library) is for the brand's own teams: at its
    // address, not in the customers' footer.
    let pages = &shell.pages;
    let links: Vec<serde_json::Value> = [
        ("privacy", &pages.privacy),
        ("terms", &pages.terms),
        ("support", &pages.support),
    ]
    .into_iter()
    .filter_map(|(page, href)| {
        let href = href.as_deref()?;
        Some(serde_json::json!({ "href": href, "label": text(&format!("footer.{page}")) }))
    })
    .collect();
    serde_json::json!({
        "skip_link": text("app.skip_link"),
        "site_url": shell.site_url,
        "logo_link": text("header.logo_link"),
        "logo_url": shell.logo_url,
        "product": text("app.name"),
        "tel": format!("tel:{}", phone.split_whitespace().collect::<String>()),
        "call_us": call_us,
        "hours": shell.hours,
        "links_label": text("footer.links_label"),
        "links": links,
        "regulatory": text("footer.regulatory"),
        "cookie_settings": shell.tag_manager.as_ref().map(|_| text("footer.cookies")),
        "cookie_banner": shell
            .tag_manager
            .as_ref()
            .filter(|_| !cookies_chosen)
            .map(|_| serde_json::json!({
                "label": text("cookies.banner.label"),
                "heading": text("cookies.banner.heading"),
                "necessary": text("cookies.banner.necessary"),
                "analytics": text("cookies.banner.analytics"),
                "accept": text("cookies.banner.accept"),
                "reject": text("cookies.banner.reject"),
                "policy": text("cookies.banner.policy"),
                "policy_url": pages.privacy,
            })),
    })
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
