//! One figure of the load bench: a request's rate at its peak with its CPU per request, then its
//! tail at half of its peak, in as many rounds as asked, each beside the bare endpoint's (and the
//! twin's) at half of theirs.

use super::*;

/// One database's run: pawpath's process and what its figures are read beside.
pub(super) struct Run<'a> {
    pub(super) server: &'a Server,
    pub(super) port: u16,
    pub(super) bare: Bare,
    pub(super) seconds: f64,
    pub(super) connections: usize,
    pub(super) on_postgres: bool,
}

/// The twin of a figure: its work a request (µs), whether it syncs a write, and its peak rate.
#[derive(Clone, Copy)]
struct Twin {
    us: u64,
    durable: bool,
    rate: f64,
}

/// Each round's p99 / p50: pawpath's, its rounds with no pause, and the bare endpoint's and the
/// twin's just after.
#[derive(Default)]
struct Ratios {
    ours: Vec<f64>,
    calm: Vec<f64>,
    bare: Vec<f64>,
    twin: Vec<f64>,
}

impl Run<'_> {
    pub(super) fn report(&self, what: &str, f: &Figures) {
        println!(
            "  {what:<44} {:>8.0}/s  {:>6.2}% of bare  p50 {:>7.2} ms  p99 {:>7.2} ms{}",
            f.rate,
            100.0 * f.rate / self.bare.rate,
            f.p50,
            f.p99,
            if f.errors > 0 {
                format!("  ({} errors)", f.errors)
            } else {
                String::new()
            }
        );
        if std::env::var_os("PAWPATH_BENCH_DETAIL").is_some() {
            let [p90, p95, p999, max] = f.detail;
            println!(
                "  {:<44} p90 {p90:.2} ms  p95 {p95:.2} ms  p99.9 {p999:.2} ms  max {max:.2} ms",
                ""
            );
        }
    }

    /// A figure: its rate at its peak, with the CPU each request cost, then its tail at half of it.
    pub(super) async fn figure(&self, what: &str, loads: Vec<Load>, expect: u16) {
        let (cpu, db_cpu) = (self.server.cpu_seconds(), postgres_cpu_seconds());
        let peak = measure(self.port, loads.clone(), self.seconds, None, expect).await;
        let per_request = |used: f64| 1e6 * used / peak.count.max(1) as f64;
        let (own_cpu, database_cpu) = (
            per_request(self.server.cpu_seconds() - cpu),
            per_request(postgres_cpu_seconds() - db_cpu),
        );
        self.report(what, &peak);
        // CPU per request: steadier than the rate on a machine shared with other work.
        println!(
            "  {:<44} CPU per request: pawpath {own_cpu:.0} µs{}",
            "",
            if self.on_postgres {
                format!(", PostgreSQL {database_cpu:.0} µs")
            } else {
                String::new()
            }
        );
        let repeat = env_u("PAWPATH_BENCH_REPEAT", 1).max(1);
        let detail = std::env::var_os("PAWPATH_BENCH_DETAIL").is_some();
        // A write's twin waits for a sync of its own too.
        let durable = matches!(loads.first(), Some(Load::Post { .. }));
        let twin = if repeat > 1 {
            self.twin(own_cpu + database_cpu, durable).await
        } else {
            None
        };
        let mut ratios = Ratios::default();
        for round in 1..=repeat {
            let half = self.half(&loads, peak.rate, expect, detail).await;
            ratios.ours.push(half.p99 / half.p50);
            if half.pauses.longest_ms < CALM_MS {
                ratios.calm.push(half.p99 / half.p50);
            }
            if repeat == 1 || !self.bare.rate.is_finite() {
                println!(
                    "  {:<44} p99 / p50 = {:.1}; {}",
                    "",
                    half.p99 / half.p50,
                    paused(half.pauses)
                );
                continue;
            }
            let (bare, twin_said) = self.beside(twin, &mut ratios).await;
            println!(
                "  {:<44} round {round}: p99 / p50 = {:.1}; {}; the bare endpoint's at half of its peak just after: {bare:.1}{twin_said}",
                "",
                half.p99 / half.p50,
                paused(half.pauses),
            );
        }
        if repeat > 1 {
            ratios.print(repeat);
        }
    }

    /// The request at half of its peak; with `PAWPATH_BENCH_DETAIL`, its tail timed from when
    /// each request was due, and where the slow requests' time went.
    async fn half(&self, loads: &[Load], peak: f64, expect: u16, detail: bool) -> Figures {
        let before = if detail {
            server_counts(self.port).await
        } else {
            None
        };
        let half = measure(
            self.port,
            loads.to_vec(),
            self.seconds,
            Some(peak / 2.0),
            expect,
        )
        .await;
        let after = if detail {
            server_counts(self.port).await
        } else {
            None
        };
        self.report(&format!("  at half of peak ({:.0}/s)", peak / 2.0), &half);
        if detail {
            let [p50, p99] = half.from_due;
            println!(
                "  {:<44} timed from when each was due: p50 {p50:.2} ms, p99 {p99:.2} ms, p99 / p50 = {:.1}",
                "",
                p99 / p50
            );
        }
        // Where the slow requests' time went: inside pawpath's router, or before and after it.
        if let (Some((t0, w0)), Some((t1, w1))) = (before, after) {
            let total = (t1 - t0).max(1.0);
            let shares: Vec<String> = OVER_MS
                .iter()
                .enumerate()
                .map(|(i, ms)| {
                    format!(
                        "over {ms} ms {:.2}% (pawpath's own {:.2}%)",
                        100.0 * half.over[i],
                        100.0 * ((t1 - t0) - (w1[i] - w0[i])) / total
                    )
                })
                .collect();
            println!("  {:<44} {}", "", shares.join(", "));
        }
        half
    }

    /// The bare endpoint's tail at half of its peak (and the twin's), just after a round:
    /// the bare endpoint's p99 / p50 and what to say of the twin's.
    async fn beside(&self, twin: Option<Twin>, ratios: &mut Ratios) -> (f64, String) {
        let beside = measure(
            self.bare.port,
            bare_loads(self.connections),
            self.seconds,
            Some(self.bare.rate / 2.0),
            200,
        )
        .await;
        ratios.bare.push(beside.p99 / beside.p50);
        let twin_said = match twin {
            Some(twin) => {
                let t = measure(
                    self.bare.port,
                    twin_loads(self.connections, twin.us, twin.durable),
                    self.seconds,
                    Some(twin.rate / 2.0),
                    200,
                )
                .await;
                ratios.twin.push(t.p99 / t.p50);
                format!(
                    "; the twin's: {:.1} (p50 {:.2} ms, p99 {:.2} ms)",
                    t.p99 / t.p50,
                    t.p50,
                    t.p99
                )
            }
            None => String::new(),
        };
        (beside.p99 / beside.p50, twin_said)
    }

    /// The twin (`PAWPATH_BENCH_TWIN`): the bare endpoint doing, on its runtime's thread, as much
    /// CPU work a request as this request cost pawpath (and its database) beyond what a bare
    /// answer costs, and nothing else: no database, no other thread (a write's twin syncs a write
    /// of its own). Its tail at half of its own peak, beside each of pawpath's rounds, is what
    /// work of that size costs on this machine with this client. Its peak is measured here.
    async fn twin(&self, cpu_per_request: f64, durable: bool) -> Option<Twin> {
        if std::env::var_os("PAWPATH_BENCH_TWIN").is_none() || !self.bare.cpu.is_finite() {
            return None;
        }
        let us = (cpu_per_request - self.bare.cpu).max(0.0).round() as u64;
        let cpu = cpu_of(&format!("/proc/{}/stat", self.bare.pid));
        let f = measure(
            self.bare.port,
            twin_loads(self.connections, us, durable),
            self.seconds,
            None,
            200,
        )
        .await;
        println!(
            "  {:<44} the twin ({us} µs of work a request{}): {:.0}/s, CPU per request {:.0} µs",
            "",
            if durable {
                format!(", then {} KB written and synced", SYNCED_BYTES / 1024)
            } else {
                String::new()
            },
            f.rate,
            1e6 * (cpu_of(&format!("/proc/{}/stat", self.bare.pid)) - cpu) / f.count.max(1) as f64
        );
        Some(Twin {
            us,
            durable,
            rate: f.rate,
        })
    }
}

impl Ratios {
    /// The medians of the rounds.
    fn print(&mut self, repeat: u64) {
        println!(
            "  {:<44} median of {repeat} rounds: p99 / p50 = {:.1}; the bare endpoint's {:.1}{}",
            "",
            median(&mut self.ours),
            median(&mut self.bare),
            if self.twin.is_empty() {
                String::new()
            } else {
                format!("; the twin's {:.1}", median(&mut self.twin))
            }
        );
        if !self.calm.is_empty() {
            println!(
                "  {:<44} of the {} rounds with no pause of {CALM_MS} ms or more: {:.1}",
                "",
                self.calm.len(),
                median(&mut self.calm)
            );
        }
    }
}
