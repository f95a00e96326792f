//! The loader: reads every definition file, checks it against its own schema (the copies in
//! `journeys/schemas/` and `questions/schemas/`, built into the binary), deserialises it with
//! unknown fields refused, and reports every problem with the file and the JSON path.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::definitions::brands::Brand;
use crate::definitions::catalogues::{BreedFile, PromotionFile, RehomingFile};
use crate::definitions::error::{DefinitionError, DefinitionErrors};
use crate::definitions::journeys::{CopyCatalogue, GuardFile, Journey, QuestionSet};
use crate::definitions::pages::PagesFile;

/// A definition together with the file it came from, so later checks can name it.
#[derive(Debug, Clone)]
pub struct Sourced<T> {
    pub file: String,
    pub value: T,
    /// The file as parsed JSON, kept for lints that walk it generically.
    pub raw: Value,
}

/// The whole definition set, as loaded (not yet linted or compiled).
#[derive(Debug, Clone, Default)]
pub struct RawDefinitions {
    pub journeys: Vec<Sourced<Journey>>,
    pub guards: Vec<Sourced<GuardFile>>,
    pub question_sets: Vec<Sourced<QuestionSet>>,
    pub copy: Vec<Sourced<CopyCatalogue>>,
    pub breeds: Vec<Sourced<BreedFile>>,
    pub promotions: Vec<Sourced<PromotionFile>>,
    pub rehoming: Vec<Sourced<RehomingFile>>,
    pub rates: Vec<Sourced<crate::definitions::rates::RateFile>>,
    pub documents: Vec<Sourced<crate::definitions::documents::DocumentFile>>,
    pub experiments: Vec<Sourced<crate::definitions::experiments::ExperimentFile>>,
    pub brands: Vec<Sourced<Brand>>,
    pub pages: Vec<Sourced<PagesFile>>,
    /// The views manifest (journeys/views.json).
    pub views: Vec<Sourced<crate::definitions::views::ViewsFile>>,
    /// The brands' logos: file name (`pos.svg`) → the checked SVG text.
    pub logos: BTreeMap<String, String>,
    /// A digest of every file's name and bytes: the definition version quotes record.
    pub version: String,
    /// Every file as read (path relative to the root, contents), in the order digested: what a
    /// server keeps of each version it runs, so an old quote replays on its own definitions
    /// through a [`MemoryLoader`].
    pub files: Vec<(String, String)>,
}

/// Where definition files come from.
pub trait Loader {
    /// Every definition file as (path relative to the root, contents), in a stable order.
    fn files(&self) -> Result<Vec<(String, String)>, DefinitionErrors>;
}

/// Reads `journeys/*.json`, `questions/*.json`, `questions/copy/*.json` and
/// `questions/breeds/*.json` under a root folder.
#[derive(Debug, Clone)]
pub struct FsLoader {
    pub root: PathBuf,
}

impl FsLoader {
    pub fn new(root: impl Into<PathBuf>) -> Self {
        Self { root: root.into() }
    }
}

/// The folders definitions are read from, each with the kind of file it holds: JSON
/// definitions, or the brands' SVG logos.
const DEFINITION_FOLDERS: [(&str, &str); 7] = [
    ("journeys", "json"),
    ("journeys/brands", "json"),
    ("journeys/brands/logos", "svg"),
    ("journeys/products", "json"),
    ("questions", "json"),
    ("questions/copy", "json"),
    ("questions/breeds", "json"),
];

/// Where the brands' logos are; a brand's `logo` names a file here.
pub const LOGO_FOLDER: &str = "journeys/brands/logos";

