//! Quoting inside the journey (journey.md §3 Product, §4 Cover selection, §5 Cover and
//! start date; owner-payment.md §3 Product discounts, §4 Prices): the engine prices every product
//! for every pet into the quote document after each change, keeps each pet's chosen product
//! priced, and records the working in the transition record.

use std::path::Path;

use chrono::NaiveDate;
use engine::Definitions;
use engine::definitions::FsLoader;
use engine::journey::runtime::{self, Event, Lifecycle, Outcome};
use engine::rules::context::RuleContext;
use serde_json::{Value, json};

fn defs() -> Definitions {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    Definitions::load(&FsLoader::new(root)).expect("repository definitions")
}

fn ctx() -> RuleContext {
    RuleContext {
        today: NaiveDate::from_ymd_opt(2026, 11, 22).expect("date"),
        brand: "pos".into(),
        bank: None,
        rate_scheme: None,
    }
}

fn dog(name: &str) -> Value {
    json!({
        "pet_name": name, "pet_type": "dog", "dog_breed_type": "crossbreed", "pet_breed": "D406",
        "pet_date_of_birth": "2023-06-01", "pet_sex": "m", "pet_neutered": "yes", "pet_cost": "1200",
        "pet_any_injury_illness": "no", "confirm_crossbreed": true, "confirm_assumptions": true
    })
}

fn rabbit(name: &str) -> Value {
    json!({
        "pet_name": name, "pet_type": "rabbit", "rabbit_breed_type": "R345", "pet_breed": "R345",
        "pet_date_of_birth": "2024-03-01", "pet_sex": "f", "pet_neutered": "yes", "pet_cost": "40",
        "pet_any_injury_illness": "no", "confirm_assumptions": true
    })
}

fn priced(defs: &Definitions, pets: Vec<Value>, postcode: Option<&str>) -> Value {
    let mut owner = json!({ "pet_policy_start_date": "2026-12-01" });
    if let Some(p) = postcode {
        owner["customer_postcode"] = json!(p);
    }
    let mut doc = json!({ "pets": pets, "owner": owner });
    engine::rules::domain::derive_pet_fields(defs, &mut doc);
    engine::journey::quoting::requote(defs, &mut doc, &ctx());
    doc
}

/// Every product as pages draw them from the prices the document holds (the quote
/// stores premiums only).
fn products(doc: &Value) -> Vec<Value> {
    static DEFS: std::sync::LazyLock<Definitions> = std::sync::LazyLock::new(defs);
    engine::journey::quoting::products(&DEFS, doc, &ctx())
        .into_iter()
        .map(|p| serde_json::to_value(p).expect("product"))
        .collect()
}

fn product(doc: &Value, pet: u64, code: &str) -> Value {
    products(doc)
        .into_iter()
        .find(|p| p["petid"] == json!(pet) && p["Code"] == json!(code))
        .unwrap_or_else(|| panic!("pet {pet} has no {code}"))
}

#[test]
fn nothing_is_priced_before_the_postcode() {
    // The area is a rating factor, and choose-policy waits for the postcode
    // (journey.md §2 step bar: "the choose step needs the owner's postcode").
    let doc = priced(&defs(), vec![dog("Rex")], None);
    assert!(products(&doc).is_empty());
    assert!(doc.get("quoted").is_none(), "no prices stored");
}

