//! A JSON body extractor whose every failure is a JSON error naming the problem.

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{FromRequest, Request};
use axum::http::StatusCode;
use axum::http::header::CONTENT_TYPE;
use serde_json::{Map, Value};

use crate::service::error::AppError;

/// A request body that is a JSON object.
pub struct JsonObject(pub Map<String, Value>);

impl<S: Send + Sync> FromRequest<S> for JsonObject {
    type Rejection = AppError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        // A page call that sent its CSRF token only in the body: a body that cannot be read
        // has no token, and is refused as such before anything is said about the body.
        let token_in_body = req
            .extensions()
            .get::<crate::http::csrf::TokenInBody>()
            .is_some();
        Self::read(req, state).await.map_err(|e| {
            if token_in_body
                && matches!(
                    e,
                    AppError::BadRequest(_)
                        | AppError::PayloadTooLarge
                        | AppError::UnsupportedMediaType
                )
            {
                AppError::Csrf
            } else {
                e
            }
        })
    }
}

impl JsonObject {
    async fn read<S: Send + Sync>(req: Request, state: &S) -> Result<Self, AppError> {
        let is_json = req
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| {
                v.split(';')
                    .next()
                    .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json"))
            });
        if !is_json {
            return Err(AppError::UnsupportedMediaType);
        }
        let bytes = Bytes::from_request(req, state)
            .await
            .map_err(|e: BytesRejection| {
                if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
                    AppError::PayloadTooLarge
                } else {
                    AppError::BadRequest(e.body_text())
                }
            })?;
        // Sizes before contents: the values are counted without being built, so a
        // body of thousands of tiny items is refused before it costs memory or validation.
        if too_many_values(&bytes, MAX_VALUES) {
            return Err(AppError::BadRequest(format!(
                "the body holds more than {MAX_VALUES} JSON values"
            )));
        }
        match serde_json::from_slice::<Value>(&bytes) {
            Ok(Value::Object(mut map)) => {
                map.values_mut().for_each(nfc);
                Ok(Self(map))
            }
            Ok(_) => Err(AppError::BadRequest(
                "the body must be a JSON object".into(),
            )),
            Err(e) => Err(AppError::BadRequest(format!(
                "the body is not valid JSON: {e}"
            ))),
        }
    }
}

/// The most JSON values (objects, arrays, strings, numbers, booleans, nulls; keys not counted)
/// one body may hold: ten pets of every answer and the owner's come to a few hundred.
pub const MAX_VALUES: usize = 2_000;

/// Whether `bytes` hold more than `max` JSON values, counted by a pass that builds nothing. A
/// body that is not JSON is not judged here (the parse after says what is wrong with it).
pub fn too_many_values(bytes: &[u8], max: usize) -> bool {
    use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
    use std::cell::Cell;

    struct Count<'a> {
        left: &'a Cell<usize>,
        over: &'a Cell<bool>,
    }
    impl Count<'_> {
        fn tick<E: serde::de::Error>(&self) -> Result<(), E> {
            match self.left.get() {
                0 => {
                    self.over.set(true);
                    Err(E::custom("too many values"))
                }
                n => {
                    self.left.set(n - 1);
                    Ok(())
                }
            }
        }
        fn again(&self) -> Self {
            Count {
                left: self.left,
                over: self.over,
            }
        }
    }
    impl<'de> DeserializeSeed<'de> for Count<'_> {
        type Value = ();
        fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
            d.deserialize_any(self)
        }
    }
    impl<'de> Visitor<'de> for Count<'_> {
        type Value = ();
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("any JSON value")
        }
        fn visit_bool<E: serde::de::Error>(self, _: bool) -> Result<(), E> {
            self.tick()
        }
        fn visit_i64<E: serde::de::Error>(self, _: i64) -> Result<(), E> {
            self.tick()
        }
        fn visit_u64<E: serde::de::Error>(self, _: u64) -> Result<(), E> {
            self.tick()
        }
        fn visit_f64<E: serde::de::Error>(self, _: f64) -> Result<(), E> {
            self.tick()
        }
        fn visit_str<E: serde::de::Error>(self, _: &str) -> Result<(), E> {
            self.tick()
        }
        fn visit_unit<E: serde::de::Error>(self) -> Result<(), E> {
            self.tick()
        }
        fn visit_none<E: serde::de::Error>(self) -> Result<(), E> {
            self.tick()
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
            self.tick()?;
            while seq.next_element_seed(self.again())?.is_some() {}
            Ok(())
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
            self.tick()?;
            while map.next_key::<IgnoredAny>()?.is_some() {
                map.next_value_seed(self.again())?;
            }
            Ok(())
        }
    }

    let left = Cell::new(max);
    let over = Cell::new(false);
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let _ = Count {
        left: &left,
        over: &over,
    }
    .deserialize(&mut de);
    over.get()
}

/// Every text in `value` in Unicode's composed form (NFC), so that a name typed with a
/// combining accent is the same answer as the one typed composed, to the schema's patterns and
/// in storage. Text already composed (nearly all) is left as it is.
fn nfc(value: &mut Value) {
    use unicode_normalization::{IsNormalized, UnicodeNormalization, is_nfc_quick};
    match value {
        Value::String(s) if is_nfc_quick(s.chars()) != IsNormalized::Yes => {
            *s = s.nfc().collect();
        }
        Value::Array(items) => items.iter_mut().for_each(nfc),
        Value::Object(map) => map.values_mut().for_each(nfc),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::too_many_values;

    /// Sizes before contents.
    #[test]
    fn values_are_counted_before_a_body_is_built() {
        let small = br#"{"pets": [{"pet_name": "Biscuit", "pet_type": "dog"}], "csrf": "x"}"#;
        assert!(!too_many_values(small, 100));
        assert!(
            too_many_values(small, 5),
            "object, array, object, two strings, string: 6"
        );
        assert!(!too_many_values(small, 6));
        let many = format!("{{\"pets\": [{}]}}", vec!["{}"; 21_000].join(","));
        assert!(too_many_values(many.as_bytes(), 2_000));
        // Not JSON: left to the parser to name the problem.
        assert!(!too_many_values(b"{not json", 10));
    }
}
