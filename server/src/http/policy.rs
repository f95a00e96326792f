//! The pages' content security policy: the one every answer carries, and a brand's that names a
//! tag manager.

/// No inline script, no eval, nothing from other origins.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'";

/// The policy of a brand's pages that names a tag manager (issue 29): [`CONTENT_SECURITY_POLICY`]
/// with the tag manager's origins added to where scripts, connections and images may come from.
/// Still no inline script and no eval.
pub fn content_security_policy_with(origins: &[String]) -> String {
    let extra: String = origins.iter().map(|o| format!(" {o}")).collect();
    CONTENT_SECURITY_POLICY
        .replace("script-src 'self'", &format!("script-src 'self'{extra}"))
        .replace("connect-src 'self'", &format!("connect-src 'self'{extra}"))
        .replace(
            "img-src 'self' data:",
            &format!("img-src 'self' data:{extra}"),
        )
}
