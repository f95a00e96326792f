//! The inbound quote API's quote (journey.md §1 Aggregator; owner-payment.md §7): a comparison
//! site's risk checked by the aggregator journey's own questions and rules, the quote made and
//! priced, and what the site is answered with: every pet's price for every product and an offer
//! per product, each with its signed click-through link.

use std::time::Instant;

use rust_decimal::Decimal;
use serde_json::{Map, Value, json};

use engine::definitions::Channel;
use engine::journey::runtime::{self, Event, Lifecycle, Outcome, TransitionRecord};

use crate::service::error::{AppError, FieldMessage};
use crate::service::fields::only_fields;
use crate::service::landing::Landing;
use crate::service::quote;
use crate::service::state::AppState;
use crate::session::SessionToken;
use crate::store::NewQuote;

/// The journey comparison-site customers arrive in.
pub const JOURNEY: &str = "aggregator";

/// What an inbound quote request may hold.
pub const FIELDS: [&str; 6] = [
    "brand",
    "pets",
    "owner",
    "cover_start",
    "crossbreed",
    "tracking_token",
];

/// A request field's problem, as the field errors of a 422.
pub fn field_error(field: &str, message: impl Into<String>) -> AppError {
    AppError::Validation(vec![FieldMessage {
        field: field.to_owned(),
        message: message.into(),
    }])
}

/// Runs the risk through the aggregator journey, stores the quote, and answers with its prices.
pub async fn make_quote(
    state: &AppState,
    code: &str,
    mut body: Map<String, Value>,
) -> Result<Vec<u8>, AppError> {
    only_fields(&body, &FIELDS)?;
    let journey = state
        .defs
        .journey(JOURNEY)
        .ok_or_else(|| AppError::Internal("no aggregator journey is defined".into()))?;
    let Request {
        brand_id,
        tracking_token,
        cover_start,
        pets,
        owner,
        crossbreed,
    } = Request::read(state, &mut body)?;

    let id = crate::store::quote_id();
    let mut document = runtime::empty_document();
    document["aggregator"] = Value::from(code);
    if let Some(t) = &tracking_token {
        document["tracking_token"] = Value::from(t.as_str());
    }
    if let Some(experiments) = state.defs.experiments() {
        document["experiments"] = json!(experiments.assign(&id, &brand_id));
    }
    let row = crate::store::QuoteRow {
        id: id.clone(),
        quote_ref: quote::quote_reference(),
        brand: brand_id.as_str().into(),
        channel: Channel::Aggregator,
        journey: journey.id.as_str().into(),
        definition_version: state.defs.version().to_owned(),
        lifecycle: Lifecycle::Active,
        document,
        row_version: 1,
        created_at: String::new(),
        updated_at: String::new(),
        history: 0,
    };
    let voice = quote::voice(state, &row);
    let rules = quote::rule_context(state, &row);
    // The steps the pages' own calls would submit (journey.md §7), found by the call each takes
    // in the aggregator journey, whatever question sets the journey binds to them.
    let step_of = |call: &str| {
        journey
            .steps
            .iter()
            .find(|s| s.questions.is_some() && s.named_call.as_deref() == Some(call))
            .map(|s| s.id.clone())
            .ok_or_else(|| {
                AppError::Internal(format!("no step of the aggregator journey takes {call}"))
            })
    };
    let pet_step = step_of("/api/petdetails")?;
    let crossbreed_step = step_of("/api/petownerdetails")?;
    let owner_step = step_of("/api/ownerdetail")?;

    // Each event as the customer's pages would send it, with how the request names its fields.
    let queue: Events<'_> = [
        (
            Event::Submit {
                step: pet_step,
                answers: json!({ "pets": pets }),
            },
            "pets",
            "pets",
        ),
        (
            Event::Submit {
                step: owner_step,
                answers: json!({ "owner": owner }),
            },
            "owner",
            "owner",
        ),
        (
            Event::Edit {
                questions: "start_date".into(),
                answers: json!({ "owner": { "pet_policy_start_date": &cover_start } }),
            },
            "owner.pet_policy_start_date",
            "cover_start",
        ),
    ]
    .into();
    let (document, records, crossbreed) = run_risk(
        state,
        &journey.id,
        &rules,
        &voice,
        row.document.clone(),
        queue,
        (&crossbreed_step, crossbreed),
    )?;
    // The journey lifts a start date before the earliest to the earliest (journey.md §4 Policy
    // start date); a comparison site asked for a date, so a date other than the one asked for is
    // refused, naming the window.
    let window =
        engine::rules::domain::start_date_window(&state.defs, &document, rules.today, &brand_id);
    if document
        .pointer("/owner/pet_policy_start_date")
        .and_then(Value::as_str)
        != Some(cover_start.as_str())
        || window.chosen.to_string() != cover_start
    {
        return Err(field_error(
            "cover_start",
            format!(
                "cover can start from {} to {} for these pets",
                window.earliest, window.latest
            ),
        ));
    }
    if crossbreed.is_some() {
        return Err(field_error(
            "crossbreed",
            "no pet needs a crossbreed confirmation",
        ));
    }
    let products = engine::journey::quoting::products(&state.defs, &document, &rules);
    if products.is_empty() {
        return Err(AppError::Internal(
            "the risk passed but nothing was priced".into(),
        ));
    }
    let quote_ref = row.quote_ref.clone();
    state
        .store
        .insert_made_quote(
            &NewQuote {
                id: &id,
                quote_ref: &quote_ref,
                brand: &brand_id,
                channel: Channel::Aggregator,
                journey: &journey.id,
                definition_version: state.defs.version(),
                document: &document,
                opening: Some(&row.document),
            },
            &records,
        )
        .await?;
    tracing::info!(quote = %id, aggregator = %code, brand = %brand_id, "inbound aggregator quote");
    answer(
        state, &id, &quote_ref, &brand_id, code, &document, &products,
    )
}

