//! Where a signed link lands: the page to open, and the new session's cookie when the link made
//! one. The route answers with a 303 to it.

/// A page to send the browser to, with the session cookie to set there, if any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Landing {
    pub to: String,
    pub cookie: Option<String>,
}
