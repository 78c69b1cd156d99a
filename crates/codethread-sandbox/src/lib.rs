//! # codethread-sandbox
//!
//! Real runs on a local machine: a container runtime the project sets up itself, per-instance
//! images the real SWE-bench harness uses unmodified, and stacks graded by that harness.
//!
//! - [`runtime`]: Debian's `docker.io` installed and `dockerd` started when absent (root),
//!   graded containers cut off from every network, base images made with `debootstrap` from
//!   the Debian mirror apt uses (no registry of images is needed).
//! - [`spec`]: what an instance's image holds, planned from SWE-bench's own environment
//!   specifications (swebench < 5), with the reason when this machine cannot build it.
//! - [`images`]: [`build_images`] builds (or reuses) the image of every built instance of a
//!   chain, named as the row's `image` field.
//! - [`agents`]: the SWE-agent images of an agent-side subset (setup image plus a
//!   self-contained swe-rex runtime) and the network with no way out its rows name; what
//!   Harbor's docker environment needs (Compose v2, the verifiers' grader image).
//! - [`leak`]: whether an agent's running container holds a line of the code it is asked to
//!   restore (files, every git object, process environments).
//! - [`grade`](mod@grade): [`grade()`] runs swebench's `run_evaluation` code on a predictions file and
//!   keeps its logs tree as the harness writes it, for `chain gate` and `reproduce`.
//!
//! Planning needs no container runtime:
//!
//! ```
//! use codethread_sandbox::spec::{conda_to_pip, plan_env, SpecTable};
//! use codethread_sandbox::SandboxError;
//!
//! let table: SpecTable = serde_json::from_str(r#"{
//!     "swebench": "4.1.0",
//!     "specs": {"psf/requests": {"2.0": {"python": "3.9", "packages": "pytest",
//!                                         "install": "python -m pip install ."}}}
//! }"#).unwrap();
//! let mut no_files = |_: &str, _: &str| -> Result<Option<Vec<u8>>, SandboxError> { Ok(None) };
//! let env = plan_env(&table, "psf__requests-1766", "psf/requests", "2.0", None, &mut no_files)
//!     .unwrap()
//!     .expect("buildable");
//! assert_eq!(env.suite, "bullseye"); // Debian 11 ships Python 3.9
//! assert_eq!(env.conda_packages, ["pytest==8.3.3"]);
//! assert!(env.httpbin); // old requests tests call httpbin.org
//! assert_eq!(conda_to_pip("numpy=1.19").as_deref(), Some("numpy==1.19.*"));
//! ```

pub mod agents;
mod cmd;
pub mod docker;
mod error;
pub mod grade;
pub mod images;
pub mod leak;
mod recipe;
pub mod runtime;
pub mod spec;

pub use crate::agents::{build_swe_agent_images, SweAgentImages, SweAgentOptions};
pub use crate::docker::{Builder, Docker};
pub use crate::error::SandboxError;
pub use crate::grade::{grade, GradeOptions, GradeRun};
pub use crate::images::{build_images, ImageOutcome, ImagesOptions, ImagesReport, SpecsFrom};
pub use crate::runtime::{ensure_runtime, Runtime, RuntimeOptions, StorageDriver};
pub use crate::spec::{InstancePlan, SpecTable, Unbuildable};

/// What a long run reports as it goes (the command line draws it on a terminal).
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub enum Event<'a> {
    /// A step that may take a while starts.
    Step(&'a str),
    /// `done` of `total` items are finished; `id` is the current one.
    Progress {
        /// Finished items.
        done: usize,
        /// All items.
        total: usize,
        /// The current item.
        id: &'a str,
    },
    /// An image exists now.
    Image {
        /// The instance.
        id: &'a str,
        /// The image.
        image: &'a str,
        /// Built now (else reused).
        built: bool,
        /// Seconds the build took.
        seconds: f64,
    },
    /// An instance cannot be built on this machine.
    Unbuildable(&'a Unbuildable),
    /// An instance failed.
    Failed(&'a str, &'a str),
}

/// Lower-case hex of bytes.
pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
