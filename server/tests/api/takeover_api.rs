//! A bought quote is never attached to another
//! browser, by a comparison site's click-through or by retrieve quote; a click-through opens its
//! quote once; the pet portal password is set only from the browser that bought, soon after.

use crate::common;

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

/// A session given
/// to an attacker and planted in the customer's browser before they start is worth nothing once
/// they buy. The purchase moves the quote to a new session: the planted cookie's confirmation is
/// 404, its portal password call is refused, and the customer's own (with the new cookie and the
/// token the confirmation carries) sets the password.
#[tokio::test]
async fn a_session_planted_before_the_purchase_sees_nothing_after_it() {
    let app = spawn_app().await;
    let (planted, attackers_csrf) = stranger_session(&app.base, "pos").await;
    let customer = app.visitor_holding(&planted).await;
    let bought = customer.buy_direct_with_key("fixation-0001").await;
    let number = bought["data"]["purchase"]["policies"][0]["policy_number"].clone();
    assert!(number.is_string(), "{bought}");

    let (status, body, _) = app
        .as_session(&planted, reqwest::Method::GET, "/api/confirmation", None)
        .await;
    assert_eq!(
        status, 404,
        "the planted session reads no confirmation: {body}"
    );
    assert!(!body.to_string().contains("Biscuit"), "{body}");
    let password = json!({ "csrf": attackers_csrf, "email": "ada@example.com",
        "password": "Abcdefgh1!", "password_confirmation": "Abcdefgh1!" });
    let (status, body, _) = app
        .as_session(
            &planted,
            reqwest::Method::POST,
            "/api/saveportalpassword",
            Some(&password),
        )
        .await;
    assert_eq!(status, 403, "{body}");
    // The planted session's pages are a new visitor's: nothing of the customer's.
    let (status, view, _) = app
        .as_session(&planted, reqwest::Method::GET, "/quote/confirmation", None)
        .await;
    assert_eq!(status, 200);
    assert!(!view.to_string().contains("ada@example.com"), "{view}");

    // The customer's browser holds the new session, and sets the password.
    let page = customer.view("/quote/confirmation").await;
    assert_eq!(page["purchase"]["policies"][0]["policy_number"], number);
    assert_eq!(page["purchase"]["portal_open"], true);
    let csrf = page["csrf"].as_str().expect("csrf");
    let (status, body) = customer
        .post_json(
            "/api/saveportalpassword",
            &json!({ "csrf": csrf, "email": "ada@example.com", "password": "Abcdefgh1!", "password_confirmation": "Abcdefgh1!" }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
}

/// The buyer's retry whose answer (and new cookie) was lost on the way is answered
/// as the purchase was, with the same new session; the old cookie with any other key is refused.
#[tokio::test]
async fn a_purchase_retried_from_the_old_session_with_its_key_is_answered_as_it_was() {
    let app = spawn_app().await;
    let (session, csrf) = stranger_session(&app.base, "pos").await;
    let customer = app.visitor_holding(&session).await;
    let bought = customer.buy_direct_with_key("lostanswer-0001").await;
    let number = bought["data"]["purchase"]["policies"][0]["policy_number"].clone();
    let page = customer.view("/quote/confirmation").await;

    let wrong = json!({ "csrf": csrf, "idempotency_key": "lostanswer-0002" });
    let (status, body, set) = app
        .as_session(
            &session,
            reqwest::Method::POST,
            "/api/purchase",
            Some(&wrong),
        )
        .await;
    assert_eq!((status, set), (403, None), "{body}");

    let retry = json!({ "csrf": csrf, "idempotency_key": "lostanswer-0001" });
    let (status, body, set) = app
        .as_session(
            &session,
            reqwest::Method::POST,
            "/api/purchase",
            Some(&retry),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body["data"]["purchase"]["policies"][0]["policy_number"],
        number
    );
    let renewed = set.expect("the purchase's session");
    assert_ne!(renewed, session);
    assert_eq!(
        app.sql("select count(*) from purchases").await.as_deref(),
        Some("1")
    );
    // The same session the customer's browser was given: both read the confirmation.
    let (status, again, _) = app
        .as_session(&renewed, reqwest::Method::GET, "/api/confirmation", None)
        .await;
    assert_eq!(status, 200);
    assert_eq!(again["data"]["qidu"], page["qidu"]);
    assert_eq!(
        customer.view("/quote/confirmation").await["purchase"]["policies"][0]["policy_number"],
        number
    );
}

/// A quote retrieved into a browser joins it under a new session; the session the
/// browser had before (perhaps planted) finds nothing of it.
#[tokio::test]
async fn a_retrieved_quote_joins_a_new_session() {
    let app = spawn_app().await;
    app.save_pets(json!([valid_pet()])).await;
    let (status, body) = app.save_owner(valid_owner()).await;
    assert_eq!(status, 200, "{body}");
    let reference = app.view("/quote").await["qidu"]
        .as_str()
        .expect("reference")
        .to_owned();

    let (planted, csrf) = stranger_session(&app.base, "pos").await;
    let find = json!({ "csrf": csrf, "quote_reference": reference, "email": "ada@example.com" });
    let (status, body, set) = app
        .as_session(
            &planted,
            reqwest::Method::POST,
            "/api/quoteretrieval",
            Some(&find),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let joined = set.expect("the retrieved quote's new session");
    assert_ne!(joined, planted);
    let (_, view, _) = app
        .as_session(&joined, reqwest::Method::GET, "/quote/your-details", None)
        .await;
    assert_eq!(view["data"]["qidu"], json!(reference));
    let (_, view, _) = app
        .as_session(&planted, reqwest::Method::GET, "/quote/your-details", None)
        .await;
    assert_ne!(view["data"]["qidu"], json!(reference), "{view}");
    assert!(!view.to_string().contains("ada@example.com"), "{view}");
}