impl Loader for FsLoader {
    fn files(&self) -> Result<Vec<(String, String)>, DefinitionErrors> {
        let mut out = Vec::new();
        let mut errors = Vec::new();
        for (folder, extension) in DEFINITION_FOLDERS {
            let dir = self.root.join(folder);
            let entries = match std::fs::read_dir(&dir) {
                Ok(entries) => entries,
                Err(e) => {
                    errors.push(DefinitionError::new(
                        folder,
                        "",
                        format!("cannot read folder {}: {e}", dir.display()),
                    ));
                    continue;
                }
            };
            let mut names: Vec<PathBuf> = entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == extension))
                .collect();
            names.sort();
            for path in names {
                let rel = relative(&self.root, &path);
                match std::fs::read_to_string(&path) {
                    Ok(text) => out.push((rel, text)),
                    Err(e) => errors.push(DefinitionError::new(
                        rel,
                        "",
                        format!("cannot read file: {e}"),
                    )),
                }
            }
        }
        if errors.is_empty() {
            Ok(out)
        } else {
            Err(DefinitionErrors(errors))
        }
    }
}

fn relative(root: &Path, path: &Path) -> String {
    path.strip_prefix(root)
        .unwrap_or(path)
        .to_string_lossy()
        .replace('\\', "/")
}

/// Definition files held in memory, for tests.
#[derive(Debug, Clone, Default)]
pub struct MemoryLoader {
    pub files: Vec<(String, String)>,
}

impl Loader for MemoryLoader {
    fn files(&self) -> Result<Vec<(String, String)>, DefinitionErrors> {
        Ok(self.files.clone())
    }
}

/// The kinds of definition file, told apart by the file name their `$schema` points at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Journey,
    Guards,
    QuestionSet,
    Copy,
    Breeds,
    Promotions,
    Rehoming,
    Rates,
    Documents,
    Experiments,
    Brand,
    Pages,
    Views,
}

const PAGES_SCHEMA: &str = include_str!("../../../journeys/schemas/pages.schema.json");
const VIEWS_SCHEMA: &str = include_str!("../../../journeys/schemas/views.schema.json");
const BRAND_SCHEMA: &str = include_str!("../../../journeys/schemas/brand.schema.json");
const EXPERIMENTS_SCHEMA: &str = include_str!("../../../journeys/schemas/experiments.schema.json");
const DOCUMENTS_SCHEMA: &str = include_str!("../../../journeys/schemas/documents.schema.json");
const RATES_SCHEMA: &str = include_str!("../../../journeys/schemas/rates.schema.json");

const REHOMING_SCHEMA: &str = include_str!("../../../journeys/schemas/rehoming.schema.json");
const PROMOTIONS_SCHEMA: &str = include_str!("../../../journeys/schemas/promotions.schema.json");
const JOURNEY_SCHEMA: &str = include_str!("../../../journeys/schemas/journey.schema.json");
const GUARDS_SCHEMA: &str = include_str!("../../../journeys/schemas/guards.schema.json");
const QUESTION_SET_SCHEMA: &str =
    include_str!("../../../questions/schemas/question-set.schema.json");
const COPY_SCHEMA: &str = include_str!("../../../questions/schemas/copy.schema.json");
const BREEDS_SCHEMA: &str = include_str!("../../../questions/schemas/breeds.schema.json");

impl Kind {
    fn from_schema_ref(schema_ref: &str) -> Option<Self> {
        let name = schema_ref.rsplit('/').next().unwrap_or(schema_ref);
        match name {
            "journey.schema.json" => Some(Kind::Journey),
            "guards.schema.json" => Some(Kind::Guards),
            "question-set.schema.json" => Some(Kind::QuestionSet),
            "copy.schema.json" => Some(Kind::Copy),
            "breeds.schema.json" => Some(Kind::Breeds),
            "promotions.schema.json" => Some(Kind::Promotions),
            "rehoming.schema.json" => Some(Kind::Rehoming),
            "rates.schema.json" => Some(Kind::Rates),
            "documents.schema.json" => Some(Kind::Documents),
            "experiments.schema.json" => Some(Kind::Experiments),
            "brand.schema.json" => Some(Kind::Brand),
            "pages.schema.json" => Some(Kind::Pages),
            "views.schema.json" => Some(Kind::Views),
            _ => None,
        }
    }