/// The events the customer's pages would send, each with how the request names its fields
/// (the part's name inside the answers, and the request's own).
type Events<'a> = std::collections::VecDeque<(Event, &'a str, &'a str)>;

/// A transition's record with how long it took, in microseconds.
type Timed = (TransitionRecord, i64);

/// What the request says, each field checked: the brand (sold through comparison sites), its
/// tracking token, the start date, the pets (confirmed, as the pet page confirms them), the
/// owner and the crossbreed confirmations.
struct Request {
    brand_id: String,
    tracking_token: Option<String>,
    cover_start: String,
    pets: Value,
    owner: Value,
    crossbreed: Option<Value>,
}

impl Request {
    fn read(state: &AppState, body: &mut Map<String, Value>) -> Result<Self, AppError> {
        let brand_id = match body.get("brand") {
            Some(Value::String(b)) => b.to_ascii_lowercase(),
            None | Some(Value::Null) => engine::definitions::DEFAULT_BRAND.to_owned(),
            Some(_) => return Err(field_error("brand", "must be a brand code, such as pos")),
        };
        let brand = match state.defs.brand(&brand_id) {
            Some(b) if b.sells_through(Channel::Aggregator) => b,
            Some(_) => {
                return Err(field_error(
                    "brand",
                    format!("{brand_id} is not sold through comparison sites"),
                ));
            }
            // The caller's text is not echoed back (answers stay within their bound).
            None => return Err(field_error("brand", "is not a brand code")),
        };
        let tracking_token = match body.get("tracking_token") {
            None | Some(Value::Null) => None,
            Some(Value::String(t)) if brand.sales_phones.tracking_tokens.contains_key(t) => {
                Some(t.clone())
            }
            Some(_) => {
                return Err(field_error(
                    "tracking_token",
                    "is not a tracking token of this brand",
                ));
            }
        };
        let cover_start = match body.remove("cover_start") {
            Some(Value::String(d)) => d,
            _ => {
                return Err(field_error(
                    "cover_start",
                    "is required: the policy start date as YYYY-MM-DD",
                ));
            }
        };
        let pets = body
            .remove("pets")
            .ok_or_else(|| field_error("pets", "is required: a list of 1 to 10 pets"))?;
        let owner = body
            .remove("owner")
            .ok_or_else(|| field_error("owner", "is required: the owner's details"))?;
        let crossbreed = body.remove("crossbreed");
        // Sending the pets' details confirms them, as the pet details page does (journey.md §7:
        // confirm_assumptions set on the pet); the customer still ticks each pet's assumptions on
        // the Details step before paying.
        let mut pets = pets;
        if let Some(list) = pets.as_array_mut() {
            for pet in list.iter_mut().filter_map(Value::as_object_mut) {
                pet.entry("confirm_assumptions")
                    .or_insert(Value::Bool(true));
            }
        }
        Ok(Self {
            brand_id,
            tracking_token,
            cover_start,
            pets,
            owner,
            crossbreed,
        })
    }
}

