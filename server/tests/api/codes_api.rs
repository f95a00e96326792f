//! Promo codes, Nectar cards and referral or branch codes (owner-payment.md §4 Promo code,
//! Nectar card, Referral or branch code; §5 Promo and loyalty; §7 Promo code and Nectar card
//! lookup; §8 Promo and Nectar), with the rate limit on the code checks.

use crate::common;

use common::{cat, spawn_app, valid_owner, valid_pet, with_form};
use serde_json::{Value, json};

/// The last 11 digits of a Nectar card whose full number passes the Luhn check.
const NECTAR_OK: &str = "12345678909";
const NECTAR_BAD: &str = "12345678900";

async fn check(app: &common::TestApp, body: Value) -> (u16, Value) {
    app.post_json("/api/checkoffercode", &body).await
}

#[tokio::test]
async fn the_promo_check_answers_valid_desc_summ_and_nectar() {
    let app = spawn_app().await;
    app.save_pets(json!([valid_pet()])).await;
    let cases: Vec<(&str, Value, Value)> = vec![
        (
            "§4 a running code, any case and spacing",
            json!({ "offercode": " welcome10 ", "species": "", "token": "", "brand": "pos" }),
            json!({ "valid": true, "desc": "10% off your first year", "summ": "Welcome offer: 10% off your premium for the first year.", "nectar": false }),
        ),
        (
            "§4 a Nectar promotion says so",
            json!({ "offercode": "NECTAR500", "species": "", "token": "", "brand": "pos" }),
            json!({ "valid": true, "desc": "500 Nectar points", "summ": "Collect 500 Nectar points when you buy your policy.", "nectar": true }),
        ),
        (
            "§4 a code that ended is not valid",
            json!({ "offercode": "SUMMER25", "species": "", "token": "", "brand": "pos" }),
            json!({ "valid": false, "desc": "", "summ": "", "nectar": false }),
        ),
        (
            "§4 a cat code on a quote for a dog is not valid",
            json!({ "offercode": "CATS15", "species": "", "token": "", "brand": "pos" }),
            json!({ "valid": false, "desc": "", "summ": "", "nectar": false }),
        ),
        (
            "§4 a cat code is valid when the species asked for is cat",
            json!({ "offercode": "CATS15", "species": "cat", "token": "", "brand": "pos" }),
            json!({ "valid": true, "desc": "15% off cat cover", "summ": "15% off your cat's premium for the first year.", "nectar": false }),
        ),
        (
            "§4 an unknown code is not valid",
            json!({ "offercode": "NOSUCHCODE", "species": "", "token": "", "brand": "pos" }),
            json!({ "valid": false, "desc": "", "summ": "", "nectar": false }),
        ),
    ];
    for (case, body, expected) in cases {
        let (status, answer) = check(&app, body).await;
        assert_eq!(status, 200, "{case}: {answer}");
        assert_eq!(answer["data"], expected, "{case}");
    }
    let (status, _) = check(&app, json!({ "offercode": "" })).await;
    assert_eq!(status, 400, "an empty code is a client mistake");
    let (status, _) = check(
        &app,
        json!({ "offercode": "WELCOME10", "species": "horse" }),
    )
    .await;
    assert_eq!(status, 400);
}

#[tokio::test]
async fn the_nectar_lookup_checks_the_number() {
    let app = spawn_app().await;
    let (status, answer) = app
        .post_json("/api/getnectarcard", &json!({ "nectarcard": NECTAR_OK }))
        .await;
    assert_eq!(status, 200);
    assert_eq!(answer["nectarCard"]["valid"], true);
    assert_eq!(
        answer["nectarCard"]["summ"],
        format!("9826 3000 {NECTAR_OK}")
    );
    for bad in [NECTAR_BAD, "1234567890", "1234567890a", ""] {
        let (_, answer) = app
            .post_json("/api/getnectarcard", &json!({ "nectarcard": bad }))
            .await;
        assert_eq!(answer["nectarCard"]["valid"], false, "{bad:?}");
    }
}

