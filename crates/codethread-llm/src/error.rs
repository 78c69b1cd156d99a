//! The crate's error: a file problem (naming file and line, from
//! codethread-bench's readers) or a request a batch engine would refuse.

use codethread_bench::BenchError;

/// Everything that can go wrong in this crate outside the runner
/// ([`crate::RunnerError`] is the runner's).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LlmError {
    /// A file, or one line of it, could not be read or written; the error
    /// names the file (and line, field and id where there is one).
    #[error(transparent)]
    File(#[from] BenchError),
    /// A request its batch engine would refuse.
    #[error("request {custom_id}: {problem}")]
    Request {
        /// The request's `custom_id`.
        custom_id: String,
        /// Why it is refused.
        problem: RequestProblem,
    },
}

impl From<codethread_lang::io::IoError> for LlmError {
    fn from(e: codethread_lang::io::IoError) -> Self {
        LlmError::File(e.into())
    }
}

/// Why a request cannot be written for, or sent to, an engine.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RequestProblem {
    /// Anthropic Message Batches refuse the id.
    #[error("custom_id does not match ^[a-zA-Z0-9_-]{{1,64}}$ (Anthropic Message Batches)")]
    AnthropicId,
    /// The generation parameters are refused for the engine.
    #[error("{0}")]
    Params(RequestLineError),
    /// The request body cannot be serialized.
    #[error("the request body cannot be serialized: {0}")]
    Body(String),
}

/// A request line or generation parameter that breaks its format's rules
/// ([`crate::validate_request_line`], [`crate::GenParams::check`]): the field at fault
/// when one is (`body.model`, `messages[1].role`, ...) and the problem.
/// Displayed as `<field>: <problem>`, or the problem alone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestLineError {
    /// The field at fault, when the problem is one field's.
    pub field: Option<String>,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for RequestLineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.field {
            Some(field) => write!(f, "{field}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for RequestLineError {}

impl From<String> for RequestLineError {
    /// `"<field>: <problem>"` (a field name of letters, digits, `_`, `.`,
    /// `[`, `]`) is split; any other text is the problem alone.
    fn from(s: String) -> Self {
        if let Some((field, message)) = s.split_once(": ") {
            let is_field = !field.is_empty()
                && field
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '[' | ']'));
            if is_field {
                return RequestLineError {
                    field: Some(field.to_string()),
                    message: message.to_string(),
                };
            }
        }
        RequestLineError {
            field: None,
            message: s,
        }
    }
}

impl From<&str> for RequestLineError {
    fn from(s: &str) -> Self {
        RequestLineError::from(s.to_string())
    }
}
