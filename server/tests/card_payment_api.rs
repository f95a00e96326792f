//! Card payments where a brand takes them (owner-payment.md §1 "Direct Debit, or card
//! where offered", §2 Payment page card form and /creditcard-confirmation, §3 payment_method,
//! §5 Payment): the card goes from the browser to the payment provider (here the local test
//! provider), pawpath gets a token, and the card is charged once when the quote is bought. The
//! card number is never in pawpath's database or logs.

#[path = "api/common/mod.rs"]
mod common;

use std::io::Write;
use std::sync::{Arc, Mutex, OnceLock};

use common::{TestApp, spawn_app, valid_pet, with_form};
use serde_json::{Value, json};

const VISA: &str = "4111 1111 1111 1111";
const DECLINED: &str = "4000 0000 0000 0002";

/// Everything every test here logs, at every level, to look for card numbers in.
fn logs() -> Arc<Mutex<Vec<u8>>> {
    static LOGS: OnceLock<Arc<Mutex<Vec<u8>>>> = OnceLock::new();
    LOGS.get_or_init(|| {
        let buffer = Arc::new(Mutex::new(Vec::new()));
        let writer = Arc::clone(&buffer);
        let subscriber = tracing_subscriber::fmt()
            .with_max_level(tracing::Level::TRACE)
            .with_writer(move || LogWriter(Arc::clone(&writer)))
            .finish();
        tracing::subscriber::set_global_default(subscriber).expect("one subscriber");
        buffer
    })
    .clone()
}

struct LogWriter(Arc<Mutex<Vec<u8>>>);

impl Write for LogWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().expect("logs").extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A quote on `brand` at the payment page.
async fn at_payment(brand: &str) -> (TestApp, Value) {
    logs();
    let app = spawn_app().await;
    let first = app.view(&format!("/quote?brand={brand}")).await;
    assert_eq!(first["brand"], brand);
    app.reach_payment(json!([valid_pet()])).await;
    let view = app.view("/quote/payment").await;
    assert_eq!(view["step"]["id"], "payment");
    (app, view)
}

fn card(number: &str) -> Value {
    json!({ "card": { "card_name": "Ada O'Neill", "card_number": number, "card_expiry": "12/30", "card_cvc": "737",
                      "address1": "12 Kings Road", "address3": "London" } })
}

async fn token_for(app: &TestApp, view: &Value, number: &str) -> String {
    let (status, body) = app.tokenise(view, card(number)).await;
    assert_eq!(status, 200, "{body}");
    body["data"]["token"].as_str().expect("token").to_owned()
}

async fn pay_by_card(app: &TestApp, payment: Value) -> (u16, Value) {
    let csrf = app.csrf().await;
    app.post_json(
        "/api/setup-payment",
        &json!({ "csrf": csrf, "payment": payment }),
    )
    .await
}

async fn buy(app: &TestApp, key: &str) -> (u16, Value) {
    let csrf = app.csrf().await;
    app.post_json(
        "/api/purchase",
        &json!({ "csrf": csrf, "idempotency_key": key }),
    )
    .await
}

async fn pool(app: &TestApp) -> sqlx::AnyPool {
    sqlx::any::install_default_drivers();
    sqlx::AnyPool::connect(&app.database_url)
        .await
        .expect("connect")
}

async fn count(app: &TestApp, sql: &'static str) -> i64 {
    let pool = pool(app).await;
    let (n,): (i64,) = sqlx::query_as(sql).fetch_one(&pool).await.expect("count");
    pool.close().await;
    n
}

/// Every byte the database holds, as text: the SQLite files, or every Postgres row.
async fn database_text(app: &TestApp) -> String {
    if app.database_url.starts_with("sqlite") {
        let mut out = Vec::new();
        for entry in std::fs::read_dir(&app.data_dir).expect("data dir") {
            let path = entry.expect("entry").path();
            if path.to_string_lossy().contains("test.db") {
                out.extend(std::fs::read(&path).expect("read db"));
            }
        }
        return String::from_utf8_lossy(&out).into_owned();
    }
    let pool = pool(app).await;
    let tables: Vec<(String,)> = sqlx::query_as(
        "select table_name::text from information_schema.tables where table_schema = 'public'",
    )
    .fetch_all(&pool)
    .await
    .expect("tables");
    let mut out = String::new();
    for (table,) in tables {
        let rows: Vec<(String,)> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
            "select t::text from {table} t"
        )))
        .fetch_all(&pool)
        .await
        .expect("rows");
        for (row,) in rows {
            out.push_str(&row);
            out.push('\n');
        }
    }
    pool.close().await;
    out
}

