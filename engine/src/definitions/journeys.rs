//! The journey files' types: journeys and their steps, guards, question sets and copy
//! catalogues, as written in `journeys/` and `questions/`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::definitions::pages::PageId;

/// Declares an id written in the definitions as a string: its own type, so a step's id is never
/// passed where a question set's is wanted, read and written as the plain string it is.
macro_rules! id_type {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
        #[serde(transparent)]
        pub struct $name(String);

        /// As the string it is (`"pet_details"`), as messages quote it.
        impl std::fmt::Debug for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                std::fmt::Debug::fmt(&self.0, f)
            }
        }

        impl $name {
            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl std::ops::Deref for $name {
            type Target = str;
            fn deref(&self) -> &str {
                &self.0
            }
        }

        impl AsRef<str> for $name {
            fn as_ref(&self) -> &str {
                &self.0
            }
        }

        impl std::borrow::Borrow<str> for $name {
            fn borrow(&self) -> &str {
                &self.0
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl From<&str> for $name {
            fn from(s: &str) -> Self {
                Self(s.to_owned())
            }
        }

        impl From<String> for $name {
            fn from(s: String) -> Self {
                Self(s)
            }
        }

        impl From<$name> for String {
            fn from(id: $name) -> String {
                id.0
            }
        }

        impl PartialEq<str> for $name {
            fn eq(&self, other: &str) -> bool {
                self.0 == other
            }
        }

        impl PartialEq<&str> for $name {
            fn eq(&self, other: &&str) -> bool {
                self.0 == *other
            }
        }

        impl PartialEq<String> for $name {
            fn eq(&self, other: &String) -> bool {
                &self.0 == other
            }
        }

        impl PartialEq<$name> for str {
            fn eq(&self, other: &$name) -> bool {
                self == other.0
            }
        }

        impl PartialEq<$name> for &str {
            fn eq(&self, other: &$name) -> bool {
                *self == other.0
            }
        }

        impl PartialEq<$name> for String {
            fn eq(&self, other: &$name) -> bool {
                *self == other.0
            }
        }
    };
}

id_type! {
    /// A step's id, as written in journey files (`"id": "pet_details"`).
    StepId
}

id_type! {
    /// A brand's code, as written in its file (`"id": "pos"`) and kept on every quote of it.
    BrandId
}

id_type! {
    /// A journey's id, as written in its file (`"id": "direct"`) and kept on every quote run by it.
    JourneyId
}

id_type! {
    /// A question set's id, as written in `questions/` (`"id": "pet_details"`) and named by the
    /// steps and edits that ask it.
    QuestionSetId
}
/// A guard's name, as written in `journeys/guards.json`.
pub type GuardId = String;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Channel {
    Direct,
    Aggregator,
}

impl Channel {
    pub fn as_str(self) -> &'static str {
        match self {
            Channel::Direct => "direct",
            Channel::Aggregator => "aggregator",
        }
    }

    /// The channel by the word a journey (and a stored quote) gives it.
    pub fn parse(word: &str) -> Option<Self> {
        match word {
            "direct" => Some(Channel::Direct),
            "aggregator" => Some(Channel::Aggregator),
            _ => None,
        }
    }
}

impl std::fmt::Display for Channel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Journey {
    #[serde(rename = "$schema")]
    pub schema: String,
    pub id: String,
    #[serde(default)]
    pub description: Option<String>,
    pub channel: Channel,
    /// An extra flow only the brands that list it in their `flows` offer (journey.md §1 Extra
    /// flows: `rehoming`, `annual_rehoming`); none for the channels' own journeys.
    #[serde(default)]
    pub flow: Option<String>,
    pub base_path: String,
    /// The rate table's pricing scheme the journey's quotes are priced by (the annual rehoming
    /// cover's excess); the table's own where not given.
    #[serde(default)]
    pub rate_scheme: Option<String>,
    /// Quotes on this journey are only ever made from a signed policy link (the annual
    /// rehoming flow): a visitor without one is shown the `policy_link_expired` page, never an
    /// empty form.
    #[serde(default)]
    pub linked_only: bool,
    /// Pages of the journey outside its steps, at paths of its own (the annual rehoming flow's
    /// /already-purchased, /policy-link-expired and /policy-terminated).
    #[serde(default)]
    pub status_pages: Vec<StatusPage>,
    pub start: StepId,
    pub step_bar: Vec<StepBarItem>,
    pub steps: Vec<Step>,
    /// Answers that can no longer change while a guard holds (a matched existing policy stops
    /// name and address editing).
    #[serde(default)]
    pub locks: Vec<Lock>,
}

