"""Load predictions files with swebench's own loader and check each patch
with `git apply --check` at the base files.

usage: check_predictions.py DATASET.jsonl SNAPSHOTS_DIR PREDICTIONS...

SNAPSHOTS_DIR/<instance_id>/before/<path> holds the base content of every
file the patches touch. Prints one JSON object with the counts; exits 1
listing every failure.
"""

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from swebench.harness.utils import get_predictions_from_file


def main() -> int:
    dataset, snapshots, files = sys.argv[1], Path(sys.argv[2]), sys.argv[3:]
    failures = []
    counts = {"files": 0, "predictions": 0, "empty": 0, "applied": 0}
    with tempfile.TemporaryDirectory() as tmp:
        for f in files:
            preds = get_predictions_from_file(f, dataset, "test")
            counts["files"] += 1
            for p in preds:
                counts["predictions"] += 1
                patch = p.get("model_patch") or ""
                if not patch.strip():
                    counts["empty"] += 1
                    continue
                work = Path(tmp) / "w"
                shutil.rmtree(work, ignore_errors=True)
                shutil.copytree(snapshots / p["instance_id"] / "before", work)
                subprocess.run(["git", "init", "-q"], cwd=work, check=True)
                (Path(tmp) / "p.diff").write_text(patch)
                r = subprocess.run(
                    ["git", "apply", "--check", str(Path(tmp) / "p.diff")],
                    cwd=work,
                    capture_output=True,
                    text=True,
                )
                if r.returncode != 0:
                    failures.append(f"{f}: {p['instance_id']}: git apply --check: {r.stderr.strip()}")
                else:
                    counts["applied"] += 1
    print(json.dumps(counts))
    for f in failures:
        print(f, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
