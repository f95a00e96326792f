//! The aggregator channel's calls (journey.md §1–§2, owner-payment.md §2 and §7): the inbound
//! quote API price-comparison sites call with a customer's risk, the click-through link that
//! opens that quote at review in the aggregator journey, and /api/fakeaggs, which makes such a
//! quote on a test host.
//!
//! The risk goes through the aggregator journey exactly as a customer's answers would: the same
//! question schemas, the same domain rules, the same engine, each step recorded as a transition.
//! Nothing is stored unless every step passes; then the quote and its transitions are stored in
//! one transaction.

use std::time::Instant;

use axum::Json;
use axum::extract::Query;
use axum::extract::{Path, State};
use axum::http::header::{AUTHORIZATION, LOCATION, WWW_AUTHENTICATE};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use rust_decimal::Decimal;
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use engine::definitions::Channel;
use engine::journey::runtime::{self, Event, Lifecycle, Outcome, TransitionRecord};

use crate::http::body::JsonObject;
use crate::service::error::{AppError, FieldMessage};
use crate::service::fields::only_fields;
use crate::service::quote;
use crate::service::state::AppState;
use crate::session::SessionToken;
use crate::store::NewQuote;

/// The journey comparison-site customers arrive in.
pub(super) const JOURNEY: &str = "aggregator";

/// What an inbound quote request may hold.
const FIELDS: [&str; 6] = [
    "brand",
    "pets",
    "owner",
    "cover_start",
    "crossbreed",
    "tracking_token",
];

/// POST /api/aggregators/quotes (`Authorization: Bearer <the aggregator's key>`): a comparison
/// site's request for prices. Body: `{brand, pets, owner, cover_start, crossbreed?,
/// tracking_token?}`, where `pets` are the aggregator journey's pet details (microchipped instead
/// of injury or illness), `owner` the your-details answers, `cover_start` the policy start date
/// (YYYY-MM-DD) and `crossbreed` the crossbreed confirmations when a pet needs one. Answers 201
/// with the quote reference, every pet's price for every product, and an offer per product every
/// pet is offered, each with its click-through link; 422 with field errors (named by the
/// request's own fields) when the risk fails a question or a rule, storing nothing.
pub(super) async fn inbound_quote(
    State(state): State<AppState>,
    headers: HeaderMap,
    JsonObject(body): JsonObject,
) -> Result<Response, AppError> {
    if state.config.aggregator_keys.is_empty() {
        return Err(AppError::NotFound);
    }
    let Some(code) = authenticate(&state, &headers) else {
        return Ok((
            StatusCode::UNAUTHORIZED,
            [(WWW_AUTHENTICATE, "Bearer")],
            Json(json!({ "error": "unauthorised" })),
        )
            .into_response());
    };
    let made = make_quote(&state, &code, body).await?;
    Ok(created(made))
}

/// The aggregator code whose key the request carries, compared in constant time over digests so
/// neither a key's content nor its length shows in the timing.
fn authenticate(state: &AppState, headers: &HeaderMap) -> Option<String> {
    let given = headers
        .get(AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))?;
    let given = Sha256::digest(given.trim().as_bytes());
    let mut found = None;
    for (code, key) in &state.config.aggregator_keys {
        let expected = Sha256::digest(key.0.as_bytes());
        if bool::from(given.ct_eq(&expected)) {
            found = Some(code.clone());
        }
    }
    found
}

/// A request field's problem, as the field errors of a 422.
fn field_error(field: &str, message: impl Into<String>) -> AppError {
    AppError::Validation(vec![FieldMessage {
        field: field.to_owned(),
        message: message.into(),
    }])
}

