//! Data kept only as long as the law allows: the purge of quotes never bought, and a
//! data subject's export and erasure.

use crate::common;

use common::{TestApp, spawn_app, valid_owner, valid_pet};
use serde_json::{Value, json};

use super::operations_api::*;

/// A quote priced and with its cover chosen (for `email`), not bought.
async fn unbought(app: &TestApp, email: &str) {
    let mut owner = valid_owner();
    owner["email_address"] = json!(email);
    let (s, b) = app.save_pets(json!([valid_pet()])).await;
    assert_eq!(s, 200, "{b}");
    let (s, b) = app.save_owner(owner).await;
    assert_eq!(s, 200, "{b}");
    let (s, b) = app
        .save_cover(json!([{ "product": { "Code": "LT04000" } }]))
        .await;
    assert_eq!(s, 200, "{b}");
}

/// The quote's reference, by the email address given in it.
async fn reference_of(app: &TestApp, email: &str) -> String {
    app.sql(&format!(
        "select quote_ref from quotes where document like '%{email}%'"
    ))
    .await
    .expect("a quote")
}

/// A quote never bought is purged after the retention period, with its secrets and
/// emails; its transitions stay for the funnel without their pricing working; a bought quote is
/// kept whole. `pawpath purge --dry-run` lists and changes nothing.
#[tokio::test]
async fn the_purge_removes_quotes_never_bought_and_keeps_bought_ones() {
    let old = spawn_app().await;
    unbought(&old, "old@example.com").await;
    // Secrets of the unbought quote (as the rehoming certificate and bank details are kept).
    let old_id = old.sql("select id from quotes").await.expect("quote");
    old.sql(&format!(
        "insert into quote_secrets (quote_id, field, ciphertext, updated_at)
         values ('{old_id}', '/payment/account_number', 'v1:sealed', '2026-01-01T00:00:00Z')"
    ))
    .await;
    queue_emails(&old, &old_id, 1).await;
    let bought = old.another_visitor().await;
    bought.buy_direct().await;
    let fresh = old.another_visitor().await;
    fresh.save_pets(json!([valid_pet()])).await;
    let transitions = old
        .sql(&format!(
            "select count(*) from step_transitions where quote_id = '{old_id}'"
        ))
        .await;
    // The old and the bought quote were made and last changed long ago (a quote is never
    // changed before it is made: the purge finds candidates by when they were made).
    old.sql("update quotes set created_at = '2020-01-01T00:00:00.000000Z', updated_at = '2020-01-01T00:00:00.000000Z' where id <> (select max(id) from quotes)")
        .await;
    // Made as long ago, but changed since: kept.
    let touched = old.another_visitor().await;
    touched.save_pets(json!([valid_pet()])).await;
    old.sql("update quotes set created_at = '2020-01-01T00:00:00.000000Z' where id = (select max(id) from quotes)")
        .await;
    let old_ref = old
        .sql(&format!(
            "select quote_ref from quotes where id = '{old_id}'"
        ))
        .await
        .expect("ref");

    let (ok, out, err) = pawpath(&old, &["purge", "--dry-run"]);
    assert!(ok, "{err}");
    assert!(out.starts_with("would purge 1 quote never bought"), "{out}");
    assert!(out.contains(&old_ref), "{out}");
    assert_eq!(
        old.sql(&format!(
            "select count(*) from quote_secrets where quote_id = '{old_id}'"
        ))
        .await
        .as_deref(),
        Some("1"),
        "a dry run changes nothing"
    );

    let (ok, out, err) = pawpath(&old, &["purge"]);
    assert!(ok, "{err}");
    assert!(out.starts_with("purged 1 quote never bought"), "{out}");
    assert_eq!(
        old.sql(&format!(
            "select document from quotes where id = '{old_id}'"
        ))
        .await
        .as_deref(),
        Some("{}")
    );
    for table in ["quote_secrets", "outbox"] {
        assert_eq!(
            old.sql(&format!(
                "select count(*) from {table} where quote_id = '{old_id}'"
            ))
            .await
            .as_deref(),
            Some("0"),
            "{table}"
        );
    }
    assert!(
        old.sql(&format!(
            "select count(*) from quotes where quote_ref = '{old_ref}'"
        ))
        .await
        .as_deref()
            == Some("0")
    );
    // The funnel's counts survive: the transitions stay, without the pricing working.
    assert_eq!(
        old.sql(&format!(
            "select count(*) from step_transitions where quote_id = '{old_id}'"
        ))
        .await,
        transitions
    );
    assert_eq!(
        old.sql(&format!(
            "select count(*) from step_transitions where quote_id = '{old_id}' and pricing is not null"
        ))
        .await
        .as_deref(),
        Some("0")
    );
    // The customer's browser finds nothing of it: a new, empty quote.
    assert_eq!(old.stored_pets().await, json!([]));
    // The bought quote and the recent one are whole.
    assert_eq!(
        old.sql("select count(*) from quotes where purged_at is null and document <> '{}'")
            .await
            .as_deref(),
        Some("4"),
        "the bought, the recent, the one changed since and the browser's new quote"
    );
    assert_eq!(
        old.sql("select count(*) from policies").await.as_deref(),
        Some("1")
    );
    // Run again: nothing left to purge.
    let (ok, out, _) = pawpath(&old, &["purge"]);
    assert!(ok && out.starts_with("purged 0 quotes"), "{out}");
    drop((bought, fresh));
}