/// owner-payment.md §1 "card where offered", §2 /creditcard-confirmation, §5 Payment card rules:
/// a brand that takes cards offers both methods and its card form; a card payer reaches the card
/// confirmation, and buying charges the card once, whatever arrives, and makes one purchase.
#[tokio::test]
async fn a_card_payer_buys_once_and_the_card_number_is_nowhere() {
    let (app, view) = at_payment("epw").await;
    assert_eq!(view["payment_options"]["methods"], json!(["DD", "CC"]));
    let card = with_form(&app.base, &view["payment_options"]["card"]["questions"]).await;
    let form = &card["schema"];
    assert_eq!(
        form["properties"]["card"]["properties"]["card_number"]["pattern"],
        "^([0-9]{4} [0-9]{4} [0-9]{4} [0-9]{4}|3[47][0-9]{2} [0-9]{6} [0-9]{5})$",
        "the card form the browser checks is questions/card.json"
    );
    // The billing address (owner-payment.md §3: address1 to address4) starts as the owner's.
    let billing = &view["payment_options"]["card"]["questions"]["answers"]["card"];
    assert_eq!(billing["address1"], "12 Kings Road", "{billing}");
    assert_eq!(billing["address3"], "London", "{billing}");
    assert!(billing.get("card_number").is_none());
    let token = token_for(&app, &view, VISA).await;
    // Whatever the browser claims of the card, pawpath keeps what the provider says.
    let (status, body) = pay_by_card(
        &app,
        json!({ "payment_method": "CC", "payment_frequency": "MP", "card_token": token,
                "card_issuer": "AMEX", "card_last4": "9999", "card_name": "Someone Else" }),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let data = &body["data"];
    assert_eq!(data["step"]["id"], "card_confirmation");
    assert_eq!(data["step"]["path"], "/quote/creditcard-confirmation");
    let payment = &data["payment"];
    assert_eq!(payment["card_issuer"], "VISA");
    assert_eq!(payment["card_last4"], "1111");
    assert_eq!(payment["card_name"], "Ada O'Neill");
    assert_eq!(payment["card_expiry"], "12/30");
    assert!(payment.get("card_token").is_none(), "{payment}");
    // The bank details panel is Direct Debit's: a card payer is not shown it.
    let panel = app.view("/quote/payment-confirmation").await;
    assert_eq!(panel["step"]["id"], "card_confirmation");

    // Ten identical Pay now requests at once, and a second tab with its own key.
    let mut tasks = Vec::new();
    // One page's token for every request, as repeated clicks on one page send it: a page loaded
    // with the cookie the purchase retired would be a new visitor's.
    let csrf = app.csrf().await;
    for _ in 0..10 {
        let client = app.client.clone();
        let base = app.base.clone();
        let csrf = csrf.clone();
        tasks.push(tokio::spawn(async move {
            let r = client
                .post(format!("{base}/api/purchase"))
                .json(&json!({ "csrf": csrf, "idempotency_key": "card-attempt-1" }))
                .send()
                .await
                .expect("post");
            let status = r.status().as_u16();
            (status, r.json::<Value>().await.expect("json"))
        }));
    }
    let mut numbers = Vec::new();
    for task in tasks {
        let (status, body) = task.await.expect("task");
        assert_eq!(status, 200, "{body}");
        numbers.push(body["data"]["purchase"]["policies"][0]["policy_number"].clone());
    }
    let (status, body) = buy(&app, "card-attempt-2").await;
    assert_eq!(status, 200, "{body}");
    numbers.push(body["data"]["purchase"]["policies"][0]["policy_number"].clone());
    assert!(numbers.windows(2).all(|w| w[0] == w[1]), "{numbers:?}");
    let purchase = &body["data"]["purchase"];
    assert_eq!(purchase["payment_method"], "CC");
    assert_eq!(purchase["card"]["issuer"], "VISA");
    assert_eq!(purchase["card"]["last4"], "1111");
    assert!(purchase["mandate_reference"].is_null());
    assert_eq!(count(&app, "select count(*) from purchases").await, 1);
    assert_eq!(count(&app, "select count(*) from card_payments").await, 1);
    assert_eq!(count(&app, "select count(*) from mandates").await, 0);
    assert_eq!(
        count(&app, "select count(*) from collections").await,
        12,
        "a monthly card payer's year"
    );

    // The confirmation email tells of the card payment, not a Direct Debit.
    let pool = pool(&app).await;
    let (text,): (String,) = sqlx::query_as("select body_text from outbox")
        .fetch_one(&pool)
        .await
        .expect("email");
    pool.close().await;
    assert!(text.contains("from your Visa card ending 1111"), "{text}");
    assert!(!text.contains("Direct Debit"), "{text}");

    // The number, typed or bare, is in no table and no log line.
    let stored = database_text(&app).await;
    let logged = String::from_utf8_lossy(&logs().lock().expect("logs")).into_owned();
    for haystack in [&stored, &logged] {
        assert!(!haystack.contains(VISA));
        assert!(!haystack.contains(&VISA.replace(' ', "")));
    }
    assert!(!logged.is_empty(), "the logs were captured");
}

/// owner-payment.md §5 Payment: "Card number 16 digits in groups of four ("Please enter a valid
/// card number"); expiry MM/YY ("Please enter a valid expiry date"); CVC 3 digits ("Please enter
/// a valid CVC")", with the Luhn check and a known issuer, checked by the provider with the card
/// question set the browser uses.
#[tokio::test]
async fn the_provider_checks_the_card_with_the_specs_messages() {
    let (app, view) = at_payment("epw").await;
    let with = |field: &str, value: &str| {
        let mut c = card(VISA);
        c["card"][field] = json!(value);
        c
    };
    for (body, field, message) in [
        (
            with("card_number", "4111 1111 1111 1112"),
            "card.card_number",
            "Please enter a valid card number",
        ),
        (
            with("card_number", "4111111111111111"),
            "card.card_number",
            "Please enter a valid card number",
        ),
        (
            with("card_number", "6011 1111 1111 1117"),
            "card.card_number",
            "Please enter a valid card number",
        ),
        (
            with("card_number", ""),
            "card.card_number",
            "Please enter a valid card number",
        ),
        (
            with("card_expiry", "13/30"),
            "card.card_expiry",
            "Please enter a valid expiry date",
        ),
        (
            with("card_expiry", "01/20"),
            "card.card_expiry",
            "Please enter a valid expiry date",
        ),
        (
            with("card_expiry", "1230"),
            "card.card_expiry",
            "Please enter a valid expiry date",
        ),
        (
            with("card_cvc", "12"),
            "card.card_cvc",
            "Please enter a valid CVC",
        ),
        (
            with("card_cvc", "12a"),
            "card.card_cvc",
            "Please enter a valid CVC",
        ),
        (
            with("card_name", ""),
            "card.card_name",
            "This field is required",
        ),
        // owner-payment.md §5: "town required on the payment-side address" (address3), and
        // the billing address's first line.
        (
            with("address3", ""),
            "card.address3",
            "This field is required",
        ),
        (
            with("address1", ""),
            "card.address1",
            "This field is required",
        ),
    ] {
        let (status, answer) = app.tokenise(&view, body.clone()).await;
        assert_eq!(status, 422, "{body}: {answer}");
        assert_eq!(answer["errors"][0]["field"], field, "{body}");
        assert_eq!(answer["errors"][0]["message"], message, "{body}");
        assert!(
            !answer.to_string().contains("4111"),
            "never echoed: {answer}"
        );
    }
    // The provider answers in the page's language, as hosted providers take a locale; a
    // language no brand speaks is answered in British English.
    for (language, message) in [
        ("fr-FR", "Veuillez saisir un numéro de carte valide"),
        (
            "fr-FR,fr;q=0.9,en;q=0.5",
            "Veuillez saisir un numéro de carte valide",
        ),
        ("de-DE", "Please enter a valid card number"),
    ] {
        let provider = &view["payment_options"]["card"]["provider"];
        let r = app
            .client
            .post(format!(
                "{}{}",
                app.base,
                provider["tokenise_url"].as_str().expect("url")
            ))
            .bearer_auth(provider["publishable_key"].as_str().expect("key"))
            .header("Accept-Language", language)
            .json(&with("card_number", "4111 1111 1111 1112"))
            .send()
            .await
            .expect("post");
        assert_eq!(r.status(), 422);
        let answer: Value = r.json().await.expect("json");
        assert_eq!(answer["errors"][0]["message"], message, "{language}");
    }
    // Every issuer the spec names is told apart.
    for (number, issuer) in [
        ("5555 5555 5555 4444", "MCDEBIT"),
        ("4917 3008 0000 0000", "UKE"),
        ("3530 1113 3330 0000", "JCB"),
        ("6759 6498 2643 8453", "MAESTRO"),
        ("4111 1111 1111 1111", "VISA"),
    ] {
        let (status, answer) = app.tokenise(&view, card(number)).await;
        assert_eq!(status, 200, "{number}: {answer}");
        assert_eq!(answer["data"]["issuer"], issuer, "{number}");
        assert_eq!(answer["data"]["last4"], &number[15..], "{number}");
    }
    // Without the key, or with anything but the card form, nothing is done.
    let url = format!("{}/payments/test/v1/tokens", app.base);
    let r = app
        .client
        .post(&url)
        .json(&card(VISA))
        .send()
        .await
        .expect("post");
    assert_eq!(r.status(), 401);
    let mut extra = card(VISA);
    extra["card"]["pin"] = json!("1234");
    let (status, _) = app.tokenise(&view, extra).await;
    assert_eq!(status, 400);
}

/// owner-payment.md §1, §3 payment_method: a brand that does not take cards offers Direct Debit
/// only, and refuses a card payment as a field error.
#[tokio::test]
async fn american_express_as_listed_takes_15_digits_and_a_4_digit_code() {
    // owner-payment.md §5 Payment: AMEX is an accepted issuer and epw lists it under "We
    // accept"; its number is 15 digits (4-6-5) and its security code 4 digits.
    let (app, view) = at_payment("epw").await;
    let amex = |number: &str, cvc: &str| {
        let mut c = card(number);
        c["card"]["card_cvc"] = json!(cvc);
        c
    };
    let (status, body) = app.tokenise(&view, amex("3782 822463 10005", "1234")).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["issuer"], "AMEX", "{body}");
    assert_eq!(body["data"]["last4"], "0005", "{body}");
    for (body, field, message) in [
        (
            amex("3782 822463 10005", "737"),
            "card.card_cvc",
            "Please enter a valid CVC",
        ),
        (
            amex(VISA, "1234"),
            "card.card_cvc",
            "Please enter a valid CVC",
        ),
        (
            amex("3782 8224 6310 0050", "1234"),
            "card.card_number",
            "Please enter a valid card number",
        ),
        (
            amex("3782 822463 10006", "1234"),
            "card.card_number",
            "Please enter a valid card number",
        ),
    ] {
        let (status, answer) = app.tokenise(&view, body.clone()).await;
        assert_eq!(status, 422, "{body}: {answer}");
        assert_eq!(answer["errors"][0]["field"], field, "{body}: {answer}");
        assert_eq!(answer["errors"][0]["message"], message, "{body}");
    }
}

