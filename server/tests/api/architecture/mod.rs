//! One way through the code. The engine and the server are each a stack of layers; a
//! file may import its own layer's files and the layers below, never one above, and the files of
//! a layer import each other without a circle. The server's routes never import each other (only
//! the router that assembles them names them). The README's diagrams are made from the same
//! table and the files as they are, so they cannot drift: this test fails when they differ
//! (`UPDATE_SNAPSHOTS=1` rewrites them). The imports are read from the source: every `crate::` and `super::` path, in `use` trees and
//! in expressions, with comments and string literals left out.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

mod source;

use source::{code_only, engine_named, module_of, references, staff_named};

/// A layer: its name, what it is for, and the modules it holds (a top-level module is a file
/// `src/{m}.rs` or a folder `src/{m}/`). Listed from the top down.
struct Layer {
    name: &'static str,
    says: &'static str,
    modules: &'static [&'static str],
}

const ENGINE: &[Layer] = &[
    Layer {
        name: "journey",
        says: "a quote moving through its steps",
        modules: &["journey"],
    },
    Layer {
        name: "rules",
        says: "what no schema can state",
        modules: &["rules"],
    },
    Layer {
        name: "checks",
        says: "what must hold across the definitions; the checked Definitions",
        modules: &["checks"],
    },
    Layer {
        name: "definitions",
        says: "what the files say: types, loading, schemas",
        modules: &["definitions"],
    },
];

const SERVER: &[Layer] = &[
    Layer {
        name: "app",
        says: "start-up, serving, reloading, the command line's work",
        modules: &[
            "main",
            "app",
            "commands",
            "reload",
            "serve",
            "staff_commands",
            "startup",
        ],
    },
    Layer {
        name: "routes",
        says: "HTTP only: extract, call, answer; no route imports another",
        modules: &["routes"],
    },
    Layer {
        name: "http",
        says: "what routes share of HTTP",
        modules: &["http"],
    },
    Layer {
        name: "tools",
        says: "for staff and QA: generated paths, replays, the funnel, commands",
        modules: &["tools"],
    },
    Layer {
        name: "service",
        says: "the session's quote, the transition, the view; no HTTP",
        modules: &["service"],
    },
    Layer {
        name: "integrations",
        says: "the world outside: mail, policy events, payments, lookups",
        modules: &[
            "addresses",
            "banks",
            "events",
            "holidays",
            "mail",
            "payments",
            "policies",
            "sanctions",
            "scanner",
            "vets",
        ],
    },
    Layer {
        name: "store",
        says: "the database",
        modules: &["store"],
    },
    Layer {
        name: "foundations",
        says: "configuration, secrets, sessions, data files, metrics, the log, the workers' loop",
        modules: &[
            "config",
            "crypto",
            "data_file",
            "logs",
            "metrics",
            "session",
            "signed",
            "worker",
        ],
    },
];

/// The layers that know nothing of HTTP: they take typed input and give typed
/// results; the routes and the HTTP layer alone read requests and write answers.
const NO_HTTP: &[&str] = &["tools", "service", "store"];

/// The crates that speak HTTP on the serving side.
const HTTP_CRATES: &[&str] = &["axum", "hyper", "hyper_util", "tower", "tower_http", "http"];

/// The HTTP crates `code` (comments and strings taken out) names as a path's first segment:
/// `use axum::Json`, `axum::http::HeaderMap`, `-> hyper::Response`. A path inside the crate
/// (`crate::http::…`, `super::http`) or a field (`state.http`) is not one.
fn http_crates_named(code: &str) -> Vec<String> {
    let bytes = code.as_bytes();
    let mut out = Vec::new();
    for name in HTTP_CRATES {
        for (at, _) in code.match_indices(&format!("{name}::")) {
            let before = at.checked_sub(1).map(|i| bytes[i]);
            if before
                .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b':' || b == b'.')
            {
                continue;
            }
            if !out.contains(&(*name).to_owned()) {
                out.push((*name).to_owned());
            }
        }
    }
    out
}

// Routes are HTTP only: they take a request apart, call the service and answer, so they import
// neither the store nor an integration (the service does). `Crate::problems` holds them to it.

/// The files of the router, which alone may name the routes (it assembles them, and lists every
/// call for the OpenAPI document).
const ROUTER_FILES: &[&str] = &[
    "routes/mod.rs",
    "routes/call.rs",
    "routes/calls.rs",
    "routes/internal_calls.rs",
    "routes/openapi.rs",
    "routes/test_calls.rs",
];

