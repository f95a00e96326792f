//! The funnel (journey.md §6): each brand's steps of a journey, counted from the transition log
//! over a period, ready for the internal page (its chart and rows).

use engine::definitions::Journey;
use minijinja::context;

use crate::service::error::AppError;
use crate::service::state::AppState;
use crate::store::report::{self, FunnelFilter};

/// Every brand's funnel of `journey` between `from` and `to` (UK days, either open), each as the
/// internal page draws it.
pub async fn funnels(
    state: &AppState,
    journey: &Journey,
    from: Option<chrono::NaiveDate>,
    to: Option<chrono::NaiveDate>,
) -> Result<Vec<minijinja::Value>, AppError> {
    let defs = &state.defs;
    let (steps, terminal) = report::journey_steps(defs, journey);
    let mut funnels = Vec::new();
    for brand in defs.raw.brands.iter().map(|b| &b.value) {
        if !brand.offers_journey(journey) {
            continue;
        }
        let filter = FunnelFilter {
            journey: journey.id.clone(),
            brand: Some(brand.id.clone()),
            channel: Some(journey.channel.as_str().to_owned()),
            from,
            to,
        };
        let mut counter = report::Funnel::new(&steps, &journey.start, &terminal);
        state.store.funnel(&filter, &mut counter).await?;
        let rows = counter.rows();
        let title = format!(
            "{}, {}: {}",
            brand.display_name,
            journey.channel.as_str(),
            journey.id
        );
        funnels.push(context! {
            brand => &brand.id,
            brand_name => &brand.display_name,
            channel => journey.channel.as_str(),
            chart => report::svg(&title, &rows),
            rows => rows.iter().map(|r| context! {
                step => &r.step,
                entered => r.entered,
                moved_on => r.moved_on,
                blocked => r.blocked,
                abandoned => r.abandoned,
                median => report::duration_text(r.median_seconds),
                errors => r.top_errors.iter().map(|(e, n)| format!("{e} ({n})")).collect::<Vec<_>>().join("; "),
            }).collect::<Vec<_>>(),
        });
    }
    Ok(funnels)
}
