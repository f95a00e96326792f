//! The bare endpoint the figures are measured beside, and the work a twin does in its place.

use super::*;

pub(super) fn bare() {
    let port = std::env::var("PORT").expect("PORT");
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let per_us = work_per_microsecond();
    let syncer = Syncer::start();
    runtime.block_on(async move {
        let app = axum::Router::new()
            .route(
                "/json",
                axum::routing::get(|| async {
                    axum::Json(json!({ "status": "ok", "service": "bare", "version": 1 }))
                }),
            )
            // The twin (PAWPATH_BENCH_TWIN): the same answer after `us` microseconds of work on
            // the runtime's thread, as a pawpath handler's work holds it.
            .route(
                "/work/{us}",
                axum::routing::get(
                    move |axum::extract::Path(us): axum::extract::Path<u64>| async move {
                        std::hint::black_box(work(per_us * us.min(100_000)));
                        axum::Json(json!({ "status": "ok", "service": "bare", "version": 1 }))
                    },
                ),
            )
            // The twin of a write: the same work, then its answer only once [`SYNCED_BYTES`]
            // of its own are written to a file and synced, in a group with whatever other
            // writes wait (as pawpath's writes wait for their commit).
            .route(
                "/durable/{us}",
                axum::routing::get(
                    move |axum::extract::Path(us): axum::extract::Path<u64>| async move {
                        std::hint::black_box(work(per_us * us.min(100_000)));
                        let status = if syncer.sync().await {
                            axum::http::StatusCode::OK
                        } else {
                            axum::http::StatusCode::INTERNAL_SERVER_ERROR
                        };
                        (
                            status,
                            axum::Json(json!({ "status": "ok", "service": "bare", "version": 1 })),
                        )
                    },
                ),
            );
        let listener = tokio::net::TcpListener::bind(format!("127.0.0.1:{port}"))
            .await
            .expect("bind");
        axum::serve(listener, app).await.expect("serve");
    });
}

/// What the twin of a write writes and syncs for each request: about what an inbound quote or
/// a transition adds to SQLite's write-ahead log (a few of its 4 KB pages).
pub(super) const SYNCED_BYTES: usize = 16 * 1024;

/// The twin's disk: a thread that appends each waiting write's bytes to a file of its own in the
/// temporary folder (on the disk the databases use), syncs it, and answers the group; the file
/// starts again from empty past 64 MB, and is unlinked as soon as it is made.
#[derive(Clone)]
pub(super) struct Syncer {
    pub(super) writes: std::sync::mpsc::Sender<tokio::sync::oneshot::Sender<bool>>,
}

impl Syncer {
    pub(super) fn start() -> Self {
        use std::io::{Seek, Write};
        let (writes, waiting) = std::sync::mpsc::channel::<tokio::sync::oneshot::Sender<bool>>();
        let path = std::env::temp_dir().join(format!("pawpath-load-twin-{}", std::process::id()));
        std::thread::spawn(move || {
            let mut file = std::fs::File::create(&path).expect("the twin's file");
            // Gone from the folder at once: its space is freed when the process ends, however
            // it ends (the bench kills it).
            let _ = std::fs::remove_file(&path);
            let page = vec![0x5a_u8; SYNCED_BYTES];
            let mut group = Vec::new();
            while let Ok(first) = waiting.recv() {
                group.push(first);
                while group.len() < 64 {
                    match waiting.try_recv() {
                        Ok(next) => group.push(next),
                        Err(_) => break,
                    }
                }
                if file.stream_position().unwrap_or(0) > 64 << 20 {
                    let _ = file.set_len(0);
                    let _ = file.rewind();
                }
                let ok =
                    group.iter().all(|_| file.write_all(&page).is_ok()) && file.sync_data().is_ok();
                for answer in group.drain(..) {
                    let _ = answer.send(ok);
                }
            }
        });
        Self { writes }
    }

    /// Waits until this request's bytes are on disk.
    pub(super) async fn sync(&self) -> bool {
        let (answer, answered) = tokio::sync::oneshot::channel();
        self.writes.send(answer).is_ok() && answered.await.unwrap_or(false)
    }
}

/// `n` rounds of arithmetic the compiler cannot skip: the twin's work, CPU and nothing else.
pub(super) fn work(n: u64) -> u64 {
    let mut x = 0x9e37_79b9_7f4a_7c15_u64;
    for _ in 0..n {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x = std::hint::black_box(x);
    }
    x
}

/// Rounds of [`work`] a microsecond, on this machine now: the best of twenty tries of a million
/// rounds (a few milliseconds each), so a try the machine interrupted does not count.
pub(super) fn work_per_microsecond() -> u64 {
    let n = 1_000_000;
    let best = (0..20)
        .map(|_| {
            let t = Instant::now();
            std::hint::black_box(work(n));
            t.elapsed()
        })
        .min()
        .unwrap_or(Duration::from_millis(5));
    (n as f64 / (best.as_secs_f64() * 1e6).max(1e-3)).max(1.0) as u64
}
