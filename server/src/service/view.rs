//! View data: what a page needs to draw itself, built from the definitions and the quote on
//! every request. Position, step statuses and which steps are clickable are derived here from
//! the answers; nothing about position is stored.

use serde_json::{Map, Value, json};

use engine::Definitions;
use engine::definitions::{Journey, Step};
use engine::journey::position::Position;
use engine::journey::runtime;
use engine::rules::context::RuleContext;

use crate::store::QuoteRow;

/// The uiSchema keys whose values are copy keys, localised before they are sent.
const UI_TEXT_KEYS: [&str; 4] = ["ui:title", "ui:description", "ui:help", "ui:placeholder"];

/// The call that takes each question set's answers (journey.md §7), so the renderer needs no
/// list of its own.
pub const SUBMIT_CALLS: &[(&str, &str)] = &[
    ("pet_details", "/api/petdetails"),
    ("pet_details_aggregator", "/api/petdetails"),
    ("annual_rehoming_pet", "/api/petdetails"),
    ("crossbreed", "/api/petownerdetails"),
    ("assumptions", "/api/saveDeclaration"),
    ("your_details", "/api/ownerdetail"),
    ("cover", "/api/saveCover"),
    ("payment", "/api/setup-payment"),
    ("rehoming_eligibility", "/api/rehomingeligibility"),
    ("rehoming_pet", "/api/postpetdetails"),
];

/// The call that saves each question set a page edits in place (a modal), named in the payload's
/// `form` field: the pet update for the assumptions and the pre-existing conditions (journey.md
/// §4: "sends the pet update", "Saving sends the pets with vet and details fields"), the owner
/// update for the start date (§4 Policy start date).
pub const EDIT_CALLS: &[(&str, &str)] = &[
    ("assumptions", "/api/petdetails"),
    ("pre_existing", "/api/petdetails"),
    ("start_date", "/api/ownerdetail"),
    ("promo_code", "/api/ownerdetail"),
    ("referral_code", "/api/ownerdetail"),
    // The review page's owner modals (owner-payment.md §2: address only, full, add phone).
    ("your_details", "/api/ownerdetail"),
    ("quote_reminder", "/api/noquotechaseemail"),
    // The aggregator review's date-of-birth confirmation (journey.md §4).
    ("dob_confirmation", "/api/petdetails"),
    // The payment page's keeping in touch and policy communications (owner-payment.md §2).
    ("communications", "/api/ownerdetail"),
    // The confirmation page's pet portal password (owner-payment.md §7).
    ("portal_password", "/api/saveportalpassword"),
    // The review page's change-cover modal (journey.md §2 Modals: choose cover).
    ("cover", "/api/saveCover"),
];

/// The full URL path of a step on a brand (journeys/brands: step_paths; journey.md §2: one
/// brand's confirmation is /success).
pub fn step_url(
    journey: &Journey,
    step: &Step,
    brand: Option<&engine::definitions::Brand>,
) -> String {
    let path = brand.map_or(step.path.as_str(), |b| b.step_path(step));
    if path == "/" {
        journey.base_path.clone()
    } else {
        format!("{}{path}", journey.base_path)
    }
}

pub struct ViewInput<'a> {
    pub defs: &'a Definitions,
    pub journey: &'a Journey,
    pub quote: &'a QuoteRow,
    pub viewing: &'a Step,
    pub position: &'a Position,
    pub csrf: &'a str,
    /// How the quote's brand speaks, in the quote's language.
    pub voice: &'a engine::Voice<'a>,
    pub rules: &'a RuleContext,
    /// England and Wales bank holidays, for the payment page's collection dates.
    pub holidays: &'a engine::rules::collections::BankHolidays,
    /// Which bank a sort code belongs to, for the bank details panel.
    pub banks: &'a crate::banks::BankDirectory,
    /// Where the browser sends a card, for brands that take cards.
    pub card_provider: crate::payments::BrowserSettings,
    /// The full account number, decrypted, only for the one page that shows it (the bank
    /// details panel); everywhere else the document's masked copy is all there is.
    pub account_number: Option<String>,
    /// The purchase, once the quote is bought (the confirmation page).
    pub purchase: Option<crate::store::PurchaseRow>,
    /// The inactivity warning and reset times, in milliseconds.
    pub timeouts: (u64, u64),
    /// The answer to a modal's save (journey.md §4: its data replaces the view data of the page
    /// the modal is on), which carries every product whatever the quote's step.
    pub after_edit: bool,
}

