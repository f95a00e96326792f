//! The CSRF token of the page's own calls is checked before their body is read
//! (server/src/http/csrf.rs).

use crate::common::*;

use serde_json::{Value, json};

/// The CSRF token is checked before the body is read (server/src/http/csrf.rs): a body that
/// cannot be read, sent with no token in the header, is refused as a missing token (403), and a
/// wrong token in the header is refused whatever the body; with the page's token, the same bad
/// body is named (400).
#[tokio::test]
async fn the_csrf_token_is_checked_before_the_body() {
    let app = spawn_app().await;
    let csrf = app.csrf().await;
    let url = format!("{}/api/petdetails", app.base);
    let post = |body: &'static str, token: Option<&str>| {
        let mut req = app
            .client
            .post(&url)
            .header("Content-Type", "application/json")
            .body(body);
        if let Some(token) = token {
            req = req.header("X-CSRF-Token", token.to_owned());
        }
        async move {
            let r = req.send().await.expect("post");
            let status = r.status().as_u16();
            (status, r.json::<Value>().await.unwrap_or(Value::Null))
        }
    };
    let (status, body) = post("{\"pets\": [", None).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (403, Some("csrf")),
        "{body}"
    );
    let (status, body) = post("{\"pets\": []}", Some("not-the-token")).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (403, Some("csrf")),
        "{body}"
    );
    let (status, body) = post("{\"pets\": [", Some(&csrf)).await;
    assert_eq!(status, 400, "{body}");
    assert!(body.to_string().contains("not valid JSON"), "{body}");
    assert_eq!(app.stored_pets().await, json!([]));
}
