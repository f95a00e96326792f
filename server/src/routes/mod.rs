//! The HTTP surface: one module per resource, merged here with the layers every response gets.

mod addresses;
mod aggregators;
mod annual;
mod api;
mod body;
mod breeds;
mod codes;
mod cover;
mod documents;
mod pages;
mod payment;
mod portal;
mod purchase;
mod quote;
mod rehoming;
mod reset;
mod retrieve;
mod vets;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::{HeaderName, HeaderValue, header};
use axum::routing::{get, post};
use tower_http::services::ServeDir;
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::trace::{DefaultMakeSpan, DefaultOnResponse, TraceLayer};
use tracing::Level;

use crate::AppState;

pub use quote::DEFAULT_BRAND;
pub use rehoming::rescue_view;

/// The largest request body accepted (a quote with ten pets is far below this).
pub const BODY_LIMIT: usize = 64 * 1024;

/// The largest rehoming pet details (/api/postpetdetails): a 2 MB certificate as base64, and the
/// rest of the pet.
pub const CERTIFICATE_BODY_LIMIT: usize = 3 * 1024 * 1024;

/// No inline script, no eval, nothing from other origins.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'";

/// A 303 to `to` that no cache keeps, setting a new session cookie where given (a signed link's
/// landing: the click-through, the annual rehoming link).
pub(super) fn see_other(to: &str, cookie: Option<String>) -> axum::response::Response {
    use axum::response::IntoResponse;
    let mut response = axum::http::StatusCode::SEE_OTHER.into_response();
    if let Ok(v) = HeaderValue::from_str(to) {
        response.headers_mut().insert(header::LOCATION, v);
    }
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    if let Some(c) = cookie.and_then(|c| HeaderValue::from_str(&c).ok()) {
        response.headers_mut().insert(header::SET_COOKIE, c);
    }
    response
}

pub fn router(state: AppState) -> Router {
    let assets = ServeDir::new(state.config.static_dir.join("assets"));
    let header = |name: HeaderName, value: &'static str| {
        SetResponseHeaderLayer::if_not_present(name, HeaderValue::from_static(value))
    };
    let test_mode = state.config.test_mode;
    let router = Router::new()
        .route("/healthz", get(pages::health))
        .route("/", get(pages::home))
        .route("/quote", get(pages::page))
        .route("/quote/", get(pages::page))
        .route("/quote/{*rest}", get(pages::page))
        .route("/aggregators/quote", get(pages::page))
        .route("/aggregators/quote/", get(pages::page))
        .route("/aggregators/quote/{*rest}", get(pages::page))
        .route("/rehoming", get(pages::page))
        .route("/rehoming/", get(pages::page))
        .route("/rehoming/{*rest}", get(pages::page))
        .route("/annual-rehoming", get(pages::page))
        .route("/annual-rehoming/", get(pages::page))
        .route("/annual-rehoming/start/{token}", get(annual::start))
        .route("/annual-rehoming/{*rest}", get(pages::page))
        .nest_service("/quote/assets", assets)
        .route("/quote/brand/{id}/theme.css", get(pages::brand_theme))
        .route("/quote/brand/{id}/logo.svg", get(pages::brand_logo))
        .route("/quote/documents/document.css", get(documents::styles))
        .route("/quote/documents/{name}", get(documents::document))
        .route(
            "/aggregators/continue/{token}",
            get(aggregators::click_through),
        )
        .route("/api/aggregators/quotes", post(aggregators::inbound_quote))
        .route("/api/petdetails", post(api::pet_details))
        .route("/api/rehomingeligibility", post(api::rehoming_eligibility))
        // The rehoming certificate rides in the pet details (up to 2 MB, as a data URL).
        .route(
            "/api/postpetdetails",
            post(api::post_pet_details).layer(DefaultBodyLimit::max(CERTIFICATE_BODY_LIMIT)),
        )
        .route("/api/getrehomingcentres", get(rehoming::centres))
        .route("/api/getrescueproduct", get(rehoming::rescue_product))
        .route(
            "/api/confirmationrescue",
            post(rehoming::confirmation_rescue),
        )
        .route(
            "/api/confirmationRescueEmail",
            post(rehoming::confirmation_rescue_email),
        )
        .route("/api/petownerdetails", post(api::pet_owner_details))
        .route("/api/deletePet", post(api::delete_pet))
        .route("/api/saveDeclaration", post(api::save_declaration))
        .route("/api/ownerdetail", post(api::owner_detail))
        .route("/api/noquotechaseemail", post(api::no_quote_chase_email))
        .route("/api/bankvalidation", post(payment::bank_validation))
        .route("/api/setup-payment", post(payment::setup_payment))
        .route("/api/purchase", post(purchase::purchase))
        .route("/api/confirmation", get(purchase::confirmation_data))
        .route("/api/confirmationEmail", post(purchase::confirmation_email))
        .route("/api/reset", post(reset::reset))
        .route("/api/quoteretrieval", post(retrieve::quote_retrieval))
        .route(
            "/api/saveportalpassword",
            post(portal::save_portal_password),
        )
        .route("/api/saveCover", post(cover::save_cover))
        .route("/api/getFlexProducts", post(cover::get_flex_products))
        .route("/api/changecoins", post(cover::change_coins))
        .route("/api/get-products", get(cover::get_products))
        .route(
            "/api/trackViewedProducts",
            post(cover::track_viewed_products),
        )
        .route(
            "/internal/quotes/{reference}/pricing",
            get(cover::internal_pricing),
        )
        .route("/api/getvetlist", post(vets::vet_list))
        .route("/api/AddressSearch", post(addresses::address_search))
        .route("/api/checkoffercode", post(codes::check_offer_code))
        .route("/api/getnectarcard", post(codes::get_nectar_card))
        .route(
            "/api/CheckExistingPolicy",
            post(codes::check_existing_policy),
        )
        .route(
            "/api/getbreedlist",
            get(breeds::breed_list).post(breeds::breed_list),
        )
        .route(
            "/api/retrievepetswithbreeddata",
            get(breeds::breed_list).post(breeds::breed_list),
        );
    // The local test payment provider's browser endpoint (cards go there, not to /api).
    let router = match &state.test_payments {
        Some(provider) => router.merge(std::sync::Arc::clone(provider).router()),
        None => router,
    };
    let router = if test_mode {
        router
            .route("/api/test/patch", post(api::test_patch))
            .route(
                "/api/fakeaggs",
                get(aggregators::fake_aggregator_visit).post(aggregators::fake_aggregator),
            )
    } else {
        router
    };
    router
        .fallback(pages::not_found)
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(
            // One line per request at INFO: method, path, status, latency. No bodies, no cookies.
            TraceLayer::new_for_http()
                .make_span_with(DefaultMakeSpan::new().level(Level::INFO))
                .on_response(DefaultOnResponse::new().level(Level::INFO)),
        )
        .layer(header(
            header::CONTENT_SECURITY_POLICY,
            CONTENT_SECURITY_POLICY,
        ))
        .layer(header(header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .layer(header(header::REFERRER_POLICY, "same-origin"))
        .layer(header(header::X_FRAME_OPTIONS, "DENY"))
        .layer(header(
            HeaderName::from_static("permissions-policy"),
            "camera=(), microphone=(), geolocation=()",
        ))
        .with_state(state)
}
