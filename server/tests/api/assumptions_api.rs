//! Assumptions and health questions, pre-existing conditions and the policy start date, over
//! HTTP against a real server and database. Each case names the spec section that states it:
//! journey.md §2 Assumptions, §4 Assumptions and health questions, §4 Pre-existing conditions
//! and vet search, §4 Policy start date, §5; owner-payment.md §3 Vet, §4, §5 Vet and pre-existing
//! conditions.

use crate::common;

use common::{cat, dog_answers, rabbit, spawn_app, uk_today, valid_pet, with_form};
use serde_json::{Value, json};

fn with(mut base: Value, field: &str, value: Value) -> Value {
    if value.is_null() {
        base.as_object_mut().expect("object").remove(field);
    } else {
        base[field] = value;
    }
    base
}

fn first_error(body: &Value) -> (String, String) {
    let e = &body["errors"][0];
    (
        e["field"].as_str().unwrap_or_default().to_owned(),
        e["message"].as_str().unwrap_or_default().to_owned(),
    )
}

#[tokio::test]
async fn the_assumptions_page_opens_only_once_every_pet_has_a_product() {
    let app = spawn_app().await;
    let (status, _) = app.save_pets(json!([valid_pet()])).await;
    assert_eq!(status, 200);
    // journey.md §2: /assumptions follows review, which needs a chosen product.
    let view = app.view("/quote/assumptions").await;
    assert_ne!(view["step"]["id"], "assumptions", "not open yet");
    let (status, body) = app
        .edit(
            "/api/petdetails",
            "assumptions",
            json!({ "pets": [dog_answers()] }),
        )
        .await;
    // Refused, naming the form, and nothing stored.
    assert_eq!(status, 409, "{body}");
    assert_eq!(body["error"], "step_closed", "the modal's page is not open");
    assert_eq!(body["form"], "assumptions");
    assert!(
        app.stored_pets().await[0].get("idd").is_none(),
        "nothing stored"
    );

    app.reach_assumptions(json!([valid_pet()])).await;
    let view = app.view("/quote/assumptions").await;
    assert_eq!(view["step"]["id"], "assumptions");
    assert_eq!(view["step"]["title"], "Just before you pay...");
    assert_eq!(view["questions"]["submit"], "/api/saveDeclaration");
    // The page's modals: the assumptions, the pre-existing conditions and the start date.
    assert_eq!(view["edits"]["assumptions"]["submit"], "/api/petdetails");
    assert_eq!(view["edits"]["pre_existing"]["submit"], "/api/petdetails");
    assert_eq!(view["edits"]["start_date"]["submit"], "/api/ownerdetail");
    // journey.md §4: the health questions in their order after the assumption questions.
    let questions = with_form(&app.base, &view["questions"]).await;
    let order = &questions["ui"]["pets"]["items"]["ui:order"];
    let pos = |id: &str| {
        order
            .as_array()
            .expect("order")
            .iter()
            .position(|v| v == id)
            .unwrap_or_else(|| panic!("{id} in ui:order"))
    };
    assert!(pos("idd") < pos("pet_endemic_pandemic"));
    assert!(pos("pet_endemic_pandemic") < pos("pet_any_injury_illness"));
    assert!(pos("pet_any_injury_illness") < pos("pet_neutered"));
    assert!(pos("pet_neutered") < pos("pet_sex"));
    assert!(pos("pet_sex") < pos("pet_microchipped"));
}

