//! The studio's pages for named staff: the sign-in, the sign-out and the first page. A request
//! without an open studio session gets the sign-in page and nothing else; every form carries the
//! CSRF token of the studio's own cookie; the pages run no script and carry a content security
//! policy of their own, stricter than the customer's.

use axum::extract::State;
use axum::http::header::{CACHE_CONTROL, CONTENT_SECURITY_POLICY, CONTENT_TYPE, SET_COOKIE};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use minijinja::context;
use serde::Deserialize;

use crate::http::answers::see_other;
use crate::service::error::AppError;
use crate::service::state::AppState;
use crate::service::studio_access::{self, COOKIE, SESSION_HOURS};
use crate::session::SessionToken;

const SIGN_IN: &str = include_str!("../../templates/studio/sign_in.html");
const HOME: &str = include_str!("../../templates/studio/home.html");
const JOURNEY: &str = include_str!("../../templates/studio/journey.html");
const STYLES: &str = include_str!("../../templates/studio/studio.css");

/// The studio pages' policy: their own styles, no script at all, forms only to the studio.
const POLICY: &str = "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/// The most a studio form's body may hold: a few short fields.
const FORM_LIMIT: usize = 8 * 1024;

/// How long the token that keeps the sign-in form's CSRF token lasts before signing in.
const SIGN_IN_COOKIE_SECONDS: i64 = 60 * 60;

#[derive(Debug, Deserialize)]
pub(super) struct SignInForm {
    #[serde(default)]
    email: String,
    #[serde(default)]
    password: String,
    #[serde(default)]
    csrf: String,
}

#[derive(Debug, Deserialize)]
pub(super) struct CsrfForm {
    #[serde(default)]
    csrf: String,
}

/// The studio's pages and forms (its forms' bodies are a few short fields).
pub(super) fn routes() -> axum::Router<AppState> {
    use axum::extract::DefaultBodyLimit;
    use axum::routing::{get, post};
    let small = || DefaultBodyLimit::max(FORM_LIMIT);
    axum::Router::new()
        .route("/studio", get(home))
        .route("/studio/studio.css", get(styles))
        .route("/studio/journeys/{id}", get(journey))
        .route("/studio/journeys/{id}/diagram.svg", get(diagram))
        .route(
            "/studio/sign-in",
            get(sign_in_page).post(sign_in).layer(small()),
        )
        .route("/studio/sign-out", post(sign_out).layer(small()))
}

/// GET /studio/studio.css.
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

/// The studio cookie's token and its member, while its session is open.
async fn member(
    state: &AppState,
    headers: &HeaderMap,
) -> Result<Option<(SessionToken, studio_access::StaffMember)>, AppError> {
    let Some(token) = SessionToken::from_cookie(headers, COOKIE) else {
        return Ok(None);
    };
    Ok(studio_access::signed_in(state, &token)
        .await?
        .map(|member| (token, member)))
}

