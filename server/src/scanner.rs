//! The document check run when free rehoming cover is activated (owner-payment.md §6: the
//! confirmation-rescue detail codes 10107, and 10108 to 10111).
//!
//! The customer uploads a scan or photo of the rehoming certificate on the your-pet page (the
//! `rehoming_pet` question set takes a PDF, PNG or JPEG as a data URL, kept encrypted). Before the
//! cover is issued, the scanner reads the document: the bytes must be the kind the upload said
//! (a real PDF, PNG or JPEG, whole), or the answer is detail code 10107 and the customer goes
//! back to upload it again. A scanning service that cannot be reached answers one of 10108 to
//! 10111 and nothing is issued; the customer tries again later.
//!
//! The local scanner checks the file's structure in process. On test hosts a certificate number
//! `SCANDOWN-101nn` stands for the service answering code 101nn, so that the outage warning can
//! be exercised end to end (like the test payment provider's test cards).

use base64::Engine as _;

/// Detail code: the document was read and found wrong.
pub const DOCUMENT_ERROR: u32 = 10107;
/// Detail codes the scanning service answers while it cannot scan.
pub const UNAVAILABLE: std::ops::RangeInclusive<u32> = 10108..=10111;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScanOutcome {
    /// The document is what it says it is.
    Clean,
    /// Detail code 10107, with the reason for the log (never shown to the customer).
    Rejected(&'static str),
    /// One of the detail codes 10108 to 10111.
    Unavailable(u32),
}

impl ScanOutcome {
    /// The detail code the confirmation-rescue call answers, none when clean.
    pub fn detail_code(self) -> Option<u32> {
        match self {
            ScanOutcome::Clean => None,
            ScanOutcome::Rejected(_) => Some(DOCUMENT_ERROR),
            ScanOutcome::Unavailable(code) => Some(code),
        }
    }
}

/// Scans one uploaded certificate: `data_url` as the question set takes it
/// (`data:<type>;name=<file>;base64,<bytes>`), `certificate_number` as typed.
pub fn scan(data_url: &str, certificate_number: &str, test_mode: bool) -> ScanOutcome {
    if test_mode
        && let Some(code) = certificate_number
            .to_ascii_uppercase()
            .strip_prefix("SCANDOWN-")
            .and_then(|c| c.parse::<u32>().ok())
            .filter(|c| UNAVAILABLE.contains(c))
    {
        return ScanOutcome::Unavailable(code);
    }
    let Some((media_type, bytes)) = decode(data_url) else {
        return ScanOutcome::Rejected("not a base64 data URL");
    };
    let whole = match media_type {
        "application/pdf" => is_pdf(&bytes),
        "image/png" => is_png(&bytes),
        "image/jpeg" => is_jpeg(&bytes),
        _ => return ScanOutcome::Rejected("not a PDF, PNG or JPEG"),
    };
    if whole {
        ScanOutcome::Clean
    } else {
        ScanOutcome::Rejected("the bytes are not a whole file of the type uploaded")
    }
}

/// The media type and the decoded bytes of a data URL.
fn decode(data_url: &str) -> Option<(&str, Vec<u8>)> {
    let rest = data_url.strip_prefix("data:")?;
    let (head, body) = rest.split_once(',')?;
    let media_type = head.split(';').next()?;
    if !head.ends_with(";base64") {
        return None;
    }
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(body)
        .ok()?;
    Some((media_type, bytes))
}

/// A PDF: the header, and the end-of-file marker within the last kilobyte.
fn is_pdf(bytes: &[u8]) -> bool {
    let tail = &bytes[bytes.len().saturating_sub(1024)..];
    bytes.starts_with(b"%PDF-") && tail.windows(5).any(|w| w == b"%%EOF")
}

/// A PNG: the signature, an image header first with a non-zero size, and the end chunk last.
fn is_png(bytes: &[u8]) -> bool {
    const SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";
    if bytes.len() < 8 + 25 + 12 || !bytes.starts_with(SIGNATURE) {
        return false;
    }
    let header = &bytes[8..8 + 25];
    let width = u32::from_be_bytes([header[8], header[9], header[10], header[11]]);
    let height = u32::from_be_bytes([header[12], header[13], header[14], header[15]]);
    &header[4..8] == b"IHDR" && width > 0 && height > 0 && bytes.ends_with(b"IEND\xaeB`\x82")
}

/// A JPEG: the start-of-image marker first and the end-of-image marker last.
fn is_jpeg(bytes: &[u8]) -> bool {
    bytes.len() > 4 && bytes.starts_with(&[0xff, 0xd8, 0xff]) && bytes.ends_with(&[0xff, 0xd9])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(media: &str, bytes: &[u8]) -> String {
        format!(
            "data:{media};name=cert;base64,{}",
            base64::engine::general_purpose::STANDARD.encode(bytes)
        )
    }

    /// A 1×1 PNG.
    const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05\x18\xd8N\x00\x00\x00\x00IEND\xaeB`\x82";

    #[test]
    fn whole_files_of_the_type_uploaded_are_clean() {
        assert_eq!(
            scan(&url("image/png", PNG), "RH-1234", false),
            ScanOutcome::Clean
        );
        let pdf = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n";
        assert_eq!(
            scan(&url("application/pdf", pdf), "RH-1234", false),
            ScanOutcome::Clean
        );
        let jpeg = [0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0xff, 0xd9];
        assert_eq!(
            scan(&url("image/jpeg", &jpeg), "RH-1234", false),
            ScanOutcome::Clean
        );
    }

    /// owner-payment.md §6: code 10107 for a document the scanner finds wrong.
    #[test]
    fn a_file_that_is_not_what_it_says_is_code_10107() {
        let cases = [
            url("image/png", b"not a png at all, just text"),
            url("image/png", &PNG[..PNG.len() - 4]),
            url("application/pdf", PNG),
            url("image/jpeg", b"%PDF-1.4 %%EOF"),
            url("image/gif", b"GIF89a"),
            "data:image/png;name=x;base64,@@@".to_owned(),
            "not a data url".to_owned(),
        ];
        for case in cases {
            assert_eq!(
                scan(&case, "RH-1234", false).detail_code(),
                Some(DOCUMENT_ERROR),
                "{case}"
            );
        }
    }

    /// owner-payment.md §6: codes 10108 to 10111 while the scanning service is down; on test
    /// hosts only, a SCANDOWN certificate number stands for it.
    #[test]
    fn the_outage_codes_stand_in_only_on_test_hosts() {
        let png = url("image/png", PNG);
        for code in 10108..=10111 {
            let number = format!("scandown-{code}");
            assert_eq!(scan(&png, &number, true), ScanOutcome::Unavailable(code));
            assert_eq!(scan(&png, &number, false), ScanOutcome::Clean);
        }
        assert_eq!(scan(&png, "SCANDOWN-10107", true), ScanOutcome::Clean);
    }
}