/// Runs the risk through the aggregator journey, stores the quote, and answers with its prices.
pub(super) async fn make_quote(
    state: &AppState,
    code: &str,
    mut body: Map<String, Value>,
) -> Result<Vec<u8>, AppError> {
    only_fields(&body, &FIELDS)?;
    let journey = state
        .defs
        .journey(JOURNEY)
        .ok_or_else(|| AppError::Internal("no aggregator journey is defined".into()))?;
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
        brand: brand_id.clone(),
        channel: Channel::Aggregator.as_str().to_owned(),
        journey: journey.id.clone(),
        definition_version: state.defs.version().to_owned(),
        lifecycle: Lifecycle::Active,
        document,
        row_version: 1,
        created_at: String::new(),
        updated_at: String::new(),
    };
    let voice = quote::voice(state, &row);
    let rules = quote::rule_context(state, &row);
    let step_of = |questions: &str| {
        journey
            .steps
            .iter()
            .find(|s| s.questions.as_deref() == Some(questions))
            .map(|s| s.id.clone())
            .ok_or_else(|| {
                AppError::Internal(format!("the aggregator journey asks no {questions}"))
            })
    };
    let pet_step = step_of("pet_details_aggregator")?;
    let crossbreed_step = step_of("crossbreed")?;
    let owner_step = step_of("your_details")?;

    let mut document = row.document.clone();
    let mut records: Vec<(TransitionRecord, i64)> = Vec::new();
    // Each event as the customer's pages would send it, with how the request names its fields.
    let mut queue: std::collections::VecDeque<(Event, &str, &str)> = [
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
    let mut crossbreed = crossbreed;
    let mut crossbreed_asked = false;
    while let Some((event, inner, outer)) = queue.pop_front() {
        let started = Instant::now();
        let result = runtime::transition(
            &state.defs,
            &journey.id,
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
        if result.position.furthest == crossbreed_step && !crossbreed_asked {
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
                channel: Channel::Aggregator.as_str(),
                journey: &journey.id,
                definition_version: state.defs.version(),
                document: &document,
            },
            &records,
        )
        .await?;
    tracing::info!(quote = %id, aggregator = %code, brand = %brand_id, "inbound aggregator quote");
    answer(
        state, &id, &quote_ref, &brand_id, code, &document, &products,
    )
}

/// `pets[0].pet_name` under the request's own name for the part (`crossbreed[0]…`,
/// `cover_start`).
fn rename_field(field: &str, inner: &str, outer: &str) -> String {
    match field.strip_prefix(inner) {
        Some(rest) => format!("{outer}{rest}"),
        None => field.to_owned(),
    }
}

/// The inbound quote's answer (its fields as the comparison sites' API names them).
#[derive(serde::Serialize)]
struct Made<'a> {
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
struct MadePet<'a> {
    pet: usize,
    pet_name: &'a Value,
    products: Vec<MadeProduct<'a>>,
}

#[derive(serde::Serialize)]
struct MadeProduct<'a> {
    code: &'a str,
    cover_type: &'static str,
    vet_fee_limit: &'a str,
    excess: &'a str,
    monthly: String,
    annual: String,
}

#[derive(serde::Serialize)]
struct Offer<'a> {
    code: &'a str,
    cover_type: &'static str,
    vet_fee_limit: &'a str,
    monthly: String,
    annual: String,
    click_through: String,
}

static NO_NAME: Value = Value::Null;

