//! The views manifest (journeys/views.json): the named views the renderer draws, and the modals
//! each reads by role. Journeys bind question sets to those roles (a step's `edits`, each with
//! its `role` or its set's id); the renderer reads roles, never question-set ids.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ViewsFile {
    #[serde(rename = "$schema")]
    pub schema: String,
    pub description: String,
    pub views: BTreeMap<String, ViewSpec>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ViewSpec {
    pub description: String,
    /// The modals the view reads, by role.
    pub roles: BTreeMap<String, RoleSpec>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoleSpec {
    pub description: String,
    /// The view cannot be drawn without it: every step of the view binds it.
    #[serde(default)]
    pub required: bool,
}
