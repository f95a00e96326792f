//! A page the browser could not draw (renderer/src/features/shell/StepBoundary.tsx): the customer
//! was shown the brand's message with the quote reference and phone number, and the page reports
//! what failed, to be logged with the request id and counted in /metrics. Bounded like every
//! call: the session's CSRF token and pace, a small body, and each field cut to a known length;
//! and as what a visitor says it is: logged at WARN (a visitor cannot raise the service's alarms),
//! its words under `reported.*` (never beside the log line's own `message`), and at most
//! [`crate::service::limits`]'s few a session and an address in 15 minutes (past them the report
//! is answered 429 and neither logged nor counted).

use serde_json::{Map, Value};

use crate::service::caller::Caller;
use crate::service::error::AppError;
use crate::service::fields::optional_text;
use crate::service::state::AppState;
use crate::service::transition::authorise;

/// The longest step id, message and component trail kept.
const STEP_MAX: usize = 64;
const MESSAGE_MAX: usize = 300;
const TRAIL_MAX: usize = 1000;

/// Logs and counts one report from the quote's own page.
pub async fn report(
    state: &AppState,
    caller: &Caller,
    body: &Map<String, Value>,
) -> Result<(), AppError> {
    let auth = authorise(state, caller, body, &["step", "message", "trail"]).await?;
    let step = optional_text(body, "step", STEP_MAX)?.unwrap_or_default();
    let message = optional_text(body, "message", MESSAGE_MAX)?.unwrap_or_default();
    let trail = optional_text(body, "trail", TRAIL_MAX)?.unwrap_or_default();
    crate::service::limits::limit(state, "render_error", caller).await?;
    crate::metrics::render_error();
    tracing::warn!(
        quote = %auth.quote.id,
        journey = %auth.quote.journey,
        reported.step = step,
        reported.message = message,
        reported.trail = trail,
        "a page could not be drawn in the browser; the customer was shown the brand's phone number"
    );
    Ok(())
}
