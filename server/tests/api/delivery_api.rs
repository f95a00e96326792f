//! How pages and files are delivered (fast on a phone): every text answer compressed
//! as the browser asks, hashed files kept a year and sent precompressed, source maps never
//! served, and the CSRF token masked afresh in every answer (compressed answers must not repeat
//! a secret byte for byte: BREACH).

use crate::common;

use std::io::{Read, Write};

use common::{spawn_app, valid_pet};
use serde_json::{Value, json};

fn brotli(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut w = brotli::CompressorWriter::new(&mut out, 4096, 5, 22);
        w.write_all(bytes).expect("brotli");
    }
    out
}

fn unbrotli(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    brotli::Decompressor::new(bytes, 4096)
        .read_to_end(&mut out)
        .expect("a brotli stream");
    out
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut w = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    w.write_all(bytes).expect("gzip");
    w.finish().expect("gzip")
}

fn gunzip(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(bytes)
        .read_to_end(&mut out)
        .expect("a gzip stream");
    out
}

/// The HTML shell at `path`, with the characters minijinja escapes in attribute values (`/`, `'`)
/// read back as the browser reads them.
async fn shell_html(app: &common::TestApp, path: &str) -> String {
    app.client
        .get(format!("{}{path}", app.base))
        .send()
        .await
        .expect("get")
        .text()
        .await
        .expect("html")
        .replace("&#x2f;", "/")
        .replace("&#x27;", "'")
}

fn header(r: &reqwest::Response, name: &str) -> Option<String> {
    r.headers()
        .get(name)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
}

#[tokio::test]
async fn every_text_answer_is_compressed_as_the_browser_asks() {
    let app = spawn_app().await;
    let get = |path: &str, accept: &str, encodings: Option<&str>| {
        let mut b = app
            .client
            .get(format!("{}{path}", app.base))
            .header("Accept", accept);
        if let Some(e) = encodings {
            b = b.header("Accept-Encoding", e);
        }
        b.send()
    };
    // The view data: brotli when the browser accepts it, else gzip, else as it is.
    let plain = get("/quote/", "application/json", None).await.expect("get");
    assert_eq!(header(&plain, "content-encoding"), None);
    assert!(
        header(&plain, "vary").is_some_and(|v| v.contains("accept-encoding")),
        "caches keep a copy per encoding"
    );
    let plain: Value = plain.json().await.expect("json");

    let r = get(
        "/quote/",
        "application/json",
        Some("gzip, deflate, br, zstd"),
    )
    .await
    .expect("get");
    assert_eq!(header(&r, "content-encoding").as_deref(), Some("br"));
    assert_eq!(header(&r, "cache-control").as_deref(), Some("no-store"));
    let body = r.bytes().await.expect("body");
    let view: Value = serde_json::from_slice(&unbrotli(&body)).expect("json");
    assert_eq!(view["data"]["step"]["id"], plain["data"]["step"]["id"]);
    assert!(body.len() < serde_json::to_vec(&view).expect("json").len());

    let r = get("/quote/", "application/json", Some("gzip"))
        .await
        .expect("get");
    assert_eq!(header(&r, "content-encoding").as_deref(), Some("gzip"));
    let view: Value =
        serde_json::from_slice(&gunzip(&r.bytes().await.expect("body"))).expect("json");
    assert_eq!(view["data"]["step"]["id"], plain["data"]["step"]["id"]);

    // The HTML shell and a definitions resource too.
    let r = get("/quote?brand=pos", "text/html", Some("br"))
        .await
        .expect("get");
    assert_eq!(header(&r, "content-encoding").as_deref(), Some("br"));
    assert_eq!(header(&r, "cache-control").as_deref(), Some("no-cache"));
    let html = String::from_utf8(unbrotli(&r.bytes().await.expect("body"))).expect("utf-8");
    assert!(html.contains("pawpath-boot"));
    let copy_url = plain["data"]["copy_url"].as_str().expect("copy_url");
    let r = get(copy_url, "application/json", Some("br"))
        .await
        .expect("get");
    assert_eq!(header(&r, "content-encoding").as_deref(), Some("br"));
    assert_eq!(
        header(&r, "cache-control").as_deref(),
        Some("public, max-age=31536000, immutable")
    );
}

#[tokio::test]
async fn the_csrf_token_is_masked_afresh_in_each_answer_and_each_mask_is_accepted() {
    let app = spawn_app().await;
    let first = app.csrf().await;
    let second = app.csrf().await;
    assert_ne!(first, second, "no two answers carry the same token bytes");
    for csrf in [&first, &second] {
        let (status, body) = app
            .post_json(
                "/api/petdetails",
                &json!({ "csrf": csrf, "pets": [valid_pet()] }),
            )
            .await;
        assert_eq!(status, 200, "{body}");
    }
    // Another session's token is still refused.
    let other = app.another_visitor().await.csrf().await;
    let (status, _) = app
        .post_json(
            "/api/petdetails",
            &json!({ "csrf": other, "pets": [valid_pet()] }),
        )
        .await;
    assert_eq!(status, 403);
}