/// The prices: per pet, every product; per product offered to every pet, the total and the
/// click-through link. Written once, as JSON.
fn answer(
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

/// The inbound quote's answer as a response: 201 and its JSON.
fn created(body: Vec<u8>) -> Response {
    (
        StatusCode::CREATED,
        [(
            axum::http::header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        )],
        body,
    )
        .into_response()
}

/// What a click-through link carries, signed with the server's secret: the quote, the product
/// the customer chose on the comparison site, and when the link stops working.
struct ClickThrough {
    quote_id: String,
    product: String,
    expires: i64,
}

impl ClickThrough {
    const PURPOSE: &str = "click-through";

    fn sign(&self, secret: &crate::config::SecretKey) -> String {
        let payload = format!("{}.{}.{}", self.quote_id, self.product, self.expires);
        crate::signed::sign(secret, Self::PURPOSE, &payload)
    }

    /// The link's contents when its signature is ours; the expiry is the caller's to judge.
    fn verify(secret: &crate::config::SecretKey, token: &str) -> Option<Self> {
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

/// GET /aggregators/continue/{token}: a comparison site's click-through. The quote joins this
/// browser's session (a new one), the product the customer chose there becomes every pet's
/// cover (the choose-policy step, recorded like the page's own), and the customer lands on
/// review. A link that is not ours is the not-found page; an expired or used one, or one whose
/// quote is bought, goes to retrieve-quote, where the customer can still find the quote by its
/// reference and email.
pub(super) async fn click_through(
    State(state): State<AppState>,
    Path(token): Path<String>,
) -> Result<Response, AppError> {
    let Some(link) = ClickThrough::verify(&state.config.secret_key, &token) else {
        return Err(AppError::NotFound);
    };
    let redirect =
        |to: String, cookie: Option<String>| crate::http::answers::see_other(&to, cookie);
    let Some(found) = state.store.quote_by_id(&link.quote_id).await? else {
        return Err(AppError::NotFound);
    };
    let journey = quote::journey(&state, &found)?;
    let base = &journey.base_path;
    let brand = &found.brand;
    let retrieve = || redirect(format!("{base}/retrieve-quote?brand={brand}"), None);
    // Only a quote still to be bought opens, and each link once (issue 21): a bought quote
    // stays with the browser that bought it, and a link seen again (history, a forwarded
    // email) cannot move the quote to another browser. Either way the customer can still
    // retrieve the quote by its reference and email.
    if chrono::Utc::now().timestamp() > link.expires || found.lifecycle != Lifecycle::Active {
        return Ok(retrieve());
    }
    if !state.store.spend_link(&token, &found.id).await? {
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
    let rules = quote::rule_context(&state, &found);
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

/// POST /api/fakeaggs (test hosts only, `PAWPATH_TEST_MODE=1`; owner-payment.md §7 lists the
/// call): makes an inbound quote as comparison site `aggregator` (default ctm) would, without a
/// key, for QA and the browser tests. The body is the inbound request's, plus `aggregator`;
/// omitted parts take a sample risk (one dog, an owner who passes every rule, cover from
/// tomorrow). Answers as the inbound API does.
pub(super) async fn fake_aggregator(
    State(state): State<AppState>,
    JsonObject(mut body): JsonObject,
) -> Result<Response, AppError> {
    let code = match body.remove("aggregator") {
        None | Some(Value::Null) => "ctm".to_owned(),
        Some(Value::String(c)) if crate::config::AGGREGATOR_CODES.contains(&c.as_str()) => c,
        Some(_) => {
            return Err(field_error(
                "aggregator",
                format!(
                    "must be one of {}",
                    crate::config::AGGREGATOR_CODES.join(", ")
                ),
            ));
        }
    };
    for (field, sample) in sample_risk() {
        body.entry(field).or_insert(sample);
    }
    let made = make_quote(&state, &code, body).await?;
    Ok(created(made))
}

/// GET /api/fakeaggs?brand=&aggregator=&product=&email=&dob= (test hosts only): the sample risk made as an
/// inbound quote, then straight through its click-through link (the first offer, or `product`),
/// as a customer coming from a comparison site.
pub(super) async fn fake_aggregator_visit(
    State(state): State<AppState>,
    Query(query): Query<std::collections::HashMap<String, String>>,
) -> Result<Response, AppError> {
    let mut body: Map<String, Value> = sample_risk().into_iter().collect();
    let code = query
        .get("aggregator")
        .cloned()
        .unwrap_or_else(|| "ctm".into());
    if !crate::config::AGGREGATOR_CODES.contains(&code.as_str()) {
        return Err(field_error("aggregator", "is not an aggregator code"));
    }
    if let Some(brand) = query.get("brand") {
        body.insert("brand".into(), Value::from(brand.as_str()));
    }
    if let Some(email) = query.get("email") {
        body["owner"]["email_address"] = Value::from(email.as_str());
    }
    // A younger pet, for the date-of-birth confirmation (journey.md §4): its birth date as given.
    if let Some(dob) = query.get("dob") {
        body["pets"][0]["pet_date_of_birth"] = Value::from(dob.as_str());
    }
    let made: Value = serde_json::from_slice(&make_quote(&state, &code, body).await?)
        .map_err(|e| AppError::Internal(format!("inbound quote answer not read: {e}")))?;
    let offers = made["offers"].as_array().cloned().unwrap_or_default();
    let offer = match query.get("product") {
        Some(p) => offers.iter().find(|o| o["code"] == p.as_str()),
        None => offers.first(),
    }
    .ok_or_else(|| field_error("product", "is not one of the quote's offers"))?;
    let link = offer["click_through"].as_str().unwrap_or_default();
    let path = link
        .find("/aggregators/continue/")
        .map_or(link, |at| &link[at..]);
    let mut response = StatusCode::SEE_OTHER.into_response();
    if let Ok(v) = HeaderValue::from_str(path) {
        response.headers_mut().insert(LOCATION, v);
    }
    Ok(response)
}

/// A risk that passes every rule: one pedigree dog two years old, an owner of 40 in London,
/// cover from tomorrow.
fn sample_risk() -> Vec<(String, Value)> {
    let today = quote::uk_today();
    let born = today - chrono::Duration::days(730);
    vec![
        (
            "pets".into(),
            json!([{
                "pet_name": "Biscuit",
                "pet_type": "dog",
                "dog_breed_type": "breed",
                "pet_breed": "D173",
                "pet_date_of_birth": born.to_string(),
                "pet_sex": "f",
                "pet_neutered": "yes",
                "pet_microchipped": "yes",
                "pet_cost": "450.00",
            }]),
        ),
        (
            "owner".into(),
            json!({
                "customer_title": "Ms",
                "customer_first_name": "Ada",
                "customer_last_name": "Lovelace",
                "customer_date_of_birth": "1985-03-27",
                "email_address": "ada@example.com",
                "customer_contact_number": "01632960123",
                "houseNumberName": "12",
                "customer_address_line_1": "12 Kings Road",
                "customer_town": "London",
                "customer_postcode": "SW1A 1AA",
                "marketing_preferences": { "optin_email": false, "optin_post": false, "optin_sms": false, "optin_phone": false },
            }),
        ),
        (
            "cover_start".into(),
            Value::from((today + chrono::Duration::days(1)).to_string()),
        ),
    ]
}
