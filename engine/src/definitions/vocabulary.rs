//! The engine's vocabulary that definitions may name: its domain rules and the copy keys its own
//! messages use. The checks hold definitions to these names; `rules::domain` implements each rule
//! (and a test there holds the two lists together).

/// Every copy key the engine's Rust code gives as a message: the lint checks each exists in every
/// language, as it does for the keys in definitions.
pub const ENGINE_COPY_KEYS: &[&str] = &[
    "pet.dob.too_young",
    "pet.dob.too_old",
    "pet.breed.unknown",
    "pet.breed.excluded",
    "pet.xl_bully.refused",
    "pet.remove.not_allowed",
    "pet.add.blank_waiting",
    "pet.add.too_many",
    "start_date.invalid",
    "start_date.too_early",
    "start_date.too_late",
    "start_date.too_late_age",
    "assumptions.confirm.required",
    "owner.dob.too_young",
    "owner.dob.too_old",
    "error.required",
    "error.invalid",
    "cover.no_product",
    "cover.product.not_offered",
    "cover.excess.not_offered",
    "payment.bank.invalid",
    "payment.method.not_offered",
    "pet.type.not_offered",
    "rehoming.centre.unknown",
    "rehoming.date.future",
    "rehoming.date.too_late",
    "pet.dob.confirm_mismatch",
    "language.not_offered",
    "purchase.referred",
    "firm.registered_in.england_and_wales",
    "firm.registered_in.wales",
    "firm.registered_in.scotland",
    "firm.registered_in.northern_ireland",
];

/// Declares the domain rules' names once: the enum, the list of them and the words a journey
/// names each by.
macro_rules! domain_rules {
    ($($variant:ident => $name:literal,)*) => {
        /// A domain rule, by the name journeys give it (`"rules": ["owner_age"]`). The one list
        /// of them: the lint knows them from here, and `rules::domain::rule` gives each its
        /// function in a match the compiler holds complete.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum DomainRuleName {
            $($variant,)*
        }

        impl DomainRuleName {
            /// Every domain rule, in the order the lint lists them.
            pub const ALL: &'static [DomainRuleName] = &[$(DomainRuleName::$variant,)*];

            /// The name a journey gives the rule.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(DomainRuleName::$variant => $name,)*
                }
            }
        }
    };
}

domain_rules! {
    PetAgeWindow => "pet_age_window",
    PetBreedEligibility => "pet_breed_eligibility",
    StartDateWindow => "start_date_window",
    AssumptionsTicked => "assumptions_ticked",
    OwnerAge => "owner_age",
    PromoCodeValid => "promo_code_valid",
    CoverChosen => "cover_chosen",
    CoverOffered => "cover_offered",
    BankDetailsValid => "bank_details_valid",
    PaymentMethodOffered => "payment_method_offered",
    PetSpeciesOffered => "pet_species_offered",
    RehomingCentreKnown => "rehoming_centre_known",
    RehomeDateWindow => "rehome_date_window",
    RehomingPetAge => "rehoming_pet_age",
    SavedDobMatches => "saved_dob_matches",
}

impl DomainRuleName {
    /// The rule a journey names, if there is one by that name.
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|r| r.as_str() == name)
    }

    /// Every rule's name, for the lint's messages.
    pub fn names() -> Vec<&'static str> {
        Self::ALL.iter().map(|r| r.as_str()).collect()
    }
}
