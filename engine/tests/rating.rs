//! The rating engine against the repository's rate table (journey.md §3 Product, §9;
//! owner-payment.md §4 Prices). A table of reference pets is priced for every product and held
//! as a snapshot (`tests/snapshots/rating-reference.json`), so any change to the rates shows in
//! review: run with `UPDATE_SNAPSHOTS=1` to write the new prices, then read the diff.

use std::path::Path;

use chrono::NaiveDate;
use engine::Definitions;
use engine::definitions::rates::{CoverGroup, ProductKey};
use engine::definitions::{FsLoader, Species};
use engine::rules::rating::{ExcessChoice, Liability, PetFacts, QuoteFacts, claim_example};
use rust_decimal::Decimal;
use serde_json::{Value, json};

fn defs() -> Definitions {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    Definitions::load(&FsLoader::new(root)).expect("repository definitions")
}

fn d(s: &str) -> NaiveDate {
    NaiveDate::parse_from_str(s, "%Y-%m-%d").expect("date")
}

fn dec(s: &str) -> Decimal {
    s.parse().expect("decimal")
}

const START: &str = "2026-12-01";

fn quote(area: Option<&str>) -> QuoteFacts {
    QuoteFacts {
        cover_start: d(START),
        postcode_area: area.map(str::to_owned),
        pets: 1,
        promo_percent: None,
        loyal: false,
    }
}

struct Reference {
    name: &'static str,
    species: Species,
    breed: &'static str,
    born: &'static str,
    neutered: bool,
    cost: &'static str,
    area: &'static str,
}

const REFERENCE: &[Reference] = &[
    Reference {
        name: "puppy Labrador, Bristol",
        species: Species::Dog,
        breed: "D173",
        born: "2026-08-01",
        neutered: false,
        cost: "900",
        area: "BS",
    },
    Reference {
        name: "3-year-old Cockapoo, Leicester",
        species: Species::Dog,
        breed: "D406",
        born: "2023-06-01",
        neutered: true,
        cost: "1200",
        area: "LE",
    },
    Reference {
        name: "5-year-old French Bulldog, London SW",
        species: Species::Dog,
        breed: "D083",
        born: "2021-05-01",
        neutered: true,
        cost: "2000",
        area: "SW",
    },
    Reference {
        name: "7-year-old medium mongrel, Inverness",
        species: Species::Dog,
        breed: "D608",
        born: "2019-03-01",
        neutered: true,
        cost: "0",
        area: "IV",
    },
    Reference {
        name: "4-year-old Rottweiler (no TPL), Leeds",
        species: Species::Dog,
        breed: "D176",
        born: "2022-07-01",
        neutered: false,
        cost: "800",
        area: "LS",
    },
    Reference {
        name: "kitten Moggie, Norwich",
        species: Species::Cat,
        breed: "C286",
        born: "2026-07-01",
        neutered: false,
        cost: "50",
        area: "NR",
    },
    Reference {
        name: "6-year-old Bengal, Manchester",
        species: Species::Cat,
        breed: "C206",
        born: "2020-04-01",
        neutered: true,
        cost: "700",
        area: "M",
    },
    Reference {
        name: "2-year-old Lionhead rabbit, York",
        species: Species::Rabbit,
        breed: "R338",
        born: "2024-09-01",
        neutered: true,
        cost: "40",
        area: "YO",
    },
];

fn facts<'b>(defs: &'b Definitions, r: &Reference) -> PetFacts<'b> {
    let breed = defs.breed(r.breed).expect("breed");
    PetFacts {
        species: r.species,
        breed,
        date_of_birth: d(r.born),
        neutered: r.neutered,
        cost: dec(r.cost),
        liability: Liability::of(r.species, breed, false, false),
    }
}

