//! Issue 21, "A bought policy can be taken over": a bought quote is never attached to another
//! browser, by a comparison site's click-through or by retrieve quote; a click-through opens its
//! quote once; the pet portal password is set only from the browser that bought, soon after.

mod common;

use common::*;
use serde_json::{Value, json};

const CTM_KEY: &str = "ctm-key-0123456789abcdefghijklmnopqrstuv";

/// A browser of its own (its own cookie jar), as a second person would have.
fn browser() -> reqwest::Client {
    reqwest::Client::builder()
        .cookie_store(true)
        .build()
        .expect("client")
}

async fn view_in(client: &reqwest::Client, app: &TestApp, path: &str) -> Value {
    client
        .get(format!("{}{path}", app.base))
        .header("Accept", "application/json")
        .send()
        .await
        .expect("get")
        .json::<Value>()
        .await
        .expect("json")["data"]
        .clone()
}

async fn post_in(
    client: &reqwest::Client,
    app: &TestApp,
    path: &str,
    body: &Value,
) -> (u16, Value) {
    let r = client
        .post(format!("{}{path}", app.base))
        .json(body)
        .send()
        .await
        .expect("post");
    let status = r.status().as_u16();
    (status, r.json::<Value>().await.unwrap_or(Value::Null))
}

/// Opens a link in a fresh browser without following the redirect: (status, location, whether
/// a session cookie was set).
async fn open(app: &TestApp, link: &str) -> (u16, String, bool) {
    let path = &link[link.find("/aggregators/continue/").expect("link path")..];
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("client");
    let r = client
        .get(format!("{}{path}", app.base))
        .send()
        .await
        .expect("get");
    let location = r
        .headers()
        .get("location")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    (
        r.status().as_u16(),
        location,
        r.headers().get("set-cookie").is_some(),
    )
}

fn aggregator_risk() -> Value {
    let mut pet = valid_pet();
    let map = pet.as_object_mut().expect("pet");
    map.remove("pet_any_injury_illness");
    map.remove("confirm_assumptions");
    map.insert("pet_microchipped".into(), json!("yes"));
    json!({
        "brand": "pos",
        "pets": [pet],
        "owner": valid_owner(),
        "cover_start": (uk_today() + chrono::Duration::days(3)).to_string(),
    })
}

#[tokio::test]
async fn a_click_through_opens_its_quote_once_and_never_a_bought_one() {
    let app = spawn_app_with(&[("PAWPATH_AGGREGATOR_KEYS", format!("ctm={CTM_KEY}"))]).await;
    let r = app
        .client
        .post(format!("{}/api/aggregators/quotes", app.base))
        .bearer_auth(CTM_KEY)
        .json(&aggregator_risk())
        .send()
        .await
        .expect("post");
    assert_eq!(r.status().as_u16(), 201);
    let made: Value = r.json().await.expect("json");
    let links: Vec<&str> = made["offers"]
        .as_array()
        .expect("offers")
        .iter()
        .map(|o| o["click_through"].as_str().expect("link"))
        .collect();
    assert!(links.len() >= 3, "{made}");
    let retrieve = "/aggregators/quote/retrieve-quote?brand=pos";

    // The first click opens the quote at review in a new browser.
    let (status, location, cookie) = open(&app, links[0]).await;
    assert_eq!(
        (status, location.as_str(), cookie),
        (303, "/aggregators/quote/review?brand=pos", true)
    );
    // The same link again (a browser's history, a forwarded email): retrieve quote, no session.
    let (status, location, cookie) = open(&app, links[0]).await;
    assert_eq!((status, location.as_str(), cookie), (303, retrieve, false));
    // Another offer of the same quote, still to be bought, is a first click of its own.
    let (status, location, cookie) = open(&app, links[1]).await;
    assert_eq!(
        (status, location.as_str(), cookie),
        (303, "/aggregators/quote/review?brand=pos", true)
    );

    // Once bought, no link of the quote opens it, even one never used.
    app.sql("update quotes set lifecycle = 'purchased'").await;
    let (status, location, cookie) = open(&app, links[2]).await;
    assert_eq!((status, location.as_str(), cookie), (303, retrieve, false));
    assert_eq!(
        app.sql("select count(*) from used_links").await.as_deref(),
        Some("2"),
        "a link is kept only by its digest, once used"
    );
    let stored = app
        .sql("select digest from used_links")
        .await
        .unwrap_or_default();
    assert!(
        links.iter().all(|l| !l.contains(&stored)) && stored.len() == 64,
        "the digest, not the token"
    );
}

