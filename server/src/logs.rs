//! The server's log lines, written to standard output by a thread of their own.
//!
//! Every request logs a line. Written straight to standard output from the request's thread, a
//! request would wait whenever whatever reads that output (a terminal, journald, a container
//! runtime's log driver) stops reading: the pipe fills, `write` blocks, and with two runtime
//! threads two such writes stop the whole server, health checks included. Here a line is handed
//! to the log thread and the request goes on.
//!
//! Bounded: lines wait in memory up to [`QUEUED_BYTES`] in all (and the output's buffer of
//! 64 KB), and a line longer than [`LINE_BYTES`] is cut. Past that bound a line is dropped and
//! counted; the count goes to `pawpath_log_lines_dropped_total` at once, and is logged as a line
//! of its own as soon as the output takes lines again, so a gap in the log says how big it is.
//!
//! The log thread wakes for a line only when it was idle; after writing, it sleeps 5 ms so the
//! lines of that time leave together, so under load it wakes about 200 times a second, not
//! once for every request. A line reaches the output at most a few milliseconds late.
//!
//! Order is kept: lines reach the output in the order they were handed over. [`Flusher::flush`]
//! waits (for a bounded time) until every line handed over before it is written, so the lines
//! of a shutdown are not lost when the process ends.

use std::io::Write;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, mpsc};
use std::time::Duration;

/// The most bytes of lines waiting for the output at once.
pub const QUEUED_BYTES: usize = 1 << 20;

/// How long the log thread sleeps after writing, so lines handed over meanwhile leave together.
const GATHER: Duration = Duration::from_millis(5);

/// What ends a cut line.
const CUT_MARK: &[u8] = "…\n".as_bytes();

/// The output's buffer: lines that come together leave in one write.
const OUT_BUFFER: usize = 64 * 1024;

/// The longest line written whole; a longer one is cut at a character's boundary and ends
/// with `…` and a newline.
pub const LINE_BYTES: usize = 16 * 1024;

enum Message {
    Line(Vec<u8>),
    Flush(mpsc::SyncSender<()>),
}

struct Shared {
    /// Bytes handed over and not yet written.
    queued: AtomicUsize,
    /// Lines dropped since the last notice of them.
    dropped: AtomicU64,
    /// Lines dropped since the start, for the tests (the metric counts them in production).
    #[cfg(test)]
    dropped_total: AtomicU64,
}

/// Where log lines are handed over: a `tracing_subscriber` writer (`MakeWriter`).
#[derive(Clone)]
pub struct Lines {
    sender: mpsc::Sender<Message>,
    shared: Arc<Shared>,
}

/// Waits for the lines handed over so far to be written.
pub struct Flusher {
    sender: mpsc::Sender<Message>,
}

/// Starts the log thread, which writes to `out`.
pub fn start<W: Write + Send + 'static>(out: W) -> std::io::Result<(Lines, Flusher)> {
    let (sender, receiver) = mpsc::channel::<Message>();
    let shared = Arc::new(Shared {
        queued: AtomicUsize::new(0),
        dropped: AtomicU64::new(0),
        #[cfg(test)]
        dropped_total: AtomicU64::new(0),
    });
    let thread_shared = Arc::clone(&shared);
    std::thread::Builder::new()
        .name("pawpath-log".into())
        .spawn(move || {
            // Lines that come together leave in one write, and the output is flushed once
            // none is waiting.
            let mut out = std::io::BufWriter::with_capacity(OUT_BUFFER, out);
            while let Ok(first) = receiver.recv() {
                let mut next = Some(first);
                loop {
                    while let Some(message) = next {
                        match message {
                            Message::Line(line) => {
                                // A line the output refuses is lost; there is nowhere else to
                                // say so.
                                let _ = out.write_all(&line);
                                thread_shared.queued.fetch_sub(line.len(), Ordering::AcqRel);
                            }
                            Message::Flush(done) => {
                                let _ = out.flush();
                                let _ = done.send(());
                            }
                        }
                        next = receiver.try_recv().ok();
                    }
                    let _ = out.flush();
                    let dropped = thread_shared.dropped.swap(0, Ordering::AcqRel);
                    if dropped > 0 {
                        // Through the subscriber, so the notice has the log's own format; it
                        // comes back to this thread as a line like any other.
                        tracing::warn!(
                            dropped,
                            "log lines dropped: standard output was not taking them"
                        );
                    }
                    // Lines handed over while this thread sleeps wait without waking it: under
                    // load, one wake every GATHER rather than one for every request.
                    std::thread::sleep(GATHER);
                    match receiver.try_recv() {
                        Ok(message) => next = Some(message),
                        Err(_) => break,
                    }
                }
            }
        })?;
    Ok((
        Lines {
            sender: sender.clone(),
            shared,
        },
        Flusher { sender },
    ))
}

