//! Start-up: bad definitions never reach a customer (DESIGN.md principle 5). The real `pawpath`
//! binary is started on a broken copy of the definitions and must stop, naming the file, the
//! JSON path and the problem.

use crate::common;

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

fn edit_journey(root: &Path, edit: impl FnOnce(&mut Value)) {
    let path = root.join("journeys/direct.json");
    let mut journey: Value =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("read")).expect("json");
    edit(&mut journey);
    std::fs::write(&path, serde_json::to_string_pretty(&journey).expect("json")).expect("write");
}

fn start_pawpath(definitions: &Path) -> (Option<i32>, String) {
    let data = tempfile::tempdir().expect("tempdir");
    let mut child = Command::new(env!("CARGO_BIN_EXE_pawpath"))
        .env("PAWPATH_DEFINITIONS", definitions)
        .env("PAWPATH_DATA_DIR", data.path())
        .env("PORT", "0")
        .env_remove("DATABASE_URL")
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .expect("run pawpath");
    // If a regression lets it start, it would serve for ever: stop it and fail.
    let deadline = Instant::now() + Duration::from_secs(20);
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("pawpath started on broken definitions instead of stopping");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut stderr)
        .expect("read stderr");
    (status.code(), stderr)
}

#[test]
fn a_dangling_reference_stops_start_up_naming_file_path_and_problem() {
    let dir = tempfile::tempdir().expect("tempdir");
    common::copy_definitions(dir.path());
    edit_journey(dir.path(), |j| {
        j["steps"][2]["exits"][0]["to"] = "choose_polcy".into()
    });
    let (code, stderr) = start_pawpath(dir.path());
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr
            .contains("journeys/direct.json at /steps/2/exits/0/to: unknown step \"choose_polcy\""),
        "{stderr}"
    );
}

#[test]
fn an_unreachable_step_stops_start_up_naming_file_path_and_problem() {
    let dir = tempfile::tempdir().expect("tempdir");
    common::copy_definitions(dir.path());
    // Nothing leads to crossbreed any more.
    edit_journey(dir.path(), |j| {
        j["steps"][0]["exits"] = serde_json::json!([{ "to": "your_details" }])
    });
    let (code, stderr) = start_pawpath(dir.path());
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("journeys/direct.json at /steps/1: step \"crossbreed\" cannot be reached from the start step \"pet_details\""), "{stderr}");
}

#[test]
fn a_malformed_variable_stops_start_up_naming_it() {
    let out = Command::new(env!("CARGO_BIN_EXE_pawpath"))
        .env("PORT", "http")
        .output()
        .expect("run pawpath");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("PORT: \"http\" is not a port number"));
}

#[test]
fn a_copy_key_the_server_uses_missing_from_a_language_stops_start_up() {
    let dir = tempfile::tempdir().expect("tempdir");
    common::copy_definitions(dir.path());
    // Gone from every language (one language without it is the definitions lint's to name).
    for language in ["en-GB", "fr-FR"] {
        let path = dir.path().join(format!("questions/copy/{language}.json"));
        let mut copy: Value =
            serde_json::from_str(&std::fs::read_to_string(&path).expect("read")).expect("json");
        copy["messages"]
            .as_object_mut()
            .expect("messages")
            .remove("vet.postcode.invalid");
        std::fs::write(&path, serde_json::to_string_pretty(&copy).expect("json")).expect("write");
    }
    let (code, stderr) = start_pawpath(dir.path());
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.contains("questions/copy/en-GB.json at /messages: copy key \"vet.postcode.invalid\", which the server uses, is missing"),
        "{stderr}"
    );
}

#[test]
fn a_bad_line_in_the_modulus_tables_stops_start_up_naming_file_and_line() {
    // Vocalink's tables are data read at start; a table pawpath cannot read never
    // checks a customer's bank details.
    let dir = tempfile::tempdir().expect("tempdir");
    common::copy_definitions(dir.path());
    let path = dir.path().join("server/data/vocalink/valacdos.txt");
    let mut table = std::fs::read_to_string(&path).expect("table");
    table = table.replacen("040003,040003,DBLAL", "040003,040003,DBLAX", 1);
    std::fs::write(&path, table).expect("write");
    let (code, stderr) = start_pawpath(dir.path());
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.contains("valacdos.txt line 2: unknown method \"DBLAX\""),
        "{stderr}"
    );
}

#[test]
fn a_broken_email_template_stops_start_up_naming_the_file_and_line() {
    // owner-payment.md §4 Confirmation: the confirmation email's templates are checked at start.
    let root = tempfile::tempdir().expect("tempdir");
    common::copy_definitions(root.path());
    let path = root.path().join("journeys/emails/confirmation.txt");
    let text = std::fs::read_to_string(&path).expect("read");
    std::fs::write(
        &path,
        text.replacen("{{ pet.policy_number }}", "{{ pet.policy_number ", 1),
    )
    .expect("write");
    let (code, stderr) = start_pawpath(root.path());
    assert_ne!(code, Some(0));
    assert!(stderr.contains("confirmation.txt"), "{stderr}");
    assert!(stderr.contains("line "), "{stderr}");
}

#[test]
fn an_email_template_naming_an_unknown_value_or_copy_key_stops_start_up() {
    for (from, to, expect) in [
        (
            "{{ pet.policy_number }}",
            "{{ pet.policy_no }}",
            "policy_no",
        ),
        (
            "t(\"email.confirmation.policies\")",
            "t(\"email.confirmation.policys\")",
            "email.confirmation.policys",
        ),
    ] {
        let root = tempfile::tempdir().expect("tempdir");
        common::copy_definitions(root.path());
        let path = root.path().join("journeys/emails/confirmation.html");
        let text = std::fs::read_to_string(&path).expect("read");
        assert!(text.contains(from), "{from}");
        std::fs::write(&path, text.replacen(from, to, 1)).expect("write");
        let (code, stderr) = start_pawpath(root.path());
        assert_ne!(code, Some(0));
        assert!(stderr.contains("confirmation.html"), "{stderr}");
        assert!(
            stderr.contains(expect) || stderr.contains("undefined"),
            "{stderr}"
        );
    }
}

#[test]
fn a_copy_key_a_product_document_needs_missing_stops_start_up() {
    // owner-payment.md §3 Documents: every sentence of a document is a copy key; start-up renders
    // each document in each language, so a missing sentence never reaches a customer.
    let dir = tempfile::tempdir().expect("tempdir");
    common::copy_definitions(dir.path());
    for language in ["en-GB", "fr-FR"] {
        let path = dir.path().join(format!("questions/copy/{language}.json"));
        let mut copy: Value =
            serde_json::from_str(&std::fs::read_to_string(&path).expect("read")).expect("json");
        copy["messages"]
            .as_object_mut()
            .expect("messages")
            .remove("document.where");
        std::fs::write(&path, serde_json::to_string_pretty(&copy).expect("json")).expect("write");
    }
    let (code, stderr) = start_pawpath(dir.path());
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.contains("server/templates/document.html")
            && stderr.contains("copy key \"document.where\" is missing"),
        "{stderr}"
    );
}
