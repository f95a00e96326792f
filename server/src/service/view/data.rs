//! The view data: everything a page is drawn from, made from the quote, the journey and where the
//! quote stands, and the answer that carries it (capped in size).

use serde_json::{Map, Value, json};

use engine::journey::runtime;

use crate::service::view::calls::{copy_url, form_url, step_url};
use crate::service::view::documents::{PetDocuments, documents_view};
use crate::service::view::forms::{owner_view, question_view};
use crate::service::view::input::{Timeouts, ViewInput};
use crate::service::view::payment::{bank_details_view, collections_view, payment_options_view};
use crate::service::view::products::{Products, drawn_products};
use crate::service::view::shell::{experiments_view, shell_view};

/// The view data of a page (journey.md §3 Quote view data), serialised once as it is: each part
/// what the page needs.
#[derive(serde::Serialize)]
pub struct ViewData<'a> {
    pub qidu: &'a str,
    pub csrf: &'a str,
    pub brand: &'a str,
    pub shell: Option<crate::service::view::shell::Shell<'a>>,
    pub channel: &'a str,
    pub journey: &'a str,
    /// An extra flow's journey (journey.md §1: rehoming, annual_rehoming), else null.
    pub flow: Option<&'a str>,
    pub language: &'a str,
    /// Each pet as stored, its chosen product as its code and monthly price: the page finds the
    /// rest in `products`.
    pub pets: &'a Value,
    /// What the pages show of each pet that only the server decides (the 12-week date of birth
    /// prompt, the RA008 referral), in the pets' order.
    pub pet_flags: Vec<engine::rules::domain::PetFlags>,
    pub owner: Value,
    pub step: Value,
    pub questions: Value,
    pub edits: Map<String, Value>,
    pub locked: Vec<String>,
    /// journey.md §3 Quote view data: the customer asked for no quote reminders.
    pub no_quote_chase_email: bool,
    /// owner-payment.md §7 Load view data: whether an existing policy matched.
    pub existing_policy_valid: bool,
    /// journey.md §4 Policy start date: the window and the options the start-date question
    /// offers, derived from the pets and the stored date.
    pub start_date: engine::rules::domain::StartDateWindow,
    /// `products` and `shared` (see [`products_view`]).
    #[serde(flatten)]
    pub products: Products,
    /// The totals and discounts the review shows.
    pub summary: engine::journey::quoting::Summary,
    pub valid_until: Option<String>,
    pub documents: Vec<PetDocuments<'a>>,
    /// owner-payment.md §3 Payment, as stored: the account number only masked.
    pub payment: &'a Value,
    pub collections: Value,
    pub payment_options: Value,
    pub bank_details: Value,
    pub purchase: Option<&'a crate::store::PurchaseRow>,
    /// A bought quote's Nectar bonus (owner-payment.md §9: capped at 20,000 points), on its
    /// confirmation.
    pub nectar_bonus: Option<engine::rules::domain::NectarBonus>,
    /// The rehoming flow's free cover (journey.md §1 Extra flows), on its confirmation page.
    pub rescue: Value,
    /// journey.md §4 Timers, §9: the inactivity warning and reset times.
    pub timeouts: Timeouts,
    /// Whether the reset keeps this quote to be retrieved (the engine's `kept_on_reset`): the
    /// reset modal says so, with the reference.
    pub kept_on_reset: bool,
    pub experiments: Value,
    pub step_bar: Vec<Value>,
    /// The brand's copy in the quote's language, at its own address (fetched once).
    pub copy_url: String,
    /// A static page's words, on the static pages only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<Value>,
}

/// A call's answer: the view data, and for a call that ran an event, its outcome.
#[derive(serde::Serialize)]
pub struct Answer<'a, O: serde::Serialize> {
    pub data: ViewData<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outcome: Option<O>,
}

/// The size of the largest answer written so far (capped), so the next is written into one
/// buffer of about its size rather than one grown a few bytes at a time.
pub(super) static ANSWER_SIZE: std::sync::atomic::AtomicUsize =
    std::sync::atomic::AtomicUsize::new(16 * 1024);

/// Below glibc's default threshold for handing a buffer its own mapping: a rare large answer
/// (every product of ten pets) does not make every later one allocate that much.
pub(super) const ANSWER_SIZE_CAP: usize = 96 * 1024;

