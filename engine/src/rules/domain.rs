//! Named domain rules: what no JSON Schema can state because it needs the breed data or today's
//! date. Written once, here, and named from journey definitions (`"rules": [...]`); the browser
//! meets them as field errors from the server.

use chrono::NaiveDate;
use serde_json::Value;

use crate::checks::compiled::Definitions;
use crate::definitions::schema::FieldError;
use crate::definitions::{Breed, Species};
use crate::rules::context::{RuleContext, months_between};

/// A rule over the whole quote document.
pub type DomainRule = fn(&Definitions, &Value, &RuleContext) -> Vec<FieldError>;

/// The named domain rules definitions may use.
pub fn domain_rule(name: &str) -> Option<DomainRule> {
    match name {
        "pet_age_window" => Some(pet_age_window),
        "pet_breed_eligibility" => Some(pet_breed_eligibility),
        "start_date_window" => Some(start_date_in_window),
        "assumptions_ticked" => Some(assumptions_ticked),
        "owner_age" => Some(owner_age),
        "promo_code_valid" => Some(promo_code_valid),
        "cover_chosen" => Some(cover_chosen),
        "cover_offered" => Some(cover_offered),
        "bank_details_valid" => Some(bank_details_valid),
        "payment_method_offered" => Some(payment_method_offered),
        "pet_species_offered" => Some(pet_species_offered),
        "rehoming_centre_known" => Some(rehoming_centre_known),
        "rehome_date_window" => Some(rehome_date_window),
        "rehoming_pet_age" => Some(rehoming_pet_age),
        "saved_dob_matches" => Some(saved_dob_matches),
        _ => None,
    }
}

/// Days old a pet must be at cover start: 26, or 56 once it has products (journey.md §5 Age rule).
const MIN_AGE_DAYS: i64 = 26;
const MIN_AGE_DAYS_WITH_PRODUCTS: i64 = 56;

/// The common maxima of journey.md §5 when a pet's breed is not known yet.
fn species_max_months(species: Option<Species>) -> u32 {
    match species {
        Some(Species::Cat) => 120,
        Some(Species::Rabbit) => 60,
        _ => 96,
    }
}

fn pets(document: &Value) -> impl Iterator<Item = (usize, &Value)> {
    document
        .get("pets")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
}

fn str_of<'a>(pet: &'a Value, field: &str) -> Option<&'a str> {
    pet.get(field)
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
}

/// The breed a pet names, if it names a real one of its own species.
pub fn breed_of<'d>(defs: &'d Definitions, pet: &Value) -> Option<&'d Breed> {
    let species = str_of(pet, "pet_type").and_then(Species::parse)?;
    defs.breed(str_of(pet, "pet_breed")?)
        .filter(|b| b.species == species)
}

/// Fields the server owns, derived after every change to the pets, so that guards over the
/// document can see them: `id`, the pet's 1-based position (journey.md §3); `original_id`, given
/// once and kept through removals; and from the breed data `petBreedName` and `breed_category`
/// (which decides the crossbreed confirmation). A pet without a known breed has neither.
pub fn derive_pet_fields(defs: &Definitions, document: &mut Value) {
    let Some(pets) = document.get_mut("pets").and_then(Value::as_array_mut) else {
        return;
    };
    let mut next_original = pets
        .iter()
        .filter_map(|p| p.get("original_id").and_then(Value::as_u64))
        .max()
        .unwrap_or(0)
        + 1;
    for (i, pet) in pets.iter_mut().enumerate() {
        let breed = breed_of(defs, pet).map(|b| (b.desc.clone(), b.category.clone()));
        let Some(map) = pet.as_object_mut() else {
            continue;
        };
        map.insert("id".into(), Value::from(i + 1));
        if !map.get("original_id").is_some_and(Value::is_u64) {
            map.insert("original_id".into(), Value::from(next_original));
            next_original += 1;
        }
        match breed {
            Some((desc, category)) => {
                map.insert("petBreedName".into(), Value::String(desc));
                map.insert("breed_category".into(), Value::String(category));
            }
            None => {
                map.remove("petBreedName");
                map.remove("breed_category");
            }
        }
    }
}

/// The underwriting referral code for a pet whose owner reports an injury or illness: the
/// pre-existing conditions prompt follows it (journey.md §4 Assumptions and health questions).
pub const REFER_PRE_EXISTING: &str = "RA008";

