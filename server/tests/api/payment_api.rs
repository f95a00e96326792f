//! The payment page over HTTP against a real server and database. Each case names the spec
//! section that states it: owner-payment.md §2 Payment page and Bank details panel, §3 Payment,
//! §4 Bank validation and Direct Debit date, §5 Payment, §7 (bankvalidation), §8 Bank.

use crate::common;

use common::{TestApp, spawn_app, valid_pet};
use serde_json::{Value, json};

async fn at_payment() -> TestApp {
    let app = spawn_app().await;
    app.reach_payment(json!([valid_pet()])).await;
    app
}

fn payment() -> Value {
    json!({
        "payment_method": "DD", "payment_frequency": "MP", "account_name": "Ada O'Neill",
        "sort_code": "08-99-99", "account_number": "66374958", "payment_day": 15,
        "dd_confirmation": true
    })
}

async fn setup(app: &TestApp, payment: Value) -> (u16, Value) {
    let csrf = app.csrf().await;
    app.post_json(
        "/api/setup-payment",
        &json!({ "csrf": csrf, "payment": payment }),
    )
    .await
}

fn first_error(body: &Value) -> (String, String) {
    let e = &body["errors"][0];
    (
        e["field"].as_str().unwrap_or_default().to_owned(),
        e["message"].as_str().unwrap_or_default().to_owned(),
    )
}

#[tokio::test]
async fn bank_validation_answers_with_vocalinks_checks() {
    // owner-payment.md §4 Bank validation, §7: sort code without dashes → bank_details_valid.
    let app = at_payment().await;
    let csrf = app.csrf().await;
    for (sort_code, account, valid) in [
        ("089999", "66374958", true),
        ("203099", "66831036", false),
        ("938063", "15763217", false),
        ("999999", "12345678", true),
    ] {
        let (status, body) = app
            .post_json("/api/bankvalidation", &json!({ "csrf": csrf, "payment": { "sort_code": sort_code, "account_number": account } }))
            .await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(
            body["data"]["payment"]["bank_details_valid"], valid,
            "{sort_code}/{account}"
        );
    }
    let (status, _) = app
        .post_json(
            "/api/bankvalidation",
            &json!({ "payment": { "sort_code": "089999", "account_number": "66374958" } }),
        )
        .await;
    assert_eq!(status, 403, "CSRF token");
}

#[tokio::test]
async fn the_payment_form_refuses_each_bad_answer_with_the_specs_message() {
    // owner-payment.md §5 Payment, §8 Bank.
    let app = at_payment().await;
    let with = |field: &str, value: Value| {
        let mut p = payment();
        if value.is_null() {
            p.as_object_mut().expect("object").remove(field);
        } else {
            p[field] = value;
        }
        p
    };
    for (p, field, message) in [
        (
            with("dd_confirmation", Value::Null),
            "payment.dd_confirmation",
            "You must check the box above to confirm authority to create this Direct Debit agreement.",
        ),
        (
            with("dd_confirmation", json!(false)),
            "payment.dd_confirmation",
            "You must check the box above to confirm authority to create this Direct Debit agreement.",
        ),
        (
            with("sort_code", json!("08999")),
            "payment.sort_code",
            "Please enter a valid sort code.",
        ),
        (
            with("sort_code", json!("08/99/99")),
            "payment.sort_code",
            "Please enter a valid sort code.",
        ),
        (
            with("account_number", json!("6637495")),
            "payment.account_number",
            "You've entered an invalid bank account number and/or sort code. Please check and try again.",
        ),
        (
            with("account_number", json!("66374x58")),
            "payment.account_number",
            "Please check you have entered a valid account number",
        ),
        (
            with("sort_code", json!("20-30-99"))
                .as_object()
                .cloned()
                .map(|mut m| {
                    m.insert("account_number".into(), json!("66831036"));
                    Value::Object(m)
                })
                .expect("p"),
            "payment.account_number",
            "You've entered an invalid bank account number and/or sort code. Please check and try again.",
        ),
        (
            with("payment_day", json!(29)),
            "payment.payment_day",
            "Please choose a day from 1 to 28",
        ),
        (
            with("payment_day", json!(0)),
            "payment.payment_day",
            "Please choose a day from 1 to 28",
        ),
        (
            with("payment_frequency", json!("WEEKLY")),
            "payment.payment_frequency",
            "This field is required",
        ),
        (
            with("account_name", json!("Ada 2")),
            "payment.account_name",
            "Please enter the account holder's name: up to 30 letters, spaces and ' ( ) & only",
        ),
    ] {
        let (status, body) = setup(&app, p.clone()).await;
        assert_eq!(status, 422, "{p}: {body}");
        assert_eq!(
            first_error(&body),
            (field.to_owned(), message.to_owned()),
            "{p}"
        );
    }
    let view = app.view("/quote/payment").await;
    assert_eq!(view["payment"], json!({}), "nothing stored");
}

