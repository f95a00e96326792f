//! Consent before tags (following the ICO's guidance on cookies and similar
//! technologies): a brand's tag manager is never in its HTML; the cookie banner is drawn in the
//! first paint until the customer has chosen, with the brand's choice read from its own cookie;
//! the content security policy allows a tag manager's origins on its own brand's pages only; the
//! privacy page says what each brand's pages do. The browser side (nothing requested before
//! consent, events after) is tests/e2e/consent.spec.ts.

use crate::common;

use common::*;
use serde_json::Value;

/// The HTML of a brand's first page for a new visitor sending `cookie`: its policy, the cookies it
/// sets and its text (minijinja writes `/` in an attribute as `&#x2f;`, read here as `/`).
async fn first_page(
    app: &TestApp,
    brand: &str,
    cookie: Option<&str>,
) -> (String, Vec<String>, String) {
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("client");
    let mut request = client
        .get(format!("{}/quote?brand={brand}", app.base))
        .header("accept", "text/html");
    if let Some(cookie) = cookie {
        request = request.header("cookie", cookie);
    }
    let r = request.send().await.expect("get");
    assert_eq!(r.status(), 200);
    let policy = r.headers()["content-security-policy"]
        .to_str()
        .expect("policy")
        .to_owned();
    let set = r
        .headers()
        .get_all("set-cookie")
        .iter()
        .map(|v| {
            v.to_str()
                .expect("cookie")
                .split('=')
                .next()
                .unwrap_or("")
                .to_owned()
        })
        .collect();
    (
        policy,
        set,
        r.text().await.expect("html").replace("&#x2f;", "/"),
    )
}

fn directive<'a>(policy: &'a str, name: &str) -> &'a str {
    policy
        .split(';')
        .map(str::trim)
        .find(|d| d.starts_with(name))
        .unwrap_or_else(|| panic!("{name} in {policy}"))
}

/// The paragraphs of the privacy page's cookie section, for a brand.
async fn cookie_policy(app: &TestApp, brand: &str) -> String {
    app.view(&format!("/quote?brand={brand}")).await;
    let page = app.view("/quote/privacy-cookie-policy").await;
    let sections = page["page"]["sections"].as_array().expect("sections");
    let cookies: Vec<&Value> = sections
        .iter()
        .filter(|s| s["heading"] == "Cookies")
        .collect();
    assert_eq!(cookies.len(), 1, "one cookie section: {sections:?}");
    cookies[0]["paragraphs"].to_string()
}

