//! Retrieving a quote (owner-payment.md §2 Retrieve quote, §4 Session; journey.md §4 Policy
//! start date, §8 Quote expired), from another browser.

use crate::common;

use common::{TestApp, spawn_app, valid_owner, valid_pet};
use serde_json::{Value, json};

struct Browser {
    client: reqwest::Client,
    base: String,
}

impl Browser {
    fn new(app: &TestApp) -> Self {
        Self {
            client: reqwest::Client::builder()
                .cookie_store(true)
                .build()
                .expect("client"),
            base: app.base.clone(),
        }
    }

    async fn view(&self, path: &str) -> Value {
        let r = self
            .client
            .get(format!("{}{path}", self.base))
            .header("Accept", "application/json")
            .send()
            .await
            .expect("get");
        r.json::<Value>().await.expect("json")["data"].clone()
    }

    async fn ask_for_link(&self, reference: &str) -> (u16, Value) {
        let csrf = self.view("/quote/retrieve-quote").await["csrf"]
            .as_str()
            .expect("csrf")
            .to_owned();
        let r = self
            .client
            .post(format!("{}/api/quoteretrieval-link", self.base))
            .json(&json!({ "csrf": csrf, "quote_reference": reference }))
            .send()
            .await
            .expect("post");
        let status = r.status().as_u16();
        (status, r.json::<Value>().await.unwrap_or(Value::Null))
    }

    async fn retrieve(&self, reference: &str, email: &str) -> (u16, Value) {
        let csrf = self.view("/quote/retrieve-quote").await["csrf"]
            .as_str()
            .expect("csrf")
            .to_owned();
        let r = self
            .client
            .post(format!("{}/api/quoteretrieval", self.base))
            .json(&json!({ "csrf": csrf, "quote_reference": reference, "email": email }))
            .send()
            .await
            .expect("post");
        let status = r.status().as_u16();
        (status, r.json::<Value>().await.unwrap_or(Value::Null))
    }
}

async fn saved_quote() -> (TestApp, String) {
    let app = spawn_app().await;
    let (status, _) = app.save_pets(json!([valid_pet()])).await;
    assert_eq!(status, 200);
    let (status, _) = app.save_owner(valid_owner()).await;
    assert_eq!(status, 200);
    let qidu = app.view("/quote").await["qidu"]
        .as_str()
        .expect("qidu")
        .to_owned();
    (app, qidu)
}

#[tokio::test]
async fn a_quote_is_retrieved_in_another_browser_by_reference_and_email() {
    let (app, qidu) = saved_quote().await;
    let other = Browser::new(&app);
    let page = other.view("/quote/retrieve-quote").await;
    assert_eq!(page["step"]["view"], "retrieve_quote");
    assert_eq!(
        page["step_bar"],
        json!([]),
        "no step bar (owner-payment.md §2)"
    );
    // Typed loosely: lower case, spaces for hyphens, the email in capitals.
    let typed = qidu.to_lowercase().replace('-', " ");
    let (status, body) = other.retrieve(&typed, " ADA@example.com ").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["path"], "/quote/choose-policy");
    assert_eq!(body["data"]["expired"], false);
    let view = other.view("/quote/choose-policy").await;
    assert_eq!(view["qidu"], json!(qidu));
    assert_eq!(view["pets"][0]["pet_name"], "Biscuit");
}

#[tokio::test]
async fn a_wrong_reference_and_a_wrong_email_get_the_same_answer() {
    let (app, qidu) = saved_quote().await;
    let other = Browser::new(&app);
    let (s1, wrong_email) = other.retrieve(&qidu, "someone@example.com").await;
    let (s2, wrong_ref) = other.retrieve("ZZZZ-ZZZZ-ZZZZ", "ada@example.com").await;
    assert_eq!((s1, s2), (422, 422));
    assert_eq!(
        wrong_email, wrong_ref,
        "nothing tells a guesser which was wrong"
    );
    assert_eq!(
        wrong_email["errors"][0]["message"],
        "We could not find a quote with that reference and email address. Please check them and try again."
    );
    // A few tries, then no more (owner-payment.md: rate-limited per client).
    let mut last = 0;
    for _ in 0..10 {
        last = other.retrieve("ZZZZ-ZZZZ-ZZZZ", "ada@example.com").await.0;
    }
    assert_eq!(last, 429);
}

