//! The answers the tests give: a dog, a cat, a rabbit and an owner that pass, and today in the UK.

use serde_json::{Value, json};

/// What we assume of a dog, as the assumptions page submits it with its tick.
pub fn dog_answers() -> Value {
    json!({
        "idd": "yes", "is_working_dog": "no", "dog_behaviour": "no", "licensed_premises": "no",
        "rescue_home": "no", "pet_reside_same_address": "yes", "pet_endemic_pandemic": "no",
        "pet_any_injury_illness": "no", "pet_neutered": "yes", "pet_sex": "f",
        "pet_microchipped": "yes", "confirm_assumptions": true, "assumptions_correct": true
    })
}

/// An owner who passes every rule (owner-payment.md §5 Owner).
pub fn valid_owner() -> Value {
    json!({
        "customer_title": "Ms",
        "customer_first_name": "Ada",
        "customer_last_name": "O'Neill-Smith",
        "customer_date_of_birth": "1985-03-27",
        "email_address": "ada@example.com",
        "customer_contact_number": "01632960123",
        "houseNumberName": "12",
        "customer_address_line_1": "12 Kings Road",
        "customer_town": "London",
        "customer_postcode": "SW1A 1AA",
        "marketing_preferences": { "optin_email": true, "optin_post": false, "optin_sms": false, "optin_phone": false }
    })
}

/// A dog that passes every rule.
pub fn valid_pet() -> Value {
    json!({
        "pet_name": "Biscuit",
        "pet_type": "dog",
        "dog_breed_type": "breed",
        "pet_breed": "D173",
        "pet_date_of_birth": "2023-04-01",
        "pet_sex": "f",
        "pet_neutered": "yes",
        "pet_any_injury_illness": "no",
        "pet_cost": "450.00",
        "confirm_assumptions": true
    })
}

/// A moggie that passes every rule.
pub fn cat() -> Value {
    let mut pet = valid_pet();
    pet["pet_name"] = json!("Tigger");
    pet["pet_type"] = json!("cat");
    pet.as_object_mut()
        .expect("object")
        .remove("dog_breed_type");
    pet["cat_breed_type"] = json!("C286");
    pet["pet_breed"] = json!("C286");
    pet
}

/// A Lionhead rabbit that passes every rule.
pub fn rabbit() -> Value {
    let mut pet = valid_pet();
    pet["pet_name"] = json!("Thumper");
    pet["pet_type"] = json!("rabbit");
    pet.as_object_mut()
        .expect("object")
        .remove("dog_breed_type");
    pet["rabbit_breed_type"] = json!("R338");
    pet["pet_breed"] = json!("R338");
    pet
}

/// Today in UK local time, as the server's rules see it.
pub fn uk_today() -> chrono::NaiveDate {
    chrono::Utc::now()
        .with_timezone(&chrono_tz::Europe::London)
        .date_naive()
}
