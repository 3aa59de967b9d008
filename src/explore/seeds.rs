//! The seed pool of one suite: the ready fixtures it starts from, and the
//! values its inputs hold under each member name (so that a mutation can
//! plant `"type": "tool_result"` where another case had `"type": "text"`).

use crate::fixture::{FixtureStatus, LoadedFixture};
use crate::implementation::Implementation;
use crate::suite_api::Suite;
use serde_json::Value;
use std::collections::{BTreeMap, HashSet};

/// Distinct values kept per member name.
const MAX_VALUES_PER_KEY: usize = 48;

/// Longest string kept in the value pool, in bytes: long texts are better
/// planted by the string mutations.
const MAX_POOLED_STRING: usize = 200;

/// One fixture the explorer starts from.
#[derive(Clone, Debug)]
pub struct Seed {
    /// `suite/name`.
    pub id: String,
    /// The fixtureVersion.
    pub version: u32,
    /// The whole document (new documents are assembled from it).
    pub document: Value,
    /// Its input part.
    pub input: Value,
}

/// The seeds of one suite and the values seen in their inputs.
#[derive(Clone, Debug)]
pub struct SeedPool {
    /// The suite.
    pub suite: &'static dyn Suite,
    /// Ready fixtures whose version the reference implements, in corpus order.
    pub seeds: Vec<Seed>,
    /// Scalar values by member name, in first-seen order, deduplicated.
    pub values: BTreeMap<String, Vec<Value>>,
    /// Member names seen, in sorted order (for planting known members).
    pub keys: Vec<String>,
}

impl SeedPool {
    /// The pool of `suite` from those of `fixtures` that are ready fixtures
    /// of the suite whose version its reference implements.
    pub fn of<'f>(suite: &'static dyn Suite, fixtures: impl IntoIterator<Item = &'f LoadedFixture>) -> SeedPool {
        let mut seeds = Vec::new();
        for fixture in fixtures.into_iter().filter(|f| f.suite.name() == suite.name()) {
            let (FixtureStatus::Ready(parts), Some(document)) = (&fixture.status, &fixture.document) else { continue };
            let version = fixture.version.unwrap_or(1);
            if suite.reference_for(version).is_none() {
                continue;
            }
            seeds.push(Seed {
                id: fixture.id.clone(),
                version,
                document: document.clone(),
                input: parts.input.clone(),
            });
        }
        SeedPool::from_seeds(suite, seeds)
    }

    /// The pool of `suite` with these seeds.
    pub fn from_seeds(suite: &'static dyn Suite, seeds: Vec<Seed>) -> SeedPool {
        let mut values: BTreeMap<String, Vec<Value>> = BTreeMap::new();
        let mut seen: HashSet<(String, String)> = HashSet::new();
        for seed in &seeds {
            collect_values(&seed.input, &mut values, &mut seen);
        }
        let keys = values.keys().cloned().collect();
        SeedPool { suite, seeds, values, keys }
    }

    /// Whether there is anything to explore from.
    pub fn is_empty(&self) -> bool {
        self.seeds.is_empty()
    }
}

/// Keeps, in every pool, only the seeds whose fixtureVersion every one of
/// `implementations` declares (an implementation that declares nothing up
/// front keeps every seed), so that no input is spent on `unsupported`;
/// pools left without seeds are dropped. Returns one line saying how many
/// seeds were left out and why, when any were.
pub fn keep_judgeable_seeds(pools: &mut Vec<SeedPool>, implementations: &[&dyn Implementation]) -> Option<String> {
    let mut left_out = 0;
    let mut versions_left_out: BTreeMap<String, std::collections::BTreeSet<u32>> = BTreeMap::new();
    for pool in pools.iter_mut() {
        let declared: Vec<Option<Vec<u32>>> =
            implementations.iter().map(|implementation| implementation.declared_versions(pool.suite.name())).collect();
        let judgeable =
            |version: u32| declared.iter().all(|versions| versions.as_ref().is_none_or(|list| list.contains(&version)));
        let before = pool.seeds.len();
        if pool.seeds.iter().all(|seed| judgeable(seed.version)) {
            continue;
        }
        let (kept, dropped): (Vec<Seed>, Vec<Seed>) =
            std::mem::take(&mut pool.seeds).into_iter().partition(|seed| judgeable(seed.version));
        for seed in &dropped {
            versions_left_out.entry(pool.suite.name().to_owned()).or_default().insert(seed.version);
        }
        left_out += before - kept.len();
        *pool = SeedPool::from_seeds(pool.suite, kept);
    }
    pools.retain(|pool| !pool.is_empty());
    (left_out > 0).then(|| {
        let which: Vec<String> = versions_left_out
            .iter()
            .map(|(suite, versions)| {
                let versions: Vec<String> = versions.iter().map(u32::to_string).collect();
                format!("{suite} v{}", versions.join("/"))
            })
            .collect();
        format!(
            "{left_out} {} left out: their fixtureVersion is not declared by every implementation under test ({})",
            if left_out == 1 { "seed" } else { "seeds" },
            which.join(", ")
        )
    })
}

/// Keeps, in every pool, only the seeds whose own input is in the suite's
/// wire contract (for `--in-contract`: mutations of a robustness seed are
/// almost never in contract); pools left without seeds are dropped. Returns
/// how many seeds were left out.
pub fn keep_in_contract_seeds(pools: &mut Vec<SeedPool>) -> usize {
    let mut left_out = 0;
    for pool in pools.iter_mut() {
        let suite = pool.suite;
        let in_contract =
            |seed: &Seed| !crate::schema::input_contract(suite, seed.version, &seed.input).is_robustness();
        if pool.seeds.iter().all(in_contract) {
            continue;
        }
        let before = pool.seeds.len();
        let kept: Vec<Seed> = std::mem::take(&mut pool.seeds).into_iter().filter(in_contract).collect();
        left_out += before - kept.len();
        *pool = SeedPool::from_seeds(suite, kept);
    }
    pools.retain(|pool| !pool.is_empty());
    left_out
}

fn collect_values(value: &Value, into: &mut BTreeMap<String, Vec<Value>>, seen: &mut HashSet<(String, String)>) {
    let mut stack = vec![value];
    while let Some(node) = stack.pop() {
        match node {
            Value::Array(items) => stack.extend(items.iter().rev()),
            Value::Object(members) => {
                let mut below = Vec::with_capacity(members.len());
                for (key, member) in members {
                    let keep = match member {
                        Value::String(text) => text.len() <= MAX_POOLED_STRING,
                        Value::Number(_) | Value::Bool(_) | Value::Null => true,
                        _ => false,
                    };
                    if keep {
                        let list = into.entry(key.clone()).or_default();
                        if list.len() < MAX_VALUES_PER_KEY
                            && seen.insert((key.clone(), crate::json::to_compact_string(member)))
                        {
                            list.push(member.clone());
                        }
                    } else {
                        into.entry(key.clone()).or_default();
                    }
                    below.push(member);
                }
                stack.extend(below.into_iter().rev());
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn values_are_pooled_by_member_name() {
        let mut values = BTreeMap::new();
        let mut seen = HashSet::new();
        let input =
            json!({"messages": [{"type": "text", "n": 1}, {"type": "tool_use", "n": 1, "o": {"type": "text"}}]});
        collect_values(&input, &mut values, &mut seen);
        assert_eq!(values["type"], vec![json!("text"), json!("tool_use")]);
        assert_eq!(values["n"], vec![json!(1)]);
        assert!(values["messages"].is_empty() && values["o"].is_empty());
    }
}
