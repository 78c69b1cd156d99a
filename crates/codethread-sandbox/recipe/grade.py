# codethread sandbox: grade a predictions file with SWE-bench's harness (swebench >= 5, which runs
# prebuilt images named by each row's `image` field), exactly as
# `python -m swebench.harness.run_evaluation` does, with one difference: a prediction whose
# model_patch is empty (a stack equal to the base commit, e.g. PR0 + the human PR1) is graded on
# the unpatched image (run_instance's skip_patch), where the command line would only count it as
# an empty patch. The logs tree is the harness's own: logs/run_evaluation/<run_id>/<model>/<id>/
# under the current directory, and the run-level report <model>.<run_id>.json beside it.
#
# usage: python grade.py DATASET PREDICTIONS RUN_ID MAX_WORKERS TIMEOUT
import json
import sys

from swebench.harness.reporting import make_run_report
from swebench.harness.run_evaluation import (
    _docker_client,
    get_predictions_from_file,
    load_instances,
    run_instances,
    write_run_metadata,
)

dataset_path, preds_path, run_id, workers, timeout = sys.argv[1:6]
preds = {p["instance_id"]: p for p in get_predictions_from_file(preds_path, dataset_path, "test", None, None)}
ids = sorted(preds)
dataset = [r for r in load_instances(dataset_path, "test", ids, None) if r["instance_id"] in preds]
missing = sorted(set(ids) - {r["instance_id"] for r in dataset})
if missing:
    print("not in the dataset: " + ", ".join(missing), file=sys.stderr)
    sys.exit(2)
write_run_metadata(run_id, dataset_path, "test", None)
empty = {i for i, p in preds.items() if not (p.get("model_patch") or "").strip()}
patched = [r for r in dataset if r["instance_id"] not in empty]
bare = [r for r in dataset if r["instance_id"] in empty]
if patched:
    run_instances(preds, patched, int(workers), run_id, int(timeout))
if bare:
    run_instances(preds, bare, int(workers), run_id, int(timeout), skip_patch=True)
# make_run_report counts an empty model_patch as an empty patch and skips its report; the stack
# was graded above (on the unpatched image), so it is reported like any other.
shown = {i: dict(p, model_patch=p.get("model_patch") or "(empty stack: graded unpatched)") if i in empty else p
         for i, p in preds.items()}
path = make_run_report(shown, dataset, run_id, _docker_client(), ".")
print(json.dumps({"report": str(path), "empty_stacks": sorted(empty)}))
