//! UK address lookup (owner-payment.md §2 address search, §3 Address lookup items, §5 Address
//! search, §7 Address search and third-party lookup). Two providers chosen by configuration: the
//! built-in one, a data file shipped with pawpath that works offline, and a Loqate-compatible
//! client (Capture Interactive Find v1.10, then Retrieve). The search is by postcode, narrowed by
//! a house name or number when one is given.

use std::collections::BTreeMap;
use std::time::Duration;

use engine::definitions::postcode::Postcode;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One result of a search: an address, or (from Loqate) a container searched again.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct FoundItem {
    pub id: String,
    #[serde(rename = "Type")]
    pub kind: String,
    pub text: String,
    pub highlight: String,
    pub description: String,
}

/// A retrieved address, in Loqate's field names.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct Address {
    pub line1: String,
    #[serde(default)]
    pub line2: String,
    pub city: String,
    #[serde(default)]
    pub province: String,
    pub postal_code: String,
    #[serde(default)]
    pub admin_area_name: String,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LookupError {
    /// The provider answered with an error item, or not at all.
    #[error("address lookup failed: {0}")]
    Provider(String),
}

/// The most results a search returns (owner-payment.md §5: up to 10).
pub const LIMIT: usize = 10;

pub enum AddressLookup {
    BuiltIn(BuiltInAddresses),
    Loqate(LoqateClient),
}

impl AddressLookup {
    /// Addresses at `postcode`, those matching `house` (a name or number) when one is given.
    pub async fn find(
        &self,
        postcode: &Postcode,
        house: Option<&str>,
    ) -> Result<Vec<FoundItem>, LookupError> {
        let started = std::time::Instant::now();
        let found = match self {
            AddressLookup::BuiltIn(b) => Ok(b.find(postcode, house)),
            AddressLookup::Loqate(l) => l.find(postcode, house).await,
        };
        crate::metrics::provider("address", "find", found.is_ok(), started.elapsed());
        found
    }