/// The decrypted account number when the page is the bank details panel (owner-payment.md §2
/// Bank details panel), and only then.
pub async fn account_number_for(
    state: &crate::service::state::AppState,
    viewing: &Step,
    quote: &QuoteRow,
) -> Result<Option<String>, crate::service::error::AppError> {
    if viewing.view != engine::definitions::View::PaymentConfirmation {
        return Ok(None);
    }
    const FIELD: &str = "/payment/account_number";
    let Some(sealed) = state.store.secret(&quote.id, FIELD).await? else {
        return Ok(None);
    };
    state
        .config
        .encryption_key
        .decrypt(&quote.id, FIELD, &sealed)
        .map(Some)
        .map_err(|e| {
            crate::service::error::AppError::Internal(format!(
                "quote {}: account number {e}",
                quote.id
            ))
        })
}

/// The view data of a page (journey.md §3 Quote view data), serialised once as it is: each part
/// what the page needs.
#[derive(serde::Serialize)]
pub struct ViewData<'a> {
    pub qidu: &'a str,
    pub csrf: &'a str,
    pub brand: &'a str,
    pub shell: Value,
    pub channel: &'a str,
    pub journey: &'a str,
    /// An extra flow's journey (journey.md §1: rehoming, annual_rehoming), else null.
    pub flow: Option<&'a str>,
    pub language: &'a str,
    /// Each pet as stored, its chosen product as its code and monthly price: the page finds the
    /// rest in `products`.
    pub pets: &'a Value,
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
    /// The rehoming flow's free cover (journey.md §1 Extra flows), on its confirmation page.
    pub rescue: Value,
    /// journey.md §4 Timers, §9: the inactivity warning and reset times.
    pub timeouts: Timeouts,
    pub experiments: Value,
    pub step_bar: Vec<Value>,
    /// The brand's copy in the quote's language, at its own address (fetched once).
    pub copy_url: String,
    /// A static page's words, on the static pages only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<Value>,
}

#[derive(serde::Serialize)]
pub struct Timeouts {
    pub warning_ms: u64,
    pub reset_ms: u64,
}

/// The products drawn for a page, written as the view data carries them: `products` and
/// `shared`.
pub struct Products(pub Vec<engine::journey::quoting::Product>);

impl serde::Serialize for Products {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let (products, shared) = products_view(&self.0);
        let mut map = serializer.serialize_map(Some(2))?;
        map.serialize_entry("products", &products)?;
        map.serialize_entry("shared", &shared)?;
        map.end()
    }
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
static ANSWER_SIZE: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(16 * 1024);
/// Below glibc's default threshold for handing a buffer its own mapping: a rare large answer
/// (every product of ten pets) does not make every later one allocate that much.
const ANSWER_SIZE_CAP: usize = 96 * 1024;

impl<O: serde::Serialize> axum::response::IntoResponse for Answer<'_, O> {
    /// As `Json`, written once into a buffer of the usual answer's size.
    fn into_response(self) -> axum::response::Response {
        use std::sync::atomic::Ordering::Relaxed;
        let mut body = Vec::with_capacity(ANSWER_SIZE.load(Relaxed));
        match serde_json::to_writer(&mut body, &self) {
            Ok(()) => {
                ANSWER_SIZE.fetch_max(body.len().min(ANSWER_SIZE_CAP), Relaxed);
                (
                    [(
                        axum::http::header::CONTENT_TYPE,
                        axum::http::HeaderValue::from_static("application/json"),
                    )],
                    body,
                )
                    .into_response()
            }
            Err(e) => {
                crate::service::error::AppError::Internal(format!("view data not written: {e}"))
                    .into_response()
            }
        }
    }
}

static NO_PETS: Value = Value::Array(Vec::new());

