"""Grade one step of a CodeThread Harbor task of a FeatBench instance by
FeatBench's own rules (written by codethread-scaffold; runs in the verifier
container with the Python of /opt/codethread-grader, standard library only).

usage: grade_featbench.py MODE INSTANCE_JSON STATUS TEST_LOG OUT_DIR
       grade_featbench.py --record INSTANCE_JSON F2P_LOG P2P_LOG

MODE    gate     the Implementation Task: reward 1 iff every PASS_TO_PASS
                 test passed and no FAIL_TO_PASS test did (the PR1 gate)
        resolve  the Follow-On Issue: reward 1 iff FeatBench's `success`
                 (every FAIL_TO_PASS and every PASS_TO_PASS test passed)
STATUS  applied | empty_patch | no_diff | patch_failed_to_apply | setup_failed
TEST_LOG the output of tests/eval.sh (codethread_bench::featbench::eval_script):
        each pytest run between `>>>>> codethread featbench f2p start` and
        `... f2p end rc=N` lines (p2p likewise)

FeatBench's rules, as its evaluator applies them:
- an output is read after ANSI colour codes are removed, from the first
  `short test summary info` line when there is one; each line, trimmed, that
  reads `PASSED|FAILED|SKIPPED|ERROR <name>[ - <message>]` sets that name's
  status (a later line wins);
- an expected test found by its exact name has that status; otherwise every
  result whose name up to its first `[` equals the test's (up to its first
  `[`) decides: none -> not found, any FAILED or ERROR -> FAILED, all PASSED
  or SKIPPED with one PASSED -> PASSED, else SKIPPED;
- a test passed iff its status is PASSED.

Writes OUT_DIR/reward.json (the reward and one count per reason, as
grade.py), OUT_DIR/report.json (a per-instance report in the shape
swebench's harness writes, so `chain gate`, `chain stack` and `reproduce`
read it as any other), OUT_DIR/featbench.json (the record FeatBench's
evaluator would write to evaluation_results.json), OUT_DIR/codethread.json
(the reason, the failing tests, the plugins the run had) and
OUT_DIR/run_instance.log. `--record` prints the record of two saved pytest
outputs (FeatBench's own logs) instead.
"""

import json
import re
import sys
from pathlib import Path

MARKER = ">>>>> codethread featbench"
ANSI = re.compile(r"\x1b\[[0-9;]*m")
RESULT = re.compile(r"^(PASSED|FAILED|SKIPPED|ERROR)\s+(.+?)(?:\s-\s.*)?$")
KEYWORDS = ("PASSED", "FAILED", "SKIPPED", "ERROR", "UNKNOWN")

def parse_output(text):
    """Name -> status of one pytest output."""
    text = ANSI.sub("", text)
    at = text.find("short test summary info")
    if at >= 0:
        text = text[at:]
    results = {}
    for line in text.split("\n"):
        line = line.strip()
        if not line or not any(k in line for k in KEYWORDS):
            continue
        m = RESULT.match(line)
        if m:
            results[m.group(2).strip()] = m.group(1)
    return results


def base_name(name):
    return name.split("[", 1)[0]


def status_of(test, results):
    if test in results:
        return results[test]
    want = base_name(test)
    found = [s for r, s in results.items() if base_name(r) == want]
    if not found:
        return "UNKNOWN"
    if any(s in ("FAILED", "ERROR") for s in found):
        return "FAILED"
    if "PASSED" in found:
        return "PASSED"
    return "SKIPPED"


def tests_of(row, key):
    v = row.get(key)
    if v is None:
        return []
    if isinstance(v, str):
        v = json.loads(v) if v.strip() else []
    return [str(x) for x in v]


def sections(log_text):
    """The outputs of the f2p and p2p runs (batches joined), the return codes,
    and the plugins line."""
    out = {"f2p": [], "p2p": []}
    rcs = {"f2p": [], "p2p": []}
    plugins = {}
    current = None
    for line in log_text.split("\n"):
        if line.startswith(MARKER):
            words = line[len(MARKER):].split()
            if words[:1] == ["plugins"]:
                plugins = dict(w.split("=", 1) for w in words[1:] if "=" in w)
            elif len(words) >= 2 and words[0] in out and words[1] == "start":
                current = words[0]
                out[current].append([])
            elif len(words) >= 3 and words[0] in out and words[1] == "end":
                rcs[words[0]].append(words[2].split("=", 1)[-1])
                current = None
            continue
        if current is not None:
            out[current][-1].append(line)
    return (
        {k: ["\n".join(b) for b in v] for k, v in out.items()},
        rcs,
        plugins,
    )


def record(row, f2p_outputs, p2p_outputs):
    """FeatBench's record of one evaluation."""
    f2p = tests_of(row, "FAIL_TO_PASS")
    p2p = tests_of(row, "PASS_TO_PASS")
    res_f2p, res_p2p = {}, {}
    for o in f2p_outputs:
        res_f2p.update(parse_output(o))
    for o in p2p_outputs:
        res_p2p.update(parse_output(o))
    passed_f2p = [t for t in f2p if status_of(t, res_f2p) == "PASSED"]
    passed_p2p = [t for t in p2p if status_of(t, res_p2p) == "PASSED"]
    ok_f2p = len(passed_f2p) == len(f2p)
    ok_p2p = len(passed_p2p) == len(p2p)
    return {
        "agent": "codethread",
        "model": "codethread",
        "instance_id": row["instance_id"],
        "success_f2p": ok_f2p,
        "success_p2p": ok_p2p,
        "success": ok_f2p and ok_p2p,
        "passed_f2p_tests": passed_f2p,
        "passed_p2p_tests": passed_p2p,
        "expected_f2p_tests": f2p,
        "expected_p2p_tests": p2p,
    }


def grade_applied(row, log_path, out, log_lines, detail):
    """FeatBench's record of the two runs in the log, written as
    featbench.json, and its report in swebench's shape."""
    outs, rcs, plugins = sections(Path(log_path).read_text(errors="replace"))
    detail["plugins"] = plugins
    detail["return_codes"] = rcs
    if not outs["f2p"]:
        return None
    rec = record(row, outs["f2p"], outs["p2p"])
    (out / "featbench.json").write_text(json.dumps(rec, indent=2))
    report = swebench_report(
        rec["instance_id"],
        rec["expected_f2p_tests"],
        rec["expected_p2p_tests"],
        rec["passed_f2p_tests"],
        rec["passed_p2p_tests"],
        rec["success"],
    )
    (out / "report.json").write_text(json.dumps(report, indent=4))
    log_lines.append(f"report: {report}")
    f2p_passed = rec["passed_f2p_tests"]
    passed_p2p = set(rec["passed_p2p_tests"])
    return (
        f2p_passed,
        [t for t in rec["expected_f2p_tests"] if t not in set(f2p_passed)],
        [t for t in rec["expected_p2p_tests"] if t not in passed_p2p],
        rec["success"],
    )


def main(argv):
    if argv[:1] == ["--record"] and len(argv) == 4:
        row = json.loads(Path(argv[1]).read_text())
        f2p = Path(argv[2]).read_text(errors="replace")
        p2p = Path(argv[3]).read_text(errors="replace")
        print(json.dumps(record(row, [f2p], [p2p])))
        return 0
    return run_grader(argv, "grade_featbench.py", grade_applied, {"grader": "featbench"})
