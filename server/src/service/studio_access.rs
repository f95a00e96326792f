//! Who may use the studio: named staff, each with a role (viewer, editor, publisher), signed in
//! with a password kept only as its argon2id hash. A signed-in member holds a session of their
//! own, a cookie apart from the customer's whose token the database keeps only as a hash; it ends
//! after [`SESSION_HOURS`], after [`IDLE_MINUTES`] unused, on sign-out, or when the account is
//! disabled. Sign-ins are counted per client address and per account from that address
//! (`limits::limit_staff_sign_in`), so a guesser gets a few tries and nobody is locked out.

use argon2::Argon2;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};

use crate::service::caller::Caller;
use crate::service::error::{AppError, FieldMessage};
use crate::service::state::AppState;
use crate::session::SessionToken;
pub use crate::store::staff::{Role, StaffMember};
use crate::store::{Store, StoreError};

/// The studio's cookie (`Path=/studio`), apart from the customer's.
pub const COOKIE: &str = "pawpath_staff";
/// The longest a studio session lasts, however busy.
pub const SESSION_HOURS: i64 = 8;
/// How long a studio session may go unused.
pub const IDLE_MINUTES: i64 = 30;
/// A staff password's bounds, in characters: long enough that the sign-in limits leave guessing
/// hopeless, short enough that hashing one costs a known amount.
pub const PASSWORD_MIN: usize = 12;
pub const PASSWORD_MAX: usize = 200;
/// The most characters of an email address or a name taken.
const TEXT_MAX: usize = 254;

/// What a sign-in is told when it fails, whatever failed: an unknown address, a wrong password
/// and a disabled account read the same (a guesser learns nothing of who has an account).
pub const REFUSED: &str =
    "That email address and password do not match an account that may sign in.";

/// A new password's problem, naming what is wrong; `None` when it will do.
pub fn password_problem(password: &str) -> Option<String> {
    let length = password.chars().count();
    if length < PASSWORD_MIN {
        return Some(format!("password: at least {PASSWORD_MIN} characters"));
    }
    if length > PASSWORD_MAX {
        return Some(format!("password: at most {PASSWORD_MAX} characters"));
    }
    None
}

/// An email address as an account is kept under: trimmed and lower-case, checked for its shape.
pub fn account_email(email: &str) -> Result<String, String> {
    let email = email.trim().to_lowercase();
    let shaped = email.len() <= TEXT_MAX
        && email.split_once('@').is_some_and(|(local, domain)| {
            !local.is_empty() && domain.contains('.') && !domain.starts_with('.')
        })
        && !email.chars().any(char::is_whitespace);
    if shaped {
        Ok(email)
    } else {
        Err("email: not an email address".into())
    }
}

/// The argon2id hash of a password, with a salt of its own.
pub fn hash_password(password: &str) -> Result<String, String> {
    use rand::RngCore;
    let mut salt = [0u8; 16];
    rand::rng().fill_bytes(&mut salt);
    let salt = SaltString::encode_b64(&salt).map_err(|e| e.to_string())?;
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| format!("the password could not be hashed: {e}"))
}

/// Whether `password` is the one `hash` was made from.
fn password_matches(hash: &str, password: &str) -> bool {
    PasswordHash::new(hash).is_ok_and(|parsed| {
        Argon2::default()
            .verify_password(password.as_bytes(), &parsed)
            .is_ok()
    })
}

/// A hash no password was made from, checked when no account has the address, so a sign-in takes
/// as long whether or not the account exists.
fn decoy_hash() -> &'static str {
    static DECOY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DECOY.get_or_init(|| hash_password("no account has this password").unwrap_or_default())
}

/// `pawpath staff add`: a new account, its email address and password checked.
pub async fn add(
    store: &Store,
    email: &str,
    name: &str,
    role: Role,
    password: &str,
) -> Result<StaffMember, String> {
    let email = account_email(email)?;
    let name = name.trim();
    if name.is_empty() || name.chars().count() > TEXT_MAX {
        return Err(format!("name: 1 to {TEXT_MAX} characters"));
    }
    if let Some(problem) = password_problem(password) {
        return Err(problem);
    }
    let hash = hash_password(password)?;
    match store.add_staff(&email, name, role, &hash).await {
        Ok(member) => Ok(member),
        Err(StoreError::Conflict) => Err(format!("email: {email} has an account already")),
        Err(e) => Err(e.to_string()),
    }
}

