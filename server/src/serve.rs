//! Serving connections within known bounds (issue 21: no request can exhaust the server).
//!
//! - A connection has a set time to send each request's headers, counted from when it opens or
//!   from its previous answer (so an idle keep-alive connection closes after that time too).
//! - A request has a set time to finish, body and answer included (408 after it).
//! - At most `max_connections` are open. When a new one arrives at the limit, the oldest open
//!   connection with no request in flight (idle, or still sending headers) is closed to make
//!   room; if every connection is busy with a request, the new one is closed instead. So a flood
//!   of idle or half-open connections costs a bounded number of file handles and never keeps a
//!   real request (a customer's, a load balancer's health check) waiting behind it.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

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
#[derive(Default)]
struct Slot {
    /// Requests being answered on it now.
    in_flight: AtomicUsize,
    /// Told to close (to make room for a new connection).
    evict: Notify,
}

/// The open connections, oldest first.
#[derive(Default)]
struct Slots {
    open: AtomicUsize,
    order: Mutex<VecDeque<Weak<Slot>>>,
}

impl Slots {
    /// Room for one more: true when under `max`, or when the oldest idle connection was told
    /// to close.
    fn make_room(&self, max: usize) -> bool {
        if self.open.load(Ordering::Acquire) < max {
            return true;
        }
        let Ok(mut order) = self.order.lock() else {
            return false;
        };
        order.retain(|w| w.strong_count() > 0);
        let idle = order.iter().position(|w| {
            w.upgrade()
                .is_some_and(|s| s.in_flight.load(Ordering::Acquire) == 0)
        });
        match idle.and_then(|i| order.remove(i)).and_then(|w| w.upgrade()) {
            Some(slot) => {
                slot.evict.notify_one();
                true
            }
            None => false,
        }
    }

    fn add(&self) -> Arc<Slot> {
        let slot = Arc::new(Slot::default());
        self.open.fetch_add(1, Ordering::AcqRel);
        if let Ok(mut order) = self.order.lock() {
            order.push_back(Arc::downgrade(&slot));
        }
        slot
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
    let slots = Arc::new(Slots::default());
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
        if !slots.make_room(limits.max_connections) {
            // Every connection is answering a request: this one is closed unanswered.
            tracing::warn!("at the connection limit with every connection busy");
            drop(stream);
            return;
        }
        let _ = stream.set_nodelay(true);
        let slot = slots.add();
        let app = router.clone();
        let counted = Arc::clone(&slot);
        let service =
            hyper::service::service_fn(move |mut request: Request<hyper::body::Incoming>| {
                let in_flight = InFlight::start(&counted);
                request.extensions_mut().insert(ConnectInfo(peer));
                let answer = app.clone().oneshot(request.map(axum::body::Body::new));
                async move {
                    let response = answer.await;
                    drop(in_flight);
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
            slots.open.fetch_sub(1, Ordering::AcqRel);
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
    // Issue 55: connections the kernel has already taken in for us would be reset when the
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