/// Fields the server owns over the whole quote, derived after every change: each pet's
/// `refer_code` (RA008 while its owner answers yes to injury or illness, none otherwise; the
/// rating engine may refer for other reasons later), and the cover start date lifted to the
/// earliest allowed when it falls before it (journey.md §4 Policy start date: "A chosen date
/// earlier than the minimum is lifted to the minimum").
pub fn derive_quote_fields(defs: &Definitions, document: &mut Value, ctx: &RuleContext) {
    if let Some(owner) = document.get_mut("owner").and_then(Value::as_object_mut) {
        normalise_owner(owner);
    }
    if let Some(payment) = document.get_mut("payment").and_then(Value::as_object_mut) {
        normalise_payment(payment);
    }
    let currency = defs.brand(&ctx.brand).map(|b| b.currency);
    if let Some(pets) = document.get_mut("pets").and_then(Value::as_array_mut) {
        for pet in pets.iter_mut().filter_map(Value::as_object_mut) {
            if let (Some(currency), Some(Value::String(cost))) = (currency, pet.get_mut("pet_cost"))
                && let Some(amount) = without_currency(cost, currency)
            {
                *cost = amount;
            }
            derive_vet_fields(pet);
            let ill = pet.get("pet_any_injury_illness").and_then(Value::as_str) == Some("yes");
            if ill {
                pet.insert("refer_code".into(), Value::from(REFER_PRE_EXISTING));
            } else if pet.get("refer_code").and_then(Value::as_str) == Some(REFER_PRE_EXISTING) {
                pet.remove("refer_code");
            }
        }
    }
    let stored = document
        .pointer("/owner/pet_policy_start_date")
        .and_then(Value::as_str)
        .and_then(|s| NaiveDate::parse_from_str(s, "%Y-%m-%d").ok());
    if let Some(stored) = stored {
        let window = start_date_window(defs, document, ctx.today, &ctx.brand);
        if stored < window.earliest
            && let Some(owner) = document.get_mut("owner").and_then(Value::as_object_mut)
        {
            owner.insert(
                "pet_policy_start_date".into(),
                Value::from(window.earliest.format("%Y-%m-%d").to_string()),
            );
        }
    }
}

/// owner-payment.md §5 Payment and issue 25: the sort code in any form the bank check takes
/// ("089999", "08 99 99") is stored as the spec writes it ("08-99-99"), and the account number
/// without spaces; anything else is left as typed, for the schema to name.
fn normalise_payment(payment: &mut serde_json::Map<String, Value>) {
    if let Some(Value::String(s)) = payment.get_mut("sort_code")
        && let Some(dashed) = crate::rules::modulus::sort_code_dashed(s)
    {
        *s = dashed;
    }
    if let Some(Value::String(s)) = payment.get_mut("account_number")
        && let Some(digits) = crate::rules::modulus::account_digits(s)
    {
        *s = digits;
    }
}

/// journey.md §3 Pet: "pet_cost (may carry a currency prefix)" (issue 25): the brand's own
/// symbol, before or after the amount ("£250", "250 €"), is dropped and the number kept, as the
/// page does before sending. Another currency's symbol is left as typed, for the schema to name.
pub fn without_currency(typed: &str, currency: crate::definitions::Currency) -> Option<String> {
    let symbol = match currency {
        crate::definitions::Currency::Gbp => '£',
        crate::definitions::Currency::Eur => '€',
    };
    let trimmed = typed.trim_matches(|c: char| c.is_whitespace());
    let rest = trimmed
        .strip_prefix(symbol)
        .or_else(|| trimmed.strip_suffix(symbol))?;
    Some(rest.trim_matches(|c: char| c.is_whitespace()).to_owned())
}

/// owner-payment.md §5 Owner: names and the phone number trimmed, the email trimmed and
/// lower-cased, a valid postcode formatted (upper case, one space before the last three
/// characters). An invalid postcode is left as typed, for the schema to name.
fn normalise_owner(owner: &mut serde_json::Map<String, Value>) {
    for field in [
        "customer_first_name",
        "customer_last_name",
        "customer_contact_number",
        "houseNumberName",
        "customer_address_line_1",
        "customer_address_line_2",
        "customer_town",
        "customer_county",
        "introducer_code",
    ] {
        if let Some(Value::String(s)) = owner.get_mut(field) {
            *s = s.trim().to_owned();
        }
    }
    if let Some(Value::String(s)) = owner.get_mut("promotional_code") {
        *s = s.trim().to_uppercase();
    }
    if let Some(Value::String(s)) = owner.get_mut("email_address") {
        *s = s.trim().to_lowercase();
    }
    if let Some(Value::String(s)) = owner.get_mut("customer_contact_number")
        && let Some(digits) = phone_digits(s)
    {
        *s = digits;
    }
    if let Some(Value::String(s)) = owner.get_mut("customer_postcode")
        && let Some(postcode) = crate::definitions::postcode::Postcode::parse(s)
    {
        *s = postcode.to_string();
    }
}

/// A phone number as people write it, as the digits the spec's rules are about (owner-payment.md
/// §5 Owner: digits only, 9 to 12, starting 0; issue 24): spaces, hyphens, dots and brackets
/// dropped, and the UK's +44 or 0044 (with or without a "(0)" after it) written as the leading 0.
/// `None` (left as typed, for the schema to name) when anything else is in it.
pub fn phone_digits(typed: &str) -> Option<String> {
    let compact: String = typed
        .chars()
        .filter(|c| !matches!(c, ' ' | '\u{a0}' | '-' | '.' | '(' | ')'))
        .collect();
    let international = compact
        .strip_prefix("+44")
        .or_else(|| compact.strip_prefix("0044"));
    let national = match international {
        // "+44 (0)7700 900123": the bracketed 0 is the national prefix, written once.
        Some(rest) => format!("0{}", rest.strip_prefix('0').unwrap_or(rest)),
        None => compact,
    };
    (!national.is_empty() && national.bytes().all(|b| b.is_ascii_digit())).then_some(national)
}

