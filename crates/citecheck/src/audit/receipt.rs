//! The audit ids of the verdicts given while a future runs, for a front end that answers with
//! them (the HTTP service's `audit_ids`).
//!
//! The verifier records a verdict through its recorder seam, which returns nothing, so the
//! recorder hands the ids to the task that asked for the verification: [`collect`] scopes a
//! receipt around that task's future and [`deliver`] adds to it. Outside [`collect`], delivering
//! does nothing. A recorder delivers ids only once their rows are written or queued to be
//! written, never for a verdict it failed to accept.

use std::cell::RefCell;
use std::future::Future;

tokio::task_local! {
    static RECEIPT: RefCell<Vec<i64>>;
}

/// Runs `work`, and returns what it returns with the audit ids delivered while it ran, in the
/// order delivered.
pub async fn collect<F: Future>(work: F) -> (F::Output, Vec<i64>) {
    RECEIPT
        .scope(RefCell::new(Vec::new()), async {
            let output = work.await;
            let ids = RECEIPT.with(|receipt| receipt.take());
            (output, ids)
        })
        .await
}

/// Adds `ids` to the receipt of the current [`collect`], if any.
pub fn deliver(ids: &[i64]) {
    let _ = RECEIPT.try_with(|receipt| receipt.borrow_mut().extend_from_slice(ids));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn ids_delivered_inside_a_collection_come_back_and_outside_are_dropped() {
        deliver(&[1]);
        let ((), ids) = collect(async {
            deliver(&[2, 3]);
            tokio::task::yield_now().await;
            deliver(&[4]);
        })
        .await;
        assert_eq!(ids, vec![2, 3, 4]);
        let ((), none) = collect(async {}).await;
        assert!(none.is_empty());
    }
}
