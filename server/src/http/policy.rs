//! The pages' content security policy: the one every answer carries, and a brand's that names a
//! tag manager.

/// No inline script, no eval, nothing from other origins.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'";

/// The policy of a brand's pages that names a tag manager or takes cards through a
/// provider whose own fields are on the page: [`CONTENT_SECURITY_POLICY`] with the tag
/// manager's origins added to where scripts, connections and images may come from, and the
/// payment provider's to where scripts, connections and frames (its card fields, in frames of
/// its own) may come from. Still no inline script and no eval.
pub fn content_security_policy_with(tag_manager: &[String], payments: &[String]) -> String {
    let list =
        |origins: &[&String]| -> String { origins.iter().map(|o| format!(" {o}")).collect() };
    let both: Vec<&String> = tag_manager.iter().chain(payments).collect();
    let tags: Vec<&String> = tag_manager.iter().collect();
    let frames: Vec<&String> = payments.iter().collect();
    let mut policy = CONTENT_SECURITY_POLICY
        .replace(
            "script-src 'self'",
            &format!("script-src 'self'{}", list(&both)),
        )
        .replace(
            "connect-src 'self'",
            &format!("connect-src 'self'{}", list(&both)),
        )
        .replace(
            "img-src 'self' data:",
            &format!("img-src 'self' data:{}", list(&tags)),
        );
    if !payments.is_empty() {
        policy = policy.replace(
            "object-src 'none'",
            &format!("frame-src 'self'{}; object-src 'none'", list(&frames)),
        );
    }
    policy
}
