//! Quotes by email: the reminder the review page promises (journey.md §2 Review, "We'll
//! email you a reminder before your quote expires"; §3 Quote view data no_quote_chase_email) and
//! the quote emailed on request (owner-payment.md §7 /api/sendquoteemail), each through the
//! outbox to a real SMTP server on a local port, with a link back to retrieve-quote.

use crate::common;

use std::time::Duration;

use common::smtp::SmtpSink;
use common::{TestApp, spawn_app_with, valid_pet};
use mail_parser::MessageParser;
use serde_json::json;

async fn app_mailing_to(url: String, days: &str) -> TestApp {
    spawn_app_with(&[
        ("PAWPATH_SMTP_URL", url),
        ("PAWPATH_MAIL_RETRY_MS", "100".into()),
        ("PAWPATH_QUOTE_REMINDER_DAYS", days.into()),
        ("PAWPATH_REMINDER_INTERVAL_MS", "100".into()),
    ])
    .await
}

/// Makes the session's quote `days` old.
async fn age_quote(app: &TestApp, days: i64) -> String {
    let made = (chrono::Utc::now() - chrono::Duration::days(days))
        .to_rfc3339_opts(chrono::SecondsFormat::Micros, true);
    let reference = app.view("/quote/review").await["qidu"]
        .as_str()
        .expect("reference")
        .to_owned();
    app.sql(&format!(
        "update quotes set created_at = '{made}' where quote_ref = '{reference}'"
    ))
    .await;
    reference
}

async fn outcome(app: &TestApp, reference: &str) -> Option<String> {
    app.sql(&format!(
        "select r.outcome from quote_reminders r join quotes q on q.id = r.quote_id where q.quote_ref = '{reference}'"
    ))
    .await
}

fn text_of(raw: &[u8]) -> (String, String) {
    let message = MessageParser::default().parse(raw).expect("a MIME message");
    (
        message.subject().unwrap_or_default().to_owned(),
        message.body_text(0).expect("a text part").into_owned(),
    )
}

#[tokio::test]
async fn journey_2_review_a_quote_near_expiry_gets_one_reminder_with_a_way_back() {
    let sink = SmtpSink::start().await;
    let app = app_mailing_to(sink.url(), "7").await;
    app.reach_assumptions(json!([valid_pet()])).await;
    // Ten days old: not yet due (the reminder goes in the last 7 of 30).
    let reference = age_quote(&app, 10).await;
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert!(sink.messages().is_empty(), "not due yet");
    assert_eq!(outcome(&app, &reference).await, None);

    // 25 days old: due. One message, however many passes run.
    age_quote(&app, 25).await;
    let got = sink.wait_for(1, Duration::from_secs(10)).await;
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(sink.messages().len(), 1, "one reminder, once");
    assert_eq!(outcome(&app, &reference).await.as_deref(), Some("sent"));
    assert_eq!(got[0].to, vec!["<ada@example.com>".to_owned()]);
    let (subject, text) = text_of(&got[0].data);
    assert_eq!(
        subject,
        format!("Your Pawsure Pet Cover pet insurance quote {reference} expires soon")
    );
    assert!(
        text.contains(&format!("Quote reference: {reference}")),
        "{text}"
    );
    let price = app.view("/quote/review").await["pets"][0]["product"]["RecurringMonthly"]
        .as_str()
        .expect("price")
        .to_owned();
    assert!(text.contains(&format!("£{price}")), "{price} in {text}");
    // The way back: retrieve-quote with the reference filled in; the address is still asked.
    assert!(
        text.contains(&format!(
            "/quote/retrieve-quote?brand=pos&reference={reference}"
        )),
        "{text}"
    );
    assert!(text.contains("This is the only reminder we'll send about this quote."));
}