/// A sign-in: the member and the token of the session it opened (set as the studio's cookie).
pub async fn sign_in(
    state: &AppState,
    caller: &Caller,
    email: &str,
    password: &str,
) -> Result<(StaffMember, SessionToken), AppError> {
    let refused = || {
        AppError::Validation(vec![FieldMessage {
            field: "password".into(),
            message: REFUSED.into(),
        }])
    };
    if email.len() > TEXT_MAX || password.len() > 4 * PASSWORD_MAX {
        return Err(refused());
    }
    crate::service::limits::limit_staff_sign_in(state, caller, email).await?;
    let found = match account_email(email) {
        Ok(email) => state.store.staff_by_email(&email).await?,
        Err(_) => None,
    };
    let (hash, member) = match &found {
        Some((member, hash)) => (hash.as_str(), Some(member)),
        None => (decoy_hash(), None),
    };
    let password = password.to_owned();
    let hash = hash.to_owned();
    let matches = tokio::task::spawn_blocking(move || password_matches(&hash, &password))
        .await
        .unwrap_or(false);
    let Some(member) = member.filter(|m| matches && m.disabled_at.is_none()) else {
        tracing::info!("a studio sign-in refused");
        return Err(refused());
    };
    let token = SessionToken::generate();
    let expires = chrono::Utc::now() + chrono::Duration::hours(SESSION_HOURS);
    state
        .store
        .open_staff_session(
            &token.hash(),
            &member.id,
            &crate::store::db::timestamp(expires),
        )
        .await?;
    tracing::info!(staff = %member.id, role = member.role.as_str(), "studio sign-in");
    Ok((member.clone(), token))
}

/// The member a studio cookie's session belongs to, while it is open: not past its expiry, used
/// within [`IDLE_MINUTES`], its account not disabled. A session found closed is ended.
pub async fn signed_in(
    state: &AppState,
    token: &SessionToken,
) -> Result<Option<StaffMember>, AppError> {
    let hash = token.hash();
    let Some(session) = state.store.staff_session(&hash).await? else {
        return Ok(None);
    };
    let now = chrono::Utc::now();
    let at = |text: &str| {
        chrono::DateTime::parse_from_rfc3339(text)
            .map(|t| t.with_timezone(&chrono::Utc))
            .ok()
    };
    let open = at(&session.expires_at).is_some_and(|expires| now < expires)
        && at(&session.seen_at)
            .is_some_and(|seen| now - seen < chrono::Duration::minutes(IDLE_MINUTES))
        && session.member.disabled_at.is_none();
    if !open {
        state.store.close_staff_session(&hash).await?;
        return Ok(None);
    }
    state.store.staff_session_seen(&hash).await?;
    Ok(Some(session.member))
}

/// Ends the session a studio cookie holds.
pub async fn sign_out(state: &AppState, token: &SessionToken) -> Result<(), AppError> {
    state.store.close_staff_session(&token.hash()).await?;
    Ok(())
}

/// A journey as the studio's first page lists it.
#[derive(Debug, Clone, serde::Serialize)]
pub struct JourneyListed {
    pub id: String,
    pub channel: String,
    pub steps: usize,
    /// The brands that offer it, by code.
    pub brands: String,
}

/// The served definitions' version and their journeys, each with the brands that offer it.
pub fn journeys(state: &AppState) -> (String, Vec<JourneyListed>) {
    let defs = &state.defs;
    let listed = defs
        .journeys()
        .map(|j| JourneyListed {
            id: j.id.clone(),
            channel: j.channel.as_str().to_owned(),
            steps: j.steps.len(),
            brands: defs
                .raw
                .brands
                .iter()
                .filter(|b| b.value.offers_journey(j))
                .map(|b| b.value.id.clone())
                .collect::<Vec<_>>()
                .join(", "),
        })
        .collect();
    (defs.version().to_owned(), listed)
}

/// What a role lets its member do, as the studio says it.
pub fn role_may(role: Role) -> &'static str {
    match role {
        Role::Viewer => {
            "As a viewer you may read the journeys, drafts and their reviews; you change nothing."
        }
        Role::Editor => {
            "As an editor you may change drafts; another member, a publisher, approves and publishes them."
        }
        Role::Publisher => {
            "As a publisher you may approve and publish drafts that others edited, and roll back."
        }
    }
}

/// A step as the studio's journey page lists it: its id, address, title in the default brand's
/// English, the page that draws it, its question set, and how many blocking answers and exits
/// it has.
#[derive(Debug, Clone)]
pub struct StepListed {
    pub id: String,
    pub path: String,
    pub title: String,
    pub view: String,
    pub questions: String,
    pub blocking: usize,
    pub exits: usize,
}

/// The journey `id` of the served definitions: its channel, its steps in order and its diagram
/// (the SVG `pawpath graph --svg` draws); `None` for no such journey.
pub fn journey(state: &AppState, id: &str) -> Option<(String, Vec<StepListed>)> {
    let defs = &state.defs;
    let journey = defs.journey(id)?;
    let voice = defs.voice(engine::definitions::DEFAULT_BRAND, "en-GB");
    let steps = journey
        .steps
        .iter()
        .map(|s| StepListed {
            id: s.id.to_string(),
            path: format!("{}{}", journey.base_path, s.path),
            title: voice.t(&s.title),
            view: serde_json::to_value(s.view)
                .ok()
                .and_then(|v| v.as_str().map(str::to_owned))
                .unwrap_or_default(),
            questions: s
                .questions
                .as_ref()
                .map(ToString::to_string)
                .unwrap_or_default(),
            blocking: s.blocking.len(),
            exits: s.exits.len(),
        })
        .collect();
    Some((journey.channel.as_str().to_owned(), steps))
}

/// The journey `id`'s diagram as a self-contained SVG; `None` for no such journey.
pub fn journey_diagram(state: &AppState, id: &str) -> Option<String> {
    let defs = &state.defs;
    let journey = defs.journey(id)?;
    Some(engine::checks::graph::graph(defs, journey).svg())
}