/// Customers behind one address (a mobile network, an office) are not refused for each
/// other's tries: the address's budget is a setting with a high default, while each session and
/// each quote reference keeps its own few tries.
#[tokio::test]
async fn many_behind_one_address_each_try_and_one_reference_is_guessed_only_a_few_times() {
    let (app, qidu) = saved_quote().await;
    // A dozen people from this address, each with their own browser and their own reference,
    // are each answered (not found here: none of them made a quote on this test server).
    for i in 0..12u8 {
        let reference = format!("ZZZZ-ZZZZ-ZZZ{}", char::from(b'A' + i));
        let (status, body) = Browser::new(&app)
            .retrieve(&reference, "x@example.com")
            .await;
        assert_eq!(status, 422, "customer {i}: {body}");
    }
    // One reference guessed at from fresh browsers: ten tries, then no more, whoever asks.
    let mut statuses = Vec::new();
    for i in 0..11 {
        let guess = format!("guess{i}@example.com");
        statuses.push(Browser::new(&app).retrieve(&qidu, &guess).await.0);
    }
    assert_eq!(statuses[..10], [422; 10]);
    assert_eq!(statuses[10], 429);
    let (status, _) = Browser::new(&app).retrieve(&qidu, "ada@example.com").await;
    assert_eq!(
        status, 429,
        "the reference rests, even for its owner, for a few minutes"
    );
    // Another reference is not held up by it.
    let (status, _) = Browser::new(&app)
        .retrieve("YYYY-YYYY-YYYY", "ada@example.com")
        .await;
    assert_eq!(status, 422);

    // The address's own budget is the operator's to set.
    let strict =
        crate::common::spawn_app_with(&[("PAWPATH_RETRIEVALS_PER_ADDRESS", "3".into())]).await;
    let mut statuses = Vec::new();
    for _ in 0..4 {
        statuses.push(
            Browser::new(&strict)
                .retrieve("ZZZZ-ZZZZ-ZZZZ", "x@example.com")
                .await
                .0,
        );
    }
    assert_eq!(statuses, [422, 422, 422, 429]);
}

#[tokio::test]
async fn an_expired_quote_becomes_a_new_quote_starting_today() {
    // journey.md §4 Policy start date, §8: "The quote reference you have provided has expired…".
    let (app, qidu) = saved_quote().await;
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(&app.database_url)
        .await
        .expect("connect");
    let old = (chrono::Utc::now() - chrono::Duration::days(40)).to_rfc3339();
    sqlx::query("update quotes set created_at = $1 where quote_ref = $2")
        .bind(old)
        .bind(&qidu)
        .execute(&pool)
        .await
        .expect("age the quote");
    let other = Browser::new(&app);
    let (status, body) = other.retrieve(&qidu, "ada@example.com").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["expired"], true);
    let view = other.view("/quote/choose-policy").await;
    assert_ne!(view["qidu"], json!(qidu), "a new quote");
    assert_eq!(
        view["pets"][0]["pet_name"], "Biscuit",
        "with the answers it had"
    );
    assert_eq!(
        view["start_date"]["chosen"], view["start_date"]["today"],
        "starting today"
    );
    assert!(
        view["products"].as_array().is_some_and(|p| !p.is_empty()),
        "priced afresh"
    );
    let (lifecycle,): (String,) =
        sqlx::query_as("select lifecycle from quotes where quote_ref = $1")
            .bind(&qidu)
            .fetch_one(&pool)
            .await
            .expect("old quote");
    pool.close().await;
    assert_eq!(lifecycle, "expired");

    // The old reference again, from a third browser: a new quote again, starting today.
    let third = Browser::new(&app);
    let (status, body) = third.retrieve(&qidu, "ada@example.com").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["expired"], true);
    let again = third.view("/quote/choose-policy").await;
    assert_ne!(again["qidu"], json!(qidu));
    assert_ne!(again["qidu"], view["qidu"]);
    assert_eq!(again["pets"][0]["pet_name"], "Biscuit");
    assert_eq!(again["start_date"]["chosen"], again["start_date"]["today"]);
}

