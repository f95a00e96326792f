//! pawpath's journey engine: typed definitions, their checks, the rules and the runtime that
//! turns (definitions, quote document, event) into (new document, transition record, effects).
//! No network, no database: the server does the I/O.
//!
//! Four layers, each importing only those before it (server/README.md "Architecture"; the test
//! `server/tests/api/architecture/` fails on an import going up, or on a circle inside a layer):
//! [`definitions`] → [`checks`] → [`rules`] → [`journey`].

pub mod definitions;

pub mod checks;

pub mod rules;

pub mod journey;

pub use checks::compiled::{Definitions, Voice};
pub use definitions::error::{DefinitionError, DefinitionErrors};
pub use definitions::money::Money;
