//! The product documents (owner-payment.md §3 Documents and the Documents section): each version
//! of a policy wording or IPID named in journeys/products/documents.json, rendered as a page from
//! the rate table's benefits and the version's terms, so a document always says what the prices
//! were worked out from.

use std::collections::BTreeSet;

use axum::extract::{Path, State};
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::response::{IntoResponse, Response};
use minijinja::context;
use rust_decimal::Decimal;

use engine::definitions::Species;
use engine::documents::DocumentKind;
use engine::quoting::money_text;
use engine::rating::{BenefitValue, CoverGroup};

use crate::AppState;
use crate::error::AppError;

const TEMPLATE: &str = include_str!("../../templates/document.html");
const STYLES: &str = include_str!("../../templates/document.css");

/// GET /quote/documents/document.css: the documents' own styles (no inline style under the CSP).
pub(super) async fn styles() -> Response {
    (
        [
            (CONTENT_TYPE, "text/css; charset=utf-8"),
            (CACHE_CONTROL, "public, max-age=3600"),
        ],
        STYLES,
    )
        .into_response()
}

fn uk(date: chrono::NaiveDate) -> String {
    date.format("%d/%m/%Y").to_string()
}

fn species_plural(s: Species) -> &'static str {
    match s {
        Species::Dog => "Dogs",
        Species::Cat => "Cats",
        Species::Rabbit => "Rabbits",
    }
}

/// GET /quote/documents/{name}: one version of a document, as a page.
pub(super) async fn document(
    State(state): State<AppState>,
    headers: axum::http::HeaderMap,
    Path(name): Path<String>,
) -> Result<Response, AppError> {
    let defs = &state.defs;
    let (Some(docs), Some(rates)) = (defs.documents(), defs.rates()) else {
        return Err(AppError::NotFound);
    };
    let Some(version) = docs.version(&name) else {
        return Err(AppError::NotFound);
    };
    let d = version.document;
    let voice = super::quote::request_voice(&state, &headers).await;
    let text = |key: &str| voice.t(key);
    let species_names: Vec<&str> = d.species.iter().map(|s| species_plural(*s)).collect();
    let group_names: Vec<String> = d.groups.iter().map(|g| g.type_name().to_owned()).collect();
    let subject = match d.kind {
        DocumentKind::Ipid => format!(
            "{} cover for {}",
            group_names.join(", "),
            species_names.join(" and ").to_lowercase()
        ),
        DocumentKind::PolicyWording => format!(
            "Pet insurance for {}",
            species_names.join(" and ").to_lowercase()
        ),
    };
    let groups: Vec<minijinja::Value> = d
        .groups
        .iter()
        .map(|g| {
            let key = g.as_str().to_lowercase();
            context! { code => g.as_str(), name => g.type_name(), blurb => text(&format!("cover.type.{key}.blurb")) }
        })
        .collect();
    let tables: Vec<minijinja::Value> = d
        .species
        .iter()
        .map(|species| {
            let limits: BTreeSet<u32> = rates
                .products_for(*species)
                .into_iter()
                .filter(|p| d.groups.contains(&p.group))
                .map(|p| p.limit)
                .collect();
            let rows: Vec<minijinja::Value> = rates
                .benefits
                .iter()
                .filter(|b| b.species.contains(species))
                .map(|b| {
                    let values: Vec<String> = limits
                        .iter()
                        .map(|limit| match &b.value {
                            BenefitValue::VetFeeLimit(_) => money_text(Decimal::from(*limit)),
                            BenefitValue::Amount(a) => money_text(*a),
                            BenefitValue::ByLimit(by) => by
                                .get(&limit.to_string())
                                .map_or_else(|| text("benefit.not_included"), |a| money_text(*a)),
                            BenefitValue::Text(key) => text(key),
                        })
                        .collect();
                    context! { name => text(&b.desc), tip => text(&b.tooltip), values => values }
                })
                .collect();
            let limits: Vec<String> = limits
                .iter()
                .map(|l| money_text(Decimal::from(*l)))
                .collect();
            context! { species => species_plural(*species), limits => limits, rows => rows }
        })
        .collect();
    let older: Vec<minijinja::Value> = d
        .species
        .iter()
        .map(|s| context! { species => species_plural(*s), age => engine::quoting::older_pet_age(*s) })
        .collect();
    let until = (version.name == d.pre_date_document_name).then(|| uk(d.file_change_date));
    let cover_blurb = d
        .groups
        .first()
        .map(|g: &CoverGroup| text(&format!("cover.type.{}.blurb", g.as_str().to_lowercase())))
        .unwrap_or_default();
    let mut env = minijinja::Environment::new();
    env.set_auto_escape_callback(|_| minijinja::AutoEscape::Html);
    let page = env
        .render_str(
            TEMPLATE,
            context! {
                brand => text("app.brand"),
                kind => d.kind.as_str(),
                title => text(&d.title),
                subject => &subject,
                subject_lower => subject.to_lowercase(),
                version => version.terms.effective_from.format("%B %Y").to_string(),
                effective_from => uk(version.terms.effective_from),
                until => until,
                cover_blurb => cover_blurb,
                groups => groups,
                tables => tables,
                has_tpl => d.species.contains(&Species::Dog),
                older => older,
                share => &version.terms.older_pet_share_percent,
                overseas => d.species.iter().any(|s| *s != Species::Rabbit),
            },
        )
        .map_err(|e| AppError::Internal(format!("rendering document {name}: {e}")))?;
    Ok((
        [
            (CONTENT_TYPE, "text/html; charset=utf-8"),
            (CACHE_CONTROL, "public, max-age=300"),
        ],
        page,
    )
        .into_response())
}
