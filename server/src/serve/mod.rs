//! Serving connections within known bounds: no request, and no crowd of slow senders, can
//! exhaust the server.
//!
//! - A connection has a set time to send each request's headers, counted from when it opens or
//!   from its previous answer (so an idle keep-alive connection closes after that time too).
//! - A request body must keep up a minimum rate, in the manner of Apache's `mod_reqtimeout`
//!   (`body=…,MinRate=…`): it has `body_timeout_ms` to begin with, and every `body_min_rate`
//!   bytes received give it a second more; a body that falls behind is answered 408 and its
//!   connection closed.
//! - A request has a set time to finish, body and answer included (408 after it).
//! - At most `connections_per_address` connections are open from one client address (the
//!   connection's own; behind our proxies, which hold the client's connections, no such cap).
//!   A new one past it closes that address's own oldest idle connection or its slowest sender,
//!   or is closed itself.
//! - At most `max_connections` are open. When a new one arrives at the limit, the oldest open
//!   connection with no request in flight (idle, or still sending headers) is closed to make
//!   room; failing that, the slowest sender of a request body (the fewest bytes a second, once it
//!   has had a second to send); if every connection is busy answering, the new one is closed
//!   instead. So a flood of idle, half-open or dripping connections costs a bounded number of file
//!   handles and never keeps a real request (a customer's, a load balancer's health check)
//!   waiting behind it.

mod body;

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::ConnectInfo;
use axum::http::{Request, StatusCode};
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use tokio::net::TcpListener;
use tokio::sync::Notify;
use tower::ServiceExt as _;

use crate::config::Limits;

/// One open connection, as the accept loop sees it.
struct Slot {
    /// The client's address (the connection's own).
    peer: IpAddr,
    /// Requests being answered on it now.
    in_flight: AtomicUsize,
    /// Since when (milliseconds from the server's start, plus one) a request body has been
    /// arriving on it; 0 when none is.
    receiving_since: AtomicU64,
    /// Bytes of that body received so far.
    received: AtomicU64,
    /// Its body fell behind the minimum rate: the answer is 408 and the connection closes.
    too_slow: AtomicBool,
    /// Told to close (to make room for a new connection).
    evict: Notify,
}

impl Slot {
    /// Bytes a second its body is arriving at, when it has had at least a second to send; `None`
    /// when no body is arriving (or it has only just begun).
    fn sending_rate(&self, now_ms: u64) -> Option<u64> {
        let since = self.receiving_since.load(Ordering::Acquire);
        if since == 0 || now_ms + 1 < since + 1_000 {
            return None;
        }
        let seconds = (now_ms + 1 - since) / 1_000;
        Some(self.received.load(Ordering::Acquire) / seconds.max(1))
    }
}

/// The open connections, oldest first, and how many each address holds.
struct Slots {
    started: Instant,
    open: AtomicUsize,
    order: Mutex<VecDeque<Weak<Slot>>>,
    per_address: Mutex<HashMap<IpAddr, usize>>,
}

impl Slots {
    fn new() -> Self {
        Self {
            started: Instant::now(),
            open: AtomicUsize::new(0),
            order: Mutex::new(VecDeque::new()),
            per_address: Mutex::new(HashMap::new()),
        }
    }