#[tokio::test]
async fn journey_3_a_customer_who_opted_out_or_never_reached_review_is_not_reminded() {
    let sink = SmtpSink::start().await;
    let app = app_mailing_to(sink.url(), "7").await;
    app.reach_assumptions(json!([valid_pet()])).await;
    let csrf = app.csrf().await;
    let (status, body) = app
        .post_json(
            "/api/noquotechaseemail",
            &json!({ "csrf": csrf, "noquotechaseemail": true }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let opted_out = age_quote(&app, 25).await;

    // A second customer who gave their details but never chose cover (no review page yet).
    let other = app.another_visitor().await;
    let (status, body) = other.save_pets(json!([valid_pet()])).await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = other.save_owner(common::valid_owner()).await;
    assert_eq!(status, 200, "{body}");
    let unfinished = other.view("/quote/choose-policy").await["qidu"]
        .as_str()
        .expect("ref")
        .to_owned();
    other
        .sql(&format!(
            "update quotes set created_at = '{}' where quote_ref = '{unfinished}'",
            (chrono::Utc::now() - chrono::Duration::days(25))
                .to_rfc3339_opts(chrono::SecondsFormat::Micros, true)
        ))
        .await;

    for _ in 0..50 {
        if outcome(&app, &opted_out).await.is_some() && outcome(&app, &unfinished).await.is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(
        outcome(&app, &opted_out).await.as_deref(),
        Some("opted_out")
    );
    assert_eq!(
        outcome(&app, &unfinished).await.as_deref(),
        Some("not_offered")
    );
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(sink.messages().is_empty(), "no email");
}

#[tokio::test]
async fn the_reminder_opt_out_is_offered_where_the_email_address_is_given() {
    // The soft opt-in needs the chance to refuse at collection (PECR regulation
    // 22(3)), so the your-details form asks it beside the email address; the review shows it.
    let sink = SmtpSink::start().await;
    let app = app_mailing_to(sink.url(), "7").await;
    let (status, body) = app.save_pets(json!([valid_pet()])).await;
    assert_eq!(status, 200, "{body}");
    let details = app.view("/quote/your-details").await;
    let form = common::with_form(&app.base, &details["questions"]).await;
    assert_eq!(
        form["schema"]["properties"]["owner"]["properties"]["no_quote_chase_email"]["type"],
        "boolean",
        "the your-details form asks it"
    );
    let mut owner = common::valid_owner();
    owner["no_quote_chase_email"] = json!(true);
    let (status, body) = app.save_owner(owner).await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = app
        .save_cover(json!([{ "product": { "Code": "LT04000" } }]))
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body["data"]["owner"]["no_quote_chase_email"], true,
        "{body}"
    );
    let reference = age_quote(&app, 25).await;
    for _ in 0..50 {
        if outcome(&app, &reference).await.is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(
        outcome(&app, &reference).await.as_deref(),
        Some("opted_out")
    );
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(sink.messages().is_empty(), "no email");
}

#[tokio::test]
async fn owner_payment_7_sendquoteemail_emails_the_quote_at_most_three_times() {
    let sink = SmtpSink::start().await;
    let app = app_mailing_to(sink.url(), "0").await;
    // Before an email address is given: a field error naming it, nothing sent.
    let (status, body) = app.save_pets(json!([valid_pet()])).await;
    assert_eq!(status, 200, "{body}");
    let csrf = app.csrf().await;
    let (status, body) = app
        .post_json("/api/sendquoteemail", &json!({ "csrf": csrf }))
        .await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(body["errors"][0]["field"], "owner.email_address", "{body}");
    // Without its CSRF token: refused.
    let (status, _) = app.post_json("/api/sendquoteemail", &json!({})).await;
    assert_eq!(status, 403);

    app.reach_assumptions(json!([valid_pet()])).await;
    let reference = app.view("/quote/review").await["qidu"]
        .as_str()
        .expect("ref")
        .to_owned();
    for _ in 0..3 {
        let csrf = app.csrf().await;
        let (status, body) = app
            .post_json("/api/sendquoteemail", &json!({ "csrf": csrf }))
            .await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(
            body["data"],
            json!({ "sent": true, "email": "ada@example.com" })
        );
    }
    let csrf = app.csrf().await;
    let (status, body) = app
        .post_json("/api/sendquoteemail", &json!({ "csrf": csrf }))
        .await;
    assert_eq!(status, 429, "{body}");
    assert_eq!(
        body["message"],
        "We've already emailed this quote several times. Please check your inbox, including any junk or spam folder."
    );
    let got = sink.wait_for(3, Duration::from_secs(10)).await;
    assert_eq!(got.len(), 3);
    let (subject, text) = text_of(&got[0].data);
    assert_eq!(
        subject,
        format!("Your Pawsure Pet Cover pet insurance quote {reference}")
    );
    assert!(text.contains("Here is your Pawsure Pet Cover pet insurance quote, as you asked."));
    assert!(text.contains(&format!("reference={reference}")), "{text}");
}

#[tokio::test]
async fn nobody_can_use_quotes_to_mail_one_address_over_and_over() {
    // A quote's email address is whatever its visitor typed: however many quotes name it, one
    // address is sent at most 5 quote emails in 15 minutes.
    let sink = SmtpSink::start().await;
    let first = app_mailing_to(sink.url(), "0").await;
    let second = first.another_visitor().await;
    for app in [&first, &second] {
        app.reach_assumptions(json!([valid_pet()])).await;
    }
    for _ in 0..3 {
        assert_eq!(send(&first).await.0, 200);
    }
    for _ in 0..2 {
        assert_eq!(send(&second).await.0, 200);
    }
    let (status, body) = send(&second).await;
    assert_eq!(status, 429, "{body}");
    assert_eq!(body["error"], "rate_limited");
    let got = sink.wait_for(5, Duration::from_secs(10)).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(got.len(), 5);
    assert_eq!(sink.messages().len(), 5, "the sixth was never written");
}

async fn send(app: &TestApp) -> (u16, serde_json::Value) {
    let csrf = app.csrf().await;
    app.post_json("/api/sendquoteemail", &json!({ "csrf": csrf }))
        .await
}

#[tokio::test]
async fn one_reminder_a_day_to_one_address_however_many_quotes_name_it() {
    let sink = SmtpSink::start().await;
    let first = app_mailing_to(sink.url(), "7").await;
    let second = first.another_visitor().await;
    let mut references = Vec::new();
    for app in [&first, &second] {
        app.reach_assumptions(json!([valid_pet()])).await;
        references.push(age_quote(app, 25).await);
    }
    let mut outcomes = Vec::new();
    for _ in 0..50 {
        outcomes.clear();
        for r in &references {
            outcomes.extend(outcome(&first, r).await);
        }
        if outcomes.len() == 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    outcomes.sort();
    assert_eq!(outcomes, ["recipient_reminded", "sent"]);
    sink.wait_for(1, Duration::from_secs(10)).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(sink.messages().len(), 1);
}
