//! Buying, exactly once (owner-payment.md §2 Bank details panel and Confirmation page,
//! §4 Confirmation): one database transaction makes the policies, the mandate and its collection
//! schedule, and a double click, a retry, two tabs or fifty identical requests make one purchase
//! and get the same answer.

use crate::common;

use common::{TestApp, spawn_app, valid_pet};
use serde_json::{Value, json};

async fn at_bank_details() -> TestApp {
    let app = spawn_app().await;
    app.reach_payment(json!([valid_pet()])).await;
    let csrf = app.csrf().await;
    let payment = json!({
        "payment_method": "DD", "payment_frequency": "MP", "account_name": "Ada O'Neill",
        "sort_code": "08-99-99", "account_number": "66374958", "payment_day": 15, "dd_confirmation": true
    });
    let (status, body) = app
        .post_json(
            "/api/setup-payment",
            &json!({ "csrf": csrf, "payment": payment }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["step"]["id"], "payment_confirmation");
    app
}

async fn buy(app: &TestApp, key: &str) -> (u16, Value) {
    let csrf = app.csrf().await;
    app.post_json(
        "/api/purchase",
        &json!({ "csrf": csrf, "idempotency_key": key }),
    )
    .await
}

async fn count(app: &TestApp, table: &'static str) -> i64 {
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(&app.database_url)
        .await
        .expect("connect");
    let sql = match table {
        "purchases" => "select count(*) from purchases",
        "policies" => "select count(*) from policies",
        "mandates" => "select count(*) from mandates",
        other => panic!("no count for {other}"),
    };
    let (n,): (i64,) = sqlx::query_as(sql).fetch_one(&pool).await.expect("count");
    pool.close().await;
    n
}

#[tokio::test]
async fn buying_makes_the_policies_the_mandate_and_the_schedule_once() {
    let app = at_bank_details().await;
    let (status, body) = buy(&app, "attempt-0001").await;
    assert_eq!(status, 200, "{body}");
    let data = &body["data"];
    assert_eq!(data["step"]["id"], "confirmation");
    let purchase = &data["purchase"];
    let number = purchase["policies"][0]["policy_number"]
        .as_str()
        .expect("policy number")
        .to_owned();
    assert!(
        number.starts_with("PETPS") && number.len() == 12,
        "{number}: the brand's prefix"
    );
    assert_eq!(purchase["policies"][0]["pet_name"], "Biscuit");
    assert_eq!(purchase["policies"][0]["product_code"], "LT04000");
    assert_eq!(purchase["account_number_masked"], "****4958");
    let payments: i64 = purchase["collections"]
        .as_array()
        .expect("collections")
        .iter()
        .map(|c| c[2].as_i64().expect("n"))
        .sum();
    assert_eq!(payments, 12, "a monthly payer's year");
    assert!(
        !body.to_string().contains("66374958"),
        "the account number stays masked"
    );

    // The same request again, a retry with another key, and the page loaded again: the same
    // answer, one purchase.
    for key in ["attempt-0001", "attempt-0002"] {
        let (status, again) = buy(&app, key).await;
        assert_eq!(status, 200, "{again}");
        assert_eq!(
            again["data"]["purchase"]["policies"][0]["policy_number"],
            json!(number)
        );
    }
    let page = app.view("/quote/review").await;
    assert_eq!(
        page["step"]["id"], "confirmation",
        "a bought quote shows its confirmation"
    );
    assert_eq!(
        page["purchase"]["policies"][0]["policy_number"],
        json!(number)
    );
    assert_eq!(count(&app, "purchases").await, 1);
    assert_eq!(count(&app, "policies").await, 1);
    assert_eq!(count(&app, "mandates").await, 1);

    // A bought quote takes no more answers.
    let (status, _) = app.save_pets(json!([valid_pet()])).await;
    assert_eq!(status, 409);
}

#[tokio::test]
async fn fifty_identical_requests_at_once_make_one_purchase() {
    let app = at_bank_details().await;
    let csrf = app.csrf().await;
    let mut tasks = Vec::new();
    for _ in 0..50 {
        let client = app.client.clone();
        let url = format!("{}/api/purchase", app.base);
        let body = json!({ "csrf": csrf, "idempotency_key": "double-click-0001" });
        tasks.push(tokio::spawn(async move {
            let r = client.post(url).json(&body).send().await.expect("post");
            (r.status().as_u16(), r.json::<Value>().await.expect("json"))
        }));
    }
    let mut numbers = std::collections::BTreeSet::new();
    for t in tasks {
        let (status, body) = t.await.expect("task");
        assert_eq!(status, 200, "{body}");
        numbers.insert(
            body["data"]["purchase"]["policies"][0]["policy_number"]
                .as_str()
                .expect("n")
                .to_owned(),
        );
    }
    assert_eq!(numbers.len(), 1, "the same answer every time: {numbers:?}");
    assert_eq!(count(&app, "purchases").await, 1);
    assert_eq!(count(&app, "policies").await, 1);
    let (n,) = {
        sqlx::any::install_default_drivers();
        let pool = sqlx::AnyPool::connect(&app.database_url)
            .await
            .expect("connect");
        let r: (i64,) = sqlx::query_as(
            "select count(*) from step_transitions where event = 'purchase' and outcome = 'moved'",
        )
        .fetch_one(&pool)
        .await
        .expect("count");
        pool.close().await;
        r
    };
    assert_eq!(n, 1, "one purchase transition");
}

#[tokio::test]
async fn nothing_is_bought_before_the_payment_details_are_complete() {
    let app = spawn_app().await;
    app.reach_assumptions(json!([valid_pet()])).await;
    let (status, body) = buy(&app, "too-early-0001").await;
    // Refused naming the step that is not open yet, and logged.
    assert_eq!(status, 409, "{body}");
    assert_eq!(body["error"], "step_closed", "{body}");
    assert_eq!(count(&app, "purchases").await, 0);
    let (status, _) = app
        .post_json(
            "/api/purchase",
            &json!({ "idempotency_key": "no-token-0001" }),
        )
        .await;
    assert_eq!(status, 403);
    let csrf = app.csrf().await;
    let (status, _) = app
        .post_json(
            "/api/purchase",
            &json!({ "csrf": csrf, "idempotency_key": "x" }),
        )
        .await;
    assert_eq!(status, 400, "a key of 8 or more characters");
}

#[tokio::test]
async fn the_portal_password_is_checked_by_its_rules_and_kept_only_as_an_argon2id_hash() {
    // owner-payment.md §5 Portal password, §7 /api/saveportalpassword.
    let app = at_bank_details().await;
    let (status, body) = buy(&app, "portal-0001").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body["data"]["edits"]["portal_password"]["submit"],
        "/api/saveportalpassword"
    );
    assert_eq!(body["data"]["purchase"]["portal_registered"], false);
    let csrf = app.csrf().await;
    let save = |password: &str, again: &str| json!({ "csrf": csrf, "email": "ada@example.com", "password": password, "password_confirmation": again });
    for (password, again, field, message) in [
        (
            "Ab1!",
            "Ab1!",
            "password",
            "Password is too short - Minimum 8 characters",
        ),
        (
            "Abcdefgh1!Abcdefgh1!x",
            "Abcdefgh1!Abcdefgh1!x",
            "password",
            "Password is too long - Maximum 20 characters",
        ),
        (
            "abcdefg1!",
            "abcdefg1!",
            "password",
            "Your password needs a capital letter",
        ),
        (
            "Abcdefgh1",
            "Abcdefgh1",
            "password",
            "Your password needs a special character",
        ),
        (
            "Abcdefgh1#",
            "Abcdefgh1#",
            "password",
            "Please use only letters, digits and @ $ % & * ! = £ ^ ( ) _ - + { } : ~ < > ? [ ]",
        ),
        (
            "Abcdefgh1!",
            "Abcdefgh1?",
            "password_confirmation",
            "The passwords do not match",
        ),
    ] {
        let (status, body) = app
            .post_json("/api/saveportalpassword", &save(password, again))
            .await;
        assert_eq!(status, 422, "{password}: {body}");
        assert_eq!(body["errors"][0]["field"], field, "{password}");
        assert_eq!(body["errors"][0]["message"], message, "{password}");
    }
    let (status, body) = app
        .post_json("/api/saveportalpassword", &json!({ "csrf": csrf, "email": "someone@else.com", "password": "Abcdefgh1!", "password_confirmation": "Abcdefgh1!" }))
        .await;
    assert_eq!(status, 400, "{body}");
    let (status, body) = app
        .post_json("/api/saveportalpassword", &save("Abcdefgh1!", "Abcdefgh1!"))
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["success"], true);
    let (status, _) = app
        .post_json("/api/saveportalpassword", &save("Zyxwvut9$", "Zyxwvut9$"))
        .await;
    assert_eq!(status, 409, "only while no password exists");
    let view = app.view("/quote/confirmation").await;
    assert_eq!(view["purchase"]["portal_registered"], true);

    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(&app.database_url)
        .await
        .expect("connect");
    let (hash,): (String,) = sqlx::query_as("select password_hash from portal_accounts")
        .fetch_one(&pool)
        .await
        .expect("hash");
    let transitions: Vec<(String,)> = sqlx::query_as("select field_errors from step_transitions")
        .fetch_all(&pool)
        .await
        .expect("transitions");
    pool.close().await;
    assert!(hash.starts_with("$argon2id$"), "{hash}");
    assert!(!hash.contains("Abcdefgh1!"));
    assert!(transitions.iter().all(|(t,)| !t.contains("Abcdefgh1!")));
}
