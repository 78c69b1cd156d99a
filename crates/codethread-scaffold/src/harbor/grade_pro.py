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


def swebench_report(iid, f2p, p2p, passed, resolved):
    def split(expected):
        return {
            "success": [t for t in expected if t in passed],
            "failure": [t for t in expected if t not in passed],
        }

    empty = {"success": [], "failure": []}
    return {
        iid: {
            "patch_is_None": False,
            "patch_exists": True,
            "patch_successfully_applied": True,
            "resolved": resolved,
            "tests_status": {
                "FAIL_TO_PASS": split(f2p),
                "PASS_TO_PASS": split(p2p),
                "FAIL_TO_FAIL": empty,
                "PASS_TO_FAIL": empty,
            },
        }
    }


def main(argv):
    if len(argv) != 5:
        print(__doc__, file=sys.stderr)
        return 2
    mode, inst_path, status, log_path, out = argv
    if mode not in ("gate", "resolve"):
        print(f"grade_pro.py: unknown mode {mode!r}", file=sys.stderr)
        return 2
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    row = json.loads(Path(inst_path).read_text())
    iid = row["instance_id"]
    f2p = tests_of(row, "fail_to_pass", "FAIL_TO_PASS")
    p2p = tests_of(row, "pass_to_pass", "PASS_TO_PASS")
    counts = {k: 0 for k in REASONS}
    detail = {"instance_id": iid, "mode": mode, "status": status, "grader": "swe-bench-pro"}
    kept = False
    log_lines = []
    if status == "applied":
        log = Path(log_path)
        detail["stages"] = stage_codes(log.read_text(errors="replace")) if log.is_file() else {}
        output = out / "pro_output.json"
        try:
            tests = json.loads(output.read_text(errors="replace"))["tests"]
            passed = {t["name"] for t in tests if t["status"] == "PASSED"}
            named = {t["name"] for t in tests}
        except (OSError, ValueError, KeyError, TypeError) as e:
            tests = None
            detail["output_error"] = f"{type(e).__name__}: {e}"
        if tests is None or not (set(f2p) | set(p2p)) & named:
            counts["no_test_output"] = 1
            detail["reason"] = "no_test_output"
        else:
            resolved = set(f2p) | set(p2p) <= passed
            p2p_bad = [t for t in p2p if t not in passed]
            f2p_passed = [t for t in f2p if t in passed]
            f2p_bad = [t for t in f2p if t not in passed]
            counts["p2p_failed"] = len(p2p_bad)
            detail["p2p_failed"] = p2p_bad
            if mode == "gate":
                counts["f2p_already_passing"] = len(f2p_passed)
                detail["f2p_already_passing"] = f2p_passed
                kept = not p2p_bad and not f2p_passed
            else:
                counts["f2p_failed"] = len(f2p_bad)
                detail["f2p_failed"] = f2p_bad
                kept = resolved
            report = swebench_report(iid, f2p, p2p, passed, resolved)
            (out / "report.json").write_text(json.dumps(report, indent=4))
            log_lines.append(f"report: {report}")
            reasons = [k for k in ("p2p_failed", "f2p_already_passing", "f2p_failed") if counts[k]]
            detail["reason"] = ", ".join(reasons)
    elif status in counts:
        counts[status] = 1
        detail["reason"] = status
        if status == "patch_failed_to_apply":
            log_lines.append(">>>>> Patch Apply Failed:")
    else:
        print(f"grade_pro.py: unknown status {status!r}", file=sys.stderr)
        return 2
    detail["kept" if mode == "gate" else "resolved"] = kept
    rewards = {"reward": 1 if kept else 0, **counts}
    (out / "run_instance.log").write_text("".join(f"codethread - INFO - {l}\n" for l in log_lines))
    (out / "codethread.json").write_text(json.dumps(detail, indent=2))
    (out / "reward.json").write_text(json.dumps(rewards))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
