//! Tools for staff and QA, beside the request path: the generated paths through each journey
//! (`pawpath paths`), a quote's transitions replayed (`pawpath replay`, the internal replay page),
//! and the funnel (`pawpath report`, the internal funnel page).
//! They use the service and the store; nothing in the service uses them.

pub mod paths;
pub mod replay;
pub mod report;
