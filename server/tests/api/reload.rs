//! Development reload: the server reloads the definitions when their files change,
//! refuses a bad set (keeping the last good one) and takes the next good one.

use crate::common;

use std::time::{Duration, Instant};

use common::*;
use serde_json::Value;

async fn pet_page_title(client: &reqwest::Client, base: &str) -> String {
    let r: Value = client
        .get(format!("{base}/quote"))
        .header("Accept", "application/json")
        .send()
        .await
        .expect("get")
        .json()
        .await
        .expect("json");
    let url = r["data"]["copy_url"].as_str().expect("copy_url");
    let copy: Value = client
        .get(format!("{base}{url}"))
        .send()
        .await
        .expect("get")
        .json()
        .await
        .expect("json");
    copy["step.pet_details"].as_str().expect("title").to_owned()
}

async fn wait_for(client: &reqwest::Client, base: &str, wanted: &str) -> bool {
    let until = Instant::now() + Duration::from_secs(15);
    while Instant::now() < until {
        if pet_page_title(client, base).await == wanted {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    false
}

fn set_title(copy_file: &std::path::Path, title: &str) {
    let mut copy: Value =
        serde_json::from_str(&std::fs::read_to_string(copy_file).expect("read")).expect("json");
    copy["messages"]["step.pet_details"] = Value::from(title);
    std::fs::write(
        copy_file,
        serde_json::to_string_pretty(&copy).expect("json"),
    )
    .expect("write");
}

#[tokio::test]
async fn definitions_reload_when_they_change_and_a_bad_set_is_refused() {
    let folder = tempfile::tempdir().expect("tempdir");
    let definitions = folder.path().to_path_buf();
    copy_definitions(&definitions);
    let data = tempfile::tempdir().expect("tempdir");
    let data_dir = data.path();
    let database_url = format!("sqlite://{}?mode=rwc", data_dir.join("reload.db").display());
    let app = pawpath::App::build(config_for(data_dir, &database_url, &definitions))
        .await
        .expect("builds");
    let router = pawpath::reload::reloading(
        app.state.clone(),
        definitions.clone(),
        Duration::from_millis(100),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let base = format!("http://{}", listener.local_addr().expect("addr"));
    tokio::spawn(async move {
        axum::serve(
            listener,
            router.into_make_service_with_connect_info::<std::net::SocketAddr>(),
        )
        .await
        .expect("serve");
    });
    let client = reqwest::Client::builder()
        .cookie_store(true)
        .build()
        .expect("client");
    assert_eq!(pet_page_title(&client, &base).await, "Your pets");

    // A product team renames the first page: the next requests read the new words.
    let copy_file = definitions.join("questions/copy/en-GB.json");
    set_title(&copy_file, "Tell us about your pets");
    assert!(
        wait_for(&client, &base, "Tell us about your pets").await,
        "the change is served"
    );

    // A change that breaks the set (a key missing from French) is refused: the last good set
    // is still served.
    let good = std::fs::read_to_string(&copy_file).expect("read");
    let mut broken: Value = serde_json::from_str(&good).expect("json");
    broken["messages"]
        .as_object_mut()
        .expect("messages")
        .insert("brand_new.key".into(), Value::from("Only in English"));
    broken["messages"]["step.pet_details"] = Value::from("Refused words");
    std::fs::write(
        &copy_file,
        serde_json::to_string_pretty(&broken).expect("json"),
    )
    .expect("write");
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(
        pet_page_title(&client, &base).await,
        "Tell us about your pets"
    );

    // Mended, the next good set is taken.
    set_title(&copy_file, "Your pets, please");
    let mut mended: Value =
        serde_json::from_str(&std::fs::read_to_string(&copy_file).expect("read")).expect("json");
    mended["messages"]
        .as_object_mut()
        .expect("messages")
        .remove("brand_new.key");
    std::fs::write(
        &copy_file,
        serde_json::to_string_pretty(&mended).expect("json"),
    )
    .expect("write");
    assert!(wait_for(&client, &base, "Your pets, please").await);
}
