//! The vet search (journey.md §4 Pre-existing conditions and vet search, §7 /api/getvetlist;
//! owner-payment.md §5 Vet postcode search).

use crate::common;

use common::spawn_app;
use serde_json::{Value, json};

fn shipped_first_vet() -> Value {
    let text = std::fs::read_to_string(common::repo_root().join("server/data/vets.json"))
        .expect("vets.json");
    let file: Value = serde_json::from_str(&text).expect("json");
    file["vets"][0].clone()
}

#[tokio::test]
async fn a_postcode_finds_the_practices_of_its_district_formatted_as_the_spec_says() {
    let app = spawn_app().await;
    let vet = shipped_first_vet();
    let postcode = vet["postcode"].as_str().expect("postcode");
    let typed = postcode.replace(' ', "").to_lowercase();
    let (status, body) = app
        .post_json(
            "/api/getvetlist",
            &json!({ "postcode": typed, "locale": "en-GB" }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body["postcode"], postcode,
        "a postcode ending in a letter gets a space before its last digit"
    );
    let found = body["data"].as_array().expect("an array of vets");
    assert!(found.contains(&vet), "{body}");
    for v in found {
        for field in [
            "vet_id",
            "companyname",
            "accountname",
            "address_1",
            "address_2",
            "address_3",
            "postcode",
        ] {
            assert!(v.get(field).is_some(), "{field} in {v}");
        }
    }
}

#[tokio::test]
async fn an_outward_code_alone_searches_its_area_and_nowhere_gives_an_empty_list() {
    let app = spawn_app().await;
    let (status, body) = app
        .post_json("/api/getvetlist", &json!({ "postcode": "ZE99" }))
        .await;
    assert_eq!(status, 200, "{body}");
    let found = body["data"].as_array().expect("vets");
    assert!(
        !found.is_empty()
            && found
                .iter()
                .all(|v| v["postcode"].as_str().is_some_and(|p| p.starts_with("ZE"))),
        "{body}"
    );
    let (status, body) = app
        .post_json("/api/getvetlist", &json!({ "postcode": "QQ1 1QQ" }))
        .await;
    assert_eq!(
        (status, &body["data"]),
        (200, &json!([])),
        "the not-found state"
    );
}

#[tokio::test]
async fn bad_postcodes_get_the_spec_messages() {
    let app = spawn_app().await;
    let cases = [
        (json!({}), "Postcode required for address search"),
        (
            json!({ "postcode": "   " }),
            "Postcode required for address search",
        ),
        (json!({ "postcode": "LONDON" }), "Invalid postcode"),
        (json!({ "postcode": "1234" }), "Invalid postcode"),
        (json!({ "postcode": "SW1A-1AA" }), "Invalid postcode"),
    ];
    for (body, message) in cases {
        let (status, answer) = app.post_json("/api/getvetlist", &body).await;
        assert_eq!(status, 422, "{body}: {answer}");
        assert_eq!(
            answer["errors"],
            json!([{ "field": "postcode", "message": message }]),
            "{body}"
        );
    }
    let (status, _) = app
        .post_json("/api/getvetlist", &json!({ "postcode": 12 }))
        .await;
    assert_eq!(status, 400);
}