    fn meta_schema(self) -> &'static str {
        match self {
            Kind::Journey => JOURNEY_SCHEMA,
            Kind::Guards => GUARDS_SCHEMA,
            Kind::QuestionSet => QUESTION_SET_SCHEMA,
            Kind::Copy => COPY_SCHEMA,
            Kind::Breeds => BREEDS_SCHEMA,
            Kind::Promotions => PROMOTIONS_SCHEMA,
            Kind::Rehoming => REHOMING_SCHEMA,
            Kind::Rates => RATES_SCHEMA,
            Kind::Documents => DOCUMENTS_SCHEMA,
            Kind::Experiments => EXPERIMENTS_SCHEMA,
            Kind::Brand => BRAND_SCHEMA,
            Kind::Pages => PAGES_SCHEMA,
            Kind::Views => VIEWS_SCHEMA,
        }
    }
}

/// Reads and parses every file. Collects all problems before failing.
pub fn load(loader: &dyn Loader) -> Result<RawDefinitions, DefinitionErrors> {
    let files = loader.files()?;
    let mut defs = RawDefinitions::default();
    let mut errors = Vec::new();
    let mut digest = Sha256::new();
    let validators = MetaValidators::new();
    // Question sets that extend another (`extends` + `patch`), with their files.
    let mut variants: Vec<(String, Value)> = Vec::new();

    for (file, text) in &files {
        digest.update(file.as_bytes());
        digest.update([0]);
        digest.update(text.as_bytes());
        digest.update([0]);

        if let Some(name) = file
            .strip_prefix(LOGO_FOLDER)
            .and_then(|n| n.strip_prefix('/'))
            .filter(|n| n.ends_with(".svg"))
        {
            match check_svg(text) {
                Ok(()) => {
                    defs.logos.insert(name.to_owned(), text.clone());
                }
                Err(problem) => errors.push(DefinitionError::new(
                    file,
                    "",
                    format!("{problem}. Fix: draw the logo as plain SVG shapes and text, with nothing that runs or fetches"),
                )),
            }
            continue;
        }

        let raw: Value = match serde_json::from_str(text) {
            Ok(v) => v,
            Err(e) => {
                errors.push(DefinitionError::new(
                    file,
                    "",
                    format!("not valid JSON: {e}. Fix: correct the JSON at that line and column"),
                ));
                continue;
            }
        };
        let Some(schema_ref) = raw.get("$schema").and_then(Value::as_str) else {
            errors.push(DefinitionError::new(
                file,
                "/$schema",
                "missing: every definition names its schema (journey, guards, question-set or copy). Fix: add \"$schema\" with the relative path of its schema",
            ));
            continue;
        };
        let Some(kind) = Kind::from_schema_ref(schema_ref) else {
            errors.push(DefinitionError::new(
                file,
                "/$schema",
                format!("unknown schema {schema_ref:?}. Fix: name one of the schemas under journeys/schemas/ or questions/schemas/"),
            ));
            continue;
        };
        let schema_errors = validators.check(kind, &raw);
        if !schema_errors.is_empty() {
            errors.extend(
                schema_errors
                    .into_iter()
                    .map(|(path, problem)| {
                        DefinitionError::new(
                            file,
                            path,
                            format!("{problem}. Fix: make it match the schema the file names in $schema ({schema_ref})"),
                        )
                    }),
            );
            continue;
        }
        if kind == Kind::QuestionSet && raw.get("extends").is_some() {
            // Resolved once every base set is read.
            variants.push((file.clone(), raw));
            continue;
        }
        let result = match kind {
            Kind::Journey => parse_into(&mut defs.journeys, file, raw),
            Kind::Guards => parse_into(&mut defs.guards, file, raw),
            Kind::QuestionSet => parse_into(&mut defs.question_sets, file, raw),
            Kind::Copy => parse_into(&mut defs.copy, file, raw),
            Kind::Breeds => parse_into(&mut defs.breeds, file, raw),
            Kind::Promotions => parse_into(&mut defs.promotions, file, raw),
            Kind::Rehoming => parse_into(&mut defs.rehoming, file, raw),
            Kind::Rates => parse_into(&mut defs.rates, file, raw),
            Kind::Documents => parse_into(&mut defs.documents, file, raw),
            Kind::Experiments => parse_into(&mut defs.experiments, file, raw),
            Kind::Brand => parse_into(&mut defs.brands, file, raw),
            Kind::Pages => parse_into(&mut defs.pages, file, raw),
            Kind::Views => parse_into(&mut defs.views, file, raw),
        };
        if let Err(e) = result {
            errors.push(e);
        }
    }
    for (file, raw) in variants {
        match resolve_variant(&defs.question_sets, &file, &raw) {
            Ok(resolved) => {
                let schema_errors = validators.check(Kind::QuestionSet, &resolved);
                if schema_errors.is_empty() {
                    if let Err(e) = parse_into(&mut defs.question_sets, &file, resolved) {
                        errors.push(e);
                    }
                } else {
                    errors.extend(schema_errors.into_iter().map(|(path, problem)| {
                        DefinitionError::new(
                            &file,
                            path,
                            format!("once patched: {problem}. Fix: correct the variant's patch so the result matches the question-set schema"),
                        )
                    }));
                }
            }
            Err(e) => errors.push(e),
        }
    }
    defs.files = files;
    defs.version = digest
        .finalize()
        .iter()
        .take(8)
        .map(|b| format!("{b:02x}"))
        .collect();
    if errors.is_empty() {
        Ok(defs)
    } else {
        Err(DefinitionErrors(errors))
    }
}

