//! The pages around the journey: the static pages' file and the ids pages are known by.

use serde::{Deserialize, Serialize};

/// The pages around the journey (journeys/pages.json, journeys/schemas/pages.schema.json).
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct PagesFile {
    #[serde(rename = "$schema")]
    pub schema: String,
    pub description: String,
    pub pages: Vec<StaticPage>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PageId {
    Privacy,
    Terms,
    Support,
    Library,
    /// The annual rehoming flow's pages for a policy link that cannot be used.
    PolicyLinkExpired,
    AlreadyPurchased,
    PolicyTerminated,
    /// The price-comparison promotion's terms (owner-payment.md §9 Documents and static copy),
    /// for every brand sold through comparison sites.
    PromotionTerms,
}

impl PageId {
    pub fn as_str(self) -> &'static str {
        match self {
            PageId::Privacy => "privacy",
            PageId::Terms => "terms",
            PageId::Support => "support",
            PageId::Library => "library",
            PageId::PolicyLinkExpired => "policy_link_expired",
            PageId::AlreadyPurchased => "already_purchased",
            PageId::PolicyTerminated => "policy_terminated",
            PageId::PromotionTerms => "promotion_terms",
        }
    }
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct StaticPage {
    pub id: PageId,
    pub title: String,
    pub description: String,
    pub index: bool,
    #[serde(default)]
    pub timeout_ms: Option<u64>,
    pub sections: Vec<PageSection>,
    #[serde(default)]
    pub faqs: Vec<Faq>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct PageSection {
    pub heading: String,
    /// Shown only for brands with (or without) a tag manager: the cookie policy says what each
    /// brand's pages do.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub for_brands: Option<BrandsWith>,
    pub paragraphs: Vec<String>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Faq {
    pub question: String,
    pub answer: String,
}

/// Which brands a static page's section is for (journeys/pages.json: `for_brands`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BrandsWith {
    WithTagManager,
    WithoutTagManager,
}
