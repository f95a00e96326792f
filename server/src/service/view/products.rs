//! The products a page shows: the priced products drawn for the page, by pet.

use serde_json::Value;

use crate::service::view::shared::{Shared, SharedRef, SharedValue};

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

/// The products a page draws (the view data carries what its step needs): every
/// product where cover is chosen (cover select, and the review with its change-cover modal),
/// each pet's chosen product where it is shown (payment, the checks before buying,
/// confirmation), none elsewhere (journey.md §3 Quote view data: the list is there, empty).
pub(super) fn drawn_products(
    view: engine::definitions::View,
) -> Option<engine::journey::quoting::Drawn> {
    use engine::definitions::View;
    use engine::journey::quoting::Drawn;
    match view {
        View::ChoosePolicy | View::Review => Some(Drawn::Every),
        View::Payment
        | View::PaymentConfirmation
        | View::CardConfirmation
        | View::RescueConfirmation => Some(Drawn::Chosen),
        View::Confirmation => Some(Drawn::Bought),
        View::Form | View::Pending | View::Assumptions => None,
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

/// The products as the view data carries them (the view sends what the page needs,
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
