"""Write Harbor trial result directories with harbor's own pydantic models
(harbor 0.25.0: TrialResult, StepResult, VerifierResult, ExceptionInfo), as
`harbor run` leaves them: <job>/<trial>/result.json.

usage: harbor_results.py SPEC.json

SPEC: {"job_dir": "...", "trials": [{"trial_name": "t1", "task_dir": "...",
       "agent": "oracle", "model": null, "rewards": {...} | null,
       "exception": "msg" | null,
       "steps": [{"step_name": "implement", "rewards": {...} | null, "exception": null}] | null}]}
Each result.json is validated back with TrialResult.model_validate_json.
Prints the written paths as JSON.
"""

import json
import sys
from datetime import datetime, timezone
from pathlib import Path

from harbor.models.task.id import LocalTaskId
from harbor.models.task.task import Task
from harbor.models.trial.config import TaskConfig, TrialConfig
from harbor.models.trial.result import AgentInfo, ExceptionInfo, ModelInfo, StepResult, TrialResult
from harbor.models.verifier.result import VerifierResult


def exc(msg):
    if msg is None:
        return None
    return ExceptionInfo(
        exception_type="AgentTimeoutError",
        exception_message=msg,
        exception_traceback="Traceback (most recent call last):\n",
        occurred_at=datetime.now(timezone.utc),
    )


def ver(rewards):
    return None if rewards is None else VerifierResult(rewards=rewards)


def main() -> int:
    spec = json.loads(Path(sys.argv[1]).read_text())
    job = Path(spec["job_dir"])
    out = []
    for t in spec["trials"]:
        task_dir = Path(t["task_dir"])
        task = Task(task_dir)
        trial_dir = job / t["trial_name"]
        trial_dir.mkdir(parents=True, exist_ok=True)
        steps = None
        if t.get("steps") is not None:
            steps = [
                StepResult(step_name=s["step_name"], verifier_result=ver(s["rewards"]), exception_info=exc(s.get("exception")))
                for s in t["steps"]
            ]
        model = ModelInfo(name=t["model"], provider="test") if t.get("model") else None
        r = TrialResult(
            task_name=task.name,
            trial_name=t["trial_name"],
            trial_uri=trial_dir.resolve().as_uri(),
            task_id=LocalTaskId(path=task_dir),
            task_checksum=task.checksum,
            config=TrialConfig(task=TaskConfig(path=task_dir), trial_name=t["trial_name"], trials_dir=job),
            agent_info=AgentInfo(name=t["agent"], version="0", model_info=model),
            verifier_result=ver(t.get("rewards")),
            exception_info=exc(t.get("exception")),
            step_results=steps,
        )
        text = r.model_dump_json(indent=2)
        TrialResult.model_validate_json(text)
        (trial_dir / "result.json").write_text(text)
        out.append(str(trial_dir / "result.json"))
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