    fn now_ms(&self) -> u64 {
        u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    /// Room for one more from `peer`: its address under `per_address` connections (or one of its
    /// own idle or slow connections told to close), and the server under `max` (or the oldest
    /// idle connection, failing that the slowest sender, told to close).
    fn make_room(&self, peer: IpAddr, max: usize, per_address: Option<usize>) -> bool {
        if let Some(cap) = per_address {
            let held = self
                .per_address
                .lock()
                .map_or(usize::MAX, |m| m.get(&peer).copied().unwrap_or(0));
            if held >= cap && !self.evict_one(|slot| slot.peer == peer) {
                return false;
            }
        }
        self.open.load(Ordering::Acquire) < max || self.evict_one(|_| true)
    }

    /// Tells the oldest idle connection that `which` allows to close, failing that its slowest
    /// sender of a body; false when there is neither.
    fn evict_one(&self, which: impl Fn(&Slot) -> bool) -> bool {
        let Ok(mut order) = self.order.lock() else {
            return false;
        };
        order.retain(|w| w.strong_count() > 0);
        let now = self.now_ms();
        let mut slowest: Option<(usize, u64)> = None;
        let mut idle = None;
        for (i, weak) in order.iter().enumerate() {
            let Some(slot) = weak.upgrade() else { continue };
            if !which(&slot) {
                continue;
            }
            if slot.in_flight.load(Ordering::Acquire) == 0 {
                idle = Some(i);
                break;
            }
            if let Some(rate) = slot.sending_rate(now)
                && slowest.is_none_or(|(_, r)| rate < r)
            {
                slowest = Some((i, rate));
            }
        }
        let chosen = idle.or(slowest.map(|(i, _)| i));
        match chosen
            .and_then(|i| order.remove(i))
            .and_then(|w| w.upgrade())
        {
            Some(slot) => {
                if idle.is_none() {
                    crate::metrics::slow_sender_evicted();
                }
                slot.evict.notify_one();
                true
            }
            None => false,
        }
    }

    fn add(&self, peer: IpAddr) -> Arc<Slot> {
        let slot = Arc::new(Slot {
            peer,
            in_flight: AtomicUsize::new(0),
            receiving_since: AtomicU64::new(0),
            received: AtomicU64::new(0),
            too_slow: AtomicBool::new(false),
            evict: Notify::new(),
        });
        self.open.fetch_add(1, Ordering::AcqRel);
        if let Ok(mut m) = self.per_address.lock() {
            *m.entry(peer).or_default() += 1;
        }
        if let Ok(mut order) = self.order.lock() {
            order.push_back(Arc::downgrade(&slot));
        }
        slot
    }

    fn remove(&self, peer: IpAddr) {
        self.open.fetch_sub(1, Ordering::AcqRel);
        if let Ok(mut m) = self.per_address.lock()
            && let Some(n) = m.get_mut(&peer)
        {
            *n -= 1;
            if *n == 0 {
                m.remove(&peer);
            }
        }
    }
}

/// Counts a request in flight on its connection while it lives.
struct InFlight(Arc<Slot>);

impl InFlight {
    fn start(slot: &Arc<Slot>) -> Self {
        slot.in_flight.fetch_add(1, Ordering::AcqRel);
        Self(Arc::clone(slot))
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.receiving_since.store(0, Ordering::Release);
        self.0.in_flight.fetch_sub(1, Ordering::AcqRel);
    }
}

/// How long the last connections taken in have to send their request after the listener
/// closes (a client sends its request as soon as it is connected).
const LAST_REQUESTS: Duration = Duration::from_millis(250);

/// Serves `router` on `listener` within `limits` until `shutdown` completes; then stops
/// accepting and lets connections finish their requests for a bounded time.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: Limits,
    shutdown: impl Future<Output = ()> + Send,
) -> std::io::Result<()> {
    let router = router.layer(tower_http::timeout::TimeoutLayer::with_status_code(
        StatusCode::REQUEST_TIMEOUT,
        Duration::from_millis(limits.request_timeout_ms),
    ));
    let slots = Arc::new(Slots::new());
    let mut builder = auto::Builder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(Duration::from_millis(limits.header_timeout_ms))
        .max_buf_size(64 * 1024);
    builder
        .http2()
        .timer(TokioTimer::new())
        .keep_alive_interval(Some(Duration::from_millis(limits.header_timeout_ms)))
        .max_concurrent_streams(64);
    let builder = Arc::new(builder);
    let graceful = hyper_util::server::graceful::GracefulShutdown::new();
    tokio::pin!(shutdown);
    let accept = |stream: tokio::net::TcpStream, peer: std::net::SocketAddr| {
        if !slots.make_room(
            peer.ip(),
            limits.max_connections,
            limits.connections_per_address,
        ) {
            // Every connection is answering a request (or this address holds its share and
            // every one of them is): this one is closed unanswered.
            crate::metrics::connection_refused();
            drop(stream);
            return;
        }
        let _ = stream.set_nodelay(true);
        let slot = slots.add(peer.ip());
        let app = router.clone();
        let counted = Arc::clone(&slot);
        let clock = Arc::clone(&slots);
        let service =
            hyper::service::service_fn(move |mut request: Request<hyper::body::Incoming>| {
                let in_flight = InFlight::start(&counted);
                request.extensions_mut().insert(ConnectInfo(peer));
                let request = request.map(|incoming| {
                    axum::body::Body::new(body::MinRate::new(
                        incoming,
                        Arc::clone(&counted),
                        Arc::clone(&clock),
                        limits,
                    ))
                });
                let answer = app.clone().oneshot(request);
                let counted = Arc::clone(&counted);
                async move {
                    let response = answer.await;
                    drop(in_flight);
                    if counted.too_slow.load(Ordering::Acquire) {
                        return Ok(body::too_slow());
                    }
                    response
                }
            });
        let connection = builder
            .serve_connection_with_upgrades(TokioIo::new(stream), service)
            .into_owned();
        let connection = graceful.watch(connection);
        let slots = Arc::clone(&slots);
        tokio::spawn(async move {
            tokio::select! {
                _ = connection => {}
                () = slot.evict.notified() => {}
            }
            slots.remove(slot.peer);
        });
    };
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(e) => {
                    // Out of file handles and the like: wait a moment rather than spin.
                    tracing::warn!(error = %e, "accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        accept(stream, peer);
    }
    // Connections the kernel has already taken in for us would be reset when the
    // listener closes. Its queue is first shortened to the least the kernel allows (a
    // connection tried while it is full is not answered, and tried again by the client a
    // moment later, when it is refused), then every connection in it is taken and answered
    // (while draining, every answer closes its connection), with the socket's own accept, not
    // the reactor's view of it, so none is left behind; then the listener closes. A client
    // trying after that is refused, which it and a balancer read as a server that is not there.
    let listener = match listener.into_std() {
        Ok(listener) => listener,
        Err(e) => {
            tracing::warn!(error = %e, "cannot take the listener back from the runtime");
            return Ok(());
        }
    };
    let _ = listener.set_nonblocking(true);
    let _ = socket2::SockRef::from(&listener).listen(0);
    loop {
        match listener.accept() {
            Ok((stream, peer)) => {
                let stream = stream
                    .set_nonblocking(true)
                    .and_then(|()| tokio::net::TcpStream::from_std(stream));
                if let Ok(stream) = stream {
                    accept(stream, peer);
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
    drop(listener);
    // The connections just taken in have a moment to send their request and be answered before
    // the idle ones are closed (a connection closed with a request unread would be reset).
    tokio::time::sleep(LAST_REQUESTS).await;
    tokio::select! {
        () = graceful.shutdown() => {}
        // A request in flight has at most the request timeout to finish; a moment more for
        // its answer to be written.
        () = tokio::time::sleep(Duration::from_millis(limits.request_timeout_ms) + Duration::from_secs(1)) => {
            tracing::warn!("connections still open after the shutdown grace period");
        }
    }
    Ok(())
}
