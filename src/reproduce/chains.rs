//! Stage 1: the chains (targets, PR0, task statements, exports) and, per built instance, the
//! trees every model's chain starts from.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use codethread_bench::Instance;
use codethread_chain::SourceReader;
use codethread_chain::{BuildOptions, BuildStatus, Chain};
use codethread_patch::{ApplyOptions, MemTree};

use super::{Diagnostic, ReproduceError, ReproduceSummary};

/// The trees of one built instance, shared by every model's chain on it.
pub(crate) struct InstanceTrees {
    /// The human PR1: the pre-images of the files the gold patch touches.
    pub base: MemTree,
    /// The base with PR0 applied (targets stubbed): what the agent's PR1 starts from.
    pub stubbed: MemTree,
    /// The instance's repository (`owner/name`) and base commit: where a file an agent's
    /// patch touches outside these trees is read from.
    pub repo: String,
    /// See [`InstanceTrees::repo`].
    pub base_commit: String,
}

/// What the chain stage built.
pub(crate) struct Built {
    /// The chain directory, opened.
    pub chain: Chain,
    /// Target ids (`path::qualname[#n]`) per built instance.
    pub targets: BTreeMap<String, BTreeSet<String>>,
    /// The trees per built instance whose pre-images could be read.
    pub trees: BTreeMap<String, InstanceTrees>,
}

/// Builds the chains of `instances` into `chain_dir` (counts and failures into `sum`) and reads
/// the base and PR0 trees of every built instance (a failure is a [`Diagnostic::PreImages`]).
///
/// # Errors
/// A failure of the chain build as a whole.
pub(crate) fn build(
    instances: &[Instance],
    source: &mut dyn SourceReader,
    chain_dir: &Path,
    limits: codethread_lang::io::SourceLimits,
    sum: &mut ReproduceSummary,
) -> Result<Built, ReproduceError> {
    let built = codethread_chain::build(
        instances,
        source,
        &BuildOptions::default()
            .out(chain_dir.to_path_buf())
            .force(true)
            .limits(limits),
        &mut |_, _, _| {},
    )?;
    let mut targets = BTreeMap::new();
    for o in &built.outcomes {
        match &o.status {
            BuildStatus::Built { targets: t, .. } => {
                sum.built += 1;
                targets.insert(o.instance_id.clone(), t.iter().cloned().collect());
            }
            BuildStatus::Filtered { reason } => {
                sum.filtered.push((o.instance_id.clone(), reason.clone()))
            }
            BuildStatus::Failed { error } => {
                sum.failed.push((o.instance_id.clone(), error.clone()))
            }
        }
    }
    let chain = Chain::open(chain_dir, limits)?;
    let mut trees = BTreeMap::new();
    for inst in chain
        .instances
        .iter()
        .filter(|i| chain.is_built(&i.instance_id))
    {
        match instance_trees(&chain, inst, source) {
            Ok(t) => {
                trees.insert(inst.instance_id.clone(), t);
            }
            Err(message) => sum.errors.push(Diagnostic::PreImages {
                instance: inst.instance_id.clone(),
                message,
            }),
        }
    }
    Ok(Built {
        chain,
        targets,
        trees,
    })
}

/// The base (pre-images of the gold patch's files) and stubbed (base + PR0) trees of `inst`.
fn instance_trees(
    chain: &Chain,
    inst: &Instance,
    source: &mut dyn SourceReader,
) -> Result<InstanceTrees, String> {
    let id = &inst.instance_id;
    let gold = codethread_patch::parse_patch(inst.patch.as_bytes()).map_err(|e| e.to_string())?;
    source
        .select_repo_for(id, &inst.repo)
        .map_err(|e| e.to_string())?;
    let mut base = MemTree::new();
    for p in gold.touched_paths() {
        let p = String::from_utf8_lossy(&p).into_owned();
        if let Some(b) = source
            .read(id, &inst.base_commit, &p)
            .map_err(|e| e.to_string())?
        {
            base.insert(p.into_bytes(), b);
        }
    }
    let pr0 = chain.pr0(id).ok_or("no PR0")?;
    let pr0 = codethread_patch::parse_patch(&pr0).map_err(|e| e.to_string())?;
    let mut stubbed = base.clone();
    stubbed
        .apply(&pr0, &ApplyOptions::default())
        .map_err(|e| e.to_string())?;
    Ok(InstanceTrees {
        base,
        stubbed,
        repo: inst.repo.clone(),
        base_commit: inst.base_commit.clone(),
    })
}
