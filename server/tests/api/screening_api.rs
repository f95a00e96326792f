//! Sanctions screening before a purchase (a UK insurer may not sell cover to a person
//! on OFSI's consolidated list). The list is `server/data/sanctions/ConList.csv`, fictional
//! entries in the published format: Ostap Ferrin QUANDRELL (born 12/03/1971, alias KWANDRELL),
//! Mirela VELLASKO (born 1980), Cedric Aldous HARROWGATE-PLUME (no date of birth) and an entity.

use crate::common::{self, *};

use serde_json::{Value, json};

const TOKEN: &str = "metrics-token-for-the-screening-tests-0123456789";
const ADMIN: &str = "admin-token-for-the-screening-tests-0123456789ab";

/// Buys one dog by Direct Debit as the policyholder `first last`, born `dob`: the purchase's
/// status and answer.
async fn buy_as(app: &TestApp, first: &str, last: &str, dob: &str) -> (u16, Value) {
    let mut owner = valid_owner();
    owner["customer_first_name"] = json!(first);
    owner["customer_last_name"] = json!(last);
    owner["customer_date_of_birth"] = json!(dob);
    let (status, body) = app.save_pets(json!([valid_pet()])).await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = app.save_owner(owner).await;
    assert_eq!(status, 200, "{first} {last}: {body}");
    let (status, body) = app
        .save_cover(json!([{ "product": { "Code": "LT04000" } }]))
        .await;
    assert_eq!(status, 200, "{body}");
    app.declare_dogs(1).await;
    app.pay_by_direct_debit_and_buy(&format!("screen-{}", dob.replace('-', "")))
        .await
}

#[tokio::test]
async fn a_possible_match_stops_the_purchase_with_a_neutral_message_and_a_referral_for_staff() {
    let app = spawn_app_with(&[
        ("PAWPATH_METRICS_TOKEN", TOKEN.to_owned()),
        ("PAWPATH_ADMIN_TOKEN", ADMIN.to_owned()),
    ])
    .await;
    let (status, body) = buy_as(&app, "Ostap", "Quandrell", "1971-03-12").await;
    assert_eq!(status, 422, "{body}");
    let message = body["errors"][0]["message"].as_str().expect("a message");
    assert_eq!(body["errors"][0]["field"], "purchase");
    assert_eq!(
        message,
        "We need to speak to you before we can complete your purchase. Please call us on 0808 157 0000: your quote is saved."
    );
    // Never the reason.
    let said = body.to_string().to_lowercase();
    for word in ["sanction", "ofsi", "list", "90001", "match"] {
        assert!(!said.contains(word), "{word} in {body}");
    }
    // Nothing bought; the referral is in the quote's log with what matched, for the replay.
    assert_eq!(
        app.sql("select count(*) from purchases").await.as_deref(),
        Some("0")
    );
    let input = referral(&app).await;
    assert_eq!(input["screening"]["list_entry"], "90001", "{input}");
    assert_eq!(input["screening"]["score"], 100, "{input}");
    // Staff see it in the quote's replay: the blocked purchase and what matched.
    let reference = app.view("/quote/payment-confirmation").await["qidu"]
        .as_str()
        .expect("reference")
        .to_owned();
    let replay = app
        .client
        .get(format!("{}/internal/quotes/{reference}/replay", app.base))
        .bearer_auth(ADMIN)
        .send()
        .await
        .expect("replay");
    assert_eq!(replay.status(), 200);
    let replay = replay.text().await.expect("text");
    assert!(
        replay.contains("purchase_referred") && replay.contains("90001"),
        "{replay}"
    );
    let counted = app
        .metric(TOKEN, "pawpath_screening_referrals_total")
        .await
        .expect("counted");
    assert!(counted >= 1.0, "{counted}");
}

/// As screening tools compare: an alias, accents, word order, case, a one-letter slip and a date
/// of birth only a slip away are all possible matches; a listed date of birth far from theirs,
/// a different name, a name only partly alike and an entity on the list are not. (Every class of
/// spelling variant is proved against the matcher itself in `sanctions::variants`.)
#[tokio::test]
async fn names_are_compared_as_screening_tools_do_and_near_misses_buy() {
    for (first, last, dob, referred) in [
        ("Ostap", "Kwandrell", "1971-03-12", true),
        ("Óstap", "QUANDRÉLL", "1971-03-12", true),
        ("Quandrell", "Ostap", "1971-03-12", true),
        ("Mirela", "Vellasco", "1980-06-01", true),
        ("Cedric", "Harrowgate-Plume", "1990-01-01", true),
        // A strong name match with a date of birth that differs only as a slip does is referred.
        ("Ostap", "Quandrell", "1985-03-12", true),
        ("Ostap", "Quandrell", "1971-03-13", true),
        // Near misses that must buy.
        ("Ostap", "Quandrell", "1988-09-30", false),
        ("Oscar", "Quandt", "1971-03-12", false),
        ("Mira", "Velasquez", "1980-06-01", false),
        ("Cedric", "Harrow", "1990-01-01", false),
        ("Blackfen", "Shipping", "1980-01-01", false),
    ] {
        let app = spawn_app().await;
        let (status, body) = buy_as(&app, first, last, dob).await;
        let expected = if referred { 422 } else { 200 };
        assert_eq!(status, expected, "{first} {last} {dob}: {body}");
    }
}

