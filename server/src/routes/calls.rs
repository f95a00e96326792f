//! Every call of the API, described where it is routed (API users): the router adds the
//! calls from this list, and `/api/openapi.json` is written from the same list, so no call can be
//! served undocumented. A call that saves a question set takes that set's JSON Schema (the one the
//! browser and the server validate with) as its body: the sets the journeys send through it
//! (their steps' and modals' `call`), and through the generic call those that name none.

use axum::extract::DefaultBodyLimit;
use axum::routing::{MethodRouter, get, post};

use super::call::{BOTH, Call, GET, POST, Route, VIEW, call};
use super::{
    addresses, aggregators, api, breeds, codes, cover, payment, portal, purchase, rehoming, reset,
    retrieve, vets,
};
use crate::service::state::AppState;

/// Every call with its handler, in the order the router adds them: the customer's and the
/// comparison sites' calls, the staff calls, the public ones, and on a test host the test calls.
pub fn calls(test_mode: bool) -> Vec<(Call, MethodRouter<AppState>)> {
    let test_calls: &[(Call, Route)] = if test_mode {
        super::test_calls::CALLS
    } else {
        &[]
    };
    let all = [JOURNEY, super::internal_calls::CALLS, PUBLIC, test_calls];
    super::call::with_body_limits(
        all.iter()
            .flat_map(|calls| calls.iter())
            .map(|(call, route)| (call.clone(), route()))
            .collect(),
    )
}

