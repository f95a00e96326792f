//! The rehoming flow (journey.md §1 Extra flows, §2 Routes: / eligibility, /your-pet,
//! /your-details, /confirmation; owner-payment.md §6 confirmation-rescue detail codes 10107 and
//! 10108 to 10111, §9 free rehoming cover: 28 days, no third party liability): the centres as
//! data, the eligibility rules and blocking answers, the certificate, and activation as a
//! purchase at no charge, once.

use crate::common;

use base64::Engine as _;
use common::{TestApp, spawn_app, spawn_app_with, uk_today, valid_owner};
use serde_json::{Value, json};

/// A 1×1 PNG: a whole image file.
pub(crate) const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05\x18\xd8N\x00\x00\x00\x00IEND\xaeB`\x82";

pub(crate) fn data_url(media: &str, bytes: &[u8]) -> String {
    format!(
        "data:{media};name=certificate.png;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(bytes)
    )
}

pub(crate) fn eligibility(days_ago: u64) -> Value {
    json!({
        "centre": "RSPBRI01",
        "rehome_date": (uk_today() - chrono::Days::new(days_ago)).to_string(),
        "uk_resident": "yes",
        "already_insured": "no",
    })
}

pub(crate) fn rescued_cat(certificate: &str, number: &str) -> Value {
    json!({
        "pet_name": "Pip",
        "pet_type": "cat",
        "cat_breed_type": "C286",
        "pet_breed": "C286",
        "pet_date_of_birth": "2024-05-10",
        "pet_sex": "f",
        "pet_neutered": "yes",
        "rehoming_certificate_number": number,
        "rehoming_certificate": certificate,
    })
}

/// A new visitor on rsp's rehoming flow: its CSRF token.
pub(crate) async fn start(app: &TestApp) -> String {
    let view = app.view("/rehoming?brand=rsp").await;
    assert_eq!(view["journey"], "rehoming");
    assert_eq!(view["step"]["id"], "eligibility");
    view["csrf"].as_str().expect("csrf").to_owned()
}

pub(crate) async fn post(app: &TestApp, path: &str, csrf: &str, mut body: Value) -> (u16, Value) {
    body["csrf"] = json!(csrf);
    app.post_json(path, &body).await
}

/// Eligibility, the pet with `certificate`, and the owner: the confirmation page opens.
pub(crate) async fn reach_confirmation(app: &TestApp, certificate: &str, number: &str) -> String {
    reach_confirmation_as(app, certificate, number, valid_owner()).await
}

/// [`reach_confirmation`] with the owner's details `owner`.
pub(crate) async fn reach_confirmation_as(
    app: &TestApp,
    certificate: &str,
    number: &str,
    owner: Value,
) -> String {
    let csrf = start(app).await;
    let (s, b) = post(
        app,
        "/api/rehomingeligibility",
        &csrf,
        json!({ "rehoming": eligibility(2) }),
    )
    .await;
    assert_eq!(
        (s, &b["data"]["step"]["id"]),
        (200, &json!("your_pet")),
        "{b}"
    );
    let (s, b) = post(
        app,
        "/api/postpetdetails",
        &csrf,
        json!({ "pets": [rescued_cat(certificate, number)] }),
    )
    .await;
    assert_eq!(
        (s, &b["data"]["step"]["id"]),
        (200, &json!("your_details")),
        "{b}"
    );
    let (s, b) = post(app, "/api/ownerdetail", &csrf, json!({ "owner": owner })).await;
    assert_eq!(
        (s, &b["data"]["step"]["id"]),
        (200, &json!("confirmation")),
        "{b}"
    );
    csrf
}

#[tokio::test]
async fn the_centres_are_the_brands_own_and_only_brands_with_the_flow_have_them() {
    let app = spawn_app().await;
    let r = app
        .client
        .get(format!("{}/api/getrehomingcentres?brand=rsp", app.base))
        .send()
        .await
        .expect("get");
    assert_eq!(r.status(), 200);
    let body: Value = r.json().await.expect("json");
    let centres = body["data"]["centres"].as_array().expect("centres");
    assert_eq!(centres.len(), 4);
    assert_eq!(centres[0]["contactname"], "Harbourside Rescue Steps");
    assert_eq!(centres[0]["postcode"], "BS1 6XX");
    for brand in ["pos", "rcfr", "nosuchbrand"] {
        let r = app
            .client
            .get(format!("{}/api/getrehomingcentres?brand={brand}", app.base))
            .send()
            .await
            .expect("get");
        assert_eq!(r.status(), 404, "{brand}");
    }
}

#[tokio::test]
async fn a_brand_without_the_flow_has_no_rehoming_pages() {
    let app = spawn_app().await;
    for path in [
        "/rehoming?brand=pos",
        "/rehoming",
        "/rehoming/your-pet?brand=rcfr",
    ] {
        let r = app
            .client
            .get(format!("{}{path}", app.base))
            .header("Accept", "application/json")
            .send()
            .await
            .expect("get");
        assert_eq!(r.status(), 404, "{path}");
    }
}

/// The eligibility rules (rehoming_centre_known, rehome_date_window) as field errors, and the
/// blocking answers as blocks that keep the customer on the page.
#[tokio::test]
async fn eligibility_rules_and_blocking_answers() {
    let app = spawn_app().await;
    let csrf = start(&app).await;
    let mut other_brands_centre = eligibility(1);
    other_brands_centre["centre"] = json!("PDSNOR01");
    let mut tomorrow = eligibility(0);
    tomorrow["rehome_date"] = json!((uk_today() + chrono::Days::new(1)).to_string());
    for (answers, field, message) in [
        (
            other_brands_centre,
            "rehoming.centre",
            "Please choose one of our partner rehoming centres",
        ),
        (
            tomorrow,
            "rehoming.rehome_date",
            "The rehoming date can't be in the future",
        ),
        (
            eligibility(15),
            "rehoming.rehome_date",
            "Free cover must be activated within 14 days of rehoming your pet",
        ),
    ] {
        let (s, b) = post(
            &app,
            "/api/rehomingeligibility",
            &csrf,
            json!({ "rehoming": answers }),
        )
        .await;
        assert_eq!(s, 422, "{b}");
        assert_eq!(b["errors"][0]["field"], field, "{b}");
        assert_eq!(b["errors"][0]["message"], message, "{b}");
    }
    // Fourteen days ago is still in time.
    let (s, b) = post(
        &app,
        "/api/rehomingeligibility",
        &csrf,
        json!({ "rehoming": eligibility(14) }),
    )
    .await;
    assert_eq!(
        (s, &b["data"]["step"]["id"]),
        (200, &json!("your_pet")),
        "{b}"
    );
    let mut abroad = eligibility(1);
    abroad["uk_resident"] = json!("no");
    let (s, b) = post(
        &app,
        "/api/rehomingeligibility",
        &csrf,
        json!({ "rehoming": abroad }),
    )
    .await;
    assert_eq!(s, 200, "{b}");
    assert_eq!(b["data"]["step"]["id"], "eligibility");
    assert_eq!(
        b["data"]["step"]["blocks"][0]["message"],
        "Sorry, free rehoming cover is only available to people who live in the UK."
    );
    // The step bar does not open the pet page while blocked.
    let view = app.view("/rehoming/your-pet").await;
    assert_eq!(view["step"]["id"], "eligibility");
}

/// journey.md §5 Age rule: 56 days on rehoming; the certificate must be a PDF, PNG or JPEG data
/// URL, and is never stored in the quote in the clear.
#[tokio::test]
async fn the_pet_is_eight_weeks_old_and_its_certificate_is_kept_encrypted() {
    let app = spawn_app().await;
    let csrf = start(&app).await;
    let (s, _) = post(
        &app,
        "/api/rehomingeligibility",
        &csrf,
        json!({ "rehoming": eligibility(1) }),
    )
    .await;
    assert_eq!(s, 200);
    let png = data_url("image/png", PNG);
    let mut young = rescued_cat(&png, "HRS-55120");
    young["pet_date_of_birth"] = json!((uk_today() - chrono::Days::new(55)).to_string());
    let (s, b) = post(
        &app,
        "/api/postpetdetails",
        &csrf,
        json!({ "pets": [young] }),
    )
    .await;
    assert_eq!(
        (s, &b["errors"][0]["field"]),
        (422, &json!("pets[0].pet_date_of_birth")),
        "{b}"
    );
    let gif = data_url("image/gif", b"GIF89a");
    let (s, b) = post(
        &app,
        "/api/postpetdetails",
        &csrf,
        json!({ "pets": [rescued_cat(&gif, "HRS-55120")] }),
    )
    .await;
    assert_eq!(s, 422, "{b}");
    assert_eq!(b["errors"][0]["field"], "pets[0].rehoming_certificate");
    assert_eq!(
        b["errors"][0]["message"],
        "Please upload a PDF, JPEG or PNG file"
    );
    let (s, b) = post(
        &app,
        "/api/postpetdetails",
        &csrf,
        json!({ "pets": [rescued_cat(&png, "HRS-55120")] }),
    )
    .await;
    assert_eq!(s, 200, "{b}");
    let pet = &b["data"]["pets"][0];
    assert!(pet.get("rehoming_certificate").is_none(), "{pet}");
    assert!(
        !b.to_string().contains(&png[40..80]),
        "the certificate never comes back"
    );
    // The direct journey's pet call does not take the rehoming pet.
    let (s, _) = post(
        &app,
        "/api/petdetails",
        &csrf,
        json!({ "pets": [rescued_cat(&png, "HRS-55120")] }),
    )
    .await;
    assert_ne!(s, 200);
}

/// owner-payment.md §6: a document the scanner finds wrong is code 10107, with its warning word
/// for word; nothing is issued.
#[tokio::test]
async fn a_wrong_document_is_code_10107_and_nothing_is_issued() {
    let app = spawn_app().await;
    let fake_png = data_url("image/png", b"this is not really a picture");
    let csrf = reach_confirmation(&app, &fake_png, "HRS-55120").await;
    let (s, b) = post(&app, "/api/confirmationrescue", &csrf, json!({})).await;
    assert_eq!(s, 200, "{b}");
    assert_eq!(b["outcome"], "warning");
    assert_eq!(b["detail_code"], 10107);
    assert_eq!(
        b["warning"],
        "Our scanning tool has highlighted an error in one or more of your documents. Please go back to your pet details page and try again."
    );
    let view = app.view("/rehoming/confirmation").await;
    assert_eq!(view["rescue"]["policy_number"], Value::Null);
    assert_eq!(view["purchase"], Value::Null);
}

/// owner-payment.md §6: codes 10108 to 10111 while the scanning service is down (on test hosts a
/// SCANDOWN-101nn certificate number stands for it), with the maintenance warning.
#[tokio::test]
async fn the_scanner_down_is_codes_10108_to_10111() {
    // Off the test host the number is just a number: the document is clean and the cover issued.
    let app = spawn_app().await;
    let csrf = reach_confirmation(&app, &data_url("image/png", PNG), "SCANDOWN-10110").await;
    let (_, b) = post(&app, "/api/confirmationrescue", &csrf, json!({})).await;
    assert_eq!(b["outcome"], "activated", "{b}");
    let app = spawn_app_with(&[("PAWPATH_TEST_MODE", "1".into())]).await;
    let csrf = reach_confirmation(&app, &data_url("image/png", PNG), "SCANDOWN-10110").await;
    let (s, b) = post(&app, "/api/confirmationrescue", &csrf, json!({})).await;
    assert_eq!(s, 200, "{b}");
    assert_eq!(b["detail_code"], 10110);
    assert_eq!(
        b["warning"],
        "Our document scanning tool is down for maintenance; please try again later."
    );
    assert_eq!(
        app.view("/rehoming/confirmation").await["purchase"],
        Value::Null
    );
}

/// Activation: a policy in the brand's format at no charge, 28 days from today with no third
/// party liability, the email in the outbox; asking again answers the same policy.
#[tokio::test]
async fn activation_issues_one_free_policy_for_28_days() {
    let app = spawn_app().await;
    let csrf = start(&app).await;
    // Not before every step is complete.
    let (s, b) = post(&app, "/api/confirmationrescue", &csrf, json!({})).await;
    assert_eq!(s, 400, "{b}");
    drop(csrf);
    let csrf = reach_confirmation(&app, &data_url("image/png", PNG), "HRS-55120").await;
    let view = app.view("/rehoming/confirmation").await;
    let rescue = &view["rescue"];
    let today = uk_today();
    assert_eq!(rescue["days"], 28);
    assert_eq!(rescue["start"], today.to_string());
    assert_eq!(rescue["end"], (today + chrono::Days::new(27)).to_string());
    assert_eq!(rescue["third_party_liability"], false);
    assert_eq!(rescue["vet_fee_limit"], "£1,000");
    assert_eq!(rescue["excess"], "£99");
    assert_eq!(rescue["centre"]["contactname"], "Harbourside Rescue Steps");

    let (s, first) = post(&app, "/api/confirmationrescue", &csrf, json!({})).await;
    assert_eq!(
        (s, &first["outcome"]),
        (200, &json!("activated")),
        "{first}"
    );
    let number = first["data"]["rescue"]["policy_number"]
        .as_str()
        .expect("policy")
        .to_owned();
    assert!(
        number.starts_with("PETRS") && number.len() == 12,
        "{number}"
    );
    // Activating moved the quote to a new session: the old CSRF token is refused,
    // the page's new one answers the same policy.
    let (s, _) = post(&app, "/api/confirmationrescue", &csrf, json!({})).await;
    assert_eq!(s, 403);
    let csrf = app.view("/rehoming/confirmation").await["csrf"]
        .as_str()
        .expect("csrf")
        .to_owned();
    let (s, again) = post(&app, "/api/confirmationrescue", &csrf, json!({})).await;
    assert_eq!(s, 200);
    assert_eq!(again["data"]["rescue"]["policy_number"], json!(number));

    let view = app.view("/rehoming/confirmation").await;
    let purchase = &view["purchase"];
    assert_eq!(purchase["payment_method"], "FREE");
    assert_eq!(purchase["policies"].as_array().map(Vec::len), Some(1));
    assert_eq!(purchase["policies"][0]["product_code"], "RH28");
    assert_eq!(purchase["policies"][0]["monthly_premium"], "0.00");
    assert_eq!(purchase["collections"], json!([]));

    let (s, b) = post(&app, "/api/confirmationRescueEmail", &csrf, json!({})).await;
    assert_eq!(s, 200, "{b}");
    assert_eq!(b["data"]["confirmation_email"]["requested"], true);
    let r = app
        .client
        .get(format!("{}/api/getrescueproduct", app.base))
        .send()
        .await
        .expect("get");
    let product: Value = r.json().await.expect("json");
    assert_eq!(product["data"]["product"]["policy_number"], json!(number));
}

/// Activating is the engine's Purchase: refused while the step before the confirmation (your
/// details, which has questions of its own) is open but not complete.
#[tokio::test]
async fn activation_waits_for_the_owner_details() {
    let app = spawn_app().await;
    let csrf = start(&app).await;
    let (s, _) = post(
        &app,
        "/api/rehomingeligibility",
        &csrf,
        json!({ "rehoming": eligibility(1) }),
    )
    .await;
    assert_eq!(s, 200);
    let png = data_url("image/png", PNG);
    let (s, b) = post(
        &app,
        "/api/postpetdetails",
        &csrf,
        json!({ "pets": [rescued_cat(&png, "HRS-55120")] }),
    )
    .await;
    assert_eq!(
        (s, &b["data"]["step"]["id"]),
        (200, &json!("your_details")),
        "{b}"
    );
    let (s, b) = post(&app, "/api/confirmationrescue", &csrf, json!({})).await;
    assert_eq!(s, 400, "{b}");
    assert!(
        b["message"]
            .as_str()
            .expect("message")
            .contains("not complete"),
        "{b}"
    );
    assert_eq!(
        app.view("/rehoming/your-details").await["purchase"],
        Value::Null
    );
}
