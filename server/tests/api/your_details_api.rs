//! The owner's details (owner-payment.md §2 /your-details, §3 Owner, §5 Owner, §7 Owner detail)
//! over HTTP against a real server and database. Each case names the spec section that states it.

use crate::common;

use common::{spawn_app, uk_today, valid_owner, valid_pet};
use serde_json::{Value, json};

fn owner_with(field: &str, value: Value) -> Value {
    let mut owner = valid_owner();
    if value.is_null() {
        owner.as_object_mut().expect("object").remove(field);
    } else {
        owner[field] = value;
    }
    owner
}

fn years_ago(years: i32, days_after: i64) -> String {
    let today = uk_today();
    (today
        .checked_sub_months(chrono::Months::new(
            u32::try_from(years * 12).expect("months"),
        ))
        .expect("date")
        + chrono::Duration::days(days_after))
    .format("%Y-%m-%d")
    .to_string()
}

#[tokio::test]
async fn a_valid_owner_is_saved_normalised_and_the_quote_moves_to_choose_policy() {
    let app = spawn_app().await;
    let (status, _) = app.save_pets(json!([valid_pet()])).await;
    assert_eq!(status, 200);
    let mut owner = valid_owner();
    owner["email_address"] = json!("  Ada.Lovelace@Example.COM ");
    owner["customer_postcode"] = json!("sw1a1aa");
    owner["customer_first_name"] = json!("  Ada ");
    owner["customer_contact_number"] = json!(" +44 (0)1632 960-123 ");
    let (status, body) = app.save_owner(owner).await;
    assert_eq!(status, 200, "{body}");
    // owner-payment.md §5: email trimmed and lower-cased; the postcode formatted;
    // The phone number as people write it, stored as its digits.
    let stored = &body["data"]["owner"];
    assert_eq!(stored["customer_contact_number"], "01632960123");
    assert_eq!(stored["email_address"], "ada.lovelace@example.com");
    assert_eq!(stored["customer_postcode"], "SW1A 1AA");
    assert_eq!(stored["customer_first_name"], "Ada");
    // journey.md §2: the owner's postcode opens the choose-policy step.
    assert_eq!(body["data"]["step"]["id"], "choose_policy");
    let bar = &body["data"]["step_bar"];
    assert_eq!(bar[2]["clickable"], false, "the current step is not a link");
    let view = app.view("/quote/your-details").await;
    assert_eq!(view["step_bar"][2]["clickable"], true);
    assert_eq!(view["questions"]["submit"], "/api/ownerdetail");
}