pub fn view_data<'a>(
    input: &'a ViewInput<'a>,
) -> Result<ViewData<'a>, engine::journey::runtime::EngineError> {
    let ViewInput {
        defs,
        journey,
        quote,
        viewing,
        position,
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
        Some(qs) => {
            let submit = SUBMIT_CALLS
                .iter()
                .find(|(id, _)| *id == qs.id)
                .map(|(_, call)| *call);
            question_view(qs, &quote.document, submit, form(qs))
        }
        None => Value::Null,
    };
    let mut edits = Map::new();
    for edit in &viewing.edits {
        if let Some(qs) = defs.question_set(&edit.questions) {
            let call = EDIT_CALLS
                .iter()
                .find(|(id, _)| *id == qs.id)
                .map(|(_, call)| *call);
            edits.insert(
                qs.id.clone(),
                question_view(qs, &quote.document, call, form(qs)),
            );
        }
    }

    let blocks: Vec<Value> = engine::journey::position::active_blocks(
        defs,
        viewing,
        &quote.document,
    )?
    .into_iter()
    .map(|b| json!({ "id": b.id, "message": b.message.as_deref().map(text), "field": b.field }))
    .collect();

    let bar_items = journey.step_bar_for(brand.and_then(|b| b.review_step_number));
    let step_bar: Vec<Value> = bar_items
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
        .collect();

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
            &quote.channel,
            journey,
            &quote.document,
        ),
        channel: &quote.channel,
        journey: &journey.id,
        flow: journey.flow.as_deref(),
        language: voice.language(),
        pets: quote.document.get("pets").unwrap_or(&NO_PETS),
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
        experiments: experiments_view(defs, quote),
        step_bar,
        copy_url: copy_url(defs, &quote.brand, voice.language()),
        page: None,
    })
}

static NO_PAYMENT: std::sync::LazyLock<Value> =
    std::sync::LazyLock::new(|| Value::Object(Map::new()));

/// The products a page draws (issue 22: the view data carries what its step needs): every
/// product where cover is chosen (cover select, and the review with its change-cover modal),
/// each pet's chosen product where it is shown (payment, the checks before buying,
/// confirmation), none elsewhere (journey.md §3 Quote view data: the list is there, empty).
fn drawn_products(view: engine::definitions::View) -> Option<engine::journey::quoting::Drawn> {
    use engine::definitions::View;
    use engine::journey::quoting::Drawn;
    match view {
        View::ChoosePolicy | View::Review => Some(Drawn::Every),
        View::Payment
        | View::PaymentConfirmation
        | View::CardConfirmation
        | View::Confirmation
        | View::RescueConfirmation => Some(Drawn::Chosen),
        View::Form | View::Pending | View::Assumptions => None,
    }
}

/// The address of something that never changes for the definitions being served (`kind`: copy,
/// questions), for a brand, under `rest` (routes::resources). An unknown brand speaks as the
/// default one, as its voice does.
fn definitions_url(defs: &Definitions, kind: &str, brand: &str, rest: &str) -> String {
    let brand = defs
        .brand(brand)
        .map_or(engine::definitions::DEFAULT_BRAND, |b| b.id.as_str());
    format!(
        "/quote/definitions/{}/{kind}/{brand}/{rest}",
        defs.version()
    )
}

/// Where the breed lists are for the definitions being served (the same for every brand).
pub fn breeds_url(defs: &Definitions) -> String {
    format!("/quote/definitions/{}/breeds", defs.version())
}

/// Where the brand's copy catalogue in `language` is, for the definitions being served.
pub fn copy_url(defs: &Definitions, brand: &str, language: &str) -> String {
    definitions_url(defs, "copy", brand, language)
}

/// A value sent once in the view's `shared` list and referred to by its position.
#[derive(serde::Serialize)]
pub struct SharedRef {
    #[serde(rename = "$ref")]
    index: usize,
}