/// A question set that extends another: the base's `{schema, ui}` with the variant's `patch`
/// merged over it (JSON Merge Patch, RFC 7396), under the variant's own id, description and
/// `$id`. The base must be a set of its own (not itself a variant).
fn resolve_variant(
    sets: &[Sourced<QuestionSet>],
    file: &str,
    raw: &Value,
) -> Result<Value, DefinitionError> {
    let base_id = raw
        .get("extends")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let id = raw.get("id").and_then(Value::as_str).unwrap_or_default();
    let Some(base) = sets.iter().find(|s| s.value.id == base_id) else {
        let known: Vec<&str> = sets.iter().map(|s| s.value.id.as_str()).collect();
        return Err(DefinitionError::new(
            file,
            "/extends",
            format!(
                "no question set {base_id:?} to extend (a variant extends a set that has its own schema and ui; those are: {})",
                known.join(", ")
            ),
        ));
    };
    let mut merged = serde_json::json!({ "schema": base.raw["schema"], "ui": base.raw["ui"] });
    merge_patch(&mut merged, raw.get("patch").unwrap_or(&Value::Null));
    merged["schema"]["$id"] = Value::from(format!("pawpath:questions/{id}"));
    let mut resolved = serde_json::Map::new();
    for key in ["$schema", "id", "description"] {
        if let Some(v) = raw.get(key) {
            resolved.insert(key.to_owned(), v.clone());
        }
    }
    resolved.insert("schema".into(), merged["schema"].take());
    resolved.insert("ui".into(), merged["ui"].take());
    Ok(Value::Object(resolved))
}

/// JSON Merge Patch (RFC 7396): objects merge key by key, `null` removes, anything else replaces.
pub fn merge_patch(target: &mut Value, patch: &Value) {
    let Value::Object(patch) = patch else {
        *target = patch.clone();
        return;
    };
    if !target.is_object() {
        *target = Value::Object(serde_json::Map::new());
    }
    if let Value::Object(target) = target {
        for (key, value) in patch {
            if value.is_null() {
                target.remove(key);
            } else {
                merge_patch(target.entry(key.clone()).or_insert(Value::Null), value);
            }
        }
    }
}

/// A logo is served to every customer as an image: it must be an SVG document and nothing that
/// could act or fetch (no scripts, event handlers, foreign objects or outside references).
fn check_svg(text: &str) -> Result<(), String> {
    let body = text.trim_start();
    let body = match body.strip_prefix("<?xml") {
        Some(rest) => rest.split_once("?>").map_or("", |(_, r)| r).trim_start(),
        None => body,
    };
    if !body.starts_with("<svg") {
        return Err("not an SVG document: it must start with <svg".into());
    }
    if !body.contains("xmlns=\"http://www.w3.org/2000/svg\"") {
        return Err("the <svg> element needs xmlns=\"http://www.w3.org/2000/svg\"".into());
    }
    if !body.contains("<title") {
        return Err("the logo needs a <title> naming the brand, for screen readers".into());
    }
    let lower = body.to_ascii_lowercase();
    for banned in [
        "<script",
        "<foreignobject",
        "javascript:",
        "href=\"http",
        "url(http",
        "@import",
    ] {
        if lower.contains(banned) {
            return Err(format!("logos may not contain {banned:?}"));
        }
    }
    let handler = lower.match_indices(" on").any(|(i, _)| {
        let rest = &lower[i + 3..];
        let name_len = rest.chars().take_while(char::is_ascii_alphabetic).count();
        name_len > 0 && rest[name_len..].trim_start().starts_with('=')
    });
    if handler {
        return Err("logos may not contain event handler attributes (on…=)".into());
    }
    Ok(())
}

