//! A page's markup counted from its text before any tree is built (pure; one linear pass, no
//! recursion).
//!
//! Takes decoded HTML; gives the number of tags that open an element, of attributes (in all and
//! on the busiest tag) and an estimate of how deep a parser would nest the elements. The HTML
//! tokenizer compares each attribute with every earlier one on its tag, and the tree builder
//! looks down its stack of open elements for each start tag, so both are quadratic on hostile
//! pages: these counts decide, first, whether the page may reach them at all.
//!
//! The depth follows the tree builder's commonest rules (void elements, end tags closing the
//! nearest match, a new `<p>`, `<li>`, `<td>`... closing the previous one) and stops counting
//! once past `depth_cap`, so its memory is bounded. It is an estimate: the tree built afterwards
//! is measured again before anything recurses over it.

/// Counts taken from one page.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Census {
    /// Start tags (each opens an element).
    pub elements: usize,
    /// Attributes on all tags.
    pub attributes: usize,
    /// Attributes on the tag that has the most.
    pub busiest_tag: usize,
    /// The deepest nesting seen, counting the implied `<html>` and `<body>`; at most
    /// `depth_cap + 1`.
    pub depth: usize,
}

const VOID: &[&[u8]] = &[
    b"area",
    b"base",
    b"br",
    b"col",
    b"embed",
    b"hr",
    b"img",
    b"input",
    b"keygen",
    b"link",
    b"meta",
    b"param",
    b"source",
    b"track",
    b"wbr",
    b"basefont",
    b"bgsound",
    b"frame",
    b"image",
];

/// Elements whose content the tokenizer reads as text up to their end tag.
const RAW_TEXT: &[&[u8]] = &[
    b"script",
    b"style",
    b"xmp",
    b"iframe",
    b"noembed",
    b"noframes",
    b"textarea",
    b"title",
];

/// Elements that end an open `<p>` when they start.
const CLOSES_P: &[&[u8]] = &[
    b"address",
    b"article",
    b"aside",
    b"blockquote",
    b"center",
    b"details",
    b"dialog",
    b"dir",
    b"div",
    b"dl",
    b"fieldset",
    b"figcaption",
    b"figure",
    b"footer",
    b"header",
    b"hgroup",
    b"main",
    b"menu",
    b"nav",
    b"ol",
    b"p",
    b"search",
    b"section",
    b"summary",
    b"ul",
    b"h1",
    b"h2",
    b"h3",
    b"h4",
    b"h5",
    b"h6",
    b"pre",
    b"listing",
    b"form",
    b"table",
    b"li",
    b"dd",
    b"dt",
    b"plaintext",
    b"xmp",
];

/// Where a search for an element to close stops (the tree builder's "scope").
const SCOPE: &[&[u8]] = &[
    b"applet",
    b"caption",
    b"html",
    b"table",
    b"td",
    b"th",
    b"marquee",
    b"object",
    b"template",
    b"svg",
    b"math",
];

const HEADINGS: &[&[u8]] = &[b"h1", b"h2", b"h3", b"h4", b"h5", b"h6"];

/// Counts `html`; nesting deeper than `depth_cap` is reported as `depth_cap + 1`.
pub fn take(html: &str, depth_cap: usize) -> Census {
    let mut scan = Scan {
        bytes: html.as_bytes(),
        at: 0,
        census: Census {
            depth: 2,
            ..Census::default()
        },
        open: Vec::new(),
        foreign: 0,
        depth_cap,
        deep: false,
    };
    scan.run();
    scan.census
}

struct Scan<'a> {
    bytes: &'a [u8],
    at: usize,
    census: Census,
    /// Names of the open elements, innermost last.
    open: Vec<Name>,
    /// Open `<svg>` and `<math>` elements: inside them `<x/>` closes itself.
    foreign: usize,
    depth_cap: usize,
    /// Past the cap: depth is settled and no longer tracked.
    deep: bool,
}

