//! Slow senders cannot take the server down: a request body must keep up a minimum rate, one
//! client address holds at most its share of connections, and at the connection limit the
//! slowest sender makes room for a new connection (server/src/serve).

use crate::common::*;

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

/// The server's address.
fn server(app: &TestApp) -> SocketAddr {
    app.base
        .trim_start_matches("http://")
        .parse()
        .expect("an address")
}

/// A connection to `app` from the loopback address `from` (127.0.0.x).
async fn connect_from(app: &TestApp, from: [u8; 4]) -> TcpStream {
    let socket = TcpSocket::new_v4().expect("socket");
    socket
        .bind(SocketAddr::from((from, 0)))
        .expect("bind a loopback address");
    socket.connect(server(app)).await.expect("connect")
}

/// A request whose body of 60,000 bytes has only just begun.
const SLOW_POST: &[u8] = b"POST /api/petdetails HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 60000\r\n\r\n{";

/// Whether the server has closed `stream` (or answered on it) within `limit`.
async fn closed_within(stream: &mut TcpStream, limit: Duration) -> bool {
    let mut buf = [0u8; 1024];
    matches!(
        tokio::time::timeout(limit, stream.read(&mut buf)).await,
        Ok(Ok(0) | Err(_))
    )
}

/// `GET /healthz` on a new connection from `from`: the status line, within 2 seconds.
async fn health_from(app: &TestApp, from: [u8; 4]) -> String {
    let mut stream = connect_from(app, from).await;
    stream
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .await
        .expect("write");
    let mut buf = [0u8; 1024];
    let n = tokio::time::timeout(Duration::from_secs(2), stream.read(&mut buf))
        .await
        .expect("answered within 2 seconds")
        .expect("read");
    String::from_utf8_lossy(&buf[..n])
        .lines()
        .next()
        .unwrap_or_default()
        .to_owned()
}

#[tokio::test]
async fn a_body_below_the_minimum_rate_is_answered_408_long_before_the_request_timeout() {
    let app = spawn_app_with(&[
        ("PAWPATH_BODY_TIMEOUT_MS", "500".into()),
        ("PAWPATH_BODY_MIN_RATE", "100".into()),
        ("PAWPATH_REQUEST_TIMEOUT_MS", "60000".into()),
        ("PAWPATH_HEADER_TIMEOUT_MS", "60000".into()),
    ])
    .await;
    // One byte every 200 ms: 5 bytes a second where 100 are asked.
    let mut drip = connect_from(&app, [127, 0, 0, 1]).await;
    drip.write_all(SLOW_POST).await.expect("write");
    let started = Instant::now();
    let mut answer = String::new();
    while started.elapsed() < Duration::from_secs(10) {
        if drip.write_all(b" ").await.is_err() {
            break;
        }
        let mut buf = [0u8; 1024];
        if let Ok(Ok(n)) =
            tokio::time::timeout(Duration::from_millis(200), drip.read(&mut buf)).await
        {
            answer.push_str(&String::from_utf8_lossy(&buf[..n]));
            break;
        }
    }
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer:?}");
    assert!(
        answer.to_lowercase().contains("connection: close"),
        "{answer}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "cut at the body's deadline, not the request's 60 s: {:?}",
        started.elapsed()
    );
    assert!(closed_within(&mut drip, Duration::from_secs(2)).await);

    // A body that keeps up the rate is read whole, however long it takes past the first 500 ms.
    let mut steady = connect_from(&app, [127, 0, 0, 1]).await;
    let body = format!("{{\"pets\":[]{}}}", " ".repeat(288));
    steady
        .write_all(
            format!(
                "POST /api/petdetails HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                body.len()
            )
            .as_bytes(),
        )
        .await
        .expect("write");
    for chunk in body.as_bytes().chunks(60) {
        tokio::time::sleep(Duration::from_millis(150)).await;
        steady.write_all(chunk).await.expect("write");
    }
    let mut buf = [0u8; 1024];
    let n = tokio::time::timeout(Duration::from_secs(5), steady.read(&mut buf))
        .await
        .expect("answered")
        .expect("read");
    let status = String::from_utf8_lossy(&buf[..n]);
    assert!(
        status.starts_with("HTTP/1.1 ") && !status.starts_with("HTTP/1.1 408"),
        "{status}"
    );
}

#[tokio::test]
async fn one_address_holds_its_share_and_every_other_address_is_served() {
    let app = spawn_app_with(&[
        ("PAWPATH_CONNECTIONS_PER_ADDRESS", "4".into()),
        ("PAWPATH_MAX_CONNECTIONS", "100".into()),
        ("PAWPATH_BODY_TIMEOUT_MS", "60000".into()),
        ("PAWPATH_HEADER_TIMEOUT_MS", "60000".into()),
    ])
    .await;
    let mut attacker = Vec::new();
    for _ in 0..12 {
        let mut stream = connect_from(&app, [127, 0, 0, 2]).await;
        let _ = stream.write_all(SLOW_POST).await;
        attacker.push(stream);
    }
    let mut closed = 0;
    for stream in &mut attacker {
        if closed_within(stream, Duration::from_millis(200)).await {
            closed += 1;
        }
    }
    assert_eq!(closed, 8, "the address keeps 4 of its 12 connections");
    // Every other address is served at once.
    assert_eq!(health_from(&app, [127, 0, 0, 1]).await, "HTTP/1.1 200 OK");
    assert_eq!(health_from(&app, [127, 0, 0, 3]).await, "HTTP/1.1 200 OK");
}

#[tokio::test]
async fn at_the_connection_limit_the_slowest_sender_makes_room() {
    let app = spawn_app_with(&[
        ("PAWPATH_MAX_CONNECTIONS", "6".into()),
        ("PAWPATH_BODY_TIMEOUT_MS", "60000".into()),
        ("PAWPATH_HEADER_TIMEOUT_MS", "60000".into()),
    ])
    .await;
    // Six connections from six addresses, each sending a body slowly; the fourth faster.
    let mut senders = Vec::new();
    for n in 0..6u8 {
        let mut stream = connect_from(&app, [127, 0, 1, 10 + n]).await;
        stream.write_all(SLOW_POST).await.expect("write");
        senders.push(stream);
    }
    for _ in 0..6 {
        tokio::time::sleep(Duration::from_millis(250)).await;
        for (n, stream) in senders.iter_mut().enumerate() {
            let bytes: &[u8] = if n == 3 { b"          " } else { b" " };
            stream.write_all(bytes).await.expect("still open");
        }
    }
    // A new customer is served: one slow sender was closed to make room.
    assert_eq!(health_from(&app, [127, 0, 0, 1]).await, "HTTP/1.1 200 OK");
    let mut closed = Vec::new();
    for (n, stream) in senders.iter_mut().enumerate() {
        if closed_within(stream, Duration::from_millis(200)).await {
            closed.push(n);
        }
    }
    assert_eq!(closed.len(), 1, "one connection makes room: {closed:?}");
    assert_ne!(closed, [3], "not the fastest sender");
}