/// The list is data: a file in OFSI's format, replaced without a code change; one that is not
/// the list stops the server at start, naming the file and line.
#[tokio::test]
async fn the_list_is_a_file_swapped_without_code_and_a_bad_one_is_named() {
    let dir = tempfile::tempdir().expect("tempdir");
    let list = dir.path().join("ConList.csv");
    let original = std::fs::read_to_string(repo_root().join("server/data/sanctions/ConList.csv"))
        .expect("the list");
    // A newly listed person (fictional), in a list of the same format.
    let mut added = original.clone();
    let columns = original.lines().nth(1).expect("header").split(',').count();
    let mut row = vec![""; columns];
    row[0] = "LEDBURY-OAKES";
    row[1] = "Ada";
    row[columns - 1] = "90099";
    let group_type = original
        .lines()
        .nth(1)
        .expect("header")
        .split(',')
        .position(|c| c == "Group Type")
        .expect("Group Type");
    row[group_type] = "Individual";
    added.push_str(&row.join(","));
    added.push('\n');
    std::fs::write(&list, added).expect("write");
    let app = spawn_app_with(&[("PAWPATH_SANCTIONS_LIST", list.display().to_string())]).await;
    let (status, body) = buy_as(&app, "Ada", "Ledbury-Oakes", "1985-03-27").await;
    assert_eq!(status, 422, "{body}");

    std::fs::write(&list, "Name,DOB\nSomeone,01/01/1970\n").expect("write");
    let data = tempfile::tempdir().expect("data");
    let config = common::config_with(
        data.path(),
        &format!("sqlite://{}?mode=rwc", data.path().join("t.db").display()),
        &repo_root(),
        &[("PAWPATH_SANCTIONS_LIST", list.display().to_string())],
    );
    let refused = pawpath::App::build(config).await.err().expect("refused");
    let said = refused.to_string();
    assert!(
        said.contains("ConList.csv line 1") && said.contains("Last Updated"),
        "{said}"
    );
}

/// Every party is screened: a clean policyholder paying from a Direct Debit account in a listed
/// name is referred like a listed policyholder, with the party recorded for staff.
#[tokio::test]
async fn the_direct_debit_account_holder_is_screened_too() {
    let app = spawn_app().await;
    app.reach_payment(json!([valid_pet()])).await;
    let csrf = app.csrf().await;
    let payment = json!({
        "payment_method": "DD", "payment_frequency": "MP", "account_name": "O Quandrell",
        "sort_code": "08-99-99", "account_number": "66374958", "payment_day": 15, "dd_confirmation": true
    });
    let (status, body) = app
        .post_json(
            "/api/setup-payment",
            &json!({ "csrf": csrf, "payment": payment }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let csrf = app.csrf().await;
    let (status, body) = app
        .post_json(
            "/api/purchase",
            &json!({ "csrf": csrf, "idempotency_key": "screen-account-holder" }),
        )
        .await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(body["errors"][0]["field"], "purchase", "{body}");
    assert_eq!(
        app.sql("select count(*) from purchases").await.as_deref(),
        Some("0")
    );
    let input = referral(&app).await;
    assert_eq!(input["screening"]["party"], "account_holder", "{input}");
    assert_eq!(input["screening"]["list_entry"], "90001", "{input}");
}

/// The owner who takes the free rehoming cover is screened before any policy is issued: a listed
/// owner is asked to call, and no policy, purchase or email is made.
#[tokio::test]
async fn the_owner_taking_free_rehoming_cover_is_screened() {
    use crate::rehoming_api::{PNG, data_url, post, reach_confirmation_as};
    let app = spawn_app().await;
    let mut owner = valid_owner();
    owner["customer_first_name"] = json!("Cedric");
    owner["customer_last_name"] = json!("Harrowgate Plume");
    let csrf = reach_confirmation_as(&app, &data_url("image/png", PNG), "HRS-55120", owner).await;
    let (status, body) = post(&app, "/api/confirmationrescue", &csrf, json!({})).await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(body["errors"][0]["field"], "purchase", "{body}");
    let said = body.to_string().to_lowercase();
    assert!(
        !said.contains("sanction") && !said.contains("90003"),
        "{body}"
    );
    for table in ["purchases", "policies"] {
        assert_eq!(
            app.sql(&format!("select count(*) from {table}"))
                .await
                .as_deref(),
            Some("0"),
            "{table}"
        );
    }
    let input = referral(&app).await;
    assert_eq!(input["screening"]["party"], "policyholder", "{input}");
    assert_eq!(input["screening"]["list_entry"], "90003", "{input}");
}

/// The blocked purchase's logged input: what the referral recorded for staff.
async fn referral(app: &TestApp) -> Value {
    let input = app
        .sql("select input from step_transitions where event = 'purchase' and outcome = 'blocked'")
        .await
        .expect("the referral is recorded");
    serde_json::from_str(&input).expect("json")
}