/// owner-payment.md §5 Owner: the policy holder is at least 18 today ("You must be 18 years old
/// or over to buy a policy") and at most 120 ("The maximum age for a policy holder is 120
/// years").
fn owner_age(_defs: &Definitions, document: &Value, ctx: &RuleContext) -> Vec<FieldError> {
    let Some(dob) = document
        .pointer("/owner/customer_date_of_birth")
        .and_then(Value::as_str)
        .and_then(|s| NaiveDate::parse_from_str(s, "%Y-%m-%d").ok())
    else {
        return Vec::new();
    };
    let field = "owner.customer_date_of_birth";
    let years = months_between(dob, ctx.today).div_euclid(12);
    if dob > ctx.today || years < 18 {
        vec![FieldError::new(field, "owner.dob.too_young")]
    } else if years > 120 {
        vec![FieldError::new(field, "owner.dob.too_old")]
    } else {
        Vec::new()
    }
}

/// The species of the pets on the quote.
pub fn species_on_quote(document: &Value) -> Vec<Species> {
    pets(document)
        .filter_map(|(_, p)| str_of(p, "pet_type").and_then(Species::parse))
        .collect()
}

/// owner-payment.md §4 Promo code: the promotion a typed code names, if it runs on this brand,
/// today (UK time), for one of these species.
pub fn promo_offer<'d>(
    defs: &'d Definitions,
    typed: &str,
    brand: &str,
    species: &[Species],
    today: NaiveDate,
) -> Option<&'d crate::definitions::PromoCode> {
    defs.promo_code(typed).filter(|p| {
        p.brands.iter().any(|b| b == brand)
            && p.valid_from <= today
            && today <= p.valid_to
            && p.species.iter().any(|s| species.contains(s))
    })
}

/// The prefix every Nectar card number starts with; customers type the 11 digits after it
/// (owner-payment.md §5 Promo and loyalty).
pub const NECTAR_PREFIX: &str = "98263000";

/// A Nectar card's last 11 digits: digits only, and the whole card number (prefix included)
/// passes the Luhn check its check digit is made for.
pub fn nectar_number_valid(last_digits: &str) -> bool {
    if last_digits.len() != 11 || !last_digits.bytes().all(|b| b.is_ascii_digit()) {
        return false;
    }
    luhn_valid(&format!("{NECTAR_PREFIX}{last_digits}"))
}

/// The Luhn (mod 10) check that card numbers pass: a Nectar card's (owner-payment.md §5 Promo
/// and loyalty) and a payment card's (§5 Payment, checked by the payment provider).
pub fn luhn_valid(digits: &str) -> bool {
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return false;
    }
    let sum: u32 = digits
        .bytes()
        .rev()
        .enumerate()
        .map(|(i, b)| {
            let d = u32::from(b - b'0');
            if i % 2 == 1 {
                let twice = d * 2;
                if twice > 9 { twice - 9 } else { twice }
            } else {
                d
            }
        })
        .sum();
    sum.is_multiple_of(10)
}

/// owner-payment.md §4 Promo code, §5 Promo and loyalty: a promo code kept on the owner runs on
/// this brand, today, for a pet on the quote ("Sorry, this code is not valid"); a Nectar
/// promotion needs a valid Nectar card number.
fn promo_code_valid(defs: &Definitions, document: &Value, ctx: &RuleContext) -> Vec<FieldError> {
    let mut errors = Vec::new();
    let nectar = document
        .pointer("/owner/nectarCardNumber")
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty());
    if let Some(n) = nectar
        && !nectar_number_valid(n)
    {
        errors.push(FieldError::new("owner.nectarCardNumber", "nectar.invalid"));
    }
    let Some(code) = document
        .pointer("/owner/promotional_code")
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
    else {
        return errors;
    };
    match promo_offer(
        defs,
        code,
        &ctx.brand,
        &species_on_quote(document),
        ctx.today,
    ) {
        None => errors.insert(
            0,
            FieldError::new("owner.promotional_code", "promo.invalid"),
        ),
        Some(p) if p.nectar && nectar.is_none() => {
            errors.push(FieldError::new("owner.nectarCardNumber", "nectar.invalid"));
        }
        Some(_) => {}
    }
    errors
}

/// owner-payment.md §3 Vet and §4 Pre-existing conditions: a vet_name of notFound sets
/// provide_vet_later; a vet provided later has no address or id (journey.md §4: "vet address
/// fields are blanked if the vet is provided later").
fn derive_vet_fields(pet: &mut serde_json::Map<String, Value>) {
    if pet.get("vet_name").and_then(Value::as_str) == Some("notFound") {
        pet.insert("provide_vet_later".into(), Value::Bool(true));
    }
    if pet.get("provide_vet_later").and_then(Value::as_bool) == Some(true) {
        pet.insert("vet_name".into(), Value::from("notFound"));
        for field in [
            "vet_id",
            "vet_address_line_1",
            "vet_address_line_2",
            "vet_town",
            "vet_county",
            "vet_postcode",
        ] {
            pet.remove(field);
        }
    }
}

/// journey.md §2 Assumptions and §5: on the assumptions page every pet's tick "Yes, they're
/// correct" must be given ("Please confirm the assumptions are correct"). The edit modal saves
/// the same questions without it, so the question set cannot require it; the step does.
fn assumptions_ticked(
    _defs: &Definitions,
    document: &Value,
    _ctx: &RuleContext,
) -> Vec<FieldError> {
    pets(document)
        .filter(|(_, pet)| pet.get("assumptions_correct").and_then(Value::as_bool) != Some(true))
        .map(|(i, _)| {
            FieldError::new(
                format!("pets[{i}].assumptions_correct"),
                "assumptions.confirm.required",
            )
        })
        .collect()
}

