"""Load a chain's exports with the real swebench and Hugging Face loaders.

usage: check_exports.py CHAIN_DIR

Every row of the SWE-bench exports must give a TestSpec with swebench's own
make_test_spec; both exports must load with swebench's load_swebench_dataset;
each mini-swe-agent subset must load with datasets.load_dataset(DIR,
split="test"), the call `mini-extra swebench --subset DIR --split test` makes.
Prints one JSON object with the counts; exits 1 listing every failure.
"""

import json
import sys
from pathlib import Path

from datasets import load_dataset
from swebench.harness.utils import load_swebench_dataset, make_test_spec


def main() -> int:
    chain = Path(sys.argv[1])
    exports = chain / "exports"
    failures = []
    counts = {"rows": 0, "specs": 0, "mini_rows": 0, "files": {}}
    for name in ("implementation_task.jsonl", "follow_on_human_pr1.jsonl"):
        path = exports / name
        rows = [json.loads(l) for l in path.read_text().splitlines() if l.strip()]
        loaded = load_swebench_dataset(str(path), "test")
        if len(loaded) != len(rows):
            failures.append(f"{name}: load_swebench_dataset gave {len(loaded)} of {len(rows)} rows")
        counts["files"][name] = len(rows)
        for row in rows:
            counts["rows"] += 1
            try:
                spec = make_test_spec(row)
            except Exception as e:  # every failure is reported, with its row
                failures.append(f"{name}: {row.get('instance_id')}: make_test_spec: {type(e).__name__}: {e}")
                continue
            if spec.instance_id != row["instance_id"] or spec.image != row["image"]:
                failures.append(f"{name}: {row['instance_id']}: TestSpec does not match the row")
                continue
            counts["specs"] += 1
    for task in ("implementation", "follow_on_human_pr1"):
        subset = exports / "mini-swe-agent" / task / "subset"
        want = counts["files"][
            "implementation_task.jsonl" if task == "implementation" else "follow_on_human_pr1.jsonl"
        ]
        if want == 0:  # nothing built: an empty file is no dataset to load
            continue
        try:
            rows = list(load_dataset(str(subset), split="test"))
        except Exception as e:
            failures.append(f"{subset}: load_dataset: {type(e).__name__}: {e}")
            continue
        counts["mini_rows"] += len(rows)
        if len(rows) != want:
            failures.append(f"{subset}: {len(rows)} rows, the export has {want}")
        for row in rows:
            patch = Path(row["setup_patch_file"])
            hidden = [f for f in ("patch", "gold_patch", "pr1_human_patch", "pr0_patch", "setup_patch") if f in row]
            if hidden:
                failures.append(f"{subset}: {row['instance_id']}: the agent-side row carries {hidden}")
            if not patch.is_file():
                failures.append(f"{subset}: {row['instance_id']}: no setup patch file {patch}")
            elif b"\n-" in patch.read_bytes() or b"@@ " in patch.read_bytes():
                failures.append(f"{subset}: {row['instance_id']}: setup patch file is not sealed")
        images = exports / "mini-swe-agent" / task / "images_subset"
        try:
            image_rows = list(load_dataset(str(images), split="test"))
        except Exception as e:
            failures.append(f"{images}: load_dataset: {type(e).__name__}: {e}")
            continue
        if len(image_rows) != want or any(not r["image_name"].startswith("codethread/") for r in image_rows):
            failures.append(f"{images}: rows do not name their setup images")
    print(json.dumps(counts))
    for f in failures:
        print(f, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
