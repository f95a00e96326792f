//! One figure measured: requests a second, the percentiles, the pauses the machine took.

use super::*;

pub(super) struct Figures {
    pub(super) rate: f64,
    /// Requests answered as expected.
    pub(super) count: usize,
    pub(super) p50: f64,
    pub(super) p99: f64,
    pub(super) errors: u64,
    /// p90, p95, p99.9 and the slowest (printed with PAWPATH_BENCH_DETAIL).
    pub(super) detail: [f64; 4],
    /// What the pause meter saw while the load ran.
    pub(super) pauses: Pauses,
    /// p50 and p99 timed from when each request was due rather than when it was sent (paced
    /// figures only; NaN at peak): the open rate's own measure, which counts the wait of a
    /// request held back because its connection's previous answer was late.
    pub(super) from_due: [f64; 2],
    /// The share of requests slower than each of [`OVER_MS`], as the client timed them.
    pub(super) over: [f64; 3],
}

/// The times (ms) at which the client's and pawpath's own counts of slow requests are compared:
/// bucket bounds of pawpath's request histogram (`pawpath_http_request_duration_seconds`).
pub(super) const OVER_MS: [f64; 3] = [5.0, 10.0, 25.0];

/// Times the machine did not run a thread that only sleeps a millisecond at a time and wakes: on
/// a virtual machine the host can stop the guest's processors for tens of milliseconds, which
/// holds every request in flight, pawpath's and the bare endpoint's alike. A pause here is a wake
/// more than [`PAUSE_MS`] late. The meter costs about a thousand wakes a second.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Pauses {
    pub(super) count: usize,
    pub(super) longest_ms: f64,
}

pub(super) const PAUSE_MS: f64 = 5.0;

/// A round whose longest pause is shorter than this is counted calm, and the median of the calm
/// rounds is printed beside the median of all.
pub(super) const CALM_MS: f64 = 10.0;

/// What the pause meter saw, as a round's line says it.
pub(super) fn paused(p: Pauses) -> String {
    if p.count == 0 {
        format!("no pause over {PAUSE_MS} ms")
    } else {
        format!(
            "{} pause{} over {PAUSE_MS} ms, the longest {:.0} ms",
            p.count,
            if p.count == 1 { "" } else { "s" },
            p.longest_ms
        )
    }
}

/// Starts the pause meter; it stops, and answers what it saw, when `stop` is set.
pub(super) fn pause_meter(stop: Arc<AtomicBool>) -> std::thread::JoinHandle<Pauses> {
    std::thread::spawn(move || {
        let mut seen = Pauses::default();
        while !stop.load(Ordering::Relaxed) {
            let t = Instant::now();
            std::thread::sleep(Duration::from_millis(1));
            let late = t.elapsed().as_secs_f64() * 1000.0 - 1.0;
            if late > PAUSE_MS {
                seen.count += 1;
                seen.longest_ms = seen.longest_ms.max(late);
            }
        }
        seen
    })
}