#[test]
fn every_reference_pet_and_product_matches_its_snapshot() {
    let defs = defs();
    let rates = defs.rates().expect("a rate table");
    let mut table = serde_json::Map::new();
    for r in REFERENCE {
        let pet = facts(&defs, r);
        let mut prices = serde_json::Map::new();
        for product in rates.products_for(r.species) {
            let p = rates
                .price(
                    &pet,
                    &quote(Some(r.area)),
                    product,
                    &ExcessChoice::default(),
                )
                .unwrap_or_else(|e| panic!("{}: {}: {e}", r.name, product.code()));
            assert_eq!(
                p.annual,
                p.monthly * Decimal::from(12),
                "annual is 12 × monthly"
            );
            assert_eq!(p.monthly.scale(), 2, "{}: pennies", r.name);
            prices.insert(p.code.clone(), json!(p.monthly.to_string()));
        }
        table.insert(r.name.to_owned(), Value::Object(prices));
    }
    let got = Value::Object(table);
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots/rating-reference.json");
    if std::env::var("UPDATE_SNAPSHOTS").is_ok_and(|v| v == "1") {
        std::fs::create_dir_all(path.parent().expect("parent")).expect("dir");
        std::fs::write(
            &path,
            serde_json::to_string_pretty(&got).expect("json") + "\n",
        )
        .expect("write snapshot");
    }
    let text = std::fs::read_to_string(&path).unwrap_or_else(|_| {
        panic!(
            "no snapshot at {}; run with UPDATE_SNAPSHOTS=1",
            path.display()
        )
    });
    let expected: Value = serde_json::from_str(&text).expect("snapshot json");
    assert_eq!(
        got, expected,
        "monthly prices changed; if the rate change is meant, run with UPDATE_SNAPSHOTS=1 and review the diff"
    );
}

#[test]
fn prices_are_plausible_for_the_uk_market() {
    let defs = defs();
    let rates = defs.rates().expect("rates");
    let lt = |limit| ProductKey {
        group: CoverGroup::LT,
        limit,
    };
    // A 3-year-old neutered crossbreed dog in a mid-priced area, LT 4,000 with £99
    // excess, between £25 and £45 a month.
    let cockapoo = facts(&defs, &REFERENCE[1]);
    let p = rates
        .price(
            &cockapoo,
            &quote(Some("LE")),
            lt(4000),
            &ExcessChoice::default(),
        )
        .expect("price");
    assert_eq!(p.set_excess, Decimal::from(99));
    assert!(
        p.monthly >= dec("25") && p.monthly <= dec("45"),
        "{}",
        p.monthly
    );
    // Dogs dearer than cats; Lifetime dearer than Max Benefit dearer than Time Limited.
    let cat = facts(&defs, &REFERENCE[6]);
    let price = |pet: &PetFacts<'_>, group, limit| {
        rates
            .price(
                pet,
                &quote(Some("LE")),
                ProductKey { group, limit },
                &ExcessChoice::default(),
            )
            .expect("price")
            .monthly
    };
    let mut bengal_3 = cat.clone();
    bengal_3.date_of_birth = d("2023-06-01");
    assert!(price(&cockapoo, CoverGroup::LT, 4000) > price(&bengal_3, CoverGroup::LT, 4000));
    for pet in [&cockapoo, &bengal_3] {
        assert!(price(pet, CoverGroup::LT, 4000) > price(pet, CoverGroup::MB, 4000));
        assert!(price(pet, CoverGroup::MB, 4000) > price(pet, CoverGroup::TL, 4000));
    }
    // Rabbits around £10 a month.
    let rabbit = facts(&defs, &REFERENCE[7]);
    let r = price(&rabbit, CoverGroup::LT, 2000);
    assert!(r >= dec("7") && r <= dec("13"), "{r}");
    // The 2023-24 average policy is about £380 a year with IPT: a middle-of-the-road dog and cat
    // (3 years old, LT 4,000, mid area) average within £300 to £480.
    let average = (price(&cockapoo, CoverGroup::LT, 4000) + price(&bengal_3, CoverGroup::LT, 4000))
        * Decimal::from(12)
        / Decimal::from(2);
    assert!(average >= dec("300") && average <= dec("480"), "{average}");
    // Rabbits are offered Lifetime only, up to 4,000.
    assert!(
        rates
            .products_for(Species::Rabbit)
            .iter()
            .all(|p| p.group == CoverGroup::LT && p.limit <= 4000)
    );
}

