//! The rehoming flow (issue 7; journey.md §1 Extra flows, §2 Routes: / eligibility, /your-pet,
//! /your-details, /confirmation; owner-payment.md §6 confirmation-rescue detail codes 10107 and
//! 10108 to 10111, §9 free rehoming cover: 28 days, no third party liability): the centres as
//! data, the eligibility rules and blocking answers, the certificate, and activation as a
//! purchase at no charge, once.

use crate::common;

use base64::Engine as _;
use common::{TestApp, spawn_app, spawn_app_with, uk_today, valid_owner};
use serde_json::{Value, json};

/// A 1×1 PNG: a whole image file.
const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05\x18\xd8N\x00\x00\x00\x00IEND\xaeB`\x82";

fn data_url(media: &str, bytes: &[u8]) -> String {
    format!(
        "data:{media};name=certificate.png;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(bytes)
    )
}

fn eligibility(days_ago: u64) -> Value {
    json!({
        "centre": "RSPBRI01",
        "rehome_date": (uk_today() - chrono::Days::new(days_ago)).to_string(),
        "uk_resident": "yes",
        "already_insured": "no",
    })
}

fn rescued_cat(certificate: &str, number: &str) -> Value {
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
async fn start(app: &TestApp) -> String {
    let view = app.view("/rehoming?brand=rsp").await;
    assert_eq!(view["journey"], "rehoming");
    assert_eq!(view["step"]["id"], "eligibility");
    view["csrf"].as_str().expect("csrf").to_owned()
}

async fn post(app: &TestApp, path: &str, csrf: &str, mut body: Value) -> (u16, Value) {
    body["csrf"] = json!(csrf);
    app.post_json(path, &body).await
}

/// Eligibility, the pet with `certificate`, and the owner: the confirmation page opens.
async fn reach_confirmation(app: &TestApp, certificate: &str, number: &str) -> String {
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
    let (s, b) = post(
        app,
        "/api/ownerdetail",
        &csrf,
        json!({ "owner": valid_owner() }),
    )
    .await;
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
    // Activating moved the quote to a new session (issue 55): the old CSRF token is refused,
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

/// The annual rehoming flow's start (journey.md §1 Extra flows, §2 Routes: annual rehoming
/// /pet-details (1) … /policy-terminated): the free policy and its link.
async fn activated_link(app: &TestApp) -> (String, String) {
    let csrf = reach_confirmation(app, &data_url("image/png", PNG), "HRS-55120").await;
    let (s, b) = post(app, "/api/confirmationrescue", &csrf, json!({})).await;
    assert_eq!(s, 200, "{b}");
    let rescue = &b["data"]["rescue"];
    let link = rescue["annual_link"]
        .as_str()
        .expect("annual link")
        .to_owned();
    let number = rescue["policy_number"].as_str().expect("policy").to_owned();
    let path = link
        .find("/annual-rehoming/start/")
        .map(|i| link[i..].to_owned())
        .expect("a link to the annual flow");
    (path, number)
}

/// Opens a link as a browser would, following its redirect: where it lands.
async fn open(app: &TestApp, path: &str) -> (u16, String) {
    let r = app
        .client
        .get(format!("{}{path}", app.base))
        .send()
        .await
        .expect("get");
    (r.status().as_u16(), r.url().path().to_owned())
}

async fn db(app: &TestApp) -> sqlx::AnyPool {
    sqlx::any::install_default_drivers();
    sqlx::AnyPool::connect(&app.database_url)
        .await
        .expect("connect")
}

/// journey.md §2 Routes (annual rehoming) and owner-payment.md §9 (rehoming annual excess £125 or
/// 25%): the free policy's link makes one annual quote from the free policy's pet and owner,
/// opens /pet-details, prices every product with a £125 excess and 25% of each claim, and is
/// bought like any quote; once bought the link answers /already-purchased.
#[tokio::test]
async fn the_free_policys_link_opens_an_annual_quote_made_from_it() {
    let app = spawn_app().await;
    let (path, number) = activated_link(&app).await;
    // The email carries the same link.
    let pool = db(&app).await;
    let (text,): (String,) =
        sqlx::query_as("select body_text from outbox where kind = 'rescue_confirmation'")
            .fetch_one(&pool)
            .await
            .expect("the rescue email");
    assert!(text.contains(&path), "{text}");

    assert_eq!(
        open(&app, &path).await,
        (200, "/annual-rehoming/pet-details".into())
    );
    let view = app.view("/annual-rehoming/pet-details").await;
    assert_eq!(view["journey"], "annual_rehoming");
    assert_eq!(view["step"]["id"], "pet_details");
    let pet = &view["pets"][0];
    assert_eq!(pet["pet_name"], "Pip");
    assert_eq!(pet["cat_breed_type"], "C286");
    assert!(pet.get("rehoming_certificate_number").is_none(), "{pet}");
    assert!(pet.get("rehoming_certificate").is_none(), "{pet}");
    assert_eq!(
        view["owner"]["customer_first_name"],
        valid_owner()["customer_first_name"]
    );
    // Cover starts the day after the free 28 days end.
    assert_eq!(
        view["owner"]["pet_policy_start_date"],
        (uk_today() + chrono::Days::new(28)).to_string()
    );
    let quote_ref = view["qidu"].clone();

    // A second click in the same browser reopens the same quote.
    assert_eq!(open(&app, &path).await.1, "/annual-rehoming/pet-details");
    assert_eq!(
        app.view("/annual-rehoming/pet-details").await["qidu"],
        quote_ref
    );

    // The injury and cost questions the free cover did not ask, then the cover.
    let mut pet = rescued_cat("", "");
    let pet = pet.as_object_mut().expect("object");
    pet.retain(|k, _| !k.starts_with("rehoming_"));
    pet.insert("pet_any_injury_illness".into(), json!("no"));
    pet.insert("pet_cost".into(), json!("0"));
    let csrf = app.view("/annual-rehoming/pet-details").await["csrf"]
        .as_str()
        .expect("csrf")
        .to_owned();
    let (s, b) = post(&app, "/api/petdetails", &csrf, json!({ "pets": [pet] })).await;
    assert_eq!(
        (s, &b["data"]["step"]["id"]),
        (200, &json!("choose_product")),
        "{b}"
    );
    let products = b["data"]["products"].as_array().expect("products");
    assert!(!products.is_empty());
    for p in products {
        assert_eq!(p["Excess"], "125", "{p}");
        assert_eq!(p["coins"], "25", "{p}");
    }
    let (s, b) = post(
        &app,
        "/api/saveCover",
        &csrf,
        json!({ "pets": [{ "product": { "Code": "LT04000" } }] }),
    )
    .await;
    assert_eq!(
        (s, &b["data"]["step"]["id"]),
        (200, &json!("review")),
        "{b}"
    );
    let view = app.view("/annual-rehoming/payment").await;
    assert_eq!(view["step"]["id"], "payment");
    let csrf = view["csrf"].as_str().expect("csrf").to_owned();
    let payment = json!({
        "payment_method": "DD", "payment_frequency": "AP", "account_name": "Ada O'Neill",
        "sort_code": "08-99-99", "account_number": "66374958", "payment_day": 15, "dd_confirmation": true
    });
    let (s, b) = post(
        &app,
        "/api/setup-payment",
        &csrf,
        json!({ "payment": payment }),
    )
    .await;
    assert_eq!(
        (s, &b["data"]["step"]["id"]),
        (200, &json!("payment_confirmation")),
        "{b}"
    );
    let (s, b) = post(
        &app,
        "/api/purchase",
        &csrf,
        json!({ "idempotency_key": "annual-0001" }),
    )
    .await;
    assert_eq!(
        (s, &b["data"]["step"]["id"]),
        (200, &json!("confirmation")),
        "{b}"
    );
    let bought = &b["data"]["purchase"]["policies"][0];
    assert_eq!(bought["product_code"], "LT04000");
    assert_ne!(bought["policy_number"], json!(number));

    assert_eq!(
        open(&app, &path).await.1,
        "/annual-rehoming/already-purchased"
    );
    let view = app
        .view("/annual-rehoming/already-purchased?brand=rsp")
        .await;
    assert_eq!(view["page"]["id"], "already_purchased");
    assert_eq!(view["step"]["title"], "You've already bought this cover");
    pool.close().await;
}

/// journey.md §2 Routes: /policy-link-expired once the free cover has ended, /policy-terminated
/// once the free policy is cancelled; a link that is not ours is not found, and a visitor who
/// types the flow's address without a link is shown the expired-link page, never a form.
#[tokio::test]
async fn a_link_past_its_cover_a_cancelled_policy_and_a_forged_link() {
    let app = spawn_app().await;
    let (path, number) = activated_link(&app).await;
    let (token_payload, _) = path["/annual-rehoming/start/".len()..]
        .split_once('.')
        .expect("signed");
    let forged = format!("/annual-rehoming/start/{token_payload}.AAAA");
    assert_eq!(open(&app, &forged).await.0, 404);

    let pool = db(&app).await;
    // The free cover began 28 days ago: it has ended.
    let started = (uk_today() - chrono::Days::new(28)).to_string();
    sqlx::query("update policies set start_date = $1 where policy_number = $2")
        .bind(&started)
        .bind(&number)
        .execute(&pool)
        .await
        .expect("backdate");
    assert_eq!(
        open(&app, &path).await.1,
        "/annual-rehoming/policy-link-expired"
    );
    let view = app
        .view("/annual-rehoming/policy-link-expired?brand=rsp")
        .await;
    assert_eq!(view["page"]["id"], "policy_link_expired");
    assert_eq!(view["step_bar"], json!([]));
    sqlx::query("update policies set start_date = $1 where policy_number = $2")
        .bind(uk_today().to_string())
        .bind(&number)
        .execute(&pool)
        .await
        .expect("restore");

    let config = common::config_for(&app.data_dir, &app.database_url, &app.definitions_root);
    assert!(
        pawpath::commands::terminate_policy(&config, &number)
            .await
            .expect("terminate")
    );
    assert!(
        !pawpath::commands::terminate_policy(&config, &number)
            .await
            .expect("again")
    );
    assert_eq!(
        open(&app, &path).await.1,
        "/annual-rehoming/policy-terminated"
    );
    assert_eq!(
        app.view("/annual-rehoming/policy-terminated").await["page"]["id"],
        "policy_terminated"
    );
    pool.close().await;

    // A new visitor without a link.
    let stranger = spawn_app().await;
    let view = stranger
        .view("/annual-rehoming/pet-details?brand=rsp")
        .await;
    assert_eq!(view["page"]["id"], "policy_link_expired");
    assert_eq!(view["questions"], Value::Null);
}

/// Issue 55, "The annual rehoming link opens its quote in any browser": the link opens its quote
/// once, in the browser that first opened it. Any other browser (a forwarded email, a second
/// device) is sent to retrieve-quote with no session and is shown nothing of the owner; the
/// first browser keeps its quote.
#[tokio::test]
async fn the_annual_link_opens_its_quote_in_one_browser_only() {
    let app = spawn_app().await;
    let (path, _) = activated_link(&app).await;
    assert_eq!(
        open(&app, &path).await,
        (200, "/annual-rehoming/pet-details".into())
    );
    let first = app.view("/annual-rehoming/pet-details").await;
    assert_eq!(first["journey"], "annual_rehoming");

    let stranger = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("client");
    let r = stranger
        .get(format!("{}{path}", app.base))
        .send()
        .await
        .expect("get");
    assert_eq!(r.status().as_u16(), 303);
    assert!(r.headers().get("set-cookie").is_none());
    let location = r
        .headers()
        .get("location")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    assert_eq!(location, "/annual-rehoming/retrieve-quote?brand=rsp");
    let page = stranger
        .get(format!("{}{location}", app.base))
        .header("Accept", "application/json")
        .send()
        .await
        .expect("get")
        .text()
        .await
        .expect("text");
    let owner = valid_owner();
    for detail in [
        "customer_first_name",
        "customer_last_name",
        "email_address",
        "phone_number",
    ] {
        if let Some(text) = owner[detail].as_str() {
            assert!(
                !page.contains(text),
                "{detail} shown to a second browser: {page}"
            );
        }
    }
    // The first browser still has its quote.
    let again = app.view("/annual-rehoming/pet-details").await;
    assert_eq!(again["qidu"], first["qidu"]);
    assert_eq!(
        again["owner"]["customer_first_name"],
        owner["customer_first_name"]
    );
}