/// GET /studio: the first page for a signed-in member; anyone else is sent to the sign-in.
pub(super) async fn home(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<Response, AppError> {
    let Some((token, member)) = member(&state, &headers).await? else {
        return Ok(see_other("/studio/sign-in", None));
    };
    let (version, journeys) = studio_access::journeys(&state);
    let journeys: Vec<minijinja::Value> = journeys
        .into_iter()
        .map(
            |j| context! { id => j.id, channel => j.channel, steps => j.steps, brands => j.brands },
        )
        .collect();
    page(
        StatusCode::OK,
        HOME,
        context! {
            name => member.name,
            email => member.email,
            role => member.role.as_str(),
            may => studio_access::role_may(member.role),
            version => version,
            journeys => journeys,
            csrf => token.csrf(&state.config.secret_key),
        },
        None,
    )
}

/// GET /studio/journeys/{id}: a journey's steps and its diagram; 404 for no such journey.
pub(super) async fn journey(
    State(state): State<AppState>,
    axum::extract::Path(id): axum::extract::Path<String>,
    headers: HeaderMap,
) -> Result<Response, AppError> {
    let Some((token, member)) = member(&state, &headers).await? else {
        return Ok(see_other("/studio/sign-in", None));
    };
    let Some((channel, steps)) = studio_access::journey(&state, &id) else {
        return Err(AppError::NotFound);
    };
    let steps: Vec<minijinja::Value> = steps
        .into_iter()
        .map(|s| {
            context! {
                id => s.id, path => s.path, title => s.title, view => s.view,
                questions => s.questions, blocking => s.blocking, exits => s.exits,
            }
        })
        .collect();
    let (version, _) = studio_access::journeys(&state);
    page(
        StatusCode::OK,
        JOURNEY,
        context! {
            name => member.name,
            email => member.email,
            role => member.role.as_str(),
            id => id,
            channel => channel,
            steps => steps,
            version => version,
            csrf => token.csrf(&state.config.secret_key),
        },
        None,
    )
}

/// GET /studio/journeys/{id}/diagram.svg: the journey's diagram, for a signed-in member.
pub(super) async fn diagram(
    State(state): State<AppState>,
    axum::extract::Path(id): axum::extract::Path<String>,
    headers: HeaderMap,
) -> Result<Response, AppError> {
    if member(&state, &headers).await?.is_none() {
        return Ok(see_other("/studio/sign-in", None));
    }
    let Some(svg) = studio_access::journey_diagram(&state, &id) else {
        return Err(AppError::NotFound);
    };
    Ok((
        [
            (CONTENT_TYPE, "image/svg+xml"),
            (CACHE_CONTROL, "private, no-store"),
            // The drawing's own styles, and nothing else.
            (
                CONTENT_SECURITY_POLICY,
                "default-src 'none'; style-src 'unsafe-inline'",
            ),
        ],
        svg,
    )
        .into_response())
}

/// GET /studio/sign-in: the form, with the CSRF token of the studio's cookie (made here when the
/// browser has none); a member already signed in goes on to the studio.
pub(super) async fn sign_in_page(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<Response, AppError> {
    if let Some(token) = SessionToken::from_cookie(&headers, COOKIE)
        && studio_access::signed_in(&state, &token).await?.is_some()
    {
        return Ok(see_other("/studio", None));
    }
    sign_in_form(
        &state,
        SessionToken::from_cookie(&headers, COOKIE),
        StatusCode::OK,
        "",
        None,
    )
}

/// POST /studio/sign-in (a form: email, password, csrf): on success the session's cookie and on
/// to the studio; otherwise the form again, saying why without saying which part was wrong.
pub(super) async fn sign_in(
    State(state): State<AppState>,
    caller: crate::service::Caller,
    headers: HeaderMap,
    axum::Form(form): axum::Form<SignInForm>,
) -> Result<Response, AppError> {
    let secret = &state.config.secret_key;
    let Some(token) = SessionToken::from_cookie(&headers, COOKIE)
        .filter(|token| token.csrf_matches(secret, &form.csrf))
    else {
        return sign_in_form(
            &state,
            None,
            StatusCode::FORBIDDEN,
            &form.email,
            Some("The sign-in page had expired. Try again."),
        );
    };
    match studio_access::sign_in(&state, &caller, &form.email, &form.password).await {
        Ok((_, session)) => Ok(see_other(
            "/studio",
            Some(session.set_studio_cookie(
                COOKIE,
                state.config.secure_cookies(),
                SESSION_HOURS * 3600,
            )),
        )),
        Err(AppError::Validation(_)) => sign_in_form(
            &state,
            Some(token.clone()),
            StatusCode::UNPROCESSABLE_ENTITY,
            &form.email,
            Some(studio_access::REFUSED),
        ),
        Err(AppError::RateLimited(_)) => sign_in_form(
            &state,
            Some(token.clone()),
            StatusCode::TOO_MANY_REQUESTS,
            &form.email,
            Some(
                "Too many sign-ins have been tried from here. Wait a quarter of an hour, then try again.",
            ),
        ),
        Err(e) => Err(e),
    }
}

/// POST /studio/sign-out (a form: csrf): the session ended and its cookie cleared.
pub(super) async fn sign_out(
    State(state): State<AppState>,
    headers: HeaderMap,
    axum::Form(form): axum::Form<CsrfForm>,
) -> Result<Response, AppError> {
    let Some(token) = SessionToken::from_cookie(&headers, COOKIE) else {
        return Ok(see_other("/studio/sign-in", None));
    };
    if !token.csrf_matches(&state.config.secret_key, &form.csrf) {
        return Err(AppError::Forbidden(
            "the sign-out form had expired: sign out from the studio's page".into(),
        ));
    }
    studio_access::sign_out(&state, &token).await?;
    let cleared =
        SessionToken::generate().set_studio_cookie(COOKIE, state.config.secure_cookies(), 0);
    Ok(see_other("/studio/sign-in", Some(cleared)))
}

/// The sign-in form, keeping the studio cookie's `token` or making one.
fn sign_in_form(
    state: &AppState,
    token: Option<SessionToken>,
    status: StatusCode,
    email: &str,
    error: Option<&str>,
) -> Result<Response, AppError> {
    let (token, cookie) = match token {
        Some(token) => (token, None),
        None => {
            let token = SessionToken::generate();
            let cookie = token.set_studio_cookie(
                COOKIE,
                state.config.secure_cookies(),
                SIGN_IN_COOKIE_SECONDS,
            );
            (token, Some(cookie))
        }
    };
    let email: String = email.chars().take(254).collect();
    page(
        status,
        SIGN_IN,
        context! {
            csrf => token.csrf(&state.config.secret_key),
            email => email,
            error => error,
        },
        cookie,
    )
}

/// A studio page: HTML, never cached, under the studio's policy.
fn page(
    status: StatusCode,
    template: &str,
    context: minijinja::Value,
    cookie: Option<String>,
) -> Result<Response, AppError> {
    let mut env = minijinja::Environment::new();
    env.set_auto_escape_callback(|_| minijinja::AutoEscape::Html);
    let html = env
        .render_str(template, context)
        .map_err(|e| AppError::Internal(format!("rendering a studio page: {e}")))?;
    let mut response = (
        status,
        [
            (CONTENT_TYPE, "text/html; charset=utf-8"),
            (CACHE_CONTROL, "no-store"),
            (CONTENT_SECURITY_POLICY, POLICY),
        ],
        html,
    )
        .into_response();
    if let Some(c) = cookie.and_then(|c| HeaderValue::from_str(&c).ok()) {
        response.headers_mut().insert(SET_COOKIE, c);
    }
    Ok(response)
}