impl Lines {
    /// Hands `bytes` (one or more whole lines, as the formatter writes them) to the log thread;
    /// never waits for the output.
    fn hand(&self, bytes: &[u8]) {
        // Room first (the most a cut line can be), then the copy.
        let most = if bytes.len() <= LINE_BYTES {
            bytes.len()
        } else {
            LINE_BYTES + CUT_MARK.len()
        };
        let before = self.shared.queued.fetch_add(most, Ordering::AcqRel);
        if before + most > QUEUED_BYTES {
            self.shared.queued.fetch_sub(most, Ordering::AcqRel);
            self.drop_one();
            return;
        }
        let line = cut(bytes);
        let len = line.len();
        self.shared.queued.fetch_sub(most - len, Ordering::AcqRel);
        if self.sender.send(Message::Line(line)).is_err() {
            // The log thread has gone: nothing will write this line.
            self.shared.queued.fetch_sub(len, Ordering::AcqRel);
            self.drop_one();
        }
    }

    fn drop_one(&self) {
        self.shared.dropped.fetch_add(1, Ordering::AcqRel);
        #[cfg(test)]
        self.shared.dropped_total.fetch_add(1, Ordering::AcqRel);
        ::metrics::counter!("pawpath_log_lines_dropped_total").increment(1);
    }

    /// Lines dropped since the start.
    #[cfg(test)]
    pub fn dropped(&self) -> u64 {
        self.shared.dropped_total.load(Ordering::Acquire)
    }
}

/// `bytes` as a line of at most [`LINE_BYTES`] (plus the mark of a cut).
fn cut(bytes: &[u8]) -> Vec<u8> {
    if bytes.len() <= LINE_BYTES {
        return bytes.to_vec();
    }
    let mut end = LINE_BYTES;
    // Back to the first byte of a UTF-8 character (continuation bytes are 10xxxxxx).
    while end > 0 && bytes[end] & 0b1100_0000 == 0b1000_0000 {
        end -= 1;
    }
    let mut line = Vec::with_capacity(end + CUT_MARK.len());
    line.extend_from_slice(&bytes[..end]);
    line.extend_from_slice(CUT_MARK);
    line
}

impl Flusher {
    /// Waits until every line handed over before this call is written and the output flushed,
    /// or `most` has passed (an output that has stopped reading must not keep the process
    /// from ending). Whether it was.
    pub fn flush(&self, most: Duration) -> bool {
        let (done, flushed) = mpsc::sync_channel(1);
        if self.sender.send(Message::Flush(done)).is_err() {
            return false;
        }
        flushed.recv_timeout(most).is_ok()
    }
}

/// One event's writer: what the formatter writes goes to the log thread.
pub struct LineWriter<'a> {
    lines: &'a Lines,
}

