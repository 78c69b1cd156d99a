//! The PR1 gate: a PR1 is kept iff, run on the instance's tests (with the
//! test patch, before the fix), every PASS_TO_PASS test passes (or
//! is skipped) and every FAIL_TO_PASS test still fails. A PR1 whose stack
//! PR0 + PR1 is empty is base itself and is kept without a harness run
//! ([`GateReason::StackIsBase`]). Reports of swebench 4.x and 5.x give the
//! same decisions.

use std::collections::{BTreeMap, HashSet};
use std::fmt;

use serde::{Deserialize, Serialize};

use codethread_bench::{HarnessNote, InstanceReport, TestOutcome, TestsStatus};

/// Why a PR1 was dropped, or why it was kept without test results.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "reason", content = "tests", rename_all = "snake_case")]
pub enum GateReason {
    /// No harness report for the instance.
    NoReport,
    /// The prediction had no patch.
    EmptyPatch,
    /// Kept: PR0 + PR1 is an empty diff, i.e. base_commit itself, where the
    /// FAIL_TO_PASS tests fail and the PASS_TO_PASS tests pass by
    /// construction; the harness skips empty predictions (`empty_patch_ids`),
    /// so no report is needed.
    StackIsBase,
    /// The harness could not apply the patch (`run_instance.log`:
    /// `>>>>> Patch Apply Failed`; the harness writes no report then).
    PatchFailedToApply,
    /// The patch applied but the tests produced no parseable output (the
    /// report has `patch_successfully_applied: false`, which the harness
    /// writes when the test log has no results).
    NoTestOutput,
    /// The harness failed around the tests: an environment fault
    /// (`infra_failure`), a container / image / timeout error in
    /// `run_instance.log`, or `error_ids` of the run report.
    InfraFailure(String),
    /// The report has no evidence about the instance's tests although they
    /// ran: no `tests_status` (the harness was run without
    /// `include_tests_status`), one that is not an object (`[]`), or one
    /// that names none of the instance's FAIL_TO_PASS / PASS_TO_PASS tests
    /// (`{}`, misspelled keys, another instance's lists).
    NoTestsStatus,
    /// Reports of two harness runs (or two files) disagree about the
    /// instance: the paths of the reports. Neither is trusted.
    ConflictingReports(Vec<String>),
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
            GateReason::StackIsBase => write!(f, "stack_is_base"),
            GateReason::PatchFailedToApply => write!(f, "patch_failed_to_apply"),
            GateReason::NoTestOutput => write!(f, "no_test_output"),
            GateReason::InfraFailure(m) => write!(f, "infra_failure: {m}"),
            GateReason::NoTestsStatus => write!(f, "no_tests_status"),
            GateReason::ConflictingReports(p) => write!(
                f,
                "conflicting_reports: {}",
                serde_json::to_string(p).unwrap_or_default()
            ),
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

impl GateReason {
    /// Whether this reason keeps the PR1 (only [`GateReason::StackIsBase`]).
    pub fn keeps(&self) -> bool {
        matches!(self, GateReason::StackIsBase)
    }
}

/// The gate's verdict for one instance.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GateDecision {
    /// The instance.
    pub instance_id: String,
    /// Whether the PR1 is kept.
    pub kept: bool,
    /// Why it was dropped; for a kept PR1 empty, or
    /// `[GateReason::StackIsBase]` when it was kept without a harness run.
    pub reasons: Vec<GateReason>,
}

