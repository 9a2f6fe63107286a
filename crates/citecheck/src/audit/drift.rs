//! Drift: the last verdict the audit index holds for a URL, so the verifier can say whether a
//! cited page changed since (`previously_seen`, `changed_since`).
//!
//! Takes a URL; gives when its newest row was recorded and the page's content hash then. One
//! lookup on the `(url, recorded_at)` index per URL.

use anyhow::Context;
use citecheck_core::store::LastSeen;
use rusqlite::{params, OptionalExtension};

use super::AuditStore;

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

    /// [`AuditStore::last_seen_blocking`] on tokio's blocking pool.
    pub async fn last_seen(&self, url: &str) -> anyhow::Result<Option<LastSeen>> {
        let store = self.clone();
        let url = url.to_string();
        tokio::task::spawn_blocking(move || store.last_seen_blocking(&url))
            .await
            .context("the audit reader task failed")?
    }
}

#[cfg(test)]
mod tests {
    use citecheck_core::{ClaimVerdict, Label, Reason, UrlVerdict, VerdictMeta};

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

    #[test]
    fn the_newest_row_for_a_url_is_found() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = AuditStore::open(dir.path().join("a.sqlite3")).expect("opens");
        for hash in ["h1", "h2"] {
            let verdict = ClaimVerdict {
                claim: "c".into(),
                overall: Label::Supported,
                citations: vec![judged("https://a.example/x", hash)],
            };
            store
                .record_blocking(&verdict, &RunInfo::new("verify"))
                .expect("recorded");
        }
        let last = store
            .last_seen_blocking("https://a.example/x")
            .expect("looked up")
            .expect("seen");
        assert_eq!(last.content_sha256.as_deref(), Some("h2"));
        assert_eq!(last.changed(Some("h2")), Some(false));
        assert_eq!(last.changed(Some("h3")), Some(true));
        assert_eq!(
            store
                .last_seen_blocking("https://a.example/new")
                .expect("looked up"),
            None
        );
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
}
