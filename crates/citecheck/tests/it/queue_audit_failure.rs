//! A PostgreSQL audit index that refuses a claim's rows: the worker records a claim's result and
//! its audit rows in one transaction, so a refused row leaves that claim pending (not done
//! without its rows, not lost), the worker stops saying which claim and why, the claims it
//! recorded before keep their results and rows, and a later worker finishes the refused claim
//! once the index accepts rows again. The refusal is real: a PL/pgSQL trigger that raises,
//! installed and dropped by the test. Needs the throwaway server scripts/test.sh starts.

use std::collections::BTreeMap;
use std::time::Duration;

use crate::batch_support::write_input;
use crate::queue_support::*;

const REFUSE_C2: &str = "
    CREATE FUNCTION refuse_c2() RETURNS trigger AS $$
    BEGIN
        IF NEW.claim_id = 'c2' THEN
            RAISE EXCEPTION 'audit row refused by the test';
        END IF;
        RETURN NEW;
    END $$ LANGUAGE plpgsql;
    CREATE TRIGGER refuse_c2 BEFORE INSERT ON citecheck_citations
        FOR EACH ROW EXECUTE FUNCTION refuse_c2();";

/// Claim id -> state, for batch `facts`.
async fn states(client: &tokio_postgres::Client) -> BTreeMap<String, String> {
    client
        .query(
            "SELECT id, state FROM citecheck_claims WHERE batch_id = 'facts'",
            &[],
        )
        .await
        .expect("claim states")
        .into_iter()
        .map(|row| (row.get::<_, String>(0), row.get::<_, String>(1)))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_audit_row_leaves_its_claim_pending_and_the_worker_says_which() {
    let Some(url) = fresh_database().await else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let d = dir.path();
    let site = slow_site(Duration::from_millis(10), Default::default()).await;
    let input = write_input(d, "facts.jsonl", &claims(&site, 4));
    enqueue(d, &url, &input, "facts");
    let client = connect(&url).await;
    client
        .batch_execute(REFUSE_C2)
        .await
        .expect("trigger installed");

    let one_at_a_time = ["--until-empty", "--concurrency", "1", "--lease", "2"];
    let (status, stderr) = finish(worker(d, &url, &one_at_a_time), Duration::from_secs(120)).await;
    assert!(!status.success(), "the worker must fail: {stderr}");
    assert!(
        stderr.contains("claim c2 of batch facts") && stderr.contains("refused by the test"),
        "the error names the claim, the batch and the index's reason: {stderr}"
    );

    // Nothing half-written: the refused claim is not done and has no rows; every claim that is
    // done has both its citations' rows.
    let states_after = states(&client).await;
    let rows = audit_rows_per_claim(&client).await;
    assert_eq!(states_after.get("c2").map(String::as_str), Some("pending"));
    assert!(
        !rows.contains_key("c2"),
        "rows of the refused claim: {rows:?}"
    );
    let done: Vec<&String> = states_after
        .iter()
        .filter(|(_, state)| *state == "done")
        .map(|(id, _)| id)
        .collect();
    assert!(
        !done.is_empty(),
        "claims recorded before the refusal: {states_after:?}"
    );
    for id in &done {
        assert_eq!(rows.get(*id), Some(&2), "{id}'s rows: {rows:?}");
    }
    assert_eq!(
        rows.len(),
        done.len(),
        "rows only for done claims: {rows:?}"
    );

    // Once the index takes rows again, another worker finishes the batch (the refused claim's
    // lease runs out after two seconds), and nothing recorded before is recorded twice.
    client
        .batch_execute("DROP TRIGGER refuse_c2 ON citecheck_citations")
        .await
        .expect("trigger dropped");
    let (status, stderr) = finish(worker(d, &url, &one_at_a_time), Duration::from_secs(120)).await;
    assert!(status.success(), "{stderr}");
    let states_final = states(&client).await;
    assert!(
        states_final.values().all(|s| s == "done"),
        "{states_final:?}"
    );
    let rows = audit_rows_per_claim(&client).await;
    let expected: BTreeMap<String, i64> = (0..4).map(|i| (format!("c{i}"), 2)).collect();
    assert_eq!(rows, expected);
}