#[test]
fn every_product_is_priced_with_the_fields_of_journey_md_section_3() {
    let doc = priced(&defs(), vec![dog("Rex")], Some("le1 5ws"));
    assert_eq!(products(&doc).len(), 18, "LT, MB and TL at six limits");
    let p = product(&doc, 1, "LT04000");
    assert_eq!(p["Gid"], "LT");
    assert_eq!(p["GidOrderShow"], 1);
    assert_eq!(p["Type"], "Lifetime");
    assert_eq!(p["LimitVal"], 4000);
    assert_eq!(p["LimitDesc"], "£4,000");
    assert_eq!(p["Excess"], "99");
    // Reference price of the rating snapshot: 3-year-old Cockapoo in LE, £99, 10% (default).
    assert_eq!(p["RecurringMonthly"], "28.48");
    assert_eq!(
        p["AnnualPremium"], "341.76",
        "12 × monthly (owner-payment.md §4 Prices)"
    );
    assert_eq!(
        p["coins"], "10",
        "default claim contribution of 10% (journey.md §4)"
    );
    assert_eq!(
        p["FlexyProductsOptions"]["options_set_excess"],
        "99,149,199,249"
    );
    assert_eq!(p["FlexyProductsOptions"]["current_variable_excess"], "0.1");
    assert_eq!(p["ClaimExample"]["Customer"], "189.10");
    assert_eq!(p["Rated"], true);
    // journey.md §9 PolicyTerms: third party liability £2m for dogs, boarding £1,500 at 4k.
    let terms = p["PolicyTerms"].as_array().expect("terms");
    let row = |key: &str| {
        terms
            .iter()
            .find(|t| t["desc"] == key)
            .map(|t| t["val"].clone())
    };
    assert_eq!(row("benefit.vet_fees"), Some(json!("£4,000")));
    assert_eq!(row("benefit.tpl"), Some(json!("£2,000,000")));
    assert_eq!(row("benefit.boarding"), Some(json!("£1,500")));
    assert_eq!(row("benefit.physio"), Some(json!("£1,000")));
    // Not offered with co-insurance: Lifetime 10k, Max Benefit, Time Limited.
    for code in ["LT10000", "MB04000", "TL04000"] {
        let p = product(&doc, 1, code);
        assert_eq!(p["coins"], "0", "{code}");
        assert_eq!(
            p["excess_options"]["list"],
            json!([{ "coins": "0" }]),
            "{code}"
        );
    }
}

#[test]
fn a_rabbit_gets_lifetime_only_without_the_rows_rabbits_do_not_have() {
    let doc = priced(&defs(), vec![rabbit("Flopsy")], Some("BS11 8NN"));
    let products = products(&doc);
    let codes: Vec<&str> = products.iter().filter_map(|p| p["Code"].as_str()).collect();
    assert_eq!(codes, ["LT01000", "LT02000", "LT03000", "LT04000"]);
    let p = product(&doc, 1, "LT02000");
    let descs: Vec<&str> = p["PolicyTerms"]
        .as_array()
        .expect("terms")
        .iter()
        .filter_map(|t| t["desc"].as_str())
        .collect();
    for absent in [
        "benefit.dental",
        "benefit.hospitalisation",
        "benefit.flexible_excess",
        "benefit.tpl",
    ] {
        assert!(!descs.contains(&absent), "a rabbit has no {absent} row");
    }
    let boarding = p["PolicyTerms"]
        .as_array()
        .expect("terms")
        .iter()
        .find(|t| t["desc"] == "benefit.boarding")
        .expect("boarding");
    assert_eq!(boarding["val"], "£250");
    assert_eq!(p["Rated"], false, "no badge for rabbits (journey.md §9)");
    let monthly: f64 = p["RecurringMonthly"]
        .as_str()
        .expect("price")
        .parse()
        .expect("number");
    assert!(
        (6.0..16.0).contains(&monthly),
        "rabbits about £10 a month, got {monthly}"
    );
}

#[test]
fn two_pets_each_get_the_multi_pet_discount() {
    // journey.md §9: multi-pet discount £1 per pet per month.
    let one = priced(&defs(), vec![dog("Rex")], Some("LE1 5WS"));
    let two = priced(&defs(), vec![dog("Rex"), dog("Bess")], Some("LE1 5WS"));
    let alone = product(&one, 1, "LT04000");
    let paired = product(&two, 2, "LT04000");
    assert_eq!(paired["Discounts"]["Monthly"]["Multipet"], "1.00");
    assert_eq!(paired["Discounts"]["Annual"]["Multipet"], "12.00");
    assert_eq!(alone["Discounts"]["Monthly"]["Multipet"], "0");
    assert_eq!(paired["RecurringMonthly"], "27.48");
}

