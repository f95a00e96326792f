//! Quoting (journey.md §3 Product, §4 Cover selection; owner-payment.md §3 Product
//! discounts, §4 Prices): every product priced for every pet, written into the quote document as
//! the server-owned `products` (all pets, each with its `petid`) and each pet's chosen `product`
//! (the priced product its chosen `Code` names). Run after every change the customer makes, so a
//! stored price is always the price of the stored answers; the quoted price then holds until the
//! answers change, even if the rate table does.
//!
//! Prices need the owner's postcode (its area is a rating factor): until it is given the quote
//! has no products, which is also why the choose-policy step waits for it.

mod drawings;
mod inputs;
mod premiums;
mod pricing;
mod products;
mod summary;

pub use drawings::*;
pub use premiums::*;
pub use pricing::*;
pub use products::*;
pub use summary::*;

/// What a pet of the document has of third party liability, by its breed and its answers
/// (journey.md §4); none for a pet whose species or breed is not known.
pub fn liability(
    defs: &crate::checks::compiled::Definitions,
    pet: &serde_json::Value,
) -> Option<crate::rules::rating::Liability> {
    let breed = crate::rules::domain::breed_of(defs, pet)?;
    Some(inputs::liability_of(breed.species, breed, pet))
}

/// The birthday from which a pet of the document counts as older (see [`older_pet_age`]).
pub fn pet_older_age(
    defs: &crate::checks::compiled::Definitions,
    species: crate::definitions::Species,
    pet: &serde_json::Value,
) -> u32 {
    older_pet_age(species, crate::rules::domain::breed_of(defs, pet))
}

#[cfg(test)]
mod tests {
    use rust_decimal::Decimal;
    use serde_json::json;

    use super::*;
    use crate::definitions::rates::{CoverGroup, ProductKey};
    use crate::definitions::{RatingBadge, Species};

    #[test]
    fn premiums_are_stored_as_one_string_and_read_back_exactly() {
        let d = |s: &str| s.parse::<Decimal>().expect("decimal");
        let p = Premiums {
            code: "LT04000".into(),
            monthly: d("21.60"),
            annual: d("259.20"),
            annual_ipt: d("27.85"),
            monthly_before_discounts: d("24.07"),
            multi_pet: d("2.41"),
            offer_code: d("0"),
            loyalty: d("0"),
            set_excess: d("99"),
            coinsurance_percent: d("10"),
        };
        let stored = serde_json::to_value(&p).expect("json");
        assert_eq!(
            stored,
            json!("LT04000 21.60 259.20 27.85 24.07 2.41 0 0 99 10")
        );
        let back: Premiums = serde_json::from_value(stored).expect("read");
        assert_eq!(back, p);
        // Each amount keeps how it was written (21.60, not 21.6).
        assert_eq!(back.monthly().to_string(), "21.60");
        // Quotes stored before: a list of the ten.
        let listed: Premiums = serde_json::from_value(json!([
            "LT04000", "21.60", "259.20", "27.85", "24.07", "2.41", "0", "0", "99", "10"
        ]))
        .expect("read a list");
        assert_eq!(listed, p);
        // A damaged entry is refused with what is wrong, not read as zero.
        for bad in [
            json!("LT04000 21.60"),
            json!("LT04000 21.60 259.20 27.85 24.07 2.41 0 0 99 ten"),
            json!("LT04000 21.60 259.20 27.85 24.07 2.41 0 0 99 10 11"),
            json!(["LT04000", "21.60"]),
        ] {
            let err = serde_json::from_value::<Premiums>(bad.clone()).expect_err("refused");
            assert!(err.to_string().contains("LT04000"), "{bad}: {err}");
        }
    }

    #[test]
    fn the_badge_follows_journey_md_section_9() {
        let k = |group, limit| ProductKey { group, limit };
        let five = RatingBadge::Defaqto5Star;
        assert!(rated(five, Species::Dog, k(CoverGroup::LT, 4000)));
        assert!(!rated(five, Species::Dog, k(CoverGroup::LT, 2500)));
        assert!(!rated(five, Species::Cat, k(CoverGroup::MB, 3000)));
        assert!(rated(five, Species::Cat, k(CoverGroup::MB, 4000)));
        assert!(!rated(five, Species::Rabbit, k(CoverGroup::LT, 4000)));
        assert!(!rated(five, Species::Dog, k(CoverGroup::TL, 4000)));
        // The brands' variants (journey.md §9: "LT at 7000"; one brand shows no badge).
        let lifetime = RatingBadge::Defaqto5StarLifetime;
        assert!(!rated(lifetime, Species::Dog, k(CoverGroup::LT, 4000)));
        assert!(rated(lifetime, Species::Dog, k(CoverGroup::LT, 7000)));
        assert!(rated(lifetime, Species::Cat, k(CoverGroup::MB, 7000)));
        assert!(!rated(lifetime, Species::Rabbit, k(CoverGroup::LT, 7000)));
        assert!(!rated(
            RatingBadge::None,
            Species::Dog,
            k(CoverGroup::LT, 4000)
        ));
        // On confirmation: "review 7000 and confirmation 8000 for LT and MB" (the Lifetime
        // variant); the other variants as on review.
        assert!(!rated_on_confirmation(
            lifetime,
            Species::Dog,
            k(CoverGroup::LT, 7000)
        ));
        assert!(rated_on_confirmation(
            lifetime,
            Species::Dog,
            k(CoverGroup::LT, 8000)
        ));
        assert!(rated_on_confirmation(
            lifetime,
            Species::Cat,
            k(CoverGroup::MB, 10000)
        ));
        assert!(!rated_on_confirmation(
            lifetime,
            Species::Rabbit,
            k(CoverGroup::LT, 8000)
        ));
        assert!(!rated_on_confirmation(
            lifetime,
            Species::Dog,
            k(CoverGroup::TL, 8000)
        ));
        assert!(rated_on_confirmation(
            five,
            Species::Dog,
            k(CoverGroup::LT, 4000)
        ));
        assert!(!rated_on_confirmation(
            five,
            Species::Dog,
            k(CoverGroup::LT, 2500)
        ));
    }
}
