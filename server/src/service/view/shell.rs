//! The frame around every page (journey.md §2 Shell): the brand, sales number and hours, the step
//! bar; the static pages; the experiments a page shows.

use serde_json::{Map, Value, json};

use engine::Definitions;
use engine::definitions::Journey;

use crate::store::QuoteRow;

/// What the page's frame shows of the quote's brand (journeys/brands; journey.md §2 Shell): its
/// name, logo and site, its stylesheet, the sales number for the channel and its hours, where
/// its static pages are, the languages it speaks, its currency, its badge and banner settings
/// and its tracking id. Written straight from the definitions, without a tree built first.
#[derive(serde::Serialize)]
pub struct Shell<'a> {
    pub(crate) id: &'a str,
    pub(crate) name: &'a str,
    pub(crate) site_url: &'a str,
    pub(crate) logo_url: String,
    pub(crate) theme_url: String,
    /// journey.md §1: by channel, by aggregator code and by tracking token.
    pub(crate) phone: &'a str,
    pub(crate) hours: String,
    pub(crate) languages: &'a [String],
    pub(crate) currency: &'a str,
    pub(crate) pages: ShellPages,
    pub(crate) rating_badge: engine::definitions::RatingBadge,
    pub(crate) best_buy_banner: bool,
    pub(crate) tracking_id: &'a str,
    /// The brand's tag manager, for the page to load once the customer accepts analytics
    /// cookies (journeys/brands: tracking.tag_manager); None: no cookie banner.
    pub(crate) tag_manager: Option<ShellTagManager<'a>>,
}

/// What the page needs of a brand's tag manager: its name, where its script is, and how long the
/// customer's cookie choice lasts.
#[derive(serde::Serialize)]
pub(crate) struct ShellTagManager<'a> {
    pub(crate) name: &'a str,
    pub(crate) script: &'a str,
    pub(crate) ask_again_after_days: u16,
}

/// Where the brand's static pages are, under the journey's base path.
#[derive(serde::Serialize)]
pub(crate) struct ShellPages {
    pub(crate) privacy: Option<String>,
    pub(crate) terms: Option<String>,
    pub(crate) support: Option<String>,
    pub(crate) library: Option<String>,
    pub(crate) promotion_terms: Option<String>,
}

/// The frame of the quote's brand ([`Shell`]); None for a brand the definitions do not have.
pub fn shell_view<'a>(
    defs: &'a Definitions,
    brand: &str,
    voice: &engine::Voice<'_>,
    channel: engine::definitions::Channel,
    journey: &Journey,
    document: &Value,
) -> Option<Shell<'a>> {
    use engine::definitions::PageId;
    let b = defs.brand(brand)?;
    let hours = &b.sales_hours;
    let hours_text = voice.text(
        "header.hours",
        &[
            ("weekday_open", &hours.weekdays.open),
            ("weekday_close", &hours.weekdays.close),
            ("saturday_open", &hours.saturday.open),
            ("saturday_close", &hours.saturday.close),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), clock_text(v, voice.language())))
        .collect(),
    );
    let page = |id: PageId| b.page_path(id).map(|p| format!("{}{p}", journey.base_path));
    Some(Shell {
        id: &b.id,
        name: &b.display_name,
        site_url: &b.site_url,
        logo_url: format!("/quote/brand/{}/logo.svg", b.id),
        theme_url: format!("/quote/brand/{}/theme.css", b.id),
        phone: b.sales_phone(
            channel,
            document.get("aggregator").and_then(Value::as_str),
            document.get("tracking_token").and_then(Value::as_str),
        ),
        hours: hours_text,
        languages: &b.languages,
        currency: b.currency.code(),
        pages: ShellPages {
            privacy: page(PageId::Privacy),
            terms: page(PageId::Terms),
            support: page(PageId::Support),
            library: page(PageId::Library),
            promotion_terms: page(PageId::PromotionTerms),
        },
        rating_badge: b.rating_badge,
        best_buy_banner: b.best_buy_banner,
        tracking_id: &b.tracking.container_id,
        tag_manager: b.tracking.tag_manager.as_ref().map(|tm| ShellTagManager {
            name: &tm.name,
            script: &tm.script,
            ask_again_after_days: tm.ask_again_after_days,
        }),
    })
}

/// A static page's words in the brand's voice (journeys/pages.json), with the sections meant for
/// the brand (the cookie policy differs for a brand with a tag manager).
pub fn static_page_view(
    page: &engine::definitions::StaticPage,
    brand: Option<&engine::definitions::Brand>,
    voice: &engine::Voice<'_>,
) -> Value {
    json!({
        "id": page.id.as_str(),
        "title": voice.t(&page.title),
        "description": voice.t(&page.description),
        "index": page.index,
        "sections": page.sections.iter().filter(|s| brand.is_none_or(|b| b.shows_section(s))).map(|s| json!({
            "heading": voice.t(&s.heading),
            "paragraphs": s.paragraphs.iter().map(|p| voice.t(p)).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "faqs": page.faqs.iter().map(|f| json!({
            "question": voice.t(&f.question),
            "answer": voice.t(&f.answer),
        })).collect::<Vec<_>>(),
    })
}

/// "08:00" → "8am", "08:30" → "8.30am", "18:00" → "6pm", "12:00" → "12pm" (owner-payment.md §1:
/// "Mon-Fri 8am-6pm", "8.30am-6pm", "Sat 9am-1pm"); in French the 24-hour clock: "8h", "8h30",
/// "18h".
pub fn clock_text(hhmm: &str, language: &str) -> String {
    let Some((h, m)) = hhmm.split_once(':') else {
        return hhmm.to_owned();
    };
    let (Ok(h), Ok(m)) = (h.parse::<u32>(), m.parse::<u32>()) else {
        return hhmm.to_owned();
    };
    if language.starts_with("fr") {
        return if m == 0 {
            format!("{h}h")
        } else {
            format!("{h}h{m:02}")
        };
    }
    let suffix = if h < 12 { "am" } else { "pm" };
    let h12 = match h % 12 {
        0 => 12,
        other => other,
    };
    if m == 0 {
        format!("{h12}{suffix}")
    } else {
        format!("{h12}.{m:02}{suffix}")
    }
}

/// The variation of each experiment this quote is shown (journeys/experiments.json): the one
/// given when the quote was made, or, for an experiment added since, its stable assignment.
pub(super) fn experiments_view(defs: &Definitions, quote: &QuoteRow) -> Value {
    let Some(file) = defs.experiments() else {
        return json!({});
    };
    let mut out = Map::new();
    for (id, assigned) in file.assign(&quote.id, &quote.brand) {
        let stored = quote
            .document
            .pointer(&format!("/experiments/{id}"))
            .and_then(Value::as_str)
            .filter(|v| file.knows_view(&format!("{id}:{v}")));
        out.insert(id, Value::from(stored.map_or(assigned, str::to_owned)));
    }
    Value::Object(out)
}