#[tokio::test]
async fn test_mode_can_age_a_quote_and_refuses_a_bad_age_naming_it() {
    // journey.md §8 Quote expired, for QA's scripted flows: `quote_age_days` makes the quote that
    // many days old, so its retrieval meets the expiry rule.
    let app = common::spawn_app_with(&[("PAWPATH_TEST_MODE", "1".to_owned())]).await;
    let csrf = app.csrf().await;
    for bad in [json!(-1), json!("31"), json!(4000), json!(1.5)] {
        let (status, body) = app
            .post_json(
                "/api/test/patch",
                &json!({ "csrf": csrf, "quote_age_days": bad }),
            )
            .await;
        assert_eq!(status, 400, "{body}");
        assert!(
            body["message"]
                .as_str()
                .expect("message")
                .contains("quote_age_days")
        );
    }
    let (status, body) = app
        .post_json(
            "/api/test/patch",
            &json!({ "csrf": csrf, "quote_age_days": 31 }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(&app.database_url)
        .await
        .expect("connect");
    let (made,): (String,) = sqlx::query_as("select created_at from quotes")
        .fetch_one(&pool)
        .await
        .expect("quote");
    let made = chrono::DateTime::parse_from_rfc3339(&made).expect("time");
    let age = chrono::Utc::now().signed_duration_since(made);
    assert!((30..=31).contains(&age.num_days()), "{age}");
}

/// The retrieval-link emails in the outbox: how many, and the first's recipient and link.
async fn emailed_links(app: &TestApp) -> (usize, String, String) {
    let count = app
        .sql("select count(*) from outbox where kind = 'retrieve_link'")
        .await
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    let first = "from outbox where kind = 'retrieve_link' order by created_at limit 1";
    let recipient = app
        .sql(&format!("select recipient {first}"))
        .await
        .unwrap_or_default();
    let text = app
        .sql(&format!("select body_text {first}"))
        .await
        .unwrap_or_default();
    let link = text
        .split_whitespace()
        .find(|w| w.contains("/retrieve/continue/"))
        .unwrap_or_default()
        .to_owned();
    (count, recipient, link)
}

/// No lockouts (journey.md §8 Retrieve quote): guessing at a reference from many browsers spends
/// its tries, and then its owner still opens the quote by the one-time link emailed to the address
/// on it. The offer says the same for any reference; a live link is not sent again; the link
/// opens the quote once, in a new session.
#[tokio::test]
async fn guessing_at_a_reference_never_keeps_its_owner_out() {
    let (app, qidu) = saved_quote().await;
    for i in 0..12 {
        Browser::new(&app)
            .retrieve(&qidu, &format!("guess{i}@example.com"))
            .await;
    }
    let owner = Browser::new(&app);
    let (status, _) = owner.retrieve(&qidu, "ada@example.com").await;
    assert_eq!(status, 429, "the reference's tries are spent");

    // The same answer for our reference and for one that is not ours.
    let (status, ours) = owner.ask_for_link(&qidu).await;
    assert_eq!(status, 200, "{ours}");
    let (status, theirs) = Browser::new(&app).ask_for_link("QQQQ-QQQQ-QQQQ").await;
    assert_eq!(status, 200, "{theirs}");
    assert_eq!(ours, theirs);
    assert_eq!(
        ours["data"]["message"],
        "If that is one of our quote references, we've emailed a link to the address on the quote. It opens the quote once, in the next 30 minutes. Please check your inbox, including any junk or spam folder."
    );
    // One email, to the address on the quote; asking again while it is live sends no other.
    let (status, _) = Browser::new(&app).ask_for_link(&qidu).await;
    assert_eq!(status, 200);
    let (count, recipient, link) = emailed_links(&app).await;
    assert_eq!(count, 1);
    assert_eq!(recipient, "ada@example.com");
    let path = link
        .split_once("/retrieve/")
        .map(|(_, p)| format!("/retrieve/{p}"))
        .expect("path");

    // The owner's link opens the quote in a new session at its furthest step.
    let no_redirects = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("client");
    let opened = no_redirects
        .get(format!("{}{path}", app.base))
        .send()
        .await
        .expect("get");
    assert_eq!(opened.status(), 303);
    let to = opened.headers()["location"]
        .to_str()
        .expect("location")
        .to_owned();
    assert!(to.starts_with("/quote/"), "{to}");
    let cookie = opened.headers()["set-cookie"]
        .to_str()
        .expect("cookie")
        .to_owned();
    assert!(cookie.contains("HttpOnly"), "{cookie}");
    let session = cookie.split(';').next().expect("pair").to_owned();
    let view: Value = no_redirects
        .get(format!("{}/quote", app.base))
        .header("Accept", "application/json")
        .header("Cookie", &session)
        .send()
        .await
        .expect("view")
        .json()
        .await
        .expect("json");
    assert_eq!(view["data"]["qidu"], qidu.as_str());
    // The browser that had it finds nothing of it now.
    assert_ne!(app.view("/quote").await["qidu"], qidu.as_str());

    // Once only: the same link again goes to retrieve-quote, which says why.
    let again = no_redirects
        .get(format!("{}{path}", app.base))
        .send()
        .await
        .expect("get");
    assert_eq!(again.status(), 303);
    let to = again.headers()["location"].to_str().expect("location");
    assert!(
        to.contains("/retrieve-quote") && to.contains("link=invalid"),
        "{to}"
    );
    // A token that is not ours is not found.
    let (head, tail) = path.split_at(path.len() - 3);
    let forged = format!("{head}{}", if tail == "AAA" { "BBB" } else { "AAA" });
    let forged = no_redirects
        .get(format!("{}{forged}", app.base))
        .send()
        .await
        .expect("get");
    assert_eq!(forged.status(), 404);
}
