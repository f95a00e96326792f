//! The annual rehoming link (journey.md §1 Extra flows): a free policy's link opens an annual
//! quote made from it, once, in one browser; a link past its cover, for a cancelled policy or
//! forged is refused.

use crate::common;

use common::*;
use serde_json::{Value, json};

use super::rehoming_api::*;

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

/// The link opens its quote
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
