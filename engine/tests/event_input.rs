//! What the transition log keeps of each event (any quote replayed): the answers as
//! sent, every write-only answer masked whatever its type, bounded in size; and the event read
//! back from the log's name and input.

use std::path::Path;

use chrono::NaiveDate;
use engine::Definitions;
use engine::definitions::FsLoader;
use engine::journey::runtime::{self, Event, Lifecycle, MAX_INPUT_BYTES};
use engine::rules::context::RuleContext;
use serde_json::{Value, json};

fn defs() -> Definitions {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    Definitions::load(&FsLoader::new(root)).expect("repository definitions")
}

fn ctx() -> RuleContext {
    RuleContext {
        today: NaiveDate::from_ymd_opt(2026, 11, 22).expect("date"),
        brand: "pos".into(),
        bank: None,
        rate_scheme: None,
    }
}

#[test]
fn a_submission_is_logged_as_sent_with_its_write_only_answers_masked() {
    let defs = defs();
    let payment = json!({ "payment": {
        "payment_method": "DD", "account_name": "Ada", "sort_code": "08-99-99",
        "account_number": "66374958", "payment_day": 15
    }});
    let event = Event::Submit {
        step: "payment".into(),
        answers: payment,
    };
    let result = runtime::transition(
        &defs,
        "direct",
        &runtime::empty_document(),
        Lifecycle::Active,
        &event,
        ctx(),
    )
    .expect("runs");
    let input = result.record.input.expect("the log keeps the input");
    assert_eq!(input["payment"]["account_number"], "****4958");
    assert_eq!(
        input["payment"]["account_name"], "Ada",
        "what is not write-only is kept as sent"
    );
    assert!(!input.to_string().contains("66374958"));
}

#[test]
fn a_write_only_answer_of_the_wrong_type_is_masked_too() {
    let defs = defs();
    let schema = &defs
        .question_schema("payment")
        .expect("payment questions")
        .schema;
    let masked = runtime::mask_write_only(
        schema,
        &json!({ "payment": { "account_number": 66_374_958, "junk": { "deep": [1, 2] } } }),
    );
    assert_eq!(masked["payment"]["account_number"], "****4958");
    assert_eq!(
        masked["payment"].get("junk"),
        None,
        "an undeclared key is not kept"
    );
    assert_eq!(masked["payment"][runtime::UNDECLARED_KEYS], 1);
}

/// The log keeps what the step's question set declares, never undeclared keys, at any
/// depth (inside a pet too), and only their number: 4,000 saves each carrying a 31,500-character
/// key cannot grow a quote's history by 127 MB.
#[test]
fn undeclared_keys_are_counted_not_kept_at_any_depth() {
    let defs = defs();
    let mut pet = json!({ "pet_name": "Rex", "pet_type": "dog" });
    pet["zz"] = json!("z".repeat(31_500));
    pet["yy"] = json!({ "deep": [1, 2, 3] });
    let event = Event::Submit {
        step: "pet_details".into(),
        answers: json!({ "pets": [pet], "stray": true }),
    };
    let result = runtime::transition(
        &defs,
        "direct",
        &runtime::empty_document(),
        Lifecycle::Active,
        &event,
        ctx(),
    )
    .expect("runs");
    let input = result.record.input.expect("the log keeps the input");
    assert!(input.to_string().len() < 200, "{input}");
    assert_eq!(input["pets"][0]["pet_name"], "Rex");
    assert_eq!(input["pets"][0][runtime::UNDECLARED_KEYS], 2);
    assert_eq!(input[runtime::UNDECLARED_KEYS], 1);
}

/// A question set that refuses undeclared keys (communications: `additionalProperties: false`)
/// refuses the logged answers as it refused the sent ones, so a replay of the log agrees.
#[test]
fn a_schema_that_refuses_undeclared_keys_refuses_the_logged_answers_too() {
    let defs = defs();
    let schema = defs
        .question_schema("communications")
        .expect("communications questions");
    let sent = json!({ "owner": { "marketing_preferences": { "optin_email": true, "forged": "x".repeat(500) } } });
    let logged = runtime::mask_write_only(&schema.schema, &sent);
    assert!(!logged.to_string().contains("forged"), "{logged}");
    assert_eq!(
        schema.field_errors(&sent).is_empty(),
        schema.field_errors(&logged).is_empty(),
        "sent {sent} logged {logged}"
    );
}

#[test]
fn an_input_over_the_limit_is_kept_only_as_its_size() {
    let small = json!({ "pets": [{ "pet_name": "Rex" }] });
    assert_eq!(runtime::bounded_input(small.clone()), small);
    let large = json!({ "pets": [{ "pet_name": "x".repeat(MAX_INPUT_BYTES) }] });
    let kept = runtime::bounded_input(large);
    assert!(runtime::input_omitted(&kept), "{kept}");
    assert!(
        kept["omitted_bytes"]
            .as_u64()
            .is_some_and(|n| n as usize > MAX_INPUT_BYTES)
    );
    assert!(!runtime::input_omitted(
        &json!({ "omitted_bytes": 3, "pets": [] })
    ));
}

#[test]
fn every_event_is_read_back_from_its_log_name_and_input() {
    let defs = defs();
    let events = [
        Event::Submit {
            step: "pet_details".into(),
            answers: json!({ "pets": [{ "pet_name": "Rex" }] }),
        },
        Event::Edit {
            questions: "start_date".into(),
            answers: json!({ "owner": { "pet_policy_start_date": "2026-12-01" } }),
        },
        Event::Purchase,
        Event::Expire,
        Event::Reset,
        Event::AddPet,
        Event::RemovePet { id: 2 },
        Event::SetLanguage {
            language: "cy-GB".into(),
        },
    ];
    for event in events {
        let result = runtime::transition(
            &defs,
            "direct",
            &runtime::empty_document(),
            Lifecycle::Active,
            &event,
            ctx(),
        )
        .expect("runs");
        let record = result.record;
        let back = Event::from_log(&record.event, record.input.as_ref())
            .unwrap_or_else(|| panic!("{} reads back", record.event));
        assert_eq!(back.name(), event.name());
        let again = runtime::transition(
            &defs,
            "direct",
            &runtime::empty_document(),
            Lifecycle::Active,
            &back,
            ctx(),
        )
        .expect("runs again");
        assert_eq!(
            again.record,
            record,
            "{}: the same record again",
            event.name()
        );
    }
    // A name no event has, or an event whose input was not kept, reads back as nothing.
    assert!(Event::from_log("test:patch", Some(&json!({}))).is_none());
    assert!(Event::from_log("submit:pet_details", None).is_none());
    assert!(Event::from_log("remove_pet", Some(&json!({ "id": "two" }))).is_none());
    assert!(Event::from_log("remove_pet", Some(&Value::Null)).is_none());
}
