//! Brands and the pages around the journey: journey.md §1 (brand chosen by `brand`,
//! kept for the quote; rabbits on some brands), §2 Routes (static pages, their paths by brand,
//! one brand's /success), §2 Shell (logo, no-index, Internet Explorer), §9 (timers by brand,
//! ptp's maximum age); owner-payment.md §1 (phones, sales hours).

use crate::common;

use common::*;
use serde_json::{Value, json};

/// A client with its own cookie jar: a new visitor.
fn visitor() -> reqwest::Client {
    reqwest::Client::builder()
        .cookie_store(true)
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("client")
}

async fn view_as(app: &TestApp, client: &reqwest::Client, path: &str) -> (u16, Value) {
    let r = client
        .get(format!("{}{path}", app.base))
        .header("Accept", "application/json")
        .send()
        .await
        .expect("get");
    let status = r.status().as_u16();
    (
        status,
        r.json::<Value>().await.unwrap_or(Value::Null)["data"].clone(),
    )
}

async fn html_as(
    app: &TestApp,
    client: &reqwest::Client,
    path: &str,
    agent: &str,
) -> (u16, String) {
    let r = client
        .get(format!("{}{path}", app.base))
        .header("Accept", "text/html")
        .header("User-Agent", agent)
        .send()
        .await
        .expect("get");
    // minijinja escapes `/` in attribute values as `&#x2f;`, which the browser reads as `/`.
    let status = r.status().as_u16();
    let html = r.text().await.expect("text").replace("&#x2f;", "/");
    (status, html)
}

const CHROME: &str = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36";

/// journey.md §1: the brand comes from `brand` on the first page and stays with the quote; the
/// page's frame is that brand's (name, logo, site, phone and hours from journeys/brands).
#[tokio::test]
async fn the_brand_asked_for_is_kept_and_drawn() {
    let app = spawn_app().await;
    let client = visitor();
    let (_, data) = view_as(&app, &client, "/quote?brand=afs").await;
    assert_eq!(data["brand"], "afs");
    let shell = &data["shell"];
    assert_eq!(shell["name"], "Acorn Friendly Society Pets");
    assert_eq!(shell["logo_url"], "/quote/brand/afs/logo.svg");
    assert_eq!(shell["site_url"], "https://www.acornfriendly.example");
    assert_eq!(shell["phone"], "0808 157 0400");
    // owner-payment.md §1: "one brand: 8.30am-6pm".
    assert_eq!(shell["hours"], "Mon-Fri 8.30am-6pm, Sat 9am-1pm");
    assert_eq!(
        app.copy_of(&data).await["app.brand"],
        "Acorn Friendly Society Pets"
    );
    // Asking for another brand later changes nothing: the quote keeps its brand.
    let (_, again) = view_as(&app, &client, "/quote?brand=epw").await;
    assert_eq!(again["brand"], "afs");
    // An unknown brand is the default brand.
    let (_, other) = view_as(&app, &visitor(), "/quote?brand=nosuch").await;
    assert_eq!(other["brand"], "pos");
    assert_eq!(other["shell"]["hours"], "Mon-Fri 8am-6pm, Sat 9am-1pm");
    // The home page keeps the brand on its way to /quote.
    let r = visitor()
        .get(format!("{}/?brand=sbp", app.base))
        .send()
        .await
        .expect("get");
    assert_eq!(r.headers()["location"], "/quote?brand=sbp");
}

