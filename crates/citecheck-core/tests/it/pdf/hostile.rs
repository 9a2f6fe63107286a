//! Corrupted and hostile PDFs: truncated, bytes overwritten, ranges cut out. Whatever the damage,
//! `pdf::read` answers (text or a typed error), never panics, and finishes: a worker that has not
//! answered well after its own deadline has hung.

use std::sync::mpsc;
use std::time::Duration;

use citecheck_core::pdf::{self, PdfLimits};
use proptest::prelude::*;

use super::{make, paper};

/// The longest wait for an answer: the read's own budget plus slack for a loaded machine.
const LIMITS: PdfLimits = PdfLimits {
    timeout: Duration::from_secs(5),
    max_stream_bytes: 4 * 1024 * 1024,
    max_pages: 50,
};
const GRACE: Duration = Duration::from_secs(30);

#[derive(Debug, Clone)]
enum Damage {
    Truncate(usize),
    Overwrite(Vec<(usize, u8)>),
    CutOut(usize, usize),
}

fn damage() -> impl Strategy<Value = Damage> {
    prop_oneof![
        any::<usize>().prop_map(Damage::Truncate),
        proptest::collection::vec((any::<usize>(), any::<u8>()), 1..16).prop_map(Damage::Overwrite),
        (any::<usize>(), 1usize..2048).prop_map(|(at, len)| Damage::CutOut(at, len)),
    ]
}

fn apply(mut bytes: Vec<u8>, damage: &Damage) -> Vec<u8> {
    let len = bytes.len();
    match damage {
        Damage::Truncate(at) => bytes.truncate(at % len),
        Damage::Overwrite(changes) => {
            for (at, byte) in changes {
                bytes[at % len] = *byte;
            }
        }
        Damage::CutOut(at, n) => {
            let at = at % len;
            bytes.drain(at..(at + n).min(len));
        }
    }
    bytes
}

/// Reads `bytes` on another thread; `None` when it neither answered nor panicked in time.
fn answers(bytes: Vec<u8>) -> Option<std::thread::Result<bool>> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let outcome = std::panic::catch_unwind(|| pdf::read(&bytes, &LIMITS).is_ok());
        let _ = tx.send(outcome);
    });
    rx.recv_timeout(LIMITS.timeout + GRACE).ok()
}

fn originals() -> Vec<Vec<u8>> {
    vec![
        make::pdf(&paper()),
        make::encrypted_pdf(&paper(), ""),
        make::bomb_pdf(256 * 1024),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn damaged_pdfs_never_panic_or_hang(which in 0usize..3, damage in damage()) {
        let bytes = apply(originals().swap_remove(which), &damage);
        match answers(bytes) {
            None => prop_assert!(false, "no answer after {:?}", LIMITS.timeout + GRACE),
            Some(Err(_)) => prop_assert!(false, "pdf::read panicked"),
            Some(Ok(_)) => {}
        }
    }
}