#[tokio::test]
async fn nobody_can_enumerate_codes() {
    // The code checks are limited per caller; the eleventh attempt in the window is
    // refused, whatever the code.
    let app = spawn_app().await;
    app.csrf().await; // a session, as a browser has
    for i in 0..10 {
        let (status, _) = check(&app, json!({ "offercode": format!("GUESS{i}") })).await;
        assert_eq!(status, 200, "attempt {i}");
    }
    let (status, answer) = check(&app, json!({ "offercode": "WELCOME10" })).await;
    assert_eq!(status, 429, "{answer}");
    assert_eq!(
        answer["message"],
        "Too many attempts. Please wait a few minutes and try again."
    );
    // A new session from the same address does not start again.
    let fresh = reqwest::Client::builder()
        .cookie_store(true)
        .build()
        .expect("client");
    let r = fresh
        .post(format!("{}/api/checkoffercode", app.base))
        .json(&json!({ "offercode": "WELCOME10" }))
        .send()
        .await
        .expect("post");
    assert_eq!(r.status().as_u16(), 429);
    // The Nectar lookup is counted on its own.
    let (status, _) = app
        .post_json("/api/getnectarcard", &json!({ "nectarcard": NECTAR_OK }))
        .await;
    assert_eq!(status, 200);
}

#[tokio::test]
async fn a_promo_code_is_kept_on_the_owner_only_when_valid() {
    let app = spawn_app().await;
    app.save_pets(json!([valid_pet(), cat()])).await;
    let (status, _) = app.save_owner(valid_owner()).await;
    assert_eq!(status, 200);
    let save = |owner: Value| {
        let app = &app;
        async move {
            app.edit("/api/ownerdetail", "promo_code", json!({ "owner": owner }))
                .await
        }
    };
    let cases: Vec<(&str, Value, &str, &str)> = vec![
        (
            "§5 an unknown code: Sorry, this code is not valid",
            json!({ "promotional_code": "NOSUCHCODE" }),
            "owner.promotional_code",
            "Sorry, this code is not valid",
        ),
        (
            "§5 a code that ended: Sorry, this code is not valid",
            json!({ "promotional_code": "SUMMER25" }),
            "owner.promotional_code",
            "Sorry, this code is not valid",
        ),
        (
            "§4 a Nectar promotion needs the card number",
            json!({ "promotional_code": "NECTAR500" }),
            "owner.nectarCardNumber",
            "Please enter a valid Nectar card number. This is the last 11 digits on the front of your Nectar card.",
        ),
        (
            "§5 the Nectar number: 11 digits",
            json!({ "promotional_code": "NECTAR500", "nectarCardNumber": "1234" }),
            "owner.nectarCardNumber",
            "Please enter a valid Nectar card number. This is the last 11 digits on the front of your Nectar card.",
        ),
        (
            "§5 the Nectar number: a real card's check digit",
            json!({ "promotional_code": "NECTAR500", "nectarCardNumber": NECTAR_BAD }),
            "owner.nectarCardNumber",
            "Please enter a valid Nectar card number. This is the last 11 digits on the front of your Nectar card.",
        ),
    ];
    for (case, owner, field, message) in cases {
        let (status, body) = save(owner).await;
        assert_eq!(status, 422, "{case}: {body}");
        assert_eq!(body["errors"][0]["field"], field, "{case}");
        assert_eq!(body["errors"][0]["message"], message, "{case}");
    }
    assert!(
        app.view("/quote/your-details").await["owner"]
            .get("promotional_code")
            .is_none()
    );
    // Valid: kept in capitals, with the description and summary derived from the promotion.
    let (status, body) = save(json!({ "promotional_code": "cats15" })).await;
    assert_eq!(status, 200, "{body}");
    let owner = app.view("/quote/your-details").await["owner"].clone();
    assert_eq!(owner["promotional_code"], "CATS15");
    assert_eq!(owner["promotional_code_description"], "15% off cat cover");
    assert_eq!(owner["isNectarPromo"], false);
    // The owner's other details are untouched.
    assert_eq!(owner["customer_postcode"], "SW1A 1AA");
    let (status, body) =
        save(json!({ "promotional_code": "NECTAR500", "nectarCardNumber": NECTAR_OK })).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        app.view("/quote/your-details").await["owner"]["isNectarPromo"],
        true
    );
}

