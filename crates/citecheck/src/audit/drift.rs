//! Drift: has a cited page changed since the audit index last held a verdict for its URL?
//!
//! Takes a verdict about to be recorded; sets each citation's `previously_seen` (when the index
//! last recorded a verdict for the same URL) and `changed_since` (whether the page's content
//! hash differs from the one recorded then). Each distinct URL costs one lookup on the
//! `(url, recorded_at)` index; must run before the new rows are written, or it finds them.

use anyhow::Context;
use citecheck_core::ClaimVerdict;
use rusqlite::{params, OptionalExtension};

use super::AuditStore;

/// The last verdict the index holds for a URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LastSeen {
    pub recorded_at: String,
    /// The page's content hash then; `None` when no page was read (a dead link).
    pub content_sha256: Option<String>,
}

/// The one query: the newest row for a URL, found through `citations_url`.
pub(super) const LAST_SEEN_SQL: &str = "SELECT recorded_at, content_sha256 FROM citations \
     WHERE url = ?1 ORDER BY recorded_at DESC, id DESC LIMIT 1";

impl AuditStore {
    /// The last verdict recorded for `url`, if any. Blocking.
    pub fn last_seen_blocking(&self, url: &str) -> anyhow::Result<Option<LastSeen>> {
        let conn = self.lock();
        let mut statement = conn.prepare_cached(LAST_SEEN_SQL)?;
        statement
            .query_row(params![url], |row| {
                Ok(LastSeen {
                    recorded_at: row.get(0)?,
                    content_sha256: row.get(1)?,
                })
            })
            .optional()
            .with_context(|| format!("looking up earlier verdicts for {url}"))
    }

    /// Sets `previously_seen` and `changed_since` on every citation of `verdict` whose URL the
    /// index already holds. Blocking.
    pub fn annotate_drift_blocking(&self, verdict: &mut ClaimVerdict) -> anyhow::Result<()> {
        let mut seen: Vec<(String, Option<LastSeen>)> = Vec::new();
        for citation in &mut verdict.citations {
            let last = match seen.iter().find(|(url, _)| *url == citation.url) {
                Some((_, last)) => last.clone(),
                None => {
                    let last = self.last_seen_blocking(&citation.url)?;
                    seen.push((citation.url.clone(), last.clone()));
                    last
                }
            };
            let Some(last) = last else {
                continue;
            };
            let now = citation
                .meta
                .as_ref()
                .and_then(|m| m.content_sha256.as_deref());
            citation.follow_up.previously_seen = Some(last.recorded_at.clone());
            citation.follow_up.changed_since = changed(last.content_sha256.as_deref(), now);
        }
        Ok(())
    }

    /// [`AuditStore::annotate_drift_blocking`] on tokio's blocking pool. A failed lookup is
    /// logged and leaves the verdict as it was: drift is a courtesy, not part of the verdict.
    pub async fn annotate_drift(&self, verdict: ClaimVerdict) -> ClaimVerdict {
        let store = self.clone();
        let original = verdict.clone();
        let annotated = tokio::task::spawn_blocking(move || {
            let mut verdict = verdict;
            store
                .annotate_drift_blocking(&mut verdict)
                .map(|()| verdict)
        })
        .await;
        match annotated {
            Ok(Ok(verdict)) => verdict,
            Ok(Err(err)) => {
                tracing::warn!(error = %format!("{err:#}"), "drift not checked");
                original
            }
            Err(err) => {
                tracing::warn!(error = %err, "drift task failed");
                original
            }
        }
    }
}

/// Whether the content changed: a different hash, or a page now where there was none (or the
/// reverse); unknown when neither time read a page.
pub fn changed(then: Option<&str>, now: Option<&str>) -> Option<bool> {
    match (then, now) {
        (None, None) => None,
        (then, now) => Some(then != now),
    }
}

#[cfg(test)]
mod tests {
    use citecheck_core::{Label, Reason, UrlVerdict, VerdictMeta};

    use super::*;
    use crate::audit::RunInfo;

    fn judged(url: &str, hash: &str) -> UrlVerdict {
        let mut v = UrlVerdict::without_judge(url, Label::Supported, Reason::Soft404);
        v.reason = None;
        v.meta = Some(VerdictMeta {
            content_sha256: Some(hash.into()),
            ..VerdictMeta::default()
        });
        v
    }

    fn claim(citations: Vec<UrlVerdict>) -> ClaimVerdict {
        ClaimVerdict {
            claim: "c".into(),
            overall: Label::Supported,
            citations,
        }
    }

    #[test]
    fn a_url_seen_before_says_when_and_whether_its_page_changed() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = AuditStore::open(dir.path().join("a.sqlite3")).expect("opens");
        let first = claim(vec![
            judged("https://a.example/x", "h1"),
            judged("https://a.example/y", "h2"),
        ]);
        store
            .record_blocking(&first, &RunInfo::new("verify"))
            .expect("recorded");

        let mut again = claim(vec![
            judged("https://a.example/x", "h1"),
            judged("https://a.example/y", "h3"),
            judged("https://a.example/new", "h4"),
            UrlVerdict::without_judge("https://a.example/y", Label::Unreachable, Reason::Http(404)),
        ]);
        store
            .annotate_drift_blocking(&mut again)
            .expect("looked up");
        let f = |i: usize| &again.citations[i].follow_up;
        assert!(f(0).previously_seen.is_some());
        assert_eq!(f(0).changed_since, Some(false));
        assert_eq!(f(1).changed_since, Some(true));
        assert_eq!(f(2).previously_seen, None, "never seen");
        assert_eq!(f(2).changed_since, None);
        assert_eq!(f(3).changed_since, Some(true), "the page is gone now");
    }

    #[test]
    fn the_lookup_is_one_search_on_the_url_index() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = AuditStore::open(dir.path().join("a.sqlite3")).expect("opens");
        let conn = store.lock();
        let plan: Vec<String> = conn
            .prepare(&format!("EXPLAIN QUERY PLAN {LAST_SEEN_SQL}"))
            .expect("plans")
            .query_map(params!["https://a.example/x"], |row| {
                row.get::<_, String>(3)
            })
            .expect("runs")
            .collect::<Result<_, _>>()
            .expect("rows");
        assert_eq!(plan.len(), 1, "{plan:?}");
        assert!(
            plan[0].contains("SEARCH") && plan[0].contains("citations_url"),
            "{plan:?}"
        );
    }

    #[test]
    fn changes_are_told_from_hashes() {
        assert_eq!(changed(Some("a"), Some("a")), Some(false));
        assert_eq!(changed(Some("a"), Some("b")), Some(true));
        assert_eq!(changed(None, Some("b")), Some(true));
        assert_eq!(changed(None, None), None);
    }
}