/// journey.md §2 Shell: each brand's stylesheet and logo; a logo may load nothing else.
#[tokio::test]
async fn each_brand_has_its_stylesheet_and_logo() {
    let app = spawn_app().await;
    let css = app
        .client
        .get(format!("{}/quote/brand/epw/theme.css", app.base))
        .send()
        .await
        .expect("get");
    assert_eq!(css.status(), 200);
    assert!(
        css.headers()["content-type"]
            .to_str()
            .expect("type")
            .starts_with("text/css")
    );
    let css = css.text().await.expect("css");
    assert!(css.contains("--brand-primary: #b3261e;"), "{css}");
    let logo = app
        .client
        .get(format!("{}/quote/brand/epw/logo.svg", app.base))
        .send()
        .await
        .expect("get");
    assert_eq!(logo.status(), 200);
    assert_eq!(logo.headers()["content-type"], "image/svg+xml");
    assert_eq!(
        logo.headers()["content-security-policy"],
        "default-src 'none'; style-src 'unsafe-inline'"
    );
    assert!(
        logo.text()
            .await
            .expect("svg")
            .contains("<title id=\"epw-logo-title\">Evenpaw</title>")
    );
    for missing in [
        "/quote/brand/nosuch/theme.css",
        "/quote/brand/nosuch/logo.svg",
    ] {
        let r = app
            .client
            .get(format!("{}{missing}", app.base))
            .send()
            .await
            .expect("get");
        assert_eq!(r.status(), 404, "{missing}");
    }
}

/// journey.md §2 Routes: the static pages at each brand's paths, with no step bar; the
/// contact page indexed with its own title and description, privacy and terms no-index; a path
/// another brand uses is not found on this one.
#[tokio::test]
async fn static_pages_are_at_each_brands_paths() {
    let app = spawn_app().await;
    let pos = visitor();
    view_as(&app, &pos, "/quote").await;
    let (status, privacy) = view_as(&app, &pos, "/quote/privacy-cookie-policy").await;
    assert_eq!(status, 200);
    assert_eq!(privacy["step"]["view"], "static_page");
    assert_eq!(privacy["step"]["title"], "Privacy and cookie policy");
    assert_eq!(privacy["step_bar"], json!([]));
    assert_eq!(privacy["page"]["index"], false);
    assert!(
        privacy["page"]["sections"][0]["paragraphs"][0]
            .as_str()
            .expect("text")
            .starts_with("Pawsure Pet Cover is a trading name")
    );
    let (status, support) = view_as(&app, &pos, "/quote/contact-and-faqs").await;
    assert_eq!(status, 200);
    assert_eq!(support["page"]["index"], true);
    assert!(!support["page"]["faqs"].as_array().expect("faqs").is_empty());
    // journey.md §9: the contact page's 78,000,000 ms.
    assert_eq!(support["timeouts"]["reset_ms"], 78_000_000);
    // pos's library page (journey.md §2 /library "in some brands").
    assert_eq!(view_as(&app, &pos, "/quote/library").await.0, 200);
    // epw's own paths (journey.md §2: /privacy-and-cookies, /terms-of-business, /help).
    assert_eq!(
        view_as(&app, &pos, "/quote/help").await.0,
        404,
        "epw's path, not pos's"
    );
    let epw = visitor();
    view_as(&app, &epw, "/quote?brand=epw").await;
    for path in [
        "/quote/privacy-and-cookies",
        "/quote/terms-of-business",
        "/quote/help",
    ] {
        let (status, data) = view_as(&app, &epw, path).await;
        assert_eq!(status, 200, "{path}");
        assert_eq!(data["step"]["view"], "static_page", "{path}");
    }
    assert_eq!(
        view_as(&app, &epw, "/quote/privacy-cookie-policy").await.0,
        404
    );
    assert_eq!(
        view_as(&app, &epw, "/quote/library").await.0,
        404,
        "epw has no library"
    );
    let (_, page) = view_as(&app, &epw, "/quote").await;
    assert_eq!(page["shell"]["pages"]["support"], "/quote/help");
    assert_eq!(page["shell"]["pages"]["library"], Value::Null);
    // A path no brand has makes no quote for the visitor.
    let stranger = visitor();
    let r = stranger
        .get(format!("{}/quote/no-such-page", app.base))
        .header("Accept", "application/json")
        .send()
        .await
        .expect("get");
    assert_eq!(r.status(), 404);
    assert!(r.headers().get("set-cookie").is_none());
}

