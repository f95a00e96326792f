//! The integration harness: every test gets its own database and its own server on port 0.
//!
//! `PAWPATH_TEST_DATABASE` chooses the backend: unset or `sqlite` for a fresh SQLite file per
//! test; a `postgres://` URL to an administrative database for a fresh PostgreSQL database per
//! test (created with a random name).

#![allow(dead_code, unreachable_pub)]

pub mod answers;
mod database;
pub mod fake_stripe;
pub mod names_corpus;
pub mod receiver;
pub mod smtp;

pub use answers::*;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use pawpath::App;
use pawpath::config::Config;
use rand::Rng;
use serde_json::{Value, json};

pub struct TestApp {
    pub base: String,
    pub client: reqwest::Client,
    pub data_dir: PathBuf,
    pub database_url: String,
    pub definitions_root: PathBuf,
    home: Home,
    server: tokio::task::JoinHandle<()>,
}

impl Drop for TestApp {
    fn drop(&mut self) {
        self.server.abort();
    }
}

/// Whether the `pawpath` process on `port` answers `/readyz` with 200 within half a second.
pub async fn ready(client: &reqwest::Client, port: u16) -> bool {
    client
        .get(format!("http://127.0.0.1:{port}/readyz"))
        .timeout(std::time::Duration::from_millis(500))
        .send()
        .await
        .is_ok_and(|r| r.status() == 200)
}

/// Waits (up to 30 s) for the `pawpath` process started on `port` to be ready.
pub async fn wait_ready(port: u16) {
    let client = reqwest::Client::new();
    for _ in 0..600 {
        if ready(&client, port).await {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("the server on {port} never became ready");
}

pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A static folder holding the renderer's own index.html template (the built one may not exist
/// yet when the Rust tests run).
fn static_dir(data_dir: &Path) -> PathBuf {
    let dir = data_dir.join("static");
    std::fs::create_dir_all(&dir).expect("static dir");
    std::fs::copy(
        repo_root().join("renderer/index.html"),
        dir.join("index.html"),
    )
    .expect("copy index.html");
    dir
}

pub fn config_for(data_dir: &Path, database_url: &str, definitions_root: &Path) -> Config {
    config_with(data_dir, database_url, definitions_root, &[])
}

pub fn config_with(
    data_dir: &Path,
    database_url: &str,
    definitions_root: &Path,
    extra: &[(&str, String)],
) -> Config {
    let mut vars = vec![
        ("PORT", "0".to_owned()),
        ("PAWPATH_DATA_DIR", data_dir.display().to_string()),
        ("DATABASE_URL", database_url.to_owned()),
        (
            "PAWPATH_DEFINITIONS",
            definitions_root.display().to_string(),
        ),
        (
            "PAWPATH_STATIC_DIR",
            static_dir(data_dir).display().to_string(),
        ),
        // Four tests at a time, some with three servers on one database, share PostgreSQL's 100
        // connections: a test server opens at most six (production's default is 24).
        ("PAWPATH_DATABASE_CONNECTIONS", "6".to_owned()),
    ];
    vars.extend(extra.iter().cloned());
    Config::from_lookup(|k| {
        vars.iter()
            .rev()
            .find(|(n, _)| *n == k)
            .map(|(_, v)| v.clone())
    })
    .expect("test config")
}

/// How a test server is started: on a fresh data folder and database (removed when the last
/// server on them is dropped) or on another server's, on the repository's definitions or a copy,
/// with extra configuration, with a browser (cookie jar) of its own or a given one.
pub struct Spawn<'a> {
    home: Option<Home>,
    definitions_root: PathBuf,
    extra: &'a [(&'a str, String)],
    client: Option<reqwest::Client>,
}

/// A server's data folder and database, shared by every server started on them; the folder is
/// removed when the last of them is dropped.
#[derive(Clone)]
struct Home {
    folder: Arc<tempfile::TempDir>,
    database_url: String,
}

impl<'a> Spawn<'a> {
    /// A fresh data folder and database, the repository's definitions, no extra configuration.
    pub fn new() -> Self {
        Spawn {
            home: None,
            definitions_root: repo_root(),
            extra: &[],
            client: None,
        }
    }

    /// On `app`'s data folder and database (and its definitions, unless [`Spawn::definitions`]).
    pub fn beside(app: &TestApp) -> Self {
        Spawn {
            home: Some(app.home.clone()),
            definitions_root: app.definitions_root.clone(),
            extra: &[],
            client: None,
        }
    }

