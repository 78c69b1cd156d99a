"""Check a dataset.toml written by `chain harbor` with harbor 0.25.0's own
code: DatasetManifest loads it and serializes it back to the same bytes;
every local task's digest is Packager.compute_content_hash (what `harbor
dataset add` and `harbor sync` compute); `harbor init --dataset` on a copy
of the task directories (hard links) writes the same manifest below its
header; `harbor sync` on the copy changes nothing; `harbor run --dry-run`
(singularity: no runtime needed) accepts the dataset.

usage: harbor_dataset.py DATASET SCRATCH
Prints a JSON summary; exits 1 on the first difference. The copy is left in
SCRATCH/copy, with one task changed ({"changed": [...]}): a file added under
tests/ and an ignored solution/__pycache__/x.pyc, their digests listed.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

from harbor.models.dataset.manifest import DatasetManifest
from harbor.models.task.paths import TaskPaths
from harbor.publisher.packager import Packager

HEADER_END = "\n\n"


def body(text: str) -> str:
    """The manifest below its leading comment lines."""
    lines = text.splitlines(keepends=True)
    i = 0
    while i < len(lines) and (lines[i].strip().startswith("#") or lines[i].strip() == ""):
        i += 1
    return "".join(lines[i:])


def fail(msg: str) -> int:
    print(msg, file=sys.stderr)
    return 1


def main() -> int:
    dataset = Path(sys.argv[1]).resolve()
    scratch = Path(sys.argv[2]).resolve()
    harbor = Path(sys.executable).with_name("harbor")
    text = (dataset / "dataset.toml").read_text()
    m = DatasetManifest.from_toml(text)
    if m.to_toml() != text:
        return fail("DatasetManifest.to_toml() differs from the file")
    tasks = sorted(p for p in dataset.iterdir() if (p / TaskPaths.CONFIG_FILENAME).is_file())
    by_name = {t.name: t.digest for t in m.tasks}
    if len(by_name) != len(m.tasks) or len(tasks) != len(m.tasks):
        return fail(f"{len(tasks)} task directories, {len(m.tasks)} pinned")
    for t in tasks:
        name = "codethread/" + t.name
        digest = "sha256:" + Packager.compute_content_hash(t)[0]
        if by_name.get(name) != digest:
            return fail(f"{name}: pinned {by_name.get(name)}, Packager {digest}")
    # harbor init --dataset on a hard-linked copy without the manifest.
    copy = scratch / "copy"
    for root, dirs, files in os.walk(dataset):
        rel = Path(root).relative_to(dataset)
        (copy / rel).mkdir(parents=True, exist_ok=True)
        for f in files:
            if rel == Path(".") and f == "dataset.toml":
                continue
            os.link(Path(root) / f, copy / rel / f)
    env = dict(os.environ, HARBOR_TELEMETRY="0")
    run = lambda *a: subprocess.run([str(harbor), *a], capture_output=True, text=True, env=env)
    r = run("init", m.dataset.name, "--dataset", "-o", str(copy), "--description", m.dataset.description)
    if r.returncode != 0:
        return fail(f"harbor init: {r.stdout}{r.stderr}")
    init_text = (copy / "dataset.toml").read_text()
    if body(init_text) != body(text):
        return fail(f"harbor init wrote:\n{body(init_text)[:2000]}\nours:\n{body(text)[:2000]}")
    # harbor sync: every digest unchanged, the file byte-identical.
    (copy / "dataset.toml").write_text(text)
    r = run("sync", str(copy))
    if r.returncode != 0 or (copy / "dataset.toml").read_text() != text:
        return fail(f"harbor sync changed the manifest: {r.stdout}{r.stderr}")
    # harbor run --dry-run: the dataset directory loads, dataset.toml is no task.
    r = run("run", "--dry-run", "-p", str(dataset), "-a", "oracle", "-e", "singularity",
            "-o", str(scratch / "jobs"))
    out = r.stdout + r.stderr
    want = f"Dry run OK — {len(tasks)} trial(s)"
    if r.returncode != 0 or want not in out:
        return fail(f"harbor run --dry-run: {out[-3000:]}")
    # One task changed in the copy: an added test file changes the digest,
    # an ignored .pyc does not.
    t = copy / next(x.name for x in tasks if (x / "tests").is_dir())
    (t / "solution/__pycache__").mkdir(parents=True)
    (t / "solution/__pycache__/x.pyc").write_bytes(b"\0")
    ignored = "sha256:" + Packager.compute_content_hash(t)[0]
    (t / "tests/extra.txt").write_bytes(b"x\r\n")
    changed = "sha256:" + Packager.compute_content_hash(t)[0]
    print(json.dumps({
        "tasks": len(tasks),
        "name": m.dataset.name,
        "changed": [str(t), ignored, changed],
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
