//! The staff calls behind the admin token (`/internal/…`), described as every other call.

use axum::routing::get;

use super::call::{Call, GET, Route, call};
use super::{cover, internal};

/// The staff calls, in the order the router adds them.
pub(super) const CALLS: &[(Call, Route)] = &[
    (
        call!(
            GET,
            "/internal/funnel",
            Admin,
            "The funnel per brand and channel, as a page",
            [],
            "an HTML page"
        ),
        || get(internal::funnel),
    ),
    (
        call!(
            GET,
            "/internal/quotes/{reference}/pricing",
            Admin,
            "Every price's working on a quote, factor by factor",
            [],
            "{qidu, priced, priced_at, definition_version, pricing}"
        ),
        || get(cover::internal_pricing),
    ),
    (
        call!(
            GET,
            "/internal/quotes/{reference}/replay",
            Admin,
            "A quote's transitions run again: what was sent, guards, field errors, prices and each page shown",
            [
                ("from", "integer", "the first transition shown, from 1"),
                ("count", "integer", "how many, at most 100")
            ],
            "{reference, transitions, from, reproduced, note?, steps: [{n, at, event, from, to, outcome, sent, guards, messages, blocks, pricing, totals, replay, page}]}"
        ),
        || get(internal::replay_data),
    ),
    (
        call!(
            GET,
            "/internal/replay",
            Admin,
            "A quote replayed, as a page for staff",
            [
                ("reference", "string", "the quote's reference"),
                ("from", "integer", "the first transition shown, from 1"),
                ("count", "integer", "how many, at most 100")
            ],
            "an HTML page"
        ),
        || get(internal::replay_page),
    ),
    (
        call!(
            GET,
            "/internal/impact",
            Admin,
            "What a change of the definitions does to customers, as a page for staff: the changes by file and JSON path, the generated paths before and after, and recent quotes run again on both (at most 2,000)",
            [
                (
                    "from",
                    "string",
                    "the definitions before: a kept version, or served"
                ),
                (
                    "to",
                    "string",
                    "the definitions after: a kept version, or served"
                ),
                (
                    "since",
                    "string",
                    "YYYY-MM-DD: sample quotes made on or after it"
                ),
                ("sample", "integer", "how many recent quotes, at most 2,000")
            ],
            "an HTML page"
        ),
        || get(internal::impact_page),
    ),
];