/// Loads `port` from `loads.len()` connections for `seconds`; with `pace`, each connection sends
/// at most that many requests a second in all (an open rate, for the half-of-peak figures).
pub(super) async fn measure(
    port: u16,
    loads: Vec<Load>,
    seconds: f64,
    pace: Option<f64>,
    expect: u16,
) -> Figures {
    let stop = Arc::new(AtomicBool::new(false));
    let connections = loads.len();
    let mut tasks = Vec::new();
    let meter = pause_meter(stop.clone());
    let started = Instant::now();
    for (index, load) in loads.into_iter().enumerate() {
        let stop = stop.clone();
        tasks.push(tokio::spawn(async move {
            let mut latencies: Vec<Duration> = Vec::new();
            // From the time each request was due (paced only): a request sent late because the
            // connection's previous answer was late counts that wait too.
            let mut from_due: Vec<Duration> = Vec::new();
            let mut errors = 0u64;
            let stream = TcpStream::connect(("127.0.0.1", port))
                .await
                .expect("connect");
            stream.set_nodelay(true).ok();
            let io = hyper_util::rt::TokioIo::new(stream);
            let (mut sender, conn) = hyper::client::conn::http1::handshake(io)
                .await
                .expect("handshake");
            tokio::spawn(conn);
            let gap = pace.map(|rate| Duration::from_secs_f64(connections as f64 / rate));
            // Spread over the gap, so the connections do not send in step.
            let mut next = Instant::now()
                + gap.map_or(Duration::ZERO, |g| {
                    g.mul_f64(index as f64 / connections as f64)
                });
            let mut n = 0u64;
            let mut answered = next;
            while !stop.load(Ordering::Relaxed) {
                // Held back by this connection's previous answer (it came after this request was
                // due): timed from when it was due. Else from when it was sent, so the client's
                // own timer (a millisecond's grain) is not counted against the server.
                let held = next < answered;
                let due = next;
                if let Some(gap) = gap {
                    let now = Instant::now();
                    if next > now {
                        tokio::time::sleep(next - now).await;
                    }
                    next += gap;
                }
                let t = Instant::now();
                let ok = match sender.send_request(load.request(n)).await {
                    Ok(r) => {
                        let status = r.status().as_u16();
                        r.into_body().collect().await.is_ok() && status == expect
                    }
                    Err(_) => false,
                };
                n += 1;
                answered = Instant::now();
                if ok {
                    latencies.push(answered - t);
                    if gap.is_some() {
                        from_due.push(if held { answered - due } else { answered - t });
                    }
                } else {
                    errors += 1;
                    if sender.ready().await.is_err() {
                        break;
                    }
                }
            }
            (latencies, from_due, errors)
        }));
    }
    tokio::time::sleep(Duration::from_secs_f64(seconds)).await;
    stop.store(true, Ordering::Relaxed);
    let mut all = Vec::new();
    let mut all_due = Vec::new();
    let mut errors = 0;
    for t in tasks {
        let (l, d, e) = t.await.expect("client");
        all.extend(l);
        all_due.extend(d);
        errors += e;
    }
    let elapsed = started.elapsed().as_secs_f64();
    let pauses = meter.join().expect("pause meter");
    all.sort();
    all_due.sort();
    let due_at = |p: f64| {
        all_due
            .get(((all_due.len().max(1) - 1) as f64 * p) as usize)
            .map_or(f64::NAN, |d| d.as_secs_f64() * 1000.0)
    };
    let at = |p: f64| {
        all.get(((all.len().max(1) - 1) as f64 * p) as usize)
            .map_or(f64::NAN, |d| d.as_secs_f64() * 1000.0)
    };
    Figures {
        rate: all.len() as f64 / elapsed,
        count: all.len(),
        p50: at(0.5),
        p99: at(0.99),
        errors,
        detail: [0.9, 0.95, 0.999, 1.0].map(at),
        pauses,
        from_due: [due_at(0.5), due_at(0.99)],
        over: OVER_MS.map(|ms| {
            let slow = all.len() - all.partition_point(|d| d.as_secs_f64() * 1000.0 <= ms);
            slow as f64 / all.len().max(1) as f64
        }),
    }
}

pub(super) fn bare_loads(connections: usize) -> Vec<Load> {
    vec![
        Load::Get {
            path: "/json".into(),
            headers: vec![]
        };
        connections
    ]
}

/// The twin's load: the bare endpoint's answer after `us` microseconds of work, and for the twin
/// of a write, after its own bytes are synced too.
pub(super) fn twin_loads(connections: usize, us: u64, durable: bool) -> Vec<Load> {
    vec![
        Load::Get {
            path: format!("/{}/{us}", if durable { "durable" } else { "work" }),
            headers: vec![]
        };
        connections
    ]
}

pub(super) fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    match values.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => values[n / 2],
        n => (values[n / 2 - 1] + values[n / 2]) / 2.0,
    }
}

pub(super) fn env_u(name: &str, default: u64) -> u64 {
    crate::harness::number(name, default)
}
