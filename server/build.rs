//! `sqlx::migrate!` reads `migrations/` when the server is compiled; a new migration file is not
//! a change to any Rust source, so without this an incremental build would keep the old list.
fn main() {
    println!("cargo:rerun-if-changed=migrations");
}