    /// The address with this id, if it exists.
    pub async fn retrieve(&self, id: &str) -> Result<Option<Address>, LookupError> {
        let started = std::time::Instant::now();
        let found = match self {
            AddressLookup::BuiltIn(b) => Ok(b.retrieve(id)),
            AddressLookup::Loqate(l) => l.retrieve(id).await,
        };
        crate::metrics::provider("address", "retrieve", found.is_ok(), started.elapsed());
        found
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct AddressFile {
    #[serde(rename = "$schema")]
    _schema: String,
    #[serde(rename = "description")]
    _description: String,
    postcodes: Vec<Street>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct Street {
    postcode: String,
    street: String,
    town: String,
    numbers: [u32; 2],
    names: Vec<String>,
}

const FILE: &str = "server/data/addresses.json";
const DATA: &str = include_str!("../data/addresses.json");
const SCHEMA: &str = include_str!("../data/addresses.schema.json");

/// The built-in provider: `server/data/addresses.json`, checked against its schema at start.
#[derive(Debug, Clone)]
pub struct BuiltInAddresses {
    by_postcode: BTreeMap<String, Street>,
}

impl BuiltInAddresses {
    pub fn load() -> Result<Self, String> {
        Self::from_text(DATA)
    }

    pub fn from_text(text: &str) -> Result<Self, String> {
        let file: AddressFile = crate::data_file::load(FILE, text, SCHEMA)?;
        let mut by_postcode = BTreeMap::new();
        for (i, street) in file.postcodes.into_iter().enumerate() {
            if street.numbers[0] > street.numbers[1] {
                return Err(format!(
                    "{FILE} at /postcodes/{i}/numbers: the first number is after the last"
                ));
            }
            let key = Postcode::parse(&street.postcode)
                .ok_or_else(|| format!("{FILE} at /postcodes/{i}/postcode: not a UK postcode"))?
                .compact();
            if by_postcode.insert(key, street).is_some() {
                return Err(format!(
                    "{FILE} at /postcodes/{i}/postcode: the postcode is used twice"
                ));
            }
        }
        Ok(Self { by_postcode })
    }

    /// Every house at the postcode, named ones first, as (id, first line).
    fn houses(street: &Street, key: &str) -> Vec<(String, String)> {
        let named = street
            .names
            .iter()
            .enumerate()
            .map(|(i, n)| (format!("{key}|n{i}"), format!("{n}, {}", street.street)));
        let numbered = (street.numbers[0]..=street.numbers[1])
            .map(|n| (format!("{key}|{n}"), format!("{n} {}", street.street)));
        named.chain(numbered).collect()
    }

    pub fn find(&self, postcode: &Postcode, house: Option<&str>) -> Vec<FoundItem> {
        let key = postcode.compact();
        let Some(street) = self.by_postcode.get(&key) else {
            return Vec::new();
        };
        let wanted = house
            .map(|h| h.trim().to_lowercase())
            .filter(|h| !h.is_empty());
        let description = format!("{}, {}", street.town, postcode);
        let items = Self::houses(street, &key)
            .into_iter()
            .filter(|(_, line)| match &wanted {
                None => true,
                Some(h) => {
                    let line = line.to_lowercase();
                    line.starts_with(&format!("{h} "))
                        || line.starts_with(&format!("{h},"))
                        || (!h.chars().all(|c| c.is_ascii_digit()) && line.contains(h.as_str()))
                }
            })
            .map(|(id, line)| FoundItem {
                id,
                kind: "Address".into(),
                highlight: String::new(),
                text: line,
                description: description.clone(),
            });
        // A postcode holds a street at most: all of it when no house is given.
        match wanted {
            Some(_) => items.take(LIMIT).collect(),
            None => items.collect(),
        }
    }

    pub fn retrieve(&self, id: &str) -> Option<Address> {
        let (key, house) = id.split_once('|')?;
        let street = self.by_postcode.get(key)?;
        let line1 = if let Some(i) = house.strip_prefix('n') {
            let name = street.names.get(i.parse::<usize>().ok()?)?;
            (format!("{name}, {}", street.street), String::new())
        } else {
            let n: u32 = house.parse().ok()?;
            if n < street.numbers[0] || n > street.numbers[1] {
                return None;
            }
            (format!("{n} {}", street.street), String::new())
        };
        let postcode = Postcode::parse(key)?;
        Some(Address {
            line1: line1.0,
            line2: line1.1,
            city: street.town.clone(),
            province: String::new(),
            postal_code: postcode.to_string(),
            admin_area_name: String::new(),
        })
    }
}

/// The Loqate-compatible provider. The key is configuration and never logged.
pub struct LoqateClient {
    base: String,
    key: String,
    http: reqwest::Client,
}

impl std::fmt::Debug for LoqateClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LoqateClient")
            .field("base", &self.base)
            .field("key", &"…")
            .finish()
    }
}

/// How deep a search follows containers (a street inside a postcode, say) before giving up.
const MAX_CONTAINER_DEPTH: usize = 3;

impl LoqateClient {
    /// `base` is the service root, for example `https://api.addressy.com`.
    pub fn new(base: &str, key: &str) -> Result<Self, String> {
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(10))
            .build()
            .map_err(|e| format!("cannot build the HTTP client: {e}"))?;
        Ok(Self {
            base: base.trim_end_matches('/').to_owned(),
            key: key.to_owned(),
            http,
        })
    }

    async fn call(&self, path: &str, params: &[(&str, &str)]) -> Result<Vec<Value>, LookupError> {
        let url = format!("{}{path}", self.base);
        let mut form: Vec<(&str, &str)> = vec![("Key", self.key.as_str())];
        form.extend_from_slice(params);
        let response = self
            .http
            .post(&url)
            .form(&form)
            .send()
            .await
            .map_err(|e| LookupError::Provider(format!("{path}: {}", e.without_url())))?;
        if !response.status().is_success() {
            return Err(LookupError::Provider(format!(
                "{path}: HTTP {}",
                response.status()
            )));
        }
        let body: Value = response
            .json()
            .await
            .map_err(|e| LookupError::Provider(format!("{path}: not JSON: {}", e.without_url())))?;
        let items = body
            .get("Items")
            .and_then(Value::as_array)
            .cloned()
            .ok_or_else(|| LookupError::Provider(format!("{path}: no Items in the answer")))?;
        // Errors arrive as Items [{Error, Description, Cause, Resolution}].
        if let Some(e) = items.iter().find(|i| i.get("Error").is_some()) {
            let text = |k: &str| e.get(k).map(|v| v.to_string()).unwrap_or_default();
            return Err(LookupError::Provider(format!(
                "{path}: error {} {} ({}; {})",
                text("Error"),
                text("Description"),
                text("Cause"),
                text("Resolution")
            )));
        }
        Ok(items)
    }

