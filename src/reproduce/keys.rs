//! The keys and per-condition values the stages share.

use codethread_analysis::Condition;

/// One chain of the study: a model on an instance.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct ChainKey {
    /// The model (its directory name under the agents directory).
    pub model: String,
    /// The instance id.
    pub instance: String,
}

impl ChainKey {
    /// The key of `model` on `instance`.
    pub fn new(model: &str, instance: &str) -> ChainKey {
        ChainKey {
            model: model.to_string(),
            instance: instance.to_string(),
        }
    }
}

/// One value per PR2 condition of a chain: HA (agent PR2 on the human PR1) and AA (agent PR2
/// on the agent's own PR1). Indexed by [`Condition`]; HH has no slot.
#[derive(Debug, Clone, Default)]
pub(crate) struct PerCondition<T> {
    /// The HA value.
    pub ha: T,
    /// The AA value.
    pub aa: T,
}

/// The conditions a [`PerCondition`] holds, in the order the pipeline visits them.
pub(crate) const PR2_CONDITIONS: [Condition; 2] = [Condition::HA, Condition::AA];

impl<T> PerCondition<T> {
    /// The value of `c`; `None` for HH.
    pub fn get(&self, c: Condition) -> Option<&T> {
        match c {
            Condition::HA => Some(&self.ha),
            Condition::AA => Some(&self.aa),
            Condition::HH => None,
        }
    }

    /// The value of `c`, mutable; `None` for HH.
    pub fn get_mut(&mut self, c: Condition) -> Option<&mut T> {
        match c {
            Condition::HA => Some(&mut self.ha),
            Condition::AA => Some(&mut self.aa),
            Condition::HH => None,
        }
    }

    /// (condition, value) in [`PR2_CONDITIONS`] order.
    pub fn iter(&self) -> impl Iterator<Item = (Condition, &T)> {
        [(Condition::HA, &self.ha), (Condition::AA, &self.aa)].into_iter()
    }
}