#[test]
fn the_chosen_product_is_kept_priced_and_a_code_not_offered_is_left_bare() {
    let defs = defs();
    let mut pet = dog("Rex");
    pet["product"] = json!({ "Code": "MB06000", "RecurringMonthly": "1.00" });
    pet["set_excess"] = json!("149");
    let doc = priced(&defs, vec![pet], Some("LE1 5WS"));
    // The quote keeps the chosen code and its monthly price; the rest is drawn.
    let chosen = product(&doc, 1, "MB06000");
    assert_eq!(
        doc["pets"][0]["product"],
        json!({ "Code": "MB06000", "RecurringMonthly": chosen["RecurringMonthly"] })
    );
    assert_eq!(chosen["Excess"], "149");
    let mut bunny = rabbit("Flopsy");
    bunny["product"] = json!({ "Code": "MB04000" });
    let doc = priced(&defs, vec![bunny], Some("LE1 5WS"));
    assert_eq!(doc["pets"][0]["product"], json!({ "Code": "MB04000" }));
}

fn at_choose_policy(defs: &Definitions, pets: Vec<Value>) -> Value {
    let mut doc = json!({
        "pets": pets,
        "owner": {
            "customer_title": "Mr", "customer_first_name": "Sam", "customer_last_name": "Jones",
            "customer_date_of_birth": "1980-01-01", "email_address": "sam@example.com",
            "customer_contact_number": "01632960123", "customer_address_line_1": "1 High Street",
            "customer_town": "Leicester", "customer_postcode": "LE1 5WS",
            "pet_policy_start_date": "2026-12-01"
        }
    });
    engine::rules::domain::derive_pet_fields(defs, &mut doc);
    engine::journey::quoting::requote(defs, &mut doc, &ctx());
    doc
}

fn run(defs: &Definitions, doc: &Value, event: Event) -> runtime::TransitionResult {
    runtime::transition(defs, "direct", doc, Lifecycle::Active, &event, ctx()).expect("transition")
}

#[test]
fn choosing_cover_moves_to_review_and_records_the_working() {
    // journey.md §4 Cover selection; the working is in the transition record.
    let defs = defs();
    let doc = at_choose_policy(&defs, vec![dog("Rex")]);
    let (pos, _) = runtime::locate(
        &defs,
        defs.journey("direct").expect("journey"),
        &doc,
        &ctx(),
    )
    .expect("locate");
    assert_eq!(pos.furthest, "choose_policy");
    let result = run(
        &defs,
        &doc,
        Event::Submit {
            step: "choose_policy".into(),
            answers: json!({ "pets": [{ "product": { "Code": "LT04000" }, "set_excess": "199", "set_coins": 0.2 }] }),
        },
    );
    assert_eq!(result.record.outcome, Outcome::Moved);
    assert_eq!(result.record.to, "review");
    let chosen = product(&result.document, 1, "LT04000");
    assert_eq!(chosen["Excess"], "199");
    assert_eq!(chosen["coins"], "20");
    // The working of the chosen product, and a reference to the rest.
    let pricing = result
        .record
        .pricing
        .as_ref()
        .expect("a re-price records its working");
    assert_eq!(pricing.products, 18);
    assert_eq!(pricing.chosen.len(), 1);
    let note = pricing
        .chosen
        .iter()
        .find(|n| n.code == "LT04000")
        .expect("note");
    assert_eq!(note.factors[0].0, "base annual premium");
    assert!(
        note.factors
            .iter()
            .any(|f| f.0 == "set excess" && f.1 == "£199")
    );
}