/// Runs the events through the journey as the pages would, answering a crossbreed's confirmation
/// (the crossbreed step, with the request's answers for it) when the journey asks for it: the
/// document reached, each transition's record, and the crossbreed answers left unasked. A field's
/// problem is a 422 under the request's own name.
fn run_risk(
    state: &AppState,
    journey: &str,
    rules: &engine::rules::context::RuleContext,
    voice: &engine::Voice<'_>,
    mut document: Value,
    mut queue: Events<'_>,
    (crossbreed_step, mut crossbreed): (&engine::definitions::StepId, Option<Value>),
) -> Result<(Value, Vec<Timed>, Option<Value>), AppError> {
    let mut records: Vec<Timed> = Vec::new();
    let mut crossbreed_asked = false;
    while let Some((event, inner, outer)) = queue.pop_front() {
        let started = Instant::now();
        let result = runtime::transition(
            &state.defs,
            journey,
            &document,
            Lifecycle::Active,
            &event,
            rules.clone(),
        )?;
        let record = result.record;
        match record.outcome {
            Outcome::Invalid => {
                let errors = record
                    .field_errors
                    .iter()
                    .map(|e| FieldMessage {
                        field: rename_field(&e.field, inner, outer),
                        message: voice.message(e),
                    })
                    .collect();
                return Err(AppError::Validation(errors));
            }
            Outcome::Blocked => {
                let errors = record
                    .blocks
                    .iter()
                    .map(|b| FieldMessage {
                        field: b
                            .field
                            .as_deref()
                            .map_or_else(|| outer.to_owned(), |f| rename_field(f, inner, outer)),
                        message: voice.t(&b.message),
                    })
                    .collect();
                return Err(AppError::Validation(errors));
            }
            Outcome::RefusedByGuard | Outcome::RefusedByLifecycle => {
                return Err(field_error(
                    outer,
                    "these answers do not let the quote go on (a step before them is not complete)",
                ));
            }
            Outcome::Moved => {}
        }
        document = result.document;
        let elapsed = i64::try_from(started.elapsed().as_micros()).unwrap_or(i64::MAX);
        records.push((record, elapsed));
        // A crossbreed or mongrel needs its confirmation before the owner's details (journey.md
        // §4): the request's `crossbreed` answers it, or the request is refused naming it.
        if result.position.furthest == *crossbreed_step && !crossbreed_asked {
            crossbreed_asked = true;
            let Some(answers) = crossbreed.take() else {
                return Err(field_error(
                    "crossbreed",
                    "is required: a pet is a crossbreed or mongrel; send [{\"confirm_crossbreed\": true}, …], one per pet, to confirm its parents are not on the excluded breeds list",
                ));
            };
            queue.push_front((
                Event::Submit {
                    step: crossbreed_step.clone(),
                    answers: json!({ "pets": answers }),
                },
                "pets",
                "crossbreed",
            ));
        }
    }
    Ok((document, records, crossbreed))
}

/// `pets[0].pet_name` under the request's own name for the part (`crossbreed[0]…`,
/// `cover_start`).
pub fn rename_field(field: &str, inner: &str, outer: &str) -> String {
    match field.strip_prefix(inner) {
        Some(rest) => format!("{outer}{rest}"),
        None => field.to_owned(),
    }
}

/// The inbound quote's answer (its fields as the comparison sites' API names them).
#[derive(serde::Serialize)]
pub struct Made<'a> {
    quote_reference: &'a str,
    brand: &'a str,
    aggregator: &'a str,
    currency: &'static str,
    cover_start: Option<&'a Value>,
    valid_until: String,
    sales_phone: Option<&'a str>,
    pets: Vec<MadePet<'a>>,
    offers: Vec<Offer<'a>>,
}

