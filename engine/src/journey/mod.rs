//! Layer 4, journey: a quote moving through its steps. Where a document stands, the quote's
//! prices and what pages draw from them, and the runtime that turns (definitions, document,
//! event) into (new document, transition record, effects). Imports only the layers below.

pub mod answers;
pub mod position;
pub mod quoting;
pub mod record;
pub mod runtime;
