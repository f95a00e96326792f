//! Prices a two-pet quote (a dog and a cat) with every product, again and again, and prints quotes
//! per second: first the rating alone, then the whole re-quote the journey runs after
//! each change: when a rating input changed (every product priced for every pet and the compact
//! prices written into the quote document), and when none did (the inputs' digest alone).
//! Run: `cargo bench -p pawpath-engine --bench rating`.

use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, Instant};

use chrono::NaiveDate;
use engine::Definitions;
use engine::definitions::{FsLoader, Species};
use engine::rules::rating::{ExcessChoice, PetFacts, QuoteFacts};
use rust_decimal::Decimal;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let defs = Definitions::load(&FsLoader::new(root)).expect("repository definitions");
    let rates = defs.rates().expect("rate table");
    let date = |s: &str| NaiveDate::parse_from_str(s, "%Y-%m-%d").expect("date");
    let pets = [
        PetFacts {
            species: Species::Dog,
            breed: defs.breed("D406").expect("Cockapoo"),
            date_of_birth: date("2023-06-01"),
            neutered: true,
            cost: Decimal::from(1200),
            liability: Default::default(),
        },
        PetFacts {
            species: Species::Cat,
            breed: defs.breed("C206").expect("Bengal"),
            date_of_birth: date("2021-04-01"),
            neutered: true,
            cost: Decimal::from(700),
            liability: Default::default(),
        },
    ];
    let quote = QuoteFacts {
        cover_start: date("2026-12-01"),
        postcode_area: Some("BS".into()),
        pets: 2,
        promo_percent: Some(Decimal::from(10)),
        loyal: false,
    };
    let products: Vec<_> = pets.iter().map(|p| rates.products_for(p.species)).collect();
    let per_quote: usize = products.iter().map(Vec::len).sum();
    let run = || {
        for (pet, list) in pets.iter().zip(&products) {
            for product in list {
                let price = rates
                    .price(pet, &quote, *product, &ExcessChoice::default())
                    .expect("price");
                black_box(price);
            }
        }
    };
    // Warm up, then time for about two seconds.
    for _ in 0..200 {
        run();
    }
    let started = Instant::now();
    let mut quotes = 0u64;
    while started.elapsed() < Duration::from_secs(2) {
        run();
        quotes += 1;
    }
    let secs = started.elapsed().as_secs_f64();
    println!(
        "rating: {quotes} two-pet quotes ({per_quote} products each) in {secs:.2} s = {:.0} quotes/s, {:.0} prices/s",
        quotes as f64 / secs,
        (quotes as f64 * per_quote as f64) / secs
    );

    // The whole re-quote over a quote document, as a transition runs it.
    let mut document = serde_json::json!({
        "pets": [
            { "pet_name": "Rex", "pet_type": "dog", "dog_breed_type": "crossbreed", "pet_breed": "D406",
              "pet_date_of_birth": "2023-06-01", "pet_neutered": "yes", "pet_cost": "1200",
              "product": { "Code": "LT04000" } },
            { "pet_name": "Tigger", "pet_type": "cat", "cat_breed_type": "pedigree", "pet_breed": "C206",
              "pet_date_of_birth": "2021-04-01", "pet_neutered": "yes", "pet_cost": "700" }
        ],
        "owner": { "customer_postcode": "BS11 8NN", "pet_policy_start_date": "2026-12-01" }
    });
    let ctx = engine::rules::context::RuleContext {
        today: date("2026-11-22"),
        brand: "pos".into(),
        bank: None,
        rate_scheme: None,
    };
    engine::rules::domain::derive_pet_fields(&defs, &mut document);
    // Every change that touches a rating input prices afresh: the pet's cost goes back and
    // forth, so each call works out a new digest and prices every product.
    let costs = ["1200", "1201"];
    let mut requotes = 0u64;
    let mut requote_changed = |document: &mut serde_json::Value| {
        document["pets"][0]["pet_cost"] = costs[(requotes % 2) as usize].into();
        requotes += 1;
        let pricing = engine::journey::quoting::requote(&defs, document, &ctx);
        assert!(pricing.is_some(), "a rating input changed: priced");
        black_box(pricing);
    };
    for _ in 0..100 {
        requote_changed(&mut document);
    }
    let started = Instant::now();
    let mut count = 0u64;
    while started.elapsed() < Duration::from_secs(2) {
        requote_changed(&mut document);
        count += 1;
    }
    let secs = started.elapsed().as_secs_f64();
    println!(
        "re-quote, rating inputs changed: {count} two-pet quote documents in {secs:.2} s = {:.0} quotes/s",
        count as f64 / secs
    );

    // A change that touches no rating input (a phone number, a chosen cover) prices nothing:
    // the digest of the inputs is worked out and found the same.
    let started = Instant::now();
    let mut count = 0u64;
    while started.elapsed() < Duration::from_secs(2) {
        let pricing = engine::journey::quoting::requote(&defs, &mut document, &ctx);
        assert!(pricing.is_none(), "no rating input changed: not priced");
        black_box(pricing);
        count += 1;
    }
    let secs = started.elapsed().as_secs_f64();
    println!(
        "re-quote, nothing to price: {count} two-pet quote documents in {secs:.2} s = {:.0} quotes/s",
        count as f64 / secs
    );
}
