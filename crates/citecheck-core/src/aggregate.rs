//! Per-claim aggregation: a fixed rule over the citations' labels, never another model call.
//!
//! One contradiction outweighs every support; otherwise any support carries the claim; the claim
//! is `unreachable` only when every citation is; every other mix, the empty list included, is
//! `not_found`. Confidence plays no part.

use crate::model::Label;

/// The claim's overall label from its citations' labels.
pub fn claim_label<I>(labels: I) -> Label
where
    I: IntoIterator<Item = Label>,
{
    let mut any = false;
    let mut all_unreachable = true;
    let mut supported = false;
    for label in labels {
        any = true;
        match label {
            Label::Contradicted => return Label::Contradicted,
            Label::Supported => supported = true,
            Label::Unreachable => {}
            Label::NotFound => {}
        }
        all_unreachable &= label == Label::Unreachable;
    }
    if supported {
        Label::Supported
    } else if any && all_unreachable {
        Label::Unreachable
    } else {
        Label::NotFound
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Label::*;

    #[test]
    fn the_rule_holds_for_every_mix() {
        let table: &[(&[Label], Label)] = &[
            (&[], NotFound),
            (&[Supported], Supported),
            (&[Supported, Contradicted], Contradicted),
            (&[Contradicted, Supported, Supported], Contradicted),
            (&[Supported, Unreachable], Supported),
            (&[Supported, NotFound], Supported),
            (&[Unreachable], Unreachable),
            (&[Unreachable, Unreachable], Unreachable),
            (&[Unreachable, NotFound], NotFound),
            (&[NotFound], NotFound),
            (&[Unreachable, Contradicted], Contradicted),
        ];
        for (labels, expected) in table {
            assert_eq!(claim_label(labels.iter().copied()), *expected, "{labels:?}");
        }
    }
}
