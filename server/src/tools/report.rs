//! The funnel (journey.md §6): each brand's steps of a journey, counted from the transition log
//! over a period, ready for the internal page (its chart and rows).

use engine::definitions::Journey;
use minijinja::context;

use crate::service::error::AppError;
use crate::service::staff;
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
        staff::store(state).funnel(&filter, &mut counter).await?;
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

/// Each experiment read over `journey`'s quotes started between `from` and `to` (every brand),
/// as `pawpath report experiment` reads it, ready for the internal page.
pub async fn experiments(
    state: &AppState,
    journey: &Journey,
    from: Option<chrono::NaiveDate>,
    to: Option<chrono::NaiveDate>,
) -> Result<Vec<minijinja::Value>, AppError> {
    use crate::store::experiments::{self, VariationRow};
    let Some(file) = state.defs.experiments() else {
        return Ok(Vec::new());
    };
    let filter = FunnelFilter {
        journey: journey.id.clone(),
        brand: None,
        channel: None,
        from,
        to,
    };
    let percent = |p: f64| format!("{:.1}%", p * 100.0);
    let rate = |x: u64, n: u64, i: Option<experiments::Interval>| match i {
        #[allow(clippy::cast_precision_loss)]
        Some(i) => format!(
            "{} ({} to {})",
            percent(x as f64 / n as f64),
            percent(i.low),
            percent(i.high)
        ),
        None => "–".into(),
    };
    let points = |d: Option<(f64, experiments::Interval)>| match d {
        Some((d, i)) => format!(
            "{:+.1} points ({:+.1} to {:+.1})",
            d * 100.0,
            i.low * 100.0,
            i.high * 100.0
        ),
        None => "not measurable yet (a variation has no quotes)".into(),
    };
    let mut read = Vec::new();
    for experiment in &file.experiments {
        let rows: Vec<VariationRow> = staff::store(state)
            .experiment(&filter, &experiment.id, &experiment.variations)
            .await?;
        read.push(context! {
            id => &experiment.id,
            description => &experiment.description,
            rows => rows.iter().map(|r| context! {
                variation => &r.variation,
                saw => r.saw,
                moved_on => r.moved_on,
                moved_on_rate => rate(r.moved_on, r.saw, r.moved_on_interval()),
                bought => r.bought,
                conversion => rate(r.bought, r.saw, r.conversion_interval()),
            }).collect::<Vec<_>>(),
            differences => experiments::differences(&rows).iter().map(|d| context! {
                variation => &d.variation,
                control => &d.control,
                moved_on => points(d.moved_on),
                conversion => points(d.conversion),
            }).collect::<Vec<_>>(),
        });
    }
    Ok(read)
}