#[tokio::test]
async fn norequote_is_accepted_on_your_details() {
    // owner-payment.md §7: ?norequote=1 when customer_postcode is empty.
    let app = spawn_app().await;
    app.save_pets(json!([valid_pet()])).await;
    let csrf = app.csrf().await;
    let (status, body) = app
        .post_json(
            "/api/ownerdetail?norequote=1",
            &json!({ "csrf": csrf, "owner": valid_owner() }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let (status, _) = app
        .post_json(
            "/api/ownerdetail?norequote=yes",
            &json!({ "csrf": csrf, "owner": valid_owner() }),
        )
        .await;
    assert_eq!(status, 400);
}

#[tokio::test]
async fn every_owner_rule_is_enforced_with_the_spec_message_and_nothing_is_stored() {
    let cases: Vec<(&str, &str, Value, &str)> = vec![
        (
            "§5 title required",
            "customer_title",
            Value::Null,
            "This field is required",
        ),
        (
            "§3 titles Mr, Miss, Dr, Ms, Mrs, Mx",
            "customer_title",
            json!("Sir"),
            "Please enter a valid value",
        ),
        (
            "§5 first name required",
            "customer_first_name",
            Value::Null,
            "This field is required",
        ),
        (
            "§5 names: letters first",
            "customer_first_name",
            json!("-Ada"),
            "This field can only accept letters, spaces, hyphens and apostrophes",
        ),
        (
            "§5 names: no digits",
            "customer_last_name",
            json!("Sm1th"),
            "This field can only accept letters, spaces, hyphens and apostrophes",
        ),
        (
            "§5 names: at least 2 after trimming",
            "customer_first_name",
            json!(" A "),
            "Up to a maximum of 50 characters of letters, spaces and - ' only",
        ),
        (
            "§5 names: up to 50",
            "customer_last_name",
            json!("a".repeat(51)),
            "Up to a maximum of 50 characters of letters, spaces and - ' only",
        ),
        (
            "§5 date of birth required",
            "customer_date_of_birth",
            Value::Null,
            "This field is required",
        ),
        (
            "§5 date of birth format",
            "customer_date_of_birth",
            json!("1985-3-27"),
            "Please check your date is in the following format (DD/MM/YYYY)",
        ),
        (
            "§5 date of birth strict valid date",
            "customer_date_of_birth",
            json!("1985-02-30"),
            "Please enter a valid date",
        ),
        (
            "§5 at least 18",
            "customer_date_of_birth",
            json!(years_ago(18, 1)),
            "You must be 18 years old or over to buy a policy",
        ),
        (
            "§5 at most 120",
            "customer_date_of_birth",
            json!(years_ago(121, 0)),
            "The maximum age for a policy holder is 120 years",
        ),
        (
            "§5 email required",
            "email_address",
            Value::Null,
            "This field is required",
        ),
        (
            "§5 email pattern",
            "email_address",
            json!("ada@example"),
            "Please enter a valid email address",
        ),
        (
            "§5 email pattern: one @",
            "email_address",
            json!("ada@@example.com"),
            "Please enter a valid email address",
        ),
        (
            "§5 phone required",
            "customer_contact_number",
            Value::Null,
            "This field is required",
        ),
        (
            "§5 phone digits only (spaces and brackets are read past, a letter is not)",
            "customer_contact_number",
            json!("01632 96O123"),
            "This field accepts numbers only",
        ),
        (
            "§5 phone 9 to 12 long",
            "customer_contact_number",
            json!("01632960"),
            "Numbers only, between 9 and 12 characters",
        ),
        (
            "§5 phone 9 to 12 long (too long)",
            "customer_contact_number",
            json!("0163296012345"),
            "Numbers only, between 9 and 12 characters",
        ),
        (
            "§5 phone starts with 0",
            "customer_contact_number",
            json!("1632960123"),
            "A telephone number must start with 0",
        ),
        (
            "§5 phone, generic: Please enter a valid phone number (04 is not in use)",
            "customer_contact_number",
            json!("04632960123"),
            "Please enter a valid phone number",
        ),
        (
            "§5 phone, generic: 06 is not in use either",
            "customer_contact_number",
            json!("06632960123"),
            "Please enter a valid phone number",
        ),
        (
            "§5 address line 1 required",
            "customer_address_line_1",
            Value::Null,
            "Please search and add your address",
        ),
        (
            "§5 postcode required",
            "customer_postcode",
            Value::Null,
            "Please enter a valid postcode",
        ),
        (
            "§5 postcode: a UK postcode",
            "customer_postcode",
            json!("SW1A 1A"),
            "Please enter a valid postcode",
        ),
        (
            "§5 postcode: a UK postcode (area letters)",
            "customer_postcode",
            json!("QX1 1AA"),
            "Please enter a valid postcode",
        ),
    ];
    let app = spawn_app().await;
    app.save_pets(json!([valid_pet()])).await;
    let before = app.view("/quote").await["owner"].clone();
    for (case, field, value, message) in cases {
        let (status, body) = app.save_owner(owner_with(field, value)).await;
        assert_eq!(status, 422, "{case}: {body}");
        let e = &body["errors"][0];
        assert_eq!(
            (e["field"].as_str(), e["message"].as_str()),
            (Some(format!("owner.{field}").as_str()), Some(message)),
            "{case}"
        );
        assert_eq!(
            app.view("/quote").await["owner"],
            before,
            "{case}: nothing stored"
        );
    }
}

#[tokio::test]
async fn your_details_opens_only_after_the_pets_and_keeps_the_start_date() {
    let app = spawn_app().await;
    // journey.md §2: your-details needs the first pet's assumptions confirmed.
    // Refused naming the step, and nothing stored.
    let (status, body) = app.save_owner(valid_owner()).await;
    assert_eq!(status, 409, "{body}");
    assert_eq!(body["error"], "step_closed");
    assert_eq!(body["step"], "your_details");
    assert!(
        app.view("/quote").await["owner"]
            .get("customer_postcode")
            .is_none()
    );

    app.save_pets(json!([valid_pet()])).await;
    let tomorrow = (uk_today() + chrono::Duration::days(1))
        .format("%Y-%m-%d")
        .to_string();
    let (status, body) = app
        .edit(
            "/api/ownerdetail",
            "start_date",
            json!({ "owner": { "pet_policy_start_date": tomorrow } }),
        )
        .await;
    // The start date is edited from pages the customer has not reached yet.
    assert_eq!(status, 409, "{body}");
    assert_eq!(body["error"], "step_closed", "{body}");
    assert_eq!(body["form"], "start_date", "{body}");
    let (status, body) = app.save_owner(valid_owner()).await;
    assert_eq!(status, 200, "{body}");
    // The owner's details do not touch what other forms set on the owner.
    let (_, body) = app.save_owner(valid_owner()).await;
    assert!(body["data"]["owner"].get("pet_policy_start_date").is_none());
}

/// A nested object refuses keys its schema does not declare (`additionalProperties: false` on
/// the marketing preferences): 422 naming the field, and nothing is stored.
#[tokio::test]
async fn an_unknown_key_in_the_marketing_preferences_is_refused_not_dropped() {
    let app = spawn_app().await;
    let (status, body) = app.save_pets(json!([valid_pet()])).await;
    assert_eq!(status, 200, "{body}");
    let mut owner = valid_owner();
    owner["marketing_preferences"]["optin_fax"] = json!(true);
    let before = app
        .sql("select count(*) from step_transitions where outcome = 'moved'")
        .await;
    let (status, body) = app.save_owner(owner).await;
    assert_eq!(status, 422, "{body}");
    assert!(
        body["errors"]
            .as_array()
            .expect("errors")
            .iter()
            .any(|e| e["field"]
                .as_str()
                .is_some_and(|f| f.contains("marketing_preferences"))),
        "{body}"
    );
    assert_eq!(
        app.sql("select count(*) from step_transitions where outcome = 'moved'")
            .await,
        before
    );
    // The same preferences without it are saved.
    let (status, body) = app.save_owner(valid_owner()).await;
    assert_eq!(status, 200, "{body}");
}
