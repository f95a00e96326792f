//! What a call of the API is, as the router serves it and the OpenAPI document describes it: its
//! methods, path, who may make it, the fields it takes and what it answers.

use axum::extract::DefaultBodyLimit;
use axum::routing::MethodRouter;

use crate::service::state::AppState;

/// The generic call's route (`api::step_answers`): a step's answers where its journey file names
/// no call.
pub const GENERIC_CALL: &str = "/api/steps/{step}";

/// What the calls that answer with the view data answer.
pub(super) const VIEW: &str = "{data: the page's view data (journey.md §3), outcome}; 422 {errors: [{field, message}]} for answers that fail, in the quote's language";

pub(super) const GET: &[&str] = &["get"];
pub(super) const POST: &[&str] = &["post"];
pub(super) const BOTH: &[&str] = &["get", "post"];

/// How a call is routed: a function, so the table of calls is a constant.
pub(super) type Route = fn() -> MethodRouter<AppState>;

/// Who may make a call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// The page's own calls: the session cookie, and the CSRF token in the body of a POST.
    Session,
    /// A comparison site: its API key as a bearer token.
    Aggregator,
    /// Staff: the admin token as a bearer token (HTTP Basic in a browser).
    Admin,
    /// Anyone (public reference data).
    Public,
    /// Only on a test host (`PAWPATH_TEST_MODE=1`).
    TestMode,
}

/// One call: its method(s), path, what it does and what it takes beyond what the question sets
/// submitted to it declare.
#[derive(Debug, Clone)]
pub struct Call {
    pub methods: &'static [&'static str],
    pub path: &'static str,
    pub summary: &'static str,
    pub access: Access,
    /// The body's own fields (name, JSON type, description), besides `csrf` and the question
    /// sets' answers.
    pub fields: &'static [(&'static str, &'static str, &'static str)],
    /// The own fields the call cannot do without (the document says what the call
    /// requires, and a test sends the minimal body it describes).
    pub required: &'static [&'static str],
    /// The body is the own fields alone: the modal's question set the journey gives the call
    /// (`view::OWN_CALLS`) is drawn by the page, which sends its answer as these fields.
    pub own_body: bool,
    /// What it answers.
    pub answers: &'static str,
}

/// One [`Call`] written as the list in `calls.rs` writes them: methods, path, access, summary, own
/// fields, optionally the required ones and `own_body`, and what it answers.
macro_rules! call {
    ($methods:expr, $path:literal, $access:ident, $summary:literal, [$($f:expr),*], required [$($r:literal),*], own_body, $answers:expr) => {
        $crate::routes::call::Call {
            own_body: true,
            ..call!($methods, $path, $access, $summary, [$($f),*], required [$($r),*], $answers)
        }
    };
    ($methods:expr, $path:literal, $access:ident, $summary:literal, [$($f:expr),*], required [$($r:literal),*], $answers:expr) => {
        $crate::routes::call::Call {
            methods: $methods,
            path: $path,
            summary: $summary,
            access: $crate::routes::call::Access::$access,
            fields: &[$($f),*],
            required: &[$($r),*],
            own_body: false,
            answers: $answers,
        }
    };
    ($methods:expr, $path:literal, $access:ident, $summary:literal, [$($f:expr),*], $answers:expr) => {
        call!($methods, $path, $access, $summary, [$($f),*], required [], $answers)
    };
}
pub(super) use call;

/// Each call with the smallest body limit that serves it: a call that saves no question
/// set takes a few short fields.
pub(super) fn with_body_limits(
    calls: Vec<(Call, MethodRouter<AppState>)>,
) -> Vec<(Call, MethodRouter<AppState>)> {
    calls
        .into_iter()
        .map(|(call, handler)| {
            let takes_answers = crate::service::view::answer_fields(call.path).is_some()
                || matches!(
                    call.path,
                    GENERIC_CALL | "/api/aggregators/quotes" | "/api/test/patch" | "/api/fakeaggs"
                );
            if takes_answers {
                (call, handler)
            } else {
                (
                    call,
                    handler.layer(DefaultBodyLimit::max(super::SMALL_BODY_LIMIT)),
                )
            }
        })
        .collect()
}
