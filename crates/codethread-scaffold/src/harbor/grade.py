"""Grade one step of a CodeThread Harbor task with swebench's own grading
code (written by codethread-chain; runs in the separate verifier container,
where swebench is installed in /opt/codethread-grader).

usage: grade.py MODE INSTANCE_JSON STATUS TEST_LOG OUT_DIR

MODE    gate     the Implementation Task: reward 1 iff every PASS_TO_PASS
                 passes and every FAIL_TO_PASS still fails (the PR1 gate)
        resolve  the Follow-On Issue: reward 1 iff swebench says resolved
STATUS  applied | empty_patch | no_diff | patch_failed_to_apply | setup_failed
        (what test.sh found before running the tests)

Writes OUT_DIR/reward.json (flat numbers: `reward` and one count per gate
reason), OUT_DIR/report.json (swebench's per-instance report, as the
harness writes it) when the tests ran, OUT_DIR/run_instance.log (with the
harness's apply-failure line when the patch did not apply) and
OUT_DIR/codethread.json (the reason and the failing tests by name).
"""

import json
import sys
from pathlib import Path

from swebench.harness.constants import APPLY_PATCH_FAIL
from swebench.harness.grading import get_eval_report
from swebench.harness.utils import make_test_spec


def grade_applied(row, log_path, out, log_lines, detail):
    """swebench's report of the test log, written as report.json."""
    iid = row["instance_id"]
    pred = {"instance_id": iid, "model_name_or_path": "codethread", "model_patch": "collected"}
    report = get_eval_report(
        test_spec=make_test_spec(row),
        prediction=pred,
        test_log_path=log_path,
        include_tests_status=True,
    )
    (out / "report.json").write_text(json.dumps(report, indent=4))
    r = report[iid]
    log_lines.append(f"report: {report}")
    if not r.get("patch_successfully_applied"):
        return None
    ts = r["tests_status"]
    return (
        ts["FAIL_TO_PASS"]["success"],
        ts["FAIL_TO_PASS"]["failure"],
        ts["PASS_TO_PASS"]["failure"],
        r.get("resolved"),
    )


def main(argv):
    return run_grader(argv, "grade.py", grade_applied, apply_fail=APPLY_PATCH_FAIL)
