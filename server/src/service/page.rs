//! What a page address is (the journey whose base path it is under, and on a brand one of the
//! journey's steps, the retrieve-quote page, a static page or a status page), the page's view
//! data (the JSON a page asks for), and what the HTML shell needs of it before its script runs.

use serde_json::json;

use engine::definitions::{Brand, Journey, PageId, StaticPage, Step};
use engine::journey::runtime;
use engine::{Definitions, Voice};

use crate::service::caller::Caller;
use crate::service::error::AppError;
use crate::service::quote;
use crate::service::reply::Reply;
use crate::service::state::AppState;
use crate::service::view::{
    Answer, Lookups, Shell, ViewInput, account_number_for, shell_view, static_page_view, view_data,
};

/// What a path under /quote is on a brand.
pub(crate) enum Target<'a> {
    Step(&'a Step),
    Retrieve,
    Static(&'a StaticPage),
}

/// The retrieve-quote page's two paths (owner-payment.md §2).
const RETRIEVE_PATHS: [&str; 2] = ["/retrieve-quote", "/retrievequote"];

/// The journey whose pages the URL is under (its `base_path`: /quote, /aggregators/quote), and
/// the path under it ("/" for the base itself).
fn journey_of<'d, 'u>(defs: &'d Definitions, path: &'u str) -> Option<(&'d Journey, &'u str)> {
    defs.journeys().find_map(|journey| {
        let rest = path.strip_prefix(journey.base_path.as_str())?;
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
    defs: &'a Definitions,
    journey: &'a Journey,
    brand: Option<&'a Brand>,
    path: &str,
) -> Option<Target<'a>> {
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
fn status_page<'a>(defs: &'a Definitions, journey: &Journey, path: &str) -> Option<Target<'a>> {
    journey
        .status_pages
        .iter()
        .find(|p| p.path == path)
        .and_then(|p| defs.page(p.page))
        .map(Target::Static)
}

/// Whether `path` is a page on any brand: a path no brand has is a 404 before any quote is made
/// for the visitor.
fn known_to_any_brand(state: &AppState, journey: &Journey, path: &str) -> bool {
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

/// A page's view data (the JSON answer of a page under a journey's base path), and the cookie of
/// the session it made, if it made one.
pub struct PageView {
    pub reply: Reply,
    pub new_cookie: Option<String>,
}

/// The view data of the page at `path` (with its `query`): the visitor's quote (made for a new
/// visitor on the address's journey), at the step the address names when the answers open it
/// (journey.md §2 Redirect rule), else the furthest open; a static page, retrieve-quote or a
/// status page drawn over the quote's data; a bought quote's confirmation.
pub async fn page_view(
    state: &AppState,
    path: &str,
    query: Option<&str>,
    caller: &Caller,
) -> Result<PageView, AppError> {
    let Some((url_journey, step_path)) = journey_of(&state.defs, path) else {
        return Err(AppError::NotFound);
    };
    if !known_to_any_brand(state, url_journey, step_path) {
        return Err(AppError::NotFound);
    }
    let brand = quote::asked_brand(state, query);
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
    let token = quote::asked_tracking_token(state, brand.as_deref(), query);
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
            .page(PageId::PolicyLinkExpired)
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
    let lookups = Lookups::of(state);
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
            Target::Step(_) => account_number_for(state, viewing, &session.quote).await?,
            Target::Retrieve | Target::Static(_) => None,
        },
        after_edit: false,
    };
    let mut data = view_data(&input)?;
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
            data.page = Some(static_page_view(
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
    let reply = Answer::<()> {
        data,
        outcome: None,
    }
    .reply()?;
    Ok(PageView {
        reply,
        new_cookie: session.new_cookie,
    })
}

/// What the HTML shell knows of the page at `path` on `brand_id` before its script runs: whether
/// the address is under a journey (its view data is preloaded), a static page's own title,
/// description and indexing, the question set the address's step asks (its form is preloaded),
/// and the brand's frame.
pub struct ShellPage<'a> {
    pub journeyed: bool,
    pub static_page: Option<&'a StaticPage>,
    pub form_set: Option<&'a str>,
    pub frame: Option<Shell<'a>>,
}

/// The shell's page at `path` on `brand_id`, in `voice`. Reading only: no quote is made.
pub fn shell_page<'a>(
    defs: &'a Definitions,
    path: &str,
    brand_id: &str,
    voice: &Voice<'_>,
) -> ShellPage<'a> {
    let brand = defs.brand(brand_id);
    let url_journey = journey_of(defs, path);
    let target = url_journey.and_then(|(j, p)| resolve(defs, j, brand, p));
    let (static_page, form_set) = match target {
        Some(Target::Static(page)) => (Some(page), None),
        Some(Target::Step(step)) => (None, step.questions.as_deref()),
        _ => (None, None),
    };
    // The brand's frame from the first paint, and on a page that fails to load.
    let frame = url_journey
        .map(|(j, _)| j)
        .or_else(|| defs.journey(quote::DEFAULT_JOURNEY))
        .and_then(|j| shell_view(defs, brand_id, voice, j.channel, j, &json!({})));
    ShellPage {
        journeyed: url_journey.is_some(),
        static_page,
        form_set,
        frame,
    }
}

/// The frame as React draws it before the page's view arrives (renderer/src/features/shell/Frame.tsx:
/// the skip link, the header without the language chooser, the footer), for the HTML to carry so
/// the first paint needs no script. (The caller has none when the brand is unknown.)
pub fn first_paint_frame(
    shell: &Shell<'_>,
    voice: &Voice<'_>,
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
