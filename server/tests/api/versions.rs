//! Definition versions: every quote records the version of the definitions it last ran
//! on; a quote resumed after the definitions changed is checked against the new ones and lands on
//! the first step whose answers no longer pass.

use crate::common;

use common::*;
use serde_json::{Value, json};

async fn recorded_version(app: &TestApp) -> String {
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(&app.database_url)
        .await
        .expect("connect");
    let (v,): (String,) = sqlx::query_as("select definition_version from quotes")
        .fetch_one(&pool)
        .await
        .expect("one quote");
    pool.close().await;
    v
}

async fn served_version(app: &TestApp) -> String {
    let r: Value = app
        .client
        .get(format!("{}/healthz", app.base))
        .send()
        .await
        .expect("get")
        .json()
        .await
        .expect("json");
    r["definitions"].as_str().expect("version").to_owned()
}

#[tokio::test]
async fn a_quote_resumed_on_changed_definitions_lands_where_its_answers_stop_passing() {
    let folder = tempfile::tempdir().expect("tempdir");
    let definitions = folder.path();
    copy_definitions(definitions);
    let app = Spawn::new().definitions(definitions).start().await;
    app.reach_assumptions(json!([valid_pet()])).await;
    assert_eq!(app.view("/quote/review").await["step"]["id"], "review");
    let first = served_version(&app).await;
    assert_eq!(
        recorded_version(&app).await,
        first,
        "the quote records its version"
    );

    // A product team now asks for first names of five letters or more: "Ada" no longer passes.
    let path = definitions.join("questions/your-details.json");
    let mut set: Value =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("read")).expect("json");
    set["schema"]["properties"]["owner"]["properties"]["customer_first_name"]["minLength"] =
        json!(5);
    std::fs::write(&path, serde_json::to_string_pretty(&set).expect("json")).expect("write");
    let app = app.restart().await;
    let second = served_version(&app).await;
    assert_ne!(second, first, "new definitions, a new version");

    // The review is no longer open: the quote lands on your details, the first step whose
    // answers fail the new definitions, with the answers kept.
    let view = app.view("/quote/review").await;
    assert_eq!(view["step"]["id"], "your_details", "{}", view["step"]);
    assert_eq!(view["owner"]["customer_first_name"], "Ada");
    assert_eq!(
        view["pets"][0]["pet_name"], "Biscuit",
        "the earlier steps still pass"
    );

    // Answering again under the new definitions records them.
    let mut owner = valid_owner();
    owner["customer_first_name"] = json!("Adaline");
    let (status, body) = app.save_owner(owner).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(recorded_version(&app).await, second);
    assert_eq!(body["data"]["step"]["id"], "choose_policy");
}
