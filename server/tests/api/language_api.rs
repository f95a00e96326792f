//! Languages and currencies: journey.md §1 ("one brand has a second language (French,
//! with EUR). A language chooser shows only when a brand has more than one language"),
//! owner-payment.md §1 and §9 Currency (£ (GBP); EUR in the French variant; prices to 2 decimals
//! unless whole). rcfr speaks French first and English second, and prices in euros.

use crate::common;

use std::time::Duration;

use common::smtp::SmtpSink;
use common::*;
use mail_parser::MessageParser;
use serde_json::{Value, json};

/// "4 000 €" as French writes it: a narrow no-break space between thousands, a no-break space
/// before the symbol (engine/tests/fixtures/money.json).
const FRENCH_4000: &str = "4\u{202f}000\u{a0}€";

async fn rcfr_at_cover(app: &TestApp) -> Value {
    let first = app.view("/quote?brand=rcfr").await;
    assert_eq!(first["brand"], "rcfr");
    let (status, body) = app.save_pets(json!([valid_pet()])).await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = app.save_owner(valid_owner()).await;
    assert_eq!(status, 200, "{body}");
    body["data"].clone()
}

/// A product as pages use it, with its vet fee limit as the page writes it (`LimitDesc`, from
/// the vet fees benefit row).
fn product(view: &Value, code: &str) -> Value {
    let mut p = resolved(view)["products"]
        .as_array()
        .and_then(|ps| ps.iter().find(|p| p["Code"] == code).cloned())
        .unwrap_or_else(|| panic!("{code} is offered"));
    p["LimitDesc"] = p["PolicyTerms"]
        .as_array()
        .and_then(|ts| ts.iter().find(|t| t["desc"] == "benefit.vet_fees"))
        .map(|t| t["val"].clone())
        .expect("the vet fees row");
    p
}

#[tokio::test]
async fn rcfr_speaks_french_first_and_prices_in_euros() {
    let app = spawn_app().await;
    let view = app.view("/quote?brand=rcfr").await;
    assert_eq!(view["language"], "fr-FR", "the brand's first language");
    assert_eq!(view["shell"]["languages"], json!(["fr-FR", "en-GB"]));
    assert_eq!(view["shell"]["currency"], "EUR");
    // The brand's own words over the French catalogue: it insures dogs and cats only.
    let copy = app.copy_of(&view).await;
    assert_eq!(
        copy["pet.type.label"],
        "Votre animal est-il un chien ou un chat\u{a0}?"
    );
    assert_eq!(copy["step.pet_details"], "Vos animaux");

    let view = rcfr_at_cover(&app).await;
    let lt = product(&view, "LT04000");
    assert_eq!(lt["LimitDesc"], FRENCH_4000);
    let vet_fees = lt["PolicyTerms"]
        .as_array()
        .and_then(|ts| ts.first())
        .expect("a benefit");
    assert!(
        vet_fees["val"]
            .as_str()
            .is_some_and(|v| v.ends_with("\u{a0}€")),
        "{vet_fees}"
    );
    // The product documents the cover page links to are in French too, in euros.
    let name = "policy-wording-dog-cat-2026-12";
    let r = app
        .client
        .get(format!("{}/quote/documents/{name}", app.base))
        .send()
        .await
        .expect("get");
    assert_eq!(r.status(), 200);
    assert_eq!(
        r.headers()["cache-control"],
        "private, max-age=300",
        "in the reader's language: never from a shared cache"
    );
    let html = r.text().await.expect("text").replace("&#x27;", "'");
    assert!(html.contains("<html lang=\"fr-FR\">"), "{html}");
    assert!(html.contains("Qu'est-ce qui est assuré"), "{html}");
    assert!(html.contains("2\u{202f}000\u{202f}000\u{a0}€"), "{html}");
    assert!(
        !html.contains('£') && !html.contains("What is insured"),
        "{html}"
    );
    // A GBP brand is untouched.
    let other = spawn_app().await;
    other.view("/quote?brand=pos").await;
    other.save_pets(json!([valid_pet()])).await;
    let (_, body) = other.save_owner(valid_owner()).await;
    assert_eq!(product(&body["data"], "LT04000")["LimitDesc"], "£4,000");
}

