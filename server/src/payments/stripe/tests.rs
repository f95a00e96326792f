//! Stripe's client: bounded answers, webhook signatures, amounts, forms and brands.

use super::*;

/// A server that answers every request with `head` and then streams `chunks` chunks of 64 KiB
/// (chunked, with no length), counting the bytes it managed to send.
async fn flood(
    head: &'static str,
    chunks: usize,
) -> (String, std::sync::Arc<std::sync::atomic::AtomicUsize>) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let address = format!("http://{}", listener.local_addr().expect("address"));
    let sent = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counted = sent.clone();
    tokio::spawn(async move {
        let Ok((mut socket, _)) = listener.accept().await else {
            return;
        };
        let mut request = [0u8; 4096];
        let _ = socket.read(&mut request).await;
        if socket.write_all(head.as_bytes()).await.is_err() {
            return;
        }
        let chunk = vec![b' '; 64 * 1024];
        for _ in 0..chunks {
            let frame = format!("{:x}\r\n", chunk.len());
            if socket.write_all(frame.as_bytes()).await.is_err()
                || socket.write_all(&chunk).await.is_err()
                || socket.write_all(b"\r\n").await.is_err()
            {
                return;
            }
            counted.fetch_add(chunk.len(), std::sync::atomic::Ordering::SeqCst);
        }
        let _ = socket.write_all(b"0\r\n\r\n").await;
    });
    (address, sent)
}

fn stripe_at(api_url: String) -> Stripe {
    Stripe::new(StripeSettings {
        api_url,
        script_url: "https://js.stripe.com/v3/".into(),
        secret_key: "sk_test_x".into(),
        publishable_key: "pk_test_x".into(),
        webhook_secret: "whsec_x".into(),
        timeout: std::time::Duration::from_secs(10),
    })
    .expect("client")
}

/// Bounded by construction: an answer of any size costs at most 256 KiB to read; one that
/// says it is longer is refused before its body is read, one that streams without end is
/// cut off at the limit.
#[tokio::test]
async fn an_answer_past_256_kib_is_given_up_without_reading_it_all() {
    let (url, _) = flood(
        "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 1073741824\r\n\r\n",
        0,
    )
    .await;
    let err = stripe_at(url).card("pm_big").await.expect_err("refused");
    assert!(
        matches!(&err, ProviderError::Unavailable(m) if m.contains("256 KiB")),
        "{err:?}"
    );

    // 1 GiB offered, chunked, no length.
    let (url, sent) = flood(
        "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n",
        16 * 1024,
    )
    .await;
    let err = stripe_at(url)
        .card("pm_endless")
        .await
        .expect_err("refused");
    assert!(
        matches!(&err, ProviderError::Unavailable(m) if m.contains("256 KiB")),
        "{err:?}"
    );
    assert!(
        sent.load(std::sync::atomic::Ordering::SeqCst) < 8 * 1024 * 1024,
        "reading stopped at the limit (the rest was never asked for)"
    );
}

fn sign(secret: &str, t: i64, body: &[u8]) -> String {
    signature_header(secret, t, body)
}

#[test]
fn a_webhook_signature_is_the_secrets_over_the_timestamp_and_body() {
    let body = br#"{"type":"payment_intent.succeeded"}"#;
    let header = sign("whsec_abc", 1_000, body);
    assert!(signed("whsec_abc", &header, body, 1_000));
    assert!(
        signed("whsec_abc", &header, body, 1_299),
        "within five minutes"
    );
    assert!(
        !signed("whsec_abc", &header, body, 1_301),
        "a replay after five minutes"
    );
    assert!(!signed("whsec_other", &header, body, 1_000));
    assert!(!signed("whsec_abc", &header, b"{}", 1_000), "another body");
    assert!(!signed("whsec_abc", "v1=00", body, 1_000), "no timestamp");
    let rotated = format!("{},v1={}", sign("whsec_abc", 1_000, body), "0".repeat(64));
    assert!(
        signed("whsec_abc", &rotated, body, 1_000),
        "one of several signatures"
    );
}

#[test]
fn amounts_go_in_pence_and_a_fraction_of_a_penny_is_refused() {
    assert_eq!(minor_units(Decimal::new(1234, 2)), Ok(1234));
    assert_eq!(minor_units(Decimal::new(20, 0)), Ok(2000));
    assert!(minor_units(Decimal::new(12345, 3)).is_err());
    assert!(minor_units(Decimal::ZERO).is_err());
    assert_eq!(from_minor_units(1234), Decimal::new(1234, 2));
}

#[test]
fn every_brand_stripe_names_has_an_issuer_code() {
    for (brand, code) in [
        ("visa", "VISA"),
        ("mastercard", "MCDEBIT"),
        ("amex", "AMEX"),
        ("jcb", "JCB"),
        ("diners", "DINERS"),
        ("discover", "DISCOVER"),
        ("unionpay", "UNIONPAY"),
        ("cartes_bancaires", "CB"),
        ("eftpos_au", "EFTPOS"),
        ("girocard", "GIROCARD"),
        ("link", "OTHER"),
        ("unknown", "OTHER"),
        ("a_brand_named_later", "OTHER"),
    ] {
        assert_eq!(issuer(brand).code(), code, "{brand}");
    }
}

#[test]
fn a_form_is_encoded_as_stripe_reads_it() {
    assert_eq!(
        encode_form(&[("metadata[quote]", "q 1&2".into()), ("a", "é".into())]),
        "metadata%5Bquote%5D=q+1%262&a=%C3%A9"
    );
}
