//! The confirmation email (owner-payment.md §4 Confirmation: "a confirmation email is
//! requested with send_confirmation_email=1 (no spinner)", §7 Confirmation and Confirmation
//! email): written to the outbox in the purchase's transaction and delivered over SMTP by the
//! background worker, retrying while the mail server is down. These tests run a real SMTP server
//! on a local port and parse the message that arrives.

use crate::common;

use std::time::Duration;

use common::smtp::{SmtpSink, free_port};
use common::{TestApp, spawn_app_with, valid_pet};
use mail_parser::MessageParser;
use serde_json::{Value, json};

const ACCOUNT_NUMBER: &str = "66374958";

async fn app_mailing_to(url: String) -> TestApp {
    spawn_app_with(&[
        ("PAWPATH_SMTP_URL", url),
        ("PAWPATH_MAIL_RETRY_MS", "100".into()),
        ("PAWPATH_MAIL_FROM", "policies@pawpath.invalid".into()),
    ])
    .await
}

async fn buy(app: &TestApp, pets: Value) -> Value {
    app.reach_payment(pets).await;
    buy_at_payment(app).await
}

async fn buy_at_payment(app: &TestApp) -> Value {
    let csrf = app.csrf().await;
    let payment = json!({
        "payment_method": "DD", "payment_frequency": "MP", "account_name": "Ada O'Neill",
        "sort_code": "08-99-99", "account_number": ACCOUNT_NUMBER, "payment_day": 15, "dd_confirmation": true
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
            &json!({ "csrf": csrf, "idempotency_key": "attempt-email-1" }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    body["data"].clone()
}

async fn ask_for_email(app: &TestApp) -> (u16, Value) {
    let csrf = app.csrf().await;
    app.post_json(
        "/api/confirmationEmail",
        &json!({ "csrf": csrf, "send_confirmation_email": 1 }),
    )
    .await
}

#[tokio::test]
async fn a_purchase_sends_one_confirmation_email_with_the_policies_and_the_direct_debit() {
    let sink = SmtpSink::start().await;
    let app = app_mailing_to(sink.url()).await;
    let mut second = valid_pet();
    second["pet_name"] = json!("Pepper");
    let data = buy(&app, json!([valid_pet(), second])).await;
    // The page asks, a reload asks again: one message all the same.
    for _ in 0..2 {
        let (status, body) = ask_for_email(&app).await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["data"]["confirmation_email"]["requested"], true);
    }
    let got = sink.wait_for(1, Duration::from_secs(10)).await;
    assert_eq!(got.len(), 1, "one message arrives");
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(sink.messages().len(), 1, "and only one");

    let raw = &got[0];
    assert_eq!(raw.to, vec!["<ada@example.com>".to_owned()]);
    let message = MessageParser::default()
        .parse(&raw.data)
        .expect("a MIME message");
    let from = message.from().and_then(|a| a.first()).expect("from");
    assert_eq!(from.address(), Some("policies@pawpath.invalid"));
    assert_eq!(
        from.name(),
        Some("Pawsure Pet Cover"),
        "the brand's name (journeys/brands/pos.json)"
    );
    assert_eq!(
        message.subject(),
        Some("Welcome to Pawsure Pet Cover: your pet insurance is confirmed")
    );
    assert!(
        message
            .message_id()
            .is_some_and(|id| id.ends_with("@pawpath.invalid"))
    );
    let text = message.body_text(0).expect("a text part").into_owned();
    let html = message.body_html(0).expect("an HTML part").into_owned();
    let policies = data["purchase"]["policies"].as_array().expect("policies");
    assert_eq!(policies.len(), 2);
    for policy in policies {
        let number = policy["policy_number"].as_str().expect("number");
        assert!(text.contains(number), "{number} in\n{text}");
        assert!(html.contains(number), "{number} in the HTML");
        let name = policy["pet_name"].as_str().expect("name");
        assert!(text.contains(name));
    }
    // The demands-and-needs statement (ICOBS 5.2.2) and the trading disclosures,
    // in both parts.
    for part in [&text, &html] {
        assert!(part.contains("This insurance meets the demands and needs of people who want to insure their pet against the cost of vet treatment for injury and illness."), "{part}");
        assert!(part.contains("Pawsure Pet Cover is a trading name of Pawpath Insurance Services Limited, registered in England and Wales (company number PP000417)"), "{part}");
        assert!(part.contains("(firm reference number 9990417)"), "{part}");
    }
    assert!(text.starts_with("Hello "), "{text}");
    assert!(text.contains("Your pets are covered from "), "{text}");
    // The Direct Debit: masked account, never the whole number; sort code; reference; the
    // Guarantee with the brand as originator; the first collection.
    let masked = data["purchase"]["account_number_masked"]
        .as_str()
        .expect("masked");
    assert!(text.contains(masked), "{text}");
    assert!(!text.contains(ACCOUNT_NUMBER) && !html.contains(ACCOUNT_NUMBER));
    assert!(text.contains("Sort code: 08-99-99"), "{text}");
    let reference = data["purchase"]["mandate_reference"].as_str().expect("ref");
    assert!(text.contains(reference));
    assert!(text.contains("If there are any changes to the amount, date or frequency of your Direct Debit Pawsure Pet Cover will notify you 10 working days in advance"));
    let (first_date, first_amount) = {
        let c = &data["purchase"]["collections"][0];
        let date = chrono::NaiveDate::parse_from_str(c[0].as_str().expect("date"), "%Y-%m-%d")
            .expect("date");
        (
            date.format("%d/%m/%Y").to_string(),
            c[1].as_str().expect("amount").to_owned(),
        )
    };
    assert!(text.contains(&first_date), "{first_date} in {text}");
    assert!(
        text.contains(&format!("£{first_amount}")) || text.contains(&first_amount),
        "{first_amount}"
    );
    // The advance notice: the notice period the brand has agreed (pos: 10).
    for part in [&text, &html] {
        assert!(part.contains("This is your advance notice of the Direct Debit collections above. If the amount, date or frequency changes, we'll tell you at least 10 working days before your account is debited.") || part.contains("we&#x27;ll tell you at least 10 working days"), "{part}");
    }
    // The policy documents, as links to this server.
    assert!(text.contains("/quote/documents/"), "{text}");
    // The HTML is escaped: the apostrophe of the account name arrives as an entity.
    assert!(
        html.contains("Ada O&#x27;Neill") || html.contains("Ada O&#39;Neill"),
        "{html}"
    );
    assert!(html.starts_with("<!DOCTYPE html>"), "{html}");

    let (_, body) = ask_for_email(&app).await;
    assert_eq!(body["data"]["confirmation_email"]["sent"], true);
    assert_eq!(body["data"]["confirmation_email"]["attempts"], 1);
}

#[tokio::test]
async fn with_the_mail_server_down_the_email_waits_and_arrives_once_it_is_back() {
    let port = free_port().await;
    let app = app_mailing_to(format!("smtp://127.0.0.1:{port}")).await;
    buy(&app, json!([valid_pet()])).await;
    let (status, body) = ask_for_email(&app).await;
    assert_eq!(status, 200, "{body}");
    // The worker tries, fails (nothing listens) and backs off.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let (_, body) = ask_for_email(&app).await;
        let status = &body["data"]["confirmation_email"];
        assert_eq!(status["sent"], false);
        if status["attempts"].as_i64().unwrap_or(0) >= 2 {
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the worker kept trying: {body}"
        );
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    // The server comes back on the same port.
    let sink = SmtpSink::start_on(port).await;
    let got = sink.wait_for(1, Duration::from_secs(15)).await;
    assert_eq!(got.len(), 1, "the email arrives once the server is back");
    tokio::time::sleep(Duration::from_millis(800)).await;
    assert_eq!(sink.messages().len(), 1, "exactly once");
    let (_, body) = ask_for_email(&app).await;
    assert_eq!(body["data"]["confirmation_email"]["sent"], true);
    assert_eq!(body["data"]["confirmation_email"]["failed"], false);
}

#[tokio::test]
async fn an_address_the_mail_server_refuses_for_good_is_not_tried_again() {
    let sink = SmtpSink::start_refusing().await;
    let app = app_mailing_to(sink.url()).await;
    buy(&app, json!([valid_pet()])).await;
    ask_for_email(&app).await;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while sink.refusals() == 0 {
        assert!(tokio::time::Instant::now() < deadline, "the worker tried");
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    // Several retry delays later: no second attempt, and the email is marked failed.
    tokio::time::sleep(Duration::from_millis(800)).await;
    assert_eq!(sink.refusals(), 1);
    let (_, body) = ask_for_email(&app).await;
    assert_eq!(
        body["data"]["confirmation_email"],
        json!({ "requested": true, "attempts": 1, "sent": false, "failed": true })
    );
}

#[tokio::test]
async fn without_a_mail_server_the_purchase_stands_and_its_email_waits_in_the_outbox() {
    let app = spawn_app_with(&[]).await;
    let data = buy(&app, json!([valid_pet()])).await;
    assert!(data["purchase"]["policies"][0]["policy_number"].is_string());
    let (status, body) = ask_for_email(&app).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body["data"]["confirmation_email"],
        json!({ "requested": true, "attempts": 0, "sent": false, "failed": false })
    );
}

#[tokio::test]
async fn the_confirmation_email_call_needs_its_flag_its_token_and_a_bought_quote() {
    let sink = SmtpSink::start().await;
    let app = app_mailing_to(sink.url()).await;
    app.reach_payment(json!([valid_pet()])).await;
    // Not bought yet: the call does not apply to the quote as it stands (409, not a
    // malformed body's 400).
    let (status, body) = ask_for_email(&app).await;
    assert_eq!(status, 409, "{body}");
    assert_eq!(body["error"], "not_applicable");
    assert!(
        body["message"]
            .as_str()
            .expect("message")
            .contains("not been bought")
    );
    let (status, _) = app
        .post_json(
            "/api/confirmationEmail",
            &json!({ "send_confirmation_email": 1 }),
        )
        .await;
    assert_eq!(status, 403, "no CSRF token");
    let csrf = app.csrf().await;
    for bad in [json!(0), json!("yes"), Value::Null] {
        let (status, body) = app
            .post_json(
                "/api/confirmationEmail",
                &json!({ "csrf": csrf, "send_confirmation_email": bad }),
            )
            .await;
        assert_eq!(status, 400, "{body}");
        assert!(
            body["message"]
                .as_str()
                .expect("message")
                .contains("send_confirmation_email")
        );
    }
    let (status, body) = app
        .post_json(
            "/api/confirmationEmail",
            &json!({ "csrf": csrf, "send_confirmation_email": 1, "cc": "someone@example.com" }),
        )
        .await;
    assert_eq!(status, 400, "an unknown field: {body}");
    assert!(sink.messages().is_empty());
}

#[tokio::test]
async fn get_api_confirmation_reads_the_bought_quote_and_its_token() {
    let app = spawn_app_with(&[]).await;
    app.reach_payment(json!([valid_pet()])).await;
    let r = app
        .client
        .get(format!("{}/api/confirmation", app.base))
        .send()
        .await
        .expect("get");
    assert_eq!(r.status(), 404, "nothing bought yet");
    let data = buy_at_payment(&app).await;
    let r = app
        .client
        .get(format!("{}/api/confirmation", app.base))
        .send()
        .await
        .expect("get");
    assert_eq!(r.status(), 200);
    let body: Value = r.json().await.expect("json");
    assert!(body["data"]["csrf"].is_string());
    assert_eq!(
        body["data"]["purchase"]["policies"],
        data["purchase"]["policies"]
    );
}

#[tokio::test]
async fn journey_4_a_dog_without_third_party_liability_is_priced_and_told_so_in_its_email() {
    // journey.md §4 Assumptions warnings: dog_behaviour yes, "not for Third Party Liability.
    // We'll adjust your premium to show this": the price at payment is adjusted, and the
    // confirmation email says the cover has no third party liability.
    let sink = SmtpSink::start().await;
    let app = app_mailing_to(sink.url()).await;
    app.reach_assumptions(json!([valid_pet()])).await;
    let monthly = |view: &Value| -> rust_decimal::Decimal {
        view["pets"][0]["product"]["RecurringMonthly"]
            .as_str()
            .expect("monthly")
            .parse()
            .expect("decimal")
    };
    let before = monthly(&app.view("/quote/assumptions").await);
    let mut answers = common::dog_answers();
    answers["dog_behaviour"] = json!("yes");
    let csrf = app.csrf().await;
    let (status, body) = app
        .post_json(
            "/api/saveDeclaration",
            &json!({ "csrf": csrf, "pets": [answers] }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["step"]["id"], "payment");
    let after = monthly(&app.view("/quote/payment").await);
    assert!(after < before, "{after} < {before}");
    buy_at_payment(&app).await;
    ask_for_email(&app).await;
    let got = sink.wait_for(1, Duration::from_secs(10)).await;
    let message = MessageParser::default()
        .parse(&got[0].data)
        .expect("a MIME message");
    let text = message.body_text(0).expect("a text part").into_owned();
    assert!(
        text.contains("Biscuit's cover does not include third party liability, because you told us Biscuit has attacked or injured a person or another animal"),
        "{text}"
    );
    assert!(text.contains(&format!("£{after}")), "{after} in {text}");
}

#[tokio::test]
async fn a_nectar_promotion_s_points_are_totalled_on_the_confirmation_and_in_its_email() {
    // owner-payment.md §4 Nectar card, §9 "Nectar bonus cap: 20,000 points": NECTAR10X earns 10
    // points a whole pound of the first year's premiums, for all the pets together (the cap
    // itself is the engine's test, the_nectar_bonus_is_totalled_over_the_purchase_and_capped).
    let sink = SmtpSink::start().await;
    let app = app_mailing_to(sink.url()).await;
    let mut second = valid_pet();
    second["pet_name"] = json!("Pepper");
    app.reach_assumptions(json!([valid_pet(), second])).await;
    let (status, body) = app
        .edit(
            "/api/ownerdetail",
            "promo_code",
            json!({ "owner": { "promotional_code": "NECTAR10X", "nectarCardNumber": "12345678909" } }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    app.declare_dogs(2).await;
    let data = buy_at_payment(&app).await;
    let yearly: rust_decimal::Decimal = data["purchase"]["policies"]
        .as_array()
        .expect("policies")
        .iter()
        .map(|p| {
            p["annual_premium"]
                .as_str()
                .expect("premium")
                .parse::<rust_decimal::Decimal>()
                .expect("decimal")
        })
        .sum();
    let points = (yearly.trunc() * rust_decimal::Decimal::from(10)).to_string();
    let bonus = &app.view("/quote/confirmation").await["nectar_bonus"];
    assert_eq!(bonus["points"].to_string(), points, "{bonus}");
    assert_eq!(bonus["capped"], false);
    assert_eq!(bonus["card_last4"], "8909");

    ask_for_email(&app).await;
    let got = sink.wait_for(1, Duration::from_secs(10)).await;
    let message = MessageParser::default()
        .parse(&got[0].data)
        .expect("a MIME message");
    let text = message.body_text(0).expect("a text part").into_owned();
    let written = points
        .as_bytes()
        .rchunks(3)
        .rev()
        .map(|c| std::str::from_utf8(c).expect("digits"))
        .collect::<Vec<_>>()
        .join(",");
    assert!(
        text.contains(&format!("{written} bonus Nectar points will be added to your Nectar card ending 8909 within 28 days.")),
        "{text}"
    );
    assert!(!text.contains("capped"), "{text}");
}

/// The Direct Debit Guarantee's advance notice (owner-payment.md §9 "Collection within
/// 14 days: first collection skipped; two payments next month" and "changes notified 10 working
/// days ahead"): set up on 20 November 2026 with the 28th as the collection day, the 28 November
/// collection is under 14 days away, so the first is two payments on 28 December, a bank holiday
/// (Boxing Day's substitute), taken on 29 December 2026; the email says so, with the brand's
/// notice period.
#[test]
fn the_29_december_2026_collection_of_two_payments_reads_right() {
    use engine::rules::collections::{Frequency, schedule};
    let day = |m, d| chrono::NaiveDate::from_ymd_opt(2026, m, d).expect("a date");
    let holidays = pawpath::holidays::load().expect("bank holidays");
    let monthly: rust_decimal::Decimal = "30.25".parse().expect("amount");
    let plan = schedule(
        day(11, 20),
        day(11, 20),
        28,
        Frequency::Monthly,
        monthly,
        &holidays,
    );
    assert_eq!(plan[0].date, day(12, 29));
    assert_eq!(
        (plan[0].payments, plan[0].amount.to_string()),
        (2, "60.50".to_owned())
    );
    assert_eq!(plan[1].date.to_string(), "2027-01-28");
    let (defs, templates) = pawpath::load_definitions(&common::repo_root()).expect("definitions");
    for (brand, notice) in [("pos", 10), ("ptp", 10)] {
        let money = defs.voice(brand, "en-GB").money();
        let mut message = pawpath::mail::ConfirmationEmail::sample(brand, "en-GB");
        message.collections = pawpath::service::purchase::collection_lines(&plan, &money);
        message.notice_days = defs
            .brand(brand)
            .expect("the brand")
            .direct_debit_notice_days;
        assert_eq!(message.notice_days, notice, "{brand}");
        let email = templates.confirmation(&message).expect("renders");
        assert!(email.text.contains(
            "  - £60.50 on or shortly after 29/12/2026 (two monthly payments, as your first payment date was less than 14 days away)\n  - £30.25 on or shortly after 28/01/2027\n  - £30.25 on or shortly after 01/03/2027"
        ), "{}", email.text);
        assert!(
            email.text.contains(&format!(
                "we'll tell you at least {notice} working days before your account is debited"
            )),
            "{}",
            email.text
        );
        let html = email.html.replace("&#x2f;", "/").replace("&#x27;", "'");
        assert!(
            html.contains("£60.50 on or shortly after 29/12/2026 (two monthly payments"),
            "{html}"
        );
        assert!(
            html.contains(&format!("we'll tell you at least {notice} working days")),
            "{html}"
        );
    }
}
