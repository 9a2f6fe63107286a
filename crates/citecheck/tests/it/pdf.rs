//! A PDF through the binary (issue 17): `verify` reads a generated PDF served from 127.0.0.1,
//! the evidence store keeps its extracted text, and `replay` shows the quote in that text.

use lopdf::content::{Content, Operation};
use lopdf::{dictionary, Document, Object, Stream};

use crate::batch_support::citecheck;

const SENTENCES: [&str; 3] = [
    "The harbour bridge opened to traffic in March 1932 after eight years of work.",
    "Its arch spans five hundred and three metres between the two pylons.",
    "About one hundred and sixty thousand vehicles cross it on an ordinary weekday.",
];

/// A one-page PDF showing `lines` in Helvetica, one line each.
fn pdf(lines: &[&str]) -> Vec<u8> {
    let mut doc = Document::with_version("1.5");
    let pages_id = doc.new_object_id();
    let font_id = doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Helvetica",
        "Encoding" => "WinAnsiEncoding",
    });
    let mut operations = vec![
        Operation::new("BT", vec![]),
        Operation::new("Tf", vec!["F1".into(), 11.into()]),
        Operation::new("TL", vec![14.into()]),
        Operation::new("Td", vec![56.into(), 780.into()]),
    ];
    for line in lines {
        operations.push(Operation::new("Tj", vec![Object::string_literal(*line)]));
        operations.push(Operation::new("T*", vec![]));
    }
    operations.push(Operation::new("ET", vec![]));
    let content = Content { operations }.encode().expect("content encodes");
    let content_id = doc.add_object(Stream::new(dictionary! {}, content));
    let page_id = doc.add_object(dictionary! {
        "Type" => "Page", "Parent" => pages_id, "Contents" => content_id,
        "Resources" => dictionary! { "Font" => dictionary! { "F1" => font_id } },
    });
    doc.objects.insert(
        pages_id,
        Object::Dictionary(dictionary! {
            "Type" => "Pages", "Kids" => vec![page_id.into()], "Count" => 1,
            "MediaBox" => vec![0.into(), 0.into(), 595.into(), 842.into()],
        }),
    );
    let catalog_id = doc.add_object(dictionary! { "Type" => "Catalog", "Pages" => pages_id });
    doc.trailer.set("Root", catalog_id);
    let mut bytes = Vec::new();
    doc.save_to(&mut bytes).expect("the PDF saves");
    bytes
}

#[tokio::test]
async fn a_pdf_is_verified_and_replay_shows_its_extracted_text() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().join("site");
    std::fs::create_dir_all(root.join("reports")).expect("site dir");
    std::fs::write(root.join("reports/bridge.pdf"), pdf(&SENTENCES)).expect("the PDF");
    let site = citecheck::static_site::StaticSite::serve(&root)
        .await
        .expect("site starts");
    let url = format!(
        "{}/reports/bridge.pdf",
        site.base_url().trim_end_matches('/')
    );
    let home = dir.path().to_path_buf();

    let verify = {
        let (home, url) = (home.clone(), url.clone());
        tokio::task::spawn_blocking(move || {
            citecheck(&home)
                .args([
                    "verify",
                    "--ranker",
                    "lexical",
                    "--claim",
                    SENTENCES[1],
                    &url,
                ])
                .output()
                .expect("runs")
        })
        .await
        .expect("joined")
    };
    let verdict: serde_json::Value = serde_json::from_slice(&verify.stdout)
        .unwrap_or_else(|_| panic!("JSON: {}", String::from_utf8_lossy(&verify.stderr)));
    let citation = &verdict["citations"][0];
    assert_eq!(verify.status.code(), Some(0), "{verdict}");
    assert_eq!(citation["label"], "supported", "{verdict}");
    assert_eq!(citation["evidence_quote"], SENTENCES[1], "{verdict}");
    let rid = citation["rid"].as_str().expect("a rid").to_string();

    let replay = tokio::task::spawn_blocking(move || {
        citecheck(&home)
            .args(["replay", &rid, "--quote", SENTENCES[1]])
            .output()
            .expect("runs")
    })
    .await
    .expect("joined");
    let page = String::from_utf8_lossy(&replay.stdout);
    assert_eq!(replay.status.code(), Some(0), "{page}");
    assert!(page.contains(&format!(">>>{}<<<", SENTENCES[1])), "{page}");
    assert!(
        page.contains(SENTENCES[0]) && page.contains(SENTENCES[2]),
        "{page}"
    );
}
