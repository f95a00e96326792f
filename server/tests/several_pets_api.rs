//! Several pets in one quote (journey.md §3 Pet: id 1-based in order; §4 Remove pet; §7
//! /api/deletePet).

mod common;

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
