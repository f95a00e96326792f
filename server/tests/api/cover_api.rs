//! Choosing cover and the quote's prices over HTTP against a real server and database. Each case
//! names the spec section that states it: journey.md §2 Cover select and Review, §3 Product and
//! Quote view data, §4 Cover selection, §7 (the cover calls), §9; owner-payment.md §3 Product
//! discounts, §4 Prices and Owner save.

use crate::common;

use common::{TestApp, cat, rabbit, resolved, spawn_app, spawn_app_with, valid_owner, valid_pet};
use serde_json::{Value, json};

async fn at_choose_policy(pets: Value) -> TestApp {
    let app = spawn_app().await;
    let (status, body) = app.save_pets(pets).await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = app.save_owner(valid_owner()).await;
    assert_eq!(status, 200, "{body}");
    app
}

fn product(view: &Value, pet: u64, code: &str) -> Value {
    resolved(view)["products"]
        .as_array()
        .expect("products")
        .iter()
        .find(|p| p["petid"] == json!(pet) && p["Code"] == json!(code))
        .cloned()
        .unwrap_or_else(|| panic!("pet {pet} has no {code}"))
}

fn first_error(body: &Value) -> (String, String) {
    let e = &body["errors"][0];
    (
        e["field"].as_str().unwrap_or_default().to_owned(),
        e["message"].as_str().unwrap_or_default().to_owned(),
    )
}

#[tokio::test]
async fn choose_policy_loads_every_product_for_every_pet() {
    // journey.md §2 ("choose-policy loads products"), §3 Product, §9 vet fee limits.
    let app = at_choose_policy(json!([valid_pet(), rabbit()])).await;
    let view = app.view("/quote/choose-policy").await;
    assert_eq!(view["step"]["id"], "choose_policy");
    assert_eq!(view["step"]["view"], "choose_policy");
    let products = view["products"].as_array().expect("products");
    let dog: Vec<&Value> = products.iter().filter(|p| p["petid"] == 1).collect();
    let bunny: Vec<&str> = products
        .iter()
        .filter(|p| p["petid"] == 2)
        .filter_map(|p| p["Code"].as_str())
        .collect();
    assert_eq!(dog.len(), 18);
    assert_eq!(
        bunny,
        ["LT01000", "LT02000", "LT03000", "LT04000"],
        "a rabbit is forced to LT"
    );
    assert!(view["valid_until"].as_str().is_some_and(|d| d.len() == 10));
    // owner-payment.md §3 Product discounts: two pets, £1 each a month.
    let full = app.full_products().await;
    let lt = full
        .as_array()
        .into_iter()
        .flatten()
        .find(|p| p["petid"] == 1 && p["Code"] == "LT04000")
        .expect("LT04000");
    assert_eq!(lt["Discounts"]["Monthly"]["Multipet"], "1.00");
    // The review waits for a product (journey.md §2 step bar).
    let bar = view["step_bar"].as_array().expect("bar");
    assert_eq!(bar[3]["clickable"], false);
}

#[tokio::test]
async fn continue_needs_a_product_for_every_pet() {
    // journey.md §4 Cover selection: "Please choose a product type before progressing to choose
    // a cover level."
    let app = at_choose_policy(json!([valid_pet(), cat()])).await;
    let (status, body) = app
        .save_cover(json!([{ "product": { "Code": "LT04000" } }, {}]))
        .await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(
        first_error(&body),
        (
            "pets[1].product.Code".into(),
            "Please choose a product type before progressing to choose a cover level.".into()
        )
    );
    assert!(
        app.stored_pets().await[0].get("product").is_none(),
        "nothing stored"
    );
}

