//! The Wayback CDX server's JSON answer (pure): which captures of a URL exist.
//!
//! Takes the body of `/cdx/search/cdx?...&output=json`; gives the latest capture in it, or none.
//! The answer is a JSON array of string arrays whose first row names the fields (by default
//! `urlkey, timestamp, original, mimetype, statuscode, digest, length`; a server may reorder
//! them, so fields are found by name). A URL never captured answers `[]`. Rows after an empty
//! row are a resumption key, not captures.

use serde_json::Value;

/// One capture of a URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Capture {
    /// `yyyyMMddhhmmss`, UTC.
    pub timestamp: String,
    /// The URL as it was captured.
    pub original: String,
    /// The status the page answered when captured (`-` for revisits).
    pub statuscode: String,
}

impl Capture {
    /// The capture time as RFC 3339 (`2013-09-19T04:46:12Z`), when the timestamp is complete.
    pub fn captured_at(&self) -> Option<String> {
        let t = self.timestamp.as_str();
        if t.len() != 14 || !t.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        Some(format!(
            "{}-{}-{}T{}:{}:{}Z",
            &t[0..4],
            &t[4..6],
            &t[6..8],
            &t[8..10],
            &t[10..12],
            &t[12..14]
        ))
    }
}

/// The CDX answer did not have the documented shape.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CdxError {
    #[error("the archive's answer is not JSON")]
    NotJson,
    #[error("the archive's answer is not an array of rows")]
    NotRows,
    #[error("the archive's answer has no `{0}` column")]
    MissingField(&'static str),
}

/// The latest capture in a CDX JSON answer (by timestamp), or `None` when there is none.
pub fn latest_capture(body: &[u8]) -> Result<Option<Capture>, CdxError> {
    let value: Value = serde_json::from_slice(body).map_err(|_| CdxError::NotJson)?;
    let rows = value.as_array().ok_or(CdxError::NotRows)?;
    let mut rows = rows.iter().map(|row| {
        row.as_array()
            .map(|cells| cells.iter().map(|c| c.as_str().unwrap_or("")).collect())
            .ok_or(CdxError::NotRows)
    });
    let header: Vec<&str> = match rows.next() {
        None => return Ok(None),
        Some(header) => header?,
    };
    let column = |name: &'static str| {
        header
            .iter()
            .position(|h| *h == name)
            .ok_or(CdxError::MissingField(name))
    };
    let (timestamp, original, statuscode) = (
        column("timestamp")?,
        column("original")?,
        column("statuscode")?,
    );
    let mut latest: Option<Capture> = None;
    for row in rows {
        let row: Vec<&str> = row?;
        if row.is_empty() {
            break;
        }
        let cell = |i: usize| row.get(i).copied().unwrap_or("").to_string();
        let capture = Capture {
            timestamp: cell(timestamp),
            original: cell(original),
            statuscode: cell(statuscode),
        };
        if capture.timestamp.is_empty() {
            continue;
        }
        if latest
            .as_ref()
            .is_none_or(|l| capture.timestamp > l.timestamp)
        {
            latest = Some(capture);
        }
    }
    Ok(latest)
}

#[cfg(test)]
mod tests {
    use super::*;

    // The example answer of the CDX server's README (internetarchive/wayback,
    // wayback-cdx-server/README.md, "Output Format (JSON)").
    const README_EXAMPLE: &str = r#"[["urlkey","timestamp","original","mimetype","statuscode","digest","length"],
 ["org,archive)/", "19970126045828", "http://www.archive.org:80/", "text/html", "200", "Q4YULN754FHV2U6Q5JUT6Q2P57WEWNNY", "1415"],
 ["org,archive)/", "19971011050034", "http://www.archive.org:80/", "text/html", "200", "XAHDNHZ5P3GSSSNJ3DMEOJF7BMCCPZR3", "1402"],
 ["org,archive)/", "19971211122953", "http://www.archive.org:80/", "text/html", "200", "XAHDNHZ5P3GSSSNJ3DMEOJF7BMCCPZR3", "1405"]]"#;

    #[test]
    fn the_latest_capture_of_the_readme_example() {
        let capture = latest_capture(README_EXAMPLE.as_bytes())
            .expect("parses")
            .expect("has captures");
        assert_eq!(capture.timestamp, "19971211122953");
        assert_eq!(capture.original, "http://www.archive.org:80/");
        assert_eq!(capture.statuscode, "200");
        assert_eq!(
            capture.captured_at().as_deref(),
            Some("1997-12-11T12:29:53Z")
        );
    }

    #[test]
    fn an_empty_answer_means_never_captured() {
        assert_eq!(latest_capture(b"[]"), Ok(None));
        let header_only =
            br#"[["urlkey","timestamp","original","mimetype","statuscode","digest","length"]]"#;
        assert_eq!(latest_capture(header_only), Ok(None));
    }

    #[test]
    fn reordered_fields_and_a_resumption_key_are_understood() {
        let body = br#"[["timestamp","statuscode","original"],
            ["20200101000000","200","https://a.example/x"],
            [],
            ["org%2Carchive%29%2F+19980109140106%21"]]"#;
        let capture = latest_capture(body).expect("parses").expect("one capture");
        assert_eq!(capture.timestamp, "20200101000000");
        assert_eq!(capture.original, "https://a.example/x");
    }

    #[test]
    fn garbage_is_an_error_not_a_verdict() {
        assert_eq!(latest_capture(b"<html>busy</html>"), Err(CdxError::NotJson));
        assert_eq!(latest_capture(br#"{"a":1}"#), Err(CdxError::NotRows));
        assert_eq!(
            latest_capture(br#"[["urlkey","original"]]"#),
            Err(CdxError::MissingField("timestamp"))
        );
    }

    #[test]
    fn an_incomplete_timestamp_has_no_capture_time() {
        let capture = Capture {
            timestamp: "2013".into(),
            original: String::new(),
            statuscode: "200".into(),
        };
        assert_eq!(capture.captured_at(), None);
    }
}
