//! Each test's own database: a SQLite file in its folder, or a PostgreSQL database copied from
//! one migrated template per test binary.

use std::path::Path;

use rand::Rng;

pub(super) async fn fresh_database(data_dir: &Path) -> String {
    match std::env::var("PAWPATH_TEST_DATABASE")
        .ok()
        .filter(|v| v != "sqlite")
    {
        None => format!("sqlite://{}?mode=rwc", data_dir.join("test.db").display()),
        Some(admin) => {
            sqlx::any::install_default_drivers();
            let template = migrated_template(&admin).await;
            let name = format!("pawpath_test_{}", rand::rng().random::<u64>());
            let pool = sqlx::AnyPool::connect(&admin)
                .await
                .expect("connect to PAWPATH_TEST_DATABASE");
            room_for_a_server(&pool).await;
            // A copy of the migrated template: the server's own migration run at start then
            // finds every migration applied, rather than each test running all of them again.
            sqlx::query(sqlx::AssertSqlSafe(format!(
                "create database {name} template {template}"
            )))
            .execute(&pool)
            .await
            .expect("create database");
            // A test's database is thrown away after it: waiting for each commit to reach the
            // disk tests nothing (the transactions and their isolation are the same either way)
            // and made the PostgreSQL run wait on the disk for most of its time.
            sqlx::query(sqlx::AssertSqlSafe(format!(
                "alter database {name} set synchronous_commit = off"
            )))
            .execute(&pool)
            .await
            .expect("alter database");
            pool.close().await;
            let (prefix, _) = admin
                .rsplit_once('/')
                .expect("postgres URL with a database");
            format!("{prefix}/{name}")
        }
    }
}

/// One database per test binary with every migration applied, which each test's database is
/// copied from (`create database … template …`). Its name starts like the tests' own, so CI's
/// clean-up drops it with them.
async fn migrated_template(admin: &str) -> &'static str {
    static TEMPLATE: tokio::sync::OnceCell<String> = tokio::sync::OnceCell::const_new();
    TEMPLATE
        .get_or_init(|| async {
            let name = format!("pawpath_test_template_{}", rand::rng().random::<u64>());
            let pool = sqlx::AnyPool::connect(admin)
                .await
                .expect("connect to PAWPATH_TEST_DATABASE");
            sqlx::query(sqlx::AssertSqlSafe(format!("create database {name}")))
                .execute(&pool)
                .await
                .expect("create the template database");
            pool.close().await;
            let (prefix, _) = admin
                .rsplit_once('/')
                .expect("postgres URL with a database");
            let store = pawpath::store::Store::connect(&format!("{prefix}/{name}"))
                .await
                .expect("connect to the template database");
            store
                .migrate()
                .await
                .expect("migrate the template database");
            // No connection may stay open on a template while it is copied.
            store.close().await;
            name
        })
        .await
}

/// Waits (at most 30 s) until the PostgreSQL server has room for one more test server's
/// connections (six): tests run four at a time and share its `max_connections` (100 by default,
/// three kept for superusers), and a test just ended may still hold some while they close. A server started without room fails to
/// build ("pool timed out"), which says nothing about the code under test.
async fn room_for_a_server(pool: &sqlx::AnyPool) {
    const BUSY: i64 = 80;
    for _ in 0..150 {
        let open: Option<i64> = sqlx::query_scalar("select count(*) from pg_stat_activity")
            .fetch_one(pool)
            .await
            .ok();
        if open.is_none_or(|n| n < BUSY) {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
}