    pub async fn find(
        &self,
        postcode: &Postcode,
        house: Option<&str>,
    ) -> Result<Vec<FoundItem>, LookupError> {
        let text = match house.map(str::trim).filter(|h| !h.is_empty()) {
            Some(h) => format!("{h} {postcode}"),
            None => postcode.to_string(),
        };
        let limit = LIMIT.to_string();
        let mut container = String::new();
        for _ in 0..=MAX_CONTAINER_DEPTH {
            let mut params = vec![
                ("Text", text.as_str()),
                ("IsMiddleware", "false"),
                ("Origin", ""),
                ("Countries", "GB"),
                ("Limit", limit.as_str()),
                ("Language", "en-gb"),
            ];
            if !container.is_empty() {
                params.push(("Container", container.as_str()));
            }
            let items: Vec<FoundItem> = self
                .call("/Capture/Interactive/Find/v1.10/json3.ws", &params)
                .await?
                .iter()
                .filter_map(|i| {
                    let s = |k: &str| {
                        i.get(k)
                            .and_then(Value::as_str)
                            .unwrap_or_default()
                            .to_owned()
                    };
                    let id = s("Id");
                    (!id.is_empty()).then(|| FoundItem {
                        id,
                        kind: s("Type"),
                        text: s("Text"),
                        highlight: s("Highlight"),
                        description: s("Description"),
                    })
                })
                .collect();
            // A single non-address result (the postcode, a street) is a container: search inside.
            match items.as_slice() {
                [only] if only.kind != "Address" => container = only.id.clone(),
                _ => {
                    return Ok(items.into_iter().filter(|i| i.kind == "Address").collect());
                }
            }
        }
        Ok(Vec::new())
    }

    pub async fn retrieve(&self, id: &str) -> Result<Option<Address>, LookupError> {
        let items = self
            .call("/Capture/Interactive/Retrieve/v1.2/json3.ws", &[("Id", id)])
            .await?;
        let Some(first) = items.into_iter().next() else {
            return Ok(None);
        };
        let s = |k: &str| {
            first
                .get(k)
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned()
        };
        Ok(Some(Address {
            line1: s("Line1"),
            line2: s("Line2"),
            city: s("City"),
            province: s("Province"),
            postal_code: s("PostalCode"),
            admin_area_name: s("AdminAreaName"),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_file_covers_every_postcode_area() {
        let b = BuiltInAddresses::load().expect("loads");
        let areas: std::collections::BTreeSet<String> = b
            .by_postcode
            .keys()
            .map(|k| k.chars().take_while(char::is_ascii_alphabetic).collect())
            .collect();
        assert_eq!(areas.len(), 121, "{areas:?}");
    }

    #[test]
    fn a_broken_file_names_the_place() {
        let e = BuiltInAddresses::from_text(
            r#"{"$schema":"x","description":"d","postcodes":[{"postcode":"BS11 8NN","street":"A","town":"B","numbers":[9,2],"names":[]}]}"#,
        )
        .expect_err("broken");
        assert!(e.contains("/postcodes/0/numbers"), "{e}");
        let e = BuiltInAddresses::from_text(
            r#"{"$schema":"x","description":"d","postcodes":[{"postcode":"nope"}]}"#,
        )
        .expect_err("broken");
        assert!(
            e.contains("server/data/addresses.json at /postcodes/0"),
            "{e}"
        );
    }
}
