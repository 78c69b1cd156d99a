"""Check tasks for harbor 0.25.0's singularity environment offline: for each
task, harbor's own resolution of the agent environment and of every step's
separate verifier, and SingularityEnvironment constructed on each (its
constructor runs _validate_definition: a docker_image is required), without
starting a container. Also harbor's environment_content_hash of every build
context naming the same image (one image must serve them all).

usage: harbor_singularity.py SPEC.json
SPEC: {"tasks": [{"dir": ..., "agent": image|null, "verifiers": [image|null, ...]}],
       "images": [[image, context_dir], ...], "scratch": dir}
"verifiers" is per step in order (one entry for a single-step task).
Prints {"ok": n, "refused": n, "images": n, "contexts": n}: a task is
refused when SingularityEnvironment rejects its agent or any verifier; a
task whose resolved images differ from the spec exits 1.
"""

import json
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

from harbor.environments.definition import environment_content_hash
from harbor.environments.singularity.singularity import SingularityEnvironment
from harbor.models.task.task import Task
from harbor.models.task.verifier_mode import resolve_verifier_environment_definition
from harbor.models.trial.paths import TrialPaths


def make_env(directory, config, scratch, name):
    trial = TrialPaths(Path(tempfile.mkdtemp(dir=scratch)))
    return SingularityEnvironment(
        environment_dir=Path(directory),
        environment_name=name,
        session_id=f"{name}__check",
        trial_paths=trial,
        task_env_config=config,
        singularity_image_cache_dir=scratch,
    )


def main() -> int:
    spec = json.loads(Path(sys.argv[1]).read_text())
    scratch = Path(spec["scratch"])
    scratch.mkdir(parents=True, exist_ok=True)
    ok = refused = 0
    for t in spec["tasks"]:
        task = Task(t["dir"])
        cfg = task.config
        steps = cfg.steps or [None]
        if len(steps) != len(t["verifiers"]):
            print(f"{t['dir']}: {len(steps)} steps", file=sys.stderr)
            return 1
        if cfg.environment.docker_image != t["agent"]:
            print(f"{t['dir']}: agent image {cfg.environment.docker_image!r}", file=sys.stderr)
            return 1
        envs = [(task.paths.environment_dir, cfg.environment)]
        for step, want in zip(steps, t["verifiers"]):
            d = resolve_verifier_environment_definition(cfg, task.paths, step)
            if d is None or d.config.docker_image != want or not d.bundled_tests:
                got = None if d is None else (d.config.docker_image, d.bundled_tests)
                print(f"{t['dir']}: verifier {got}, want {want!r}", file=sys.stderr)
                return 1
            envs.append((d.directory, d.config))
        try:
            for directory, config in envs:
                make_env(directory, config, scratch, task.name.split("/")[-1])
            ok += 1
        except (ValueError, FileNotFoundError):
            refused += 1
    by_image = defaultdict(set)
    for image, context in spec["images"]:
        by_image[image].add(environment_content_hash(Path(context)))
    for image, hashes in by_image.items():
        if len(hashes) != 1:
            print(f"{image}: {len(hashes)} different build contexts", file=sys.stderr)
            return 1
    print(json.dumps({"ok": ok, "refused": refused, "images": len(by_image),
                      "contexts": len(spec["images"])}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
