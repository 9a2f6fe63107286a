//! PDFs: reading generated documents (text, ligatures, hyphenation, running headers, passwords,
//! scans, bombs), hostile input, the real samples in `../shared/pdf_samples`, and PDFs fetched
//! from a site on 127.0.0.1 and verified end to end.

mod fetch;
mod hostile;
mod make;
mod read;
mod samples;

/// Lines as owned strings.
pub fn lines(texts: &[&str]) -> Vec<String> {
    texts.iter().map(|t| t.to_string()).collect()
}

/// A three-page paper with a running header and page numbers, a ligature in a word, and words
/// hyphenated across line ends; its sentences are [`PAPER_SENTENCES`].
pub fn paper() -> Vec<Vec<String>> {
    vec![
        lines(&[
            "Proceedings of the Workshop on Tracing, 2009",
            "Tracing just-in-time compilers record the hot loops of a",
            "program and compile each recorded trace into machine code.",
            "The recorder specia-",
            "lizes every trace to the types it observed at run time.",
            "1",
        ]),
        lines(&[
            "Proceedings of the Workshop on Tracing, 2009",
            "On the benchmark suite the tracing compiler ran the e\u{FB03}cient",
            "loops up to seven times faster than the baseline interpreter.",
            "2",
        ]),
        lines(&[
            "Proceedings of the Workshop on Tracing, 2009",
            "Type-unstable loops, whose variables change type between iter-",
            "ations, fall back to the interpreter and gain nothing from tracing.",
            "3",
        ]),
    ]
}

/// Sentences of [`paper`] as a reader sees them.
pub const PAPER_SENTENCES: [&str; 4] = [
    "The recorder specializes every trace to the types it observed at run time.",
    "On the benchmark suite the tracing compiler ran the efficient loops up to seven times \
     faster than the baseline interpreter.",
    "Type-unstable loops, whose variables change type between iterations, fall back to the \
     interpreter and gain nothing from tracing.",
    "Tracing just-in-time compilers record the hot loops of a program and compile each \
     recorded trace into machine code.",
];
