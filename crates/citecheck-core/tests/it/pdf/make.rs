//! PDFs the tests make themselves (no file from elsewhere): pages of lines in a standard font,
//! with ligature glyphs and soft hyphens where the text asks for them, optionally encrypted, or
//! with no text layer at all, or with a content stream that inflates without bound.

use std::io::Write;

use flate2::write::ZlibEncoder;
use flate2::Compression;
use lopdf::content::{Content, Operation};
use lopdf::{
    dictionary, Document, EncryptionState, EncryptionVersion, Object, Permissions, Stream,
};

/// The codes the test font maps to ligature glyphs (through `/Differences`).
const LIGATURES: [(char, u8, &str); 3] = [('ﬁ', 0x80, "fi"), ('ﬂ', 0x81, "fl"), ('ﬃ', 0x82, "ffi")];

/// A PDF whose pages hold `pages`' lines, top to bottom, one text line each.
pub fn pdf(pages: &[Vec<String>]) -> Vec<u8> {
    save(document(pages))
}

/// A PDF like [`pdf`] that opens only with `user_password`.
pub fn encrypted_pdf(pages: &[Vec<String>], user_password: &str) -> Vec<u8> {
    let mut doc = document(pages);
    let id = Object::string_literal(b"citecheck-test-id".to_vec());
    doc.trailer.set("ID", vec![id.clone(), id]);
    let state = EncryptionState::try_from(EncryptionVersion::V2 {
        document: &doc,
        owner_password: "owner",
        user_password,
        key_length: 128,
        permissions: Permissions::all(),
    })
    .expect("an encryption state");
    doc.encrypt(&state).expect("the document encrypts");
    save(doc)
}

/// A scan: `pages` pages that each show an image, with `caption(page)` (if any) as their only
/// text, as a scanner's page number or a stray OCR word.
pub fn scan_pdf(pages: usize, caption: impl Fn(usize) -> Option<String>) -> Vec<u8> {
    save(document_with(pages, true, |i| {
        let mut operations = vec![
            Operation::new("q", vec![]),
            Operation::new(
                "cm",
                vec![
                    400.into(),
                    0.into(),
                    0.into(),
                    600.into(),
                    72.into(),
                    72.into(),
                ],
            ),
            Operation::new("Do", vec!["Im1".into()]),
            Operation::new("Q", vec![]),
        ];
        if let Some(caption) = caption(i) {
            operations.extend(lines_content(&[caption]).operations);
        }
        Content { operations }
    }))
}

/// A one-page PDF whose content stream inflates to `inflated` bytes of spaces.
pub fn bomb_pdf(inflated: usize) -> Vec<u8> {
    let mut doc = document(&[vec!["A page before the bomb.".to_string()]]);
    let mut encoder = ZlibEncoder::new(Vec::new(), Compression::best());
    let chunk = vec![b' '; 1 << 16];
    let mut left = inflated;
    while left > 0 {
        let n = left.min(chunk.len());
        encoder.write_all(&chunk[..n]).expect("compress");
        left -= n;
    }
    let compressed = encoder.finish().expect("compress");
    let stream = Stream::new(dictionary! { "Filter" => "FlateDecode" }, compressed);
    let stream_id = doc.add_object(stream);
    let page_id = *doc.get_pages().values().next().expect("a page");
    doc.get_object_mut(page_id)
        .and_then(Object::as_dict_mut)
        .expect("the page dictionary")
        .set("Contents", stream_id);
    save(doc)
}

/// `text` in the test font's encoding: WinAnsi for Latin-1 letters (soft hyphen included), the
/// `/Differences` codes for ligatures.
fn encode(text: &str) -> Vec<u8> {
    text.chars()
        .map(|c| match LIGATURES.iter().find(|(lig, _, _)| *lig == c) {
            Some((_, code, _)) => *code,
            None => u8::try_from(u32::from(c)).unwrap_or(b'?'),
        })
        .collect()
}

fn lines_content(lines: &[String]) -> Content {
    let mut operations = vec![
        Operation::new("BT", vec![]),
        Operation::new("Tf", vec!["F1".into(), 10.into()]),
        Operation::new("TL", vec![13.into()]),
        Operation::new("Td", vec![56.into(), 800.into()]),
    ];
    for line in lines {
        operations.push(Operation::new(
            "Tj",
            vec![Object::String(encode(line), lopdf::StringFormat::Literal)],
        ));
        operations.push(Operation::new("T*", vec![]));
    }
    operations.push(Operation::new("ET", vec![]));
    Content { operations }
}

fn document(pages: &[Vec<String>]) -> Document {
    document_with(pages.len(), false, |i| lines_content(&pages[i]))
}

fn document_with(count: usize, image: bool, content: impl Fn(usize) -> Content) -> Document {
    let mut doc = Document::with_version("1.5");
    let pages_id = doc.new_object_id();
    let differences: Vec<Object> = std::iter::once(Object::Integer(0x80))
        .chain(
            LIGATURES
                .iter()
                .map(|(_, _, name)| Object::Name(name.as_bytes().to_vec())),
        )
        .collect();
    let font_id = doc.add_object(dictionary! {
        "Type" => "Font",
        "Subtype" => "Type1",
        "BaseFont" => "Helvetica",
        "Encoding" => dictionary! {
            "Type" => "Encoding",
            "BaseEncoding" => "WinAnsiEncoding",
            "Differences" => differences,
        },
    });
    let mut resources = dictionary! {
        "Font" => dictionary! { "F1" => font_id },
    };
    if image {
        // A 2x2 grey image: what a scanner's page is, in miniature.
        let pixels = Stream::new(
            dictionary! {
                "Type" => "XObject",
                "Subtype" => "Image",
                "Width" => 2,
                "Height" => 2,
                "ColorSpace" => "DeviceGray",
                "BitsPerComponent" => 8,
            },
            vec![0, 255, 255, 0],
        );
        let image_id = doc.add_object(pixels);
        resources.set("XObject", dictionary! { "Im1" => image_id });
    }
    let resources_id = doc.add_object(resources);
    let mut kids = Vec::new();
    for i in 0..count {
        let bytes = content(i).encode().expect("content encodes");
        let content_id = doc.add_object(Stream::new(dictionary! {}, bytes));
        let page_id = doc.add_object(dictionary! {
            "Type" => "Page",
            "Parent" => pages_id,
            "Contents" => content_id,
        });
        kids.push(Object::Reference(page_id));
    }
    doc.objects.insert(
        pages_id,
        Object::Dictionary(dictionary! {
            "Type" => "Pages",
            "Kids" => kids,
            "Count" => i64::try_from(count).expect("few pages"),
            "Resources" => resources_id,
            "MediaBox" => vec![0.into(), 0.into(), 595.into(), 842.into()],
        }),
    );
    let catalog_id = doc.add_object(dictionary! {
        "Type" => "Catalog",
        "Pages" => pages_id,
    });
    doc.trailer.set("Root", catalog_id);
    doc.compress();
    doc
}

fn save(mut doc: Document) -> Vec<u8> {
    let mut bytes = Vec::new();
    doc.save_to(&mut bytes).expect("the PDF saves");
    bytes
}