/// journey.md §2 Shell: the HTML of a static page carries its title, its description and
/// whether it may be indexed; the contact page is indexed; Internet Explorer gets the
/// simplified page and its message.
#[tokio::test]
async fn the_shell_names_the_page_and_turns_internet_explorer_away() {
    let app = spawn_app().await;
    let client = visitor();
    let (_, terms) = html_as(&app, &client, "/quote/terms-conditions/terms", CHROME).await;
    assert!(
        terms.contains(r#"<meta name="robots" content="noindex" />"#),
        "{terms}"
    );
    assert!(terms.contains("<title>Terms of business – Pawsure Pet Cover</title>"));
    assert!(terms.contains(r#"<link rel="stylesheet" href="/quote/brand/pos/theme.css?v="#));
    let (_, support) = html_as(&app, &client, "/quote/contact-and-faqs", CHROME).await;
    assert!(!support.contains("noindex"));
    assert!(
        support.contains(
            r#"<meta name="description" content="Call Pawsure Pet Cover about pet insurance"#
        ),
        "{support}"
    );
    let (_, quote) = html_as(&app, &visitor(), "/quote?brand=sbp", CHROME).await;
    assert!(quote.contains("<title>Pet insurance quote – Small Beasts Pet Plan</title>"));
    assert!(quote.contains("/quote/brand/sbp/theme.css"));
    let (status, ie) = html_as(
        &app,
        &visitor(),
        "/quote",
        "Mozilla/5.0 (Windows NT 10.0; WOW64; Trident/7.0; rv:11.0) like Gecko",
    )
    .await;
    assert_eq!(status, 200);
    assert!(
        ie.contains("We no longer support Internet Explorer."),
        "{ie}"
    );
    assert!(ie.contains("Google Chrome or Microsoft Edge"));
    assert!(
        !ie.contains("<script"),
        "no script for a browser that cannot run it"
    );
    // Styled for a browser that reads no custom properties: its own plain stylesheet, with the
    // brand's colours written in, and the brand's logo.
    assert!(
        ie.contains(r#"href="/quote/brand/pos/unsupported.css""#),
        "{ie}"
    );
    assert!(
        ie.contains(r#"src="/quote/brand/pos/logo.svg" alt="Pawsure Pet Cover""#),
        "{ie}"
    );
    let (status, css) = html_as(&app, &visitor(), "/quote/brand/pos/unsupported.css", CHROME).await;
    assert_eq!(status, 200);
    assert!(!css.contains("var("), "{css}");
    assert!(css.contains(".header { background: #1d4f91;"), "{css}");
    assert_eq!(
        html_as(
            &app,
            &visitor(),
            "/quote/brand/nobody/unsupported.css",
            CHROME
        )
        .await
        .0,
        404
    );
}

/// journey.md §2: one brand's confirmation is /success (step 5); the retrieve-quote answer and
/// the step paths use it.
#[tokio::test]
async fn a_brand_can_move_a_step() {
    let app = spawn_app().await;
    let epw = visitor();
    let (_, data) = view_as(&app, &epw, "/quote?brand=epw").await;
    let bar = data["step_bar"].as_array().expect("bar");
    assert_eq!(bar[4]["path"], "/quote/success");
    let pos = visitor();
    let (_, data) = view_as(&app, &pos, "/quote").await;
    assert_eq!(data["step_bar"][4]["path"], "/quote/confirmation");
    // Not a page of pos; a page of epw (showing the furthest open step until it is bought).
    assert_eq!(view_as(&app, &pos, "/quote/success").await.0, 404);
    let (status, data) = view_as(&app, &epw, "/quote/success").await;
    assert_eq!(status, 200);
    assert_eq!(
        data["step"]["path"], "/quote",
        "journey.md §2 Redirect rule: no pets yet"
    );
}

/// journey.md §9: session warning and reset 14,280,000 / 14,400,000 ms; one brand (ich)
/// 3,480,000 / 3,600,000 ms.
#[tokio::test]
async fn timers_are_the_brands() {
    let app = spawn_app().await;
    let (_, pos) = view_as(&app, &visitor(), "/quote").await;
    assert_eq!(
        pos["timeouts"],
        json!({ "warning_ms": 14_280_000, "reset_ms": 14_400_000 })
    );
    let (_, ich) = view_as(&app, &visitor(), "/quote?brand=ich").await;
    assert_eq!(
        ich["timeouts"],
        json!({ "warning_ms": 3_480_000, "reset_ms": 3_600_000 })
    );
}

/// journey.md §1: rabbits on some brands only. The pet page offers only the brand's species and
/// the server refuses another on its field.
#[tokio::test]
async fn rabbits_only_where_the_brand_insures_them() {
    let app = spawn_app().await;
    let sbp = visitor();
    let (_, data) = view_as(&app, &sbp, "/quote?brand=sbp").await;
    let questions = with_form(&app.base, &data["questions"]).await;
    let offered =
        &questions["schema"]["properties"]["pets"]["items"]["properties"]["pet_type"]["enum"];
    assert_eq!(offered, &json!(["dog", "cat"]));
    let csrf = data["csrf"].as_str().expect("csrf").to_owned();
    let r = sbp
        .post(format!("{}/api/petdetails", app.base))
        .json(&json!({ "csrf": csrf, "pets": [rabbit()] }))
        .send()
        .await
        .expect("post");
    assert_eq!(r.status(), 422);
    let body: Value = r.json().await.expect("json");
    assert!(
        body["errors"]
            .as_array()
            .expect("errors")
            .iter()
            .any(|e| e["field"] == "pets[0].pet_type"
                && e["message"] == "Sorry, we are unable to insure this type of pet."),
        "{body}"
    );
    // pos insures rabbits.
    let (_, data) = view_as(&app, &app.client, "/quote").await;
    let questions = with_form(&app.base, &data["questions"]).await;
    let offered =
        &questions["schema"]["properties"]["pets"]["items"]["properties"]["pet_type"]["enum"];
    assert_eq!(offered, &json!(["dog", "cat", "rabbit"]));
    let (status, _) = app.save_pets(json!([rabbit()])).await;
    assert_eq!(status, 200);
}

/// journey.md §2 Routes: review is step 4, "3rd step in some variants" (ptp: quote and review
/// share step 3, confirmation is step 4).
#[tokio::test]
async fn ptp_numbers_review_as_step_three() {
    let app = spawn_app().await;
    let (_, ptp) = view_as(&app, &visitor(), "/quote?brand=ptp").await;
    let bar: Vec<(u64, String)> = ptp["step_bar"]
        .as_array()
        .expect("bar")
        .iter()
        .map(|i| {
            (
                i["number"].as_u64().expect("n"),
                i["label"].as_str().expect("label").to_owned(),
            )
        })
        .collect();
    assert_eq!(
        bar,
        vec![
            (1, "Your pets".to_owned()),
            (2, "Your details".to_owned()),
            (3, "Quote, review & pay".to_owned()),
            (4, "Confirmation".to_owned()),
        ]
    );
    let (_, pos) = view_as(&app, &visitor(), "/quote").await;
    assert_eq!(pos["step_bar"].as_array().expect("bar").len(), 5);
    assert_eq!(pos["step_bar"][3]["label"], "Review & Pay");
}

/// Which of a dog's products carry the 5-star badge on a brand, as (code, rated).
async fn rated_products(brand: &str) -> Vec<(String, bool)> {
    let app = spawn_app().await;
    app.view(&format!("/quote?brand={brand}")).await;
    let (status, body) = app.save_pets(json!([valid_pet()])).await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = app.save_owner(valid_owner()).await;
    assert_eq!(status, 200, "{body}");
    body["data"]["products"]
        .as_array()
        .expect("products")
        .iter()
        .map(|p| {
            (
                p["Code"].as_str().expect("code").to_owned(),
                p["Rated"].as_bool().expect("rated"),
            )
        })
        .collect()
}

/// journey.md §9 5-star rating badge by brand (journeys/brands: rating_badge): pos shows it on
/// Lifetime except 2,500 and Max Benefit except 3,000; ptp from the 7,000 limit; pdsa never.
#[tokio::test]
async fn the_rating_badge_follows_the_brands_variant() {
    let pos = rated_products("pos").await;
    assert!(!pos.is_empty());
    for (code, rated) in &pos {
        let expected = (code.starts_with("LT") && code != "LT02500")
            || (code.starts_with("MB") && code != "MB03000");
        assert_eq!(*rated, expected, "pos {code}");
    }
    for (code, rated) in rated_products("ptp").await {
        let limit: u32 = code[2..].parse().expect("limit");
        let expected = (code.starts_with("LT") || code.starts_with("MB")) && limit >= 7000;
        assert_eq!(rated, expected, "ptp {code}");
    }
    assert!(rated_products("pdsa").await.iter().all(|(_, rated)| !rated));
}

/// The badge on ptp's review and then confirmation for a dog bought with `code`.
async fn ptp_badges(code: &str) -> (bool, bool) {
    let app = spawn_app().await;
    app.view("/quote?brand=ptp").await;
    let (status, body) = app.save_pets(json!([valid_pet()])).await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = app.save_owner(valid_owner()).await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = app
        .save_cover(json!([{ "product": { "Code": code } }]))
        .await;
    assert_eq!(status, 200, "{body}");
    let chosen = |view: &Value| {
        view["products"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|p| p["Code"] == code)
            .and_then(|p| p["Rated"].as_bool())
            .unwrap_or_else(|| panic!("the chosen product in {}", view["products"]))
    };
    let review = chosen(&body["data"]);
    app.declare_dogs(1).await;
    let (status, body) = app
        .pay_by_direct_debit_and_buy(&format!("badge-{code}"))
        .await;
    assert_eq!(status, 200, "{body}");
    let confirmation = app.view("/quote/confirmation").await;
    (review, chosen(&confirmation))
}

/// journey.md §9: "review 7000 and confirmation 8000 for LT and MB": the confirmation page shows
/// the badge of what was bought, by its own threshold (the rate table has no limit between the
/// two, so the engine's unit test `the_badge_follows_journey_md_section_9` holds the 7,000 case):
/// on ptp an 8,000 Lifetime has it on both pages, a 6,000 on neither.
#[tokio::test]
async fn the_confirmation_shows_the_badge_of_what_was_bought() {
    assert_eq!(ptp_badges("LT08000").await, (true, true));
    assert_eq!(ptp_badges("LT06000").await, (false, false));
}

/// journey.md §1, owner-payment.md §1: "A specific tracking token name switches the sales
/// number": a visitor arriving with a token the brand knows is given its number for the quote.
#[tokio::test]
async fn a_tracking_token_switches_the_sales_number() {
    let app = spawn_app().await;
    let client = visitor();
    let (_, data) = view_as(&app, &client, "/quote?brand=sbp&tracking_token=tv_campaign").await;
    assert_eq!(data["shell"]["phone"], "01632 960101");
    let (_, later) = view_as(&app, &client, "/quote/your-details").await;
    assert_eq!(
        later["shell"]["phone"], "01632 960101",
        "kept with the quote"
    );
    let (_, unknown) = view_as(&app, &visitor(), "/quote?brand=sbp&tracking_token=nosuch").await;
    assert_eq!(unknown["shell"]["phone"], "0808 157 0100");
}

/// owner-payment.md §2 Bank details panel: the full account number shows there and nowhere else,
/// not even in a static page or the retrieve page drawn while the panel is the furthest step.
#[tokio::test]
async fn the_account_number_stays_on_the_bank_details_panel() {
    let app = spawn_app().await;
    app.reach_payment(json!([valid_pet()])).await;
    let csrf = app.csrf().await;
    let (status, body) = app
        .post_json(
            "/api/setup-payment",
            &json!({ "csrf": csrf, "payment": {
                "payment_method": "DD", "payment_frequency": "MP", "account_name": "Ada ONeill",
                "sort_code": "08-99-99", "account_number": "66374958", "payment_day": 15,
                "dd_confirmation": true } }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let panel = app.view("/quote/payment-confirmation").await;
    assert_eq!(panel["bank_details"]["account_number"], "66374958");
    for path in [
        "/quote/privacy-cookie-policy",
        "/quote/contact-and-faqs",
        "/quote/retrieve-quote",
    ] {
        let data = app.view(path).await;
        assert!(
            !data.to_string().contains("66374958"),
            "{path} shows the account number"
        );
    }
}