#[tokio::test]
async fn hashed_files_are_kept_a_year_sent_precompressed_and_source_maps_never_served() {
    let app = spawn_app().await;
    let assets = app.data_dir.join("static").join("assets");
    std::fs::create_dir_all(&assets).expect("assets folder");
    let script = "export const greeting = 'hello, hello, hello, hello';\n".repeat(50);
    std::fs::write(assets.join("app-3f9a1c.js"), &script).expect("write");
    std::fs::write(assets.join("app-3f9a1c.js.br"), brotli(script.as_bytes())).expect("write");
    std::fs::write(assets.join("app-3f9a1c.js.gz"), gzip(script.as_bytes())).expect("write");
    std::fs::write(assets.join("app-3f9a1c.js.map"), "{\"version\":3}").expect("write");
    let get = |path: &str, encodings: &str| {
        app.client
            .get(format!("{}/quote/assets/{path}", app.base))
            .header("Accept-Encoding", encodings)
            .send()
    };
    for (encodings, expected, decode) in [
        (
            "gzip, deflate, br",
            Some("br"),
            unbrotli as fn(&[u8]) -> Vec<u8>,
        ),
        ("gzip", Some("gzip"), gunzip),
        ("identity", None, |b: &[u8]| b.to_vec()),
    ] {
        let r = get("app-3f9a1c.js", encodings).await.expect("get");
        assert_eq!(r.status(), 200, "{encodings}");
        assert_eq!(header(&r, "content-encoding").as_deref(), expected);
        assert_eq!(
            header(&r, "cache-control").as_deref(),
            Some("public, max-age=31536000, immutable"),
            "{encodings}"
        );
        assert!(
            header(&r, "content-type").is_some_and(|t| t.contains("javascript")),
            "{encodings}"
        );
        let body = r.bytes().await.expect("body");
        assert_eq!(decode(&body), script.as_bytes(), "{encodings}");
    }
    // A file that is not there is not kept.
    let r = get("app-000000.js", "br").await.expect("get");
    assert_eq!(r.status(), 404);
    assert_eq!(header(&r, "cache-control").as_deref(), Some("no-store"));
    // A source map is never served, even one left in the folder.
    let r = get("app-3f9a1c.js.map", "br").await.expect("get");
    assert_eq!(r.status(), 404);
}

#[tokio::test]
async fn the_breed_lists_are_at_an_address_of_the_definitions_version_kept_a_year() {
    let app = spawn_app().await;
    let html = app
        .client
        .get(format!("{}/quote?brand=pos", app.base))
        .send()
        .await
        .expect("get")
        .text()
        .await
        .expect("html");
    let boot = common::boot_of(&html);
    let url = boot["breeds_url"].as_str().expect("breeds_url");
    assert!(
        url.starts_with("/quote/definitions/") && url.ends_with("/breeds"),
        "{url}"
    );
    let r = app
        .client
        .get(format!("{}{url}", app.base))
        .send()
        .await
        .expect("get");
    assert_eq!(r.status(), 200);
    assert_eq!(
        header(&r, "cache-control").as_deref(),
        Some("public, max-age=31536000, immutable")
    );
    let lists: Value = r.json().await.expect("json");
    let call: Value = app
        .client
        .get(format!("{}/api/getbreedlist", app.base))
        .send()
        .await
        .expect("get")
        .json()
        .await
        .expect("json");
    assert_eq!(lists, call, "the same lists as the breed list call");
    assert!(
        lists["data"]["dog_breed_data"]["breedData"]
            .as_array()
            .is_some_and(|l| !l.is_empty())
    );
    // An address from other definitions is sent on to today's, uncached.
    common::assert_moved_on(&app, "/quote/definitions/0000-old/breeds", url).await;
}