/// journey.md §4 Policy start date: the stored date is within the window (it is lifted to the
/// earliest before this runs, so only a date after the latest fails).
fn start_date_in_window(
    defs: &Definitions,
    document: &Value,
    ctx: &RuleContext,
) -> Vec<FieldError> {
    let Some(stored) = document
        .pointer("/owner/pet_policy_start_date")
        .and_then(Value::as_str)
        .and_then(|s| NaiveDate::parse_from_str(s, "%Y-%m-%d").ok())
    else {
        return Vec::new();
    };
    let window = start_date_window(defs, document, ctx.today, &ctx.brand);
    if stored > window.latest || stored < window.earliest {
        vec![FieldError::new(
            "owner.pet_policy_start_date",
            "start_date.invalid",
        )]
    } else {
        Vec::new()
    }
}

/// journey.md §4 Policy start date: the dates cover may start on, and which of today, tomorrow
/// and other the start-date question offers.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct StartDateWindow {
    /// The latest pet date of birth plus 56 days, but not before today.
    pub earliest: NaiveDate,
    /// 30 days ahead, or earlier if a pet would reach its breed's maximum age first.
    pub latest: NaiveDate,
    /// `today` when the earliest is not after today; `tomorrow` when the earliest is not after
    /// tomorrow and the latest is on or after it; `other` when the latest is after tomorrow.
    pub options: Vec<&'static str>,
    /// The stored start date, lifted to the earliest if it is before it (today if none).
    pub chosen: NaiveDate,
    /// Which option the chosen date is.
    pub chosen_option: &'static str,
    /// Today and tomorrow in UK time, the dates the first two options stand for.
    pub today: NaiveDate,
    pub tomorrow: NaiveDate,
}

/// Days after the latest date of birth before cover can start (8 weeks).
const START_AFTER_BIRTH_DAYS: i64 = 56;
/// How far ahead cover can start.
const START_WINDOW_DAYS: i64 = 30;

pub fn start_date_window(
    defs: &Definitions,
    document: &Value,
    today: NaiveDate,
    brand: &str,
) -> StartDateWindow {
    let births: Vec<(NaiveDate, u32)> = pets(document)
        .filter_map(|(_, pet)| {
            let dob =
                NaiveDate::parse_from_str(str_of(pet, "pet_date_of_birth")?, "%Y-%m-%d").ok()?;
            Some((dob, max_age_months(defs, pet, brand)))
        })
        .collect();
    let earliest = births
        .iter()
        .map(|(dob, _)| *dob + chrono::Duration::days(START_AFTER_BIRTH_DAYS))
        .max()
        .map_or(today, |d| d.max(today));
    // The day before a pet reaches its maximum age is the last day it can start.
    let by_age = births
        .iter()
        .filter_map(|(dob, max)| dob.checked_add_months(chrono::Months::new(*max)))
        .map(|d| d - chrono::Duration::days(1))
        .min();
    let ahead = today + chrono::Duration::days(START_WINDOW_DAYS);
    let latest = by_age.map_or(ahead, |d| d.min(ahead));
    let tomorrow = today + chrono::Duration::days(1);
    let mut options = Vec::new();
    if earliest <= today {
        options.push("today");
    }
    if earliest <= tomorrow && latest >= tomorrow {
        options.push("tomorrow");
    }
    if latest > tomorrow {
        options.push("other");
    }
    let stored = document
        .pointer("/owner/pet_policy_start_date")
        .and_then(Value::as_str)
        .and_then(|s| NaiveDate::parse_from_str(s, "%Y-%m-%d").ok())
        .unwrap_or(today);
    let chosen = stored.max(earliest);
    let chosen_option = if chosen == today {
        "today"
    } else if chosen == tomorrow {
        "tomorrow"
    } else {
        "other"
    };
    StartDateWindow {
        earliest,
        latest,
        options,
        chosen,
        chosen_option,
        today,
        tomorrow,
    }
}

/// The date cover starts: the owner's chosen date, else today.
pub fn cover_start(document: &Value, ctx: &RuleContext) -> NaiveDate {
    document
        .pointer("/owner/pet_policy_start_date")
        .and_then(Value::as_str)
        .and_then(|s| NaiveDate::parse_from_str(s, "%Y-%m-%d").ok())
        .unwrap_or(ctx.today)
}

/// journey.md §5 Age rule: at cover start the pet is at least 26 days old (56 once it has
/// products) and younger than its breed's max_age_mths / 12 years, the maximum age named in
/// the message.
fn pet_age_window(defs: &Definitions, document: &Value, ctx: &RuleContext) -> Vec<FieldError> {
    let start = cover_start(document, ctx);
    let mut errors = Vec::new();
    for (i, pet) in pets(document) {
        let Some(dob) = str_of(pet, "pet_date_of_birth")
            .and_then(|s| NaiveDate::parse_from_str(s, "%Y-%m-%d").ok())
        else {
            continue;
        };
        let field = format!("pets[{i}].pet_date_of_birth");
        let has_product = pet.get("product").is_some_and(|p| !p.is_null());
        let min_days = if has_product {
            MIN_AGE_DAYS_WITH_PRODUCTS
        } else {
            MIN_AGE_DAYS
        };
        if (start - dob).num_days() < min_days {
            errors.push(FieldError::new(field, "pet.dob.too_young"));
            continue;
        }
        let max_months = max_age_months(defs, pet, &ctx.brand);
        if months_between(dob, start) >= i64::from(max_months) {
            errors.push(
                FieldError::new(field, "pet.dob.too_old")
                    .with_param("maxAge", format_years(max_months)),
            );
        }
    }
    errors
}