    pub fn definitions(mut self, root: &Path) -> Self {
        self.definitions_root = root.to_path_buf();
        self
    }

    pub fn with(mut self, extra: &'a [(&'a str, String)]) -> Self {
        self.extra = extra;
        self
    }

    pub fn client(mut self, client: reqwest::Client) -> Self {
        self.client = Some(client);
        self
    }

    pub async fn start(self) -> TestApp {
        let home = match self.home {
            Some(home) => home,
            None => {
                let folder = tempfile::tempdir().expect("tempdir");
                let database_url = database::fresh_database(folder.path()).await;
                Home {
                    folder: Arc::new(folder),
                    database_url,
                }
            }
        };
        let data_dir = home.folder.path().to_path_buf();
        let config = config_with(
            &data_dir,
            &home.database_url,
            &self.definitions_root,
            self.extra,
        );
        let app = App::build(config)
            .await
            .unwrap_or_else(|e| panic!("app builds: {e}"));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let addr = listener.local_addr().expect("addr");
        // Served as `pawpath` serves: the same connection limits and timeouts.
        let limits = app.state.config.limits;
        let server = tokio::spawn(async move {
            pawpath::serve::serve(listener, app.router, limits, std::future::pending())
                .await
                .expect("serve");
        });
        TestApp {
            base: format!("http://{addr}"),
            client: self.client.unwrap_or_else(browser),
            data_dir,
            database_url: home.database_url.clone(),
            definitions_root: self.definitions_root,
            home,
            server,
        }
    }
}

/// A browser of its own: a client that keeps its cookies.
fn browser() -> reqwest::Client {
    reqwest::Client::builder()
        .cookie_store(true)
        .build()
        .expect("client")
}

/// A fresh app with extra configuration (an address provider, test mode).
pub async fn spawn_app_with(extra: &[(&str, String)]) -> TestApp {
    Spawn::new().with(extra).start().await
}

/// A fresh app (a data folder and database of its own) on the definitions under `root`, with
/// extra configuration.
pub async fn spawn_on(root: &Path, extra: &[(&str, String)]) -> TestApp {
    Spawn::new().definitions(root).with(extra).start().await
}

pub async fn spawn_app() -> TestApp {
    Spawn::new().start().await
}

impl TestApp {
    /// A visitor whose browser already holds `session` (a cookie someone else was given and
    /// planted there), on a server of its own over this one's database.
    pub async fn visitor_holding(&self, session: &str) -> TestApp {
        let jar = reqwest::cookie::Jar::default();
        let url: reqwest::Url = self.base.parse().expect("base url");
        jar.add_cookie_str(&format!("pawpath_session={session}; Path=/"), &url);
        Spawn::beside(self)
            .client(
                reqwest::Client::builder()
                    .cookie_provider(Arc::new(jar))
                    .build()
                    .expect("client"),
            )
            .start()
            .await
    }

    /// A request from a browser that sends only `session` as its cookie and keeps nothing:
    /// (status, body, the session a Set-Cookie gave, if any).
    pub async fn as_session(
        &self,
        session: &str,
        method: reqwest::Method,
        path: &str,
        body: Option<&Value>,
    ) -> (u16, Value, Option<String>) {
        let client = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .expect("client");
        let mut request = client
            .request(method, format!("{}{path}", self.base))
            .header("Accept", "application/json")
            .header("Cookie", format!("pawpath_session={session}"));
        if let Some(body) = body {
            request = request.json(body);
        }
        let r = request.send().await.expect("request");
        let status = r.status().as_u16();
        let set = session_set(r.headers());
        (status, r.json::<Value>().await.unwrap_or(Value::Null), set)
    }

    /// Another visitor: a server of its own on this one's data folder, database and definitions,
    /// with a browser (cookie jar) of its own.
    pub async fn another_visitor(&self) -> TestApp {
        Spawn::beside(self).start().await
    }

    /// Another server on this one's data folder, database and definitions, with extra
    /// configuration, and a browser of its own.
    pub async fn another_server(&self, extra: &[(&str, String)]) -> TestApp {
        Spawn::beside(self).with(extra).start().await
    }

    /// Another server on this one's data folder and database, on the definitions under `root`,
    /// with extra configuration, keeping this one's browser (cookies).
    pub async fn on_definitions(&self, root: &Path, extra: &[(&str, String)]) -> TestApp {
        Spawn::beside(self)
            .definitions(root)
            .with(extra)
            .client(self.client.clone())
            .start()
            .await
    }

    pub async fn restart(self) -> TestApp {
        let again = Spawn::beside(&self).client(self.client.clone());
        drop(self);
        again.start().await
    }

