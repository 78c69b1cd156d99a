#!/usr/bin/env python3
"""Rebuild SWE-bench Pro rows from public git history.

The Hugging Face rows of SWE-bench Pro (ScaleAI/SWE-bench_Pro) are not
always reachable. Every instance can be rebuilt faithfully from two public
sources:

- scaleapi/SWE-bench_Pro-os: run_scripts/<instance_id>/instance_info.txt
  (repository, base commit, test files, FAIL_TO_PASS, PASS_TO_PASS);
- the instance's repository: the instance id instance_<org>__<repo>-<FIX>-v...
  names the upstream fix commit; the base commit is its parent, the gold
  patch is `git diff BASE FIX` on the files that are not test files, the
  test patch the same diff on the test files.

Usage:
  scripts/pro_rows.py --pro-os GITDIR --repo ORG/NAME=GITDIR [--repo ...]
                      [--limit N] > rows.jsonl

Each row carries what Pro's HF rows carry that can be rebuilt (instance_id,
repo, base_commit, patch, test_patch, fail_to_pass and pass_to_pass as the
Python-literal lists Pro stores, selected_test_files_to_run, repo_language)
and `rebuilt_from` naming the sources; problem_statement, requirements and
interface are not in those sources and are left out. An instance whose fix
commit is not in the repository, or whose parent is not the recorded base
commit, is reported on stderr and left out.
"""
import argparse
import json
import subprocess
import sys

LANGS = {
    "qutebrowser/qutebrowser": "python", "internetarchive/openlibrary": "python",
    "ansible/ansible": "python", "navidrome/navidrome": "go", "flipt-io/flipt": "go",
    "future-architect/vuls": "go", "gravitational/teleport": "go",
    "NodeBB/NodeBB": "js", "element-hq/element-web": "ts", "tutao/tutanota": "ts",
    "protonmail/webclients": "ts",
}


def git(gitdir, *args, check=True):
    r = subprocess.run(["git", "--git-dir", gitdir, *args], capture_output=True)
    if check and r.returncode != 0:
        raise RuntimeError(r.stderr.decode(errors="replace").strip())
    return r.stdout


def info(pro_os, iid):
    text = git(pro_os, "show", f"HEAD:run_scripts/{iid}/instance_info.txt").decode()
    row = {}
    for line in text.splitlines():
        if ": " not in line:
            continue
        k, v = line.split(": ", 1)
        row[k.strip()] = json.loads(v) if v.strip().startswith("[") else v.strip()
    return row


def fix_commit(iid):
    tail = iid[len("instance_"):].split("__", 1)[1]
    for part in tail.split("-"):
        if len(part) == 40 and all(c in "0123456789abcdef" for c in part):
            return part
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pro-os", required=True)
    ap.add_argument("--repo", action="append", default=[])
    ap.add_argument("--limit", type=int, default=0)
    a = ap.parse_args()
    repos = dict(r.split("=", 1) for r in a.repo)
    ids = [l.split("/")[1] for l in git(a.pro_os, "ls-tree", "--name-only", "HEAD", "run_scripts/").decode().split()]
    counts = {}
    for iid in sorted(ids):
        try:
            meta = info(a.pro_os, iid)
        except RuntimeError as e:
            print(f"skipped {iid}: no instance_info.txt: {e}", file=sys.stderr)
            continue
        repo = meta.get("Repository", "")
        if repo not in repos:
            continue
        if a.limit and counts.get(repo, 0) >= a.limit:
            continue
        gd = repos[repo]
        fix = fix_commit(iid)
        base = meta.get("Base Commit", "")
        try:
            parent = git(gd, "rev-parse", f"{fix}^").decode().strip()
        except RuntimeError as e:
            print(f"skipped {iid}: fix commit {fix} not in {repo}: {e}", file=sys.stderr)
            continue
        if parent != base:
            print(f"skipped {iid}: the parent of {fix} is {parent}, not the base {base}", file=sys.stderr)
            continue
        tests = meta.get("Test Files", [])
        changed = git(gd, "diff", "--name-only", base, fix).decode().split("\n")
        changed = [c for c in changed if c]
        code = [c for c in changed if c not in tests]
        patch = git(gd, "diff", "--binary", base, fix, "--", *code).decode(errors="replace") if code else ""
        test_patch = git(gd, "diff", "--binary", base, fix, "--", *tests).decode(errors="replace") if tests else ""
        row = {
            "instance_id": iid, "repo": repo, "base_commit": base, "patch": patch,
            "test_patch": test_patch,
            "fail_to_pass": json.dumps(meta.get("FAIL_TO_PASS", [])),
            "pass_to_pass": json.dumps(meta.get("PASS_TO_PASS", [])),
            "selected_test_files_to_run": json.dumps(tests),
            "repo_language": LANGS.get(repo, ""),
            "rebuilt_from": f"scaleapi/SWE-bench_Pro-os run_scripts/{iid}/instance_info.txt; {repo} git diff {base} {fix}",
        }
        counts[repo] = counts.get(repo, 0) + 1
        print(json.dumps(row))
    print(f"rows: {counts}", file=sys.stderr)


if __name__ == "__main__":
    main()
