//! Layer 3, rules: what no schema can state. The named domain rules, rating, Vocalink's modulus
//! checks and the Direct Debit collection dates, each a pure function of checked definitions, a
//! document and a [`context::RuleContext`]. Imports only the layers below.

pub mod collections;
pub mod context;
pub mod domain;
pub mod modulus;
pub mod rating;
