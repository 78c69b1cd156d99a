//! codethread-chain (work in progress).
pub mod error;
pub mod gate;
pub mod instance;
pub mod predictions;
pub mod pyliteral;
pub mod records;
pub mod report;