#[test]
fn cover_choices_the_rate_table_does_not_offer_are_refused() {
    // journey.md §4 Cover selection, §5 Cover and start date.
    let defs = defs();
    let doc = at_choose_policy(&defs, vec![dog("Rex"), rabbit("Flopsy")]);
    let cases = [
        (
            json!({ "pets": [{}, { "product": { "Code": "LT01000" } }] }),
            "pets[0].product.Code",
            "cover.no_product",
        ),
        (
            json!({ "pets": [{ "product": { "Code": "LT04000" } }, { "product": { "Code": "MB04000" } }] }),
            "pets[1].product.Code",
            "cover.product.not_offered",
        ),
        (
            json!({ "pets": [{ "product": { "Code": "LT04000" }, "set_excess": "120" }, { "product": { "Code": "LT01000" } }] }),
            "pets[0].set_excess",
            "cover.excess.not_offered",
        ),
        (
            json!({ "pets": [{ "product": { "Code": "LT04000" } }, { "product": { "Code": "LT01000" }, "set_excess": "99" }] }),
            "pets[1].set_excess",
            "cover.excess.not_offered",
        ),
        (
            json!({ "pets": [{ "product": { "Code": "LT04000" }, "set_coins": 0.15 }, { "product": { "Code": "LT01000" } }] }),
            "pets[0].set_coins",
            "cover.excess.not_offered",
        ),
    ];
    for (answers, field, key) in cases {
        let result = run(
            &defs,
            &doc,
            Event::Submit {
                step: "choose_policy".into(),
                answers: answers.clone(),
            },
        );
        assert_eq!(result.record.outcome, Outcome::Invalid, "{answers}");
        assert!(
            result
                .record
                .field_errors
                .iter()
                .any(|e| e.field == field && e.key == key),
            "{answers}: {:?}",
            result.record.field_errors
        );
        assert_eq!(result.document, doc, "nothing changes");
    }
}

#[test]
fn a_changed_postcode_reprices_the_chosen_product() {
    // owner-payment.md §4 Owner save: a changed address re-quotes.
    let defs = defs();
    let mut doc = at_choose_policy(&defs, vec![dog("Rex")]);
    let chosen = run(
        &defs,
        &doc,
        Event::Submit {
            step: "choose_policy".into(),
            answers: json!({ "pets": [{ "product": { "Code": "LT04000" } }] }),
        },
    );
    doc = chosen.document;
    let before = doc["pets"][0]["product"]["RecurringMonthly"].clone();
    let mut owner = doc["owner"].clone();
    owner["customer_postcode"] = json!("SW1A 1AA");
    owner["customer_town"] = json!("London");
    let moved = run(
        &defs,
        &doc,
        Event::Submit {
            step: "your_details".into(),
            answers: json!({ "owner": owner }),
        },
    );
    assert_eq!(
        moved.record.outcome,
        Outcome::Moved,
        "{:?}",
        moved.record.field_errors
    );
    let after = &moved.document["pets"][0]["product"]["RecurringMonthly"];
    assert_ne!(*after, before, "London is dearer than Leicester");
    assert!(moved.record.pricing.is_some());
}

#[test]
fn the_summary_sums_premiums_and_discounts_as_owner_payment_md_section_4_says() {
    let defs = defs();
    let mut rex = dog("Rex");
    rex["product"] = json!({ "Code": "LT04000" });
    let mut bess = dog("Bess");
    bess["product"] = json!({ "Code": "TL02000" });
    let doc = priced(&defs, vec![rex, bess], Some("LE1 5WS"));
    let s = engine::journey::quoting::summary(&doc);
    let a = product(&doc, 1, "LT04000")["RecurringMonthly"]
        .as_str()
        .expect("a")
        .parse::<rust_decimal::Decimal>()
        .expect("a");
    let b = product(&doc, 2, "TL02000")["RecurringMonthly"]
        .as_str()
        .expect("b")
        .parse::<rust_decimal::Decimal>()
        .expect("b");
    assert_eq!(s.monthly, a + b);
    assert_eq!(s.annual, (a + b) * rust_decimal::Decimal::from(12));
    assert_eq!(
        s.discounts_monthly,
        vec![(
            "review.discount.multipet".to_owned(),
            "2.00".parse().expect("d")
        )],
        "£1 per pet, the same description summed"
    );
    assert_eq!(
        s.discounts_annual,
        vec![(
            "review.discount.multipet".to_owned(),
            "24.00".parse().expect("d")
        )]
    );
    assert!(!s.multipet_pending);

    let mut only_one = doc.clone();
    only_one["pets"][1]
        .as_object_mut()
        .expect("pet")
        .remove("product");
    let s = engine::journey::quoting::summary(&only_one);
    assert!(
        s.multipet_pending,
        "a line says the multi-pet discount will be applied"
    );
    assert!(!s.every_pet_chosen);
}