    /// GET a page as the renderer does: JSON view data.
    pub async fn view(&self, path: &str) -> Value {
        let r = self
            .client
            .get(format!("{}{path}", self.base))
            .header("Accept", "application/json")
            .send()
            .await
            .expect("get");
        assert_eq!(r.status(), 200, "GET {path}");
        r.json::<Value>().await.expect("json")["data"].clone()
    }

    /// The browser's call to the card provider a payment page names (its card form, with the
    /// provider's publishable key): the status and the answer (`{data: {token, …}}`).
    pub async fn tokenise(&self, view: &Value, card: Value) -> (u16, Value) {
        let provider = &view["payment_options"]["card"]["provider"];
        let url = provider["tokenise_url"].as_str().expect("tokenise url");
        let key = provider["publishable_key"].as_str().expect("key");
        let r = self
            .client
            .post(format!("{}{url}", self.base))
            .bearer_auth(key)
            .json(&card)
            .send()
            .await
            .expect("post");
        let status = r.status().as_u16();
        (status, r.json::<Value>().await.unwrap_or(Value::Null))
    }

    pub async fn csrf(&self) -> String {
        self.view("/quote").await["csrf"]
            .as_str()
            .expect("csrf")
            .to_owned()
    }

    /// A POST as the page sends it: the body's CSRF token, if it has one, in the
    /// `X-CSRF-Token` header too.
    pub async fn post_json(&self, path: &str, body: &Value) -> (u16, Value) {
        let mut request = self.client.post(format!("{}{path}", self.base)).json(body);
        if let Some(csrf) = body.get("csrf").and_then(Value::as_str) {
            request = request.header("X-CSRF-Token", csrf);
        }
        let r = request.send().await.expect("post");
        let status = r.status().as_u16();
        (status, r.json::<Value>().await.unwrap_or(Value::Null))
    }

    pub async fn save_pets(&self, pets: Value) -> (u16, Value) {
        let csrf = self.csrf().await;
        self.post_json("/api/petdetails", &json!({ "csrf": csrf, "pets": pets }))
            .await
    }

    /// The stored pets, as the next page load sees them.
    pub async fn stored_pets(&self) -> Value {
        self.view("/quote").await["pets"].clone()
    }
}

/// The value of the first line of a `/metrics` text that starts with `series` (a metric's name
/// with its labels), if any.
pub fn sample(text: &str, series: &str) -> Option<f64> {
    text.lines()
        .find(|l| l.starts_with(series))
        .and_then(|l| l.rsplit(' ').next())
        .and_then(|v| v.parse().ok())
}

impl TestApp {
    /// One sample of `/metrics` (open to `token`): the value on the first line that starts with
    /// `series` (a metric name with its labels), if any.
    pub async fn metric(&self, token: &str, series: &str) -> Option<f64> {
        let text = self
            .client
            .get(format!("{}/metrics", self.base))
            .bearer_auth(token)
            .send()
            .await
            .expect("metrics")
            .text()
            .await
            .expect("text");
        sample(&text, series)
    }

    pub async fn save_owner(&self, owner: Value) -> (u16, Value) {
        let csrf = self.csrf().await;
        self.post_json("/api/ownerdetail", &json!({ "csrf": csrf, "owner": owner }))
            .await
    }

    /// Pets and the owner saved, and a product for every pet: the assumptions page opens.
    pub async fn reach_assumptions(&self, pets: Value) {
        let (status, body) = self.save_pets(pets).await;
        assert_eq!(status, 200, "{body}");
        let (status, body) = self.save_owner(valid_owner()).await;
        assert_eq!(status, 200, "{body}");
        let count = body["data"]["pets"].as_array().map_or(0, Vec::len);
        let (status, body) = self
            .save_cover(json!(vec![
                json!({ "product": { "Code": "LT04000" } });
                count
            ]))
            .await;
        assert_eq!(status, 200, "{body}");
    }

    /// Through assumptions (each pet a dog with the answers of `dog_answers`) to the payment page.
    pub async fn reach_payment(&self, pets: Value) {
        let count = pets.as_array().map_or(0, Vec::len);
        self.reach_assumptions(pets).await;
        self.declare_dogs(count).await;
    }

