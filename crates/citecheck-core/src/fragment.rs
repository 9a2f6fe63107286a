//! Text fragments (pure): URLs that make a browser scroll to a quote and highlight it.
//!
//! Takes the terms of a text directive (`prefix`, `start`, `end`, `suffix`) and gives the
//! `#:~:text=[prefix-,]start[,end][,-suffix]` URL the WICG "URL Fragment Text Directives"
//! specification defines; parses such a directive back the way the specification's
//! "parse a text directive" algorithm does.
//!
//! Guarantees: every term is encoded so that only the grammar's `TextDirectiveExplicitChar`s
//! (ASCII letters, digits and `!$'()*+./:;=?@_~`) stay literal and every other byte of its UTF-8
//! form becomes `%XX`. That covers the three characters the directive syntax itself uses (`-`,
//! `&`, `,`) and everything the URL standard's fragment percent-encode set asks for (space, `"`,
//! `<`, `>`, `` ` ``, controls, non-ASCII). A URL that already has a fragment keeps it in front of
//! the `:~:` delimiter, where the browser still uses it as the fallback target; an earlier
//! fragment directive on the URL is replaced rather than stacked.

use std::fmt;

use percent_encoding::{percent_decode_str, utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};

/// The string that separates a URL's fragment from its fragment directive.
pub const DIRECTIVE_DELIMITER: &str = ":~:";

/// Bytes a term keeps literal: the specification's `TextDirectiveExplicitChar`. Everything else,
/// `-`, `&` and `,` included, is percent-encoded.
const TERM_SET: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'!')
    .remove(b'$')
    .remove(b'\'')
    .remove(b'(')
    .remove(b')')
    .remove(b'*')
    .remove(b'+')
    .remove(b'.')
    .remove(b'/')
    .remove(b':')
    .remove(b';')
    .remove(b'=')
    .remove(b'?')
    .remove(b'@')
    .remove(b'_')
    .remove(b'~');

/// One text directive: the text to highlight (`start`, or the range `start`..`end`) and the
/// optional context that must surround it (`prefix` before, `suffix` after).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextDirective {
    pub prefix: Option<String>,
    pub start: String,
    pub end: Option<String>,
    pub suffix: Option<String>,
}

/// A directive with an empty term cannot be written: the specification refuses empty terms.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a text directive's {0} term is empty")]
pub struct EmptyTerm(pub &'static str);

impl TextDirective {
    /// A directive matching exactly `start`.
    pub fn exact(start: impl Into<String>) -> Result<Self, EmptyTerm> {
        TextDirective {
            prefix: None,
            start: start.into(),
            end: None,
            suffix: None,
        }
        .validated()
    }

    /// A directive matching from `start` to the first `end` after it.
    pub fn range(start: impl Into<String>, end: impl Into<String>) -> Result<Self, EmptyTerm> {
        TextDirective {
            prefix: None,
            start: start.into(),
            end: Some(end.into()),
            suffix: None,
        }
        .validated()
    }

    /// The same directive with context terms (`None` leaves that side unchecked).
    pub fn with_context(
        mut self,
        prefix: Option<String>,
        suffix: Option<String>,
    ) -> Result<Self, EmptyTerm> {
        self.prefix = prefix;
        self.suffix = suffix;
        self.validated()
    }

    fn validated(self) -> Result<Self, EmptyTerm> {
        let empty = |t: &Option<String>| t.as_deref().is_some_and(str::is_empty);
        if self.start.is_empty() {
            return Err(EmptyTerm("start"));
        }
        if empty(&self.end) {
            return Err(EmptyTerm("end"));
        }
        if empty(&self.prefix) {
            return Err(EmptyTerm("prefix"));
        }
        if empty(&self.suffix) {
            return Err(EmptyTerm("suffix"));
        }
        Ok(self)
    }

    /// Parses the value of a `text=` directive (what follows `text=`), following the
    /// specification's "parse a text directive" steps; `None` where they return null.
    pub fn parse(value: &str) -> Option<TextDirective> {
        let mut tokens: Vec<&str> = value.split(',').collect();
        if tokens.is_empty() || tokens.len() > 4 {
            return None;
        }
        let mut prefix = None;
        if let Some(first) = tokens[0].strip_suffix('-') {
            if first.is_empty() || first.contains('-') {
                return None;
            }
            prefix = Some(first);
            tokens.remove(0);
            if tokens.is_empty() {
                return None;
            }
        }
        let mut suffix = None;
        if let Some(last) = tokens.last().and_then(|t| t.strip_prefix('-')) {
            if last.is_empty() || last.contains('-') {
                return None;
            }
            suffix = Some(last);
            tokens.pop();
            if tokens.is_empty() {
                return None;
            }
        }
        if tokens.len() > 2 {
            return None;
        }
        let start = tokens[0];
        if start.is_empty() || start.contains('-') {
            return None;
        }
        let end = match tokens.get(1) {
            Some(end) if end.is_empty() || end.contains('-') => return None,
            other => other.copied(),
        };
        Some(TextDirective {
            prefix: prefix.map(decode_term),
            start: decode_term(start),
            end: end.map(decode_term),
            suffix: suffix.map(decode_term),
        })
    }
}

/// `text=[prefix-,]start[,end][,-suffix]`, every term percent-encoded.
impl fmt::Display for TextDirective {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("text=")?;
        if let Some(prefix) = &self.prefix {
            write!(f, "{}-,", encode_term(prefix))?;
        }
        f.write_str(&encode_term(&self.start))?;
        if let Some(end) = &self.end {
            write!(f, ",{}", encode_term(end))?;
        }
        if let Some(suffix) = &self.suffix {
            write!(f, ",-{}", encode_term(suffix))?;
        }
        Ok(())
    }
}

