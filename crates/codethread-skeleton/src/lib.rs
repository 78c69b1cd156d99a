//! codethread-skeleton (work in progress).
