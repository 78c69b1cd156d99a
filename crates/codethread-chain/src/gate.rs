//! The PR1 gate: a PR1 is kept iff, run on the instance's tests (with the
//! test patch, before the fix), every PASS_TO_PASS test passes and
//! every FAIL_TO_PASS test still fails.

use std::collections::{BTreeMap, HashSet};
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::report::InstanceReport;

/// Why a PR1 was dropped (or that it was kept).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "reason", content = "tests", rename_all = "snake_case")]
pub enum GateReason {
    /// No harness report for the instance.
    NoReport,
    /// The prediction had no patch.
    EmptyPatch,
    /// The harness could not apply the patch.
    PatchFailedToApply,
    /// The report has no `tests_status` although the patch applied.
    NoTestsStatus,
    /// These PASS_TO_PASS tests did not pass.
    P2pFailed(Vec<String>),
    /// These FAIL_TO_PASS tests already pass without the fix.
    F2pAlreadyPassing(Vec<String>),
}

impl fmt::Display for GateReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GateReason::NoReport => write!(f, "no_report"),
            GateReason::EmptyPatch => write!(f, "empty_patch"),
            GateReason::PatchFailedToApply => write!(f, "patch_failed_to_apply"),
            GateReason::NoTestsStatus => write!(f, "no_tests_status"),
            GateReason::P2pFailed(t) => write!(
                f,
                "p2p_failed: {}",
                serde_json::to_string(t).unwrap_or_default()
            ),
            GateReason::F2pAlreadyPassing(t) => {
                write!(
                    f,
                    "f2p_already_passing: {}",
                    serde_json::to_string(t).unwrap_or_default()
                )
            }
        }
    }
}

/// The gate's verdict for one instance.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GateDecision {
    /// The instance.
    pub instance_id: String,
    /// Whether the PR1 is kept.
    pub kept: bool,
    /// Empty iff kept.
    pub reasons: Vec<GateReason>,
}

/// Gate one instance given its report (if any).
///
/// `expected_f2p` / `expected_p2p` are the instance's lists; tests of those
/// lists that the report lists under neither `success` nor `failure` count
/// as not passing (the harness itself counts a test missing from the log as
/// a failure), so a missing PASS_TO_PASS test drops the PR1 and a missing
/// FAIL_TO_PASS test counts as still failing.
pub fn gate_one(
    instance_id: &str,
    report: Option<&InstanceReport>,
    expected_f2p: &[String],
    expected_p2p: &[String],
) -> GateDecision {
    let drop = |r: GateReason| GateDecision {
        instance_id: instance_id.to_string(),
        kept: false,
        reasons: vec![r],
    };
    let Some(r) = report else {
        return drop(GateReason::NoReport);
    };
    if r.patch_is_none || !r.patch_exists {
        return drop(GateReason::EmptyPatch);
    }
    if !r.patch_successfully_applied {
        return drop(GateReason::PatchFailedToApply);
    }
    let Some(ts) = &r.tests_status else {
        return drop(GateReason::NoTestsStatus);
    };
    let mut reasons = Vec::new();
    // P2P: everything not in success fails (failure list + expected tests not reported).
    // Sets, not list scans: P2P lists run to thousands of tests.
    let passed: HashSet<&str> = ts.pass_to_pass.success.iter().map(String::as_str).collect();
    let mut p2p_failed: Vec<String> = ts.pass_to_pass.failure.clone();
    let mut listed: HashSet<String> = p2p_failed.iter().cloned().collect();
    for t in expected_p2p {
        if !passed.contains(t.as_str()) && listed.insert(t.clone()) {
            p2p_failed.push(t.clone());
        }
    }
    if !p2p_failed.is_empty() {
        reasons.push(GateReason::P2pFailed(p2p_failed));
    }
    // Only the instance's own F2P tests count (all of them when the list is unknown).
    let own_f2p: HashSet<&str> = expected_f2p.iter().map(String::as_str).collect();
    let f2p_passing: Vec<String> = ts
        .fail_to_pass
        .success
        .iter()
        .filter(|t| own_f2p.is_empty() || own_f2p.contains(t.as_str()))
        .cloned()
        .collect();
    if !f2p_passing.is_empty() {
        reasons.push(GateReason::F2pAlreadyPassing(f2p_passing));
    }
    GateDecision {
        instance_id: instance_id.to_string(),
        kept: reasons.is_empty(),
        reasons,
    }
}

/// Gate a batch: one decision per id in `expected` (id -> (F2P, P2P)), in
/// id order.
pub fn gate_all(
    expected: &BTreeMap<String, (Vec<String>, Vec<String>)>,
    reports: &BTreeMap<String, InstanceReport>,
) -> Vec<GateDecision> {
    expected
        .iter()
        .map(|(id, (f2p, p2p))| gate_one(id, reports.get(id), f2p, p2p))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{TestOutcome, TestsStatus};

    fn rep(f2p_ok: &[&str], f2p_bad: &[&str], p2p_ok: &[&str], p2p_bad: &[&str]) -> InstanceReport {
        let v = |x: &[&str]| x.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        InstanceReport {
            instance_id: "i".into(),
            patch_is_none: false,
            patch_exists: true,
            patch_successfully_applied: true,
            resolved: false,
            tests_status: Some(TestsStatus {
                fail_to_pass: TestOutcome {
                    success: v(f2p_ok),
                    failure: v(f2p_bad),
                },
                pass_to_pass: TestOutcome {
                    success: v(p2p_ok),
                    failure: v(p2p_bad),
                },
                ..Default::default()
            }),
        }
    }

    #[test]
    fn kept_and_dropped() {
        let f2p = vec!["f".to_string()];
        let p2p = vec!["p".to_string(), "q".to_string()];
        assert!(gate_one("i", Some(&rep(&[], &["f"], &["p", "q"], &[])), &f2p, &p2p).kept);
        let d = gate_one("i", Some(&rep(&["f"], &[], &["p"], &["q"])), &f2p, &p2p);
        assert!(!d.kept);
        assert_eq!(d.reasons[0].to_string(), "p2p_failed: [\"q\"]");
        assert_eq!(d.reasons[1].to_string(), "f2p_already_passing: [\"f\"]");
        // q not reported at all: counts as failed.
        let d = gate_one("i", Some(&rep(&[], &["f"], &["p"], &[])), &f2p, &p2p);
        assert_eq!(d.reasons, vec![GateReason::P2pFailed(vec!["q".into()])]);
        assert_eq!(
            gate_one("i", None, &f2p, &p2p).reasons,
            vec![GateReason::NoReport]
        );
        let mut r = rep(&[], &[], &[], &[]);
        r.patch_successfully_applied = false;
        r.tests_status = None;
        assert_eq!(
            gate_one("i", Some(&r), &f2p, &p2p).reasons,
            vec![GateReason::PatchFailedToApply]
        );
    }
}