impl Write for LineWriter<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.lines.hand(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl<'a> tracing_subscriber::fmt::MakeWriter<'a> for Lines {
    type Writer = LineWriter<'a>;

    fn make_writer(&'a self) -> Self::Writer {
        LineWriter { lines: self }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    /// An output that takes nothing until it is opened, then keeps what it is given.
    #[derive(Clone)]
    struct Gate {
        open: Arc<(Mutex<bool>, std::sync::Condvar)>,
        kept: Arc<Mutex<Vec<u8>>>,
    }

    impl Gate {
        fn shut() -> Self {
            Self {
                open: Arc::new((Mutex::new(false), std::sync::Condvar::new())),
                kept: Arc::new(Mutex::new(Vec::new())),
            }
        }
        fn open(&self) {
            let (lock, opened) = &*self.open;
            *lock.lock().expect("lock") = true;
            opened.notify_all();
        }
        fn text(&self) -> String {
            String::from_utf8(self.kept.lock().expect("lock").clone()).expect("text")
        }
    }

    impl Write for Gate {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            let (lock, opened) = &*self.open;
            let mut open = lock.lock().expect("lock");
            while !*open {
                open = opened.wait(open).expect("wait");
            }
            self.kept.lock().expect("lock").extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// What the formatter does with an event: one `write_all` of its line.
    fn log(lines: &Lines, text: &str) {
        use tracing_subscriber::fmt::MakeWriter;
        lines
            .make_writer()
            .write_all(text.as_bytes())
            .expect("write");
    }

    #[test]
    fn lines_are_written_in_order() {
        let gate = Gate::shut();
        gate.open();
        let (lines, flusher) = start(gate.clone()).expect("text");
        for i in 0..100 {
            log(&lines, &format!("line {i}\n"));
        }
        log(&lines, &"y".repeat(LINE_BYTES + 1));
        assert!(flusher.flush(Duration::from_secs(5)));
        let mut expected: String = (0..100).map(|i| format!("line {i}\n")).collect();
        expected.push_str(&"y".repeat(LINE_BYTES));
        expected.push_str("…\n");
        assert_eq!(gate.text(), expected);
        assert_eq!(lines.dropped(), 0);
        // Every byte handed over is accounted for once written.
        assert_eq!(lines.shared.queued.load(Ordering::Acquire), 0);
    }

    /// An output that has stopped reading never stops the one logging: past the bound, lines
    /// are dropped and counted, and once the output reads again the kept lines come first, in
    /// order, then the count.
    #[test]
    fn a_stalled_output_never_blocks_and_the_lines_past_the_bound_are_counted() {
        let gate = Gate::shut();
        let (lines, flusher) = start(gate.clone()).expect("text");
        let line = format!("{}\n", "x".repeat(999));
        let line_len = line.len();
        let handed = 3 * QUEUED_BYTES / line.len();
        let (finished, done) = mpsc::channel();
        let logging = lines.clone();
        std::thread::spawn(move || {
            for _ in 0..handed {
                log(&logging, &line);
            }
            finished.send(()).expect("send");
        });
        // Had a line waited on the output, this would time out: the gate is still shut.
        done.recv_timeout(Duration::from_secs(10))
            .expect("logging waited on a stalled output");
        let dropped = lines.dropped();
        let kept = handed as u64 - dropped;
        // As many as the bound holds, and the output's buffer.
        let bound = (QUEUED_BYTES / line_len) as u64;
        assert!(kept >= bound, "{kept} lines kept");
        assert!(
            kept <= bound + (OUT_BUFFER / line_len) as u64 + 1,
            "{kept} lines kept"
        );
        gate.open();
        assert!(flusher.flush(Duration::from_secs(10)));
        assert_eq!(gate.text().lines().count() as u64, kept);
        // The notice of the drops goes through tracing, which has no subscriber here.
    }

    #[test]
    fn a_flush_gives_up_on_a_stalled_output() {
        let gate = Gate::shut();
        let (lines, flusher) = start(gate.clone()).expect("text");
        log(&lines, "waiting\n");
        assert!(!flusher.flush(Duration::from_millis(100)));
        gate.open();
        assert!(flusher.flush(Duration::from_secs(5)));
        assert_eq!(gate.text(), "waiting\n");
    }

    #[test]
    fn a_long_line_is_cut_at_a_character() {
        let long = "é".repeat(LINE_BYTES); // two bytes each
        let line = cut(long.as_bytes());
        let text = String::from_utf8(line).expect("cut at a character");
        assert!(text.ends_with("…\n"));
        assert!(text.len() <= LINE_BYTES + CUT_MARK.len());
        assert_eq!(cut(b"short\n"), b"short\n");
        // Just over: cut, and the mark makes it longer than it was, within the bound.
        let over = "x".repeat(LINE_BYTES + 1);
        assert_eq!(cut(over.as_bytes()).len(), LINE_BYTES + CUT_MARK.len());
    }
}
