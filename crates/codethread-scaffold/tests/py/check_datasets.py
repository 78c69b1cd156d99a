"""Run the installed swebench's make_test_spec on every row of the given files.

usage: check_datasets.py FILE...

Each FILE is a dataset file codethread writes (JSONL). Prints one JSON object:
{"swebench": version, "files": {FILE: {"rows": n, "specs": m}}}; every
failure goes to stderr with its row, and the exit code is 1 when there is one.

swebench 4.x's make_test_spec reads a Python repository's environment.yml /
requirements.txt from GitHub at the row's commit; with no network here those
two fetchers are replaced by stubs returning an empty file (what they fetch
does not depend on the row's columns, only on repo and commit).
"""

import json
import sys

import swebench
from swebench.harness.utils import load_swebench_dataset

try:
    from swebench.harness.test_spec.test_spec import make_test_spec
except ImportError:  # older layouts
    from swebench.harness.utils import make_test_spec

if swebench.__version__.startswith("4."):
    import swebench.harness.test_spec.python as py

    py.get_environment_yml_by_commit = lambda repo, commit, env_name: "name: testbed\n"
    py.get_requirements_by_commit = lambda repo, commit: ""


def main() -> int:
    failures = []
    out = {"swebench": swebench.__version__, "files": {}}
    for path in sys.argv[1:]:
        rows = [json.loads(l) for l in open(path, encoding="utf-8") if l.strip()]
        counts = {"rows": len(rows), "specs": 0}
        out["files"][path] = counts
        if rows and len(load_swebench_dataset(path, "test")) != len(rows):
            failures.append(f"{path}: load_swebench_dataset does not load every row")
        for row in rows:
            try:
                spec = make_test_spec(row)
            except Exception as e:  # every failure is reported, with its row
                failures.append(f"{path}: {row.get('instance_id')}: {type(e).__name__}: {e}")
                continue
            if spec.instance_id != row["instance_id"] or not spec.eval_script:
                failures.append(f"{path}: {row['instance_id']}: the TestSpec does not match the row")
                continue
            counts["specs"] += 1
    print(json.dumps(out))
    for f in failures:
        print(f, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