impl Scan<'_> {
    fn run(&mut self) {
        while let Some(offset) = find(&self.bytes[self.at..], b"<") {
            self.at += offset + 1;
            match self.bytes.get(self.at) {
                Some(b'!') => self.skip_declaration(),
                Some(b'?') => self.skip_past(b">"),
                Some(b'/')
                    if self
                        .bytes
                        .get(self.at + 1)
                        .is_some_and(u8::is_ascii_alphabetic) =>
                {
                    self.at += 1;
                    let name = self.name();
                    let (attributes, _) = self.attributes();
                    self.count_attributes(attributes);
                    self.close(&name);
                }
                Some(c) if c.is_ascii_alphabetic() => {
                    let name = self.name();
                    let (attributes, self_closing) = self.attributes();
                    self.census.elements += 1;
                    self.count_attributes(attributes);
                    self.open_element(name, self_closing);
                }
                _ => {}
            }
        }
    }

    fn count_attributes(&mut self, count: usize) {
        self.census.attributes += count;
        self.census.busiest_tag = self.census.busiest_tag.max(count);
    }

    /// `<!-- ... -->`, `<!doctype ...>`, `<![CDATA[ ... ]]>`: skipped whole.
    fn skip_declaration(&mut self) {
        if self.bytes[self.at..].starts_with(b"!--") {
            self.at += 3;
            // `<!-->` and `<!--->` are complete (empty) comments.
            for short in [&b">"[..], b"->"] {
                if self.bytes[self.at..].starts_with(short) {
                    self.at += short.len();
                    return;
                }
            }
            self.skip_past(b"-->");
        } else {
            self.skip_past(b">");
        }
    }

    fn skip_past(&mut self, needle: &[u8]) {
        self.at = match find(&self.bytes[self.at..], needle) {
            Some(offset) => self.at + offset + needle.len(),
            None => self.bytes.len(),
        };
    }

    /// A tag name; `at` is on its first byte.
    fn name(&mut self) -> Name {
        let start = self.at;
        while self
            .bytes
            .get(self.at)
            .is_some_and(|&c| !is_space(c) && c != b'/' && c != b'>')
        {
            self.at += 1;
        }
        Name::new(&self.bytes[start..self.at])
    }

    /// Walks a tag's attributes up to its `>`: their count, and whether it ended with `/>`.
    fn attributes(&mut self) -> (usize, bool) {
        let mut count = 0;
        let mut self_closing = false;
        loop {
            let Some(&c) = self.bytes.get(self.at) else {
                return (count, false);
            };
            match c {
                b'>' => {
                    self.at += 1;
                    return (count, self_closing);
                }
                b'/' => {
                    self_closing = true;
                    self.at += 1;
                    continue;
                }
                c if is_space(c) => {
                    self.at += 1;
                    continue;
                }
                _ => {}
            }
            self_closing = false;
            count += 1;
            // The name: a leading `=` belongs to it.
            self.at += 1;
            while self
                .bytes
                .get(self.at)
                .is_some_and(|&c| !is_space(c) && !matches!(c, b'/' | b'>' | b'='))
            {
                self.at += 1;
            }
            self.skip_spaces();
            if self.bytes.get(self.at) != Some(&b'=') {
                continue;
            }
            self.at += 1;
            self.skip_spaces();
            match self.bytes.get(self.at) {
                Some(&quote @ (b'"' | b'\'')) => {
                    self.at += 1;
                    self.skip_past(&[quote]);
                }
                _ => {
                    while self
                        .bytes
                        .get(self.at)
                        .is_some_and(|&c| !is_space(c) && c != b'>')
                    {
                        self.at += 1;
                    }
                }
            }
        }
    }

    fn skip_spaces(&mut self) {
        while self.bytes.get(self.at).is_some_and(|&c| is_space(c)) {
            self.at += 1;
        }
    }

    fn open_element(&mut self, name: Name, self_closing: bool) {
        let name_is = |set: &[&[u8]]| set.contains(&name.as_slice());
        // Inside `<svg>` or `<math>` a `<style>` or `<script>` holds markup, not raw text.
        if name_is(RAW_TEXT) && self.foreign == 0 {
            self.skip_raw_text(name.as_slice());
            return;
        }
        if name.as_slice() == b"plaintext" {
            self.at = self.bytes.len();
        }
        if self.deep
            || name_is(VOID)
            || matches!(name.as_slice(), b"html" | b"head" | b"body")
            || (self_closing && self.foreign > 0)
        {
            return;
        }
        if name_is(CLOSES_P) {
            self.close_within(&[b"p"], &[b"button"]);
        }
        match name.as_slice() {
            b"li" => self.close_within(&[b"li"], &[b"ul", b"ol"]),
            b"dd" | b"dt" => self.close_within(&[b"dd", b"dt"], &[b"dl"]),
            b"tr" => {
                self.close_within(&[b"td", b"th"], &[b"tr"]);
                self.close_within(&[b"tr"], &[]);
            }
            b"td" | b"th" => self.close_within(&[b"td", b"th"], &[b"tr"]),
            b"tbody" | b"thead" | b"tfoot" => {
                self.close_within(&[b"tbody", b"thead", b"tfoot"], &[])
            }
            b"option" | b"optgroup"
                if self
                    .open
                    .last()
                    .is_some_and(|top| top.as_slice() == b"option") =>
            {
                self.pop();
            }
            _ if name_is(HEADINGS)
                && self
                    .open
                    .last()
                    .is_some_and(|top| HEADINGS.contains(&top.as_slice())) =>
            {
                self.pop();
            }
            _ => {}
        }
        if matches!(name.as_slice(), b"svg" | b"math") {
            self.foreign += 1;
        }
        self.open.push(name);
        let depth = self.open.len() + 2;
        self.census.depth = self.census.depth.max(depth);
        if depth > self.depth_cap {
            self.census.depth = self.depth_cap + 1;
            self.deep = true;
            self.open = Vec::new();
        }
    }

    /// Closes the innermost element named in `names`, unless a scope boundary (or one of
    /// `also_stop`) is met first.
    fn close_within(&mut self, names: &[&[u8]], also_stop: &[&[u8]]) {
        for index in (0..self.open.len()).rev() {
            let open = self.open[index].as_slice();
            if names.contains(&open) {
                self.truncate(index);
                return;
            }
            if SCOPE.contains(&open) || also_stop.contains(&open) {
                return;
            }
        }
    }

    /// An end tag closes the innermost open element of its name, and everything inside it.
    fn close(&mut self, name: &Name) {
        if let Some(index) = self.open.iter().rposition(|open| open == name) {
            self.truncate(index);
        }
    }

    fn truncate(&mut self, len: usize) {
        while self.open.len() > len {
            self.pop();
        }
    }

    fn pop(&mut self) {
        if let Some(name) = self.open.pop() {
            if matches!(name.as_slice(), b"svg" | b"math") {
                self.foreign = self.foreign.saturating_sub(1);
            }
        }
    }

    /// Skips to the end tag of a raw-text element (`</script`, case-insensitive).
    fn skip_raw_text(&mut self, name: &[u8]) {
        let mut end = Vec::with_capacity(name.len() + 2);
        end.extend_from_slice(b"</");
        end.extend_from_slice(name);
        while let Some(offset) = find(&self.bytes[self.at..], b"</") {
            let start = self.at + offset;
            let candidate = self.bytes.get(start..start + end.len());
            let after = self.bytes.get(start + end.len()).copied();
            if candidate.is_some_and(|c| c.eq_ignore_ascii_case(&end))
                && after.is_none_or(|c| is_space(c) || c == b'/' || c == b'>')
            {
                self.at = start;
                return;
            }
            self.at = start + 2;
        }
        self.at = self.bytes.len();
    }
}

