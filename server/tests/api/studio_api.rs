//! The studio's door: named staff made with `pawpath staff`, signed in with a password kept as
//! its argon2id hash, a session of their own that ends on sign-out, when idle, or when the
//! account is disabled; a signed-out request gets the sign-in page and nothing else; every form
//! carries the studio cookie's CSRF token; sign-ins are limited per address and account.

use std::io::Write;
use std::process::{Command, Stdio};

use crate::common::{TestApp, spawn_app};

const PASSWORD: &str = "correct horse battery staple";

/// `pawpath staff …` against the test server's database, with `stdin` as its standard input.
fn staff(app: &TestApp, args: &[&str], stdin: &str) -> (bool, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pawpath"))
        .arg("staff")
        .args(args)
        .env("DATABASE_URL", &app.database_url)
        .env("PAWPATH_DATA_DIR", &app.data_dir)
        .env("PAWPATH_DEFINITIONS", &app.definitions_root)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run pawpath staff");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes())
        .expect("write the password");
    let out = child.wait_with_output().expect("pawpath staff");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn add(app: &TestApp, email: &str, role: &str) {
    let (ok, out, err) = staff(
        app,
        &[
            "add",
            "--email",
            email,
            "--name",
            "Ada Lovelace",
            "--role",
            role,
        ],
        &format!("{PASSWORD}\n"),
    );
    assert!(ok, "{out}{err}");
}

/// A browser of the studio's: keeps its cookies, follows no redirect.
fn browser() -> reqwest::Client {
    reqwest::Client::builder()
        .cookie_store(true)
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("client")
}

/// The sign-in page's CSRF token (the page sets the studio cookie it belongs to).
async fn sign_in_token(app: &TestApp, browser: &reqwest::Client) -> String {
    let page = browser
        .get(format!("{}/studio/sign-in", app.base))
        .send()
        .await
        .expect("sign-in page")
        .text()
        .await
        .expect("page");
    let at = page.find("name=\"csrf\" value=\"").expect("the csrf field") + 19;
    page[at..].split('"').next().expect("token").to_owned()
}

async fn sign_in(
    app: &TestApp,
    browser: &reqwest::Client,
    email: &str,
    password: &str,
) -> reqwest::Response {
    let csrf = sign_in_token(app, browser).await;
    browser
        .post(format!("{}/studio/sign-in", app.base))
        .form(&[("email", email), ("password", password), ("csrf", &csrf)])
        .send()
        .await
        .expect("sign in")
}

async fn studio(app: &TestApp, browser: &reqwest::Client) -> reqwest::Response {
    browser
        .get(format!("{}/studio", app.base))
        .send()
        .await
        .expect("studio")
}

#[tokio::test]
async fn a_signed_out_request_gets_the_sign_in_page_and_nothing_else() {
    let app = spawn_app().await;
    let browser = browser();
    let r = studio(&app, &browser).await;
    assert_eq!(r.status(), 303);
    assert_eq!(r.headers()["location"], "/studio/sign-in");
    let r = browser
        .get(format!("{}/studio/sign-in", app.base))
        .send()
        .await
        .expect("sign-in");
    assert_eq!(r.status(), 200);
    let cookie = r.headers()["set-cookie"]
        .to_str()
        .expect("cookie")
        .to_owned();
    assert!(cookie.starts_with("pawpath_staff="), "{cookie}");
    for part in ["HttpOnly", "SameSite=Strict", "Path=/studio"] {
        assert!(cookie.contains(part), "{cookie} lacks {part}");
    }
    let policy = r.headers()["content-security-policy"]
        .to_str()
        .expect("policy")
        .to_owned();
    assert!(policy.contains("default-src 'none'"), "{policy}");
    assert!(
        !policy.contains("script-src"),
        "no script on the studio's pages: {policy}"
    );
    let page = r.text().await.expect("page");
    assert!(page.contains("<h1>Sign in to the studio</h1>"));
    assert!(page.contains("autocomplete=\"current-password\""));
    // A session token made up, or the customer's cookie, opens nothing.
    let r = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("client")
        .get(format!("{}/studio", app.base))
        .header(
            "Cookie",
            "pawpath_staff=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA; pawpath_session=x",
        )
        .send()
        .await
        .expect("studio");
    assert_eq!(r.status(), 303);
}

#[tokio::test]
async fn a_member_signs_in_sees_their_role_and_signs_out() {
    let app = spawn_app().await;
    add(&app, "Ada@Example.com", "editor");
    let browser = browser();
    let r = sign_in(&app, &browser, "ada@example.com", PASSWORD).await;
    assert_eq!(r.status(), 303);
    assert_eq!(r.headers()["location"], "/studio");
    let cookie = r.headers()["set-cookie"]
        .to_str()
        .expect("cookie")
        .to_owned();
    assert!(cookie.contains("Max-Age=28800"), "eight hours: {cookie}");
    let r = studio(&app, &browser).await;
    assert_eq!(r.status(), 200);
    let page = r.text().await.expect("page");
    assert!(
        page.contains("Ada Lovelace (ada@example.com), editor"),
        "{page}"
    );
    assert!(page.contains("As an editor you may change drafts"));
    assert!(page.contains(">direct</a></th>"), "{page}");
    // Signed in, the sign-in page goes on to the studio.
    let r = browser
        .get(format!("{}/studio/sign-in", app.base))
        .send()
        .await
        .expect("sign-in");
    assert_eq!(r.status(), 303);

    // Sign-out needs the page's token; then the session is gone.
    let at = page.find("name=\"csrf\" value=\"").expect("csrf") + 19;
    let csrf = page[at..].split('"').next().expect("token").to_owned();
    let r = browser
        .post(format!("{}/studio/sign-out", app.base))
        .form(&[("csrf", "not the token")])
        .send()
        .await
        .expect("sign out");
    assert_eq!(r.status(), 403);
    assert_eq!(studio(&app, &browser).await.status(), 200);
    let r = browser
        .post(format!("{}/studio/sign-out", app.base))
        .form(&[("csrf", csrf.as_str())])
        .send()
        .await
        .expect("sign out");
    assert_eq!(r.status(), 303);
    assert_eq!(r.headers()["location"], "/studio/sign-in");
    assert_eq!(studio(&app, &browser).await.status(), 303);
}

#[tokio::test]
async fn a_wrong_password_an_unknown_address_and_a_disabled_account_read_the_same() {
    let app = spawn_app().await;
    add(&app, "ada@example.com", "publisher");
    let refused = "That email address and password do not match an account that may sign in.";
    for (email, password) in [
        ("ada@example.com", "not the password at all"),
        ("nobody@example.com", PASSWORD),
        ("not an address", PASSWORD),
    ] {
        let browser = browser();
        let r = sign_in(&app, &browser, email, password).await;
        assert_eq!(r.status(), 422, "{email}");
        let page = r.text().await.expect("page");
        assert!(page.contains(refused), "{email}: {page}");
        assert!(page.contains("<title>Error: Sign in"));
        assert_eq!(studio(&app, &browser).await.status(), 303);
    }
    // A session open when its account is disabled ends at once; the account signs in no more.
    let browser = browser();
    assert_eq!(
        sign_in(&app, &browser, "ada@example.com", PASSWORD)
            .await
            .status(),
        303
    );
    assert_eq!(studio(&app, &browser).await.status(), 200);
    let (ok, out, err) = staff(&app, &["disable", "--email", "ADA@example.com"], "");
    assert!(ok, "{out}{err}");
    assert_eq!(studio(&app, &browser).await.status(), 303);
    let r = sign_in(&app, &browser, "ada@example.com", PASSWORD).await;
    assert_eq!(r.status(), 422);
    let (_, list, _) = staff(&app, &["list"], "");
    assert!(
        list.contains("ada@example.com\tAda Lovelace\tpublisher\tdisabled "),
        "{list}"
    );
}

#[tokio::test]
async fn a_sign_in_without_the_pages_token_signs_in_nobody() {
    let app = spawn_app().await;
    add(&app, "ada@example.com", "viewer");
    let browser = browser();
    let _ = sign_in_token(&app, &browser).await;
    let r = browser
        .post(format!("{}/studio/sign-in", app.base))
        .form(&[("email", "ada@example.com"), ("password", PASSWORD)])
        .send()
        .await
        .expect("sign in");
    assert_eq!(r.status(), 403);
    assert!(
        r.text()
            .await
            .expect("page")
            .contains("The sign-in page had expired.")
    );
    assert_eq!(studio(&app, &browser).await.status(), 303);
}

#[tokio::test]
async fn guessing_one_accounts_password_is_limited_from_one_address() {
    let app = spawn_app().await;
    add(&app, "ada@example.com", "editor");
    let browser = browser();
    for _ in 0..10 {
        let r = sign_in(&app, &browser, "ada@example.com", "a wrong guess here").await;
        assert_eq!(r.status(), 422);
    }
    let r = sign_in(&app, &browser, "ada@example.com", PASSWORD).await;
    assert_eq!(r.status(), 429);
    assert!(
        r.text()
            .await
            .expect("page")
            .contains("Too many sign-ins have been tried from here.")
    );
    // Another account from the same address is not held up by the guesses at Ada's.
    add(&app, "grace@example.com", "viewer");
    let r = sign_in(&app, &browser, "grace@example.com", PASSWORD).await;
    assert_eq!(r.status(), 303);
}

#[tokio::test]
async fn an_idle_session_ends() {
    let app = spawn_app().await;
    add(&app, "ada@example.com", "viewer");
    let browser = browser();
    assert_eq!(
        sign_in(&app, &browser, "ada@example.com", PASSWORD)
            .await
            .status(),
        303
    );
    assert_eq!(studio(&app, &browser).await.status(), 200);
    // Last used 31 minutes ago.
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(&app.database_url)
        .await
        .expect("pool");
    let long_ago = (chrono::Utc::now() - chrono::Duration::minutes(31))
        .to_rfc3339_opts(chrono::SecondsFormat::Micros, true);
    sqlx::query("update staff_sessions set seen_at = $1")
        .bind(long_ago)
        .execute(&pool)
        .await
        .expect("age the session");
    pool.close().await;
    assert_eq!(studio(&app, &browser).await.status(), 303);
}

#[tokio::test]
async fn staff_accounts_are_made_listed_and_refused_with_reasons() {
    let app = spawn_app().await;
    let (_, list, _) = staff(&app, &["list"], "");
    assert!(list.contains("no staff yet"), "{list}");
    add(&app, "ada@example.com", "editor");
    for (args, stdin, says) in [
        (
            vec![
                "add",
                "--email",
                "ADA@example.com",
                "--name",
                "Ada",
                "--role",
                "viewer",
            ],
            format!("{PASSWORD}\n"),
            "email: ada@example.com has an account already",
        ),
        (
            vec![
                "add",
                "--email",
                "grace@example.com",
                "--name",
                "Grace",
                "--role",
                "viewer",
            ],
            "short\n".to_owned(),
            "password: at least 12 characters",
        ),
        (
            vec![
                "add", "--email", "grace", "--name", "Grace", "--role", "viewer",
            ],
            format!("{PASSWORD}\n"),
            "email: not an email address",
        ),
        (
            vec![
                "add",
                "--email",
                "grace@example.com",
                "--name",
                "Grace",
                "--role",
                "viewer",
            ],
            String::new(),
            "password: give it as the first line of standard input",
        ),
        (
            vec!["disable", "--email", "nobody@example.com"],
            String::new(),
            "email: no account nobody@example.com",
        ),
    ] {
        let (ok, out, err) = staff(&app, &args, &stdin);
        assert!(!ok, "{args:?}: {out}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
    let (ok, _, err) = staff(
        &app,
        &[
            "add",
            "--email",
            "x@example.com",
            "--name",
            "X",
            "--role",
            "owner",
        ],
        "",
    );
    assert!(!ok);
    assert!(
        err.contains("[possible values: viewer, editor, publisher]"),
        "{err}"
    );
    let (_, list, _) = staff(&app, &["list"], "");
    assert_eq!(list.trim(), "ada@example.com\tAda Lovelace\teditor\tactive");
    // Only the hash is kept.
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(&app.database_url)
        .await
        .expect("pool");
    let hash: String = sqlx::query_scalar("select password_hash from staff")
        .fetch_one(&pool)
        .await
        .expect("hash");
    pool.close().await;
    assert!(hash.starts_with("$argon2id$"), "{hash}");
    assert!(!hash.contains(PASSWORD));
    // The commands' help says what each does.
    let help = Command::new(env!("CARGO_BIN_EXE_pawpath"))
        .args(["staff", "--help"])
        .output()
        .expect("help");
    let help = String::from_utf8_lossy(&help.stdout);
    for command in ["add", "list", "disable"] {
        assert!(help.contains(command), "{help}");
    }
}

#[tokio::test]
async fn a_journey_shows_its_steps_and_diagram_to_members_only() {
    let app = spawn_app().await;
    add(&app, "ada@example.com", "viewer");
    let stranger = browser();
    for path in [
        "/studio/journeys/direct",
        "/studio/journeys/direct/diagram.svg",
    ] {
        let r = stranger
            .get(format!("{}{path}", app.base))
            .send()
            .await
            .expect("get");
        assert_eq!(r.status(), 303, "{path}");
        assert_eq!(r.headers()["location"], "/studio/sign-in");
    }
    let browser = browser();
    assert_eq!(
        sign_in(&app, &browser, "ada@example.com", PASSWORD)
            .await
            .status(),
        303
    );
    let r = browser
        .get(format!("{}/studio/journeys/direct", app.base))
        .send()
        .await
        .expect("journey");
    assert_eq!(r.status(), 200);
    let page = r.text().await.expect("page");
    assert!(page.contains("<h1>The direct journey</h1>"), "{page}");
    // Its steps in order, with the page and the question set each draws.
    let pets = page
        .find("<th scope=\"row\">pet_details</th>")
        .expect("pet details");
    let review = page.find("<th scope=\"row\">review</th>").expect("review");
    assert!(pets < review);
    assert!(
        page.contains("<th scope=\"row\">review</th><td>Review your quote</td>"),
        "{page}"
    );
    assert!(
        page.contains("<td>choose_policy</td><td>cover</td>"),
        "{page}"
    );
    let r = browser
        .get(format!("{}/studio/journeys/direct/diagram.svg", app.base))
        .send()
        .await
        .expect("diagram");
    assert_eq!(r.status(), 200);
    assert_eq!(r.headers()["content-type"], "image/svg+xml");
    let svg = r.text().await.expect("svg");
    assert!(svg.starts_with("<svg"), "{}", &svg[..svg.len().min(200)]);
    assert!(svg.contains("pet_details"));
    let r = browser
        .get(format!("{}/studio/journeys/nothing", app.base))
        .send()
        .await
        .expect("journey");
    assert_eq!(r.status(), 404);
}
