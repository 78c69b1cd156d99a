//! The crate's error: what went wrong setting up the container runtime, building an image or
//! grading a stack, naming the command, the file or the instance.

use std::path::PathBuf;

/// Everything that can go wrong in this crate.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SandboxError {
    /// Reading or writing a file failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// A program could not be started.
    #[error("cannot run {program}: {source}")]
    Spawn {
        /// The program.
        program: String,
        /// The underlying error.
        source: std::io::Error,
    },
    /// A program ran and failed.
    #[error("{command} failed ({status}){}{}", log.as_ref().map(|l| format!("; log: {}", l.display())).unwrap_or_default(), if tail.is_empty() { String::new() } else { format!("\n{tail}") })]
    Command {
        /// The command line, shortened.
        command: String,
        /// Its exit status.
        status: String,
        /// The log file holding its whole output, when there is one.
        log: Option<PathBuf>,
        /// The last lines of its output.
        tail: String,
    },
    /// The container runtime is not usable and could not be set up.
    #[error("container runtime: {0}")]
    Runtime(String),
    /// The environment specifications could not be read.
    #[error("environment specifications: {0}")]
    Specs(String),
    /// One instance cannot be planned, built or graded.
    #[error("instance {instance_id}: {message}")]
    Instance {
        /// The instance.
        instance_id: String,
        /// What went wrong.
        message: String,
    },
    /// A file has a shape this crate does not read.
    #[error("{}: {message}", path.display())]
    Format {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// A chain could not be opened or read.
    #[error(transparent)]
    Chain(#[from] codethread_chain::ChainError),
    /// A file was refused by the safe I/O layer.
    #[error(transparent)]
    File(#[from] codethread_lang::io::IoError),
}

impl SandboxError {
    /// An I/O error on `path`.
    pub(crate) fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        SandboxError::Io {
            path: path.into(),
            source,
        }
    }

    /// An error of one instance.
    pub(crate) fn instance(instance_id: &str, message: impl Into<String>) -> Self {
        SandboxError::Instance {
            instance_id: instance_id.to_string(),
            message: message.into(),
        }
    }
}