/// A tag name, lower-cased, kept inline: longer names are cut to their first [`Name::MAX`]
/// bytes, which no name the rules single out reaches, so only the depth estimate of long custom
/// element names that share a prefix is blurred.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Name {
    bytes: [u8; Name::MAX],
    len: u8,
}

impl Name {
    const MAX: usize = 24;

    fn new(raw: &[u8]) -> Name {
        let len = raw.len().min(Name::MAX);
        let mut bytes = [0; Name::MAX];
        for (to, from) in bytes.iter_mut().zip(&raw[..len]) {
            *to = from.to_ascii_lowercase();
        }
        Name {
            bytes,
            len: len as u8,
        }
    }

    fn as_slice(&self) -> &[u8] {
        &self.bytes[..usize::from(self.len)]
    }
}

fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c')
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    match needle {
        [single] => memchr::memchr(*single, haystack),
        _ => memchr::memmem::find(haystack, needle),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn depth(html: &str) -> usize {
        take(html, 1000).depth
    }

    #[test]
    fn elements_and_attributes_are_counted_outside_comments_and_scripts() {
        let html = r#"<!doctype html><html><head><title>a <b> c</title>
<script>if (a < b) { document.write("<div x y z>"); }</script></head>
<body><!-- <p a b c> --><p class="x" id='y' hidden data-a=1>t</p><img src="a>b.png"></body></html>"#;
        let census = take(html, 100);
        // html, head, title, script, body, p, img
        assert_eq!(census.elements, 7);
        assert_eq!(census.attributes, 5);
        assert_eq!(census.busiest_tag, 4);
    }

    #[test]
    fn nesting_follows_the_commonest_tree_building_rules() {
        let table = [
            ("<p>a", 3),
            ("<div><div><div>x</div></div></div>", 5),
            ("<b><b><b><b>x", 6),
            // Unclosed paragraphs, list items and cells end at the next one.
            ("<p>a<p>b<p>c<p>d", 3),
            ("<ul><li>a<li>b<li>c</ul>", 4),
            ("<table><tr><td>a<td>b<tr><td>c</table>", 5),
            ("<ul><li><ul><li>x</ul></ul>", 6),
            ("<dl><dt>a<dd>b<dt>c<dd>d</dl>", 4),
            // Void elements never hold anything; end tags close what they name.
            ("<br><br><img><hr><input>", 2),
            ("<div><span></div><div>x", 4),
            ("<svg><path/><path/><g/></svg>", 3),
            ("<h1>a<h2>b", 3),
            // Found by the fuzzer: inside foreign content `<style>` holds markup.
            ("<svg><style><i><i><i>", 7),
        ];
        for (html, expected) in table {
            assert_eq!(depth(html), expected, "{html}");
        }
    }

    #[test]
    fn depth_stops_counting_past_the_cap() {
        let html = "<div>".repeat(100_000);
        let census = take(&html, 256);
        assert_eq!(census.depth, 257);
        assert_eq!(census.elements, 100_000);
    }

    #[test]
    fn one_tag_with_many_attributes_is_measured_in_linear_time() {
        let names: Vec<String> = (0..200_000).map(|i| format!("a{i}")).collect();
        let html = format!("<div {}>x</div>", names.join(" "));
        let census = take(&html, 256);
        assert_eq!(census.busiest_tag, 200_000);
        assert_eq!(census.elements, 1);
    }

    #[test]
    fn attributes_on_end_tags_count_for_the_busiest_tag() {
        let census = take("<p>x</p a b c d>", 10);
        assert_eq!(census.busiest_tag, 4);
    }

    #[test]
    fn truncated_markup_ends_the_scan_without_a_panic() {
        for html in [
            "<",
            "<a",
            "<a href",
            "<a href=",
            "<a href=\"x",
            "</",
            "</a",
            "<!--",
            "<!",
            "<?x",
            "<script>",
            "<script>x</scr",
            "<a/",
            "<a =x>",
            "<p\u{e9}>",
        ] {
            let _ = take(html, 10);
        }
    }
}
