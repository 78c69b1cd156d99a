//! Harbor (PyPI `harbor`, 0.25.0) tasks from a chain, and Harbor job
//! results back into the project's predictions and harness reports.
//!
//! - [`export`]: one Harbor task directory per built instance and
//!   condition ([`HarborCondition`]): the Implementation Task (reward = the
//!   PR1 gate), the Follow-On Issue on the human PR1 (reward = swebench's
//!   `resolved`) and the two-step AA chain (`[[steps]]` implement →
//!   follow-on, `min_reward` on the gate). The agent's image holds the
//!   setup state made by [`crate::mini_swe_agent::SETUP_SCRIPT`] from the sealed
//!   setup patch (no original code, history hidden); grading runs in a
//!   separate verifier image (the upstream swebench image at base, swebench
//!   baked in) that applies the sealed setup and the collected diff and runs
//!   the row's own `eval_script`, then `grade.py` (swebench's
//!   `get_eval_report`) writes `/logs/verifier/reward.json`.
//! - [`import`]: `<job>/<trial>/result.json` and the collected
//!   `model.patch` of every trial (and step) into predictions files and
//!   `report.json` trees that `chain gate` and `chain stack` read unchanged,
//!   plus one outcome per trial and step (`outcomes.jsonl`): a trial with an
//!   exception, no diff, no reward or a malformed file is a named outcome,
//!   never dropped.
//!
//! The layout and the commands are in `docs/harbor.md`.

pub mod export;
pub mod import;

pub use export::{
    export_harbor, task_digest, AgentPr1, HarborCondition, HarborExport, HarborExportOptions,
    HarborImage, ImageRole, IMAGES_FILE,
};
pub use import::{
    import_harbor_job, model_dir_name, report_model_dir, HarborImport, TrialOutcome, REPRODUCE_DIR,
};

/// The swebench release baked into every verifier image (its grading code
/// reads the logs; 5.x takes the rows' `eval_script` and `log_parser`).
pub const SWEBENCH_PIN: &str = "swebench==5.0.2";

/// The uv image the verifier Dockerfile copies `uv` from (to install a
/// Python 3.12 and swebench in `/opt/codethread-grader`, whatever the
/// upstream image holds).
pub const UV_IMAGE: &str = "ghcr.io/astral-sh/uv:0.8.0";

/// `/opt/codethread-grader/bin/python` of the grader image
/// ([`grader_dockerfile`]): runs a script (`python SCRIPT ARG...`, what
/// `tests/test.sh` calls) in the self-contained Python through its own
/// loader and libraries (for that process only: the tests it grades run
/// with the image's own), isolated (`-I`) from the image's `PYTHONPATH`;
/// `integrations/harbor/grader-python` holds the same text.
pub const GRADER_PYTHON: &str = r#"#!/bin/sh
# codethread: Python with swebench, self-contained under /opt/codethread-grader.
exec /opt/codethread-grader/lib/ld-linux-x86-64.so.2 --library-path /opt/codethread-grader/lib \
  /opt/codethread-grader/bin/python3.11 -I -c '
import runpy, sys
sys.path.insert(0, "/opt/codethread-grader/site")
sys.argv = sys.argv[1:]
if not sys.argv:
    sys.exit("usage: python SCRIPT [ARG...]")
runpy.run_path(sys.argv[0], run_name="__main__")
' "$@"
"#;

/// The Dockerfile of the grader image the verifiers copy
/// `/opt/codethread-grader` from when exported with
/// [`HarborExportOptions::grader_image`]: swebench ([`SWEBENCH_PIN`]) in a
/// self-contained Python 3.11, built from a Debian bookworm image with the
/// package registries alone; `integrations/harbor/grader.Dockerfile` holds
/// the same text. Its build context holds [`GRADER_PYTHON`] as
/// `grader-python`.
pub fn grader_dockerfile() -> String {
    crate::portable::dockerfile(
        "the grader of Harbor verifiers (swebench)",
        "/opt/codethread-grader",
        SWEBENCH_PIN,
        "grader-python",
        "python",
        "echo 'import swebench.harness.grading' > /tmp/check.py && /opt/codethread-grader/bin/python /tmp/check.py && rm /tmp/check.py",
        false,
        &[],
    )
}

/// The tag of the grader image: `codethread/harbor-grader:swebench-5.0.2-<hash>`
/// (a hash of [`grader_dockerfile`] and [`GRADER_PYTHON`]).
pub fn grader_image() -> String {
    crate::portable::hashed_tag(
        "codethread/harbor-grader",
        &SWEBENCH_PIN.replace("==", "-"),
        &[&grader_dockerfile(), GRADER_PYTHON],
    )
}

/// The grader every verifier runs after the tests (`tests/grade.py`). Each grader is its
/// benchmark's part (`harbor/grade*.py`: reading the tests' output) followed by the part every
/// grader shares (`harbor/grade_common.py`: the arguments, the gate and resolve decisions, the
/// files a verifier leaves).
pub const GRADE_PY: &str = concat!(
    include_str!("harbor/grade.py"),
    include_str!("harbor/grade_common.py")
);

/// The grader of a FeatBench instance's verifiers (`tests/grade.py` of its
/// tasks): FeatBench's rules for reading pytest's output and deciding each
/// test (its names up to the first `[` aggregated), the standard library
/// only; it also writes the record FeatBench's evaluator would
/// (`featbench.json`) and a report in swebench's shape (`report.json`).
pub const GRADE_FEATBENCH_PY: &str = concat!(
    include_str!("harbor/grade_featbench.py"),
    include_str!("harbor/grade_common.py")
);

/// The grader of a SWE-bench Pro instance's verifiers (`tests/grade.py` of its
/// tasks): Pro's rule (a listed test passed iff its exact name has status
/// `PASSED` in the output of the instance's own `parser.py`, which
/// `tests/eval.sh` runs after its own `run_script.sh`), the standard library
/// only; it writes a report in swebench's shape (`report.json`).
pub const GRADE_PRO_PY: &str = concat!(
    include_str!("harbor/grade_pro.py"),
    include_str!("harbor/grade_common.py")
);

/// The ref the agent image's setup commit is kept under: the collected
/// diff of the first step is taken against it.
pub const SETUP_REF: &str = "refs/codethread/setup";

/// The ref the second step of a chain task commits the first step's work
/// under (its setup script): the second step's `model.patch` (PR2) is
/// taken against it, its `stack.patch` (PR1 + PR2) against [`SETUP_REF`].
pub const STEP1_REF: &str = "refs/codethread/step1";

/// Name of the collected diff relative to the state the step started from.
pub const MODEL_PATCH: &str = "model.patch";

/// Name of the collected diff relative to the setup state (second step of a
/// chain task: PR1 + PR2).
pub const STACK_PATCH: &str = "stack.patch";
