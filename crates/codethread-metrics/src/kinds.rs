//! Node kind names by table lookup (see [`codethread_lang::kind_of`]).

pub(crate) use codethread_lang::kind_of;