#[test]
fn discounts_and_tax_are_exact() {
    let defs = defs();
    let rates = defs.rates().expect("rates");
    let pet = facts(&defs, &REFERENCE[1]);
    let product = ProductKey {
        group: CoverGroup::LT,
        limit: 4000,
    };
    let alone = rates
        .price(&pet, &quote(Some("LE")), product, &ExcessChoice::default())
        .expect("price");
    // journey.md §9: the multi-pet discount is £1 per pet per month.
    let mut two = quote(Some("LE"));
    two.pets = 2;
    let multi = rates
        .price(&pet, &two, product, &ExcessChoice::default())
        .expect("price");
    assert_eq!(multi.discounts_monthly.multipet, Decimal::ONE);
    assert_eq!(multi.monthly, alone.monthly - Decimal::ONE);
    // A promo code's percentage and loyalty come off the monthly price, each to the penny.
    let mut promo = quote(Some("LE"));
    promo.promo_percent = Some(dec("10"));
    promo.loyal = true;
    let p = rates
        .price(&pet, &promo, product, &ExcessChoice::default())
        .expect("price");
    let ten = (alone.monthly * dec("0.10")).round_dp(2);
    let five = (alone.monthly * dec("0.05")).round_dp(2);
    assert_eq!(p.discounts_monthly.offer_code, ten);
    assert_eq!(p.discounts_monthly.loyalty, five);
    assert_eq!(p.monthly, alone.monthly - ten - five);
    // IPT at 12% is included: the tax is 12/112 of the annual price, to the penny.
    assert_eq!(
        alone.annual_ipt,
        (alone.annual * dec("12") / dec("112")).round_dp(2)
    );
    // The explanation names every factor, starting from the base premium.
    let names: Vec<&str> = alone.factors.iter().map(|f| f.name).collect();
    assert_eq!(
        names,
        vec![
            "base annual premium",
            "age",
            "breed kind",
            "size",
            "area",
            "neutered",
            "pet cost",
            "set excess",
            "co-insurance"
        ]
    );
}

#[test]
fn excess_and_coinsurance_follow_the_rules() {
    let defs = defs();
    let rates = defs.rates().expect("rates");
    let pet = facts(&defs, &REFERENCE[1]);
    let lt4 = ProductKey {
        group: CoverGroup::LT,
        limit: 4000,
    };
    let lt10 = ProductKey {
        group: CoverGroup::LT,
        limit: 10000,
    };
    let mb4 = ProductKey {
        group: CoverGroup::MB,
        limit: 4000,
    };
    // 10% co-insurance by default where offered; none for LT 10k, MB or TL.
    let q = quote(Some("LE"));
    assert_eq!(
        rates
            .price(&pet, &q, lt4, &ExcessChoice::default())
            .expect("p")
            .coinsurance_percent,
        dec("10")
    );
    assert_eq!(
        rates
            .price(&pet, &q, lt10, &ExcessChoice::default())
            .expect("p")
            .coinsurance_percent,
        Decimal::ZERO
    );
    assert_eq!(
        rates
            .price(&pet, &q, mb4, &ExcessChoice::default())
            .expect("p")
            .coinsurance_percent,
        Decimal::ZERO
    );
    let twenty = ExcessChoice {
        set_excess: None,
        coinsurance_percent: Some(dec("20")),
    };
    assert!(
        rates.price(&pet, &q, mb4, &twenty).is_err(),
        "not offered on MB"
    );
    // A higher excess or more co-insurance costs less.
    let base = rates
        .price(&pet, &q, lt4, &ExcessChoice::default())
        .expect("p")
        .monthly;
    let higher = ExcessChoice {
        set_excess: Some(dec("249")),
        coinsurance_percent: None,
    };
    assert!(rates.price(&pet, &q, lt4, &higher).expect("p").monthly < base);
    assert!(rates.price(&pet, &q, lt4, &twenty).expect("p").monthly < base);
    // An excess the species is not offered is refused.
    let odd = ExcessChoice {
        set_excess: Some(dec("123")),
        coinsurance_percent: None,
    };
    assert!(rates.price(&pet, &q, lt4, &odd).is_err());
    // The claim example: £99 and 10% pays £189.10 of a £1,000 claim.
    assert_eq!(claim_example(dec("99"), dec("10")).0, dec("189.10"));
}

#[test]
fn a_rate_table_missing_an_area_or_a_base_premium_is_refused_naming_the_place() {
    use engine::definitions::{Loader, MemoryLoader};
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = FsLoader::new(root).files().expect("files");
    for (name, text) in &mut files {
        if name.ends_with("products/rates.json") {
            let mut rates: Value = serde_json::from_str(text).expect("json");
            rates["area_bands"]["areas"]
                .as_object_mut()
                .expect("areas")
                .remove("BS");
            rates["base_annual"]["dog"]["LT"]
                .as_object_mut()
                .expect("limits")
                .remove("4000");
            rates["excess"]["cat"]["default"] = json!("120");
            *text = rates.to_string();
        }
    }
    let errors = Definitions::load(&MemoryLoader { files })
        .expect_err("refused")
        .to_string();
    for expected in [
        "postcode area BS is in no band",
        "no base premium at /base_annual/dog/LT/4000",
        "/excess/cat/default: the default is not one of the options",
    ] {
        assert!(errors.contains(expected), "{expected} in:\n{errors}");
    }
}