#[test]
fn documents_follow_the_start_date_and_the_product_code() {
    // owner-payment.md Documents: "The policy document version is chosen by the pet's policy
    // start date: on or after file_change_date gives the on-or-post-date document, otherwise the
    // earlier one. The IPID is chosen by pet type and the first two characters of the product
    // code."
    use engine::definitions::Species;
    use engine::definitions::documents::DocumentKind;
    let defs = defs();
    let docs = defs.documents().expect("documents");
    let d = |s: &str| NaiveDate::parse_from_str(s, "%Y-%m-%d").expect("date");
    let before = docs.for_product(Species::Dog, "LT04000", d("2026-11-30"));
    let on = docs.for_product(Species::Dog, "LT04000", d("2026-12-01"));
    assert_eq!(
        before.iter().map(|g| g.name).collect::<Vec<_>>(),
        ["policy-wording-dog-cat-2026-06", "ipid-dog-lt-2026-06"]
    );
    assert_eq!(
        on.iter().map(|g| g.name).collect::<Vec<_>>(),
        ["policy-wording-dog-cat-2026-12", "ipid-dog-lt-2026-12"]
    );
    assert_eq!(on[0].kind, DocumentKind::PolicyWording);
    let cat_tl = docs.for_product(Species::Cat, "TL02000", d("2026-12-05"));
    assert_eq!(cat_tl[1].name, "ipid-cat-tl-2026-12");
    let rabbit = docs.for_product(Species::Rabbit, "LT02000", d("2026-12-05"));
    assert_eq!(
        rabbit.iter().map(|g| g.name).collect::<Vec<_>>(),
        ["policy-wording-rabbit-2026-12", "ipid-rabbit-lt-2026-12"]
    );
    assert!(
        docs.for_product(Species::Dog, "XX01000", d("2026-12-05"))
            .is_empty()
    );
    let version = docs
        .version("policy-wording-dog-cat-2026-06")
        .expect("version");
    assert_eq!(version.terms.older_pet_share_percent, "20");
    assert_eq!(
        docs.version("policy-wording-dog-cat-2026-12")
            .expect("v")
            .terms
            .older_pet_share_percent,
        "25"
    );
}

#[test]
fn what_every_quote_draws_alike_is_made_once_per_rate_table_currency_and_language() {
    // Benefit rows, the limit as written and the option lists are derived from the
    // definitions once and shared by every page after, never mixed between languages.
    use std::sync::Arc;
    let defs = defs();
    let doc = priced(&defs, vec![dog("Rex"), dog("Max")], Some("le1 5ws"));
    let first = engine::journey::quoting::products(&defs, &doc, &ctx());
    let again = engine::journey::quoting::products(&defs, &doc, &ctx());
    let lt = |ps: &[engine::journey::quoting::Product], pet: usize| {
        ps.iter()
            .find(|p| p.petid == pet && p.Code == "LT04000")
            .expect("LT04000")
            .clone()
    };
    let (a, b, c) = (lt(&first, 1), lt(&again, 1), lt(&first, 2));
    assert!(Arc::ptr_eq(&a.PolicyTerms, &b.PolicyTerms), "made once");
    assert!(
        Arc::ptr_eq(&a.PolicyTerms, &c.PolicyTerms),
        "shared by two dogs alike"
    );
    assert!(Arc::ptr_eq(&a.excess_options, &b.excess_options));
    assert_eq!(&*a.LimitDesc, "£4,000");
    // The same rate table read in French (a brand that speaks it, in euros) draws its own.
    let french_ctx = RuleContext {
        brand: "rcfr".into(),
        ..ctx()
    };
    let mut french_doc = doc.clone();
    french_doc["language"] = json!("fr-FR");
    let french = engine::journey::quoting::products(&defs, &french_doc, &french_ctx);
    let f = lt(&french, 1);
    assert_eq!(&*f.LimitDesc, "4\u{202f}000\u{a0}€");
    assert!(!Arc::ptr_eq(&a.PolicyTerms, &f.PolicyTerms));
    let euros = |p: &engine::journey::quoting::Product| {
        p.PolicyTerms
            .iter()
            .filter_map(|t| t.val.clone())
            .collect::<Vec<_>>()
    };
    assert!(euros(&f).iter().all(|v| v.contains('€')), "{:?}", euros(&f));
    assert!(euros(&a).iter().all(|v| v.contains('£')), "{:?}", euros(&a));
    // And English again is still English.
    let after = engine::journey::quoting::products(&defs, &doc, &ctx());
    assert!(Arc::ptr_eq(&a.PolicyTerms, &lt(&after, 1).PolicyTerms));
}