/// A subject access request exports everything held (the bank account masked), and
/// an erasure request purges the quotes never bought and keeps the bought one; both are
/// recorded without the email address itself.
#[tokio::test]
async fn subject_export_and_erase() {
    let app = spawn_app().await;
    app.buy_direct().await;
    let email = "ada@example.com";
    let bought_ref = reference_of(&app, email).await;
    let other = app.another_visitor().await;
    unbought(&other, "Ada@Example.com").await;
    let stranger = app.another_visitor().await;
    unbought(&stranger, "ada.lovelace@example.com").await;

    let (ok, out, err) = pawpath(&app, &["subject", "export", "--email", "ADA@example.com"]);
    assert!(ok, "{err}");
    let export: Value = serde_json::from_str(&out).expect("json");
    let quotes = export["quotes"].as_array().expect("quotes");
    assert_eq!(quotes.len(), 2, "{out}");
    let bought = quotes
        .iter()
        .find(|q| q["reference"] == bought_ref.as_str())
        .expect("the bought quote");
    assert_eq!(bought["answers"]["owner"]["email_address"], email);
    assert_eq!(bought["policies"].as_array().map(Vec::len), Some(1));
    assert_eq!(bought["direct_debit"]["account_number"], "****4958");
    assert!(
        !out.contains("66374958"),
        "the account number is never exported in full"
    );
    assert!(
        bought["transitions"]
            .as_array()
            .is_some_and(|t| !t.is_empty())
    );
    assert!(!out.contains("ada.lovelace"), "another person's quote");

    let (ok, out, err) = pawpath(&app, &["subject", "erase", "--email", email, "--dry-run"]);
    assert!(ok, "{err}");
    let dry: Value = serde_json::from_str(&out).expect("json");
    assert_eq!(dry["erased"].as_array().map(Vec::len), Some(1));
    assert_eq!(dry["kept_bought"], json!([bought_ref]));
    assert_eq!(
        app.sql("select count(*) from quotes where purged_at is not null")
            .await
            .as_deref(),
        Some("0")
    );

    let (ok, out, err) = pawpath(&app, &["subject", "erase", "--email", email]);
    assert!(ok, "{err}");
    let erased: Value = serde_json::from_str(&out).expect("json");
    assert_eq!(erased["erased"].as_array().map(Vec::len), Some(1));
    assert_eq!(erased["kept_bought"], json!([bought_ref]));
    assert_eq!(
        app.sql("select count(*) from quotes where purged_at is not null")
            .await
            .as_deref(),
        Some("1")
    );
    assert_eq!(other.stored_pets().await, json!([]));
    // The stranger's quote is untouched.
    assert_ne!(stranger.stored_pets().await, json!([]));
    // Both requests recorded, the address only as its digest.
    assert_eq!(
        app.sql("select count(*) from data_requests")
            .await
            .as_deref(),
        Some("2")
    );
    assert_eq!(
        app.sql("select count(*) from data_requests where matched_by like '%@%'")
            .await
            .as_deref(),
        Some("0")
    );
    // By reference: the bought quote; an unknown reference finds nothing and says so.
    let (ok, out, _) = pawpath(&app, &["subject", "export", "--reference", &bought_ref]);
    assert!(ok);
    assert_eq!(
        serde_json::from_str::<Value>(&out).expect("json")["quotes"]
            .as_array()
            .map(Vec::len),
        Some(1)
    );
    let (ok, out, _) = pawpath(
        &app,
        &["subject", "export", "--reference", "ZZZZ-ZZZZ-ZZZZ"],
    );
    assert!(ok);
    assert_eq!(
        serde_json::from_str::<Value>(&out).expect("json")["quotes"],
        json!([])
    );
    // Bad arguments name the problem and change nothing.
    for args in [
        &["subject", "export"][..],
        &["subject", "export", "--email", "not-an-address"],
        &["subject", "forget", "--email", email],
        &["subject", "export", "--email", email, "--reference", "X"],
        &["purge", "--now"],
    ] {
        let (ok, _, err) = pawpath(&app, args);
        assert!(!ok, "{args:?}");
        assert!(!err.is_empty(), "{args:?}");
    }
}