#[tokio::test]
async fn choices_the_pet_is_not_offered_are_refused_and_nothing_changes() {
    // journey.md §4 Cover selection, §9: rabbits LT only; set excess and claim contribution
    // from the options shown.
    let app = at_choose_policy(json!([rabbit()])).await;
    for (pets, field) in [
        (
            json!([{ "product": { "Code": "MB02000" } }]),
            "pets[0].product.Code",
        ),
        (
            json!([{ "product": { "Code": "LT06000" } }]),
            "pets[0].product.Code",
        ),
        (
            json!([{ "product": { "Code": "LT02000" }, "set_excess": "99" }]),
            "pets[0].set_excess",
        ),
        (
            json!([{ "product": { "Code": "LT02000" }, "set_coins": 0.5 }]),
            "pets[0].set_coins",
        ),
        (
            json!([{ "product": { "Code": "lt02000" } }]),
            "pets[0].product.Code",
        ),
    ] {
        let (status, body) = app.save_cover(pets.clone()).await;
        assert_eq!(status, 422, "{pets}: {body}");
        assert_eq!(first_error(&body).0, field, "{pets}");
    }
    assert!(app.stored_pets().await[0].get("product").is_none());
}

#[tokio::test]
async fn saving_cover_opens_review_with_totals_and_discounts() {
    // journey.md §4 Cover selection; owner-payment.md §4 Prices: total = sum of the premiums,
    // annual = 12 × monthly, discounts with the same description summed.
    let app = at_choose_policy(json!([valid_pet(), cat()])).await;
    let (status, body) = app
        .save_cover(json!([
            { "product": { "Code": "LT04000" }, "set_excess": "149", "set_coins": 0 },
            { "product": { "Code": "TL02000" } }
        ]))
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["step"]["id"], "review");
    let view = resolved(&app.view("/quote/review").await);
    let pets = view["pets"].as_array().expect("pets");
    assert_eq!(pets[0]["product"]["Excess"], "149");
    assert_eq!(pets[0]["product"]["coins"], "0");
    assert_eq!(pets[1]["product"]["Code"], "TL02000");
    let a: rust_decimal::Decimal = pets[0]["product"]["RecurringMonthly"]
        .as_str()
        .expect("a")
        .parse()
        .expect("a");
    let b: rust_decimal::Decimal = pets[1]["product"]["RecurringMonthly"]
        .as_str()
        .expect("b")
        .parse()
        .expect("b");
    assert_eq!(view["summary"]["monthly"], json!((a + b).to_string()));
    assert_eq!(
        view["summary"]["annual"],
        json!(((a + b) * rust_decimal::Decimal::from(12)).to_string())
    );
    assert_eq!(
        view["summary"]["discounts_monthly"],
        json!([["review.discount.multipet", "2.00"]])
    );
    assert_eq!(
        view["summary"]["discounts_annual"],
        json!([["review.discount.multipet", "24.00"]])
    );
}