#[tokio::test]
async fn the_confirmed_assumptions_go_to_payment() {
    let app = spawn_app().await;
    app.reach_assumptions(json!([valid_pet()])).await;
    let csrf = app.csrf().await;
    let (status, body) = app
        .post_json(
            "/api/saveDeclaration",
            &json!({ "csrf": csrf, "pets": [dog_answers()] }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["outcome"], "moved");
    assert_eq!(body["data"]["step"]["id"], "payment");
    let pet = &app.stored_pets().await[0];
    assert_eq!(pet["idd"], "yes");
    assert_eq!(pet["assumptions_correct"], true);
    // Fields the page shows but never takes stay as the pet page stored them.
    assert_eq!(pet["pet_name"], "Biscuit");
}

#[tokio::test]
async fn every_assumption_rule_is_enforced_with_the_spec_message_and_nothing_is_stored() {
    let no_tick = with(dog_answers(), "assumptions_correct", Value::Null);
    let cases: Vec<(&str, Value, &str, &str)> = vec![
        (
            "journey.md §4 blocking answer: idd = no",
            with(dog_answers(), "idd", json!("no")),
            "pets[0].idd",
            "We can't provide cover, as this would not suit your needs.",
        ),
        (
            "journey.md §4 blocking answer: is_working_dog = yes",
            with(dog_answers(), "is_working_dog", json!("yes")),
            "pets[0].is_working_dog",
            "We're sorry but we can't cover working dogs.",
        ),
        (
            "journey.md §4 blocking answer: pet_endemic_pandemic = yes",
            with(dog_answers(), "pet_endemic_pandemic", json!("yes")),
            "pets[0].pet_endemic_pandemic",
            "We're sorry but we can't cover a pet affected by an epidemic or pandemic disease.",
        ),
        (
            "journey.md §5 assumption answers are required",
            with(dog_answers(), "rescue_home", Value::Null),
            "pets[0].rescue_home",
            "This field is required",
        ),
        (
            "journey.md §4 dog questions are asked of dogs",
            with(dog_answers(), "is_working_dog", Value::Null),
            "pets[0].is_working_dog",
            "This field is required",
        ),
        (
            "journey.md §3 answers are the strings yes and no",
            with(dog_answers(), "dog_behaviour", json!("maybe")),
            "pets[0].dog_behaviour",
            "Please enter a valid value",
        ),
        (
            "journey.md §5 the confirm tick must be true",
            no_tick.clone(),
            "pets[0].assumptions_correct",
            "Please confirm the assumptions are correct",
        ),
        (
            "journey.md §5 the confirm tick must be true, not false",
            with(dog_answers(), "assumptions_correct", json!(false)),
            "pets[0].assumptions_correct",
            "Please confirm the assumptions are correct",
        ),
    ];
    let app = spawn_app().await;
    app.reach_assumptions(json!([valid_pet()])).await;
    let csrf = app.csrf().await;
    let before = app.stored_pets().await;
    for (case, pet, field, message) in cases {
        let (status, body) = app
            .post_json(
                "/api/saveDeclaration",
                &json!({ "csrf": csrf, "pets": [pet] }),
            )
            .await;
        assert_eq!(status, 422, "{case}: {body}");
        assert_eq!(
            first_error(&body),
            (field.to_owned(), message.to_owned()),
            "{case}"
        );
        assert_eq!(app.stored_pets().await, before, "{case}: nothing stored");
    }
}

#[tokio::test]
async fn the_edit_modal_refuses_blocking_answers_and_saves_without_the_tick() {
    let app = spawn_app().await;
    app.reach_assumptions(json!([valid_pet()])).await;
    let no_tick = with(dog_answers(), "assumptions_correct", Value::Null);
    // journey.md §4: blocking answers disable submit in the modal too; nothing is stored.
    let (status, body) = app
        .edit(
            "/api/petdetails",
            "assumptions",
            json!({ "pets": [with(no_tick.clone(), "idd", json!("no"))] }),
        )
        .await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(
        first_error(&body).1,
        "We can't provide cover, as this would not suit your needs."
    );
    assert!(app.stored_pets().await[0].get("idd").is_none());
    // Saving the modal stores the answers and sets confirm_assumptions; the page stays open.
    let changed = with(no_tick, "pet_microchipped", json!("no"));
    let (status, body) = app
        .edit(
            "/api/petdetails",
            "assumptions",
            json!({ "pets": [with(changed, "confirm_assumptions", json!(true))] }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["outcome"], "moved");
    let pet = &app.stored_pets().await[0];
    assert_eq!(pet["pet_microchipped"], "no");
    assert_eq!(pet["confirm_assumptions"], true);
    assert_eq!(
        app.view("/quote/assumptions").await["step"]["id"],
        "assumptions"
    );
    // A form this call does not save is refused naming it.
    let (status, body) = app
        .edit("/api/petdetails", "start_date", json!({ "pets": [{}] }))
        .await;
    assert_eq!(status, 400, "{body}");
    assert!(
        body["message"]
            .as_str()
            .unwrap_or_default()
            .contains("start_date")
    );
}

#[tokio::test]
async fn questions_follow_the_species_of_each_pet() {
    // journey.md §4: the assumption questions are filtered by species: a cat is not asked the
    // dog questions, a rabbit not about microchipping.
    let app = spawn_app().await;
    app.reach_assumptions(json!([valid_pet(), cat(), rabbit()]))
        .await;
    let cat_answers = json!({
        "idd": "yes", "rescue_home": "no", "pet_reside_same_address": "yes",
        "pet_endemic_pandemic": "no", "pet_any_injury_illness": "no", "pet_neutered": "yes",
        "pet_sex": "m", "pet_microchipped": "yes", "assumptions_correct": true
    });
    let mut rabbit_answers = cat_answers.clone();
    rabbit_answers
        .as_object_mut()
        .expect("object")
        .remove("pet_microchipped");
    let csrf = app.csrf().await;
    let cat_without_chip = with(cat_answers.clone(), "pet_microchipped", Value::Null);
    let (status, body) = app
        .post_json(
            "/api/saveDeclaration",
            &json!({ "csrf": csrf, "pets": [dog_answers(), cat_without_chip, rabbit_answers] }),
        )
        .await;
    assert_eq!(status, 422);
    assert_eq!(
        first_error(&body),
        (
            "pets[1].pet_microchipped".to_owned(),
            "This field is required".to_owned()
        ),
        "journey.md §4: microchipping is asked of cats"
    );
    let (status, body) = app
        .post_json(
            "/api/saveDeclaration",
            &json!({ "csrf": csrf, "pets": [dog_answers(), cat_answers, rabbit_answers] }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["step"]["id"], "payment");
}

#[tokio::test]
async fn an_injury_or_illness_refers_the_pet_and_asks_for_details_and_a_vet() {
    let app = spawn_app().await;
    let ill = with(valid_pet(), "pet_any_injury_illness", json!("yes"));
    app.reach_assumptions(json!([ill, cat()])).await;
    // journey.md §4: a pet answering yes to injury or illness is referred (RA008); the other is
    // not.
    let pets = app.stored_pets().await;
    assert_eq!(pets[0]["refer_code"], "RA008");
    assert!(pets[1].get("refer_code").is_none());

    let vet = json!({
        "vet_name": "Harbourside Veterinary Centre", "vet_id": "V0001",
        "vet_address_line_1": "1 Quay Street", "vet_town": "Bristol", "vet_postcode": "BS1 4DJ",
        "done_vet_search": true, "vets_found": true
    });
    let details = |d: &str| {
        let mut p = vet.clone();
        p["pet_injury_illness_details"] = json!(d);
        p
    };
    let cases: Vec<(&str, Value, &str, &str)> = vec![
        (
            "owner-payment.md §5 details required",
            vet.clone(),
            "pets[0].pet_injury_illness_details",
            "This field is required",
        ),
        (
            "owner-payment.md §5 details: letters, digits, spaces and line breaks only",
            details("Limping <since> March!"),
            "pets[0].pet_injury_illness_details",
            "This field cannot contain special characters",
        ),
        (
            "owner-payment.md §5 details: up to 1000 characters",
            details(&"a".repeat(1001)),
            "pets[0].pet_injury_illness_details",
            "Please use no more than 1000 characters",
        ),
        (
            "owner-payment.md §5 before a vet search: Please search for your vet",
            json!({ "pet_injury_illness_details": "Limping" }),
            "pets[0].vet_name",
            "Please search for your vet",
        ),
        (
            "owner-payment.md §5 vets found: Please choose a vet from the list",
            json!({ "pet_injury_illness_details": "Limping", "done_vet_search": true, "vets_found": true }),
            "pets[0].vet_name",
            "Please choose a vet from the list",
        ),
    ];
    let before = app.stored_pets().await;
    for (case, pet, field, message) in cases {
        let (status, body) = app
            .edit(
                "/api/petdetails",
                "pre_existing",
                json!({ "pets": [pet, {}] }),
            )
            .await;
        assert_eq!(status, 422, "{case}: {body}");
        assert_eq!(
            first_error(&body),
            (field.to_owned(), message.to_owned()),
            "{case}"
        );
        assert_eq!(app.stored_pets().await, before, "{case}: nothing stored");
    }

    // A vet chosen from the list, with details over two lines.
    let (status, body) = app
        .edit(
            "/api/petdetails",
            "pre_existing",
            json!({ "pets": [details("Limping since March\nSeen twice"), {}] }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let pet = &app.stored_pets().await[0];
    assert_eq!(pet["vet_name"], "Harbourside Veterinary Centre");
    assert_eq!(
        pet["pet_injury_illness_details"],
        "Limping since March\nSeen twice"
    );

    // owner-payment.md §3: a vet_name of notFound sets provide_vet_later; journey.md §4: the
    // vet's address is blanked when the vet is provided later.
    let mut later = details("Limping");
    later["vet_name"] = json!("notFound");
    let (status, body) = app
        .edit(
            "/api/petdetails",
            "pre_existing",
            json!({ "pets": [later, {}] }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let pet = &app.stored_pets().await[0];
    assert_eq!(pet["provide_vet_later"], true);
    assert_eq!(pet["vet_name"], "notFound");
    assert!(pet.get("vet_address_line_1").is_none());
    assert!(pet.get("vet_id").is_none());
    // The cat, not referred, is asked nothing.
    assert!(app.stored_pets().await[1].get("vet_name").is_none());
}

#[tokio::test]
async fn the_start_date_is_saved_through_the_owner_update_within_its_window() {
    let app = spawn_app().await;
    app.reach_assumptions(json!([valid_pet()])).await;
    let today = uk_today();
    let day = |n: i64| {
        (today + chrono::Duration::days(n))
            .format("%Y-%m-%d")
            .to_string()
    };
    let uk = |n: i64| {
        (today + chrono::Duration::days(n))
            .format("%d/%m/%Y")
            .to_string()
    };
    let too_late = format!(
        "Cover can start up to 30 days from today. Please choose a date from {} to {}.",
        uk(0),
        uk(30)
    );
    let cases: Vec<(&str, Value, &str, &str)> = vec![
        (
            "journey.md §5 start date required",
            json!({}),
            "owner.pet_policy_start_date",
            "This field is required",
        ),
        (
            "journey.md §4 a date after the latest (30 days ahead) is refused, saying why and the window",
            json!({ "pet_policy_start_date": day(31) }),
            "owner.pet_policy_start_date",
            &too_late,
        ),
        (
            "journey.md §5 a strict valid date",
            json!({ "pet_policy_start_date": "2026-02-30" }),
            "owner.pet_policy_start_date",
            "Please enter a valid date",
        ),
    ];
    for (case, owner, field, message) in cases {
        let (status, body) = app
            .edit("/api/ownerdetail", "start_date", json!({ "owner": owner }))
            .await;
        assert_eq!(status, 422, "{case}: {body}");
        assert_eq!(
            first_error(&body),
            (field.to_owned(), message.to_owned()),
            "{case}"
        );
    }
    // Tomorrow, then another day 30 days ahead: saved, and the view data says which option.
    for (n, option) in [(1, "tomorrow"), (30, "other"), (0, "today")] {
        let (status, body) = app
            .edit(
                "/api/ownerdetail",
                "start_date",
                json!({ "owner": { "pet_policy_start_date": day(n) } }),
            )
            .await;
        assert_eq!(status, 200, "{body}");
        let view = app.view("/quote/assumptions").await;
        assert_eq!(view["owner"]["pet_policy_start_date"], day(n));
        assert_eq!(view["start_date"]["chosen_option"], option);
        // The owner's other fields survive the owner update.
        assert_eq!(view["owner"]["customer_postcode"], "SW1A 1AA");
    }
    // journey.md §4: a date before the minimum is lifted to it.
    let (status, body) = app
        .edit(
            "/api/ownerdetail",
            "start_date",
            json!({ "owner": { "pet_policy_start_date": day(-3) } }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        app.view("/quote/assumptions").await["owner"]["pet_policy_start_date"],
        day(0)
    );
}

#[tokio::test]
async fn a_start_date_that_takes_a_pet_past_its_maximum_age_is_refused() {
    // journey.md §5 Age rule at cover start: a Great Dane (maximum 5 years) whose 5th birthday
    // is in 10 days can start today but not in 20 days.
    let app = spawn_app().await;
    let today = uk_today();
    let dob = (today + chrono::Duration::days(10))
        .checked_sub_months(chrono::Months::new(60))
        .expect("date");
    let mut dane = valid_pet();
    dane["pet_breed"] = json!("D095");
    dane["pet_date_of_birth"] = json!(dob.format("%Y-%m-%d").to_string());
    app.reach_assumptions(json!([dane])).await;
    let view = app.view("/quote/assumptions").await;
    assert_eq!(
        view["start_date"]["latest"],
        (today + chrono::Duration::days(9))
            .format("%Y-%m-%d")
            .to_string()
    );
    let day20 = (today + chrono::Duration::days(20))
        .format("%Y-%m-%d")
        .to_string();
    let (status, body) = app
        .edit(
            "/api/ownerdetail",
            "start_date",
            json!({ "owner": { "pet_policy_start_date": day20 } }),
        )
        .await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(
        first_error(&body).1,
        format!(
            "Cover must start before your pet reaches the oldest age we can cover. Please choose a date from {} to {}.",
            today.format("%d/%m/%Y"),
            (today + chrono::Duration::days(9)).format("%d/%m/%Y")
        )
    );
}

#[tokio::test]
async fn the_test_data_call_does_not_exist_unless_test_mode_is_on() {
    // The call QA's scripted flows use to skip ahead is off unless PAWPATH_TEST_MODE=1.
    let app = spawn_app().await;
    let csrf = app.csrf().await;
    let (status, _) = app
        .post_json(
            "/api/test/patch",
            &json!({ "csrf": csrf, "owner": { "customer_postcode": "SW1A 1AA" } }),
        )
        .await;
    assert_eq!(status, 404);
}