/// The breed lists (about 90 KB) are written and compressed once per definitions
/// version, then sent as they are, in the coding the browser accepts, at both their addresses.
#[tokio::test]
async fn the_breed_lists_are_made_once_and_sent_in_the_coding_asked_for() {
    let app = spawn_app().await;
    let get = |path: String, encodings: Option<&'static str>| {
        let mut b = app.client.get(format!("{}{path}", app.base));
        if let Some(e) = encodings {
            b = b.header("Accept-Encoding", e);
        }
        b.send()
    };
    let plain = get("/api/getbreedlist".into(), None).await.expect("get");
    assert_eq!(header(&plain, "content-encoding"), None);
    assert_eq!(header(&plain, "vary").as_deref(), Some("accept-encoding"));
    let plain = plain.bytes().await.expect("body");
    let lists: Value = serde_json::from_slice(&plain).expect("json");
    assert!(
        lists["data"]["cat_breed_data"]
            .as_array()
            .is_some_and(|l| !l.is_empty())
    );

    let versioned = {
        let html = get("/quote?brand=pos".into(), None)
            .await
            .expect("get")
            .text()
            .await
            .expect("html");
        common::boot_of(&html)["breeds_url"]
            .as_str()
            .expect("breeds_url")
            .to_owned()
    };
    for path in ["/api/getbreedlist".to_owned(), versioned] {
        let r = get(path.clone(), Some("gzip, deflate, br, zstd"))
            .await
            .expect("get");
        assert_eq!(
            header(&r, "content-encoding").as_deref(),
            Some("br"),
            "{path}"
        );
        assert_eq!(header(&r, "vary").as_deref(), Some("accept-encoding"));
        let body = r.bytes().await.expect("body");
        assert!(
            body.len() * 4 < plain.len(),
            "{path}: {} B as brotli",
            body.len()
        );
        assert_eq!(unbrotli(&body), plain, "{path}: the same lists as brotli");

        let r = get(path.clone(), Some("gzip")).await.expect("get");
        assert_eq!(
            header(&r, "content-encoding").as_deref(),
            Some("gzip"),
            "{path}"
        );
        assert_eq!(
            gunzip(&r.bytes().await.expect("body")),
            plain,
            "{path}: as gzip"
        );

        // A coding refused with q=0 is not used.
        let r = get(path.clone(), Some("br;q=0, gzip;q=0.5"))
            .await
            .expect("get");
        assert_eq!(
            header(&r, "content-encoding").as_deref(),
            Some("gzip"),
            "{path}"
        );
        let r = get(path.clone(), Some("identity")).await.expect("get");
        assert_eq!(header(&r, "content-encoding"), None, "{path}");
        assert_eq!(r.bytes().await.expect("body"), plain, "{path}: as it is");
    }
}

