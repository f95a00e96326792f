//! Product documents (owner-payment.md §3 Documents and the Documents section): which policy
//! wording and insurance product information document (IPID) a pet is given. The policy wording
//! goes by species, the IPID by species and the first two characters of the product code; each
//! comes in the version for a policy starting on or after its `file_change_date`, or the one
//! before.

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

use crate::definitions::catalogues::Species;
use crate::definitions::rates::CoverGroup;

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DocumentFile {
    #[serde(rename = "$schema")]
    pub schema: String,
    pub description: String,
    pub documents: Vec<Document>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DocumentKind {
    PolicyWording,
    Ipid,
}

impl DocumentKind {
    pub fn as_str(self) -> &'static str {
        match self {
            DocumentKind::PolicyWording => "policy_wording",
            DocumentKind::Ipid => "ipid",
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Document {
    pub kind: DocumentKind,
    pub species: Vec<Species>,
    pub groups: Vec<CoverGroup>,
    /// Copy key of the title.
    pub title: String,
    pub file_change_date: NaiveDate,
    pub on_or_post_date_document_name: String,
    pub pre_date_document_name: String,
    pub terms: Versions,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Versions {
    pub on_or_post: Terms,
    pub pre: Terms,
}

/// What a version of a document says that differs between versions.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Terms {
    pub older_pet_share_percent: String,
    pub effective_from: NaiveDate,
}

/// One version of a document, as a customer is given it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Given<'d> {
    pub kind: DocumentKind,
    pub title: &'d str,
    pub name: &'d str,
}

/// A named version, with the document it belongs to.
#[derive(Debug, Clone)]
pub struct Version<'d> {
    pub document: &'d Document,
    pub name: &'d str,
    pub terms: &'d Terms,
}

impl DocumentFile {
    /// The documents for a pet of `species` with product `code`, for a policy starting on
    /// `start`: the policy wording, then the IPID.
    pub fn for_product(&self, species: Species, code: &str, start: NaiveDate) -> Vec<Given<'_>> {
        let group = match code.get(..2) {
            Some("LT") => CoverGroup::LT,
            Some("MB") => CoverGroup::MB,
            Some("TL") => CoverGroup::TL,
            _ => return Vec::new(),
        };
        let mut out: Vec<Given<'_>> = self
            .documents
            .iter()
            .filter(|d| d.species.contains(&species) && d.groups.contains(&group))
            .map(|d| Given {
                kind: d.kind,
                title: &d.title,
                name: if start >= d.file_change_date {
                    &d.on_or_post_date_document_name
                } else {
                    &d.pre_date_document_name
                },
            })
            .collect();
        out.sort_by_key(|g| g.kind == DocumentKind::Ipid);
        out
    }

    /// Every version's name, each document's two.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.documents.iter().flat_map(|d| {
            [
                d.pre_date_document_name.as_str(),
                d.on_or_post_date_document_name.as_str(),
            ]
        })
    }

    /// A version by its name.
    pub fn version(&self, name: &str) -> Option<Version<'_>> {
        self.documents.iter().find_map(|d| {
            if d.on_or_post_date_document_name == name {
                Some(Version {
                    document: d,
                    name: &d.on_or_post_date_document_name,
                    terms: &d.terms.on_or_post,
                })
            } else if d.pre_date_document_name == name {
                Some(Version {
                    document: d,
                    name: &d.pre_date_document_name,
                    terms: &d.terms.pre,
                })
            } else {
                None
            }
        })
    }
}
