//! Bytes -> text in the page's own encoding (pure).
//!
//! Order of evidence, as browsers do it: a byte-order mark, the `Content-Type` charset, a
//! `<meta>` declaration in the first kilobytes of an HTML page, then valid UTF-8, then a
//! statistical guess (chardetng) for legacy pages that declare nothing.

use encoding_rs::Encoding;

/// How far into an HTML page to look for a `<meta charset>` declaration.
const META_PRESCAN_BYTES: usize = 4096;

/// Decodes `body`, using `content_type` and, for HTML, the page's own declaration.
pub fn decode(body: &[u8], content_type: Option<&str>, is_html: bool) -> String {
    let encoding = detect(body, content_type, is_html);
    let (text, _, _) = encoding.decode(body);
    text.into_owned()
}

/// The encoding `decode` would use.
pub fn detect(body: &[u8], content_type: Option<&str>, is_html: bool) -> &'static Encoding {
    if let Some((encoding, _)) = Encoding::for_bom(body) {
        return encoding;
    }
    if let Some(encoding) = content_type.and_then(charset_param).and_then(label) {
        return encoding;
    }
    if is_html {
        if let Some(encoding) = meta_charset(&body[..body.len().min(META_PRESCAN_BYTES)]) {
            return encoding;
        }
    }
    if std::str::from_utf8(body).is_ok() {
        return encoding_rs::UTF_8;
    }
    let mut detector = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
    detector.feed(body, true);
    detector.guess(None, chardetng::Utf8Detection::Allow)
}

fn label(name: &str) -> Option<&'static Encoding> {
    // A page that claims UTF-16 in a header or meta tag without a BOM is almost always lying
    // (the HTML standard treats such a meta declaration as UTF-8).
    Encoding::for_label(name.trim().trim_matches(['"', '\'']).as_bytes()).map(|e| {
        if e == encoding_rs::UTF_16LE || e == encoding_rs::UTF_16BE {
            encoding_rs::UTF_8
        } else {
            e
        }
    })
}

fn charset_param(content_type: &str) -> Option<&str> {
    content_type.split(';').skip(1).find_map(|param| {
        let (key, value) = param.split_once('=')?;
        key.trim().eq_ignore_ascii_case("charset").then_some(value)
    })
}

/// Finds `<meta charset=...>` or `<meta http-equiv="content-type" content="...charset=...">`.
fn meta_charset(head: &[u8]) -> Option<&'static Encoding> {
    let text = String::from_utf8_lossy(head).to_ascii_lowercase();
    let mut rest = text.as_str();
    while let Some(start) = rest.find("<meta") {
        let tag_end = rest[start..].find('>').map_or(rest.len(), |e| start + e);
        let tag = &rest[start..tag_end];
        if let Some(pos) = tag.find("charset") {
            let value = tag[pos + "charset".len()..]
                .trim_start()
                .strip_prefix('=')
                .map(|v| v.trim_start().trim_start_matches(['"', '\'']))
                .unwrap_or_default();
            let name: String = value
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | ':' | '.'))
                .collect();
            if let Some(encoding) = label(&name) {
                return Some(encoding);
            }
        }
        rest = &rest[tag_end..];
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_header_charset_wins_over_the_meta_tag() {
        let body = b"<meta charset=\"utf-8\"><p>caf\xe9</p>";
        assert_eq!(
            decode(body, Some("text/html; charset=ISO-8859-1"), true),
            "<meta charset=\"utf-8\"><p>caf\u{e9}</p>"
        );
    }

    #[test]
    fn a_meta_declaration_is_honoured_when_the_header_is_silent() {
        let body = b"<html><head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=windows-1251\"></head><body>\xcf\xf0\xe8\xe2\xe5\xf2</body>";
        assert!(decode(body, Some("text/html"), true).contains("Привет"));
        let body = b"<meta charset='shift_jis'><p>\x93\xfa\x96\x7b</p>";
        assert!(decode(body, None, true).contains("日本"));
    }

    #[test]
    fn utf8_without_declaration_and_boms_are_handled() {
        assert_eq!(decode("naïve".as_bytes(), None, true), "naïve");
        assert_eq!(
            decode(
                b"\xef\xbb\xbfhello",
                Some("text/plain; charset=latin1"),
                false
            ),
            "hello"
        );
        assert_eq!(decode(b"\xff\xfeh\x00i\x00", None, false), "hi");
    }

    #[test]
    fn undeclared_legacy_bytes_are_guessed_not_mangled() {
        let body = "Der Bär läuft über die Straße, während die Größe wächst.".as_bytes();
        let (latin1, _, _) =
            encoding_rs::WINDOWS_1252.encode(std::str::from_utf8(body).expect("utf8"));
        assert_eq!(
            decode(&latin1, None, false),
            "Der Bär läuft über die Straße, während die Größe wächst."
        );
    }
}