#[tokio::test]
async fn no_tag_manager_in_the_html_and_the_banner_until_the_brand_s_own_choice() {
    let app = spawn_app().await;
    let (policy, set, html) = first_page(&app, "ptp", None).await;
    // Nothing non-essential before the choice: no tag manager script, and the HTML sets no cookie
    // (the session's comes with the page's first call).
    assert!(
        !html.contains("<script id=\"pawpath-tag-manager\""),
        "{html}"
    );
    assert!(
        !html.contains("<script async src=\"https://www.googletagmanager.com"),
        "{html}"
    );
    assert!(set.is_empty(), "{set:?}");
    // The banner, first in the page, with its two equal buttons, and the footer's way back to it.
    let banner = html.find("<div class=\"cookie-banner\"").expect("banner");
    assert!(banner < html.find("class=\"skip-link\"").expect("skip link"));
    assert!(html.contains(
        "<button type=\"button\" class=\"button cookie-banner__button\">Accept analytics cookies</button><button type=\"button\" class=\"button cookie-banner__button\">Reject analytics cookies</button>"
    ));
    assert!(html.contains("set by Google Tag Manager"), "{html}");
    assert!(
        html.contains("<button type=\"button\" class=\"footer__cookies\">Cookie settings</button>")
    );
    // Its origins are allowed on its pages, for when the customer accepts.
    for name in ["script-src", "connect-src", "img-src"] {
        let part = directive(&policy, name);
        assert!(
            part.contains("https://www.googletagmanager.com")
                && part.contains("https://www.google-analytics.com"),
            "{part}"
        );
    }
    assert!(!policy.contains("unsafe-eval"), "{policy}");

    // A choice made (either way) is not asked again; another brand's choice, or a value the page
    // never writes, is no choice for this one.
    for (cookie, asked) in [
        ("pawpath_consent_ptp=denied", false),
        ("pawpath_consent_ptp=granted", false),
        ("other=1; pawpath_consent_ptp=granted; x=y", false),
        ("pawpath_consent_pos=granted", true),
        ("pawpath_consent_ptp=yes", true),
        ("pawpath_consent_ptpx=denied", true),
    ] {
        let (_, _, html) = first_page(&app, "ptp", Some(cookie)).await;
        assert_eq!(html.contains("class=\"cookie-banner\""), asked, "{cookie}");
        assert!(
            html.contains("class=\"footer__cookies\""),
            "{cookie}: settings in the footer"
        );
        assert!(
            !html.contains("<script id=\"pawpath-tag-manager\""),
            "{cookie}: the page loads it, not the HTML"
        );
    }

    // The page is told what it needs to load it on acceptance.
    app.view("/quote?brand=ptp").await;
    let shell = &app.view("/quote").await["shell"];
    assert_eq!(
        shell["tag_manager"]["script"],
        "https://www.googletagmanager.com/gtm.js?id=GTM-PTPPAWS"
    );
    assert_eq!(shell["tag_manager"]["ask_again_after_days"], 365);

    // The privacy page says what this brand's pages do.
    let said = cookie_policy(&app, "ptp").await;
    assert!(
        said.contains("Only if you accept analytics cookies do we load Google Tag Manager"),
        "{said}"
    );
    assert!(
        said.contains("remembers your choice for 365 days"),
        "{said}"
    );
    assert!(
        !said.contains("We use one cookie, and it is strictly necessary"),
        "{said}"
    );
}

#[tokio::test]
async fn a_brand_s_tag_manager_is_allowed_on_its_own_pages_only_and_a_brand_without_one_asks_nothing()
 {
    // A copy of the definitions: ptp's tag manager at origins of its own, pos with none.
    let dir = tempfile::tempdir().expect("tempdir");
    copy_definitions(dir.path());
    let edit = |file: &str, change: &dyn Fn(&mut Value)| {
        let path = dir.path().join(file);
        let mut value: Value =
            serde_json::from_str(&std::fs::read_to_string(&path).expect("read")).expect("json");
        change(&mut value);
        std::fs::write(&path, serde_json::to_string_pretty(&value).expect("json")).expect("write");
    };
    edit("journeys/brands/ptp.json", &|b| {
        b["tracking"]["tag_manager"]["script"] =
            "https://tags.ptp.example/gtm.js?id=GTM-PTPPAWS".into();
        b["tracking"]["tag_manager"]["origins"] =
            serde_json::json!(["https://tags.ptp.example", "https://stats.ptp.example"]);
    });
    edit("journeys/brands/pos.json", &|b| {
        b["tracking"]
            .as_object_mut()
            .expect("tracking")
            .remove("tag_manager");
    });
    let app = Spawn::new().definitions(dir.path()).start().await;

    let (ptp, _, _) = first_page(&app, "ptp", None).await;
    assert!(
        directive(&ptp, "script-src").contains("https://tags.ptp.example"),
        "{ptp}"
    );
    assert!(
        directive(&ptp, "connect-src").contains("https://stats.ptp.example"),
        "{ptp}"
    );
    for brand in ["pos", "sbp"] {
        let (policy, _, _) = first_page(&app, brand, None).await;
        assert!(!policy.contains("ptp.example"), "{brand}: {policy}");
    }
    let (policy, set, html) = first_page(&app, "pos", None).await;
    assert!(
        directive(&policy, "script-src").starts_with("script-src 'self'"),
        "{policy}"
    );
    assert!(!policy.contains("googletagmanager"), "{policy}");
    assert!(set.is_empty(), "{set:?}");
    assert!(!html.contains("cookie-banner"), "no tags, nothing to ask");
    assert!(!html.contains("footer__cookies"));
    let said = cookie_policy(&app, "pos").await;
    assert!(
        said.contains("We use one cookie, and it is strictly necessary"),
        "{said}"
    );
    assert!(!said.contains("Tag Manager"), "{said}");
}