#[test]
fn prices_stored_without_their_working_are_the_prices_worked_through_factor_by_factor() {
    // Only the chosen products' factors are kept when pricing; every other price is
    // worked without writing its factors out, and must come to the same amounts.
    let defs = defs();
    let doc = priced(&defs, vec![dog("Rex"), rabbit("Flopsy")], Some("le1 5ws"));
    let quoted = engine::journey::quoting::Quoted::of(&doc).expect("priced");
    let worked = engine::journey::quoting::working(&defs, &doc, &ctx());
    assert_eq!(
        worked.len(),
        quoted.pets.iter().map(Vec::len).sum::<usize>(),
        "every product worked through"
    );
    for note in &worked {
        let stored = quoted.premiums(note.pet - 1, &note.code).expect("stored");
        assert_eq!(
            stored.monthly(),
            note.monthly,
            "{} of pet {}",
            note.code,
            note.pet
        );
        assert!(note.factors.len() >= 3, "{} has its working", note.code);
    }
}

#[test]
fn journey_4_the_behaviour_and_licensed_premises_answers_reach_the_price_and_the_benefits() {
    // journey.md §4 Assumptions: dog_behaviour yes, "not for Third Party Liability. We'll adjust
    // your premium"; licensed_premises yes, no cover for incidents at work or on licensed
    // premises. What the customer is told, priced and shown agree.
    let defs = defs();
    let tpl_row = |doc: &Value| {
        product(doc, 1, "LT04000")["PolicyTerms"]
            .as_array()
            .expect("terms")
            .iter()
            .find(|t| t["desc"] == "benefit.tpl")
            .cloned()
    };
    let monthly = |doc: &Value| product(doc, 1, "LT04000")["RecurringMonthly"].clone();

    let before = priced(&defs, vec![dog("Rex")], Some("le1 5ws"));
    let row = tpl_row(&before).expect("the cover, in full");
    assert_eq!(row["tt"], "benefit.tpl.tt");

    let mut answered = dog("Rex");
    answered["dog_behaviour"] = json!("yes");
    let behaviour = priced(&defs, vec![answered.clone()], Some("le1 5ws"));
    assert_eq!(tpl_row(&behaviour), None, "no third party liability row");
    assert_ne!(
        monthly(&behaviour),
        monthly(&before),
        "the premium is adjusted"
    );
    assert_ne!(
        behaviour["quoted"], before["quoted"],
        "the stored prices follow the answer"
    );

    let mut at_work = dog("Rex");
    at_work["licensed_premises"] = json!("yes");
    let at_work = priced(&defs, vec![at_work], Some("le1 5ws"));
    let row = tpl_row(&at_work).expect("the cover stays");
    assert_eq!(row["val"], "£2,000,000");
    assert_eq!(row["tt"], "benefit.tpl.tt.not_at_work");
    assert_eq!(monthly(&at_work), monthly(&before));

    // Answered no again: the cover and the price come back.
    answered["dog_behaviour"] = json!("no");
    let back = priced(&defs, vec![answered], Some("le1 5ws"));
    assert_eq!(tpl_row(&back), tpl_row(&before));
    assert_eq!(monthly(&back), monthly(&before));
}