/// Gate one instance given its report (if any).
///
/// `expected_f2p` / `expected_p2p` are the instance's lists. The harness
/// puts every listed test that failed or is missing from the test log under
/// `failure`; a PASS_TO_PASS test under neither `success` nor `failure` was
/// skipped (swebench 4.x leaves skipped tests out of both lists, 5.x counts
/// them as `success`), and a skipped PASS_TO_PASS test is no regression in
/// either generation, so it does not drop the PR1. A FAIL_TO_PASS test
/// drops the PR1 only when it is under `success` (it already passes).
pub fn gate_one(
    instance_id: &str,
    report: Option<&InstanceReport>,
    expected_f2p: &[String],
    expected_p2p: &[String],
) -> GateDecision {
    let decide = |kept: bool, r: GateReason| GateDecision {
        instance_id: instance_id.to_string(),
        kept,
        reasons: vec![r],
    };
    let Some(r) = report else {
        return decide(false, GateReason::NoReport);
    };
    match &r.harness_note {
        Some(HarnessNote::ConflictingReports(p)) => {
            return decide(false, GateReason::ConflictingReports(p.clone()))
        }
        Some(HarnessNote::SkippedEmptyPatch) => return decide(true, GateReason::StackIsBase),
        Some(HarnessNote::PatchDidNotApply) => {
            return decide(false, GateReason::PatchFailedToApply)
        }
        Some(HarnessNote::Infrastructure(m)) if r.tests_status.is_none() => {
            return decide(false, GateReason::InfraFailure(m.clone()))
        }
        _ => {}
    }
    if r.patch_is_none || !r.patch_exists {
        return decide(false, GateReason::EmptyPatch);
    }
    if !r.patch_successfully_applied {
        return decide(false, GateReason::NoTestOutput);
    }
    let Some(ts) = &r.tests_status else {
        return decide(false, GateReason::NoTestsStatus);
    };
    if !has_evidence(ts, expected_f2p, expected_p2p) {
        return decide(false, GateReason::NoTestsStatus);
    }
    let mut reasons = Vec::new();
    // P2P: what the harness lists as failed (a set for the duplicates: P2P
    // lists run to thousands of tests). The expected list is not needed: the
    // harness already put every listed test that did not run under failure.
    let mut seen = HashSet::new();
    let p2p_failed: Vec<String> = ts
        .pass_to_pass
        .failure
        .iter()
        .filter(|t| seen.insert(t.as_str()))
        .cloned()
        .collect();
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

/// Whether `ts` says anything about the instance's tests: some listed
/// FAIL_TO_PASS or PASS_TO_PASS test is under `success` or `failure` of its
/// category (when the instance's lists are unknown, both empty: any test at
/// all). A `tests_status` of `{}`, with misspelled keys, or naming only other
/// tests is no evidence: keeping the PR1 on it would keep it untested.
fn has_evidence(ts: &TestsStatus, expected_f2p: &[String], expected_p2p: &[String]) -> bool {
    let named = |o: &TestOutcome, listed: &[String]| {
        if listed.is_empty() {
            return false;
        }
        let listed: HashSet<&str> = listed.iter().map(String::as_str).collect();
        o.success
            .iter()
            .chain(&o.failure)
            .any(|t| listed.contains(t.as_str()))
    };
    if expected_f2p.is_empty() && expected_p2p.is_empty() {
        return [&ts.fail_to_pass, &ts.pass_to_pass]
            .iter()
            .any(|o| !o.success.is_empty() || !o.failure.is_empty());
    }
    named(&ts.fail_to_pass, expected_f2p) || named(&ts.pass_to_pass, expected_p2p)
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
            harness_note: None,
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
        // q in neither list: skipped (4.x), kept as 5.x keeps it (success).
        let d = gate_one("i", Some(&rep(&[], &["f"], &["p"], &[])), &f2p, &p2p);
        assert!(d.kept, "{d:?}");
        let d5 = gate_one("i", Some(&rep(&[], &["f"], &["p", "q"], &[])), &f2p, &p2p);
        assert_eq!(d, d5);
        assert_eq!(
            gate_one("i", None, &f2p, &p2p).reasons,
            vec![GateReason::NoReport]
        );
    }

    #[test]
    fn reasons_say_what_happened() {
        let f2p = vec!["f".to_string()];
        let p2p = vec!["p".to_string()];
        let no_tests = |note: Option<HarnessNote>| {
            let mut r = rep(&[], &[], &[], &[]);
            r.patch_successfully_applied = false;
            r.tests_status = None;
            r.harness_note = note;
            gate_one("i", Some(&r), &f2p, &p2p)
        };
        // The harness writes applied=false when the tests gave no output.
        assert_eq!(no_tests(None).reasons, vec![GateReason::NoTestOutput]);
        assert_eq!(
            no_tests(Some(HarnessNote::PatchDidNotApply)).reasons,
            vec![GateReason::PatchFailedToApply]
        );
        let d = no_tests(Some(HarnessNote::Infrastructure("docker".into())));
        assert_eq!(d.reasons, vec![GateReason::InfraFailure("docker".into())]);
        assert_eq!(d.reasons[0].to_string(), "infra_failure: docker");
        let d = no_tests(Some(HarnessNote::SkippedEmptyPatch));
        assert!(d.kept);
        assert_eq!(d.reasons, vec![GateReason::StackIsBase]);
        assert!(d.reasons.iter().all(GateReason::keeps));
        assert_eq!(d.reasons[0].to_string(), "stack_is_base");
    }
}
