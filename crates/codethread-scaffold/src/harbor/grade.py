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

REASONS = [
    "p2p_failed",
    "f2p_already_passing",
    "f2p_failed",
    "no_test_output",
    "patch_failed_to_apply",
    "empty_patch",
    "no_diff",
    "setup_failed",
]


def main() -> int:
    mode, inst_path, status, log_path, out = sys.argv[1:6]
    if mode not in ("gate", "resolve"):
        print(f"grade.py: unknown mode {mode!r}", file=sys.stderr)
        return 2
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    row = json.loads(Path(inst_path).read_text())
    iid = row["instance_id"]
    counts = {k: 0 for k in REASONS}
    detail = {"instance_id": iid, "mode": mode, "status": status}
    kept = False
    log_lines = []
    if status == "applied":
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
            counts["no_test_output"] = 1
            detail["reason"] = "no_test_output"
        else:
            ts = r["tests_status"]
            f2p_ok = ts["FAIL_TO_PASS"]["success"]
            f2p_bad = ts["FAIL_TO_PASS"]["failure"]
            p2p_bad = ts["PASS_TO_PASS"]["failure"]
            counts["p2p_failed"] = len(p2p_bad)
            detail["p2p_failed"] = p2p_bad
            if mode == "gate":
                counts["f2p_already_passing"] = len(f2p_ok)
                detail["f2p_already_passing"] = f2p_ok
                kept = not p2p_bad and not f2p_ok
            else:
                counts["f2p_failed"] = len(f2p_bad)
                detail["f2p_failed"] = f2p_bad
                kept = bool(r.get("resolved"))
            reasons = [k for k in ("p2p_failed", "f2p_already_passing", "f2p_failed") if counts[k]]
            detail["reason"] = ", ".join(reasons)
    elif status in counts:
        counts[status] = 1
        detail["reason"] = status
        if status == "patch_failed_to_apply":
            log_lines.append(f"{APPLY_PATCH_FAIL}:")
    else:
        print(f"grade.py: unknown status {status!r}", file=sys.stderr)
        return 2
    detail["kept" if mode == "gate" else "resolved"] = kept
    rewards = {"reward": 1 if kept else 0, **counts}
    (out / "run_instance.log").write_text("".join(f"codethread - INFO - {l}\n" for l in log_lines))
    (out / "codethread.json").write_text(json.dumps(detail, indent=2))
    (out / "reward.json").write_text(json.dumps(rewards))
    return 0


if __name__ == "__main__":
    sys.exit(main())