/// The age in months a pet must be younger than at cover start (journey.md §5, §9 Maximum pet
/// age): the brand's own maximum where it sets one (ptp: 833.25 years), else the breed's
/// max_age_mths, else the species' usual maximum.
fn max_age_months(defs: &Definitions, pet: &Value, brand: &str) -> u32 {
    if let Some(months) = defs.brand(brand).and_then(|b| b.max_pet_age_months) {
        return months;
    }
    let species = str_of(pet, "pet_type").and_then(Species::parse);
    breed_of(defs, pet).map_or_else(|| species_max_months(species), |b| b.max_age_mths)
}

/// journey.md §1 "Rabbits are offered in some brand variants only": each pet is a species the
/// quote's brand insures (journeys/brands: species). A brand the definitions do not know
/// insures dogs and cats.
fn pet_species_offered(defs: &Definitions, document: &Value, ctx: &RuleContext) -> Vec<FieldError> {
    let brand = defs.brand(&ctx.brand);
    pets(document)
        .filter_map(|(i, pet)| {
            let species = Species::parse(str_of(pet, "pet_type")?)?;
            let offered = match brand {
                Some(b) => b.offers(species),
                None => species != Species::Rabbit,
            };
            (!offered)
                .then(|| FieldError::new(format!("pets[{i}].pet_type"), "pet.type.not_offered"))
        })
        .collect()
}

/// The rehoming flow's centre (journeys/rehoming-centres.json): one the quote's brand works with.
fn rehoming_centre_known(
    defs: &Definitions,
    document: &Value,
    ctx: &RuleContext,
) -> Vec<FieldError> {
    let Some(centre) = document.pointer("/rehoming/centre").and_then(Value::as_str) else {
        return Vec::new();
    };
    if defs
        .rehoming_centres(&ctx.brand)
        .iter()
        .any(|c| c.id == centre)
    {
        Vec::new()
    } else {
        vec![FieldError::new(
            "rehoming.centre",
            "rehoming.centre.unknown",
        )]
    }
}

/// The day the pet came home: not after today (UK time), and no more than the cover's
/// activation days before it (journeys/rehoming-centres.json: cover.activation_days).
fn rehome_date_window(defs: &Definitions, document: &Value, ctx: &RuleContext) -> Vec<FieldError> {
    let Some(day) = document
        .pointer("/rehoming/rehome_date")
        .and_then(Value::as_str)
        .and_then(|s| NaiveDate::parse_from_str(s, "%Y-%m-%d").ok())
    else {
        return Vec::new();
    };
    let field = "rehoming.rehome_date";
    if day > ctx.today {
        return vec![FieldError::new(field, "rehoming.date.future")];
    }
    let days = defs.rehoming().map_or(0, |r| r.cover.activation_days);
    if (ctx.today - day).num_days() > i64::from(days) {
        return vec![
            FieldError::new(field, "rehoming.date.too_late").with_param("days", days.to_string()),
        ];
    }
    Vec::new()
}

/// journey.md §5 Age rule: on rehoming the pet must be at least 56 days (8 weeks) old on the day
/// the free cover starts, which is the day it is activated (today). The free cover has no upper
/// age: it is the rescue's pet whatever its age.
fn rehoming_pet_age(_: &Definitions, document: &Value, ctx: &RuleContext) -> Vec<FieldError> {
    pets(document)
        .filter_map(|(i, pet)| {
            let dob = str_of(pet, "pet_date_of_birth")
                .and_then(|s| NaiveDate::parse_from_str(s, "%Y-%m-%d").ok())?;
            ((ctx.today - dob).num_days() < MIN_AGE_DAYS_WITH_PRODUCTS).then(|| {
                FieldError::new(format!("pets[{i}].pet_date_of_birth"), "pet.dob.too_young")
            })
        })
        .collect()
}

/// journey.md §4: a confirmed date of birth (saved_dob) is the date held for the pet; a stale or
/// different one is refused, so the prompt shows again after the date changes.
fn saved_dob_matches(_: &Definitions, document: &Value, _: &RuleContext) -> Vec<FieldError> {
    pets(document)
        .filter_map(|(i, pet)| {
            let saved = str_of(pet, "saved_dob")?;
            (Some(saved) != str_of(pet, "pet_date_of_birth")).then(|| {
                FieldError::new(format!("pets[{i}].saved_dob"), "pet.dob.confirm_mismatch")
            })
        })
        .collect()
}

fn format_years(months: u32) -> String {
    if months.is_multiple_of(12) {
        (months / 12).to_string()
    } else {
        let hundredths = u64::from(months) * 100 / 12;
        format!("{}.{:02}", hundredths / 100, hundredths % 100)
    }
}