#[test]
fn journey_4_and_5_a_new_dog_type_or_breed_asks_for_the_crossbreed_declaration_again() {
    // journey.md §4 Pet details: "Changing the dog type resets crossbreed confirmation to
    // false"; §5: confirm_crossbreed is ticked for the breed insured, so moving from a Cockapoo
    // to a Cavapoo cannot carry the Cockapoo's declaration over.
    let defs = defs();
    let doc = at_choose_policy(&defs, vec![dog("Rex")]);
    assert_eq!(doc["pets"][0]["confirm_crossbreed"], true);
    let mut pet = dog("Rex");
    pet.as_object_mut()
        .expect("pet")
        .remove("confirm_crossbreed");
    let resubmit = |pet: Value| {
        run(
            &defs,
            &doc,
            Event::Submit {
                step: "pet_details".into(),
                answers: json!({ "pets": [pet] }),
            },
        )
    };

    // The same breed again: the declaration stands and the journey goes on to your details.
    let same = resubmit(pet.clone());
    assert_eq!(same.record.outcome, Outcome::Moved);
    assert_eq!(same.document["pets"][0]["confirm_crossbreed"], true);
    assert_eq!(same.record.to, "your_details");

    // Another crossbreed: the declaration goes, and the crossbreed page asks for it.
    pet["pet_breed"] = json!("D405");
    let other = resubmit(pet.clone());
    assert_eq!(other.record.outcome, Outcome::Moved);
    assert!(
        other.document["pets"][0]
            .get("confirm_crossbreed")
            .is_none()
    );
    assert_eq!(other.record.to, "crossbreed");

    // A new dog type (crossbreed to pedigree and back) likewise.
    pet["pet_breed"] = json!("D406");
    pet["dog_breed_type"] = json!("mongrel");
    pet["mongrel_size"] = json!("D608");
    pet["pet_breed"] = json!("D608");
    let mongrel = resubmit(pet);
    assert!(
        mongrel.document["pets"][0]
            .get("confirm_crossbreed")
            .is_none()
    );
}

#[test]
fn journey_9_older_pet_excess_starts_at_the_breeds_own_birthday() {
    // journey.md §9 Excess at renewal: "dogs after the 8th birthday (some breeds 5), cats after
    // 10th, rabbits after 5th"; §5 Age rule: "most dogs up to the 8th birthday, some breeds 5".
    let defs = defs();
    let age = |pet: Value| {
        let species = engine::definitions::Species::parse(pet["pet_type"].as_str().expect("type"))
            .expect("species");
        engine::journey::quoting::pet_older_age(&defs, species, &pet)
    };
    assert_eq!(age(dog("Rex")), 8, "a Cockapoo");
    let mut dane = dog("Hamlet");
    dane["dog_breed_type"] = json!("breed");
    dane["pet_breed"] = json!("D095");
    assert_eq!(
        defs.breed("D095").map(|b| b.desc.as_str()),
        Some("Great Dane")
    );
    assert_eq!(age(dane), 5, "a Great Dane");
    assert_eq!(age(rabbit("Thumper")), 5);
    assert_eq!(
        age(json!({ "pet_type": "cat", "pet_breed": "C286" })),
        10,
        "a moggie"
    );
    // Without a breed yet, the species' usual birthday.
    assert_eq!(age(json!({ "pet_type": "dog" })), 8);
}

#[test]
fn journey_4_add_another_pet_is_one_blank_slot_at_a_time_up_to_ten() {
    // journey.md §4 Add another pet; §7 /api/addpetid "new pet slot".
    let defs = defs();
    let doc = at_choose_policy(&defs, vec![dog("Rex")]);
    let added = run(&defs, &doc, Event::AddPet);
    assert_eq!(added.record.outcome, Outcome::Moved);
    assert_eq!(
        added.record.to, "pet_details",
        "the page that asks about it"
    );
    assert_eq!(added.document["pets"].as_array().map(Vec::len), Some(2));
    assert_eq!(added.record.event, "add_pet");
    let again = run(&defs, &added.document, Event::AddPet);
    assert_eq!(again.record.outcome, Outcome::Invalid);
    assert_eq!(again.record.field_errors[0].key, "pet.add.blank_waiting");

    let ten = at_choose_policy(&defs, (0..10).map(|i| dog(&format!("Rex {i}"))).collect());
    let refused = run(&defs, &ten, Event::AddPet);
    assert_eq!(refused.record.outcome, Outcome::Invalid);
    assert_eq!(refused.record.field_errors[0].key, "pet.add.too_many");
    assert_eq!(refused.document["pets"].as_array().map(Vec::len), Some(10));
}