#[derive(serde::Serialize)]
pub struct MadePet<'a> {
    pet: usize,
    pet_name: &'a Value,
    products: Vec<MadeProduct<'a>>,
}

#[derive(serde::Serialize)]
pub struct MadeProduct<'a> {
    code: &'a str,
    cover_type: &'static str,
    vet_fee_limit: &'a str,
    excess: &'a str,
    monthly: String,
    annual: String,
}

#[derive(serde::Serialize)]
pub struct Offer<'a> {
    code: &'a str,
    cover_type: &'static str,
    vet_fee_limit: &'a str,
    monthly: String,
    annual: String,
    click_through: String,
}

pub static NO_NAME: Value = Value::Null;

/// The prices: per pet, every product; per product offered to every pet, the total and the
/// click-through link. Written once, as JSON.
pub fn answer(
    state: &AppState,
    id: &str,
    quote_ref: &str,
    brand: &str,
    code: &str,
    document: &Value,
    products: &[engine::journey::quoting::Product],
) -> Result<Vec<u8>, AppError> {
    let pets: &[Value] = document
        .get("pets")
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice);
    let of_pet = |n: usize| products.iter().filter(move |p| p.petid == n);
    let pets_view: Vec<MadePet<'_>> = pets
        .iter()
        .enumerate()
        .map(|(i, pet)| MadePet {
            pet: i + 1,
            pet_name: pet.get("pet_name").unwrap_or(&NO_NAME),
            products: of_pet(i + 1)
                .map(|p| MadeProduct {
                    code: &p.Code,
                    cover_type: p.Type,
                    vet_fee_limit: &p.Limit,
                    excess: &p.Excess,
                    monthly: p.RecurringMonthly.to_string(),
                    annual: p.AnnualPremium.to_string(),
                })
                .collect(),
        })
        .collect();
    // Offers: the first pet's products that every other pet is offered too, in its order.
    let expires =
        chrono::Utc::now() + chrono::Duration::days(engine::journey::quoting::QUOTE_VALID_DAYS);
    let public_url = state.config.public_url.trim_end_matches('/');
    let offers: Vec<Offer<'_>> = of_pet(1)
        .filter_map(|first| {
            let code_of = first.Code.as_str();
            let each: Vec<&engine::journey::quoting::Product> = (1..=pets.len())
                .map(|n| of_pet(n).find(|p| p.Code == code_of))
                .collect::<Option<_>>()?;
            let monthly: Decimal = each.iter().map(|p| p.RecurringMonthly).sum();
            let annual: Decimal = each.iter().map(|p| p.AnnualPremium).sum();
            let token = ClickThrough {
                quote_id: id.to_owned(),
                product: code_of.to_owned(),
                expires: expires.timestamp(),
            }
            .sign(&state.config.secret_key);
            Some(Offer {
                code: code_of,
                cover_type: first.Type,
                vet_fee_limit: &first.Limit,
                monthly: monthly.to_string(),
                annual: annual.to_string(),
                click_through: format!("{public_url}/aggregators/continue/{token}"),
            })
        })
        .collect();
    let brand_def = state.defs.brand(brand);
    let made = Made {
        quote_reference: quote_ref,
        brand,
        aggregator: code,
        currency: brand_def.map_or("GBP", |b| b.currency.code()),
        cover_start: document.pointer("/owner/pet_policy_start_date"),
        valid_until: expires
            .with_timezone(&chrono_tz::Europe::London)
            .date_naive()
            .to_string(),
        sales_phone: brand_def.map(|b| {
            b.sales_phone(
                Channel::Aggregator,
                Some(code),
                document.get("tracking_token").and_then(Value::as_str),
            )
        }),
        pets: pets_view,
        offers,
    };
    serde_json::to_vec(&made)
        .map_err(|e| AppError::Internal(format!("inbound quote answer not written: {e}")))
}

