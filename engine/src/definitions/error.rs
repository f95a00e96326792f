//! Errors that name the definition file, the JSON path inside it and the problem.

use std::fmt;

/// One problem found while loading or linting definitions.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct DefinitionError {
    /// The file, relative to the definitions root (for example `journeys/direct.json`).
    pub file: String,
    /// A JSON pointer into that file (`/steps/3/exits/0/to`); empty for the whole file.
    pub path: String,
    /// What is wrong, in words a product team can act on.
    pub problem: String,
}

impl DefinitionError {
    pub fn new(
        file: impl Into<String>,
        path: impl Into<String>,
        problem: impl Into<String>,
    ) -> Self {
        Self {
            file: file.into(),
            path: path.into(),
            problem: problem.into(),
        }
    }
}

impl fmt::Display for DefinitionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = if self.path.is_empty() {
            "/"
        } else {
            &self.path
        };
        write!(f, "{} at {}: {}", self.file, path, self.problem)
    }
}

/// Every problem found in a definition set. Loading never stops at the first one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DefinitionErrors(pub Vec<DefinitionError>);

impl fmt::Display for DefinitionErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{} problem(s) in the definitions:", self.0.len())?;
        for e in &self.0 {
            writeln!(f, "  - {e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for DefinitionErrors {}