    /// The assumptions page's Go to payment for `count` dogs (the answers of `dog_answers`).
    pub async fn declare_dogs(&self, count: usize) {
        let csrf = self.csrf().await;
        let (status, body) = self
            .post_json(
                "/api/saveDeclaration",
                &json!({ "csrf": csrf, "pets": vec![dog_answers(); count] }),
            )
            .await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["data"]["step"]["id"], "payment");
    }

    /// The choose-policy step's Continue: each pet's cover.
    pub async fn save_cover(&self, pets: Value) -> (u16, Value) {
        let csrf = self.csrf().await;
        self.post_json("/api/saveCover", &json!({ "csrf": csrf, "pets": pets }))
            .await
    }

    /// Runs one SQL statement against the app's database (ageing a row, counting rows); the
    /// first column of the first row, as text, if any.
    pub async fn sql(&self, statement: &str) -> Option<String> {
        use sqlx::Row;
        sqlx::any::install_default_drivers();
        let pool = sqlx::AnyPool::connect(&self.database_url)
            .await
            .expect("connect");
        let row = sqlx::query(sqlx::AssertSqlSafe(statement.to_owned()))
            .fetch_optional(&pool)
            .await
            .unwrap_or_else(|e| panic!("{statement}: {e}"));
        pool.close().await;
        row.and_then(|r| {
            r.try_get::<String, _>(0)
                .ok()
                .or_else(|| r.try_get::<i64, _>(0).ok().map(|n| n.to_string()))
                .or_else(|| r.try_get::<i32, _>(0).ok().map(|n| n.to_string()))
        })
    }

    /// One dog bought by Direct Debit through the pages' own calls; the purchase's answer.
    pub async fn buy_direct(&self) -> Value {
        self.buy_direct_with_key(&format!("buy-{}", rand::rng().random::<u64>()))
            .await
    }

    /// As [`Self::buy_direct`], with the purchase's idempotency key.
    pub async fn buy_direct_with_key(&self, key: &str) -> Value {
        self.reach_payment(json!([valid_pet()])).await;
        let (status, body) = self.pay_by_direct_debit_and_buy(key).await;
        assert_eq!(status, 200, "{body}");
        body
    }

    /// From the payment page: a valid test account set up by Direct Debit, then the purchase
    /// asked for with `key`; the purchase's status and answer.
    pub async fn pay_by_direct_debit_and_buy(&self, key: &str) -> (u16, Value) {
        let csrf = self.csrf().await;
        let payment = json!({
            "payment_method": "DD", "payment_frequency": "MP", "account_name": "Ada O'Neill",
            "sort_code": "08-99-99", "account_number": "66374958", "payment_day": 15, "dd_confirmation": true
        });
        let (status, body) = self
            .post_json(
                "/api/setup-payment",
                &json!({ "csrf": csrf, "payment": payment }),
            )
            .await;
        assert_eq!(status, 200, "{body}");
        let csrf = self.csrf().await;
        self.post_json(
            "/api/purchase",
            &json!({ "csrf": csrf, "idempotency_key": key }),
        )
        .await
    }

    pub async fn edit(&self, call: &str, form: &str, answers: Value) -> (u16, Value) {
        let csrf = self.csrf().await;
        let mut body = answers;
        body["csrf"] = json!(csrf);
        body["form"] = json!(form);
        self.post_json(call, &body).await
    }
}

/// A copy of the repository's definitions (and the data start-up reads beside them) in `to`,
/// for tests that change them.
pub fn copy_definitions(to: &Path) {
    let root = repo_root();
    for folder in [
        "journeys",
        "journeys/schemas",
        "journeys/products",
        "journeys/emails",
        "journeys/brands",
        "journeys/brands/logos",
        "questions",
        "questions/schemas",
        "questions/copy",
        "questions/breeds",
        "server/data/vocalink",
        "server/data/sanctions",
    ] {
        std::fs::create_dir_all(to.join(folder)).expect("mkdir");
        for entry in std::fs::read_dir(root.join(folder))
            .expect("read_dir")
            .flatten()
        {
            if entry.path().is_file() {
                std::fs::copy(entry.path(), to.join(folder).join(entry.file_name())).expect("copy");
            }
        }
    }
}

/// Replaces each `{"$ref": n}` with `shared[n]`, at any depth.
fn resolve_shared(value: &Value, shared: &[Value]) -> Value {
    match value {
        Value::Array(items) => {
            Value::Array(items.iter().map(|v| resolve_shared(v, shared)).collect())
        }
        Value::Object(map) => match (map.len(), map.get("$ref").and_then(Value::as_u64)) {
            (1, Some(n)) => resolve_shared(&shared[n as usize], shared),
            _ => Value::Object(
                map.iter()
                    .map(|(k, v)| (k.clone(), resolve_shared(v, shared)))
                    .collect(),
            ),
        },
        other => other.clone(),
    }
}

