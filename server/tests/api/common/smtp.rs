//! A real SMTP server for the tests, on a local port: it speaks enough of RFC 5321 for lettre
//! (EHLO, MAIL, RCPT, DATA with dot-unstuffing, RSET, NOOP, QUIT) and keeps every message it
//! accepts, raw, for the test to parse.

#![allow(dead_code, unreachable_pub)]

use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;

#[derive(Debug, Clone)]
pub struct Received {
    pub from: String,
    pub to: Vec<String>,
    pub data: Vec<u8>,
}

pub struct SmtpSink {
    pub port: u16,
    /// Recipients refused for good (550), as a mail server does for an address that does not exist.
    refused: Arc<Mutex<u32>>,
    messages: Arc<Mutex<Vec<Received>>>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for SmtpSink {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// A port nothing listens on (yet): bound, then let go.
pub async fn free_port() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    listener.local_addr().expect("addr").port()
}

impl SmtpSink {
    pub async fn start() -> Self {
        Self::start_on(0).await
    }

    /// A server that refuses every recipient for good (550) and counts the refusals.
    pub async fn start_refusing() -> Self {
        Self::open(0, true).await
    }

    /// How many recipients were refused.
    pub fn refusals(&self) -> u32 {
        *self.refused.lock().expect("lock")
    }

    pub async fn start_on(port: u16) -> Self {
        Self::open(port, false).await
    }

    async fn open(port: u16, refuse: bool) -> Self {
        let listener = TcpListener::bind(("127.0.0.1", port))
            .await
            .expect("bind the SMTP sink");
        let port = listener.local_addr().expect("addr").port();
        let messages = Arc::new(Mutex::new(Vec::new()));
        let refused = Arc::new(Mutex::new(0));
        let kept = Arc::clone(&messages);
        let counted = Arc::clone(&refused);
        let task = tokio::spawn(async move {
            loop {
                let Ok((socket, _)) = listener.accept().await else {
                    return;
                };
                let kept = Arc::clone(&kept);
                let counted = Arc::clone(&counted);
                tokio::spawn(async move {
                    let _ = session(socket, kept, refuse.then_some(counted)).await;
                });
            }
        });
        Self {
            port,
            refused,
            messages,
            task,
        }
    }

    pub fn url(&self) -> String {
        format!("smtp://127.0.0.1:{}", self.port)
    }

    pub fn messages(&self) -> Vec<Received> {
        self.messages.lock().expect("lock").clone()
    }

    /// Waits up to `limit` for at least `n` messages.
    pub async fn wait_for(&self, n: usize, limit: Duration) -> Vec<Received> {
        let deadline = tokio::time::Instant::now() + limit;
        loop {
            let got = self.messages();
            if got.len() >= n || tokio::time::Instant::now() >= deadline {
                return got;
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
    }
}

async fn session(
    socket: tokio::net::TcpStream,
    kept: Arc<Mutex<Vec<Received>>>,
    refuse: Option<Arc<Mutex<u32>>>,
) -> std::io::Result<()> {
    let (read, mut write) = socket.into_split();
    let mut lines = BufReader::new(read);
    write.write_all(b"220 sink.test ESMTP\r\n").await?;
    let mut from = String::new();
    let mut to = Vec::new();
    let mut line = String::new();
    loop {
        line.clear();
        if lines.read_line(&mut line).await? == 0 {
            return Ok(());
        }
        let command = line.trim_end().to_owned();
        let upper = command.to_ascii_uppercase();
        if upper.starts_with("EHLO") {
            write
                .write_all(b"250-sink.test\r\n250-8BITMIME\r\n250 SMTPUTF8\r\n")
                .await?;
        } else if upper.starts_with("HELO") {
            write.write_all(b"250 sink.test\r\n").await?;
        } else if upper.starts_with("MAIL FROM:") {
            from = command[10..].trim().to_owned();
            to.clear();
            write.write_all(b"250 OK\r\n").await?;
        } else if upper.starts_with("RCPT TO:") && refuse.is_some() {
            if let Some(count) = &refuse {
                *count.lock().expect("lock") += 1;
            }
            write
                .write_all(b"550 5.1.1 No such mailbox here\r\n")
                .await?;
        } else if upper.starts_with("RCPT TO:") {
            to.push(command[8..].trim().to_owned());
            write.write_all(b"250 OK\r\n").await?;
        } else if upper == "DATA" {
            write
                .write_all(b"354 End data with <CR><LF>.<CR><LF>\r\n")
                .await?;
            let mut data = Vec::new();
            loop {
                let mut raw = Vec::new();
                if lines.read_until(b'\n', &mut raw).await? == 0 {
                    return Ok(());
                }
                if raw == b".\r\n" || raw == b".\n" {
                    break;
                }
                let body = if raw.starts_with(b"..") {
                    &raw[1..]
                } else {
                    &raw[..]
                };
                data.extend_from_slice(body);
            }
            kept.lock().expect("lock").push(Received {
                from: from.clone(),
                to: to.clone(),
                data,
            });
            write.write_all(b"250 OK: queued\r\n").await?;
        } else if upper == "RSET" || upper == "NOOP" {
            write.write_all(b"250 OK\r\n").await?;
        } else if upper == "QUIT" {
            write.write_all(b"221 Bye\r\n").await?;
            return Ok(());
        } else {
            write.write_all(b"502 Command not implemented\r\n").await?;
        }
    }
}
