//! The studio's staff and their sessions: accounts made, listed and disabled from the command
//! line, and the sessions their sign-ins open.

use sqlx::Row;
use sqlx::any::AnyRow;

use crate::store::db::{Store, now, random_id};
use crate::store::error::StoreError;

/// What a member of staff may do in the studio.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Role {
    /// Reads the journeys, drafts and their reviews.
    Viewer,
    /// Changes drafts, too.
    Editor,
    /// Approves and publishes a draft another edited, and rolls back, too.
    Publisher,
}

impl Role {
    pub const ALL: [Role; 3] = [Role::Viewer, Role::Editor, Role::Publisher];

    pub fn as_str(self) -> &'static str {
        match self {
            Role::Viewer => "viewer",
            Role::Editor => "editor",
            Role::Publisher => "publisher",
        }
    }

    pub fn parse(text: &str) -> Option<Role> {
        Role::ALL.into_iter().find(|r| r.as_str() == text)
    }
}

/// A member of staff as stored (the password's hash aside).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StaffMember {
    pub id: String,
    pub email: String,
    pub name: String,
    pub role: Role,
    /// When the account was disabled (RFC 3339); a disabled account signs in to nothing.
    pub disabled_at: Option<String>,
    pub created_at: String,
}

/// A session found by its token's hash, with its member.
#[derive(Debug, Clone)]
pub struct StaffSession {
    pub member: StaffMember,
    pub expires_at: String,
    pub seen_at: String,
}

fn member_from(row: &AnyRow) -> Result<StaffMember, StoreError> {
    let role: String = row.try_get("role")?;
    Ok(StaffMember {
        id: row.try_get("id")?,
        email: row.try_get("email")?,
        name: row.try_get("name")?,
        role: Role::parse(&role)
            .ok_or_else(|| StoreError::Corrupt(format!("staff role {role:?}")))?,
        disabled_at: row.try_get("disabled_at")?,
        created_at: row.try_get("created_at")?,
    })
}

impl Store {
    /// Adds a member of staff; `Conflict` when the email address has an account already.
    pub async fn add_staff(
        &self,
        email: &str,
        name: &str,
        role: Role,
        password_hash: &str,
    ) -> Result<StaffMember, StoreError> {
        let id = random_id();
        let created_at = now();
        let inserted = sqlx::query(
            "insert into staff (id, email, name, role, password_hash, created_at)
             values ($1, $2, $3, $4, $5, $6) on conflict (email) do nothing",
        )
        .bind(&id)
        .bind(email)
        .bind(name)
        .bind(role.as_str())
        .bind(password_hash)
        .bind(&created_at)
        .execute(&self.pool)
        .await?;
        if inserted.rows_affected() == 0 {
            return Err(StoreError::Conflict);
        }
        Ok(StaffMember {
            id,
            email: email.to_owned(),
            name: name.to_owned(),
            role,
            disabled_at: None,
            created_at,
        })
    }

    /// Every member of staff, by email address.
    pub async fn staff(&self) -> Result<Vec<StaffMember>, StoreError> {
        let rows = sqlx::query(
            "select id, email, name, role, disabled_at, created_at from staff order by email",
        )
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(member_from).collect()
    }

    /// A member and their password's hash, by email address.
    pub async fn staff_by_email(
        &self,
        email: &str,
    ) -> Result<Option<(StaffMember, String)>, StoreError> {
        let row = sqlx::query(
            "select id, email, name, role, disabled_at, created_at, password_hash
             from staff where email = $1",
        )
        .bind(email)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| Ok((member_from(&r)?, r.try_get("password_hash")?)))
            .transpose()
    }

    /// Disables an account and ends its sessions; `false` when no account has the address (one
    /// disabled already stays as it was).
    pub async fn disable_staff(&self, email: &str) -> Result<bool, StoreError> {
        let mut tx = self.pool.begin().await?;
        let found: Option<String> = sqlx::query_scalar("select id from staff where email = $1")
            .bind(email)
            .fetch_optional(&mut *tx)
            .await?;
        let Some(id) = found else {
            return Ok(false);
        };
        sqlx::query("update staff set disabled_at = $1 where id = $2 and disabled_at is null")
            .bind(now())
            .bind(&id)
            .execute(&mut *tx)
            .await?;
        sqlx::query("delete from staff_sessions where staff_id = $1")
            .bind(&id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(true)
    }

    /// Opens a session for a member, kept by its token's hash until `expires_at`.
    pub async fn open_staff_session(
        &self,
        token_hash: &str,
        staff_id: &str,
        expires_at: &str,
    ) -> Result<(), StoreError> {
        let at = now();
        sqlx::query(
            "insert into staff_sessions (token_hash, staff_id, created_at, expires_at, seen_at)
             values ($1, $2, $3, $4, $3)",
        )
        .bind(token_hash)
        .bind(staff_id)
        .bind(&at)
        .bind(expires_at)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The session kept under `token_hash`, with its member, whatever its times.
    pub async fn staff_session(
        &self,
        token_hash: &str,
    ) -> Result<Option<StaffSession>, StoreError> {
        let row = sqlx::query(
            "select s.id, s.email, s.name, s.role, s.disabled_at, s.created_at,
                    t.expires_at, t.seen_at
             from staff_sessions t join staff s on s.id = t.staff_id
             where t.token_hash = $1",
        )
        .bind(token_hash)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| {
            Ok(StaffSession {
                member: member_from(&r)?,
                expires_at: r.try_get("expires_at")?,
                seen_at: r.try_get("seen_at")?,
            })
        })
        .transpose()
    }

    /// Notes that a session was used now.
    pub async fn staff_session_seen(&self, token_hash: &str) -> Result<(), StoreError> {
        sqlx::query("update staff_sessions set seen_at = $1 where token_hash = $2")
            .bind(now())
            .bind(token_hash)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Ends a session (sign-out, or one found expired).
    pub async fn close_staff_session(&self, token_hash: &str) -> Result<(), StoreError> {
        sqlx::query("delete from staff_sessions where token_hash = $1")
            .bind(token_hash)
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}