/// What a click-through link carries, signed with the server's secret: the quote, the product
/// the customer chose on the comparison site, and when the link stops working.
pub struct ClickThrough {
    pub quote_id: String,
    pub product: String,
    pub expires: i64,
}

impl ClickThrough {
    pub const PURPOSE: &str = "click-through";

    pub fn sign(&self, secret: &crate::config::SecretKey) -> String {
        let payload = format!("{}.{}.{}", self.quote_id, self.product, self.expires);
        crate::signed::sign(secret, Self::PURPOSE, &payload)
    }

    /// The link's contents when its signature is ours; the expiry is the caller's to judge.
    pub fn verify(secret: &crate::config::SecretKey, token: &str) -> Option<Self> {
        let payload = crate::signed::verify(secret, Self::PURPOSE, token)?;
        let mut parts = payload.split('.');
        let quote_id = parts.next()?.to_owned();
        let product = parts.next()?.to_owned();
        let expires = parts.next()?.parse().ok()?;
        parts.next().is_none().then_some(Self {
            quote_id,
            product,
            expires,
        })
    }
}

/// A comparison site's click-through (GET /aggregators/continue/{token}). The quote joins this
/// browser's session (a new one), the product the customer chose there becomes every pet's
/// cover (the choose-policy step, recorded like the page's own), and the customer lands on
/// review. A link that is not ours is the not-found page; an expired or used one, or one whose
/// quote is bought, goes to retrieve-quote, where the customer can still find the quote by its
/// reference and email.
pub async fn click_through(state: &AppState, token: &str) -> Result<Landing, AppError> {
    let Some(link) = ClickThrough::verify(&state.config.secret_key, token) else {
        return Err(AppError::NotFound);
    };
    let redirect = |to: String, cookie: Option<String>| Landing { to, cookie };
    let Some(found) = state.store.quote_by_id(&link.quote_id).await? else {
        return Err(AppError::NotFound);
    };
    let journey = quote::journey(state, &found)?;
    let base = &journey.base_path;
    let brand = &found.brand;
    let retrieve = || redirect(format!("{base}/retrieve-quote?brand={brand}"), None);
    // Only a quote still to be bought opens, and each link once: a bought quote
    // stays with the browser that bought it, and a link seen again (history, a forwarded
    // email) cannot move the quote to another browser. Either way the customer can still
    // retrieve the quote by its reference and email.
    if chrono::Utc::now().timestamp() > link.expires || found.lifecycle != Lifecycle::Active {
        return Ok(retrieve());
    }
    if !state.store.spend_link(token, &found.id).await? {
        return Ok(retrieve());
    }
    let session = SessionToken::generate();
    // The customer's choice on the comparison site, for every pet, as the cover page sends it.
    let pets = found
        .document
        .get("pets")
        .and_then(Value::as_array)
        .map_or(0, Vec::len);
    let cover_step = journey
        .steps
        .iter()
        .find(|s| s.view == engine::definitions::View::ChoosePolicy)
        .ok_or_else(|| AppError::Internal("the aggregator journey has no cover step".into()))?;
    let event = Event::Submit {
        step: cover_step.id.clone(),
        answers: json!({ "pets": vec![json!({ "product": { "Code": link.product } }); pets] }),
    };
    let started = Instant::now();
    let rules = quote::rule_context(state, &found);
    let result = runtime::transition(
        &state.defs,
        &journey.id,
        &found.document,
        found.lifecycle,
        &event,
        rules,
    )?;
    let moved = result.record.outcome == Outcome::Moved;
    let meta = crate::store::TransitionMeta::of(&found, started, &[]);
    state
        .store
        .record(
            &found,
            moved.then_some((&result.document, result.lifecycle)),
            &result.record,
            meta,
            &[],
        )
        .await?;
    // No longer offered (the prices moved on since): the customer chooses again.
    let to = if moved { "/review" } else { "/choose-policy" };
    if !state
        .store
        .attach_session(&found.id, &session.hash())
        .await?
    {
        // Bought by its own browser between the two reads.
        return Ok(retrieve());
    }
    let cookie = session.set_cookie(state.config.secure_cookies());
    Ok(redirect(format!("{base}{to}?brand={brand}"), Some(cookie)))
}