/// Parses one file into its typed list, keeping where it came from.
fn parse_into<T: serde::de::DeserializeOwned>(
    list: &mut Vec<Sourced<T>>,
    file: &str,
    raw: Value,
) -> Result<(), DefinitionError> {
    let value = parse(file, &raw)?;
    list.push(Sourced {
        file: file.to_owned(),
        value,
        raw,
    });
    Ok(())
}

fn parse<T: serde::de::DeserializeOwned>(file: &str, raw: &Value) -> Result<T, DefinitionError> {
    serde_path_to_error::deserialize(raw).map_err(|e| {
        let path = json_pointer_from_serde_path(&e.path().to_string());
        DefinitionError::new(file, path, e.inner().to_string())
    })
}

/// `steps[3].exits[0].to` → `/steps/3/exits/0/to`.
fn json_pointer_from_serde_path(path: &str) -> String {
    if path == "." {
        return String::new();
    }
    let mut out = String::new();
    for part in path.split('.') {
        let mut rest = part;
        while let Some(open) = rest.find('[') {
            let (name, tail) = rest.split_at(open);
            if !name.is_empty() {
                out.push('/');
                out.push_str(name);
            }
            let close = tail.find(']').unwrap_or(tail.len());
            out.push('/');
            out.push_str(&tail[1..close]);
            rest = tail.get(close + 1..).unwrap_or("");
        }
        if !rest.is_empty() {
            out.push('/');
            out.push_str(rest);
        }
    }
    out
}

struct MetaValidators {
    compiled: Vec<(Kind, jsonschema::Validator)>,
}

impl MetaValidators {
    fn new() -> Self {
        let compiled = [
            Kind::Journey,
            Kind::Guards,
            Kind::QuestionSet,
            Kind::Copy,
            Kind::Breeds,
            Kind::Promotions,
            Kind::Rehoming,
            Kind::Rates,
            Kind::Documents,
            Kind::Experiments,
            Kind::Brand,
            Kind::Pages,
            Kind::Views,
        ]
        .into_iter()
        .map(|kind| {
            // The meta-schemas are part of the source tree and covered by tests; a broken one
            // is a build defect, not bad input.
            #[expect(clippy::expect_used, reason = "built-in schemas are tested")]
            let schema: Value =
                serde_json::from_str(kind.meta_schema()).expect("built-in schema is JSON");
            #[expect(clippy::expect_used, reason = "built-in schemas are tested")]
            let validator = jsonschema::validator_for(&schema).expect("built-in schema compiles");
            (kind, validator)
        })
        .collect();
        Self { compiled }
    }

    fn check(&self, kind: Kind, raw: &Value) -> Vec<(String, String)> {
        let Some((_, validator)) = self.compiled.iter().find(|(k, _)| *k == kind) else {
            return vec![];
        };
        validator
            .iter_errors(raw)
            .map(|e| (e.instance_path().as_str().to_owned(), e.to_string()))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serde_paths_become_json_pointers() {
        assert_eq!(
            json_pointer_from_serde_path("steps[3].exits[0].to"),
            "/steps/3/exits/0/to"
        );
        assert_eq!(json_pointer_from_serde_path("start"), "/start");
        assert_eq!(json_pointer_from_serde_path("."), "");
    }

    #[test]
    fn built_in_meta_schemas_compile() {
        let v = MetaValidators::new();
        assert_eq!(v.compiled.len(), 13);
    }
}