/// The journey's calls and the comparison sites'.
const JOURNEY: &[(Call, Route)] = &[
    (
        call!(
            POST,
            "/api/aggregators/quotes",
            Aggregator,
            "A comparison site's quote: the risk, priced for every product, stored, with a click-through link that opens the aggregator journey at review (once). The site is the one whose key is the bearer token",
            [
                ("brand", "string", "the brand quoted"),
                (
                    "pets",
                    "array",
                    "the pets, as the pet details questions take them"
                ),
                (
                    "owner",
                    "object",
                    "the owner, as the your-details questions take them"
                ),
                ("cover_start", "string", "YYYY-MM-DD")
            ],
            "{quote_reference, prices per pet and product, click_through}; 422 field errors naming each field"
        ),
        || post(aggregators::inbound_quote),
    ),
    (
        call!(
            POST,
            "/api/petdetails",
            Session,
            "Saves the pets (journey.md §7); `norequote=1` on the first page with no products",
            [("pets", "array", "every pet's answers")],
            VIEW
        ),
        || post(api::pet_details),
    ),
    (
        call!(
            POST,
            "/api/steps/{step}",
            Session,
            "Saves the answers of a step whose journey file names no call, in its question set's own fields; with `form`, one of its page's modals that names none",
            [],
            VIEW
        ),
        || post(api::step_answers),
    ),
    (
        call!(
            POST,
            "/api/render-errors",
            Session,
            "A page the browser could not draw (it showed the brand's phone number instead): logged with the request id and counted in /metrics",
            [
                (
                    "step",
                    r#"{"type": "string", "maxLength": 64, "examples": ["your_vet"]}"#,
                    "the step being drawn"
                ),
                (
                    "message",
                    r#"{"type": "string", "maxLength": 300, "examples": ["no validator"]}"#,
                    "what failed"
                ),
                (
                    "trail",
                    r#"{"type": "string", "maxLength": 1000, "examples": ["at FormStep"]}"#,
                    "the components it failed in"
                )
            ],
            "204; nothing is stored"
        ),
        || post(api::render_error),
    ),
    (
        call!(
            POST,
            "/api/rehomingeligibility",
            Session,
            "The rehoming flow's eligibility answers (owner-payment.md §6)",
            [],
            VIEW
        ),
        || post(api::rehoming_eligibility),
    ),
    (
        call!(
            POST,
            "/api/postpetdetails",
            Session,
            "The rehomed pet's details with its rehoming certificate (a data URL, up to 2 MB)",
            [],
            VIEW
        ),
        || post(api::post_pet_details).layer(DefaultBodyLimit::max(super::CERTIFICATE_BODY_LIMIT)),
    ),
    (
        call!(
            GET,
            "/api/getrehomingcentres",
            Public,
            "The rehoming centres of the session's brand",
            [],
            "{data: [{id, name, postcode}]}"
        ),
        || get(rehoming::centres),
    ),
    (
        call!(
            GET,
            "/api/getrescueproduct",
            Session,
            "The free rehoming cover offered (28 days, no third party liability)",
            [],
            "{data: the cover, its dates, limit and excess}"
        ),
        || get(rehoming::rescue_product),
    ),
    (
        call!(
            POST,
            "/api/confirmationrescue",
            Session,
            "Activates the free rehoming cover",
            [],
            "{data: the policy}"
        ),
        || post(rehoming::confirmation_rescue),
    ),
    (
        call!(
            POST,
            "/api/confirmationRescueEmail",
            Session,
            "Asks for the free cover's email",
            [],
            "{data: the email's state}"
        ),
        || post(rehoming::confirmation_rescue_email),
    ),
    (
        call!(
            POST,
            "/api/petownerdetails",
            Session,
            "The crossbreed and mongrel confirmation (journey.md §4 Pet details); the owner's questions arrive with the your-details step",
            [(
                "owner",
                "object",
                "the owner, taken from the your-details step on"
            )],
            VIEW
        ),
        || post(api::pet_owner_details),
    ),
    (
        call!(
            POST,
            "/api/deletePet",
            Session,
            "Removes a pet by its 1-based id (only while more than one)",
            [(
                "id",
                r#"{"type": "integer", "minimum": 1, "examples": [1]}"#,
                "the pet's position, from 1"
            )],
            required["id"],
            VIEW
        ),
        || post(api::delete_pet),
    ),
    (
        call!(
            POST,
            "/api/addpetid",
            Session,
            "A blank pet slot at the end of the quote, to be described on the pet details page (journey.md §4 Add another pet; a POST, as it changes the quote: the spec's GET could not carry the CSRF token)",
            [],
            VIEW
        ),
        || post(api::add_pet_id),
    ),
    (
        call!(
            POST,
            "/api/saveDeclaration",
            Session,
            "The assumptions page's answers with the tick \"Yes, they're correct\"",
            [],
            VIEW
        ),
        || post(api::save_declaration),
    ),
    (
        call!(
            POST,
            "/api/ownerdetail",
            Session,
            "The owner update: your details, and the modals named by `form`",
            [],
            VIEW
        ),
        || post(api::owner_detail),
    ),
    (
        call!(
            POST,
            "/api/noquotechaseemail",
            Session,
            "The review's quote reminder opt-out",
            [(
                "noquotechaseemail",
                r#"{"type": "boolean", "examples": [true]}"#,
                "true asks for no reminder emails"
            )],
            required["noquotechaseemail"],
            own_body,
            VIEW
        ),
        || post(api::no_quote_chase_email),
    ),
    (
        call!(
            POST,
            "/api/language",
            Session,
            "The language chooser (journey.md §1)",
            [(
                "language",
                r#"{"type": "string", "minLength": 1, "maxLength": 35, "examples": ["en-GB"]}"#,
                "one of the brand's languages, such as fr-FR; another is a field error"
            )],
            required["language"],
            VIEW
        ),
        || post(api::set_language),
    ),
    (
        call!(
            POST,
            "/api/bankvalidation",
            Session,
            "Vocalink's modulus checks on bank details",
            [(
                "payment",
                r#"{"type": "object", "required": ["sort_code", "account_number"], "properties": {"sort_code": {"type": "string"}, "account_number": {"type": "string"}}, "examples": [{"sort_code": "08-99-99", "account_number": "66374958"}]}"#,
                "{sort_code, account_number}: the sort code as 08-99-99, 08 99 99 or 089999 (as every call takes it), the account number 6 to 10 digits, spaces allowed"
            )],
            required["payment"],
            "{payment: {bank_details_valid}}"
        ),
        || post(payment::bank_validation),
    ),
    (
        call!(
            POST,
            "/api/setup-payment",
            Session,
            "The payment page's answers (Direct Debit or card token)",
            [],
            VIEW
        ),
        || post(payment::setup_payment),
    ),
    (
        call!(
            POST,
            "/api/purchase",
            Session,
            "Buys the quote, once per quote whatever arrives",
            [
                (
                    "idempotency_key",
                    r#"{"type": "string", "minLength": 8, "maxLength": 100, "pattern": "^[A-Za-z0-9-]+$", "examples": ["a1b2c3d4-0001"]}"#,
                    "8 to 100 letters, digits or hyphens, one per purchase attempt"
                ),
                (
                    "payment_return",
                    r#"{"type": "string", "minLength": 1, "maxLength": 255, "pattern": "^[A-Za-z0-9_]+$", "examples": ["pi_3MtwBwLkdIwHu7ix28a3tqPa"]}"#,
                    "the card payment the browser came back with from the customer's bank (3-D Secure), when it has"
                )
            ],
            required["idempotency_key"],
            "the confirmation page's view data; or {next_action: {type: redirect, redirect_url}} when the card's issuer asks the customer to authenticate (3-D Secure) first; 422 for a declined card"
        ),
        || post(purchase::purchase),
    ),
    (
        call!(
            GET,
            "/api/confirmation",
            Session,
            "The confirmation page's view data for the session's bought quote",
            [],
            "{data}; 404 before the purchase"
        ),
        || get(purchase::confirmation_data),
    ),
    (
        call!(
            POST,
            "/api/confirmationEmail",
            Session,
            "Asks for the confirmation email (sent once)",
            [(
                "send_confirmation_email",
                r#"{"const": 1, "examples": [1]}"#,
                "1"
            )],
            required["send_confirmation_email"],
            "{data: {confirmation_email: {requested, sent, attempts, failed}}}"
        ),
        || post(purchase::confirmation_email),
    ),
    (
        call!(
            POST,
            "/api/sendquoteemail",
            Session,
            "Emails the session's quote to its owner with a link back to it (owner-payment.md §7; at most 3 times per quote)",
            [],
            "{data: {sent, email}}; 422 naming what the quote still lacks (an email address, a chosen cover); 429 after the third"
        ),
        || post(purchase::send_quote_email),
    ),
    (
        call!(
            POST,
            "/api/reset",
            Session,
            "Starts again: the quote is cleared and parted from the session",
            [],
            "{data: {success: true, start}}: start is the page where the new quote begins, on the old one's journey and brand with its tracking token"
        ),
        || post(reset::reset),
    ),
    (
        call!(
            POST,
            "/api/quoteretrieval",
            Session,
            "Retrieve a quote by reference and email; reveals nothing to a guesser",
            [
                (
                    "quote_reference",
                    r#"{"type": "string", "maxLength": 40, "examples": ["PP-ABC123"]}"#,
                    "the quote reference"
                ),
                (
                    "email",
                    r#"{"type": "string", "maxLength": 254, "examples": ["ada@example.com"]}"#,
                    "the owner's email address"
                )
            ],
            required["quote_reference", "email"],
            "the retrieved quote's view data; 404 with one message for any mismatch"
        ),
        || post(retrieve::quote_retrieval),
    ),
    (
        call!(
            POST,
            "/api/quoteretrieval-link",
            Session,
            "Email a one-time link that opens a quote to the address on it (when its reference has had too many tries); the same answer whether or not the reference exists",
            [(
                "quote_reference",
                r#"{"type": "string", "maxLength": 40, "examples": ["ABCD-EFGH-JKMN"]}"#,
                "the quote reference"
            )],
            required["quote_reference"],
            "{data: {sent, message}}, the same words for any reference"
        ),
        || post(retrieve::quote_retrieval_link),
    ),
    (
        call!(
            POST,
            "/api/saveportalpassword",
            Session,
            "The pet portal password on the confirmation page (kept as an argon2id hash)",
            [(
                "email",
                "string",
                "the owner's email address, the portal log-in"
            )],
            "{data}"
        ),
        || post(portal::save_portal_password),
    ),
    (
        call!(
            POST,
            "/api/saveCover",
            Session,
            "Each pet's cover (the choose-policy step's Continue)",
            [],
            VIEW
        ),
        || post(cover::save_cover),
    ),
    (
        call!(
            POST,
            "/api/getFlexProducts",
            Session,
            "Re-quotes one pet with a new excess or claim contribution",
            [(
                "pets",
                r#"{"type": "array", "minItems": 1, "items": {"type": "object", "required": ["id"], "properties": {"id": {"type": "integer", "minimum": 1}}}, "examples": [[{"id": 1, "set_excess": "99", "set_coins": "0.2"}]]}"#,
                "[{id, set_excess, set_coins}] for the changed pet"
            )],
            required["pets"],
            VIEW
        ),
        || post(cover::get_flex_products),
    ),
    (
        call!(
            POST,
            "/api/changecoins",
            Session,
            "The review's claim contribution for one pet",
            [
                (
                    "pet_id",
                    r#"{"type": "integer", "minimum": 1, "examples": [1]}"#,
                    "the pet's position, from 1"
                ),
                (
                    "co_insurance",
                    r#"{"type": "number", "examples": [20]}"#,
                    "the percentage shown: 0, 10 or 20"
                )
            ],
            required["pet_id", "co_insurance"],
            VIEW
        ),
        || post(cover::change_coins),
    ),
    (
        call!(
            GET,
            "/api/get-products",
            Session,
            "The quote's products and each pet's chosen one",
            [],
            "{data: {qidu, csrf, products, pets}}"
        ),
        || get(cover::get_products),
    ),
    (
        call!(
            POST,
            "/api/trackViewedProducts",
            Session,
            "A beacon: the products a customer was shown",
            [(
                "key",
                r#"{"type": "array", "maxItems": 200, "items": {"type": "string"}, "examples": [["1_LT04000"]]}"#,
                "[\"{original pet id}_{product code}\"]"
            )],
            required["key"],
            "204"
        ),
        || post(cover::track_viewed_products),
    ),
];

