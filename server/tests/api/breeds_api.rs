//! Breeds on the pet details call: journey.md §3 (Pet, Breed data), §4 (Pet details) and §5 (Pet
//! form; Age rule), enforced by the server with the breed data, and the breed list call (§7).

use crate::common;

use chrono::{Duration, Months};
use common::{spawn_app, uk_today, valid_pet};
use serde_json::{Value, json};

/// A valid pet with some fields replaced (null removes a field).
fn pet(changes: Value) -> Value {
    let mut pet = valid_pet();
    for (k, v) in changes.as_object().expect("object") {
        if v.is_null() {
            pet.as_object_mut().expect("object").remove(k);
        } else {
            pet[k] = v.clone();
        }
    }
    pet
}

fn years_ago(years: u32, plus_days: i64) -> String {
    let d = uk_today()
        .checked_sub_months(Months::new(years * 12))
        .expect("date")
        - Duration::days(plus_days);
    d.format("%Y-%m-%d").to_string()
}

#[tokio::test]
async fn each_breed_rule_refuses_with_the_spec_message() {
    let cases: Vec<(&str, Value, &str, &str)> = vec![
        (
            "§5 dog_breed_type required for dogs",
            pet(json!({ "dog_breed_type": null, "pet_breed": null })),
            "pets[0].dog_breed_type",
            "This field is required",
        ),
        (
            "§5 pet_breed required",
            pet(json!({ "pet_breed": null })),
            "pets[0].pet_breed",
            "This field is required",
        ),
        (
            "§3 a breed that does not exist",
            pet(json!({ "pet_breed": "D999" })),
            "pets[0].pet_breed",
            "Please choose a breed from the list",
        ),
        (
            "§3 a cat breed for a dog",
            pet(json!({ "pet_breed": "C206" })),
            "pets[0].pet_breed",
            "Please choose a breed from the list",
        ),
        (
            "§3 a crossbreed chosen as a pedigree",
            pet(json!({ "pet_breed": "D406" })),
            "pets[0].pet_breed",
            "Please choose a breed from the list",
        ),
        (
            "§4 a banned breed: Pit Bull Terrier",
            pet(json!({ "pet_breed": "D228" })),
            "pets[0].pet_breed",
            "Sorry, we don't insure this breed.",
        ),
        (
            "§4 a banned breed: XL Bully",
            pet(json!({ "pet_breed": "D232" })),
            "pets[0].pet_breed",
            "Sorry, we don't insure this breed.",
        ),
        (
            "§5 xl_bully_at_risk required for at-risk dogs",
            pet(json!({ "pet_breed": "D205" })),
            "pets[0].xl_bully_at_risk",
            "This field is required",
        ),
        (
            "§4 XL Bully yes",
            pet(json!({ "pet_breed": "D205", "xl_bully_at_risk": "yes" })),
            "pets[0].xl_bully_at_risk",
            "Sorry, we are unable to insure your pet.",
        ),
        (
            "§5 mongrel_size required for mongrels",
            pet(json!({ "dog_breed_type": "mongrel", "pet_breed": "D608" })),
            "pets[0].mongrel_size",
            "This field is required",
        ),
        (
            "§4 a mongrel size sets the breed",
            pet(
                json!({ "dog_breed_type": "mongrel", "mongrel_size": "D608", "pet_breed": "D607" }),
            ),
            "pets[0].pet_breed",
            "Please choose a breed from the list",
        ),
        (
            "§5 cat_breed_type required for cats",
            pet(json!({ "pet_type": "cat", "dog_breed_type": null, "pet_breed": "C206" })),
            "pets[0].cat_breed_type",
            "This field is required",
        ),
        (
            "§4 a cat type other than pedigree is the breed",
            pet(
                json!({ "pet_type": "cat", "dog_breed_type": null, "cat_breed_type": "C286", "pet_breed": "C206" }),
            ),
            "pets[0].pet_breed",
            "Please choose a breed from the list",
        ),
        (
            "§4 a pedigree cat needs a pedigree breed",
            pet(
                json!({ "pet_type": "cat", "dog_breed_type": null, "cat_breed_type": "pedigree", "pet_breed": "C286" }),
            ),
            "pets[0].pet_breed",
            "Please choose a breed from the list",
        ),
        (
            "§5 rabbit_breed_type required for rabbits",
            pet(json!({ "pet_type": "rabbit", "dog_breed_type": null, "pet_breed": "R338" })),
            "pets[0].rabbit_breed_type",
            "This field is required",
        ),
        (
            "§5 Age rule: Great Dane to the 5th birthday",
            pet(json!({ "pet_breed": "D095", "pet_date_of_birth": years_ago(5, 1) })),
            "pets[0].pet_date_of_birth",
            "New cover is only available for pets from 8 weeks old up to 5 years old",
        ),
        (
            "§5 Age rule: cats to the 10th birthday",
            pet(
                json!({ "pet_type": "cat", "dog_breed_type": null, "cat_breed_type": "C286", "pet_breed": "C286", "pet_date_of_birth": years_ago(10, 0) }),
            ),
            "pets[0].pet_date_of_birth",
            "New cover is only available for pets from 8 weeks old up to 10 years old",
        ),
        (
            "§5 Age rule: rabbits to the 5th birthday",
            pet(
                json!({ "pet_type": "rabbit", "dog_breed_type": null, "rabbit_breed_type": "R338", "pet_breed": "R338", "pet_date_of_birth": years_ago(5, 0) }),
            ),
            "pets[0].pet_date_of_birth",
            "New cover is only available for pets from 8 weeks old up to 5 years old",
        ),
    ];
    let app = spawn_app().await;
    let mut failures = Vec::new();
    for (rule, pet, field, message) in cases {
        let (status, body) = app.save_pets(json!([pet])).await;
        let expected = json!({ "field": field, "message": message });
        if status != 422
            || !body["errors"]
                .as_array()
                .is_some_and(|e| e.contains(&expected))
        {
            failures.push(format!("{rule}: got {status} {body}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(app.stored_pets().await, json!([]), "nothing was stored");
}

#[tokio::test]
async fn every_kind_of_pet_the_spec_allows_is_accepted() {
    let cases: Vec<(&str, Value)> = vec![
        ("a pedigree dog", pet(json!({}))),
        (
            "an at-risk dog that is not an XL Bully",
            pet(json!({ "pet_breed": "D205", "xl_bully_at_risk": "no" })),
        ),
        (
            "a third-party-liability-excluded dog",
            pet(json!({ "pet_breed": "D004" })),
        ),
        (
            "a mongrel",
            pet(
                json!({ "dog_breed_type": "mongrel", "mongrel_size": "D608", "pet_breed": "D608" }),
            ),
        ),
        (
            "a moggie",
            pet(
                json!({ "pet_type": "cat", "dog_breed_type": null, "cat_breed_type": "C286", "pet_breed": "C286" }),
            ),
        ),
        (
            "a pedigree cat",
            pet(
                json!({ "pet_type": "cat", "dog_breed_type": null, "cat_breed_type": "pedigree", "pet_breed": "C206" }),
            ),
        ),
        (
            "a Lionhead rabbit",
            pet(
                json!({ "pet_type": "rabbit", "dog_breed_type": null, "rabbit_breed_type": "R338", "pet_breed": "R338" }),
            ),
        ),
        (
            "an other rabbit",
            pet(
                json!({ "pet_type": "rabbit", "dog_breed_type": null, "rabbit_breed_type": "other", "pet_breed": "R327" }),
            ),
        ),
        (
            "a Great Dane the day before its 5th birthday",
            pet(json!({ "pet_breed": "D095", "pet_date_of_birth": years_ago(5, -1) })),
        ),
    ];
    for (what, pet) in cases {
        let app = spawn_app().await;
        let (status, body) = app.save_pets(json!([pet])).await;
        assert_eq!(status, 200, "{what}: {body}");
    }
}

#[tokio::test]
async fn a_crossbreed_goes_to_the_crossbreed_step_and_the_breed_name_is_the_servers() {
    let app = spawn_app().await;
    let mut cockapoo = pet(json!({ "dog_breed_type": "crossbreed", "pet_breed": "D406" }));
    cockapoo["breed_category"] = json!("pedigree"); // a client cannot set what the server derives
    let (status, body) = app.save_pets(json!([cockapoo])).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["outcome"], "moved");
    assert_eq!(
        body["data"]["step"]["id"], "crossbreed",
        "journey.md §2: crossbreeds confirm at /crossbreed"
    );
    let stored = &app.stored_pets().await[0];
    assert_eq!(stored["petBreedName"], "Cockapoo");
    assert_eq!(stored["breed_category"], "dog_crossbreed");
}

#[tokio::test]
async fn changing_species_forgets_the_old_type_answers() {
    let app = spawn_app().await;
    let (status, _) = app.save_pets(json!([pet(json!({}))])).await;
    assert_eq!(status, 200);
    let cat = pet(
        json!({ "pet_type": "cat", "dog_breed_type": null, "cat_breed_type": "C286", "pet_breed": "C286" }),
    );
    let (status, body) = app.save_pets(json!([cat])).await;
    assert_eq!(status, 200, "{body}");
    let stored = &app.stored_pets().await[0];
    assert!(stored.get("dog_breed_type").is_none(), "{stored}");
    assert_eq!(stored["petBreedName"], "Moggie");
}

#[tokio::test]
async fn the_breed_list_serves_every_active_breed_by_species_with_a_version_etag() {
    let app = spawn_app().await;
    let r = app
        .client
        .get(format!("{}/api/getbreedlist", app.base))
        .send()
        .await
        .expect("get");
    assert_eq!(r.status(), 200);
    let etag = r.headers()["etag"].to_str().expect("etag").to_owned();
    let data = r.json::<Value>().await.expect("json")["data"].clone();
    let dogs = &data["dog_breed_data"];
    assert!(dogs["breedData"].as_array().expect("breedData").len() >= 222);
    assert!(
        dogs["crossbreedData"]
            .as_array()
            .expect("crossbreedData")
            .iter()
            .any(|b| b["id"] == "D604")
    );
    assert_eq!(
        dogs["mongrelData"].as_array().expect("mongrelData").len(),
        3
    );
    assert!(
        data["cat_breed_data"]
            .as_array()
            .expect("cats")
            .iter()
            .any(|b| b["id"] == "C286" && b["desc"] == "Moggie")
    );
    assert!(
        data["rabbit_breed_data"]
            .as_array()
            .expect("rabbits")
            .iter()
            .any(|b| b["id"] == "R347")
    );
    let again = app
        .client
        .get(format!("{}/api/retrievepetswithbreeddata", app.base))
        .header("If-None-Match", &etag)
        .send()
        .await
        .expect("get");
    assert_eq!(again.status(), 304);
}

/// journey.md §2 /crossbreed, §4 Pet details (crossbreed pets go through the combined
/// owner-and-pets call carrying confirm_crossbreed), §5 ("Please tick the checkbox to confirm").
#[tokio::test]
async fn the_crossbreed_page_takes_the_confirmation_through_petownerdetails() {
    let app = spawn_app().await;
    let cockapoo = pet(json!({ "dog_breed_type": "crossbreed", "pet_breed": "D406" }));
    let (status, _) = app.save_pets(json!([cockapoo])).await;
    assert_eq!(status, 200);
    let page = app.view("/quote/crossbreed").await;
    assert_eq!(page["step"]["id"], "crossbreed");
    assert_eq!(page["questions"]["submit"], "/api/petownerdetails");
    assert_eq!(
        page["questions"]["answers"]["pets"][0]["breed_category"], "dog_crossbreed",
        "shown to the page"
    );
    let csrf = page["csrf"].as_str().expect("csrf").to_owned();

    let refusal = json!([{ "field": "pets[0].confirm_crossbreed", "message": "Please tick the checkbox to confirm" }]);
    for pets in [json!([{}]), json!([{ "confirm_crossbreed": false }])] {
        let (status, body) = app
            .post_json(
                "/api/petownerdetails",
                &json!({ "csrf": csrf, "owner": {}, "pets": pets }),
            )
            .await;
        assert_eq!((status, &body["errors"]), (422, &refusal), "{body}");
    }
    let (status, _) = app
        .post_json(
            "/api/petownerdetails",
            &json!({ "owner": {}, "pets": [{ "confirm_crossbreed": true }] }),
        )
        .await;
    assert_eq!(status, 403, "csrf is required here too");

    // The read-only fields the page shows cannot be changed through it.
    let (status, body) = app
        .post_json(
            "/api/petownerdetails",
            &json!({ "csrf": csrf, "owner": {}, "pets": [{ "confirm_crossbreed": true, "pet_name": "Renamed", "breed_category": "pedigree" }] }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["outcome"], "moved");
    assert_eq!(body["data"]["step"]["id"], "your_details");
    let stored = &app.stored_pets().await[0];
    assert_eq!(stored["pet_name"], "Biscuit");
    assert_eq!(stored["breed_category"], "dog_crossbreed");
    assert_eq!(stored["confirm_crossbreed"], true);
}

#[tokio::test]
async fn a_pedigree_needs_no_crossbreed_confirmation() {
    let app = spawn_app().await;
    let (status, body) = app.save_pets(json!([pet(json!({}))])).await;
    assert_eq!(status, 200);
    assert_eq!(body["data"]["step"]["id"], "your_details");
    // The crossbreed page is not on this quote's way.
    assert_eq!(
        app.view("/quote/crossbreed").await["step"]["id"],
        "your_details"
    );
}
