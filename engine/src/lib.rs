//! pawpath's journey engine: typed definitions, their lint, the rules (guards, question schemas,
//! named domain rules) and the runtime that turns (definitions, quote document, event) into
//! (new document, transition record, effects). No network, no database: the server does the I/O.

pub mod analysis;
pub mod collections;
pub mod compiled;
pub mod definitions;
pub mod documents;
pub mod domain;
pub mod error;
pub mod experiments;
pub mod graph;
pub mod lint;
pub mod modulus;
pub mod money;
pub mod position;
pub mod postcode;
pub mod quoting;
pub mod rating;
pub mod rules;
pub mod runtime;

pub use compiled::{Definitions, Voice};
pub use error::{DefinitionError, DefinitionErrors};
pub use money::Money;
