//! The questions a page asks: each question set's schema and UI in the customer's language, the
//! owner's answers, the offers a brand makes.

use serde_json::{Map, Value, json};

use engine::Definitions;
use engine::journey::runtime;

/// The uiSchema keys whose values are copy keys, localised before they are sent.
pub(super) const UI_TEXT_KEYS: [&str; 4] =
    ["ui:title", "ui:description", "ui:help", "ui:placeholder"];

/// A question set as a page's view data carries it: the answers the quote holds for it, the call
/// that saves it, and where its form is (`form`: the schema and the localised UI hints, the same
/// for every quote of the brand in the language, fetched once).
pub(super) fn question_view(
    qs: &engine::definitions::QuestionSet,
    document: &Value,
    call: Option<&str>,
    form: String,
) -> Value {
    let mut answers = runtime::project(&qs.schema, document);
    prefill(&qs.schema, &mut answers, document, 0);
    if let Some(pets) = answers.get_mut("pets").and_then(Value::as_array_mut)
        && pets.is_empty()
    {
        pets.push(json!({}));
    }
    json!({ "id": qs.id, "answers": answers, "submit": call, "form": form })
}

/// Answers a question's schema says to start from elsewhere in the quote (`"x-from": "/owner/…"`,
/// a JSON pointer), where the set holds none yet: the card's billing address starts as the
/// owner's. Only through objects (not lists), and a few levels deep.
fn prefill(schema: &Value, answers: &mut Value, document: &Value, depth: usize) {
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
        return;
    };
    if depth > 4 {
        return;
    }
    for (name, question) in properties {
        if let Some(from) = question.get("x-from").and_then(Value::as_str) {
            let value = document.pointer(from).filter(|v| !v.is_null());
            if let (Some(value), Some(map)) = (value, answers.as_object_mut())
                && !map.contains_key(name)
            {
                map.insert(name.clone(), value.clone());
            }
        } else if question.get("properties").is_some() {
            let Some(map) = answers.as_object_mut() else {
                continue;
            };
            let added = !map.contains_key(name);
            let child = map.entry(name.clone()).or_insert_with(|| json!({}));
            prefill(question, child, document, depth + 1);
            if added && child.as_object().is_some_and(Map::is_empty) {
                map.remove(name);
            }
        }
    }
}

/// A question set's form as the brand draws it in a language: the schema, and the UI hints with
/// their copy keys in words; only the species the brand insures offered (journey.md §1).
pub fn form_view(
    voice: &engine::Voice<'_>,
    qs: &engine::definitions::QuestionSet,
    brand: &engine::definitions::Brand,
) -> Value {
    let mut form = json!({ "schema": qs.schema, "ui": localise_ui(voice, &qs.ui) });
    offer_brand_species(&mut form, brand);
    form
}

/// Replaces the copy keys in a uiSchema with their text in the brand's voice.
pub fn localise_ui(voice: &engine::Voice<'_>, ui: &Value) -> Value {
    match ui {
        Value::Object(map) => {
            let mut out = Map::new();
            for (k, v) in map {
                let localised = match (k.as_str(), v) {
                    (key, Value::String(copy_key)) if UI_TEXT_KEYS.contains(&key) => {
                        Value::String(voice.t(copy_key))
                    }
                    ("ui:enumNames", Value::Array(items)) => Value::Array(
                        items
                            .iter()
                            .map(|i| match i {
                                Value::String(s) => Value::String(voice.t(s)),
                                other => other.clone(),
                            })
                            .collect(),
                    ),
                    _ => localise_ui(voice, v),
                };
                out.insert(k.clone(), localised);
            }
            Value::Object(out)
        }
        other => other.clone(),
    }
}

/// The owner as stored, with what is derived from the promotions data on every request
/// (owner-payment.md §3 Owner: the promo code's description and summary, whether it is a Nectar
/// promotion), so a changed promotion never leaves stale text on a quote.
pub(super) fn owner_view(defs: &Definitions, voice: &engine::Voice<'_>, document: &Value) -> Value {
    let mut owner = document.get("owner").cloned().unwrap_or(json!({}));
    let code = owner
        .get("promotional_code")
        .and_then(Value::as_str)
        .filter(|c| !c.is_empty())
        .map(str::to_owned);
    if let (Some(code), Some(map)) = (code, owner.as_object_mut())
        && let Some(p) = defs.promo_code(&code)
    {
        let t = |k: &str| Value::String(voice.t(k));
        map.insert("promotional_code_description".into(), t(&p.description));
        map.insert("promotional_code_summary".into(), t(&p.summary));
        map.insert("isNectarPromo".into(), Value::Bool(p.nectar));
    }
    owner
}

/// Draws only the species the brand insures (journey.md §1: rabbits on some brands): the pet
/// type's options and their labels, in step. The server's rule `pet_species_offered` refuses
/// any other whatever the page draws.
pub(super) fn offer_brand_species(questions: &mut Value, brand: &engine::definitions::Brand) {
    let offered = |v: &Value| {
        v.as_str()
            .and_then(engine::definitions::Species::parse)
            .is_none_or(|s| brand.offers(s))
    };
    let Some(options) = questions
        .pointer("/schema/properties/pets/items/properties/pet_type/enum")
        .and_then(Value::as_array)
        .cloned()
    else {
        return;
    };
    let keep: Vec<bool> = options.iter().map(offered).collect();
    let filter = |items: &Vec<Value>| -> Vec<Value> {
        items
            .iter()
            .zip(&keep)
            .filter(|(_, k)| **k)
            .map(|(v, _)| v.clone())
            .collect()
    };
    if let Some(e) = questions.pointer_mut("/schema/properties/pets/items/properties/pet_type/enum")
    {
        *e = Value::Array(filter(&options));
    }
    if let Some(Value::Array(names)) = questions.pointer_mut("/ui/pets/items/pet_type/ui:enumNames")
        && names.len() == keep.len()
    {
        *names = filter(names);
    }
}
