//! Filters over the audit index, turned into one parameterised SQL query (user text never
//! becomes SQL), and time bounds as people type them.

use std::time::{Duration, SystemTime};

use rusqlite::types::Value;
use rusqlite::Row;

use super::{format_time, AuditRow};
use crate::config::ConfigError;

/// Which rows to read. Empty fields do not filter.
#[derive(Debug, Clone, Default)]
pub struct AuditFilter {
    pub id: Option<i64>,
    /// Any of these labels.
    pub labels: Vec<String>,
    /// Any of these reasons.
    pub reasons: Vec<String>,
    /// Case-insensitive substring of the claim.
    pub claim_contains: Option<String>,
    /// Case-insensitive substring of the cited or final URL.
    pub url_contains: Option<String>,
    /// Inclusive lower bound on `recorded_at` (RFC 3339, UTC, seconds).
    pub since: Option<String>,
    /// Exclusive upper bound on `recorded_at`.
    pub until: Option<String>,
    pub run_id: Option<String>,
    pub limit: Option<usize>,
    pub oldest_first: bool,
}

impl AuditFilter {
    pub(super) fn to_sql(&self) -> (String, Vec<Value>) {
        let mut clauses: Vec<String> = Vec::new();
        let mut values: Vec<Value> = Vec::new();
        let bind = |values: &mut Vec<Value>, value: Value| {
            values.push(value);
            format!("?{}", values.len())
        };
        if let Some(id) = self.id {
            let p = bind(&mut values, Value::Integer(id));
            clauses.push(format!("id = {p}"));
        }
        for (column, wanted) in [("label", &self.labels), ("reason", &self.reasons)] {
            if !wanted.is_empty() {
                let marks: Vec<String> = wanted
                    .iter()
                    .map(|w| bind(&mut values, Value::Text(w.clone())))
                    .collect();
                clauses.push(format!("{column} IN ({})", marks.join(", ")));
            }
        }
        if let Some(text) = &self.claim_contains {
            let p = bind(&mut values, Value::Text(like_pattern(text)));
            clauses.push(format!("claim LIKE {p} ESCAPE '\\'"));
        }
        if let Some(text) = &self.url_contains {
            let p = bind(&mut values, Value::Text(like_pattern(text)));
            clauses.push(format!(
                "(url LIKE {p} ESCAPE '\\' OR final_url LIKE {p} ESCAPE '\\')"
            ));
        }
        if let Some(since) = &self.since {
            let p = bind(&mut values, Value::Text(since.clone()));
            clauses.push(format!("recorded_at >= {p}"));
        }
        if let Some(until) = &self.until {
            let p = bind(&mut values, Value::Text(until.clone()));
            clauses.push(format!("recorded_at < {p}"));
        }
        if let Some(run) = &self.run_id {
            let p = bind(&mut values, Value::Text(run.clone()));
            clauses.push(format!("run_id = {p}"));
        }
        let mut sql = format!("SELECT {} FROM citations", COLUMN_NAMES.join(", "));
        if !clauses.is_empty() {
            sql.push_str(" WHERE ");
            sql.push_str(&clauses.join(" AND "));
        }
        sql.push_str(if self.oldest_first {
            " ORDER BY id ASC"
        } else {
            " ORDER BY id DESC"
        });
        if let Some(limit) = self.limit {
            let p = bind(
                &mut values,
                Value::Integer(limit.min(i64::MAX as usize) as i64),
            );
            sql.push_str(&format!(" LIMIT {p}"));
        }
        (sql, values)
    }
}

/// The columns of [`AuditRow`], in order (also the CSV header of `citecheck audit`).
pub const COLUMN_NAMES: [&str; 29] = [
    "id",
    "recorded_at",
    "source",
    "run_id",
    "claim_id",
    "claim",
    "overall",
    "url",
    "final_url",
    "label",
    "reason",
    "confidence",
    "evidence_quote",
    "original_status",
    "rid",
    "fetcher",
    "judge_provider",
    "judge_model",
    "prompt_version",
    "content_sha256",
    "fetched_at",
    "detail",
    "input_tokens",
    "output_tokens",
    "crawl_cost",
    "evidence_url",
    "evidence_start",
    "evidence_end",
    "archive",
];

