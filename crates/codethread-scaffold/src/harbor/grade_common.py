

# ---- What every codethread grader shares (codethread-scaffold's
# ---- harbor/grade_common.py, appended to each grader): the arguments, the
# ---- gate and resolve decisions, and the files a verifier leaves.

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


def run_grader(argv, name, grade_applied, detail_extra=None, apply_fail=">>>>> Patch Apply Failed"):
    """Grade one step: argv is MODE INSTANCE_JSON STATUS TEST_LOG OUT_DIR.

    grade_applied(row, log_path, out, log_lines, detail) reads the tests'
    output of an applied patch and returns (f2p_passed, f2p_failed,
    p2p_failed, resolved), or None when the output decides nothing
    (no_test_output). The gate keeps a step iff no PASS_TO_PASS test failed
    and no FAIL_TO_PASS test passed; resolve rewards the benchmark's own
    `resolved`. Writes OUT_DIR/reward.json (the reward and one count per
    reason), OUT_DIR/codethread.json and OUT_DIR/run_instance.log."""
    if len(argv) != 5:
        print(__doc__, file=sys.stderr)
        return 2
    mode, inst_path, status, log_path, out = argv
    if mode not in ("gate", "resolve"):
        print(f"{name}: unknown mode {mode!r}", file=sys.stderr)
        return 2
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    row = json.loads(Path(inst_path).read_text())
    counts = {k: 0 for k in REASONS}
    detail = {"instance_id": row["instance_id"], "mode": mode, "status": status, **(detail_extra or {})}
    kept = False
    log_lines = []
    if status == "applied":
        decided = grade_applied(row, log_path, out, log_lines, detail)
        if decided is None:
            counts["no_test_output"] = 1
            detail["reason"] = "no_test_output"
        else:
            f2p_ok, f2p_bad, p2p_bad, resolved = decided
            counts["p2p_failed"] = len(p2p_bad)
            detail["p2p_failed"] = p2p_bad
            if mode == "gate":
                counts["f2p_already_passing"] = len(f2p_ok)
                detail["f2p_already_passing"] = f2p_ok
                kept = not p2p_bad and not f2p_ok
            else:
                counts["f2p_failed"] = len(f2p_bad)
                detail["f2p_failed"] = f2p_bad
                kept = bool(resolved)
            reasons = [k for k in ("p2p_failed", "f2p_already_passing", "f2p_failed") if counts[k]]
            detail["reason"] = ", ".join(reasons)
    elif status in counts:
        counts[status] = 1
        detail["reason"] = status
        if status == "patch_failed_to_apply":
            log_lines.append(f"{apply_fail}:")
    else:
        print(f"{name}: unknown status {status!r}", file=sys.stderr)
        return 2
    detail["kept" if mode == "gate" else "resolved"] = kept
    rewards = {"reward": 1 if kept else 0, **counts}
    (out / "run_instance.log").write_text("".join(f"codethread - INFO - {l}\n" for l in log_lines))
    (out / "codethread.json").write_text(json.dumps(detail, indent=2))
    (out / "reward.json").write_text(json.dumps(rewards))
    return 0


def swebench_report(iid, f2p, p2p, f2p_passed, p2p_passed, resolved):
    """A per-instance report in the shape swebench's harness writes."""

    def split(expected, passed):
        ok = set(passed)
        return {
            "success": [t for t in expected if t in ok],
            "failure": [t for t in expected if t not in ok],
        }

    empty = {"success": [], "failure": []}
    return {
        iid: {
            "patch_is_None": False,
            "patch_exists": True,
            "patch_successfully_applied": True,
            "resolved": resolved,
            "tests_status": {
                "FAIL_TO_PASS": split(f2p, f2p_passed),
                "PASS_TO_PASS": split(p2p, p2p_passed),
                "FAIL_TO_FAIL": empty,
                "PASS_TO_FAIL": empty,
            },
        }
    }


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