#[tokio::test]
async fn a_brand_without_cards_refuses_a_card_payment() {
    let (app, view) = at_payment("pos").await;
    assert_eq!(view["payment_options"]["methods"], json!(["DD"]));
    assert!(view["payment_options"]["card"].is_null());
    // A card payment asked for anyway is refused (the rule payment_method_offered, proved with
    // a real token in the engine's tests), and the quote stays at payment.
    let (status, body) = pay_by_card(
        &app,
        json!({ "payment_method": "CC", "payment_frequency": "MP", "card_token": "tok_test_abcdefghijklmnopqrstuv" }),
    )
    .await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(app.view("/quote/payment").await["step"]["id"], "payment");
}

/// A card token the provider did not issue, or one past its time, is the customer's to enter
/// again: a field error, and nothing kept.
#[tokio::test]
async fn an_unknown_card_token_is_a_field_error() {
    let (app, _) = at_payment("epw").await;
    let (status, body) = pay_by_card(
        &app,
        json!({ "payment_method": "CC", "payment_frequency": "AP", "card_token": "tok_test_not_one_we_issued" }),
    )
    .await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(body["errors"][0]["field"], "payment.card_token");
    assert_eq!(
        body["errors"][0]["message"],
        "Your card details have timed out. Please enter them again."
    );
    assert_eq!(app.view("/quote/payment").await["step"]["id"], "payment");
}