/// Percent-encodes one term: `TextDirectiveExplicitChar`s stay, every other UTF-8 byte is `%XX`.
pub fn encode_term(term: &str) -> String {
    utf8_percent_encode(term, TERM_SET).to_string()
}

/// The specification's "percent-decode a text directive term": percent-decoding, then UTF-8
/// decoding (a malformed sequence becomes U+FFFD, as the encoding standard's decoder does).
pub fn decode_term(term: &str) -> String {
    percent_decode_str(term).decode_utf8_lossy().into_owned()
}

/// The text directives in a fragment directive (the part after `:~:`): `&`-separated, unknown
/// directives and invalid text directives skipped, as "parse the fragment directive" does.
pub fn parse_fragment_directive(directive: &str) -> Vec<TextDirective> {
    directive
        .split('&')
        .filter_map(|d| d.strip_prefix("text="))
        .filter_map(TextDirective::parse)
        .collect()
}

/// `url` with `directive` as its fragment directive. An existing fragment is kept before the
/// delimiter (the browser falls back to it when the text is not found); an existing fragment
/// directive is replaced.
pub fn link(url: &str, directive: &TextDirective) -> String {
    let (base, fragment) = match url.split_once('#') {
        Some((base, fragment)) => (base, fragment),
        None => (url, ""),
    };
    let fragment = match fragment.find(DIRECTIVE_DELIMITER) {
        Some(at) => &fragment[..at],
        None => fragment,
    };
    format!("{base}#{fragment}{DIRECTIVE_DELIMITER}{directive}")
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn directive(
        prefix: Option<&str>,
        start: &str,
        end: Option<&str>,
        suffix: Option<&str>,
    ) -> TextDirective {
        TextDirective {
            prefix: prefix.map(str::to_string),
            start: start.to_string(),
            end: end.map(str::to_string),
            suffix: suffix.map(str::to_string),
        }
    }

    // The examples below are the specification's own (WICG scroll-to-text-fragment, index.bs,
    // "Syntax", "Context Terms", "BiDi Considerations", "The Fragment Directive").

    #[test]
    fn the_specifications_exact_match_example() {
        let d = TextDirective::exact("an example text fragment").expect("valid");
        assert_eq!(d.to_string(), "text=an%20example%20text%20fragment");
        assert_eq!(
            TextDirective::parse("an%20example%20text%20fragment"),
            Some(d)
        );
    }

    #[test]
    fn the_specifications_range_example() {
        let d = TextDirective::range("an example", "text fragment").expect("valid");
        assert_eq!(d.to_string(), "text=an%20example,text%20fragment");
        assert_eq!(
            TextDirective::parse("an%20example,text%20fragment"),
            Some(d)
        );
    }

    #[test]
    fn the_specifications_context_example() {
        let d = TextDirective::exact("an example")
            .and_then(|d| d.with_context(Some("this is".into()), Some("text fragment".into())))
            .expect("valid");
        assert_eq!(
            d.to_string(),
            "text=this%20is-,an%20example,-text%20fragment"
        );
        assert_eq!(
            TextDirective::parse("this%20is-,an%20example,-text%20fragment"),
            Some(d)
        );
    }

    #[test]
    fn the_specifications_bidi_example_encodes_utf8_bytes_in_logical_order() {
        // "مصر" after the prefix "البحرين".
        let d = TextDirective::exact("\u{645}\u{635}\u{631}")
            .and_then(|d| {
                d.with_context(
                    Some("\u{627}\u{644}\u{628}\u{62D}\u{631}\u{64A}\u{646}".into()),
                    None,
                )
            })
            .expect("valid");
        assert_eq!(
            d.to_string(),
            "text=%D8%A7%D9%84%D8%A8%D8%AD%D8%B1%D9%8A%D9%86-,%D9%85%D8%B5%D8%B1"
        );
    }

    #[test]
    fn the_specifications_long_quote_example_matches_except_its_unencoded_hyphen() {
        // The specification's exact-match example leaves the '-' of "Wynn-Williams" literal,
        // which its own parse algorithm rejects (a start term may not contain '-'); the grammar
        // says a '-' in a term is percent-encoded, so ours is the example with %2D there.
        let quote = "The first recorded idea of using digital electronics for computing was the \
                     1931 paper \"The Use of Thyratrons for High Speed Automatic Counting of \
                     Physical Phenomena\" by C. E. Wynn-Williams";
        let spec = "text=The%20first%20recorded%20idea%20of%20using%20digital%20electronics%20for%20computing%20was%20the%201931%20paper%20%22The%20Use%20of%20Thyratrons%20for%20High%20Speed%20Automatic%20Counting%20of%20Physical%20Phenomena%22%20by%20C.%20E.%20Wynn-Williams";
        let ours = TextDirective::exact(quote).expect("valid").to_string();
        assert_eq!(ours, spec.replace("Wynn-Williams", "Wynn%2DWilliams"));
        assert_eq!(TextDirective::parse(&spec["text=".len()..]), None);
        assert_eq!(
            TextDirective::parse(&ours["text=".len()..]).map(|d| d.start),
            Some(quote.to_string())
        );
    }

    #[test]
    fn a_url_with_a_fragment_keeps_it_before_the_delimiter() {
        let d = TextDirective::exact(
            "The earliest known tool for use in computation is the Sumerian abacus",
        )
        .expect("valid");
        assert_eq!(
            link("https://en.wikipedia.org/wiki/History_of_computing#Early_computation", &d),
            "https://en.wikipedia.org/wiki/History_of_computing#Early_computation:~:text=The%20earliest%20known%20tool%20for%20use%20in%20computation%20is%20the%20Sumerian%20abacus"
        );
        let foo = TextDirective::exact("foo").expect("valid");
        assert_eq!(
            link("https://example.com", &foo),
            "https://example.com#:~:text=foo"
        );
        assert_eq!(
            link("https://example.org/#test", &foo),
            "https://example.org/#test:~:text=foo"
        );
        // An earlier directive is replaced, not stacked.
        assert_eq!(
            link("https://example.org/#test:~:text=bar", &foo),
            "https://example.org/#test:~:text=foo"
        );
    }

    #[test]
    fn the_three_syntax_characters_are_encoded_inside_terms() {
        let d = directive(Some("a-b"), "c,d", Some("e&f"), Some("g-h"));
        assert_eq!(d.to_string(), "text=a%2Db-,c%2Cd,e%26f,-g%2Dh");
        assert_eq!(TextDirective::parse(&d.to_string()[5..]), Some(d));
    }

    #[test]
    fn the_fragment_directive_keeps_text_directives_and_skips_the_rest() {
        // The specification's example: two text directives and one unknown directive.
        let parsed = parse_fragment_directive("text=foo&text=bar&unknownDirective");
        assert_eq!(
            parsed,
            vec![
                directive(None, "foo", None, None),
                directive(None, "bar", None, None)
            ]
        );
    }

    #[test]
    fn invalid_directives_parse_to_nothing() {
        // Context terms without '-' are four plain tokens (a test case of the web platform
        // tests' scroll-to-text-fragment.html).
        assert_eq!(TextDirective::parse("this,is,test,page"), None);
        for bad in [
            "",
            "-,foo",
            "foo,-",
            "a-,",
            ",b",
            "a,b,c",
            "a-b",
            "p-,s,e,-x,y",
        ] {
            assert_eq!(TextDirective::parse(bad), None, "{bad}");
        }
        assert_eq!(
            TextDirective::parse("p-,-s"),
            None,
            "a prefix and suffix need a start between them"
        );
    }

    #[test]
    fn empty_terms_are_refused() {
        assert_eq!(TextDirective::exact(""), Err(EmptyTerm("start")));
        assert_eq!(TextDirective::range("a", ""), Err(EmptyTerm("end")));
        let d = TextDirective::exact("a").expect("valid");
        assert_eq!(
            d.with_context(Some(String::new()), None),
            Err(EmptyTerm("prefix"))
        );
    }

    fn term() -> impl Strategy<Value = String> {
        // Any non-empty text, with the syntax characters and non-ASCII over-represented.
        prop_oneof![
            "\\PC{1,40}",
            "[-,&% a-z#:~\"<>`\u{e9}\u{645}\u{1F600}]{1,20}",
        ]
    }

    proptest! {
        #[test]
        fn encoded_terms_decode_to_themselves(
            prefix in proptest::option::of(term()),
            start in term(),
            end in proptest::option::of(term()),
            suffix in proptest::option::of(term()),
        ) {
            let d = directive(prefix.as_deref(), &start, end.as_deref(), suffix.as_deref());
            let text = d.to_string();
            // Only the grammar's characters appear, so the URL needs no further encoding.
            prop_assert!(text["text=".len()..].bytes().all(|b| b.is_ascii_alphanumeric()
                || b"!$'()*+./:;=?@_~%,-".contains(&b)), "{}", text);
            let parsed = parse_fragment_directive(&text);
            prop_assert_eq!(parsed, vec![d]);
        }
    }
}