impl<O: serde::Serialize> Answer<'_, O> {
    /// The answer written once, into a buffer of the usual answer's size.
    pub fn reply(&self) -> Result<crate::service::reply::Reply, crate::service::error::AppError> {
        use std::sync::atomic::Ordering::Relaxed;
        let reply = crate::service::reply::Reply::json_sized(self, ANSWER_SIZE.load(Relaxed))?;
        ANSWER_SIZE.fetch_max(reply.body.len().min(ANSWER_SIZE_CAP), Relaxed);
        Ok(reply)
    }
}

pub(super) static NO_PETS: Value = Value::Array(Vec::new());

pub fn view_data<'a>(
    input: &'a ViewInput<'a>,
) -> Result<ViewData<'a>, engine::journey::runtime::EngineError> {
    let ViewInput {
        defs,
        journey,
        quote,
        viewing,
        csrf,
        voice,
        ..
    } = *input;
    let brand = defs.brand(&quote.brand);
    let text = |key: &str| voice.t(key);

    // Answers a lock keeps (a matched existing policy): shown read-only.
    let locked = runtime::locked_fields(defs, journey, &quote.document)?;
    // The step's question set and the modals the page offers, each with the call that saves it:
    // the answers here, the form (schema and words) at its own address (`form`). The page marks
    // the answers a lock keeps read-only (`locked`).
    let form = |qs: &engine::definitions::QuestionSet| {
        form_url(defs, &quote.brand, voice.language(), &qs.id)
    };
    let questions = match viewing
        .questions
        .as_deref()
        .and_then(|q| defs.question_set(q))
    {
        Some(qs) => question_view(qs, &quote.document, Some(&viewing.call()), form(qs)),
        None => Value::Null,
    };
    let edits = edits_view(input);

    let blocks: Vec<Value> = engine::journey::position::active_blocks(
        defs,
        viewing,
        &quote.document,
    )?
    .into_iter()
    .map(|b| json!({ "id": b.id, "message": b.message.as_deref().map(text), "field": b.field }))
    .collect();

    let bar_items = journey.step_bar_for(brand.and_then(|b| b.review_step_number));
    let step_bar = step_bar_view(input, &bar_items);

    let bar_item = bar_items
        .iter()
        .find(|item| item.steps.contains(&viewing.id));
    // journey.md §3 Quote view data: every product priced for every pet, drawn from the prices
    // the quote holds, with what the page shows of each (`products_view`).
    let quoted = engine::journey::quoting::Quoted::of(&quote.document);
    let drawn = if input.after_edit {
        Some(engine::journey::quoting::Drawn::Every)
    } else {
        drawn_products(viewing.view)
    };
    let products = match drawn {
        Some(drawn) => engine::journey::quoting::products_of(
            defs,
            &quote.document,
            input.rules,
            quoted.as_ref(),
            drawn,
        ),
        None => Vec::new(),
    };
    let summary = engine::journey::quoting::summary_of(&quote.document, quoted.as_ref());
    let bank_details = bank_details_view(input, &summary);
    let empty = || -> &Value { &NO_PAYMENT };
    Ok(ViewData {
        qidu: &quote.quote_ref,
        csrf,
        brand: &quote.brand,
        shell: shell_view(
            defs,
            &quote.brand,
            voice,
            quote.channel,
            journey,
            &quote.document,
        ),
        channel: quote.channel.as_str(),
        journey: &journey.id,
        flow: journey.flow.as_deref(),
        language: voice.language(),
        pets: quote.document.get("pets").unwrap_or(&NO_PETS),
        pet_flags: engine::rules::domain::pet_flags(
            &quote.document,
            input.rules.today,
            quote.channel == engine::definitions::Channel::Aggregator,
        ),
        owner: owner_view(defs, voice, &quote.document),
        step: json!({
            "id": viewing.id,
            "path": step_url(journey, viewing, brand),
            "title": text(&viewing.title),
            "view": viewing.view,
            "bar_number": bar_item.map(|b| b.number),
            "bar_label": bar_item.map(|b| text(&b.label)),
            // Where the page's own Continue goes when it saves nothing (review): the step's
            // unconditional exit.
            "next": viewing
                .exits
                .iter()
                .find(|e| e.when.is_none())
                .and_then(|e| journey.step(&e.to))
                .map(|s| step_url(journey, s, brand)),
            "blocks": blocks,
        }),
        questions,
        edits,
        locked,
        no_quote_chase_email: quote
            .document
            .pointer("/owner/no_quote_chase_email")
            .and_then(Value::as_bool)
            .unwrap_or(false),
        existing_policy_valid: quote
            .document
            .pointer("/owner/existing_policy_number")
            .and_then(Value::as_str)
            .is_some_and(|s| !s.is_empty()),
        start_date: engine::rules::domain::start_date_window(
            defs,
            &quote.document,
            input.rules.today,
            &quote.brand,
        ),
        products: Products(products),
        collections: collections_view(input, &summary),
        summary,
        valid_until: valid_until(&quote.created_at),
        documents: documents_view(defs, voice, &quote.document, input.rules),
        payment: quote.document.get("payment").unwrap_or_else(empty),
        payment_options: payment_options_view(input),
        bank_details,
        purchase: input.purchase.as_ref(),
        nectar_bonus: input.purchase.as_ref().and_then(|p| {
            let premiums: Vec<_> = p.policies.iter().map(|p| p.annual_premium).collect();
            engine::rules::domain::nectar_bonus(defs, &quote.document, &premiums)
        }),
        rescue: if viewing.view == engine::definitions::View::RescueConfirmation {
            crate::service::rescue::rescue_view(
                defs,
                &quote.brand,
                &quote.document,
                input.rules.today,
                input.purchase.as_ref(),
            )
        } else {
            Value::Null
        },
        timeouts: Timeouts {
            warning_ms: input.timeouts.0,
            reset_ms: input.timeouts.1,
        },
        kept_on_reset: runtime::kept_on_reset(quote.lifecycle, &quote.document),
        experiments: experiments_view(defs, quote),
        step_bar,
        copy_url: copy_url(defs, &quote.brand, voice.language()),
        page: None,
    })
}

