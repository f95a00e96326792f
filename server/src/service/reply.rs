//! A call's answer as the service gives it: a JSON body written once, and the session the browser
//! holds from then on where the call moved the quote to a new one. The HTTP layer sends
//! it (`http::answers`): 200, `application/json`, and the session's cookie.

use serde::Serialize;

use crate::service::error::AppError;
use crate::service::state::AppState;
use crate::session::SessionToken;

pub struct Reply {
    /// The JSON body.
    pub body: Vec<u8>,
    /// The `Set-Cookie` value of the session the browser is to hold, where it changes.
    pub set_cookie: Option<String>,
}

impl Reply {
    /// `value` as JSON, into a buffer of about `capacity` bytes.
    pub fn json_sized(value: &impl Serialize, capacity: usize) -> Result<Reply, AppError> {
        let mut body = Vec::with_capacity(capacity);
        serde_json::to_writer(&mut body, value)
            .map_err(|e| AppError::Internal(format!("answer not written: {e}")))?;
        Ok(Reply {
            body,
            set_cookie: None,
        })
    }

    /// `value` as JSON.
    pub fn json(value: &impl Serialize) -> Result<Reply, AppError> {
        Self::json_sized(value, 256)
    }

    /// The same answer, moving the browser to `session`.
    pub fn joining(mut self, state: &AppState, session: &SessionToken) -> Reply {
        self.set_cookie = Some(session.set_cookie(state.config.secure_cookies()));
        self
    }
}
