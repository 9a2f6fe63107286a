//! A claim's act that the sentence only has in prospect (pure): "the festival was in talks to
//! move to the arts centre" does not state that "the festival will move to the arts centre",
//! nor "the council is considering closing the library" that it "will close". The sentence may
//! still show the page is about the claim; it cannot support it.

use std::sync::OnceLock;

use super::analyse::Analysis;
use super::lex::forms_of;
use super::lexicon::PROSPECTS;

/// Normalised forms of each frame in [`PROSPECTS`].
fn frames() -> &'static [Vec<String>] {
    static FRAMES: OnceLock<Vec<Vec<String>>> = OnceLock::new();
    FRAMES.get_or_init(|| PROSPECTS.iter().map(|frame| forms_of(frame)).collect())
}

/// The claim's act (its normalised verb) that the sentence frames as a prospect, when the claim
/// itself frames nothing so: a claim that says "could" or "in talks" is stated by such a sentence.
pub fn act_in_prospect(claim: &Analysis, sentence: &Analysis) -> Option<String> {
    let framed_at = |text: &Analysis, end: usize| {
        frames().iter().any(|frame| {
            end >= frame.len()
                && frame
                    .iter()
                    .zip(end - frame.len()..end)
                    .all(|(word, at)| text.form(at) == Some(word.as_str()))
        })
    };
    // The sentence first: few have a frame at all, so the claim's own framing is seldom read.
    let act = (1..sentence.forms.len())
        .filter(|&at| framed_at(sentence, at))
        .filter_map(|at| sentence.form(at))
        .find(|form| claim.is_content(form))?;
    if (0..=claim.forms.len()).any(|end| framed_at(claim, end)) {
        return None;
    }
    Some(act.to_string())
}
