//! One line of text for an error and its causes, for verdict details and logs.

/// `err` and its sources, joined by `: ` (what `{:#}` prints for anyhow). A source whose message
/// repeats the one before it is left out: HTTP and TLS clients often wrap an error in another
/// that says the same thing, and a verdict's detail should say it once.
pub fn error_chain(err: &(dyn std::error::Error + 'static)) -> String {
    let mut parts = vec![err.to_string()];
    let mut current = err.source();
    while let Some(cause) = current {
        let text = cause.to_string();
        if parts.last() != Some(&text) {
            parts.push(text);
        }
        current = cause.source();
    }
    parts.join(": ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, thiserror::Error)]
    #[error("{0}")]
    struct Layer(&'static str, #[source] Option<Box<Layer>>);

    #[test]
    fn causes_follow_their_error_and_a_repeated_message_is_said_once() {
        let inner = Layer("connection refused", None);
        let same = Layer("connection refused", Some(Box::new(inner)));
        let outer = Layer("fetching the page", Some(Box::new(same)));
        assert_eq!(error_chain(&outer), "fetching the page: connection refused");
        assert_eq!(error_chain(&Layer("alone", None)), "alone");
    }
}