#[tokio::test]
async fn the_language_chooser_changes_the_words_and_how_amounts_are_written() {
    let app = spawn_app().await;
    let before = rcfr_at_cover(&app).await;
    let csrf = app.csrf().await;
    let (status, body) = app
        .post_json(
            "/api/language",
            &json!({ "csrf": csrf, "language": "en-GB" }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let view = &body["data"];
    assert_eq!(view["language"], "en-GB");
    assert_eq!(
        app.copy_of(view).await["pet.type.label"],
        "Is your pet a dog or cat?"
    );
    // Same euros, written the English way; the price itself is unchanged.
    let lt = product(view, "LT04000");
    assert_eq!(lt["LimitDesc"], "€4,000");
    assert_eq!(
        lt["RecurringMonthly"],
        product(&before, "LT04000")["RecurringMonthly"]
    );
    // The customer stays where they were, and the next page load speaks English.
    assert_eq!(view["step"]["id"], before["step"]["id"]);
    assert_eq!(app.view("/quote").await["language"], "en-GB");

    // A language the brand does not speak is a field error, in the quote's language, and
    // changes nothing.
    let csrf = app.csrf().await;
    let (status, body) = app
        .post_json(
            "/api/language",
            &json!({ "csrf": csrf, "language": "de-DE" }),
        )
        .await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(
        body["errors"],
        json!([{ "field": "language", "message": "Please choose one of the languages offered." }])
    );
    assert_eq!(app.view("/quote").await["language"], "en-GB");
    // Not a string: a bad request naming the field.
    let (status, body) = app
        .post_json("/api/language", &json!({ "csrf": csrf, "language": 7 }))
        .await;
    assert_eq!(status, 400, "{body}");
    assert!(body.to_string().contains("language"), "{body}");
    // No CSRF token, no change.
    let (status, _) = app
        .post_json("/api/language", &json!({ "language": "fr-FR" }))
        .await;
    assert_eq!(status, 403);
    // Back to French.
    let (status, body) = app
        .post_json(
            "/api/language",
            &json!({ "csrf": csrf, "language": "fr-FR" }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(product(&body["data"], "LT04000")["LimitDesc"], FRENCH_4000);
}

#[tokio::test]
async fn an_english_only_brand_refuses_french() {
    let app = spawn_app().await;
    let view = app.view("/quote?brand=pos").await;
    assert_eq!(view["shell"]["languages"], json!(["en-GB"]));
    let csrf = app.csrf().await;
    let (status, body) = app
        .post_json(
            "/api/language",
            &json!({ "csrf": csrf, "language": "fr-FR" }),
        )
        .await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(body["errors"][0]["field"], "language");
    assert_eq!(app.view("/quote").await["language"], "en-GB");
}

/// owner-payment.md §4 Confirmation: the confirmation email in the quote's language, amounts
/// in its currency.
#[tokio::test]
async fn a_french_purchase_is_confirmed_in_french_with_euro_amounts() {
    let sink = SmtpSink::start().await;
    let app = spawn_app_with(&[
        ("PAWPATH_SMTP_URL", sink.url()),
        ("PAWPATH_MAIL_RETRY_MS", "100".into()),
        ("PAWPATH_MAIL_FROM", "policies@pawpath.invalid".into()),
    ])
    .await;
    app.view("/quote?brand=rcfr").await;
    app.reach_payment(json!([valid_pet()])).await;
    let csrf = app.csrf().await;
    let payment = json!({
        "payment_method": "DD", "payment_frequency": "MP", "account_name": "Camille Martin",
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
            &json!({ "csrf": csrf, "idempotency_key": "attempt-french-1" }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let csrf = app.csrf().await;
    let (status, body) = app
        .post_json(
            "/api/confirmationEmail",
            &json!({ "csrf": csrf, "send_confirmation_email": 1 }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let got = sink.wait_for(1, Duration::from_secs(10)).await;
    let message = MessageParser::default()
        .parse(&got[0].data)
        .expect("a MIME message");
    assert_eq!(
        message.subject(),
        Some("Bienvenue chez Refuge Compagnons\u{a0}: votre assurance animaux est confirmée")
    );
    let text = message.body_text(0).expect("text").into_owned();
    let html = message.body_html(0).expect("html").into_owned();
    assert!(text.starts_with("Bonjour "), "{text}");
    assert!(html.contains("<html lang=\"fr-FR\">"), "{html}");
    assert!(
        text.contains(FRENCH_4000),
        "the cover's limit in euros: {text}"
    );
    assert!(text.contains("\u{a0}€"), "{text}");
    assert!(!text.contains('£'), "no pounds anywhere: {text}");
}