/// A value of the view's `shared` list.
#[derive(serde::Serialize)]
#[serde(untagged)]
pub enum SharedValue<'a> {
    Row(&'a engine::journey::quoting::Term),
    Rows(Vec<SharedRef>),
    Flexy(&'a engine::journey::quoting::FlexyOptions),
    Coins(&'a engine::journey::quoting::CoinsList),
    Claim(&'a engine::journey::quoting::ClaimExample),
}

/// The values that repeat across a view's products (benefit rows and their lists, excess options,
/// claim examples), each once: rows and lists by identity (the engine makes each once per
/// page), the rest by value.
#[derive(Default)]
struct Shared<'a> {
    values: Vec<SharedValue<'a>>,
    rows: PtrMap<engine::journey::quoting::Term>,
    lists: PtrMap<std::sync::Arc<engine::journey::quoting::Term>>,
    flexy: Vec<(&'a engine::journey::quoting::FlexyOptions, usize)>,
    coins: Vec<(&'a engine::journey::quoting::CoinsList, usize)>,
    claims: Vec<(&'a engine::journey::quoting::ClaimExample, usize)>,
}

/// A map keyed by address: the values the engine shares (`Arc`s) are known by where they are,
/// so the key is hashed as the one number it is, not fed through SipHash.
type PtrMap<T> =
    std::collections::HashMap<*const T, usize, std::hash::BuildHasherDefault<AddressHasher>>;

/// Hashes an address (one `usize`): a multiply spreads its bits (addresses share their low
/// ones). Only for keys the server made, never for anything a client sends.
#[derive(Default)]
struct AddressHasher(u64);

impl std::hash::Hasher for AddressHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(*b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }

    fn write_usize(&mut self, n: usize) {
        self.0 = (n as u64)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .rotate_left(29);
    }
}

impl<'a> Shared<'a> {
    fn push(&mut self, value: SharedValue<'a>) -> usize {
        self.values.push(value);
        self.values.len() - 1
    }

    /// The place of a value kept by value (equal values share one place). A page has a few
    /// distinct values of each kind (one per species, excess or limit), so they are found by
    /// looking along the few seen, the same address first.
    fn by_value<T: Eq>(
        values: &mut Vec<SharedValue<'a>>,
        seen: &mut Vec<(&'a T, usize)>,
        value: &'a T,
        wrap: fn(&'a T) -> SharedValue<'a>,
    ) -> SharedRef {
        let found = seen
            .iter()
            .find(|(v, _)| std::ptr::eq(*v, value))
            .or_else(|| seen.iter().find(|(v, _)| *v == value))
            .map(|(_, i)| *i);
        let index = found.unwrap_or_else(|| {
            values.push(wrap(value));
            let i = values.len() - 1;
            seen.push((value, i));
            i
        });
        SharedRef { index }
    }

    fn list(&mut self, terms: &'a engine::journey::quoting::TermList) -> SharedRef {
        // The engine makes each list once per page: the products that share it share its
        // address.
        let key = terms.as_ptr();
        if let Some(&index) = self.lists.get(&key) {
            return SharedRef { index };
        }
        let rows = terms
            .iter()
            .map(|t| {
                let ptr = std::sync::Arc::as_ptr(t);
                let index = match self.rows.get(&ptr) {
                    Some(&i) => i,
                    None => {
                        let i = self.push(SharedValue::Row(t));
                        self.rows.insert(ptr, i);
                        i
                    }
                };
                SharedRef { index }
            })
            .collect();
        let index = self.push(SharedValue::Rows(rows));
        self.lists.insert(key, index);
        SharedRef { index }
    }
}

/// A product as the pages use it (journey.md §3 Product, the fields a page reads): the
/// comparison sites' and the product calls carry every field of the spec's Product.
#[derive(serde::Serialize)]
#[allow(non_snake_case)]
pub struct ProductView<'a> {
    Code: &'a str,
    Gid: &'static str,
    GidOrderShow: u32,
    LimitVal: u32,
    Excess: &'a str,
    coins: rust_decimal::Decimal,
    RecurringMonthly: rust_decimal::Decimal,
    AnnualPremium: rust_decimal::Decimal,
    petid: usize,
    species: &'static str,
    Rated: bool,
    PolicyTerms: SharedRef,
    FlexyProductsOptions: SharedRef,
    excess_options: SharedRef,
    ClaimExample: SharedRef,
}

/// The products as the view data carries them (issue 22: the view sends what the page needs,
/// once): what a page reads of each, with the values that repeat from product to product in
/// `shared`, referred to as `{"$ref": n}`.
pub fn products_view(
    products: &[engine::journey::quoting::Product],
) -> (Vec<ProductView<'_>>, Vec<SharedValue<'_>>) {
    let mut shared = Shared::default();
    let views = products
        .iter()
        .map(|p| {
            let terms = shared.list(&p.PolicyTerms);
            let flexy = Shared::by_value(
                &mut shared.values,
                &mut shared.flexy,
                &p.FlexyProductsOptions,
                SharedValue::Flexy,
            );
            let coins = Shared::by_value(
                &mut shared.values,
                &mut shared.coins,
                &p.excess_options,
                SharedValue::Coins,
            );
            let claim = Shared::by_value(
                &mut shared.values,
                &mut shared.claims,
                &p.ClaimExample,
                SharedValue::Claim,
            );
            ProductView {
                Code: &p.Code,
                Gid: p.Gid,
                GidOrderShow: p.GidOrderShow,
                LimitVal: p.LimitVal,
                Excess: &p.Excess,
                coins: p.coins,
                RecurringMonthly: p.RecurringMonthly,
                AnnualPremium: p.AnnualPremium,
                petid: p.petid,
                species: p.species,
                Rated: p.Rated,
                PolicyTerms: terms,
                FlexyProductsOptions: flexy,
                excess_options: coins,
                ClaimExample: claim,
            }
        })
        .collect();
    (views, shared.values)
}

/// The quote's pets as pages show them: each chosen product in full (the quote stores its code
/// and monthly price; a code the pet is not offered stays the bare code), and without the
/// server's `quoted` prices (the view's `products` carries them).
pub fn pets_with_products(
    document: &Value,
    products: &[engine::journey::quoting::Product],
) -> Vec<Value> {
    let Some(pets) = document.get("pets").and_then(Value::as_array) else {
        return Vec::new();
    };
    pets.iter()
        .enumerate()
        .map(|(i, pet)| {
            let mut pet = pet.clone();
            let chosen = engine::journey::quoting::priced_choice(&pet)
                .and_then(|code| products.iter().find(|p| p.petid == i + 1 && p.Code == code));
            if let (Some(product), Some(map)) = (chosen, pet.as_object_mut()) {
                map.insert(
                    "product".into(),
                    serde_json::to_value(product).unwrap_or(Value::Null),
                );
            }
            pet
        })
        .collect()
}

/// What the page's frame shows of the quote's brand (journeys/brands; journey.md §2 Shell): its
/// name, logo and site, its stylesheet, the sales number for the channel and its hours, where
/// its static pages are, the languages it speaks, its currency, its badge and banner settings
/// and its tracking id.
pub fn shell_view(
    defs: &Definitions,
    brand: &str,
    voice: &engine::Voice<'_>,
    channel: &str,
    journey: &Journey,
    document: &Value,
) -> Value {
    use engine::definitions::{Channel, PageId};
    let Some(b) = defs.brand(brand) else {
        return Value::Null;
    };
    let channel = if channel == "aggregator" {
        Channel::Aggregator
    } else {
        Channel::Direct
    };
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
    json!({
        "id": b.id,
        "name": b.display_name,
        "site_url": b.site_url,
        "logo_url": format!("/quote/brand/{}/logo.svg", b.id),
        "theme_url": format!("/quote/brand/{}/theme.css", b.id),
        // journey.md §1: by channel, by aggregator code and by tracking token.
        "phone": b.sales_phone(
            channel,
            document.get("aggregator").and_then(Value::as_str),
            document.get("tracking_token").and_then(Value::as_str),
        ),
        "hours": hours_text,
        "languages": b.languages,
        "currency": b.currency.code(),
        "pages": {
            "privacy": page(PageId::Privacy),
            "terms": page(PageId::Terms),
            "support": page(PageId::Support),
            "library": page(PageId::Library),
        },
        "rating_badge": b.rating_badge,
        "best_buy_banner": b.best_buy_banner,
        "tracking_id": b.tracking.container_id,
    })
}

/// A static page's words in the brand's voice (journeys/pages.json).
pub fn static_page_view(
    page: &engine::definitions::StaticPage,
    voice: &engine::Voice<'_>,
) -> Value {
    json!({
        "id": page.id.as_str(),
        "title": voice.t(&page.title),
        "description": voice.t(&page.description),
        "index": page.index,
        "sections": page.sections.iter().map(|s| json!({
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

/// How the quote's brand takes payment (journeys/brands: owner-payment.md §1 "Direct Debit, or
/// card where offered"), on the payment page: the methods, and for card the card form (the card
/// question set, which the provider checks too) and where the browser sends it.
fn payment_options_view(input: &ViewInput<'_>) -> Value {
    use engine::definitions::PaymentMethod;
    if input.viewing.view != engine::definitions::View::Payment {
        return Value::Null;
    }
    let brand = input.defs.brand(&input.quote.brand);
    let methods: Vec<&str> = brand
        .map(|b| b.payment_methods.iter().map(|m| m.code()).collect())
        .unwrap_or_else(|| vec![PaymentMethod::DirectDebit.code()]);
    let card = match (
        brand.is_some_and(|b| b.takes(PaymentMethod::Card)),
        input.defs.question_set("card"),
    ) {
        (true, Some(qs)) => json!({
            "questions": question_view(
                qs,
                &json!({}),
                None,
                form_url(input.defs, &input.quote.brand, input.voice.language(), &qs.id),
            ),
            "provider": input.card_provider,
        }),
        _ => Value::Null,
    };
    json!({ "methods": methods, "card": card })
}

/// Each pet's documents (owner-payment.md §3 Documents): the policy wording by species and the
/// IPID by species and product code, in the version for the cover start date; for the chosen
/// product (`items`) and for each cover type (`by_group`, the benefits table's links); and the
/// older pet's share of each claim that wording sets (journey.md §9 Excess at renewal).
fn documents_view<'a>(
    defs: &'a Definitions,
    voice: &engine::Voice<'_>,
    document: &'a Value,
    rules: &RuleContext,
) -> Vec<PetDocuments<'a>> {
    let Some(docs) = defs.documents() else {
        return Vec::new();
    };
    let start = engine::rules::domain::cover_start(document, rules);
    let given = |species, code: &str| -> Vec<GivenDocument<'a>> {
        docs.for_product(species, code, start)
            .into_iter()
            .map(|g| GivenDocument {
                kind: g.kind,
                title: voice.t(g.title),
                name: g.name,
                url: format!("/quote/documents/{}", g.name),
            })
            .collect()
    };
    let pets = document.get("pets").and_then(Value::as_array);
    pets.into_iter()
        .flatten()
        .filter_map(|pet| {
            let species = pet
                .get("pet_type")
                .and_then(Value::as_str)
                .and_then(engine::definitions::Species::parse)?;
            // The chosen product's documents; and each cover type's, for the benefits table.
            let chosen = engine::journey::quoting::priced_choice(pet);
            let items = chosen.map(|code| given(species, code)).unwrap_or_default();
            let by_group: Vec<(&'static str, Vec<GivenDocument<'a>>)> = ["LT", "MB", "TL"]
                .into_iter()
                .map(|g| (g, given(species, g)))
                .filter(|(_, v)| !v.is_empty())
                .collect();
            // The older pet's share of each claim, as the policy wording given says it.
            let share = items
                .iter()
                .chain(
                    by_group
                        .iter()
                        .filter(|(g, _)| *g == "LT")
                        .flat_map(|(_, v)| v.iter()),
                )
                .find_map(|d| docs.version(d.name))
                .map(|v| v.terms.older_pet_share_percent.as_str());
            Some(PetDocuments {
                petid: pet.get("id"),
                items,
                by_group: ByGroup(by_group),
                older_pet_share_percent: share,
                older_pet_age: engine::journey::quoting::older_pet_age(species),
            })
        })
        .collect()
}

/// One pet's documents as the pages show them: the chosen product's, and each cover type's.
#[derive(serde::Serialize)]
pub struct PetDocuments<'a> {
    petid: Option<&'a Value>,
    items: Vec<GivenDocument<'a>>,
    by_group: ByGroup<'a>,
    older_pet_share_percent: Option<&'a str>,
    older_pet_age: u32,
}

/// A document given with a product: its kind, title in the quote's language, name and address.
#[derive(serde::Serialize)]
pub struct GivenDocument<'a> {
    kind: engine::definitions::documents::DocumentKind,
    title: String,
    name: &'a str,
    url: String,
}

/// The documents of each cover type that has some, as an object keyed by cover type.
pub struct ByGroup<'a>(Vec<(&'static str, Vec<GivenDocument<'a>>)>);

impl serde::Serialize for ByGroup<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.0.iter().map(|(g, v)| (g, v)))
    }
}

/// The variation of each experiment this quote is shown (journeys/experiments.json): the one
/// given when the quote was made, or, for an experiment added since, its stable assignment.
fn experiments_view(defs: &Definitions, quote: &QuoteRow) -> Value {
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

/// The payment page's payment-date notice (owner-payment.md §2, §4 Direct Debit date): for each
/// frequency and each collection day, the first collection (date, amount, how many payments it
/// takes) and the regular amount, for a mandate set up today.
fn collections_view(input: &ViewInput<'_>, summary: &engine::journey::quoting::Summary) -> Value {
    use engine::rules::collections::{Frequency, schedule};
    if input.viewing.view != engine::definitions::View::Payment {
        return Value::Null;
    }
    if !summary.every_pet_chosen {
        return Value::Null;
    }
    let start = engine::rules::domain::cover_start(&input.quote.document, input.rules);
    let mut out = Map::new();
    for (key, frequency, amount) in [
        ("MP", Frequency::Monthly, summary.monthly),
        ("AP", Frequency::Annual, summary.annual),
    ] {
        let mut days = Map::new();
        for day in 1..=28u32 {
            let plan = schedule(
                input.rules.today,
                start,
                day,
                frequency,
                amount,
                input.holidays,
            );
            if let Some(first) = plan.first() {
                days.insert(
                    day.to_string(),
                    json!({ "date": first.date, "amount": first.amount, "payments": first.payments, "regular": amount }),
                );
            }
        }
        out.insert(key.to_owned(), Value::Object(days));
    }
    Value::Object(out)
}

/// The bank details panel (owner-payment.md §2): the account name, the full account number,
/// the sort code as 2-2-2 with hyphens, the cover start date, and the bank's name and branch
/// address when the sort code's bank is known, on that page only. With them, what pressing its
/// button commits to (issue 24): the first collection of the mandate set up today, at the
/// frequency and on the day chosen, worked out as the payment page's notice was.
fn bank_details_view(input: &ViewInput<'_>, summary: &engine::journey::quoting::Summary) -> Value {
    let Some(number) = &input.account_number else {
        return Value::Null;
    };
    let payment = input
        .quote
        .document
        .get("payment")
        .cloned()
        .unwrap_or(json!({}));
    let branch = payment
        .get("sort_code")
        .and_then(Value::as_str)
        .and_then(|s| input.banks.branch(s));
    json!({
        "account_name": payment.get("account_name"),
        "bank_name": branch.as_ref().map(|b| b.name.clone()),
        "bank_address": branch.map(|b| b.address),
        "account_number": number,
        "sort_code": payment.get("sort_code"),
        "cover_start": engine::rules::domain::cover_start(&input.quote.document, input.rules),
        "payment_frequency": payment.get("payment_frequency"),
        "payment_day": payment.get("payment_day"),
        "first_collection": first_collection(input, summary, &payment),
    })
}

/// The first Direct Debit collection for the stored frequency and day, for a mandate set up
/// today; `null` until every pet has its cover and a day is chosen.
fn first_collection(
    input: &ViewInput<'_>,
    summary: &engine::journey::quoting::Summary,
    payment: &Value,
) -> Value {
    use engine::rules::collections::{Frequency, schedule};
    if !summary.every_pet_chosen {
        return Value::Null;
    }
    let (frequency, regular) = match payment.get("payment_frequency").and_then(Value::as_str) {
        Some("AP") => (Frequency::Annual, summary.annual),
        _ => (Frequency::Monthly, summary.monthly),
    };
    let Some(day) = payment
        .get("payment_day")
        .and_then(Value::as_u64)
        .and_then(|d| u32::try_from(d).ok())
        .filter(|d| (1..=28).contains(d))
    else {
        return Value::Null;
    };
    let start = engine::rules::domain::cover_start(&input.quote.document, input.rules);
    let plan = schedule(
        input.rules.today,
        start,
        day,
        frequency,
        regular,
        input.holidays,
    );
    plan.first().map_or(Value::Null, |first| {
        json!({ "date": first.date, "amount": first.amount, "payments": first.payments, "regular": regular })
    })
}

/// The last day (UK time) a quote made at `created_at` holds its prices.
pub fn valid_until(created_at: &str) -> Option<String> {
    let made = chrono::DateTime::parse_from_rfc3339(created_at).ok()?;
    let day = made.with_timezone(&chrono_tz::Europe::London).date_naive()
        + chrono::Duration::days(engine::journey::quoting::QUOTE_VALID_DAYS);
    Some(day.format("%Y-%m-%d").to_string())
}

/// The owner as stored, with what is derived from the promotions data on every request
/// (owner-payment.md §3 Owner: the promo code's description and summary, whether it is a Nectar
/// promotion), so a changed promotion never leaves stale text on a quote.
fn owner_view(defs: &Definitions, voice: &engine::Voice<'_>, document: &Value) -> Value {
    let mut owner = document.get("owner").cloned().unwrap_or(json!({}));
    let code = owner
        .get("promotional_code")
        .and_then(Value::as_str)
        .filter(|c| !c.is_empty())
        .map(str::to_owned);
    if let (Some(code), Some(map)) = (code, owner.as_object_mut())
        && let Some(p) = defs.promo_code(&code)
    {
        let t = |k: &str| Value::String(voice.t(k));
        map.insert("promotional_code_description".into(), t(&p.description));
        map.insert("promotional_code_summary".into(), t(&p.summary));
        map.insert("isNectarPromo".into(), Value::Bool(p.nectar));
    }
    owner
}

/// Draws only the species the brand insures (journey.md §1: rabbits on some brands): the pet
/// type's options and their labels, in step. The server's rule `pet_species_offered` refuses
/// any other whatever the page draws.
fn offer_brand_species(questions: &mut Value, brand: &engine::definitions::Brand) {
    let offered = |v: &Value| {
        v.as_str()
            .and_then(engine::definitions::Species::parse)
            .is_none_or(|s| brand.offers(s))
    };
    let Some(options) = questions
        .pointer("/schema/properties/pets/items/properties/pet_type/enum")
        .and_then(Value::as_array)
        .cloned()
    else {
        return;
    };
    let keep: Vec<bool> = options.iter().map(offered).collect();
    let filter = |items: &Vec<Value>| -> Vec<Value> {
        items
            .iter()
            .zip(&keep)
            .filter(|(_, k)| **k)
            .map(|(v, _)| v.clone())
            .collect()
    };
    if let Some(e) = questions.pointer_mut("/schema/properties/pets/items/properties/pet_type/enum")
    {
        *e = Value::Array(filter(&options));
    }
    if let Some(Value::Array(names)) = questions.pointer_mut("/ui/pets/items/pet_type/ui:enumNames")
        && names.len() == keep.len()
    {
        *names = filter(names);
    }
}

/// A question set as a page's view data carries it: the answers the quote holds for it, the call
/// that saves it, and where its form is (`form`: the schema and the localised UI hints, the same
/// for every quote of the brand in the language, fetched once).
fn question_view(
    qs: &engine::definitions::QuestionSet,
    document: &Value,
    call: Option<&str>,
    form: String,
) -> Value {
    let mut answers = runtime::project(&qs.schema, document);
    if let Some(pets) = answers.get_mut("pets").and_then(Value::as_array_mut)
        && pets.is_empty()
    {
        pets.push(json!({}));
    }
    json!({ "id": qs.id, "answers": answers, "submit": call, "form": form })
}

/// Where a question set's form is, for the brand in the language, for the definitions being
/// served.
pub fn form_url(defs: &Definitions, brand: &str, language: &str, questions: &str) -> String {
    definitions_url(defs, "questions", brand, &format!("{language}/{questions}"))
}

/// A question set's form as the brand draws it in a language: the schema, and the UI hints with
/// their copy keys in words; only the species the brand insures offered (journey.md §1).
pub fn form_view(
    voice: &engine::Voice<'_>,
    qs: &engine::definitions::QuestionSet,
    brand: &engine::definitions::Brand,
) -> Value {
    let mut form = json!({ "schema": qs.schema, "ui": localise_ui(voice, &qs.ui) });
    offer_brand_species(&mut form, brand);
    form
}

/// Replaces the copy keys in a uiSchema with their text in the brand's voice.
pub fn localise_ui(voice: &engine::Voice<'_>, ui: &Value) -> Value {
    match ui {
        Value::Object(map) => {
            let mut out = Map::new();
            for (k, v) in map {
                let localised = match (k.as_str(), v) {
                    (key, Value::String(copy_key)) if UI_TEXT_KEYS.contains(&key) => {
                        Value::String(voice.t(copy_key))
                    }
                    ("ui:enumNames", Value::Array(items)) => Value::Array(
                        items
                            .iter()
                            .map(|i| match i {
                                Value::String(s) => Value::String(voice.t(s)),
                                other => other.clone(),
                            })
                            .collect(),
                    ),
                    _ => localise_ui(voice, v),
                };
                out.insert(k.clone(), localised);
            }
            Value::Object(out)
        }
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::clock_text;

    /// owner-payment.md §1 Sales hours: "Mon-Fri 8am-6pm (one brand: 8.30am-6pm), Sat 9am-1pm".
    #[test]
    fn sales_hours_read_as_the_spec_writes_them() {
        assert_eq!(clock_text("08:00", "en-GB"), "8am");
        assert_eq!(clock_text("08:30", "en-GB"), "8.30am");
        assert_eq!(clock_text("18:00", "en-GB"), "6pm");
        assert_eq!(clock_text("13:00", "en-GB"), "1pm");
        assert_eq!(clock_text("12:00", "en-GB"), "12pm");
        assert_eq!(clock_text("00:15", "en-GB"), "12.15am");
        // French reads the 24-hour clock.
        assert_eq!(clock_text("08:00", "fr-FR"), "8h");
        assert_eq!(clock_text("08:30", "fr-FR"), "8h30");
        assert_eq!(clock_text("18:00", "fr-FR"), "18h");
    }
}
