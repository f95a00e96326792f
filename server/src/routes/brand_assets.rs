//! A brand's own assets under /quote/brand/{id}: its theme's stylesheet, the simplified shell's
//! stylesheet, and its logo.

use axum::extract::State;
use axum::http::Uri;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::response::{IntoResponse, Response};

use crate::service::error::AppError;
use crate::service::state::AppState;

/// A brand's stylesheet, cached for five minutes (a brand's colours change with a deployment).
fn stylesheet(css: String) -> Response {
    (
        [
            (CONTENT_TYPE, "text/css; charset=utf-8"),
            (CACHE_CONTROL, "public, max-age=300"),
        ],
        css,
    )
        .into_response()
}

/// GET /quote/brand/{id}/theme.css: the brand's colours and font as CSS custom properties
/// (journeys/brands: theme), loaded after the renderer's stylesheet. An unknown brand is a 404.
///
/// The shell links it with `?v=` and the definitions version: at the version being
/// served it is cached for a year, as the hashed assets are (a new version is a new address);
/// without it, or at another version, for five minutes as before.
pub(super) async fn brand_theme(
    State(state): State<AppState>,
    axum::extract::Path(id): axum::extract::Path<String>,
    uri: Uri,
) -> Result<Response, AppError> {
    let brand = state.defs.brand(&id).ok_or(AppError::NotFound)?;
    let t = &brand.theme;
    // Every value was checked by the brand schema (#rrggbb colours, a font list of safe
    // characters), so nothing here can break out of its declaration.
    let css = format!(
        "html:root {{\n  --brand-primary: {};\n  --brand-primary-dark: {};\n  --brand-accent: {};\n  --focus: {};\n  --on-brand: {};\n  --font: {};\n}}\n",
        t.primary, t.primary_dark, t.accent, t.accent, t.on_primary, t.font
    );
    let mut response = stylesheet(css);
    if uri.query() == Some(&format!("v={}", state.defs.version())) {
        response.headers_mut().insert(
            CACHE_CONTROL,
            axum::http::HeaderValue::from_static("public, max-age=31536000, immutable"),
        );
    }
    Ok(response)
}

/// GET /quote/brand/{id}/unsupported.css: the stylesheet of the simplified shell Internet
/// Explorer gets (journey.md §2 Shell). Internet Explorer reads no custom properties and no
/// modern layout, so this is plain CSS with the brand's colours written into it.
pub(super) async fn unsupported_theme(
    State(state): State<AppState>,
    axum::extract::Path(id): axum::extract::Path<String>,
) -> Result<Response, AppError> {
    let brand = state.defs.brand(&id).ok_or(AppError::NotFound)?;
    let t = &brand.theme;
    // As in brand_theme: every value was checked by the brand schema.
    let css = format!(
        "body {{ margin: 0; font-family: {font}; font-size: 18px; line-height: 1.5; color: #1b1b1b; background: #ffffff; }}\n\
         .header {{ background: {primary}; color: {on}; border-bottom: 4px solid {accent}; }}\n\
         .header__inner {{ max-width: 720px; margin: 0 auto; padding: 12px 24px; }}\n\
         .header__logo {{ display: block; height: 40px; width: auto; }}\n\
         .main {{ display: block; max-width: 720px; margin: 0 auto; padding: 32px 24px 48px; }}\n\
         .page-title {{ margin: 0 0 16px; font-size: 32px; line-height: 1.25; color: {dark}; }}\n\
         p {{ margin: 0 0 16px; }}\n",
        font = t.font,
        primary = t.primary,
        on = t.on_primary,
        accent = t.accent,
        dark = t.primary_dark,
    );
    Ok(stylesheet(css))
}

/// GET /quote/brand/{id}/logo.svg: the brand's logo (journeys/brands/logos, checked when loaded:
/// no script, no outside reference), as an image that may load nothing else.
pub(super) async fn brand_logo(
    State(state): State<AppState>,
    axum::extract::Path(id): axum::extract::Path<String>,
) -> Result<Response, AppError> {
    let brand = state.defs.brand(&id).ok_or(AppError::NotFound)?;
    let svg = state.defs.logo(&brand.logo).ok_or(AppError::NotFound)?;
    Ok((
        [
            (CONTENT_TYPE, "image/svg+xml"),
            (CACHE_CONTROL, "public, max-age=300"),
            (
                axum::http::header::CONTENT_SECURITY_POLICY,
                "default-src 'none'; style-src 'unsafe-inline'",
            ),
        ],
        svg.to_owned(),
    )
        .into_response())
}
