"""Grade harness test logs with the installed swebench's own grading code
(4.x or 5.x) and write the per-instance report.json and run_instance.log the
harness writes, under WORK/logs/run_evaluation/<run_id>/<model>/<instance>/.

usage: grade_generation.py SPEC.json WORK

SPEC: {"dataset": "rows.jsonl", "run_id": "r",
       "cases": [{"model": "m", "instance_id": "i", "model_patch": "...",
                  "test_output": "..."}]}
Prints {"swebench": version, "reports": {model: report of its instance}}.

swebench 4.x's make_test_spec reads a Python repository's environment.yml /
requirements.txt from GitHub; with no network those fetchers are stubbed
(they do not change grading).
"""

import json
import os
import sys
from pathlib import Path

import swebench
from swebench.harness.constants import LOG_INSTANCE, LOG_REPORT, LOG_TEST_OUTPUT, RUN_EVALUATION_LOG_DIR
from swebench.harness.grading import get_eval_report

try:
    from swebench.harness.test_spec.test_spec import make_test_spec
except ImportError:  # 5.x layout
    from swebench.harness.utils import make_test_spec

if swebench.__version__.startswith("4."):
    import swebench.harness.test_spec.python as py

    py.get_environment_yml_by_commit = lambda repo, commit, env_name: "name: testbed\n"
    py.get_requirements_by_commit = lambda repo, commit: ""


def main() -> int:
    spec = json.loads(Path(sys.argv[1]).read_text())
    os.chdir(sys.argv[2])  # the harness writes below the working directory
    rows = {
        r["instance_id"]: r
        for r in (json.loads(l) for l in Path(spec["dataset"]).read_text().splitlines() if l.strip())
    }
    out = {"swebench": swebench.__version__, "reports": {}}
    for case in spec["cases"]:
        iid = case["instance_id"]
        pred = {"instance_id": iid, "model_name_or_path": case["model"], "model_patch": case["model_patch"]}
        log_dir = RUN_EVALUATION_LOG_DIR / spec["run_id"] / case["model"].replace("/", "__") / iid
        log_dir.mkdir(parents=True, exist_ok=True)
        (log_dir / LOG_TEST_OUTPUT).write_text(case["test_output"])
        report = get_eval_report(
            test_spec=make_test_spec(rows[iid]),
            prediction=pred,
            test_log_path=str(log_dir / LOG_TEST_OUTPUT),
            include_tests_status=True,
        )
        (log_dir / LOG_INSTANCE).write_text(f"2026-01-01 00:00:00,000 - INFO - report: {report}\n")
        (log_dir / LOG_REPORT).write_text(json.dumps(report, indent=4))
        out["reports"][case["model"]] = report[iid]
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
