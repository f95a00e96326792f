//! The calls only a test host serves (`PAWPATH_TEST_MODE=1`): QA's scripted flows write fields
//! into a quote, and a comparison site's quote is made for testing.

use axum::routing::{get, post};

use super::call::{BOTH, Call, POST, Route, VIEW, call};
use super::{aggregators, api};

/// The test host's calls, documented as every other.
pub(super) const CALLS: &[(Call, Route)] = &[
    (
        call!(
            POST,
            "/api/test/patch",
            TestMode,
            "Writes fields into the quote as they are, for scripted flows",
            [
                ("owner", "object", "owner fields"),
                ("pets", "array", "per-pet fields"),
                ("experiments", "object", "experiment → variation")
            ],
            VIEW
        ),
        || post(api::test_patch),
    ),
    (
        call!(
            BOTH,
            "/api/fakeaggs",
            TestMode,
            "A comparison site's quote made for testing, opened at review",
            [],
            "303 to the aggregator review"
        ),
        || get(aggregators::fake_aggregator_visit).post(aggregators::fake_aggregator),
    ),
];
