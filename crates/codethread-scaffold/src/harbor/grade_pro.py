"""Grade one step of a CodeThread Harbor task of a SWE-bench Pro instance by
Pro's own rules (written by codethread-scaffold; runs in the verifier
container with the Python of /opt/codethread-grader, standard library only).

usage: grade_pro.py MODE INSTANCE_JSON STATUS TEST_LOG OUT_DIR

MODE    gate     the Implementation Task: reward 1 iff every PASS_TO_PASS
                 test passed and no FAIL_TO_PASS test did (the PR1 gate)
        resolve  the Follow-On Issue: reward 1 iff Pro resolves it (every
                 FAIL_TO_PASS and every PASS_TO_PASS test passed)
STATUS  applied | empty_patch | no_diff | patch_failed_to_apply | setup_failed
TEST_LOG the output of tests/eval.sh (codethread_bench::pro::eval_script):
        Pro's entry script from the patch on, which runs the instance's own
        run_script.sh and parser.py and leaves OUT_DIR/pro_output.json

Pro's rules, as its evaluator (swe_bench_pro_eval.py) applies them: the
parser's output is {"tests": [{"name", "status"}]}; the passed tests are the
names with status PASSED; a listed test passed iff its exact name is one of
them (a missing test did not pass). No output.json: the instance is not
resolved (its evaluator prints "returned None"). An output that names none
of the listed tests is no evidence either way: reason no_test_output (the
gate keeps nothing on it).

Writes OUT_DIR/reward.json (the reward and one count per reason, as
grade.py), OUT_DIR/report.json (a per-instance report in the shape
swebench's harness writes, so `chain gate`, `chain stack` and `reproduce`
read it as any other), OUT_DIR/codethread.json (the reason and the tests
behind it) and OUT_DIR/run_instance.log.
"""

import ast
import json
import sys
from pathlib import Path

MARKER = ">>>>> codethread pro"

def tests_of(row, *keys):
    """A test list of the row: a list, or a string holding a JSON or a
    Python-literal list (Pro's own rows)."""
    for key in keys:
        v = row.get(key)
        if v is None:
            continue
        if isinstance(v, str):
            v = ast.literal_eval(v) if v.strip() else []
        return [str(x) for x in v]
    return []


def stage_codes(log_text):
    """The exit status of each stage eval.sh printed."""
    codes = {}
    for line in log_text.split("\n"):
        if line.startswith(MARKER):
            words = line[len(MARKER):].split()
            if len(words) == 2 and words[1].startswith("rc="):
                codes[words[0]] = words[1][3:]
    return codes


def grade_applied(row, log_path, out, log_lines, detail):
    """Pro's decision on the parser's output (OUT_DIR/pro_output.json), and
    its report in swebench's shape."""
    iid = row["instance_id"]
    f2p = tests_of(row, "fail_to_pass", "FAIL_TO_PASS")
    p2p = tests_of(row, "pass_to_pass", "PASS_TO_PASS")
    log = Path(log_path)
    detail["stages"] = stage_codes(log.read_text(errors="replace")) if log.is_file() else {}
    try:
        tests = json.loads((out / "pro_output.json").read_text(errors="replace"))["tests"]
        passed = {t["name"] for t in tests if t["status"] == "PASSED"}
        named = {t["name"] for t in tests}
    except (OSError, ValueError, KeyError, TypeError) as e:
        detail["output_error"] = f"{type(e).__name__}: {e}"
        return None
    if not (set(f2p) | set(p2p)) & named:
        return None
    resolved = set(f2p) | set(p2p) <= passed
    report = swebench_report(iid, f2p, p2p, passed, passed, resolved)
    (out / "report.json").write_text(json.dumps(report, indent=4))
    log_lines.append(f"report: {report}")
    return (
        [t for t in f2p if t in passed],
        [t for t in f2p if t not in passed],
        [t for t in p2p if t not in passed],
        resolved,
    )


def main(argv):
    return run_grader(argv, "grade_pro.py", grade_applied, {"grader": "swe-bench-pro"})
