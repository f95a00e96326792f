//! Tools for staff and QA, beside the request path: journeys drawn (`pawpath graph`), the
//! generated paths through each journey (`pawpath paths`), a quote's transitions replayed
//! (`pawpath replay`, the internal replay page), the funnel (`pawpath report`, the internal funnel
//! page), and what a change of the definitions does to customers (`pawpath impact`, the internal
//! impact page).
//! They use the service and the store; nothing in the service uses them.

pub mod definitions;
pub mod impact;
pub mod paths;
pub mod replay;
pub mod report;
