//! Lookups a page makes while the customer types: the vets near a postcode, and whether a policy
//! number is one of the brand's existing policies.

use engine::Voice;
use engine::definitions::postcode::Postcode;

use crate::service::error::{AppError, FieldMessage};
use crate::service::state::AppState;
use crate::vets::{Vet, VetPostcode, VetPostcodeError};

/// The practices nearest the postcode typed (at most `limit`), with the postcode as read; a
/// postcode missing or not read is a field error on `postcode`, in the customer's words.
pub fn vets_near(
    state: &AppState,
    voice: &Voice<'_>,
    typed: &str,
    limit: usize,
) -> Result<(Vec<Vet>, String), AppError> {
    let postcode = VetPostcode::parse(typed).map_err(|e| {
        let key = match e {
            VetPostcodeError::Required => "vet.postcode.required",
            VetPostcodeError::Invalid => "vet.postcode.invalid",
        };
        AppError::Validation(vec![FieldMessage {
            field: "postcode".into(),
            message: voice.t(key),
        }])
    })?;
    let started = std::time::Instant::now();
    let vets = state.vets.near(&postcode, limit);
    crate::metrics::provider("vet", "near", true, started.elapsed());
    Ok((vets, postcode.as_str().to_owned()))
}

/// Whether `number` is an existing policy of `brand` at `postcode` (owner-payment.md §4), and
/// the number as a quote keeps it.
pub fn existing_policy(
    state: &AppState,
    number: &str,
    brand: &str,
    postcode: &Postcode,
) -> (bool, String) {
    (
        state.policies.matches(number, brand, postcode),
        crate::policies::normalise(number),
    )
}

/// Whether bank details pass Vocalink's modulus checks (/api/bankvalidation), timed for
/// `/metrics`. The tables are in memory, so the check itself cannot fail: details of the wrong
/// shape are the customer's, and simply not valid.
pub fn bank_details_valid(state: &AppState, sort_code: &str, account_number: &str) -> bool {
    let started = std::time::Instant::now();
    let checked = state.bank.check(sort_code, account_number);
    crate::metrics::provider("bank_check", "modulus", true, started.elapsed());
    checked.is_ok_and(engine::rules::modulus::Outcome::accepted)
}

/// The address with this id (the lookup's own), if it exists.
pub async fn address(
    state: &AppState,
    id: &str,
) -> Result<Option<crate::addresses::Address>, AppError> {
    state
        .addresses
        .retrieve(id)
        .await
        .map_err(|e| AppError::Unavailable(e.to_string()))
}

/// The address search as the customer typed it (owner-payment.md §5 Address search): the
/// postcode as read and the addresses there (matching `house`, a name or number, when given); a
/// postcode missing or not a UK one is a field error on `postcode`, in the customer's words.
pub async fn addresses_typed(
    state: &AppState,
    caller: &crate::service::caller::Caller,
    typed: &str,
    house: Option<&str>,
) -> Result<(String, Vec<crate::addresses::FoundItem>), AppError> {
    let voice = crate::service::quote::request_voice(state, caller).await;
    let message = |key: &str| {
        AppError::Validation(vec![FieldMessage {
            field: "postcode".into(),
            message: voice.t(key),
        }])
    };
    if typed.trim().is_empty() {
        return Err(message("address.postcode_required"));
    }
    let postcode = Postcode::parse(typed).ok_or_else(|| message("address.postcode_invalid"))?;
    let items = addresses_at(state, &postcode, house).await?;
    Ok((postcode.as_str().to_owned(), items))
}

/// The addresses at `postcode`, those matching `house` (a name or number) when one is given.
pub async fn addresses_at(
    state: &AppState,
    postcode: &Postcode,
    house: Option<&str>,
) -> Result<Vec<crate::addresses::FoundItem>, AppError> {
    state
        .addresses
        .find(postcode, house)
        .await
        .map_err(|e| AppError::Unavailable(e.to_string()))
}