/// A declined card buys nothing: the customer is told on the card confirmation page and can try
/// another card.
#[tokio::test]
async fn a_declined_card_buys_nothing() {
    let (app, view) = at_payment("epw").await;
    let token = token_for(&app, &view, DECLINED).await;
    let (status, body) = pay_by_card(
        &app,
        json!({ "payment_method": "CC", "payment_frequency": "AP", "card_token": token }),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = buy(&app, "declined-attempt").await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(
        body["errors"][0]["message"],
        "Your card payment was declined. Please check your card details or use another card."
    );
    assert_eq!(count(&app, "select count(*) from purchases").await, 0);
    let page = app.view("/quote/creditcard-confirmation").await;
    assert_eq!(page["step"]["id"], "card_confirmation");
    // Another card, and it goes through.
    let token = token_for(&app, &view, "5555 5555 5555 4444").await;
    let (status, body) = pay_by_card(
        &app,
        json!({ "payment_method": "CC", "payment_frequency": "AP", "card_token": token }),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = buy(&app, "second-card").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["purchase"]["card"]["issuer"], "MCDEBIT");
    assert_eq!(
        count(&app, "select count(*) from collections").await,
        1,
        "a yearly payer"
    );
}

/// owner-payment.md §1 "Direct Debit, or card where offered", §3 payment_method: a customer who
/// gave bank details and then pays by card leaves no bank details behind, neither the masked
/// number in the quote nor the encrypted one beside it.
#[tokio::test]
async fn bank_details_given_up_for_a_card_are_forgotten() {
    let (app, view) = at_payment("epw").await;
    let (status, body) = pay_by_card(
        &app,
        json!({ "payment_method": "DD", "payment_frequency": "MP", "account_name": "Ada O'Neill",
                "sort_code": "08-99-99", "account_number": "66374958", "payment_day": 15,
                "dd_confirmation": true }),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["payment"]["account_number_masked"], "****4958");
    assert_eq!(
        count(
            &app,
            "select count(*) from quote_secrets where field = '/payment/account_number'"
        )
        .await,
        1
    );

    let token = token_for(&app, &view, VISA).await;
    let (status, body) = pay_by_card(
        &app,
        json!({ "payment_method": "CC", "payment_frequency": "MP", "card_token": token }),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let payment = &body["data"]["payment"];
    assert_eq!(payment["payment_method"], "CC");
    for gone in [
        "account_number_masked",
        "account_name",
        "sort_code",
        "payment_day",
    ] {
        assert!(payment.get(gone).is_none(), "{gone} kept: {payment}");
    }
    // The card's token is kept (encrypted) to charge at purchase; the bank account is not.
    assert_eq!(
        count(
            &app,
            "select count(*) from quote_secrets where field = '/payment/account_number'"
        )
        .await,
        0
    );
    // The stored quote (the SQLite file may still hold freed pages of its old version).
    let pool = pool(&app).await;
    let documents: Vec<(String,)> = sqlx::query_as("select document from quotes")
        .fetch_all(&pool)
        .await
        .expect("quotes");
    pool.close().await;
    // The masked number and the whole one (a bare "4958" may be part of a digest's hex).
    assert!(
        documents
            .iter()
            .all(|(d,)| !d.contains("****4958") && !d.contains("66374958")),
        "{documents:?}"
    );
}

/// Every party is screened: a clean policyholder paying with a card in a listed name (the name
/// the provider gives for the card) is referred before the card is charged, the party recorded.
#[tokio::test]
async fn a_card_in_a_listed_name_is_referred_before_it_is_charged() {
    let (app, view) = at_payment("epw").await;
    let mut listed = card(VISA);
    listed["card"]["card_name"] = json!("Cedric A Harrowgate-Plume");
    let (status, body) = app.tokenise(&view, listed).await;
    assert_eq!(status, 200, "{body}");
    let token = body["data"]["token"].as_str().expect("token").to_owned();
    let (status, body) = pay_by_card(
        &app,
        json!({ "payment_method": "CC", "payment_frequency": "AP", "card_token": token }),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = buy(&app, "listed-cardholder").await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(body["errors"][0]["field"], "purchase");
    assert_eq!(count(&app, "select count(*) from purchases").await, 0);
    assert_eq!(count(&app, "select count(*) from card_payments").await, 0);
    let input = app
        .sql("select input from step_transitions where event = 'purchase' and outcome = 'blocked'")
        .await
        .expect("the referral is recorded");
    let input: Value = serde_json::from_str(&input).expect("json");
    assert_eq!(input["screening"]["party"], "cardholder", "{input}");
    assert_eq!(input["screening"]["list_entry"], "90003", "{input}");
}