/// Which files of one layer import which.
type Edges = BTreeMap<Vec<String>, BTreeSet<Vec<String>>>;

struct Crate {
    name: &'static str,
    src: PathBuf,
    layers: &'static [Layer],
    /// Files as module paths → their source file (relative to src).
    files: BTreeMap<Vec<String>, String>,
}

impl Crate {
    fn read(name: &'static str, dir: &str, layers: &'static [Layer]) -> Self {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir).join("src");
        let mut files = BTreeMap::new();
        let mut stack = vec![src.clone()];
        while let Some(d) = stack.pop() {
            for entry in std::fs::read_dir(&d).expect("source folder") {
                let path = entry.expect("entry").path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    let rel = path
                        .strip_prefix(&src)
                        .expect("under src")
                        .to_string_lossy()
                        .replace('\\', "/");
                    files.insert(module_of(&rel), rel);
                }
            }
        }
        Crate {
            name,
            src,
            layers,
            files,
        }
    }

    /// The layer (its index, from the top) of a module; None for the crate root.
    fn layer_of(&self, module: &[String]) -> Option<usize> {
        let top = module.first()?;
        self.layers
            .iter()
            .position(|l| l.modules.contains(&top.as_str()))
    }

    /// The deepest file a path names: its module path.
    fn file_of(&self, path: &[String]) -> Vec<String> {
        (0..=path.len())
            .rev()
            .map(|n| path[..n].to_vec())
            .find(|m| self.files.contains_key(m))
            .unwrap_or_default()
    }

    fn root_file(&self) -> Vec<String> {
        Vec::new()
    }

    /// Every problem with the crate's imports, each naming the file, the path and the rule.
    fn problems(&self) -> (Vec<String>, Edges) {
        let mut problems = Vec::new();
        let mut edges: Edges = BTreeMap::new();
        for (module, rel) in &self.files {
            let is_root = module == &self.root_file() || rel == "main.rs";
            let from_layer = if rel == "main.rs" {
                self.layer_of(&["main".to_owned()])
            } else {
                self.layer_of(module)
            };
            if !is_root && from_layer.is_none() {
                problems.push(format!(
                    "{}/src/{rel}: in no layer. Fix: add its module to a layer in server/tests/api/architecture/mod.rs and server/README.md's diagram",
                    self.name
                ));
                continue;
            }
            let text = std::fs::read_to_string(self.src.join(rel)).expect("source");
            let code = code_only(&text);
            if let Some(layer) = from_layer.filter(|l| NO_HTTP.contains(&self.layers[*l].name)) {
                for name in http_crates_named(&code) {
                    problems.push(format!(
                        "{}/src/{rel}: names {name}, but the {} layer knows nothing of HTTP. Fix: take typed input (service::Caller, the body's fields) and give a typed result (service::Reply, AppError); the route and http/ do the HTTP",
                        self.name, self.layers[layer].name
                    ));
                }
            }
            for path in references(&code, module) {
                let target = self.file_of(&path);
                if target == *module {
                    continue;
                }
                let shown = format!("crate::{}", path.join("::"));
                // The crate root (lib.rs) only declares the modules and re-exports them for
                // the binary and the tests: no file reaches it, so no circle runs through it.
                let to_layer = if target.is_empty() {
                    None
                } else {
                    self.layer_of(&target)
                };
                let Some(from) = from_layer else {
                    // The crate root (lib.rs) declares and assembles everything.
                    continue;
                };
                let Some(to) = to_layer else {
                    problems.push(format!(
                        "{}/src/{rel}: {shown} reaches the crate root, above every layer. Fix: name the module that defines it",
                        self.name
                    ));
                    continue;
                };
                if self.layers[from].name == "routes"
                    && ["store", "integrations"].contains(&self.layers[to].name)
                {
                    problems.push(format!(
                        "{}/src/{rel}: {shown} goes past the service to the {} layer. Fix: call the service, which calls it",
                        self.name, self.layers[to].name
                    ));
                }
                if to < from {
                    problems.push(format!(
                        "{}/src/{rel}: {shown} goes up, from layer {} to layer {}",
                        self.name, self.layers[from].name, self.layers[to].name
                    ));
                    continue;
                }
                if to == from {
                    let routes = self.layers[from].name == "routes";
                    if routes
                        && !ROUTER_FILES.contains(&rel.as_str())
                        && target != vec!["routes".to_owned()]
                    {
                        problems.push(format!(
                            "{}/src/{rel}: {shown} goes across, from one route to another. Fix: move what they share into the service (or http)",
                            self.name
                        ));
                    }
                    if routes
                        && !ROUTER_FILES.contains(&rel.as_str())
                        && target == vec!["routes".to_owned()]
                    {
                        problems.push(format!(
                            "{}/src/{rel}: {shown} reaches into the router. Fix: move what it uses into http or the service",
                            self.name
                        ));
                    }
                    edges.entry(module.clone()).or_default().insert(target);
                }
            }
        }
        (problems, edges)
    }
}

