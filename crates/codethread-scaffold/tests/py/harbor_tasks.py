"""Load every task directory of a list with harbor's own Task loader and
Task.is_valid_dir (harbor 0.25.0); multi-step tasks must declare the steps
`implement` (min_reward 1.0, separate verifier) and `follow_on`.

usage: harbor_tasks.py TASKS.json   (a JSON list of task directories)
Prints {"loaded": n, "valid": n, "multi_step": n} as JSON; exits 1 on the
first task that does not load.
"""

import json
import sys
from pathlib import Path

from harbor.models.task.config import VerifierEnvironmentMode
from harbor.models.task.task import Task


def main() -> int:
    dirs = json.loads(Path(sys.argv[1]).read_text())
    loaded = valid = multi = 0
    for d in dirs:
        t = Task(d)
        loaded += 1
        if not Task.is_valid_dir(d):
            print(f"{d}: Task.is_valid_dir is False", file=sys.stderr)
            return 1
        valid += 1
        if t.has_steps:
            steps = t.config.steps
            names = [s.name for s in steps]
            if names != ["implement", "follow_on"] or steps[0].min_reward != 1.0:
                print(f"{d}: steps {names} min_reward {steps[0].min_reward}", file=sys.stderr)
                return 1
            if any(s.verifier.environment_mode != VerifierEnvironmentMode.SEPARATE for s in steps):
                print(f"{d}: a step's verifier is not separate", file=sys.stderr)
                return 1
            for s in names:
                if not t.step_instruction(s).strip():
                    print(f"{d}: step {s} has no instruction", file=sys.stderr)
                    return 1
            multi += 1
        elif not t.instruction.strip():
            print(f"{d}: no instruction", file=sys.stderr)
            return 1
    print(json.dumps({"loaded": loaded, "valid": valid, "multi_step": multi}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
