"""Grade harness-format test logs with swebench's own grading code and
write what the harness writes: per-instance report.json (or, for a patch
that did not apply, a run_instance.log without a report) and the run-level
report (schema_version 2), under WORK/logs/run_evaluation/<run_id>/.

usage: grade.py SPEC.json WORK

SPEC: {"dataset": "rows.jsonl", "run_id": "r",
       "cases": [{"model": "m", "instance_id": "i", "model_patch": "...",
                  "test_output": "..." | null, "apply_failed": false}]}
A case with an empty model_patch is not run (the harness skips it). Prints
the run-level report paths as JSON.
"""

import json
import os
import sys
from pathlib import Path

from swebench.harness.constants import (
    APPLY_PATCH_FAIL,
    LOG_INSTANCE,
    LOG_REPORT,
    LOG_TEST_OUTPUT,
    RUN_EVALUATION_LOG_DIR,
)
from swebench.harness.grading import get_eval_report
from swebench.harness.reporting import make_run_report
from swebench.harness.utils import make_test_spec


def main() -> int:
    spec = json.loads(Path(sys.argv[1]).read_text())
    os.chdir(sys.argv[2])  # the harness writes below the working directory
    rows = {
        r["instance_id"]: r
        for r in (json.loads(l) for l in Path(spec["dataset"]).read_text().splitlines() if l.strip())
    }
    run_id = spec["run_id"]
    by_model = {}
    for case in spec["cases"]:
        pred = {
            "instance_id": case["instance_id"],
            "model_name_or_path": case["model"],
            "model_patch": case["model_patch"],
        }
        by_model.setdefault(case["model"], {})[case["instance_id"]] = pred
        if not (case["model_patch"] or "").strip():
            continue
        log_dir = RUN_EVALUATION_LOG_DIR / run_id / case["model"].replace("/", "__") / case["instance_id"]
        log_dir.mkdir(parents=True, exist_ok=True)
        if case.get("apply_failed"):
            (log_dir / LOG_INSTANCE).write_text(
                f"2026-01-01 00:00:00,000 - INFO - {APPLY_PATCH_FAIL}:\nerror: patch failed\n"
            )
            continue
        (log_dir / LOG_TEST_OUTPUT).write_text(case["test_output"])
        report = get_eval_report(
            test_spec=make_test_spec(rows[case["instance_id"]]),
            prediction=pred,
            test_log_path=str(log_dir / LOG_TEST_OUTPUT),
            include_tests_status=True,
        )
        (log_dir / LOG_INSTANCE).write_text(f"2026-01-01 00:00:00,000 - INFO - report: {report}\n")
        (log_dir / LOG_REPORT).write_text(json.dumps(report, indent=4))
    out = []
    dataset = list(rows.values())
    for model, preds in sorted(by_model.items()):
        out.append(str(Path(make_run_report(preds, dataset, run_id, client=None, report_dir="run_reports")).resolve()))
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
