//! Several pets in one quote (journey.md §3 Pet: id 1-based in order; §4 Remove pet; §7
//! /api/deletePet).

use crate::common;

use common::{cat, rabbit, spawn_app, valid_pet};
use serde_json::{Value, json};

#[tokio::test]
async fn a_dog_a_cat_and_a_rabbit_in_one_quote_get_ids_in_order() {
    let app = spawn_app().await;
    let (status, body) = app.save_pets(json!([valid_pet(), cat(), rabbit()])).await;
    assert_eq!(status, 200, "{body}");
    let pets = app.stored_pets().await;
    let ids: Vec<(Value, Value, Value)> = pets
        .as_array()
        .expect("pets")
        .iter()
        .map(|p| {
            (
                p["id"].clone(),
                p["original_id"].clone(),
                p["petBreedName"].clone(),
            )
        })
        .collect();
    assert_eq!(
        ids,
        vec![
            (json!(1), json!(1), json!("Retriever (Labrador)")),
            (json!(2), json!(2), json!("Moggie")),
            (json!(3), json!(3), json!("Lionhead")),
        ]
    );
}

#[tokio::test]
async fn removing_a_pet_renumbers_the_rest_and_keeps_their_original_ids() {
    let app = spawn_app().await;
    app.save_pets(json!([valid_pet(), cat(), rabbit()])).await;
    let csrf = app.csrf().await;
    let (status, body) = app
        .post_json("/api/deletePet", &json!({ "id": 2, "csrf": csrf }))
        .await;
    assert_eq!(status, 200, "{body}");
    let names: Vec<Value> = body["data"]["pets"]
        .as_array()
        .expect("pets")
        .iter()
        .map(|p| p["pet_name"].clone())
        .collect();
    assert_eq!(names, vec![json!("Biscuit"), json!("Thumper")]);
    assert_eq!(body["data"]["pets"][1]["id"], 2);
    assert_eq!(body["data"]["pets"][1]["original_id"], 3);
    assert_eq!(app.stored_pets().await.as_array().map(Vec::len), Some(2));
}

#[tokio::test]
async fn the_last_pet_cannot_be_removed_and_bad_requests_change_nothing() {
    let app = spawn_app().await;
    app.save_pets(json!([valid_pet()])).await;
    let csrf = app.csrf().await;
    let (status, body) = app
        .post_json("/api/deletePet", &json!({ "id": 1, "csrf": csrf }))
        .await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(
        body["errors"],
        json!([{ "field": "id", "message": "Sorry we could not delete this pet." }])
    );
    let (status, _) = app.post_json("/api/deletePet", &json!({ "id": 1 })).await;
    assert_eq!(status, 403, "csrf");
    let (status, body) = app
        .post_json("/api/deletePet", &json!({ "id": "two", "csrf": csrf }))
        .await;
    assert_eq!(status, 400, "{body}");
    let (status, _) = app
        .post_json("/api/deletePet", &json!({ "id": 7, "csrf": csrf }))
        .await;
    assert_eq!(status, 422);
    assert_eq!(app.stored_pets().await.as_array().map(Vec::len), Some(1));
}

#[tokio::test]
async fn journey_4_add_another_pet_from_review_fetches_a_fresh_slot_on_the_pet_page() {
    // journey.md §4 Add another pet: "on /review a fresh pet slot is fetched, then the user is
    // redirected"; §7 /api/addpetid: "new pet slot; response replaces view data".
    let app = spawn_app().await;
    app.reach_assumptions(json!([valid_pet()])).await;
    let csrf = app.csrf().await;
    let (status, body) = app
        .post_json("/api/addpetid", &json!({ "csrf": csrf }))
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["outcome"], "moved");
    assert_eq!(body["data"]["step"]["id"], "pet_details");
    let pets = body["data"]["pets"].as_array().expect("pets");
    assert_eq!(pets.len(), 2);
    assert_eq!(pets[0]["pet_name"], "Biscuit", "the first pet as it was");
    assert!(
        pets[1].get("pet_type").is_none(),
        "a blank slot: {}",
        pets[1]
    );
    // One blank slot at a time: a second asks for the first to be filled in.
    let csrf = app.csrf().await;
    let (status, body) = app
        .post_json("/api/addpetid", &json!({ "csrf": csrf }))
        .await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(body["errors"][0]["field"], "pets");
    assert_eq!(
        body["errors"][0]["message"],
        "Please tell us about the pet you've already added before adding another."
    );
    assert_eq!(app.stored_pets().await.as_array().map(Vec::len), Some(2));
    // Without the page's CSRF token nothing is added.
    let (status, _) = app.post_json("/api/addpetid", &json!({})).await;
    assert_eq!(status, 403);
}

#[tokio::test]
async fn journey_2_the_review_edits_a_pet_in_place_and_shows_the_new_price() {
    // journey.md §2 Modals "edit pet details" (editing from review no longer sends the
    // customer back through page 1, your details and choose policy).
    let app = spawn_app().await;
    app.reach_assumptions(json!([valid_pet()])).await;
    let view = app.view("/quote/review").await;
    let before = view["pets"][0]["product"]["RecurringMonthly"].clone();
    let edit = &view["edits"]["pet_details"];
    let call = edit["submit"]
        .as_str()
        .expect("the modal's call")
        .to_owned();
    let mut pets = edit["answers"]["pets"].clone();
    pets[0]["pet_neutered"] = json!("no");
    let (status, body) = app
        .edit(&call, "pet_details", json!({ "pets": pets }))
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["outcome"], "moved", "{body}");
    // The review is still open (the page loads it again), with the new price.
    let view = app.view("/quote/review").await;
    assert_eq!(view["step"]["id"], "review");
    let after = &view["pets"][0]["product"]["RecurringMonthly"];
    assert_ne!(after, &before, "re-priced");
    assert_eq!(app.stored_pets().await[0]["pet_neutered"], "no");
    // The pet page's rules hold in the modal too: a date of birth too recent is refused.
    let mut pets = edit["answers"]["pets"].clone();
    pets[0]["pet_date_of_birth"] = json!(common::uk_today().format("%Y-%m-%d").to_string());
    let (status, body) = app
        .edit(&call, "pet_details", json!({ "pets": pets }))
        .await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(
        body["errors"][0]["field"], "pets[0].pet_date_of_birth",
        "{body}"
    );
    assert_eq!(
        app.stored_pets().await[0]["pet_neutered"],
        "no",
        "nothing changed"
    );
}

#[tokio::test]
async fn the_new_calls_refuse_what_they_do_not_take() {
    // /api/addpetid and /api/sendquoteemail take the CSRF token only: anything else is refused
    // naming the field, an oversized body is refused whole, and nothing is stored.
    let app = spawn_app().await;
    app.reach_assumptions(json!([valid_pet()])).await;
    for call in ["/api/addpetid", "/api/sendquoteemail"] {
        let csrf = app.csrf().await;
        let (status, body) = app
            .post_json(call, &json!({ "csrf": csrf, "pets": [{}, {}, {}] }))
            .await;
        assert_eq!(status, 400, "{call}: {body}");
        assert!(body.to_string().contains("pets"), "{call}: {body}");
        let (status, _) = app
            .post_json(call, &json!({ "csrf": csrf, "x": "a".repeat(2_000_000) }))
            .await;
        assert_eq!(status, 413, "{call}");
    }
    assert_eq!(app.stored_pets().await.as_array().map(Vec::len), Some(1));
}