/// The first page's view data is asked for beside the script: the HTML preloads it
/// from `/api/view`, whose answer is the page's own JSON answer, and preloads the breed lists.
#[tokio::test]
async fn the_shell_preloads_its_view_data_from_an_address_that_answers_it() {
    let app = spawn_app().await;
    let html = app
        .client
        .get(format!("{}/quote?brand=sbp", app.base))
        .send()
        .await
        .expect("get")
        .text()
        .await
        .expect("html");
    let boot = common::boot_of(&html);
    let url = boot["view_url"].as_str().expect("view_url");
    assert_eq!(url, "/api/view?path=/quote%3Fbrand%3Dsbp");
    // minijinja writes attribute values with / as &#x2f;; the browser reads them back.
    let preloads: Vec<String> = html
        .split(r#"<link rel="preload" as="fetch" crossorigin href=""#)
        .skip(1)
        .filter_map(|rest| rest.split_once('"'))
        .map(|(href, _)| href.replace("&#x2f;", "/"))
        .collect();
    assert_eq!(preloads.len(), 2, "{preloads:?}");
    assert_eq!(preloads[0], url);
    // The first step's form, at the address its view data names.
    assert!(
        preloads[1].starts_with("/quote/definitions/")
            && preloads[1].ends_with("/questions/sbp/en-GB/pet_details"),
        "{preloads:?}"
    );
    // The breed lists too, after what the first paint needs.
    let breeds = boot["breeds_url"].as_str().expect("breeds_url");
    assert!(
        html.replace("&#x2f;", "/").contains(&format!(
            r#"<link rel="preload" as="fetch" crossorigin fetchpriority="low" href="{breeds}""#
        )),
        "{html}"
    );
    // What a preload asks with: no Accept of JSON, and no session yet.
    let r = app
        .client
        .get(format!("{}{url}", app.base))
        .header("Accept", "*/*")
        .send()
        .await
        .expect("get");
    assert_eq!(r.status(), 200);
    assert_eq!(header(&r, "cache-control").as_deref(), Some("no-store"));
    assert!(
        header(&r, "set-cookie").is_some(),
        "a new visitor gets a session, as on the page"
    );
    let data: Value = r.json().await.expect("json");
    assert_eq!(data["data"]["brand"], "sbp");
    assert_eq!(data["data"]["step"]["id"], "pet_details");
    // The same as the page asked for as JSON (the session's own token aside).
    let page: Value = app
        .client
        .get(format!("{}/quote?brand=sbp", app.base))
        .header("Accept", "application/json")
        .send()
        .await
        .expect("get")
        .json()
        .await
        .expect("json");
    assert_eq!(page["data"]["step"], data["data"]["step"]);
    assert_eq!(page["data"]["qidu"], data["data"]["qidu"], "the same quote");
    assert_eq!(data["data"]["questions"]["form"], preloads[1].as_str());
}

/// The HTML carries the frame the page is first painted with: the brand's header and
/// footer in its own words, with the sales number for its channel, so the largest paint needs no
/// script. tests/e2e/first-paint.spec.ts checks it is the markup React draws.
#[tokio::test]
async fn the_shell_carries_the_brands_frame_for_the_first_paint() {
    let app = spawn_app().await;
    let html = shell_html(&app, "/quote?brand=sbp").await;
    let root = html
        .split_once(r#"<div id="root">"#)
        .and_then(|(_, rest)| rest.split_once("</div>\n"))
        .map(|(root, _)| root)
        .unwrap_or_else(|| panic!("no root in {html}"));
    for part in [
        r##"<a class="skip-link" href="#main">Skip to main content</a>"##,
        r#"<img alt="" height="48" src="/quote/brand/sbp/logo.svg">"#,
        r#"<a href="tel:08081570100">Call us on 0808 157 0100</a>"#,
        r#"<main id="main" class="main" tabindex="-1"><noscript>"#,
        r#"<li><a href="/quote/privacy-cookie-policy">Privacy and cookies</a></li>"#,
        // The trading disclosures from the brand's settings (Companies Act 2006 and
        // the Trading Disclosures Regulations 2015, FCA GEN 4 Annex 1): name, number, office, FRN.
        "Small Beasts Pet Plan is a trading name of Small Beasts Cover Limited, registered in Scotland (company number SC990123), registered office 12 Warren Lane, Examplebridge, EH99 1ZZ. Small Beasts Cover Limited is authorised and regulated by the Financial Conduct Authority (firm reference number 9990123).",
    ] {
        assert!(root.contains(part), "{part} not in {root}");
    }
    // In the brand's first language.
    let french = shell_html(&app, "/quote?brand=rcfr").await;
    assert!(
        french.contains(
            "Refuge Compagnons est un nom commercial de Refuge Compagnons Assurances Limited"
        ),
        "{french}"
    );
}

/// `/api/view` takes a page's address on this site and nothing else, with an error naming
/// `path`, and makes no session for what it refuses.
#[tokio::test]
async fn the_view_address_refuses_what_is_not_a_page_of_this_site() {
    let app = spawn_app().await;
    let long = format!("/quote?x={}", "a".repeat(3000));
    for (query, why) in [
        ("", "no path"),
        ("?path=", "empty"),
        ("?path=quote", "relative"),
        ("?path=http%3A%2F%2Fevil.example%2Fquote", "another site"),
        (
            "?path=%2F%2Fevil.example%2Fquote",
            "another site, scheme-relative",
        ),
        (&format!("?path={long}")[..], "too long"),
    ] {
        let r = app
            .client
            .get(format!("{}/api/view{query}", app.base))
            .send()
            .await
            .expect("get");
        assert_eq!(r.status(), 400, "{why}");
        assert!(header(&r, "set-cookie").is_none(), "{why}");
        let body: Value = r.json().await.expect("json");
        assert!(body.to_string().contains("path"), "{why}: {body}");
    }
    // A page of no journey is not found, as it is at its own address.
    let r = app
        .client
        .get(format!(
            "{}/api/view?path=%2Fquote%2Fno-such-page",
            app.base
        ))
        .send()
        .await
        .expect("get");
    assert_eq!(r.status(), 404);
}

/// The brand's stylesheet at the address the shell links (with the definitions version) is kept
/// a year, so a returning visit fetches no stylesheet; without the version, five minutes.
#[tokio::test]
async fn the_brand_stylesheet_at_the_shells_address_is_kept_a_year() {
    let app = spawn_app().await;
    let html = shell_html(&app, "/quote?brand=pos").await;
    let href = html
        .split_once(r#"<link rel="stylesheet" href=""#)
        .and_then(|(_, rest)| rest.split_once('"'))
        .map(|(href, _)| href.to_owned())
        .expect("the theme link");
    assert!(href.starts_with("/quote/brand/pos/theme.css?v="), "{href}");
    let cache = |path: String| {
        let client = app.client.clone();
        let base = app.base.clone();
        async move {
            let r = client
                .get(format!("{base}{path}"))
                .send()
                .await
                .expect("get");
            assert_eq!(r.status(), 200);
            header(&r, "cache-control")
        }
    };
    assert_eq!(
        cache(href).await.as_deref(),
        Some("public, max-age=31536000, immutable")
    );
    assert_eq!(
        cache("/quote/brand/pos/theme.css".into()).await.as_deref(),
        Some("public, max-age=300")
    );
    assert_eq!(
        cache("/quote/brand/pos/theme.css?v=0000-old".into())
            .await
            .as_deref(),
        Some("public, max-age=300")
    );
}