/// journey.md §3 and §4 Pet details: the breed is a real, active breed of the pet's species and
/// of the type chosen (a cat or rabbit type, or a mongrel size, is its own breed); a banned breed
/// cannot be insured; an at-risk dog must answer the XL Bully question, and "yes" cannot be
/// insured.
fn pet_breed_eligibility(
    defs: &Definitions,
    document: &Value,
    _ctx: &RuleContext,
) -> Vec<FieldError> {
    let mut errors = Vec::new();
    for (i, pet) in pets(document) {
        let Some(species) = str_of(pet, "pet_type").and_then(Species::parse) else {
            continue;
        };
        let Some(breed_id) = str_of(pet, "pet_breed") else {
            continue;
        };
        let field = format!("pets[{i}].pet_breed");
        let Some(breed) = defs
            .breed(breed_id)
            .filter(|b| b.species == species && b.active)
        else {
            errors.push(FieldError::new(field, "pet.breed.unknown"));
            continue;
        };
        let fits_type = match species {
            Species::Dog => match str_of(pet, "dog_breed_type") {
                Some("mongrel") => {
                    str_of(pet, "mongrel_size") == Some(breed_id) && breed.breed_type == "mongrel"
                }
                Some(kind) => breed.breed_type == kind,
                None => true,
            },
            Species::Cat => match str_of(pet, "cat_breed_type") {
                Some("pedigree") => breed.breed_type == "pedigree",
                Some(kind) => kind == breed_id,
                None => true,
            },
            Species::Rabbit => match str_of(pet, "rabbit_breed_type") {
                Some("other") => breed.breed_type == "other",
                Some(kind) => kind == breed_id,
                None => true,
            },
        };
        if !fits_type {
            errors.push(FieldError::new(field, "pet.breed.unknown"));
            continue;
        }
        if breed.exclude {
            errors.push(FieldError::new(field, "pet.breed.excluded"));
            continue;
        }
        if species == Species::Dog && breed.at_risk {
            let xl = format!("pets[{i}].xl_bully_at_risk");
            match str_of(pet, "xl_bully_at_risk") {
                None => errors.push(FieldError::new(xl, "error.required")),
                Some("yes") => errors.push(FieldError::new(xl, "pet.xl_bully.refused")),
                Some(_) => {}
            }
        }
    }
    errors
}

/// journey.md §4 Cover selection: "Asking to proceed with no product chosen shows: Please choose
/// a product type before progressing to choose a cover level." Every pet needs one.
fn cover_chosen(_defs: &Definitions, document: &Value, _ctx: &RuleContext) -> Vec<FieldError> {
    pets(document)
        .filter(|(_, pet)| {
            pet.pointer("/product/Code")
                .and_then(Value::as_str)
                .is_none()
        })
        .map(|(i, _)| FieldError::new(format!("pets[{i}].product.Code"), "cover.no_product"))
        .collect()
}

/// journey.md §4 Cover selection, §9: a pet's chosen product, set excess and claim contribution
/// are among those the rate table offers its species (a rabbit only Lifetime, up to £4,000;
/// co-insurance not on the products that go without it). Runs after the quote is priced, so a
/// chosen code the pet is not offered is the bare code left unpriced.
fn cover_offered(defs: &Definitions, document: &Value, ctx: &RuleContext) -> Vec<FieldError> {
    let Some(rates) = defs.rates_for(ctx.rate_scheme.as_deref()) else {
        return Vec::new();
    };
    let mut errors = Vec::new();
    for (i, pet) in pets(document) {
        let species = str_of(pet, "pet_type").and_then(Species::parse);
        if let Some(product) = pet.get("product")
            && product.get("RecurringMonthly").is_none()
        {
            errors.push(FieldError::new(
                format!("pets[{i}].product.Code"),
                "cover.product.not_offered",
            ));
        }
        // The claim contribution, as a fraction: one of the rate table's (or its scheme's)
        // percentages; none at all is always allowed (products without co-insurance ignore it).
        if let Some(fraction) = pet
            .get("set_coins")
            .and_then(crate::definitions::money::decimal_of)
        {
            let percent = (fraction * rust_decimal::Decimal::from(100)).normalize();
            if !percent.is_zero() && !rates.coinsurance.options.contains_key(&percent.to_string()) {
                errors.push(FieldError::new(
                    format!("pets[{i}].set_coins"),
                    "cover.excess.not_offered",
                ));
            }
        }
        if let Some(excess) = pet
            .get("set_excess")
            .and_then(crate::definitions::money::decimal_of)
        {
            let offered = species
                .and_then(|s| rates.excess.get(&s))
                .is_some_and(|o| o.options.contains_key(&excess.normalize().to_string()));
            if !offered {
                errors.push(FieldError::new(
                    format!("pets[{i}].set_excess"),
                    "cover.excess.not_offered",
                ));
            }
        }
    }
    errors
}

/// owner-payment.md §4 Bank validation, §8: the sort code and account number pass Vocalink's
/// modulus checks ("You've entered an invalid bank account number and/or sort code. Please check
/// and try again."). Details the tables cannot check are accepted, as Vocalink says. Runs on the
/// answers as submitted: the account number is write-only, never in a stored document.
fn bank_details_valid(_defs: &Definitions, document: &Value, ctx: &RuleContext) -> Vec<FieldError> {
    let (Some(sort_code), Some(account)) = (
        document
            .pointer("/payment/sort_code")
            .and_then(Value::as_str),
        document
            .pointer("/payment/account_number")
            .and_then(Value::as_str),
    ) else {
        return Vec::new();
    };
    let Some(tables) = &ctx.bank else {
        return Vec::new();
    };
    match tables.check(sort_code, account) {
        Ok(outcome) if outcome.accepted() => Vec::new(),
        _ => vec![FieldError::new(
            "payment.account_number",
            "payment.bank.invalid",
        )],
    }
}

