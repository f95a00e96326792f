//! A configuration value that stops start-up, naming its variable and the problem.

#[derive(Debug, thiserror::Error)]
#[error("configuration: {variable}: {problem}")]
pub struct ConfigError {
    pub variable: &'static str,
    pub problem: String,
}

pub(super) fn err(variable: &'static str, problem: impl Into<String>) -> ConfigError {
    ConfigError {
        variable,
        problem: problem.into(),
    }
}