#[tokio::test]
async fn an_excess_change_requotes_only_that_pet() {
    // journey.md §4 Cover selection, §7 /api/getFlexProducts: only the changed pet, with
    // set_excess and set_coins as a fraction.
    let app = at_choose_policy(json!([valid_pet(), cat()])).await;
    let before = app.view("/quote/choose-policy").await;
    let csrf = app.csrf().await;
    let (status, body) = app
        .post_json(
            "/api/getFlexProducts",
            &json!({ "csrf": csrf, "pets": [{ "id": 2, "set_excess": "199", "set_coins": 0.2 }] }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let after = &body["data"];
    let cat_before = product(&before, 2, "LT04000");
    let cat_after = product(after, 2, "LT04000");
    assert_eq!(cat_after["Excess"], "199");
    assert_eq!(cat_after["coins"], "20");
    assert_eq!(
        cat_after["FlexyProductsOptions"]["current_variable_excess"],
        "0.2"
    );
    let lower = |p: &Value| {
        p["RecurringMonthly"]
            .as_str()
            .expect("price")
            .parse::<rust_decimal::Decimal>()
            .expect("price")
    };
    assert!(
        lower(&cat_after) < lower(&cat_before),
        "a higher excess costs less"
    );
    assert_eq!(
        product(after, 1, "LT04000"),
        product(&before, 1, "LT04000"),
        "the dog is not re-quoted"
    );

    // An excess the cat is not offered: refused, nothing changes.
    let (status, body) = app
        .post_json(
            "/api/getFlexProducts",
            &json!({ "csrf": csrf, "pets": [{ "id": 2, "set_excess": "249" }] }),
        )
        .await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(first_error(&body).0, "pets[1].set_excess");
    let (status, body) = app
        .post_json(
            "/api/getFlexProducts",
            &json!({ "csrf": csrf, "pets": [{ "id": 3, "set_excess": "99" }] }),
        )
        .await;
    assert_eq!(status, 400, "{body}");
    assert!(
        body["message"]
            .as_str()
            .unwrap_or_default()
            .contains("pets[0].id"),
        "{body}"
    );
}

#[tokio::test]
async fn the_claim_contribution_changes_at_once_on_review() {
    // journey.md §4: "Choosing a co-insurance option on the review page immediately updates the
    // view data (call: change co-insurance)."
    let app = at_choose_policy(json!([valid_pet()])).await;
    let (status, _) = app
        .save_cover(json!([{ "product": { "Code": "LT04000" } }]))
        .await;
    assert_eq!(status, 200);
    let csrf = app.csrf().await;
    let (status, body) = app
        .post_json(
            "/api/changecoins",
            &json!({ "csrf": csrf, "pet_id": 1, "co_insurance": 0 }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let product = &resolved(&body["data"])["pets"][0]["product"];
    assert_eq!(product["coins"], "0");
    assert_eq!(
        product["Code"], "LT04000",
        "the chosen product stays chosen"
    );
    assert_eq!(
        product["ClaimExample"]["Customer"], "99",
        "£99 and 0% pays £99"
    );
    let (status, body) = app
        .post_json(
            "/api/changecoins",
            &json!({ "csrf": csrf, "pet_id": 1, "co_insurance": 15 }),
        )
        .await;
    assert_eq!(status, 422, "{body}");
    let (status, _) = app
        .post_json(
            "/api/changecoins",
            &json!({ "pet_id": 1, "co_insurance": 10 }),
        )
        .await;
    assert_eq!(status, 403, "CSRF token on every state-changing call");
}

#[tokio::test]
async fn a_changed_address_reprices_the_quote() {
    // owner-payment.md §4 Owner save: changing the address re-quotes; the price may change.
    let app = at_choose_policy(json!([valid_pet()])).await;
    let (status, _) = app
        .save_cover(json!([{ "product": { "Code": "LT04000" } }]))
        .await;
    assert_eq!(status, 200);
    let london = app.view("/quote/review").await["pets"][0]["product"]["RecurringMonthly"].clone();
    let mut owner = valid_owner();
    owner["customer_postcode"] = json!("LE1 5WS");
    owner["customer_town"] = json!("Leicester");
    let (status, body) = app.save_owner(owner).await;
    assert_eq!(status, 200, "{body}");
    let leicester = &body["data"]["pets"][0]["product"]["RecurringMonthly"];
    assert_ne!(*leicester, london);
}

#[tokio::test]
async fn viewed_products_are_recorded_for_the_analysts() {
    // journey.md §7 /api/trackViewedProducts: key "{original pet id}_{product code}".
    let app = at_choose_policy(json!([valid_pet(), cat()])).await;
    let csrf = app.csrf().await;
    let r = app
        .client
        .post(format!("{}/api/trackViewedProducts", app.base))
        .json(&json!({ "csrf": csrf, "key": ["2_LT04000", "2_MB06000"] }))
        .send()
        .await
        .expect("post");
    assert_eq!(r.status(), 204);
    let (status, body) = app
        .post_json(
            "/api/trackViewedProducts",
            &json!({ "csrf": csrf, "key": ["2_XX01000"] }),
        )
        .await;
    assert_eq!(status, 400, "{body}");
    let (status, _) = app
        .post_json("/api/trackViewedProducts", &json!({ "key": ["2_LT04000"] }))
        .await;
    assert_eq!(status, 403);
}

#[tokio::test]
async fn the_pricing_working_is_internal_and_behind_a_token() {
    // Every price carries its explanation, from an internal endpoint.
    let token = "an-admin-token-of-at-least-32-characters";
    let app = spawn_app_with(&[("PAWPATH_ADMIN_TOKEN", token.to_owned())]).await;
    let (status, _) = app.save_pets(json!([valid_pet()])).await;
    assert_eq!(status, 200);
    let (status, _) = app.save_owner(valid_owner()).await;
    assert_eq!(status, 200);
    let qidu = app.view("/quote").await["qidu"]
        .as_str()
        .expect("qidu")
        .to_owned();
    let url = format!("{}/internal/quotes/{qidu}/pricing", app.base);
    let anonymous = reqwest::Client::new();
    let r = anonymous.get(&url).send().await.expect("get");
    assert_eq!(r.status(), 401);
    let r = anonymous
        .get(&url)
        .bearer_auth("wrong")
        .send()
        .await
        .expect("get");
    assert_eq!(r.status(), 401);
    let r = anonymous
        .get(&url)
        .bearer_auth(token)
        .send()
        .await
        .expect("get");
    assert_eq!(r.status(), 200);
    let body: Value = r.json().await.expect("json");
    assert_eq!(body["priced"], true);
    let prices = body["prices"].as_array().expect("prices");
    assert_eq!(prices.len(), 18);
    let lt = prices
        .iter()
        .find(|p| p["code"] == "LT04000")
        .expect("LT04000");
    assert_eq!(lt["factors"][0][0], "base annual premium");
    assert!(
        lt["factors"]
            .as_array()
            .expect("factors")
            .iter()
            .any(|f| f[0] == "area" && f[1].as_str().unwrap_or_default().contains("SW"))
    );

    // Off without a token configured.
    let plain = spawn_app().await;
    let r = anonymous
        .get(format!("{}/internal/quotes/{qidu}/pricing", plain.base))
        .bearer_auth(token)
        .send()
        .await
        .expect("get");
    assert_eq!(r.status(), 404);
}

#[tokio::test]
async fn review_gives_each_pet_its_documents_for_the_start_date() {
    // owner-payment.md Documents: the policy wording by start date against file_change_date;
    // the IPID by species and the first two characters of the product code.
    let app = at_choose_policy(json!([valid_pet(), rabbit()])).await;
    let (status, body) = app
        .save_cover(
            json!([{ "product": { "Code": "MB04000" } }, { "product": { "Code": "LT02000" } }]),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let change = chrono::NaiveDate::from_ymd_opt(2026, 12, 1).expect("date");
    let view = app.view("/quote/review").await;
    let start = chrono::NaiveDate::parse_from_str(
        view["start_date"]["chosen"].as_str().expect("start"),
        "%Y-%m-%d",
    )
    .expect("date");
    let suffix = if start >= change {
        "2026-12"
    } else {
        "2026-06"
    };
    let names = |pet: usize| -> Vec<String> {
        view["documents"][pet]["items"]
            .as_array()
            .expect("items")
            .iter()
            .map(|d| d["name"].as_str().expect("name").to_owned())
            .collect()
    };
    assert_eq!(
        names(0),
        [
            format!("policy-wording-dog-cat-{suffix}"),
            format!("ipid-dog-mb-{suffix}")
        ]
    );
    assert_eq!(
        names(1),
        [
            format!("policy-wording-rabbit-{suffix}"),
            format!("ipid-rabbit-lt-{suffix}")
        ]
    );

    // The latest start date the window allows is after the change: the new versions.
    let latest = view["start_date"]["latest"]
        .as_str()
        .expect("latest")
        .to_owned();
    let (status, body) = app
        .edit(
            "/api/ownerdetail",
            "start_date",
            json!({ "owner": { "pet_policy_start_date": latest } }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let view = app.view("/quote/review").await;
    assert_eq!(
        view["documents"][0]["items"][1]["name"],
        "ipid-dog-mb-2026-12"
    );
    assert_eq!(
        view["documents"][0]["items"][1]["url"],
        "/quote/documents/ipid-dog-mb-2026-12"
    );

    // Each version is a page of its own, saying what differs (journey.md §9: 25%, older copy 20%).
    let page = |name: &str| {
        let client = app.client.clone();
        let url = format!("{}/quote/documents/{name}", app.base);
        async move {
            let r = client.get(url).send().await.expect("get");
            // The page is HTML-escaped throughout (minijinja writes "/" as "&#x2f;").
            (
                r.status().as_u16(),
                r.text().await.expect("text").replace("&#x2f;", "/"),
            )
        }
    };
    let (status, html) = page("policy-wording-dog-cat-2026-12").await;
    assert_eq!(status, 200);
    assert!(html.contains("Policy wording"), "{html}");
    assert!(html.contains("This version is for policies starting on or after 01/12/2026."));
    // The demands-and-needs statement the documents carry (ICOBS 5.2.2).
    assert!(html.contains("<h2>Your demands and needs</h2>"), "{html}");
    assert!(html.contains(
        "This insurance meets the demands and needs of people who want to insure their pet"
    ));
    assert!(html.contains("you pay 25% of each claim"));
    assert!(
        html.contains("£2,000,000"),
        "third party liability from the rate table"
    );
    // journey.md §4: the wording says what the behaviour and licensed-premises
    // answers take off third party liability, as the price and the benefits do.
    assert!(
        html.contains("or been the subject of a complaint about its behaviour")
            && html.contains("for incidents at work or on licensed premises"),
        "{html}"
    );
    // journey.md §9 Excess at renewal: dogs from the 8th birthday, some breeds the 5th.
    assert!(html.contains("Dogs from the 8th birthday"), "{html}");
    assert!(
        html.contains("Dogs of the breeds we accept only up to their 5th birthday (such as "),
        "{html}"
    );
    let (_, older) = page("policy-wording-dog-cat-2026-06").await;
    assert!(older.contains("you pay 20% of each claim"));
    assert!(older.contains("before 01/12/2026"));
    let (status, ipid) = page("ipid-rabbit-lt-2026-12").await;
    assert_eq!(status, 200);
    assert!(ipid.contains("Insurance product information document"));
    assert!(
        !ipid.contains("Third party liability"),
        "no third party liability for rabbits"
    );
    assert_eq!(page("no-such-document").await.0, 404);
    assert_eq!(page("document.css").await.0, 200);
}

#[tokio::test]
async fn review_modals_change_cover_reminders_and_marketing_in_place() {
    // journey.md §2 Review and Modals: choose cover, quote reminder opt-out, marketing
    // preferences; each saved in place, the rest of the quote kept.
    let app = at_choose_policy(json!([valid_pet(), cat()])).await;
    let (status, _) = app
        .save_cover(json!([{ "product": { "Code": "LT04000" }, "set_excess": "149" }, { "product": { "Code": "LT04000" } }]))
        .await;
    assert_eq!(status, 200);

    // The change-cover modal: one pet's product, through the cover call with form "cover".
    let (status, body) = app
        .edit(
            "/api/saveCover",
            "cover",
            json!({ "pets": [{ "product": { "Code": "LT04000" }, "set_excess": "149" }, { "product": { "Code": "MB02000" } }] }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let view = resolved(&app.view("/quote/review").await);
    assert_eq!(view["step"]["id"], "review");
    assert_eq!(view["pets"][0]["product"]["Code"], "LT04000");
    assert_eq!(
        view["pets"][0]["product"]["Excess"], "149",
        "the other pet's excess kept"
    );
    assert_eq!(view["pets"][1]["product"]["Code"], "MB02000");

    // Quote reminders (owner-payment.md §7 /api/noquotechaseemail): off, and the owner's
    // details untouched.
    assert_eq!(view["no_quote_chase_email"], false);
    assert_eq!(
        view["edits"]["quote_reminder"]["submit"],
        "/api/noquotechaseemail"
    );
    let csrf = app.csrf().await;
    let (status, body) = app
        .post_json(
            "/api/noquotechaseemail",
            &json!({ "csrf": csrf, "noquotechaseemail": true }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let view = app.view("/quote/review").await;
    assert_eq!(view["no_quote_chase_email"], true);
    assert_eq!(view["owner"]["customer_first_name"], "Ada");
    let (status, _) = app
        .post_json(
            "/api/noquotechaseemail",
            &json!({ "csrf": csrf, "noquotechaseemail": "yes" }),
        )
        .await;
    assert_eq!(status, 400, "true or false");
    let (status, _) = app
        .post_json(
            "/api/noquotechaseemail",
            &json!({ "noquotechaseemail": true }),
        )
        .await;
    assert_eq!(status, 403, "the CSRF token");

    // Marketing preferences: the owner modal sends the whole owner with the new choices.
    let mut owner = view["owner"].clone();
    owner["marketing_preferences"] = json!({ "optin_email": false, "optin_post": true, "optin_sms": false, "optin_phone": false });
    let (status, body) = app
        .edit(
            "/api/ownerdetail",
            "your_details",
            json!({ "owner": owner }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let view = app.view("/quote/review").await;
    assert_eq!(view["owner"]["marketing_preferences"]["optin_post"], true);
    assert_eq!(
        view["no_quote_chase_email"], true,
        "the reminder choice is not the owner modal's to clear"
    );
}

#[tokio::test]
async fn experiment_views_are_kept_with_the_transition() {
    // journey.md §4 Cover selection (the alternate guide, an experiment variation), §6 and §7
    // (experiment views added to payloads).
    let app = at_choose_policy(json!([valid_pet()])).await;
    let view = app.view("/quote/choose-policy").await;
    let variation = view["experiments"]["cover_type_guide"]
        .as_str()
        .expect("variation")
        .to_owned();
    assert!(["tiles", "guide"].contains(&variation.as_str()));
    assert_eq!(
        app.view("/quote/choose-policy").await["experiments"]["cover_type_guide"],
        json!(variation),
        "stable"
    );
    let csrf = app.csrf().await;
    let shown = format!("cover_type_guide:{variation}");
    let (status, body) = app
        .post_json(
            "/api/saveCover",
            &json!({ "csrf": csrf, "pets": [{ "product": { "Code": "LT04000" } }], "experiment_views": [shown] }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = app
        .post_json(
            "/api/saveCover",
            &json!({ "csrf": csrf, "pets": [{ "product": { "Code": "LT04000" } }], "experiment_views": ["cover_type_guide:carousel"] }),
        )
        .await;
    assert_eq!(status, 400, "{body}");
    assert!(
        body["message"]
            .as_str()
            .unwrap_or_default()
            .contains("experiment_views[0]")
    );

    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(&app.database_url)
        .await
        .expect("connect");
    let rows: Vec<(String, String)> =
        sqlx::query_as("select event, experiment_views from step_transitions order by id")
            .fetch_all(&pool)
            .await
            .expect("rows");
    pool.close().await;
    let last = rows.last().expect("a transition");
    assert_eq!(last.0, "submit:choose_policy");
    assert_eq!(last.1, format!("[\"{shown}\"]"));
    assert!(rows.iter().take(rows.len() - 1).all(|(_, v)| v == "[]"));
}

#[tokio::test]
async fn scripted_flows_can_choose_a_variation_in_test_mode_only() {
    // journey.md §2 ("a test mode loads test data"): QA's flows pick the page they test.
    let app = spawn_app_with(&[("PAWPATH_TEST_MODE", "1".to_owned())]).await;
    let csrf = app.csrf().await;
    for variation in ["guide", "tiles"] {
        let (status, body) = app
            .post_json(
                "/api/test/patch",
                &json!({ "csrf": csrf, "experiments": { "cover_type_guide": variation } }),
            )
            .await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(
            app.view("/quote").await["experiments"]["cover_type_guide"],
            variation
        );
    }
    let (status, body) = app
        .post_json(
            "/api/test/patch",
            &json!({ "csrf": csrf, "experiments": { "cover_type_guide": "carousel" } }),
        )
        .await;
    assert_eq!(status, 400, "{body}");
    assert!(
        body["message"]
            .as_str()
            .unwrap_or_default()
            .contains("experiments.cover_type_guide")
    );
}