/// The calls anyone may make (reference data and code checks) and the page's view data.
const PUBLIC: &[(Call, Route)] = &[
    (
        call!(
            POST,
            "/api/getvetlist",
            Public,
            "Vets near a postcode (a lookup: it changes nothing)",
            [(
                "postcode",
                r#"{"type": "string", "maxLength": 20, "examples": ["SW1A 1AA"]}"#,
                "a UK postcode"
            )],
            "[{vet}]"
        ),
        || post(vets::vet_list),
    ),
    (
        call!(
            POST,
            "/api/AddressSearch",
            Public,
            "The addresses at a postcode, or one address by its id (a lookup: it changes nothing)",
            [
                (
                    "address",
                    r#"{"type": "string", "maxLength": 20, "examples": ["SW1A1AA"]}"#,
                    "a postcode, without spaces"
                ),
                (
                    "text",
                    r#"{"type": "string", "maxLength": 50, "examples": ["10"]}"#,
                    "a house name or number to narrow by"
                ),
                (
                    "id",
                    r#"{"type": "string", "maxLength": 200}"#,
                    "an address's id, to retrieve it"
                )
            ],
            "{Items: [{Id, Text, Description, Type}]}, or the address"
        ),
        || post(addresses::address_search),
    ),
    (
        call!(
            POST,
            "/api/checkoffercode",
            Public,
            "Checks a promo code (the quote's brand and species when the caller has one)",
            [
                (
                    "offercode",
                    r#"{"type": "string", "minLength": 1, "maxLength": 40, "examples": ["SPRING"]}"#,
                    "the code typed"
                ),
                (
                    "species",
                    r#"{"enum": ["dog", "cat", "rabbit", ""], "examples": ["dog"]}"#,
                    "dog, cat or rabbit; empty for the quote's pets"
                ),
                (
                    "token",
                    r#"{"type": "string", "maxLength": 100}"#,
                    "the tracking token, if any"
                ),
                (
                    "brand",
                    r#"{"type": "string", "maxLength": 10, "examples": ["pos"]}"#,
                    "the brand, without a quote"
                )
            ],
            "{valid, desc, summ, nectar}"
        ),
        || post(codes::check_offer_code),
    ),
    (
        call!(
            POST,
            "/api/getnectarcard",
            Public,
            "Checks a Nectar card number",
            [(
                "nectarcard",
                r#"{"type": "string", "maxLength": 30, "examples": ["12345678901"]}"#,
                "the 11 digits after 9826 3000"
            )],
            "{nectarCard: {valid, desc, summ}}"
        ),
        || post(codes::get_nectar_card),
    ),
    (
        call!(
            POST,
            "/api/CheckExistingPolicy",
            Public,
            "Checks an existing policy number; on a quote (with its CSRF token) a match is stored there and the answer is the view data",
            [
                (
                    "policyno",
                    r#"{"type": "string", "maxLength": 40, "examples": ["PPW1234567"]}"#,
                    "the policy number"
                ),
                (
                    "brand",
                    r#"{"type": "string", "maxLength": 10, "examples": ["pos"]}"#,
                    "the brand, without a quote"
                ),
                (
                    "postcode",
                    r#"{"type": "string", "maxLength": 20, "examples": ["SW1A 1AA"]}"#,
                    "the owner's postcode, without a quote"
                )
            ],
            required[],
            own_body,
            "{existing_policy_valid}"
        ),
        || post(codes::check_existing_policy),
    ),
    (
        call!(
            GET,
            "/api/view",
            Session,
            "A page's view data by its address (`path`: the page's path and query), as the page answers when asked for JSON; a visitor with no session gets one, as on the page. The HTML preloads it",
            [(
                "path",
                "string",
                "the page's path and query, e.g. /quote?brand=pos"
            )],
            VIEW
        ),
        || get(super::pages::view),
    ),
    (
        call!(
            BOTH,
            "/api/getbreedlist",
            Public,
            "The breed lists",
            [],
            "{data: breedData}"
        ),
        || get(breeds::breed_list).post(breeds::breed_list_posted),
    ),
    (
        call!(
            BOTH,
            "/api/retrievepetswithbreeddata",
            Public,
            "The breed lists (the name the pet page's first load uses)",
            [],
            "{data: breedData}"
        ),
        || get(breeds::breed_list).post(breeds::breed_list_posted),
    ),
];
