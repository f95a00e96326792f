//! What can go wrong in the store.

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
    #[error("migration: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    #[error("the quote changed since it was read")]
    Conflict,
    /// The quote's history is at its ceiling: nothing was written.
    #[error("the quote's history is full")]
    HistoryFull,
    #[error("stored data is damaged: {0}")]
    Corrupt(String),
    #[error("the write was not saved: {0}")]
    Write(String),
}
