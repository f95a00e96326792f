//! Named domain rules: what no JSON Schema can state because it needs the breed data or today's
//! date. Written once, here, and named from journey definitions (`"rules": [...]`); the browser
//! meets them as field errors from the server.

use serde_json::Value;

use crate::checks::compiled::Definitions;
use crate::definitions::schema::FieldError;
pub use crate::definitions::vocabulary::DomainRuleName;
use crate::rules::context::RuleContext;

mod codes;
mod cover;
mod dates;
mod derive;
mod facts;
mod flags;
mod owner;
mod pets;
mod rehoming;

pub use codes::*;
use cover::*;
pub use dates::*;
pub use derive::*;
pub use facts::*;
pub use flags::*;
pub use owner::*;
use pets::*;
use rehoming::*;

/// A rule over the whole quote document.
pub type DomainRule = fn(&Definitions, &Value, &RuleContext) -> Vec<FieldError>;

/// Each domain rule's function: a match over every name, so a name with no rule does not compile.
pub fn rule(name: DomainRuleName) -> DomainRule {
    match name {
        DomainRuleName::PetAgeWindow => pet_age_window,
        DomainRuleName::PetBreedEligibility => pet_breed_eligibility,
        DomainRuleName::StartDateWindow => start_date_in_window,
        DomainRuleName::AssumptionsTicked => assumptions_ticked,
        DomainRuleName::OwnerAge => owner_age,
        DomainRuleName::PromoCodeValid => promo_code_valid,
        DomainRuleName::CoverChosen => cover_chosen,
        DomainRuleName::CoverOffered => cover_offered,
        DomainRuleName::BankDetailsValid => bank_details_valid,
        DomainRuleName::PaymentMethodOffered => payment_method_offered,
        DomainRuleName::PetSpeciesOffered => pet_species_offered,
        DomainRuleName::RehomingCentreKnown => rehoming_centre_known,
        DomainRuleName::RehomeDateWindow => rehome_date_window,
        DomainRuleName::RehomingPetAge => rehoming_pet_age,
        DomainRuleName::SavedDobMatches => saved_dob_matches,
    }
}

/// The domain rule a journey names, if there is one by that name.
pub fn domain_rule(name: &str) -> Option<DomainRule> {
    DomainRuleName::parse(name).map(rule)
}

#[cfg(test)]
mod tests {
    use chrono::NaiveDate;

    use crate::definitions::Species;

    /// owner-payment.md §5 Owner (phone: digits only, 9 to 12, starting 0) and numbers
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

    /// journey.md §3 Pet (pet_cost may carry a currency prefix) and Thousands
    /// separators: the table the renderer's tests read too.
    #[test]
    fn a_pet_cost_loses_the_brands_currency_symbol_and_its_grouping_only() {
        use crate::definitions::Currency;
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/amounts.json");
        let table: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(path).expect("table")).expect("json");
        let currency = |c: &serde_json::Value| match c.as_str() {
            Some("GBP") => Currency::Gbp,
            Some("EUR") => Currency::Eur,
            other => panic!("currency {other:?}"),
        };
        for row in table["valid"].as_array().expect("valid") {
            let typed = row[0].as_str().expect("typed");
            assert_eq!(
                plain_amount(typed, currency(&row[1])).as_deref(),
                row[2].as_str(),
                "{typed:?}"
            );
        }
        for row in table["unchanged"].as_array().expect("unchanged") {
            let typed = row[0].as_str().expect("typed");
            assert_eq!(plain_amount(typed, currency(&row[1])), None, "{typed:?}");
        }
    }
    use super::format_years;
    use super::*;
    use serde_json::json;

    fn defs() -> Definitions {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        Definitions::load(&crate::definitions::FsLoader::new(root)).expect("repository definitions")
    }

    /// owner-payment.md §9 "Nectar bonus cap: 20,000 points": a Nectar promotion's points, per
    /// policy and per whole pound of the first year's premiums, totalled over the purchase and
    /// capped; none without a Nectar promotion or a valid card.
    #[test]
    fn the_nectar_bonus_is_totalled_over_the_purchase_and_capped_at_20000() {
        use rust_decimal::Decimal;
        let defs = defs();
        assert_eq!(defs.nectar_bonus_cap(), 20_000);
        let quote = |code: &str, card: &str| json!({ "owner": { "promotional_code": code, "nectarCardNumber": card } });
        let pounds = |p: &[&str]| {
            p.iter()
                .map(|s| s.parse::<Decimal>().expect("amount"))
                .collect::<Vec<_>>()
        };
        let bonus = |code: &str, premiums: &[&str]| {
            nectar_bonus(&defs, &quote(code, "12345678909"), &pounds(premiums))
        };
        // NECTAR500: 500 a policy.
        let two = bonus("nectar500", &["241.20", "123.00"]).expect("bonus");
        assert_eq!(
            (two.points, two.capped, two.card_last4.as_str()),
            (1_000, false, "8909")
        );
        // NECTAR10X: 10 a whole pound of the first year's premiums, all pets together.
        assert_eq!(
            bonus("NECTAR10X", &["241.20", "123.99"]).map(|b| b.points),
            Some(3_650)
        );
        // At the cap, and either side of it.
        assert_eq!(
            bonus("NECTAR10X", &["1999.99"]).map(|b| (b.points, b.capped)),
            Some((19_990, false))
        );
        assert_eq!(
            bonus("NECTAR10X", &["1000.00", "1000.99"]).map(|b| (b.points, b.capped)),
            Some((20_000, false))
        );
        assert_eq!(
            bonus("NECTAR10X", &["2000.10", "0.90"]).map(|b| (b.points, b.capped)),
            Some((20_000, true))
        );
        assert_eq!(
            bonus("NECTAR10X", &["9000", "9000", "9000"]).map(|b| (b.points, b.cap)),
            Some((20_000, 20_000))
        );
        // No Nectar promotion, or no valid card: nothing to credit.
        assert_eq!(bonus("WELCOME10", &["500"]), None);
        assert_eq!(
            nectar_bonus(&defs, &quote("NECTAR10X", "12345678900"), &pounds(&["500"])),
            None
        );
        assert_eq!(
            nectar_bonus(&defs, &json!({ "owner": {} }), &pounds(&["500"])),
            None
        );
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