/// A page of the journey's own outside its steps, at a path under its base.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StatusPage {
    pub page: PageId,
    pub path: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lock {
    pub id: String,
    pub description: String,
    /// The guard over the quote document that turns the lock on.
    pub when: GuardId,
    /// JSON pointers of the locked answers, for example `/owner/customer_first_name`.
    pub fields: Vec<String>,
}

impl Journey {
    pub fn step(&self, id: &str) -> Option<&Step> {
        self.steps.iter().find(|s| s.id == id)
    }

    pub fn step_by_path(&self, path: &str) -> Option<&Step> {
        self.steps.iter().find(|s| s.path == path)
    }

    /// The step bar item a step belongs to.
    pub fn bar_item_of(&self, step: &str) -> Option<&StepBarItem> {
        self.step_bar
            .iter()
            .find(|item| item.steps.iter().any(|s| s == step))
    }

    /// The step bar as a brand numbers it (journeys/brands: review_step_number; journey.md §2:
    /// review is step 4, "3rd step in some variants"): where the brand puts review earlier, the
    /// items before it from that number on fold into review's item, under the label
    /// `stepbar.quote_review_pay`, and the items after it are numbered on from there.
    pub fn step_bar_for(&self, review_step_number: Option<u32>) -> Vec<StepBarItem> {
        let Some(wanted) = review_step_number else {
            return self.step_bar.clone();
        };
        let Some(at) = self
            .step_bar
            .iter()
            .position(|item| item.steps.iter().any(|s| s == "review"))
        else {
            return self.step_bar.clone();
        };
        let first = usize::try_from(wanted.saturating_sub(1))
            .unwrap_or(at)
            .min(at);
        let mut out: Vec<StepBarItem> = self.step_bar[..first].to_vec();
        out.push(StepBarItem {
            entry: None,
            number: wanted,
            label: if first < at {
                "stepbar.quote_review_pay".to_owned()
            } else {
                self.step_bar[at].label.clone()
            },
            steps: self.step_bar[first..=at]
                .iter()
                .flat_map(|item| item.steps.iter().cloned())
                .collect(),
        });
        for (n, item) in self.step_bar[at + 1..].iter().enumerate() {
            out.push(StepBarItem {
                number: wanted + 1 + u32::try_from(n).unwrap_or(0),
                ..item.clone()
            });
        }
        out
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StepBarItem {
    pub number: u32,
    /// Copy key of the label.
    pub label: String,
    pub steps: Vec<StepId>,
    /// The step the item's link opens (one of `steps`); the first where not given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entry: Option<StepId>,
}

impl StepBarItem {
    /// The step the item's link opens.
    pub fn entry_step(&self) -> Option<&StepId> {
        self.entry.as_ref().or_else(|| self.steps.first())
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum View {
    /// Draws the step's question set.
    Form,
    /// A page that is not built yet and says which step it is.
    Pending,
    /// The assumptions page (journey.md §2 Assumptions): each pet's answers as a summary with
    /// its tick, the questions edited in a modal.
    Assumptions,
    /// The cover select page (journey.md §2 Cover select): each pet's products by cover type,
    /// level and excess; answers the `cover` question set.
    ChoosePolicy,
    /// The review page (journey.md §2 Review): the priced quote, with its modals.
    Review,
    /// The payment page (owner-payment.md §2 Payment page): the quote summary and the Direct
    /// Debit form (a payment question set).
    Payment,
    /// The bank details panel (owner-payment.md §2 Bank details panel), before buying.
    PaymentConfirmation,
    /// The card payment check (owner-payment.md §2 /creditcard-confirmation), before buying:
    /// the card is charged when the quote is bought.
    CardConfirmation,
    /// The confirmation page (owner-payment.md §2 Confirmation page), once bought.
    Confirmation,
    /// The rehoming flow's confirmation (journey.md §2 Routes: rehoming /confirmation, step 4):
    /// the details to check, the free cover activated there (its documents scanned first), then
    /// the cover confirmed.
    RescueConfirmation,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    pub id: StepId,
    pub path: String,
    /// Copy key of the page title.
    pub title: String,
    pub view: View,
    #[serde(default)]
    pub questions: Option<QuestionSetId>,
    /// The spec's named call that takes the step's answers, where the spec names one (journey.md
    /// §7, owner-payment.md §7); without it, the generic call ([`Step::call`]).
    #[serde(default, rename = "call")]
    pub named_call: Option<String>,
    #[serde(default)]
    pub rules: Vec<String>,
    #[serde(default)]
    pub requires: Vec<GuardId>,
    #[serde(default)]
    pub complete_when: Option<GuardId>,
    #[serde(default)]
    pub blocking: Vec<BlockingRule>,
    #[serde(default)]
    pub exits: Vec<Exit>,
    #[serde(default)]
    pub terminal: bool,
    /// The conditional exits may hold at once and the first listed is meant to win.
    #[serde(default)]
    pub exits_ordered: bool,
    /// Question sets the step's page edits in place (its modals): answering one changes the
    /// document but does not submit the step.
    #[serde(default)]
    pub edits: Vec<Edit>,
}

/// A question set a page edits in place, with the named rules its answers must also pass.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Edit {
    pub questions: QuestionSetId,
    /// The role the set plays on the step's view (journeys/views.json); without it, the set's id.
    /// The page reads its modals by role.
    #[serde(default)]
    pub role: Option<String>,
    /// The spec's named call that saves the modal (with `form` naming its question set), where
    /// the spec names one; without it, the generic call of the step whose page it is on.
    #[serde(default, rename = "call")]
    pub named_call: Option<String>,
    #[serde(default)]
    pub rules: Vec<String>,
    /// Answers saving the modal also sets on the pet it edits (journey.md §4: "Saving the edit
    /// modal sets confirm_assumptions true"), each a property of the set's pet items. The page
    /// applies them to that pet, and only that pet, before it sends the call.
    #[serde(default, skip_serializing_if = "serde_json::Map::is_empty")]
    pub sets_on_pet: serde_json::Map<String, Value>,
}

impl Edit {
    /// The role the modal plays on its view: its `role`, else its question set's id.
    pub fn role(&self) -> &str {
        self.role.as_deref().unwrap_or(&self.questions)
    }
}

/// The generic call's path prefix: `POST /api/steps/{step}` takes the answers of a step the spec
/// names no call for, and saves its page's modals that have none (with `form`).
pub const STEP_CALL_PREFIX: &str = "/api/steps/";

impl Step {
    /// The call that takes the step's answers: its named call, else `POST /api/steps/{step}`.
    pub fn call(&self) -> std::borrow::Cow<'_, str> {
        match &self.named_call {
            Some(call) => call.as_str().into(),
            None => format!("{STEP_CALL_PREFIX}{}", self.id).into(),
        }
    }

    /// The call that saves one of the page's modals: its named call, else the step's generic
    /// call (never the step's named call, which takes the step's own answers).
    pub fn edit_call<'a>(&'a self, edit: &'a Edit) -> std::borrow::Cow<'a, str> {
        match &edit.named_call {
            Some(call) => call.as_str().into(),
            None => format!("{STEP_CALL_PREFIX}{}", self.id).into(),
        }
    }

    /// Whether `call` takes the step's answers (as `call()` would say, without writing it out:
    /// every submission asks this of every step).
    pub fn takes_call(&self, call: &str) -> bool {
        match &self.named_call {
            Some(named) => named == call,
            None => self.is_generic_call(call),
        }
    }

    /// Whether `call` saves the modal `edit` of this step (as `edit_call()` would say).
    pub fn edit_takes_call(&self, edit: &Edit, call: &str) -> bool {
        match &edit.named_call {
            Some(named) => named == call,
            None => self.is_generic_call(call),
        }
    }

    fn is_generic_call(&self, call: &str) -> bool {
        call.strip_prefix(STEP_CALL_PREFIX) == Some(self.id.as_str())
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BlockingRule {
    pub id: String,
    pub when: GuardId,
    /// Copy key of the message shown while blocked. Optional here so that the lint, not the
    /// parser, reports a missing one with the rule's path.
    #[serde(default)]
    pub message: Option<String>,
    #[serde(default)]
    pub field: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Exit {
    pub to: StepId,
    #[serde(default)]
    pub when: Option<GuardId>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GuardFile {
    #[serde(rename = "$schema")]
    pub schema: String,
    pub guards: BTreeMap<GuardId, GuardDef>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GuardDef {
    pub description: String,
    pub schema: Value,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QuestionSet {
    #[serde(rename = "$schema")]
    pub schema_ref: String,
    pub id: QuestionSetId,
    #[serde(default)]
    pub description: Option<String>,
    /// JSON Schema (draft-07) over the step's answers.
    pub schema: Value,
    /// rjsf uiSchema; `ui:title`, `ui:description`, `ui:help` and `ui:enumNames` hold copy keys.
    pub ui: Value,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CopyCatalogue {
    #[serde(rename = "$schema")]
    pub schema: String,
    pub language: String,
    pub messages: BTreeMap<String, String>,
}
