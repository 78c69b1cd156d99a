//! codethread-chain (work in progress).