#[tokio::test]
async fn a_referral_or_branch_code_is_trimmed_and_checked() {
    let app = spawn_app().await;
    app.save_pets(json!([valid_pet()])).await;
    app.save_owner(valid_owner()).await;
    let cases: Vec<(&str, &str, &str)> = vec![
        ("§5 branch code required", "   ", "This field is required"),
        (
            "§5 no special characters",
            "AB-12",
            "This field cannot contain special characters",
        ),
        (
            "§5 1 to 8 characters",
            "ABCDE1234",
            "Please use no more than 8 characters",
        ),
    ];
    for (case, code, message) in cases {
        let (status, body) = app
            .edit(
                "/api/ownerdetail",
                "referral_code",
                json!({ "owner": { "introducer_code": code } }),
            )
            .await;
        assert_eq!(status, 422, "{case}: {body}");
        assert_eq!(
            body["errors"][0]["field"], "owner.introducer_code",
            "{case}"
        );
        assert_eq!(body["errors"][0]["message"], message, "{case}");
    }
    // §4: trimmed when saved; letters including accented ones.
    let (status, body) = app
        .edit(
            "/api/ownerdetail",
            "referral_code",
            json!({ "owner": { "introducer_code": "  Zoë 12 " } }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        app.view("/quote/your-details").await["owner"]["introducer_code"],
        "Zoë 12"
    );
}

#[tokio::test]
async fn an_existing_policy_is_found_by_number_brand_and_postcode_and_locks_name_and_address() {
    let app = spawn_app().await;
    app.save_pets(json!([valid_pet()])).await;
    app.save_owner(valid_owner()).await; // SW1A 1AA
    let csrf = app.csrf().await;
    let check = |body: Value| {
        let app = &app;
        async move { app.post_json("/api/CheckExistingPolicy", &body).await }
    };
    // owner-payment.md §5: required.
    let (status, body) = check(json!({ "csrf": csrf, "policyno": " " })).await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(body["errors"][0]["message"], "This field is required");
    // Not found: another postcode, another brand's prefix, a number of the wrong form.
    for (case, number, postcode) in [
        ("another postcode", "PETPO0098765", "BS11 8NN"),
        ("another brand's prefix", "PETSB1234567", ""),
        ("not the brand's form", "PETXX0098765", ""),
    ] {
        let (status, body) =
            check(json!({ "csrf": csrf, "policyno": number, "postcode": postcode })).await;
        assert_eq!(status, 200, "{case}: {body}");
        assert_eq!(body["data"]["existing_policy_valid"], false, "{case}");
    }
    assert_eq!(
        app.view("/quote/your-details").await["existing_policy_valid"],
        false
    );
    // Found with the owner's postcode (any case, spaces ignored): stored on the quote.
    let (status, body) =
        check(json!({ "csrf": csrf, "policyno": "petpo 0098765", "brand": "pos", "postcode": "" }))
            .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["existing_policy_valid"], true);
    let view = app.view("/quote/your-details").await;
    assert_eq!(view["owner"]["existing_policy_number"], "PETPO0098765");
    // owner-payment.md §4: a match stops name and address editing for that quote.
    assert!(
        view["locked"]
            .as_array()
            .expect("locked")
            .contains(&json!("/owner/customer_first_name"))
    );
    // The page marks a locked answer read-only (renderer: api.ts markReadOnly); the form itself
    // is every customer's.
    let form = with_form(&app.base, &view["questions"]).await;
    assert!(form["ui"]["owner"]["customer_first_name"]["ui:readonly"].is_null());
    let mut changed = valid_owner();
    changed["customer_first_name"] = json!("Eve");
    changed["customer_postcode"] = json!("BS11 8NN");
    changed["email_address"] = json!("eve@example.com");
    let (status, body) = app.save_owner(changed).await;
    assert_eq!(status, 200, "{body}");
    let owner = &app.view("/quote/your-details").await["owner"];
    assert_eq!(owner["customer_first_name"], "Ada", "the name is kept");
    assert_eq!(
        owner["customer_postcode"], "SW1A 1AA",
        "the address is kept"
    );
    assert_eq!(
        owner["email_address"], "eve@example.com",
        "other details still change"
    );
}