/// `%text%` for LIKE (case-insensitive for ASCII), with LIKE's wildcards escaped.
fn like_pattern(text: &str) -> String {
    let mut pattern = String::with_capacity(text.len() + 2);
    pattern.push('%');
    for c in text.chars() {
        if matches!(c, '%' | '_' | '\\') {
            pattern.push('\\');
        }
        pattern.push(c);
    }
    pattern.push('%');
    pattern
}

pub(super) fn row_from_sql(row: &Row<'_>) -> anyhow::Result<AuditRow> {
    Ok(AuditRow {
        id: row.get(0)?,
        recorded_at: row.get(1)?,
        source: row.get(2)?,
        run_id: row.get(3)?,
        claim_id: row.get(4)?,
        claim: row.get(5)?,
        overall: row.get(6)?,
        url: row.get(7)?,
        final_url: row.get(8)?,
        label: row.get(9)?,
        reason: row.get(10)?,
        confidence: row.get(11)?,
        evidence_quote: row.get(12)?,
        original_status: row.get(13)?,
        rid: row.get(14)?,
        fetcher: row.get(15)?,
        judge_provider: row.get(16)?,
        judge_model: row.get(17)?,
        prompt_version: row.get(18)?,
        content_sha256: row.get(19)?,
        fetched_at: row.get(20)?,
        detail: row.get(21)?,
        input_tokens: row.get::<_, Option<i64>>(22)?.map(|n| n.max(0) as u64),
        output_tokens: row.get::<_, Option<i64>>(23)?.map(|n| n.max(0) as u64),
        crawl_cost: row.get(24)?,
        evidence_url: row.get(25)?,
        evidence_start: row.get::<_, Option<i64>>(26)?.map(|n| n.max(0) as u64),
        evidence_end: row.get::<_, Option<i64>>(27)?.map(|n| n.max(0) as u64),
        archive: row.get(28)?,
    })
}

/// A time bound as people type it: RFC 3339 (`2025-03-01T12:00:00Z`), a date (`2025-03-01`,
/// midnight UTC), or an age (`90m`, `24h`, `7d`: that long before `now`). Returns the stored
/// format.
pub fn parse_time_bound(text: &str, now: SystemTime) -> Result<String, ConfigError> {
    let text = text.trim();
    if let Ok(age) = humantime::parse_duration(text) {
        let at = now.checked_sub(age).unwrap_or(SystemTime::UNIX_EPOCH);
        return Ok(format_time(at));
    }
    let full = if text.len() == 10 && text.as_bytes().get(4) == Some(&b'-') {
        format!("{text}T00:00:00Z")
    } else {
        text.to_string()
    };
    let at = humantime::parse_rfc3339_weak(&full).map_err(|source| ConfigError::NotATime {
        text: text.to_string(),
        source,
    })?;
    // Sub-second precision is not stored; round down so a bound never skips its own second.
    let secs = at
        .duration_since(SystemTime::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    Ok(format_time(
        SystemTime::UNIX_EPOCH + Duration::from_secs(secs),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_bounds_accept_dates_timestamps_and_ages() {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_700_000_000);
        assert_eq!(
            parse_time_bound("2023-11-14", now).expect("date"),
            "2023-11-14T00:00:00Z"
        );
        assert_eq!(
            parse_time_bound("2023-11-14T22:13:20Z", now).expect("timestamp"),
            "2023-11-14T22:13:20Z"
        );
        assert_eq!(
            parse_time_bound("1h", now).expect("age"),
            "2023-11-14T21:13:20Z"
        );
        assert!(parse_time_bound("yesterday-ish", now).is_err());
    }

    #[test]
    fn like_wildcards_in_user_text_are_literal() {
        assert_eq!(like_pattern("50%_a\\"), "%50\\%\\_a\\\\%");
    }

    #[test]
    fn every_filter_becomes_a_bound_parameter() {
        let filter = AuditFilter {
            labels: vec!["supported".into(), "contradicted".into()],
            reasons: vec!["http_404".into()],
            claim_contains: Some("water'; DROP TABLE citations; --".into()),
            url_contains: Some("example".into()),
            since: Some("2025-01-01T00:00:00Z".into()),
            until: Some("2025-02-01T00:00:00Z".into()),
            limit: Some(5),
            ..AuditFilter::default()
        };
        let (sql, values) = filter.to_sql();
        assert!(!sql.contains("DROP"), "{sql}");
        assert_eq!(values.len(), 8);
        assert!(sql.ends_with("ORDER BY id DESC LIMIT ?8"), "{sql}");
    }
}