/// One field, one set of accepted forms on every call. The sort code the bank check
/// takes ("089999", "08 99 99", "08-99-99") is the one the payment takes, stored as the spec
/// writes it; an account number with spaces is its digits.
#[tokio::test]
async fn the_payment_takes_the_sort_code_in_every_form_the_bank_check_takes() {
    for typed in ["089999", "08 99 99", "08-99-99", " 08 - 99 - 99 "] {
        let app = at_payment().await;
        let csrf = app.csrf().await;
        let (status, answer) = app
            .post_json(
                "/api/bankvalidation",
                &json!({ "csrf": csrf, "payment": { "sort_code": typed, "account_number": "6637 4958" } }),
            )
            .await;
        assert_eq!(status, 200, "{typed:?}: {answer}");
        assert_eq!(
            answer["data"]["payment"]["bank_details_valid"], true,
            "{typed:?}"
        );
        let (status, answer) = setup(
            &app,
            json!({
                "payment_method": "DD", "payment_frequency": "MP", "account_name": "Ada O'Neill",
                "sort_code": typed, "account_number": "6637 4958", "payment_day": 15, "dd_confirmation": true
            }),
        )
        .await;
        assert_eq!(status, 200, "{typed:?}: {answer}");
        let stored = app.sql("select document from quotes").await.expect("quote");
        let document: Value = serde_json::from_str(&stored).expect("json");
        assert_eq!(document["payment"]["sort_code"], "08-99-99", "{typed:?}");
    }
}

#[tokio::test]
async fn the_account_number_is_kept_encrypted_and_shown_only_on_the_bank_details_panel() {
    // Bank account numbers encrypted at rest and masked everywhere except the panel the
    // spec shows them in (owner-payment.md §2 Bank details panel).
    let app = at_payment().await;
    let view = app.view("/quote/payment").await;
    assert_eq!(view["step"]["view"], "payment");
    assert_eq!(
        view["collections"]["MP"]["15"]["regular"],
        view["summary"]["monthly"]
    );
    let (status, body) = setup(&app, payment()).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["step"]["id"], "payment_confirmation");
    let panel = &body["data"]["bank_details"];
    assert_eq!(panel["account_number"], "66374958");
    assert_eq!(panel["sort_code"], "08-99-99");
    assert_eq!(panel["account_name"], "Ada O'Neill");
    // The bank's name and branch address from the sort code (server/data/bank-branches.json).
    assert_eq!(panel["bank_name"], "Meridian Mutual Bank");
    assert_eq!(
        panel["bank_address"],
        "Meridian House, 4 Cotton Exchange, Manchester, M1 9ZZ"
    );
    assert_eq!(body["data"]["payment"]["account_number_masked"], "****4958");
    assert!(body["data"]["payment"].get("account_number").is_none());

    // Anywhere else: masked only.
    let review = app.view("/quote/review").await;
    assert!(!review.to_string().contains("66374958"));
    assert_eq!(review["bank_details"], Value::Null);

    // At rest: not in the quote, not in the transitions; encrypted beside the quote.
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(&app.database_url)
        .await
        .expect("connect");
    let documents: Vec<(String,)> = sqlx::query_as("select document from quotes")
        .fetch_all(&pool)
        .await
        .expect("quotes");
    assert!(documents.iter().all(|(d,)| !d.contains("66374958")));
    let transitions: Vec<(String, String)> =
        sqlx::query_as("select field_errors, guards from step_transitions")
            .fetch_all(&pool)
            .await
            .expect("t");
    assert!(
        transitions
            .iter()
            .all(|(a, b)| !a.contains("66374958") && !b.contains("66374958"))
    );
    let secrets: Vec<(String, String)> =
        sqlx::query_as("select field, ciphertext from quote_secrets")
            .fetch_all(&pool)
            .await
            .expect("secrets");
    pool.close().await;
    assert_eq!(secrets.len(), 1);
    assert_eq!(secrets[0].0, "/payment/account_number");
    assert!(secrets[0].1.starts_with("v1:") && !secrets[0].1.contains("66374958"));

    // The panel page itself, loaded again.
    let confirmation = app.view("/quote/payment-confirmation").await;
    assert_eq!(confirmation["bank_details"]["account_number"], "66374958");
}