#[test]
fn benefits_and_documents_are_checked_against_the_products() {
    // journey.md §3 PolicyTerms and owner-payment.md §3 Documents: a benefit valued by limit
    // needs a value at every limit offered; every species and cover group needs one policy
    // wording and one IPID; a document name is used once.
    use engine::definitions::{Loader, MemoryLoader};
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = FsLoader::new(root).files().expect("files");
    for (name, text) in &mut files {
        if name.ends_with("products/rates.json") {
            let mut rates: Value = serde_json::from_str(text).expect("json");
            let boarding = rates["benefits"]
                .as_array_mut()
                .expect("benefits")
                .iter_mut()
                .find(|b| b["desc"] == "benefit.boarding")
                .expect("boarding");
            boarding["value"]["by_limit"]
                .as_object_mut()
                .expect("by")
                .remove("6000");
            *text = rates.to_string();
        }
        if name.ends_with("products/documents.json") {
            let mut docs: Value = serde_json::from_str(text).expect("json");
            let list = docs["documents"].as_array_mut().expect("documents");
            list.retain(|d| {
                !(d["kind"] == "ipid"
                    && d["species"] == json!(["cat"])
                    && d["groups"] == json!(["MB"]))
            });
            list[0]["pre_date_document_name"] = json!("ipid-dog-lt-2026-12");
            *text = docs.to_string();
        }
    }
    let errors = Definitions::load(&MemoryLoader { files })
        .expect_err("refused")
        .to_string();
    for expected in [
        "no value for the dog limit 6000",
        "cat MB has 0 ipid documents; it needs exactly one",
        "document name \"ipid-dog-lt-2026-12\" is already used",
    ] {
        assert!(errors.contains(expected), "{expected} in:\n{errors}");
    }
}

#[test]
fn journey_4_behaviour_yes_removes_third_party_liability_and_adjusts_the_premium_like_an_excluded_breed()
 {
    // journey.md §4 Assumptions warnings: dog_behaviour yes means "not for Third Party
    // Liability. We'll adjust your premium to show this"; licensed_premises yes keeps the cover
    // except at work, with no change of premium (§4 says nothing of one).
    let defs = defs();
    let rates = defs.rates().expect("rates");
    let product = ProductKey {
        group: CoverGroup::LT,
        limit: 4000,
    };
    let cockapoo = facts(&defs, &REFERENCE[1]);
    assert_eq!(cockapoo.liability, Liability::Covered);
    let price = |pet: &PetFacts<'_>| {
        rates
            .price(pet, &quote(Some("LE")), product, &ExcessChoice::default())
            .expect("price")
    };
    let covered = price(&cockapoo);
    assert!(
        covered
            .factors
            .iter()
            .all(|f| f.name != "no third party liability")
    );

    let mut behaviour = cockapoo.clone();
    behaviour.liability = Liability::of(Species::Dog, cockapoo.breed, true, false);
    let without = price(&behaviour);
    let factor = without
        .factors
        .iter()
        .find(|f| f.name == "no third party liability")
        .expect("the behaviour answer takes the cover off");
    assert_eq!(&*factor.by, "behaviour answer");
    assert_eq!(factor.value, rates.exclude_tpl_factor);
    assert!(
        without.monthly < covered.monthly,
        "{} < {}",
        without.monthly,
        covered.monthly
    );

    // A breed already without the cover is not adjusted twice by the answer.
    let id = "D004";
    let excluded = defs.breed(id).expect("Akita");
    assert!(excluded.exclude_tpl && !excluded.exclude);
    let mut breed_only = cockapoo.clone();
    breed_only.breed = excluded;
    breed_only.liability = Liability::of(Species::Dog, excluded, false, false);
    let mut both = breed_only.clone();
    both.liability = Liability::of(Species::Dog, excluded, true, true);
    assert_eq!(price(&breed_only).monthly, price(&both).monthly, "{id}");
    assert_eq!(
        price(&both)
            .factors
            .iter()
            .filter(|f| f.name == "no third party liability")
            .count(),
        1
    );

    // Licensed premises: the cover stays (bar work), the premium too.
    let mut at_work = cockapoo.clone();
    at_work.liability = Liability::of(Species::Dog, cockapoo.breed, false, true);
    assert_eq!(at_work.liability, Liability::NotAtWork);
    assert_eq!(price(&at_work).monthly, covered.monthly);

    // Cats and rabbits have no such cover: their answers change nothing.
    let cat = facts(&defs, &REFERENCE[6]);
    assert_eq!(
        Liability::of(Species::Cat, cat.breed, true, true),
        Liability::Covered
    );
}
