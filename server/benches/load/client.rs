//! The client: requests as the pages and sites send them, a priced quote to load, the loads.

use super::*;

pub(super) type Req = Request<Full<Bytes>>;

pub(super) fn get(path: &str, headers: &[(&str, &str)]) -> Req {
    let mut b = Request::get(path).header("host", "127.0.0.1");
    for (k, v) in headers {
        b = b.header(*k, *v);
    }
    b.body(Full::new(Bytes::new())).expect("request")
}

pub(super) fn post(path: &str, headers: &[(&str, &str)], body: &Value) -> Req {
    let mut b = Request::post(path)
        .header("host", "127.0.0.1")
        .header("content-type", "application/json");
    for (k, v) in headers {
        b = b.header(*k, *v);
    }
    b.body(Full::new(Bytes::from(body.to_string())))
        .expect("request")
}

/// One request on a connection of its own (setup only): status, cookies set, body.
pub(super) async fn send(port: u16, req: Req) -> Result<(u16, Vec<String>, Bytes), String> {
    let stream = TcpStream::connect(("127.0.0.1", port))
        .await
        .map_err(|e| e.to_string())?;
    let io = hyper_util::rt::TokioIo::new(stream);
    let (mut sender, conn) = hyper::client::conn::http1::handshake(io)
        .await
        .map_err(|e| e.to_string())?;
    tokio::spawn(conn);
    let r = sender.send_request(req).await.map_err(|e| e.to_string())?;
    let status = r.status().as_u16();
    let cookies = r
        .headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .filter_map(|v| v.split(';').next())
        .map(str::to_owned)
        .collect();
    let body = r
        .into_body()
        .collect()
        .await
        .map_err(|e| e.to_string())?
        .to_bytes();
    Ok((status, cookies, body))
}

/// pawpath's own count of the requests it answered (every route but `/metrics`), and of those
/// that took longer than each of [`OVER_MS`], from its request histogram: the time from the
/// request reaching its router's counting layer to the answer leaving it, which leaves out the
/// client, the kernel's queues and the wait for a runtime thread to read the request.
pub(super) async fn server_counts(port: u16) -> Option<(f64, [f64; 3])> {
    let auth = format!("Bearer {METRICS_TOKEN}");
    let (status, _, body) = send(port, get("/metrics", &[("authorization", &auth)]))
        .await
        .ok()?;
    if status != 200 {
        return None;
    }
    let text = String::from_utf8_lossy(&body);
    let (mut total, mut within) = (0.0, [0.0; 3]);
    for line in text.lines() {
        let Some(rest) = line.strip_prefix("pawpath_http_request_duration_seconds_bucket{") else {
            continue;
        };
        if rest.contains("route=\"/metrics\"") {
            continue;
        }
        let Some((labels, value)) = rest.rsplit_once("} ") else {
            continue;
        };
        let Ok(n) = value.trim().parse::<f64>() else {
            continue;
        };
        let Some(le) = labels
            .split("le=\"")
            .nth(1)
            .and_then(|l| l.split('"').next())
        else {
            continue;
        };
        if le == "+Inf" {
            total += n;
        }
        for (i, ms) in OVER_MS.iter().enumerate() {
            if le
                .parse::<f64>()
                .is_ok_and(|b| (b * 1000.0 - ms).abs() < 1e-6)
            {
                within[i] += n;
            }
        }
    }
    Some((total, within))
}

pub(super) fn answers() -> (Value, Value) {
    let file: Value = serde_json::from_str(
        &std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/flows/_answers.json"),
        )
        .expect("tests/flows/_answers.json"),
    )
    .expect("answers");
    (file.clone(), file["owner"].clone())
}

pub(super) fn pets(n: usize, cost: &str) -> Value {
    let (file, _) = answers();
    let today = chrono::Utc::now().date_naive();
    Value::Array(
        (0..n)
            .map(|i| {
                let mut pet = if i % 2 == 0 {
                    file["dog"].clone()
                } else {
                    file["cat"].clone()
                };
                pet["pet_name"] = json!(format!("Pet {}", i + 1));
                // Born well inside every species' window whenever the bench runs.
                pet["pet_date_of_birth"] =
                    json!((today - chrono::Duration::days(700 + 30 * i as i64)).to_string());
                if i == 0 {
                    pet["pet_cost"] = json!(cost);
                }
                pet
            })
            .collect(),
    )
}

/// A session's quote on the direct journey, priced, at choose policy: its cookie and CSRF token.
pub(super) async fn priced_quote(port: u16, n: usize) -> (String, String) {
    let (status, cookies, body) = send(port, get("/quote", &[("accept", "application/json")]))
        .await
        .expect("open a quote");
    assert_eq!(status, 200);
    let cookie = cookies.join("; ");
    let view: Value = serde_json::from_slice(&body).expect("view data");
    let csrf = view["data"]["csrf"].as_str().expect("csrf").to_owned();
    let h = [("cookie", cookie.as_str())];
    let (s, _, b) = send(
        port,
        post(
            "/api/petdetails",
            &h,
            &json!({ "csrf": csrf, "pets": pets(n, "450.00") }),
        ),
    )
    .await
    .expect("pets");
    assert_eq!(s, 200, "{}", String::from_utf8_lossy(&b));
    let (_, owner) = answers();
    let (s, _, b) = send(
        port,
        post(
            "/api/ownerdetail",
            &h,
            &json!({ "csrf": csrf, "owner": owner }),
        ),
    )
    .await
    .expect("owner");
    assert_eq!(s, 200, "{}", String::from_utf8_lossy(&b));
    let view: Value = serde_json::from_slice(&b).expect("view");
    assert_eq!(
        view["data"]["step"]["id"], "choose_policy",
        "the quote reached choose policy"
    );
    (cookie, csrf)
}

/// What each connection sends, over and over.
#[derive(Clone)]
pub(super) enum Load {
    Get {
        path: String,
        headers: Vec<(String, String)>,
    },
    /// Posts that alternate between two bodies, so every one changes the quote.
    Post {
        path: String,
        headers: Vec<(String, String)>,
        bodies: [Bytes; 2],
    },
}

impl Load {
    pub(super) fn request(&self, n: u64) -> Req {
        let (method, path, headers, body) = match self {
            Load::Get { path, headers } => ("GET", path, headers, Bytes::new()),
            Load::Post {
                path,
                headers,
                bodies,
            } => ("POST", path, headers, bodies[(n % 2) as usize].clone()),
        };
        let mut b = Request::builder()
            .method(method)
            .uri(path.as_str())
            .header("host", "127.0.0.1");
        if method == "POST" {
            b = b.header("content-type", "application/json");
        }
        for (k, v) in headers {
            b = b.header(k.as_str(), v.as_str());
        }
        b.body(Full::new(body)).expect("request")
    }
}