pub(super) static NO_PAYMENT: std::sync::LazyLock<Value> =
    std::sync::LazyLock::new(|| Value::Object(Map::new()));

/// The last day (UK time) a quote made at `created_at` holds its prices.
pub fn valid_until(created_at: &str) -> Option<String> {
    let made = chrono::DateTime::parse_from_rfc3339(created_at).ok()?;
    let day = made.with_timezone(&chrono_tz::Europe::London).date_naive()
        + chrono::Duration::days(engine::journey::quoting::QUOTE_VALID_DAYS);
    Some(day.format("%Y-%m-%d").to_string())
}

/// The modals the step offers, by the role each set plays on the view (journeys/views.json),
/// which is what the page reads; the set's own id travels inside (`id`, sent back as `form`).
fn edits_view(input: &ViewInput<'_>) -> Map<String, Value> {
    let ViewInput {
        defs,
        quote,
        viewing,
        voice,
        ..
    } = *input;
    let form = |qs: &engine::definitions::QuestionSet| {
        form_url(defs, &quote.brand, voice.language(), &qs.id)
    };
    let mut edits = Map::new();
    for edit in &viewing.edits {
        if let Some(qs) = defs.question_set(&edit.questions) {
            let mut modal = question_view(
                qs,
                &quote.document,
                Some(&viewing.edit_call(edit)),
                form(qs),
            );
            // What saving it also sets on the pet it edits (journey.md §4: confirm_assumptions).
            if !edit.sets_on_pet.is_empty() {
                modal["sets_on_pet"] = Value::Object(edit.sets_on_pet.clone());
            }
            edits.insert(edit.role().to_owned(), modal);
        }
    }

    edits
}

/// The step bar's items: each one's label, status and the address of its entry step.
fn step_bar_view(
    input: &ViewInput<'_>,
    bar_items: &[engine::definitions::StepBarItem],
) -> Vec<Value> {
    let ViewInput {
        defs,
        journey,
        quote,
        viewing,
        position,
        voice,
        ..
    } = *input;
    let brand = defs.brand(&quote.brand);
    let text = |key: &str| voice.t(key);
    bar_items
        .iter()
        .filter_map(|item| {
            let entry = journey.step(item.entry_step()?)?;
            let current = item.steps.contains(&viewing.id);
            let status = if current {
                "current"
            } else if item
                .steps
                .iter()
                .filter(|s| position.can_open(s))
                .all(|s| position.completed.contains(s.as_str()))
                && position.completed.contains(&entry.id)
            {
                "completed"
            } else {
                "incomplete"
            };
            Some(json!({
                "number": item.number,
                "label": text(&item.label),
                "status": status,
                "clickable": !current && position.can_open(&entry.id),
                "path": step_url(journey, entry, brand),
            }))
        })
        .collect()
}