#[tokio::test]
async fn retrieving_a_bought_quote_says_it_is_bought_and_opens_nothing() {
    let app = spawn_app().await;
    let bought = app.buy_direct().await;
    let qidu = app.view("/quote/confirmation").await["qidu"]
        .as_str()
        .expect("qidu")
        .to_owned();
    assert!(bought["data"]["purchase"]["policies"][0]["policy_number"].is_string());

    // Someone else with the reference and the email address.
    let other = browser();
    let csrf = view_in(&other, &app, "/quote/retrieve-quote").await["csrf"]
        .as_str()
        .expect("csrf")
        .to_owned();
    let (status, body) = post_in(
        &other,
        &app,
        "/api/quoteretrieval",
        &json!({ "csrf": csrf, "quote_reference": qidu, "email": "ada@example.com" }),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body,
        json!({ "data": { "purchased": true, "message": "This quote has already been bought. We sent the policy documents by email to the address given when it was bought. If you need help with the policy, please call us." } }),
        "no path, no personal data"
    );
    // Their browser still has only its own (new) quote: nothing of the customer's.
    let page = view_in(&other, &app, "/quote/confirmation").await;
    let text = page.to_string();
    assert_ne!(page["qidu"], json!(qidu));
    for personal in [
        "ada@example.com",
        "O'Neill",
        "66374958",
        "08-99-99",
        "01632960123",
    ] {
        assert!(
            !text.contains(personal),
            "{personal} shown to another browser"
        );
    }
    let csrf = page["csrf"].as_str().expect("csrf").to_owned();
    let (status, _) = post_in(
        &other,
        &app,
        "/api/saveportalpassword",
        &json!({ "csrf": csrf, "email": "ada@example.com", "password": "Abcdefgh1!", "password_confirmation": "Abcdefgh1!" }),
    )
    .await;
    assert_eq!(status, 409, "the other browser's quote is not bought");
    assert_eq!(
        app.sql("select count(*) from portal_accounts")
            .await
            .as_deref(),
        Some("0")
    );

    // The customer's own browser still has the quote.
    let mine = app.view("/quote/confirmation").await;
    assert_eq!(mine["qidu"], json!(qidu));
    assert_eq!(mine["purchase"]["portal_open"], true);
}

#[tokio::test]
async fn the_portal_password_is_set_only_soon_after_the_purchase() {
    let app = spawn_app().await;
    app.buy_direct().await;
    // Two hours later, the same browser.
    let earlier = (chrono::Utc::now() - chrono::Duration::hours(2))
        .to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
    app.sql(&format!("update purchases set created_at = '{earlier}'"))
        .await;
    let page = app.view("/quote/confirmation").await;
    assert_eq!(
        page["purchase"]["portal_open"], false,
        "{}",
        page["purchase"]
    );
    let csrf = page["csrf"].as_str().expect("csrf").to_owned();
    let (status, body) = app
        .post_json(
            "/api/saveportalpassword",
            &json!({ "csrf": csrf, "email": "ada@example.com", "password": "Abcdefgh1!", "password_confirmation": "Abcdefgh1!" }),
        )
        .await;
    assert_eq!(status, 403, "{body}");
    assert_eq!(
        body["message"],
        "The time to create your password on this page has passed. Please call us to set up your pet portal account."
    );
    assert_eq!(
        app.sql("select count(*) from portal_accounts")
            .await
            .as_deref(),
        Some("0")
    );
}
