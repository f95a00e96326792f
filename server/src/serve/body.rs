//! A request body that must keep up a minimum rate (`Limits::body_timeout_ms` to begin with, a
//! second more for every `Limits::body_min_rate` bytes received), its progress written where
//! the accept loop can see it (the slowest sender is the first closed when the server is full).

use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::http::{HeaderValue, Response, StatusCode, header};
use bytes::Bytes;
use http_body::{Body, Frame, SizeHint};

use super::{Slot, Slots};
use crate::config::Limits;

/// The body of one request, timed.
pub(super) struct MinRate<B> {
    inner: B,
    slot: Arc<Slot>,
    slots: Arc<Slots>,
    started_ms: u64,
    received: u64,
    timeout_ms: u64,
    min_rate: u64,
    timer: Option<Pin<Box<tokio::time::Sleep>>>,
    done: bool,
}

impl<B: Body> MinRate<B> {
    pub(super) fn new(inner: B, slot: Arc<Slot>, slots: Arc<Slots>, limits: Limits) -> Self {
        let started_ms = slots.now_ms();
        let done = inner.is_end_stream();
        if !done {
            slot.received.store(0, Ordering::Release);
            slot.receiving_since
                .store(started_ms + 1, Ordering::Release);
        }
        Self {
            inner,
            slot,
            slots,
            started_ms,
            received: 0,
            timeout_ms: limits.body_timeout_ms,
            min_rate: limits.body_min_rate.max(1),
            timer: None,
            done,
        }
    }

    /// When the body must have arrived by, for what it has sent so far (milliseconds from the
    /// server's start).
    fn deadline_ms(&self) -> u64 {
        let earned = self.received.saturating_mul(1_000) / self.min_rate;
        self.started_ms
            .saturating_add(self.timeout_ms)
            .saturating_add(earned)
    }

    fn finish(&mut self) {
        self.done = true;
        self.timer = None;
        self.slot.receiving_since.store(0, Ordering::Release);
    }

    fn too_slow(&mut self) -> Poll<Option<Result<Frame<Bytes>, axum::BoxError>>> {
        self.finish();
        self.slot.too_slow.store(true, Ordering::Release);
        crate::metrics::slow_body();
        Poll::Ready(Some(Err("the request body arrived too slowly".into())))
    }
}

impl<B> Body for MinRate<B>
where
    B: Body<Data = Bytes> + Unpin,
    B::Error: Into<axum::BoxError>,
{
    type Data = Bytes;
    type Error = axum::BoxError;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        let this = self.get_mut();
        if this.done {
            return Poll::Ready(None);
        }
        match Pin::new(&mut this.inner).poll_frame(cx) {
            Poll::Ready(Some(Ok(frame))) => {
                if let Some(data) = frame.data_ref() {
                    this.received = this.received.saturating_add(data.len() as u64);
                    this.slot.received.store(this.received, Ordering::Release);
                }
                if this.slots.now_ms() > this.deadline_ms() {
                    return this.too_slow();
                }
                this.timer = None;
                Poll::Ready(Some(Ok(frame)))
            }
            Poll::Ready(Some(Err(e))) => {
                this.finish();
                Poll::Ready(Some(Err(e.into())))
            }
            Poll::Ready(None) => {
                this.finish();
                Poll::Ready(None)
            }
            Poll::Pending => {
                let deadline = this.deadline_ms();
                if this.slots.now_ms() >= deadline {
                    return this.too_slow();
                }
                let at = tokio::time::Instant::from_std(
                    this.slots.started + Duration::from_millis(deadline),
                );
                let timer = this
                    .timer
                    .get_or_insert_with(|| Box::pin(tokio::time::sleep_until(at)));
                if timer.deadline() != at {
                    timer.as_mut().reset(at);
                }
                match timer.as_mut().poll(cx) {
                    Poll::Ready(()) => this.too_slow(),
                    Poll::Pending => Poll::Pending,
                }
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        self.done || self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

/// The answer to a request whose body fell behind: 408, and the connection closes.
pub(super) fn too_slow() -> Response<axum::body::Body> {
    let mut response = Response::new(axum::body::Body::from(
        r#"{"error":"timeout","message":"The request took too long to arrive. Please try again."}"#,
    ));
    *response.status_mut() = StatusCode::REQUEST_TIMEOUT;
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    headers.insert(header::CONNECTION, HeaderValue::from_static("close"));
    response
}