/// A circle among the edges, as the files in it, if there is one.
fn circle(edges: &Edges) -> Option<Vec<String>> {
    fn visit(
        node: &Vec<String>,
        edges: &Edges,
        state: &mut BTreeMap<Vec<String>, u8>,
        stack: &mut Vec<Vec<String>>,
    ) -> Option<Vec<String>> {
        match state.get(node) {
            Some(2) => return None,
            Some(1) => {
                let at = stack.iter().position(|n| n == node).unwrap_or(0);
                let mut names: Vec<String> = stack[at..].iter().map(|n| n.join("::")).collect();
                names.push(node.join("::"));
                return Some(names);
            }
            _ => {}
        }
        state.insert(node.clone(), 1);
        stack.push(node.clone());
        for next in edges.get(node).into_iter().flatten() {
            if let Some(c) = visit(next, edges, state, stack) {
                return Some(c);
            }
        }
        stack.pop();
        state.insert(node.clone(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for node in edges.keys() {
        let mut stack = Vec::new();
        if let Some(c) = visit(node, edges, &mut state, &mut stack) {
            return Some(c);
        }
    }
    None
}

/// The README's diagram of a crate's layers: each with what it is for and its files, each
/// arrow "may import".
fn diagram(c: &Crate) -> String {
    let mut out = format!(
        "```mermaid\n%% {} layers (made by server/tests/api/architecture/)\nflowchart TB\n",
        c.name
    );
    for (i, layer) in c.layers.iter().enumerate() {
        let mut files: Vec<String> = c
            .files
            .iter()
            .filter_map(|(m, rel)| {
                let in_layer = match rel.as_str() {
                    "lib.rs" => false,
                    "main.rs" => layer.modules.contains(&"main"),
                    _ => m
                        .first()
                        .is_some_and(|top| layer.modules.contains(&top.as_str())),
                };
                if !in_layer {
                    return None;
                }
                let name = rel.trim_end_matches(".rs").trim_end_matches("/mod");
                // A layer of one folder shows its files by name; its front is the layer itself.
                match layer.modules {
                    // The folder's front, shown where it holds more than the list of its files.
                    [only] if name == *only => {
                        (!only_declares(&c.src.join(rel))).then(|| "mod".to_owned())
                    }
                    [only] => Some(name.trim_start_matches(&format!("{only}/")).to_owned()),
                    _ => Some(name.to_owned()),
                }
            })
            .collect();
        files.sort();
        let id = format!("{}_{}", c.name, layer.name);
        out.push_str(&format!(
            "  {id}[\"<b>{}</b>: {}<br/>{}\"]\n",
            layer.name,
            layer.says,
            files.join(" · ")
        ));
        if i > 0 {
            out.push_str(&format!("  {}_{} --> {id}\n", c.name, c.layers[i - 1].name));
        }
    }
    out.push_str("```\n");
    out
}

/// Whether a file only declares modules and re-exports them (a folder's front with nothing of
/// its own).
fn only_declares(path: &Path) -> bool {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    code_only(&text).lines().map(str::trim).all(|l| {
        l.is_empty()
            || l.starts_with("#[")
            || ((l.starts_with("pub mod ") || l.starts_with("mod ") || l.starts_with("pub use "))
                && l.ends_with(';'))
    })
}

fn check(c: &Crate) -> Vec<String> {
    let (mut problems, edges) = c.problems();
    if let Some(names) = circle(&edges) {
        problems.push(format!(
            "{}: a circle inside a layer: {}. Fix: move what both use into a file below both (and name that file, not a folder's front)",
            c.name,
            names.join(" → ")
        ));
    }
    problems
}

#[test]
fn the_engine_imports_only_downward() {
    let engine = Crate::read("engine", "../engine", ENGINE);
    let problems = check(&engine);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_server_imports_only_downward_and_routes_never_import_each_other() {
    let server = Crate::read("server", ".", SERVER);
    let mut problems = check(&server);
    // The store and the integrations are the service's by the compiler (the state's fields are
    // private to `service/`; `service::state::Shared`'s doc tests show a route reaching for one
    // does not build). What the staff tools read beneath the service (`service::staff`) is
    // theirs: no route names it. Nor does a route name the engine: what a page means (its
    // journey, step, rules and events) is the service's to work out.
    let routes = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/routes");
    let mut files: Vec<_> = std::fs::read_dir(&routes)
        .expect("routes")
        .map(|e| e.expect("entry").path())
        .collect();
    files.sort();
    for file in files {
        let code = code_only(&std::fs::read_to_string(&file).expect("route"));
        if staff_named(&code) {
            problems.push(format!(
                "{}: names service::staff, the staff tools' way beneath the service. Fix: call a service function that does it",
                file.display()
            ));
        }
        if engine_named(&code) {
            problems.push(format!(
                "{}: names the engine. Fix: move what it works out of the definitions into a service function",
                file.display()
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The engine check can fail: a route importing or naming the engine is found; a comment, a
/// string or another crate whose name ends in "engine" is not.
#[test]
fn the_engine_check_finds_a_route_naming_it() {
    assert!(engine_named(&code_only(
        "use engine::journey::runtime::Event;"
    )));
    assert!(engine_named(&code_only(
        "let p = engine::definitions::postcode::Postcode::parse(x);"
    )));
    assert!(!engine_named(&code_only(
        "// engine::rules\nlet s = \"engine::x\";\nuse pawpath_engine::y;"
    )));
}

/// The staff check can fail: a route naming the module, however written, is found; a comment
/// or string that names it is not.
#[test]
fn the_staff_check_finds_a_route_naming_it() {
    let named = code_only("let s = crate::service::staff::store(&state);");
    assert!(staff_named(&named));
    let imported = code_only("use crate::service::staff;\nlet s = staff::store(&state);");
    assert!(staff_named(&imported));
    let only_said = code_only("// service::staff\nlet s = \"crate::service::staff\";");
    assert!(!staff_named(&only_said));
}

/// The checks can fail: an import going up, one going across between routes, a circle inside
/// a layer and a file in no layer are each found.
#[test]
fn the_checks_find_what_they_are_for() {
    let code = code_only(
        "use crate::journey::runtime; // crate::nothing\nlet s = \"crate::nothing\";\nuse super::{quote, body::{A, B}};\n#[cfg(test)]\nmod tests { use super::x; }",
    );
    let refs = references(&code, &["routes".to_owned(), "api".to_owned()]);
    let shown: Vec<String> = refs.iter().map(|p| p.join("::")).collect();
    assert_eq!(
        shown,
        vec![
            "journey::runtime",
            "routes::quote",
            "routes::body::A",
            "routes::body::B",
            "routes::api::x"
        ]
    );

    let dir = tempfile::tempdir().expect("temp dir");
    let write = |rel: &str, text: &str| {
        let path = dir.path().join("src").join(rel);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("folder");
        std::fs::write(path, text).expect("write");
    };
    write(
        "lib.rs",
        "pub mod definitions; pub mod journey; pub mod stray;",
    );
    write("definitions/mod.rs", "pub mod a; pub mod b;");
    write(
        "definitions/a.rs",
        "use crate::definitions::b::B; use crate::journey::j::J;",
    );
    write("definitions/b.rs", "use crate::definitions::a::A;");
    write("journey/mod.rs", "pub mod j;");
    write("journey/j.rs", "use crate::definitions::a::A;");
    write("stray.rs", "");
    const TWO: &[Layer] = &[
        Layer {
            name: "journey",
            says: "",
            modules: &["journey"],
        },
        Layer {
            name: "definitions",
            says: "",
            modules: &["definitions"],
        },
    ];
    let mut c = Crate::read("fixture", "../engine", TWO);
    c.src = dir.path().join("src");
    c.files.clear();
    for rel in [
        "lib.rs",
        "definitions/mod.rs",
        "definitions/a.rs",
        "definitions/b.rs",
        "journey/mod.rs",
        "journey/j.rs",
        "stray.rs",
    ] {
        c.files.insert(module_of(rel), rel.to_owned());
    }
    let problems = check(&c).join("\n");
    assert!(
        problems.contains("definitions/a.rs: crate::journey::j::J goes up, from layer definitions to layer journey"),
        "{problems}"
    );
    assert!(problems.contains("stray.rs: in no layer"), "{problems}");
    assert!(
        problems
            .contains("a circle inside a layer: definitions::a → definitions::b → definitions::a"),
        "{problems}"
    );

    let mut routes = Crate::read("server", ".", SERVER);
    let dir2 = tempfile::tempdir().expect("temp dir");
    routes.src = dir2.path().to_path_buf();
    routes.files.clear();
    std::fs::create_dir_all(dir2.path().join("routes")).expect("folder");
    std::fs::write(
        dir2.path().join("routes/api.rs"),
        "use super::purchase::buy; use crate::store::Store;",
    )
    .expect("write");
    std::fs::create_dir_all(dir2.path().join("store")).expect("folder");
    std::fs::write(dir2.path().join("store/mod.rs"), "pub struct Store;").expect("write");
    std::fs::write(dir2.path().join("routes/purchase.rs"), "").expect("write");
    std::fs::write(dir2.path().join("routes/mod.rs"), "mod api; mod purchase;").expect("write");
    // A service file that speaks HTTP; two that import each other; a file that reaches the crate
    // root (lib.rs and reload.rs once imported each other).
    std::fs::create_dir_all(dir2.path().join("service")).expect("folder");
    std::fs::write(
        dir2.path().join("service/quote.rs"),
        "use axum::http::HeaderMap;\n// axum:: in a comment\npub fn f(h: &HeaderMap) -> Option<hyper::Response<()>> { let s = \"tower::\"; None }\nuse crate::service::view::V;",
    )
    .expect("write");
    std::fs::write(
        dir2.path().join("service/view.rs"),
        "use crate::service::quote::f; pub struct V; fn g(x: &crate::http::answers::A) {}",
    )
    .expect("write");
    std::fs::write(
        dir2.path().join("lib.rs"),
        "pub mod reload; pub struct StartError;",
    )
    .expect("write");
    std::fs::write(dir2.path().join("reload.rs"), "use crate::StartError;").expect("write");
    for rel in [
        "routes/api.rs",
        "routes/purchase.rs",
        "routes/mod.rs",
        "store/mod.rs",
        "service/quote.rs",
        "service/view.rs",
        "lib.rs",
        "reload.rs",
    ] {
        routes.files.insert(module_of(rel), rel.to_owned());
    }
    let problems = check(&routes).join("\n");
    assert!(
        problems.contains(
            "routes/api.rs: crate::routes::purchase::buy goes across, from one route to another"
        ),
        "{problems}"
    );
    assert!(
        problems.contains(
            "routes/api.rs: crate::store::Store goes past the service to the store layer"
        ),
        "{problems}"
    );
    assert!(
        problems
            .contains("service/quote.rs: names axum, but the service layer knows nothing of HTTP"),
        "{problems}"
    );
    assert!(
        problems
            .contains("service/quote.rs: names hyper, but the service layer knows nothing of HTTP"),
        "{problems}"
    );
    assert!(
        !problems.contains("names tower"),
        "a string is not code: {problems}"
    );
    assert!(
        !problems.contains("service/view.rs: names"),
        "crate::http is the crate's own module, not the http crate: {problems}"
    );
    assert!(
        problems
            .contains("a circle inside a layer: service::quote → service::view → service::quote"),
        "{problems}"
    );
    assert!(
        problems.contains("reload.rs: crate::StartError reaches the crate root"),
        "{problems}"
    );
}

/// server/README.md "Architecture": the diagrams are the layers as this test reads them.
#[test]
fn the_guide_draws_the_layers_as_they_are() {
    let readme_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md");
    let readme = std::fs::read_to_string(&readme_path).expect("server/README.md");
    let mut updated = readme.clone();
    let mut missing = Vec::new();
    for c in [
        Crate::read("engine", "../engine", ENGINE),
        Crate::read("server", ".", SERVER),
    ] {
        let want = diagram(&c);
        let marker = format!("%% {} layers", c.name);
        if readme.contains(&want) {
            continue;
        }
        missing.push(want.clone());
        // The block to replace: from its opening fence to its closing one.
        if let Some(at) = updated.find(&marker) {
            let start = updated[..at].rfind("```mermaid").unwrap_or(at);
            let end = updated[at..]
                .find("\n```\n")
                .map_or(updated.len(), |e| at + e + 5);
            updated.replace_range(start..end, &want);
        }
    }
    if missing.is_empty() {
        return;
    }
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() && updated != readme {
        std::fs::write(&readme_path, updated).expect("server/README.md written");
        return;
    }
    panic!(
        "server/README.md's architecture diagrams differ from the layers; UPDATE_SNAPSHOTS=1 rewrites them. Expected:\n{}",
        missing.join("\n")
    );
}