/// owner-payment.md §1 "Direct Debit, or card where offered", §3 payment_method: the method
/// chosen is one the quote's brand takes (journeys/brands). A brand the definitions do not know
/// takes Direct Debit only.
fn payment_method_offered(
    defs: &Definitions,
    document: &Value,
    ctx: &RuleContext,
) -> Vec<FieldError> {
    let Some(chosen) = document
        .pointer("/payment/payment_method")
        .and_then(Value::as_str)
    else {
        return Vec::new();
    };
    let offered = match defs.brand(&ctx.brand) {
        Some(brand) => brand.payment_methods.iter().any(|m| m.code() == chosen),
        None => chosen == crate::definitions::PaymentMethod::DirectDebit.code(),
    };
    if offered {
        Vec::new()
    } else {
        vec![FieldError::new(
            "payment.payment_method",
            "payment.method.not_offered",
        )]
    }
}

#[cfg(test)]
mod tests {
    /// The lint knows the domain rules by name (definitions/vocabulary.rs); each name is a rule
    /// here, and no rule here is missing from the names.
    #[test]
    fn every_named_rule_is_a_rule_and_every_rule_is_named() {
        use crate::definitions::vocabulary::DOMAIN_RULES;
        for name in DOMAIN_RULES {
            assert!(
                super::domain_rule(name).is_some(),
                "{name} is named but not a rule"
            );
        }
        let source = include_str!("domain.rs");
        let listed = source
            .split("pub fn domain_rule(name: &str)")
            .nth(1)
            .and_then(|rest| rest.split("_ => None").next())
            .expect("the match of domain_rule");
        let arms = listed.matches("\" => Some(").count();
        assert_eq!(arms, DOMAIN_RULES.len(), "a rule is not in DOMAIN_RULES");
    }

