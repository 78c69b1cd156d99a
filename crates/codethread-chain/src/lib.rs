//! codethread-chain (work in progress).
pub mod condition;
pub mod error;
pub mod export;
pub mod fsutil;
pub mod gate;
pub mod gitcli;
pub mod instance;
pub mod pipeline;
pub mod pr0;
pub mod predictions;
pub mod pyliteral;
pub mod records;
pub mod report;
pub mod source;
pub mod stack;
pub mod statement;
pub mod targets;