/// The view data as the pages use it (the renderer's `assemble`): the products' shared
/// values put back, and each pet's priced choice joined with its product.
pub fn resolved(view: &Value) -> Value {
    let shared = view["shared"].as_array().cloned().unwrap_or_default();
    let mut out = view.clone();
    let products = resolve_shared(&view["products"], &shared);
    out["products"] = products.clone();
    if let Some(pets) = out["pets"].as_array_mut() {
        for (i, pet) in pets.iter_mut().enumerate() {
            if pet.pointer("/product/RecurringMonthly").is_none() {
                continue;
            }
            let code = pet["product"]["Code"].clone();
            let full = view["products"]
                .as_array()
                .into_iter()
                .flatten()
                .position(|p| p["petid"] == json!(i + 1) && p["Code"] == code);
            if let Some(at) = full {
                pet["product"] = products[at].clone();
            }
        }
    }
    out
}

impl TestApp {
    /// The copy catalogue a view names (`copy_url`), as the renderer fetches it.
    pub async fn copy_of(&self, view: &Value) -> Value {
        let url = view["copy_url"].as_str().expect("copy_url");
        let r = self
            .client
            .get(format!("{}{url}", self.base))
            .send()
            .await
            .expect("get");
        assert_eq!(r.status(), 200, "GET {url}");
        r.json::<Value>().await.expect("json")
    }

    /// Every product of the quote with every field of journey.md §3 Product (/api/get-products).
    pub async fn full_products(&self) -> Value {
        let r = self
            .client
            .get(format!("{}/api/get-products", self.base))
            .send()
            .await
            .expect("get");
        assert_eq!(r.status(), 200, "GET /api/get-products");
        r.json::<Value>().await.expect("json")["data"]["products"].clone()
    }
}

/// A view's question set with its form put in (`schema` and `ui`, fetched from `form` as the
/// renderer fetches it).
pub async fn with_form(base: &str, questions: &Value) -> Value {
    let url = questions["form"].as_str().expect("form");
    let r = reqwest::get(format!("{base}{url}")).await.expect("get");
    assert_eq!(r.status(), 200, "GET {url}");
    let form: Value = r.json().await.expect("json");
    let mut out = questions.clone();
    out["schema"] = form["schema"].clone();
    out["ui"] = form["ui"].clone();
    out
}

/// An old version's address answers 307 to `current`, not cached; followed, it gives today's.
pub async fn assert_moved_on(app: &TestApp, old: &str, current: &str) {
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("client");
    let r = client
        .get(format!("{}{old}", app.base))
        .send()
        .await
        .expect("get");
    assert_eq!(r.status(), 307, "{old}");
    assert_eq!(r.headers()["location"], current);
    assert_eq!(r.headers()["cache-control"], "no-store");
    let followed = reqwest::get(format!("{}{old}", app.base))
        .await
        .expect("get");
    assert_eq!(followed.status(), 200);
    assert_eq!(
        followed.headers()["cache-control"],
        "public, max-age=31536000, immutable"
    );
}

/// The JSON the HTML shell writes for the renderer before any call (`<script id="pawpath-boot">`).
pub fn boot_of(html: &str) -> Value {
    let json = html
        .split_once(r#"<script id="pawpath-boot" type="application/json">"#)
        .and_then(|(_, rest)| rest.split_once("</script>"))
        .map(|(json, _)| json)
        .unwrap_or_else(|| panic!("no boot block in {html}"));
    serde_json::from_str(json).expect("boot is JSON")
}

/// The session a response's Set-Cookie gives, if any.
pub fn session_set(headers: &reqwest::header::HeaderMap) -> Option<String> {
    headers
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .filter_map(|v| v.strip_prefix("pawpath_session="))
        .map(|v| v.split(';').next().unwrap_or_default().to_owned())
        .next()
}

/// A new visitor's session, as a stranger gets one from a first page (`GET /quote?brand=…`),
/// with the CSRF token that page carried.
pub async fn stranger_session(base: &str, brand: &str) -> (String, String) {
    let r = reqwest::Client::new()
        .get(format!("{base}/quote?brand={brand}"))
        .header("Accept", "application/json")
        .send()
        .await
        .expect("get");
    let session = session_set(r.headers()).expect("a new visitor is given a session");
    let body: Value = r.json().await.expect("json");
    let csrf = body["data"]["csrf"].as_str().expect("csrf").to_owned();
    (session, csrf)
}