    /// owner-payment.md §5 Owner (phone: digits only, 9 to 12, starting 0) and issue 24: numbers
    /// as people type them are the digits the rules are about; anything else is left for the
    /// schema to refuse. The table the renderer's tests read too.
    #[test]
    fn phone_numbers_as_people_type_them_become_their_digits() {
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/phones.json");
        let table: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(path).expect("table")).expect("json");
        for pair in table["valid"].as_array().expect("valid") {
            let (typed, digits) = (
                pair[0].as_str().expect("typed"),
                pair[1].as_str().expect("digits"),
            );
            assert_eq!(phone_digits(typed).as_deref(), Some(digits), "{typed:?}");
        }
        for typed in table["invalid"].as_array().expect("invalid") {
            let typed = typed.as_str().expect("typed");
            assert_eq!(phone_digits(typed), None, "{typed:?}");
        }
    }

    #[test]
    fn a_pet_cost_loses_the_brands_currency_symbol_only() {
        use crate::definitions::Currency;
        assert_eq!(
            without_currency("£250", Currency::Gbp).as_deref(),
            Some("250")
        );
        assert_eq!(
            without_currency(" £ 99.50 ", Currency::Gbp).as_deref(),
            Some("99.50")
        );
        assert_eq!(
            without_currency("250 €", Currency::Eur).as_deref(),
            Some("250")
        );
        assert_eq!(
            without_currency("€250", Currency::Eur).as_deref(),
            Some("250")
        );
        assert_eq!(without_currency("250", Currency::Gbp), None);
        assert_eq!(without_currency("€250", Currency::Gbp), None);
        assert_eq!(without_currency("$250", Currency::Gbp), None);
    }
    use super::format_years;
    use super::*;
    use serde_json::json;

    fn defs() -> Definitions {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        Definitions::load(&crate::definitions::FsLoader::new(root)).expect("repository definitions")
    }

    fn d(s: &str) -> NaiveDate {
        NaiveDate::parse_from_str(s, "%Y-%m-%d").expect("date")
    }

    fn doc(pets: serde_json::Value, start: Option<&str>) -> Value {
        json!({ "pets": pets, "owner": start.map_or(json!({}), |s| json!({ "pet_policy_start_date": s })) })
    }

    fn ctx(brand: &str) -> RuleContext {
        RuleContext {
            today: d("2026-11-23"),
            brand: brand.into(),
            bank: None,
            rate_scheme: None,
        }
    }

    /// journey.md §1 "Rabbits are offered in some brand variants only" (journeys/brands:
    /// species): pos insures rabbits, sbp does not; dogs and cats everywhere.
    #[test]
    fn rabbits_only_on_brands_that_insure_them() {
        let defs = defs();
        let pets = doc(
            json!([{ "pet_type": "dog" }, { "pet_type": "rabbit" }]),
            None,
        );
        assert!(pet_species_offered(&defs, &pets, &ctx("pos")).is_empty());
        let refused = pet_species_offered(&defs, &pets, &ctx("sbp"));
        assert_eq!(refused.len(), 1);
        assert_eq!(refused[0].field, "pets[1].pet_type");
        assert_eq!(
            defs.voice("sbp", "en-GB").message(&refused[0]),
            "Sorry, we are unable to insure this type of pet."
        );
    }

    /// journey.md §5 Age rule, §9 Maximum pet age: the breed's maximum on most brands; brand ptp
    /// uses 833.25 years, and its message names that age.
    #[test]
    fn ptp_insures_pets_up_to_833_25_years() {
        let defs = defs();
        let labrador = defs
            .breed_file(Species::Dog)
            .and_then(|f| {
                f.lists()
                    .into_iter()
                    .flat_map(|(_, l)| l.iter())
                    .find(|b| b.max_age_mths == 96)
                    .cloned()
            })
            .expect("a dog breed with the usual 96 months");
        let old_dog = doc(
            json!([{ "pet_type": "dog", "pet_breed": labrador.id, "pet_date_of_birth": "2015-01-01" }]),
            Some("2026-11-23"),
        );
        let refused = pet_age_window(&defs, &old_dog, &ctx("pos"));
        assert_eq!(refused.len(), 1);
        assert_eq!(refused[0].key, "pet.dob.too_old");
        assert!(pet_age_window(&defs, &old_dog, &ctx("ptp")).is_empty());
        let ancient = doc(
            json!([{ "pet_type": "dog", "pet_breed": labrador.id, "pet_date_of_birth": "1190-01-01" }]),
            Some("2026-11-23"),
        );
        let refused = pet_age_window(&defs, &ancient, &ctx("ptp"));
        assert_eq!(
            defs.voice("ptp", "en-GB").message(&refused[0]),
            "New cover is only available for pets from 8 weeks old up to 833.25 years old"
        );
    }

    /// owner-payment.md §1 "Direct Debit, or card where offered", §3 payment_method: a card
    /// payment only on a brand whose file lists CC (journeys/brands/epw.json does; pos does not).
    #[test]
    fn a_card_payment_needs_a_brand_that_takes_cards() {
        let defs = defs();
        let ctx = |brand: &str| RuleContext {
            today: d("2026-11-23"),
            brand: brand.into(),
            bank: None,
            rate_scheme: None,
        };
        let card = json!({ "payment": { "payment_method": "CC" } });
        let dd = json!({ "payment": { "payment_method": "DD" } });
        assert!(payment_method_offered(&defs, &card, &ctx("epw")).is_empty());
        assert!(payment_method_offered(&defs, &dd, &ctx("epw")).is_empty());
        assert!(payment_method_offered(&defs, &dd, &ctx("pos")).is_empty());
        let refused = payment_method_offered(&defs, &card, &ctx("pos"));
        assert_eq!(refused.len(), 1);
        assert_eq!(refused[0].field, "payment.payment_method");
        assert_eq!(
            defs.voice("pos", "en-GB").message(&refused[0]),
            "Please choose a way to pay that we offer"
        );
        assert_eq!(
            payment_method_offered(&defs, &card, &ctx("unknown")).len(),
            1
        );
    }

    /// journey.md §4 Policy start date.
    #[test]
    fn the_start_date_window_follows_the_spec() {
        let defs = defs();
        let today = d("2026-11-22");
        let adult =
            json!({ "pet_type": "dog", "pet_breed": "D173", "pet_date_of_birth": "2022-01-10" });
        // An adult dog: today to 30 days ahead; all three options; nothing stored means today.
        let w = start_date_window(&defs, &doc(json!([adult]), None), today, "pos");
        assert_eq!((w.earliest, w.latest), (today, d("2026-12-22")));
        assert_eq!(w.options, vec!["today", "tomorrow", "other"]);
        assert_eq!((w.chosen, w.chosen_option), (today, "today"));
        // A puppy born 40 days ago: the earliest is its 56th day; today is not offered.
        let puppy =
            json!({ "pet_type": "dog", "pet_breed": "D173", "pet_date_of_birth": "2026-10-13" });
        let w = start_date_window(&defs, &doc(json!([adult, puppy]), None), today, "pos");
        assert_eq!(w.earliest, d("2026-12-08"));
        assert_eq!(w.options, vec!["other"]);
        assert_eq!(
            (w.chosen, w.chosen_option),
            (d("2026-12-08"), "other"),
            "lifted to the earliest"
        );
        // A puppy born 55 days ago can start tomorrow but not today.
        let puppy =
            json!({ "pet_type": "cat", "pet_breed": "C286", "pet_date_of_birth": "2026-09-28" });
        let w = start_date_window(
            &defs,
            &doc(json!([puppy]), Some("2026-11-23")),
            today,
            "pos",
        );
        assert_eq!(w.options, vec!["tomorrow", "other"]);
        assert_eq!(w.chosen_option, "tomorrow");
        // A Great Dane reaching its 5th birthday in 10 days: the window ends the day before.
        let dane =
            json!({ "pet_type": "dog", "pet_breed": "D095", "pet_date_of_birth": "2021-12-02" });
        let w = start_date_window(&defs, &doc(json!([dane]), None), today, "pos");
        assert_eq!(w.latest, d("2026-12-01"));
        // Reaching it tomorrow: only today.
        let dane =
            json!({ "pet_type": "dog", "pet_breed": "D095", "pet_date_of_birth": "2021-11-23" });
        let w = start_date_window(&defs, &doc(json!([dane]), None), today, "pos");
        assert_eq!(w.latest, today);
        assert_eq!(w.options, vec!["today"]);
    }

    #[test]
    fn years_are_whole_or_two_places() {
        assert_eq!(format_years(96), "8");
        assert_eq!(format_years(60), "5");
        assert_eq!(format_years(10_000), "833.33");
    }
}
