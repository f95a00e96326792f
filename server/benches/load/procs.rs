//! The servers under load: started, found ready, their CPU time and memory read.

use super::*;

pub(super) fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

pub(super) struct Server {
    pub(super) child: Child,
    pub(super) port: u16,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Server {
    /// The CPU time the process has used so far (user and system), in seconds.
    pub(super) fn cpu_seconds(&self) -> f64 {
        cpu_of(&format!("/proc/{}/stat", self.child.id()))
    }

    /// Peak resident memory of the process so far (VmHWM), in MB.
    pub(super) fn peak_mb(&self) -> f64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .unwrap_or_default();
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmHWM:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
            .map_or(f64::NAN, |kb| kb / 1024.0)
    }
}

/// User and system CPU time of the process whose `/proc/…/stat` is at `path`, in seconds (0 if
/// it is gone).
pub(super) fn cpu_of(path: &str) -> f64 {
    let stat = std::fs::read_to_string(path).unwrap_or_default();
    // The fields after the command name (which may hold spaces), from the third on.
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|v| v.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    // utime and stime are the 14th and 15th fields: 12th and 13th after the name.
    (ticks(11) + ticks(12)) / 100.0
}

/// The CPU time every PostgreSQL process on this machine has used so far, in seconds (its
/// backends serve pawpath's statements; 0 where there is none or it runs elsewhere).
pub(super) fn postgres_cpu_seconds() -> f64 {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return 0.0;
    };
    dir.filter_map(Result::ok)
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .bytes()
                .all(|b| b.is_ascii_digit())
        })
        .filter(|e| {
            std::fs::read_to_string(e.path().join("comm")).is_ok_and(|c| c.trim() == "postgres")
        })
        .map(|e| cpu_of(&e.path().join("stat").to_string_lossy()))
        .sum()
}

pub(super) async fn wait_ready(port: u16, path: &str) {
    for _ in 0..600 {
        if let Ok(r) = send(port, get(path, &[])).await
            && r.0 == 200
        {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the server on port {port} did not answer {path}");
}

pub(super) fn start_bare() -> Server {
    let port = free_port();
    let child = Command::new(std::env::current_exe().expect("this bench"))
        .env("PAWPATH_LOAD_BARE", "1")
        .env("PORT", port.to_string())
        .stdout(Stdio::null())
        .spawn()
        .expect("start the bare endpoint");
    Server { child, port }
}

pub(super) fn start_pawpath(database: &str, data: &std::path::Path) -> Server {
    let port = free_port();
    // PAWPATH_BENCH_DEFINITIONS: the definitions that build serves (an older build may not read
    // today's); the repository's by default.
    let root = std::env::var_os("PAWPATH_BENCH_DEFINITIONS").map_or_else(
        || std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(".."),
        std::path::PathBuf::from,
    );
    // PAWPATH_BENCH_BINARY: another build of pawpath to load (a before-and-after comparison).
    let binary = std::env::var("PAWPATH_BENCH_BINARY")
        .unwrap_or_else(|_| env!("CARGO_BIN_EXE_pawpath").to_owned());
    let child = Command::new(binary)
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("PORT", port.to_string())
        .env("PAWPATH_DATA_DIR", data)
        .env("DATABASE_URL", database)
        .env("PAWPATH_DEFINITIONS", &root)
        .env("PAWPATH_LOG_FORMAT", "json")
        .env("PAWPATH_AGGREGATOR_KEYS", format!("ctm={KEY}"))
        .env("PAWPATH_MAX_CONNECTIONS", "4096")
        .env("PAWPATH_METRICS_TOKEN", METRICS_TOKEN)
        // The load is many requests from few sessions: each session's pace (a person's) and its
        // quote's history ceiling are lifted, so every request does the work it measures.
        .env("PAWPATH_SESSION_BURST", "1000000")
        .env("PAWPATH_SESSION_SAVES_PER_MINUTE", "6000000")
        .env("PAWPATH_HISTORY_CEILING", "100000")
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start pawpath (cargo bench builds it)");
    Server { child, port }
}