#[tokio::test]
async fn policy_communications_and_keeping_in_touch_are_saved_from_the_payment_page() {
    // owner-payment.md §2 Payment page (keeping in touch, policy communications online or post),
    // §3 Owner (marketing_preferences, documents_by_post).
    let app = spawn_app().await;
    app.reach_payment(json!([valid_pet()])).await;
    let view = app.view("/quote/payment").await;
    assert_eq!(
        view["edits"]["communications"]["submit"],
        "/api/ownerdetail"
    );
    let (status, body) = app
        .edit(
            "/api/ownerdetail",
            "communications",
            json!({ "owner": { "documents_by_post": true, "marketing_preferences": { "optin_email": true, "optin_post": false } } }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let view = app.view("/quote/payment").await;
    let owner = &view["owner"];
    assert_eq!(owner["documents_by_post"], true);
    assert_eq!(owner["marketing_preferences"]["optin_email"], true);
    // The rest of the owner is untouched, and the page is still payment.
    assert_eq!(owner["customer_first_name"], "Ada");
    assert_eq!(view["step"]["id"], "payment");

    // Bad answers name their field and change nothing.
    let (status, body) = app
        .edit(
            "/api/ownerdetail",
            "communications",
            json!({ "owner": { "documents_by_post": "yes" } }),
        )
        .await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(body["errors"][0]["field"], "owner.documents_by_post");
    let view = app.view("/quote/payment").await;
    assert_eq!(view["owner"]["documents_by_post"], true);
    // A key the preferences' schema does not declare is refused, as the schema says
    // (`additionalProperties: false`), not dropped in silence; an answer the set does not ask
    // elsewhere is not stored (the engine keeps only declared answers).
    let (status, body) = app
        .edit(
            "/api/ownerdetail",
            "communications",
            json!({ "owner": { "documents_by_post": false, "marketing_preferences": { "optin_fax": true } } }),
        )
        .await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(body["errors"][0]["field"], "owner.marketing_preferences");
    let (status, _) = app
        .edit(
            "/api/ownerdetail",
            "communications",
            json!({ "owner": { "documents_by_post": false, "customer_town": "Elsewhere" } }),
        )
        .await;
    assert_eq!(status, 200);
    let view = app.view("/quote/payment").await;
    assert_eq!(view["owner"]["documents_by_post"], false);
    assert!(
        view["owner"]["marketing_preferences"]
            .get("optin_fax")
            .is_none()
    );
    assert_ne!(view["owner"]["customer_town"], "Elsewhere");
}
